"""Normalization actions (S0 -> S1), Marelli et al. 2014, section 3.1, Table 2.

Each action edits a :class:`~pipeline.sentence.Sentence` in place (``action(sent, params, ctx) -> None``) or
raises :class:`~pipeline.errors.Unnormalizable`.

The rules of ``rules/normalize.yaml`` run in file order on one parse. The verb rules (complex verbs, modals,
present continuous, non-sentential descriptions) cooperate through the edits: a rule reads the *current*
text of a token (``sent.text(i)``), skips tokens another rule already rewrote, and a verb that an earlier rule
replaced by a single other verb form (a phrasal verb by its synonym) is inflected from that current form.
Actions never re-parse; word lists come from lexicons and are turned into sets once (:func:`_lexicon_set`).
"""

from __future__ import annotations

import functools
import re
from typing import Any, Iterable, Literal

from pydantic import BaseModel

from ..errors import Unnormalizable
from ..rules import action
from ..wordforms import (
    be_present,
    gerund,
    inflect_word,
    is_plural_np,
    lemma_of,
    number_words,
    span,
    subject_of,
    third_person,
)

POSSESSIVE_PRONOUNS = ("my", "your", "his", "her", "its", "our", "their")

_AUX_DEPS = ("aux", "auxpass")
_RELATIVE_PRONOUNS = ("that", "which", "who", "whom", "whose")
_PRESENT_BE = ("is", "are", "am", "'s", "'re", "'m")
_DIGIT = re.compile(r"\d")
_CLOTHING = ("clothing.n.01", "covering.n.02", "colored.n.01")


# --------------------------------------------------------------------------------------------------------
# lexicon helpers


def _as_set(entries) -> frozenset[str]:
    return frozenset(str(x).lower() for x in entries)


def _lexicon_set(ctx, name: str) -> frozenset[str]:
    """A list lexicon (or the keys of a mapping lexicon) as a lower-cased frozenset, built once."""
    return ctx.derived(name, _as_set)


# --------------------------------------------------------------------------------------------------------
# small parse / inflection helpers


@functools.lru_cache(maxsize=65536)
def _lemma(word: str) -> str:
    """Verb lemma of a word form (lemminflect, more reliable than the small model's: 'riding' -> 'ride')."""
    return lemma_of(word, "VERB")


def _current_verb(sent, tok) -> tuple[str, str] | None:
    """``(lemma, tag)`` of verb ``tok`` as it currently reads, or None when a rule rewrote it into something
    that is not one verb form (deleted, several words, already a gerund)."""
    if not sent.edited(tok.i):
        return _lemma(tok.text), tok.tag_
    text = sent.text(tok.i)
    if not text or " " in text or text.endswith("ing"):
        return None
    return _lemma(text), tok.tag_


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
    if subj.dep_ == "expl":  # "there are two dogs that ..." — agree with the attribute
        for c in subj.head.children:
            if c.dep_ == "attr":
                return _np_plural(c)
    return _np_plural(subj)


def _be_anchor(sent, verb) -> int:
    """Where 'is/are' goes before a simple verb: before adverbs/negation written right before it
    ("a dog also runs" -> "a dog is also running")."""
    i = verb.i
    doc = sent.doc
    while i - 1 >= 0 and doc[i - 1].head.i == verb.i and doc[i - 1].dep_ in ("advmod", "neg") \
            and doc[i - 1].tag_ in ("RB", "RBR", "RBS") and not sent.edited(i - 1):
        i -= 1
    return i


def _present_simple(lemma: str, plural: bool) -> str:
    return lemma if plural else third_person(lemma)


def _has_neg(tokens: Iterable) -> bool:
    return any(c.dep_ == "neg" for t in tokens for c in t.children)


def _collapse(sent, verb, group: list[int], plural: bool, stative: frozenset[str], bare: bool = False,
              lemma: str | None = None) -> None:
    """Rewrite the verb group ``group`` (auxiliaries, catenative heads, 'to') + ``verb`` as present tense.

    The first token of ``group`` becomes 'is'/'are' (nothing when ``bare``: a conjunct sharing the first
    verb's auxiliary), the rest of the group is deleted, negation stays where it is, and ``verb`` becomes
    a gerund; a form of *be* collapses into the 'is/are', a passive or progressive participle is kept, and a
    stative verb takes the simple present ("can have" -> "has"). Marelli et al. 2014, Table 2 (verbs rows).
    """
    group = sorted(i for i in group if i != verb.i)
    if lemma is None:
        lemma = _lemma(verb.text)
    be = be_present(plural)
    passive = any(c.dep_ == "auxpass" for c in verb.children)
    progressive = verb.tag_ == "VBG" and any(sent.doc[i].lemma_ == "be" for i in group)
    verb_text: str | None
    if lemma == "be" and verb.pos_ in ("AUX", "VERB") and verb.dep_ != "aux":
        head_word, verb_text = be, ""
    elif passive or progressive:
        head_word, verb_text = be, None
    elif lemma in stative:
        if _has_neg([verb]):
            head_word, verb_text = ("do" if plural else "does"), lemma
        else:
            head_word, verb_text = "", _present_simple(lemma, plural)
    else:
        head_word, verb_text = be, gerund(lemma)
    if bare:
        head_word = ""
    if group:
        first = sent.doc[group[0]]
        nxt = sent.doc[first.i + 1] if first.i + 1 < len(sent.doc) else None
        if head_word and not first.whitespace_ and nxt is not None and nxt.is_alpha and nxt.i not in group:
            head_word += " "  # "cannot" -> "is not", not "isnot" (rendering keeps the original spacing)
        sent.replace(group[0], head_word)
        sent.delete(*group[1:])
        if verb_text is not None:
            sent.replace(verb.i, verb_text)
        return
    if verb_text is None:
        verb_text = sent.text(verb.i)
    if not head_word:
        sent.replace(verb.i, verb_text)
        return
    anchor = _be_anchor(sent, verb)
    if anchor == verb.i or not verb_text:
        sent.replace(verb.i, f"{head_word} {verb_text}".strip())
    else:
        sent.insert_before(anchor, head_word)
        sent.replace(verb.i, verb_text)


