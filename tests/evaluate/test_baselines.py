"""SemEval-2014 Task 1 baselines: the overlap baseline reproduces the organisers' output byte for byte, and all
four reproduce the published figures on SICK_test_annotated.txt (through our scorer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.common.errors import InputError
from pipeline.evaluate.baselines import overlap_label, overlap_scores, overlap_sts, run_baseline, stop_words, tokens


@pytest.fixture(scope="module")
def sick(shared_data) -> Path:
    return shared_data / "sick2014"


def test_tokens_and_overlap():
    assert tokens("A man's DOG, running!!") == ["a", "man", "'", "s", "dog", ",", "running", "!!"]
    assert overlap_scores(["a b c"], ["a b d e"], stop_count=0) == [0.5]
    assert overlap_scores(["the", "a b"], ["the", "a c"], stop_count=1) == [1.0, 0.5]  # both empty -> 1
    assert overlap_scores(["x y", "x y z"], ["x q", "x y"], stop_count=1) == [0.0, 0.5]  # 'x' is the stop word
    assert stop_words(["b a a"], ["b c"], 1) == {"b"}  # tie a/b (2 each): first seen wins
    assert [overlap_label(v) for v in (0.56, 0.559, 0.031, 0.03, 0)] == \
        ["ENTAILMENT", "NEUTRAL", "NEUTRAL", "CONTRADICTION", "CONTRADICTION"]
    with pytest.raises(ValueError):
        overlap_scores(["a"], ["a", "b"])
    with pytest.raises(ValueError, match="below the number of distinct"):
        overlap_scores(["a"], ["a"], stop_count=1)


@pytest.mark.parametrize("name,gold", [("trial", "SICK_trial.txt"), ("train", "SICK_train.txt"),
                                       ("test_annotated", "SICK_test_annotated.txt")])
def test_overlap_identical_to_official_baseline(sick, tmp_path, capsys, name, gold):
    out = tmp_path / "ov.txt"
    assert main(["baseline", "overlap", "--test", str(sick / gold), "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out}\n")
    assert out.read_bytes() == (sick / "derived" / f"overlap_baseline_{name}.submission.txt").read_bytes()


def test_overlap_published_figures(sick, tmp_path):
    test = sick / "SICK_test_annotated.txt"
    [r] = run_baseline("overlap", test, out=tmp_path / "ov.txt")
    assert r["pairs"] == 4927
    assert round(r["relatedness"]["pearson"], 2) == 0.63 and round(r["entailment"]["accuracy"], 1) == 56.2
    [rs] = run_baseline("overlap", test, out=tmp_path / "ov2.txt", rescale=True)
    assert rs["relatedness"]["pearson"] == pytest.approx(r["relatedness"]["pearson"], abs=1e-12)
    assert rs["relatedness"]["mse"] < 2 < r["relatedness"]["mse"]
    assert rs["entailment"] == r["entailment"]


def test_majority(sick, tmp_path):
    out = tmp_path / "maj.txt"
    [r] = run_baseline("majority", sick / "SICK_test_annotated.txt", train=sick / "SICK_train.txt", out=out)
    assert round(r["entailment"]["accuracy"], 1) == 56.7 and r["relatedness"] is None
    assert {row for row in out.read_text().splitlines()[1:3]} == {"6\tNEUTRAL\tNA", "7\tNEUTRAL\tNA"}


def test_probability_mean_over_runs(sick, tmp_path):
    rs = run_baseline("probability", sick / "SICK_test_annotated.txt", train=sick / "SICK_train.txt",
                      out=tmp_path / "p.txt", seed=3, runs=10)
    assert len(rs) == 10
    mean = sum(r["entailment"]["accuracy"] for r in rs) / 10
    assert abs(mean - 41.8) <= 1
    # run 0 is the file written, and the same seed gives the same file
    run_baseline("probability", sick / "SICK_test_annotated.txt", train=sick / "SICK_train.txt",
                 out=tmp_path / "q.txt", seed=3)
    assert (tmp_path / "p.txt").read_bytes() == (tmp_path / "q.txt").read_bytes()


def test_chance(sick, tmp_path):
    rs = run_baseline("chance", sick / "SICK_test_annotated.txt", out=tmp_path / "c.txt", seed=1, runs=5)
    acc = sum(r["entailment"]["accuracy"] for r in rs) / 5
    rr = sum(r["relatedness"]["pearson"] for r in rs) / 5
    assert abs(acc - 33.3) <= 1 and round(rr, 1) == 0
    vals = [float(line.split("\t")[2]) for line in (tmp_path / "c.txt").read_text().splitlines()[1:]]
    assert min(vals) >= 1 and max(vals) <= 5


def test_cli_prints_scores_and_needs_train(sick, tmp_path, capsys):
    test = str(sick / "SICK_trial.txt")
    assert main(["baseline", "probability", "--train", str(sick / "SICK_train.txt"), "--test", test,
                 "--runs", "3", "--out", str(tmp_path / "p.txt")]) == 0
    out = capsys.readouterr().out
    assert "3 run(s)" in out and "accuracy" in out and "sd" in out
    with pytest.raises(SystemExit):
        main(["baseline", "majority", "--test", test, "--out", str(tmp_path / "m.txt")])
    with pytest.raises(InputError):
        run_baseline("majority", test, out=tmp_path / "m.txt")


def test_unannotated_test_file(tmp_path):
    p = tmp_path / "t.txt"
    p.write_text("pair_ID\tsentence_A\tsentence_B\n1\tA dog runs\tA dog runs\n2\tA cat\tTwo men\n")
    assert run_baseline("overlap", p, out=tmp_path / "o.txt", stop_count=0) == []
    lines = (tmp_path / "o.txt").read_text().splitlines()
    assert lines == ["pair_ID\tentailment_judgment\trelatedness_score", "1\tENTAILMENT\t1.0", "2\tCONTRADICTION\t0.0"]


def test_overlap_sts(tmp_path, capsys):
    p = tmp_path / "STS.input.x.txt"
    p.write_text("A dog runs.\tA dog runs.\nA cat sleeps.\tThe man cooks.\n")
    assert overlap_sts(p, stop_count=0) == [5.0, pytest.approx(5 * 1 / 4)]  # {.} shared of 4 distinct tokens
    out = tmp_path / "sys.txt"
    assert main(["baseline", "overlap", "--format", "sts", "--stop-count", "0", "--test", str(p),
                 "--out", str(out)]) == 0
    assert out.read_text().splitlines() == ["5.0", "1.25"]
    assert capsys.readouterr().out == f"wrote 2 STS overlap scores (5 x overlap) to {out}\n"
    with pytest.raises(InputError, match="distinct tokens"):
        overlap_sts(p, stop_count=50)
    p.write_text("no tab here\n")
    with pytest.raises(InputError, match="line 1"):
        overlap_sts(p)
