"""Raw crowd judgments: the long table every annotation tool's export is read into.

One row per judgment (Marelli et al. 2014, section 3.4: each pair judged by 10 workers, 5 per presentation
order, on relatedness 1-5 and on "if A is true, B is true / cannot be said / is false"):

``pair_ID`` (str), ``worker_id`` (str), ``order`` (``AB`` | ``BA``: which sentence was shown first),
``relatedness`` (int 1-5), ``answer`` (``TRUE`` | ``UNKNOWN`` | ``FALSE``, about the second sentence given the
first), ``is_control`` (bool: a control item with a known answer).

Readers (:func:`read_judgments`) for three sources, all into that table:

- ``csv``: our own CSV, exactly the columns of :data:`JUDGMENT_COLUMNS` (:func:`write_judgments` writes it);
- ``mturk``: an Amazon Mechanical Turk batch results CSV for the HITs of ``sick tasks export --platform mturk``
  (``Input.*`` columns from the batch input, ``Answer.*`` from the question template, ``WorkerId``,
  ``AssignmentStatus``);
- ``labelstudio``: a Label Studio JSON export (a list of tasks, each with ``data`` and ``annotations``) of a project
  set up with ``annotations/templates/labelstudio_config.xml``.

A bad row is an error naming the file, the row (line number of a CSV, 0-based task index of a JSON list) and the
field; with ``skip_bad_rows`` it is kept out of the table and listed in the ``rejected`` table instead, with the
rows a platform itself marks as not to be used (rejected MTurk assignments, cancelled Label Studio annotations),
so that every row of the input ends up in exactly one of the two tables.
"""

from __future__ import annotations

__all__ = ["ANSWER_LABELS", "CONTROL_REPEAT_SEP", "FORMATS", "JUDGMENT_COLUMNS", "LABELSTUDIO_CHOICES",
           "LABELSTUDIO_RATING", "MTURK_FIELDS", "MTURK_STATUS", "REJECTED_COLUMNS", "RowError", "control_base_id",
           "plain_layout", "read_json_list", "read_judgments", "read_records", "read_text", "write_judgments"]

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from pipeline.common.errors import InputError
from pipeline.common.files import atomic_file, unguard_cell
from pipeline.common.vocabulary import ANSWERS, ORDERS, RELATEDNESS_RANGE

JUDGMENT_COLUMNS = ["pair_ID", "worker_id", "order", "relatedness", "answer", "is_control"]

FORMATS = ("csv", "mturk", "labelstudio")
REJECTED_COLUMNS = ["file", "row", "field", "reason", *JUDGMENT_COLUMNS, "raw"]
"""Columns of the ``rejected`` table: where (file, row, source field), why, the row's values as read (strings,
under our column names) and ``raw``, the whole source record as JSON."""

CONTROL_REPEAT_SEP = "#"
"""A control item used more than once in one export gets the ids ``CTRL-001``, ``CTRL-001#2``, ``CTRL-001#3``…
(see :func:`control_base_id`)."""

MTURK_FIELDS = {"pair_ID": "Input.pair_ID", "order": "Input.order", "relatedness": "Answer.relatedness",
                "answer": "Answer.answer", "worker_id": "WorkerId", "is_control": "Input.is_control"}
"""Our column -> MTurk batch results column (``Input.*`` from the batch CSV, ``Answer.*`` from the input names of
``annotations/templates/mturk_question.html``). ``Input.is_control`` is optional."""
MTURK_STATUS = "AssignmentStatus"
LABELSTUDIO_RATING = "relatedness"
LABELSTUDIO_CHOICES = "answer"
ANSWER_LABELS = {"yes": "TRUE", "can't say": "UNKNOWN", "cannot say": "UNKNOWN", "no": "FALSE"}
"""The templates' display labels, read as the answers they stand for (a Label Studio project whose ``Choice``
lost its ``alias`` exports the label)."""

_TRUE = {"true", "1", "yes", "t", "y"}
_FALSE = {"false", "0", "no", "f", "n"}


class RowError(InputError):
    """A bad row of a judgment file: names the file, the row and the field.

    Attributes (besides :class:`InputError`'s): ``row`` (line number of a CSV, header = line 1; 0-based task
    index of a JSON list) and ``row_kind`` (``"line"`` or ``"task index"``). ``line`` is set for CSV rows only.
    """

    def __init__(self, path, problem: str, row: int, field: str | None = None, row_kind: str = "line"):
        super().__init__(path, problem, line=row if row_kind == "line" else None, field=field)
        self.row = row
        self.row_kind = row_kind
        if row_kind != "line":
            where = f"{self.path}, {row_kind} {row}" + (f", field {field!r}" if field is not None else "")
            self.args = (f"{where}: {problem}",)