def _conjunct_verbs(verb) -> list:
    """Verbs coordinated with ``verb`` that share its subject (no subject of their own)."""
    out = []
    for c in verb.children:
        if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX") and not any(
                g.dep_ in ("nsubj", "nsubjpass", "expl") for g in c.children):
            out.append(c)
            out.extend(_conjunct_verbs(c))
    return out


# --------------------------------------------------------------------------------------------------------
# rule 1: possessive pronouns


class PossessiveParams(BaseModel):
    replacement: str = "the"


@action("possessive_to_determiner", stages=("normalize",), params=PossessiveParams)
def possessive_to_determiner(sent, params: PossessiveParams, ctx) -> None:
    """Possessive pronoun -> a determiner ("her playhouse" -> "the playhouse"); Table 2, first row.

    A pronoun counts as possessive when tagged PRP$ or attached as ``poss``: the tagger sometimes calls "her"
    in "holding her kitten" PRP while the parser attaches it to the noun.
    """
    for tok in sent.doc:
        possessive = tok.tag_ == "PRP$" or (tok.dep_ == "poss" and tok.head.i > tok.i)
        if possessive and tok.lower_ in POSSESSIVE_PRONOUNS and not sent.edited(tok.i):
            sent.replace(tok.i, params.replacement)


class DeleteTokensParams(BaseModel):
    tokens: list[str]


@action("delete_tokens", stages=("normalize",), params=DeleteTokensParams)
def delete_tokens(sent, params: DeleteTokensParams, ctx) -> None:
    """Delete every token whose text is in ``tokens`` (e.g. quotation marks, which SICK's sentences never
    have: SICK.txt's surface form, Marelli et al. 2014, section 3.1)."""
    drop = set(params.tokens)
    for tok in sent.doc:
        if tok.text in drop and not sent.edited(tok.i):
            sent.delete(tok.i)


# --------------------------------------------------------------------------------------------------------
# sentences that cannot be normalized


class DropQuestionParams(BaseModel):
    marks: list[str] = ["?"]


@action("drop_question", stages=("normalize",), params=DropQuestionParams)
def drop_question(sent, params: DropQuestionParams, ctx) -> None:
    """Drop a question: SICK's sentences are declarative (Marelli et al. 2014, section 3.1)."""
    marks = set(params.marks)
    if any(t.text in marks for t in sent.doc):
        raise Unnormalizable("question")


class DropMultiParams(BaseModel):
    terminators: list[str] = [".", "!", "?", ";"]


@action("drop_multiple_sentences", stages=("normalize",), params=DropMultiParams)
def drop_multiple_sentences(sent, params: DropMultiParams, ctx) -> None:
    """Drop a text of more than one sentence: a terminator followed by more words (section 3.1)."""
    terms = set(params.terminators)
    doc = sent.doc
    for t in doc:
        if t.text in terms and any(u.is_alpha for u in doc[t.i + 1:]):
            raise Unnormalizable("more than one sentence")


class DropPronounParams(BaseModel):
    lexicon: str = "first_second_person"


@action("drop_first_second_person", stages=("normalize",), params=DropPronounParams)
def drop_first_second_person(sent, params: DropPronounParams, ctx) -> None:
    """Drop a sentence speaking in first or second person ("I am ...", "you can see ..."): SICK's sentences
    describe a scene in third person (section 3.1)."""
    words = _lexicon_set(ctx, params.lexicon)
    for t in sent.doc:
        if t.pos_ == "PRON" and t.lower_ in words:
            raise Unnormalizable(f"first or second person ({t.text})")


class DropLongParams(BaseModel):
    max_words: int = 25


@action("drop_too_long", stages=("normalize",), params=DropLongParams)
def drop_too_long(sent, params: DropLongParams, ctx) -> None:
    """Drop a sentence of more than ``max_words`` words (SICK's longest S1 sentences have about 25)."""
    n = sum(1 for t in sent.doc if not t.is_punct and not t.is_space)
    if n > params.max_words:
        raise Unnormalizable(f"longer than {params.max_words} words ({n})")


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
def drop_mwe(sent, params: MweParams, ctx) -> None:
    """Delete multiword expressions ("right now", "at the moment") with an adjacent comma; Table 2
    (multiword expressions -> removed)."""
    index = ctx.derived(params.lexicon, _mwe_index)
    doc = sent.doc
    n = len(doc)
    i = 0
    while i < n:
        cands = index.get(doc[i].lower_)
        matched = 0
        if cands:
            for words in cands:
                k = len(words)
                if i + k <= n and all(doc[i + j].lower_ == words[j] for j in range(k)) \
                        and not sent.any_edited(range(i, i + k)):
                    matched = k
                    break
        if not matched:
            i += 1
            continue
        sent.delete(*range(i, i + matched))
        if i + matched < n and doc[i + matched].text == ",":
            sent.delete(i + matched)
        elif i > 0 and doc[i - 1].text == ",":
            sent.delete(i - 1)
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
        _delete_phrase(sent, *span(np.head))
    elif np.dep_ in ("npadvmod", "tmod", "appos", "nmod", "compound", "advmod", "quantmod"):
        _delete_phrase(sent, *span(np))
    else:
        raise Unnormalizable(reason)


@action("normalize_numbers", stages=("normalize",), params=NumberParams)
def normalize_numbers(sent, params: NumberParams, ctx) -> None:
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
        if (tok.i + 1 < len(doc) and doc[tok.i + 1].text == "-") or (tok.i > 0 and doc[tok.i - 1].text == "-"):
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
            elif prev.pos_ == "VERB":  # "a car numbered 104"
                _delete_phrase(sent, prev.i, tok.i + 1)
            else:  # "the number 157 bike" -> "the bike"
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


class NamedEntityParams(BaseModel):
    lexicon: str = "class_words"
    exceptions_lexicon: str = "ne_exceptions"
    determiner: str = "a"


