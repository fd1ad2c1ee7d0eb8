"""S2 actions: meaning-preserving expansions, Marelli et al. 2014, section 3.2, Table 3 (S2 rows).

Table 3 lists the ways SICK's annotators turned an S1 into a sentence with a similar meaning:

1. turning an active sentence into a passive one and vice versa ("A man is riding a bike" <-> "A bike is
   being ridden by a man");
2. replacing words by near synonyms ("bicycle" -> "bike", "kid" -> "child");
3. adding modifiers that do not change the meaning (here: instruments and places the verb or noun implies,
   "A man is slicing an onion" -> "A man is slicing an onion with a knife");
4. expanding agentive nouns ("A soccer player is kicking a ball" -> "A person who plays soccer is kicking a
   ball");
5. turning compounds into relative clauses ("sewing machine" -> "machine made for sewing");
6. turning adjectives into relative clauses ("A young man" -> "A man who is young");
7. replacing a quantifier or determiner by one with a similar meaning ("the" <-> "a", "a group of" <->
   "some").

Each action yields candidate edit mappings (``action(sent, params, ruleset) -> Iterable[dict[int, str]]``), each
made on ``sent.fork()``. Edits stay local (the few tokens a transformation must touch) so that the engine can
combine candidates of different rules. Actions only read the one spaCy parse (no ``nlp()`` call), and every
WordNet look-up is cached per word.
"""

from __future__ import annotations

__all__ = ["AdjectiveRelativeParams", "AgentiveParams", "CompoundRelativeParams", "ImpliedModifierParams", "NOUN_TAGS",
           "PRESENT_TAGS", "QUANTIFIER_NOUNS", "SwapDeterminerParams", "SwapQuantifierParams", "SynonymParams",
           "VoiceParams", "WN_POS", "active_to_passive", "add_implied_modifier", "adjective_to_relative",
           "colour_words", "compound_to_relative", "expand_agentive_noun", "in_colour_stack", "passive_to_active",
           "quantifier_phrase", "swap_determiner", "swap_quantifier", "wordnet_synonym"]

import functools
from typing import Literal

from pydantic import BaseModel, Field

from pipeline.common import resources
from pipeline.corpus.registry import action
from pipeline.corpus.wordforms import (
    NEGATIVE_WORDS,
    PATH_PREPOSITIONS,
    SUBJECT_DEPS,
    aux_be,
    be_present,
    children,
    described_noun,
    fixed_name_index,
    fixed_name_tokens,
    in_hyphenated,
    inflect_word,
    is_plural_np,
    lemma_of,
    matches_at,
    participle,
    plural,
    span,
    third_person,
)

WN_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a"}
NOUN_TAGS = ("NN", "NNS")
PRESENT_TAGS = ("VBZ", "VBP")

# --------------------------------------------------------------------------------------------- helpers


@functools.lru_cache(maxsize=65536)
def _is_hyponym_of(lemma: str, ancestor: str, senses: int) -> bool:
    """Whether one of the first ``senses`` noun senses of ``lemma`` has synset ``ancestor`` among its
    hypernyms (instance hypernyms included), e.g. ``('kid', 'person.n.01')``."""
    target = resources.wordnet().synset(ancestor)
    for s in resources.synsets(lemma, "n")[:senses]:
        if s == target or target in s.closure(lambda x: x.hypernyms() + x.instance_hypernyms()):
            return True
    return False


@functools.lru_cache(maxsize=65536)
def _wordnet_synonyms(lemma: str, pos: str, max_senses: int, reverse_senses: int, min_zipf: float,
                      min_count: int) -> tuple[str, ...]:
    """Single-word WordNet synonyms of ``lemma`` that are common words in the same sense.

    A synonym must be a lemma of one of ``lemma``'s first ``max_senses`` synsets, a single lower-case word,
    attested ``min_count`` times in that sense (WordNet's SemCor counts), have that synset among its own first
    ``reverse_senses`` senses (so the word is mostly used in that sense) and a Zipf frequency of at least
    ``min_zipf``. Most frequent first.
    """
    out: list[str] = []
    for synset in resources.synsets(lemma, pos)[:max_senses]:
        for lem in sorted(synset.lemmas(), key=lambda x: -resources.lemma_count(x)):
            name = lem.name()
            if name == lemma or not name.isalpha() or not name.islower() or name in out:
                continue
            if resources.lemma_count(lem) < min_count or resources.zipf(name) < min_zipf:
                continue
            if synset not in resources.synsets(name, pos)[:reverse_senses]:
                continue
            out.append(name)
    return tuple(out)


@functools.lru_cache(maxsize=65536)
def _always_capitalized(word: str) -> bool:
    """Whether WordNet spells ``word`` only with a capital ("American", "Asian", "Christmas")."""
    names = [lem.name() for pos in ("n", "a") for syn in resources.synsets(word, pos) for lem in syn.lemmas()
             if lem.name().lower() == word.lower()]
    return bool(names) and all(n[0].isupper() for n in names)


def _moved_text(sent, start: int, end: int) -> str:
    """Current text of tokens ``start .. end-1`` for a phrase that moves away from the start of the sentence:
    the sentence-initial word, lower-cased in the working text, gets its capital back when it is a proper
    adjective or noun ("American flag" -> "a flag which is American")."""
    text = sent.span_text(start, end)
    first = sent.doc[0]
    if start == 0 and not sent.edited(0) and first.text[:1].isupper() and text and first.pos_ != "DET" \
            and _always_capitalized(first.lower_):
        text = first.text + text[len(first.text):]
    return text


def _lemma(tok) -> str:
    """Lemma of a content word (lemminflect; spaCy's lemmatizer gives 'rid' for 'riding')."""
    return lemma_of(tok.text, tok.pos_ if tok.pos_ in ("NOUN", "VERB", "ADJ") else "NOUN")


def _noun_plural(tok) -> bool:
    return tok.tag_ in ("NNS", "NNPS")


def _contiguous(start: int, end: int, doc) -> bool:
    """A span whose coordination is complete (no dangling "and"/comma at its edges)."""
    return end > start and doc[end - 1].dep_ not in ("cc", "punct") and doc[start].dep_ not in ("cc", "punct")


def colour_words(table, shades=()) -> frozenset[str]:
    """The colour words of the relative_adjectives lexicon (``colours`` and ``stack_colours``: "reddish", "teal")
    and the ``shades`` that stack on a colour ("light", "dark")."""
    table = table or {}
    return frozenset(table.get("colours") or ()) | frozenset(table.get("stack_colours") or ()) | frozenset(shades)


def in_colour_stack(doc, start: int, end: int, colours: frozenset[str]) -> bool:
    """Whether the words ``start .. end-1`` touch another colour word outside them: a stacked colour ("reddish
    brown", "light brown", "dark blue", "black and white", "black/white"), one colour that a rule must not split
    ("A red dog, which is brown" for "A reddish brown dog") nor half replace ("a red brown dog")."""
    if not any(t.lower_ in colours for t in doc[start:end]):
        return False
    for j, step in ((start - 1, -1), (end, 1)):
        if 0 <= j < len(doc) and doc[j].lower_ in ("and", "or", "-", "/", ","):
            j += step
        if 0 <= j < len(doc) and doc[j].lower_ in colours:
            return True
    return False


def _post_nominal_slot(noun, who: bool, max_pp: int = 5) -> int | None:
    """Index of the token after which a relative clause on ``noun`` goes, or None when unsafe.

    Before a coordination ("a man | who is young and a woman"). After the prepositional phrases of a subject
    (a noun before its head) when the clause starts with "who" and the phrase is short (at most ``max_pp``
    words) and names no person, so that the clause can only modify the subject ("a man in a hat | who is
    young is cooking"); otherwise right after the noun ("a dog | which is white with beige spots"): a
    phrase after an object is often the verb's ("slicing a tomato | which is red with a knife"). None when
    the noun has a partitive "of" phrase ("an amount of penguins"), a clause, an apposition or other right
    dependents.
    """
    slot = noun.i
    after_pp = who and noun.i < noun.head.i
    for c in noun.rights:
        if c.dep_ == "prep":
            if c.lower_ == "of":
                return None
            objs = [t for t in c.subtree if t.dep_ == "pobj" and t.pos_ in ("NOUN", "PROPN", "PRON")]
            if after_pp and c.right_edge.i - c.i < max_pp and not any(
                    _is_person(_lemma(t), 1) or t.pos_ == "PRON" for t in objs):
                slot = max(slot, c.right_edge.i)
            else:
                after_pp = False
        elif c.dep_ in ("cc", "conj"):
            if any(not children(k, "det", "nummod", "poss") for k in children(noun, "conj")):
                return None  # "a white hat and brown shirt": the clause would seem to cover both
            break
        else:
            return None
    return slot


@functools.lru_cache(maxsize=65536)
def _is_person(lemma: str, senses: int, synset: str = "person.n.01",
               lexnames: tuple[str, ...] = ("noun.person",)) -> bool:
    """Whether one of the first ``senses`` WordNet senses of noun ``lemma`` is a person (hypernym
    ``synset`` or lexicographer file in ``lexnames``)."""
    return _is_hyponym_of(lemma, synset, senses) or bool(resources.lexnames(lemma, "n", senses) & set(lexnames))


def _clause_ok(verb) -> bool:
    """The verb heads a main clause (not a relative or adverbial clause), whose subject is not a relative
    pronoun, and has no conjunct sharing its subject ("is playing a guitar and singing")."""
    if verb.dep_ not in ("ROOT", "conj"):
        return False
    if any(c.dep_ in ("nsubj", "nsubjpass") and c.tag_ in ("WP", "WDT") for c in verb.children):
        return False
    for c in verb.children:
        if c.dep_ == "conj" and not children(c, *SUBJECT_DEPS):
            return False
    return True


# ----------------------------------------------------------------------------------- determiners (Table 3)


class SwapDeterminerParams(BaseModel):
    lexicon: str = "similar_determiners"
    mass_lexicon: str | None = None
    indefinite: list[str] = Field(default_factory=lambda: ["a", "an"])
    # nouns that with "a" and "of" form a quantifier phrase: "a couple of dogs" is not "the couple of dogs"
    quantifier_nouns: list[str] = Field(default_factory=lambda: list(QUANTIFIER_NOUNS))
    # "a" -> "the" only on a subject
    indefinite_subject_only: bool = False
    # nouns of a position or a unique place that keep "the" besides the mass lexicon's ("on the right" -/-> "on a
    # right", "in the forefront", "on the goal line", "at the roadside")
    keep_definite: list[str] = Field(default_factory=list)


