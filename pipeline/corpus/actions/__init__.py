"""Registered rule actions, one module per stage family (normalization in ``normalize_*`` modules by kind).

Importing this package registers every action with :func:`pipeline.rules.action`.
"""

from . import (  # noqa: F401
    contrast,
    normalize_clauses,
    normalize_compounds,
    normalize_filters,
    normalize_fragments,
    normalize_spelling,
    normalize_verbs,
    normalize_words,
    scramble,
    similar,
)
