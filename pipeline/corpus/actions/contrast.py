"""S3 actions: contrasting expansions, Marelli et al. 2014, section 3.2, Table 3 (S3 rows).

Table 3 lists three ways of turning S1 into a sentence with a contrasting (often contradictory) meaning:

1. inserting or removing a negation ("A man is riding a bike" <-> "A man is not riding a bike",
   "There is no man standing" <-> "There is a man standing");
2. replacing a determiner by its opposite ("A dog is running" -> "No dog is running", "no" -> "every",
   "many" <-> "few") and the "There is no ..." construction ("A dog is walking in the park" ->
   "There is no dog walking in the park");
3. replacing a word by a semantic opposite: WordNet antonyms of adjectives, verbs and adverbs
   ("tall" -> "short") and a lexicon of contrasting pairs (man/woman, sitting/standing, taking off/landing).

Each action yields candidate edit mappings (``action(sent, params, ruleset) -> Iterable[dict[int, str]]``), each
made on ``sent.fork()``. Edits stay local (a few tokens) so that the engine can combine them with S2 edits.
Actions only read the one spaCy parse: no ``nlp()`` call here.
"""

from __future__ import annotations

__all__ = ["ANAPHORS", "DEFAULT_FROZEN", "DEFAULT_NEGATIVES", "DO_FORMS", "DeterminerOppositeParams", "FINITE_TAGS",
           "InsertNegationParams", "LexiconOppositeParams", "QUANTIFIER_NOUNS", "RemoveNegationParams",
           "ThereIsNoParams", "WordnetAntonymParams", "determiner_opposite", "insert_negation", "lexicon_opposite",
           "remove_negation", "there_is_no", "wordnet_antonym"]

import functools
from typing import Any

from pydantic import BaseModel, Field

from pipeline.common import resources
from pipeline.corpus.actions.scramble import ANIMATE_LEXNAMES, animacy
from pipeline.corpus.actions.similar import colour_words, in_colour_stack
from pipeline.corpus.registry import action
from pipeline.corpus.wordforms import (
    NEGATIVE_WORDS,
    SUBJECT_DEPS,
    children,
    described_noun,
    fixed_name_index,
    fixed_name_tokens,
    in_hyphenated,
    inflect_word,
    is_plural_np,
    lemma_of,
    matches_at,
    plural,
    subject_of,
)

FINITE_TAGS = ("VBZ", "VBP", "VBD", "MD")
DO_FORMS = {"VBZ": "does", "VBP": "do", "VBD": "did"}
DEFAULT_NEGATIVES = list(NEGATIVE_WORDS)
_DEFAULT_NEGATIVE_SET = frozenset(DEFAULT_NEGATIVES)
# fixed expressions whose words a word-level rule must not touch (``frozen`` param default)
DEFAULT_FROZEN = ("upside down", "each other", "one another", "right now", "all over", "up and down",
                  "back and forth", "in and out", "at least", "close up",
                  # "a little old lady" is one phrase: not "a little young lady" nor "a big old lady" (r11, seed-1)
                  "little old")


# size adjectives go before other describing adjectives ("a big blond girl"), so none is put after one
_SIZE_WORDS = frozenset({"big", "large", "small", "little", "tall", "short", "huge", "tiny"})


# --------------------------------------------------------------------------------------------- helpers


def _clause_heads(doc):
    """Verbs heading a main clause: the root, and roots of coordinated clauses (``conj`` of the root chain)
    that have their own subject or auxiliary ("... and an old man is standing")."""
    out = []
    for tok in doc:
        if tok.dep_ == "ROOT" and tok.pos_ in ("VERB", "AUX"):
            out.append(tok)
    i = 0
    while i < len(out):
        for c in out[i].children:
            if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX") and (
                children(c, *SUBJECT_DEPS) or children(c, "aux", "auxpass")
            ):
                out.append(c)
        i += 1
    return out


def _own_subject(verb):
    """The one subject of ``verb`` (None when none, or two: a coordination the parser split)."""
    subj = children(verb, *SUBJECT_DEPS)
    return subj[0] if len(subj) == 1 else None


def _finite_aux(verb):
    """The first finite auxiliary of ``verb`` (is, are, can, has...) standing before it, or None."""
    for c in verb.children:
        if c.i < verb.i and c.dep_ in ("aux", "auxpass") and c.tag_ in FINITE_TAGS:
            return c
    return None


def _is_existential(verb) -> bool:
    return any(c.dep_ == "expl" for c in verb.children)


def _existential_attr(verb):
    for c in verb.children:
        if c.dep_ in ("attr", "nsubj", "dobj") and c.pos_ in ("NOUN", "PROPN", "PRON", "NUM"):
            return c
    return None


_CLAUSE_BOUNDARIES = ("conj", "relcl", "advcl", "ccomp", "acl", "parataxis", "csubj")


def _negated(verb, negatives: set[str]) -> bool:
    """Whether the clause of ``verb`` already holds a negative word ("not", "no", "nobody"...) anywhere in it
    outside embedded clauses; robust to the parser attaching "not" or "no" oddly ("is not waterskiing" with
    "waterskiing" as an adjective)."""
    stack = list(verb.children)
    while stack:
        tok = stack.pop()
        if tok.dep_ in _CLAUSE_BOUNDARIES:
            continue
        if tok.lower_ in negatives:
            return True
        stack.extend(tok.children)
    return False


def _number_of(head) -> str:
    return "plural" if is_plural_np(head) else "singular"


def _pick(value: Any, number: str) -> list[str]:
    """Lexicon value: a list (any number) or a mapping ``{singular: [...], plural: [...]}``."""
    if isinstance(value, dict):
        value = value.get(number) or []
    if isinstance(value, str):
        value = [value]
    return list(value)


def _frozen_tokens(doc, phrases) -> set[int]:
    """Indices of tokens inside fixed expressions ("upside down", "each other") that a rule must not touch."""
    out: set[int] = set()
    for i in range(len(doc)):
        m = _match_at(doc, i, phrases)
        if m is not None:
            out.update(range(i, m[1]))
    return out


def _match_at(doc, start: int, keys) -> tuple[str, int] | None:
    """Longest key (a lower-cased phrase) matching the token texts from ``start``: ``(key, end)``."""
    best = None
    first = doc[start].lower_
    for key in keys:
        if not key.startswith(first) or (len(key) > len(first) and key[len(first)] != " "):
            continue  # cheap test before splitting: most keys do not start with this word
        words = key.split()
        end = start + len(words)
        if matches_at(doc, start, words):
            if best is None or end > best[1]:
                best = (key, end)
    return best


def _coordination_words(tok) -> set[str]:
    """Lower-cased texts and lemmas of the words coordinated with ``tok`` (its conjuncts, the conjunct it
    hangs from, and theirs), and of the other modifiers of the same kind on the same head ("brown and white
    dog", "brown white dog"): a replacement already among them would repeat itself ("white and white")."""
    root = _conj_root(tok)
    group = _conjuncts(root)
    if root.dep_ in ("amod", "compound", "nmod"):  # also those of coordinated heads: "a black dog and a white dog"
        group += [c for h in _conjuncts(_conj_root(root.head)) for c in h.children if c.dep_ == root.dep_]
    return {w for t in group if t.i != tok.i for w in (t.lower_, t.lemma_.lower())}


# pronouns that may refer back to a subject: "No dog is running, a person following him" binds "him" to nothing
ANAPHORS = ("he", "him", "his", "himself", "she", "her", "hers", "herself", "it", "its", "itself", "they", "them",
            "their", "theirs", "themselves")
# "a couple of N", "a lot of N": quantifier phrases, whose "a" is no determiner ("no couple of dogs")
QUANTIFIER_NOUNS = ("couple", "lot", "lots", "number", "bit", "few", "handful", "bunch", "dozen", "pair")


def _refers_back(doc, head, anaphors) -> bool:
    """Whether a pronoun after the noun ``head`` (in its phrase or later) may refer back to it, "one" standing
    alone included ("Three people are waiting and one has a dog": "No people are waiting and one has a dog")."""
    return any(t.lower_ in anaphors or (t.lower_ == "one" and t.dep_ in ("nsubj", "nsubjpass", "dobj", "pobj"))
               for t in doc[head.i + 1:])


def _other_refers_back(doc, head) -> bool:
    """Whether "other"/"another" after ``head`` presupposes it: on the same noun ("the other man") or standing
    alone ("while another watches", "the others"); a negated or "no" subject leaves nothing for it to follow."""
    for t in doc[head.i + 1:]:
        if t.lower_ in ("other", "another", "others"):
            if t.head.lemma_ == head.lemma_ or t.dep_ not in ("amod", "det") or t.lower_ == "others":
                return True
            # "No lady is measuring the other woman's ankle": "the other" person follows a first one whatever
            # the word (seed-3 readers); "the other side of the street" is no one; and other people after a person
            # subject are others than that person ("No skateboarder is balancing on a wall and a group of other
            # boys is watching", q34 readers)
            if resources.lexnames(t.head.lemma_.lower(), "n", 1) & ANIMATE_LEXNAMES.keys() and (
                    t.lower_ == "other" and t.i > 0 and doc[t.i - 1].lower_ == "the"
                    or resources.lexnames(head.lemma_.lower(), "n", 1) & ANIMATE_LEXNAMES.keys()):
                return True
    return False