# "a couple of N", "a lot of N": a quantifier phrase, not a determiner and a noun
QUANTIFIER_NOUNS = ("couple", "lot", "lots", "number", "bit", "few", "handful", "bunch", "dozen", "pair")


def quantifier_phrase(noun, nouns=QUANTIFIER_NOUNS) -> bool:
    """Whether ``noun`` heads a quantifier phrase "a couple of N" / "a lot of N" (the noun in ``nouns``
    with an "of" phrase), whose determiner is part of the quantifier and cannot be swapped or negated."""
    return noun.lower_ in nouns and any(c.dep_ == "prep" and c.lower_ == "of" for c in noun.children)


@action("swap_determiner", stages=("S2",), params=SwapDeterminerParams)
def swap_determiner(sent, params: SwapDeterminerParams, ruleset):
    """Determiner with a similar meaning ("the" <-> "a" before a singular noun); Table 3, S2.

    With ``mass_lexicon``, no indefinite article is written before a mass noun or a noun naming a unique
    setting ("in the grass" stays).
    """
    table = ruleset.lexicon(params.lexicon)
    mass = ruleset.lexicon_set(params.mass_lexicon) if params.mass_lexicon else frozenset()
    for tok in sent.doc:
        if tok.dep_ == "det" and tok.lower_ in table and tok.head.tag_ in ("NN", "NNP"):
            if quantifier_phrase(tok.head, params.quantifier_nouns):
                continue  # "a couple of dogs" -/-> "the couple of dogs"
            if tok.head.dep_ in ("compound", "amod", "nmod") or any(t.tag_ == "CD" for t in sent.doc[tok.i:tok.head.i]):
                continue  # "the three prize winning dogs" -/-> "a three prize winning dogs" (head misparsed)
            if tok.head.dep_ == "attr" and children(tok.head.head, "expl"):
                continue  # "There is a man" -/-> "There is the man": an existential introduces a new referent
            if tok.i + 1 < len(sent.doc) and sent.doc[tok.i + 1].lower_ in _LINKING_DETS | _ORDINALS:
                continue  # "the other man" -/-> "an other man", "the same team" -/-> "a same team": they refer back;
                # "a third girl" -/-> "the third girl": an ordinal's article counts (seed-2 readers)
            if tok.lower_ == "the" and (tok.head.dep_ not in ("nsubj", "nsubjpass")
                                        or resources.body_part(tok.head.lemma_.lower())) \
                    and any(c.dep_ == "prep" and c.lower_ == "of" for c in tok.head.children):
                continue  # "in the trunk of a car" -/-> "in a trunk of a car": the part of a named whole (seed 3); a
                # body part of its owner even as subject ("A head of a kid is in focus", q23 readers)
            if tok.head.dep_ == "conj" or children(tok.head, "conj") \
                    or tok.i and sent.doc[tok.i - 1].lower_ in ("and", "or"):
                continue  # "A man and a lady" -/-> "The man and a lady": joined nouns share their determiner kind
                # (also where the parser missed the coordination: "a black shirt and the black hat", r11 reader)
            if tok.lower_ in params.indefinite and params.indefinite_subject_only \
                    and tok.head.dep_ not in ("nsubj", "nsubjpass"):
                continue  # "taking a picture together" -/-> "taking the picture together": a definite object
                # or place presupposes one already known; the subject's article reads as a matter of style
            if tok.lower_ == "the" and any(t.lower_ == "the" for t in tok.head.subtree if t.i > tok.head.i):
                continue  # "The man with the two small bandages" -/-> "A man with the two ...": a definite phrase
                # inside makes the man a known one
            if (tok.head.lower_ in mass or tok.head.lower_ in params.keep_definite
                    or tok.head.dep_ == "pobj" and "noun.body" in resources.lexnames(tok.head.lemma_.lower(), "n", 3)) \
                    and any(new in params.indefinite for new in table[tok.lower_]):
                continue  # (a body part after a preposition is someone's own: "biting a dog on the snout" -/-> "on a
                # snout", q29 readers)
            if tok.lower_ == "the" and any(t.lower_ in ("other", "another") for t in sent.doc[tok.head.i + 1:]):
                continue  # "The lady is measuring the other woman's ankle" -/-> "A lady ... the other woman's":
                # "the other" points back to a known first one (q4 readers)
            if tok.lower_ == "the" and any(t.lemma_ == tok.head.lemma_ for t in sent.doc[:tok.i]):
                continue  # "A brown dog ... behind the dog" -/-> "behind a dog": a second mention points back to
                # the first (q8 readers)
            for new in table[tok.lower_]:
                s = sent.fork()
                s.replace(tok.i, new)
                yield s.edits


class SwapQuantifierParams(BaseModel):
    lexicon: str = "similar_quantifiers"


def _agreement_token(root):
    """The finite verb or auxiliary agreeing with the noun phrase headed by ``root`` (subject, or the
    ``attr`` of "there is"), or None."""
    if root.dep_ in ("nsubj", "nsubjpass"):
        verb = root.head
    elif root.dep_ == "attr" and children(root.head, "expl"):
        verb = root.head
    else:
        return None
    for c in verb.children:
        if c.dep_ in ("aux", "auxpass") and c.tag_ in PRESENT_TAGS:
            return c
    return verb if verb.tag_ in PRESENT_TAGS else None


def _agree(tok, plural_subject: bool) -> str:
    if tok.lemma_ == "be" or tok.lower_ in ("is", "are"):
        return be_present(plural_subject)
    return inflect_word(lemma_of(tok.text, "VERB"), "VBP" if plural_subject else "VBZ")


@action("swap_quantifier", stages=("S2",), params=SwapQuantifierParams)
def swap_quantifier(sent, params: SwapQuantifierParams, ruleset):
    """Quantifier phrase with a similar meaning ("a group of kids is" -> "some kids are"); Table 3, S2.

    Lexicon entries: ``{from, to, number, plural_noun}``. ``number`` is the grammatical number of the new
    noun phrase (``singular``, ``plural`` or ``noun``: that of the quantified noun); the agreeing verb or
    auxiliary is changed when it differs. ``plural_noun: true`` restricts the entry to plural nouns,
    ``hypernyms`` (WordNet synsets) and ``lexnames`` (lexicographer files) to nouns whose first sense falls
    under one of them.
    """
    doc = sent.doc
    for entry in ruleset.lexicon(params.lexicon):
        words = entry["from"].split()
        for i in range(len(doc)):
            if not matches_at(doc, i, words):
                continue
            if i > 0 and doc[i - 1].pos_ in ("DET", "NUM", "ADJ"):
                continue
            if entry["to"].split()[0].lower() == "some" and any(t.lower_ in NEGATIVE_WORDS for t in doc[:i]):
                continue  # "some" in the scope of a negation: "not walking towards some people" (q20 readers)
            end = i + len(words)
            noun = next((t for t in doc[end:] if t.pos_ in ("NOUN", "PROPN")), None)
            if noun is None or noun.tag_ not in NOUN_TAGS + ("NNP", "NNPS"):
                continue
            if any(t.pos_ not in ("ADJ", "NOUN", "PROPN", "ADV") for t in doc[end:noun.i]):
                continue  # "a group of five adults" is not "some five adults"
            if entry.get("plural_noun") and not _noun_plural(noun):
                continue
            if (entry.get("hypernyms") or entry.get("lexnames")) and not (
                    # the surface form: "bleachers" (seats) is not "bleacher" (a person who bleaches)
                    any(_is_hyponym_of(noun.lower_, h, 1) for h in entry.get("hypernyms", ()))
                    or resources.lexnames(noun.lower_, "n", 1) & set(entry.get("lexnames", ()))):
                continue
            inside = set(range(i, noun.i + 1))
            roots = [t for t in doc[i:noun.i + 1] if t.head.i not in inside or t.head.i == t.i]
            if len(roots) != 1:
                continue
            root = roots[0]
            before = is_plural_np(root)
            number = entry.get("number", "noun")
            after = _noun_plural(noun) if number == "noun" else number == "plural"
            if any(c.dep_ == "conj" for c in root.children):
                after = before  # "Some people and a dog are": a coordinated subject stays plural (q37 readers)
            s = sent.fork()
            s.set_span(i, end, entry["to"])
            if before != after:
                agr = _agreement_token(root)
                if agr is None:
                    if root.dep_ in ("nsubj", "nsubjpass", "attr"):
                        continue
                else:
                    s.replace(agr.i, _agree(agr, after))
            yield s.edits


# ----------------------------------------------------------------------------------- active <-> passive


class VoiceParams(BaseModel):
    pronoun_lexicon: str = "pronoun_cases"
    exclude_verbs: list[str] = Field(default_factory=lambda: ["have", "be", "get", "lack", "resemble"])
    # at most this many words of the verb's phrases after the object that the by-phrase moves over
    max_moved_over: int = Field(6, ge=0)
    # objects that make no passive subject ("enjoying an afternoon" -/-> "An afternoon is being enjoyed"):
    # by lemma, or by the WordNet lexname of their first noun sense (noun.time)
    exclude_objects: list[str] = Field(default_factory=list)
    # words in an object that name nothing the sentence shows: "holding the handles of something" -/-> "The
    # handles of something are being held" (q34 readers)
    vague_words: list[str] = Field(default_factory=list)
    exclude_object_lexnames: list[str] = Field(default_factory=list)
    # {verb lemma: [object lemmas]}: light-verb and fixed pairs whose object cannot open a passive ("taking a
    # bath" -/-> "A bath is being taken by the bird")
    exclude_pairs: dict[str, list[str]] = Field(default_factory=dict)
    # verbs taking an object and a bare infinitive ("helping a child ice skate"): the parser may read the
    # infinitive as the object's head with the person as its modifier ("a child ice skate"), so such an
    # object with a person or animal before its head makes no passive (a lexicon of verbs)
    bare_infinitive_lexicon: str | None = None
    # phrases that, right after the object, belong to it as a name ("eating corn on the cob" -/-> "The corn is
    # being eaten on the cob by the cat"): the passive would split the name
    object_phrases: list[str] = Field(default_factory=list)
    # a phrase of place after the object, with one of these, tells where the object or the doer is ("crossing a
    # bridge over a river", "playing a keyboard between the people"): moved before the by-phrase it reads as the
    # passive's own ("A green bridge is being crossed over a river by some people", r13 readers); no passive
    place_prepositions: list[str] = Field(default_factory=list)
    # a phrase "in/with" + one of these (what a person wears) after the object belongs to the subject: no passive
    worn_hypernyms: list[str] = Field(default_factory=list)
    # a bare singular object whose plural is at least this close in Zipf frequency to it is a count noun that
    # cannot open a sentence bare ("Carrot is being sliced"; "carrots" is as frequent as "carrot", "garlics"
    # is rare); None: no such test
    count_plural_margin: float | None = None
    # verbs whose bare object of either number ("fish", "sheep") reads as food, a mass noun: "Fish is being fried"
    # (SICK_train); with other verbs the passive is not made ("Fish is being shown to a young child")
    mass_object_verbs: list[str] = Field(default_factory=list)
    # verbs after which a bare activity noun (first WordNet sense noun.act: a sport, a game, "karaoke") opens a
    # passive: "Rugby is being played by some men" (SICK_train); with other verbs the activity is not a thing
    # acted on ("Football is being practiced", "Karaoke is being sung"); None: no such test
    activity_object_verbs: list[str] | None = None
    # subjects that make no by-agent: SICK's passives name their agent by a noun ("A gameboy is being played by
    # someone" reads as a bare paraphrase exercise; r6 readers)
    exclude_agents: list[str] = Field(default_factory=lambda: [
        "someone", "somebody", "something", "anyone", "anybody", "anything", "everyone", "everybody", "everything",
        "nobody"])


