"""``sick aggregate-labels`` (pipeline.crowd.labels): readers, errors, options, outputs, and the real data it must get
right (Snow et al. 2008 RTE, SNLI dev's 3-of-5 rule)."""

from __future__ import annotations

import json
from collections import Counter

import pandas as pd
import pytest

from pipeline.cli import main
from pipeline.common.errors import InputError
from pipeline.crowd import labels


def run(argv: list[str]) -> int:
    """``sick aggregate-labels ARGV`` through the real command line (SickError -> status 2)."""
    return main(["aggregate-labels", *argv])


def read(path) -> pd.DataFrame:
    return pd.read_csv(path, sep="\t", keep_default_na=False, dtype=str)


ROWS = [("p1", "w1", "TRUE", "4"), ("p1", "w2", "TRUE", "5"), ("p1", "w3", "FALSE", "3"),
        ("p2", "w1", "UNKNOWN", "2"), ("p2", "w4", "FALSE", "1"),
        ("p3", "w2", "FALSE", "1")]


def write_rows(path, rows=ROWS, header=("pair", "rater", "answer", "score")):
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(dict(zip(header, r))) + "\n" for r in rows), encoding="utf-8")
    else:
        sep = "," if path.suffix == ".csv" else "\t"
        path.write_text("\n".join(sep.join(r) for r in [header, *rows]) + "\n", encoding="utf-8")
    return path


COLS = ["--item", "pair", "--worker", "rater", "--label", "answer"]


# ---------------------------------------------------------------- formats and outputs


@pytest.mark.parametrize("ext", [".tsv", ".csv", ".jsonl"])
def test_formats_give_the_same_table(tmp_path, ext):
    src = write_rows(tmp_path / f"j{ext}")
    out = tmp_path / "out.tsv"
    assert run(["--input", str(src), *COLS, "--out", str(out)]) == 0
    t = read(out)
    assert list(t.columns) == ["item", "label", "n_votes", "majority_share"]
    assert t.values.tolist() == [["p1", "TRUE", "3", "0.666667"], ["p2", "-", "2", "0.5"], ["p3", "FALSE", "1", "1.0"]]


def test_stats_json_and_printed_summary(tmp_path, capsys):
    src = write_rows(tmp_path / "j.tsv")
    out, stats = tmp_path / "out.tsv", tmp_path / "sub" / "stats.json"
    assert run(["--input", str(src), *COLS, "--ties", "UNKNOWN", "--stats-json", str(stats), "--out", str(out)]) == 0
    s = json.loads(stats.read_text())
    assert s["counts"] == {"items": 3, "judgments": 6, "workers": 4, "repeated_worker_item": 0, "labels": 3,
                           "ties": 1, "below_min_votes": 0, "no_majority": 0}
    assert s["options"]["ties"] == "UNKNOWN" and s["alpha_level"] == "nominal"
    assert s["label_counts"] == {"FALSE": 3, "TRUE": 2, "UNKNOWN": 1}
    assert read(out)["label"].tolist() == ["TRUE", "UNKNOWN", "FALSE"]
    printed = capsys.readouterr().out
    assert "Krippendorff's alpha (nominal)" in printed and "3 items, 6 judgments, 4 workers" in printed
    from pipeline.crowd.estimators import krippendorff_alpha
    df = pd.DataFrame(ROWS, columns=["item", "worker", "label", "score"])
    assert s["alpha"] == pytest.approx(krippendorff_alpha(df))


def test_numeric_output_and_ddof(tmp_path):
    src = write_rows(tmp_path / "j.csv")
    out, stats = tmp_path / "out.tsv", tmp_path / "stats.json"
    argv = ["--input", str(src), "--item", "pair", "--worker", "rater", "--label", "score", "--numeric"]
    assert run([*argv, "--stats-json", str(stats), "--out", str(out)]) == 0
    t = read(out)
    assert list(t.columns) == ["item", "mean", "sd", "n"]
    assert t.values.tolist() == [["p1", "4.0", "1.0", "3"], ["p2", "1.5", "0.707107", "2"], ["p3", "1.0", "", "1"]]
    s = json.loads(stats.read_text())
    assert s["alpha_level"] == "interval" and s["counts"]["sd_undefined"] == 1 and s["options"]["sd_ddof"] == 1
    assert s["value_range"] == [1.0, 5.0]
    assert run([*argv, "--sd-ddof", "0", "--out", str(out)]) == 0
    assert read(out)["sd"].tolist() == ["0.816497", "0.5", "0.0"]


