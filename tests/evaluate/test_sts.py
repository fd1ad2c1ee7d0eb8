"""STS 2012-2016 and STS Benchmark scoring (pipeline.evaluate.sts)."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from pipeline.cli import main
from pipeline.common.errors import InputError, SubmissionError
from pipeline.evaluate.sts import pearson_or_none as pearson
from pipeline.evaluate.sts import read_sts_gold, read_stsb, score_sts, score_sts_all, score_stsb

pytestmark = pytest.mark.realdata

SETS = {"OnWN": 750, "deft-forum": 450, "deft-news": 300, "headlines": 750, "images": 750, "tweet-news": 750}


@pytest.fixture(scope="module")
def sts14(shared_data):
    return shared_data / "sts2014"


@pytest.fixture(scope="module")
def stsb(shared_data):
    return shared_data / "stsbenchmark"


def _np_pearson(gold_lines, sys_lines):
    g, s = [], []
    for gl, sl in zip(gold_lines, sys_lines):
        if gl.strip():
            g.append(float(gl))
            s.append(float(sl.split("\t")[0]))
    return float(np.corrcoef(g, s)[0, 1]), len(g)


# ------------------------------------------------------------------------------------------- STS 2014
def test_sample_answers_headlines(sts14):
    gold = (sts14 / "STS.gs.headlines.txt").read_text().splitlines()
    out = (sts14 / "STS.output.headlines.txt").read_text().splitlines()
    expected, n = _np_pearson(gold, out)
    res = score_sts(sts14 / "STS.gs.headlines.txt", sts14 / "STS.output.headlines.txt")
    assert res["pairs"] == n == 750
    assert res["pearson"] == pytest.approx(expected, abs=1e-12)
    assert len(res["gold_sha256"]) == 64


@pytest.mark.parametrize("name", sorted(SETS))
def test_gold_as_system_is_one(sts14, name):
    res = score_sts(sts14 / f"STS.gs.{name}.txt", sts14 / f"STS.gs.{name}.txt")
    assert res["pairs"] == SETS[name]
    assert res["pearson"] == pytest.approx(1.0, abs=1e-12)


def test_empty_gold_lines_are_scored_as_zero(tmp_path):
    gold = tmp_path / "STS.gs.x.txt"
    gold.write_text("1\n\n3\n4\n\n")
    system = tmp_path / "STS.output.x.txt"
    system.write_text("1.5\t50\n9\n2.0\t10\n4.5\n 3.5\t20\n")  # the script reads the last line's score as 0
    res = score_sts(gold, system)
    assert res["pairs"] == 5 and res["gold_empty"] == 2 and res["system_leading_space"] == 1 and res["lines"] == 5
    assert res["pearson"] == pytest.approx(np.corrcoef([1, 0, 3, 4, 0], [1.5, 9, 2.0, 4.5, 0])[0, 1])
    assert read_sts_gold(gold) == [1.0, None, 3.0, 4.0, None]
    assert [w.split(": ")[0] for w in res["warnings"]][:3] == [f"{gold} line 2", f"{gold} line 5", f"{system} line 5"]


# correlation-noconfidence.pl's figure on each edge case of sts2014/derived (README there); None: we reject
PERL_CASES = {
    "noisy": None, "random_conf": None, "space_sep": None, "noisy_vs_gold_with_empty_line6": "empty gold line",
    "leading_space": "starts with white space", "comment_line": "no header or comment lines",
    "missing_line100": "749 lines but gold", "extra_line": "751 lines but gold",
    "empty_line_mid": "empty answer",
}


@pytest.mark.parametrize("case", sorted(PERL_CASES))
def test_official_script_edge_cases(sts14, case, capsys):
    d = sts14 / "derived"
    figure = (d / f"headlines.{case}.perl_output.txt").read_text().splitlines()[-1]
    assert figure.startswith("Pearson: ")
    if case == "noisy_vs_gold_with_empty_line6":
        gold, system = d / "headlines.gold_with_empty_line6.txt", d / "headlines.noisy.system.txt"
    else:
        gold, system = sts14 / "STS.gs.headlines.txt", d / f"headlines.{case}.system.txt"
    status = main(["score", "sts", "--gold", str(gold), "--system", str(system)])
    out, err = capsys.readouterr()
    expect = PERL_CASES[case]
    if case in ("noisy", "random_conf", "space_sep", "noisy_vs_gold_with_empty_line6", "leading_space"):
        assert status == 0 and figure in out.splitlines()  # the script's figure, to its 5 printed decimals
        n_warned = {"noisy_vs_gold_with_empty_line6": 1, "leading_space": 75}.get(case, 0)
        assert sum(expect in w for w in err.splitlines()) == n_warned if expect else "line" not in err
    else:  # the script prints a figure from misaligned or missing answers; we reject with the line
        assert status == 1 and "Pearson" not in out and expect in err and "line" in err


def _copy_answers(sts14, tmp_path, noise_seed=0):
    """System folder: gold + noise for every set (deterministic)."""
    rng = np.random.default_rng(noise_seed)
    d = tmp_path / "sys"
    d.mkdir()
    expected = {}
    for name in SETS:
        gold = [float(x) for x in (sts14 / f"STS.gs.{name}.txt").read_text().split()]
        sysv = np.round(np.array(gold) + rng.normal(0, 1.5, len(gold)), 4)
        (d / f"STS.output.{name}.txt").write_text("".join(f"{v:.4f}\t100\n" for v in sysv))
        expected[name] = (float(np.corrcoef(gold, sysv)[0, 1]), len(gold))
    return d, expected


def test_all_weighted_mean(sts14, tmp_path):
    d, expected = _copy_answers(sts14, tmp_path)
    res = score_sts_all(sts14, d)
    assert set(res["sets"]) == set(SETS)
    for name, (r, n) in expected.items():
        assert res["sets"][name]["pearson"] == pytest.approx(r, abs=1e-9)
        assert res["sets"][name]["pairs"] == n
    mean = sum(r * n for r, n in expected.values()) / sum(n for _, n in expected.values())
    assert res["pairs"] == 3750
    assert res["mean"] == pytest.approx(mean, abs=1e-9)
    assert res["mean"] != pytest.approx(np.mean([r for r, _ in expected.values()]), abs=1e-6)


def test_all_missing_system_files(sts14):
    with pytest.raises(InputError, match="no system file"):
        score_sts_all(sts14)  # only headlines has a sample answer file
    res = score_sts_all(sts14, partial=True)
    assert list(res["sets"]) == ["headlines"] and res["partial"]
    assert res["mean"] == pytest.approx(res["sets"]["headlines"]["pearson"])
    assert len(res["missing"]) == 5


def test_all_custom_pattern(sts14, tmp_path):
    d = tmp_path / "s"
    d.mkdir()
    shutil.copy(sts14 / "STS.output.headlines.txt", d / "run1.headlines.tsv")
    res = score_sts_all(sts14, d, pattern="run1.{set}.tsv", partial=True)
    assert list(res["sets"]) == ["headlines"]


@pytest.mark.parametrize("content,line,field", [
    ("1\n2\nabc\n", 3, "score"),
    ("1\t5\n2\tx\n3\n", 2, "confidence"),
    ("1\n\n3\n", 2, "score"),            # empty answer on a scored pair
    ("1\nnan\n3\n", 2, "score"),
])
def test_malformed_system(tmp_path, content, line, field):
    gold = tmp_path / "g.txt"
    gold.write_text("1\n2\n3\n")
    system = tmp_path / "s.txt"
    system.write_text(content)
    with pytest.raises(SubmissionError) as ei:
        score_sts(gold, system)
    assert ei.value.line == line and ei.value.field == field and ei.value.path == str(system)


def test_line_count_mismatch(tmp_path):
    gold = tmp_path / "g.txt"
    gold.write_text("1\n2\n3\n")
    system = tmp_path / "s.txt"
    system.write_text("1\n2\n")
    with pytest.raises(SubmissionError, match="2 lines but gold") as ei:
        score_sts(gold, system)
    assert ei.value.line == 3


def test_malformed_gold(tmp_path):
    gold = tmp_path / "g.txt"
    gold.write_text("1\n2.5x\n")
    with pytest.raises(InputError) as ei:
        score_sts(gold, gold)
    assert ei.value.line == 2 and ei.value.path == str(gold)
    assert not isinstance(ei.value, SubmissionError)  # a gold problem is not the submission's fault


def test_constant_answers_undefined(tmp_path):
    gold = tmp_path / "g.txt"
    gold.write_text("1\n2\n3\n")
    system = tmp_path / "s.txt"
    system.write_text("2\n2\n2\n")
    res = score_sts(gold, system)
    assert res["pearson"] is None and res["warnings"]
    assert pearson([1, 2], [3, 3]) is None


# ------------------------------------------------------------------------------------------- STS Benchmark
def test_stsb_reader_counts_and_genres(stsb):
    counts = {"train": 5749, "dev": 1500, "test": 1379}
    genres = {}
    for split, n in counts.items():
        rows = read_stsb(stsb / f"sts-{split}.csv")
        assert len(rows) == n
        genres[split] = {r.genre for r in rows}
        assert {r.genre_canonical for r in rows} == {"main-news", "main-captions", "main-forums"}
        assert all(0 <= r.score <= 5 for r in rows)
    assert "main-forum" in genres["train"] and "main-forums" not in genres["train"]
    assert "main-forums" in genres["dev"] and "main-forums" in genres["test"]
    test = read_stsb(stsb / "sts-test.csv")
    assert test[0].genre == "main-captions" and test[0].score == 2.5
    assert test[0].s1 == "A girl is styling her hair." and test[0].s2 == "A girl is brushing her hair."


def test_stsb_unbalanced_quotes_kept(stsb):
    rows = read_stsb(stsb / "sts-train.csv")
    assert any(r.s1.count('"') % 2 == 1 or r.s2.count('"') % 2 == 1 for r in rows)


def test_score_stsb(stsb, tmp_path):
    rows = read_stsb(stsb / "sts-test.csv")
    gold = np.array([r.score for r in rows])
    sysv = gold + np.random.default_rng(1).normal(0, 1, len(gold))
    out = tmp_path / "out.txt"
    out.write_text("".join(f"{v}\n" for v in sysv))
    res = score_stsb(stsb / "sts-test.csv", out)
    assert res["pairs"] == 1379
    assert res["pearson"] == pytest.approx(np.corrcoef(gold, sysv)[0, 1], abs=1e-9)
    for genre, g in res["genres"].items():
        m = np.array([r.genre_canonical == genre for r in rows])
        assert g["pairs"] == m.sum()
        assert g["pearson"] == pytest.approx(np.corrcoef(gold[m], sysv[m])[0, 1], abs=1e-9)
    assert sum(g["pairs"] for g in res["genres"].values()) == 1379
    # TSV with a header naming the score column
    tsv = tmp_path / "out.tsv"
    tsv.write_text("id\tscore\n" + "".join(f"{i}\t{v}\n" for i, v in enumerate(sysv)))
    assert score_stsb(stsb / "sts-test.csv", tsv)["pearson"] == pytest.approx(res["pearson"])


def test_score_stsb_several_splits(stsb, tmp_path):
    files = [stsb / "sts-dev.csv", stsb / "sts-test.csv"]
    gold = [r.score for f in files for r in read_stsb(f)]
    out = tmp_path / "out.txt"
    out.write_text("".join(f"{v}\n" for v in gold))
    res = score_stsb(files, out)
    assert res["splits"] == {"dev": {"pairs": 1500, "pearson": pytest.approx(1.0)},
                             "test": {"pairs": 1379, "pearson": pytest.approx(1.0)}}


def test_stsb_malformed(tmp_path, stsb):
    bad = tmp_path / "sts-bad.csv"
    bad.write_text("main-news\tf\t2012\t1\t3.0\ta\tb\nmain-news\tf\t2012\t2\t3.0\ta\n")
    with pytest.raises(InputError) as ei:
        read_stsb(bad)
    assert ei.value.line == 2
    bad.write_text("main-blogs\tf\t2012\t1\t3.0\ta\tb\n")
    with pytest.raises(InputError) as ei:
        read_stsb(bad)
    assert ei.value.field == "genre" and ei.value.line == 1
    bad.write_text("main-news\tf\t2012\t1\tthree\ta\tb\n")
    with pytest.raises(InputError) as ei:
        read_stsb(bad)
    assert ei.value.field == "score"
    out = tmp_path / "o.txt"
    out.write_text("1\n2\n")
    with pytest.raises(InputError, match="2 answers"):
        score_stsb(stsb / "sts-test.csv", out)
    out.write_text("1\n" * 700 + "x\n" + "1\n" * 678)
    with pytest.raises(InputError) as ei:
        score_stsb(stsb / "sts-test.csv", out)
    assert ei.value.line == 701


# ------------------------------------------------------------------------------------------- CLI
def test_cli_sts_json(sts14, capsys):
    rc = main(["score", "sts", "--gold", str(sts14 / "STS.gs.headlines.txt"),
               "--system", str(sts14 / "STS.output.headlines.txt"), "--json"])
    assert rc == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["pairs"] == 750 and obj["errors"] == [] and -1 <= obj["pearson"] <= 1


def test_cli_sts_table_and_all(sts14, tmp_path, capsys):
    rc = main(["score", "sts", "--gold", str(sts14 / "STS.gs.headlines.txt"),
               "--system", str(sts14 / "STS.output.headlines.txt")])
    out = capsys.readouterr().out
    r = score_sts(sts14 / "STS.gs.headlines.txt", sts14 / "STS.output.headlines.txt")["pearson"]
    assert rc == 0 and f"Pearson: {r:.5f}" in out
    d, _ = _copy_answers(sts14, tmp_path)
    assert main(["score", "sts", "--all", str(sts14), "--system-dir", str(d)]) == 0
    out = capsys.readouterr().out
    assert "weighted mean" in out and "3750" in out


def test_cli_rejects_bad_submission(sts14, tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("1\n")
    rc = main(["score", "sts", "--gold", str(sts14 / "STS.gs.headlines.txt"), "--system", str(bad), "--json"])
    assert rc == 1
    assert "bad.txt" in json.loads(capsys.readouterr().out)["errors"][0]


def test_cli_missing_system_files_same_status(tmp_path, capsys):
    """No system file is a rejected submission (exit 1) whether or not --system-dir is the gold folder."""
    gold_dir, sys_dir = tmp_path / "G", tmp_path / "S"
    gold_dir.mkdir()
    sys_dir.mkdir()
    (gold_dir / "STS.gs.a.txt").write_text("1\n2\n3\n")
    assert main(["score", "sts", "--all", str(gold_dir)]) == 1
    assert "no system file" in capsys.readouterr().err
    assert main(["score", "sts", "--all", str(gold_dir), "--system-dir", str(sys_dir)]) == 1
    assert "no system file" in capsys.readouterr().err
    with pytest.raises(SubmissionError):
        score_sts_all(gold_dir)
    # a gold-side problem stays an error of the user's setup (exit 2)
    assert main(["score", "sts", "--all", str(sys_dir)]) == 2
    assert "no STS.gs.<set>.txt files" in capsys.readouterr().err


def test_cli_stsb(stsb, tmp_path, capsys):
    out = tmp_path / "o.txt"
    out.write_text("".join(f"{r.score}\n" for r in read_stsb(stsb / "sts-test.csv")))
    assert main(["score", "stsb", "--gold", str(stsb / "sts-test.csv"), "--system", str(out)]) == 0
    text = capsys.readouterr().out
    assert "main-forums" in text and "1.00000" in text
    assert main(["score", "stsb", "--gold", str(stsb / "sts-test.csv"), "--system", str(out), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["pairs"] == 1379 and set(obj["genres"]) == {"main-news", "main-captions", "main-forums"}
