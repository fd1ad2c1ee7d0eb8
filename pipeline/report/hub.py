"""``sick release``: a corpus with gold as a Hugging Face Hub dataset folder.

``DIR/data/train.parquet``, ``validation.parquet`` and ``test.parquet`` (SemEval-2014's TRAIN, TRIAL and TEST sets,
Marelli et al. 2014 section 3.4 / the SemEval-2014 Task 1 release) and ``DIR/README.md``, a dataset card whose YAML
header declares the config, its three splits (file, rows, bytes) and the typed features, so that
``datasets.load_dataset(DIR)`` gives three splits with those types (``tests/report/test_hub.py`` loads it).

Features: ``pair_ID`` int64 (string when an id is not a number), ``sentence_A`` / ``sentence_B`` string,
``relatedness_score`` float64 (1-5), ``entailment_label`` a ``ClassLabel`` over NEUTRAL, ENTAILMENT,
CONTRADICTION (stored as 0, 1, 2, as the Hub's SICK has it), and the provenance columns as strings (``pair_type``,
``set``, ``expected_relation``, ``entailment_AB``, ``entailment_BA``, the originals and their datasets).

Splits: ``--split-by semeval`` (default) keeps the corpus's ``SemEval_set``. ``--split-by groups`` splits again
so that no two splits share a sentence: pairs are grouped by the sentences they share (the S0 pair of a source
and every expansion of it; an unrelated pair joins two such groups), and whole groups are drawn into the three
splits in SICK's proportions (45 / 5 / 50 %, seeded), so a model cannot meet a test sentence in training.

Gold made from simulated judgments (``sick aggregate``'s ``manifest.json`` / ``agreement.json`` beside the file
say ``"synthetic": true``) is released with ``synthetic: true`` in the card and a warning at its top.
"""

from __future__ import annotations

__all__ = ["FEATURES", "SPLIT_NAMES", "group_splits", "write_hub_dataset"]

import random
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.common.corpus_io import read_corpus
from pipeline.common.errors import InputError
from pipeline.common.files import atomic_dir
from pipeline.common.vocabulary import LABELS
from pipeline.report.io import is_synthetic, write_semeval_files

SPLIT_NAMES = {"TRAIN": "train", "TRIAL": "validation", "TEST": "test"}
"""SemEval-2014 set -> Hugging Face split name."""
SHARES = (("TRAIN", 0.45), ("TRIAL", 0.05), ("TEST", 0.50))
"""SICK's split proportions (the build's ``SPLITS``), used by ``--split-by groups``."""
TEXT = ("sentence_A", "sentence_B")
EXTRA = ("entailment_AB", "entailment_BA", "sentence_A_original", "sentence_B_original", "sentence_A_dataset",
         "sentence_B_dataset", "pair_type", "set", "expected_relation")
FEATURES = ("pair_ID", "sentence_A", "sentence_B", "relatedness_score", "entailment_label", *EXTRA)


