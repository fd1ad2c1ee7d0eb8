"""Word-level normalization actions (S0 -> S1), Marelli et al. 2014, section 3.1, Table 2.

Possessive pronouns -> determiners, listed tokens (quotation marks) deleted, multiword expressions removed,
dates and numbers (in letters or removed), named entities -> their class, capitalised common words
lower-cased, and an article for a bare singular subject. Each action edits a
:class:`~pipeline.sentence.Sentence` in place (``action(sent, params, ruleset) -> None``) or raises
:class:`~pipeline.errors.Unnormalizable`.
"""

from __future__ import annotations

__all__ = ["ArticleParams", "PlainNounParams", "plain_nouns", "BodyPartPossessiveParams", "body_part_possessive",
           "DeleteTokensParams", "LowercaseParams", "MassArticleParams", "MweParams",
           "NamedEntityParams", "NumberParams", "POSSESSIVE_PRONOUNS", "PossessiveParams", "ProperWordsParams",
           "DefiniteBeforeParams", "add_article", "capitalize_proper_words", "definite_before",
           "delete_tokens", "drop_mass_article", "drop_mwe", "mass_singular", "MassPluralParams",
           "plural_owner_body_part", "PluralOwnerParams", "singular_agreement",
           "SingularAgreementParams",
           "lowercase_common_words", "named_entity_to_class", "normalize_numbers", "possessive_to_determiner",
           "PrepositionParams", "replace_preposition"]

import functools
import re

from pydantic import BaseModel

from pipeline.common import resources
from pipeline.common.errors import Unnormalizable
from pipeline.corpus.registry import action
from pipeline.corpus.sentence import article_for
from pipeline.corpus.wordforms import (
    in_hyphenated,
    is_game,
    is_plural_np,
    lemma_of,
    matches_at,
    number_words,
    plural,
    span,
    subject_of,
)

from ._normalize_common import _common_word, _np_plural
from .normalize_fragments import _animate

POSSESSIVE_PRONOUNS = ("my", "your", "his", "her", "its", "our", "their")

_DIGIT = re.compile(r"\d")


# --------------------------------------------------------------------------------------------------------
# rule 1: possessive pronouns


class PossessiveParams(BaseModel):
    replacement: str = "the"
    typos: list[str] = []  # pronouns mistyped for a possessive after a preposition ("to he hair")
    contractions: list[str] = []  # "it's" written for "its" ("with it's beak"), read as a possessive
    keep_before_body_parts: bool = False  # "his hands", "its mouth" stay: SICK keeps them (125 of 160 uses)
    keep_before: list[str] = []  # nouns of idioms that need the possessive ("making his way up")
    keep_plural: bool = False  # "their bikes", "its back tires": "the bikes" reads as bikes named before
    keep_lexnames: list[str] = []  # WordNet files (first sense) of owned nouns that keep it: "his father", "her dog"
    keep_hypernyms: list[str] = []  # synsets whose hyponyms keep it: clothing ("holding up his pants")
    keep_after: list[str] = []  # prepositions whose object keeps it ("striking the ball with her stick")
    female: list[str] = []  # owner nouns read "her": a mistyped "he" before a body part is the owner's possessive
    male: list[str] = []  # owner nouns read "his"


_PHRASE_TAGS = ("CD", "JJ", "NN", "NNS", "VBG", "VBN", "HYPH")


def _phrase_end(doc, start: int):
    """The last noun of the run of modifier and noun tags from ``start`` ("three prize winning dogs" -> "dogs"),
    or None."""
    j = start
    while j < len(doc) and doc[j].tag_ in _PHRASE_TAGS:
        j += 1
    return doc[j - 1] if j > start and doc[j - 1].tag_ in ("NN", "NNS") else None


_NOMINAL_DEPS = ("dobj", "pobj", "nsubj", "nsubjpass", "attr", "appos", "conj")


def _keeps_possessive(owned, params: PossessiveParams) -> bool:
    """Whether the possessive before noun ``owned`` stays (see :func:`possessive_to_determiner`)."""
    if owned.lower_ in params.keep_before:
        return True
    if owned.pos_ not in ("NOUN", "PROPN"):
        if owned.dep_ not in _NOMINAL_DEPS:
            return False
        # the tagger calls "kitten" in "holding her kitten" an adjective; its dependency says noun
        return bool(params.keep_lexnames and resources.lexnames(owned.lower_, "n", 1) & set(params.keep_lexnames))
    lemma = owned.lemma_.lower()
    if params.keep_before_body_parts and resources.body_part(lemma):
        return True
    if params.keep_plural and owned.tag_ in ("NNS", "NNPS"):
        return True
    if params.keep_after and owned.dep_ == "pobj" and owned.head.lower_ in params.keep_after:
        return True
    if params.keep_lexnames and resources.lexnames(lemma, "n", 1) & set(params.keep_lexnames):
        return True
    return bool(params.keep_hypernyms) and resources.under(lemma, tuple(params.keep_hypernyms))


@action("possessive_to_determiner", stages=("normalize",), params=PossessiveParams)
def possessive_to_determiner(sent, params: PossessiveParams, ruleset) -> None:
    """Possessive pronoun -> a determiner ("her playhouse" -> "the playhouse"); Table 2, first row.

    A pronoun counts as possessive when tagged PRP$ or attached as ``poss``: the tagger sometimes calls "her"
    in "holding her kitten" PRP while the parser attaches it to the noun. With ``keep_before_body_parts`` a
    pronoun before a body part stays ("brushing his teeth"; "it's beak" becomes "its beak"): SICK's sentences
    (SICK_train.txt) have "his/her/its/their" before a body part 125 times and "the" 35 times, mostly "the tail
    of an animal"; "the mouth" for "her mouth" reads as an error. The same holds for owned things our readers
    flagged when the possessive went ("with the back tires", "the belongings", "holding up the pants", "next to
    the dog"): SICK keeps "his father", "her daughter", "its prey", "their bikes". So the possessive also stays
    before a plural (``keep_plural``), a noun whose first WordNet sense is in ``keep_lexnames`` (people,
    animals), a hyponym of ``keep_hypernyms`` (clothing) and the object of a ``keep_after`` preposition
    ("with"); it goes where "the" reads naturally ("playing his guitar" -> "playing the guitar", "making the
    bed", "riding the scooter").
    """
    typos = set(params.typos)
    contractions = set(params.contractions)
    doc = sent.doc
    for tok in doc:
        if tok.lower_ in typos and tok.i + 1 < len(doc) and doc[tok.i + 1].tag_ in ("NN", "NNS") \
                and tok.dep_ not in ("nsubj", "nsubjpass") and tok.i > 0 and doc[tok.i - 1].pos_ == "ADP" \
                and not sent.edited(tok.i):
            word = params.replacement  # "applies something to he hair": "her" mistyped
            if params.keep_before_body_parts and resources.body_part(doc[tok.i + 1].lemma_.lower()):
                # a body part is its owner's, as the possessive rule keeps it: "to her hair", not "to the hair"
                owner = _owner(doc[tok.i + 1])
                if owner is not None:
                    word = _possessive_of(owner, set(params.female), set(params.male), params.replacement)
            sent.replace(tok.i, word)
            continue
        nxt = doc[tok.i + 1] if tok.i + 1 < len(doc) else None
        noun_after = nxt is not None and nxt.i + 1 < len(doc) and doc[nxt.i + 1].tag_ in ("NN", "NNS")
        if tok.lower_ in contractions and nxt is not None and nxt.text in ("'s", "’s") \
                and (tok.dep_ == "poss" or nxt.dep_ == "case" or noun_after) and not sent.any_edited((tok.i, nxt.i)):
            owned = doc[nxt.i + 1] if noun_after else tok.head
            keep = params.keep_before_body_parts and resources.body_part(owned.lemma_.lower()) \
                or _keeps_possessive(owned, params)
            sent.replace(tok.i, tok.text + "s" if keep else params.replacement)  # "it's beak" -> "its beak"
            sent.delete(nxt.i)
            continue
        possessive = tok.tag_ == "PRP$" or (tok.dep_ == "poss" and tok.head.i > tok.i)
        if possessive and tok.lower_ in POSSESSIVE_PRONOUNS and not sent.edited(tok.i):
            if nxt is not None and nxt.lower_ == "own":
                continue  # "minding their own business" -/-> "minding the own business" (q11 readers)
            owned = tok.head if tok.head.i > tok.i else (nxt if nxt is not None else tok)
            # "their three prize winning dogs": the parse may hang the pronoun on a word inside the phrase
            last = _phrase_end(doc, tok.i + 1)
            # "as their skis cross": the parser may also read the owned noun as a compound of a verb taken for a
            # noun ("skis" a compound of "cross")
            compound = nxt is not None and nxt.dep_ == "compound" and nxt.i < owned.i and nxt.pos_ == "NOUN"
            if _keeps_possessive(owned, params) or (last is not None and last.i > owned.i
                                                     and _keeps_possessive(last, params)) \
                    or (compound and _keeps_possessive(nxt, params)):
                if tok.lower_ == "their" and params.keep_before_body_parts \
                        and resources.body_part(owned.lemma_.lower()):
                    # a singular owner's body part: "a white dog ... with an object in their mouth" -> "its mouth"
                    # (q18 readers); a person of unknown sex keeps "their", as SICK writes it
                    # (parts in the plural have several owners: "a white dog and a black dog ... in their mouths",
                    # q41 readers: "in its mouths")
                    owner = _owner(owned)
                    if owner is not None and not _np_plural(owner) and owned.tag_ != "NNS":
                        word = _possessive_of(owner, set(params.female), set(params.male), "their")
                        if word != "their":
                            sent.replace(tok.i, word)
                continue
            end = max(owned.i, last.i if last is not None else owned.i)
            if end + 1 < len(doc) and doc[end + 1].tag_ == "VBN" and doc[end + 1].lower_ not in ("on", "in"):
                # "getting their picture taken", "having her hair cut": the causative names whose picture it is,
                # and "getting the picture taken" reads as a picture somebody else owns (r11)
                continue
            sent.replace(tok.i, params.replacement)


