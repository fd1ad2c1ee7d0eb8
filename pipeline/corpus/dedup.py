"""Deduplication (Marelli et al. 2014, section 3.3, footnote 6).

Two kinds of pair are removed: a pair whose two sentences are identical (e.g. an S2 that equals the other
S1), and a pair repeated in either order. Sentences are compared case-insensitively; the first occurrence
in corpus order is kept.
"""

from __future__ import annotations

__all__ = ["Removed", "dedup"]

from dataclasses import dataclass

from pipeline.corpus.pair import Pair, pair_key


@dataclass
class Removed:
    """A removed pair and why: ``identical sentences`` or ``repeated pair`` (with the kept pair it repeats)."""

    pair: Pair
    reason: str


def dedup(pairs: list[Pair]) -> tuple[list[Pair], list[Removed], set[frozenset[str]]]:
    """Split ``pairs`` into kept and removed; also return the keys (lower-cased sentence sets) kept."""
    kept: list[Pair] = []
    removed: list[Removed] = []
    seen: dict[frozenset[str], Pair] = {}
    for p in pairs:
        key = pair_key(p.sentence_A, p.sentence_B)
        if len(key) == 1:
            removed.append(Removed(p, "identical sentences"))
            continue
        if key in seen:
            first = seen[key]
            removed.append(Removed(p, f"repeated pair (same as {first.pair_type} of {first.group_a.group_id})"))
            continue
        seen[key] = p
        kept.append(p)
    return kept, removed, set(seen)
