"""``sick aggregate-labels``: aggregate any crowd label file, one row per judgment, into one row per item.

Input: TSV (``.tsv``, ``.tab``, ``.txt``), CSV (``.csv``) or JSON Lines (``.jsonl``, ``.ndjson``), chosen by the
file's extension; UTF-8 (a BOM is allowed). TSV and CSV have a header line and the quoting pandas writes and
reads (``"`` around a field that holds the separator, a quote or a line break), as every TSV of this project;
blank lines are skipped. JSONL: one JSON object per line, blank lines skipped. The three columns named on the
command line are read; other columns are ignored.

Every judgment counts: a row without one of the three fields, with an empty value, a label that is not a
number under ``--numeric``, a JSONL line that is not an object, or bad UTF-8 stops the run with an
:class:`~pipeline.errors.InputError` naming file, line and field, and nothing is written. The same worker
judging an item twice is allowed (SICK's raters may see a pair in both orders) and counted in the stats as
``repeated_worker_item``.

Output (``--out``, TSV, written atomically): categorical labels -> ``item label n_votes majority_share``
(:func:`pipeline.estimators.majority_vote`; with ``--method dawid-skene`` the label is Dawid-Skene's, and
``n_votes`` / ``majority_share`` still describe the votes); ``--numeric`` -> ``item mean sd n``
(:func:`pipeline.estimators.numeric_summary`, ``--sd-ddof``, default 1 = R's ``sd``). Floats are rounded to
6 decimals; an undefined SD (``n <= ddof``) is empty. Items are in order of first appearance.

Krippendorff's alpha (nominal for categorical labels, interval with ``--numeric``) is printed with the counts,
and everything goes to ``--stats-json FILE`` (see :func:`aggregate_labels`).
"""

from __future__ import annotations

__all__ = ["DECIMALS", "FORMATS", "METHODS", "aggregate_labels", "input_format", "read_label_table", "summary",
           "write_table"]

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pipeline.common.errors import InputError
from pipeline.common.files import atomic_file, write_tsv
from pipeline.common.options import AGGREGATION_METHODS
from pipeline.crowd import estimators
from pipeline.crowd.judgments import plain_layout, read_records, read_text