@functools.lru_cache(maxsize=16384)
def _common_word(text: str) -> bool:
    """Whether ``text`` is a common English word in WordNet (a sense that is not a named instance), and has
    no named-instance sense: NER on lower-case captions tags words like "Frisbee" or "Corgi"."""
    from .. import resources

    wn = resources.wordnet()
    synsets = wn.synsets(text.lower().replace(" ", "_"))
    if not synsets:
        return False
    instance = any(s.instance_hypernyms() for s in synsets)
    return not instance


@functools.lru_cache(maxsize=16384)
def _any_common_sense(word: str) -> bool:
    from .. import resources

    wn = resources.wordnet()
    return any(not s.instance_hypernyms() for s in wn.synsets(word.lower()))


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


@action("named_entity_to_class", stages=("normalize",), params=NamedEntityParams)
def named_entity_to_class(sent, params: NamedEntityParams, ctx) -> None:
    """Named entity -> a word for its class ("John" -> "a person", "in New York" -> "in a city"); a name that
    only modifies a noun is removed ("a Nike shirt" -> "a shirt"); Table 2 (named entities)."""
    classes = ctx.lexicon(params.lexicon)
    exceptions = _lexicon_set(ctx, params.exceptions_lexicon)
    doc = sent.doc
    for ent in doc.ents:
        entry = classes.get(ent.label_)
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
        plural = root.tag_ in ("NNPS", "NNS")
        word = entry["plural"] if plural else entry["singular"]
        has_det = start > ent.start or any(c.dep_ in ("det", "poss", "nummod") and c.i < ent.start
                                           for c in root.children)
        if not has_det and not plural and params.determiner:
            word = f"{params.determiner} {word}"
        if end > ent.end:  # possessive 's stays
            sent.set_span(start, ent.end, word)
        else:
            sent.set_span(start, end, word)


# --------------------------------------------------------------------------------------------------------
# rule 6: separated phrasal verbs


class PhrasalParams(BaseModel):
    lexicon: str = "phrasal_verbs"
    mode: Literal["synonym", "join"] = "synonym"
    keep_separated: list[str] = ["give up"]


def _inflect_like(new_lemma: str, current: str, tag: str) -> str:
    """``new_lemma`` in the form of the word ``current`` (a gerund stays a gerund) or of Penn tag ``tag``."""
    if current.endswith("ing"):
        return gerund(new_lemma)
    if tag in ("VBZ", "VBD", "VBN", "VBG"):
        return inflect_word(new_lemma, tag)
    return new_lemma


@action("phrasal_verb_synonym", stages=("normalize",), params=PhrasalParams)
def phrasal_verb_synonym(sent, params: PhrasalParams, ctx) -> None:
    """Separated phrasal verb -> a one-word synonym inflected like the verb ("is picking the ball up" -> "is
    lifting the ball"); in ``join`` mode, a phrasal verb missing from the lexicon gets its particle moved
    next to it instead ("zipping the jacket up" -> "zipping up the jacket"). Table 2 (phrasal verbs)."""
    table = ctx.lexicon(params.lexicon)
    keep = set(params.keep_separated)
    doc = sent.doc
    for prt in doc:
        if prt.dep_ != "prt" or sent.edited(prt.i):
            continue
        verb = prt.head
        objs = [o for o in verb.children if o.dep_ == "dobj" and verb.i < o.i < prt.i]
        if not objs or sent.edited(verb.i) or verb.pos_ != "VERB":
            continue
        lemma = _lemma(verb.text)
        synonym = table.get(f"{lemma} {prt.lower_}")
        if params.mode == "synonym":
            if synonym:
                sent.replace(verb.i, _inflect_like(str(synonym), verb.lower_, verb.tag_))
                sent.delete(prt.i)
        elif not synonym and not any(o.pos_ == "PRON" for o in objs) and f"{lemma} {prt.lower_}" not in keep:
            # written before the object, so that the verb itself stays unedited for the tense rules
            sent.delete(prt.i)
            sent.insert_before(verb.i + 1, prt.text)


# --------------------------------------------------------------------------------------------------------
# rules 3, 4, 5: verbs -> present continuous


class CatenativeParams(BaseModel):
    lexicon: str
    stative_lexicon: str = "stative_verbs"


def _catenative_table(entries) -> dict[str, tuple[frozenset[str], bool]]:
    """``{head lemma: (complement kinds {"to", "ing"}, needs be)}`` from entries like ``"try": [to]`` or
    ``"be about": [to]``."""
    out = {}
    for key, kinds in entries.items():
        words = str(key).lower().split()
        needs_be = words[0] == "be" and len(words) > 1
        head = words[-1]
        out[head] = (frozenset(str(k).lower() for k in (kinds or ["to"])), needs_be)
    return out


def _has_be(tok) -> bool:
    """Whether ``tok`` is a copula complement ("is about") or has a form of be as auxiliary."""
    if tok.dep_ == "acomp" and tok.head.lemma_ == "be":
        return True
    return any(c.dep_ in _AUX_DEPS and c.lemma_ == "be" for c in tok.children)


def _is_finite_group(head, group_heads) -> bool:
    """Whether the verb group has a tensed word (a finite head or any auxiliary)."""
    if head.tag_ in ("VBZ", "VBP", "VBD", "MD"):
        return True
    return any(_aux_children(h) for h in group_heads)