def _named_again_later(doc, verb) -> bool:
    """Whether a later clause joined to ``verb``'s names again, with "the", a thing of ``verb``'s clause ("A woman
    is tossing a cat in the air, and the cat is hanging off a rod"): denying the first clause leaves "the cat"
    pointing at nothing (r13 readers: "No woman is tossing a cat ..., and the cat is hanging")."""
    later = [c for c in verb.children if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX") and c.i > verb.i
             and _own_subject(c) is not None]
    if not later:
        return False
    start = min(c.left_edge.i for c in later)
    first = {t.lemma_.lower() for t in doc[:start] if t.pos_ == "NOUN"}
    return any(t.pos_ == "NOUN" and t.lemma_.lower() in first
               and any(d.dep_ == "det" and d.lower_ == "the" for d in t.children) for c in later for t in c.subtree)


def _quantifier_phrase(head, nouns) -> bool:
    """``head`` is the noun of "a couple of N" (one of ``nouns`` with an "of" phrase)."""
    return head.lower_ in nouns and any(c.dep_ == "prep" and c.lower_ == "of" for c in head.children)


_SCALAR_TAGS = ("JJR", "JJS", "RBR", "RBS")


def _scale_clash(doc, tok, target: str) -> bool:
    """Whether replacing ``tok`` by ``target`` would clash with another word of the sentence: the target is
    already there ("a big dog and a small dog" -> "a big dog and a big dog"), or ``tok`` is a comparative or
    superlative and another one stands in the sentence ("a bigger dog on a smaller dog": flipping one of the
    two gives "a bigger dog on a larger dog")."""
    words = {w for t in doc if t.i != tok.i for w in (t.lower_, t.lemma_.lower())}
    if target.lower() in words:
        return True
    return tok.tag_ in _SCALAR_TAGS and any(t.tag_ in _SCALAR_TAGS and t.i != tok.i for t in doc)


def _repeated_with_other(doc, tok) -> bool:
    """Whether ``tok``'s word comes again on another noun, one of the two linked back by "another"/"other" ("A
    little boy is watching another little boy"): changing either leaves "another" with no first one of its kind."""
    def linked(noun) -> bool:
        return any(c.lower_ in ("another", "other") for c in noun.lefts)

    return any(t.i != tok.i and t.lower_ == tok.lower_ and t.head.i != tok.head.i
               and (linked(t.head) or linked(tok.head)) for t in doc)


def _governor_lemmas(tok) -> set[str]:
    """Lemmas of the words ``tok`` says something about: its syntactic head ("young" in "a young boy" -> boy,
    "into" in "jumping into the air" -> jump), and for a predicative adjective the subject ("The boy is young")."""
    out = {tok.head.lemma_.lower()} if tok.head is not tok else set()
    if tok.dep_ in ("acomp", "attr"):
        out |= {c.lemma_.lower() for c in children(tok.head, *SUBJECT_DEPS)}
    return out


def _conj_root(tok):
    while tok.dep_ == "conj":
        tok = tok.head
    return tok


def _conjuncts(root) -> list:
    """``root`` and every token coordinated under it."""
    group, stack = [], [root]
    while stack:
        t = stack.pop()
        group.append(t)
        stack.extend(c for c in t.children if c.dep_ == "conj")
    return group


# ------------------------------------------------------------------------------------- 1. negation


# adjectives that count a plural: "There are many balls" -/-> "There are no many balls" (q16), "Various members are
# gathering" -/-> "There is no various member" (q13), "There are no various people" (q17)
_PLURAL_ADJECTIVES = frozenset({"various", "several", "numerous", "multiple", "many", "different", "assorted",
                                "countless", "few"})


class InsertNegationParams(BaseModel):
    negation: str = "not"
    do_support: bool = True
    existential_no: str = "no"
    existential_replace: list[str] = Field(
        default_factory=lambda: ["a", "an", "some", "one", "any", "two", "three", "four", "five",
                                 *sorted(_PLURAL_ADJECTIVES)])
    negative_words: list[str] = Field(default_factory=lambda: list(DEFAULT_NEGATIVES))
    # "Some children are not watching fish" does not contradict "Some children are watching fish": a clause
    # whose subject is quantified by one of these is left to determiner-opposite ("No children ...")
    vague_quantifiers: list[str] = Field(default_factory=lambda: [
        "some", "several", "many", "various", "few", "lots", "lot", "most", "plenty"])
    # "Someone is not holding a tiger" does not contradict "Someone is holding a tiger" (it may be someone
    # else): an indefinite pronoun subject is left to nobody-subject / determiner-opposite ("Nobody is ...")
    indefinite_subjects: list[str] = Field(default_factory=lambda: [
        "someone", "somebody", "something", "anyone", "anybody", "anything",
        # "Two dogs are in a fence and one is not barking": the other one may be the one (p1 readers)
        "one",
        # "... people are running and others are not watching": only part of a crowd is denied (q25 readers)
        "others", "another", "some", "many", "most", "several"])
    # verbs that without an object read as their patient ("A person is not frying": the person is fried): a
    # clause with one of these and no direct object is not negated
    object_verbs: list[str] = Field(default_factory=list)
    # "A dog is not knocking a boy into the water twice" may still knock him in once, "The sun is not almost behind
    # the mountains" is no English: a clause counted, repeated or graded by one of these adverbs is not negated, as
    # the negation would deny only the adverb (r13 readers)
    # (q36 readers: "A black dog is not just running down a ramp" says it does more)
    scope_adverbs: list[str] = Field(default_factory=lambda: ["twice", "thrice", "again", "repeatedly", "almost",
                                                              "nearly", "barely", "hardly", "just"])
    # "Three people are not waiting ... and one has a dog": a second clause whose subject picks out one of the
    # first clause's subject points into the denied scene (r11, r13 readers); its own verb is negated instead
    anaphoric_subjects: list[str] = Field(default_factory=lambda: [
        "it", "he", "she", "they", "one", "another", "both", "each", "all", "others"])
    # and a second clause pointing back anywhere ("Three dogs are not standing in the grass and a person is sitting
    # next to them", seed-21 readers): the first clause stays, its own verb may be negated
    anaphoric_words: list[str] = Field(default_factory=lambda: ["them", "him", "another", "others", "it"])


SOME_TO_ANY = {"something": "anything", "someone": "anyone", "somebody": "anybody", "somewhere": "anywhere"}


def _some_to_any(s, verb) -> None:
    """Under a negation, "some" on the verb's direct object or on the object of one of its prepositions becomes
    "any" ("A dog is not chasing some pigeons" -> "... any pigeons"; "No dog is eating some watermelon" -> "...
    any watermelon"; "No panda is resting on some logs" -> "... on any logs"), and an object "something" /
    "someone" becomes "anything" / "anyone" ("is not holding something" -> "anything"): English writes the
    negative-polarity forms there (Quirk et al. 1985, 10.61)."""
    # after a preposition only a plural: "not resting on any logs", but "not wrestling on any wasteland" reads as
    # no place at all (r12 readers); SICK keeps "some" there ("not standing ... near some buckets")
    objs = children(verb, "dobj") + [o for prep in children(verb, "prep") for o in children(prep, "pobj")
                                     if o.tag_ in ("NNS", "NNPS") or o.lower_ in SOME_TO_ANY]
    for obj in objs:  # "No panda is resting on some logs" -> "... on any logs"
        if obj.lower_ in SOME_TO_ANY and not s.edited(obj.i):  # "is not holding something" -> "anything"
            s.replace(obj.i, SOME_TO_ANY[obj.lower_])
        for det in obj.lefts:
            if det.dep_ == "det" and det.lower_ == "some" and not s.edited(det.i):
                s.replace(det.i, "any")


def _negate_shared_aux(s, verb, aux, negation: str, tag: str) -> None:
    """Repeat the finite ``aux`` and ``negation`` before each verb coordinated with ``verb`` that shares it (tagged
    ``tag``, no subject nor auxiliary of its own): "The skier is not descending the hill and wearing a helmet" leaves
    open whether "not" reaches "wearing"; SICK repeats both, "is not wearing ... and is not defending" (SICK_train;
    never "is not V-ing ... and V-ing"), r12 readers."""
    for conj in children(verb, "conj"):
        if conj.pos_ == "VERB" and conj.tag_ == tag and not children(conj, *SUBJECT_DEPS, "aux", "auxpass"):
            start = conj.i  # "and playfully fighting" -> "and is not playfully fighting" (p3 readers)
            while start > 0 and conj.doc[start - 1].dep_ == "advmod" and conj.doc[start - 1].head == conj:
                start -= 1
            s.insert_before(start, f"{aux.lower_} {negation}")
            _some_to_any(s, conj)