def _infinitive_after(doc, verb, start: int) -> bool:
    """Whether a "to"-infinitive depending on ``verb`` follows token ``start``: a purpose or control clause
    ("putting the noodles in the water to cook", "training a dog to zigzag through poles", where the parser takes
    "to zigzag" for a prepositional phrase). A by-phrase cannot go before it without seeming to be its subject
    ("by the lady to cook") nor after it without seeming to be its own ("to zigzag through poles by the man")."""
    for c in verb.rights:
        if c.i < start:
            continue
        if c.dep_ in ("advcl", "xcomp", "ccomp") and any(a.lower_ == "to" for a in c.lefts):
            return True
        if c.lower_ == "to" and c.dep_ == "prep":
            for o in children(c, "pobj"):
                if children(o, "det", "poss", "nummod", "amod") or any(t.tag_ == "PRP$" for t in o.lefts):
                    continue
                word = o.lower_
                if o.tag_ in ("VB", "VBP") or (o.tag_ == "NNP" and o.text.islower()) or (
                        resources.synsets(word, "v") and not resources.synsets(word, "n")):
                    return True
    return False


def _pronoun_cases(entries) -> tuple[dict[str, str], dict[str, str]]:
    """``(nominative -> accusative, accusative -> nominative)`` from the pronoun lexicon."""
    to_acc = dict(entries)
    return to_acc, {v: k for k, v in to_acc.items()}


def _np_text(sent, tok, start: int, end: int, cases: dict[str, str]) -> str | None:
    """Text of the noun phrase ``start..end`` headed by ``tok`` for its new grammatical role: a personal
    pronoun changes case (he <-> him) via ``cases``; other pronouns than those are refused (None)."""
    if tok.pos_ == "PRON":
        if end - start != 1:
            return None
        word = tok.lower_
        if word in cases:
            return cases[word]
        if tok.tag_ == "PRP":  # "it" and "you" have one form; reflexives cannot move
            return word if word in ("it", "you") else None
        return word if word in ("someone", "somebody", "something", "everyone", "everybody") else None
    if tok.pos_ not in ("NOUN", "PROPN"):
        return None
    return _moved_text(sent, start, end)


def _bare_verb_form(tok) -> bool:
    """A conjunct without determiner that reads as a verb form ("climbs", tagged as a plural noun)."""
    return (tok.tag_ in ("NNS", "VBZ") and not children(tok, "det", "poss", "nummod")
            and bool(resources.synsets(tok.lower_, "v")) and lemma_of(tok.text, "VERB") != tok.lower_)


_PASSIVE_COUNT_LEXNAMES = frozenset({"noun.artifact", "noun.animal", "noun.person", "noun.object", "noun.plant"})
_PASSIVE_MASS_LEXNAMES = frozenset({"noun.food", "noun.substance"})


@functools.lru_cache(maxsize=65536)
def _bare_count_noun(word: str, mass: frozenset[str]) -> bool:
    """Whether singular ``word`` is a count noun that cannot open a sentence bare ("Flute is being played",
    "Umbrella is being held"): not in the mass lexicon, first WordNet sense concrete, and none of its first
    three senses a food or a substance ("Garlic is being cut" is fine). Stricter than the grammar gate's
    :func:`pipeline.corpus.grammar.is_count_noun`, which lets "umbrella" go for its noun.act senses."""
    syns = resources.synsets(word, "n")
    if word in mass or not syns or syns[0].lexname() not in _PASSIVE_COUNT_LEXNAMES:
        return False
    return not any(s.lexname() in _PASSIVE_MASS_LEXNAMES for s in syns[:3])


def _mostly_counted(word: str, margin: float | None) -> bool:
    """Whether ``word``'s plural is used about as often as the word (Zipf frequency at most ``margin`` below
    it: "carrots" 3.63 vs "carrot" 3.62, "garlics" 1.08 vs "garlic" 3.92), so that the bare singular reads as a
    missing article; False when ``margin`` is None."""
    if margin is None:
        return False
    many = plural(word)
    return many != word and resources.zipf(many) >= resources.zipf(word) - margin


@action("active_to_passive", stages=("S2",), params=VoiceParams)
def active_to_passive(sent, params: VoiceParams, ruleset):
    """Active clause -> passive ("A man is riding a bike" -> "A bike is being ridden by a man"); Table 3, S2.

    Only a transitive verb with a subject and a direct object and nothing else before the object (no
    particle, no second object, no clausal complement): subject, ``is``/``are``, verb, object, in this order;
    not when the object has a prepositional phrase other than "of" (its attachment is unreliable), nor when it
    is one of ``exclude_objects`` or its first WordNet sense is filed under ``exclude_object_lexnames`` (a time:
    "enjoying an afternoon"). Subject and object move as whole subtrees; the auxiliary agrees with the new
    subject. The present continuous gives "is being ridden", the simple present "is ridden".
    """
    doc = sent.doc
    to_acc, to_nom = ruleset.derived(params.pronoun_lexicon, _pronoun_cases)
    for verb in doc:
        if verb.pos_ != "VERB" or verb.tag_ not in ("VBG", "VBZ", "VBP"):
            continue
        if lemma_of(verb.text, "VERB") in params.exclude_verbs:
            continue
        subj, obj = children(verb, "nsubj"), children(verb, "dobj")
        if len(subj) != 1 or len(obj) != 1 or not _clause_ok(verb):
            continue
        if children(verb, "prt", "dative", "ccomp", "xcomp", "oprd", "neg", "nsubjpass", "auxpass", "npadvmod"):
            continue
        subj, obj = subj[0], obj[0]
        if obj.pos_ not in ("NOUN", "PROPN", "PRON"):
            continue  # "waiting to board boats" -/-> "To board boats are being waited"
        if obj.tag_ == "NN" and not any(c.dep_ in ("det", "poss", "nummod") or c.tag_ == "PRP$" for c in obj.lefts) \
                and (_bare_count_noun(obj.lower_, ruleset.lexicon_set("mass_nouns"))
                     or _mostly_counted(obj.lower_, params.count_plural_margin)):
            continue  # "playing flute" -/-> "Flute is being played": a bare count noun cannot open the sentence;
            # "slicing carrot" -/-> "Carrot is being sliced" (a food counted as often as not)
        if any(c.dep_ in ("relcl", "acl") for c in obj.subtree if c is not obj):
            continue  # "severing the toe of a boot using a sword": the participle is often the verb's; "a slab
            # that is lying on a prone man with a sledgehammer is being broken by a man"
        if any(c.dep_ == "conj" and (c.pos_ in ("VERB", "AUX") or _bare_verb_form(c))
               for c in (*verb.children, *obj.children)):
            continue  # "opening a drawer and climbs inside": a passive across joined verbs garbles both
        if subj.lower_ in params.exclude_agents or (subj.i > 0 and doc[subj.i - 1].lower_ == "no"):
            continue  # "A gameboy is being played by someone": SICK's agents are nouns
        if subj.pos_ == "PRON" and subj.i > 0:
            continue  # a pronoun pointing back: "... and a boxing video game is being played by her" (q2 readers;
            # SICK_train: 1 "by him/her/them/it" in 359 "being V-ed by")
        if _infinitive_after(doc, verb, verb.i + 1):
            continue  # "The noodles are being put in the water by the lady to cook"
        if _lemma(obj) == _lemma(subj):
            continue  # "A man is pushing a man" -/-> "A man is being pushed by a man"
        if params.bare_infinitive_lexicon \
                and lemma_of(verb.text, "VERB") in ruleset.lexicon_set(params.bare_infinitive_lexicon) and any(
                c.dep_ in ("compound", "nmod") and resources.first_sense_animate(c.lower_)
                for c in obj.lefts):
            continue  # "An adult is helping a child ice skate" -/-> "A child ice skate is being helped" (q19 readers)
        if children(obj, "advmod", "npadvmod"):
            continue  # "the violin onstage"
        after = doc[obj.i + 1] if obj.i + 1 < len(doc) else None
        if after is not None and after.lower_ == "in" and after.head == verb and any(
                c.dep_ == "pobj" and resources.colour_word(c.lower_) for c in after.children):
            continue  # "pushing the player in white to the ground": the colour is the player's, which the parse
            # hangs on the verb ("The player is being pushed in white to the ground", q26 readers)
        if any(t.tag_ == "PRP$" or (t.dep_ == "poss" and t.pos_ == "PRON") or t.lower_ in _LINKING_DETS
               or (t.lower_ in _BACK_PRONOUNS and t.i > obj.i) for t in doc[verb.i + 1:]):
            continue  # the antecedent must come first: "her hair", "holding a cat in her arms" -/-> "A cat is
            # being held in her arms by a girl"; "another man" -/-> "Another man is being pushed by a man"; "holding
            # sprinklers in front of him" -/-> "Sprinklers are being held in front of him by a boy"
        dets = children(obj, "det", "poss", "nummod")
        if obj.tag_ in ("NN", "NNS") and all(c.lower_ in ("some", "any") for c in dets) \
                and (dets and obj.tag_ == "NN" or plural(obj.lower_) == obj.lower_) \
                and resources.lexnames(obj.lower_, "n", 3) & {"noun.animal"} \
                and lemma_of(verb.text, "VERB") not in params.mass_object_verbs:
            continue  # "showing fish to a child" -/-> "Fish is being shown", "brushing some shrimp" -/-> "Some
            # shrimp is being brushed" (r11 reader): one or several, the noun does not say, and the verb must agree
        if params.activity_object_verbs is not None and obj.tag_ == "NN" \
                and not children(obj, "det", "poss", "nummod") \
                and resources.lexnames(_lemma(obj), "n", 1) & {"noun.act"} \
                and lemma_of(verb.text, "VERB") not in params.activity_object_verbs:
            continue  # "practicing football" -/-> "Football is being practiced by two men"
        if any(t.dep_ in ("prt", "prep") and t.lower_ != "of" or (t.dep_ == "cc" and t.head != obj)
               for t in obj.subtree if t is not obj):
            continue  # a misparsed object: "riding a sled down a slope" -> "A sled down a slope is being ridden";
            # "a silver helmet and red shirt" (the parser joins "helmet" and "red")
        if any(c.dep_ == "prep" and c.lower_ != "of" for c in obj.children):
            continue  # "covers a piece of meat with flour": the phrase is often the verb's, not the object's
        if any(t.lower_ in params.vague_words for t in obj.subtree):
            continue
        if _lemma(obj) in params.exclude_objects or obj.lower_ in params.exclude_objects \
                or resources.lexnames(_lemma(obj), "n", 1) & set(params.exclude_object_lexnames) \
                or _lemma(obj) in params.exclude_pairs.get(lemma_of(verb.text, "VERB"), ()):
            continue  # "The family is enjoying an afternoon" -/-> "An afternoon is being enjoyed by the family"
        o_end = span(obj)[1]
        if any(matches_at(doc, o_end, p.split()) for p in params.object_phrases):
            continue  # "corn on the cob" is one name
        aux = aux_be(verb)
        if verb.tag_ == "VBG":
            if aux is None or aux.tag_ not in PRESENT_TAGS or [c for c in verb.children if c.dep_ == "aux"] != [aux]:
                continue
            if aux.i + 1 != verb.i:
                continue  # "A boy is onstage playing the violin": the word between would be lost
            middle = [aux.i, verb.i]
        else:
            if children(verb, "aux"):
                continue
            middle = [verb.i]
        s0, s1 = span(subj)
        o0, o1 = span(obj)
        if s1 != middle[0] or middle[-1] + 1 != o0:
            continue
        if not (_contiguous(s0, s1, doc) and _contiguous(o0, o1, doc)):
            continue
        new_subj = _np_text(sent, obj, o0, o1, {})
        if obj.pos_ == "PRON":
            new_subj = to_nom.get(obj.lower_, new_subj)
        agent = _np_text(sent, subj, s0, s1, to_acc)
        if not new_subj or not agent:
            continue
        # the by-phrase goes after the verb's phrases that follow the object ("Oil is being added to the fish
        # by a woman", not "added by a woman to the fish", where the phrase would seem to be the agent's)
        tail = o1
        for c in sorted((c for c in verb.rights if c.i >= o1), key=lambda t: t.i):
            c0, c1 = span(c)
            if c0 != tail or c.dep_ not in ("prep", "advmod", "npadvmod") or not _contiguous(c0, c1, doc):
                break
            if c.lower_ in ("after", "before", "while", "since", "until", "without"):
                break  # "A parachute is being collected after landing on the ground by people"
            if c.lower_ == "by":
                tail = -1  # "Buckets are being held by the water by people": two by-phrases
                break
            if c.dep_ == "prep" and c.lower_ in params.place_prepositions:
                tail = -1
                break
            if c.dep_ == "prep" and not list(c.children):
                tail = -1  # a particle the parser takes for a preposition: "kicking a goal in" -/-> "A goal is
                break      # being kicked in by a soccer player"
            if c.lower_ in ("in", "with") and any(resources.under(_lemma(o), tuple(params.worn_hypernyms), 2)
                                                  for o in children(c, "pobj")):
                tail = -1  # what the subject wears describes the subject: "Basketball is being played with
                break      # orange shoes by a black man", "Flag football is being played in blue uniforms by boys"
            tail = c1
        if tail < 0 or tail - o1 > params.max_moved_over:
            continue
        if tail < len(doc) and doc[tail].tag_ in ("VBN", "VBD", "VBG") and doc[tail].head.i in (verb.i, obj.i):
            continue  # a participle after the by-phrase would seem to be the agent's: "A large painting is being
            # viewed by a couple hung on a red wall" (the parser hangs "hung" on the verb or the object)
        many = is_plural_np(obj) and not (obj.tag_ == "NNS" and not children(obj, "conj")
                                          and lemma_of(obj.text, "NOUN") == obj.lower_ != plural(obj.lower_))
        be = be_present(many or obj.lower_ in ("them", "us"))  # "broccoli" (tagged NNS) is singular
        verb_phrase = f"{be} being" if verb.tag_ == "VBG" else be
        s = sent.fork()
        passive = f"{new_subj} {verb_phrase} {participle(lemma_of(verb.text, 'VERB'))}"
        if tail == o1:
            s.set_span(s0, o1, f"{passive} by {agent}")
        else:
            s.set_span(s0, o1, passive)
            s.insert_after(tail - 1, f"by {agent}")
        yield s.edits


