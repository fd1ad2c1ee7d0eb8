"""Helpers shared by the normalization action modules (S0 -> S1), Marelli et al. 2014, section 3.1, Table 2.

Used by several of :mod:`.normalize_filters`, :mod:`.normalize_words`, :mod:`.normalize_verbs` and
:mod:`.normalize_fragments`: lexicon sets, verb lemmas and auxiliaries, subject agreement (is the subject
plural, where 'is/are' goes) and WordNet look-ups (common word, verb reading). Actions never re-parse; word
lists come from lexicons and are turned into sets once (:meth:`~pipeline.rules.RuleSet.lexicon_set`).
"""

from __future__ import annotations

__all__: list[str] = []  # helpers for the action modules only

import functools

from pipeline.common import resources
from pipeline.corpus.wordforms import gerund, is_plural_np, lemma_of, subject_of, third_person

_AUX_DEPS = ("aux", "auxpass")
_RELATIVE_PRONOUNS = ("that", "which", "who", "whom", "whose")
# nouns that quantify their plural "of" phrase: the verb agrees with that phrase (SICK: "A couple of boys are")
_QUANTIFIER_NOUNS = ("couple",)
_PLURAL_PRONOUN_DETERMINERS = ("some", "all", "many", "several", "few", "both", "others")


# --------------------------------------------------------------------------------------------------------
# small parse / inflection helpers


def _lemma(word: str) -> str:
    """Verb lemma of a word form (lemminflect, more reliable than the small model's: 'riding' -> 'ride')."""
    return lemma_of(word, "VERB")


def _aux_children(verb) -> list:
    """Auxiliaries (aux/auxpass, infinitival 'to' excluded) written before ``verb``."""
    return [c for c in verb.children if c.dep_ in _AUX_DEPS and c.i < verb.i and c.tag_ != "TO"]


def _to_marker(verb):
    """The infinitival 'to' of ``verb`` or None."""
    for c in verb.children:
        if c.dep_ == "aux" and c.tag_ == "TO":
            return c
    return None


def _antecedent(verb):
    """For a relative clause verb, the noun it modifies; else None."""
    tok = verb
    for _ in range(5):
        if tok.dep_ == "relcl":
            return tok.head
        if tok.dep_ in ("conj", "xcomp") and tok.head.i != tok.i:
            tok = tok.head
            continue
        return None
    return None


_LOOSE_SUBJECT_DEPS = ("npadvmod", "dep", "intj", "nmod", "compound", "amod", "advcl")


def _loose_subject(verb):
    """A noun before ``verb`` that the parser did not label as its subject ("Boy in black jumps ...", with
    "Boy" read as an interjection), or None."""
    left = [c for c in verb.children if c.i < verb.i and c.dep_ in _LOOSE_SUBJECT_DEPS
            and (c.pos_ in ("NOUN", "PROPN") or (c.pos_ == "INTJ" and _common_word(c.text)))]
    return left[-1] if left else None


def _plural_subject(verb) -> bool:
    """Whether the subject of ``verb`` is plural (relative pronouns resolved to their antecedent)."""
    subj = subject_of(verb)
    if subj is None:
        ante = _antecedent(verb)
        if ante is None:
            ante = _loose_subject(verb)
        return _np_plural(ante) if ante is not None else False
    if subj.lower_ in _RELATIVE_PRONOUNS:
        ante = _antecedent(verb)
        if ante is not None:
            return _np_plural(ante)
    if subj.tag_ == "DT" and subj.lower_ in _PLURAL_PRONOUN_DETERMINERS and verb.tag_ in ("VBP", "VB", "VBD"):
        return True  # "some hold flags", "others watch": a determiner standing alone for a plural
    if subj.dep_ == "expl":  # "there are two dogs that ..." — agree with the attribute
        for c in subj.head.children:
            if c.dep_ == "attr":
                return _np_plural(c)
    if subj.lower_ in _COLLECTIVES and any(r in verb.doc.text.lower() for r in ("each other", "one another")):
        return True  # "a group of men are playing against each other": the members do it to one another (seed 8)
    return _np_plural(subj)


_COLLECTIVES = frozenset({"group", "team", "crowd", "couple", "pair", "bunch", "family", "band", "pack", "herd"})

# words after which "as" names a costume and opens no clause ("a boy dressed as a pirate holds up a flag")
COSTUME_WORDS = frozenset({"dressed", "disguised", "costumed", "up", "masquerading", "posing"})


