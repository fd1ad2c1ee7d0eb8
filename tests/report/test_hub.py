"""``sick release``: a gold corpus as a Hugging Face Hub dataset folder that ``datasets.load_dataset`` reads."""

from __future__ import annotations

import pandas as pd
import pytest

from pipeline.cli import main


@pytest.fixture(scope="module")
def gold(tmp_path_factory, synthetic_corpus):
    """A simulated round on a small corpus aggregated by the real commands: gold.tsv (synthetic) and its folder."""
    tmp = tmp_path_factory.mktemp("hub")
    corpus = synthetic_corpus(40)
    # sentences shared inside a source group, as a build's are: group i's S1a/S1b appear in all its pairs
    groups = pd.Series(range(len(corpus))) // 8
    corpus["sentence_A"] = [f"first sentence of group {g}" for g in groups]
    corpus["sentence_B"] = [f"{t} sentence {i} of group {g}" for i, (t, g) in enumerate(zip(corpus["pair_type"],
                                                                                             groups))]
    unrelated = corpus["pair_type"] == "unrelated"
    corpus.loc[unrelated, "sentence_B"] = [f"first sentence of group {(g + 7) % 40}" for g in groups[unrelated]]
    corpus["SemEval_set"] = ["TRAIN", "TEST", "TRIAL", "TEST"] * (len(corpus) // 4)
    cpath = tmp / "corpus.tsv"
    corpus.to_csv(cpath, sep="\t", index=False, lineterminator="\n")
    assert main(["simulate-judgments", "--corpus", str(cpath), "--workers", "40", "--out", str(tmp / "j.csv")]) == 0
    assert main(["aggregate", "--judgments", str(tmp / "j.csv"), "--corpus", str(cpath), "--quiet",
                 "--out", str(tmp / "g")]) == 0
    return tmp / "g" / "gold.tsv"


def test_load_dataset_gives_three_typed_splits(gold, tmp_path):
    datasets = pytest.importorskip("datasets")
    out = tmp_path / "hub"
    assert main(["release", "--corpus", str(gold), "--quiet", "--out", str(out)]) == 0
    assert sorted(p.name for p in (out / "data").iterdir()) == ["test.parquet", "train.parquet",
                                                                  "validation.parquet"]
    ds = datasets.load_dataset(str(out))
    g = pd.read_csv(gold, sep="\t", dtype=str, keep_default_na=False)
    assert {s: ds[s].num_rows for s in ds} == {"train": (g["SemEval_set"] == "TRAIN").sum(),
                                               "validation": (g["SemEval_set"] == "TRIAL").sum(),
                                               "test": (g["SemEval_set"] == "TEST").sum()}
    f = ds["train"].features
    assert f["pair_ID"].dtype == "int64" and f["relatedness_score"].dtype == "float64"
    assert f["entailment_label"].names == ["NEUTRAL", "ENTAILMENT", "CONTRADICTION"]
    row = ds["test"][0]
    src = g.set_index("pair_ID").loc[str(row["pair_ID"])]
    assert row["sentence_A"] == src["sentence_A"] and row["relatedness_score"] == float(src["relatedness_score"])
    assert f["entailment_label"].int2str(row["entailment_label"]) == src["entailment_label"]
    card = (out / "README.md").read_text(encoding="utf-8")
    assert card.startswith("---\n") and "synthetic: true" in card and "SYNTHETIC DATA" in card
    import yaml

    header = yaml.safe_load(card.split("---\n")[1])
    assert [s["split"] for s in header["configs"][0]["data_files"]] == ["train", "validation", "test"]
    assert {s["name"]: s["num_examples"] for s in header["dataset_info"]["splits"]} == {s: ds[s].num_rows
                                                                                     for s in ds}


def test_split_by_groups_shares_no_sentence_between_splits(gold, tmp_path):
    out = tmp_path / "hub"
    assert main(["release", "--corpus", str(gold), "--split-by", "groups", "--quiet", "--out", str(out)]) == 0
    parts = {s: pd.read_parquet(out / "data" / f"{s}.parquet") for s in ("train", "validation", "test")}
    sentences = {s: set(p["sentence_A"]) | set(p["sentence_B"]) for s, p in parts.items()}
    assert not (sentences["train"] & sentences["test"]) and not (sentences["train"] & sentences["validation"])
    assert not (sentences["validation"] & sentences["test"])
    n = sum(len(p) for p in parts.values())
    g = pd.read_csv(gold, sep="\t", dtype=str)
    left_out = len(g) - n
    assert 0 < left_out <= (g["pair_type"] == "unrelated").sum()  # only unrelated pairs across two splits
    assert all(p["pair_type"].ne("unrelated").any() for p in parts.values())
    assert f"{left_out} pair(s) in no split were left out" in (out / "README.md").read_text(encoding="utf-8")


def test_release_refuses_a_corpus_without_gold(tmp_path, synthetic_corpus):
    corpus = synthetic_corpus(2).assign(relatedness_score="", entailment_label="", SemEval_set="TRAIN")
    cpath = tmp_path / "corpus.tsv"
    corpus.to_csv(cpath, sep="\t", index=False, lineterminator="\n")
    assert main(["release", "--corpus", str(cpath), "--out", str(tmp_path / "hub")]) == 2
    assert not (tmp_path / "hub").exists()
