"""Stage S1 -> S2, S3, S4: expansion (Marelli et al. 2014, section 3.2, Table 3).

Each S1 is parsed once (NER off); every expansion rule proposes candidates as token edits on that parse.
Candidates combine when their edits touch different tokens, as SICK's hand-made expansions often applied
several transformations at once: two S2 rules together, or an S3 rule with an S2 rule (not one of
:data:`NOT_WITH_S3`, nor a pair of :data:`NOT_TOGETHER`). S4 candidates are
kept single so that an S4 sentence has the same words as its S1.

Per S1 at most one S2, one S3 and one S4 are kept (:func:`choose`), with a random generator seeded by the
run seed, the family and the S1 text, so that a choice does not depend on the order of sentences.
:func:`choose_gated` passes each chosen sentence through the grammar gate (:mod:`pipeline.corpus.grammar`)
and chooses again without it when it fails; only the sentences about to be chosen are parsed, in batches.
"""

from __future__ import annotations

__all__ = ["BATCH", "Candidate", "MAX_COMBINED", "NOT_TOGETHER", "NOT_WITH_S3", "choose", "expand_doc", "expand_texts",
           "rule_edits", "rule_outputs"]

import math
import random
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable

from tqdm import tqdm

from pipeline.common import resources
from pipeline.common.vocabulary import FAMILIES
from pipeline.corpus import grammar
from pipeline.corpus.rules import Rule, RuleSet
from pipeline.corpus.sentence import Sentence

BATCH = 256
GATE_ROUNDS = 6  # choose-gate rounds per S1 and family before the slot is given up
MAX_COMBINED = 40  # combined candidates made and rendered per family and sentence (the first ones, in rule order)
# S2 rules never combined with an S3 rule: an added implied modifier narrows the contrast so that it no longer
# contradicts S1 ("A person is cutting a pepper" -/-> "A person is not cutting a green pepper with a knife": the
# person may well be cutting a red one); reader's verdict on the 750 + 750 build
# A stiff relative clause on a negated or opposite subject reads as a claim about the kind ("People who swim are
# not racing", "No group of people who hike"; s23d readers)
NOT_WITH_S3 = frozenset({"modifier-implied", "agentive-noun-expansion"})
# pairs of rules never combined: a relative clause inside "There is no ..." stacks two post-nominal phrases
# ("There is no bus which is very colorful being pulled off ..."); a describing clause cannot hang on "No dog"
# or "Nobody" ("No dog, which is black, is leaping"); readers' verdicts on the seed-1 build
NOT_TOGETHER = frozenset(frozenset(p) for p in (
    ("there-is-no", "adjective-to-relative"), ("there-is-no", "agentive-noun-expansion"),
    ("there-is-no", "compound-to-relative"), ("determiner-opposite", "adjective-to-relative"),
    ("nobody-subject", "adjective-to-relative"), ("determiner-opposite", "compound-to-relative"),
    # "are not going down an inflatable slide which is large": the negation seems to deny the clause (s23c)
    ("negation-insert", "adjective-to-relative")))


@dataclass(frozen=True)
class Candidate:
    """One expansion of an S1.

    Attributes:
        family: ``S2`` (similar meaning), ``S3`` (contrasting) or ``S4`` (same words, scrambled).
        output: the sentence in SICK's surface form.
        rules: ids of every rule that made it, in rule order.
    """

    family: str
    output: str
    rules: tuple[str, ...]


def rule_edits(rule: Rule, sent: Sentence, ruleset: RuleSet) -> list[dict[int, str]]:
    """Edit mappings the rule proposes for ``sent`` (each a candidate), without duplicates."""
    out, seen = [], set()
    for edits in rule.func(sent.fork(), rule.parsed_params, ruleset) or ():
        key = tuple(sorted(edits.items()))
        if edits and key not in seen:
            seen.add(key)
            out.append(dict(edits))
    return out


def rule_outputs(rule: Rule, sent: Sentence, ruleset: RuleSet) -> list[str]:
    """Rendered candidates of one rule alone (what a rule's examples are checked against)."""
    s1 = sent.render()
    outs = []
    for edits in rule_edits(rule, sent, ruleset):
        text = sent.with_edits(edits).render()
        if text and text != s1 and text not in outs:
            outs.append(text)
    return outs