@action("insert_negation", stages=("S3",), params=InsertNegationParams)
def insert_negation(sent, params: InsertNegationParams, ruleset):
    """Insert a negation into a main clause; Marelli et al. 2014, Table 3 (S3, "inserting the negation").

    "A man is riding a bike" -> "A man is not riding a bike" (after the finite auxiliary); copula "The man is
    tall" -> "The man is not tall"; existential "There is a dog" -> "There is no dog"; simple tenses with
    do-support "A man dries his hands" -> "A man does not dry his hands". Already negated clauses are skipped,
    and so are clauses whose subject has a vague quantifier (``vague_quantifiers``: "Some children are not
    watching fish" is true alongside S1) or is an indefinite pronoun (``indefinite_subjects``: "Someone is not
    holding a tiger", or a bare "one" of a group: "and one is not barking"),
    and clauses whose verb needs its object (``object_verbs``) but has none. One candidate
    per clause.
    """
    doc = sent.doc
    negatives = set(params.negative_words)
    vague = set(params.vague_quantifiers)
    for verb in _clause_heads(doc):
        if _negated(verb, negatives):
            continue
        subj = _own_subject(verb)
        if subj is not None and (subj.lower_ in vague or any(t.lower_ in vague for t in doc[subj.left_edge.i:subj.i])):
            continue
        if subj is not None and subj.lower_ in params.indefinite_subjects:
            continue  # "Someone is not holding and petting a baby tiger" may be someone else
        if params.object_verbs and lemma_of(verb.text, "VERB") in params.object_verbs \
                and not children(verb, "dobj"):
            continue  # "A person is not frying"
        if any(c.dep_ == "conj" and c.pos_ in ("VERB", "AUX") and _own_subject(c) is None
               and children(c, "aux") for c in verb.children):
            continue  # "A dog is not jumping out of the water and is catching a ball": the second "is" keeps
            # its verb outside the negation, so only half the scene is denied (r10 readers)
        if any(c.dep_ == "conj" and c.pos_ in ("VERB", "AUX") and any(a.lower_ == "then" for a in c.children)
               for c in verb.children):
            continue  # "is opening a drawer and then hopping inside" -/-> "... and is not then hopping inside": a
            # sequence negated step by step reads badly (q28 readers)
        if any(c.dep_ == "cc" and c.lower_ == "or" for c in verb.children) \
                and any(c.dep_ == "conj" and c.pos_ in ("VERB", "AUX") for c in verb.children):
            continue  # "is not playing or is not fighting" still allows one of the two: no contradiction (q10 readers)
        if _named_again_later(doc, verb):
            continue
        if any(c.dep_ == "advcl" and any(a.lower_ == "to" and a.dep_ == "aux" for a in c.children)
               for c in verb.children):
            continue  # "The girl is not sitting on the couch to crochet" may deny only the purpose (q35 readers)
        if any(c.lower_ in params.scope_adverbs for c in verb.children) \
                or any(g.lower_ in params.scope_adverbs for c in verb.children if c.dep_ == "prep" for g in c.children):
            continue  # ("is almost behind": the adverb hangs on the predicate's preposition)
        if any(c.dep_ == "conj" and c.pos_ in ("VERB", "AUX") and (subj := _own_subject(c)) is not None
               and (subj.lower_ in params.anaphoric_subjects
                    or any(t.lower_ in params.anaphoric_words for t in c.subtree)) for c in verb.children):
            continue  # "A person is not riding a horse and it is jumping over an obstacle", "... and a person is
            # sitting next to them": the second clause points into the denied one (r11, seed-1 build; seed-21
            # readers); the second verb is negated instead
        s = sent.fork()
        aux = _finite_aux(verb)
        if aux is not None:
            s.insert_after(aux.i, params.negation)
            _negate_shared_aux(s, verb, aux, params.negation, verb.tag_)
        elif verb.lemma_ == "be" and verb.tag_ in FINITE_TAGS:
            if _is_existential(verb):
                attr = _existential_attr(verb)
                if attr is None or attr.i < verb.i:
                    continue
                first = doc[attr.left_edge.i]
                # any number gives way to "no": "There are seven people" -/-> "There are not seven people" (p8)
                if (first.lower_ in params.existential_replace or first.like_num and first.pos_ == "NUM") \
                        and first.head == attr:
                    s.replace(first.i, params.existential_no)
                elif attr.tag_ in ("NNS", "NNPS") and first.pos_ in ("ADJ", "NOUN"):
                    s.insert_before(first.i, params.existential_no)
                else:
                    s.insert_after(verb.i, params.negation)
            else:
                s.insert_after(verb.i, params.negation)
                _negate_shared_aux(s, verb, verb, params.negation, "VBG")  # "is not on his stomach and riding"
        elif params.do_support and verb.pos_ == "VERB" and verb.tag_ in DO_FORMS:
            lemma = lemma_of(verb.text, "VERB")
            if resources.zipf(lemma) < 1.0:  # misspelt verb: no reliable base form
                continue
            if verb.tag_ == "VBD" and any(t.tag_ == "VBG" and children(t, "aux") for t in doc):
                continue  # "A white bird with its wings lifted up is hovering": the parser made the participle
                # the root; the clause is the "is V-ing" one ("with its wings did not lift up", r11 reader)
            start = verb.i  # "A woman thinly slices" -> "A woman does not thinly slice"
            while start > 0 and doc[start - 1].dep_ == "advmod" and doc[start - 1].head == verb:
                start -= 1
            s.replace(verb.i, lemma)
            s.insert_before(start, f"{DO_FORMS[verb.tag_]} {params.negation}")
            for conj in children(verb, "conj"):  # "does not open a drawer and climb inside"
                if conj.tag_ == verb.tag_ and not children(conj, *SUBJECT_DEPS, "aux", "auxpass"):
                    s.replace(conj.i, lemma_of(conj.text, "VERB"))
        else:
            continue
        _some_to_any(s, verb)
        yield s.edits


class RemoveNegationParams(BaseModel):
    negations: list[str] = Field(default_factory=lambda: ["not", "n't", "never"])
    no_singular: str = "a"
    no_plural: str = ""
    clitic_hosts: dict[str, str] = Field(default_factory=lambda: {"ca": "can", "wo": "will", "sha": "shall"})


@action("remove_negation", stages=("S3",), params=RemoveNegationParams)
def remove_negation(sent, params: RemoveNegationParams, ruleset):
    """Remove a negation; Marelli et al. 2014, Table 3 (S3, "removing the negation").

    "A man is not riding a bike" -> "A man is riding a bike"; "A man does not ride" -> "A man rides"
    (do-support undone, the verb takes the auxiliary's tense); "There is no man standing" -> "There is a man
    standing" ("no" -> ``no_singular`` before a singular noun, ``no_plural`` (deleted) before a plural one).
    """
    doc = sent.doc
    for tok in doc:
        if tok.dep_ == "neg" and tok.lower_ in params.negations:
            s = sent.fork()
            s.delete(tok.i)
            verb = tok.head
            do = next((c for c in verb.children
                       if c.dep_ == "aux" and c.lemma_ == "do" and c.tag_ in DO_FORMS and c.i < tok.i), None)
            if do is not None and verb.tag_ == "VB":
                s.delete(do.i)
                s.replace(verb.i, inflect_word(verb.lemma_.lower(), do.tag_))
            elif tok.lower_ == "n't" and tok.i > 0 and doc[tok.i - 1].lower_ in params.clitic_hosts:
                s.replace(tok.i - 1, params.clitic_hosts[doc[tok.i - 1].lower_])
            yield s.edits
        elif tok.lower_ == "no" and tok.dep_ == "det" and tok.head.pos_ in ("NOUN", "PROPN"):
            if tok.head.lemma_ == "one":  # "no one" is a pronoun: see determiner_opposite
                continue
            s = sent.fork()
            new = params.no_plural if tok.head.tag_ in ("NNS", "NNPS") else params.no_singular
            s.replace(tok.i, new)
            yield s.edits


# ------------------------------------------------------------------------------ 2. determiners


class DeterminerOppositeParams(BaseModel):
    lexicon: str = "determiner_opposites"
    anaphors: list[str] = Field(default_factory=lambda: list(ANAPHORS))
    quantifier_nouns: list[str] = Field(default_factory=lambda: list(QUANTIFIER_NOUNS))
    deps: list[str] = Field(default_factory=lambda: ["nsubj", "nsubjpass"])
    existential: bool = True
    # in "There is/are ...", only these replacements ("There is every man" is not English)
    existential_to: list[str] = Field(default_factory=lambda: ["no"])
    # nouns naming something unique, which no quantifier fits ("The sun is rising" -/-> "No sun is rising")
    unique_nouns: list[str] = Field(default_factory=list)
    # determiners that make a singular noun govern the verb ("No group of people is dancing")
    singular_determiners: list[str] = Field(default_factory=lambda: ["no", "every", "each"])
    singular_be: dict[str, str] = Field(default_factory=lambda: {"are": "is", "were": "was"})
    # SICK's house style of a denied progressive subject is "There is no man playing" (554 in SICK_train's
    # sentences) rather than "No man is playing" (18, mostly passives "No onion is being cut"): with these
    # ``there_is_no`` params, a "no" subject of a progressive active clause that the there-is-no rule recasts is
    # left to it; passives and clauses it refuses keep "No ..." (None: every subject takes "no")
    defer_to_there_is_no: dict[str, Any] | None = None
    negative_word: str = "no"
    # only subjects opening with these are left to there-is-no: SICK keeps "No" on a definite subject as well ("The
    # motorcycle racer is riding a bike" / "No motorcycle racer is riding a bike", SICK_train); None: any opening
    defer_openings: list[str] | None = None


