"""Pairing (Marelli et al. 2014, section 3.3, Table 5).

A *group* holds the sentences derived from one source pair: slots ``S0a S0b S1a S1b`` and, where the
expansion found a candidate, ``S2a S2b S3a S3b S4a S4b``. Related pairs join every S1 with every other
sentence of its group: ``S1aS1b`` and ``S1xSky`` for k in 2..4 and x, y in {a, b}; ``set`` is ``same`` when
x = y and ``cross`` otherwise (S1aS1b is cross-set). Unrelated pairs join S1 sentences of two different
groups; SICK has 12.2 % of them (Table 5), which :func:`unrelated_count` reproduces for the final corpus.
"""

from __future__ import annotations

__all__ = ["EXPECTED_RELATION", "Group", "Pair", "Slot", "UNRELATED_SHARE", "pair_key", "related_pairs",
           "unrelated_count", "unrelated_pairs"]

import random
from dataclasses import dataclass, field

from pipeline.common.options import BUILD_DEFAULTS
from pipeline.common.vocabulary import FAMILIES

EXPECTED_RELATION = {"S1": "similar", "S2": "similar", "S3": "contrasting", "S4": "lexical-overlap"}
UNRELATED_SHARE = BUILD_DEFAULTS["unrelated_share"]


@dataclass
class Slot:
    """One sentence of a group: its text and the ids of the rules that made it (from its S0 or S1)."""

    text: str
    rules: tuple[str, ...] = ()


@dataclass
class Group:
    """Sentences of one source pair.

    Attributes:
        group_id: ``G00001``…; source: the :class:`~pipeline.sources.SourcePair`;
        slots: ``{"S0a": Slot, "S1a": Slot, …}`` (S2–S4 slots only where a candidate was kept).
    """

    group_id: str
    source: object
    slots: dict[str, Slot] = field(default_factory=dict)

    def original(self, slot: str) -> str:
        """The S0 sentence a slot derives from (``S2b`` -> ``S0b``)."""
        return self.slots["S0" + slot[-1]].text


@dataclass
class Pair:
    """A candidate corpus pair; sentence_A is always the S1."""

    group_a: Group
    slot_a: str
    group_b: Group
    slot_b: str
    pair_type: str
    set: str
    expected_relation: str

    @property
    def sentence_A(self) -> str:
        return self.group_a.slots[self.slot_a].text

    @property
    def sentence_B(self) -> str:
        return self.group_b.slots[self.slot_b].text


def related_pairs(groups: list[Group]) -> list[Pair]:
    """Every S1 with every other sentence of its group, in a fixed order (13 pairs for a full group)."""
    pairs = []
    for g in groups:
        if "S1a" in g.slots and "S1b" in g.slots:
            pairs.append(Pair(g, "S1a", g, "S1b", "S1aS1b", "cross", EXPECTED_RELATION["S1"]))
        for fam in FAMILIES:
            for x in "ab":
                for y in "ab":
                    a, b = f"S1{x}", f"{fam}{y}"
                    if a in g.slots and b in g.slots:
                        pairs.append(Pair(g, a, g, b, a + b, "same" if x == y else "cross",
                                          EXPECTED_RELATION[fam]))
    return pairs


def pair_key(a: str, b: str) -> frozenset[str]:
    """A pair's sentences lower-cased, in either order; one element when they are the same sentence."""
    return frozenset((a.lower(), b.lower()))


def unrelated_count(n_related: int, share: float = UNRELATED_SHARE) -> int:
    """Number of unrelated pairs so that they make ``share`` of ``n_related + count`` pairs."""
    if not 0 <= share < 1:
        raise ValueError(f"unrelated share must be in [0, 1), got {share}")
    return round(share * n_related / (1 - share))


def unrelated_pairs(groups: list[Group], n: int, seed: int, taken: set[frozenset[str]]) -> list[Pair]:
    """``n`` pairs of S1 sentences from two different groups, drawn with the seed.

    Pairs whose sentences (lower-cased, either order) are in ``taken`` or already drawn are redrawn, so the
    result needs no further deduplication; ``taken`` is updated. Fewer than ``n`` come back only when the
    groups cannot give more.
    """
    slots = [(g, s) for g in groups for s in ("S1a", "S1b") if s in g.slots]
    if len({id(g) for g, _ in slots}) < 2:
        return []
    rng = random.Random(f"{seed}|unrelated")
    out: list[Pair] = []
    tries = 0
    while len(out) < n and tries < 50 * n + 1000:
        tries += 1
        (ga, sa), (gb, sb) = rng.sample(slots, 2)
        if ga is gb:
            continue
        key = pair_key(ga.slots[sa].text, gb.slots[sb].text)
        if len(key) == 1 or key in taken:
            continue
        taken.add(key)
        out.append(Pair(ga, sa, gb, sb, "unrelated", "unrelated", "unrelated"))
    return out