def control_base_id(pair_id: str) -> str:
    """The control item id behind a pair_ID: ``"CTRL-001#2"`` -> ``"CTRL-001"``; other ids are returned as given."""
    return pair_id.split(CONTROL_REPEAT_SEP, 1)[0]


@dataclass
class _Table:
    """Rows of one source, as strings under our column names, before validation."""

    path: str
    row_kind: str
    fields: dict[str, str]
    rows: list[int] | np.ndarray = field(default_factory=list)
    values: dict[str, list | pd.Series] = field(default_factory=dict)  # is_control: None = not given
    raw: Callable[[int], dict] | None = None
    problems: list[dict] = field(default_factory=list)  # rows kept out while parsing; "bad" marks errors

    def problem(self, row: int, fld: str | None, reason: str, values: dict, raw, bad: bool = True) -> None:
        self.problems.append({"file": self.path, "row": row, "field": fld or "", "reason": reason,
                              **{c: _text(values.get(c, "")) for c in JUDGMENT_COLUMNS},
                              "raw": _json(raw), "_bad": bad})


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


# --------------------------------------------------------------------------------------------------- reading


def read_judgments(path: str | Path, fmt: str = "auto", pair_ids: set[str] | None = None,
                   control_ids: set[str] | None = None,
                   skip_bad_rows: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Read raw crowd judgments into one long table (Marelli et al. 2014, section 3.4 and Figure 1).

    Args:
        path: the file.
        fmt: ``"csv"`` (our CSV: exactly the columns ``pair_ID, worker_id, order, relatedness, answer,
            is_control``; tab-separated when the name ends in ``.tsv``), ``"mturk"`` (MTurk batch results CSV:
            ``Input.pair_ID``, ``Input.order``, ``Answer.relatedness``, ``Answer.answer``, ``WorkerId``, optional
            ``AssignmentStatus`` and ``Input.is_control``), ``"labelstudio"`` (Label Studio JSON export: a list of
            tasks with ``data.pair_ID``, ``data.order``, optional ``data.is_control``, and ``annotations[]`` whose
            ``result[]`` holds the ``relatedness`` rating and the ``answer`` choice, ``completed_by`` the worker;
            or Label Studio's flat exports: JSON_MIN, a list of one object per annotation with the task data at the
            top level, ``relatedness: [{"rating": N}]``, ``answer: "TRUE"``, ``annotator``; CSV and TSV, the same
            fields as columns, ``relatedness`` holding that JSON as text), or ``"auto"``: JSON by the ``.json``
            name, else by the header (Label Studio's CSV/TSV have ``annotator``); a first line with more tabs than
            commas is read as TSV whatever the name (Label Studio names its TSV download ``.csv``).
        pair_ids: the corpus pair_IDs; when given, a pair_ID neither here nor among the controls is a bad row.
        control_ids: the control item ids (``annotations/controls.yaml``); ``CTRL-001#2`` counts as ``CTRL-001``.
            When given, ``is_control`` must agree with membership (it is derived from it when the source has no
            such field); when None, ``is_control`` is read from the source or False.
        skip_bad_rows: keep bad rows out and list them in ``rejected`` instead of raising.

    Returns:
        ``(judgments, rejected)``. ``judgments`` has exactly :data:`JUDGMENT_COLUMNS` in file order: ``pair_ID``,
        ``worker_id`` (str, stripped), ``order`` (``AB``/``BA``), ``relatedness`` (int64, 1-5), ``answer``
        (``TRUE``/``UNKNOWN``/``FALSE``; case and surrounding blanks ignored, the templates' labels ``yes`` /
        ``can't say`` / ``no`` accepted), ``is_control`` (bool). ``rejected`` has :data:`REJECTED_COLUMNS`: rows
        the platform marks as void (MTurk ``AssignmentStatus`` Rejected: reason ``"assignment rejected"``; Label
        Studio ``was_cancelled``: ``"annotation cancelled"``), always, and with ``skip_bad_rows`` the bad rows.

    Bad rows: empty or unknown pair_ID, empty worker id, order not AB/BA, relatedness not an integer or outside
    1-5, an answer other than the three, an ``is_control`` that is not a boolean or disagrees with
    ``control_ids``, a CSV line with the wrong number of fields, a task or annotation that is not an object, and a
    second judgment of the same worker on the same pair in the same order (the first one is kept).

    Raises:
        InputError: missing file, bad UTF-8 or JSON, missing or (csv) unexpected columns, unknown format.
        RowError: (an InputError) the first bad row, naming file, row and field, unless ``skip_bad_rows``.
    """
    path = Path(path)
    if fmt not in ("auto", *FORMATS):
        raise ValueError(f"unknown judgment format {fmt!r} (use auto, {', '.join(FORMATS)})")
    if not path.exists():
        raise InputError(path, "file not found")
    if not path.is_file():
        raise InputError(path, "not a file")
    if fmt == "labelstudio" and path.suffix.lower() != ".json" and not read_text(path).lstrip().startswith("["):
        fmt = "auto"  # Label Studio's CSV / TSV export: told by its header below
    if fmt == "labelstudio" or (fmt == "auto" and path.suffix.lower() == ".json"):
        table = _labelstudio(path)
    else:
        data = path.read_bytes()
        fast = _fast_csv(path, data, only_ours=fmt == "auto") if fmt in ("auto", "csv") else None
        if fast is not None:
            table = _ours_fast(path, *fast)
        else:
            header, records = read_records(path, data=data)
            if fmt == "auto":
                fmt = _guess_format(path, header)
            if fmt == "labelstudio-flat":
                table = _labelstudio_flat(path, "line", [(line, dict(zip(header, rec))) if len(rec) == len(header)
                                                         else (line, rec) for line, rec in records])
            else:
                table = _mturk(path, header, records) if fmt == "mturk" else _ours(path, header, records)
    if not len(table.rows) and not table.problems:
        # a header alone, or a Label Studio export of [], is no round: say so instead of writing an empty gold
        raise InputError(path, "no judgments in this file (a header only, or an empty export)")
    return _validate(table, pair_ids, control_ids, skip_bad_rows)


def read_text(path: str | Path, data: bytes | None = None) -> str:
    """The file's text (UTF-8, a BOM ignored); ``data``: its bytes, if already read.

    Raises:
        InputError: a missing file or not a file (when ``data`` is None), or bad UTF-8 (naming the line and byte).
    """
    path = Path(path)
    if data is None:
        if not path.is_file():
            raise InputError(path, "file not found" if not path.exists() else "not a file")
        data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(path, f"not valid UTF-8 (byte {data[exc.start]:#x})", line=line) from None


def _delimiter(path: Path, data: bytes | None = None) -> str:
    """Tab for a ``.tsv`` name or a first line with more tabs than commas (Label Studio names its TSV download
    ``.csv``), else comma."""
    if path.suffix.lower() == ".tsv":
        return "\t"
    first = (data or b"").split(b"\n", 1)[0]
    return "\t" if first.count(b"\t") > first.count(b",") else ","


def read_records(path: str | Path, delimiter: str | None = None,
                 data: bytes | None = None) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """Header (names stripped) and ``(line number, fields)`` records of a CSV (TSV when ``delimiter`` is a tab, or
    by default when the name ends in ``.tsv``): the line number is where the record starts (header = line 1),
    empty lines are skipped, quoted fields may hold newlines, a UTF-8 BOM is ignored. ``data``: the file's bytes,
    if already read. Quoting is strict: a quote left open at the end of the file, or a closing quote followed by
    anything but the delimiter, is an error rather than text running on.

    Raises:
        InputError: a missing file, bad UTF-8 or malformed quoting (naming the line where the record starts), or
            an empty file.
    """
    path = Path(path)
    if delimiter is None and data is None and path.is_file():
        data = path.read_bytes()
    delimiter = delimiter or _delimiter(path, data)
    reader = csv.reader(io.StringIO(read_text(path, data), newline=""), delimiter=delimiter, strict=True)
    records: list[tuple[int, list[str]]] = []
    append = records.append
    prev = 0
    try:
        for rec in reader:
            if rec and (len(rec) > 1 or rec[0].strip()):
                append((prev + 1, rec))
            prev = reader.line_num
    except csv.Error as exc:
        kind = "TSV" if delimiter == "\t" else "CSV"
        raise InputError(path, f"malformed {kind}: {exc}", line=prev + 1) from None
    if not records:
        raise InputError(path, "empty file: no header")
    (_, header), body = records[0], records[1:]
    return [h.strip() for h in header], body


def plain_layout(data: bytes, delimiter: str) -> tuple[list[str], int, np.ndarray] | None:
    """The shape of a plain delimited file, found with numpy over the bytes: ``(header names stripped, fields per
    line, 1-based numbers of the non-empty lines after the header)`` when the file has no quote and no CR (so
    every line is one record and a parser's quoting rules cannot matter) and every non-empty line has the same
    number of fields; None otherwise (then :func:`read_records` reads it and reports what is wrong). ``data``
    is valid UTF-8 without a BOM; a file of fewer than two non-empty lines is None too.
    """
    if b'"' in data or b"\r" in data:
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    nl = np.flatnonzero(buf == 10)
    ends = nl if data.endswith(b"\n") else np.append(nl, len(buf))
    starts = np.concatenate(([0], nl + 1))[: len(ends)]
    delims = np.flatnonzero(buf == ord(delimiter))
    fields = np.searchsorted(delims, ends) - np.searchsorted(delims, starts) + 1
    lines = np.flatnonzero(ends > starts)  # 0-based, non-empty
    if len(lines) < 2 or (fields[lines] != fields[lines[0]]).any():
        return None
    header = [h.strip() for h in data[starts[lines[0]]:ends[lines[0]]].decode("utf-8").split(delimiter)]
    return header, int(fields[lines[0]]), lines[1:] + 1


def _fast_csv(path: Path, data: bytes, only_ours: bool = False) -> tuple[list[str], pd.DataFrame, np.ndarray] | None:
    """The quick way for a plain file (:func:`plain_layout`): ``(header, frame of str columns by position, line
    number of each row)``; None otherwise, and with ``only_ours`` also when the header is not our judgment CSV's
    (so an MTurk file is parsed once, the slow way).
    """
    if b'"' in data or b"\r" in data:
        return None
    read_text(path, data)  # UTF-8 check, naming the line
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    delim = _delimiter(path, data)
    layout = plain_layout(data, delim)
    if layout is None:
        return None
    header, n, lines = layout
    if only_ours and _guess_format(path, header) != "csv":
        return None
    frame = pd.read_csv(io.BytesIO(data), sep=delim, header=None, names=list(range(n)), dtype=str,
                        keep_default_na=False, na_filter=False, skip_blank_lines=True, engine="c",
                        encoding="utf-8")
    if len(frame) != len(lines) + 1:
        return None
    return header, frame.iloc[1:].reset_index(drop=True), lines


def _guess_format(path: Path, header: list[str]) -> str:
    if {"annotator", "pair_ID", LABELSTUDIO_RATING, LABELSTUDIO_CHOICES} <= set(header):
        return "labelstudio-flat"  # Label Studio's CSV / TSV export
    if "WorkerId" in header or any(h.startswith(("Input.", "Answer.")) for h in header):
        return "mturk"
    if set(JUDGMENT_COLUMNS) <= set(header):
        return "csv"
    raise InputError(path, "cannot tell the format from the header (neither our judgment CSV columns "
                           f"{', '.join(JUDGMENT_COLUMNS)} nor MTurk's WorkerId/Input.*/Answer.*); give the format",
                     line=1)


def _columns(path: Path, header: list[str], wanted: dict[str, str], optional=()) -> dict[str, int]:
    index = {}
    for col, name in wanted.items():
        if name in header:
            index[col] = header.index(name)
        elif col not in optional:
            raise InputError(path, f"missing column {name!r} (header: {', '.join(header)})", line=1, field=name)
    return index


def _fill(table: _Table, header: list[str], records, index: dict[str, int], keep=None) -> None:
    """Copy the columns of well-formed records; a record with the wrong number of fields is a problem."""
    n = len(header)
    good = []
    for line, rec in records:
        if len(rec) != n:
            values = {c: rec[i] for c, i in index.items() if i < len(rec)}
            table.problem(line, None, f"expected {n} fields, found {len(rec)}", values, rec)
        elif keep is None or keep(line, rec):
            good.append((line, rec))
    table.rows = [line for line, _ in good]
    columns = list(zip(*(rec for _, rec in good))) if good else [()] * n
    for col in JUDGMENT_COLUMNS:
        if col in index:
            table.values[col] = list(columns[index[col]])
    table.raw = lambda i: dict(zip(header, good[i][1]))


def _check_ours_header(path: Path, header: list[str]) -> dict[str, int]:
    extra = [h for h in header if h not in JUDGMENT_COLUMNS]
    if extra:
        raise InputError(path, f"unexpected column {extra[0]!r}: a judgment CSV has exactly the columns "
                               f"{', '.join(JUDGMENT_COLUMNS)}", line=1, field=extra[0])
    if len(set(header)) != len(header):
        dup = next(h for h in header if header.count(h) > 1)
        raise InputError(path, f"column {dup!r} appears twice", line=1, field=dup)
    return _columns(path, header, {c: c for c in JUDGMENT_COLUMNS})


def _ours(path: Path, header: list[str], records) -> _Table:
    index = _check_ours_header(path, header)
    table = _Table(str(path), "line", {c: c for c in JUDGMENT_COLUMNS})
    _fill(table, header, records, index)
    return table


def _ours_fast(path: Path, header: list[str], frame: pd.DataFrame, lines: np.ndarray) -> _Table:
    index = _check_ours_header(path, header)
    table = _Table(str(path), "line", {c: c for c in JUDGMENT_COLUMNS}, rows=lines)
    table.values = {c: frame[i] for c, i in index.items()}
    table.raw = lambda i: dict(zip(header, frame.iloc[i].tolist()))
    return table


def _unpivot_hits(header: list[str], records) -> tuple[list[str], list]:
    """MTurk results of HITs holding several task rows (``sick tasks export --pairs-per-hit N``: ``Input.pair_ID_1``
    … ``Answer.answer_N``) as one record per task row with the one-item names (``Input.pair_ID``,
    ``Answer.relatedness``…), each keeping its line number and the HIT's other columns; slots whose
    ``Input.pair_ID_k`` is empty are skipped. Other files are returned as they are."""
    import re

    slots = sorted({int(m.group(1)) for h in header if (m := re.fullmatch(r"Input\.pair_ID_(\d+)", h))})
    if not slots:
        return header, records
    per_item = [f for f in MTURK_FIELDS.values() if f != "WorkerId" and any(f"{f}_{k}" in header for k in slots)]
    item_cols = {f"{f}_{k}" for k in slots for f in per_item}
    shared = [h for h in header if h not in item_cols]
    out_header = shared + per_item
    pos = {h: i for i, h in enumerate(header)}
    out = []
    for line, rec in records:
        if len(rec) != len(header):
            out.append((line, rec))  # reported as a record with the wrong number of fields
            continue
        base = [rec[pos[h]] for h in shared]
        for k in slots:
            if not rec[pos[f"Input.pair_ID_{k}"]].strip():
                continue
            out.append((line, base + [rec[pos[f"{f}_{k}"]] if f"{f}_{k}" in pos else "" for f in per_item]))
    return out_header, out


def _mturk(path: Path, header: list[str], records) -> _Table:
    header, records = _unpivot_hits(header, records)
    index = _columns(path, header, MTURK_FIELDS, optional=("is_control",))
    table = _Table(str(path), "line", dict(MTURK_FIELDS))
    status = header.index(MTURK_STATUS) if MTURK_STATUS in header else None

    def keep(line: int, rec: list[str]) -> bool:
        if status is not None and rec[status].strip().lower() == "rejected":
            table.problem(line, MTURK_STATUS, "assignment rejected", {c: rec[i] for c, i in index.items()},
                          dict(zip(header, rec)), bad=False)
            return False
        return True

    _fill(table, header, records, index, keep)
    return table


def _worker(completed_by) -> str:
    if isinstance(completed_by, dict):
        for key in ("email", "username", "id"):
            if completed_by.get(key) not in (None, ""):
                return _text(completed_by[key])
        return ""
    return _text(completed_by)


def read_json_list(path: str | Path, what: str) -> list:
    """The JSON list in ``path`` (a Label Studio JSON or JSON-MIN export, for judgments and for reviews).

    Raises:
        InputError: missing file, bad UTF-8, invalid JSON (naming its line), or JSON that is not a list
            (``what`` says what was expected).
    """
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise InputError(path, f"not valid JSON: {exc.msg}", line=exc.lineno) from None
    if not isinstance(data, list):
        raise InputError(path, f"expected a JSON list ({what})")
    return data


def _labelstudio(path: Path) -> _Table:
    tasks = read_json_list(path, "Label Studio's JSON export: a list of tasks")
    if tasks and all(isinstance(t, dict) and "data" not in t and "annotator" in t for t in tasks):
        return _labelstudio_flat(path, "task index", list(enumerate(tasks)))  # JSON_MIN
    fields = {"pair_ID": "data.pair_ID", "order": "data.order", "is_control": "data.is_control",
              "relatedness": LABELSTUDIO_RATING, "answer": LABELSTUDIO_CHOICES, "worker_id": "completed_by"}
    table = _Table(str(path), "task index", fields)
    cols: dict[str, list[str]] = {c: [] for c in JUDGMENT_COLUMNS}
    raws: list[dict] = []
    for ti, task in enumerate(tasks):
        if not isinstance(task, dict) or not isinstance(task.get("data"), dict):
            table.problem(ti, "data", "task is not an object with a 'data' object", {}, task)
            continue
        data = task["data"]
        anns = task.get("annotations", task.get("completions")) or []
        if not isinstance(anns, list):
            table.problem(ti, "annotations", "'annotations' is not a list", {}, task)
            continue
        for ai, ann in enumerate(anns):
            raw = {"task_index": ti, "task_id": task.get("id"), "annotation_index": ai, "data": data,
                   "annotation": ann}
            if not isinstance(ann, dict):
                table.problem(ti, "annotations", f"annotation {ai} is not an object", {}, raw)
                continue
            values = {"pair_ID": _text(data.get("pair_ID")), "order": _text(data.get("order")),
                      "worker_id": _worker(ann.get("completed_by")),
                      "is_control": None if data.get("is_control") is None else _text(data["is_control"])}
            values["relatedness"], values["answer"] = _labelstudio_result(ann.get("result"))
            if ann.get("was_cancelled"):
                table.problem(ti, "was_cancelled", "annotation cancelled", values, raw, bad=False)
                continue
            for c in JUDGMENT_COLUMNS:
                cols[c].append(values[c])
            table.rows.append(ti)
            raws.append(raw)
    table.values = cols
    table.raw = lambda i, _raws=raws: _raws[i]
    return table


LABELSTUDIO_FLAT = ("pair_ID", "order", "annotator", LABELSTUDIO_RATING, LABELSTUDIO_CHOICES)
"""Fields of Label Studio's flat exports (JSON_MIN, CSV, TSV): the task data at the top level, one record per
annotation (cancelled ones left out by the server), ``annotator`` the user id (or e-mail)."""


def _json_cell(value):
    """A CSV/TSV export's cell holding JSON text (``[{"rating": 4}]``, ``{"choices": [...]}``) as the parsed value;
    any other value, or text that is not JSON, as it is."""
    if isinstance(value, str) and value.strip().startswith(("[", "{")):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


def _flat_rating(value) -> str:
    """``relatedness`` of a flat export: ``[{"rating": 4}]`` (JSON_MIN), its JSON text (CSV/TSV), or a number."""
    value = _json_cell(value)
    if isinstance(value, list):
        value = value[0] if len(value) == 1 else None
    if isinstance(value, dict):
        value = value.get("rating")
    return _text(value)


def _flat_choice(value) -> str:
    """``answer`` of a flat export: ``"TRUE"``, or ``{"choices": [...]}`` / a JSON list when several."""
    value = _json_cell(value)
    if isinstance(value, dict):
        value = value.get("choices")
    if isinstance(value, list):
        return "|".join(_text(c) for c in value)
    return _text(value)


def _labelstudio_flat(path: Path, unit: str, records: list[tuple[int, dict]]) -> _Table:
    """Label Studio's flat exports (JSON_MIN, CSV, TSV): one record per annotation, ``records`` as
    ``(row number, {field: value})``."""
    fields = {"pair_ID": "pair_ID", "order": "order", "is_control": "is_control", "relatedness": LABELSTUDIO_RATING,
              "answer": LABELSTUDIO_CHOICES, "worker_id": "annotator"}
    table = _Table(str(path), unit, fields)
    cols: dict[str, list] = {c: [] for c in JUDGMENT_COLUMNS}
    raws: list[dict] = []
    for row, rec in records:
        if not isinstance(rec, dict):
            table.problem(row, None, "record is not an object", {}, rec)
            continue
        flag = rec.get("is_control")
        values = {"pair_ID": _text(rec.get("pair_ID")), "order": _text(rec.get("order")),
                  "worker_id": _worker(rec.get("annotator")),
                  "is_control": None if flag in (None, "") else _text(flag),
                  "relatedness": _flat_rating(rec.get(LABELSTUDIO_RATING)),
                  "answer": _flat_choice(rec.get(LABELSTUDIO_CHOICES))}
        for c in JUDGMENT_COLUMNS:
            cols[c].append(values[c])
        table.rows.append(row)
        raws.append(rec)
    table.values = cols
    table.raw = lambda i, _raws=raws: _raws[i]
    return table


def _labelstudio_result(result) -> tuple[str, str]:
    """(relatedness, answer) strings from an annotation's ``result`` list, matched by ``from_name`` first and
    by ``type`` (rating / choices) when no entry has our names."""
    rating = choices = None
    by_type: dict[str, object] = {}
    for r in result if isinstance(result, list) else []:
        if not isinstance(r, dict) or not isinstance(r.get("value"), dict):
            continue
        value, name, kind = r["value"], r.get("from_name"), r.get("type")
        if name == LABELSTUDIO_RATING:
            rating = value.get("rating")
        elif name == LABELSTUDIO_CHOICES:
            choices = value.get("choices")
        elif kind in ("rating", "choices"):
            by_type.setdefault(kind, value.get("rating" if kind == "rating" else "choices"))
    rating = by_type.get("rating") if rating is None else rating
    choices = by_type.get("choices") if choices is None else choices
    if isinstance(choices, list):
        choices = "|".join(_text(c) for c in choices)
    return _text(rating), _text(choices)


# ------------------------------------------------------------------------------------------------ validation


def _validate(t: _Table, pair_ids, control_ids, skip_bad_rows: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
    n = len(t.rows)
    raw = {c: _series(v, c) for c, v in t.values.items()}
    # values exported through html_cell / spreadsheet_cell come back guarded (MTurk's Input.*, a saved tasks.csv)
    pid = raw["pair_ID"].str.strip().map(unguard_cell)
    wid = raw["worker_id"].str.strip()
    order = raw["order"].str.strip().map(unguard_cell).str.upper()
    answer_text = raw["answer"].str.strip()
    answer = answer_text.str.upper()
    other = ~answer.isin(ANSWERS)
    if other.any():  # the templates' display labels
        labels = answer_text[other].str.lower().map(ANSWER_LABELS)
        answer = answer.astype(object)
        answer[labels.dropna().index] = labels.dropna()
    codes, uniques = pd.factorize(raw["relatedness"])  # few distinct texts: parse each once
    numbers = pd.to_numeric(pd.Series(uniques, dtype="str").str.strip(), errors="coerce").to_numpy(dtype=float)
    rel = np.append(numbers, np.nan)[codes]
    with np.errstate(invalid="ignore"):
        not_int = ~np.isfinite(rel) | (np.mod(rel, 1) != 0)
    lo, hi = RELATEDNESS_RANGE

    expected_ctrl = None
    if control_ids is not None:
        controls = set(control_ids)
        expected_ctrl = _isin(pid, controls)
        repeat = pid.str.contains(CONTROL_REPEAT_SEP, regex=False).to_numpy(dtype=bool)
        if repeat.any():
            expected_ctrl[repeat] |= _isin(pid[repeat].str.split(CONTROL_REPEAT_SEP, n=1).str[0], controls)
    fallback = expected_ctrl if expected_ctrl is not None else np.zeros(n, dtype=bool)
    given = np.zeros(n, dtype=bool)
    is_true = is_false = fallback
    if "is_control" in raw:  # a source field; None where a row lacks it (a Label Studio task)
        flags = raw["is_control"]
        given = flags.notna().to_numpy(dtype=bool)
        flag = flags.fillna("").astype(str).str.strip().str.lower()
        is_true, is_false = flag.isin(_TRUE).to_numpy(), flag.isin(_FALSE).to_numpy()
    is_ctrl = np.where(given, is_true, fallback)

    # (mask, our column, reason code) in the order a row's first problem is reported
    checks = [(pid.eq("").to_numpy(), "pair_ID", "empty_pair")]
    if pair_ids is not None:
        known = _isin(pid, set(pair_ids))
        if expected_ctrl is not None:
            known = known | expected_ctrl
        checks.append((~known, "pair_ID", "unknown_pair"))
    checks += [
        (wid.eq("").to_numpy(), "worker_id", "empty_worker"),
        (~order.isin(ORDERS).to_numpy(), "order", "bad_order"),
        (not_int, "relatedness", "rating_not_int"),
        ((rel < lo) | (rel > hi), "relatedness", "rating_range"),
        (~answer.isin(ANSWERS).to_numpy(), "answer", "bad_answer"),
    ]
    checks.append((given & ~(is_true | is_false), "is_control", "bad_flag"))
    if expected_ctrl is not None:
        checks.append((given & (is_true != expected_ctrl), "is_control", "flag_mismatch"))
    code = np.full(n, "", dtype=object)
    col = np.full(n, "", dtype=object)
    for mask, column, reason in checks:
        hit = mask & (code == "")
        code[hit], col[hit] = reason, column

    rows = np.asarray(t.rows, dtype=np.int64)
    ok = code == ""
    keys = pd.DataFrame({"w": wid, "p": pid, "o": order})
    dup = np.zeros(n, dtype=bool)
    first_row = np.zeros(n, dtype=np.int64)
    if ok.any():
        sub = keys[ok]
        d = sub.duplicated(keep="first").to_numpy()
        if d.any():
            at = np.flatnonzero(ok)[d]
            dup[at] = True
            firsts = sub[~d].assign(row=rows[ok][~d])
            first_row[at] = sub[d].merge(firsts, on=["w", "p", "o"], how="left")["row"].to_numpy()
    code[dup], col[dup] = "duplicate", "worker_id"

    problems = list(t.problems)
    for i in np.flatnonzero(code != ""):
        i = int(i)
        values = {c: raw[c].iat[i] for c in raw}
        reason = _reason(code[i], values, pid.iat[i], wid.iat[i], order.iat[i], rel[i],
                         bool(expected_ctrl[i]) if expected_ctrl is not None else None,
                         int(first_row[i]), t.row_kind)
        problems.append({"file": t.path, "row": int(rows[i]), "field": t.fields[col[i]], "reason": reason,
                         **{c: _text(values.get(c, "")) for c in JUDGMENT_COLUMNS},
                         "raw": _json(t.raw(i)), "_bad": True})
    bad = [p for p in problems if p["_bad"]]
    if bad and not skip_bad_rows:
        first = min(bad, key=lambda p: p["row"])
        raise RowError(t.path, first["reason"], first["row"], first["field"] or None, t.row_kind)

    keep = code == ""
    everything = bool(keep.all())

    def kept(series: pd.Series) -> pd.Series:
        series = series if everything else series[keep]
        return series.astype("str").reset_index(drop=True)

    judgments = pd.DataFrame({
        "pair_ID": kept(pid), "worker_id": kept(wid), "order": kept(order),
        "relatedness": pd.Series(rel[keep].astype(np.int64)), "answer": kept(answer),
        "is_control": pd.Series(np.asarray(is_ctrl, dtype=bool)[keep]),
    }, columns=JUDGMENT_COLUMNS)
    problems.sort(key=lambda p: p["row"])
    rejected = pd.DataFrame([{k: v for k, v in p.items() if k != "_bad"} for p in problems],
                            columns=REJECTED_COLUMNS)
    rejected["row"] = rejected["row"].astype(np.int64)
    return judgments, rejected


def _isin(series: pd.Series, values: set) -> np.ndarray:
    """``series.isin(values)`` as a writable bool array, through the distinct values (fast on long columns)."""
    codes, uniques = pd.factorize(series)
    hit = np.fromiter((u in values for u in uniques), dtype=bool, count=len(uniques))
    return np.append(hit, False)[codes]


def _series(values, column: str) -> pd.Series:
    if isinstance(values, pd.Series):
        return values.reset_index(drop=True)
    if column == "is_control":
        return pd.Series(values, dtype=object)
    return pd.Series(values, dtype="str")


def _reason(code: str, values: dict, pid: str, wid: str, order: str, rel: float, expected, first, row_kind) -> str:
    lo, hi = RELATEDNESS_RANGE
    if code == "empty_pair":
        return "empty pair_ID"
    if code == "unknown_pair":
        return f"unknown pair_ID {pid!r}: neither a corpus pair nor a control item"
    if code == "empty_worker":
        return "empty worker id"
    if code == "bad_order":
        return f"order {values['order']!r} is not AB or BA"
    if code == "rating_not_int":
        return f"relatedness {values['relatedness']!r} is not an integer"
    if code == "rating_range":
        return f"relatedness {int(rel)} is out of range {lo}-{hi}"
    if code == "bad_answer":
        return f"answer {values['answer']!r} is not one of {', '.join(ANSWERS)}"
    if code == "bad_flag":
        return f"is_control {values['is_control']!r} is not true or false"
    if code == "flag_mismatch":
        return (f"is_control is {values['is_control']!r} but {pid!r} is "
                f"{'a' if expected else 'not a'} control item")
    if code == "duplicate":
        return f"duplicate: worker {wid!r} already judged pair {pid!r} in order {order} ({row_kind} {first})"
    raise AssertionError(code)


# --------------------------------------------------------------------------------------------------- writing


def write_judgments(df: pd.DataFrame, path: str | Path) -> None:
    """Write judgments as our CSV (exactly :data:`JUDGMENT_COLUMNS`, UTF-8, LF, ``is_control`` as true/false),
    atomically: the file appears complete or not at all. :func:`read_judgments` reads it back unchanged.

    Raises:
        ValueError: a missing column, or a value out of the schema (order, relatedness 1-5, answer, pair_ID or
            worker_id empty, is_control not boolean) - such a table is never written.
    """
    missing = [c for c in JUDGMENT_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"judgments lack column(s) {', '.join(missing)}")
    out = df[JUDGMENT_COLUMNS].copy()
    lo, hi = RELATEDNESS_RANGE
    rel = pd.to_numeric(out["relatedness"], errors="coerce")
    flags = out["is_control"]
    if flags.dtype != bool:
        flags = flags.map(lambda v: v if isinstance(v, (bool, np.bool_)) else None)
    checks = {
        "pair_ID": out["pair_ID"].astype(str).str.strip().eq(""),
        "worker_id": out["worker_id"].astype(str).str.strip().eq(""),
        "order": ~out["order"].isin(ORDERS),
        "relatedness": rel.isna() | (rel % 1 != 0) | (rel < lo) | (rel > hi),
        "answer": ~out["answer"].isin(ANSWERS),
        "is_control": flags.isna(),
    }
    for column, mask in checks.items():
        if mask.any():
            i = int(np.flatnonzero(mask.to_numpy())[0])
            raise ValueError(f"judgments row {i}: bad {column} {out[column].iloc[i]!r}")
    out["relatedness"] = rel.astype(np.int64)
    out["is_control"] = np.where(flags.astype(bool), "true", "false")
    with atomic_file(path) as tmp:
        out.to_csv(tmp, index=False, lineterminator="\n", encoding="utf-8")
