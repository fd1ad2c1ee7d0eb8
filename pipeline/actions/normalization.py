"""Normalization actions (S0 -> S1), Marelli et al. 2014, section 3.1, Table 2.

Each action edits a :class:`~pipeline.sentence.Sentence` in place (``action(sent, params, ctx) -> None``) or
raises :class:`~pipeline.errors.Unnormalizable`.
"""

from __future__ import annotations

from pydantic import BaseModel

from ..rules import action

POSSESSIVE_PRONOUNS = ("my", "your", "his", "her", "its", "our", "their")


class PossessiveParams(BaseModel):
    replacement: str = "the"


@action("possessive_to_determiner", stages=("normalize",), params=PossessiveParams)
def possessive_to_determiner(sent, params: PossessiveParams, ctx) -> None:
    """Possessive pronoun -> a determiner ("her playhouse" -> "the playhouse"); Table 2, first row."""
    for tok in sent.doc:
        if tok.tag_ == "PRP$" and tok.lower_ in POSSESSIVE_PRONOUNS and not sent.edited(tok.i):
            sent.replace(tok.i, params.replacement)