class DeleteTokensParams(BaseModel):
    tokens: list[str]


@action("delete_tokens", stages=("normalize",), params=DeleteTokensParams)
def delete_tokens(sent, params: DeleteTokensParams, ruleset) -> None:
    """Delete every token whose text is in ``tokens`` (e.g. quotation marks, which SICK's sentences never
    have: SICK.txt's surface form, Marelli et al. 2014, section 3.1)."""
    drop = set(params.tokens)
    for tok in sent.doc:
        if tok.text in drop and not sent.edited(tok.i):
            sent.delete(tok.i)


# --------------------------------------------------------------------------------------------------------
# rule 7: multiword expressions


class MweParams(BaseModel):
    lexicon: str = "mwes"


def _mwe_index(entries) -> dict[str, list[tuple[str, ...]]]:
    index: dict[str, list[tuple[str, ...]]] = {}
    for e in entries:
        words = tuple(str(e).lower().split())
        if words:
            index.setdefault(words[0], []).append(words)
    for v in index.values():
        v.sort(key=len, reverse=True)
    return index


@action("drop_mwe", stages=("normalize",), params=MweParams)
def drop_mwe(sent, params: MweParams, ruleset) -> None:
    """Delete multiword expressions ("right now", "at the moment") with an adjacent comma; Table 2
    (multiword expressions -> removed)."""
    index = ruleset.derived(params.lexicon, _mwe_index)
    doc = sent.doc
    n = len(doc)
    i = 0
    while i < n:
        matched = 0
        for words in index.get(doc[i].lower_, ()):
            if matches_at(doc, i, words) and not sent.any_edited(range(i, i + len(words))):
                matched = len(words)
                break
        if not matched:
            i += 1
            continue
        _delete_phrase(sent, i, i + matched)
        i += matched


# --------------------------------------------------------------------------------------------------------
# rule 8: dates and numbers


class NumberParams(BaseModel):
    label_words: list[str] = ["number", "no", "no.", "#", "numbered", "marked", "labeled", "labelled"]
    time_words: list[str] = ["o'clock", "am", "pm", "a.m.", "p.m."]
    date_labels: list[str] = ["DATE", "TIME"]
    max_in_words: int = 1000


def _to_int(text: str) -> int | None:
    t = text.replace(",", "")
    return int(t) if t.isdigit() else None


def _delete_phrase(sent, start: int, end: int) -> None:
    """Delete tokens ``start..end-1`` and one comma right after (or before) them."""
    doc = sent.doc
    sent.delete(*range(start, end))
    if end < len(doc) and doc[end].text == ",":
        sent.delete(end)
    elif start > 0 and doc[start - 1].text == ",":
        sent.delete(start - 1)


def _drop_np(sent, np, reason: str) -> None:
    """Delete the noun phrase ``np`` with its preposition, or give up when it is a core argument."""
    if np.dep_ == "pobj" and np.head.dep_ == "prep":
        start, end = span(np.head)
        doc = sent.doc
        # "a greyhound with the number 5 on it": a place phrase right after, whose pronoun names the deleted
        # thing, goes with it (q20 readers: "A greyhound on it is running")
        if end + 1 < len(doc) and doc[end].dep_ == "prep" and doc[end + 1].lower_ in ("it", "them") \
                and doc[end + 1].dep_ == "pobj":
            end += 2
        _delete_phrase(sent, start, end)
    elif np.dep_ in ("npadvmod", "tmod", "appos", "nmod", "compound", "advmod", "quantmod"):
        _delete_phrase(sent, *span(np))
    else:
        raise Unnormalizable(reason)


@action("normalize_numbers", stages=("normalize",), params=NumberParams)
def normalize_numbers(sent, params: NumberParams, ruleset) -> None:
    """Dates and numbers: a number used as a determiner is written in letters ("2 dogs" -> "two dogs"), other
    numbers and dates (jersey numbers, years, clock times) are removed with their preposition ("in 2010");
    Table 2 (dates and numbers)."""
    doc = sent.doc
    labels = {w.lower() for w in params.label_words}
    time_words = {w.lower() for w in params.time_words}
    # dates / times with digits: remove with their preposition
    for ent in doc.ents:
        if ent.label_ in params.date_labels and _DIGIT.search(ent.text) \
                and not sent.any_edited(range(ent.start, ent.end)):
            root = ent.root
            if root.dep_ == "pobj" and root.head.dep_ == "prep":
                _delete_phrase(sent, *span(root.head))
            else:
                _delete_phrase(sent, ent.start, ent.end)
    for tok in doc:
        if sent.edited(tok.i) or not _DIGIT.search(tok.text) or tok.like_url:
            continue
        if tok.tag_ != "CD" and not tok.like_num:
            continue
        # part of a hyphenated word ("4-wheeler", "3 - year - old")
        if in_hyphenated(tok):
            value = _to_int(tok.text)
            if value is not None and value <= params.max_in_words:
                sent.replace(tok.i, number_words(value))
            continue
        head = tok.head
        prev = doc[tok.i - 1] if tok.i > 0 else None
        value = _to_int(tok.text)
        # a label before the number: "number 23", "# 5", "numbered 104" -> remove label and number
        if prev is not None and prev.lower_ in labels and not sent.edited(prev.i):
            if prev.pos_ == "NOUN" and prev.dep_ in ("dobj", "pobj", "nsubj", "attr") and head.i == prev.i:
                _drop_np(sent, prev, "number that is not a determiner")  # "wearing number 23"
            elif prev.pos_ == "NOUN" and prev.dep_ == "conj" and head.i == prev.i:
                # "a red jersey and the number 281": the conjunct goes with its determiner and "and"
                start = prev.left_edge.i
                if start > 0 and doc[start - 1].dep_ == "cc":
                    start -= 1
                _delete_phrase(sent, start, tok.i + 1)
            else:  # "a car numbered 104"; "the number 157 bike" -> "the bike"
                _delete_phrase(sent, prev.i, tok.i + 1)
            continue
        if tok.i + 1 < len(doc) and doc[tok.i + 1].lower_ in time_words:
            np = doc[tok.i + 1] if doc[tok.i + 1].head.i != tok.i else tok
            if np.dep_ == "pobj":
                _drop_np(sent, np, "clock time")
            else:
                _delete_phrase(sent, tok.i, tok.i + 2)
            continue
        # determiner: "2 dogs" -> "two dogs"
        if tok.dep_ == "nummod" and head.i > tok.i and head.pos_ in ("NOUN", "PROPN", "ADJ") \
                and value is not None and value <= params.max_in_words:
            sent.replace(tok.i, number_words(value))
            continue
        if tok.dep_ in ("nsubj", "dobj", "conj") and value is not None and value <= params.max_in_words \
                and not any(c.dep_ == "prep" and c.lower_ == "of" for c in tok.children) \
                and tok.i + 1 < len(doc) and doc[tok.i + 1].pos_ in ("NOUN", "ADJ"):
            sent.replace(tok.i, number_words(value))  # mis-parsed determiner ("2 dogs" as subject)
            continue
        if tok.dep_ == "pobj" and head.dep_ == "prep":
            _delete_phrase(sent, *span(head))
        elif tok.dep_ in ("nummod", "appos", "npadvmod", "compound", "nmod", "quantmod", "advmod"):
            sent.delete(tok.i)
        elif tok.dep_ in ("nsubj", "dobj", "attr") and value is not None and value <= params.max_in_words:
            sent.replace(tok.i, number_words(value))  # "2 of the dogs", "there are 2"
        else:
            raise Unnormalizable("number that is not a determiner")


