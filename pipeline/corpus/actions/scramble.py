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

__all__ = ["BE_AGREEMENT", "SwapArgumentsParams", "SwapClauseSubjectsParams", "SwapModifiersParams",
           "SwapPhrasesParams", "SwapPossessorParams", "SwapVerbObjectsParams", "swap_arguments",
           "swap_clause_subjects", "swap_modifiers", "swap_phrases", "swap_possessor", "swap_verb_objects"]

import functools
import zlib
from collections import Counter
from typing import Literal

from pydantic import BaseModel, Field

from pipeline.common import resources
from pipeline.corpus.grammar import COLLECTIVE, PLURALIA_TANTUM, SINGULAR_DETS
from pipeline.corpus.registry import action
from pipeline.corpus.wordforms import (
    SUBJECT_DEPS,
    THIRD_PERSON,
    children,
    irregular_plural,
    is_plural_np,
    lemma_of,
    span,
)

# nouns that stand without a determiner ("someone", "water"): not bare count nouns
UNCOUNTED = frozenset({"someone", "somebody", "everyone", "everybody", "anyone", "nobody", "water", "food",
                       "fish", "meat", "rice", "pasta", "sauce", "oil", "milk", "wine", "makeup"})

# (THIRD_PERSON: a sentence with such a pronoun is not scrambled by swapping its people, whom the pronoun would
# then point to wrongly)
BE_AGREEMENT = {("is", True): "are", ("are", False): "is", ("was", True): "were", ("were", False): "was"}
_SUBJECT = ("nsubj", "nsubjpass")
DESCRIBED_PARTS = ("haired", "eyed", "skinned", "colored", "coloured", "furred", "bearded")


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
    nxt = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
    if nxt is not None and (nxt.pos_ == "NOUN" or nxt.dep_ == "conj") and nxt not in tok.subtree:
        return False  # a compound the parser split: "pulling a dog sled" -/-> "A dog is pulling a team of dogs
        # sled" (q26 readers)
    if tok.tag_ == "NN" and not any(c.dep_ in ("det", "poss", "nummod") for c in tok.children) \
            and resources.synsets(tok.lower_, "n") and tok.lemma_.lower() not in UNCOUNTED:
        return False  # "to group of men" -/-> "Group of men is handing ...": a bare count noun as subject
    start, end = _trimmed_span(tok)
    return " ".join(t.lower_ for t in tok.doc[start:end]) not in skip_phrases


def _plural(tok) -> bool:
    """Grammatical number of a noun phrase (:func:`is_plural_np`), except that a noun tagged plural without a
    plural ending that is not a known plural ("broccoli", "okra") counts as a singular mass noun, and a bare
    noun whose plural is its singular ("watching fish", "sheep") counts as plural."""
    if tok.tag_ in ("NNS", "NNPS") and tok.lower_ == tok.lemma_.lower() and not tok.lower_.endswith("s") \
            and not any(c.dep_ in ("nummod", "conj") for c in tok.children) and not _irregular_plural(tok.lower_):
        return False
    if tok.tag_ == "NN" and _irregular_plural(tok.lower_) and tok.lower_ == tok.lemma_.lower():
        dets = [c for c in tok.children if c.dep_ in ("det", "poss", "nummod")]
        if not dets:
            return True
        # "some spotted geese" (tagged NN) is plural, "the fish" may be one (p3 readers: "Some spotted geese
        # is following")
        if irregular_plural(tok.lower_) and not any(c.lower_ in SINGULAR_DETS or c.dep_ == "poss"
                                                    for c in dets):
            return True
    return is_plural_np(tok)


@functools.lru_cache(maxsize=4096)
def _irregular_plural(word: str) -> bool:
    """A plural noun without a plural "-s" that inflect knows as a plural ("people" -> "person", "children",
    "men", and "fish", "sheep", "deer" whose plural is the singular: tagged plural, they are plural), which
    spaCy may lemmatize to itself; mass nouns tagged plural ("broccoli", "okra") are not."""
    import inflect

    return bool(_INFLECT.setdefault("engine", inflect.engine()).singular_noun(word))


_INFLECT: dict = {}


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


HOLDING = frozenset({"with", "wearing", "holding", "carrying", "juggling", "throwing", "catching"})

# size adjectives (and "baby"), which a head-noun swap would leave on a noun they may not fit ("a small man")
SIZE_AGE = frozenset({"small", "little", "tiny", "big", "large", "huge", "baby", "giant", "tall", "short"})


def _owned_body_part(doc) -> bool:
    """A body part with "the" (S1 normalization writes "the mouth" for "his mouth"), whose owner a swap of
    the people would change."""
    return any(t.lower_ == "the" and t.head.pos_ == "NOUN"
               and "noun.body" in resources.lexnames(t.head.lemma_.lower(), "n", 1) for t in doc)


def _garbled(doc) -> bool:
    """An S1 with two -ing verbs in a row, a particle at most between them ("A dog with the pink tongue is
    sticking out running on the beach"), or an -ing verb joined to a present one ("is smiling and slides"): a
    caption the parser cannot read or half rewritten, whose scrambles read worse. Kept in ``doc.user_data``:
    every S4 rule asks it of the same S1 (a tenth of the S4 time otherwise)."""
    key = ("sick", "garbled")
    if key not in doc.user_data:
        doc.user_data[key] = _garbled_parse(doc)
    return doc.user_data[key]


# what is worn (WordNet 3.0 has no eyewear.n.01: goggles and sunglasses fall under spectacles.n.01)
_WEARABLE = frozenset({"clothing.n.01", "footwear.n.02", "spectacles.n.01", "headdress.n.01"})


def _garbled_parse(doc) -> bool:
    if any(t.dep_ == "conj" and t.tag_ in ("VBZ", "VBP") and t.head.tag_ == "VBG" for t in doc):
        return True  # "A girl is smiling and slides down a slide": two tenses joined, a caption half rewritten
    if any(t.lower_ == "and" and 0 < t.i < len(doc) - 1 and doc[t.i - 1].tag_.startswith("VB")
           and doc[t.i + 1].pos_ == "ADJ" for t in doc):
        return True  # "to catch and orange Frisbee": "and" typed for "an"
    if any(t.lower_ in ("wearing", "dressed") and t.i and doc[t.i - 1].dep_ in ("dobj", "pobj")
           and doc[t.i - 1].pos_ == "NOUN" and not _noun_ancestors(doc[t.i - 1]) & _WEARABLE
           and not resources.lexnames(doc[t.i - 1].lemma_.lower(), "n", 1) & ANIMATE_LEXNAMES.keys() for t in doc):
        return True  # "riding a bike wearing a green shirt", "in front of a storefront wearing a black jacket": what
        # the subject wears hangs on a thing; a scramble makes it worse ("riding a green bike wearing a shirt", r11
        # readers); after a garment it is the wearer's ("a man in a hat wearing glasses")
    tags = [t.tag_ for t in doc]
    for i, tag in enumerate(tags):
        if tag == "VBG":
            nxt = tags[i + 1:i + 3]
            if nxt[:1] == ["VBG"] or nxt[:1] == ["RP"] and nxt[1:] == ["VBG"]:
                return True
    return False


def _misparsed_end(doc, end: int) -> bool:
    """A noun phrase directly followed by a finite verb ("... bathing suits and water is splashing") is likely
    a clause the parser folded into it."""
    return end < len(doc) and doc[end].tag_ in ("VBZ", "VBP", "VBD", "MD") and doc[end].pos_ in ("AUX", "VERB")


class _AnimacyParams(BaseModel):
    """The lexicons that tell a person or an animal from a thing (:func:`animacy`), shared by the S4 actions
    that move nouns between roles."""
    animate_lexicons: list[str] = Field(default_factory=lambda: ["person_nouns", "animate_nouns"])
    inanimate_lexicon: str | None = "inanimate_nouns"
    animal_lexicon: str | None = "animal_nouns"


def _inanimate_parts(entries) -> tuple[frozenset[str], frozenset[str]]:
    """(nouns, modifiers) of the inanimate-nouns lexicon, lower-cased."""
    return (frozenset(str(w).lower() for w in entries.get("nouns", ())),
            frozenset(str(w).lower() for w in entries.get("modifiers", ())))


def _animacy_lexicons(params: _AnimacyParams, ruleset) -> tuple[frozenset[str], frozenset[str], frozenset[str],
                                                               frozenset[str]]:
    """(person/animate words, inanimate nouns, inanimate modifiers, animals): :func:`animacy`'s lexicons,
    each built once per rule set."""
    words = frozenset().union(*(ruleset.lexicon_set(n) for n in params.animate_lexicons))
    not_words, not_modifiers = (ruleset.derived(params.inanimate_lexicon, _inanimate_parts)
                                if params.inanimate_lexicon else (frozenset(), frozenset()))
    animals = ruleset.lexicon_set(params.animal_lexicon) if params.animal_lexicon else frozenset()
    return words, not_words, not_modifiers, animals


class SwapArgumentsParams(_AnimacyParams):
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
    animate: list[Literal["subject", "agent", "passive-subject", "object", "pobj"]] = Field(default_factory=list)
    animal_verbs_lexicon: str | None = None
    doer_limits_lexicon: str | None = None
    # the lexicon (doer_limits) whose "infants" are no receivers of ``receiver_verbs``
    receiver_limits_lexicon: str | None = None
    person_to_animal_verbs: list[str] | None = None
    # a preposition listed here moves its object only with these verbs: "to" names a receiver, and trading a
    # given thing with its receiver makes sense only for showing or introducing ("feeding a mouse to a snake"
    # -/-> "feeding a snake to a mouse", "handing a baby to a man" -/-> "handing a man to a baby")
    preposition_verbs: dict[str, list[str]] = Field(default_factory=dict)
    # with heads_only: garments of one sex; a noun wearing one keeps it ("A girl in a pink dress is hugging a
    # boy" -/-> "A boy in a pink dress is hugging a girl")
    gendered_clothing: list[str] = Field(default_factory=list)
    fixed_objects_lexicon: str | None = None
    # verbs (lemmas) whose two arguments do the same to each other ("A costume is hugging a boy" / "A boy is
    # hugging a costume"): the swap would say nearly the same thing
    symmetric_verbs: list[str] = Field(default_factory=list)
    # verbs (lemmas) of things in nature, done by no person or animal ("The sun is setting behind a group of
    # people" -/-> "A group of people is setting behind the sun", seed-22/23 readers)
    nature_verbs: list[str] = Field(default_factory=list)
    # verbs (lemmas) whose doer is many: a swap may not give them a singular doer ("Football players are
    # surrounding a man" -/-> "A man is surrounding football players", seed-20/23 readers)
    group_verbs: list[str] = Field(default_factory=list)
    rate: float = Field(default=1.0, ge=0, le=1)
    pobj_of_object: bool = True
    # a verb joined to another without a subject of its own takes that verb's subject ("A boy is standing and
    # watching a guardsman" -> "A guardsman is standing and watching a boy")
    inherit_subject: bool = True
    # skip a swap when either argument is a coordination ("The bride is surrounded by the groomsmen and
    # bridesmaids" -/-> "The groomsmen and bridesmaids are surrounded by the bride")
    skip_coordinated: bool = False
    # with pobj_of_object, when given: the only prepositions taken from a phrase under the object. Such a phrase
    # mostly describes the object ("someone from the opposite team", "a baby in a carrier", "the player in
    # white") and trading its noun with the object is nonsense; "to" there is the parser hanging the verb's
    # receiver on the object ("showing a puppy to a girl")
    object_prepositions: list[str] | None = None
    # a noun landing after one of ``receiver_prepositions`` of one of ``receiver_verbs`` is the receiver and must
    # be a person ("showing a fish to a child" -/-> "showing a child to a fish")
    receiver_verbs: list[str] = Field(default_factory=list)
    receiver_prepositions: list[str] = Field(default_factory=list)
    # a person or animal landing after "on"/"over"/"under" of one of ``surface_verbs`` (posture and placing)
    # would be stood or sat upon ("A man is sitting on a dog" -/-> "A dog is sitting on a man")
    surface_verbs: list[str] = Field(default_factory=list)
    # a noun carrying one of ``motion_participles`` never becomes the subject of one of ``posture_verbs``: it
    # would be doing two things at once ("A dog doing a back flip is standing behind a man", q25 readers)
    posture_verbs: list[str] = Field(default_factory=list)
    motion_participles: list[str] = Field(default_factory=list)
    # verbs taking an object and a bare infinitive ("watching a snowboarder with a blue jacket jump"): an object
    # phrase ending in a word that can be a bare verb stays, as the parse may have swallowed the infinitive into
    # it ("A snowboarder with a blue jacket jump is watching several people", q27 readers); a lexicon of verbs
    bare_infinitive_lexicon: str | None = None
    # passives of a verb with a particle or a stranded preposition are left alone: their swap reads badly or
    # not at all ("A runner is being clapped on by a passerby" -/-> "A passerby is being clapped on by a runner")
    phrasal_passives: bool = True
    # words that place an argument relative to the other one ("someone from the opposite team", "another
    # player"): moved to the other role they point nowhere ("Someone from the opposite team is tackling three
    # men", r13 readers)
    relational_words: list[str] = Field(default_factory=lambda: ["opposite", "other", "another", "rival",
                                                                  "opposing", "same"])
    # a comparison the parse hangs on the object is the verb's manner: moved with the object it describes the
    # new subject ("The man in the white shorts like a puppet is controlling the people", q34 readers)
    manner_prepositions: list[str] = Field(default_factory=lambda: ["like"])


def _arguments(verb, role: str, params: SwapArgumentsParams):
    """``(token, (start, end))`` candidates for a role of ``verb``."""
    skip = set(params.skip_phrases)
    if role == "subject":
        subjects = [c for c in verb.children if c.dep_ in _SUBJECT]
        if not subjects and verb.dep_ == "conj" and verb.head.pos_ in ("VERB", "AUX") and params.inherit_subject:
            subjects = [c for c in verb.head.children if c.dep_ in _SUBJECT]  # "... is standing and watching X"
        if len(subjects) == 1 and subjects[0].i < verb.i and _usable_argument(subjects[0], skip):
            yield subjects[0], _trimmed_span(subjects[0])
    elif role == "object":
        objects = [c for c in verb.children if c.dep_ == "dobj"]
        for c in objects if len(objects) == 1 else ():  # (two objects: a misparse, "playing soccer with a ball
            # nearby onlookers" -/-> "Nearby onlookers are playing soccer with a ball a child", q25 readers)
            if c.i > verb.i and _usable_argument(c, skip):
                yield c, _trimmed_span(c)
    else:
        preps, heads = set(params.prepositions), set(params.skip_pobj_heads)
        owners = [verb] + [c for c in verb.children if c.dep_ == "dobj" and params.pobj_of_object]
        for owner in owners:
            wanted = preps if owner is verb or params.object_prepositions is None \
                else preps & set(params.object_prepositions)
            for _prep, pobj in _prep_objects(owner, wanted, heads, params.agent and owner is verb):
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


def _one_doer(noun) -> bool:
    """A single doer, which a verb of many ("gather", "surround": ``group_verbs``) cannot have: neither plural
    nor a collective ("a crowd")."""
    return not _plural(noun) and noun.lower_ not in COLLECTIVE