@action("catenative_to_continuous", stages=("normalize",), params=CatenativeParams)
def catenative_to_continuous(sent, params: CatenativeParams, ctx) -> None:
    """Complex verb construction -> the simple verb in the present continuous ("tries to climb" -> "is
    climbing", "is about to jump" -> "is jumping", "has to cut" -> "is cutting"); Table 2 (complex verb
    constructions; modals and auxiliaries). The head verbs and their complements ("to" infinitive,
    "-ing") come from the lexicon."""
    table = ctx.derived(params.lexicon, _catenative_table)
    stative = _lexicon_set(ctx, params.stative_lexicon)
    doc = sent.doc
    for comp in doc:
        if comp.dep_ != "xcomp" or comp.pos_ not in ("VERB", "AUX") or sent.edited(comp.i):
            continue
        head = comp.head
        if head.pos_ in ("VERB", "AUX"):
            head_lemma = _lemma(head.text)
        elif head.pos_ == "ADJ" and head.dep_ == "acomp":
            head_lemma = head.lower_
        else:
            continue
        spec = table.get(head.lower_) or table.get(head_lemma)
        if spec is None:
            continue
        kinds, needs_be = spec
        to = _to_marker(comp)
        if to is not None:
            if "to" not in kinds or sent.edited(to.i):
                continue
        elif comp.tag_ == "VBG":
            if "ing" not in kinds:
                continue
        else:
            continue
        if needs_be and not _has_be(head):
            continue
        if any(c.dep_ == "auxpass" for c in comp.children):
            continue
        cur = _current_verb(sent, comp)
        if cur is None:
            continue
        lemma = cur[0]
        group_heads = [head]
        if head.pos_ == "ADJ":  # "is about to": the copula heads the group
            group_heads.insert(0, head.head)
        if sent.any_edited(h.i for h in group_heads):
            continue
        group = [a.i for h in group_heads for a in _aux_children(h)] + [h.i for h in group_heads]
        if to is not None:
            group.append(to.i)
        finite = _is_finite_group(group_heads[0], group_heads)
        top = group_heads[0]
        plural = _plural_subject(top)
        if lemma == "be":  # "tries to be quiet", "is about to be ..." -> "is ..."
            if not finite:
                continue
            sent.replace(min(group), be_present(plural))
            sent.delete(*(i for i in group if i != min(group)), comp.i)
            continue
        if lemma in stative:
            continue
        _collapse(sent, comp, group, plural, stative, bare=not finite, lemma=lemma)
        # "tries to climb and jump" -> "is climbing and jumping"
        for conj in _conjunct_verbs(comp):
            if conj.tag_ == "VB" and not sent.edited(conj.i):
                c = _current_verb(sent, conj)
                if c and c[0] not in stative:
                    sent.replace(conj.i, gerund(c[0]))


class ModalParams(BaseModel):
    lexicon: str = "modal_auxiliaries"
    stative_lexicon: str = "stative_verbs"


@action("modal_to_continuous", stages=("normalize",), params=ModalParams)
def modal_to_continuous(sent, params: ModalParams, ctx) -> None:
    """Modal auxiliary + verb -> present continuous ("can ride" -> "is riding", "will be playing" -> "is
    playing", "must be tired" -> "is tired"); Table 2 (modals and auxiliaries)."""
    modals = _lexicon_set(ctx, params.lexicon)
    stative = _lexicon_set(ctx, params.stative_lexicon)
    for md in sent.doc:
        if md.tag_ != "MD" or md.lower_ not in modals or md.dep_ != "aux" or sent.edited(md.i):
            continue
        verb = md.head
        if sent.edited(verb.i) and _current_verb(sent, verb) is None:
            continue
        group = [a.i for a in _aux_children(verb)]
        if sent.any_edited(group):
            continue
        cur = _current_verb(sent, verb)
        plural = _plural_subject(verb)
        _collapse(sent, verb, group, plural, stative, lemma=cur[0] if cur else None)
        for conj in _conjunct_verbs(verb):
            if conj.tag_ == "VB" and not sent.edited(conj.i):
                c = _current_verb(sent, conj)
                if c and c[0] not in stative:
                    sent.replace(conj.i, gerund(c[0]))
                elif c:
                    sent.replace(conj.i, _present_simple(c[0], plural))


class ContinuousParams(BaseModel):
    stative_lexicon: str = "stative_verbs"
    past_be: dict[str, str] = {"was": "is", "were": "are"}


def _reads_continuous(sent, verb) -> bool:
    """Whether ``verb`` currently reads as a gerund (so a conjunct sharing its subject takes a bare gerund)."""
    text = sent.text(verb.i)
    if not text:
        return False
    if sent.edited(verb.i) and text in ("is", "are"):  # "attempts to lift" -> "is lifting"
        return True
    return text.split()[-1].endswith("ing") and (verb.tag_ == "VBG" or sent.edited(verb.i))


def _noun_conjuncts_to_gerunds(sent, verb, tag: str, stative: frozenset[str]) -> None:
    """A verb coordinated with ``verb`` but tagged as a noun ("a boy laughs and claps") -> gerund, when its
    form agrees with ``verb``'s (an -s form after a VBZ, a bare form after a VBP)."""
    for c in verb.children:
        if c.dep_ != "conj" or c.pos_ != "NOUN" or c.i < verb.i or sent.edited(c.i) or list(c.children):
            continue
        lemma = _verb_reading(c.lower_)
        if not lemma or lemma in stative:
            continue
        if (tag == "VBZ" and c.tag_ == "NNS" and lemma != c.lower_) or (tag == "VBP" and c.tag_ == "NN"
                                                                       and lemma == c.lower_):
            sent.replace(c.i, gerund(lemma))