def _first_sense_animate(noun: str) -> bool:
    """Whether WordNet's first noun sense of ``noun`` is a person or an animal ("fish"; not "grass", whose
    second sense is an informer; not "muzzles", first a gun's)."""
    return resources.first_sense_animate(lemma_of(noun, "NOUN"))


def _later_passive(sent, verb) -> int | None:
    """The index of a bare "being" after the participle ``verb`` ("twin toddlers dressed alike being pushed
    ..."): the passive is the predicate, ``verb`` describes the subject; None when a conjunction, comma or
    relative pronoun comes between, or "being" already has its own "is/are"."""
    doc = sent.doc
    for j in range(verb.i + 1, min(len(doc), verb.i + 6)):
        w = doc[j]
        if w.lower_ in ("and", "or", "but", ",", "while", "as") or w.lower_ in _RELATIVE_PRONOUNS \
                or w.pos_ in ("VERB", "AUX") and w.lower_ != "being":
            return None
        if w.lower_ == "being" and w.dep_ == "auxpass" and w.head.i > j and not sent.edited(j) \
                and doc[j - 1].lower_ not in ("is", "are", "am", "was", "were"):
            return j
    return None


FLOATING_ADVERBS = ("just", "still")
"""Adverbs a caption writes before its verb phrase ("a cowboy just got bucked off"); "is/are" goes before them:
"is just getting", not "just is getting" (q29, q32 readers)."""


def _be_anchor(sent, verb) -> int:
    """Where 'is/are' goes before a simple verb: before adverbs/negation and a floating "all/both/each" written
    right before it ("a dog also runs" -> "a dog is also running", "women all dressed" -> "women are all
    dressed")."""
    i = verb.i
    doc = sent.doc
    # a floating quantifier too: "women all dressed in red" -> "women are all dressed", not "women all are"
    while i - 1 >= 0 and doc[i - 1].head.i == verb.i and doc[i - 1].dep_ in ("advmod", "neg") \
            and (doc[i - 1].tag_ in ("RB", "RBR", "RBS") or doc[i - 1].lower_ in ("all", "both", "each")) \
            and not sent.edited(i - 1):
        i -= 1
    # "just" and "still" float before an auxiliary the parse hangs them off: "a cowboy just getting bucked off a bull"
    # -> "is just getting", not "just is getting" (q29, q32 readers)
    while i - 1 >= 0 and doc[i - 1].lower_ in FLOATING_ADVERBS and not sent.edited(i - 1):
        i -= 1
    if i == verb.i and i >= 2 and doc[i - 1].pos_ == "NOUN" and not sent.edited(i - 1) \
            and doc[i - 2].pos_ not in ("DET", "NUM", "ADJ") and _activity_compound(doc[i - 1].lower_, verb.text) \
            and not _doer_noun(doc[i - 1].lower_) \
            and not resources.synsets(f"{doc[i - 2].lower_}_{doc[i - 1].lower_}", "n"):
        # "a man rock climbs" -> "a man is rock climbing", not "a man rock is climbing"; but in "A dog racing"
        # the noun right after a determiner is the subject itself, not the first half of "dog racing", and so is
        # the second half of a compound WordNet knows ("a red and white race car racing", r9)
        i -= 1
    return i


@functools.lru_cache(maxsize=16384)
def _doer_noun(noun: str) -> bool:
    """Whether ``noun``'s first WordNet sense is a person, animal or group: in "black greyhound dog racing" the
    dog races ("a black greyhound dog is racing"), "dog racing" is no activity of the greyhound."""
    syns = resources.synsets(noun, "n")
    return bool(syns) and syns[0].lexname() in ("noun.person", "noun.animal", "noun.group")


@functools.lru_cache(maxsize=16384)
def _activity_compound(noun: str, verb: str) -> bool:
    """Whether WordNet knows "<noun> <verb>-ing" as one activity ("rock climbing", "scuba diving")."""
    return bool(resources.synsets(f"{noun} {gerund(_lemma(verb))}", "n"))


def _present_simple(lemma: str, plural: bool) -> str:
    return lemma if plural else third_person(lemma)


# --------------------------------------------------------------------------------------------------------
# WordNet look-ups


@functools.lru_cache(maxsize=16384)
def _common_word(text: str) -> bool:
    """Whether ``text`` is a common English word in WordNet (a sense that is not a named instance), and has
    no named-instance sense: NER on lower-case captions tags words like "Frisbee" or "Corgi"."""
    synsets = resources.synsets(text.lower())
    if not synsets:
        return False
    instance = any(s.instance_hypernyms() for s in synsets)
    return not instance