# --------------------------------------------------------------------------------------------------------
# rule 2: named entities


_NAMING_WORDS = frozenset({"called", "named"})  # "a boat called Neptuno", "a dog named Max"


class NamedEntityParams(BaseModel):
    lexicon: str = "class_words"
    exceptions_lexicon: str = "ne_exceptions"
    determiner: str = "a"
    # place labels read as a person when the name does something (:func:`_does_something`)
    place_labels: list[str] = ["GPE", "LOC", "FAC"]


@functools.lru_cache(maxsize=16384)
def _any_common_sense(word: str) -> bool:
    return any(not s.instance_hypernyms() for s in resources.synsets(word.lower()))


def _does_something(root) -> bool:
    """Whether a name is the doer of an action: the subject of a verb other than "be", or a noun with an "-ing"
    participle of its own ("Rihanna leaving a taxi"); the tagger labels some person names as places (r13)."""
    if root.dep_ == "nsubj" and root.head.pos_ == "VERB" and root.head.lemma_ != "be":
        return True
    if root.dep_ == "pobj" and root.head.lower_ == "of":  # "a clip of Rihanna leaving": the parse hangs it on "clip"
        return any(c.dep_ == "acl" and c.tag_ == "VBG" and c.i > root.i for c in root.head.head.children)
    return any(c.dep_ == "acl" and c.tag_ == "VBG" for c in root.children)


def _is_named_entity(ent, exceptions: frozenset[str]) -> bool:
    words = [t for t in ent if t.is_alpha]
    if not words or ent.text.lower() in exceptions or any(t.lower_ in exceptions for t in words):
        return False
    content = [t for t in words if t.pos_ != "DET"]
    if not content or not all(t.pos_ == "PROPN" and t.text[:1].isupper() for t in content):
        return False
    name = " ".join(t.text for t in content)
    if _common_word(name):
        return False
    # a capitalised sentence-initial common word modifying a noun ("Brown dog ...")
    if content[0].i == 0 and ent.root.dep_ in ("amod", "compound", "nmod") and _any_common_sense(content[0].text):
        return False
    return True


def _coordinated_name(doc, ent, names: set[int]) -> bool:
    """Whether a capitalised proper noun outside ``names`` (the indices of the names being replaced) is
    coordinated with ``ent`` ("Rocky and Apollo Creed", "Apollo Creed and Rocky"), read from word order since
    the small model often misparses such pairs."""
    def other_name(i: int) -> bool:
        tok = doc[i] if 0 <= i < len(doc) else None
        # a sentence-initial capital is no evidence, but "Rocky" is no common noun ("Dog and cat ...")
        return (tok is not None and i not in names and tok.pos_ == "PROPN" and tok.text[:1].isupper()
                and not (i == 0 and resources.synsets(tok.lower_, "n")) and not (i > 0 and _common_word(tok.text)))
    before = ent.start - 1
    after = ent.end
    return (before >= 1 and doc[before].lower_ in ("and", "or", "&") and other_name(before - 1)) or \
        (after + 1 < len(doc) and doc[after].lower_ in ("and", "or", "&") and other_name(after + 1))


@action("named_entity_to_class", stages=("normalize",), params=NamedEntityParams)
def named_entity_to_class(sent, params: NamedEntityParams, ruleset) -> None:
    """Named entity -> a word for its class ("John" -> "a person", "in New York" -> "in a city"); a name that
    only modifies a noun is removed ("a Nike shirt" -> "a shirt"); Table 2 (named entities)."""
    classes = ruleset.lexicon(params.lexicon)
    exceptions = ruleset.lexicon_set(params.exceptions_lexicon)
    doc = sent.doc
    replaced = [ent for ent in doc.ents
                if classes.get(ent.label_) and _is_named_entity(ent, exceptions)]
    names = {i for ent in replaced for i in range(ent.start, ent.end)}
    for ent in replaced:
        if _coordinated_name(doc, ent, names):
            # "Rocky and Apollo Creed": the tagger found only one of the two names; replacing one alone
            # gives "Rocky and a person", so the sentence cannot be normalized
            raise Unnormalizable("a name coordinated with a name that is not recognised")
    for ent in doc.ents:
        entry = classes.get(ent.label_)
        if ent.label_ in params.place_labels and _does_something(ent.root) and classes.get("PERSON"):
            entry = classes["PERSON"]  # "a video clip of Rihanna leaving a taxi": a place does not leave a taxi
        if not entry or sent.any_edited(range(ent.start, ent.end)) or not _is_named_entity(ent, exceptions):
            continue
        root = ent.root
        start = ent.start
        while start < ent.end and doc[start].pos_ == "DET":
            start += 1
        end = ent.end
        if end < len(doc) and doc[end].tag_ == "POS":  # "John 's dog"
            end += 1
        modifier = root.dep_ in ("compound", "amod", "nmod", "poss") and not (ent.start <= root.head.i < ent.end)
        if modifier:
            if entry.get("modifier", "remove") != "remove":
                continue
            sent.delete(*range(start, end))
            head = root.head
            if root.dep_ == "poss" and not any(c.dep_ in ("det", "poss") for c in head.children
                                               if c.i < start or c.i >= end):
                sent.insert_before(start, "the")
            continue
        if ent.start > 0 and doc[ent.start - 1].lower_ in _NAMING_WORDS and not sent.edited(ent.start - 1):
            sent.delete(*range(ent.start - 1, end))  # "a small boat called Neptuno" -> "a small boat", not
            continue  # "called a group" (q1 readers): the name was all the phrase said
        plural = root.tag_ in ("NNPS", "NNS")
        has_det = start > ent.start or any(c.dep_ in ("det", "poss", "nummod") and c.i < ent.start
                                           for c in root.children)
        pair = [e for e in replaced if e.start == ent.end + 1 and e.label_ == ent.label_]
        if pair and doc[ent.end].lower_ == "and" and not has_det and not plural and start == ent.start \
                and not sent.any_edited(range(ent.end, pair[0].end)) \
                and not (pair[0].end < len(doc) and doc[pair[0].end].tag_ == "POS"):
            # "John and Mary" -> "two people", not "a person and a person"
            sent.set_span(start, pair[0].end, f"two {entry['plural']}")
            continue
        word = entry["plural"] if plural else entry["singular"]
        if not has_det and not plural and params.determiner:
            word = f"{params.determiner} {word}"
        sent.set_span(start, ent.end, word)  # a possessive 's after the name stays