@action("present_continuous", stages=("normalize",), params=ContinuousParams)
def present_continuous(sent, params: ContinuousParams, ctx) -> None:
    """Non-stative verb -> present continuous ("a dog runs" -> "a dog is running", "two dogs ran" -> "two
    dogs are running", "has caught" -> "is catching", "was running" -> "is running"); coordinated verbs
    sharing a subject take a bare gerund ("jumps and smiles" -> "is jumping and smiling"). Stative verbs
    (lexicon) keep the simple present. Table 2 (non-stative verbs -> present continuous)."""
    stative = _lexicon_set(ctx, params.stative_lexicon)
    doc = sent.doc
    for verb in doc:
        if verb.pos_ not in ("VERB", "AUX") or verb.dep_ in _AUX_DEPS or verb.tag_ == "MD":
            continue
        auxes = _aux_children(verb)
        if sent.any_edited(a.i for a in auxes):
            continue
        cur = _current_verb(sent, verb)
        if cur is None:
            continue
        lemma, tag = cur
        if any(a.tag_ == "MD" for a in auxes):
            continue  # the modal rule's business
        plural = None
        if lemma == "be" or (lemma in stative and not auxes):
            # tense only: "was" -> "is", "had" -> "has"
            if not auxes and verb.tag_ == "VBD" and not sent.edited(verb.i):
                if lemma == "be":
                    new = params.past_be.get(verb.lower_)
                    if new:
                        plural = _plural_subject(verb)
                        sent.replace(verb.i, be_present(plural))
                else:
                    sent.replace(verb.i, _present_simple(lemma, _plural_subject(verb)))
            continue
        if any(c.dep_ == "auxpass" for c in verb.children):
            past = [a for a in auxes if a.lower_ in params.past_be]
            if past and len(auxes) == 1:
                sent.replace(past[0].i, be_present(_plural_subject(verb)))
            elif len(auxes) == 1 and auxes[0].lemma_ == "get" and auxes[0].tag_ in ("VBZ", "VBP", "VBD"):
                # "a dog gets sprayed" -> "a dog is getting sprayed"
                sent.replace(auxes[0].i, f"{be_present(_plural_subject(verb))} getting")
            continue
        if not auxes:
            # a past tense the tagger read as a participle: "the cat shimmied under the bed"
            active_vbn = tag == "VBN" and verb.dep_ in ("ROOT", "conj") and any(
                c.dep_ == "nsubj" for c in verb.children)
            # a conjunct tagged as a bare form after a finite verb: "two boys stand ... and fight"
            bare_conj = tag == "VB" and verb.dep_ == "conj" and verb.head.tag_ in ("VBZ", "VBP", "VBD")
            if tag not in ("VBZ", "VBP", "VBD") and not active_vbn and not bare_conj:
                continue
            if lemma in stative:
                continue
            own_subject = any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in verb.children)
            if verb.dep_ == "conj" and not own_subject and verb.head.pos_ in ("VERB", "AUX") \
                    and _reads_continuous(sent, verb.head):
                sent.replace(verb.i, gerund(lemma))
                continue
            if not own_subject and subject_of(verb) is None and _antecedent(verb) is None \
                    and (verb.dep_ != "ROOT" or _loose_subject(verb) is None):
                continue  # no subject to agree with (fragment, mis-parse)
            anchor = _be_anchor(sent, verb)
            _collapse(sent, verb, [], _plural_subject(verb), stative, lemma=lemma)
            _noun_conjuncts_to_gerunds(sent, verb, tag, stative)
            # "a man in a hat , walks" -> "a man in a hat is walking" (one comma only: not a parenthesis)
            if verb.dep_ == "ROOT" and anchor > 0 and doc[anchor - 1].text == "," \
                    and not sent.edited(anchor - 1) and sum(t.text == "," for t in doc[:anchor]) == 1:
                sent.delete(anchor - 1)
            continue
        aux_lemmas = [a.lemma_ for a in auxes]
        if verb.tag_ == "VBG" and "be" in aux_lemmas:
            # progressive: only fix tense/perfect ("was running", "has been running")
            if all(a.lower_ in _PRESENT_BE for a in auxes):
                continue
            _collapse(sent, verb, [a.i for a in auxes], _plural_subject(verb), stative, lemma=lemma)
        elif verb.tag_ == "VB" and all(a.lemma_ == "do" for a in auxes):
            if lemma in stative:
                continue
            _collapse(sent, verb, [a.i for a in auxes], _plural_subject(verb), stative, lemma=lemma)
        elif verb.tag_ in ("VBN", "VBD") and all(a.lemma_ == "have" for a in auxes):
            if lemma in stative:
                continue
            _collapse(sent, verb, [a.i for a in auxes], _plural_subject(verb), stative, lemma=lemma)


# --------------------------------------------------------------------------------------------------------
# rule 10: non-sentential descriptions


class FragmentParams(BaseModel):
    predicate_prepositions: list[str] = [
        "in", "on", "at", "near", "under", "underneath", "beneath", "below", "above", "over", "behind",
        "beside", "by", "next", "inside", "outside", "atop", "into", "onto", "through", "across", "along",
        "around", "against", "among", "between", "down", "up", "off", "out", "from", "toward", "towards",
        "past", "amid", "alongside", "within", "upon", "beyond", "in front of",
    ]
    clothing_prepositions: list[str] = ["in"]
    clothing_hypernyms: list[str] = list(_CLOTHING)
    picture_nouns: list[str] = ["view", "picture", "photo", "photograph", "image", "closeup", "close-up",
                                "shot", "silhouette", "reflection", "shadow", "portrait", "snapshot"]
    descriptive_participles: list[str] = ["wearing", "dressed", "holding", "carrying", "using", "having"]
    stative_lexicon: str = "stative_verbs"


@functools.lru_cache(maxsize=16384)
def _is_clothing(noun: str, hypernyms: tuple[str, ...]) -> bool:
    """Whether ``noun`` names a garment (WordNet hypernym closure): "a man in a red shirt" is not where he is."""
    from .. import resources

    wn = resources.wordnet()
    targets = set(hypernyms)
    for s in wn.synsets(noun, pos="n")[:3]:
        for path in s.hypernym_paths():
            if any(h.name() in targets for h in path):
                return True
    return False


@functools.lru_cache(maxsize=16384)
def _verb_reading(word: str) -> str | None:
    """The verb lemma of ``word`` when it can be a verb (WordNet has the lemma as a verb), else None."""
    from .. import resources

    lemma = _lemma(word)
    wn = resources.wordnet()
    return lemma if wn.synsets(lemma, pos="v") else None


def _np_plural(root) -> bool:
    """Plural noun phrase: plural head, coordination ("a dog and a cat ..."), or a number above one."""
    if is_plural_np(root):
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


@functools.lru_cache(maxsize=16384)
def _verb_dominant(lemma: str) -> bool:
    """Whether ``lemma`` is used more as a verb than as a noun (WordNet 3.0 sense-tagged counts)."""
    from .. import resources

    wn = resources.wordnet()

    def count(pos: str) -> int:
        return sum(l.count() for s in wn.synsets(lemma, pos=pos) for l in s.lemmas() if l.name().lower() == lemma)

    v, n = count("v"), count("n")
    if v or n:
        return v >= n
    return bool(wn.synsets(lemma, pos="v")) and len(wn.synsets(lemma, pos="v")) >= len(wn.synsets(lemma, pos="n"))


