"""The grammar gate: checks (and small repairs) on every generated sentence, S1 to S4.

The rules of Tables 2 and 3 (Marelli et al. 2014, sections 3.1-3.2) edit a parse; an edit can leave a
sentence that a careful annotator would not have written: "A zucchini are being scrubbed by a person",
"A women are slicing green pepper", "An elderly man in wheelchair is begging for handout". SICK's sentences
are grammatical (section 3: "we normalized ... to exclude ungrammatical sentences"), so every generated
sentence is parsed again and checked. Each check has an id:

- ``agreement``: subject and finite verb differ in number ("A zucchini are"), a number word or demonstrative
  disagrees with its noun ("two dog", "these dog", "this dogs"), "each other" with one singular subject
  ("There is no dog jumping up at each other").
- ``article-plural``: "a"/"an" before a plural noun ("A women", "an apples", "a mice": an irregular plural the
  tagger calls singular); "a few", "a lot", "a couple" are fine.
- ``missing-determiner``: a singular count noun heading a noun phrase with no determiner ("in wheelchair");
  repaired by inserting "a"/"an" at the start of the noun phrase. Mass and abstract nouns (WordNet's first
  sense outside concrete lexicographer files, ``rules/lexicons/mass_nouns.yaml``; but events and acts that a
  caption counts, ``rules/lexicons/counted_nouns.yaml``, take one: "doing a trick"), idioms ("at home", "in
  front", ``rules/lexicons/bare_noun_phrases.yaml``), the object of "play" ("playing guitar"), nouns after
  "of"/"by" (except after a picture or statue: "pictures of ant" -> "of an ant"), and nouns whose plural is
  rare in wordfreq (mass use) are left alone. A capitalised first word tagged as a name is checked when its
  lower-case form is a count noun and no WordNet name ("Kangaroo is eating" -> "A kangaroo is eating").
- ``doubled-word``: the same word twice in a row ("the the"), repaired by deleting the second; two articles
  in a row ("on the an empty street"), repaired by deleting the first.
- ``duplicate-coordinate``: two identical conjuncts ("white and white", "a dog and a dog").
- ``no-finite-verb``: no finite verb with a subject (a fragment: "A man playing a guitar"), a fragment opening
  the sentence before a comma ("Three girls walking, one is checking her phone"), or a noun phrase whose only
  finite verb is in a relative clause of an inner noun ("A woman in a bicycle store where two men are working").
- ``stacked-verb``: a progressive verb followed at once by a past participle that the parse makes a clause of its
  own ("The comedic is miming performed on stage": a caption's verb made a progressive beside another one);
  "is being performed", "is getting dressed" and a participle before a noun ("sprinkling shredded cheese") pass;
  or a bare participle between the subject and its verb ("A man and woman walking are holding each other"), or
  two main-clause "is/are" with nothing that opens a clause between them ("A man is dressed as a safari hunter is
  posing").
- ``loose-subject``: a verb with a second subject that no "and", "or" or comma joins to the first ("A dog and a
  goat chase two children are playing", "A male gymnast upside is up"), or a bare "one"/"some"/"others" beside
  a subject that has a verb of its own ("Two men on a cliff edge and one is jumping"), or a subject described by
  a participle before "and" another subject and an -s verb ("People running a race and the guy in grey is in
  the lead"): captions whose clauses run together (0 of SICK's 6,077 sentences).

spaCy mislabels, so every check prefers precision: a case the parse leaves unclear is not flagged. On SICK's
own train sentences (9,000 or so, ``tests/test_grammar.py``) the checks flag well under 1 %.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Iterable

from pipeline.common import resources
from pipeline.corpus.sentence import article_for, surface
from pipeline.corpus.wordforms import in_hyphenated, irregular_plural, is_game, lemma_of, plural

CHECKS = ("agreement", "article-plural", "missing-determiner", "doubled-word", "duplicate-coordinate",
          "no-finite-verb", "stacked-verb", "loose-subject")
REPAIRABLE = ("missing-determiner", "doubled-word")
GATE_DISABLE = ("ner", "lemmatizer")  # the checks read tags and dependencies only
BATCH = 256

SUBJECT_DEPS = ("nsubj", "nsubjpass", "csubj", "expl")
FINITE_TAGS = ("VBZ", "VBP", "VBD", "MD")
DETERMINER_DEPS = ("det", "poss", "nummod", "predet")
DETERMINER_TAGS = ("DT", "PRP$", "WP$", "CD", "WDT", "PDT", "POS")
# words before a noun that do the work of a determiner though spaCy may call them adjectives
QUANTIFIERS = frozenset("many much several few more most enough little less other such own half each every "
                        "another no any some all both either neither what which whose mid".split())
# left dependents that may sit between an inserted article and its noun
NP_INTERNAL = ("amod", "compound", "nmod", "advmod", "npadvmod", "hmod", "punct", "quantmod")
CHECKED_NOUN_DEPS = ("nsubj", "nsubjpass", "dobj", "pobj", "dative")
BALL_VERBS = frozenset({"dribble", "throw", "catch", "kick", "hold", "carry", "shoot", "bounce", "toss", "pass",
                        "spin", "grab", "chase", "hit", "drop", "fetch"})
# setting nouns that go bare as an object ("catching air", "making shade", "riding surf")
WEATHER_OBJECTS = frozenset({"air", "wind", "rain", "sun", "dark", "shade", "surf", "sunlight", "sunshine"})
COUNT_LEXNAMES = frozenset({"noun.artifact", "noun.animal", "noun.person", "noun.object", "noun.body",
                            "noun.plant", "noun.location", "noun.shape"})
MASS_LEXNAMES = frozenset({"noun.food", "noun.substance"})
# participles of a food cut up or cooked, after which it is a stuff, bare ("chopped eggplant", "sliced apple")
PREPARED = frozenset("chopped sliced diced minced grated shredded mashed cooked fried boiled roasted steamed baked "
                     "crushed peeled cut melted scrambled".split())
# a food whose plural is at most this much rarer (wordfreq zipf) than its singular is counted in captions
COUNTED_FOOD_RATIO = -0.85  # "a lemon" (-0.81), "an eggplant" (-0.80), as SICK writes them (8/8, 3/3)
# a first sense in one of these files ("outfit": a group; "table": data; "object", "event": top nouns) still
# reads as count in a caption when a later sense is concrete or the plural is about as frequent
VAGUE_LEXNAMES = frozenset({"noun.group", "noun.Tops", "noun.act", "noun.event"})
# a size or shape adjective before a noun marks a single thing: "cutting big pepper", "a small blue object";
# true mass nouns ("long hair", "tall grass", "deep snow") are in the mass lexicon and stay bare
SIZE_ADJECTIVES = frozenset("big bigger large larger small smaller little tiny huge giant enormous massive tall "
                            "round square long short thin thick wide narrow".split())
# "group of men", "crowd of people": a collective noun before "of" counts one group
# "in the middle of street", "at top of hill": after "of", a setting noun takes "the" only after a part noun
PART_NOUNS = frozenset("middle center centre edge side top bottom end front back rest corner surface part".split())
COLLECTIVE_OF = frozenset("group couple pair team crowd herd flock pack bunch line row pile stack bowl plate "
                          "cup glass bottle piece slice bag box handful".split())
# "a picture of ant": after "of", a depiction's subject is one thing and takes its article
DEPICTION_NOUNS = frozenset("picture pictures photo photos photograph photographs image images painting paintings "
                            "drawing drawings portrait portraits statue statues sculpture sculptures".split())
NOT_NOUNS = frozenset("one other each another something anything nothing everything someone anyone everyone "
                      "nobody somebody everybody anybody none lot bit kind sort type part way".split())
# "a few people", "a lot of", "a couple of": the article belongs to the quantity, not the plural noun
ARTICLE_QUANTITIES = frozenset("few lot lots couple dozen number great good hundred thousand million pair "
                               "total bunch group variety series".split())
SINGULAR_PRONOUNS = frozenset("he she it this that someone somebody something nobody everyone everybody "
                              "everything anyone anybody anything one".split())
PLURAL_PRONOUNS = frozenset("they we these those both".split())
SINGULAR_DETS = frozenset("a an this that every each another one".split())
PLURAL_DETS = frozenset("these those many several both few".split())
NUMBER_WORDS = frozenset("two three four five six seven eight nine ten eleven twelve twenty dozens".split())
COLLECTIVE = frozenset("group couple pair team crowd family herd flock band class audience people police "
                       "crew troop pack bunch staff".split())
DOUBLING_OK = frozenset("had that very so bye ha no yeah".split())
REPEAT_OK = frozenset("over again round more on through by out up down".split())  # "over and over"


@dataclass(frozen=True)
class Verdict:
    """The gate's answer for one sentence.

    Attributes:
        text: the sentence to use (repaired when ``repairs``, else the input).
        failures: ids of checks (:data:`CHECKS`) that failed and were not repaired; empty: the sentence passes.
        repairs: ids of checks whose failure was repaired in ``text``.
    """

    text: str
    failures: tuple[str, ...] = ()
    repairs: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def repaired(self) -> str | None:
        """The repaired sentence, or None when nothing was repaired."""
        return self.text if self.repairs else None


@functools.lru_cache(maxsize=4)
def _lexicons(rules_root: str | None):
    from pipeline.corpus.rules import load_rules

    rs = load_rules(rules_root)
    return _lexicons_of(rs)


def _lexicons_of(ruleset) -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    """(mass nouns, bare noun phrases, setting nouns, counted nouns) of a rule set; a missing optional lexicon is
    empty."""
    def optional(name: str) -> frozenset[str]:
        return ruleset.lexicon_set(name) if name in ruleset.lexicons else frozenset()

    return ruleset.lexicon_set("mass_nouns"), optional("bare_noun_phrases"), optional("setting_nouns"), \
        optional("counted_nouns")


# ----------------------------------------------------------------------------------------------- number

# garments named by a plural only, which spaCy lemmatizes to another word ("pants" -> "pant", a breath); not
# every plural WordNet lists on its own ("arms" is first a weapon)
PLURALIA_TANTUM = frozenset({"pants", "shorts", "jeans", "trousers", "trunks", "tights", "overalls", "leggings",
                             "pajamas", "pyjamas", "slacks", "sweatpants", "khakis", "goggles", "sunglasses",
                             "bleachers"})  # (seats: spaCy's "bleacher" is a person)


@functools.lru_cache(maxsize=65536)  # asked for every noun of every checked sentence
def _invariant(word: str) -> bool:
    """'sheep', 'fish', 'deer', 'news': the same form in both numbers, so the tag says nothing."""
    return plural(word) == word or lemma_of(word, "NOUN") == word and word.endswith("s")


@functools.lru_cache(maxsize=65536)
def _plural_form(word: str) -> bool:
    """Whether a word tagged NNS really looks plural ("women", "dogs"; not "zucchini", "cattle", "news")."""
    return word == "people" or word in PLURALIA_TANTUM or lemma_of(word, "NOUN") != word and not _invariant(word)


def np_number(head, expl: bool = False) -> str | None:
    """``'sg'``, ``'pl'`` or None (unclear) for the noun phrase headed by ``head``.

    Coordination with "and" makes a plural, except after expletive "there" ("There is a man and a woman").
    Collective and "X of Y" heads ("a group of people is/are") are unclear, except after "no", "every" or
    "each", which make the phrase singular ("No group of people is dancing"; Quirk et al. 1985, 10.35: notional
    concord is for the plural reading of a collective, which these determiners exclude).
    """
    low = head.lower_
    if low in PLURAL_PRONOUNS:
        return "pl"
    if low in SINGULAR_PRONOUNS and head.pos_ == "PRON":
        return "sg"
    if head.pos_ not in ("NOUN", "PROPN"):
        return None
    if head.tag_ == "NN" and not any(c.dep_ == "conj" for c in head.children) and \
            any(c.dep_ == "det" and c.lower_ in ("no", "every", "each") for c in head.children):
        return "sg"
    if low in COLLECTIVE or any(c.dep_ == "prep" and c.lower_ == "of" for c in head.children):
        return None
    # "A dog which is black and a white dog ... are": an "and" inside a clause on the head may be the
    # coordination of the subject, parsed into the clause
    if any(c.dep_ in ("relcl", "acl") and any(t.lower_ == "and" for t in c.subtree) for c in head.children):
        return None
    if head.tag_ == "NNS" and _plural_form(low) and any(c.dep_ == "det" and c.lower_ in ("a", "an")
                                                         for c in head.children):
        return None  # "A female wearing pink gloves and ...": the parse probably took the wrong head
    conj = [c for c in head.children if c.dep_ == "conj"]
    if conj:
        # a modifier between the head and its conjunct ("a dog with long hair and a red vest") makes the
        # attachment of the conjunct a guess: unclear
        if expl or any(c.i > head.i and c.i < conj[0].i and c.dep_ in ("prep", "acl", "relcl", "amod")
                       for c in head.children):
            return None
        # "the brown and white dog" (a colour read as a noun), "kicking and water" (a gerund): only a first
        # conjunct that is a plain noun phrase of its own makes a plural
        if not (head.pos_ == "PRON" or head.tag_ in ("NNS", "NNPS") or _has_determiner(head)) or \
                low.endswith("ing") or resources.synsets(low, "a"):
            return None
        ccs = [t.lower_ for t in head.children if t.dep_ == "cc"] + [t.lower_ for c in conj for t in c.children
                                                                      if t.dep_ == "cc"]
        return "pl" if "and" in ccs or not ccs else None
    if any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in head.children) and head.tag_ in ("NN", "NNS"):
        # "a ... gloves": the parse probably took the wrong head (article-plural says the rest); "a zucchini"
        # or "a sheep" tagged NNS is one
        return None if head.tag_ == "NNS" and _plural_form(low) else "sg"
    if head.tag_ == "NNS":
        return "pl" if _plural_form(low) else None
    if head.tag_ == "NN":
        return None if _invariant(low) else "sg"
    return None  # proper nouns ("The Jockeys") and the rest: unclear


def verb_number(v) -> str | None:
    """Number a finite verb demands: VBZ and 'was' singular, VBP and 'were' plural; None otherwise."""
    low = v.lower_
    if v.tag_ == "VBZ":
        return "sg"
    if v.tag_ == "VBP" and low != "am":
        return "pl"
    if low == "was":
        return "sg"
    if low == "were":
        return "pl"
    return None


def _subject(v):
    """(subject token, is expletive) of the clause of finite verb ``v``, or (None, False)."""
    head = v.head if v.dep_ in ("aux", "auxpass") else v
    for tok in (v, head):
        subjects = [c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass")]
        if len(subjects) > 1:  # "A man, a woman and two girls are": a coordination parsed as two subjects
            return None, False
        if subjects:
            return subjects[0], False
        for c in tok.children:
            if c.dep_ == "expl":
                attrs = [a for a in head.children if a.dep_ in ("attr", "nsubj", "dobj") and a is not c]
                return (attrs[0], True) if attrs else (None, False)
    return None, False


def _agreement(doc) -> bool:
    for v in doc:
        if v.tag_ not in ("VBZ", "VBP", "VBD") or v.pos_ not in ("AUX", "VERB"):
            continue
        want = verb_number(v)
        if want is None:
            continue
        subj, expl = _subject(v)
        if subj is None:
            continue
        if subj.tag_ in ("WDT", "WP"):  # "a man who is": the antecedent, when right before the pronoun
            ante = subj.head.head if subj.head.dep_ == "relcl" else None
            if ante is None or ante.i != subj.i - 1 and not (ante.i == subj.i - 2 and subj.nbor(-1).is_punct):
                continue
            if _inside_modifier(ante):  # "a person wearing pants who is": which noun is meant is a guess
                continue
            subj = ante
        if v.pos_ == "VERB" and subj.i == v.i - 1 and subj.pos_ == "NOUN" and not _has_determiner(subj):
            continue  # a bare noun then a main verb may be a verb then a noun, mis-tagged
        if subj.left_edge.i > 0 and doc[subj.left_edge.i - 1].pos_ == "VERB" and not _has_determiner(subj):
            continue  # "who climbs rocks is clinging": the object of a verb taken for the next subject
        have = np_number(subj, expl)
        if have is not None and have != want:
            return True
    for n in doc:  # determiner / number word against its noun
        if n.tag_ not in ("NN", "NNS") or _invariant(n.lower_) or n.dep_ == "compound" or \
                n.i + 1 < len(doc) and doc[n.i + 1].pos_ in ("NOUN", "PROPN"):
            continue
        if any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in n.children):  # "a three wheeled scooter"
            continue
        # "four-wheeler", "three prize winning dogs": the number belongs to a compound, not to this noun
        if n.i + 1 < len(doc) and (doc[n.i + 1].tag_ in ("HYPH", "VBG") or doc[n.i + 1].text == "-") or \
                n.i > 0 and doc[n.i - 1].text == "-":
            continue
        for c in n.children:
            if c.i > n.i or c.dep_ not in ("det", "nummod", "amod"):
                continue
            w = c.lower_
            if n.tag_ == "NN" and (w in PLURAL_DETS and c.dep_ == "det" or w in NUMBER_WORDS and c.dep_ == "nummod"):
                return True
            if n.tag_ == "NNS" and c.dep_ == "det" and w in SINGULAR_DETS - {"a", "an", "one"}:
                return True
    for i in range(len(doc) - 1):  # "each other" needs more than one
        if doc[i].lower_ == "each" and doc[i + 1].lower_ == "other" or \
                doc[i].lower_ == "one" and doc[i + 1].lower_ == "another":
            subj = _reciprocal_subject(doc[i + 1])
            if subj is not None and np_number(subj) == "sg" and subj.lower_ not in COLLECTIVE:
                return True
    return False


def _inside_modifier(tok) -> bool:
    """Whether ``tok`` sits inside a modifier (participle, prepositional phrase) of another noun."""
    t = tok
    while t.head.i != t.i:
        if t.dep_ in ("acl", "prep", "relcl", "appos"):
            return True
        t = t.head
    return False


def _reciprocal_subject(tok):
    """Who does "each other" refer to: the subject of the nearest verb above, or the noun an ``acl`` verb
    modifies ("no dog jumping at each other")."""
    t = tok
    for _ in range(8):
        t = t.head
        if t.pos_ in ("VERB", "AUX"):
            if t.dep_ == "acl" and t.head.pos_ in ("NOUN", "PROPN"):
                return t.head
            subj, expl = _subject(t)
            if subj is None and t.dep_ in ("conj", "xcomp", "advcl"):
                continue
            return subj if not expl else subj
        if t.head.i == t.i:
            return None
    return None


# ---------------------------------------------------------------------------------------------- articles

def _article_plural(doc) -> bool:
    for a in doc:
        if a.lower_ not in ("a", "an") or a.i + 1 >= len(doc):
            continue
        nxt = doc[a.i + 1]
        if nxt.lower_ in ARTICLE_QUANTITIES:
            continue
        n = a.head if a.dep_ == "det" else nxt
        # only a plain noun phrase "a (adjectives) nouns": a noun or participle in between means the parse
        # probably took the wrong head ("A blond girl waves", "a cook slicing peppers")
        plural_noun = n.tag_ == "NNS" or n.tag_ == "NN" and irregular_plural(n.lower_)  # "a mice"
        if n.i + 1 < len(doc) and doc[n.i + 1].text == "'s":
            continue  # "a women's game": the article belongs to the possessed noun
        # (a noun modifier of the plural itself is no other head: "in a plaid shirts", r13, seed-2 build)
        between = doc[a.i + 1:n.i]
        # "and" or a comma between only adjectives still leaves one phrase: "A black and brown dogs" (q9 readers);
        # with a noun in between the article may be another phrase's ("a man and dogs")
        joined = ("CC", ",") if any(t.tag_ in ("NN", "NNS", "NNP", "VBG", "CD") for t in between) else ()
        if plural_noun and n.i > a.i and n.dep_ != "compound" and _plural_form(n.lower_) and \
                not any(t.lower_ in ARTICLE_QUANTITIES or t.tag_ in ("NN", "NNS", "NNP", "VBG", "CD") + joined
                        and not (t.tag_ == "NN" and t.dep_ == "compound" and t.head == n and t.i == n.i - 1)
                        for t in between):
            return True
    return False


@functools.lru_cache(maxsize=65536)
def _common_capitalised(word: str, mass: frozenset[str], bare: frozenset[str]) -> bool:
    """"Kangaroo is eating": a capitalised first word the tagger calls a name, whose lower-case form is a count
    noun (:func:`is_count_noun`) and no name in WordNet (no sense is a named instance: "Jack", "Man" stay)."""
    if not is_count_noun(word, mass, bare):
        return False
    return not any(s.instance_hypernyms() for s in resources.synsets(word))


def _has_determiner(n) -> bool:
    for c in n.children:
        if c.i < n.i and (c.dep_ in DETERMINER_DEPS or c.tag_ in DETERMINER_TAGS or c.lower_ in QUANTIFIERS):
            return True
    return n.i > 0 and n.doc[n.i - 1].tag_ in ("POS", "PRP$", "DT", "CD")


@functools.lru_cache(maxsize=65536)
def is_count_noun(word: str, mass: frozenset[str], bare: frozenset[str]) -> bool:
    """Whether ``word`` (a singular noun) is a count noun that needs a determiner in a caption.

    Count: not in the mass or bare-noun lexicons, no substance or game among its first three WordNet senses,
    a food only when its plural is about as frequent (:data:`COUNTED_FOOD_RATIO`: "a carrot", not "a rice"),
    and either WordNet's first noun sense in a concrete lexicographer file (:data:`COUNT_LEXNAMES`)
    with its plural not much rarer than the singular (wordfreq zipf within 1.3), or a vague first sense
    (:data:`VAGUE_LEXNAMES`: "outfit", "table", "object", "event") with a concrete later sense or a plural
    about as frequent (zipf within 0.5 for "noun.Tops", 0.8 otherwise), or a communication/possession noun
    with a plural as frequent ("a handout") or within 0.8 and a concrete later sense ("a display").
    """
    if word in mass or word in bare or word in NOT_NOUNS or word.endswith("ing"):
        return False
    syns = resources.synsets(word, "n")
    pl = plural(word)
    if not syns and _agent_noun(word):
        return True  # "Biker in a muddy orange shirt is riding" -> "A biker ..." (r13, seed-2 build)
    if not syns or pl == word:
        return False
    ratio = resources.zipf(pl) - resources.zipf(word)
    lexnames = [s.lexname() for s in syns[:3]]
    if is_game(word):
        return False
    if any(x in MASS_LEXNAMES for x in lexnames):
        # a food counted as pieces as often as a stuff ("carrots" about as frequent as "carrot"): SICK writes
        # "slicing a carrot", "peeling a potato", never the bare singular (SICK 2014, all three files)
        return "noun.substance" not in lexnames and ratio >= COUNTED_FOOD_RATIO

    first = lexnames[0]
    if first in COUNT_LEXNAMES:
        return ratio >= -1.3
    if first == "noun.Tops":
        return ratio >= -0.5
    if first in VAGUE_LEXNAMES:
        return ratio >= -0.8 and any(x in COUNT_LEXNAMES for x in lexnames[1:])
    # other nouns only when their plural is about as frequent as the singular ("a handout"), or a little rarer with
    # a concrete later sense ("looking at a display", r13 readers)
    return first in ("noun.communication", "noun.possession") and ratio >= -0.3 or first == "noun.communication" \
        and ratio >= -0.8 and any(x in COUNT_LEXNAMES for x in lexnames[1:])


def _agent_noun(word: str) -> bool:
    """A doer noun WordNet lacks, made of a verb it has and "-er"/"-r" ("biker": bike, "skateboarder"): a person,
    so a count noun. Only words wordfreq knows (zipf >= 2.5)."""
    return word.endswith("er") and len(word) > 4 and resources.zipf(word) >= 2.5 and bool(
        resources.synsets(word[:-1], "v") or resources.synsets(word[:-2], "v"))


@functools.lru_cache(maxsize=4096)
def _setting_counts(word: str) -> bool:
    """Whether a setting noun with a modifier takes "a" ("on a sandy beach", "on a basketball court"): count
    by :func:`is_count_noun` without the lexicons, or a vague first sense with a concrete later one ("court");
    not a stuff or weather ("in heavy rain", "in cold air")."""
    if is_count_noun(word, frozenset(), frozenset()):
        return True
    lexnames = [s.lexname() for s in resources.synsets(word, "n")[:3]]
    return bool(lexnames) and lexnames[0] in VAGUE_LEXNAMES and any(x in COUNT_LEXNAMES for x in lexnames[1:]) \
        and not any(x in MASS_LEXNAMES for x in lexnames)


def _count_by_modifier(n, mass: frozenset[str]) -> bool:
    """Count by its phrase though not by the word: a size adjective ("big pepper") or a collective before
    "of" ("group of men"); never a mass-lexicon noun ("long hair")."""
    low = n.lower_
    if low in mass or low in NOT_NOUNS or plural(low) == low or not resources.synsets(low, "n"):
        return False
    if low in COLLECTIVE_OF and n.i + 1 < len(n.doc) and n.doc[n.i + 1].lower_ == "of":
        return True
    if resources.synsets(low, "n")[0].lexname() in ("noun.attribute", "noun.quantity"):
        return False  # "of large size", "great length": the adjective measures, it does not count
    return any(c.dep_ == "amod" and c.lower_ in SIZE_ADJECTIVES and c.i < n.i for c in n.children)


def _noun_hyphen_noun(n) -> bool:
    """"bath-tub": the noun is the second half of a hyphenated noun, which takes its article before the first; not
    the object of its first half ("an off-road course": "road" hangs on "off", q9 spelling)."""
    doc = n.doc
    return n.i >= 2 and doc[n.i - 1].text == "-" and doc[n.i - 2].pos_ in ("NOUN", "ADJ", "PROPN") and \
        (n.i + 1 >= len(doc) or doc[n.i + 1].text != "-") and n.head.i != n.i - 2


def _particle_misparse(n) -> bool:
    """"in a grassy fenced in yard": the preposition right after a participle whose head is no noun (the parse
    took an adjective for the noun), so the setting noun ends the phrase of the earlier article."""
    prep = n.head
    part = prep.doc[prep.i - 1] if prep.i > 0 else None
    return part is not None and part.tag_ == "VBN" and prep.head.i == part.i and part.dep_ in ("acl", "amod") \
        and part.head.i < part.i and not resources.synsets(part.head.lower_, "n")


def _animate_object(verb, before: int) -> bool:
    """Whether ``verb`` has a person or animal object before token ``before`` ("training a dog to ..."): one
    who could do what an infinitive after it says."""
    return any(c.dep_ == "dobj" and c.i < before and (c.tag_ == "PRP" or resources.first_sense_animate(c.lower_))
               for c in verb.children)


def _plural_owner(prep) -> bool:
    """Whether the phrase of preposition ``prep`` describes a plural noun: the one it hangs on, or the subject of
    the verb it hangs on ("Soldiers in green uniform", "Soldiers are marching in green uniform")."""
    owner = prep.head
    if owner.pos_ in ("VERB", "AUX"):
        owner = next((c for c in owner.children if c.dep_ in ("nsubj", "nsubjpass")), owner)
    return owner.tag_ in ("NNS", "NNPS")


@functools.lru_cache(maxsize=16384)
def _part_of(part: str, whole: str) -> bool:
    """Whether WordNet 3.0 lists ``part`` as a part meronym of the first sense of ``whole`` or of one of its
    hypernyms ("hood" of "car", "roof" of "house", "tail" of "dog")."""
    for sense in resources.synsets(whole, "n")[:1]:
        for s in (sense, *sense.closure(lambda x: x.hypernyms())):
            if any(part in (lem.name() for lem in m.lemmas()) for m in s.part_meronyms()):
                return True
    return False


def _paired(n) -> bool:
    """"from side to side", "nose to nose": the noun repeated across a preposition (an idiom, bare)."""
    doc, i, low = n.doc, n.i, n.lower_
    after = i + 2 < len(doc) and doc[i + 1].tag_ in ("IN", "TO") and doc[i + 2].lower_ == low
    before = i >= 2 and doc[i - 1].tag_ in ("IN", "TO") and doc[i - 2].lower_ == low
    return after or before


def _np_start(n) -> int | None:
    """Where an article goes for noun ``n``: before its leftmost pre-modifier; None when a left dependent is
    not a plain modifier (the noun phrase is unclear)."""
    start = n.i
    for c in n.children:
        if c.i < n.i:
            if c.dep_ not in NP_INTERNAL:
                return None
            start = min(start, c.left_edge.i)
    return start


def _after_modifier_comma(doc, start: int) -> bool:
    """Whether a comma before ``start`` closes "determiner + adjectives" ("No wet, blond dog"), whatever the
    parse made of the adjectives: every word between the determiner and the comma has a WordNet adjective
    sense ("a hat, dog" is a list of nouns, not this)."""
    if start < 3 or doc[start - 1].text != ",":
        return False
    k = start - 2
    while k > 0 and doc[k].tag_ not in ("DT", "PRP$") and doc[k].is_alpha and resources.synsets(doc[k].lower_, "a"):
        k -= 1
    return k < start - 2 and doc[k].tag_ in ("DT", "PRP$")


def _missing_determiners(doc, mass, bare, settings=frozenset(), counted=frozenset()) \
        -> tuple[list[tuple[int, str]], bool]:
    """(``(token index, article)`` insertions, whether some missing determiner cannot be repaired).

    ``counted`` lists nouns counted whatever WordNet's first sense ("performing act at dog show" -> "an act at a
    dog show"). The article is "the" for a bare setting noun of the scene (``settings``: "in desert" -> "in the desert",
    "looking at camera" -> "at the camera"), else "a"/"an" by the sound of the next word ("under clear
    blue sky" -> "under a clear blue sky", "at event" -> "at an event"). A setting noun that is mass with
    a modifier ("in heavy rain", "in cold air") stays bare.
    """
    inserts, unrepairable = [], False
    for n in doc:
        # a lower-case word tagged as a name is a common noun the tagger misread ("looking from balcony")
        # so is the object of a preposition tagged as an adverb that WordNet knows only as a noun ("on skateboard")
        # ("on skateboard on top of ...": the parse may make it the preposition's clausal complement)
        pobj = n.dep_ == "pobj" or n.dep_ == "pcomp" and n.tag_ == "RB" and n.head.pos_ == "ADP" and not n.n_rights
        singular = n.tag_ == "NN" or n.tag_ == "NNP" and n.text.islower() and n.is_alpha or \
            n.tag_ == "RB" and pobj and n.is_alpha and not resources.synsets(n.lower_, "r") \
            and bool(resources.synsets(n.lower_, "n")) or \
            n.i == 0 and n.tag_ == "NNP" and n.text[1:].islower() and n.is_alpha \
            and _common_capitalised(n.lower_, mass, bare)
        # a conjunct is checked when it repeats its head noun: "a beige dog and brown dog" names two dogs
        same_noun_conj = n.dep_ == "conj" and n.head.lower_ == n.lower_ and n.head.dep_ in CHECKED_NOUN_DEPS
        # and so is one after a plural, which shares no article ("in white pants and turquoise tank top")
        plural_conj = n.dep_ == "conj" and n.head.tag_ in ("NNS", "NNPS") and n.head.dep_ in CHECKED_NOUN_DEPS
        if not singular or not (n.dep_ in CHECKED_NOUN_DEPS or pobj or same_noun_conj or plural_conj) \
                or _has_determiner(n):
            continue
        low = n.lower_
        # "tank top": a part noun ("top", mass as a place part) heading a compound WordNet knows as one count noun
        compound_count = low in PART_NOUNS and any(
            c.dep_ == "compound" and c.i == n.i - 1 and resources.synsets(f"{c.lower_}_{low}", "n")
            and is_count_noun(f"{c.lower_}_{low}", mass, bare) for c in n.children)
        # "catching air": not a setting; "approaching camera", "crossing street": an object that is one (seed 7)
        # "a tent filled with air": the stuff a thing is filled or covered with is no setting (q19 readers)
        material = pobj and n.head.lower_ == "with" and n.head.head.tag_ == "VBN"
        setting = low in settings and (pobj or n.dep_ == "dobj" and low not in WEATHER_OBJECTS) and not compound_count \
            and not material
        by_modifier = not setting and _count_by_modifier(n, mass)
        collective = low in COLLECTIVE_OF
        # "dribbling basketball": a ball game's name for its ball, the object of a verb done to a ball (seed 8)
        ball = n.dep_ == "dobj" and low.endswith("ball") and is_game(low) \
            and lemma_of(n.head.text, "VERB") in BALL_VERBS
        if not (setting or by_modifier or compound_count or ball or low in counted or is_count_noun(low, mass, bare)):
            continue
        if n.i + 1 < len(n.doc) and n.doc[n.i + 1].tag_ in ("CD", "POS"):  # "number 5", "man 's"
            continue
        if n.i + 1 < len(doc) and doc[n.i + 1].tag_ == "DT" and doc[n.i + 1].lower_ != "no" \
                and resources.synsets(low, "v"):
            continue  # "helping a man in red climb a rock": a verb before its object, which the parse made a noun
            # ("in a red climb", q14 readers)
        if n.i + 1 < len(n.doc) and n.doc[n.i + 1].tag_ == "NNS" and n.doc[n.i + 1].pos_ == "NOUN":
            continue  # "wearing ear defenders", "in blue flannel shorts": the noun modifies the plural after it,
            # which the parse made an object of its own (seed 11; q8 readers: "in a blue flannel shorts")
        if low == "base" and any(c.lower_ in ("first", "second", "third") for c in n.children):
            continue  # "running towards first base": a baseball base by its number is a name (r13, seed 2)
        if n.dep_ == "nsubj" and n.head.i == n.i + 1 and n.head.tag_ == "VBG" and n.i > 0 \
                and doc[n.i - 1].lower_ in ("is", "are"):
            continue  # "A man is kite surfing": the parse makes the verb's first half a subject
        if any(c.dep_ == "amod" and c.lower_ in PREPARED for c in n.children) \
                and resources.lexnames(low, "n", 3) & {"noun.food", "noun.plant"}:
            continue  # "putting chopped eggplant into a skillet": a food cut up is a stuff (r13)
        if not pobj and n.i > 0 and f"{doc[n.i - 1].lower_} {low}" in bare \
                and not any(c.dep_ == "amod" for c in n.children):
            continue  # "smiling off camera": the parse reads "off" as the verb's particle (q27 readers)
        if pobj:
            prep = n.head.lower_
            # "a piece of cake", "made by hand"; a setting ("middle of desert") or a counted group ("to group
            # of men", "a picture of group of people") still needs its article after "of"/"by"
            # an idiom stays bare only unmodified: "in uniform", but "in red and white uniform" is one uniform
            modified = any(c.dep_ == "amod" for c in n.children)
            # and modified after a plural wearer, who wear one each: "Some people in medieval costume" (q35 readers:
            # "people in a medieval costume")
            if prep in ("per", "via", "than", "like", "as") or f"{prep} {low}" in bare and (
                    not modified or _plural_owner(n.head)):
                continue
            part_of = prep == "of" and n.head.head.lower_ in PART_NOUNS
            depiction = prep == "of" and n.head.head.lower_ in DEPICTION_NOUNS
            # "in front of mosque": a place part's object is one thing, so it needs its article like a setting
            front_of = part_of and n.head.head.lower_ == "front" and n.head.head.head.lower_ == "in"
            # "on top of barrel", "at the edge of pool": a place part of one count thing (not of a body part,
            # whose owner the caption left out: "the top of head")
            thing_part = part_of and not setting and n.head.head.head.pos_ == "ADP" \
                and resources.lexnames(low, "n", 1).isdisjoint({"noun.body"})
            # "standing by orange pole": a place "by" (not the agent "by") with a described count noun (r13)
            beside = prep == "by" and any(c.dep_ in ("amod", "compound") for c in n.children) and (
                n.head.dep_ == "prep" or n.head.dep_ == "agent"
                and not any(c.dep_ == "auxpass" for c in n.head.head.children))
            # "sliding out of green tube": "out of" a described thing is a place like "into" ("out of breath",
            # "out of place" have no modifier) (seed-15 readers)
            out_of = prep == "of" and n.head.head.lower_ == "out" and n.head.head.pos_ == "ADP" and modified
            # "into the hood of small white car": a part WordNet gives the thing belongs to one of them (q38 readers)
            meronym = prep == "of" and n.head.head.pos_ == "NOUN" \
                and _part_of(lemma_of(n.head.head.lower_, "NOUN"), low)
            if prep in ("of", "by") and not (setting and (part_of or prep == "by") or by_modifier and collective
                                             or depiction or front_of or thing_part or beside or out_of or meronym):
                continue
            if n.head.head.lower_ == low:  # "side by side", "hand in hand"
                continue
            if prep == "to" and n.tag_ in ("NN", "NNP") and n.i == n.head.i + 1 and not n.n_lefts + n.n_rights and \
                    n.head.head.pos_ == "VERB" and \
                    (n.head.head.tag_ == "VBN" or _animate_object(n.head.head, n.head.i)) \
                    and resources.synsets(low, "v"):
                # "training a dog to zigzag", "is trained to zigzag": an infinitive after a living object (or a
                # passive), which the parse made a noun; "jumping from a chair to couch" is a place (q8 readers)
                continue
            if n.head.i > 0 and f"{n.doc[n.head.i - 1].lower_} {prep} {low}" in bare:  # "out of sight"
                continue
        else:
            verb = n.head
            if verb.pos_ in ("VERB", "AUX") and (verb.lower_.startswith("play")
                                                 or resources.synsets(f"{verb.lower_}_{low}", "v")
                                                 or resources.synsets(f"{lemma_of(verb.lower_, 'VERB')}_{low}", "v")):
                continue  # "playing guitar", "taking flight" (WordNet's verb "take flight")
        if any(c.dep_ == "compound" and f"{c.lower_}{low}" in bare | mass for c in n.children):
            continue  # "eye liner": the closed compound "eyeliner" is a bare noun
        if any(t.lower_ == low for t in n.doc if t.i != n.i and t.i < n.i and t.dep_ == "conj"):
            continue
        if _paired(n) or in_hyphenated(n) and not _noun_hyphen_noun(n):  # "from branch to branch", "off-road"
            continue
        if setting and _particle_misparse(n):  # "a grassy fenced in yard": "in" is the participle's particle
            continue
        start = _np_start(n)
        # a number inside a hyphenated modifier is no determiner ("on two-wheeled object")
        if start is not None and any((doc[k].tag_ in DETERMINER_TAGS or doc[k].lower_ in QUANTIFIERS)
                                     and doc[k + 1].text != "-" for k in range(start, n.i)):
            continue  # "A big brown and white spotted dog": the determiner hangs on a modifier in the parse
        if start is not None and start > 0 and (doc[start - 1].pos_ in ("NOUN", "PROPN")
                                                or doc[start - 1].tag_ in DETERMINER_TAGS):
            # "another mans arm": a noun right before is a possessive or compound the parse missed; a determiner
            # right before was split off by the parse ("of one crossed leg": "one" taken for the object of "of")
            continue
        if start is not None and start >= 2 and doc[start - 1].lower_ in ("and", "or", "&") \
                and doc[start - 2].pos_ in ("NOUN", "PROPN") and doc[start - 2].lower_ != low \
                and doc[start - 2].tag_ not in ("NNS", "NNPS"):
            # "in black suit and tie": the second conjunct shares the first's article (a misparse); but the same
            # noun again names a second thing ("A beige dog and brown dog" -> "and a brown dog"), and a plural
            # shares no article ("in white pants and turquoise tank top" -> "and a turquoise tank top", r13)
            continue
        if start is not None and _after_modifier_comma(doc, start):
            continue  # "No wet, blond dog": the determiner of comma-separated modifiers, split off in the parse
        if start is None:
            if not setting:
                unrepairable = True
            continue
        if setting and start < n.i:  # "on sandy beach": one of many, if the noun counts at all
            if not _setting_counts(low):
                continue
            inserts.append((start, article_for(doc[start].text)))
        elif setting:
            inserts.append((start, "the"))
        else:
            inserts.append((start, article_for(doc[start].text)))
    return inserts, unrepairable


# -------------------------------------------------------------------------------------------- repetitions

_ARTICLES = frozenset({"a", "an", "the"})


def _doubled(doc) -> list[int]:
    """Tokens to delete: the second of a word said twice ("the the"), and the first of two articles in a row
    ("on the an empty street", a caption's slip: the second one fits the next word's sound)."""
    return [t.i for t in doc[1:] if t.is_alpha and t.lower_ == doc[t.i - 1].lower_ and t.lower_ not in DOUBLING_OK] \
        + [t.i for t in doc[:-1] if t.lower_ in _ARTICLES and doc[t.i + 1].lower_ in _ARTICLES
           and t.lower_ != doc[t.i + 1].lower_]


_WORD_AND_SAME = re.compile(r"\b(\w+)\s*(?:,|and|or)\s+\1\b", re.IGNORECASE)
# a phrase of two to four words said twice in a list, which the parser does not read as coordinated ("wearing a
# blue jacket, a blue jacket and black earmuffs")
_PHRASE_COMMA_SAME = re.compile(r"\b(\w+(?: \w+){1,3}) ?, \1\b", re.IGNORECASE)


def _conjunct_text(tok) -> str:
    skip = set()
    for c in tok.children:
        if c.dep_ in ("conj", "cc", "punct") and c.i > tok.i:
            skip.update(t.i for t in c.subtree)
    return " ".join(t.lower_ for t in tok.subtree if t.i not in skip)


def _duplicate_coordinate(doc) -> bool:
    for m in _WORD_AND_SAME.finditer(doc.text):
        if m.group(1).lower() not in REPEAT_OK:
            return True
    if _PHRASE_COMMA_SAME.search(doc.text):
        return True
    for tok in doc:
        if tok.dep_ == "conj" or not any(c.dep_ == "conj" for c in tok.children):
            continue
        conjuncts, t = [tok], tok
        while True:
            nxt = [c for c in t.children if c.dep_ == "conj"]
            if not nxt:
                break
            t = nxt[0]
            conjuncts.append(t)
        texts = [_conjunct_text(c) for c in conjuncts]
        if len(set(texts)) < len(texts) and conjuncts[0].lower_ not in REPEAT_OK:
            return True
    return False


def _opening_fragment(doc) -> bool:
    """"Three girls walking, one is checking her phone": a clause that opens the sentence with a subject and a
    participle but no auxiliary, spliced to the finite one by a comma (a caption's fragment left as it was)."""
    for v in doc:
        if v.dep_ == "advcl" and v.tag_ in ("VBG", "VBN") and v.i < v.head.i \
                and not any(c.dep_ in ("aux", "auxpass", "mark") for c in v.children) \
                and any(c.dep_ in ("nsubj", "nsubjpass") for c in v.children) and v.left_edge.i == 0:
            return True
    return False


# words that open a clause of its own between two forms of "be" ("is looking on as a dog is swimming")
_CLAUSE_OPENERS = frozenset({",", ";", "that", "while", "because", "when", "where", "and", "or", "but", "if", "so",
                             "since", "until", "who", "which", "whose", "what", "how", "whom", "than", "whether",
                             "though", "although", "whereas", "as"})


def _two_predicates(doc) -> bool:
    """Two main-clause "is/are" with nothing between them that opens a clause ("A man is dressed as a safari
    hunter is posing", "There is no man is pushing"); "as" after a participle of dressing names a costume, not a
    clause; a relative or subordinate first "is" and a pronoun subject of the second ("a tree they are
    climbing") pass."""
    # a finite verb of the caption left beside the "is/are" a rule added counts too ("A lady stand in front of a
    # truck is holding her dog", "Two women in summer wear ride tricycles are on the concrete")
    bes = [t for t in doc if t.lower_ in ("is", "are") and t.tag_ in ("VBZ", "VBP")
           or t.pos_ == "VERB" and t.tag_ in ("VBZ", "VBP") and t.dep_ not in ("aux", "auxpass")]
    for a, b in zip(bes, bes[1:]):
        if b.lower_ not in ("is", "are"):
            continue
        clause = a.head if a.dep_ in ("aux", "auxpass") else a
        if clause.dep_ in ("relcl", "acl", "ccomp", "advcl", "csubj") \
                or any(t.lower_ in _CLAUSE_OPENERS or t.tag_ in ("WDT", "WP") for t in doc[max(0, a.i - 2):a.i]):
            continue
        between = doc[a.i + 1:b.i]
        if not between:
            continue  # "is is": the doubled-word check repairs it
        if any(t.tag_ == "PRP" and t.dep_ in SUBJECT_DEPS for t in between):
            continue
        if not any((t.lower_ in _CLAUSE_OPENERS and not (t.lower_ == "as" and doc[t.i - 1].tag_ == "VBN"))
                   or t.dep_ in ("cc", "mark") or t.tag_ in ("CC", "WDT", "WP", "WP$", "WRB") for t in between):
            return True
    return False


def _finite_after_be(tok) -> bool:
    """A finite verb right after "is/are" ("is has", "are does"); not "'s", and not a second "is", which the
    doubled-word check repairs."""
    return tok.lower_ in ("has", "have", "does") or (
        tok.tag_ == "VBZ" and tok.pos_ in ("VERB", "AUX") and tok.lower_ not in ("'s", "is"))


def _stacked_verb(doc) -> bool:
    if _two_predicates(doc):
        return True
    if any(t.lower_ in ("is", "are") and _finite_after_be(doc[t.i + 1]) for t in doc[:-1]):
        return True  # "A man in a black jacket is has a white headphone" (seed-22 readers)
    if any(t.tag_ == "VBG" and t.dep_ == "acl" and not list(t.children) and 0 < t.i < len(doc) - 1
           and doc[t.i - 1].pos_ in ("NOUN", "PROPN") and doc[t.i + 1].lower_ in ("is", "are") for t in doc):
        return True  # "A man and woman walking are holding each other"
    return any(t.tag_ == "VBN" and t.dep_ in ("advcl", "xcomp", "conj", "dep", "ccomp") and t.i > 0
               and doc[t.i - 1].tag_ == "VBG" and doc[t.i - 1].lower_ not in ("being", "getting")
               and any(a.dep_ == "aux" and a.lemma_ == "be" for a in doc[t.i - 1].children) for t in doc)


def _loose_subject(doc) -> bool:
    for v in doc:
        subjects = sorted((c for c in v.children if c.dep_ in ("nsubj", "nsubjpass")), key=lambda c: c.i)
        for first, second in zip(subjects, subjects[1:]):
            if second.left_edge.i == 0:
                continue
            gap = doc[second.left_edge.i - 1]
            if gap.lower_ not in ("and", "or", ",") and gap.i >= first.i:
                return True
            if second.lower_ in ("one", "some", "others") and not any(c.dep_ == "det" for c in second.children):
                return True
            if gap.lower_ == "and" and v.tag_ == "VBZ" and any(
                    c.dep_ == "acl" and c.tag_ == "VBG" and c.right_edge.i in (gap.i - 1, gap.i)
                    for c in first.children):
                return True  # "People running a race and the guy in grey is in the lead": the first is a fragment
    return False


def _relative_only(doc) -> bool:
    """A noun phrase whose only finite verbs are in a relative clause of a noun inside it ("A woman in a bicycle
    store where two men are working on a bike": p1 readers of the fourth part); not one of the head noun itself,
    whose main verb the parse may have read as a noun."""
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if len(roots) != 1 or roots[0].pos_ not in ("NOUN", "PROPN") or roots[0].i == len(doc) - 1:
        return False
    if any(c.dep_ == "relcl" for c in roots[0].children):
        return False  # "A person who is practicing snowboarding jumps": the main verb may be read as a noun
    finite = [v for v in doc if v.tag_ in FINITE_TAGS and v.pos_ in ("AUX", "VERB")]
    return bool(finite) and all(any(a.dep_ == "relcl" for a in (v, *v.ancestors)) for v in finite)


def _no_finite_verb(doc) -> bool:
    if _opening_fragment(doc):
        return True
    if _relative_only(doc):
        return True
    # a finite verb whose subject the parse missed ("A tattoo/RB is being drawn") is not a fragment
    if any(v.tag_ in FINITE_TAGS for v in doc):
        return False
    for v in doc:
        if v.tag_ in FINITE_TAGS and v.pos_ in ("AUX", "VERB"):
            head = v.head if v.dep_ in ("aux", "auxpass") else v
            t = head
            for _ in range(4):
                if any(c.dep_ in SUBJECT_DEPS for c in t.children) or \
                        any(c.dep_ in SUBJECT_DEPS for c in v.children):
                    return False
                if t.dep_ == "conj" and t.head.i != t.i:
                    t = t.head
                else:
                    break
            if head.dep_ == "relcl":  # "a man who is ...": subject is the relative pronoun
                return False
    return True


# ---------------------------------------------------------------------------------------------- the gate

def _render(doc, inserts: list[tuple[int, str]], deletes: list[int]) -> str:
    articles = dict(inserts)
    words = []
    for t in doc:
        if t.i in deletes:
            continue
        text = t.text
        if t.i in articles:
            # a capitalised common noun taken for a name gets its article only as the checked noun ("Kangaroo")
            if t.i == 0 and text != "I" and (t.pos_ != "PROPN" or t.dep_ in CHECKED_NOUN_DEPS and text[1:].islower()):
                text = text.lower()
            text = f"{articles[t.i]} {text}"
        words.append(text + t.whitespace_)
    return surface("".join(words))


def check_doc(doc, ruleset=None) -> Verdict:
    """Run every check on one parsed sentence (tags and dependencies used, lemmas not needed).

    ``ruleset`` gives the lexicons (mass_nouns, bare_noun_phrases, setting_nouns, counted_nouns); default the
    project's rules.
    Repairs (missing-determiner, doubled-word) are applied together to the text; other failures are reported.
    """
    mass, bare, settings, counted = _lexicons_of(ruleset) if ruleset is not None else _lexicons(None)
    failures, repairs = [], []
    if _agreement(doc):
        failures.append("agreement")
    if _article_plural(doc):
        failures.append("article-plural")
    inserts, unrepairable = _missing_determiners(doc, mass, bare, settings, counted)
    if unrepairable:
        failures.append("missing-determiner")
    elif inserts:
        repairs.append("missing-determiner")
    deletes = _doubled(doc)
    if deletes:
        repairs.append("doubled-word")
    if _duplicate_coordinate(doc):
        failures.append("duplicate-coordinate")
    if _no_finite_verb(doc):
        failures.append("no-finite-verb")
    if _stacked_verb(doc):
        failures.append("stacked-verb")
    if _loose_subject(doc):
        failures.append("loose-subject")
    text = doc.text
    if repairs and not failures:
        text = _render(doc, inserts, deletes)
    elif repairs:  # the sentence is rejected anyway: report the repairable failures as failures too
        failures += repairs
        repairs = []
    order = {c: k for k, c in enumerate(CHECKS)}
    return Verdict(text, tuple(sorted(set(failures), key=order.get)), tuple(sorted(repairs, key=order.get)))


def check_texts(texts: Iterable[str], ruleset=None) -> list[Verdict]:
    """Verdicts for many sentences, parsed in batches with NER and the lemmatizer off."""
    docs = resources.parse(texts, batch_size=BATCH, disable=GATE_DISABLE)
    return [check_doc(d, ruleset) for d in docs]


def gate(text: str, ruleset=None) -> tuple[str | None, tuple[str, ...]]:
    """``(repaired text or None, failed check ids)`` for one sentence; it passes when the failures are empty."""
    v = check_texts([text], ruleset)[0]
    return v.repaired, v.failures
