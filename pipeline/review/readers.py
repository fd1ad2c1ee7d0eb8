"""Reading and checking review decisions (``sick review apply``): our ``review.csv``, Label Studio's JSON, JSON-MIN
and CSV exports, and MTurk batch results, into :class:`Vote` rows; then the checks and the vote count.

The generic file reading (UTF-8, CSV records with line numbers) is the judgment readers'
(:func:`pipeline.crowd.judgments.read_text`, :func:`pipeline.crowd.judgments.read_records`); bad rows are
:class:`pipeline.crowd.judgments.RowError` naming file, row and field.
"""

from __future__ import annotations

__all__ = ["DECISIONS", "REASONS", "REJECTED_COLUMNS", "REVIEW_FORMATS", "Vote", "check_votes", "read_reviews",
           "verdicts"]

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from pipeline.common.errors import InputError
from pipeline.common.files import unguard_cell
from pipeline.crowd.judgments import RowError, read_json_list, read_records

REVIEW_FORMATS = ("csv", "labelstudio", "mturk")
DECISIONS = ("accept", "edit", "reject")
REASONS = ("ungrammatical", "wrong relation", "implausible", "other")
"""Reasons offered for an edit or a reject (free text is accepted too in the CSV)."""
REJECTED_COLUMNS = ["file", "row", "field", "reason", "sentence_id", "decision", "reviewer", "raw"]
"""Columns of ``rejected.tsv``: where (file, row, source field), why, the row's values and the raw record (JSON)."""

# our field -> MTurk batch results column (Input.* echo the batch CSV, Answer.* the template's inputs)
_MTURK = {"sentence_id": "Input.sentence_id", "sentence": "Input.sentence", "decision": "Answer.decision",
          "edited_sentence": "Answer.edited_sentence", "reason": "Answer.reason", "reviewer": "WorkerId"}


@dataclass
class Vote:
    """One reviewer's decision on one sentence, as read (strings stripped; ``sentence`` None when the source does
    not echo the text). ``row``: line of a CSV (header = 1) or 0-based task index of a JSON list."""

    file: str
    row: int
    row_kind: str
    sentence_id: str
    sentence: str | None
    decision: str
    edited_sentence: str
    reason: str
    reviewer: str
    raw: object
    fields: dict


def _flat(value: object) -> str:
    """A Label Studio value as text: a choice list, ``{"choices": [...]}``/``{"text": [...]}`` (JSON-MIN, and as a
    JSON string in its CSV export) or a plain string."""
    if isinstance(value, str):
        s = value.strip()
        if s[:1] in "[{" and s[-1:] in "]}":
            try:
                return _flat(json.loads(s))
            except json.JSONDecodeError:
                return s
        return s
    if value is None:
        return ""
    if isinstance(value, dict):
        for key in ("choices", "text"):
            if key in value:
                return _flat(value[key])
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    if isinstance(value, list):
        return "|".join(_flat(v) for v in value)
    return str(value)


def _person(value: object) -> str:
    """Label Studio's ``completed_by``/``annotator`` (an id, an email or a user object) as a name."""
    if isinstance(value, dict):
        return next((_flat(value[k]) for k in ("email", "username", "id") if value.get(k) not in (None, "")), "")
    return _flat(value)


_FLAT_FIELDS = {"sentence_id": ("sentence_id",), "sentence": ("sentence",), "decision": ("decision",),
                "edited_sentence": ("edited_sentence",), "reason": ("reason",),
                "reviewer": ("reviewer", "annotator", "completed_by")}


def _vote(path: Path, row: int, kind: str, get: Callable[[str], object], fields: dict, raw: object) -> Vote:
    sentence = None if get("sentence") is None else _flat(get("sentence"))
    # an edit is one line of TSV: blanks, tabs and newlines collapse to single spaces
    edited = " ".join(_flat(get("edited_sentence")).split())
    return Vote(str(path), row, kind, _flat(get("sentence_id")), sentence, _flat(get("decision")).lower(), edited,
                _flat(get("reason")), _person(get("reviewer")), raw, fields)


def _from_flat(path: Path, kind: str, rows: Iterable[tuple[int, dict]]) -> list[Vote]:
    """Votes from flat records (our CSV, Label Studio's CSV and JSON-MIN exports): ``(row, {name: value})``."""
    votes = []
    for row, rec in rows:
        names = {f: next((n for n in cands if n in rec), cands[0]) for f, cands in _FLAT_FIELDS.items()}
        values = {f: rec.get(name) for f, name in names.items()}
        votes.append(_vote(path, row, kind, values.get, names, rec))
    return votes