@action("passive_to_active", stages=("S2",), params=VoiceParams)
def passive_to_active(sent, params: VoiceParams, ruleset):
    """Passive clause with a by-agent -> active ("A bike is being ridden by a man" -> "A man is riding a
    bike"); Table 3, S2. "is being ridden" gives the present continuous, "is ridden" the simple present."""
    doc = sent.doc
    to_acc, to_nom = ruleset.derived(params.pronoun_lexicon, _pronoun_cases)
    for verb in doc:
        if verb.tag_ != "VBN" or verb.pos_ != "VERB":
            continue
        lemma = lemma_of(verb.text, "VERB")
        if lemma in params.exclude_verbs:
            continue
        subj, agent = children(verb, "nsubjpass"), children(verb, "agent")
        if len(subj) != 1 or len(agent) != 1 or not _clause_ok(verb):
            continue
        if children(verb, "prt", "dative", "ccomp", "xcomp", "oprd", "neg", "dobj"):
            continue
        by = agent[0]
        pobj = children(by, "pobj")
        if len(pobj) != 1 or len(list(by.children)) != 1:
            continue
        subj, actor = subj[0], pobj[0]
        auxes = sorted((c for c in verb.children if c.dep_ in ("aux", "auxpass")), key=lambda t: t.i)
        words = [a.lower_ for a in auxes]
        if words in (["is", "being"], ["are", "being"]):
            continuous = True
        elif words in (["is"], ["are"]):
            continuous = False
        else:
            continue
        s0, s1 = span(subj)
        a0, a1 = span(by)
        if s1 != auxes[0].i or auxes[-1].i + 1 != verb.i or verb.i + 1 != a0:
            continue
        if any(t.tag_ == "PRP$" or t.dep_ == "poss" and t.pos_ == "PRON" for t in doc[a0:a1]):
            continue  # "tackled by his opponent" -/-> "His opponent is tackling a soccer player": the pronoun
            # would come before the one it points to (r11 reader)
        if not (_contiguous(s0, s1, doc) and _contiguous(a0 + 1, a1, doc)):
            continue
        if any(c.dep_ == "prep" and (c.lower_ in PATH_PREPOSITIONS or c.lower_ == "to") for c in actor.children):
            continue  # "followed by two brown dogs over sand", "attached by ropes to a rock face": a path or a goal
            # is the verb's, which the parse hung on the agent ("Two brown dogs over sand are following a black dog",
            # q16 and q18 readers; "Ropes to a brown-colored rock face attach a climber", q23)
        new_subj = _np_text(sent, actor, a0 + 1, a1, to_nom)
        new_obj = _np_text(sent, subj, s0, s1, to_acc)
        if not new_subj or not new_obj:
            continue
        if new_subj == "i":
            new_subj = "I"
        plural_subj = is_plural_np(actor) or new_subj in ("they", "we", "you", "I")
        be = "am" if new_subj == "I" else be_present(plural_subj)
        if continuous:
            vp = f"{be} {inflect_word(lemma, 'VBG')}"
        else:
            vp = inflect_word(lemma, "VBP") if plural_subj else third_person(lemma)
        s = sent.fork()
        s.set_span(s0, a1, f"{new_subj} {vp} {new_obj}")
        yield s.edits


# ----------------------------------------------------------------------------------------- synonyms


class SynonymParams(BaseModel):
    pos: list[Literal["NOUN", "VERB", "ADJ"]] = Field(default_factory=lambda: ["NOUN", "VERB", "ADJ"])
    max_senses: int = Field(1, ge=1)
    reverse_senses: int = Field(1, ge=1)
    min_zipf: float = 3.5
    min_count: int = Field(1, ge=0)
    blocklist_lexicon: str = "synonym_blocklist"
    additions_lexicon: str = "synonym_additions"
    max_per_word: int = Field(3, ge=1)
    classifying_lexicon: str | None = "nonpredicative_adjectives"
    # fixed names whose words are never replaced ("little league" -/-> "small league")
    fixed_lexicon: str | None = None
    # colour words (see :func:`colour_words`): no word of a stacked colour is replaced ("reddish brown" -/-> "red
    # brown"); None: no such test
    colour_lexicon: str | None = None
    shade_words: list[str] = Field(default_factory=list)
    # a general noun (person, animal, instrument, vehicle) for a singular noun after "the" outside the subject takes
    # "a" ("playing the violin" -> "playing an instrument"; a plural is left alone); False: it keeps "the", as SICK
    # does in 4 train pairs ("The man is playing the guitar" / "... the instrument")
    indefinite_general_nouns: bool = False


_SYN_TAGS = {"NOUN": ("NN", "NNS"), "VERB": ("VB", "VBG", "VBZ", "VBP", "VBN", "VBD"), "ADJ": ("JJ",)}


# general nouns that read badly beside a coordinated specific one ("a person and a woman")
# size adjectives go before other describing adjectives ("a small blond girl")
_SIZE_WORDS = frozenset({"big", "large", "small", "little", "tall", "short", "huge", "tiny"})
_HYPERNYM_SWAPS = frozenset({"person", "child", "kid", "animal", "instrument", "vehicle"})
_SEXED_PRONOUNS = frozenset({"he", "him", "his", "himself", "she", "her", "hers", "herself"})
_IRREGULAR_PLURALS = {"person": "people"}
# determiners that link a noun to an earlier mention of the same noun ("another man", "the other dog")
# dependencies of a noun that is an argument or the head of its phrase, not a modifier of a later noun
_ARGUMENT_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj", "attr", "appos", "conj", "dative", "poss", "oprd",
                            "ROOT"})