def _heads_swappable(a, b) -> bool:
    """Two nouns whose head words alone can trade places: nouns of the same number with different lemmas and
    the same WordNet lexname of their first sense (person with person, animal with animal, so the modifiers
    left behind still fit), at least one carrying a modifier that stays behind ("A black dog ... a white
    cat")."""
    if a.pos_ != "NOUN" or b.pos_ != "NOUN" or a.lemma_.lower() == b.lemma_.lower():
        return False
    if resources.lexnames(a.lemma_.lower(), "n", 1) != resources.lexnames(b.lemma_.lower(), "n", 1):
        return False
    if any(resources.under(x, (sense[0].name(),)) for x, y in ((a.lemma_.lower(), b), (b.lemma_.lower(), a))
           if (sense := resources.synsets(y.lemma_.lower(), "n"))):
        return False  # "the footballer ... the player": one is a kind of the other, the swap changes nothing
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


ANIMATE_LEXNAMES = {"noun.person": "person", "noun.animal": "animal"}


def animacy(tok, person_words: frozenset[str] = frozenset(), not_words: frozenset[str] = frozenset(),
            not_modifiers: frozenset[str] = frozenset(), animal_words: frozenset[str] = frozenset()) -> str | None:
    """``"person"``, ``"animal"`` or None (not a living being) for the noun ``tok``.

    A noun is animate when its first WordNet 3.0 noun sense that names no instance (not "Lasso", a composer) is
    filed under noun.person or noun.animal, or when
    its lemma is in ``person_words`` (people, crowd, someone, turtle: nouns whose first sense is filed
    elsewhere); such a word is an animal when one of its first three senses is noun.animal. A group noun with
    an "of" phrase ("a group of dogs") takes the animacy of that phrase. Pronouns other than someone/everyone
    (in ``person_words``) and proper nouns are None, and so are ``not_words`` (body parts and foods WordNet
    files under noun.animal: "paw", "fries") and nouns with a modifier in ``not_modifiers`` ("a wooden horse",
    "a dead mouse"); ``animal_words`` are animals whose first sense is a person ("skunk", "tiger").
    """
    lemma = tok.lemma_.lower()
    if lemma in not_words or tok.lower_ in not_words:
        return None  # "paw", "fries": filed under noun.animal but not a doer
    if any(c.dep_ in ("amod", "compound") and c.lower_ in not_modifiers for c in tok.children):
        return None  # "a wooden horse", "an arm band", "a stuffed dog"
    if tok.pos_ == "PROPN" and lemma not in person_words and not (tok.i == 0 and _capitalised_common_noun(tok)):
        return None  # "mini Coopers": WordNet's first sense of a name is often a common noun's
    if tok.i > 0 and tok.text[:1].isupper() and tok.text != "I":
        return None  # a capitalised noun inside the sentence is part of a name: "a Game Boy" (r11 reader: "A
        # Game Boy is playing someone")
    for prep in tok.children:  # "a group of people", "a herd of cows"
        if prep.dep_ == "prep" and prep.lower_ == "of" and prep.i == tok.i + 1:
            pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
            if pobj is not None and lemma in person_words | {"herd", "flock", "pack", "litter", "school"}:
                return animacy(pobj, person_words, not_words, not_modifiers, animal_words)
    if lemma in animal_words or tok.lower_ in animal_words:
        return "animal"  # "skunk": WordNet's first sense is a person (a rotter)
    first = resources.common_lexnames(lemma, "n", 1) or resources.common_lexnames(tok.lower_, "n", 1)
    for name in first:
        if name in ANIMATE_LEXNAMES:
            return ANIMATE_LEXNAMES[name]
    if lemma in person_words or tok.lower_ in person_words:
        return "animal" if "noun.animal" in resources.lexnames(lemma, "n", 3) else "person"
    return None


def _fixed_index(entries) -> dict[str, frozenset[str]]:
    """``{verb lemma: object lemmas, lexnames or "*"}`` from the fixed_verb_objects lexicon (lower-cased)."""
    return {str(v).lower(): frozenset(str(o).lower() for o in objs) for v, objs in entries.items()}


def fixed_object(verb, obj, fixed: dict[str, frozenset[str]]) -> bool:
    """Whether ``obj`` (a dobj of ``verb``) belongs to a fixed verb-object pair ("take a bath", "play the
    guitar", "ride a horse"): listed by lemma, by the WordNet lexname of its first noun sense, or the verb
    takes "*" (any object)."""
    allowed = fixed.get(lemma_of(verb.lower_, "VERB"))
    if not allowed:
        return False
    lemma = obj.lemma_.lower()
    return "*" in allowed or lemma in allowed or obj.lower_ in allowed \
        or bool(resources.lexnames(lemma, "n", 1) & allowed)


def sampled(key: str, doc, rate: float) -> bool:
    """Whether a rule with ``rate`` (0..1) proposes candidates for the parsed sentence ``doc``: a hash of rule key
    and sentence text, so the choice is deterministic and independent of the order of sentences. SICK keeps S4
    rare (Table 4: 380 S4 sentences against 1,029 S2 synonym ones; Table 5: 7.1 % S1S4 pairs). The text is
    read only when the rate asks for a draw (``doc.text`` builds every token again: 0.4 ms a call)."""
    if rate >= 1:
        return True
    return zlib.crc32(f"{key}|{doc.text}".encode("utf-8")) / 2 ** 32 < rate


def _role(tok, role: str) -> str:
    """Role name used by the animacy check: a passive subject and a passive agent are told apart."""
    if role == "subject":
        return "passive-subject" if tok.dep_ == "nsubjpass" else "subject"
    if role == "pobj" and tok.head.dep_ == "agent":
        return "agent"
    return role


def _bare_verb_end(tok) -> bool:
    """Whether the phrase of ``tok`` ends in a singular noun after a noun that is also a verb's bare form
    ("a snowboarder with a blue jacket jump": "jump" read as the head of "a blue jacket jump")."""
    end = _trimmed_span(tok)[1] - 1
    last = tok.doc[end]
    return end > tok.i and last.tag_ == "NN" and tok.doc[end - 1].pos_ == "NOUN" \
        and bool(resources.synsets(last.lower_, "v")) and lemma_of(last.lower_, "VERB") == last.lower_


def _plausible(verb, moves, params: SwapArgumentsParams, ruleset) -> bool:
    """Whether each moved noun can fill its new role. ``moves`` is ``[(token, old role, new role)]``.

    A fixed object ("take a bath") never moves; the two nouns must have different lemmas ("Another man is
    carrying a man" swaps nothing); a noun landing in a role of ``params.animate`` must be animate (a fixed
    object of the verb may become the subject of its passive: "A wave is caught by a man"), and a noun
    landing in the doer's slot (subject, passive agent) must be able to do the verb to the other noun
    (:func:`_can_do`).
    """
    (a, _, _), (b, _, _) = moves
    if a.lemma_.lower() == b.lemma_.lower():
        return False
    fixed = ruleset.derived(params.fixed_objects_lexicon, _fixed_index) if params.fixed_objects_lexicon else {}
    if any(old == "object" and fixed_object(verb, tok, fixed) for tok, old, _ in moves):
        return False
    words, not_words, not_modifiers, animals = _animacy_lexicons(params, ruleset)
    kinds = {tok.i: animacy(tok, words, not_words, not_modifiers, animals) for tok, _, _ in moves}
    vlemma = lemma_of(verb.lower_, "VERB")  # (spaCy's lemma of "riding" is "rid")
    if params.person_to_animal_verbs is not None and vlemma not in params.person_to_animal_verbs \
            and any(new == "object" and kinds[tok.i] == "person" for tok, _, new in moves) \
            and any(new == "pobj" and kinds[tok.i] == "animal" for tok, _, new in moves):
        return False  # "raising a fish for a child" -/-> "raising a child for a fish"
    infants = ruleset.derived(params.receiver_limits_lexicon, _table).get("infants", frozenset()) \
        if params.receiver_limits_lexicon else frozenset()
    if params.receiver_verbs and vlemma in params.receiver_verbs \
            and any(kinds[tok.i] != "person" or {tok.lower_, tok.lemma_.lower()} & infants
                    for tok in _landing(moves, params.receiver_prepositions)):
        return False  # "showing a fish to a child" -/-> "showing a child to a fish": a receiver is a person, and
        # one old enough ("showing off a young boy and girl to a newborn baby", q21 and q23 readers)
    if vlemma in params.surface_verbs \
            and any(kinds[tok.i] in ("person", "animal") for tok in _landing(moves, _SURFACE_PREPOSITIONS)):
        return False  # "A man is sitting on a dog" -/-> "A dog is sitting on a man"
    if params.bare_infinitive_lexicon and vlemma in ruleset.lexicon_set(params.bare_infinitive_lexicon) and any(
            old == "object" and _bare_verb_end(tok) for tok, old, _ in moves):
        return False  # "watching a snowboarder with a blue jacket jump"
    if vlemma in params.posture_verbs and any(
            new == "subject" and c.dep_ == "acl" and c.tag_ == "VBG"
            and lemma_of(c.lower_, "VERB") in params.motion_participles
            for tok, _, new in moves for c in tok.children):
        return False  # "A dog doing a back flip is standing behind a man"
    for tok, _, new in moves:
        if new not in params.animate:
            continue
        kind = kinds[tok.i]
        if kind is None:
            if new == "passive-subject" and fixed_object(verb, tok, fixed):
                continue  # "A man is caught by a wave" -> "A wave is caught by a man"
            return False
        if new in ("subject", "agent"):
            other = b if tok is a else a
            if not _can_do(verb, tok, kind, other, kinds[other.i], params, ruleset):
                return False
    return True


def _table(entries) -> dict[str, frozenset[str]]:
    """``{key: lower-cased words}`` from a lexicon mapping keys to word lists."""
    return {str(k): frozenset(str(w).lower() for w in ws) for k, ws in entries.items()}


@functools.lru_cache(maxsize=4096)
def _animal_ancestors(lemma: str) -> frozenset[str]:
    """Names of the synsets above (and including) every noun.animal sense of ``lemma`` ("mouse" -> rodent.n.01,
    mammal.n.01, ...; "skunk", whose first sense is a person, through skunk.n.04)."""
    out: set[str] = set()
    for sense in resources.synsets(lemma, "n"):
        if sense.lexname() == "noun.animal":
            out.add(sense.name())
            out.update(s.name() for s in sense.closure(lambda x: x.hypernyms() + x.instance_hypernyms()))
    return frozenset(out)


def _can_do(verb, doer, kind: str, patient, patient_kind: str | None, params: SwapArgumentsParams,
            ruleset) -> bool:
    """Whether ``doer`` (animacy ``kind``) can be the doer of ``verb`` acting on ``patient``.

    An animal needs a verb of ``animal_verbs_lexicon``: one any animal does ("any"), or one listed under a
    synset it descends from ("peck" under bird.n.01: "A mouse is pecking at a rooster" is refused), and not a
    verb of "not_on_person" with a person as patient ("Horses are racing jockeys"). A person is limited by
    ``doer_limits_lexicon``: infants only do "infant_verbs" ("A baby is feeding a woman"), children do not
    carry, hold or feed a person older than an infant ("A girl is holding a woman"), an audience or a crowd
    does not speak to anyone ("An audience is speaking to a man"), no person licks or sniffs
    ("animal_only_verbs"), and no person jumps up at, rubs against or swarms at an animal, what an animal does
    to a person ("animal_manner_verbs"), and no person carries, holds or lifts an animal larger than a person
    ("large_animals": "Two girls are carrying two camels"; nor a vehicle, "large_things": "People are carrying
    a bus"), nor one person several animals ("A man is pulling the dogs"), and one person does not revive or
    treat several ("care_verbs": "A man is reviving doctors"). Source: Marelli et al. 2014, Table 3
    (S4: the scrambled sentence stays plausible); issue 11 reader verdicts.
    """
    lemma = lemma_of(verb.lower_, "VERB")
    if kind == "animal":
        if not params.animal_verbs_lexicon:
            return True
        table = ruleset.derived(params.animal_verbs_lexicon, _table)
        if lemma in table.get("not_on_person", ()) and patient_kind == "person":
            return False
        if lemma in table.get("any", ()):
            return True
        above = _animal_ancestors(doer.lemma_.lower()) or _animal_ancestors(doer.lower_)
        return any(lemma in verbs and key in above for key, verbs in table.items() if "." in key)
    if kind == "person" and params.doer_limits_lexicon:
        limits = ruleset.derived(params.doer_limits_lexicon, _table)
        names = {doer.lemma_.lower(), doer.lower_}
        if names & limits.get("infants", frozenset()) and lemma not in limits.get("infant_verbs", ()):
            return False
        if names & limits.get("children", frozenset()) and lemma in limits.get("carrying_verbs", ()) \
                and patient_kind == "person" \
                and not {patient.lemma_.lower(), patient.lower_} & limits.get("infants", frozenset()):
            return False
        if names & limits.get("collectives", frozenset()) and (
                lemma in limits.get("speech_verbs", ()) or lemma in limits.get("individual_verbs", ())):
            return False  # "An audience is speaking to a man", "The crowds are sleeping under a blanket"
        if lemma in limits.get("animal_only_verbs", ()):
            return False  # "A woman is licking a wallaby's hand"
        if patient_kind == "animal" and lemma in limits.get("animal_manner_verbs", ()):
            return False  # "A dog is jumping against a young girl" -/-> "A young girl is jumping against a dog"
        if lemma in limits.get("carrying_verbs", ()) and patient is not None and \
                {patient.lemma_.lower(), patient.lower_} & (limits.get("large_animals", frozenset())
                                                            | limits.get("large_things", frozenset())):
            return False  # "Two camels are carrying two girls" -/-> "Two girls are carrying two camels"; "A bus
            # is carrying people" -/-> "People are carrying a bus" (large_things)
        if lemma in limits.get("carrying_verbs", ()) and patient_kind == "animal" and patient is not None \
                and patient.tag_ == "NNS" and doer.tag_ == "NN":
            return False  # a team of animals pulls one person: "Several dogs are carrying a man" -/-> "A man is
            # carrying several dogs", "The dogs are pulling a man" -/-> "A man is pulling the dogs" (r13, seed 2)
        if lemma in limits.get("care_verbs", ()) and patient_kind == "person" and patient is not None \
                and patient.tag_ == "NNS" and doer.tag_ == "NN":
            return False  # "Doctors are reviving a man" -/-> "A man is reviving doctors" (q18, q19 readers)
    return True


def _phrasal_passive(verb) -> bool:
    """A passive verb with a particle or a preposition left without its object ("is being clapped on by",
    "is being charged down by", "is being looked at by")."""
    if not any(c.dep_ in ("nsubjpass", "auxpass") for c in verb.children):
        return False
    return any(c.dep_ == "prt" or c.dep_ == "prep" and not any(g.dep_ == "pobj" for g in c.children)
               for c in verb.children if c.i > verb.i)