@functools.lru_cache(maxsize=16384)
def _verb_reading(word: str) -> str | None:
    """The verb lemma of ``word`` when it can be a verb (WordNet has the lemma as a verb), else None."""
    lemma = _lemma(word)
    return lemma if resources.synsets(lemma, "v") else None


@functools.lru_cache(maxsize=16384)
def _needs_object(lemma: str) -> bool:
    """Whether every WordNet 3.0 verb frame of every sense of ``lemma`` has an object right after the verb
    ("Somebody ----s something", "Somebody ----s somebody PP"): "put", "pin", "raise", "grate" never stand
    alone, "tie", "hike", "play" may. False for a word WordNet has no verb sense of."""
    frames = [f for syn in resources.synsets(lemma, "v") for lem in syn.lemmas() if lem.name().lower() == lemma
              for f in lem.frame_strings()]
    # NLTK writes the lemma into the frame: "Somebody put something PP"; the word after it is the object
    return bool(frames) and all(f.split()[2:3] in (["something"], ["somebody"]) for f in frames)


def _objectless_end(tok) -> bool:
    """Whether ``tok`` ends its sentence (only punctuation after it) and its word, read as a verb, needs an
    object (:func:`_needs_object`): "with yellow flower pins .", "throwing shot put ." end in a noun, and
    reading it as a verb makes "is pinning", "is putting" with nothing pinned or put."""
    doc = tok.doc
    if any(not t.is_punct for t in doc[tok.i + 1:]):
        return False
    lemma = _verb_reading(tok.lower_)
    return bool(lemma) and _needs_object(lemma)


def _np_plural(root) -> bool:
    """Plural noun phrase: plural head, coordination ("a dog and a cat ..."), or a number above one."""
    if root.tag_ in ("NN", "NNP") and _misattached_garment_conj(root):
        return False  # "a person in a green jacket and black pants": the pants are the jacket's conjunct
    if is_plural_np(root):
        return True
    if root.lower_ in _QUANTIFIER_NOUNS:  # "a couple of policewomen are ...": a quantifier, not the head
        of = [c for c in root.children if c.dep_ == "prep" and c.lower_ == "of" and c.i == root.i + 1]
        pobj = [p for p in of[0].children if p.dep_ == "pobj"] if of else []
        if pobj and pobj[0].tag_ in ("NNS", "NNPS"):
            return True
    if root.tag_ == "NNP" and root.i == 0 and lemma_of(root.text, "NOUN") != root.lower_:
        return True  # "Dogs race ...": a capitalised plural the tagger took for a name
    doc = root.doc
    for c in root.children:  # "a black dog and a brown dog playing" (the conjunct mis-attached)
        if c.dep_ == "cc" and c.lower_ in ("and", "&") and c.i > root.i and c.i + 1 < len(doc) \
                and doc[c.i + 1].pos_ in ("DET", "NUM", "NOUN", "PROPN", "ADJ") \
                and not any(doc[j].pos_ in ("VERB", "AUX", "ADP") for j in range(root.i + 1, c.i)):
            return True
    for c in root.children:
        if c.dep_ == "nummod" and c.lower_ not in ("one", "1"):
            return True
    return False


# goggles, sunglasses, a watch, a necklace: worn ("an old man with sunglasses and a watch around kids", seed 11)
_GARMENT_HYPERNYMS = ("clothing.n.01", "covering.n.02", "spectacles.n.01", "timepiece.n.01", "jewelry.n.01")


def _misattached_garment_conj(root) -> bool:
    """Whether every noun conjunct of a singular ``root`` is a garment written after "in/with/wearing <garment>":
    the parser attached the second garment of "a person in a jacket and pants" to the person."""
    conjs = [c for c in root.children if c.dep_ == "conj" and c.pos_ in ("NOUN", "PROPN")]
    if not conjs:
        return False
    doc = root.doc
    for c in conjs:
        between = doc[root.i + 1:c.i]
        preps = [t for t in between if t.dep_ in ("prep", "acl") and t.lower_ in ("in", "with", "wearing")]
        # "a young girl wearing a snoopy hat and purple shirt stands": the hat is the participle's object
        objs = [t for t in between if t.dep_ in ("pobj", "dobj") and t.head in preps]
        # after a first garment any garment sense of the second will do ("in shorts and a black top")
        if not objs or not resources.under(c.lemma_.lower(), _GARMENT_HYPERNYMS, 12) or not (
                resources.under(objs[-1].lemma_.lower(), _GARMENT_HYPERNYMS, 3)
                or resources.under(objs[-1].lower_, _GARMENT_HYPERNYMS, 3)):  # "shorts", lemma "short"
            return False
    return True
