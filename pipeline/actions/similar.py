"""S2 actions: meaning-preserving expansions, Marelli et al. 2014, section 3.2, Table 3 (S2 rows).

Each action yields candidate edit mappings (``action(sent, params, ctx) -> Iterable[dict[int, str]]``), each
made on ``sent.fork()``.
"""

from __future__ import annotations

from pydantic import BaseModel

from ..rules import action


class SwapDeterminerParams(BaseModel):
    lexicon: str = "similar_determiners"


@action("swap_determiner", stages=("S2",), params=SwapDeterminerParams)
def swap_determiner(sent, params: SwapDeterminerParams, ctx):
    """Determiner with a similar meaning ("the" <-> "a" before a singular noun); Table 3, S2."""
    table = ctx.lexicon(params.lexicon)
    for tok in sent.doc:
        if tok.dep_ == "det" and tok.lower_ in table and tok.head.tag_ in ("NN", "NNP"):
            for new in table[tok.lower_]:
                s = sent.fork()
                s.replace(tok.i, new)
                yield s.edits