_LINKING_DETS = frozenset({"same", "another", "other"})  # lemminflect gives "persons"
_ORDINALS = frozenset({"first", "second", "third", "fourth", "fifth", "last", "next"})
# personal pronouns after the verb that may refer back to the subject ("in front of him"): a passive would put them
# before their antecedent
# ("itself", q5 readers: "Water is being shaken off of itself by a dog")
_BACK_PRONOUNS = frozenset({"he", "him", "himself", "she", "herself", "they", "them", "themselves", "itself"})
# object-case person pronouns: a nominative "he" under a preposition is a clause misparsed ("after he is closing")
_PERSON_PRONOUNS = frozenset({"him", "himself", "her", "herself", "them", "themselves", "me", "us", "you"})
# general nouns that, after "the", read as referring back ("playing the violin" -/-> "playing the instrument")
_GENERAL_NOUNS = frozenset({"person", "animal", "instrument", "vehicle"})


def _definite_subject(doc) -> bool:
    """Whether the main clause's subject has "the" ("The man is playing the guitar")."""
    return any(t.dep_ in ("nsubj", "nsubjpass") and t.head.dep_ == "ROOT"
               and any(c.dep_ == "det" and c.lower_ == "the" for c in t.children) for t in doc)


def _coordination(tok) -> list:
    """``tok`` and the nouns coordinated with it (its conjunct chain, from the first member)."""
    while tok.dep_ == "conj":
        tok = tok.head
    group, stack = [], [tok]
    while stack:
        t = stack.pop()
        group.append(t)
        stack.extend(children(t, "conj"))
    return group


def _surface_partners(tok) -> list:
    """Nouns joined to noun ``tok`` by an adjacent "and"/"or" (determiners and adjectives skipped) that the parse
    does not coordinate with it: in "holding a violin and bow" the parser hangs "bow" on the verb."""
    doc, out = tok.doc, []
    j = tok.i + 1
    if j < len(doc) and doc[j].lower_ in ("and", "or"):
        for t in doc[j + 1:j + 4]:
            # a bare base-form verb after "a violin and" is a noun the tagger missed (SICK's verbs there take "is")
            if t.pos_ == "NOUN" and t.lower_.endswith("ing") and t.i == j + 1:
                break  # "playing a guitar and singing": a verb the tagger took for a noun
            if t.pos_ == "NOUN" or (t.tag_ in ("VB", "VBP") and resources.synsets(t.lower_, "n")):
                out.append(t)
                break
            if t.pos_ not in ("DET", "ADJ", "NUM"):
                break
    j = tok.i - 1
    while j >= 0 and doc[j].pos_ in ("DET", "ADJ", "NUM") and doc[j].head.i == tok.i:
        j -= 1
    if j >= 1 and doc[j].lower_ in ("and", "or") and doc[j - 1].pos_ == "NOUN":
        out.append(doc[j - 1])
    return [t for t in out if t.i != tok.i]


def _inflect_as(lemma: str, tag: str) -> str:
    if tag in ("NN", "JJ", "VB"):
        return lemma
    if tag == "NNS" and lemma in _IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[lemma]
    if tag == "NNS":
        return inflect_word(lemma, "NNS") if " " not in lemma else plural(lemma)
    return inflect_word(lemma, tag)


def _curated(tok, entry) -> tuple[list[str], set[str]]:
    """The curated synonyms of ``tok`` from its additions-lexicon ``entry``: a list of words, or a mapping ``{to:
    [words], object_lexnames: [files], no_object: bool}`` that restricts a verb's synonyms to a direct object
    one of whose first three WordNet senses is filed under ``object_lexnames`` ("cutting an onion" -> "slicing
    an onion", not "cutting grass" -> "slicing grass", nor "newly cut grass" -> "newly sliced grass"), to a
    verb with no direct object ("A man is resting" -> "relaxing", not "resting its paws" -> "relaxing its
    paws"), or an adjective to a noun whose first WordNet sense is filed under ``head_lexnames`` ("a small dog"
    -> "a little dog", not "a small group" -> "a little group"); ``object_not_lexnames``: no direct object whose
    first sense is filed there ("putting oil into a skillet" -/-> "placing oil"); ``no_preps``: no prepositional
    phrase of the verb headed by one of these ("jumping on a trampoline" -/-> "leaping on a trampoline");
    ``destination_not_lexnames``: no object of the verb's prepositions filed there, a person pronoun counting as
    noun.person ("putting gel in her hair" -/-> "placing gel in her hair"), unless one of its first three senses is
    filed under ``destination_unless_lexnames`` ("the lid" is first an eyelid); ``not_after``: a noun not after one
    of these prepositions ("in the street" -/-> "in the road"); ``only_definite``: a noun without "a"/"an" ("at a
    beach" -/-> "at a shore"); ``unless_modifiers``: a noun without such a modifier ("a four-wheeled bike" -/-> "a
    four-wheeled bicycle"). ``(synonyms, refused)``: the words of a mapping
    whose condition fails are refused, also when WordNet offers them ("jumping the bike" -/-> "leaping the
    bike")."""
    if not isinstance(entry, dict):
        return list(entry or ()), set()
    words = list(entry.get("to") or ())
    objs = children(tok, "dobj")
    if entry.get("no_object") and objs:
        return [], set(words)
    if entry.get("object_lexnames") and not any(
            o.pos_ == "NOUN" and resources.lexnames(_lemma(o), "n", 3) & set(entry["object_lexnames"]) for o in objs):
        return [], set(words)
    if entry.get("object_not_lexnames") and any(
            o.pos_ == "NOUN" and resources.lexnames(_lemma(o), "n", 1) & set(entry["object_not_lexnames"])
            for o in objs):
        return [], set(words)  # "putting oil into a skillet" -/-> "placing oil": a substance is poured, not placed
    preps = children(tok, "prep")
    if entry.get("no_preps") and any(p.lower_ in entry["no_preps"] for p in preps):
        return [], set(words)  # "jumping on a trampoline" -/-> "leaping on a trampoline": jumping up and down
    if entry.get("destination_not_lexnames") and any(
            (o.pos_ == "PRON" and o.lower_ in _PERSON_PRONOUNS and "noun.person" in entry["destination_not_lexnames"])
            or (o.pos_ == "NOUN" and resources.lexnames(_lemma(o), "n", 1) & set(entry["destination_not_lexnames"])
                and not resources.lexnames(_lemma(o), "n", 3) & set(entry.get("destination_unless_lexnames") or ()))
            for p in preps for o in children(p, "pobj")):
        return [], set(words)  # "putting gel in her hair" -/-> "placing gel in her hair": put on a body is applied
    if entry.get("unless_modifiers") and any(c.lower_ in entry["unless_modifiers"] for c in tok.lefts):
        return [], set(words)  # "a four-wheeled bike" -/-> "a four-wheeled bicycle": a quad bike has an engine
    if entry.get("not_after") and tok.dep_ == "pobj" and tok.head.lower_ in entry["not_after"]:
        return [], set(words)  # "dancing in the street" -/-> "in the road" (on the roadway)
    if entry.get("only_definite") and any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in tok.lefts):
        return [], set(words)  # "at a beach" -/-> "at a shore": the shore is one
    if entry.get("head_lexnames"):
        noun = described_noun(tok)
        if noun is None or not resources.lexnames(_lemma(noun), "n", 1) & set(entry["head_lexnames"]):
            return [], set(words)
    return words, set()


def _blocked_anywhere(entries) -> frozenset[str]:
    """The blocklist's ``any`` words (never a synonym)."""
    return frozenset((entries or {}).get("any", ()))