# --------------------------------------------------------------------------------------------------------
# capitalised common nouns


class LowercaseParams(BaseModel):
    pos: list[str] = ["NOUN", "PROPN", "ADJ"]
    # words English always capitalises (proper_words: "Easter", which WordNet also knows as a lower-case wind)
    keep_lexicon: str | None = None


@action("lowercase_common_words", stages=("normalize",), params=LowercaseParams)
def lowercase_common_words(sent, params: LowercaseParams, ruleset) -> None:
    """A capitalised common word inside the sentence is written in lower case ("A Child hits ..." -> "a
    child ..."), as in SICK, where only names keep capitals; words with a named-instance sense in WordNet
    ("Santa", "Boston") keep theirs. Marelli et al. 2014, Table 2 (named entities)."""
    pos = set(params.pos)
    keep = ruleset.lexicon_set(params.keep_lexicon) if params.keep_lexicon else frozenset()
    for tok in sent.doc:
        if tok.i == 0 or tok.pos_ not in pos or not tok.is_title or sent.edited(tok.i) or tok.lower_ in keep:
            continue
        if sent.doc[tok.i - 1].lower_ in _NAMING_WORDS:
            continue  # "a dog named Max" -/-> "a dog named max": a name after "named" stays one
        # after "a/an" a word whose first sense is common is that word, though a later sense is a name ("A Man
        # is jumping": the Isle of Man, q36 readers)
        after_article = sent.doc[tok.i - 1].lower_ in ("a", "an") and bool(senses := resources.synsets(tok.lower_)) \
            and not senses[0].instance_hypernyms()
        if (_common_word(tok.text) or after_article) and _lower_case_lemma(tok.text):
            sent.replace(tok.i, tok.text.lower())


@functools.lru_cache(maxsize=16384)
def _lower_case_lemma(word: str) -> bool:
    """Whether WordNet writes ``word`` in lower case in some sense: "American", "English", "Christmas" are
    always capitalised there and keep their capital."""
    low = word.lower()
    return any(lem.name().replace("_", " ") == low for s in resources.synsets(low) for lem in s.lemmas())


# --------------------------------------------------------------------------------------------------------
# proper adjectives and initialisms typed in lower case


class ProperWordsParams(BaseModel):
    lexicon: str = "proper_words"


def _proper_index(entries) -> dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]]:
    """``{first lower-case word: [(lower-case words, written words), ...]}``, longest first, each entry with
    its plural in -s ("Asians", "CDs"); entries of several words ("Little League") match as a sequence."""
    index: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {}
    for e in entries:
        words = tuple(str(e).split())
        forms = [words] if words[-1].endswith("s") else [words, words[:-1] + (words[-1] + "s",)]
        for w in forms:
            index.setdefault(w[0].lower(), []).append((tuple(x.lower() for x in w), w))
    for v in index.values():
        v.sort(key=lambda pair: len(pair[0]), reverse=True)
    return index


@action("capitalize_proper_words", stages=("normalize",), params=ProperWordsParams)
def capitalize_proper_words(sent, params: ProperWordsParams, ruleset) -> None:
    """Write a word English always capitalises in its written form ("an asian man" -> "an Asian man", "a cd"
    -> "a CD"); the lexicon gives the forms. Hyphenated compounds are split by the tokenizer, so each part is
    rewritten ("african-american" -> "African-American"). Source: Marelli et al. 2014, section 3.1 (S1 is
    the cleaned caption); Chicago Manual of Style 17th ed. 8.37, 10.3."""
    index = ruleset.derived(params.lexicon, _proper_index)
    doc = sent.doc
    for tok in doc:
        for lower, written in index.get(tok.lower_, ()):
            if not matches_at(doc, tok.i, lower):
                continue
            for k, form in enumerate(written):
                t = doc[tok.i + k]
                if t.text != form and sent.text(t.i) != form and not t.text.isupper() and not sent.edited(t.i):
                    sent.replace(t.i, form)
            break


# --------------------------------------------------------------------------------------------------------
# nouns of a register SICK does not write


class PlainNounParams(BaseModel):
    lexicon: str = "plain_nouns"
    # (appos: "Two adults - a male and a female -", q28 readers: "a male and a woman")
    deps: list[str] = ["nsubj", "nsubjpass", "dobj", "pobj", "conj", "attr", "ROOT", "appos"]
    # a sentence about an animal keeps the word ("a female is feeding her cubs" may be a lioness)
    not_with_lexnames: list[str] = ["noun.animal"]


def _agent_noun(word: str) -> bool:
    """Whether ``word`` is an agent noun WordNet lacks, "-er(s)" on a WordNet verb ("kayaker": "The male kayaker"
    is no "man kayaker", q26 readers)."""
    stem = re.sub(r"e?rs?$", "", word) if re.search(r"[a-z]{3}ers?$", word) else ""
    return bool(stem) and any(resources.synsets(s, "v") for s in (stem, stem + "e", stem[:-1]))


@action("plain_nouns", stages=("normalize",), params=PlainNounParams)
def plain_nouns(sent, params: PlainNounParams, ruleset) -> None:
    """Replace a noun of a register the captions use and SICK avoids by its plain word, only where it heads its
    noun phrase ("A male is airborne on a bicycle" -> "A man is ...", "Two females in skirts" -> "Two women";
    "a male surfer" stays). The lexicon maps ``{word: plain word}``, singular and plural forms each listed.
    Source: Marelli et al. 2014, section 3.1 (S1 is the cleaned caption); readers' verdicts of issue 11 (r13:
    "A male is airborne" marked as unnatural by two readers); SICK writes "a man" 2,000 times for one "A male"."""
    words = ruleset.lexicon(params.lexicon)
    doc = sent.doc
    animal = set(params.not_with_lexnames)
    if any(t.pos_ == "NOUN" and resources.lexnames(t.lemma_.lower(), "n", 1) & animal for t in doc
           if t.lower_ not in words):
        return
    for tok in doc:
        plain = words.get(tok.lower_)
        if plain is None or sent.edited(tok.i):
            continue
        nxt = doc[tok.i + 1] if tok.i + 1 < len(doc) else None
        # it heads its phrase when no noun follows; the parse of a fragment may call it an adjective ("A male
        # airborne on a bicycle": "airborne" taken for the noun, though WordNet has no such noun)
        # (nor is a participle after it: "watching a young female playing soccer", q10 readers)
        heads = nxt is None or nxt.pos_ in ("ADP", "AUX", "VERB", "PUNCT", "CCONJ", "DET", "PRON", "SCONJ") \
            or not (resources.synsets(nxt.lower_, "n") or _agent_noun(nxt.lower_)) or nxt.lower_.endswith("ing")
        if not heads or tok.pos_ == "NOUN" and tok.dep_ not in params.deps:
            continue
        sent.replace(tok.i, str(plain).capitalize() if tok.i == 0 else str(plain))


# --------------------------------------------------------------------------------------------------------
# bare singular subjects


class ArticleParams(BaseModel):
    determiner: str = "a"
    deps: list[str] = ["nsubj", "nsubjpass", "ROOT"]
    mass_lexnames: list[str] = ["noun.substance", "noun.food", "noun.phenomenon"]
    mass_lexicon: str | None = None  # mass nouns WordNet files elsewhere ("equipment" is noun.artifact)
    quantifiers: list[str] = ["several", "many", "some", "few", "various", "numerous", "both", "all", "most",
                              "multiple", "lots", "plenty", "much", "more"]


@functools.lru_cache(maxsize=16384)
def _mass_noun(noun: str, lexnames: tuple[str, ...]) -> bool:
    synsets = resources.synsets(noun, "n")
    return bool(synsets) and synsets[0].lexname() in lexnames