def expand_doc(doc, ruleset: RuleSet, combine: bool = True) -> list[Candidate]:
    """All candidates for one parsed S1: single rules, then combinations (see the module docstring)."""
    base = Sentence(doc)
    s1 = base.render()
    singles: dict[str, list[tuple[tuple[str, ...], dict[int, str]]]] = {f: [] for f in FAMILIES}
    for family in FAMILIES:
        for rule in ruleset.stage(family):
            singles[family].extend(((rule.id,), e) for e in rule_edits(rule, base, ruleset))

    def firsts(family, per_word=False):  # one candidate per rule keeps combinations few and varied
        seen, out = set(), []
        for rules, edits in singles[family]:
            key = (rules, min(edits, default=-1)) if per_word else rules
            if key not in seen:
                seen.add(key)
                out.append((rules, edits))
        return out

    combos: dict[str, list] = {f: [] for f in FAMILIES}
    if combine:  # only the first MAX_COMBINED of a family are rendered, so no more are made
        s2 = firsts("S2")  # one per rule, so two of them never share a rule
        for (r1, e1), (r2, e2) in combinations(s2, 2):
            if len(combos["S2"]) == MAX_COMBINED:
                break
            if not e1.keys() & e2.keys():
                combos["S2"].append((r1 + r2, {**e1, **e2}))
        # an S3 rule's first candidate per word: the opposites lexicon's "man -> woman" does not hide its "folding
        # -> unfolding" from a synonym ("A man is folding" -> "A person is unfolding", SICK_train)
        for r3, e3 in firsts("S3", per_word=True):
            for r2, e2 in s2:
                if len(combos["S3"]) == MAX_COMBINED:
                    break
                if not e3.keys() & e2.keys() and not NOT_WITH_S3.intersection(r2) \
                        and frozenset(r3 + r2) not in NOT_TOGETHER:
                    combos["S3"].append((r3 + r2, {**e3, **e2}))

    out: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    for family in FAMILIES:
        for rules, edits in singles[family] + combos[family][:MAX_COMBINED]:
            text = base.with_edits(edits).render()
            if text and text.lower() != s1.lower() and (family, text) not in seen:
                seen.add((family, text))
                out.append(Candidate(family, text, rules))
    return out


def choose(candidates: list[Candidate], s1: str, seed: int, combine_rate: float = 0.3,
           weights: dict[str, float] | None = None) -> dict[str, Candidate]:
    """Keep at most one candidate per family.

    A combined candidate is drawn part by part, each part as a single rule is drawn, so that a rule's share of
    the rule uses counted by Table 4 of Marelli et al. (2014), where a sentence made by two rules counts for
    each, follows its weight whether it comes alone or in a combination:

    1. the family's rule, drawn with probability proportional to its weight (default 1) among the rules with a
       single-rule candidate;
    2. with probability ``combine_rate``, a second rule, drawn by weight among the S2 rules with a single-rule
       candidate for this S1 (other than the first); when the two make a combined candidate, the combination
       is kept, otherwise the first rule alone (two rules that touch the same words, or a pair not allowed);
    3. one of the chosen rule (or rule pair)'s candidates, uniformly, so that a rule with many candidates
       (synonyms) does not crowd out the others.

    Before (r11), the combined pool was taken at ``combine_rate`` whatever rules it held, so the two most widely
    applicable rules (determiner-similar, synonym-wordnet) rode in most combinations, whatever their weights:
    Table 4's "Replace quantifiers" and "Replace words with synonyms" rows were 9.8 and 9.7 points over the
    paper's 13.4 % and 42.6 % on the seed-1 750 + 750 build (7.0 and 0.8 after).
    With no single-rule candidate left (all turned down by the gate), a combination is drawn by the product of
    its rules' weights.
    """
    weights = weights or {}

    def draw(rng: random.Random, keys: list) -> object:
        return rng.choices(keys, weights=[math.prod(weights.get(r, 1.0) for r in k) for k in keys])[0]

    chosen: dict[str, Candidate] = {}
    seconds = sorted({c.rules[0] for c in candidates if c.family == "S2" and len(c.rules) == 1})
    for family in FAMILIES:
        fam = [c for c in candidates if c.family == family]
        if not fam:
            continue
        rng = random.Random(f"{seed}|{family}|{s1}")
        groups: dict[frozenset[str], list[Candidate]] = {}
        for c in fam:
            groups.setdefault(frozenset(c.rules), []).append(c)
        firsts = sorted(c.rules[0] for c in fam if len(c.rules) == 1)
        if not firsts:
            key = frozenset(draw(rng, sorted(tuple(sorted(k)) for k in groups)))
        else:
            # the coin is tossed first, and only where a combination exists, as before r11: a sentence that
            # keeps a single rule keeps the same one
            combine = any(len(c.rules) > 1 for c in fam) and rng.random() < combine_rate
            first = draw(rng, sorted({(r,) for r in firsts}))[0]
            key = frozenset((first,))
            if combine:
                others = [(r,) for r in seconds if r != first]
                if others:
                    pair = key | {draw(rng, others)[0]}
                    key = pair if pair in groups else key
        chosen[family] = rng.choice(groups[key])
    return chosen