@functools.lru_cache(maxsize=16384)
def _gerund_not_noun(word: str, lemma: str) -> bool:
    """An -ing form hardly used as a noun ("riding", "wearing"; not "building", "setting"): WordNet counts."""
    from .. import resources

    wn = resources.wordnet()

    def count(w: str, pos: str) -> int:
        return sum(l.count() for s in wn.synsets(w, pos=pos) for l in s.lemmas() if l.name().lower() == w)

    return count(word, "n") <= 4 and count(lemma, "v") >= 10


def _misparsed_verb(sent, root):
    """A verb the small model tagged as a noun in a description without verb ("a boy winks ...", "two dogs
    tug at ...", "the boy in blue runs ...", "a dog swimming in ..."): ``(token, subject plural)`` or None.

    Accepted only when the word form agrees as a verb and disagrees as a noun with the subject (a singular
    subject before an -s form, a plural one before a bare form), follows a noun or adjective, is not followed
    by a noun, and the word is used more as a verb than as a noun (WordNet counts)."""
    doc = sent.doc
    subj = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")]
    if root.pos_ == "NOUN" and subj and not sent.edited(root.i) and _verb_reading(root.lower_):
        return root, _np_plural(subj[0])
    for v in doc[root.i:]:
        if v.pos_ == "VERB" and v.tag_ in ("VBZ", "VBP") and v.dep_ in ("pobj", "dobj", "compound", "appos") \
                and not sent.edited(v.i):  # a finite verb in a noun's place: "a man in a t-shirt jumps"
            return v, _np_plural(root)
        if v.pos_ not in ("NOUN", "PROPN") or sent.edited(v.i) or v.i == 0:
            continue
        prev = doc[v.i - 1]
        if prev.pos_ not in ("NOUN", "PROPN", "ADJ") or (v.i + 1 < len(doc) and doc[v.i + 1].pos_ in ("NOUN", "PROPN")):
            continue
        word = v.lower_
        lemma = _lemma(word)
        if v.i == root.i or (v.dep_ == "compound" and v.head.i == root.i):
            subject = prev
        else:
            subject = root
        plural = _np_plural(subject)
        # "a man and woman dance": a coordination before the verb makes the subject plural
        loose_plural = plural or any(doc[j].lower_ in ("and", "&") for j in range(root.left_edge.i, v.i))
        # "a tan dog stand in the snow and looks up": a coordinated finite verb shows v is a verb too
        verbal_conj = any(c.dep_ == "conj" and c.pos_ == "VERB" and c.tag_ in ("VBZ", "VBP", "VBD")
                          for c in v.children)
        if word.endswith("ing"):
            # "a black dog swimming in ...", "a boy in a blue helmet riding a bike"
            if lemma != word and _verb_reading(word) and (v.i == root.i or _gerund_not_noun(word, lemma)):
                return v, plural
            continue
        if not _verb_reading(word) or _is_clothing(lemma_of(word, "NOUN"), _CLOTHING):
            continue
        # "a dog trots ...": an -s noun after "a" cannot head the noun phrase
        indefinite = v.tag_ in ("NNS", "NNPS") and any(
            c.dep_ == "det" and c.lower_ in ("a", "an") for c in list(v.children) + list(subject.children))
        if not indefinite and not _verb_dominant(lemma):
            continue
        if v.tag_ in ("NNS", "NNPS") and not plural and lemma != word and word.endswith("s"):
            return v, plural
        if v.tag_ in ("NN", "NNP") and loose_plural and lemma == word:
            return v, True
        if verbal_conj and lemma == word:
            return v, plural
    return None


def _predicate_walk(root):
    """Tokens of the noun phrase headed by ``root``, in order, not descending into clauses."""
    out = []
    stack = [root]
    while stack:
        t = stack.pop()
        out.append(t)
        for c in t.children:
            if c.pos_ in ("VERB", "AUX") and c.dep_ in ("acl", "relcl", "conj", "advcl", "ccomp", "xcomp"):
                out.append(c)  # the clause head, not its content
                continue
            if c.dep_ in ("prep", "pobj", "conj", "cc", "appos", "compound", "amod", "det", "nummod", "punct",
                          "poss", "case", "nmod", "npadvmod", "advmod", "acomp", "quantmod", "predet"):
                stack.append(c)
    return sorted(out, key=lambda t: t.i)


def _hyphenated_text(doc, tok) -> str:
    """``tok``'s lemma with the words hyphen-joined before it ("close - up" -> "close-up")."""
    text = tok.lemma_
    i = tok.i
    while i >= 2 and doc[i - 1].text == "-" and not doc[i - 1].whitespace_ and not doc[i - 2].whitespace_:
        text = f"{doc[i - 2].text}-{text}"
        i -= 2
    return text


