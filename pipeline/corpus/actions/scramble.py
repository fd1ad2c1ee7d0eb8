"""S4 actions: word scrambling with the same words, Marelli et al. 2014, section 3.2, Table 3 (S4 rows).

S4 keeps the words of S1 and changes their order so that the meaning changes: the arguments of a verb are
swapped ("A man is chasing a dog" -> "A dog is chasing a man"), or the modifiers of two nouns ("A black dog is
chasing a white cat" -> "A white dog is chasing a black cat"). Coordinated nouns are never swapped: "a man and
a woman" -> "a woman and a man" keeps the meaning.

Word multiset: an S4 candidate has exactly the words of its S1, except that (1) the indefinite article is
re-spelled a/an by rendering and (2) when a swap changes the number of the subject, the auxiliary is/are
(was/were) is changed to agree ("Two dogs are chasing a cat" -> "A cat is chasing two dogs"). That
agreement fix is the only word an S4 action changes; swaps that would need any other change (a present-tense
verb "chases"/"chase", a pronoun's case "he"/"him") are skipped.

Each action yields candidate edit mappings, each made on ``sent.fork()``; they only read the one parse.
"""

from __future__ import annotations

__all__ = ["BE_AGREEMENT", "SwapArgumentsParams", "SwapModifiersParams", "swap_arguments", "swap_modifiers"]

import functools
from typing import Literal

from pydantic import BaseModel, Field

from pipeline.common import resources
from pipeline.corpus.registry import action
from pipeline.corpus.wordforms import SUBJECT_DEPS, children, is_plural_np, span

BE_AGREEMENT = {("is", True): "are", ("are", False): "is", ("was", True): "were", ("were", False): "was"}
_SUBJECT = ("nsubj", "nsubjpass")


def _usable_argument(tok, skip_phrases: set[str]) -> bool:
    """A noun phrase that can move: not a personal pronoun (its case would change), reflexive or reciprocal
    ("each other")."""
    if tok.tag_ in ("PRP", "WP", "WDT", "EX"):
        return False
    if tok.pos_ not in ("NOUN", "PROPN", "PRON", "NUM"):
        return False
    if tok.pos_ == "NOUN" and tok.text.isalpha() and not _is_wordnet_noun(tok.lower_):
        return False
    if any(t.text in (",", ";", "(", ")") for t in tok.subtree):
        return False  # appositions and non-restrictive clauses leave their commas behind
    start, end = _trimmed_span(tok)
    return " ".join(t.lower_ for t in tok.doc[start:end]) not in skip_phrases


def _plural(tok) -> bool:
    """Grammatical number of a noun phrase (:func:`is_plural_np`), except that a noun tagged plural without a
    plural ending ("broccoli", "okra", "fish") counts as a singular mass noun."""
    if tok.tag_ in ("NNS", "NNPS") and tok.lower_ == tok.lemma_.lower() and not tok.lower_.endswith("s") \
            and not any(c.dep_ in ("nummod", "conj") for c in tok.children):
        return False
    return is_plural_np(tok)


def _trimmed_span(tok) -> tuple[int, int]:
    """Subtree span of ``tok`` without coordinating conjunctions or punctuation hanging at its edges
    ("a guitar and" in "is playing a guitar and singing")."""
    start, end = span(tok)
    doc = tok.doc
    while end - 1 > tok.i and doc[end - 1].dep_ in ("cc", "punct"):
        end -= 1
    while start < tok.i and doc[start].dep_ in ("cc", "punct"):
        start += 1
    return start, end


def _prep_objects(head, prepositions: set[str], skip_heads: set[str], agent: bool = False):
    """``(prep, pobj)`` for the prepositions in ``prepositions`` attached to ``head`` (and, with ``agent``,
    the "by" of a passive)."""
    for prep in head.children:
        if prep.i > head.i and (prep.dep_ in ("prep", "dative") and prep.lower_ in prepositions
                                or agent and prep.dep_ == "agent"):
            for pobj in prep.children:
                if pobj.dep_ == "pobj" and pobj.lemma_.lower() not in skip_heads:
                    yield prep, pobj