def _csv_votes(path: Path, fmt: str) -> tuple[list[Vote], list[dict]]:
    header, records = read_records(path)
    if fmt == "auto":
        fmt = "mturk" if "WorkerId" in header or any(h.startswith(("Input.", "Answer.")) for h in header) else "csv"
    void: list[dict] = []
    rows: list[tuple[int, dict[str, str]]] = []
    for line, fields in records:
        if len(fields) != len(header):
            raise RowError(path, f"expected {len(header)} fields (as the header), found {len(fields)}", line)
        rows.append((line, dict(zip(header, fields))))
    if fmt == "mturk":
        for col in ("sentence_id", "decision", "reviewer"):
            if _MTURK[col] not in header:
                raise InputError(path, f"missing column {_MTURK[col]!r} (an MTurk batch results CSV of `sick review "
                                       f"export --platform mturk`)", line=1, field=_MTURK[col])
        votes = []
        for line, rec in rows:
            get = (lambda f, rec=rec: unguard_cell(rec[_MTURK[f]]) if f == "sentence" and _MTURK[f] in rec
                   else rec.get(_MTURK[f]))
            vote = _vote(path, line, "line", get, dict(_MTURK), rec)
            if rec.get("AssignmentStatus", "").strip().lower() == "rejected":
                void.append(_bad_row(vote, "AssignmentStatus", "assignment rejected"))
                continue
            votes.append(vote)
        return votes, void
    for col in ("sentence_id", "decision"):
        if col not in header:
            raise InputError(path, f"missing column {col!r} (header: {', '.join(header)})", line=1, field=col)
    return _from_flat(path, "line", rows), void


def _json_votes(path: Path) -> tuple[list[Vote], list[dict]]:
    tasks = read_json_list(path, "Label Studio's JSON or JSON-MIN export")
    flat, votes, void = [], [], []
    for ti, task in enumerate(tasks):
        if not isinstance(task, dict):
            raise RowError(path, "task is not an object", ti, row_kind="task index")
        if not isinstance(task.get("data"), dict):  # JSON-MIN: one flat object per annotation
            flat.append((ti, task))
            continue
        data = task["data"]
        anns = task.get("annotations", task.get("completions")) or []
        if not isinstance(anns, list):
            raise RowError(path, "'annotations' is not a list", ti, "annotations", row_kind="task index")
        for ai, ann in enumerate(anns):
            if not isinstance(ann, dict):
                raise RowError(path, f"annotation {ai} is not an object", ti, "annotations", row_kind="task index")
            values = {"sentence_id": data.get("sentence_id"), "sentence": data.get("sentence"),
                      "reviewer": ann.get("completed_by")}
            for r in ann.get("result") or []:
                if isinstance(r, dict) and isinstance(r.get("value"), dict) and r.get("from_name") in (
                        "decision", "edited_sentence", "reason"):
                    values[r["from_name"]] = r["value"]
            raw = {"task_index": ti, "task_id": task.get("id"), "annotation_index": ai, "data": data,
                   "annotation": ann}
            vote = _vote(path, ti, "task index", values.get,
                         {"sentence_id": "data.sentence_id", "sentence": "data.sentence", "decision": "decision",
                          "edited_sentence": "edited_sentence", "reason": "reason", "reviewer": "completed_by"}, raw)
            if ann.get("was_cancelled"):
                void.append(_bad_row(vote, "was_cancelled", "annotation cancelled"))
                continue
            votes.append(vote)
    return votes + _from_flat(path, "task index", flat), void


def read_reviews(path: str | Path, fmt: str = "auto") -> tuple[list[Vote], list[dict]]:
    """Read one review file into votes, unchecked; also the rows the platform itself voids.

    Args:
        fmt: ``csv`` (our ``review.csv``, or Label Studio's CSV export: the task's columns, the ``decision``,
            ``edited_sentence``, ``reason`` results, and ``annotator``), ``labelstudio`` (Label Studio's full JSON
            export, a list of tasks with ``data`` and ``annotations``, or its JSON-MIN export, a list of flat
            objects; a ``.csv`` is read as its CSV export), ``mturk`` (a batch results CSV: ``Input.sentence_id``,
            ``Input.sentence`` as exported, HTML-escaped, ``Answer.decision``, ``Answer.edited_sentence``,
            ``Answer.reason``, ``WorkerId``, ``AssignmentStatus``), or ``auto`` (JSON for ``.json``, else by the
            CSV header).

    Returns:
        ``(votes, void)``: :class:`Vote` per decision row, in file order; ``void``: :data:`REJECTED_COLUMNS` rows
        for rejected MTurk assignments and cancelled Label Studio annotations (never counted).

    Raises:
        InputError: a missing file, bad UTF-8, JSON or CSV quoting, a missing column, a record that is not an object
            or has the wrong number of fields (naming file, row and field).
    """
    path = Path(path)
    if fmt not in ("auto", *REVIEW_FORMATS):
        raise ValueError(f"unknown review format {fmt!r} (use auto, {', '.join(REVIEW_FORMATS)})")
    if not path.is_file():
        raise InputError(path, "file not found" if not path.exists() else "not a file")
    if path.suffix.lower() == ".json":
        if fmt not in ("auto", "labelstudio"):
            raise InputError(path, f"a .json file is a Label Studio export, not format {fmt!r}")
        return _json_votes(path)
    return _csv_votes(path, "csv" if fmt == "labelstudio" else fmt)