def expand_texts(texts: Iterable[str], ruleset: RuleSet, progress: bool = False, total: int | None = None,
                 combine: bool = True) -> list[list[Candidate]]:
    """Candidates for each S1 text (each parsed once, NER disabled)."""
    docs = resources.parse(texts, batch_size=BATCH, disable=["ner"])
    return [expand_doc(doc, ruleset, combine)
            for doc in tqdm(docs, total=total, desc="expand", unit="sent", disable=not progress)]


@dataclass
class Gated:
    """The gated choice for one S1.

    Attributes:
        chosen: ``{family: candidate}``, the output repaired by the gate where it was repaired.
        picked: ``{family: candidate}`` as chosen, before any repair (one of the S1's candidates).
        rejected: ``{candidate: failed check ids}`` for every candidate the gate turned down.
        repaired: ``{family: repair check ids}`` for chosen candidates the gate repaired.
        lost: ``{family: failed check ids}`` for families whose every tried candidate failed (slot lost).
    """

    chosen: dict[str, Candidate]
    picked: dict[str, Candidate]
    rejected: dict[Candidate, tuple[str, ...]]
    repaired: dict[str, tuple[str, ...]]
    lost: dict[str, tuple[str, ...]]


def choose_gated(items: list[tuple[str, list[Candidate]]], seed: int, combine_rate: float = 0.3,
                 weights: dict[str, float] | None = None, ruleset: RuleSet | None = None,
                 verdicts: dict[str, grammar.Verdict] | None = None) -> list[Gated]:
    """:func:`choose` for each ``(S1, candidates)``, then the grammar gate on the chosen sentences.

    A chosen candidate that fails the gate (and cannot be repaired) is left out and the family chosen again
    from the rest (same seed), up to :data:`GATE_ROUNDS` times; all sentences of a round are parsed in one
    batch. ``verdicts`` (text -> verdict) caches gate answers across calls and is filled in.
    """
    verdicts = {} if verdicts is None else verdicts
    excluded: list[set[Candidate]] = [set() for _ in items]
    rejected: list[dict[Candidate, tuple[str, ...]]] = [{} for _ in items]
    final: list[dict[str, Candidate]] = [{} for _ in items]
    picked: list[dict[str, Candidate]] = [{} for _ in items]
    repaired: list[dict[str, tuple[str, ...]]] = [{} for _ in items]
    lost: list[dict[str, tuple[str, ...]]] = [{} for _ in items]
    todo = {(k, fam) for k, (_, cands) in enumerate(items) for fam in {c.family for c in cands}}
    for _ in range(GATE_ROUNDS):
        if not todo:
            break
        picks = {}
        for k in sorted({k for k, _ in todo}):
            s1, cands = items[k]
            chosen = choose([c for c in cands if c not in excluded[k]], s1, seed, combine_rate, weights)
            for fam in FAMILIES:
                if (k, fam) in todo and fam in chosen:
                    picks[(k, fam)] = chosen[fam]
        for key in todo - picks.keys():  # nothing left to choose
            todo.discard(key)
        new = list(dict.fromkeys(c.output for c in picks.values() if c.output not in verdicts))
        verdicts.update(zip(new, grammar.check_texts(new, ruleset)))
        for (k, fam), c in sorted(picks.items(), key=lambda kv: (kv[0][0], FAMILIES.index(kv[0][1]))):
            v = verdicts[c.output]
            if v.ok:
                final[k][fam] = Candidate(fam, v.text, c.rules) if v.repairs else c
                picked[k][fam] = c
                if v.repairs:
                    repaired[k][fam] = v.repairs
                lost[k].pop(fam, None)
                todo.discard((k, fam))
            else:
                excluded[k].add(c)
                rejected[k][c] = v.failures
                lost[k][fam] = v.failures
    return [Gated(final[k], picked[k], rejected[k], repaired[k], lost[k]) for k in range(len(items))]


def expand_docs(docs: Iterable, ruleset: RuleSet, progress: bool = False, total: int | None = None,
                combine: bool = True) -> list[list[Candidate]]:
    """Candidates for each already parsed S1 (see :func:`expand_texts`)."""
    return [expand_doc(doc, ruleset, combine)
            for doc in tqdm(docs, total=total, desc="expand", unit="sent", disable=not progress)]
