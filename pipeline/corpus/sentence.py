"""A parsed sentence with token edits, and rendering into SICK's surface form.

Every stage parses a text once with spaCy and lets all its rules read that one parse. Rules never re-parse:
they write *edits*, a mapping ``token index -> replacement text`` (``""`` deletes the token, a multi-word
string inserts words around it). Edits of different rules compose as long as they touch different tokens,
which is how several expansion rules combine into one sentence (Marelli et al. 2014, section 3.2).

Rendering gives SICK's form (SICK.txt): words separated by single spaces, no space before punctuation,
indefinite article agreeing with the next word (a/an), first letter capitalised, no final period.
"""

from __future__ import annotations

__all__ = ["Sentence", "article_for", "surface"]

import functools
import re
from typing import Any, Iterable

from pipeline.corpus.wordforms import inflect_engine

_NO_SPACE_BEFORE = re.compile(r"\s+([,;:!?.%)]|'s\b|'re\b|'ll\b|'ve\b|'m\b|'d\b|n't\b|')")
_NO_SPACE_AFTER = re.compile(r"([(])\s+")
_ARTICLE = re.compile(r"\b([Aa]n?)\s+([A-Za-z][\w-]*)")
_DOUBLE_COMMA = re.compile(r",(\s*,)+")


@functools.lru_cache(maxsize=65536)
def article_for(word: str) -> str:
    """'a' or 'an' for ``word`` (inflect's rules, which know 'an hour', 'a university')."""
    return inflect_engine().a(word).split(" ", 1)[0].lower()


def _fix_article(match: re.Match) -> str:
    art, word = match.group(1), match.group(2)
    new = article_for(word)
    if art[0].isupper():
        new = new.capitalize()
    return f"{new} {word}"


def surface(text: str) -> str:
    """Normalise spacing, punctuation, a/an, capitalisation and the final period of a sentence string."""
    # one space for every run of white space (str.split() knows the same white space as the regex \s), then
    # no dangling punctuation at either end: string methods, several times faster than the regexes
    text = " ".join(text.split())
    text = _NO_SPACE_BEFORE.sub(r"\1", text)
    text = _NO_SPACE_AFTER.sub(r"\1", text)
    text = _DOUBLE_COMMA.sub(",", text)
    text = text.lstrip(" ,;:").rstrip(" ,;:.!?")
    text = _ARTICLE.sub(_fix_article, text)
    return text[:1].upper() + text[1:]


class Sentence:
    """One spaCy ``Doc`` plus edits.

    Attributes:
        doc: the parse (never changed).
        edits: ``{token index: replacement}``; ``""`` deletes a token.

    The sentence-initial token is lower-cased in the working text unless it is a proper noun or "I", so that a
    rule moving it into the middle of the sentence writes it correctly; :meth:`render` capitalises again.
    """

    __slots__ = ("doc", "edits", "_base", "_ws")

    def __init__(self, doc: Any, edits: dict[int, str] | None = None, _base: list[str] | None = None,
                 _ws: list[bool] | None = None) -> None:
        self.doc = doc
        self.edits: dict[int, str] = dict(edits or {})
        if _base is None:
            _base = [t.text for t in doc]
            if _base and doc[0].pos_ != "PROPN" and _base[0] != "I":
                _base[0] = _base[0].lower()
        if _ws is None:
            # read once per parse: span_text runs for every candidate, and a token lookup costs more than the join
            _ws = [bool(t.whitespace_) for t in doc]
        self._base = _base
        self._ws = _ws

    def fork(self) -> "Sentence":
        """A copy sharing the parse, with its own edits."""
        return Sentence(self.doc, self.edits, self._base, self._ws)

    def with_edits(self, edits: dict[int, str]) -> "Sentence":
        """The same parse with ``edits`` instead of this sentence's edits."""
        return Sentence(self.doc, edits, self._base, self._ws)

    def text(self, i: int) -> str:
        """Token ``i``'s current text ("" when deleted)."""
        return self.edits.get(i, self._base[i])

    def edited(self, i: int) -> bool:
        return i in self.edits

    def any_edited(self, indices: Iterable[int]) -> bool:
        return any(i in self.edits for i in indices)

    def replace(self, i: int, text: str) -> None:
        self.edits[i] = text

    def delete(self, *indices: int) -> None:
        for i in indices:
            self.edits[i] = ""

    def insert_before(self, i: int, text: str) -> None:
        self.edits[i] = f"{text} {self.text(i)}".strip()

    def insert_after(self, i: int, text: str) -> None:
        self.edits[i] = f"{self.text(i)} {text}".strip()

    def span_text(self, start: int, end: int) -> str:
        """Current text of tokens ``start .. end-1`` (edits applied, deleted tokens skipped).

        Tokens keep the spacing of the original text ("key-board" stays one word).
        """
        out = ""
        edits, base, ws = self.edits, self._base, self._ws
        for i in range(start, end):
            t = edits.get(i, base[i])
            if t:
                out += t
            elif not out or out.endswith(" "):
                continue
            if ws[i]:
                out += " "
        return out.strip()

    def set_span(self, start: int, end: int, text: str) -> None:
        """Replace tokens ``start .. end-1`` by ``text`` (written on the first, the rest deleted)."""
        self.edits[start] = text
        for i in range(start + 1, end):
            self.edits[i] = ""

    def render(self) -> str:
        """The sentence in SICK's surface form (see :func:`surface`)."""
        return surface(self.span_text(0, len(self._base)))

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Sentence({self.render()!r}, edits={self.edits})"