def _clause_verb(tok):
    """The verb whose argument ``tok`` is: its head for a subject or an object, the head of its preposition
    (through an object it hangs on, "shaking hands with a man", or "next" of "next to") for the object of a
    preposition; None else."""
    if tok.dep_ in _SUBJECT or tok.dep_ == "dobj":
        return tok.head
    if tok.dep_ == "pobj":
        head = tok.head.head
        if head.dep_ == "dobj" and tok.head.lower_ == "with" or head.lower_ == "next":
            return head.head
        return head
    return None


def _landing(moves, prepositions) -> list:
    """The moved arguments (of a two-argument swap ``moves``: ``(token, old role, new role)``) that land as the
    object of one of ``prepositions``: the other argument's place was that object."""
    return [tok for (tok, _, new), (other, _, _) in (moves, moves[::-1])
            if new == "pobj" and other.dep_ == "pobj" and other.head.lower_ in prepositions]


_SURFACE_PREPOSITIONS = frozenset({"on", "onto", "upon", "over", "under", "atop"})
# prepositions of a symmetric relation: "A man is sitting next to a man", "beside", "near", "with"
_SYMMETRIC_PREPOSITIONS = frozenset({"beside", "near", "alongside", "with", "next"})


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
    if not sampled(f"swap_arguments|{r1}|{r2}|{params.heads_only}", doc, params.rate) or _garbled(doc):
        return
    if any(t.lower_ in THIRD_PERSON for t in doc) or _owned_body_part(doc):
        return  # "A man is following the dog and it is ...", "carrying someone on the shoulder": the pronoun
        # (or S1's "the" standing for one) would point to the other one
    for verb in _main_verbs(doc):
        # lemminflect's lemma: spaCy's lemma of "riding" is "rid"
        vlemma = lemma_of(verb.lower_, "VERB")
        if vlemma in params.symmetric_verbs or vlemma in params.nature_verbs:
            continue
        for a, sa in _arguments(verb, r1, params):
            for b, sb in _arguments(verb, r2, params):
                if a == b or params.skip_coordinated and (_coordinated(a) or _coordinated(b)):
                    continue
                if not params.phrasal_passives and _phrasal_passive(verb):
                    continue
                if any(t.dep_ == "pobj" and t.head.lower_ in params.preposition_verbs
                       and vlemma not in params.preposition_verbs[t.head.lower_] for t in (a, b)):
                    continue
                if any(c.dep_ == "relcl" or c.dep_ == "acl" and len(list(c.subtree)) > 4
                       for t in (a, b) for c in t.children):
                    continue  # "Aliens that are popping out of an arcade game are whacking a small boy"
                if any(w.lower_ in params.relational_words
                       or w.dep_ == "prep" and w.lower_ in params.manner_prepositions
                       for t in (a, b) for w in t.subtree) or _named_again(a) or _named_again(b):
                    continue
                if any(t.dep_ == "pobj" and t.head.lower_ == "to" and other.dep_ != "pobj"
                       and not any(c.dep_ in ("det", "poss", "nummod") for c in other.children)
                       and other.tag_ != "NNS" for t, other in ((a, b), (b, a))):
                    continue  # "showing fish to a child" -/-> "showing a child to fish" (read "how to fish")
                if params.heads_only and any(c.dep_ == "amod" and c.lower_ in SIZE_AGE
                                             for t in (a, b) for c in t.children):
                    continue  # "A man is pulling a small child" -/-> "A child is pulling a small man"
                ra, rb = _role(a, r1), _role(b, r2)
                if "agent" not in (ra, rb):  # "People are gathered around a building": the subject is the doer
                    ra, rb = ("subject" if r == "passive-subject" else r for r in (ra, rb))
                moves = [(a, r1, rb), (b, r2, ra)]
                if vlemma in params.group_verbs and any(
                        new in ("subject", "agent") and _one_doer(t) for t, _, new in moves):
                    continue
                if not _plausible(verb, moves, params, ruleset):
                    continue
                if any(t.dep_ in _SUBJECT and t.head != verb and (not _plausible(t.head, moves, params, ruleset)
                                                                  or _coordinated(a) or _coordinated(b))
                       for t in (a, b)):
                    continue  # an inherited subject also does the first verb; no "a man ... and shirt"
                (a0, a1), (b0, b1) = sa, sb
                if params.heads_only:
                    if not _heads_swappable(a, b):
                        continue
                    if any(w.lemma_.lower() in params.gendered_clothing or w.lower_ in params.gendered_clothing
                           for t in (a, b) for c in t.children if c.i > t.i for w in c.subtree):
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
                if any(_misparsed_end(doc, e) and e != verb.i and doc[e].head not in (verb, verb.head)
                       for e in (x1, y1)):
                    continue
                if y1 < len(doc) and doc[y1].lower_ in _WEAR_WORDS \
                        and any(t.lower_ in _WEAR_WORDS for t in doc[x0:x1]):
                    continue  # the parser left the second noun's "in red" behind: "A boy is running behind a
                    # girl in green in red", "chased by a girl with a bucket of water with a bucket of water",
                    # "pushing the footballer wearing red in white" (seed-24 sample)
                tx, ty = sent.span_text(x0, x1), sent.span_text(y0, y1)
                if tx.lower() == ty.lower():
                    continue
                if any(t.lemma_.lower() in ("wear", "dress") and t.pos_ == "VERB" for t in doc) and any(
                        t.lower_ in ("in", "wearing", "dressed") for t in doc[y0:y1] if y0 > 0):
                    continue  # "The runner is wearing a red tank top and is watched by a man in black" -/-> "A man
                    # in black is wearing a red tank top": he is dressed twice (q13, q14 readers)
                if x0 == 0 and _capitalised_common_noun(doc[0]):
                    tx = tx[0].lower() + tx[1:]  # "Jockeys are racing horses": a noun, not a name
                s = sent.fork()
                s.set_span(x0, x1, ty)
                s.set_span(y0, y1, tx)
                if "subject" in params.roles:
                    subj, new_subj = (x, y) if x.dep_ in _SUBJECT else (y, x)
                    new_pl = _plural(new_subj)
                    if _plural(subj) != new_pl and not _agree(s, subj.head, new_pl, params.agreement):
                        continue
                yield s.edits


def _named_again(noun) -> bool:
    """Whether the noun of ``noun`` comes again elsewhere in its sentence ("A child is jumping into a pool and a man
    is watching the child"): moving one mention leaves the other pointing at the wrong one ("and the child is
    watching a man", "a child is watching the child", q38 and q42 readers)."""
    lemma = noun.lemma_.lower()
    return any(t.i != noun.i and t.pos_ == "NOUN" and t.lemma_.lower() == lemma for t in noun.doc)


def _capitalised_common_noun(tok) -> bool:
    """A sentence-initial word the parser took for a proper noun because of its capital ("Jockeys are racing
    horses") although WordNet knows it as a common noun, not an instance (not "Mary")."""
    if tok.pos_ != "PROPN" or not tok.text[:1].isupper() or tok.text == "I":
        return False
    senses = resources.synsets(tok.lower_, "n")
    return bool(senses) and not senses[0].instance_hypernyms()


def _premodifier(mod, head_deps) -> bool:
    """A modifier standing before its noun, separated from it only by other modifiers of the noun, without
    determiners or hyphens in its subtree, its noun being an argument or conjunct (``head_deps``)."""
    head = mod.head
    if head.dep_ not in head_deps:
        return False
    start, end = span(mod)
    if any(t.dep_ in ("det", "predet", "poss", "nummod") and t.i != mod.i or t.text == "-"
           for t in mod.doc[start:end]):  # a number may itself be the modifier ("three dogs")
        return False
    if (start > 0 and mod.doc[start - 1].text == "-") or mod.doc[end].text == "-":
        return False
    if end < len(mod.doc) and mod.doc[end].lower_.endswith(DESCRIBED_PARTS):
        return False  # "a brown haired man": the colour is the hair's, not the man's
    if mod.dep_ == "compound" and (end != head.i or end - start != 1):
        return False  # noun modifiers: one word right before its noun ("soccer ball")
    return all(t.head == head and t.dep_ in ("amod", "compound", "nmod", "advmod", "punct", "cc", "conj")
               or t.head.head == head for t in mod.doc[end:head.i])


class SwapModifiersParams(BaseModel):
    deps: list[str] = Field(default_factory=lambda: ["amod"])
    pos: list[str] = Field(default_factory=lambda: ["ADJ"])
    head_pos: list[str] = Field(default_factory=lambda: ["NOUN", "PROPN"])
    # tags the modified noun must have, when given ("NNS": "four wheeler" is a name, not four of a thing)
    head_tags: list[str] = Field(default_factory=list)
    exclude: list[str] = Field(default_factory=lambda: [
        "many", "few", "several", "other", "same", "own", "much", "more", "most", "such", "only", "each"])
    class_lexicon: str | None = None
    extra_class_lexicons: list[str] = Field(default_factory=list)
    hosts_lexicon: str | None = None
    same_lexname: bool = False
    # with same_lexname: modifiers filed in one of these never trade, as a substance names what a thing holds or
    # what it is made of, by the noun ("a water hose" / "a glass window" -/-> "a glass hose ... a water window",
    # q28 readers)
    not_lexnames: list[str] = Field(default_factory=list)
    rate: float = Field(default=1.0, ge=0, le=1)
    head_deps: list[str] = Field(default_factory=lambda: [
        "nsubj", "nsubjpass", "dobj", "pobj", "attr", "conj", "appos", "dative", "oprd"])
    # with ``parts``: one noun is an animal, the other one of ``parts`` in a "with" phrase right after it ("A
    # white dog with brown spots" -> "A brown dog with white spots"), both adjectives of ``require_class``
    parts: list[str] = Field(default_factory=list)
    require_class: str | None = None
    # modified nouns whose first WordNet sense is filed here keep their modifier ("in 2 minutes": a number of
    # minutes is a time, not a group)
    head_not_lexnames: list[str] = Field(default_factory=list)
    # only modifiers spelled in letters ("three", not "3")
    words_only: bool = False
    # words that shade the colour after them ("dark black", "light brown", "fluorescent green"): a colour
    # after one is not swapped, as the shade would stay behind on the other colour ("a light black dog"), nor
    # is the shade itself
    shade_words: list[str] = Field(default_factory=list)
    # also trade the adjectives of two joined nouns the parser read as one ("a blue helmet and purple pants")
    joined_garments: bool = False
    # verbs two people do nearly alike to each other (see :class:`SwapPhrasesParams`): the modifiers of two
    # nouns with the same head word, arguments of one such verb (or what they wear), stay ("A man wearing a
    # brown shirt is talking to a man in a white shirt" -/-> "A man wearing a white shirt is talking to a man
    # in a brown shirt")
    symmetric_verbs_lexicon: str | None = None
    # groups of adjectives that say the same: two of one group never trade places ("A little dog is carrying a
    # small twig" -/-> "A small dog is carrying a little twig")
    synonyms: list[list[str]] = Field(default_factory=list)
    # adjectives of age said of grown-ups only, which never land on a noun of ``child_lexicon`` ("An old woman
    # is sitting next to a young girl" -/-> "A young woman is sitting next to an old girl")
    adult_words: list[str] = Field(default_factory=list)
    child_lexicon: str | None = None
    # and adjectives of youth never land on a noun of ``adult_lexicon`` ("Three teenage boys ... an older man"
    # -/-> "a teenage man", q23 readers)
    youth_words: list[str] = Field(default_factory=list)
    adult_lexicon: str | None = None
    # no swap between a noun and one in a phrase hung on it ("Three people on two dirt-bikes" -/-> "Two people on
    # three dirt-bikes": riders and what they ride are counted together, q14 readers)
    not_attached: bool = False


def _classes(ruleset, names: list[str]) -> dict[str, frozenset[str]]:
    """``{word: classes}`` merged over the class lexicons ``names`` (a word may be in several classes); built
    once per rule set and shared (read only)."""
    def merge() -> dict[str, frozenset[str]]:
        merged: dict[str, frozenset[str]] = {}
        for name in names:
            for word, cls in ruleset.derived(name, _class_index).items():
                merged[word] = merged.get(word, frozenset()) | cls
        return merged
    return ruleset.cached(("scramble-classes", *names), merge)


def _class_index(entries) -> dict[str, frozenset[str]]:
    """``{word: classes}`` from a class lexicon ``{class: [words]}`` (words lower-cased)."""
    index: dict[str, set[str]] = {}
    for name, words in entries.items():
        for w in words:
            index.setdefault(str(w).lower(), set()).add(name)
    return {w: frozenset(names) for w, names in index.items()}


def _coordinated_same(h1, h2) -> bool:
    """Two nouns with the same lemma joined by a coordination (one the conjunct of the other, or both of a
    third), where trading their modifiers keeps the meaning; not when the two are counted differently ("Two
    large dogs and a small dog" -> "Two small dogs and a large dog" says another thing)."""
    if h1.lemma_.lower() != h2.lemma_.lower() or h1.i == h2.i or _count(h1) != _count(h2):
        return False
    # the parser may join the second noun to a word inside the first's phrase ("a man with yellow pants and
    # a man ...": the second man is a conjunct of "pants")
    if (h1.dep_ == "conj" and (h1.head == h2 or h2 in h1.head.ancestors)) \
            or (h2.dep_ == "conj" and (h2.head == h1 or h1 in h2.head.ancestors)) \
            or (h1.dep_ == h2.dep_ == "conj" and h1.head == h2.head):
        return True
    # the small model may parse both as subjects ("A man in a white shirt and a man in a black shirt are ...",
    # "one green shoe and one white shoe is ...", seed-24 readers): an "and" between them and no verb
    # right after the first noun phrase's noun ("a grey dog beside a black and white dog" joins two colours)
    first, second = sorted((h1, h2), key=lambda t: t.i)
    between = h1.doc[first.i + 1:second.i]
    return not any(t.pos_ in ("VERB", "AUX") for t in between) and any(
        t.lower_ in ("and", "or") and t.i > 0 and t.doc[t.i - 1].pos_ in ("NOUN", "PROPN")
        and all(u.head == second for u in t.doc[t.i + 1:second.i]) for t in between)


def _count(noun) -> tuple[str, str]:
    """How many ``noun`` names: its tag (NN/NNS) and its number word, lower-cased ("two"; "" for none or
    "one", so "a beige dog and brown dog" count alike)."""
    word = next((c.lower_ for c in noun.children if c.dep_ == "nummod"), "")
    return noun.tag_, "" if word == "one" else word


def _owner(noun):
    """The noun that ``noun`` describes through a "with"/"in" phrase ("a man with yellow pants" -> man), else
    ``noun`` itself."""
    prep = noun.head
    if noun.dep_ == "pobj" and prep.lower_ in ("with", "in") and prep.head.pos_ in ("NOUN", "PROPN"):
        return prep.head
    return noun


def _wearer(noun):
    """The noun that ``noun`` describes through a "with"/"in" phrase or "wearing" ("a man wearing a brown
    shirt" -> man), else ``noun`` itself."""
    if noun.dep_ == "dobj" and noun.head.dep_ == "acl" and noun.head.lower_ == "wearing" \
            and noun.head.head.pos_ in ("NOUN", "PROPN"):
        return noun.head.head
    return _owner(noun)