@action("add_article", stages=("normalize",), params=ArticleParams)
def add_article(sent, params: ArticleParams, ruleset) -> None:
    """A bare singular count noun as subject gets an indefinite article ("man laying on bench" -> "a man
    ..."), also a bare possessor opening the subject with ``poss`` in ``deps`` ("Woman's long wet hair" -> "A
    woman's ..."), never a game or sport (:func:`~pipeline.corpus.wordforms.is_game`): SICK's sentences are full
    sentences; Table 2 (non-sentential descriptions)."""
    deps = set(params.deps)
    lexnames = tuple(params.mass_lexnames)
    quantifiers = set(params.quantifiers)
    doc = sent.doc
    for tok in doc:
        if tok.dep_ == "conj" and tok.tag_ == "NN" and tok.head.i == 0 and tok.head.pos_ == "ADJ" \
                and tok.head.dep_ in deps and not sent.any_edited(range(0, tok.i + 1)) \
                and all(t.pos_ in ("ADJ", "CCONJ", "PUNCT") for t in doc[:tok.i]) \
                and not any(c.dep_ in ("det", "poss", "nummod") for c in tok.children) \
                and not _mass_noun(tok.lemma_.lower(), lexnames):
            # "Brown and white dog is trotting": the parse makes the first colour the subject (seed-6 readers)
            sent.replace(0, f"{params.determiner} {doc[0].text.lower()}")
            continue
        if tok.dep_ not in deps:
            continue
        if not (tok.tag_ == "NN" and tok.pos_ == "NOUN"):
            # "Dog leaps ...": a capitalised first word the tagger took for a name
            if not (tok.i == 0 and tok.tag_ in ("NNP", "UH") and _common_word(tok.text)
                    and lemma_of(tok.text, "NOUN") == tok.lower_):
                continue
        if tok.dep_ == "poss":
            if tok.head.dep_ not in ("nsubj", "nsubjpass") or tok.left_edge.i != 0:
                continue  # only the subject's first word: "Woman's long wet hair is ..." -> "A woman's ..."
        elif tok.dep_ != "ROOT" and tok.head.dep_ != "ROOT":
            continue
        if is_game(tok.lemma_.lower()):
            continue  # "Baseball is being played by two men": a game takes no article
        if tok.i > 0 and doc[tok.i - 1].lower_ in ("is", "are") and tok.head.i == tok.i + 1 \
                and tok.head.tag_ == "VBG":
            continue  # "A man is rock climbing": the verb's first half, which the parse makes a second subject
            # ("A man is a rock climbing", q13 readers)
        start = tok.left_edge.i
        if tok.dep_ not in ("nsubj", "nsubjpass", "ROOT") and start != 0:
            continue
        # an edit of case only ("asian" -> "Asian", proper-word-capital) leaves the phrase bare
        if any(c.dep_ in ("det", "poss", "nummod", "predet", "quantmod") for c in tok.children) \
                or any(sent.edited(j) and sent.text(j).lower() != sent.doc[j].lower_ for j in range(start, tok.i + 1)):
            continue
        if any(sent.doc[j].tag_ in ("DT", "PRP$", "CD", "POS", "NNS", "NNPS") or sent.doc[j].lower_ in quantifiers
               for j in range(start, tok.i)):
            continue
        if _mass_noun(tok.lemma_.lower(), lexnames) or params.mass_lexicon \
                and tok.lower_ in ruleset.lexicon_set(params.mass_lexicon):
            continue  # "ski equipment on a mountain": no "a ski equipment"
        if start >= 2 and sent.doc[start - 1].lower_ in ("and", "or", "&") \
                and sent.doc[start - 2].pos_ in ("NOUN", "PROPN"):
            # "a black cap and shirt": the second conjunct shares the first's article and adjective (a
            # misparse can make it a subject); "a black cap and a shirt" would split the shared "black"
            continue
        first = sent.doc[start]
        if start == 0 and first.tag_ in ("NNP", "UH") and _common_word(first.text):
            # "Dog ..." -> "a dog ..."; "Asian man ..." -> "an Asian man ..." (WordNet writes it capitalised)
            word = sent.text(0) if sent.edited(0) else first.text.lower() if _lower_case_lemma(first.text) \
                else first.text
            sent.replace(0, f"{params.determiner} {word}")
        elif start == 0 and not sent.edited(0) and first.text[:1].isupper() and _common_word(first.text) \
                and not _lower_case_lemma(first.text):
            sent.replace(0, f"{params.determiner} {first.text}")  # "Asian man ..." -> "an Asian man ..."
        else:
            sent.insert_before(start, params.determiner)


# --------------------------------------------------------------------------------------------------------
# rule: no indefinite article before a mass noun


class MassArticleParams(BaseModel):
    lexicon: str = "uncountable_nouns"
    articles: list[str] = ["a", "an"]


class PluralOwnerParams(BaseModel):
    exclude: list[str] = []  # body parts named in the singular for many owners ("hair", "skin")


@action("plural_owner_body_part", stages=("normalize",), params=PluralOwnerParams)
def plural_owner_body_part(sent, params: PluralOwnerParams, ruleset) -> None:
    """Write a body part after "their" in the plural when the subject that owns it is plural ("two women are
    looking over their shoulder" -> "over their shoulders", "two dogs wag their tail" -> "their tails"): each
    owner has their own; "a person is peeking their head out" (one owner) stays, and so do the ``exclude``
    nouns ("their hair"). Only a singular noun right after "their" (or one adjective after it), that WordNet
    files under the body, not edited before.
    Source: Marelli et al. 2014, section 3.1 (S1 is the cleaned caption); SICK_train writes "their heads",
    "their hands"; readers' verdicts of issue 11 (r11: "two women ... over their shoulder")."""
    doc = sent.doc
    exclude = set(params.exclude)
    for tok in doc:
        if tok.lower_ != "their" or tok.i + 1 >= len(doc):
            continue
        j = tok.i + 1
        if doc[j].tag_ == "JJ" and j + 1 < len(doc):
            j += 1
        noun = doc[j]
        if noun.tag_ != "NN" or not noun.is_lower or noun.lower_ in exclude or sent.any_edited((tok.i, noun.i)) \
                or not resources.body_part(noun.lower_) or _mass_noun(noun.lower_, ("noun.substance",)):
            continue
        if j + 1 < len(doc) and doc[j + 1].pos_ in ("NOUN", "PROPN"):
            continue  # "their head scarves": a modifier
        verb = noun.head
        while verb.pos_ not in ("VERB", "AUX") and verb.head is not verb:
            verb = verb.head
        subj = subject_of(verb) if verb.pos_ in ("VERB", "AUX") else None
        if subj is None or not is_plural_np(subj) or subj.lower_ in ("they", "we", "these", "those"):
            continue
        sent.replace(noun.i, plural(noun.lower_))


class SingularAgreementParams(BaseModel):
    group_nouns: list[str] = []  # "a group of people are": a group noun agrees either way, left as written
    reciprocals: list[str] = ["each other", "one another", "together"]