def _core_span(tok, cut=None) -> tuple[int, int]:
    """Subtree span of ``tok``; with ``cut`` (a right dependent's subtree ending the span), without it."""
    start, end = _trimmed_span(tok)
    if cut is not None:
        c0, c1 = span(cut)
        if c1 >= end and c0 > tok.i:
            return start, c0
    return start, end


def _agree(s, verb, plural: bool, allowed: bool) -> bool:
    """Make ``verb``'s clause, and coordinated verbs sharing its subject ("... and is running"), agree with a
    subject of the other number; False when impossible without changing a word other than is/are (was/were).
    """
    for v in [verb] + [c for c in verb.children
                       if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX") and not _has_subject(c)]:
        auxes = [c for c in v.children if c.dep_ in ("aux", "auxpass") and c.i < v.i]
        be = next((c for c in auxes if c.lower_ in ("is", "are", "was", "were")), None)
        if be is not None:
            if not allowed:
                return False
            new = BE_AGREEMENT.get((be.lower_, plural))
            if new:
                s.replace(be.i, new)
        elif v.lemma_ == "be" and v.lower_ in ("is", "are", "was", "were"):
            if not allowed:
                return False
            new = BE_AGREEMENT.get((v.lower_, plural))
            if new:
                s.replace(v.i, new)
        elif any(c.tag_ == "MD" for c in auxes):
            continue  # "can", "will": no agreement
        elif v is verb and not auxes and v.tag_ == "VBD":
            continue
        elif v is not verb and v.tag_ in ("VBD", "VBG", "VBN", "VB"):
            continue  # shares the first verb's auxiliary
        else:
            return False
    return True


def _has_subject(verb) -> bool:
    return bool(children(verb, *SUBJECT_DEPS))


def _main_verbs(doc):
    """Verbs heading main clauses: the root and its coordinated verbs (not relative or adverbial clauses,
    where the parser errs most)."""
    out = [t for t in doc if t.dep_ == "ROOT" and t.pos_ in ("VERB", "AUX")]
    i = 0
    while i < len(out):
        out.extend(c for c in out[i].children if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX"))
        i += 1
    return out


def _misparsed_end(doc, end: int) -> bool:
    """A noun phrase directly followed by a finite verb ("... bathing suits and water is splashing") is likely
    a clause the parser folded into it."""
    return end < len(doc) and doc[end].tag_ in ("VBZ", "VBP", "VBD", "MD") and doc[end].pos_ in ("AUX", "VERB")


class SwapArgumentsParams(BaseModel):
    roles: tuple[Literal["subject", "object", "pobj"], Literal["subject", "object", "pobj"]]
    prepositions: list[str] = Field(default_factory=list)
    skip_phrases: list[str] = Field(default_factory=lambda: [
        "each other", "one another", "himself", "herself", "itself", "themselves", "yourself", "myself",
        "ourselves"])
    agent: bool = False
    heads_only: bool = False
    skip_pobj_heads: list[str] = Field(default_factory=lambda: [
        "front", "top", "middle", "side", "edge", "bottom", "back", "end", "center", "centre", "corner",
        "inside", "outside", "rest", "way", "lot", "couple", "bunch", "pair", "piece", "order", "place", "half"])
    agreement: bool = True


def _arguments(verb, role: str, params: SwapArgumentsParams):
    """``(token, (start, end))`` candidates for a role of ``verb``."""
    skip = set(params.skip_phrases)
    if role == "subject":
        subjects = [c for c in verb.children if c.dep_ in _SUBJECT]
        if len(subjects) == 1 and subjects[0].i < verb.i and _usable_argument(subjects[0], skip):
            yield subjects[0], _trimmed_span(subjects[0])
    elif role == "object":
        for c in verb.children:
            if c.dep_ == "dobj" and c.i > verb.i and _usable_argument(c, skip):
                yield c, _trimmed_span(c)
    else:
        preps, heads = set(params.prepositions), set(params.skip_pobj_heads)
        owners = [verb] + [c for c in verb.children if c.dep_ == "dobj"]
        for owner in owners:
            for _prep, pobj in _prep_objects(owner, preps, heads, params.agent and owner is verb):
                if _usable_argument(pobj, skip):
                    yield pobj, _trimmed_span(pobj)


def _compound_start(noun) -> int:
    """First index of ``noun`` with the compound nouns right before it ("ear protection")."""
    start = noun.i
    while start > 0 and noun.doc[start - 1].dep_ == "compound" and noun.doc[start - 1].head == noun:
        start -= 1
    return start


@functools.lru_cache(maxsize=65536)
def _is_wordnet_noun(word: str) -> bool:
    """Whether WordNet 3.0 knows ``word`` as a noun (spaCy sometimes tags "indoors" or "uphill" NNS)."""
    return bool(resources.synsets(word, "n"))


_NOUN_MODIFIERS = ("amod", "compound", "prep", "acl", "relcl", "nmod", "poss")


def _heads_swappable(a, b) -> bool:
    """Two nouns whose head words alone can trade places: nouns of the same number with different lemmas, at
    least one carrying a modifier that stays behind ("A black dog ... a white cat")."""
    if a.pos_ != "NOUN" or b.pos_ != "NOUN" or a.lemma_.lower() == b.lemma_.lower():
        return False
    if _plural(a) != _plural(b) or a.tag_ != b.tag_:
        return False
    for t in (a, b):  # a proper noun phrase, and not a partitive "a herd of sheep"
        if not any(c.dep_ in ("det", "nummod", "poss", "amod", "compound") for c in t.children):
            return False
        if any(c.dep_ == "amod" and c.pos_ != "ADJ" for c in t.children):
            return False  # "whipping cream": a verbal modifier belongs with its noun
        if any(c.dep_ == "prep" and c.lower_ == "of" for c in t.children):
            return False
    return any(c.dep_ in _NOUN_MODIFIERS for t in (a, b) for c in t.children)


@action("swap_arguments", stages=("S4",), params=SwapArgumentsParams)
def swap_arguments(sent, params: SwapArgumentsParams, ruleset):
    """Swap two arguments of a verb, whole subtrees; Marelli et al. 2014, Table 3 (S4, "scrambling: subject
    and object swapped").

    ``roles`` names the two arguments: ``subject`` (nsubj/nsubjpass), ``object`` (dobj), ``pobj`` (object of
    one of ``prepositions`` attached to the verb or to its object). "The cat is biting the dog" -> "The dog is
    biting the cat"; "A cat is playing with a dog" -> "A dog is playing with a cat"; "A woman is cutting an
    onion with a knife" -> "A woman is cutting a knife with an onion". When the subject changes number the
    auxiliary is/are is made to agree (the only word change); when that would need another change (simple
    present "chases") the swap is skipped. Spans that overlap or contain the verb are skipped. With
    ``heads_only`` only the two head nouns trade places, their modifiers stay ("A black dog is chasing a white
    cat" -> "A black cat is chasing a white dog"; same number, so no agreement change).
    """
    doc = sent.doc
    r1, r2 = params.roles
    for verb in _main_verbs(doc):
        for a, sa in _arguments(verb, r1, params):
            for b, sb in _arguments(verb, r2, params):
                if a == b:
                    continue
                (a0, a1), (b0, b1) = sa, sb
                if params.heads_only:
                    if not _heads_swappable(a, b):
                        continue
                    (a0, a1), (b0, b1) = (_compound_start(a), a.i + 1), (_compound_start(b), b.i + 1)
                # an object whose own prepositional phrase is the other argument moves without it
                if r1 == "object" and b.head.head == a:
                    a0, a1 = _core_span(a, b.head)
                if r2 == "object" and a.head.head == b:
                    b0, b1 = _core_span(b, a.head)
                (x0, x1, x), (y0, y1, y) = sorted([(a0, a1, a), (b0, b1, b)], key=lambda t: t[0])
                if x1 > y0 or x0 <= verb.i < x1 or y0 <= verb.i < y1:
                    continue
                if any(_misparsed_end(doc, e) and e != verb.i and doc[e].head != verb for e in (x1, y1)):
                    continue
                tx, ty = sent.span_text(x0, x1), sent.span_text(y0, y1)
                if tx.lower() == ty.lower():
                    continue
                s = sent.fork()
                s.set_span(x0, x1, ty)
                s.set_span(y0, y1, tx)
                if "subject" in params.roles:
                    subj, new_subj = (x, y) if x.dep_ in _SUBJECT else (y, x)
                    new_pl = _plural(new_subj)
                    if _plural(subj) != new_pl and not _agree(s, verb, new_pl, params.agreement):
                        continue
                yield s.edits


def _premodifier(mod, head_deps) -> bool:
    """A modifier standing before its noun, separated from it only by other modifiers of the noun, without
    determiners or hyphens in its subtree, its noun being an argument or conjunct (``head_deps``)."""
    head = mod.head
    if head.dep_ not in head_deps:
        return False
    start, end = span(mod)
    if any(t.dep_ in ("det", "predet", "poss", "nummod") or t.text == "-" for t in mod.doc[start:end]):
        return False
    if (start > 0 and mod.doc[start - 1].text == "-") or mod.doc[end].text == "-":
        return False
    if mod.dep_ == "compound" and (end != head.i or end - start != 1):
        return False  # noun modifiers: one word right before its noun ("soccer ball")
    return all(t.head == head and t.dep_ in ("amod", "compound", "nmod", "advmod", "punct", "cc", "conj")
               or t.head.head == head for t in mod.doc[end:head.i])


class SwapModifiersParams(BaseModel):
    deps: list[str] = Field(default_factory=lambda: ["amod"])
    pos: list[str] = Field(default_factory=lambda: ["ADJ"])
    head_pos: list[str] = Field(default_factory=lambda: ["NOUN", "PROPN"])
    exclude: list[str] = Field(default_factory=lambda: [
        "many", "few", "several", "other", "same", "own", "much", "more", "most", "such", "only", "each"])
    class_lexicon: str | None = None
    head_deps: list[str] = Field(default_factory=lambda: [
        "nsubj", "nsubjpass", "dobj", "pobj", "attr", "conj", "appos", "dative", "oprd"])


def _class_index(entries) -> dict[str, frozenset[str]]:
    """``{word: classes}`` from a class lexicon ``{class: [words]}`` (words lower-cased)."""
    index: dict[str, set[str]] = {}
    for name, words in entries.items():
        for w in words:
            index.setdefault(str(w).lower(), set()).add(name)
    return {w: frozenset(names) for w, names in index.items()}


@action("swap_modifiers", stages=("S4",), params=SwapModifiersParams)
def swap_modifiers(sent, params: SwapModifiersParams, ruleset):
    """Swap the modifiers of two different nouns; Marelli et al. 2014, Table 3 (S4, scrambling: modifiers
    swapped).

    "A black dog is chasing a white cat" -> "A white dog is chasing a black cat" (``amod``); with
    ``deps: [compound]`` "A soccer player is kicking a tennis ball" -> "A tennis player is kicking a soccer
    ball". Modifiers move with their own subtree ("very tall"); identical modifiers, quantity adjectives
    (``exclude``) and nested spans are skipped. With ``class_lexicon`` (``{class: [words]}``) only two
    modifiers of the same class swap (colour with colour, size with size).
    """
    doc = sent.doc
    mods = [t for t in doc
            if t.dep_ in params.deps and t.pos_ in params.pos and t.head.pos_ in params.head_pos
            and t.lower_ not in params.exclude and t.i < t.head.i and _premodifier(t, params.head_deps)]
    classes = None
    if params.class_lexicon:
        classes = ruleset.derived(params.class_lexicon, _class_index)
        mods = [m for m in mods if m.lower_ in classes]
    for i, m1 in enumerate(mods):
        for m2 in mods[i + 1:]:
            if m1.head == m2.head or m1.lower_ == m2.lower_:
                continue
            if classes is not None and not classes[m1.lower_] & classes[m2.lower_]:
                continue
            (a0, a1), (b0, b1) = span(m1), span(m2)
            if a1 > b0 or a1 > m1.head.i + 1 or b1 > m2.head.i:
                continue
            ta, tb = sent.span_text(a0, a1), sent.span_text(b0, b1)
            if ta.lower() == tb.lower() or ta.lower() == m2.head.lower_ or tb.lower() == m1.head.lower_:
                continue  # "a bike rider on a dirt bike" -/-> "a dirt rider on a bike bike"
            s = sent.fork()
            s.set_span(a0, a1, tb)
            s.set_span(b0, b1, ta)
            yield s.edits