def _fragment_predicate(sent, root, params: FragmentParams, participles_only: bool = False
                        ) -> tuple[str, int] | None:
    """How to make a predicate of the noun phrase headed by ``root``: ``("relcl", pronoun index)``,
    ``("be", index to put is/are before)``, or None."""
    heads = [root] + [c for c in root.children if c.dep_ == "conj" and c.pos_ in ("NOUN", "PROPN")]
    # "a dog that is running" -> delete the relative pronoun
    for h in heads:
        for c in h.children:
            if c.dep_ == "relcl" and c.i > h.i:
                subj = [s for s in c.children if s.dep_ in ("nsubj", "nsubjpass") and s.lower_ in _RELATIVE_PRONOUNS]
                if subj and (c.tag_ in ("VBZ", "VBP", "VBD") or _aux_children(c) or sent.edited(c.i)):
                    return "relcl", subj[0].i
    tokens = [t for t in _predicate_walk(root) if t.i > root.i]

    def clause_ok(t) -> bool:
        # a participle clause; "on a surfboard riding a wave" parses "riding" as the object of "on"
        dep_ok = t.dep_ in ("acl", "conj", "advcl", "pcomp") or (t.dep_ == "pobj" and t.i - t.head.i > 1)
        return (t.pos_ == "VERB" and dep_ok and not _aux_children(t)
                and not _to_marker(t) and not any(c.dep_ in ("nsubj", "nsubjpass") for c in t.children))

    # participle: "two dogs playing in the snow", "a child in a uniform chasing a ball"; a participle of
    # description ("a man wearing a hat jumping ...") yields to a later one
    vbg = [t for t in tokens
           if t.tag_ == "VBG" and clause_ok(t) and (sent.text(t.i).endswith("ing") or not sent.text(t.i))]
    if vbg:
        t = vbg[0]
        if t.lower_ in params.descriptive_participles:
            later = [u for u in list(t.subtree) + vbg[1:]
                     if u.i > t.i and u.tag_ == "VBG" and clause_ok(u) and u.dep_ != "conj"
                     and not any(c.dep_ == "mark" for c in u.children)]
            if later:
                t = min(later, key=lambda u: u.i)
        return "be", _be_anchor(sent, t)
    if participles_only:
        return None
    preps = set(params.predicate_prepositions)
    clothing_preps = set(params.clothing_prepositions)
    hyps = tuple(params.clothing_hypernyms)
    for t in tokens:
        if t.tag_ == "VBN" and clause_ok(t):
            return "be", _be_anchor(sent, t)
        if t.dep_ == "prep" and t.lower_ in preps and t.head.pos_ in ("NOUN", "PROPN", "PRON", "NUM"):
            pobj = [p for p in t.children if p.dep_ == "pobj"]
            if t.lower_ in clothing_preps and pobj and _is_clothing(pobj[0].lemma_.lower(), hyps):
                continue
            if t.i + 1 < len(sent.doc) and sent.doc[t.i + 1].lower_ == "front" and t.lower_ != "in":
                continue
            return "be", t.i
    for c in root.children:  # "a dog wet from the rain"
        if c.dep_ == "amod" and c.i > root.i and c.pos_ == "ADJ":
            return "be", c.i
    return None


@action("fragment_to_sentence", stages=("normalize",), params=FragmentParams)
def fragment_to_sentence(sent, params: FragmentParams, ctx) -> None:
    """Non-sentential description -> full sentence: a noun phrase root gets 'is/are' before its participle or
    locative phrase ("an airplane in the air" -> "an airplane is in the air", "two dogs playing" -> "two
    dogs are playing"), a participle root gets 'is/are' ("a girl going into ..." parsed as a clause without
    auxiliary), a verb the tagger read as a noun is put in the present continuous, and "a picture of"
    before the description is removed. A description without any predicate is dropped. Table 2
    (non-sentential descriptions -> sentences)."""
    doc = sent.doc
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if not roots:
        raise Unnormalizable("non-sentential description with no predicate")
    root = roots[0]
    if root.pos_ in ("VERB", "AUX"):
        if sent.edited(root.i):
            return
        auxes = _aux_children(root)
        subj = subject_of(root)
        if root.tag_ in ("VBG", "VBN") and not auxes and not any(c.dep_ == "auxpass" for c in root.children):
            if subj is None:  # "Boy playing with a truck": the noun before the participle, mis-attached
                subj = _loose_subject(root)
                if subj is None:
                    raise Unnormalizable("no subject")
            anchor = _be_anchor(sent, root)
            sent.insert_before(anchor, be_present(_np_plural(subj) or _plural_subject(root)))
            return
        if subj is None and not auxes and root.tag_ == "VB":
            raise Unnormalizable("no subject (imperative)")
        return
    if root.pos_ not in ("NOUN", "PROPN", "PRON", "NUM") and not (
            root.pos_ == "INTJ" and _common_word(root.text)):  # "Boy in kitchen ..." tagged as interjection
        raise Unnormalizable("non-sentential description with no predicate")
    stative = _lexicon_set(ctx, params.stative_lexicon)
    agree = root  # the noun phrase the predicate agrees with
    # "a close-up of a dog running" -> "a dog running"
    if _hyphenated_text(doc, root).lower() in params.picture_nouns:
        of = [c for c in root.children if c.dep_ == "prep" and c.lower_ == "of" and c.i > root.i]
        pobj = [p for p in of[0].children if p.dep_ == "pobj"] if of else []
        if pobj and not sent.any_edited(range(0, of[0].i + 1)):
            sent.delete(*range(0, of[0].i + 1))
            agree = pobj[0]
    found = _fragment_predicate(sent, root, params, participles_only=True)
    found_verb = _misparsed_verb(sent, root) if found is None else None
    if found_verb is not None:
        verb, plural = found_verb
        lemma = _lemma(verb.lower_)
        sent.replace(verb.i, _present_simple(lemma, plural) if lemma in stative
                     else f"{be_present(plural)} {gerund(lemma)}")
        for c in verb.children:  # "chase and wrestle" -> "chasing and wrestling"
            if c.dep_ == "conj" and c.i > root.i and c.tag_ in ("VB", "VBP", "VBZ", "NN", "NNS") \
                    and not sent.edited(c.i):
                v = _verb_reading(c.lower_)
                if v and v not in stative:
                    sent.replace(c.i, gerund(v))
        return
    if found is None:
        found = _fragment_predicate(sent, root, params)
    if found is None:
        raise Unnormalizable("non-sentential description with no predicate")
    kind, i = found
    if kind == "relcl":
        sent.delete(i)
        if i > 0 and doc[i - 1].text == ",":
            sent.delete(i - 1)
    else:
        subject = agree
        head = doc[i].head
        if head.dep_ == "appos" and head.pos_ in ("NOUN", "PRON", "NUM"):  # "two women, one looking down"
            subject = head
        sent.insert_before(i, be_present(_np_plural(subject)))
        if i > 0 and doc[i - 1].text == "," and not sent.edited(i - 1):
            sent.delete(i - 1)


class ArticleParams(BaseModel):
    determiner: str = "a"
    deps: list[str] = ["nsubj", "nsubjpass", "ROOT"]
    mass_lexnames: list[str] = ["noun.substance", "noun.food", "noun.phenomenon"]
    quantifiers: list[str] = ["several", "many", "some", "few", "various", "numerous", "both", "all", "most",
                              "multiple", "lots", "plenty", "much", "more"]


