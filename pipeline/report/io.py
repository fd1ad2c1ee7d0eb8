"""Release writers for ``sick report``; its reader is :func:`pipeline.common.corpus_io.read_corpus`.
``write_release`` writes ``SICK_train.txt``/``SICK_trial.txt``/``SICK_test_annotated.txt`` (SemEval layout, LF)
and a Parquet file that ``datasets.load_dataset("parquet", data_files=...)`` reads.
"""

from __future__ import annotations

__all__ = ["PARQUET_NAME", "RELEASE_FILES", "SEMEVAL_COLUMNS", "write_release"]

import csv
from pathlib import Path

import pandas as pd

from pipeline.common.files import atomic_file

SEMEVAL_COLUMNS = ["pair_ID", "sentence_A", "sentence_B", "relatedness_score", "entailment_judgment"]
RELEASE_FILES = {"TRAIN": "SICK_train.txt", "TRIAL": "SICK_trial.txt", "TEST": "SICK_test_annotated.txt"}
PARQUET_NAME = "sick.parquet"


def _fmt_score(x: float) -> str:
    if pd.isna(x):
        return ""
    return f"{x:.4f}".rstrip("0").rstrip(".")


def write_release(df: pd.DataFrame, out_dir: str | Path) -> dict:
    """Write the SemEval-2014 split files (by ``SemEval_set``; none when no row has one) and ``sick.parquet``.

    Returns ``{file name: rows}``. Each file is written atomically.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = {}
    sets = df["SemEval_set"].astype(str).str.upper() if "SemEval_set" in df.columns else pd.Series("", df.index)
    ours = {"entailment_judgment": "entailment_label"}  # the release's column name -> ours
    semeval = df[[ours.get(c, c) for c in SEMEVAL_COLUMNS]].set_axis(SEMEVAL_COLUMNS, axis=1)
    semeval = semeval.assign(relatedness_score=semeval["relatedness_score"].map(_fmt_score))
    for key, name in RELEASE_FILES.items():
        part = semeval[sets == key]
        if part.empty:
            continue
        with atomic_file(out_dir / name) as tmp:
            part.to_csv(tmp, sep="\t", index=False, lineterminator="\n", quoting=csv.QUOTE_NONE, escapechar=None)
        written[name] = len(part)
    pq = df.copy()
    pq["relatedness_score"] = pq["relatedness_score"].astype(float)
    for c in pq.columns:
        if c != "relatedness_score":
            pq[c] = pq[c].astype(str)
    with atomic_file(out_dir / PARQUET_NAME) as tmp:
        pq.to_parquet(tmp, index=False, engine="pyarrow")
    written[PARQUET_NAME] = len(pq)
    return written