@action("wordnet_synonym", stages=("S2",), params=SynonymParams)
def wordnet_synonym(sent, params: SynonymParams, ruleset):
    """Replace a noun, verb or adjective by a common near synonym ("bicycle" -> "bike"); Table 3, S2.

    Synonyms come from WordNet 3.0 (Fellbaum 1998), filtered by :func:`_wordnet_synonyms` (first sense only,
    attested in that sense, frequent), minus the blocklist lexicon (``{any: [word], n|v|a: {lemma: [word |
    "*"]}}``; ``"*"``: no WordNet synonym for this lemma), plus the curated additions lexicon (``{n|v|a:
    {lemma: [word]}}``, never blocked; SICK's own S2s use hypernyms such as man -> person). The synonym takes
    the original's inflection (lemminflect); it is not used when the sentence already has it ("a person is
    talking to a person"), nor a general noun (person, animal) for a coordinated one ("a man and a woman").
    """
    block = ruleset.lexicon(params.blocklist_lexicon) or {}
    extra = ruleset.lexicon(params.additions_lexicon) or {}
    never = ruleset.derived(params.blocklist_lexicon, _blocked_anywhere)
    # a classifying modifier ("pet", "toy") makes a general noun odd: "a pet dog" -/-> "a pet animal"
    classifying = ruleset.lexicon_set(params.classifying_lexicon) if params.classifying_lexicon else frozenset()
    present = {t.lower_ for t in sent.doc} | {_lemma(t) for t in sent.doc if t.pos_ in ("NOUN", "VERB", "ADJ")}
    noun_counts: dict[str, int] = {}
    for t in sent.doc:
        if t.pos_ == "NOUN":
            noun_counts[_lemma(t)] = noun_counts.get(_lemma(t), 0) + 1
    fixed = fixed_name_tokens(sent.doc, ruleset.derived(params.fixed_lexicon, fixed_name_index)) \
        if params.fixed_lexicon else set()
    colours = (ruleset.derived(params.colour_lexicon, colour_words) | frozenset(params.shade_words)) \
        if params.colour_lexicon else frozenset()
    definite_subject = params.indefinite_general_nouns and _definite_subject(sent.doc)
    for tok in sent.doc:
        if tok.pos_ not in params.pos or tok.tag_ not in _SYN_TAGS[tok.pos_] or not tok.is_alpha or tok.i in fixed:
            continue
        if tok.pos_ == "NOUN" and (noun_counts.get(_lemma(tok), 0) > 1 or any(
                c.lower_ in _LINKING_DETS for c in tok.lefts)):
            continue  # "a man is carrying another man", "one of the men": the two mentions must stay alike
        if tok.dep_ == "compound" or tok.like_num or children(tok, "compound", "prt"):
            continue  # compounds are often lexicalized: "cell phone" is not "cell telephone"
        if tok.pos_ == "NOUN" and ((tok.head.i > tok.i and tok.dep_ not in _ARGUMENT_DEPS) or (
                tok.i + 1 < len(sent.doc) and sent.doc[tok.i + 1].pos_ in ("NOUN", "PROPN"))):
            continue  # a noun modifying a later noun, whatever the parse ("a dog sled race", dog as npadvmod; "a
            # trash can", trash as pobj): "an animal sled race", "a rubbish can" no longer name the thing
        if tok.pos_ == "VERB" and tok.dep_ == "amod" and tok.head.pos_ == "NOUN" and tok.head.i > tok.i \
                and not resources.first_sense_animate(tok.head.lower_):
            continue  # a gerund naming a kind of thing: "a jumping trick" -/-> "a leaping trick" (q9 readers), where
            # "a jumping dog" is a dog that jumps
        if colours and in_colour_stack(sent.doc, tok.i, tok.i + 1, colours):
            continue  # "a reddish brown dog" -/-> "a red brown dog": one colour
        if in_hyphenated(tok):
            continue  # a part of a hyphenated word: "skeleton-printed" -/-> "skeleton-published", "build-a-bear"
        pos = WN_POS[tok.pos_]
        lemma = _lemma(tok)
        blocked = set((block.get(pos) or {}).get(lemma, ()))
        curated, refused = _curated(tok, (extra.get(pos) or {}).get(lemma, ()))
        blocked |= refused
        found = curated + ([] if "*" in blocked else list(_wordnet_synonyms(
            lemma, pos, params.max_senses, params.reverse_senses, params.min_zipf, params.min_count)))
        partners = _surface_partners(tok) if tok.pos_ == "NOUN" else []
        parsed = tok.pos_ == "NOUN" and bool(tok.dep_ == "conj" or children(tok, "conj"))
        coordinated = parsed or bool(partners)
        if parsed and any(not children(k, "det", "poss", "nummod") for k in _coordination(tok)):
            continue  # "a man and woman" -/-> "a man and lady": a pair sharing one determiner is a fixed phrase
        if partners and any(k.tag_ == "NN" and not children(k, "det", "poss", "nummod") for k in partners + [tok]):
            continue  # the same where the parser hangs the second noun elsewhere ("a violin and bow"); a plural
            # needs no determiner of its own ("a blue coat and blue heels" -> "a blue jacket and blue heels")
        bare = tok.tag_ == "NN" and tok.pos_ == "NOUN" and not children(tok, "det", "poss", "nummod", "amod") \
            and not any(c.tag_ == "PRP$" for c in tok.lefts)
        # (a word WordNet knows only as a noun counts, whatever the tag: "The puppy dog" -/-> "The puppy animal")
        compound = any((c.pos_ == "NOUN" and c.dep_ in ("compound", "nmod")) or c.lower_ in classifying
                       or c.dep_ == "amod" and not c.lower_.endswith(("ing", "ed")) and resources.synsets(c.lower_, "n")
                       and not resources.synsets(c.lower_, "a")
                       for c in tok.lefts)
        seen = 0
        for syn in dict.fromkeys(found):
            if syn == lemma or (syn not in curated and (syn in never or syn in blocked)):
                continue
            if lemma_of(syn, tok.pos_) != syn:
                continue  # not a base form ("cows", "woods") that would inflect badly
            if tok.pos_ == "NOUN" and tok.lower_.endswith("ing") and not syn.endswith("ing"):
                continue  # a participle tagged as a noun: "a priest in black walking" -/-> "in black walk"
            if syn in _SIZE_WORDS and tok.i > 0 and tok.doc[tok.i - 1].pos_ == "ADJ" \
                    and tok.doc[tok.i - 1].lower_ not in _SIZE_WORDS:
                continue  # "A blond little girl" -/-> "A blond small girl": size goes before colour; only "little
                # girl" is one unit (r11, seed-1 build)
            if syn == "animal" and any(t.lower_ == "who" for t in sent.doc[tok.i + 1:tok.i + 3]):
                continue  # "a dog who is running away" -/-> "an animal who is running" (q14 readers: "that")
            if len(syn) >= 5 and any(t.i != tok.i and len(t.lemma_) >= 5 and t.pos_ in ("NOUN", "VERB", "ADJ") and (
                    syn.startswith(t.lemma_.lower()) or t.lemma_.lower().startswith(syn)) for t in sent.doc):
                continue  # "A teacher is instructing" -/-> "The instructor is instructing": one stem twice (q14)
            if syn in ("child", "kid") and any(c.lower_ in ("teenage", "teen", "adolescent", "adult", "grown")
                                              for c in tok.lefts):
                continue  # "A teenage girl" -/-> "A teenage child": the general word loses its age (q8 readers)
            if syn in present or (coordinated and syn in _HYPERNYM_SWAPS):
                continue  # "a person is talking to a person"; "a person and a woman"; "holding a violin and a
                # bow" -/-> "an instrument and a bow": the general word no longer fits beside its specific partner
                # (a near hypernym stays: "Three guys and two girls" -> "Three men and two girls")
            if compound and syn in _HYPERNYM_SWAPS:
                continue  # "a pet dog" -/-> "a pet animal"
            if syn in _HYPERNYM_SWAPS and tok.pos_ == "NOUN" and any(c.tag_ == "PRP$" for c in tok.lefts) \
                    and resources.lexnames(lemma, "n", 1) & {"noun.animal"}:
                continue  # "walking his dog" -/-> "walking his animal": one's own animal is a pet, named by kind
                # (seed-2/3/4 readers)
            if syn in _HYPERNYM_SWAPS and any(t.lower_ in ("he", "she") or syn in ("person", "people", "animal")
                                              and t.lower_ in _SEXED_PRONOUNS for t in sent.doc[tok.i + 1:]):
                continue  # "A woman is walking and she is looking" -/-> "A person is walking and she is looking":
                # a later subject pronoun names the sex the general noun leaves open, and so does any such pronoun
                # after "person" ("A person is stuffing himself", "A person is carrying someone on his shoulder",
                # r13 readers; SICK: 1 of 281 "A person ... his"); "An animal ... in his mouth" reads as wrong
                # (q6-q8 readers: an animal of no named kind is "it"); "A child is putting gel in her hair" stays
            # after a definite subject a definite object reads as known too: SICK keeps "The man is playing the
            # guitar" / "The man is playing the instrument"; after "A boy ..." "the instrument" reads as referring back
            the = [c for c in tok.lefts if c.dep_ == "det" and c.lower_ == "the"] \
                if params.indefinite_general_nouns and syn in _GENERAL_NOUNS \
                and tok.dep_ not in ("nsubj", "nsubjpass") and not definite_subject else []
            if the and tok.tag_ != "NN":
                continue  # "feeding the ducks" -/-> "feeding the animals": it reads as referring back
            if bare and _bare_count_noun(syn, ruleset.lexicon_set("mass_nouns")):
                continue  # "playing piano" -/-> "playing instrument": a count noun needs a determiner
            if tok.pos_ == "NOUN" and syn in ruleset.lexicon_set("mass_nouns") and not _mostly_counted(syn, 1.0) \
                    and any(c.lower_ in ("a", "an") for c in tok.lefts):
                continue  # "across a green lawn" -/-> "across a green grass": a mass noun takes no "a" (the lexicon
                # also lists settings, "street", whose plural is as common: "a paved street" stays)
            word = _inflect_as(syn, tok.tag_)
            if word.lower() == tok.lower_:
                continue
            s = sent.fork()
            s.replace(tok.i, word)
            if the:
                s.replace(the[0].i, "a")  # "playing the violin" -> "playing an instrument", not "the instrument"
                # (reads as referring back; SICK: "A man is playing a guitar" / "... an instrument"); surface()
                # gives "an"
            yield s.edits
            seen += 1
            if seen >= params.max_per_word:
                break


# ----------------------------------------------------------------------------------------- modifiers


class ImpliedModifierParams(BaseModel):
    lexicon: str = "implied_modifiers"
    object_senses: int = Field(3, ge=1)
    # a noun modifier goes on a bare singular noun only when the noun is in this mass lexicon ("on green grass",
    # not "peeling yellow lemon"); None: anywhere
    mass_lexicon: str | None = None


_VERB_ADJUNCT_DEPS = ("prep", "advmod", "npadvmod", "prt", "dative", "agent", "advcl", "xcomp", "ccomp",
                      "acomp", "oprd", "neg")


@action("add_implied_modifier", stages=("S2",), params=ImpliedModifierParams)
def add_implied_modifier(sent, params: ImpliedModifierParams, ruleset):
    """Add a modifier the sentence already implies ("slicing an onion" -> "slicing an onion with a knife",
    "in the snow" -> "in the white snow"); Table 3, S2 ("add modifiers that do not change the meaning").

    Lexicon ``{verbs: {lemma: {text, object_lexnames?, no_object?}}, nouns: {lemma: {text}}}``. A verb modifier
    goes after the verb and its object, only when the verb has no adjunct yet (no preposition, adverb,
    particle…) and, with ``no_object``, no object ("swims underwater" is parsed with an object), and, with
    ``object_lexnames``, only when one of the object's first ``object_senses`` WordNet senses is in one of
    those lexicographer files (cutting food implies a knife, cutting paper does not). A noun modifier is an
    adjective put before a noun that has no modifier yet but a determiner or a prepositional phrase.
    """
    table = ruleset.lexicon(params.lexicon)
    verbs, nouns = table.get("verbs") or {}, table.get("nouns") or {}
    doc = sent.doc
    for tok in doc:
        if tok.pos_ == "VERB" and tok.tag_ in _SYN_TAGS["VERB"] and tok.dep_ not in ("amod", "compound"):
            entry = verbs.get(lemma_of(tok.text, "VERB"))
            if not entry or children(tok, *_VERB_ADJUNCT_DEPS):
                continue
            objs = children(tok, "dobj")
            if len(objs) > 1 or (objs and entry.get("no_object")):
                continue
            if entry.get("object_lexnames"):
                if not objs or objs[0].pos_ != "NOUN":
                    continue
                if not resources.lexnames(_lemma(objs[0]), "n", params.object_senses) & set(entry["object_lexnames"]):
                    continue
            end = tok.i
            if objs:
                o0, o1 = span(objs[0])
                if o0 <= tok.i or not _contiguous(o0, o1, doc) or any(t.dep_ == "prep" for t in doc[o0:o1]):
                    continue  # a prepositional phrase in the object may be the verb's adjunct
                end = o1 - 1
            last = entry["text"].split()[-1]
            if last in (t.lower_ for t in doc) or lemma_of(last, "NOUN") in (
                    _lemma(t) for t in doc if t.pos_ == "NOUN"):
                continue  # "with a knife" when a knife is already mentioned; "surfing on the waves and riding a wave"
            if end + 1 < len(doc) and doc[end + 1].tag_ in ("RB", "RP"):
                continue  # an adverb the parser hangs elsewhere: "watching another dog swim away" -/-> "swim in the
                # water away"
            s = sent.fork()
            s.insert_after(end, entry["text"])
            yield s.edits
        elif tok.pos_ == "NOUN" and tok.tag_ in NOUN_TAGS:
            entry = nouns.get(_lemma(tok))
            if not entry or tok.dep_ == "compound" or any(c.dep_ not in ("det", "prep") for c in tok.children):
                continue  # "the grass which is tall and green" has a modifier already
            if tok.head.pos_ in ("ADJ", "VERB") and tok.dep_ not in ("dobj", "nsubj", "nsubjpass"):
                continue  # "snow covered mountains" -/-> "white snow covered mountains"
            if any(c.dep_ == "prep" and c.lower_ == "of" for c in tok.children):
                continue  # "a pool of water" is no "swimming pool of water"
            if entry["text"] in (t.lower_ for t in doc) or any(
                    len(t.lower_) >= 4 and entry["text"].startswith(t.lower_) and t.i != tok.i for t in doc):
                continue  # "swimming in a pool" -/-> "swimming in a swimming pool"; "in the sand at the beach" -/->
                # "at the sandy beach" (q15 readers)
            if params.mass_lexicon and tok.tag_ == "NN" and tok.lower_ not in ruleset.lexicon_set(params.mass_lexicon) \
                    and not children(tok, "det", "poss", "nummod") and not any(c.tag_ == "PRP$" for c in tok.lefts):
                continue  # "peeling lemon" -/-> "peeling yellow lemon": the missing article shows all the more
            s = sent.fork()
            s.insert_before(tok.i, entry["text"])
            yield s.edits


