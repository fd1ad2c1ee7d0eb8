"""Normalization actions that drop a sentence or only check it (S0 -> S1), Marelli et al. 2014, section 3.1,
Table 2.

SICK kept only sentences it could bring into its form. These actions edit nothing: each returns, or raises
:class:`~pipeline.errors.Unnormalizable` for a question, a text of several sentences, a sentence in first or
second person, one that is too long, and (after the other rules) one with no predicate or with two
predicates run together.
"""

from __future__ import annotations

__all__ = ["DropLongParams", "DropMultiParams", "DropPronounParams", "DropQuestionParams", "PredicateParams",
           "RepeatedVerbParams", "RunOnParams", "drop_first_second_person", "drop_multiple_sentences",
           "drop_question", "drop_repeated_verb", "drop_run_on", "drop_too_long", "require_predicate"]

from pydantic import BaseModel

from pipeline.common import resources
from pipeline.common.errors import Unnormalizable
from pipeline.corpus.registry import action
from pipeline.corpus.wordforms import lemma_of, third_person

# --------------------------------------------------------------------------------------------------------
# sentences that cannot be normalized


class DropQuestionParams(BaseModel):
    marks: list[str] = ["?"]


@action("drop_question", stages=("normalize",), params=DropQuestionParams)
def drop_question(sent, params: DropQuestionParams, ruleset) -> None:
    """Drop a question: SICK's sentences are declarative (Marelli et al. 2014, section 3.1)."""
    marks = set(params.marks)
    if any(t.text in marks for t in sent.doc):
        raise Unnormalizable("question")


class DropMultiParams(BaseModel):
    terminators: list[str] = [".", "!", "?", ";"]


@action("drop_multiple_sentences", stages=("normalize",), params=DropMultiParams)
def drop_multiple_sentences(sent, params: DropMultiParams, ruleset) -> None:
    """Drop a text of more than one sentence: a terminator followed by more words (section 3.1)."""
    terms = set(params.terminators)
    doc = sent.doc
    for t in doc:
        if t.text in terms and any(u.is_alpha for u in doc[t.i + 1:]):
            raise Unnormalizable("more than one sentence")


class DropPronounParams(BaseModel):
    lexicon: str = "first_second_person"


@action("drop_first_second_person", stages=("normalize",), params=DropPronounParams)
def drop_first_second_person(sent, params: DropPronounParams, ruleset) -> None:
    """Drop a sentence speaking in first or second person ("I am ...", "you can see ..."): SICK's sentences
    describe a scene in third person (section 3.1)."""
    words = ruleset.lexicon_set(params.lexicon)
    for t in sent.doc:
        if t.pos_ == "PRON" and t.lower_ in words:
            raise Unnormalizable(f"first or second person ({t.text})")


class DropLongParams(BaseModel):
    max_words: int = 25


@action("drop_too_long", stages=("normalize",), params=DropLongParams)
def drop_too_long(sent, params: DropLongParams, ruleset) -> None:
    """Drop a sentence of more than ``max_words`` words (SICK's longest S1 sentences have about 25)."""
    n = sum(1 for t in sent.doc if not t.is_punct and not t.is_space)
    if n > params.max_words:
        raise Unnormalizable(f"longer than {params.max_words} words ({n})")


# --------------------------------------------------------------------------------------------------------
# final check


class PredicateParams(BaseModel):
    be_forms: list[str] = ["is", "are"]


@action("require_predicate", stages=("normalize",), params=PredicateParams)
def require_predicate(sent, params: PredicateParams, ruleset) -> None:
    """Drop a sentence that still has no predicate after the other rules (a description the parser could
    not analyse): SICK's S1 sentences are full sentences (Marelli et al. 2014, section 3.1, Table 2)."""
    be = set(params.be_forms)
    for tok in sent.doc:
        text = sent.text(tok.i)
        if not text:
            continue
        if sent.edited(tok.i):
            words = text.lower().split()
            if be.intersection(words) or any(w.endswith("ing") for w in words) or (
                    tok.pos_ in ("VERB", "AUX") and tok.tag_ in ("VBZ", "VBP")):
                return
            # a participle made a stative verb's simple present ("a dog wanting food" -> "a dog wants food")
            if tok.pos_ in ("VERB", "AUX") and len(words) == 1 and words[0] != tok.lower_ \
                    and words[0] in (third_person(lemma_of(tok.lower_, "VERB")), lemma_of(tok.lower_, "VERB")):
                return
        elif tok.pos_ in ("VERB", "AUX") and tok.tag_ in ("VBZ", "VBP") and tok.dep_ not in ("amod", "compound"):
            return
    raise Unnormalizable("no predicate after normalization")


