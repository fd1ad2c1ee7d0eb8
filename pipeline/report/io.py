"""The SemEval-2014 split files (``SICK_train.txt``, ``SICK_trial.txt``, ``SICK_test_annotated.txt``: SemEval
layout, LF) that ``sick release`` writes beside its Parquet splits; corpora are read by
:func:`pipeline.common.corpus_io.read_corpus`.
"""

from __future__ import annotations

__all__ = ["RELEASE_FILES", "SEMEVAL_COLUMNS", "is_synthetic", "write_semeval_files"]

import csv
import json
from pathlib import Path

import pandas as pd

from pipeline.common.files import atomic_file

SEMEVAL_COLUMNS = ["pair_ID", "sentence_A", "sentence_B", "relatedness_score", "entailment_judgment"]
RELEASE_FILES = {"TRAIN": "SICK_train.txt", "TRIAL": "SICK_trial.txt", "TEST": "SICK_test_annotated.txt"}


def _fmt_score(x: float) -> str:
    if pd.isna(x):
        return ""
    return f"{x:.4f}".rstrip("0").rstrip(".")


def write_semeval_files(df: pd.DataFrame, sets: pd.Series, out_dir: str | Path) -> dict[str, int]:
    """Write the SemEval-2014 split files ``SICK_train.txt``, ``SICK_trial.txt``, ``SICK_test_annotated.txt``
    (``pair_ID sentence_A sentence_B relatedness_score entailment_judgment``, tab-separated, quoting off, LF) of
    the rows whose ``sets`` value is ``TRAIN``, ``TRIAL`` or ``TEST``; a set without rows gets no file.

    Returns ``{file name: rows}``. Each file is written atomically.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = {}
    ours = {"entailment_judgment": "entailment_label"}  # the release's column name -> ours
    semeval = df[[ours.get(c, c) for c in SEMEVAL_COLUMNS]].set_axis(SEMEVAL_COLUMNS, axis=1)
    semeval = semeval.assign(relatedness_score=semeval["relatedness_score"].map(_fmt_score))
    for key, name in RELEASE_FILES.items():
        part = semeval[(sets == key).to_numpy()]
        if part.empty:
            continue
        with atomic_file(out_dir / name) as tmp:
            part.to_csv(tmp, sep="\t", index=False, lineterminator="\n", quoting=csv.QUOTE_NONE, escapechar=None)
        written[name] = len(part)
    return written


def is_synthetic(corpus_path: str | Path) -> bool:
    """Whether the gold file comes from simulated judgments: ``"synthetic": true`` in the ``agreement.json`` or
    the ``manifest.json`` that ``sick aggregate`` writes beside it."""
    for name in ("agreement.json", "manifest.json"):
        f = Path(corpus_path).with_name(name)
        try:
            if f.is_file() and json.loads(f.read_text(encoding="utf-8")).get("synthetic") is True:
                return True
        except (OSError, ValueError, AttributeError):
            continue
    return False