def _same_first_lexname(m1, m2) -> bool:
    """Whether two noun modifiers share the WordNet lexname of their first noun sense ("soccer" and "tennis"
    are both noun.act; "baseball" and "dirt" are not, so "a baseball cap" and "a dirt bike" keep theirs)."""
    n1 = resources.lexnames(m1.lemma_.lower(), "n", 1)
    return bool(n1) and n1 == resources.lexnames(m2.lemma_.lower(), "n", 1)


def _breaks_compound(m1, m2) -> bool:
    """Whether swapping noun modifiers ``m1`` and ``m2`` breaks a compound WordNet 3.0 lists ("swimming pool"
    -> "swim pool", while "soccer ball" -> "tennis ball" is listed too) or trades two forms of one word ("swim
    trunks ... swimming pool") or a word and its kind ("soccer strips ... a sports field": soccer is a sport, q40
    readers): the meaning stays."""
    wn = resources.wordnet()
    bases = [{m.lower_, wn.morphy(m.lower_, "v"), wn.morphy(m.lower_, "n")} - {None} for m in (m1, m2)]
    if bases[0] & bases[1]:
        return True
    firsts = [resources.synsets(m.lower_, "n")[:1] for m in (m1, m2)]
    if all(firsts) and (firsts[0][0].name() in _ancestors(m2.lower_) or firsts[1][0].name() in _ancestors(m1.lower_)):
        return True
    for mod, other in ((m1, m2), (m2, m1)):
        head = mod.head.lower_
        # a doer noun by its thing: "mountain biker" is a rider of a mountain bike, so "A woodland biker ... on a
        # mountain path" breaks it (q9 readers)
        heads = (head, head[:-1], head[:-2]) if head.endswith("er") and len(head) > 4 else (head,)
        if any(resources.synsets(f"{mod.lower_}_{h}", "n") and not resources.synsets(f"{other.lower_}_{h}", "n")
               for h in heads):
            return True
    return False


@functools.lru_cache(maxsize=65536)
def _ancestors(lemma: str) -> frozenset[str]:
    """Names of the synsets above (and including) the first WordNet noun sense of ``lemma``."""
    senses = resources.synsets(lemma, "n")
    if not senses:
        return frozenset()
    first = senses[0]
    above = first.closure(lambda x: x.hypernyms() + x.instance_hypernyms())
    return frozenset({first.name()} | {s.name() for s in above})


# garments whose first WordNet 3.0 sense is another thing ("top": the upper part), read in their garment sense
# after "in", "with" or "wearing" ("a woman in an orange top and black shorts")
GARMENT_SENSES = {"top": "top.n.10", "tops": "top.n.10"}


@functools.lru_cache(maxsize=64)
def _sense_and_above(name: str) -> frozenset[str]:
    """The synset ``name`` and the names of the synsets above it."""
    sense = resources.wordnet().synset(name)
    return frozenset({name} | {s.name() for s in sense.closure(lambda x: x.hypernyms() + x.instance_hypernyms())})


def _worn_garment(tok) -> bool:
    """A noun of :data:`GARMENT_SENSES` worn by someone: object of "in"/"with"/"wearing", or joined to one."""
    head = tok
    while head.dep_ == "conj":
        head = head.head
    return tok.lower_ in GARMENT_SENSES and head.dep_ in ("pobj", "dobj") \
        and head.head.lower_ in ("in", "with", "wearing")


# nouns whose first WordNet 3.0 sense is seldom the one of a photo caption, read in that one ("a slide": the
# playground chute, slide.n.04, not a microscope slide)
CAPTION_SENSES = {"slide": "slide.n.04", "slides": "slide.n.04",
                  # a flat piece for a purpose (a cutting board, a surf board), not a committee
                  "board": "board.n.03", "boards": "board.n.03",
                  # a set of clothes, not a group of people
                  "outfit": "outfit.n.02", "outfits": "outfit.n.02",
                  # a tree's limb, not a division of an organization ("A small dog is jumping over a branch" ->
                  # "A dog is jumping over a small branch")
                  "branch": "branch.n.02", "branches": "branch.n.02",
                  # links of metal, a beam of wood, a crown worn ("A brown dog is jumping over a chain" -> "A dog is
                  # jumping over a brown chain"), not a series, a radio signal or the monarchy
                  "chain": "chain.n.03", "chains": "chain.n.03", "beam": "beam.n.02", "beams": "beam.n.02",
                  "crown": "crown.n.04", "crowns": "crown.n.04",
                  # a club for hitting a ball, not the animal ("A blue and red dog is playing with a brown bat", q16)
                  "bat": "bat.n.05", "bats": "bat.n.05"}


def _noun_ancestors(tok, animals: frozenset[str] = frozenset()) -> frozenset[str]:
    """:func:`_ancestors` of a noun token, by its own form for a garment of :data:`PLURALIA_TANTUM`, in the
    garment sense for a worn noun of :data:`GARMENT_SENSES`, in the sense of :data:`CAPTION_SENSES`, and in its
    first animal sense for a word of ``animals`` (the animal_nouns lexicon: WordNet's first "tiger" is a fierce
    person, so "blonde", which fits people, would pass from a boy to a tiger; q11 readers)."""
    if animals and (tok.lower_ in animals or tok.lemma_.lower() in animals):
        sense = next((x for x in resources.synsets(tok.lemma_.lower(), "n") if x.lexname() == "noun.animal"), None)
        if sense is not None:
            return _sense_and_above(sense.name())
    if _worn_garment(tok):
        return _sense_and_above(GARMENT_SENSES[tok.lower_])
    if tok.lower_ in CAPTION_SENSES:
        return _sense_and_above(CAPTION_SENSES[tok.lower_])
    if tok.lower_ in PLURALIA_TANTUM:
        return _ancestors(tok.lower_)
    return _ancestors(tok.lemma_.lower())


def _fits(classes: frozenset[str], h1, h2, hosts, words: tuple[str, ...] = (),
          animals: frozenset[str] = frozenset()) -> bool:
    """Whether an adjective of one of ``classes`` may pass between nouns ``h1`` and ``h2``: both descend from
    an entry that ``hosts`` (``{class: [synset names]}``) lists for one of the classes; an entry "a+b" is the
    union of synsets a and b ("person.n.01+animal.n.01": a young boy, a young dog). An adjective of ``words``
    listed under ``hosts["words"]`` uses its own entries instead of its class's ("grassy" fits land, not a
    hat: "a grassy balloon hat")."""
    own = hosts.get("words") or {}
    if any(w in own for w in words):
        if not all(_fits(frozenset({"_"}), h1, h2, {"_": own[w]}, animals=animals) for w in words if w in own):
            return False
        if all(w in own for w in words):
            return True
        # the other word of a swap still needs its class's hosts: "blond" fits a horse, but "brown" no woman ("A
        # young brown woman is sitting atop a blond draft horse", q10 readers)
    a1, a2 = _noun_ancestors(h1, animals), _noun_ancestors(h2, animals)
    entries = (set(str(e).split("+")) for c in classes for e in hosts.get(c, ()))
    return any(a1 & parts and a2 & parts for parts in entries)


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
    if not sampled(f"swap_modifiers|{','.join(params.deps)}", doc, params.rate) or _garbled(doc):
        return
    mods = [t for t in doc
            if t.dep_ in params.deps and t.pos_ in params.pos and t.head.pos_ in params.head_pos
            and (not params.head_tags or t.head.tag_ in params.head_tags)
            and t.lower_ not in params.exclude and t.i < t.head.i and _premodifier(t, params.head_deps)
            and (t.is_alpha or not params.words_only)
            and not resources.lexnames(t.head.lemma_.lower(), "n", 1) & set(params.head_not_lexnames)]
    classes = None
    if params.class_lexicon:
        classes = _classes(ruleset, [params.class_lexicon] + params.extra_class_lexicons)
        mods = [m for m in mods if m.lower_ in classes]
    hosts = ruleset.lexicon(params.hosts_lexicon) if params.hosts_lexicon and classes is not None else None
    animals = ruleset.lexicon_set("animal_nouns")
    symmetric = ruleset.lexicon_set(params.symmetric_verbs_lexicon) if params.symmetric_verbs_lexicon \
        else frozenset()
    children = ruleset.lexicon_set(params.child_lexicon) if params.child_lexicon else frozenset()
    adults = ruleset.lexicon_set(params.adult_lexicon) if params.adult_lexicon else frozenset()
    if params.shade_words:
        mods = [m for m in mods if not (m.i and doc[m.i - 1].lower_ in params.shade_words)
                and not (m.lower_ in params.shade_words and m.i + 1 < len(doc)
                         and (doc[m.i + 1].pos_ == "ADJ" or classes is not None and doc[m.i + 1].lower_ in classes))]
                # "a small light tan dog" (tan tagged a noun) -/-> "a small brown tan dog ... a light dog" (q7)
    for i, m1 in enumerate(mods):
        for m2 in mods[i + 1:]:
            if m1.head == m2.head or m1.lower_ == m2.lower_:
                continue
            if _coordinated_same(m1.head, m2.head) or _coordinated_same(_owner(m1.head), _owner(m2.head)):
                continue  # "a black dog and a white dog" -> "a white dog and a black dog": same meaning; so too
                # "a man with yellow pants and a man with black pants"
            if symmetric and _role_swap_only(_wearer(m1.head), _wearer(m2.head), [span(m1), span(m2)], symmetric):
                continue  # "A tall man is talking to a short man": only the roles would trade
            if params.same_lexname and not _same_first_lexname(m1, m2):
                continue
            if params.not_lexnames and resources.lexnames(m1.lower_, "n", 1) & set(params.not_lexnames):
                continue
            if m2.i > m1.i and m2.tag_ == "JJR" and m1.tag_ != "JJR" and m2.lower_ not in ("older", "younger"):
                continue  # a comparative would come before what it compares with ("Two little dogs ... a larger
                # dog" -/-> "Two larger dogs ... a little dog", q28 readers); "an older man" stands alone, and two
                # comparatives compare with each other ("The larger dog is barking at the smaller dog")
            if params.not_attached and any(b.head.dep_ == "prep" and b.head.head == a
                                           for a, b in ((m1.head, m2.head), (m2.head, m1.head))):
                continue
            if m1.dep_ == m2.dep_ == "compound" and _breaks_compound(m1, m2):
                continue
            if classes is not None and not classes[m1.lower_] & classes[m2.lower_]:
                continue
            if params.require_class and not (params.require_class in classes[m1.lower_]
                                             and params.require_class in classes[m2.lower_]):
                continue
            if params.parts and not _animal_and_part(m1.head, m2.head, set(params.parts), ruleset):
                continue
            if any({m1.lower_, m2.lower_} <= set(group) for group in params.synonyms):
                continue  # "small" and "little": the swap would change nothing
            if m1.pos_ == m2.pos_ == "NOUN" and set(resources.synsets(m1.lower_, "n")[:2]) \
                    & set(resources.synsets(m2.lower_, "n")[:2]):
                continue  # "a bicycle trick at a bike park": one thing by two names (p5 readers)
            if children and any(m.lower_ in params.adult_words and {h.lemma_.lower(), h.lower_} & children
                                for m, h in ((m1, m2.head), (m2, m1.head))):
                continue  # "an old girl"
            if adults and any(m.lower_ in params.youth_words and {h.lemma_.lower(), h.lower_} & adults
                              for m, h in ((m1, m2.head), (m2, m1.head))):
                continue  # "a teenage man"
            if any(t.i not in (h.i, m.head.i) and t.pos_ == "NOUN" and t.lemma_ == h.lemma_
                   and any(c.dep_ == "amod" and c.lower_ == m.lower_ for c in t.children)
                   for m, h in ((m1, m2.head), (m2, m1.head)) for t in doc):
                continue  # "A black dog is following a brown dog that is carrying a brown plate" -/-> "A brown dog is
                # following a brown dog": two dogs alike read as one (q23 readers)
            (a0, a1), (b0, b1) = span(m1), span(m2)
            if hosts is not None:  # (hosts implies classes)
                # every colour of a pair moves: "yellow and orange" fits a tube, not a dog (r13, seed-2 build)
                common = classes[m1.lower_] & classes[m2.lower_]
                for t in (*doc[a0:a1], *doc[b0:b1]):
                    if t.dep_ == "conj":
                        common &= classes.get(t.lower_, frozenset())
                if not _fits(common, m1.head, m2.head, hosts, (m1.lower_, m2.lower_), animals):
                    continue
            if a1 > b0 or a1 > m1.head.i + 1 or b1 > m2.head.i:
                continue
            if classes is not None and (_stacks_on(doc[a0:a1], m2.head, (b0, b1), classes)
                                        or _stacks_on(doc[b0:b1], m1.head, (a0, a1), classes)):
                continue  # "another smaller, black dog" -/-> "another smaller, large golden dog" (r8 readers)
            ta, tb = sent.span_text(a0, a1), sent.span_text(b0, b1)
            if ta.lower() == tb.lower() or ta.lower() == m2.head.lower_ or tb.lower() == m1.head.lower_:
                continue  # "a bike rider on a dirt bike" -/-> "a dirt rider on a bike bike"
            if sorted(ta.lower().replace(",", " ").split()) == sorted(tb.lower().replace(",", " ").split()):
                continue  # "a black and white dog ... a white and black dog": the same colours (q1 readers)
            s = sent.fork()
            s.set_span(a0, a1, tb)
            s.set_span(b0, b1, ta)
            yield s.edits
    if params.joined_garments and classes is not None and hosts is not None:
        yield from _swap_joined(sent, classes, hosts, params, animals)


def _swap_joined(sent, classes, hosts, params, animals: frozenset[str] = frozenset()):
    """Trade the adjectives of two nouns joined by "and" that the parser read as one ("a blue helmet and
    purple pants": "helmet" a modifier of "pants", "purple" a conjunct of "helmet"): "A person with a blue
    helmet and purple pants" -> "A person with a purple helmet and blue pants". Only the plain shape
    ADJ NOUN and ADJ NOUN, both adjectives of one class, both nouns hosts of it."""
    doc = sent.doc
    for a1 in doc:
        first = a1.head
        if a1.dep_ != "amod" or a1.i + 1 != first.i or first.pos_ != "NOUN" or first.dep_ not in ("nmod", "amod",
                                                                                                   "compound"):
            continue
        if first.i + 3 >= len(doc) or doc[first.i + 1].lower_ != "and":
            continue
        a2, second = doc[first.i + 2], doc[first.i + 3]
        if a2.pos_ != "ADJ" or a2.dep_ != "conj" or a2.head != first or first.head != second \
                or second.pos_ != "NOUN" or list(a2.children) or list(a1.children):
            continue
        shared = classes.get(a1.lower_, frozenset()) & classes.get(a2.lower_, frozenset())
        if not shared or a1.lower_ == a2.lower_ or a1.lower_ in params.exclude or a2.lower_ in params.exclude:
            continue
        if params.shade_words and (a1.lower_ in params.shade_words or a2.lower_ in params.shade_words):
            continue
        if not _fits(shared, first, second, hosts, (a1.lower_, a2.lower_), animals):
            continue
        s = _traded(sent, (a1.i, a1.i + 1), (a2.i, a2.i + 1))
        if s is not None:
            yield s.edits