def test_output_is_byte_identical_on_rerun_and_random_ties_follow_the_seed(tmp_path):
    rows = [(f"i{i}", f"w{w}", "ab"[(i + w) % 2], "0") for i in range(200) for w in range(4)]  # all 2-2 ties
    src = write_rows(tmp_path / "j.tsv", rows)
    outs = []
    for n, seed in enumerate(["3", "3", "4"]):
        out = tmp_path / f"out{n}.tsv"
        assert run(["--input", str(src), *COLS, "--ties", "random", "--seed", seed, "--out", str(out)]) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] != outs[2]
    assert set(read(tmp_path / "out0.tsv")["label"]) == {"a", "b"}


def test_min_votes_and_dawid_skene_columns(tmp_path):
    src = write_rows(tmp_path / "j.jsonl")
    out, stats = tmp_path / "out.tsv", tmp_path / "s.json"
    assert run(["--input", str(src), *COLS, "--min-votes", "2", "--stats-json", str(stats), "--out", str(out)]) == 0
    assert read(out)["label"].tolist() == ["TRUE", "-", "-"]
    assert json.loads(stats.read_text())["counts"]["below_min_votes"] == 2
    assert run(["--input", str(src), *COLS, "--method", "dawid-skene", "--stats-json", str(stats),
                "--out", str(out)]) == 0
    t = read(out)
    assert list(t.columns) == ["item", "label", "n_votes", "majority_share"]
    assert t["n_votes"].tolist() == ["3", "2", "1"] and "-" not in t["label"].tolist()
    assert "dawid_skene" in json.loads(stats.read_text())


def test_quoted_tsv_field_jsonl_numbers_and_repeated_judgments(tmp_path):
    src = tmp_path / "q.tsv"
    src.write_text('pair\trater\tanswer\tnote\np1\tw1\tTRUE\t"has a\ttab and ""quotes"""\n\np1\tw1\tTRUE\tagain\n',
                   encoding="utf-8")
    table, stats = labels.aggregate_labels(src, "pair", "rater", "answer")
    assert table.values.tolist() == [["p1", "TRUE", 2, 1.0]]
    assert stats["counts"]["repeated_worker_item"] == 1  # the same worker twice counts twice, reported
    j = tmp_path / "n.jsonl"
    j.write_text('{"id": 7, "who": "a", "y": 1}\n{"id": 7, "who": "b", "y": 2.5}\n{"id": 8, "who": "a", "y": "3"}\n')
    table, _ = labels.aggregate_labels(j, "id", "who", "y", numeric=True)
    assert table["item"].tolist() == ["7", "8"] and table["mean"].tolist() == [1.75, 3.0]
    assert table["sd"].iloc[0] == pytest.approx(1.0606601717798212) and pd.isna(table["sd"].iloc[1])


# ---------------------------------------------------------------- errors: file, line, field; nothing written


def expect_error(tmp_path, text, ext=".tsv", numeric=False, label="answer"):
    src = tmp_path / f"bad{ext}"
    src.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    with pytest.raises(InputError) as err:
        labels.aggregate_labels(src, "pair", "rater", label, numeric=numeric)
    assert err.value.path == str(src)
    return err.value


def test_errors_name_file_line_and_field(tmp_path):
    e = expect_error(tmp_path, "pair\trater\tlabel\np1\tw1\tx\n")
    assert (e.line, e.field) == (1, "answer") and "no column 'answer'" in e.problem
    e = expect_error(tmp_path, "pair\trater\tanswer\np1\tw1\tx\n\np2\tw2\n")
    assert (e.line, e.field) == (4, "answer")
    e = expect_error(tmp_path, "pair\trater\tanswer\np1\tw1\tx\np2\t \ty\n")
    assert (e.line, e.field, e.problem) == (3, "rater", "empty value")
    e = expect_error(tmp_path, "pair\trater\tanswer\np1\tw1\t4\np2\tw2\tfour\n", numeric=True)
    assert (e.line, e.field) == (3, "answer") and "not a finite number" in e.problem
    e = expect_error(tmp_path, "pair\trater\tanswer\np1\tw1\tnan\n", numeric=True)
    assert e.line == 2
    e = expect_error(tmp_path, b"pair\trater\tanswer\np1\tw1\tx\np2\tw2\t\xff\n")
    assert e.line == 3 and "UTF-8" in e.problem
    e = expect_error(tmp_path, "pair,rater,answer\np1,w1,\"x\n", ext=".csv")
    assert "malformed CSV" in e.problem
    e = expect_error(tmp_path, "pair\trater\tanswer\n")
    assert "no judgments" in e.problem
    e = expect_error(tmp_path, "", ext=".csv")
    assert "empty file" in e.problem