# ---------------------------------------------------------------------------------------------- checking


def _bad_row(v: Vote, fld: str, reason: str) -> dict:
    return {"file": v.file, "row": v.row, "field": v.fields.get(fld, fld), "reason": reason,
            "sentence_id": v.sentence_id, "decision": v.decision, "reviewer": v.reviewer,
            "raw": json.dumps(v.raw, ensure_ascii=False, default=str, sort_keys=True)}


def check_votes(votes: list[Vote], texts: dict[str, str], skip_bad_rows: bool) -> tuple[list[Vote], list[dict], int]:
    """Valid votes, bad rows (with ``skip_bad_rows``) and the number of rows left undecided (empty decision)."""
    good, bad, undecided = [], [], 0
    seen: dict[tuple[str, str], Vote] = {}
    for v in votes:
        problem = None
        if v.sentence_id not in texts:
            problem = ("sentence_id", f"unknown sentence_id {v.sentence_id!r} (not a generated sentence of the build)")
        elif v.decision == "":
            undecided += 1
            continue
        elif v.sentence is not None and v.sentence.strip() != texts[v.sentence_id]:
            problem = ("sentence", f"sentence text changed since export: the build has {texts[v.sentence_id]!r}, "
                                   f"the review {v.sentence!r}")
        elif v.decision not in DECISIONS:
            problem = ("decision", f"unknown decision {v.decision!r} (use {', '.join(DECISIONS)})")
        elif v.decision == "edit" and not v.edited_sentence:
            problem = ("edited_sentence", "empty edit: decision 'edit' needs the corrected sentence")
        elif v.decision == "edit" and v.edited_sentence == texts[v.sentence_id]:
            problem = ("edited_sentence", "empty edit: the edited sentence is the sentence itself (use 'accept')")
        elif v.reviewer and (v.sentence_id, v.reviewer) in seen:
            first = seen[(v.sentence_id, v.reviewer)]
            problem = ("reviewer", f"second decision of reviewer {v.reviewer!r} on {v.sentence_id} (first: "
                                   f"{first.file}, {first.row_kind} {first.row})")
        if problem is None:
            if v.reviewer:
                seen[(v.sentence_id, v.reviewer)] = v
            good.append(v)
            continue
        if not skip_bad_rows:
            raise RowError(v.file, problem[1], v.row, v.fields.get(problem[0], problem[0]), row_kind=v.row_kind)
        bad.append(_bad_row(v, *problem))
    return good, bad, undecided


def verdicts(votes: list[Vote]) -> dict[str, tuple[str, str | None]]:
    """Per sentence: ``(outcome, edited text)``; outcome ``accept``, ``edit``, ``reject`` or ``tie``.

    The decision with most votes wins; equal top counts are a tie. When ``edit`` wins, the edited text most
    edit votes agree on is used; equal top counts there are a tie as well.
    """
    by_id: dict[str, list[Vote]] = defaultdict(list)
    for v in votes:
        by_id[v.sentence_id].append(v)
    out: dict[str, tuple[str, str | None]] = {}
    for sid, vs in by_id.items():
        top = Counter(v.decision for v in vs).most_common()
        if len(top) > 1 and top[0][1] == top[1][1]:
            out[sid] = ("tie", None)
            continue
        decision = top[0][0]
        if decision != "edit":
            out[sid] = (decision, None)
            continue
        texts = Counter(v.edited_sentence for v in vs if v.decision == "edit").most_common()
        out[sid] = ("tie", None) if len(texts) > 1 and texts[0][1] == texts[1][1] else ("edit", texts[0][0])
    return out