def _animal_and_part(h1, h2, parts: set[str], ruleset) -> bool:
    """``h1`` an animal (:func:`animacy`) and ``h2`` one of ``parts`` in a "with" phrase attached to it ("a white
    dog with brown spots"), with no other colour word in that phrase."""
    prep = h2.head
    if h2.lower_ not in parts and h2.lemma_.lower() not in parts or h2.dep_ != "pobj" \
            or prep.lower_ != "with" or prep.head != h1:
        return False
    words = ruleset.lexicon_set("person_nouns") | ruleset.lexicon_set("animate_nouns")
    return animacy(h1, words, animal_words=ruleset.lexicon_set("animal_nouns")) == "animal" \
        and not any(c.dep_ == "conj" for c in h2.children)


class MoveModifierParams(BaseModel):
    class_lexicon: str = "adjective_classes"
    extra_class_lexicons: list[str] = Field(default_factory=list)
    hosts_lexicon: str = "adjective_hosts"
    classes: list[str] = Field(default_factory=list)
    # not "attr": the noun after "is" names the subject again ("A young boxer is a dog" -> "A boxer is a young
    # dog" says the same)
    head_deps: list[str] = Field(default_factory=lambda: [
        "nsubj", "nsubjpass", "dobj", "pobj", "conj", "dative"])
    # receiving nouns refused: descendants of these synsets ("A small child ..." -/-> "a small man": size said
    # of an adult reads as a slight), nouns of these lexicons (mass nouns and settings: "the little milk", "the
    # large beach"), coordinated nouns ("A small horse and rider") and objects of "of" ("a carving of a bear")
    receiver_not_synsets: list[str] = Field(default_factory=list)
    receiver_not_lexicons: list[str] = Field(default_factory=list)
    receiver_plain: bool = False
    # receiving nouns refused when a noun modifies them: a compound names a kind whose size comes with it ("a
    # golf ball" is always little: "A boy is hitting a little golf ball" says nearly what S1 said)
    receiver_not_compound: bool = False
    # receiving nouns refused when one of these modifies them (a noun or an adjective): the modifier gives the look
    # ("a fire hoop" is aflame, so "a tan fire hoop" reads as an odd thing, r13 readers; "a blue grassy surface",
    # q37 readers)
    receiver_not_modifier_words: list[str] = Field(default_factory=list)
    # ...except nouns of these synsets, whose kind leaves the size open ("a winter coat" -> "a little winter coat")
    compound_receiver_synsets: list[str] = Field(default_factory=list)
    # receiving nouns refused after "the": nouns of these synsets, whose "the" is generic ("playing the piano",
    # "talking on the telephone" -/-> "the little piano": an adjective turns the generic "the" into a particular
    # one), and, with ``receiver_not_definite_plural``, any "the" + plural ("the backpacks" -/-> "the little
    # backpacks", which presupposes other backpacks)
    receiver_not_generic_synsets: list[str] = Field(default_factory=list)
    receiver_not_definite_plural: bool = False
    # only the receiving noun must be a host of the class: taking an adjective off a noun never makes it
    # implausible ("A dog is running in the green grass with a ball" -> "... in the grass with a green ball")
    receiver_only_hosts: bool = False
    # when given, the receiving noun must be a word of one of these lexicons ("little" onto a child, "old" onto
    # an adult: "A boy is holding a small ball" -> "A small boy is holding a ball")
    receiver_lexicons: list[str] = Field(default_factory=list)
    # a plural noun without determiner right after "with", "wearing", "holding"... may receive ("wearing
    # collars"), not after another verb or preposition ("doing blue loops", "walking by black stores")
    bare_plurals: bool = False
    # nouns whose adjective stays (a person's colour is the skin's or the hair's: "A white man")
    giver_not_synsets: list[str] = Field(default_factory=list)
    # adjectives that fit one kind of noun only, whatever their class ("blond": hair)
    skip_words: list[str] = Field(default_factory=list)
    # also move two adjectives of a wanted class joined by "and" ("a black and white dog" -> "a black and white
    # Frisbee"), as one
    pairs: bool = False
    # nouns that keep their adjective: bare, they say nothing ("A baby in a white garment" -/-> "A baby in a
    # garment")
    giver_not_words: list[str] = Field(default_factory=list)
    # nouns that keep their only adjective after "with": everyone wears one, everything of the kind has one, so
    # the bare phrase says nothing ("a catcher with a red shirt" -/-> "a catcher with a shirt", "a playpen with
    # a blue floor" -/-> "a blue playpen with a floor", seed-14 readers; "with a helmet" still says something);
    # after "in the" too: "the" picks out one wearer, and a bare garment picks none ("The young boy in the red
    # shirt" -/-> "The young boy in the shirt", q25 readers; "A man in a shirt" still reads)
    giver_not_bare_with: list[str] = Field(default_factory=list)
    # words that shade the colour after them ("a light brown dog", "a reddish brown dog"; any "-ish" word
    # too): such a colour stays, as the shade would be left alone ("A light dog is chasing a brown ball")
    shade_words: list[str] = Field(default_factory=list)
    # when given, a lexicon ``{noun: [adjectives]}``: the receiving noun must be one of its nouns and the moved
    # adjective one listed for it, in place of ``hosts_lexicon`` ("brown" fits grass, "white" sand, "large" a
    # field; "green" grass or "white" snow say nothing new, "black" grass or a "pink" river are not seen)
    receiver_adjectives_lexicon: str | None = None
    # a receiving mass or plural noun without determiner right after a preposition takes the adjective too
    # ("running on grass" -> "running on brown grass", "wading in shallow water" -> "in shallow brown water")
    bare_receivers: bool = False
    # the moved adjective may stand before other plain adjectives of its noun ("A large brown dog" -> "A brown
    # dog"), not only right before it
    outer_adjectives: bool = False
    # an adjective the parser took for a noun modifier ("A tan dog": "tan" a compound tagged JJ) moves too
    adjective_compounds: bool = False
    # an adjective may also leave from before a noun modifier ("a red toy car" -> "a toy car", "a red baseball
    # cap" -> "a baseball cap"), the compound staying with its noun
    over_compounds: bool = False
    # "little", "small", "tiny" land on a garment only when its wearer is none of these (adults): "A little girl
    # in a pink coat" -> "A girl in a little pink coat", not "The man in the little blue shirt" (round 12)
    small_garment_not_wearers_lexicon: str | None = None
    small_words: list[str] = Field(default_factory=lambda: ["little", "small", "tiny"])
    # what is sized to its user as a garment is ("a woman wearing red in a little wheelchair", q35 readers)
    fitted_synsets: list[str] = Field(default_factory=lambda: ["clothing.n.01"])
    # ``{class: [lexicons]}``: an adjective of the class lands only on a noun of these lexicons; WordNet's first
    # sense makes a bat an animal and a controller a person ("swinging a young bat", "holding a young
    # controller", r13 readers of a seed-2 build), so "young" goes only to the people and animals listed
    class_receiver_lexicons: dict[str, list[str]] = Field(default_factory=dict)
    # ``{class: [synsets]}``: an adjective of the class lands on no noun under these (WordNet hypernyms): "young"
    # says nothing new of a young animal ("a young piglet", q3 readers)
    class_receiver_not_synsets: dict[str, list[str]] = Field(default_factory=dict)
    # "little", "small", "tiny" land on none of these when the sentence puts someone in or on it: a little tree
    # holds no boy ("A boy in red is walking in between branches in a little tree", r13 readers)
    small_not_holders: list[str] = Field(default_factory=list)
    rate: float = Field(default=1.0, ge=0, le=1)


# common nouns spelled with a capital, a trademark turned word, which spaCy tags as proper nouns ("a Frisbee")
CAPITALISED_NOUNS = frozenset({"frisbee", "frisbees"})


def _noun(tok) -> bool:
    """A common noun, taking the capitalised words of :data:`CAPITALISED_NOUNS` ("catching a Frisbee") too."""
    return tok.pos_ == "NOUN" or tok.pos_ == "PROPN" and tok.lower_ in CAPITALISED_NOUNS


def _plain_compounds(tokens, head) -> bool:
    """Whether ``tokens`` are plain premodifiers of ``head`` (adjectives, noun modifiers) with no dependents of
    their own, at least one of them a noun modifier ("toy" in "a red toy car", "tan" in "a small tan dog")."""
    return bool(tokens) and any(t.dep_ == "compound" for t in tokens) and all(
        t.head == head and not list(t.children) and (t.dep_ == "amod" and t.pos_ == "ADJ"
                                                     or t.dep_ == "compound" and t.pos_ in ("NOUN", "ADJ"))
        for t in tokens)


def _host(adj, over_compounds: bool):
    """The noun an adjective describes: its head, or with ``over_compounds`` the noun after a noun modifier the
    parser hung it on ("red" on "toy" in "a red toy car", "black" on "tank" in "a black tank top"), unless the
    two words are a WordNet noun ("white water": "A white raft is being paddled through a water river")."""
    head = adj.head
    if over_compounds and head.dep_ == "compound" and head.pos_ == "NOUN" and head.i == adj.i + 1 \
            and head.head.i == adj.i + 2 and head.head.pos_ == "NOUN" and not list(adj.children) \
            and list(head.children) == [adj] and not resources.synsets(f"{adj.lower_}_{head.lower_}", "n"):
        return head.head  # (not a word of its own: "a white water river", "a white race car")
    return head


def _modifier_end(adj, classes, wanted: set[str], pairs: bool) -> int | None:
    """End (exclusive) of the modifier ``adj`` heads: ``adj.i + 1`` for a bare adjective, the end of "black and
    white" with ``pairs`` (the conjunct an adjective of a ``wanted`` class without dependents of its own);
    None for any other modifier ("very big", "black, white and brown")."""
    kids = list(adj.children)
    if not kids:
        return adj.i + 1
    if not pairs or len(kids) != 2:
        return None
    cc, conj = kids
    # both of one wanted class: "black and white", not "white and snowy"
    if cc.dep_ != "cc" or cc.lower_ != "and" or cc.i != adj.i + 1 or conj.dep_ != "conj" or conj.i != adj.i + 2 \
            or conj.pos_ != "ADJ" or list(conj.children) \
            or not wanted & classes.get(conj.lower_, frozenset()) & classes.get(adj.lower_, frozenset()):
        return None
    return conj.i + 1


# heads of "of" phrases that name a place ("in front of a building"), whose object is a plain argument
PLACE_PARTS = frozenset({"front", "top", "side", "edge", "middle", "back", "bottom", "outside", "inside", "end"})

# English order of premodifiers ("a small old black leather bag"); compounds sit next to the noun
ADJECTIVE_ORDER = {"mood": 0, "size": 1, "portable_size": 1, "child_size": 1, "age": 2, "thing_age": 2,
                   "temperature": 3, "wetness": 3, "cleanliness": 3, "speed": 3, "gender": 3, "colour": 4,
                   "natural_colour": 4, "material": 5, "surface": 5}
COMPOUND_ORDER = 6


WHITE_SURFACES = frozenset({"snowy", "icy", "frosty", "snow-covered"})
"""Adjectives that give their noun its colour: no other colour goes beside them ("a blue snowy surface")."""
CLASS_FAMILIES = {"portable_size": "size", "child_size": "size", "thing_age": "age"}
"""Adjective classes that say the same kind of thing: two of one family on one noun read as a clash or a
redundancy ("a skinny large dog", "a tall large fence"; r8 readers)."""


def _stacked(old: frozenset[str], new: frozenset[str]) -> bool:
    """Whether an adjective of classes ``new`` next to one of classes ``old`` would stack two of a family
    (:data:`CLASS_FAMILIES`), or a child's size next to an age ("a little young boy": "little" already says
    young; r8 readers)."""
    fam_old = {CLASS_FAMILIES.get(k, k) for k in old}
    fam_new = {CLASS_FAMILIES.get(k, k) for k in new}
    return bool(fam_old & fam_new) or "child_size" in old and "age" in fam_new \
        or "child_size" in new and "age" in fam_old


def _stacks_on(words, noun, replaced: tuple[int, int], classes) -> bool:
    """Whether ``words`` put in place of the tokens ``replaced`` among ``noun``'s premodifiers would stack
    with an adjective that stays there (:func:`_stacked`)."""
    staying = [c for c in noun.children if c.dep_ == "amod" and not replaced[0] <= c.i < replaced[1]
               and c.lower_ in classes]
    return any(_stacked(classes[k.lower_], classes[w.lower_]) for k in staying for w in words if w.lower_ in classes)


def _insertion_point(noun, new_classes: frozenset[str], classes, bare: bool = False) -> int | None:
    """Token index before which an adjective of ``new_classes`` goes among ``noun``'s premodifiers, in English
    order (:data:`ADJECTIVE_ORDER`: "a dog" -> "a black dog", "a tennis ball" -> "a black tennis ball", "a
    small dog" -> "a small black dog"); None when the noun has no determiner, number or possessive, already has
    an adjective (or a noun modifier: "metal") of that class, or has a premodifier whose place is unknown. With
    ``bare``, a mass or plural noun without determiner whose phrase follows a preposition is taken too ("on
    grass" -> "on brown grass")."""
    left = sorted((c for c in noun.children if c.i < noun.i), key=lambda c: c.i)
    if bare and noun.tag_ in ("NN", "NNS") and not any(c.dep_ in ("det", "poss", "nummod", "predet") for c in left):
        first = left[0].i if left else noun.i
        if first == 0 or noun.doc[first - 1].pos_ != "ADP":
            return None  # "on grass", "in shallow water": the preposition stands where a determiner would
    elif not left or left[0].dep_ not in ("det", "poss", "nummod") or noun.doc[noun.i - 1] not in left:
        return None
    new_order = min(ADJECTIVE_ORDER.get(c, 3) for c in new_classes)
    pre = []
    for c in left:
        if c.dep_ in ("det", "poss", "nummod") and not pre:
            continue
        if list(c.children):
            return None  # "black and white", "very big"
        if c.dep_ == "amod" and c.lower_ in classes:
            if classes[c.lower_] & new_classes or _stacked(classes[c.lower_], new_classes):
                return None
            if c.lower_ in WHITE_SURFACES and new_classes & {"colour", "natural_colour"}:
                return None  # "a blue snowy surface" (p6 readers): snow says white
            kinds = classes[c.lower_]
            # "grassy", "sandy" name what a surface is made of and follow a colour like a material ("a brown
            # grassy field", not "a grassy brown field"), though they are also wetness words
            pre.append((c.i, ADJECTIVE_ORDER["surface"] if "surface" in kinds
                        else min(ADJECTIVE_ORDER.get(k, 3) for k in kinds)))
        elif c.dep_ == "compound" and c.pos_ == "NOUN":
            if classes.get(c.lower_, frozenset()) & new_classes:
                return None  # "the metal railing" -/-> "the wooden metal railing"
            pre.append((c.i, COMPOUND_ORDER))
        else:
            return None
    if [i for i, _ in pre] != list(range(noun.i - len(pre), noun.i)):
        return None
    return next((i for i, order in pre if order > new_order), noun.i)


