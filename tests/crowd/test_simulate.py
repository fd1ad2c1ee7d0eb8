"""Synthetic judgments (pipeline/simulate.py): schema, labelling, design, model, determinism, command."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from pipeline.cli import main
from pipeline.common.vocabulary import ANSWERS, ORDERS
from pipeline.crowd.judgments import JUDGMENT_COLUMNS
from pipeline.crowd.simulate import (
    DEFAULT_MODEL_FILE,
    GROUPS,
    RELATIONS,
    default_model,
    expected_gold_shares,
    load_model,
    manifest_path,
    pair_group,
    simulate,
    simulate_judgments,
    write_judgments,
)


@pytest.fixture(scope="module")
def corpus(synthetic_corpus) -> pd.DataFrame:
    return synthetic_corpus(50)


@pytest.fixture(scope="module")
def sim(sim_controls, corpus):
    return simulate(corpus, workers=120, per_order=5, seed=7, controls=sim_controls)


def test_pair_group(sim_group_types):
    assert pair_group("S1aS1b", "cross") == "S1aS1b"
    assert pair_group("S1aS2a", "same") == "S1S2-same"
    assert pair_group("S1bS3a", "cross") == "S1S3-cross"
    assert pair_group("S1bS4b", "same") == "S1S4-same"
    assert pair_group("S1aS4b", "") == "S1S4-cross"  # set derived from the letters when missing
    assert pair_group("unrelated", "unrelated") == "unrelated"
    with pytest.raises(ValueError):
        pair_group("S2aS3b", "same")
    assert set(sim_group_types) == set(GROUPS)


def test_schema_and_synthetic_label(sim, corpus):
    j = sim.judgments
    assert list(j.columns) == JUDGMENT_COLUMNS
    assert j["worker_id"].str.startswith("synthetic-w").all()
    assert set(j["order"]) == set(ORDERS) and set(j["answer"]) <= set(ANSWERS)
    assert j["relatedness"].dtype == np.int64 and j["relatedness"].between(1, 5).all()
    assert j["is_control"].dtype == bool
    assert sim.manifest["synthetic"] is True and "Table 8" in sim.manifest["model_source"]
    assert sim.manifest["model_stand_in"] is False
    assert sim.manifest["counts"]["pairs"] == len(corpus)


def test_design_ten_distinct_workers_five_per_order(sim, corpus):
    items = sim.judgments[~sim.judgments["is_control"]]
    assert set(items["pair_ID"]) == set(corpus["pair_ID"])
    per = items.groupby(["pair_ID", "order"]).size()
    assert (per == 5).all() and len(per) == 2 * len(corpus)
    assert (items.groupby("pair_ID")["worker_id"].nunique() == 10).all()
    assert not items.duplicated(["pair_ID", "worker_id", "order"]).any()


def test_controls_judged_per_known_answers(sim_controls, sim):
    ctl = sim.judgments[sim.judgments["is_control"]]
    assert len(ctl) == 120 * 10  # controls_per_worker default 10, 15 (control, order) items available
    assert not ctl.duplicated(["pair_ID", "worker_id", "order"]).any()
    assert not ((ctl["pair_ID"] == "CTRL-008") & (ctl["order"] == "BA")).any()  # no expected answer there
    expected = {(r.pair_ID, o): getattr(r, f"answer_{o}") for r in sim_controls.itertuples() for o in ORDERS}
    ok = np.array([expected[(p, o)] == a for p, o, a in zip(ctl["pair_ID"], ctl["order"], ctl["answer"])])
    spam = set(sim.workers.loc[sim.workers["spammer"], "worker_id"])
    good = ~ctl["worker_id"].isin(spam).to_numpy()
    assert ok[good].mean() > 0.95
    assert 0.2 < ok[~good].mean() < 0.5  # spammers: a third by chance
    lo = ctl["pair_ID"].map(sim_controls.set_index("pair_ID")["relatedness_min"])
    hi = ctl["pair_ID"].map(sim_controls.set_index("pair_ID")["relatedness_max"])
    assert ctl["relatedness"][good].between(lo[good], hi[good]).all()


def test_spammers(sim):
    spam = sim.workers[sim.workers["spammer"]]
    assert len(spam) == 12  # round(0.1 * 120)
    assert sorted(spam["worker_id"]) == sim.manifest["spammers"]


def test_true_relatedness_and_relations_follow_the_model(synthetic_corpus):
    corpus = synthetic_corpus(400)
    s = simulate(corpus, workers=60, per_order=1, seed=3, spammer_share=0)
    t = s.truth
    from scipy.stats import norm

    for g, m in default_model().groups.items():
        sub = t[t["group"] == g]
        # the mean of Normal(mean, sd) clipped to [1, 5]
        lo, hi = (1 - m["mean"]) / m["sd"], (5 - m["mean"]) / m["sd"]
        clipped = (1 * norm.cdf(lo) + 5 * norm.sf(hi) + m["mean"] * (norm.cdf(hi) - norm.cdf(lo))
                   + m["sd"] * (norm.pdf(lo) - norm.pdf(hi)))
        assert abs(sub["true_relatedness"].mean() - clipped) < 0.1, g
        shares = sub["relation"].value_counts(normalize=True)
        for rel, p in zip(RELATIONS, m["relation"]):
            # four standard errors of a share of 400 draws
            assert abs(shares.get(rel, 0.0) - p) < 4 * (p * (1 - p) / len(sub)) ** 0.5 + 0.005, (g, rel)
    # the AB / BA answers follow the relation: entailment can be one-way
    fwd = t[t["relation"] == "forward"]
    assert (fwd["answer_AB"] == "TRUE").all() and (fwd["answer_BA"] == "UNKNOWN").all()
    back = t[t["relation"] == "backward"]
    assert (back["answer_AB"] == "UNKNOWN").all() and (back["answer_BA"] == "TRUE").all()
    assert (t.loc[t["relation"] == "contradict", ["answer_AB", "answer_BA"]] == "FALSE").all().all()


def test_expected_gold_shares():
    # mutual + forward -> ENTAILMENT, contradict -> CONTRADICTION, backward + neutral -> NEUTRAL
    shares = expected_gold_shares({"g": {"mean": 3, "sd": 1, "relation": (0.1, 0.2, 0.3, 0.15, 0.25)}})
    assert shares["g"] == pytest.approx({"ENTAILMENT": 0.3, "CONTRADICTION": 0.15, "NEUTRAL": 0.55})
    for s in expected_gold_shares().values():
        assert sum(s.values()) == pytest.approx(1)


def _model_text(old: str, new: str) -> str:
    """The default model file with the one occurrence of ``old`` replaced by ``new``."""
    text = DEFAULT_MODEL_FILE.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_default_model_file_is_complete_and_cites_the_paper():
    import yaml

    raw = yaml.safe_load(DEFAULT_MODEL_FILE.read_text(encoding="utf-8"))
    m = default_model()
    assert m.stand_in is False and "Table 8" in m.source and "Table 9" in m.source
    assert m.path == str(DEFAULT_MODEL_FILE)
    assert list(m.groups) == list(GROUPS) and set(raw["groups"]) == set(GROUPS)
    for g, params in raw["groups"].items():  # the loader keeps the file's numbers, in RELATIONS order
        assert m.groups[g]["mean"] == params["mean"] and m.groups[g]["sd"] == params["sd"]
        assert m.groups[g]["relation"] == tuple(params["relation"][r] for r in RELATIONS)
        assert "Table 8 row" in params["why"] and "Table 9" in params["why"], g


@pytest.mark.parametrize("change,field,problem", [
    (("    mean: 5.00\n", "    mean: 5.60\n"), "groups.S1S2-same.mean", "less than or equal to 5"),
    (("    sd: 0.52\n", "    sd: -0.52\n"), "groups.S1S2-same.sd", "greater than or equal to 0"),
    (("    sd: 0.52\n", "    sd: .inf\n"), "groups.S1S2-same.sd", "finite number"),
    (("contradict: 0.628, neutral: 0.336}", "contradict: 0.628, neutral: 0.436}"), "groups.S1S3-same.relation",
     "sum to 1"),
    (("{mutual: 0.767, forward: 0.226,", "{mutal: 0.767, forward: 0.226,"), "groups.S1S2-same.relation",
     "missing mutual; unknown mutal"),
    (("    sd: 0.52\n", "    sd: 0.52\n    skew: 1\n"), "groups.S1S2-same.skew", "Extra inputs"),
    (("stand_in: false\n", ""), "stand_in", "Field required"),
    (("  S1S4-cross:\n", "  S1S5-cross:\n"), "groups", "missing group(s) S1S4-cross; unknown group(s) S1S5-cross"),
])
def test_bad_model_file_names_file_line_and_field(tmp_path, change, field, problem):
    from pipeline.common.errors import InputError

    path = tmp_path / "model.yaml"
    path.write_text(_model_text(*change), encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_model(path)
    assert err.value.path == str(path) and err.value.field == field and problem in err.value.problem
    lines = path.read_text(encoding="utf-8").splitlines()
    key = field.split(".")[-1]
    if change[1] and key != "groups":  # the line named holds the offending key
        assert lines[err.value.line - 1].strip().startswith(key + ":"), (err.value.line, key)
    with pytest.raises(InputError, match="not found"):
        load_model(tmp_path / "missing.yaml")
    (tmp_path / "bad.yaml").write_text("groups: [\n", encoding="utf-8")
    with pytest.raises(InputError, match="not valid YAML"):
        load_model(tmp_path / "bad.yaml")


def test_model_option_drives_the_simulation(corpus, tmp_path):
    """A model where every related pair contradicts and every pair has relatedness 2: the truth follows it,
    and the manifest names the file, its hash and its source."""
    import hashlib
    import re

    text = DEFAULT_MODEL_FILE.read_text(encoding="utf-8")
    text = re.sub(r"relation: \{[^}]*\}", "relation: {mutual: 0, forward: 0, backward: 0, contradict: 1, neutral: 0}",
                  text)
    text = re.sub(r"(?m)^    mean: .*$", "    mean: 2.0", text)
    text = re.sub(r"(?m)^    sd: .*$", "    sd: 0", text)
    text = re.sub(r"(?s)source: >-.*?\nstand_in", "source: a test model\nstand_in", text)
    mpath = tmp_path / "all_contradict.yaml"
    mpath.write_text(text, encoding="utf-8")
    cpath = tmp_path / "corpus.tsv"
    corpus.to_csv(cpath, sep="\t", index=False, lineterminator="\n")
    out = tmp_path / "j.csv"
    assert main(["simulate-judgments", "--corpus", str(cpath), "--model", str(mpath), "--workers", "40",
                 "--spammer-share", "0", "--seed", "3", "--out", str(out)]) == 0
    manifest = json.loads(manifest_path(out).read_text(encoding="utf-8"))
    assert manifest["model_source"] == "a test model" and manifest["model_stand_in"] is False
    assert manifest["model_file"] == {"path": str(mpath), "sha256": hashlib.sha256(mpath.read_bytes()).hexdigest()}
    assert {m["mean"] for m in manifest["model"].values()} == {2.0}
    j = pd.read_csv(out)
    # sd 0: every careful rating is 2 + worker bias + noise, so ratings centre on 2, far from the default model's
    assert abs(j["relatedness"].mean() - 2.0) < 0.3
    # careful workers answer FALSE (the contradiction) in both orders far more often than anything else
    assert (j["answer"] == "FALSE").mean() > 0.7
    default = tmp_path / "d.csv"
    assert main(["simulate-judgments", "--corpus", str(cpath), "--workers", "40", "--spammer-share", "0",
                 "--seed", "3", "--out", str(default)]) == 0
    d = json.loads(manifest_path(default).read_text(encoding="utf-8"))
    assert d["model_stand_in"] is False and "Table 9" in d["model_source"]
    assert (pd.read_csv(default)["answer"] == "FALSE").mean() < 0.35
    # a bad model file: one line, exit 2, nothing written
    (tmp_path / "bad.yaml").write_text(text.replace("stand_in: false", "stand_in: maybe"), encoding="utf-8")
    assert main(["simulate-judgments", "--corpus", str(cpath), "--model", str(tmp_path / "bad.yaml"),
                 "--out", str(tmp_path / "x.csv")]) == 2
    assert not (tmp_path / "x.csv").exists()


def test_deterministic_and_seeded(sim_controls, corpus, tmp_path):
    a = simulate_judgments(corpus, workers=50, seed=11, controls=sim_controls)
    b = simulate_judgments(corpus, workers=50, seed=11, controls=sim_controls)
    c = simulate_judgments(corpus, workers=50, seed=12, controls=sim_controls)
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(c)
    write_judgments(a, tmp_path / "a.csv")
    write_judgments(b, tmp_path / "b.csv")
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    assert manifest_path(tmp_path / "a.csv").read_bytes() == manifest_path(tmp_path / "b.csv").read_bytes()


def test_bad_parameters(sim_controls, corpus):
    with pytest.raises(ValueError, match="distinct"):
        simulate(corpus, workers=9, per_order=5)
    with pytest.raises(ValueError, match="spammer_share"):
        simulate(corpus, spammer_share=1.5)
    with pytest.raises(ValueError, match="unknown pair type"):
        simulate(corpus.assign(pair_type="S9"))
    with pytest.raises(ValueError, match="pair_type"):
        simulate(corpus.drop(columns=["pair_type"]))
    with pytest.raises(ValueError, match="answer_AB"):
        simulate(corpus, controls=sim_controls.assign(answer_AB="MAYBE"))


def test_command_writes_our_csv_and_manifest(sim_controls, write_sim_inputs, corpus, tmp_path):
    from pipeline.crowd.judgments import read_judgments

    cpath, ctl = write_sim_inputs(corpus, tmp_path)
    out = tmp_path / "sim" / "judgments.csv"
    assert main(["simulate-judgments", "--corpus", str(cpath), "--controls", str(ctl), "--workers", "60",
                 "--seed", "5", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").splitlines()[0] == ",".join(JUDGMENT_COLUMNS)
    manifest = json.loads(manifest_path(out).read_text(encoding="utf-8"))
    assert manifest["synthetic"] is True and manifest["seed"] == 5 and len(manifest["corpus"]["sha256"]) == 64
    df, rejected = read_judgments(out, "csv", set(corpus["pair_ID"]), set(sim_controls["pair_ID"]))
    assert len(rejected) == 0 and len(df) == len(corpus) * 10 + 60 * 10
    again = tmp_path / "again.csv"
    assert main(["simulate-judgments", "--corpus", str(cpath), "--controls", str(ctl), "--workers", "60",
                 "--seed", "5", "--out", str(again)]) == 0
    assert again.read_bytes() == out.read_bytes()
    # bad input: one line, exit 2, nothing written
    assert main(["simulate-judgments", "--corpus", str(tmp_path / "missing.tsv"), "--out",
                 str(tmp_path / "x.csv")]) == 2
    assert not (tmp_path / "x.csv").exists()
    assert main(["simulate-judgments", "--corpus", str(cpath), "--workers", "5", "--out",
                 str(tmp_path / "y.csv")]) == 2
    assert not (tmp_path / "y.csv").exists() and not manifest_path(tmp_path / "y.csv").exists()


def test_scales_to_a_sick_size_round(synthetic_corpus):
    corpus = synthetic_corpus(1250)  # 10,000 pairs -> 100,000 judgments
    s = simulate(corpus, workers=200, seed=1)
    assert len(s.judgments) == 100_000
    assert (s.judgments.groupby("pair_ID")["worker_id"].nunique() == 10).all()