_NP_PREMOD_DEPS = ("det", "predet", "nummod", "amod", "quantmod", "advmod", "nmod")


def _np_args(doc, deps, existential):
    """Subjects (and existential nouns) of main clauses, in sentence order; subordinate clauses are left
    alone ("... what the other man had")."""
    out = []
    for verb in _clause_heads(doc):
        if len(children(verb, "nsubj", "nsubjpass")) > 1:
            continue  # two subjects: a coordination the parser split
        for tok in verb.children:
            if tok.dep_ in deps and tok.pos_ in ("NOUN", "PROPN", "PRON", "NUM") and tok.i < verb.i:
                out.append(tok)
            elif existential and tok.dep_ == "attr" and _is_existential(verb):
                out.append(tok)
    return sorted(set(out), key=lambda t: t.i)


@action("determiner_opposite", stages=("S3",), params=DeterminerOppositeParams)
def determiner_opposite(sent, params: DeterminerOppositeParams, ruleset):
    """Replace the determiner (or indefinite pronoun) opening a subject noun phrase by its opposite;
    Marelli et al. 2014, Table 3 (S3, "replacing a determiner with its opposite").

    Driven by a lexicon ``{phrase: [opposites]}`` or ``{phrase: {singular: [...], plural: [...]}}``:
    "A dog is running" -> "No dog is running", "No man is running" -> "Every man is running",
    "Many people" -> "Few people", "Someone is drawing" -> "Nobody is drawing". The longest phrase at the
    left edge of the noun phrase wins; skipped when another determiner follows ("All the dogs"), when the noun
    phrase is coordinated or the clause negated, or its noun is one of ``unique_nouns`` (the sun); in an
    existential only ``existential_to`` replacements.
    """
    table = ruleset.lexicon(params.lexicon)
    doc = sent.doc
    defer = ThereIsNoParams(**params.defer_to_there_is_no) if params.defer_to_there_is_no is not None else None
    for head in _np_args(doc, params.deps, params.existential):
        if any(c.dep_ == "conj" for c in head.children) or head.dep_ == "conj":
            continue
        if head.left_edge.i > 0 and doc[head.left_edge.i - 1].dep_ == "cc":
            continue  # second member of a coordination the parser split
        if any(c.dep_ == "neg" for c in head.head.children):
            continue  # "A man isn't riding" -/-> "No man isn't riding"
        if head.lower_ in params.unique_nouns:
            continue  # "No sun is rising behind trees"
        if _quantifier_phrase(head, params.quantifier_nouns) or _refers_back(doc, head, params.anaphors):
            continue  # "No couple of people"; "No dog is running, a person following him"
        if _other_refers_back(doc, head):
            continue  # "No man is breaking the block that is on the other man": "other" needs the first
        if any(c.dep_ == "amod" and (c.tag_ in ("JJR", "JJS") or c.lower_ in ("first", "second", "last", "same"))
               for c in head.children):
            continue  # "The larger dog is barking at the smaller dog": one of a pair, so "No larger dog" reads
            # wrong (q19 readers)
        if any(c.dep_ == "det" and c.lower_ == "the" for c in head.children) \
                and any(t.lower_ == "the" for t in head.subtree if t.i > head.i):
            continue  # "the snowboarder in the blue pants" is one known snowboarder: "No snowboarder in the blue
            # pants" reads wrong (seed-3 readers)
        if head.dep_ in ("nsubj", "nsubjpass") and _named_again_later(doc, head.head):
            continue
        existential = head.dep_ == "attr"
        start = head.left_edge.i
        m = _match_at(doc, start, table)
        if m is None:
            continue
        key, end = m
        matched = doc[start:end]
        if not all(t == head or (t.head == head and t.dep_ in _NP_PREMOD_DEPS) for t in matched):
            continue
        if head in matched and head.tag_ in ("DT", "PDT", "CD", "JJ"):
            continue  # a determiner standing alone ("Some is grating onion"): no noun would be left
        if end <= head.i and doc[end].dep_ in ("det", "predet", "poss", "nummod") and doc[end].head == head:
            continue  # "All the dogs"; "The two large dogs" -/-> "No two large dogs"
        if any(t.is_punct for t in doc[start:head.i]):
            continue  # "A wet, blond dog" -/-> "No wet, blond dog" (the parse then takes "wet" for the noun)
        if head.i + 1 < len(doc) and doc[head.i + 1].text == ",":
            continue  # "No cat, perched on a table, is looking out" (q37 readers): a set-off phrase describes one
        if any(t.dep_ == "advmod" and t.i < head.i for t in head.subtree):
            continue  # "No mostly white dogs are in the snow" (q37 readers)
        verb = head.head
        # "A group of people are dancing" (notional agreement) -> "No group of people is dancing": after "no" or
        # "every" the singular noun governs the verb
        plural_be = next((t for t in (verb, *verb.children) if t.lower_ in params.singular_be
                          and (t is verb or t.dep_ in ("aux", "auxpass")) and t.i > head.i), None) \
            if head.tag_ == "NN" and not existential else None
        deferred = defer is not None and head.dep_ == "nsubj" and verb.tag_ == "VBG" \
            and (params.defer_openings is None or key in params.defer_openings) \
            and next(_there_is_no_edits(sent, verb, defer), None) is not None
        for new in _pick(table[key], _number_of(head)):
            if new.lower() == key or (existential and new.lower() not in params.existential_to):
                continue
            if deferred and new.lower() == params.negative_word:
                continue  # "No person is sky surfing" -> there-is-no's "There is no person sky surfing"
            s = sent.fork()
            s.set_span(start, end, new)
            if plural_be is not None and new.lower() in params.singular_determiners:
                s.replace(plural_be.i, params.singular_be[plural_be.lower_])
            if new.lower() in ("no", "nobody", "no one", "nothing") and head.dep_ in ("nsubj", "nsubjpass"):
                _some_to_any(s, head.head)
            yield s.edits


class ThereIsNoParams(BaseModel):
    negative: str = "no"
    # the construction reads well on short, simple clauses only: longer ones stack participles
    # ("There is no black dog with the pink tongue sticking out running on the beach ...")
    max_words: int = Field(14, ge=3)
    anaphors: list[str] = Field(default_factory=lambda: list(ANAPHORS))
    quantifier_nouns: list[str] = Field(default_factory=lambda: list(QUANTIFIER_NOUNS))
    singular_variant: bool = True
    # words that need more than one of the subject: no singular variant with them ("Six hockey players of the same
    # team are skating" -/-> "There is no hockey player of the same team skating", r12 seed-1 build)
    # (words, or phrases of several words: "running side by side", q28 readers)
    plural_words: list[str] = Field(default_factory=lambda: ["same", "together", "each", "both", "other", "others",
                                                             "side by side"])
    # verbs that, without an object, need two doers: no singular variant ("Two dogs are fighting in snow" -/->
    # "There is no dog fighting in snow", q6 readers)
    plural_verbs: list[str] = Field(default_factory=lambda: [
        "fight", "wrestle", "kiss", "hug", "embrace", "cuddle", "spar", "argue", "tussle", "snuggle"])
    replace: list[str] = Field(default_factory=lambda: [
        "a", "an", "the", "some", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "several", "many", "few", "a few"])
    pronouns: dict[str, str] = Field(default_factory=lambda: {
        "someone": "no one", "somebody": "nobody", "something": "nothing", "a person": "no one"})
    # gerunds of notices ("No parking"): ending the sentence right after the subject they read as a ban on a
    # compound noun ("There is no vehicle parking", r13 readers)
    notice_gerunds: list[str] = Field(default_factory=lambda: ["parking", "loitering", "trespassing"])
    # things there is only one of: "There is no sun rising behind trees" denies the sun (q34 readers)
    unique_nouns: list[str] = Field(default_factory=list)


def _counted_with(subj) -> bool:
    """Whether a plural count noun inside the subject's phrase goes with its number: "five men in blue
    uniforms" has one uniform each, so "There is no man in blue uniforms" is wrong (p1 readers of the fourth
    part). A plural whose singular is the rarer word ("pants", "jeans", "sunglasses") is no count of one."""
    for t in subj.subtree:
        if t.i == subj.i or t.tag_ != "NNS":
            continue
        single = lemma_of(t.lower_, "NOUN")
        if single != t.lower_ and resources.zipf(single) >= resources.zipf(t.lower_):
            return True
    return False


@action("there_is_no", stages=("S3",), params=ThereIsNoParams)
def there_is_no(sent, params: ThereIsNoParams, ruleset):
    """Existential negation "There is no ..."; Marelli et al. 2014, Table 3 (S3, determiner "no" and the
    "There is no" construction).

    "A dog is walking in the park" -> "There is no dog walking in the park"; "Two dogs are playing" ->
    "There are no dogs playing"; "Someone is drawing" -> "There is no one drawing". Needs a progressive clause
    whose subject stands right before its auxiliary is/are; the subject's determiner or numeral is replaced.
    Only a short, simple clause (at most ``max_words`` words): no clause or participle inside the subject
    ("no man wearing a cap holding a sign"), no comma in it, and no coordinated verb with its own auxiliary or
    tense ("There is no kid swimming and is holding a toy").
    With ``singular_variant`` a plural subject also gives the singular form SICK mostly used ("There is no dog
    playing": 510 "There is no" against 19 "There are no" in SICK's sentences).
    """
    for verb in _clause_heads(sent.doc):
        yield from _there_is_no_edits(sent, verb, params)