@action("singular_agreement", stages=("normalize",), params=SingularAgreementParams)
def singular_agreement(sent, params: SingularAgreementParams, ruleset) -> None:
    """"A woman with four children are eating" -> "A woman with four children is eating": "are" after a subject
    that is one thing (a singular common noun with "a/an", no coordinated noun, no "and" in the phrase, not a
    group noun) agrees with that noun, not with the plural of a modifier before the verb. Left alone when a
    reciprocal ("each other", "together") shows the caption meant more than one ("a black and brown dog are
    staring at each other": two dogs). "is" after two coordinated singular nouns becomes "are" ("a man and a
    woman is kissing"), and an "are" the fragment rule wrote for "a women" follows the noun once
    irregular-plural-article made it singular ("a women slicing lemons" -> "a woman is slicing lemons").
    Source: Marelli et al. 2014, section 3.1 (S1 is the cleaned caption; SICK's sentences agree); readers'
    verdicts of issue 11 (r11: "A woman with four children are eating")."""
    doc = sent.doc
    groups = set(params.group_nouns)
    text = " ".join(t.lower_ for t in doc)
    reciprocal = any(f" {r} " in f" {text} " for r in params.reciprocals)
    for tok in doc:
        # "A women slicing lemons": non-sentential wrote "are" for the plural, then irregular-plural-article made
        # "a women" "a woman"; the "are" written for it follows the singular now
        now = sent.text(tok.i)
        if tok.tag_ == "NNS" and sent.edited(tok.i) and now and now == lemma_of(now, "NOUN") != tok.lower_ \
                and tok.i and doc[tok.i - 1].lower_ in ("a", "an"):
            for j in range(tok.i + 1, len(doc)):
                words = sent.text(j).split(" ", 1)
                if doc[j].lower_ in ("and", "or", ",", "with") and not sent.edited(j):
                    break
                if words[0] == "are":
                    sent.replace(j, " ".join(["is"] + words[1:]))
                    break
            continue
        if tok.lower_ == "is" and tok.pos_ in ("AUX", "VERB") and not sent.edited(tok.i):
            # "A man and a woman is kissing": two nouns coordinated before the verb are two subjects
            verb = tok.head if tok.dep_ in ("aux", "auxpass") else tok
            subj = subject_of(verb)
            if subj is not None and subj.i < tok.i and subj.tag_ == "NN" and subj.lower_ not in groups \
                    and subj.i + 1 < tok.i and doc[subj.i + 1].lower_ == "and" \
                    and not resources.synsets(subj.lower_, "a") \
                    and any(c.dep_ == "conj" and c.tag_ == "NN" and c.i < tok.i
                            and all(doc[k].dep_ in ("det", "amod", "compound") for k in range(subj.i + 2, c.i))
                            and c.right_edge.i + 1 == tok.i for c in subj.children):
                # the second noun must follow "and" right after the first and end right before the verb: "a boy
                # wearing glasses and a hat is" and "the brown and white dog is" keep their "is"
                sent.replace(tok.i, "are")
            continue
        if tok.lower_ != "are" or tok.pos_ not in ("AUX", "VERB") or sent.edited(tok.i) or reciprocal:
            continue
        verb = tok.head if tok.dep_ in ("aux", "auxpass") else tok
        subj = subject_of(verb)
        if subj is None or subj.tag_ != "NN" or subj.i > tok.i or subj.lower_ in groups or is_plural_np(subj):
            continue
        if not any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in subj.children):
            continue
        phrase = doc[subj.left_edge.i:tok.i]
        # the current text counts too: "a man an woman are" has its "and" back (an-for-and)
        if any(t.lower_ in ("and", "or", "&", ",") or sent.text(t.i).lower() == "and" for t in phrase) or any(
                t.dep_ == "conj" and t.pos_ in ("NOUN", "PROPN") for t in phrase):
            continue
        sent.replace(tok.i, "is")


class MassPluralParams(BaseModel):
    lexicon: str = "mass_plurals"


@action("mass_singular", stages=("normalize",), params=MassPluralParams)
def mass_singular(sent, params: MassPluralParams, ruleset) -> None:
    """Write a food noun the caption puts in the plural where it means the stuff (lexicon ``{plural: mass
    form}``: "turning foods" -> "turning food", "adding oil to fishes" -> "to fish") when the plural is bare: no
    determiner, number, possessive or quantity word of its own ("two fishes", "the foods of the world" stay).
    Source: Marelli et al. 2014, section 3.1 (S1 is the cleaned caption); readers' verdicts of issue 11 (r11:
    "turning foods", "oil is being added to fishes")."""
    forms = ruleset.lexicon(params.lexicon)
    doc = sent.doc
    for tok in doc:
        mass = forms.get(tok.lower_) if tok.is_lower and tok.tag_ == "NNS" else None
        if mass is None or sent.edited(tok.i):
            continue
        if any(c.dep_ in ("det", "nummod", "poss", "predet") or c.lower_ in ("many", "several", "few", "various")
               for c in tok.children) or (tok.i and doc[tok.i - 1].tag_ in ("DT", "CD", "PRP$", "POS")):
            continue
        if any(c.dep_ == "prep" and c.lower_ == "of" for c in tok.children):
            continue  # "fishes of many colours": the kinds are counted
        sent.replace(tok.i, str(mass))


@action("drop_mass_article", stages=("normalize",), params=MassArticleParams)
def drop_mass_article(sent, params: MassArticleParams, ruleset) -> None:
    """Delete "a/an" before a singular mass noun of the lexicon ("slicing a garlic" -> "slicing garlic"), when
    only its adjectives stand between and no noun follows ("a garlic press", "a grass track" keep theirs).
    Source: Marelli et al. 2014, section 3.1 (S1 is the cleaned caption); English count/mass grammar."""
    mass = ruleset.lexicon_set(params.lexicon)
    articles = set(params.articles)
    doc = sent.doc
    for det in doc:
        if det.lower_ not in articles or sent.edited(det.i):
            continue
        j = det.i + 1
        while j < len(doc) and doc[j].pos_ in ("ADJ", "ADV") and not sent.edited(j):
            j += 1
        if j >= len(doc) or doc[j].lower_ not in mass or doc[j].tag_ != "NN" or sent.edited(j):
            continue
        if j + 1 < len(doc) and (doc[j + 1].pos_ in ("NOUN", "PROPN") or doc[j + 1].text == "-"):
            continue  # a compound: "a water bottle", "a snow-covered path"
        sent.delete(det.i)


# --------------------------------------------------------------------------------------------------------
# rule: "the" before "same"


class DefiniteBeforeParams(BaseModel):
    words: list[str]
    article: str = "the"
    singular: bool = False  # only before a singular count noun ("with other man"; "with other children" stays)
    joined: dict[str, str] = {}  # a word written with the article as one ("other" -> "another")


@action("definite_before", stages=("normalize",), params=DefiniteBeforeParams)
def definite_before(sent, params: DefiniteBeforeParams, ruleset) -> None:
    """Insert "the" before an adjective that needs a definite determiner when its noun phrase has none ("doing
    same dance" -> "doing the same dance"). Source: Marelli et al. 2014, section 3.1 (S1 is the cleaned caption);
    readers' verdicts of issue 11 (r4: "doing same dance" marked as a missing article; r9: "talking with other
    man"). With ``singular``, only before a singular noun that is not a mass noun ("with other children", "other
    equipment" stay); a word of ``joined`` is replaced by its joined form instead ("with other man" -> "with
    another man")."""
    words = {w.lower() for w in params.words}
    doc = sent.doc
    for tok in doc:
        if tok.lower_ not in words or sent.edited(tok.i) or tok.dep_ != "amod":
            continue
        if any(c.dep_ in ("det", "poss", "nummod", "predet") for c in tok.head.children) \
                or (tok.i > 0 and doc[tok.i - 1].tag_ in ("DT", "PRP$", "POS", "CD")):
            continue
        if params.singular and (tok.head.tag_ != "NN" or tok.head.i < tok.i
                                or tok.head.lemma_.lower() in ruleset.lexicon_set("mass_nouns")):
            continue
        joined = params.joined.get(tok.lower_)
        if joined:
            sent.replace(tok.i, joined)
        else:
            sent.insert_before(tok.i, params.article)


# --------------------------------------------------------------------------------------------------------
# rule: a bare body part after "with" takes its owner's possessive


class BodyPartPossessiveParams(BaseModel):
    female: list[str] = []  # owner nouns read "her"
    male: list[str] = []  # owner nouns read "his"
    fallback: str = "the"  # an owner of unknown sex ("a person with left arm raised" -> "the left arm")
    sides: list[str] = ["left", "right"]
    exclude: list[str] = []  # body nouns used as mass nouns ("with long hair" stays)