def group_splits(df: pd.DataFrame, seed: int = 1) -> pd.Series:
    """SemEval set per row such that no sentence is in two sets: connected components of the graph whose nodes
    are sentences and whose edges are the related pairs (not ``pair_type`` ``unrelated``: each joins two source
    groups, and with them the whole corpus would be one component), drawn whole into TRAIN / TRIAL / TEST in
    :data:`SHARES` of pairs (seeded shuffle of the components, then filled in order). An unrelated pair goes
    with its two sentences when both are in one set, and gets ``""`` (left out) when they are in two."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    unrelated = ((df["pair_type"].astype(str) == "unrelated").to_numpy() if "pair_type" in df.columns
                 else np.zeros(len(df), dtype=bool))
    for a, b, u in zip(df["sentence_A"], df["sentence_B"], unrelated):
        if u:
            continue
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    comp = pd.Series([find(a) for a in df["sentence_A"]], index=df.index)
    comp_b = pd.Series([find(b) for b in df["sentence_B"]], index=df.index)
    sizes = comp[~unrelated].value_counts(sort=False)
    sizes = sizes.reindex(sorted(set(comp) | set(comp_b)), fill_value=0)
    order = sorted(sizes.index)
    random.Random(f"{seed}|groups").shuffle(order)
    n, done, out = int(sizes.sum()), 0, {}
    bounds = []
    acc = 0.0
    for name, share in SHARES:
        acc += share
        bounds.append((name, acc * n))
    for c in order:
        name = next((nm for nm, b in bounds if done < b), bounds[-1][0])
        out[c] = name
        done += int(sizes[c])
    a_set, b_set = comp.map(out), comp_b.map(out)
    return a_set.where(a_set == b_set, "")


def _card(splits: dict[str, tuple[int, int]], id_type: str, synthetic: bool, source: str, split_by: str,
          left_out: int = 0) -> str:
    import yaml

    features = [{"name": "pair_ID", "dtype": id_type}, *({"name": c, "dtype": "string"} for c in TEXT),
                {"name": "relatedness_score", "dtype": "float64"},
                {"name": "entailment_label", "dtype": {"class_label": {"names": dict(enumerate(LABELS))}}},
                *({"name": c, "dtype": "string"} for c in EXTRA)]
    header = {
        "language": ["en"], "license": "cc-by-nc-sa-3.0",
        "task_categories": ["text-classification", "sentence-similarity"],
        "pretty_name": "SICK-style sentence pairs", "synthetic": synthetic,
        "configs": [{"config_name": "default", "data_files": [{"split": s, "path": f"data/{s}.parquet"}
                                                               for s in splits]}],
        "dataset_info": {"features": features,
                         "splits": [{"name": s, "num_examples": n, "num_bytes": b} for s, (n, b) in splits.items()]},
    }
    warning = ("\n> **SYNTHETIC DATA.** The gold of this dataset was aggregated from *simulated* crowd judgments "
               "(`sick simulate-judgments`), not from people.\n" if synthetic else "")
    rows = "\n".join(f"| {s} | {n} |" for s, (n, _) in splits.items())
    return ("---\n" + yaml.safe_dump(header, sort_keys=False, allow_unicode=True) + "---\n\n"
            "# SICK-style sentence pairs\n" + warning + "\n"
            "Sentence pairs built and annotated the way SICK was (Marelli et al. 2014, LREC): each pair has a "
            "relatedness score (1-5, the mean of the crowd's ratings) and an entailment label (NEUTRAL, "
            "ENTAILMENT, CONTRADICTION) from judgments in both presentation orders.\n\n"
            f"Made with `sick release` from `{source}`; splits: "
            + ("SemEval-2014's TRAIN / TRIAL / TEST as the corpus assigns them" if split_by == "semeval" else
               "whole sentence groups drawn into 45 / 5 / 50 %, so no sentence is in two splits")
            + "." + (f" {left_out} pair(s) in no split were left out (unrelated pairs whose two sentences fell in "
                     "two splits, or rows with no SemEval set)." if left_out else "")
            + "\n\n| split | pairs |\n|---|---|\n" + rows + "\n\n"
            "```python\nfrom datasets import load_dataset\nds = load_dataset(\"path/to/this/folder\")\n```\n")


def write_hub_dataset(corpus: str | Path, out_dir: str | Path, split_by: str = "semeval", seed: int = 1) -> dict:
    """Write the Hub folder for ``corpus`` (a gold.tsv of ``sick aggregate``, or any corpus file with gold) and
    return ``{split: rows}``.

    Raises:
        InputError: a missing/malformed corpus, rows without gold (relatedness score and label), labels other
            than SICK's three, or (``semeval``) no row in a set.
    """
    if split_by not in ("semeval", "groups"):
        raise ValueError(f"split_by must be semeval or groups, got {split_by!r}")
    path = Path(corpus)
    df = read_corpus([path], required=("pair_ID", *TEXT, "relatedness_score", "entailment_label"))
    missing = df["relatedness_score"].isna() | ~df["entailment_label"].isin(LABELS)
    if missing.any():
        first = df.loc[missing].iloc[0]
        raise InputError(path, f"{int(missing.sum())} pair(s) without gold (first: pair_ID {first['pair_ID']}): "
                               "release a gold.tsv of `sick aggregate`")
    sets = (group_splits(df, seed) if split_by == "groups"
            else df.get("SemEval_set", pd.Series("", index=df.index)).astype(str).str.upper())
    left_out = int((~sets.isin(list(SPLIT_NAMES))).sum())
    ids = df["pair_ID"].astype(str)
    id_type = "int64" if ids.str.fullmatch(r"\d+").all() else "string"
    table = pd.DataFrame({"pair_ID": ids.astype("int64") if id_type == "int64" else ids,
                          **{c: df[c].astype(str) for c in TEXT},
                          "relatedness_score": df["relatedness_score"].astype("float64"),
                          "entailment_label": df["entailment_label"].map({lab: i for i, lab in enumerate(LABELS)})
                          .astype("int64"),
                          **{c: (df[c].astype(str) if c in df.columns else "") for c in EXTRA}})
    splits: dict[str, tuple[int, int]] = {}
    with atomic_dir(out_dir) as tmp:
        (tmp / "data").mkdir()
        for key, name in SPLIT_NAMES.items():
            part = table[(sets == key).to_numpy()]
            if part.empty:
                raise InputError(path, f"no pair in the {key} set: use --split-by groups, or a corpus with "
                                       "SemEval_set filled")
            f = tmp / "data" / f"{name}.parquet"
            part.to_parquet(f, index=False, engine="pyarrow")
            splits[name] = (len(part), f.stat().st_size)
        # the SemEval-2014 text files of the same splits, for the official scorer and older tools
        write_semeval_files(df, sets, tmp)
        card = _card(splits, id_type, is_synthetic(path), str(corpus), split_by, left_out)
        (tmp / "README.md").write_text(card, encoding="utf-8")
    return {**{s: n for s, (n, _) in splits.items()}, "left_out": left_out}
