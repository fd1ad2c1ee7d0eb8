"""Control items: pairs with known answers mixed in among a crowd round's pairs, so that aggregation can weed out
careless workers (Marelli et al. 2014, section 3.4). One loader, used by task export, the simulator and aggregation.

The file (``annotations/controls.yaml`` by default) is a YAML mapping whose ``controls`` is a list of items with
``id`` (no blanks and no ``#``), ``sentence_A``, ``sentence_B`` (distinct, non-empty), ``relatedness: [low, high]``
(within 1-5, low <= high: the range the mean rating of a careful crowd should fall in), ``answer_AB`` and
``answer_BA`` (``TRUE`` | ``UNKNOWN`` | ``FALSE``) and an optional ``note``.
"""

from __future__ import annotations

__all__ = ["CONTROL_FIELDS", "DEFAULT_CONTROLS", "ControlItem", "controls_by_id", "controls_table", "load_controls"]

from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import yaml

from pipeline.common.errors import InputError
from pipeline.common.files import key_lines
from pipeline.common.resources import ANNOTATIONS_DIR
from pipeline.common.vocabulary import ANSWERS, RELATEDNESS_RANGE
from pipeline.crowd.judgments import CONTROL_REPEAT_SEP

DEFAULT_CONTROLS = ANNOTATIONS_DIR / "controls.yaml"
CONTROL_FIELDS = ("id", "sentence_A", "sentence_B", "relatedness", "answer_AB", "answer_BA")


@dataclass(frozen=True)
class ControlItem:
    """A pair with known answers (``annotations/controls.yaml``).

    ``relatedness`` is the inclusive range (low, high) the mean rating of a careful crowd should fall in;
    ``answer_AB`` answers "if sentence_A is true, is sentence_B true?", ``answer_BA`` the reverse; both are
    ``TRUE`` | ``UNKNOWN`` | ``FALSE``.
    """

    id: str
    sentence_A: str
    sentence_B: str
    relatedness: tuple[float, float]
    answer_AB: str
    answer_BA: str
    note: str = ""


def _answer_value(value) -> str | None:
    if value is True:  # unquoted TRUE / FALSE / yes / no are YAML booleans
        return "TRUE"
    if value is False:
        return "FALSE"
    if isinstance(value, str) and value.strip().upper() in ANSWERS:
        return value.strip().upper()
    return None


def load_controls(path: str | Path | None = None) -> list[ControlItem]:
    """Read control items: a YAML mapping whose ``controls`` is a list of items with ``id`` (no blanks and no
    ``#``), ``sentence_A``, ``sentence_B`` (distinct, non-empty), ``relatedness: [low, high]`` (within 1-5,
    low <= high), ``answer_AB`` and ``answer_BA`` (``TRUE`` | ``UNKNOWN`` | ``FALSE``) and an optional ``note``.

    Args:
        path: the file; default ``annotations/controls.yaml``.

    Raises:
        InputError: missing file, bad YAML, or a bad item, naming the file, the item's line and the field.
    """
    path = Path(path) if path is not None else DEFAULT_CONTROLS
    if not path.is_file():
        raise InputError(path, "file not found" if not path.exists() else "not a file")
    try:
        text = path.read_text(encoding="utf-8")
        data = yaml.safe_load(text)
    except UnicodeDecodeError as exc:
        raise InputError(path, f"not valid UTF-8: {exc.reason}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise InputError(path, f"not valid YAML: {getattr(exc, 'problem', exc)}",
                         line=mark.line + 1 if mark else None) from None
    items = data.get("controls") if isinstance(data, dict) else None
    if not isinstance(items, list) or not items:
        raise InputError(path, "expected a mapping with a non-empty list 'controls'", field="controls")
    out: list[ControlItem] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(items):
        def bad(problem: str, fld: str | None = None, i: int = i) -> InputError:
            lines = key_lines(text)  # parses the text again: only for the error
            line = lines.get(("controls", i, fld), lines.get(("controls", i)))
            return InputError(path, f"control {i + 1}: {problem}", line=line, field=fld)

        if not isinstance(item, dict):
            raise bad("an item is a mapping with " + ", ".join(CONTROL_FIELDS))
        for fld in CONTROL_FIELDS:
            if item.get(fld) in (None, ""):
                raise bad(f"missing {fld!r}", fld)
        unknown = sorted(set(item) - set(CONTROL_FIELDS) - {"note"})
        if unknown:
            raise bad(f"unknown field {unknown[0]!r}", unknown[0])
        cid = str(item["id"]).strip()
        if CONTROL_REPEAT_SEP in cid or any(c.isspace() for c in cid):
            raise bad(f"id {cid!r} must not contain blanks or {CONTROL_REPEAT_SEP!r}", "id")
        if cid in seen:
            raise bad(f"id {cid!r} repeats control {seen[cid]}", "id")
        seen[cid] = i + 1
        a, b = (" ".join(str(item[f]).split()) for f in ("sentence_A", "sentence_B"))
        if a == b:
            raise bad("sentence_A and sentence_B are identical", "sentence_B")
        rng = item["relatedness"]
        lo, hi = RELATEDNESS_RANGE
        if (not isinstance(rng, list) or len(rng) != 2
                or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in rng)
                or not lo <= rng[0] <= rng[1] <= hi):
            raise bad(f"relatedness must be [low, high] with {lo} <= low <= high <= {hi}, got {rng!r}",
                      "relatedness")
        answers = {}
        for fld in ("answer_AB", "answer_BA"):
            answers[fld] = _answer_value(item[fld])
            if answers[fld] is None:
                raise bad(f"{fld} {item[fld]!r} is not one of {', '.join(ANSWERS)}", fld)
        out.append(ControlItem(cid, a, b, (float(rng[0]), float(rng[1])), str(answers["answer_AB"]),
                               str(answers["answer_BA"]), str(item.get("note") or "")))
    return out


def controls_table(items: list[ControlItem]) -> pd.DataFrame:
    """Control items as a table: ``pair_ID answer_AB answer_BA relatedness_min relatedness_max sentence_A
    sentence_B`` (one row per item; a reused item's ``ID#n`` rows map back with
    :func:`pipeline.judgments.control_base_id`)."""
    return pd.DataFrame([{"pair_ID": c.id, "answer_AB": c.answer_AB, "answer_BA": c.answer_BA,
                          "relatedness_min": c.relatedness[0], "relatedness_max": c.relatedness[1],
                          "sentence_A": c.sentence_A, "sentence_B": c.sentence_B} for c in items],
                        columns=["pair_ID", "answer_AB", "answer_BA", "relatedness_min", "relatedness_max",
                                 "sentence_A", "sentence_B"])


def controls_by_id(items: list[ControlItem]) -> dict[str, dict]:
    """Control items as aggregation reads them: ``{id: {"AB": answer, "BA": answer, "relatedness": (low, high)}}``
    (:func:`pipeline.crowd.aggregate.aggregate`'s ``controls``)."""
    return {c.id: {"AB": c.answer_AB, "BA": c.answer_BA, "relatedness": c.relatedness} for c in items}
