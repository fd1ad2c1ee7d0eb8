"""Readers and release writers for ``sick report``.

``read_corpus`` accepts our ``corpus.tsv``/``gold.tsv``, SICK.txt's layout (CRLF, quotes inside fields, stray
spaces: read with quoting off and every field stripped) and the SemEval-2014 release layout
(``pair_ID sentence_A sentence_B relatedness_score entailment_judgment``); several files are concatenated.
``write_release`` writes ``SICK_train.txt``/``SICK_trial.txt``/``SICK_test_annotated.txt`` (SemEval layout, LF)
and a Parquet file that ``datasets.load_dataset("parquet", data_files=...)`` reads.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Sequence

import pandas as pd

from pipeline.common.errors import InputError
from pipeline.common.files import atomic_file
from pipeline.common.vocabulary import LABELS

REQUIRED = ("pair_ID", "sentence_A", "sentence_B", "relatedness_score", "entailment_label")
SEMEVAL_COLUMNS = ["pair_ID", "sentence_A", "sentence_B", "relatedness_score", "entailment_judgment"]
RELEASE_FILES = {"TRAIN": "SICK_train.txt", "TRIAL": "SICK_trial.txt", "TEST": "SICK_test_annotated.txt"}
PARQUET_NAME = "sick.parquet"


def _set_from_name(path: Path) -> str:
    name = path.name.lower()
    for key in ("train", "trial", "test"):
        if key in name:
            return key.upper()
    return ""


def read_one(path: str | Path) -> pd.DataFrame:
    """Read one corpus file as strings (fields stripped), with ``relatedness_score`` as float (NaN when empty).

    Raises:
        InputError: missing/unreadable file, bad UTF-8, a line with the wrong number of fields, a missing
            column, a duplicate ``pair_ID`` or a relatedness that is not a number.
    """
    p = Path(path)
    if not p.is_file():
        raise InputError(path, "file not found")
    raw = p.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(path, f"not valid UTF-8 ({exc.reason})", line=line) from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise InputError(path, "empty file")
    lines = text.split("\n")
    header = [h.strip() for h in lines[0].split("\t")]
    # quoting off: a field is the text between tabs, stripped; blank lines are skipped but keep their numbers
    rows, line_no = [], []
    for i, ln in enumerate(lines[1:], start=2):
        if not ln.strip():
            continue
        fields = ln.split("\t")
        if len(fields) != len(header):
            raise InputError(path, f"{len(fields)} fields, header has {len(header)}", line=i)
        rows.append([f.strip() for f in fields])
        line_no.append(i)
    df = pd.DataFrame(rows, columns=range(len(header)), dtype=str)
    df.columns = header
    if "entailment_label" not in df.columns and "entailment_judgment" in df.columns:
        df = df.rename(columns={"entailment_judgment": "entailment_label"})
    missing = [c for c in REQUIRED if c not in df.columns]
    if missing:
        raise InputError(path, f"missing column(s) {', '.join(missing)}; found {', '.join(header)}",
                         field=missing[0])
    dup = df["pair_ID"].duplicated()
    if dup.any():
        i = int(dup.to_numpy().nonzero()[0][0])
        raise InputError(path, f"duplicate pair_ID {df['pair_ID'].iat[i]!r}", line=line_no[i], field="pair_ID")
    rel = pd.to_numeric(df["relatedness_score"].replace("", None), errors="coerce")
    bad = rel.isna() & (df["relatedness_score"] != "")
    if bad.any():
        i = int(bad.to_numpy().nonzero()[0][0])
        raise InputError(path, f"relatedness {df['relatedness_score'].iat[i]!r} is not a number", line=line_no[i],
                         field="relatedness_score")
    df["relatedness_score"] = rel.astype(float)
    df["entailment_label"] = df["entailment_label"].str.upper()
    if "SemEval_set" not in df.columns:
        df["SemEval_set"] = _set_from_name(p)
    return df


def read_corpus(paths: str | Path | Sequence[str | Path]) -> pd.DataFrame:
    """Read one file or several (concatenated in order); see ``read_one``.

    Raises:
        InputError: as ``read_one``; also a ``pair_ID`` found in two files.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    frames = [read_one(p) for p in paths]
    if not frames:
        raise InputError("-", "no corpus file given")
    df = pd.concat(frames, ignore_index=True, sort=False)
    for c in df.columns:
        if c != "relatedness_score":
            df[c] = df[c].fillna("")
    dup = df["pair_ID"].duplicated()
    if dup.any():
        pid = df["pair_ID"][dup].iat[0]
        raise InputError(paths[-1], f"pair_ID {pid!r} appears in more than one file", field="pair_ID")
    return df


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


__all__ = ["LABELS", "PARQUET_NAME", "RELEASE_FILES", "SEMEVAL_COLUMNS", "read_corpus", "read_one",
           "write_release"]