# ----------------------------------------------------------------------------------- agentive nouns


class AgentiveParams(BaseModel):
    lexicon: str = "agentive_nouns"
    relative: str = "who"
    head: str = "person"
    # modifiers that do not fit the general head ("female people")
    gender_words: list[str] = Field(default_factory=lambda: ["female", "male"])
    # True: only on a subject whose clause ends the noun phrase right before its verb ("A person who plays
    # soccer is kicking a ball"); not on an object, nor after the noun's own phrase ("Three people in black
    # strips who play rugby", where the clause seems to describe the strips)
    subject_only: bool = False
    # only entries whose verb phrase starts with one of these verbs (empty: all): "A person who plays soccer"
    # reads as SICK's own example, "A person who cooks", "People who race", "A person who rides bicycles" read
    # as stiff habitual paraphrases
    vp_verbs: list[str] = Field(default_factory=list)


@action("expand_agentive_noun", stages=("S2",), params=AgentiveParams)
def expand_agentive_noun(sent, params: AgentiveParams, ruleset):
    """Agentive noun -> head noun + relative clause ("A soccer player" -> "A person who plays soccer",
    "Two cyclists" -> "Two people who ride bicycles"); Table 3, S2 (expand agentive nouns).

    Lexicon keys are the compound as written ("soccer player") or a single noun lemma ("swimmer"); values
    ``{vp, head?}``: the verb phrase in the base form and the head noun (default ``person``, plural by
    inflect: "people"). The whole compound must match (no "dirt bike rider" from "bike rider"). The relative
    clause goes where :func:`_post_nominal_slot` says (after a subject's short prepositional phrase).
    """
    table = ruleset.lexicon(params.lexicon)
    doc = sent.doc
    for tok in doc:
        if tok.pos_ != "NOUN" or tok.tag_ not in NOUN_TAGS or tok.dep_ == "compound":
            continue
        comps = [c for c in tok.lefts if c.dep_ == "compound"]
        start = comps[0].i if comps else tok.i
        if [c.i for c in comps] != list(range(start, tok.i)) or any(c.n_lefts or c.n_rights for c in comps):
            continue
        key = " ".join([c.lower_ for c in comps] + [_lemma(tok)])
        entry = table.get(key)
        if entry is None or (params.vp_verbs and entry["vp"].split()[0] not in params.vp_verbs):
            continue
        if any(c.lower_ in params.gender_words for c in tok.lefts):
            continue  # "two female baseball players" -/-> "two female people who play baseball"
        if entry["vp"].split()[-1] in {t.lower_ for t in doc if t.i != tok.i and t.i not in range(start, tok.i)}:
            continue  # "people who play soccer are playing soccer"
        slot = _post_nominal_slot(tok, who=True)
        if slot is None:
            continue
        if slot == tok.i and any(c.dep_ == "prep" for c in tok.rights):
            continue  # "people who play soccer in white strips": the noun's phrase would join the clause
        if params.subject_only and not (slot == tok.i and tok.dep_ in ("nsubj", "nsubjpass")
                                        and _clause_may_end(doc, tok, slot) and slot + 1 < len(doc)
                                        and not doc[slot + 1].is_punct and doc[slot + 1].dep_ != "cc"):
            continue  # the clause must end the subject right before its verb: "A person who plays soccer is"
        if params.subject_only and (any(c.dep_ not in ("det", "nummod", "compound") for c in tok.lefts) or any(
                t.i != tok.i and t.pos_ == "NOUN" and _lemma(t) == _lemma(tok) for t in doc)
                or any(t.i > tok.i and t.lower_ == "one" and doc[t.i - 1].lower_ in ("another", "other")
                       for t in doc)):
            continue  # "The pro person who plays football"; "... is tackling another player" loses its link, and
            # so does "another one" (q37 readers: "The person who plays football is tackling another one")
        many = _noun_plural(tok)
        head = entry.get("head", params.head)
        head = plural(head) if many else head
        vp = entry["vp"]
        clause = f"{params.relative} {inflect_word(vp, 'VBP' if many else 'VBZ')}"
        s = sent.fork()
        if slot == tok.i:
            s.set_span(start, tok.i + 1, f"{head} {clause}")
        else:
            s.set_span(start, tok.i + 1, head)
            s.insert_after(slot, clause)
        yield s.edits


# --------------------------------------------------------------------------- compound -> relative clause


class CompoundRelativeParams(BaseModel):
    relations: list[str] = Field(default_factory=lambda: ["made for", "used for"], min_length=1)
    head_lexnames: list[str] = Field(default_factory=lambda: ["noun.artifact"])
    head_senses: int = Field(2, ge=1)
    modifier_lexnames: list[str] = Field(default_factory=lambda: ["noun.act"])
    exclude: list[str] = Field(default_factory=list)
    # heads that first name a person ("a baseball pitcher" -/-> "a pitcher used for baseball")
    exclude_head_lexnames: list[str] = Field(default_factory=lambda: ["noun.person"])
    # when set, the head must be a kind of one of these synsets in one of its first ``head_senses`` senses:
    # equipment (instrumentality.n.03: "a ball made for soccer", "a rod made for fishing"), not a place or
    # structure ("an indoor court made for sports", "a pool made for swimming" read stiff)
    head_hypernyms: list[str] = Field(default_factory=list)


@action("compound_to_relative", stages=("S2",), params=CompoundRelativeParams)
def compound_to_relative(sent, params: CompoundRelativeParams, ruleset):
    """Noun compound -> noun + reduced relative clause ("a sewing machine" -> "a machine made for sewing");
    Table 3, S2 (turn compounds into relative clauses).

    Only compounds naming an artifact by the activity it serves: the head has a sense in ``head_lexnames``
    among its first ``head_senses``; the modifier is a single word whose first noun sense is in
    ``modifier_lexnames`` (sewing, fishing, soccer, tennis: ``noun.act``); the head's first sense not in
    ``exclude_head_lexnames`` (a pitcher is first a person); the head has no conjunct and no "of" phrase, which
    the clause would separate from it. One candidate per relation.
    """
    doc = sent.doc
    for mod in doc:
        if mod.dep_ != "compound" or mod.pos_ != "NOUN" or mod.n_lefts or mod.n_rights or not mod.is_alpha:
            continue
        head = mod.head
        if head.i != mod.i + 1 or head.pos_ != "NOUN" or head.tag_ not in NOUN_TAGS or head.dep_ == "compound":
            continue
        if any(c.dep_ == "compound" and c.i != mod.i for c in head.children):
            continue
        word, head_lemma = mod.lower_, _lemma(head)
        if word in params.exclude or head_lemma in params.exclude:
            continue
        if not resources.lexnames(word, "n", 1) & set(params.modifier_lexnames):
            continue
        if not resources.lexnames(head_lemma, "n", params.head_senses) & set(params.head_lexnames) \
                or resources.lexnames(head_lemma, "n", 1) & set(params.exclude_head_lexnames):
            continue
        if params.head_hypernyms and not any(_is_hyponym_of(head_lemma, h, params.head_senses)
                                             for h in params.head_hypernyms):
            continue  # "an indoor court made for sports": a place, not equipment
        if sum(t.lower_ == word for t in doc) > 1:
            continue  # "A soccer player is running for a ball used for soccer": the activity said twice
        if any(c.dep_ in ("conj", "prep") for c in head.children) or head.dep_ == "conj" \
                or not _clause_may_end(doc, head, head.i):
            continue  # "a hammer used for croquet and ball", "the portion used for swimming of the race", "the
            # pool used for swimming by the wall", "a pool used for swimming with a float": a phrase after the
            # clause would seem to belong to it
        for rel in params.relations:
            s = sent.fork()
            s.delete(mod.i)
            s.replace(head.i, f"{sent.text(head.i)} {rel} {word}")
            yield s.edits


# -------------------------------------------------------------------------- adjective -> relative clause


