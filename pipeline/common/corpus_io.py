"""The one reader of corpus files: our ``corpus.tsv``/``gold.tsv`` (``sick build``, ``sick aggregate``), SICK.txt's
layout (CRLF, quotes inside fields, stray spaces) and the SemEval-2014 release layout (``pair_ID sentence_A sentence_B
relatedness_score entailment_judgment``). Read with quoting off, as SICK's own files must be, every field stripped
and the field count of every line checked; several files are concatenated.
"""

from __future__ import annotations

__all__ = ["REQUIRED", "read_corpus", "read_one"]

import csv
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from pipeline.common.errors import InputError
from pipeline.common.vocabulary import LABELS, RELATEDNESS_RANGE

REQUIRED = ("pair_ID", "sentence_A", "sentence_B", "relatedness_score", "entailment_label")
"""The columns ``sick report`` needs (``entailment_judgment`` is read as ``entailment_label``)."""


def _set_from_name(path: Path) -> str:
    name = path.name.lower()
    for key in ("train", "trial", "test"):
        if key in name:
            return key.upper()
    return ""


def read_one(path: str | Path, required: Sequence[str] = REQUIRED, numeric: bool = True,
             csv_quoting: bool = False) -> pd.DataFrame:
    """Read one corpus file as strings (fields stripped), with ``relatedness_score`` as float (NaN when empty).

    ``required``: the columns that must be present. ``numeric=False`` keeps ``relatedness_score`` (when present)
    as the stripped text and adds no ``SemEval_set``, for stages that pass the corpus columns through unchanged.
    ``csv_quoting=True`` reads a field that starts with ``"`` as a CSV-quoted field (``""`` inside), the way
    :func:`pipeline.common.files.write_tsv` writes a field holding a quote; SICK's files need it off.
    ``df.attrs["lines"]`` holds each row's line number in the file.

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
        # one physical line is one row: a stray quote can never merge two rows (and lose a pair)
        try:
            fields = next(csv.reader([ln], delimiter="\t", strict=True)) if csv_quoting and '"' in ln \
                else ln.split("\t")
        except csv.Error as exc:
            raise InputError(path, f"malformed quoting ({exc}); a field that starts with a quote must be written "
                                   'whole in quotes, with "" for a quote inside', line=i) from None
        if len(fields) != len(header):
            raise InputError(path, f"expected {len(header)} fields (as the header), found {len(fields)}", line=i)
        rows.append([f.strip() for f in fields])
        line_no.append(i)
    df = pd.DataFrame(rows, columns=range(len(header)), dtype=str)
    df.columns = header
    if "entailment_label" not in df.columns and "entailment_judgment" in df.columns:
        df = df.rename(columns={"entailment_judgment": "entailment_label"})
    df.attrs["lines"] = line_no
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise InputError(path, f"missing column {missing[0]!r}" + (f" (and {', '.join(missing[1:])})" if missing[1:]
                               else "") + f"; found {', '.join(header)}", field=missing[0])
    dup = df["pair_ID"].duplicated()
    if dup.any():
        i = int(dup.to_numpy().nonzero()[0][0])
        first = line_no[int((df["pair_ID"] == df["pair_ID"].iat[i]).to_numpy().nonzero()[0][0])]
        raise InputError(path, f"duplicate pair_ID {df['pair_ID'].iat[i]!r}: repeats line {first}", line=line_no[i],
                         field="pair_ID")
    if not numeric:
        return df
    rel = pd.to_numeric(df["relatedness_score"].replace("", None), errors="coerce")
    bad = rel.isna() & (df["relatedness_score"] != "")
    if bad.any():
        i = int(bad.to_numpy().nonzero()[0][0])
        raise InputError(path, f"relatedness {df['relatedness_score'].iat[i]!r} is not a number", line=line_no[i],
                         field="relatedness_score")
    out_of_range = rel.notna() & ~rel.between(*RELATEDNESS_RANGE)  # also inf
    if out_of_range.any():
        i = int(out_of_range.to_numpy().nonzero()[0][0])
        raise InputError(path, f"relatedness {df['relatedness_score'].iat[i]!r} is outside "
                               f"{RELATEDNESS_RANGE[0]}-{RELATEDNESS_RANGE[1]}", line=line_no[i],
                         field="relatedness_score")
    df["relatedness_score"] = rel.astype(float)
    df["entailment_label"] = df["entailment_label"].str.upper()
    unknown = ~df["entailment_label"].isin(LABELS + ("", "-"))  # "-": the crowd did not decide (--ties none)
    if unknown.any():
        i = int(unknown.to_numpy().nonzero()[0][0])
        raise InputError(path, f"entailment label {df['entailment_label'].iat[i]!r} is not one of {', '.join(LABELS)}",
                         line=line_no[i], field="entailment_label")
    if "SemEval_set" not in df.columns:
        df["SemEval_set"] = _set_from_name(p)
    return df


def read_corpus(paths: str | Path | Sequence[str | Path], required: Sequence[str] = REQUIRED,
                numeric: bool = True, csv_quoting: bool = False) -> pd.DataFrame:
    """Read one file or several (concatenated in order); see :func:`read_one` for ``required`` and ``numeric``.

    Raises:
        InputError: as ``read_one``; also a ``pair_ID`` found in two files.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    frames = [read_one(p, required, numeric, csv_quoting) for p in paths]
    if not frames:
        raise InputError("-", "no corpus file given")
    df = pd.concat(frames, ignore_index=True, sort=False)
    df.attrs = {}  # the line numbers of one file: they must not travel into written files (Parquet metadata)
    for c in df.columns:
        if c != "relatedness_score":
            df[c] = df[c].fillna("")
    dup = df["pair_ID"].duplicated()
    if dup.any():
        pid = df["pair_ID"][dup].iat[0]
        raise InputError(paths[-1], f"pair_ID {pid!r} appears in more than one file", field="pair_ID")
    return df