def _there_is_no_edits(sent, verb, params: ThereIsNoParams):
    """The "There is no ..." recasts of the clause headed by ``verb`` (none when the clause does not fit, see
    :func:`there_is_no`)."""
    doc = sent.doc
    subj = _own_subject(verb)
    aux = _finite_aux(verb)
    if subj is None or aux is None or subj.dep_ == "expl" or aux.lower_ not in ("is", "are"):
        return
    if verb.tag_ != "VBG" and not (verb.tag_ == "VBN" and any(c.lower_ == "being" for c in verb.children)):
        return
    if subj.right_edge.i + 1 != aux.i or _negated(verb, _DEFAULT_NEGATIVE_SET):
        return
    if verb.lower_ in params.notice_gerunds and verb.i == aux.i + 1 and not any(c.i > verb.i for c in verb.children
                                                                              if not c.is_punct):
        return
    if any(c.dep_ == "conj" for c in subj.children) or subj.lower_ in params.unique_nouns:
        return
    if sum(not t.is_punct for t in doc) > params.max_words:
        return
    if any(t.dep_ in ("acl", "relcl") or t.is_punct or t.lower_ in ("including", "like") for t in subj.subtree):
        return  # "There is no man wearing a cap holding a sign"; "There are no people including a child and a
        # clown walking" (q10 readers)
    if any(c.dep_ == "conj" and (c.tag_ in FINITE_TAGS or children(c, "aux", "auxpass"))
           for c in verb.children):
        return  # "There is no kid swimming and is holding a toy"
    if _quantifier_phrase(subj, params.quantifier_nouns) or _refers_back(doc, subj, params.anaphors) \
            or _other_refers_back(doc, subj) or _named_again_later(doc, verb):
        return  # "There is no couple of people"; "There is no dog running, a man following him"
    start = subj.left_edge.i
    there = f"there {'are' if is_plural_np(subj) else 'is'}"  # "A group of people are" -> "There is no group"
    s = sent.fork()
    pron = _match_at(doc, start, params.pronouns)
    if pron is not None and pron[1] == subj.i + 1:
        s.set_span(start, pron[1], f"{there} {params.pronouns[pron[0]]}")
    elif subj.pos_ in ("NOUN", "PROPN") and subj.tag_ not in ("NNP",):
        m = _match_at(doc, start, params.replace)
        if m is not None:
            end = m[1]
            while end < subj.i and doc[end].dep_ == "nummod" and doc[end].head == subj:
                end += 1  # "the two ladies" -> "no ladies", not "no two lady" (seed-3 readers)
            if not all(t.head == subj for t in doc[start:end]):
                return
            s.set_span(start, end, f"{there} {params.negative}")
        elif doc[start].lower_ in _PLURAL_ADJECTIVES and doc[start].head == subj:
            s.set_span(start, start + 1, f"{there} {params.negative}")  # "Various people are eating" -> "There are
            # no people eating", not "no various people" (q17 readers)
        elif doc[start].pos_ in ("ADJ", "NOUN") and subj.tag_ == "NNS":
            s.insert_before(start, f"{there} {params.negative}")
        else:
            return
    else:
        return
    s.delete(aux.i)
    # "some" and "something" stay: SICK writes "There is no man eating some food", "There is no woman
    # frying something" (SICK_train), unlike after "not" (measure_sick_recall)
    yield s.edits
    if params.singular_variant and subj.tag_ == "NNS" and pron is None \
            and not any(t.lower_ in params.plural_words for t in doc) \
            and not any(" " in w and f" {w} " in f" {doc.text.lower()} " for w in params.plural_words) \
            and not _counted_with(subj) \
            and not any(c.lower_ in _PLURAL_ADJECTIVES or c.dep_ in ("compound", "amod") and c.tag_ == "NNS"
                        and c.lower_ in ("women", "men", "children", "people") for c in subj.children) \
            and not (subj.head.lemma_.lower() in params.plural_verbs and not children(subj.head, "dobj")):
        single = lemma_of(subj.text, "NOUN")  # SICK's usual form: "Two dogs are playing" ->
        if single != subj.lower_:             # "There is no dog playing"
            t = s.fork()
            if start == subj.i:
                t.replace(start, f"there is {params.negative} {single}")
            else:
                t.replace(start, t.text(start).replace("there are", "there is", 1))
                t.replace(subj.i, single)
            yield t.edits


# ---------------------------------------------------------------------------- 3. semantic opposites


_WN_POS = {"ADJ": "a", "VERB": "v", "ADV": "r"}
_TAG_PREFIX = {"ADJ": "JJ", "VERB": "VB", "ADV": "RB"}


