"""Synthetic judgments (pipeline/simulate.py): schema, labelling, design, model, determinism, command."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from pipeline.cli import main
from pipeline.judgments import ANSWERS, JUDGMENT_COLUMNS, ORDERS
from pipeline.simulate import (GROUP_MODEL, GROUPS, RELATIONS, expected_gold_shares, manifest_path,
                               pair_group, simulate, simulate_judgments, write_judgments)

# one representative corpus pair type per model group
GROUP_TYPES = {"S1aS1b": ("S1aS1b", "cross"), "S1S2-same": ("S1aS2a", "same"), "S1S2-cross": ("S1bS2a", "cross"),
               "S1S3-same": ("S1bS3b", "same"), "S1S3-cross": ("S1aS3b", "cross"), "S1S4-same": ("S1aS4a", "same"),
               "S1S4-cross": ("S1bS4a", "cross"), "unrelated": ("unrelated", "unrelated")}

CONTROLS = pd.DataFrame({
    "pair_ID": [f"CTRL-{i:03d}" for i in range(1, 9)],
    "answer_AB": ["TRUE", "TRUE", "FALSE", "UNKNOWN", "TRUE", "FALSE", "UNKNOWN", "TRUE"],
    "answer_BA": ["UNKNOWN", "TRUE", "FALSE", "UNKNOWN", "UNKNOWN", "FALSE", "TRUE", ""],
    "relatedness_min": [4, 4, 3, 1, 3, 3, 3, 4],
    "relatedness_max": [5, 5, 5, 2, 5, 5, 5, 5],
})


def synthetic_corpus(per_group: int = 50) -> pd.DataFrame:
    """A corpus.tsv-like table (strings) with ``per_group`` pairs of every model group, interleaved."""
    rows = []
    for i in range(per_group):
        for g, (pt, st) in GROUP_TYPES.items():
            rows.append({"pair_ID": str(len(rows) + 1), "sentence_A": f"a {i} {g}", "sentence_B": f"b {i} {g}",
                         "pair_type": pt, "set": st, "expected_relation": "x"})
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def corpus() -> pd.DataFrame:
    return synthetic_corpus(50)


@pytest.fixture(scope="module")
def sim(corpus):
    return simulate(corpus, workers=120, per_order=5, seed=7, controls=CONTROLS)


def test_pair_group():
    assert pair_group("S1aS1b", "cross") == "S1aS1b"
    assert pair_group("S1aS2a", "same") == "S1S2-same"
    assert pair_group("S1bS3a", "cross") == "S1S3-cross"
    assert pair_group("S1bS4b", "same") == "S1S4-same"
    assert pair_group("S1aS4b", "") == "S1S4-cross"  # set derived from the letters when missing
    assert pair_group("unrelated", "unrelated") == "unrelated"
    with pytest.raises(ValueError):
        pair_group("S2aS3b", "same")
    assert set(GROUP_TYPES) == set(GROUPS) == set(GROUP_MODEL)
    for m in GROUP_MODEL.values():
        assert len(m["relation"]) == len(RELATIONS) and abs(sum(m["relation"]) - 1) < 1e-9
        assert 1 <= m["mean"] <= 5 and m["sd"] > 0


def test_schema_and_synthetic_label(sim, corpus):
    j = sim.judgments
    assert list(j.columns) == JUDGMENT_COLUMNS
    assert j["worker_id"].str.startswith("synthetic-w").all()
    assert set(j["order"]) == set(ORDERS) and set(j["answer"]) <= set(ANSWERS)
    assert j["relatedness"].dtype == np.int64 and j["relatedness"].between(1, 5).all()
    assert j["is_control"].dtype == bool
    assert sim.manifest["synthetic"] is True and "STAND-IN" in sim.manifest["model_source"]
    assert sim.manifest["counts"]["pairs"] == len(corpus)


def test_design_ten_distinct_workers_five_per_order(sim, corpus):
    items = sim.judgments[~sim.judgments["is_control"]]
    assert set(items["pair_ID"]) == set(corpus["pair_ID"])
    per = items.groupby(["pair_ID", "order"]).size()
    assert (per == 5).all() and len(per) == 2 * len(corpus)
    assert (items.groupby("pair_ID")["worker_id"].nunique() == 10).all()
    assert not items.duplicated(["pair_ID", "worker_id", "order"]).any()


def test_controls_judged_per_known_answers(sim):
    ctl = sim.judgments[sim.judgments["is_control"]]
    assert len(ctl) == 120 * 10  # controls_per_worker default 10, 15 (control, order) items available
    assert not ctl.duplicated(["pair_ID", "worker_id", "order"]).any()
    assert not ((ctl["pair_ID"] == "CTRL-008") & (ctl["order"] == "BA")).any()  # no expected answer there
    expected = {(r.pair_ID, o): getattr(r, f"answer_{o}") for r in CONTROLS.itertuples() for o in ORDERS}
    ok = np.array([expected[(p, o)] == a for p, o, a in zip(ctl["pair_ID"], ctl["order"], ctl["answer"])])
    spam = set(sim.workers.loc[sim.workers["spammer"], "worker_id"])
    good = ~ctl["worker_id"].isin(spam).to_numpy()
    assert ok[good].mean() > 0.95
    assert 0.2 < ok[~good].mean() < 0.5  # spammers: a third by chance
    lo = ctl["pair_ID"].map(CONTROLS.set_index("pair_ID")["relatedness_min"])
    hi = ctl["pair_ID"].map(CONTROLS.set_index("pair_ID")["relatedness_max"])
    assert ctl["relatedness"][good].between(lo[good], hi[good]).all()


def test_spammers(sim):
    spam = sim.workers[sim.workers["spammer"]]
    assert len(spam) == 12  # round(0.1 * 120)
    assert sorted(spam["worker_id"]) == sim.manifest["spammers"]


def test_true_relatedness_and_relations_follow_the_model():
    corpus = synthetic_corpus(400)
    s = simulate(corpus, workers=60, per_order=1, seed=3, spammer_share=0)
    t = s.truth
    for g, m in GROUP_MODEL.items():
        sub = t[t["group"] == g]
        assert abs(sub["true_relatedness"].mean() - m["mean"]) < 0.12, g  # clipping at 1 and 5 shifts a little
        shares = sub["relation"].value_counts(normalize=True)
        for rel, p in zip(RELATIONS, m["relation"]):
            assert abs(shares.get(rel, 0.0) - p) < 0.07, (g, rel)
    # the AB / BA answers follow the relation: entailment can be one-way
    fwd = t[t["relation"] == "forward"]
    assert (fwd["answer_AB"] == "TRUE").all() and (fwd["answer_BA"] == "UNKNOWN").all()
    back = t[t["relation"] == "backward"]
    assert (back["answer_AB"] == "UNKNOWN").all() and (back["answer_BA"] == "TRUE").all()
    assert (t.loc[t["relation"] == "contradict", ["answer_AB", "answer_BA"]] == "FALSE").all().all()


def test_expected_gold_shares():
    shares = expected_gold_shares()
    assert shares["S1S2-same"]["ENTAILMENT"] == pytest.approx(0.70)
    assert shares["S1S3-same"]["CONTRADICTION"] == pytest.approx(0.70)
    assert shares["unrelated"]["NEUTRAL"] == pytest.approx(0.99)
    for s in shares.values():
        assert sum(s.values()) == pytest.approx(1)


def test_deterministic_and_seeded(corpus, tmp_path):
    a = simulate_judgments(corpus, workers=50, seed=11, controls=CONTROLS)
    b = simulate_judgments(corpus, workers=50, seed=11, controls=CONTROLS)
    c = simulate_judgments(corpus, workers=50, seed=12, controls=CONTROLS)
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(c)
    write_judgments(a, tmp_path / "a.csv")
    write_judgments(b, tmp_path / "b.csv")
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    assert manifest_path(tmp_path / "a.csv").read_bytes() == manifest_path(tmp_path / "b.csv").read_bytes()


def test_bad_parameters(corpus):
    with pytest.raises(ValueError, match="distinct"):
        simulate(corpus, workers=9, per_order=5)
    with pytest.raises(ValueError, match="spammer_share"):
        simulate(corpus, spammer_share=1.5)
    with pytest.raises(ValueError, match="unknown pair type"):
        simulate(corpus.assign(pair_type="S9"))
    with pytest.raises(ValueError, match="pair_type"):
        simulate(corpus.drop(columns=["pair_type"]))
    with pytest.raises(ValueError, match="answer_AB"):
        simulate(corpus, controls=CONTROLS.assign(answer_AB="MAYBE"))


def _run(argv: list[str]) -> int:
    return main(argv)  # the real command line: SickError -> status 2


def test_command_writes_our_csv_and_manifest(corpus, tmp_path):
    from pipeline.judgments import read_judgments

    cpath = tmp_path / "corpus.tsv"
    corpus.to_csv(cpath, sep="\t", index=False, lineterminator="\n")
    ctl = tmp_path / "controls.yaml"
    ctl.write_text("controls:\n" + "".join(
        f"  - id: {r.pair_ID}\n    answer_AB: \"{r.answer_AB}\"\n    answer_BA: \"{r.answer_BA}\"\n"
        f"    relatedness: [{r.relatedness_min}, {r.relatedness_max}]\n" for r in CONTROLS.itertuples()))
    out = tmp_path / "sim" / "judgments.csv"
    assert _run(["simulate-judgments", "--corpus", str(cpath), "--controls", str(ctl), "--workers", "60",
                 "--seed", "5", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").splitlines()[0] == ",".join(JUDGMENT_COLUMNS)
    manifest = json.loads(manifest_path(out).read_text(encoding="utf-8"))
    assert manifest["synthetic"] is True and manifest["seed"] == 5 and len(manifest["corpus"]["sha256"]) == 64
    df, rejected = read_judgments(out, "csv", set(corpus["pair_ID"]), set(CONTROLS["pair_ID"]))
    assert len(rejected) == 0 and len(df) == len(corpus) * 10 + 60 * 10
    again = tmp_path / "again.csv"
    assert _run(["simulate-judgments", "--corpus", str(cpath), "--controls", str(ctl), "--workers", "60",
                 "--seed", "5", "--out", str(again)]) == 0
    assert again.read_bytes() == out.read_bytes()
    # bad input: one line, exit 2, nothing written
    assert _run(["simulate-judgments", "--corpus", str(tmp_path / "missing.tsv"), "--out",
                 str(tmp_path / "x.csv")]) == 2
    assert not (tmp_path / "x.csv").exists()
    assert _run(["simulate-judgments", "--corpus", str(cpath), "--workers", "5", "--out",
                 str(tmp_path / "y.csv")]) == 2
    assert not (tmp_path / "y.csv").exists() and not manifest_path(tmp_path / "y.csv").exists()


def test_scales_to_a_sick_size_round():
    corpus = synthetic_corpus(1250)  # 10,000 pairs -> 100,000 judgments
    s = simulate(corpus, workers=200, seed=1)
    assert len(s.judgments) == 100_000
    assert (s.judgments.groupby("pair_ID")["worker_id"].nunique() == 10).all()
