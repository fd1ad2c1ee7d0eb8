"""Stage S0 -> S1: normalization (Marelli et al. 2014, section 3.1, Table 2).

Each S0 text is parsed once; the normalization rules run in file order on that one parse, each editing the
:class:`~pipeline.sentence.Sentence`. A rule that finds the sentence cannot be normalized raises
:class:`~pipeline.errors.Unnormalizable`; SICK dropped such pairs, and so does :mod:`pipeline.build`.
"""

from __future__ import annotations

__all__ = ["BATCH", "NormResult", "apply_rule", "normalize_doc", "normalize_texts"]

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from tqdm import tqdm

from pipeline.common import resources
from pipeline.common.errors import Unnormalizable
from pipeline.corpus import grammar
from pipeline.corpus.rules import Rule, RuleSet
from pipeline.corpus.sentence import Sentence

BATCH = 256


@dataclass
class NormResult:
    """Outcome for one S0 text.

    Attributes:
        input: the S0 text.
        output: the S1 text ("" when dropped).
        rules: ids of the rules that changed the sentence, in order.
        status: ``changed`` | ``unchanged`` (surface form only) | ``dropped``.
        reason: why it was dropped ("" otherwise), prefixed by the rule id.
    """

    input: str
    output: str
    rules: list[str] = field(default_factory=list)
    status: str = "changed"
    reason: str = ""


def apply_rule(rule: Rule, sent: Sentence, ruleset: RuleSet) -> bool:
    """Run one normalization rule on ``sent`` in place; True when it edited the sentence.

    Raises:
        Unnormalizable: when the rule rejects the sentence.
    """
    before = dict(sent.edits)
    rule.func(sent, rule.parsed_params, ruleset)
    return sent.edits != before


def normalize_doc(doc, rules: Sequence[Rule], ruleset: RuleSet) -> NormResult:
    """Apply ``rules`` in order to one parsed S0 sentence."""
    sent = Sentence(doc)
    fired: list[str] = []
    for rule in rules:
        try:
            if apply_rule(rule, sent, ruleset):
                fired.append(rule.id)
        except Unnormalizable as exc:
            return NormResult(doc.text, "", fired, "dropped", f"{rule.id}: {exc}")
    out = sent.render()
    if not out:
        return NormResult(doc.text, "", fired, "dropped", "empty after normalization")
    return NormResult(doc.text, out, fired, "changed" if out != doc.text else "unchanged")


def normalize_texts(texts: Iterable[str], ruleset: RuleSet, progress: bool = False,
                    total: int | None = None) -> list[NormResult]:
    """Normalize S0 texts (parsed once each with the full spaCy pipeline, NER included)."""
    rules = ruleset.stage("normalize")
    docs = resources.parse(texts, batch_size=BATCH)
    return [normalize_doc(doc, rules, ruleset)
            for doc in tqdm(docs, total=total, desc="normalize", unit="sent", disable=not progress)]


def gate_s1(texts: Sequence[str], ruleset: RuleSet) -> tuple[list[grammar.Verdict], dict]:
    """The grammar gate (:mod:`pipeline.corpus.grammar`) on S1 texts.

    Each text is parsed once with NER off, the parse the expansion stage reads too; a repaired text is parsed
    and checked again, and fails when the repaired sentence does not pass unchanged. Returns the verdicts (in
    order) and ``{final S1 text: Doc}`` for the texts that pass.
    """
    docs, verdicts = [], []
    for d in resources.parse(texts, batch_size=BATCH, disable=["ner"]):
        docs.append(d)
        verdicts.append(grammar.check_doc(d, ruleset))
    out = {d.text: d for d, v in zip(docs, verdicts) if v.ok and not v.repairs}
    fixed = list(dict.fromkeys(v.text for v in verdicts if v.ok and v.repairs and v.text not in out))
    recheck = {}
    for d in resources.parse(fixed, batch_size=BATCH, disable=["ner"]):
        again = grammar.check_doc(d, ruleset)  # a repair must not make another failure
        if again.ok and not again.repairs:
            out[d.text] = d
        else:
            recheck[d.text] = again.failures or again.repairs
    verdicts = [grammar.Verdict(v.text, recheck[v.text], ()) if v.text in recheck and v.repairs else v
                for v in verdicts]
    return verdicts, out