class AdjectiveRelativeParams(BaseModel):
    exclude_lexicon: str = "nonpredicative_adjectives"
    person_lexicon: str = "person_nouns"
    person_synset: str = "person.n.01"
    person_lexnames: list[str] = Field(default_factory=lambda: ["noun.person"])
    person_senses: int = Field(1, ge=1)
    who: str = "who"
    which: str = "which"
    shade_words: list[str] = Field(default_factory=list)
    # lexicon whose ``colours`` and ``stack_colours`` (with ``shade_words``) make the colour words of a stacked colour
    # ("reddish brown") that no clause may split; None: no such test
    colour_lexicon: str | None = None
    # nouns whose first WordNet sense is a person but that captions use for things ("stroller")
    thing_nouns: list[str] = Field(default_factory=list)
    # a clause between a subject and its verb set off by commas, as SICK writes it ("A dog, which is black, is
    # running": 41 of the 45 such clauses in SICK_train.txt)
    commas_before_verb: bool = False
    # lexicon ``{colours: [adj], surfaces: [adj], usual: {noun: [adj]}}`` of the adjectives allowed (None: any
    # predicative one): colours on any noun, surfaces only on nouns whose first sense is in ``surface_lexnames``,
    # never a colour the noun has anyway ("the grass which is green")
    allow_lexicon: str | None = None
    surface_lexnames: list[str] = Field(default_factory=lambda: ["noun.location", "noun.object"])
    # False: no clause on a person noun ("A boy, who is little,", "A player, who is white,": readers find them
    # stiff or odd)
    persons: bool = True
    # True: only on the subject that opens the sentence, as a clause set off by commas right before its verb
    # ("A dog, which is black, is running", SICK's form); on an object or in a prepositional phrase every reader
    # found the clause stiff ("a substance which is green", "on the beach which is sandy")
    subject_only: bool = False


def _clause_may_end(doc, noun, slot: int) -> bool:
    """Whether a relative clause inserted after token ``slot`` ends cleanly: at the end of the sentence, before
    a comma, or before the verb (or its auxiliary) of which ``noun`` is the subject. Not before another
    modifier or phrase ("a skit which is funny with a person", "clothes which are colored standing at"):
    the phrase would seem to belong to the clause."""
    if slot + 1 >= len(doc):
        return True
    nxt = doc[slot + 1]
    if nxt.is_punct or (nxt.dep_ == "cc" and nxt.head == noun):
        return True  # "a man who is young and a woman"
    if noun.dep_ in ("nsubj", "nsubjpass"):
        verb = noun.head
        return nxt == verb or (nxt.head == verb and nxt.dep_ in ("aux", "auxpass"))
    return False


@functools.lru_cache(maxsize=65536)
def _lexicalized(adj: str, noun: str) -> bool:
    """Whether "adj noun" is a WordNet compound that is not a kind of the noun ("hot dog", but not "young
    man", which is a kind of man), or names a species ("slow loris", "polar bear": "a loris which is slow"
    reads as a statement about the animal's speed)."""
    compound = resources.synsets(f"{adj}_{noun}", "n")
    if not compound:
        return False
    if any(s.lexname() in ("noun.animal", "noun.plant") for s in compound):
        return True
    heads = set(resources.synsets(noun, "n"))
    for s in compound:
        if heads & set(s.closure(lambda x: x.hypernyms() + x.instance_hypernyms())):
            return False
    return True


def _allowed_adjectives(table, tokens, noun_lemma: str, surface_lexnames: tuple[str, ...]) -> bool:
    """Whether every adjective among ``tokens`` (the moved phrase: "black and white") is allowed on the noun by
    the lexicon ``{colours, surfaces, usual}`` (see :class:`AdjectiveRelativeParams`)."""
    colours, surfaces = set(table.get("colours") or ()), set(table.get("surfaces") or ())
    usual = set((table.get("usual") or {}).get(noun_lemma) or ())
    words = [t.lower_ for t in tokens if t.pos_ != "CCONJ" and not t.is_punct]
    if not words or any(w in usual for w in words):
        return False
    place = bool(resources.lexnames(noun_lemma, "n", 1) & set(surface_lexnames))
    return all(w in colours or (place and w in surfaces) for w in words)


@action("adjective_to_relative", stages=("S2",), params=AdjectiveRelativeParams)
def adjective_to_relative(sent, params: AdjectiveRelativeParams, ruleset):
    """Attributive adjective -> relative clause ("A young man" -> "A man who is young", "A black dog" -> "A
    dog which is black"); Table 3, S2 (turn adjectives into relative clauses).

    "who" when the noun is a person (in its first ``person_senses`` WordNet senses, hypernym
    ``person_synset`` or lexicographer file in ``person_lexnames``; or the person lexicon), "which"
    otherwise; "are" after a plural noun. Only predicative adjectives (tag JJ, in WordNet, not in the
    exclusion lexicon, not part of a lexicalized compound such as "hot dog" or of a multi-word adjective
    such as "middle eastern", nor a shade and its colour, "light brown", listed in ``shade_words``). The
    adjective moves with its own modifiers ("black and white"); the clause
    goes where :func:`_post_nominal_slot` says.
    """
    exclude = ruleset.lexicon_set(params.exclude_lexicon)
    persons = ruleset.lexicon_set(params.person_lexicon)
    doc = sent.doc
    colours = ruleset.derived(params.colour_lexicon, colour_words) | frozenset(params.shade_words) \
        if params.colour_lexicon else frozenset()
    for adj in doc:
        if adj.dep_ != "amod" or adj.tag_ != "JJ" or not adj.is_alpha:
            continue
        noun = adj.head
        if noun.pos_ != "NOUN" or noun.tag_ not in NOUN_TAGS or noun.i < adj.i or noun.dep_ == "compound":
            continue
        if noun.lower_ in ("one", "ones"):
            continue  # "a black one" is not "a one which is black"
        if any((t.lemma_ == noun.lemma_ or t.lower_ in ("one", "ones")) and t.i != noun.i and t.pos_ == "NOUN"
               for t in doc):
            continue  # "The brown dog is watching the white dog": the adjective tells the two apart; "A dog, which
            # is brown, is watching the white dog" makes it an aside (r13 readers); so does "a black one" (q25)
        if _bare_verb_form(noun) and noun.i == len(doc) - 1 and noun.head.lower_ == "in":
            continue  # "another man in red watches" is wearing red: "in watches which are red"
        word = adj.lower_
        if word in exclude or not resources.synsets(word, "a"):
            continue
        a0, a1 = span(adj)
        if a0 > 0 and doc[a0 - 1].dep_ == "cc":
            continue  # "a silver and blue rally car": the parser split the coordination
        if a0 > 1 and doc[a0 - 1].like_num and doc[a0 - 2].lower_ in ("and", "or"):
            continue  # "two black and two white dogs": the number is the second conjunct's (seed-27 readers)
        if any(t.is_punct for t in doc[a0:a1]) or doc[a1].is_punct or (a0 > 0 and doc[a0 - 1].is_punct) \
                or not _contiguous(a0, a1, doc):
            continue
        if any(c.dep_ in ("prep", "npadvmod") for c in adj.children):
            continue
        if (word.endswith("ed") and a0 > 0 and doc[a0 - 1].pos_ in ("ADJ", "NOUN", "PROPN")) or (
                a1 < noun.i and doc[a1].lower_.endswith("ed") and doc[a1].pos_ in ("ADJ", "VERB")):
            continue  # "brown haired", "long sleeved": the pair is one modifier
        shades = params.shade_words
        if (word in shades and doc[a1].pos_ == "ADJ") or (a0 > 0 and doc[a0 - 1].lower_ in shades):
            continue  # "light brown shorts": the parser attaches both to the noun, but they go together
        if any(t.tag_ == "VBN" and t.dep_ == "conj" for t in adj.subtree):
            continue  # "a black and white spotted dog" -/-> "A dog, which is black and white spotted" (a pattern
            # the parse joins to the colours; q31 and q33 readers)
        if colours and in_colour_stack(doc, a0, a1, colours):
            continue  # "A reddish brown dog" -/-> "A reddish dog, which is brown": one colour
        if (a0 > 0 and doc[a0 - 1].pos_ in ("AUX", "VERB")) or any(
                t.pos_ not in ("ADJ", "NOUN", "PROPN") or t.head.i != noun.i for t in doc[a1:noun.i]):
            continue  # "is fitting silencer", "deep frying food": not an attributive adjective
        noun_lemma = _lemma(noun)
        if _lexicalized(word, noun_lemma) or (noun.tag_ == "NN" and _lexicalized(word, noun.lower_)):
            continue
        if (a0 > 0 and resources.synsets(f"{doc[a0 - 1].lower_}_{word}", "a")) or \
                (a1 < noun.i and resources.synsets(f"{word}_{doc[a1].lower_}", "a")):
            continue  # part of a multi-word adjective ("middle eastern")
        person = noun_lemma in persons or _is_person(noun_lemma, params.person_senses, params.person_synset,
                                                     tuple(params.person_lexnames))
        if person and (noun_lemma in params.thing_nouns or any(
                c.dep_ == "compound" and resources.lexnames(_lemma(c), "n", 1) & {"noun.artifact"}
                for c in noun.lefts)):
            person = False  # "car strollers" are pushchairs, not people who stroll
        if person and not params.persons:
            continue
        if params.allow_lexicon and not _allowed_adjectives(ruleset.lexicon(params.allow_lexicon), doc[a0:a1],
                                                            noun_lemma, tuple(params.surface_lexnames)):
            continue  # "a slide which is large", "a container which is plastic", "the grass which is green"
        rel = params.who if person else params.which
        if not person and children(noun, "conj"):
            continue  # "a shirt which is white and brown skirt": the clause swallows the next conjunct
        slot = _post_nominal_slot(noun, who=person)
        if slot is None or not _clause_may_end(doc, noun, slot):
            continue
        s = sent.fork()
        text = _moved_text(s, a0, a1)
        if a1 - a0 == 1 and _always_capitalized(word):
            if not person:
                continue  # "a flag which is American" reads as a classification, not a description
            text = word.capitalize()  # a proper adjective: "a girl who is Asian"
        s.delete(*range(a0, a1))
        clause = f"{rel} {be_present(_noun_plural(noun))} {text}"
        if noun.dep_ in ("nsubj", "nsubjpass") and slot + 1 < len(doc) and not doc[slot + 1].is_punct \
                and noun.left_edge.i > 0:
            continue  # a subject inside a longer phrase ("dressed in shorts and a blue hat is balancing"): the
            # parser's subject is often wrong, and "a hat, which is blue, is balancing" follows
        before_verb = noun.dep_ in ("nsubj", "nsubjpass") and slot + 1 < len(doc) and slot + 1 == noun.head.i - len(
            [t for t in doc[slot + 1:noun.head.i] if t.dep_ in ("aux", "auxpass", "neg")]) \
            and not doc[slot + 1].is_punct
        if params.subject_only and not (before_verb and noun.left_edge.i == 0 and params.commas_before_verb):
            continue  # "a pepper which is red", "rubber ducks which are yellow": stiff off the opening subject
        if params.commas_before_verb and before_verb:
            clause = f", {clause} ,"  # surface() removes the space before each comma
        s.insert_after(slot, clause)
        yield s.edits