def _owner(tok):
    """The person or animal a body part after "with" belongs to: the nearest noun above ``tok`` that is a person
    or an animal (WordNet first two senses), else the sentence's subject (the root noun of a description, or the
    root verb's subject) when it is one; None otherwise."""
    def animate(t) -> bool:  # "person" itself is filed under noun.Tops
        return _animate(t.lower_) or resources.under(t.lemma_.lower(), ("person.n.01", "animal.n.01"), 1)

    h = tok.head
    while h.head.i != h.i:
        h = h.head
        if h.pos_ in ("NOUN", "PROPN") and animate(h):
            return h
    root = h
    subj = root if root.pos_ in ("NOUN", "PROPN") else next(
        (c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    return subj if subj is not None and subj.pos_ in ("NOUN", "PROPN") and animate(subj) else None


@action("body_part_possessive", stages=("normalize",), params=BodyPartPossessiveParams)
def body_part_possessive(sent, params: BodyPartPossessiveParams, ruleset) -> None:
    """Give a bare singular body part after "with" its owner's possessive: "a lady ... with left arm in the air"
    -> "with her left arm in the air", "a dog with mouth open" -> "with its mouth open" (SICK writes "his/her/
    its/their" before body parts). Only when the body part has a side ("left arm") or a complement after it
    ("in the air", "raised", "open"), so "with long hair" stays; the owner is the nearest person or animal above
    it, else the subject: "her" or "his" from ``female``/``male``, "its" for an animal, "their" for a plural
    owner, else ``fallback``. Source: Marelli et al. 2014, section 3.1 (S1 is the cleaned caption); readers'
    verdicts of issue 11 (r6: "with a left arm in the air", the article the grammar gate put before the bare
    noun)."""
    doc = sent.doc
    female, male, sides = set(params.female), set(params.male), set(params.sides)
    for tok in doc:
        if tok.dep_ != "pobj" or tok.tag_ != "NN" or tok.head.lower_ != "with" or sent.edited(tok.i) \
                or tok.lemma_.lower() in params.exclude or not resources.body_part(tok.lemma_.lower()):
            continue
        mods = [c for c in tok.children if c.i < tok.i]
        if any(c.dep_ not in ("amod", "compound") for c in mods) or tok.head.i != tok.left_edge.i - 1:
            continue  # a determiner, possessive or number of its own; or words between "with" and the phrase
        nxt = doc[tok.i + 1] if tok.i + 1 < len(doc) else None
        complement = nxt is not None and (nxt.tag_ in ("VBN", "JJ", "RB", "RP") or nxt.lower_ in ("in", "on", "over",
                                                                                                 "around", "up"))
        if not complement and not any(c.lower_ in sides for c in mods):
            continue
        owner = _owner(tok)
        if owner is None:
            continue
        sent.insert_before(tok.left_edge.i, _possessive_of(owner, female, male, params.fallback))


def _possessive_of(owner, female: set[str], male: set[str], fallback: str) -> str:
    """The possessive pronoun of noun ``owner``: "their" for a plural, "her"/"his" for a lemma in
    ``female``/``male``, "its" for an animal (first WordNet sense), else ``fallback``."""
    lemma = owner.lemma_.lower()
    if _np_plural(owner):
        return "their"
    if lemma in female:
        return "her"
    if lemma in male:
        return "his"
    if resources.lexnames(lemma, "n", 1) & {"noun.animal"}:
        return "its"
    return fallback


# --------------------------------------------------------------------------------------------------------
# rule: a preposition the caption got wrong before its object


class PrepositionParams(BaseModel):
    preposition: str  # the wrong preposition ("by")
    replacement: str  # the right one ("with")
    objects: list[str] = []  # lemmas of its object that call for the replacement ("rope")
    objects_under: list[str] = []  # or WordNet synsets the object's first sense falls under ("machine.n.01")
    not_objects: list[str] = []  # objects that keep the preposition ("by hand")
    heads: list[str] = []  # when set, the verb the phrase hangs on must have one of these lemmas ("swing")
    # when set, the verb must be active (no passive auxiliary or subject) and have a direct object: "slicing a
    # carrot by a machine" is an instrument, "is pulled by a machine" an agent
    active_with_object: bool = False


@action("replace_preposition", stages=("normalize",), params=PrepositionParams)
def replace_preposition(sent, params: PrepositionParams, ruleset) -> None:
    """Replace ``preposition`` by ``replacement`` before an object it cannot govern in that sense: an instrument
    after "by" in an active clause with a direct object ("slicing a carrot by a machine" -> "with a machine";
    "by hand" and the agent of a passive stay), "swinging in a rope" -> "on a rope".

    The preposition must hang on a verb (``heads`` narrows which) and its object's lemma be in ``objects`` or
    its first WordNet sense fall under ``objects_under``, and not be in ``not_objects``. Readers' verdicts of
    issue 11 (r9: "slicing a carrot by a machine", "swinging in a rope", copied from MSRvid into S1, S2 and S3).
    """
    doc = sent.doc
    for tok in doc:
        if tok.lower_ != params.preposition or tok.dep_ != "prep" or sent.edited(tok.i):
            continue
        verb = tok.head
        if verb.pos_ not in ("VERB", "AUX") or (params.heads and verb.lemma_.lower() not in params.heads):
            continue
        obj = next((c for c in tok.children if c.dep_ == "pobj"), None)
        if obj is None or obj.pos_ not in ("NOUN", "PROPN"):
            continue
        lemma = obj.lemma_.lower()
        if lemma in params.not_objects or not (lemma in params.objects or (
                params.objects_under and resources.under(lemma, tuple(params.objects_under)))):
            continue
        if params.active_with_object:
            deps = {c.dep_ for c in verb.children}
            if "dobj" not in deps or deps & {"auxpass", "nsubjpass"} or verb.tag_ == "VBN":
                continue
        sent.replace(tok.i, params.replacement)


# --------------------------------------------------------------------------------------------------------
# rule: a demonstrative before the subject


class DeicticParams(BaseModel):
    singular: dict[str, str] = {"this": "a", "that": "a"}  # demonstrative -> determiner before a singular noun
    plural: dict[str, str] = {"these": "the", "those": "the"}  # and before a plural noun


@action("deictic_subject", stages=("normalize",), params=DeicticParams)
def deictic_subject(sent, params: DeicticParams, ruleset) -> None:
    """Replace a demonstrative determiner on the subject that opens the sentence by an article ("This woman is
    smiling" -> "A woman is smiling", "These dogs are playing" -> "The dogs are playing"): a caption points at
    its picture, a SICK sentence describes a scene with no referent to point at (SICK_train has no sentence
    opening with "This/That/These/Those"). Only a determiner (``det``) of a subject or fragment-root noun;
    the pronoun ("This is a soccer game") stays. "a" becomes "an" at rendering.
    Source: Marelli et al. 2014, section 3.1 (S1 is the cleaned caption); readers' verdicts of issue 11 (r9:
    "This woman" marked as deictic with no referent)."""
    doc = sent.doc
    if len(doc) < 2 or sent.edited(0):
        return
    det, noun = doc[0], doc[0].head
    if det.dep_ != "det" or noun.i <= 0 or noun.pos_ != "NOUN" or noun.dep_ not in ("nsubj", "nsubjpass", "ROOT"):
        return
    table = params.plural if noun.tag_ == "NNS" else params.singular
    word = table.get(det.lower_)
    if word is not None:
        sent.replace(0, word)


# --------------------------------------------------------------------------------------------------------
# rule: a bare singular count noun after a preposition


class ObjectArticleParams(BaseModel):
    determiner: str = "a"
    prepositions: list[str] = ["for", "on", "onto"]
    lexnames: list[str] = ["noun.artifact"]  # first WordNet sense of the noun: a thing one can count
    not_nouns: list[str] = []  # nouns of idioms that go bare ("on stage", "on foot", "on top")
    mass_lexicons: list[str] = []  # nouns used as mass nouns ("on equipment", "for gear")
    # the grammar gate's lexicons: "preposition noun" idioms and nouns that go bare ("on deck", "rope"), and
    # setting nouns, to which the gate gives "the" ("walking on sidewalk" -> "on the sidewalk")
    idiom_lexicon: str | None = None
    setting_lexicon: str | None = None
    # a noun whose plural is this much rarer (wordfreq zipf) is a mass noun in use ("on public transportation",
    # "on concrete"), whatever WordNet's first sense
    max_plural_gap: float = 1.5


@action("add_object_article", stages=("normalize",), params=ObjectArticleParams)
def add_object_article(sent, params: ObjectArticleParams, ruleset) -> None:
    """Give a bare singular count noun after a preposition an indefinite article ("a dog leaping for Frisbee"
    -> "leaping for a Frisbee"): the caption's telegraphic style
    drops it, a SICK sentence keeps it.

    The noun is the object (``pobj``) of one of ``prepositions``, tagged NN (or a capitalised common word
    tagged NNP inside the sentence, "Frisbee"), its first WordNet sense in ``lexnames``, not one of
    ``not_nouns`` or of the ``mass_lexicons``, not much rarer in the plural (``max_plural_gap``), no idiom or
    bare noun of ``idiom_lexicon`` and no setting noun of ``setting_lexicon`` (the grammar gate gives those
    "the"); its phrase has no determiner, possessive, number or plural modifier and is not the second conjunct
    of a shared article ("a cap and shirt").
    Source: Marelli et al. 2014, section 3.1 (S1 is the cleaned caption); readers' verdicts of issue 11 (r9:
    "leaping for Frisbee" marked as a missing article)."""
    doc = sent.doc
    preps, lexnames, idioms = set(params.prepositions), set(params.lexnames), set(params.not_nouns)
    mass = set().union(*(ruleset.lexicon_set(name) for name in params.mass_lexicons))
    idiom = ruleset.lexicon_set(params.idiom_lexicon) if params.idiom_lexicon else frozenset()
    settings = ruleset.lexicon_set(params.setting_lexicon) if params.setting_lexicon else frozenset()
    for tok in doc:
        if tok.dep_ != "pobj" or tok.head.lower_ not in preps or tok.head.i >= tok.i:
            continue
        name_like = tok.tag_ == "NNP" and tok.i > 0 and tok.text.istitle() and _common_word(tok.text)
        if not (tok.tag_ == "NN" and tok.text.islower() or name_like):
            continue
        low = tok.lower_
        synsets = resources.synsets(low, "n")
        if not synsets or synsets[0].lexname() not in lexnames or low in idioms or low in mass \
                or low in idiom or f"{tok.head.lower_} {low}" in idiom or low in settings \
                or lemma_of(low, "NOUN") != low:
            continue
        many = plural(low)
        if many == low or resources.zipf(low) - resources.zipf(many) > params.max_plural_gap:
            continue
        start = tok.left_edge.i
        if start != tok.head.i + 1 or sent.any_edited(range(tok.head.i, tok.i + 1)):
            continue
        if any(c.dep_ in ("det", "poss", "nummod", "predet", "quantmod", "cc", "conj") for c in tok.children) \
                or any(doc[j].tag_ in ("DT", "PRP$", "CD", "POS", "NNS", "NNPS") for j in range(start, tok.i)):
            continue
        if tok.i + 1 < len(doc) and doc[tok.i + 1].lower_ in ("and", "or", "&"):
            continue  # "on rope and chain": a pair that may go bare
        sent.insert_before(start, params.determiner)


# --------------------------------------------------------------------------------------------------------
# rule: a shared article that does not fit the second conjunct


class CoordinatedArticleParams(BaseModel):
    mass_lexicons: list[str] = []  # mass nouns go bare in the second conjunct ("a bowl and water")
    setting_lexicon: str | None = None  # setting nouns take "the" ("a watery area and the ocean")


def _living_after_description(sent, tok) -> bool:
    """Whether bare singular ``tok`` after "and" is a second person or animal, joined by the parse to the
    object of the first one's phrase: "a girl in pink and man in black", "a boy in a red shirt and girl in blue"
    (``tok``'s head is a thing, the object of a preposition on a living noun with "a/an")."""
    doc = sent.doc
    first, start = tok.head, tok.left_edge.i
    if start < 1 or doc[start - 1].lower_ != "and" or not _animate(tok.lower_) or _animate(first.lower_) \
            or first.dep_ != "pobj" or first.head.dep_ != "prep":
        return False
    owner = first.head.head
    if owner.pos_ != "NOUN" or not _animate(owner.lower_) or owner.tag_ != "NN" or sent.any_edited(
            range(owner.i, tok.i + 1)):
        return False
    return any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in owner.children) \
        and not any(doc[j].tag_ in ("DT", "PRP$", "CD", "POS") for j in range(start, tok.i))


@action("coordinated_article", stages=("normalize",), params=CoordinatedArticleParams)
def coordinated_article(sent, params: CoordinatedArticleParams, ruleset) -> None:
    """Give the second of two coordinated singular nouns its own article when the first one's "a/an" cannot
    be read before it ("a watery area and ocean" -> "a watery area and the ocean"; "a cup and saucer" shares
    its "a" and stays): a shared article must fit both phrases' first sound.

    The second noun (NN, ``conj`` of the noun with "a/an" right before "and/or") has no determiner, possessive
    or number of its own, does not share the first one's adjective (a bare person or animal after a modified
    one: "an older man and woman" stays), is no mass noun (``mass_lexicons``, WordNet substance/food first
    sense), and the article :func:`~pipeline.corpus.sentence.article_for` gives its phrase's first word differs from the
    shared one; that article is written, or "the" before a setting noun (``setting_lexicon``: "the ocean",
    as the grammar gate writes a bare setting noun).
    Source: Marelli et al. 2014, section 3.1 (S1 is the cleaned caption); readers' verdicts of issue 11 (r9:
    "a watery area and ocean" marked as a missing article)."""
    doc = sent.doc
    mass = set().union(*(ruleset.lexicon_set(name) for name in params.mass_lexicons))
    settings = ruleset.lexicon_set(params.setting_lexicon) if params.setting_lexicon else frozenset()
    for tok in doc:
        first = tok.head
        if tok.dep_ != "conj" or tok.tag_ != "NN" or first.pos_ != "NOUN" or first.i >= tok.i \
                or not tok.text.islower():
            continue
        if _living_after_description(sent, tok):
            # "a girl in pink and man in black": the parse may join "man" to "pink"; two living things are two,
            # each with its article (q20 readers)
            sent.insert_before(tok.left_edge.i, article_for(doc[tok.left_edge.i].text))
            continue
        shared = next((c for c in first.children if c.dep_ == "det" and c.lower_ in ("a", "an")), None)
        start = tok.left_edge.i
        # "a girl in pink and man in black" joined right: a phrase of the first noun may stand between when both
        # are living things
        described = any(c.dep_ == "prep" and c.i > first.i and c.right_edge.i == start - 2 for c in first.children) \
            and _animate(tok.lower_) and _animate(first.lower_)
        if shared is None or start < 2 or doc[start - 1].lower_ not in ("and", "or") \
                or not (first.i == start - 2 or described) \
                or sent.any_edited(range(shared.i, start)) or not sent.text(start) \
                or doc[start].lower_ in ("other", "another"):
            # (an edit inside the second phrase may stay: "and green-shirted child", q28 readers)
            continue
        if tok.lower_.endswith("ing") and lemma_of(tok.lower_, "VERB") != tok.lower_:
            continue  # "adding an egg and stirring": a second verb the tagger read as a noun
        if start == tok.i and any(c.dep_ in ("amod", "compound") for c in first.children) and _animate(tok.lower_):
            continue  # "an older man and woman": the adjective is shared too, and an article would drop it
        if any(doc[j].tag_ in ("DT", "PRP$", "CD", "POS") for j in range(start, tok.i)) \
                or tok.lower_ in mass or _mass_noun(tok.lower_, ("noun.substance", "noun.food")):
            continue
        word = article_for(sent.text(start))
        # "a smaller white dog and large shepherd": each noun has adjectives of its own, so they are two things
        # and one article cannot serve both (r11); "a cup and saucer", "a coat and hat" keep theirs shared
        own = doc[start].tag_ in ("JJ", "JJR", "JJS") and any(
            c.dep_ == "amod" and c.i < first.i for c in first.children)
        # "a man and young girl", "a boy and dog": two living things are two, each with its article (SICK
        # writes "a man and a woman" 51 times, "a man and woman" once; r8 readers); a shared adjective returned
        # above ("an older man and woman")
        living = _animate(tok.lower_) and _animate(first.lower_)
        if word != shared.lower_ or own or living:
            sent.insert_before(start, "the" if tok.lower_ in settings else word)