@action("move_modifier", stages=("S4",), params=MoveModifierParams)
def move_modifier(sent, params: MoveModifierParams, ruleset):
    """Move one adjective to another noun of the same kind; Marelli et al. 2014, Table 3 (S4, scrambling).

    SICK: "The man in the hat is smoking a straw cigarette" / "The man in the straw hat is smoking a
    cigarette"; "A black dog is chasing a cat" -> "A dog is chasing a black cat". The adjective is a single
    word of a class in ``classes`` of ``class_lexicon``, a premodifier of an argument noun; the receiving noun
    has a determiner, number or possessive, no adjective of that class, a different lemma, and both nouns
    descend from a synset that ``hosts_lexicon`` lists for the adjective's class (garment to garment, animal to
    animal), so the moved adjective still fits; it goes in English adjective order (:func:`_insertion_point`).
    Not onto a counted noun ("two dogs", "one dog"), nor off a noun whose lemma occurs twice ("two white dogs
    and one brown dog": the adjective tells them apart). With ``receiver_adjectives_lexicon`` the receiving
    nouns and the adjectives each takes come from that lexicon instead of the hosts (ground, water, open places:
    "A brown dog is running on grass" -> "A dog is running on brown grass", ``bare_receivers`` letting a bare
    mass noun after a preposition receive); issue 11, round 9.
    """
    doc = sent.doc
    if not sampled("move_modifier", doc, params.rate) or _garbled(doc):
        return
    classes = _classes(ruleset, [params.class_lexicon] + params.extra_class_lexicons)
    wanted = set(params.classes)
    deps = ("amod", "compound") if params.adjective_compounds else ("amod",)
    ends = {t.i: _modifier_end(t, classes, wanted, params.pairs) for t in doc
            if t.dep_ == "amod" or t.dep_ in deps and t.tag_ == "JJ"}
    heads = {t.i: _host(t, params.over_compounds) for t in doc if t.i in ends}
    mods = [t for t in doc if t.i in ends and t.pos_ == "ADJ" and ends[t.i] is not None
            and (heads[t.i] != t.head and heads[t.i].dep_ in params.head_deps
                 or heads[t.i] == t.head and (
                     ends[t.i] == t.head.i or params.outer_adjectives and t.lower_ not in params.shade_words
                     and _plain_adjectives(doc[ends[t.i]:t.head.i], t.head)
                     or params.over_compounds and t.lower_ not in params.shade_words
                     and _plain_compounds(doc[ends[t.i]:t.head.i], t.head))
                 and _premodifier(t, params.head_deps))
            and _noun(heads[t.i]) and wanted & classes.get(t.lower_, frozenset())
            and (heads[t.i].i < len(doc) - 1
                 or any(c.dep_ in ("det", "poss", "nummod") for c in heads[t.i].children))
            and not any(x.dep_ == "cc" for x in doc[heads[t.i].left_edge.i:t.i])
            and not (t.i > 0 and doc[t.i - 1].lower_ in ("and", "or", ",", "&"))]
    # (and not out of "brown and white" or "a large brown and a small white dog", which would leave "and" bare)
    # (a last word without determiner may be a verb read as a noun: "another man in red watches")
    if not mods:
        return  # most S1s: the receivers below cost a third of this rule's time
    targets = [t for t in doc if t.dep_ in params.head_deps and _noun(t)
               and not any(c.dep_ == "nummod" or c.lower_ == "one" for c in t.children)
               and not _role_noun(t) and not _misused_object(t) and not _place_part(t)]
    # (not onto "one dog" or "two dogs": a counted noun keeps its description, "two dogs and one brown dog")
    if params.receiver_plain:
        targets = [t for t in targets if not _coordinated(t) and not (
            t.dep_ == "pobj" and t.head.lower_ == "of" and t.head.head.lower_ not in PLACE_PARTS)]
    refused = frozenset().union(*(ruleset.lexicon_set(n) for n in params.receiver_not_lexicons))
    not_synsets = set(params.receiver_not_synsets)
    targets = [t for t in targets if t.lemma_.lower() not in refused and t.lower_ not in refused
               and not _noun_ancestors(t) & not_synsets
               and not any(c.lower_ == "no" for c in t.children)  # "wearing no yellow shirt"
               # "another small animal" says the first one is small too (p1 readers of the fourth part)
               and not any(c.lower_ == "another" for c in t.children)
               and not _negated(t)
               and not (_definite(t) and (params.receiver_not_definite_plural and t.tag_ == "NNS"
                                          or _noun_ancestors(t) & set(params.receiver_not_generic_synsets)))]
    if params.receiver_not_modifier_words:
        targets = [t for t in targets if not any(c.dep_ in ("compound", "amod")
                                                 and c.lower_ in params.receiver_not_modifier_words
                                                 for c in t.children)]
    if params.receiver_not_compound:
        targets = [t for t in targets if not any(c.dep_ == "compound" and c.i < t.i for c in t.children)
                   or _noun_ancestors(t) & set(params.compound_receiver_synsets)]
    if params.receiver_lexicons:
        allowed = frozenset().union(*(ruleset.lexicon_set(n) for n in params.receiver_lexicons))
        targets = [t for t in targets if t.lemma_.lower() in allowed or t.lower_ in allowed]
    fitting = ruleset.derived(params.receiver_adjectives_lexicon, _table) if params.receiver_adjectives_lexicon \
        else None
    if fitting is not None:
        targets = [t for t in targets if t.lower_ in fitting or t.lemma_.lower() in fitting]
    noun_count = Counter(t.lemma_.lower() for t in doc if t.pos_ == "NOUN")
    hosts = ruleset.lexicon(params.hosts_lexicon)
    animals = ruleset.lexicon_set("animal_nouns")
    mass = ruleset.lexicon_set("mass_nouns")
    adults = ruleset.lexicon_set(params.small_garment_not_wearers_lexicon) \
        if params.small_garment_not_wearers_lexicon else frozenset()
    class_receivers = {c: frozenset().union(*(ruleset.lexicon_set(x) for x in names))
                       for c, names in params.class_receiver_lexicons.items()}
    for m in mods:
        mh = heads[m.i]  # the noun the adjective describes ("car" in "a red toy car")
        if params.receiver_plain and _coordinated(mh) or mh.dep_ == "conj" and mh.head.lower_ in classes:
            continue  # "a large brown and a small white dog"
        if noun_count[mh.lemma_.lower()] > 1:
            continue  # "two white dogs and one brown dog": the adjective tells the two dogs apart
        if any(c.dep_ == "poss" for c in mh.children) \
                and "noun.person" in resources.lexnames(mh.lemma_.lower(), "n", 1):
            continue  # "his little girl" is his daughter: "his girl wearing orange" reads as a girlfriend (q22)
        if m.i + 1 < len(doc) and doc[m.i + 1].dep_ == "compound" \
                and resources.synsets(f"{m.lower_}_{doc[m.i + 1].lower_}", "n"):
            continue  # "a big wheel bicycle": the adjective is half of a compound (p5 readers: "a wheel bicycle")
        if m.i + 1 == mh.i and resources.lexnames(f"{m.lower_}_{mh.lemma_.lower()}", "n", 1) - {"noun.person"}:
            continue  # "a golden retriever" -/-> "a retriever ... a golden stick": a name WordNet lists (q4);
            # a person's age or size stays free ("little girl", "old man" are WordNet nouns too)
        if params.shade_words and m.i > 0 and (doc[m.i - 1].lower_ in params.shade_words
                                               or doc[m.i - 1].lower_.endswith("ish")):
            continue  # "a light brown dog" -/-> "a light dog ... a brown ball"
        if m.lower_ in params.skip_words or _noun_ancestors(mh) & set(params.giver_not_synsets) \
                or mh.lower_ in params.giver_not_words or mh.lemma_.lower() in params.giver_not_words:
            continue
        if mh.lower_ in params.giver_not_bare_with and mh.dep_ == "pobj" and (
                mh.head.lower_ == "with" or mh.head.lower_ == "in" and any(
                    c.lower_ == "the" for c in mh.children)) and not any(
                c.dep_ in ("amod", "compound", "nummod") and c.i != m.i for c in mh.children):
            continue
        if params.receiver_only_hosts and ((doc[m.i - 1].pos_ == "ADP" and not _worn_after(m) if m.i else False)
                                           or "noun.body" in resources.lexnames(mh.lemma_.lower(), "n", 1)):
            continue  # "a priest in black walking" (a misparse), "the animal with the big eyes" (a feature)
        moved = classes[m.lower_] & wanted
        for t in doc[m.i + 1:ends[m.i]]:
            if t.dep_ == "conj":
                moved &= classes.get(t.lower_, frozenset())  # "black and yellow" moves as a colour, not as a
                # dog's natural one ("A black and yellow greyhound in a shirt", q15 readers)
        for n in targets:
            giver = n if params.receiver_only_hosts else mh
            if n == mh or n.lemma_.lower() == mh.lemma_.lower():
                continue
            if _place_within(n, mh):
                continue  # "a snowy hill in the mountains" -/-> "a hill in the snowy mountains" (same scene)
            if fitting is not None:
                if m.lower_ not in fitting.get(n.lower_, fitting.get(n.lemma_.lower(), frozenset())):
                    continue  # "the green grass" says nothing new, "the black grass" is not seen
                if moved & COLOUR_CLASSES and any(c.dep_ == "prep" and c.lower_ == "of" for c in n.children):
                    continue  # "a field of green grass" has the colour of its grass: no "brown field of" it
            elif not _fits(moved, giver, n, hosts, (m.lower_,), animals):
                continue
            if moved & COLOUR_CLASSES and any(c.dep_ == "prep" and c.lower_ == "of" and any(
                    resources.colour_word(t.lower_) or t.dep_ == "pobj" and t.lower_ in mass for t in c.subtree)
                    for c in n.children):
                continue  # "a white dog with patches of brown and black" -/-> "a dog with white patches of brown
                # and black": the "of" phrase gives the colour (q26 readers); so does a stuff ("a black and white
                # jet of water", q36 readers)
            if adults and m.lower_ in params.small_words and _noun_ancestors(n) & set(params.fitted_synsets):
                wearer = _wearer(n)
                verb = n.head
                while n.dep_ == "dobj" and lemma_of(verb.lower_, "VERB") == "wear" and verb.dep_ == "conj":
                    verb = verb.head  # "The man is holding a boy and wearing a shirt"
                if n.dep_ == "dobj" and n.head.lemma_.lower() == "wear":
                    wearer = next((c for c in verb.children if c.dep_ == "nsubj"), wearer)
                if wearer == n and n.dep_ == "pobj" and n.head.head.dep_ == "acl":
                    wearer = n.head.head.head  # "a woman wearing red in a wheelchair": the phrase hangs on "wearing"
                if wearer != n and (wearer.lemma_.lower() in adults or wearer.lower_ in adults):
                    continue  # "The man in the little blue shirt"
            if any(c in moved and not ({n.lemma_.lower(), n.lower_} & class_receivers[c])
                   for c in class_receivers):
                continue
            if any(c in moved and _noun_ancestors(n) & set(names)
                   for c, names in params.class_receiver_not_synsets.items()):
                continue  # "The children are petting a young piglet": the noun says the age (q3 readers)
            if "age" in moved and any(c.i < n.i and (c.dep_ == "compound" or c.lower_ in _NOT_ALIVE)
                                      for c in n.children):
                continue  # "playing on a young stone bear": an animal of stone is no living one (q15 readers)
            if n.dep_ == "pobj" and n.head.lower_ == "of" and n.head.head.pos_ in ("NUM", "PRON", "DET"):
                continue  # "with one of the dogs showing its fangs" -/-> "one of the white dogs": the group was
                # named before, without the colour (q2, q3 readers)
            if any(c.dep_ == "relcl" for c in n.children):
                continue  # "a barrier that is black and white" -/-> "a brown barrier that is black and white": a
                # clause may say the same of it (q7 readers)
            if any(c.i < n.i and (classes.get(c.lower_, frozenset()) & moved
                                  or moved & COLOUR_CLASSES and resources.colour_word(c.lower_, 1))
                   for c in n.children):
                continue  # "the aqua shirt" -/-> "the white aqua shirt": the parse may make the colour a noun
                # modifier, which no adjective of the same class can join (q21 readers)
            if m.lower_ in params.small_words and n.dep_ == "pobj" \
                    and n.head.lower_ in ("in", "on", "up", "into", "onto") \
                    and _noun_ancestors(n) & set(params.small_not_holders):
                continue
            at = _insertion_point(n, moved, classes, params.bare_receivers)
            if at is None and params.bare_plurals and n.tag_ == "NNS" and not list(n.lefts) \
                    and n.i > 0 and doc[n.i - 1].lower_ in HOLDING:
                at = n.i  # "wearing collars" -> "wearing brown collars" (not "doing blue loops")
            end = ends[m.i]
            if at is None or at == end:
                continue
            if at < n.i and doc[at].pos_ == "NOUN" \
                    and resources.lexnames(doc[at].lemma_.lower(), "n", 1) & ANIMATE_LEXNAMES.keys():
                continue  # "a child ice skate" (a misparse) or "a dog collar": the adjective would describe the child
                # or the dog ("helping a dark child ice skate", q11 readers)
            s = sent.fork()
            s.delete(*range(m.i, end))
            text = " ".join(sent.text(i) for i in range(m.i, end))  # lower-cased when sentence-initial
            s.insert_before(at, text)
            yield s.edits


_LAND = frozenset({"noun.object", "noun.location"})
# adjectives of an animal that is no living one ("a fake bear", "a stuffed dog"): it has no age
_NOT_ALIVE = frozenset({"fake", "toy", "stuffed", "plastic", "wooden", "inflatable", "metal", "giant", "cartoon"})


def _place_within(receiver, giver) -> bool:
    """The receiver is the place the giver is in, both places ("a snowy hill in the mountains", "a rocky beach
    on the lake"): the adjective moved from one to the other describes nearly the same scene (r11 reader)."""
    if receiver.head.dep_ != "prep" or receiver.head.head != giver:
        return False
    lexnames = [resources.lexnames(t.lemma_.lower(), "n", 1) for t in (receiver, giver)]
    return all(lex and lex <= _LAND for lex in lexnames)


_PLACE_PARTS_OF = PLACE_PARTS | {"base", "foot"}  # "the base of a mountain", "the foot of a hill"


def _place_part(noun) -> bool:
    """A part of a place named with its "of" phrase ("at the base of a mountain", "the top of the hill"), which
    takes no colour or size of its own ("at the green base of a mountain")."""
    return noun.lower_ in _PLACE_PARTS_OF \
        and any(c.dep_ == "prep" and c.lower_ == "of" for c in noun.children)


def _negated(noun) -> bool:
    """A noun said to be absent: the object of "without" ("A man without a shirt on") or of a negated verb ("A man
    not wearing a shirt"), which a moved adjective would describe as if it were there."""
    head = noun.head
    if noun.dep_ == "pobj" and head.lower_ == "without":
        return True
    return noun.dep_ == "dobj" and any(c.dep_ == "neg" for c in head.children)


def _plain_adjectives(tokens, head) -> bool:
    """Whether ``tokens`` are adjectives of ``head`` without dependents of their own ("brown" in "a large brown
    dog"), so that an adjective before them can leave and they stay."""
    return bool(tokens) and all(t.dep_ == "amod" and t.pos_ == "ADJ" and t.head == head and not list(t.children)
                                for t in tokens)


