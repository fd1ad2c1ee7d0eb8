"""The field's fixed vocabulary, defined once: build stages and expansion families, presentation orders,
crowd answers, gold labels, relatedness range and pair-type groups.

Sources: Marelli et al. 2014 (LREC), sections 3.2-3.4 and Tables 2-9; the SemEval-2014 Task 1 release files.
"""

from __future__ import annotations

__all__ = ["ANSWERS", "FAMILIES", "LABELS", "ORDERS", "PAIR_GROUPS", "PAIR_GROUP_NAMES", "RELATEDNESS_RANGE",
           "R_LABEL_LEVELS", "STAGES", "pair_group"]

STAGES = ("normalize", "S2", "S3", "S4")
"""Rule stages: normalization (S0 -> S1, Table 2), then the three expansion families (Table 3)."""
FAMILIES = ("S2", "S3", "S4")
"""Expansion families: S2 similar meaning, S3 contrasting meaning, S4 same words scrambled (section 3.2)."""

ORDERS = ("AB", "BA")
"""Presentation orders: each pair was judged with sentence_A first and with sentence_B first (section 3.4)."""
ANSWERS = ("TRUE", "UNKNOWN", "FALSE")
"""Crowd answers to "if A is true, is B true?": yes, can't say, no (section 3.4)."""
RELATEDNESS_RANGE = (1, 5)
"""Relatedness ratings and gold scores lie in 1-5 (section 3.4)."""

LABELS = ("NEUTRAL", "ENTAILMENT", "CONTRADICTION")
"""Gold entailment labels, in the order of the paper's tables (Tables 6, 7 and 9)."""
R_LABEL_LEVELS = tuple(sorted(LABELS))
"""The same labels in R's factor-level order (alphabetical), as the official SemEval-2014 scorer sees them."""

PAIR_GROUPS = ("S1S2-same", "S1S3-same", "S1S4-same", "S1aS1b", "S1S2-cross", "S1S3-cross", "S1S4-cross",
               "unrelated")
"""Pair-type groups of Tables 8 and 9, in the paper's row order: S1 with S2/S3/S4 of the same S0 (same set),
the S1 pair of a source pair (the paper's "S1S1 cross set"), S1 with S2/S3/S4 of the other S0 of its source
pair (cross set), and unrelated pairs."""
PAIR_GROUP_NAMES = {"S1S2-same": "S1S2 same set", "S1S3-same": "S1S3 same set", "S1S4-same": "S1S4 same set",
                    "S1aS1b": "S1S1 cross set", "S1S2-cross": "S1S2 cross set", "S1S3-cross": "S1S3 cross set",
                    "S1S4-cross": "S1S4 cross set", "unrelated": "Unrelated pairs"}
"""The row name of each group in ``sick report``'s Tables 8 and 9: the paper's row names (Marelli et al. 2014,
Tables 8 and 9)."""


def pair_group(pair_type: str, set_: str) -> str:
    """The group of a corpus row (:data:`PAIR_GROUPS`) from its ``pair_type`` (``S1aS1b``, ``S1aS2b``, …,
    ``unrelated``) and ``set`` (``same`` | ``cross`` | ``unrelated``; when empty, derived from the letters).

    Raises:
        ValueError: a pair type outside SICK's scheme, or a set other than same/cross for an S1-Sk pair.
    """
    pt = pair_type.strip()
    if pt == "unrelated" or set_ == "unrelated":
        return "unrelated"
    if pt in ("S1aS1b", "S1bS1a"):
        return "S1aS1b"
    if len(pt) == 6 and pt[:2] == "S1" and pt[2] in "ab" and pt[3] == "S" and pt[4] in "234" and pt[5] in "ab":
        s = set_.strip() or ("same" if pt[2] == pt[5] else "cross")
        if s not in ("same", "cross"):
            raise ValueError(f"set {set_!r} of pair type {pair_type!r} is not same/cross")
        return f"S1S{pt[4]}-{s}"
    raise ValueError(f"unknown pair type {pair_type!r}")