@functools.lru_cache(maxsize=65536)
def _wordnet_antonyms(lemma: str, wn_pos: str, max_senses: int, min_zipf: float, indirect: bool,
                      multiword: bool, indirect_min_zipf: float = 0.0,
                      scales: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Antonyms of ``lemma`` among its first ``max_senses`` WordNet 3.0 synsets of ``wn_pos`` (direct
    antonymy of the lemma; with ``indirect`` and no direct antonym, an adjective whose first sense is a
    satellite takes the antonyms of that sense's head synset when they are common, Zipf >=
    ``indirect_min_zipf``: "huge" ~ large -> "small", "striped" ~ patterned -> "plain", but not "sunny" ~
    cheerful -> "depressing" (3.8), "gymnastic" ~ active -> "inactive" (3.6), "third" ~ ordinal -> "cardinal"),
    kept when their Zipf frequency reaches ``min_zipf``. With ``scales`` (WordNet 3.0 attribute nouns: "size",
    "age"), an adjective whose first sense is on such a scale keeps the senses that are, a sense being on it when
    it, or the head of its cluster, is a value of one of them (:func:`_on_scale`): "large" (size) -> "small",
    "wet" (wetness) -> "dry", but not "safe" -> "dangerous", "active" -> "inactive", "natural" -> "artificial",
    which name no scale one can see (readers of issue 11: 22 of 96 antonym-wordnet S3s were bad, nearly all such)."""
    synsets = resources.synsets(lemma, wn_pos)[:max_senses]
    if scales:  # the first sense says what the word means: "mountainous" (rugged) -/-> "small" by its second
        synsets = [ss for ss in synsets if _on_scale(ss, scales)] if synsets and _on_scale(synsets[0], scales) else []
    cands: list[str] = []
    for ss in synsets:
        for lem in ss.lemmas():
            if lem.name().lower() == lemma:
                cands.extend(a.name() for a in lem.antonyms())
    if indirect and not cands and synsets and synsets[0].pos() == "s":
        for head in synsets[0].similar_tos()[:1]:  # "huge" ~ large.a.01 -> "small"
            for lem in head.lemmas()[:1]:
                cands.extend(a.name() for a in lem.antonyms() if resources.zipf(a.name()) >= indirect_min_zipf)
    found: list[str] = []
    for c in cands:
        word = c.replace("_", " ").lower()
        if word == lemma or word in found or (" " in word and not multiword):
            continue
        if min(resources.zipf(w) for w in word.split()) < min_zipf:
            continue
        found.append(word)
    return tuple(found)


def _on_scale(ss, scales: tuple[str, ...]) -> bool:
    """Whether the adjective synset ``ss`` (a head, or a satellite through its head) is a value of one of the
    WordNet attributes ``scales`` (``size``, ``age``...); WordNet 3.0's attribute relation."""
    heads = [ss] if ss.pos() == "a" else ss.similar_tos()[:1]
    return any(a.name().split(".")[0] in scales for h in heads for a in h.attributes())


class WordnetAntonymParams(BaseModel):
    pos: list[str] = Field(default_factory=lambda: ["ADJ", "VERB", "ADV"])
    max_senses: int = 2
    min_zipf: float = 3.3
    indirect: bool = True
    # an indirect antonym only when it is this common (r8 of the third part:
    # "on a depressing day" for "sunny", "an inactive bridge" for "gymnastic")
    indirect_min_zipf: float = 0.0
    # WordNet attributes an adjective must be a value of (empty: any adjective); see _wordnet_antonyms
    scales: list[str] = Field(default_factory=list)
    # adjectives taken off any scale: their opposite is plain to see ("open" -> "closed", "striped" -> "plain")
    scale_free: list[str] = Field(default_factory=list)
    multiword: bool = False
    skip_lemmas: list[str] = Field(default_factory=lambda: ["be", "have", "do", "get", "other"])
    exclude: dict[str, list[str]] = Field(default_factory=dict)
    # antonyms never written, whatever the word ("same" needs "the": "various people" -/-> "same people")
    never: list[str] = Field(default_factory=list)
    # {lemma: [head lemmas]}: not on these heads ("a young boy" -/-> "an old boy": the noun itself says young)
    unless_head: dict[str, list[str]] = Field(default_factory=dict)
    # {lemma: [words]}: not in a sentence holding one of these words ("A male surfer is on his stomach" -/->
    # "A female surfer is on his stomach": the pronouns would have to follow)
    unless_sentence_has: dict[str, list[str]] = Field(default_factory=dict)
    frozen: list[str] = Field(default_factory=lambda: list(DEFAULT_FROZEN))
    # fixed names whose words are never replaced ("little league" -/-> "big league", "fast food" -/-> "slow food")
    fixed_lexicon: str | None = None
    # {lemma: [noun lemmas]}: not when the word governs such an object, directly or through one of its
    # prepositions ("lying on his back" -/-> "standing on his back")
    unless_object: dict[str, list[str]] = Field(default_factory=dict)
    # {lemma: [WordNet lexicographer files]}: only on a noun whose first sense is filed there ("an old man" ->
    # "a young man", but "an old tire" -/-> "a young tire")
    head_lexnames: dict[str, list[str]] = Field(default_factory=dict)
    # antonyms that are predicative only: not written before a noun ("a dead mouse" -/-> "an alive mouse")
    predicative_only: list[str] = Field(default_factory=list)
    # {antonym: adjective}: a participle naming a state (not a passive) takes the adjective ("with his eyes
    # closed" -> "with his eyes open", not "opened")
    state_adjectives: dict[str, str] = Field(default_factory=dict)
    # antonyms that are attributive only: not written after a verb ("The fish is dead" -/-> "The fish is live")
    attributive_only: list[str] = Field(default_factory=list)
    # words of one scale step: an antonym is not written when another word of its group is in the sentence ("the
    # big dog is on a small dog" -/-> "the big dog is on a large dog")
    same_scale: list[list[str]] = Field(default_factory=list)
    # {antonym: [WordNet lexicographer files]}: the antonym is not written on a noun filed there ("a small boy"
    # -/-> "a large boy": "large" on a person says fat; the opposites lexicon writes "big")
    antonym_not_on: dict[str, list[str]] = Field(default_factory=dict)
    # colour words (see :func:`~pipeline.corpus.actions.similar.colour_words`): a colour or shade inside a stacked
    # colour or a colour list is not replaced ("a brown and white dog" -/-> "a brown and black dog", "a dark brown
    # dog" -/-> "a bright brown dog": one coat, half changed, is no clear contrast); None: no such test
    colour_lexicon: str | None = None
    shade_words: list[str] = Field(default_factory=list)


def _colour_set(params, ruleset) -> frozenset[str]:
    """The colour and shade words of ``params.colour_lexicon`` and ``params.shade_words`` (empty without a
    lexicon)."""
    if not params.colour_lexicon:
        return frozenset()
    return ruleset.derived(params.colour_lexicon, colour_words) | frozenset(params.shade_words)


def _in_colour_list(doc, tok, colours: frozenset[str]) -> bool:
    """Whether ``tok`` is a colour or shade word next to another one ("brown and white", "dark brown",
    "black/white"): see :func:`~pipeline.corpus.actions.similar.in_colour_stack`."""
    return bool(colours) and tok.lower_ in colours and in_colour_stack(doc, tok.i, tok.i + 1, colours)


def _state_participle(tok) -> bool:
    """Whether the participle ``tok`` names a state rather than an action: right after the noun of a "with"
    phrase ("with his eyes closed", which the parser often reads as a past tense) or right after is/are with no
    "by" agent ("The door is closed")."""
    if tok.tag_ not in ("VBN", "VBD") or tok.i == 0:
        return False
    prev = tok.doc[tok.i - 1]
    if prev.dep_ == "pobj" and prev.head.lower_ == "with":
        return True
    return tok.tag_ == "VBN" and prev.lower_ in ("is", "are") and not children(tok, "agent")


def _governed_objects(tok) -> set[str]:
    """Lemmas of the objects ``tok`` governs: direct objects and objects of its prepositions."""
    objs = children(tok, "dobj", "pobj") + [o for p in children(tok, "prep") for o in children(p, "pobj")]
    return {o.lemma_.lower() for o in objs}


def _same_scale(doc, tok, target: str, groups) -> bool:
    """Whether another word of the sentence than ``tok`` shares a scale group with ``target`` (``groups``: lists of
    lemmas of one scale step, "big"/"large"): writing the target would leave the two sides alike."""
    others = {t.lemma_.lower() for t in doc if t.i != tok.i}
    return any(target in group and others & set(group) for group in groups)


def _head_in_files(tok, lexnames, ruleset) -> bool:
    """Whether the noun ``tok`` says something about (:func:`described_noun`) has its first WordNet sense in one of
    the lexicographer files ``lexnames`` ("noun.person", "noun.animal"). People and animals are told by
    :func:`~pipeline.corpus.actions.scramble.animacy` with the person/animate lexicons, which know what WordNet
    files elsewhere ("people" is a group, "biker" is missing): SICK writes "Several young people" / "Several old
    people" (SICK_train)."""
    return _noun_in_files(described_noun(tok), lexnames, ruleset)


def _noun_in_files(noun, lexnames, ruleset) -> bool:
    """Whether the noun token ``noun`` (None: no) has its first WordNet sense in one of ``lexnames``, or is a
    person or animal by the person/animate lexicons when those files are asked for; see :func:`_head_in_files`."""
    if noun is None or noun.pos_ not in ("NOUN", "PROPN", "PRON"):
        return False
    if noun.pos_ == "PRON":  # "Someone is sitting": a person by the animate lexicon, never a thing
        return "noun.person" in lexnames and noun.lower_ in ruleset.lexicon_set("animate_nouns")
    while noun.dep_ == "compound" and noun.head.i != noun.i:  # "young dirt bikers": the parse hangs it on "dirt"
        noun = noun.head
    if resources.lexnames(noun.lemma_.lower(), "n", 1) & set(lexnames):
        return True
    kinds = {ANIMATE_LEXNAMES[x] for x in lexnames if x in ANIMATE_LEXNAMES}
    return bool(kinds) and animacy(
        noun, ruleset.lexicon_set("person_nouns") | ruleset.lexicon_set("animate_nouns")) in kinds


@action("wordnet_antonym", stages=("S3",), params=WordnetAntonymParams)
def wordnet_antonym(sent, params: WordnetAntonymParams, ruleset):
    """Replace an adjective, verb or adverb by a WordNet 3.0 antonym inflected like the original;
    Marelli et al. 2014, Table 3 (S3, "replacing words with semantic opposites").

    "A tall man is walking" -> "A short man is walking", "A man is opening a door" -> "A man is closing a door".
    Only common antonyms (Zipf >= ``min_zipf``) of the first senses; verbs with a particle ("taking off") are
    left to the opposites lexicon; ``exclude`` lists ``{lemma: [antonyms]}`` pairs that read badly, and
    ``unless_head`` ``{lemma: [head lemmas]}`` the heads on which the lemma is not replaced (see
    :func:`_governor_lemmas`).
    """
    doc = sent.doc
    frozen = _frozen_tokens(doc, params.frozen)
    if params.fixed_lexicon:
        frozen |= fixed_name_tokens(doc, ruleset.derived(params.fixed_lexicon, fixed_name_index))
    colours = _colour_set(params, ruleset)
    for tok in doc:
        if tok.pos_ not in params.pos or tok.dep_ in ("aux", "auxpass", "neg", "prt") or tok.i in frozen:
            continue
        if _in_colour_list(doc, tok, colours):
            continue  # "a brown and white dog" -/-> "a brown and black dog"
        if tok.pos_ == "ADJ" and _repeated_with_other(doc, tok):
            continue  # "A little boy is watching another little boy" -/-> "A big boy ... another little boy"
        if not tok.tag_.startswith(_TAG_PREFIX[tok.pos_]):
            continue
        if in_hyphenated(tok):  # "half-pipe"
            continue
        if tok.pos_ == "ADJ" and any(c.dep_ == "prep" and c.lower_ == "of" for c in tok.children):
            continue  # "a ball pit full of balls" -/-> "a ball pit empty of balls": the "of" phrase belongs to one
            # side only (r12 readers)
        if tok.pos_ == "ADJ" and tok.lower_.endswith("ing") and tok.i > 0 and doc[tok.i - 1].lemma_ == "be":
            continue  # "are sweeping water": a progressive verb mis-tagged as an adjective
        lemma = tok.lemma_.lower()
        if lemma in params.skip_lemmas or not lemma.isalpha():
            continue
        if tok.pos_ == "ADJ" and tok.i > 0 and doc[tok.i - 1].tag_ == "NN" and doc[tok.i - 1].head == tok.head \
                and doc[tok.i - 1].dep_ in ("amod", "nmod", "compound", "npadvmod"):
            continue  # "a chalk white path", "jet black hair": the noun grades the colour ("a chalk black path", r13)
        if tok.pos_ == "VERB" and children(tok, "prt"):
            continue
        if params.unless_head.get(lemma) and _governor_lemmas(tok) & set(params.unless_head[lemma]):
            continue  # "a young boy" -/-> "an old boy"
        if params.unless_sentence_has.get(lemma) and {t.lower_ for t in doc} & set(params.unless_sentence_has[lemma]):
            continue  # "a male surfer ... his stomach" -/-> "a female surfer ... his stomach"
        if params.unless_object.get(lemma) and _governed_objects(tok) & set(params.unless_object[lemma]):
            continue  # "lying on his back" -/-> "standing on his back"
        if params.head_lexnames.get(lemma) and not _head_in_files(tok, params.head_lexnames[lemma], ruleset):
            continue  # "an old tire" -/-> "a young tire"
        scales = tuple(params.scales) if tok.pos_ == "ADJ" and lemma not in params.scale_free else ()
        for ant in _wordnet_antonyms(lemma, _WN_POS[tok.pos_], params.max_senses, params.min_zipf,
                                     params.indirect, params.multiword, params.indirect_min_zipf, scales):
            if ant in params.exclude.get(lemma, ()) or ant in params.never or ant in _coordination_words(tok):
                continue  # "brown and white" -/-> "white and white"
            if _scale_clash(doc, tok, ant):
                continue  # "a bigger dog on a smaller dog" -/-> "a bigger dog on a larger dog"
            if _same_scale(doc, tok, ant, params.same_scale):
                continue  # "The big dog is on a small dog" -/-> "The big dog is on a large dog"
            if ant in params.predicative_only and tok.dep_ in ("amod", "compound"):
                continue  # "a dead mouse" -/-> "an alive mouse"
            if ant in params.attributive_only and tok.dep_ not in ("amod", "compound"):
                continue  # "The fish is dead" -/-> "The fish is live"
            if params.antonym_not_on.get(ant) and _head_in_files(tok, params.antonym_not_on[ant], ruleset):
                continue  # "a small boy" -/-> "a large boy"
            if ant in _SIZE_WORDS and tok.i > 0 and tok.doc[tok.i - 1].pos_ == "ADJ" \
                    and tok.doc[tok.i - 1].lower_ not in _SIZE_WORDS:
                continue  # "A blond little girl" -/-> "A blond big girl": size goes before colour; only "little
                # girl" is one unit (r11, seed-1 build)
            if ant in params.state_adjectives and _state_participle(tok):
                word = params.state_adjectives[ant]  # "with his eyes closed" -> "with his eyes open"
            elif tok.tag_ in ("VBG", "VBZ", "VBD", "VBN", "VBP", "JJR", "JJS", "RBR", "RBS"):
                word = inflect_word(ant, tok.tag_)
            else:
                word = ant
            if word.lower() == tok.lower_:
                continue
            s = sent.fork()
            s.replace(tok.i, word)
            yield s.edits


class LexiconOppositeParams(BaseModel):
    lexicon: str = "opposites"
    pos_groups: dict[str, list[str]] = Field(default_factory=lambda: {
        "NOUN": ["NOUN"], "VERB": ["VERB"], "ADJ": ["ADJ"], "ADV": ["ADV", "ADP", "PART", "SCONJ"]})
    frozen: list[str] = Field(default_factory=lambda: list(DEFAULT_FROZEN))
    # fixed names whose words are never replaced ("little league" -/-> "big league", "fast food" -/-> "slow food")
    fixed_lexicon: str | None = None
    # words of one scale step, see WordnetAntonymParams.same_scale
    same_scale: list[list[str]] = Field(default_factory=list)
    # gendered pronouns by position: subject, object, possessive, reflexive
    pronouns: dict[str, list[str]] = Field(default_factory=lambda: {
        "m": ["he", "him", "his", "himself"], "f": ["she", "her", "her", "herself"]})
    # colour words, see WordnetAntonymParams.colour_lexicon: no opposite inside a colour list ("a black and white
    # dog" -/-> "a white and white dog" is refused anyway, "a brown and white dog" -/-> "a brown and black dog")
    colour_lexicon: str | None = None
    shade_words: list[str] = Field(default_factory=list)
    # see WordnetAntonymParams.state_adjectives
    state_adjectives: dict[str, str] = Field(default_factory=dict)


def _compile_opposites(entries) -> dict[str, dict[str, list[tuple[tuple[str, ...], str, dict]]]]:
    """``{group: {first source word: [(source words, target, conditions)]}}`` from the lexicon: each item is a
    pair ``[a, b]``
    (both directions), or a mapping with ``pair: [a, b]`` or ``from: a, to: [b, ...]`` plus conditions
    (``transitive: true/false``; ``unless_object: [lemmas]``, not when the matched words govern such an object;
    ``only_object: [lemmas]``, only when they do;
    ``unless_head: [lemmas]``, not when the first matched word depends on such a word, see :func:`_governor_lemmas`;
    ``unless_after: [words]``, not right after one of these words; ``unless_before: [words]``, not right before
    one of them; ``unless_modifier: [words]``, not when the matched word has such an adjective;
    ``unless_sentence_has: [words]``, not in a sentence holding one of these words or lemmas;
    ``unless_child_deps: [deps]``, not when a matched word has a dependent of such a relation;
    ``head_lexnames: [files]``, only on a noun whose first WordNet sense is filed there, see :func:`described_noun`;
    ``unless_head_lexnames: [files]``, not on such a noun; ``subject_lexnames: [files]``, only when the matched
    verb's subject is such a noun (:func:`~pipeline.corpus.wordforms.subject_of`);
    ``only_head: [lemmas]``, only when the first matched word depends on such a word;
    ``unless_prep_object: [lemmas]``, not when a preposition of the matched word has such an object ("sitting in
    a swing" -/-> "standing in a swing", "sitting on their motorcycles" -/-> "standing on their motorcycles");
    ``unless_prep: [words]``, not when a matched word or its object has such a preposition ("opening its mouth
    for a ball": a purpose that needs it open);
    ``unless_coordinated: [lemmas]``, not when the matched word is coordinated with such a word, see
    :func:`_coordination_words`; ``unless_deps: [deps]``, not when the first matched word stands in such a
    dependency relation, e.g. ``amod``: "a sleeping dog" -/-> "a waking up dog")
    and ``genders: [m, f]`` (grammatical gender of a and b, for pronouns)."""
    table: dict[str, dict[str, list]] = {}
    for group, items in entries.items():
        rows = table.setdefault(group, {})
        for item in items or ():
            cond: dict = {}
            genders = (None, None)
            if isinstance(item, dict):
                cond = {k: v for k, v in item.items() if k not in ("pair", "from", "to", "genders")}
                genders = tuple(item.get("genders") or (None, None))
                if "pair" in item:
                    a, b = item["pair"]
                    pairs = [(a, b, genders), (b, a, genders[::-1])]
                else:
                    tos = item["to"] if isinstance(item["to"], list) else [item["to"]]
                    pairs = [(item["from"], t, genders) for t in tos]
            else:
                a, b = item
                pairs = [(a, b, genders), (b, a, genders)]
            for src, dst, gen in pairs:
                words = tuple(str(src).lower().split())
                rows.setdefault(words[0], []).append((words, str(dst), {**cond, "genders": gen}))
    return table


def _gendered_nouns(entries) -> dict[str, frozenset[str]]:
    """``{gender: nouns}``: the single-word nouns of the opposites lexicon by the grammatical gender it gives them
    ("m": man, boy, gentleman...; "f": woman, girl, lady...)."""
    out: dict[str, set[str]] = {}
    for rows in _compile_opposites(entries).get("NOUN", {}).values():
        for src, _dst, cond in rows:
            if len(src) == 1 and cond["genders"][0]:
                out.setdefault(cond["genders"][0], set()).add(src[0])
    return {g: frozenset(words) for g, words in out.items()}


def _inflect_like(target: str, tok, group: str, state_adjectives: dict[str, str]) -> str:
    tag = tok.tag_
    if group == "VERB" and target in state_adjectives and _state_participle(tok):
        return state_adjectives[target]  # "with his eyes closed" -> "with his eyes open", not "opened"
    if group == "VERB" and tag.startswith("VB") and tag != "VB":
        return inflect_word(target, tag)
    if group == "NOUN" and tag in ("NNS", "NNPS"):
        head, sep, rest = target.rpartition(" ")
        # lemminflect knows irregular compounds that inflect does not ("gentlemen", not "gentlemans")
        return f"{head}{sep}{inflect_word(rest, 'NNS') if rest.endswith('man') else plural(rest)}"
    if group == "ADJ" and tag in ("JJR", "JJS"):
        return inflect_word(target, tag)
    return target


@action("lexicon_opposite", stages=("S3",), params=LexiconOppositeParams)
def lexicon_opposite(sent, params: LexiconOppositeParams, ruleset):
    """Replace a word or phrase by its opposite from a lexicon of contrasting pairs; Marelli et al. 2014,
    Table 3 (S3, "replacing words with semantic opposites").

    The lexicon groups pairs by part of speech; the first word matches by lemma, the others by lemma or text,
    and the replacement takes the original's inflection: "A man is sitting" -> "A woman is sitting" /
    "A man is standing", "A plane is taking off" -> "A plane is landing". A single word tagged as a verb
    particle ("picking up") is not replaced: phrasal verbs need their own multi-word entries.
    """
    table = ruleset.derived(params.lexicon, _compile_opposites)
    gendered = ruleset.derived(params.lexicon, _gendered_nouns)
    doc = sent.doc
    noun_lemmas = {t.lemma_.lower() for t in doc if t.pos_ == "NOUN"}
    words = {t.lower_ for t in doc} | {t.lemma_.lower() for t in doc}
    frozen = _frozen_tokens(doc, params.frozen)
    if params.fixed_lexicon:
        frozen |= fixed_name_tokens(doc, ruleset.derived(params.fixed_lexicon, fixed_name_index))
    colours = _colour_set(params, ruleset)
    for tok in doc:
        if _in_colour_list(doc, tok, colours):
            continue  # "a brown and white dog" -/-> "a brown and black dog"
        if tok.pos_ == "ADJ" and _repeated_with_other(doc, tok):
            continue  # "A little boy is watching another little boy" -/-> "A big boy ... another little boy"
        if tok.tag_ == "VBZ" and tok.dep_ == "conj" and tok.i > 0 and doc[tok.i - 1].pos_ in ("NOUN", "PROPN") \
                and not any(c.dep_ == "cc" for c in tok.head.children if c.i < tok.i):
            continue  # "chopping some shiso leaves": a plural noun the parse took for a verb joined with no "and"
            # ("chopping some shiso arrives", q13 readers)
        firsts = {tok.lemma_.lower(), tok.lower_}
        for group, by_first in table.items():
            if tok.pos_ not in params.pos_groups.get(group, [group]):
                continue
            rows = [row for w in firsts for row in by_first.get(w, ())]
            for src, dst, cond in rows:
                end = tok.i + len(src)
                if end > len(doc):
                    continue
                if not all(doc[tok.i + k].lemma_.lower() == w or doc[tok.i + k].lower_ == w
                           for k, w in enumerate(src)):
                    continue
                if len(src) == 1 and tok.dep_ == "prt":
                    continue
                if "transitive" in cond and bool(children(tok, "dobj")) != bool(cond["transitive"]):
                    continue
                # the objects only for the entries that ask (most do not)
                objects = {o.lemma_.lower() for o in _span_objects(doc, tok.i, end)} \
                    if cond.get("unless_object") or cond.get("only_object") else set()
                if cond.get("unless_object") and objects & set(cond["unless_object"]):
                    continue  # "cutting garlic into pieces" -/-> "out of pieces"
                if cond.get("only_object") and not objects & set(cond["only_object"]):
                    continue  # "hitting the ball" -> "missing the ball", but "hitting a drum" -/-> "missing a drum"
                if cond.get("unless_after") and tok.i > 0 and doc[tok.i - 1].lower_ in cond["unless_after"]:
                    continue  # "of the same team" -/-> "of the different team"
                if cond.get("unless_before") and end < len(doc) and doc[end].lower_ in cond["unless_before"]:
                    continue  # "jumping off of the bench" -/-> "jumping onto of the bench"
                if cond.get("unless_modifier") and any(
                        c.dep_ == "amod" and c.lower_ in cond["unless_modifier"] for c in tok.children):
                    continue  # "little kids" -/-> "little adults"
                if cond.get("unless_sentence_has") and words & set(cond["unless_sentence_has"]):
                    continue  # "A woman in a bikini" -/-> "A man in a bikini"
                if cond.get("unless_child_deps") and any(
                        c.dep_ in cond["unless_child_deps"] for t in doc[tok.i:end] for c in t.children):
                    continue  # "dressed formally" -/-> "undressed formally"
                if cond.get("unless_head") and _governor_lemmas(tok) & set(cond["unless_head"]):
                    continue  # "a young boy" -/-> "an old boy", "taking pizza out of a box" -/-> "into a box"
                if cond.get("head_lexnames") and not _head_in_files(tok, cond["head_lexnames"], ruleset):
                    continue  # "an old tire" -/-> "a young tire"
                if cond.get("only_head") and not _governor_lemmas(tok) & set(cond["only_head"]):
                    continue  # "an empty bottle" -/-> "a crowded bottle": crowded places only
                if cond.get("subject_lexnames") and not _noun_in_files(subject_of(tok), cond["subject_lexnames"],
                                                                       ruleset):
                    continue  # "A ball is lying on a carpet" -/-> "A ball is standing on a carpet"
                if cond.get("unless_head_lexnames") and _head_in_files(tok, cond["unless_head_lexnames"], ruleset):
                    continue  # "a small boy" -/-> "a large boy" ("big" is the size word for a person)
                if cond.get("unless_prep_object") and any(
                        o.lemma_.lower() in cond["unless_prep_object"]
                        for p in children(tok, "prep") for o in children(p, "pobj")):
                    continue  # "sitting in a swing" -/-> "standing in a swing": a seat or a mount is sat on
                if cond.get("unless_prep") and any(
                        p.lower_ in cond["unless_prep"] for t in doc[tok.i:end]
                        for x in (t, *children(t, "dobj")) for p in children(x, "prep")):
                    continue  # "opening its mouth for a ball" -/-> "closing its mouth for a ball" (a purpose)
                if cond.get("unless_coordinated") and _coordination_words(tok) & set(cond["unless_coordinated"]):
                    continue  # "several people and children" -/-> "several people and adults"
                if cond.get("unless_deps") and tok.dep_ in cond["unless_deps"]:
                    continue  # "a sleeping dog" -/-> "a waking up dog"
                if in_hyphenated(tok) or any(i in frozen for i in range(tok.i, end)):
                    continue
                if any(not tok.i <= p.i < end for p in children(tok, "prt")):
                    continue  # "sitting down" needs the entry "sit down"
                if group == "NOUN" and tok.dep_ == "compound" and (tok.tag_ == "NNS" or any(cond["genders"])):
                    continue  # "Women models" -/-> "Men models", "A woman athlete" -/-> "A man athlete" (English
                    # says "male")
                if group == "NOUN" and any(c.lower_ in ("other", "another") for c in tok.lefts):
                    continue  # "The lady is measuring the other woman's ankle" -/-> "the other man's ankle": "other"
                    # refers back to a noun of the same kind
                if group == "NOUN" and cond["genders"][0] and any(
                        lemma_of(t.lower_, "NOUN") in gendered.get(cond["genders"][0], ()) and t.i != tok.i
                        and any(c.lower_ in ("other", "another") for c in t.lefts) for t in doc[tok.i + 1:]):
                    continue  # "The lady is measuring the other woman's ankle" -/-> "The man is measuring the other
                    # woman's ankle": "the other woman" needs a first woman
                if group == "NOUN" and dst.lower() in noun_lemmas:
                    continue  # "a man and a woman" -> "a woman and a woman"
                same = [t for t in doc if t.lemma_.lower() == tok.lemma_.lower()] if group == "NOUN" else []
                if len(same) > 1:
                    continue  # "The man is erasing what the other man has" -/-> "The woman ... the other man";
                    # "Two men are shaking hands and a third man" -/-> "Two women ... and a third man"
                if dst.lower() in _coordination_words(tok):
                    continue  # "black and white" -/-> "white and white"
                if dst.split()[-1].lower() in ("of", "from", "to") and not children(doc[end - 1], "pobj"):
                    continue  # "looking behind" -/-> "looking in front of": an adverb has no object for "of"
                    # (r11, seed-1 build)
                if group in ("ADJ", "ADV") and len(src) == 1 and _scale_clash(doc, tok, dst):
                    continue  # "a bigger dog on a smaller dog" -/-> "a bigger dog on a larger dog"
                if _same_scale(doc, tok, dst, params.same_scale):
                    continue  # "The big dog is on a small dog" -/-> "The big dog is on a large dog"
                g_src, g_dst = cond["genders"]
                flip = bool(g_src and g_dst) and tok.dep_ in ("nsubj", "nsubjpass") and tok.tag_ in ("NN", "NNP")
                if g_src and g_dst and not flip \
                        and {t.lower_ for t in doc[tok.i + 1:]} & set(params.pronouns.get(g_src, ())):
                    continue  # "There is a man pitching ... his left hand" -/-> "There is a woman ... his left
                    # hand": only a subject's pronouns follow it (q4 readers)
                s = sent.fork()
                s.set_span(tok.i, end, _inflect_like(dst, tok, group, params.state_adjectives))
                if flip:
                    _flip_pronouns(s, doc, tok.i, params.pronouns.get(g_src), params.pronouns.get(g_dst))
                yield s.edits


def _span_objects(doc, start: int, end: int) -> list:
    """The objects (``dobj``/``pobj``) of the tokens ``start:end``; a preposition without an object of its own
    takes the one the parser hung on its verb after it ("walking down a catwalk": "catwalk" a ``dobj`` of
    "walking", q6 build)."""
    out = []
    for t in doc[start:end]:
        objs = children(t, "pobj", "dobj")
        if not objs and t.pos_ == "ADP" and t.dep_ == "prep":
            objs = [o for o in children(t.head, "dobj") if o.i > t.i]
        out.extend(objs)
    return out


def _flip_pronouns(s, doc, after: int, src: list[str] | None, dst: list[str] | None) -> None:
    """Make gendered pronouns after token ``after`` follow a subject whose gender changed ("A woman is tapping
    her fingers" -> "A man is tapping his fingers"); "her" is possessive when tagged PRP$ or attached as
    ``poss`` (the tagger calls "her" in "holding her kitten" PRP, the parser gets it right)."""
    if not src or not dst:
        return
    for t in doc[after + 1:]:
        positions = [k for k, w in enumerate(src) if w == t.lower_]
        if not positions:
            continue
        pos = positions[0]
        if len(positions) > 1 and (t.tag_ == "PRP$" or t.dep_ == "poss") and 2 in positions:
            pos = 2
        if pos < len(dst) and not s.edited(t.i):
            s.replace(t.i, dst[pos])