def test_jsonl_errors(tmp_path):
    ok = '{"pair": "p1", "rater": "w1", "answer": "x"}\n'
    e = expect_error(tmp_path, ok + "\n{not json}\n", ext=".jsonl")
    assert e.line == 3 and "not valid JSON" in e.problem
    e = expect_error(tmp_path, ok + '["p1", "w1", "x"]\n', ext=".jsonl")
    assert e.line == 2 and "JSON object" in e.problem
    e = expect_error(tmp_path, ok + '{"pair": "p1", "answer": "x"}\n', ext=".jsonl")
    assert (e.line, e.field) == (2, "rater")
    e = expect_error(tmp_path, ok + '{"pair": "p1", "rater": "w2", "answer": null}\n', ext=".jsonl")
    assert (e.line, e.field) == (2, "answer")
    num = '{"pair": "p1", "rater": "w1", "answer": 4}\n'
    e = expect_error(tmp_path, num + '{"pair": "p1", "rater": "w2", "answer": true}\n', ext=".jsonl", numeric=True)
    assert (e.line, e.field) == (2, "answer") and "'true' is not a finite number" in e.problem
    e = expect_error(tmp_path, num + '{"pair": {"id": 1}, "rater": "w2", "answer": 3}\n', ext=".jsonl")
    assert (e.line, e.field) == (2, "pair")