METHODS = AGGREGATION_METHODS
FORMATS = {".tsv": "tsv", ".tab": "tsv", ".txt": "tsv", ".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
DECIMALS = 6


def input_format(path: str | Path) -> str:
    """``tsv``, ``csv`` or ``jsonl`` from the file's extension; InputError for any other."""
    fmt = FORMATS.get(Path(path).suffix.lower())
    if fmt is None:
        raise InputError(path, f"unknown file extension {Path(path).suffix!r}: expected one of "
                               f"{', '.join(sorted(FORMATS))}")
    return fmt


def _read_plain(path, data: bytes, sep: str, columns: list[str]) -> tuple[list[np.ndarray], np.ndarray] | None:
    """The quick way for a plain file (no quote, no CR, every non-empty line with the header's number of fields,
    every requested column in the header: :func:`pipeline.crowd.judgments.plain_layout`): pandas' C parser, which
    then reads exactly what the careful reader would. None for any other file, which :func:`read_records` reads
    and reports on."""
    if b'"' in data or b"\r" in data:
        return None
    read_text(path, data)  # UTF-8 check, naming the line
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    layout = plain_layout(body, sep)
    if layout is None or any(c not in layout[0] for c in columns):
        return None
    header, width, lines = layout
    idx = [header.index(c) for c in columns]
    frame = pd.read_csv(io.BytesIO(body), sep=sep, header=None, names=list(range(width)), usecols=sorted(set(idx)),
                        dtype=object, keep_default_na=False, na_filter=False, skip_blank_lines=True, engine="c",
                        quoting=csv.QUOTE_NONE, encoding="utf-8")
    if len(frame) != len(lines) + 1:
        return None
    return [frame[i].to_numpy(dtype=object)[1:] for i in idx], lines


def _read_delimited(path, sep: str, columns: list[str]) -> tuple[list, np.ndarray]:
    """The requested columns of every record (:func:`pipeline.judgments.read_records`), and each record's first
    line number; every record must have the header's number of fields."""
    path = Path(path)
    if not path.is_file():
        raise InputError(path, "file not found" if not path.exists() else "not a file")
    data = path.read_bytes()
    fast = _read_plain(path, data, sep, columns)
    if fast is not None:
        return fast
    header, records = read_records(path, sep, data=data)
    for c in columns:
        if c not in header:
            raise InputError(path, f"no column {c!r} in the header (columns: {', '.join(header)})", line=1, field=c)
    idx = [header.index(c) for c in columns]
    width = len(header)
    bad = next((k for k, (_, rec) in enumerate(records) if len(rec) != width), None)
    if bad is not None:
        line, rec = records[bad]
        missing = [c for c, i in zip(columns, idx) if i >= len(rec)]
        raise InputError(path, f"{len(rec)} fields, the header (line 1) has {width}", line=line,
                         field=missing[0] if missing else None)
    return ([[rec[i] for _, rec in records] for i in idx],
            np.asarray([line for line, _ in records], dtype=np.int64))


def _json_scalar(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or isinstance(value, (int, float)):
        return json.dumps(value)
    return None


def _read_jsonl(path, text: str, columns: list[str], numeric_col: str | None) -> tuple[list[list[Any]], list[int]]:
    values: list[list[Any]] = [[] for _ in columns]
    lines: list[int] = []
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(path, f"not valid JSON ({exc.msg}, column {exc.colno})", line=n) from None
        if not isinstance(obj, dict):
            raise InputError(path, f"expected a JSON object, got {type(obj).__name__}", line=n)
        for out, c in zip(values, columns):
            if c not in obj:
                raise InputError(path, "no such field", line=n, field=c)
            v = obj[c]
            if c == numeric_col and isinstance(v, (int, float)) and not isinstance(v, bool):
                out.append(v)
                continue
            s = _json_scalar(v)
            if s is None:
                raise InputError(path, f"expected a string or a number, got {json.dumps(v)[:40]}", line=n, field=c)
            out.append(s)
        lines.append(n)
    if not lines:
        raise InputError(path, "no judgments (no JSON object lines)")
    return values, lines


class _Coded:
    """A label file's three columns as codes: ``item`` / ``worker`` codes into ``items`` / ``workers`` (order of
    first appearance), ``label`` codes into ``labels`` (sorted; floats with ``numeric``), ``line`` of each row."""

    def __init__(self, path, item: str, worker: str, label: str, numeric: bool):
        fmt = input_format(path)
        columns = [item, worker, label]
        if len(set(columns)) < 3:
            raise InputError(path, f"--item, --worker and --label must be three different columns, got {columns}")
        if fmt == "jsonl":
            values, lines = _read_jsonl(path, read_text(path), columns, label if numeric else None)
        else:
            values, lines = _read_delimited(path, "\t" if fmt == "tsv" else ",", columns)  # type: ignore[assignment]
            if not len(lines):
                raise InputError(path, "no judgments (only a header)")
        self.line = np.asarray(lines, dtype=np.int64)
        # each column factorized once; every check and count below works on the distinct values and the codes
        coded = []
        for vals, col in zip(values, columns):
            codes, uniques = pd.factorize(np.asarray(vals, dtype=object) if not isinstance(vals, np.ndarray)
                                          else vals)
            empty = np.fromiter((not str(u).strip() for u in uniques), dtype=bool, count=len(uniques))
            if empty.any():
                raise InputError(path, "empty value", line=int(self.line[np.argmax(empty[codes])]), field=col)
            coded.append((codes.astype(np.int64), np.asarray(uniques, dtype=object)))
        (self.item, self.items), (self.worker, self.workers), (lcode, lvalues) = coded
        if numeric:
            parsed = pd.to_numeric(pd.Series(lvalues, dtype=object), errors="coerce").astype(float).to_numpy()
            bad = ~np.isfinite(parsed)
            if bad.any():
                first = int(np.argmax(bad[lcode]))
                raise InputError(path, f"{lvalues[lcode[first]]!r} is not a finite number",
                                 line=int(self.line[first]), field=label)
            self.values: np.ndarray | None = parsed[lcode]
            self.label, self.labels = lcode, parsed
        else:
            self.values = None
            lvalues = np.array([str(u) for u in lvalues], dtype=object)
            order = np.argsort(lvalues, kind="stable")  # the distinct labels are distinct strings: a total order
            rank = np.empty(len(order), dtype=np.int64)
            rank[order] = np.arange(len(order))
            self.label, self.labels = rank[lcode], lvalues[order]

    def frame(self) -> pd.DataFrame:
        """``DataFrame[item, worker, label, line]`` (see :func:`read_label_table`)."""
        return pd.DataFrame({"item": pd.Series(self.items[self.item], dtype=str),
                             "worker": pd.Series(self.workers[self.worker], dtype=str),
                             "label": (self.values if self.values is not None
                                       else pd.Series(self.labels[self.label], dtype=str)),
                             "line": self.line})


def read_label_table(path: str | Path, item: str, worker: str, label: str, numeric: bool = False) -> pd.DataFrame:
    """Read a long label file into ``DataFrame[item, worker, label, line]`` (canonical column names).

    ``item`` / ``worker`` / ``label`` are strings (JSON numbers as written by ``json.dumps``); with
    ``numeric`` the label is a float. ``line`` is the 1-based line where the judgment starts.

    Raises:
        InputError: (file, line, field) for a missing file, unknown extension, bad UTF-8, a missing column or
        field, a row with the wrong number of fields, an empty value, a label that is not a finite number
        with ``numeric``, bad JSON, or a file without judgments.
    """
    return _Coded(path, item, worker, label, numeric).frame()


def _check_options(numeric: bool, method: str, ties: Any, min_votes: int | None, sd_ddof: int) -> None:
    if method not in METHODS:
        raise InputError("--method", f"expected one of {', '.join(METHODS)}, got {method!r}")
    if numeric and method != "majority":
        raise InputError("--method", "--numeric labels are summarised by mean and SD; --method applies to "
                                     "categorical labels only")
    if (numeric or method == "dawid-skene") and (ties != "none" or min_votes is not None):
        what = "--numeric" if numeric else "--method dawid-skene"
        raise InputError("--ties" if ties != "none" else "--min-votes",
                         f"--ties and --min-votes apply to majority vote, not with {what}")
    if min_votes is not None and int(min_votes) < 1:
        raise InputError("--min-votes", f"must be at least 1, got {min_votes}")
    if int(sd_ddof) < 0:
        raise InputError("--sd-ddof", f"must be at least 0, got {sd_ddof}")
    if not isinstance(ties, str) or not ties.strip():
        raise InputError("--ties", f"expected none, random or a label, got {ties!r}")


def _finite(x: float) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


def aggregate_labels(input: str | Path, item: str, worker: str, label: str, numeric: bool = False,
                     method: str = "majority", ties: str = "none", min_votes: int | None = None,
                     sd_ddof: int = 1, seed: int = 0, details: dict | None = None) -> tuple[pd.DataFrame, dict]:
    """Aggregate the judgments of a label file; nothing is written.

    Args:
        input: TSV / CSV / JSONL file, one row per judgment (see the module docstring).
        item, worker, label: its column (field) names.
        numeric: labels are numbers: per-item mean, SD (``sd_ddof``) and count, alpha at interval level.
        method: ``majority`` or ``dawid-skene`` (categorical only).
        ties, min_votes, seed: majority vote's rules (:func:`pipeline.estimators.majority_vote`); ``ties`` is
            ``none`` (-> ``-``), ``random`` (seeded pick), ``first`` (the tied label that sorts first, as
            crowd-kit's MajorityVote) or a label given to every tie.
        details: a dict that, with Dawid-Skene, receives ``posteriors`` and ``skills``
            (:func:`pipeline.crowd.estimators.dawid_skene` with ``details``).
        sd_ddof: 1 (sample SD, default) or 0 (population SD) for ``numeric``.

    Returns:
        ``(table, stats)``. table: ``item label n_votes majority_share`` or, with ``numeric``,
        ``item mean sd n``, one row per item in order of first appearance. stats (JSON-ready dict):
        ``input``, ``format``, ``options``, ``counts`` (``items``, ``judgments``, ``workers``,
        ``repeated_worker_item``; categorical: ``labels`` (distinct), ``ties`` (items whose top count is
        shared), ``below_min_votes``, ``no_majority`` (items labelled ``-``); numeric: ``sd_undefined``),
        ``judgments_per_item`` (min, mean, max), ``label_counts`` (categorical) or ``value_range`` and
        ``mean_sd`` (numeric), ``mean_majority_share`` (categorical), ``alpha``, ``alpha_level`` and, with
        Dawid-Skene, ``dawid_skene`` (items where its label differs from the strict majority, and the share of
        items with a strict majority where it agrees).

    Raises:
        InputError: bad input (file, line, field) or conflicting options (named by option).
    """
    _check_options(numeric, method, ties, min_votes, sd_ddof)
    c = _Coded(input, item, worker, label, numeric)
    n = len(c.item)
    per_item = np.bincount(c.item, minlength=len(c.items))
    pairs = pd.unique(c.item * max(len(c.workers), 1) + c.worker)  # hashing: quicker than np.unique's sort
    stats: dict[str, Any] = {
        "input": str(input), "format": input_format(input),
        "options": {"item": item, "worker": worker, "label": label, "numeric": numeric,
                    "method": None if numeric else method,
                    "ties": None if numeric or method != "majority" else ties,
                    "min_votes": min_votes, "sd_ddof": sd_ddof if numeric else None,
                    "seed": seed if ties == "random" and not numeric else None},
        "counts": {"items": int(len(per_item)), "judgments": int(n), "workers": int(len(c.workers)),
                   "repeated_worker_item": int(n - len(pairs))},
        "judgments_per_item": {"min": int(per_item.min()), "mean": float(per_item.mean()),
                               "max": int(per_item.max())},
    }
    if numeric:
        df = c.frame()
        table = estimators.numeric_summary(df, "item", "label", ddof=sd_ddof)
        stats["counts"]["sd_undefined"] = int(table["sd"].isna().sum())
        stats["value_range"] = [float(df["label"].min()), float(df["label"].max())]
        stats["mean_sd"] = _finite(float(table["sd"].mean())) if table["sd"].notna().any() else None
        level = "interval"
    else:
        votes = estimators._Votes(None, "item", "label", codes=(c.item, c.items, c.label, c.labels))

        def first_seen_rank() -> np.ndarray:  # each label's rank by first appearance (ties="first")
            _, first = np.unique(c.label, return_index=True)
            rank = np.empty(len(first), dtype=np.int64)
            rank[np.argsort(first)] = np.arange(len(first))
            return rank

        mv = estimators._majority(votes, "item", "label", ties, min_votes, seed, True, first_seen_rank)
        label_counts = np.bincount(c.label, minlength=len(c.labels))
        stats["counts"]["labels"] = int(len(c.labels))
        stats["counts"]["ties"] = int((mv["n_tied"] > 1).sum())
        stats["counts"]["below_min_votes"] = int((mv["top_votes"] < min_votes).sum()) if min_votes else 0
        if method == "dawid-skene":
            ds, posteriors, skills = estimators.dawid_skene(c.frame(), "item", "worker", "label", details=True)
            if details is not None:
                details["posteriors"], details["skills"] = posteriors, skills
            # mv is the strict majority here: _check_options allows Dawid-Skene only with ties "none", no min_votes
            decided = (mv["label"] != estimators.NO_LABEL).to_numpy()
            same = ds["label"].to_numpy() == mv["label"].to_numpy()
            stats["dawid_skene"] = {
                "differs_from_majority": int((~same & decided).sum()),
                "agreement_with_majority": _finite(float(same[decided].mean())) if decided.any() else None,
                "items_tied_in_majority": int((~decided).sum()),
            }
            mv["label"] = ds["label"].to_numpy()
        stats["counts"]["no_majority"] = int((mv["label"] == estimators.NO_LABEL).sum())
        stats["label_counts"] = {str(k): int(v) for k, v in zip(c.labels, label_counts)}
        stats["mean_majority_share"] = float(mv["majority_share"].mean())
        table = mv[["item", "label", "n_votes", "majority_share"]]
        level = "nominal"
    try:
        if numeric:
            alpha = estimators.krippendorff_alpha(df, "item", "worker", "label", level=level)
        else:  # the same value counts krippendorff_alpha builds, from the codes already at hand
            counts = estimators._count_matrix(c.item, c.label, len(c.labels))
            alpha = estimators._alpha_from_counts(counts.T, np.asarray(c.labels), level)
        stats["alpha"] = _finite(alpha)
    except ValueError as exc:
        stats["alpha"], stats["alpha_note"] = None, str(exc)
    stats["alpha_level"] = level
    return table.reset_index(drop=True), stats


def write_table(table: pd.DataFrame, path: str | Path) -> None:
    """Write an :func:`aggregate_labels` table as TSV, atomically, floats rounded to 6 decimals."""
    out = table.copy()
    for c in out.columns:
        if pd.api.types.is_float_dtype(out[c]):
            out[c] = out[c].round(DECIMALS)
    with atomic_file(path) as tmp:
        write_tsv(tmp, out)


def summary(stats: dict, out: str | Path) -> str:
    """The line(s) ``sick aggregate-labels`` prints."""
    c = stats["counts"]
    alpha = "undefined" if stats["alpha"] is None else f"{stats['alpha']:.4f}"
    text = f"{c['items']} items, {c['judgments']} judgments, {c['workers']} workers"
    if "ties" in c:
        text += f"; {c['ties']} ties, {c['no_majority']} items without a label ('-')"
        if stats.get("dawid_skene"):
            text += f"; Dawid-Skene differs from majority on {stats['dawid_skene']['differs_from_majority']} items"
    else:
        mean_sd = "undefined" if stats["mean_sd"] is None else f"{stats['mean_sd']:.4f}"
        text += f"; mean SD {mean_sd} (ddof {stats['options']['sd_ddof']})"
    text += f"\nKrippendorff's alpha ({stats['alpha_level']}) = {alpha}"
    if stats.get("alpha_note"):
        text += f" ({stats['alpha_note']})"
    return text + f"\nwrote {out}"