# adjective classes naming a colour
COLOUR_CLASSES = frozenset({"colour", "natural_colour"})


# forms of "ride" (spaCy lemmatizes "riding" to "rid")
RIDE_FORMS = frozenset({"ride", "rides", "riding", "rode", "ridden"})


def _misused_object(noun) -> bool:
    """A noun after a preposition or verb that cannot take it, a slip of the caption that a moved adjective
    would only underline: an animal one rides "in" ("riding in a horse"), a toy or ball one "plays" without
    "with" ("A kitten is playing a ball")."""
    head = noun.head
    if noun.dep_ == "pobj" and head.lower_ == "in" and head.head.lower_ in RIDE_FORMS:
        return True
    return noun.dep_ == "dobj" and head.lemma_.lower() == "play" \
        and bool(_noun_ancestors(noun) & {"plaything.n.01", "ball.n.01"})


def _role_noun(noun) -> bool:
    """A noun after "as" that names what its subject is or plays ("A young boy is dressed as a pirate"): an
    adjective moved onto it describes the subject again ("A boy is dressed as a young pirate" says nearly the
    same), like the noun after "is"."""
    return noun.dep_ == "pobj" and noun.head.lower_ == "as"


def _definite(noun) -> bool:
    """``noun`` has the determiner "the"."""
    return any(c.dep_ == "det" and c.lower_ == "the" for c in noun.children)


def _worn_after(adj) -> bool:
    """An adjective right after "in" or "with" whose noun is a garment named by a plural ("in yellow pants",
    "in blue goggles"), which the parser reads right, unlike "a priest in black walking"."""
    noun = adj.head
    return adj.doc[adj.i - 1].lower_ in ("in", "with") and noun.tag_ == "NNS" \
        and bool(_noun_ancestors(noun) & _WEARABLE)


def pobj_of(prep):
    """The object of a preposition or participle ("in a hat", "wearing a hat")."""
    return next(c for c in prep.children if c.dep_ in ("pobj", "dobj"))


class MovePhraseParams(_AnimacyParams):
    prepositions: list[str] = Field(default_factory=lambda: ["in", "with"])
    participles: list[str] = Field(default_factory=lambda: ["wearing"])
    object_synsets: list[str] = Field(default_factory=lambda: ["clothing.n.01"])
    # colour words standing for clothes after "in" ("a player in blue", "the player in black and white")
    object_words: list[str] = Field(default_factory=list)
    head_deps: list[str] = Field(default_factory=lambda: ["nsubj", "nsubjpass", "dobj", "pobj", "conj"])
    # group nouns that take no single garment either way ("a crowd in an orange shirt")
    collective_nouns: list[str] = Field(default_factory=list)
    # garments worn by women only, which move onto a noun of ``female_nouns`` only ("a boy in a pink dress")
    gendered_clothing: list[str] = Field(default_factory=list)
    female_nouns: list[str] = Field(default_factory=list)
    rate: float = Field(default=1.0, ge=0, le=1)


def _womens_wear(phrase_tokens, owner, params) -> bool:
    """A phrase naming a garment of ``params.gendered_clothing`` that would land on a noun not in
    ``params.female_nouns``."""
    garments = {t.lemma_.lower() for t in phrase_tokens} | {t.lower_ for t in phrase_tokens}
    return bool(garments & set(params.gendered_clothing)) \
        and not {owner.lemma_.lower(), owner.lower_} & set(params.female_nouns)


def _coordinated(tok) -> bool:
    """A noun in a coordination ("a person ... and a mohawk"): moving a phrase onto or off it would break the
    agreement of the verb or leave "and" bare."""
    return tok.dep_ == "conj" or any(c.dep_ in ("conj", "cc") for c in tok.children)


@action("move_phrase", stages=("S4",), params=MovePhraseParams)
def move_phrase(sent, params: MovePhraseParams, ruleset):
    """Move a prepositional phrase describing what a person wears from one person to another; Marelli et al.
    2014, Table 3 (S4, scrambling).

    SICK: "A nude lady is walking in front of a crowd in body paint" / "A nude crowd in body paint is walking
    in front of a lady"; "A girl in a pink dress is talking to a boy" -> "A girl is talking to a boy in a pink
    dress". The phrase is "in"/"with" (``prepositions``) or "wearing" (``participles``) plus an object whose
    first WordNet sense descends from one of ``object_synsets`` (clothing), attached right after its noun; the
    receiving noun is animate of the same kind (person or animal; :func:`animacy`), has another lemma, no
    phrase after it and is an argument (``head_deps``), so the phrase lands right after it; neither noun is
    one of ``collective_nouns`` (a crowd wears no single shirt).
    """
    doc = sent.doc
    if not sampled("move_phrase", doc, params.rate):
        return
    words, not_words, not_modifiers, animals = _animacy_lexicons(params, ruleset)

    def kind_of(tok):
        return animacy(tok, words, not_words, not_modifiers, animals)

    phrases = _worn_phrases(doc, params)
    if not phrases:
        return
    targets = [t for t in doc if t.dep_ in params.head_deps and t.pos_ == "NOUN"
               and not [c for c in t.children if c.i > t.i] and not _coordinated(t)]
    for prep, start, end in phrases:
        owner = prep.head
        kind = kind_of(owner)
        if kind is None or _coordinated(owner) or owner.lemma_.lower() in params.collective_nouns:
            continue
        for t in targets:
            if t.lemma_.lower() in params.collective_nouns or t.lower_ in params.collective_nouns:
                continue  # "a crowd in an orange shirt"
            if t.i + 1 < len(doc) and doc[t.i + 1].lower_ in _WEAR_WORDS:
                continue  # "the player in white": the parser hung "in white" on the verb, yet it is his
            if t.i + 1 < len(doc) and doc[t.i + 1].dep_ == "cc":
                continue  # "holding a baby and with three children": the phrase would land before "and"
            if _plural(t) and not _plural(pobj_of(prep)) and pobj_of(prep).lower_ not in params.object_words:
                continue  # "two ladies in a fancy jacket"
            if not _plural(t) and _plural(owner) and _plural(pobj_of(prep)) \
                    and pobj_of(prep).lower_ not in PLURALIA_TANTUM:
                continue  # "two girls in dresses" -/-> "A woman in dresses" (one of several garments, r13 seed 2);
                # "in jeans", "in shorts" name one garment by a plural and may move
            if _womens_wear(doc[start:end], t, params):
                continue  # "A girl is hugging a boy in a pink dress"
            if t.dep_ in _SUBJECT and t.head.lemma_.lower() in ("wear", "dress"):
                continue  # "The runner is wearing a red tank top" -/-> "The runner in black is wearing a red tank
                # top": what the sentence says she wears already (q7 readers)
            if t == owner or t.lemma_.lower() == owner.lemma_.lower() or start <= t.i < end \
                    or kind_of(t) != kind or (t.dep_ not in _SUBJECT and _misparsed_end(doc, t.i + 1)):
                continue
            s = sent.fork()
            text = sent.span_text(start, end)
            s.delete(*range(start, end))
            s.insert_after(t.i, text)
            yield s.edits


class SwapPhrasesParams(MovePhraseParams):
    """Parameters of :func:`swap_phrases`: those of :func:`move_phrase`, and ``symmetric_verbs_lexicon``."""
    # verbs that two people do nearly alike to each other (talk to, kiss, fight): when the two owners are
    # arguments of one such verb and have the same head noun, trading what they wear only trades their roles
    # and says nearly the same thing ("A man wearing a brown shirt is talking to a man in a white shirt" / "A
    # man in a white shirt is talking to a man wearing a brown shirt")
    symmetric_verbs_lexicon: str | None = None


_WEAR_WORDS = frozenset({"in", "with", "wearing"})
# ("along", "across", "through", "around": q34 readers, "running with a white and gray dog along dirt")
_SCENE_PREPOSITIONS = frozenset({"on", "at", "under", "by", "inside", "outside", "along", "across", "through",
                                 "around"})


def _role_swap_only(o1, o2, traded: list[tuple[int, int]], verbs: frozenset[str]) -> bool:
    """Whether trading the token spans ``traded`` between the noun phrases of ``o1`` and ``o2`` only trades
    their roles: both are arguments of one verb of ``verbs`` (lemmas) or of a symmetric preposition ("next
    to", "beside", "with") and, but for the traded spans (and
    determiners and "in"/"with"/"wearing"), their phrases have the same words ("A man wearing a brown shirt"
    and "a man in a white shirt"; not "a small white dog" and "a bigger brown dog", nor "two white dogs" and "a
    brown dog")."""
    verb, other = _clause_verb(o1), _clause_verb(o2)
    if other is not None and other != verb and other.dep_ == "conj" and other.head == verb:
        other = verb  # "is playing or fighting with a dog": one pair of verbs (q40 readers)
    if verb is None or verb != other:
        return False
    preps = {o.head.lower_ for o in (o1, o2) if o.dep_ == "pobj"} | {o.head.head.lower_ for o in (o1, o2)
                                                                    if o.dep_ == "pobj"}
    if lemma_of(verb.lower_, "VERB") not in verbs and not preps & _SYMMETRIC_PREPOSITIONS:
        return False

    # a place phrase the parse hangs on one of the nouns says where the scene is, not who is who ("A black and
    # white dog is near a grey and white dog on a beige carpet"); "in"/"with" may say what one wears, so they stay
    # ("in the dirt" is a place too: "in" says what one wears only before a garment or a colour, q39 readers:
    # "A small dog is playing with a large dog in the dirt")
    scene = {t.i for o in (o1, o2) for c in o.children if c.dep_ == "prep" and (
        c.lower_ in _SCENE_PREPOSITIONS or c.lower_ == "in" and not any(
            p.dep_ == "pobj" and (resources.colour_word(p.lower_) or "clothing.n.01" in _noun_ancestors(p))
            for p in c.children)) for t in c.subtree}

    def rest(noun):
        return Counter(t.lower_ for t in noun.subtree if not any(a <= t.i < b for a, b in traded)
                       and t.i not in scene and t.dep_ not in ("det", "punct") and t.lower_ not in _WEAR_WORDS)
    return rest(o1) == rest(o2)


def _worn_phrases(doc, params):
    """``(prep, start, end)``: phrases right after their noun saying what it wears ("in a pink dress",
    "wearing a red hat", "in blue"), without commas, not followed by "and" joined to their object."""
    wanted = set(params.object_synsets)
    words = set(params.object_words)

    def worn(tok):
        return bool(_noun_ancestors(tok) & wanted) or tok.lower_ in words

    out = []
    for prep in doc:
        if not (prep.dep_ == "prep" and prep.lower_ in params.prepositions
                or prep.dep_ == "acl" and prep.lower_ in params.participles) or prep.head.i + 1 != prep.i:
            continue
        pobj = next((c for c in prep.children if c.dep_ in ("pobj", "dobj")), None)
        if pobj is None or not (_noun_ancestors(pobj) & wanted or pobj.lower_ in words and prep.lower_ == "in"):
            continue
        start, end = span(prep)
        if any(t.text in (",", ";", "(", ")") for t in doc[start:end]) or doc[end - 1].dep_ == "cc":
            continue  # "a woman in a white dress and a woman ...": the parser hung "and" on the garment
        if any(t.dep_ == "conj" and t.pos_ in ("NOUN", "PROPN", "ADJ") and not worn(t) for t in doc[start:end]):
            continue  # "wearing a black jacket and another smaller child ...": a person folded into the phrase
        if end < len(doc) and doc[end].dep_ == "cc" and doc[end].head == pobj:
            continue
        out.append((prep, start, end))
    return out


def _traded(sent, a: tuple[int, int], b: tuple[int, int]):
    """A fork of ``sent`` in which token spans ``a`` and ``b`` (start, end) trade their texts; None when the two
    read the same (nothing would change)."""
    ta, tb = sent.span_text(*a), sent.span_text(*b)
    if ta.lower() == tb.lower():
        return None
    s = sent.fork()
    s.set_span(*a, tb)
    s.set_span(*b, ta)
    return s


@action("swap_phrases", stages=("S4",), params=SwapPhrasesParams)
def swap_phrases(sent, params: SwapPhrasesParams, ruleset):
    """Swap the phrases saying what two people (or two animals) wear; Marelli et al. 2014, section 3.2,
    Table 4 (Scramble words).

    "A soccer player in blue is chasing after the player in black and white" -> "A soccer player in black and
    white is chasing after the player in blue"; "A man in a red shirt is talking to a woman in a black coat" ->
    "A man in a black coat is talking to a woman in a red shirt". Each phrase is "in"/"with"/"wearing" plus a
    garment (``object_synsets``) or a colour standing for one (``object_words``, after "in"), right after its
    noun (:func:`_worn_phrases`). The two owners are of the same kind (person or animal, :func:`animacy`),
    neither coordinated nor a group (``collective_nouns``); a garment of ``gendered_clothing`` ("dress",
    "skirt", "bikini") goes only to a noun of ``female_nouns``; a plural garment may go to a singular owner
    from a singular one ("in black pants"), not from a plural one ("six boys in referee shirts" wear one
    each), and a singular garment not to a plural owner ("two ladies in a fancy jacket"). Two owners with the same head
    noun that are both arguments of a near-symmetric verb (``symmetric_verbs_lexicon``: "A man wearing a brown
    shirt is talking to a man in a white shirt") are left alone: the swap would only trade their roles.
    """
    doc = sent.doc
    if not sampled("swap_phrases", doc, params.rate) or _garbled(doc):
        return
    words, not_words, not_modifiers, animals = _animacy_lexicons(params, ruleset)
    collective = set(params.collective_nouns)
    symmetric = ruleset.lexicon_set(params.symmetric_verbs_lexicon) if params.symmetric_verbs_lexicon \
        else frozenset()

    def usable(owner):
        return owner.pos_ == "NOUN" and owner.dep_ in params.head_deps and not _coordinated(owner) \
            and owner.lemma_.lower() not in collective and owner.lower_ not in collective

    def fits(phrase_obj, owner, source):
        if _womens_wear(list(phrase_obj.subtree), owner, params):
            return False  # "a man in a black dress"
        if not _plural(owner) and _plural(phrase_obj) and _plural(source) \
                and phrase_obj.lower_ not in params.object_words:
            return False  # "six boys in referee shirts" wear one each: "a little boy in referee shirts" (p1)
        return not (_plural(owner) and not _plural(phrase_obj) and phrase_obj.lower_ not in params.object_words)

    phrases = [p for p in _worn_phrases(doc, params) if usable(p[0].head)]
    for i, (p1, a0, a1) in enumerate(phrases):
        for p2, b0, b1 in phrases[i + 1:]:
            o1, o2 = p1.head, p2.head
            if o1 == o2 or a1 > b0 or o1.i >= b0 and o1.i < b1 or o2.i >= a0 and o2.i < a1:
                continue
            k1 = animacy(o1, words, not_words, not_modifiers, animals)
            if k1 is None or k1 != animacy(o2, words, not_words, not_modifiers, animals):
                continue
            if not (fits(pobj_of(p1), o2, o1) and fits(pobj_of(p2), o1, o2)) \
                    or _role_swap_only(o1, o2, [(a0, a1), (b0, b1)], symmetric):
                continue
            s = _traded(sent, (a0, a1), (b0, b1))
            if s is not None:
                yield s.edits