_NOT_HEADS = frozenset({"in", "on", "at", "and", "or", "with", "is", "are", "by", "near", "as", "while"})
"""Words after a garment that start no compound ("a red hat and winter jacket", "a hat in the snow"), though
WordNet has noun senses of some ("in": inch)."""


class RunOnParams(BaseModel):
    be_forms: list[str] = ["is", "are"]
    links: list[str]
    # "a person is a red hat and winter jacket is looking ...": "is" typed for "in" before a garment (WordNet
    # synsets); a person is not a hat
    garment_hypernyms: list[str] = []


@action("drop_run_on", stages=("normalize",), params=RunOnParams)
def drop_run_on(sent, params: RunOnParams, ruleset) -> None:
    """Drop a sentence whose normalized text has two finite *be* forms with no word between them that could
    open a second clause (a conjunction, relative pronoun or subject pronoun from ``links``).

    Such outputs ("A tiger is striping dog is standing…") come from parses the rules could not repair; SICK
    discarded sentences that could not be normalized (Marelli et al. 2014, section 3.1). Reads the current
    text (after the earlier rules), not the parse.
    """
    be, links = set(params.be_forms), set(params.links)
    words = sent.render().lower().replace(",", " , ").split()
    at = [i for i, w in enumerate(words) if w in be]
    for a, b in zip(at, at[1:]):
        if not links.intersection(words[a + 1:b]):
            raise Unnormalizable(f"two predicates without a link: {' '.join(words[a:b + 1])!r}")
    hyps = tuple(params.garment_hypernyms)
    for a in at:
        if not hyps or a == 0 or words[a - 1] in ("there", "this", "that", "it") or a + 2 >= len(words) \
                or words[a + 1] not in ("a", "an"):
            continue
        phrase = words[a + 2:a + 5]
        for k, w in enumerate(phrase):
            if not w.isalpha():
                break
            after = words[a + 3 + k] if a + 3 + k < len(words) else ""
            compound = after.isalpha() and bool(resources.synsets(after, "n")) and after not in _NOT_HEADS \
                and not after.endswith("ing")  # "a man is a dress designer"
            if resources.under(lemma_of(w, "NOUN"), hyps, 1) and not compound:
                raise Unnormalizable(f"'{words[a]}' before a garment ({' '.join(words[a:a + 3 + k])!r}): 'in' mistyped")
            if resources.synsets(w, "n") and not resources.synsets(w, "a"):
                break  # the head noun came and is no garment


class RepeatedVerbParams(BaseModel):
    window: int = 3
    links: list[str] = ["and", "or", ",", "but", "then"]


@action("drop_repeated_verb", stages=("normalize",), params=RepeatedVerbParams)
def drop_repeated_verb(sent, params: RepeatedVerbParams, ruleset) -> None:
    """Drop a caption that writes the same verb form twice within ``window`` words with no conjunction or comma
    between ("a baby wearing who is wearing sunglasses"): a garbled source no rule can repair (Marelli et al.
    2014, section 3.1: sentences that cannot be normalized are discarded)."""
    links = set(params.links)
    doc = sent.doc
    for tok in doc:
        if tok.pos_ != "VERB" or not tok.is_alpha or tok.dep_ == "amod":
            continue
        for j in range(tok.i + 2, min(len(doc), tok.i + params.window + 2)):
            linked = any(doc[k].lower_ in links for k in range(tok.i + 1, j))
            if doc[j].lower_ == tok.lower_ and doc[j].dep_ != "amod" and not linked:
                raise Unnormalizable(f"repeated verb ({tok.text} ... {doc[j].text})")