def test_bad_file_and_options(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        labels.aggregate_labels(tmp_path / "none.tsv", "a", "b", "c")
    (tmp_path / "x.xlsx").write_text("")
    with pytest.raises(InputError, match="unknown file extension"):
        labels.aggregate_labels(tmp_path / "x.xlsx", "a", "b", "c")
    src = write_rows(tmp_path / "j.tsv")
    with pytest.raises(InputError) as err:
        labels.aggregate_labels(src, "pair", "rater", "score", numeric=True, method="dawid-skene")
    assert err.value.path == "--method"
    with pytest.raises(InputError) as err:
        labels.aggregate_labels(src, *COLS[1::2], method="dawid-skene", ties="random")
    assert err.value.path == "--ties"
    with pytest.raises(InputError) as err:
        labels.aggregate_labels(src, *COLS[1::2], numeric=True, min_votes=3)
    assert err.value.path == "--min-votes"
    with pytest.raises(InputError, match="three different columns"):
        labels.aggregate_labels(src, "pair", "pair", "answer")
    out = tmp_path / "out.tsv"
    assert run(["--input", str(src), *COLS, "--sd-ddof", "0", "--out", str(out)]) == 2  # categorical: no SD
    with pytest.raises(SystemExit):
        run(["--input", str(src), *COLS, "--min-votes", "0", "--out", str(out)])
    with pytest.raises(SystemExit):
        run(["--input", str(src), *COLS, "--method", "mace", "--out", str(out)])
    assert not out.exists()


def test_a_failed_run_writes_nothing_and_keeps_old_outputs(tmp_path):
    out, stats = tmp_path / "out.tsv", tmp_path / "stats.json"
    out.write_text("old\n")
    bad = tmp_path / "bad.tsv"
    bad.write_text("pair\trater\tanswer\np1\tw1\t\n")
    assert run(["--input", str(bad), *COLS, "--stats-json", str(stats), "--out", str(out)]) == 2
    assert out.read_text() == "old\n" and not stats.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


# ---------------------------------------------------------------- real data


@pytest.mark.realdata
def test_snow_rte_majority_vote_and_dawid_skene_against_expert_gold(shared_data, tmp_path):
    path = shared_data / "snow2008_rte" / "all_collected_data" / "rte.standardized.tsv"
    if not path.exists():
        pytest.skip(f"{path} not found")
    # independent figures, from the file with the standard library
    votes: dict[str, Counter] = {}
    gold: dict[str, str] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if n == 0 or not line:
            continue
        _, worker, item, response, g = line.split("\t")
        votes.setdefault(item, Counter())[response] += 1
        gold[item] = g
    ties = [i for i, c in votes.items() if c["0"] == c["1"]]

    def accuracy(tie_label):
        right = sum((tie_label if i in ties else c.most_common(1)[0][0]) == gold[i] for i, c in votes.items())
        return right / len(votes)

    assert len(votes) == 800 and len(ties) == 65
    assert round(accuracy("1"), 3) == 0.875 and round(accuracy("0"), 3) == 0.919

    cols = ["--input", str(path), "--item", "orig_id", "--worker", "!amt_worker_ids", "--label", "response"]
    results = {}
    for name, extra in (("ties1", ["--ties", "1"]), ("ties0", ["--ties", "0"]), ("ds", ["--method", "dawid-skene"]),
                        ("none", [])):
        out, stats = tmp_path / f"{name}.tsv", tmp_path / f"{name}.json"
        assert run([*cols, *extra, "--stats-json", str(stats), "--out", str(out)]) == 0
        t = read(out)
        results[name] = ((t["label"] == t["item"].map(gold)).mean(), json.loads(stats.read_text()), t)
    assert results["ties1"][0] == pytest.approx(accuracy("1")) == pytest.approx(0.875)
    assert results["ties0"][0] == pytest.approx(accuracy("0")) == pytest.approx(0.91875)
    assert results["ds"][0] >= 0.92
    s = results["none"][1]
    assert s["counts"]["items"] == 800 and s["counts"]["judgments"] == 8000 and s["counts"]["workers"] == 164
    assert s["counts"]["ties"] == 65 and s["counts"]["no_majority"] == 65
    assert set(results["none"][2]["n_votes"]) == {"10"}
    # 0.24148: "RTE Krippendorff alpha (nominal, all 10 raters/item)" in ../shared/data/snow2008_rte/PROVENANCE.txt
    assert s["alpha"] == pytest.approx(0.2415, abs=5e-5)


@pytest.mark.realdata
def test_snli_dev_min_votes_3_reproduces_gold_label(shared_data, tmp_path):
    path = shared_data / "nli_raw" / "snli_1.0_dev_partial" / "snli_1.0_dev.first1289.jsonl"
    if not path.exists():
        pytest.skip(f"{path} not found")
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    # annotator_labels -> a long JSONL table (SNLI gives no worker ids: the annotator's position stands in)
    long = tmp_path / "snli_long.jsonl"
    long.write_text("".join(json.dumps({"pairID": r["pairID"], "annotator": k, "label": lab}) + "\n"
                            for r in records for k, lab in enumerate(r["annotator_labels"])), encoding="utf-8")
    out, stats = tmp_path / "snli.tsv", tmp_path / "snli.json"
    assert run(["--input", str(long), "--item", "pairID", "--worker", "annotator", "--label", "label",
                "--min-votes", "3", "--stats-json", str(stats), "--out", str(out)]) == 0
    t = read(out)
    expected = {r["pairID"]: r["gold_label"] for r in records}
    assert len(t) == len(records) == 1289
    assert (t["label"] == t["item"].map(expected)).all()
    assert (t["label"] == "-").sum() == sum(g == "-" for g in expected.values()) == 16
    s = json.loads(stats.read_text())
    assert s["counts"]["no_majority"] == 16 and s["counts"]["judgments"] == sum(len(r["annotator_labels"])
                                                                                 for r in records)


@pytest.mark.realdata
def test_usts_through_the_command_with_population_sd(shared_data, tmp_path):
    path = shared_data / "raw_ratings" / "usts" / "ustsc" / "dev.json"
    if not path.exists():
        pytest.skip(f"{path} not found")
    data = json.loads(path.read_text(encoding="utf-8"))
    long = tmp_path / "usts.csv"
    long.write_text("id,rater,score\n" + "".join(f"{k},{j},{x}\n" for k, v in data.items()
                                                 for j, x in enumerate(v["raw_annotation"])), encoding="utf-8")
    out, stats = tmp_path / "usts.tsv", tmp_path / "usts.json"
    assert run(["--input", str(long), "--item", "id", "--worker", "rater", "--label", "score", "--numeric",
                "--sd-ddof", "0", "--stats-json", str(stats), "--out", str(out)]) == 0
    t = pd.read_csv(out, sep="\t", dtype={"item": str}).set_index("item")
    published = pd.DataFrame.from_dict(data, orient="index")
    assert (abs(t["mean"] - published["mean_score"].reindex(t.index)) <= 0.005 + 1e-6).all()
    assert (abs(t["sd"] - published["std"].reindex(t.index)) <= 0.005 + 1e-6).all()
    s = json.loads(stats.read_text())
    assert s["counts"]["items"] == 2000 and s["counts"]["judgments"] == 38_000 and 0 < s["alpha"] < 1


# ---------------------------------------------------------------- crowd-kit's conventions (issue 14)


def _crowdkit_long(n_items: int = 300, seed: int = 4) -> pd.DataFrame:
    """A long table in crowd-kit's column names, with many ties (4 votes over 3 labels per item)."""
    import random

    rng = random.Random(seed)
    rows = []
    for i in range(n_items):
        for w in rng.sample(range(12), 4):
            rows.append({"task": f"t{i:03d}", "worker": f"w{w:02d}", "label": rng.choice(["cat", "dog", "emu"])})
    return pd.DataFrame(rows)


def test_defaults_are_crowdkits_columns_and_ties_first_is_crowdkits_majority_vote(tmp_path):
    from crowdkit.aggregation import MajorityVote

    df = _crowdkit_long()
    src = tmp_path / "long.tsv"
    df.to_csv(src, sep="\t", index=False)
    out = tmp_path / "mv.tsv"
    assert run(["--input", str(src), "--ties", "first", "--out", str(out)]) == 0  # no --item/--worker/--label
    ours = read(out).set_index("item")["label"]
    theirs = MajorityVote().fit_predict(df)
    assert ours.to_dict() == theirs.to_dict()
    assert len(theirs) == 300
    # the tie-break is what decides: many items are tied, and another tie rule gives other labels
    stats = tmp_path / "s.json"
    assert run(["--input", str(src), "--out", str(tmp_path / "none.tsv"), "--stats-json", str(stats)]) == 0
    assert json.loads(stats.read_text())["counts"]["ties"] > 60
    assert read(tmp_path / "none.tsv").set_index("item")["label"].to_dict() != theirs.to_dict()


def test_dawid_skene_posteriors_and_worker_skills(tmp_path):
    from crowdkit.aggregation import DawidSkene

    df = _crowdkit_long(200, seed=9)
    # two careful workers who always say the item's "truth", so the model has something to find
    truth = {t: ["cat", "dog", "emu"][int(t[1:]) % 3] for t in df["task"].unique()}
    df = pd.concat([df, pd.DataFrame([{"task": t, "worker": w, "label": lab} for t, lab in truth.items()
                                      for w in ("good1", "good2")])], ignore_index=True)
    src = tmp_path / "long.csv"
    df.to_csv(src, index=False)
    out, post, skills = tmp_path / "ds.tsv", tmp_path / "post.tsv", tmp_path / "skills.tsv"
    assert run(["--input", str(src), "--method", "dawid-skene", "--posteriors", str(post),
                "--worker-skills", str(skills), "--out", str(out)]) == 0
    model = DawidSkene(n_iter=100).fit(df)
    p = pd.read_csv(post, sep="\t", dtype={"item": str}).set_index("item")
    assert list(p.columns) == ["cat", "dog", "emu"] and len(p) == 200
    assert (p.sum(axis=1) - 1).abs().max() < 1e-5
    expected = model.probas_.reindex(index=p.index, columns=p.columns)
    assert abs(p.to_numpy() - expected.to_numpy()).max() < 1e-5
    labels_out = read(out).set_index("item")["label"]
    assert (labels_out == p.idxmax(axis=1)).all()
    s = pd.read_csv(skills, sep="\t", dtype={"worker": str}).set_index("worker")
    assert list(s.columns) == ["skill", "agreement", "n"] and s.loc["good1", "n"] == 200
    assert s.loc["good1", "skill"] > 0.95 and s.loc["good1", "skill"] > s.drop(index=["good1", "good2"])["skill"].max()
    # without Dawid-Skene there is no model of the workers: a one-line error, nothing written
    assert run(["--input", str(src), "--posteriors", str(tmp_path / "x.tsv"), "--out", str(tmp_path / "y.tsv")]) == 2
    assert not (tmp_path / "x.tsv").exists() and not (tmp_path / "y.tsv").exists()