class SwapVerbObjectsParams(BaseModel):
    # the two objects must both descend from one of these synsets (food with food, tool with tool), so each
    # fits the other verb: "cutting an onion and peeling a potato", not "sipping a book and reading a coffee"
    object_synsets: list[str] = Field(default_factory=lambda: ["food.n.01", "food.n.02", "vegetable.n.01"])
    # kinds that trade only with their own kind: a drink with a drink ("eating a sandwich and drinking a
    # coffee" -/-> "eating a coffee and drinking a sandwich")
    apart_synsets: list[str] = Field(default_factory=lambda: ["beverage.n.01"])
    fixed_objects_lexicon: str | None = "fixed_verb_objects"
    rate: float = Field(default=1.0, ge=0, le=1)


@functools.lru_cache(maxsize=4096)
def _sense_ancestors(lemma: str, senses: int = 3) -> frozenset[str]:
    """Names of the synsets above (and including) the first ``senses`` WordNet noun senses of ``lemma``
    ("onion" is first a plant, then a vegetable)."""
    out: set[str] = set()
    for sense in resources.synsets(lemma, "n")[:senses]:
        out.add(sense.name())
        out.update(x.name() for x in sense.closure(lambda x: x.hypernyms() + x.instance_hypernyms()))
    return frozenset(out)


@action("swap_verb_objects", stages=("S4",), params=SwapVerbObjectsParams)
def swap_verb_objects(sent, params: SwapVerbObjectsParams, ruleset):
    """Swap the objects of two joined verbs sharing one subject; Marelli et al. 2014, section 3.2, Table 4
    (Scramble words).

    "A man is cutting an onion and peeling a potato" -> "A man is cutting a potato and peeling an onion". The
    second verb is a conjunct of the first without a subject of its own; each has one direct object after it,
    neither coordinated, of different lemmas, neither a fixed object of its verb ("playing the guitar"), both
    descending from one synset of ``object_synsets`` (by one of their first three WordNet senses: "onion" is
    first a plant), so each fits the other verb.
    """
    doc = sent.doc
    if not sampled("swap_verb_objects", doc, params.rate) or _garbled(doc):
        return
    if any(t.lower_ in THIRD_PERSON for t in doc):
        return  # "peeling a potato and cutting it": the pronoun would point to the other thing
    fixed = ruleset.derived(params.fixed_objects_lexicon, _fixed_index) if params.fixed_objects_lexicon else {}
    wanted = set(params.object_synsets)
    for v1 in _main_verbs(doc):
        for v2 in v1.children:
            if v2.dep_ != "conj" or v2.pos_ != "VERB" or v2.i < v1.i or _has_subject(v2):
                continue
            o1 = [c for c in v1.children if c.dep_ == "dobj" and c.i > v1.i]
            o2 = [c for c in v2.children if c.dep_ == "dobj" and c.i > v2.i]
            if len(o1) != 1 or len(o2) != 1:
                continue
            a, b = o1[0], o2[0]
            if a.lemma_.lower() == b.lemma_.lower() or _coordinated(a) or _coordinated(b) \
                    or not _usable_argument(a, set()) or not _usable_argument(b, set()):
                continue
            if fixed_object(v1, a, fixed) or fixed_object(v2, b, fixed) \
                    or fixed_object(v1, b, fixed) or fixed_object(v2, a, fixed):
                continue
            above_a, above_b = _sense_ancestors(a.lemma_.lower()), _sense_ancestors(b.lemma_.lower())
            if not above_a & above_b & wanted or any((k in above_a) != (k in above_b) for k in params.apart_synsets):
                continue
            (a0, a1), (b0, b1) = _trimmed_span(a), _trimmed_span(b)
            if a1 > v2.i or b0 < v2.i:
                continue
            s = _traded(sent, (a0, a1), (b0, b1))
            if s is not None:
                yield s.edits


class SwapClauseSubjectsParams(_AnimacyParams):
    # subordinators of an adverbial clause whose subject may trade places with the main clause's
    # ("A man is singing while a woman is dancing")
    subordinators: list[str] = Field(default_factory=lambda: ["while", "as"])
    # subject heads that point back to another noun ("another boy", "others", "one of them"): not doers of
    # their own that can move
    anaphoric: list[str] = Field(default_factory=lambda: [
        "other", "others", "another", "one", "both", "all", "some", "each", "rest", "third", "second", "same"])
    animal_verbs_lexicon: str | None = "animal_agent_verbs"
    doer_limits_lexicon: str | None = "doer_limits"
    # verbs only a plural or collective subject does ("People are gathering" -/-> "The man is gathering")
    group_verbs: list[str] = Field(default_factory=list)
    rate: float = Field(default=1.0, ge=0, le=1)


def _clause_pairs(doc, subordinators: set[str]):
    """``(verb1, verb2)``: a main verb and a verb of a clause joined to it ("and", "while"), each with its own
    subject before it."""
    for v1 in _main_verbs(doc):
        if v1.dep_ == "conj":
            continue
        for v2 in v1.children:
            if v2.pos_ not in ("VERB", "AUX") or v2.i < v1.i:
                continue
            if v2.dep_ == "conj" or v2.dep_ == "advcl" and any(
                    c.dep_ == "mark" and c.lower_ in subordinators for c in v2.children):
                yield v1, v2


@action("swap_clause_subjects", stages=("S4",), params=SwapClauseSubjectsParams)
def swap_clause_subjects(sent, params: SwapClauseSubjectsParams, ruleset):
    """Swap the subjects of two joined clauses; Marelli et al. 2014, Table 3 (S4, scrambling).

    SICK: "A woman is dancing and a man is playing the keyboard" / "A woman is playing the keyboard and a man
    is dancing"; "A clown is singing and people are dancing" -> "People are singing and a clown is dancing".
    Both subjects are people or animals (:func:`animacy`) with different lemmas, neither points back to the
    other ("another boy", "others", "one of them"), the sentence has no personal pronoun (it would point to the
    wrong one: "A boy is jumping and a girl is watching him"), each subject can do the other clause's verb
    (:func:`_can_do`: "A person is eating pasta and a dog is watching" -/-> "A dog is eating pasta"; a verb of
    ``group_verbs`` only with a plural or collective doer), both verbs are progressive actions (not "is dressed",
    "are huge"), and is/are agrees in each clause (skipped when another word would have to change).
    """
    doc = sent.doc
    if not sampled("swap_clause_subjects", doc, params.rate):
        return
    if any(t.tag_ in ("PRP", "PRP$") or t.lower_ in params.anaphoric for t in doc):
        return  # "him", "one of the men", "another": they would point to the wrong one
    if _owned_body_part(doc):
        return  # "has a toy in the mouth": S1's "the" stands for "its", the owner's
    words, not_words, not_modifiers, animals = _animacy_lexicons(params, ruleset)
    doer_params = SwapArgumentsParams(roles=("subject", "subject"), animal_verbs_lexicon=params.animal_verbs_lexicon,
                                      doer_limits_lexicon=params.doer_limits_lexicon)
    anaphoric = set(params.anaphoric)
    for v1, v2 in _clause_pairs(doc, set(params.subordinators)):
        if not all(v.tag_ == "VBG" and any(c.dep_ == "aux" for c in v.children) for v in (v1, v2)):
            continue  # an action in each clause: "A child is dressed as a ninja" and "The crowds are huge" are states
            # that a swap turns into nonsense ("A ninja is dressed as a child is jumping", "The citizens are huge")
        subjects = []
        for v in (v1, v2):
            subj = [c for c in v.children if c.dep_ in _SUBJECT]
            if len(subj) != 1 or subj[0].i > v.i or not _usable_argument(subj[0], set()):
                break
            subj = subj[0]
            if subj.lower_ in anaphoric or any(t.lower_ in anaphoric for t in subj.subtree):
                break
            kind = animacy(subj, words, not_words, not_modifiers, animals)
            if kind is None or _coordinated(subj):
                break
            subjects.append((subj, kind))
        if len(subjects) != 2:
            continue
        (a, ka), (b, kb) = subjects
        if a.lemma_.lower() == b.lemma_.lower() or _named_again(a) or _named_again(b):
            continue
        def kind_of(tok):
            return animacy(tok, words, not_words, not_modifiers, animals) if tok is not None else None

        def can_do(verb, doer, kind):
            verbs = [verb] + [c for c in verb.children if c.dep_ == "conj" and c.pos_ == "VERB" and not _has_subject(c)]
            return all(_can_do(v, doer, kind, _patient(v), kind_of(_patient(v)), doer_params, ruleset) for v in verbs)

        if not (can_do(v1, b, kb) and can_do(v2, a, ka)):
            continue
        if any(lemma_of(v.lower_, "VERB") in params.group_verbs and _one_doer(doer) for v, doer in ((v1, b), (v2, a))):
            continue
        (a0, a1), (b0, b1) = _trimmed_span(a), _trimmed_span(b)
        if a1 > v1.i or not (v1.i < b0 and b1 <= v2.i):
            continue
        if _predicate(v1, a, v2) == _predicate(v2, b, None):
            continue  # "A man is sitting and a woman is sitting": nothing changes
        ta, tb = sent.span_text(a0, a1), sent.span_text(b0, b1)
        if a0 == 0 and _capitalised_common_noun(doc[0]):
            ta = ta[0].lower() + ta[1:]
        s = sent.fork()
        s.set_span(a0, a1, tb)
        s.set_span(b0, b1, ta)
        if _plural(a) != _plural(b) and not (_agree(s, v1, _plural(b), True) and _agree(s, v2, _plural(a), True)):
            continue
        yield s.edits


def _predicate(verb, subject, skip) -> str:
    """Lower-cased words of ``verb``'s clause without its subject, the clause ``skip`` and conjunctions."""
    out = set(subject.subtree) | (set(skip.subtree) if skip is not None else set())
    return " ".join(t.lower_ for t in verb.subtree if t not in out and t.dep_ not in ("cc", "mark", "punct"))


def _patient(verb):
    """The direct object of ``verb``, or the object of its first preposition, or None."""
    obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if obj is None:
        prep = next((c for c in verb.children if c.dep_ == "prep"), None)
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None) if prep is not None else None
    return obj


class SwapPossessorParams(_AnimacyParams):
    # nouns whose "of" phrase names their owner like a possessive ("the cheek of a man")
    owned_lexnames: list[str] = Field(default_factory=lambda: ["noun.body"])
    animal_verbs_lexicon: str | None = "animal_agent_verbs"
    doer_limits_lexicon: str | None = "doer_limits"
    # verbs of resting one's weight on the owner's body ("A little dog is sitting on a person's bent leg"):
    # traded, the heavier one would sit on the lighter ("A person is sitting on a little dog's leg")
    support_verbs: list[str] = Field(default_factory=list)
    rate: float = Field(default=1.0, ge=0, le=1)


def _owners(verb, owned_lexnames: set[str]):
    """``(owner, (start, end), possessive)``: the possessor of the verb's object or of the object of its
    preposition ("a woman's hand", without the "'s"; possessive True), or the object of "of" after a body part
    that is the verb's direct object ("kissing the cheek of a man"; not "sitting on the backs of camels")."""
    things = [c for c in verb.children if c.dep_ == "dobj"]
    things += [p for c in verb.children if c.dep_ == "prep" for p in c.children if p.dep_ == "pobj"]
    for thing in things:
        for c in thing.children:
            if c.dep_ == "poss" and c.pos_ in ("NOUN", "PROPN") and c.i < thing.i:
                case = next((x for x in c.children if x.dep_ == "case"), None)
                start, end = _trimmed_span(c)
                if case is not None and case.i == end - 1:
                    yield c, (start, end - 1), True
            elif c.dep_ == "prep" and c.lower_ == "of" and c.i == thing.i + 1 and thing.dep_ == "dobj" \
                    and resources.lexnames(thing.lemma_.lower(), "n", 1) & owned_lexnames:
                pobj = next((x for x in c.children if x.dep_ == "pobj"), None)
                if pobj is not None:
                    yield pobj, _trimmed_span(pobj), False


@action("swap_possessor", stages=("S4",), params=SwapPossessorParams)
def swap_possessor(sent, params: SwapPossessorParams, ruleset):
    """Swap the subject with the owner of the thing the verb acts on; Marelli et al. 2014, Table 3 (S4,
    scrambling).

    SICK: "A monkey is pulling a dog's tail" / "A dog is pulling a monkey's tail"; "A woman is rubbing a baby's
    leg" -> "A baby is rubbing a woman's leg"; "A woman is painting the face of a man" -> "A man is painting the
    face of a woman". Both are people or animals (:func:`animacy`) of different lemmas, the owner can do the
    verb (:func:`_can_do`), and is/are agrees with the new subject (skipped when another word would change).
    """
    doc = sent.doc
    if not sampled("swap_possessor", doc, params.rate):
        return
    if any(t.tag_ in ("PRP", "PRP$") or t.lower_ in ("other", "another") for t in doc):
        return  # "her", "the other woman": they would point to the wrong one
    words, not_words, not_modifiers, animals = _animacy_lexicons(params, ruleset)
    doer_params = SwapArgumentsParams(roles=("subject", "subject"), animal_verbs_lexicon=params.animal_verbs_lexicon,
                                      doer_limits_lexicon=params.doer_limits_lexicon)
    for verb in _main_verbs(doc):
        subj = [c for c in verb.children if c.dep_ == "nsubj"]
        if len(subj) != 1 or subj[0].i > verb.i or not _usable_argument(subj[0], set()) or _coordinated(subj[0]) \
                or lemma_of(verb.lower_, "VERB") in params.support_verbs:  # (spaCy's lemma of "riding" is "rid")
            continue
        a = subj[0]
        ka = animacy(a, words, not_words, not_modifiers, animals)
        if ka is None:
            continue
        for b, (b0, b1), possessive in _owners(verb, set(params.owned_lexnames)):
            kb = animacy(b, words, not_words, not_modifiers, animals)
            if kb is None or b.lemma_.lower() == a.lemma_.lower() or _coordinated(b) \
                    or not _usable_argument(b, set()):
                continue
            if not _can_do(verb, b, kb, a, ka, doer_params, ruleset):
                continue
            (a0, a1) = _trimmed_span(a)
            if a1 > verb.i or b0 < verb.i or possessive and a1 != a.i + 1:
                continue  # "a boy wearing a red shirt's legs"
            if possessive and (_plural(a) or not any(c.dep_ in ("det", "poss") for c in a.children)):
                continue  # "An old woman is looking in kids's grocery paper bag" (q37 readers): a bare plural
                # owner takes neither "'s" nor an article
            ta, tb = sent.span_text(a0, a1), sent.span_text(b0, b1)
            if a0 == 0 and _capitalised_common_noun(doc[0]):
                ta = ta[0].lower() + ta[1:]
            s = sent.fork()
            s.set_span(a0, a1, tb)
            s.set_span(b0, b1, ta)
            if _plural(a) != _plural(b) and not _agree(s, verb, _plural(b), True):
                continue
            yield s.edits
