"""Reader for DUCView pyramid files (``.pyr``; Nenkova & Passonneau 2004), as used by Baumel et al. (2016).

A ``.pyr`` file is XML: root ``<pyramid>`` with an optional ``<startDocumentRegEx>``, a ``<text>`` of ``<line>``
elements holding the model summaries (each preceded by a ``-----`` / summary id / ``-----`` header), then
``<scu uid label>`` elements, each with ``<contributor label>`` elements made of ``<part label start end/>``.
``start``/``end`` are character offsets into ``"\\n".join(line texts)``.

Known quirks we tolerate:

* ``<startDocumentRegEx>`` missing (DUC 2006): summaries are found from the dashed header blocks instead;
* part offsets off by one (or two): the span is re-aligned to the part label when a small shift matches,
  otherwise the label is kept and the offsets are left as given;
* two contributors of one SCU from the same summary: both are kept (``Contributor.summary`` tells them apart).

A file that is not well-formed XML, has no ``<pyramid>`` root, or has an ``<scu>``/``<contributor>``/``<part>``
lacking a required attribute (or with a non-integer offset) raises :class:`InputError` naming the file and element.
"""

from __future__ import annotations

__all__ = ["Contributor", "Part", "Pyramid", "SCU", "expand_paths", "read_pyramid", "read_pyramids", "topic_of"]

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from pipeline.common.errors import InputError

_DASHES = re.compile(r"^\s*-{3,}\s*$")
_ANNOTATORS = re.compile(r"-[A-Z]{4}$")  # D0711-A-ABCF -> D0711-A ; D0703-ACDJ -> D0703


@dataclass
class Part:
    label: str
    start: int
    end: int


@dataclass
class Contributor:
    label: str
    parts: list[Part] = field(default_factory=list)
    summary: str | None = None  # id of the model summary the contributor comes from, when known

    @property
    def text(self) -> str:
        """The contributor's text: its label with the '...' that joins discontinuous parts replaced by a space."""
        return " ".join(self.label.replace("...", " ").split())


@dataclass
class SCU:
    uid: str
    label: str
    contributors: list[Contributor] = field(default_factory=list)


@dataclass
class Pyramid:
    topic: str
    scus: list[SCU] = field(default_factory=list)
    path: str = ""
    summaries: list[str] = field(default_factory=list)
    realigned_parts: int = 0  # parts whose offsets were off by a small shift
    unaligned_parts: int = 0  # parts whose span text does not match the label at any small shift


def topic_of(path: str | Path) -> str:
    """Topic id from the file name: ``D0608.pyr`` -> D0608, ``D0711-A-ABCF.pyr`` -> D0711-A (update, part A)."""
    return _ANNOTATORS.sub("", Path(path).stem)


def _summary_starts(lines: list[str]) -> list[tuple[int, str]]:
    """(character offset, summary id) of each summary header block (dashes / id / dashes)."""
    out = []
    offset = 0
    offsets = []
    for ln in lines:
        offsets.append(offset)
        offset += len(ln) + 1
    for i in range(len(lines) - 2):
        if _DASHES.match(lines[i]) and _DASHES.match(lines[i + 2]) and lines[i + 1].strip():
            out.append((offsets[i], lines[i + 1].strip()))
    return out


def _norm(s: str) -> str:
    return " ".join(s.split())


def _int_attr(path, el, name: str, what: str) -> int:
    raw = el.get(name)
    if raw is None:
        raise InputError(path, f"{what} has no {name!r} attribute", field=name)
    try:
        return int(raw.strip())
    except ValueError:
        raise InputError(path, f"{what} has non-integer {name}={raw!r}", field=name) from None


def read_pyramid(path: str | Path) -> Pyramid:
    """Parse one ``.pyr`` file into a :class:`Pyramid` (see the module docstring for tolerated quirks)."""
    p = Path(path)
    if not p.is_file():
        raise InputError(path, "file not found")
    try:
        root = ET.parse(p).getroot()
    except ET.ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        raise InputError(path, f"not well-formed XML ({exc})", line=line) from None
    if root.tag != "pyramid":
        # peer annotation files (.pan) wrap the pyramid: accept <peerAnnotation><pyramid>
        inner = root.find("pyramid")
        if inner is None:
            raise InputError(path, f"root element is <{root.tag}>, expected <pyramid>")
        root = inner
    text_el = root.find("text")
    lines = [ln.text or "" for ln in text_el.findall("line")] if text_el is not None else []
    full = "\n".join(lines)
    starts = _summary_starts(lines)
    pyr = Pyramid(topic=topic_of(p), path=str(path), summaries=[s for _, s in starts])

    def summary_at(offset: int) -> str | None:
        sid = None
        for off, s in starts:
            if off <= offset:
                sid = s
            else:
                break
        return sid

    for n_scu, scu_el in enumerate(root.findall("scu"), 1):
        uid = scu_el.get("uid")
        if uid is None or not uid.strip():
            raise InputError(path, f"<scu> #{n_scu} has no 'uid' attribute", field="uid")
        what_scu = f"<scu uid={uid!r}>"
        label = scu_el.get("label")
        if label is None:
            raise InputError(path, f"{what_scu} has no 'label' attribute", field="label")
        scu = SCU(uid=uid.strip(), label=_norm(label))
        for n_c, c_el in enumerate(scu_el.findall("contributor"), 1):
            what_c = f"{what_scu} <contributor> #{n_c}"
            c_label = c_el.get("label")
            if c_label is None:
                raise InputError(path, f"{what_c} has no 'label' attribute", field="label")
            contrib = Contributor(label=_norm(c_label))
            for n_p, p_el in enumerate(c_el.findall("part"), 1):
                what_p = f"{what_c} <part> #{n_p}"
                p_label = p_el.get("label")
                if p_label is None:
                    raise InputError(path, f"{what_p} has no 'label' attribute", field="label")
                start = _int_attr(path, p_el, "start", what_p)
                end = _int_attr(path, p_el, "end", what_p)
                if full:
                    want = _norm(p_label)
                    if _norm(full[start:end]) != want:
                        for shift in (-1, 1, -2, 2):
                            if _norm(full[max(start + shift, 0):max(end + shift, 0)]) == want:
                                start, end = start + shift, end + shift
                                pyr.realigned_parts += 1
                                break
                        else:
                            pyr.unaligned_parts += 1
                contrib.parts.append(Part(label=_norm(p_label), start=start, end=end))
            if contrib.parts:
                contrib.summary = summary_at(min(pt.start for pt in contrib.parts))
            scu.contributors.append(contrib)
        pyr.scus.append(scu)
    return pyr


def expand_paths(items: Iterable[str | Path]) -> list[Path]:
    """Files given directly, plus every ``*.pyr`` under the directories given (sorted)."""
    out: list[Path] = []
    for it in items:
        p = Path(it)
        if p.is_dir():
            out.extend(sorted(p.rglob("*.pyr")))
        else:
            out.append(p)
    return out


def read_pyramids(paths: Iterable[str | Path], skip_bad_files: bool = False
                  ) -> tuple[list[Pyramid], list[tuple[str, str]]]:
    """Read pyramid files (directories are searched for ``*.pyr``).

    Returns ``(pyramids, skipped)`` where ``skipped`` lists ``(path, error message)`` of the files skipped
    because of an :class:`InputError` (only with ``skip_bad_files``; otherwise the error is raised).
    """
    pyramids, skipped = [], []
    for p in expand_paths(paths):
        try:
            pyramids.append(read_pyramid(p))
        except InputError as exc:
            if not skip_bad_files:
                raise
            skipped.append((str(p), str(exc)))
    return pyramids, skipped