@functools.lru_cache(maxsize=16384)
def _mass_noun(noun: str, lexnames: tuple[str, ...]) -> bool:
    from .. import resources

    wn = resources.wordnet()
    synsets = wn.synsets(noun, pos="n")
    return bool(synsets) and synsets[0].lexname() in lexnames


@action("add_article", stages=("normalize",), params=ArticleParams)
def add_article(sent, params: ArticleParams, ctx) -> None:
    """A bare singular count noun as subject gets an indefinite article ("man laying on bench" -> "a man
    ..."): SICK's sentences are full sentences; Table 2 (non-sentential descriptions)."""
    deps = set(params.deps)
    lexnames = tuple(params.mass_lexnames)
    quantifiers = set(params.quantifiers)
    for tok in sent.doc:
        if tok.dep_ not in deps:
            continue
        if not (tok.tag_ == "NN" and tok.pos_ == "NOUN"):
            # "Dog leaps ...": a capitalised first word the tagger took for a name
            if not (tok.i == 0 and tok.tag_ in ("NNP", "UH") and _common_word(tok.text)
                    and lemma_of(tok.text, "NOUN") == tok.lower_):
                continue
        if tok.dep_ != "ROOT" and tok.head.dep_ != "ROOT":
            continue
        start = tok.left_edge.i
        if tok.dep_ not in ("nsubj", "nsubjpass", "ROOT") and start != 0:
            continue
        if any(c.dep_ in ("det", "poss", "nummod", "predet", "quantmod") for c in tok.children) \
                or sent.any_edited(range(start, tok.i + 1)):
            continue
        if any(sent.doc[j].tag_ in ("DT", "PRP$", "CD", "POS", "NNS", "NNPS") or sent.doc[j].lower_ in quantifiers
               for j in range(start, tok.i)):
            continue
        if _mass_noun(tok.lemma_.lower(), lexnames):
            continue
        first = sent.doc[start]
        if start == 0 and first.tag_ in ("NNP", "UH") and _common_word(first.text):
            sent.replace(0, f"{params.determiner} {first.text.lower()}")  # "Dog ..." -> "a dog ..."
        else:
            sent.insert_before(start, params.determiner)


# --------------------------------------------------------------------------------------------------------
# rule 9: subordinate clauses -> coordinates


class SubordinateParams(BaseModel):
    lexicon: str = "subordinators"
    conjunction: str = "and"
    not_before: list[str] = ["if", "though", "well", "soon", "much"]


@action("subordinate_to_coordinate", stages=("normalize",), params=SubordinateParams)
def subordinate_to_coordinate(sent, params: SubordinateParams, ctx) -> None:
    """Subordinate clause -> coordinate ("a man sings while a woman dances" -> "... and a woman dances"); a
    clause written first is moved after the main clause. Table 2 (subordinates -> coordinates). Copies the
    clause's current text when moving it, so it runs after the rules that edit words."""
    marks = _lexicon_set(ctx, params.lexicon)
    not_before = set(params.not_before)
    doc = sent.doc
    for mark in doc:
        if mark.dep_ != "mark" or mark.lower_ not in marks or sent.edited(mark.i):
            continue
        if mark.i + 1 < len(doc) and doc[mark.i + 1].lower_ in not_before:
            continue
        clause = mark.head
        if clause.dep_ != "advcl" or clause.pos_ not in ("VERB", "AUX"):
            continue
        main = clause.head
        start, end = span(clause)
        if start != mark.i:
            continue
        if start > main.i:
            sent.replace(mark.i, params.conjunction)
            if mark.i > 0 and doc[mark.i - 1].text == "," and not sent.edited(mark.i - 1):
                sent.delete(mark.i - 1)
            continue
        # clause first: "while a man sings, a woman dances" -> "a woman dances and a man sings"
        words = [sent.text(i) for i in range(start + 1, end)]
        words = [w for w in words if w]
        if not words:
            continue
        first = doc[start + 1]
        if first.pos_ != "PROPN" and words[0][:1].isupper() and words[0] != "I":
            words[0] = words[0][:1].lower() + words[0][1:]
        sent.delete(*range(start, end))
        if end < len(doc) and doc[end].text == ",":
            sent.delete(end)
        last = len(doc) - 1
        while last > end and doc[last].is_punct:
            last -= 1
        sent.insert_after(last, f"{params.conjunction} {' '.join(words)}")


# --------------------------------------------------------------------------------------------------------
# final check


class PredicateParams(BaseModel):
    be_forms: list[str] = ["is", "are"]


@action("require_predicate", stages=("normalize",), params=PredicateParams)
def require_predicate(sent, params: PredicateParams, ctx) -> None:
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
        elif tok.pos_ in ("VERB", "AUX") and tok.tag_ in ("VBZ", "VBP") and tok.dep_ not in ("amod", "compound"):
            return
    raise Unnormalizable("no predicate after normalization")


class RunOnParams(BaseModel):
    be_forms: list[str] = ["is", "are"]
    links: list[str]


@action("drop_run_on", stages=("normalize",), params=RunOnParams)
def drop_run_on(sent, params: RunOnParams, ctx) -> None:
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


# --------------------------------------------------------------------------------------------------------
# capitalised common nouns


class LowercaseParams(BaseModel):
    pos: list[str] = ["NOUN", "PROPN", "ADJ"]


@action("lowercase_common_words", stages=("normalize",), params=LowercaseParams)
def lowercase_common_words(sent, params: LowercaseParams, ctx) -> None:
    """A capitalised common word inside the sentence is written in lower case ("A Child hits ..." -> "a
    child ..."), as in SICK, where only names keep capitals; words with a named-instance sense in WordNet
    ("Santa", "Boston") keep theirs. Marelli et al. 2014, Table 2 (named entities)."""
    pos = set(params.pos)
    for tok in sent.doc:
        if tok.i == 0 or tok.pos_ not in pos or not tok.is_title or sent.edited(tok.i):
            continue
        if _common_word(tok.text):
            sent.replace(tok.i, tok.text.lower())
