"""Word forms and small parse helpers shared by the rule actions.

Inflection uses lemminflect (verbs, nouns) and inflect (plurals, numbers in words, a/an); tags are the Penn
Treebank tags spaCy's English model assigns (``VBZ``, ``NNS``…).
"""

from __future__ import annotations

__all__ = ["GAME_SYNSETS", "NEGATIVE_WORDS", "PATH_PREPOSITIONS", "SUBJECT_DEPS", "THIRD_PERSON", "aux_be",
           "be_present", "children", "doc_words", "fixed_name_index", "fixed_name_tokens", "gerund", "in_hyphenated",
           "inflect_engine", "inflect_word", "irregular_plural", "known_non_verb", "is_game", "is_plural_np",
           "lemma_of", "matches_at", "number_words", "participle", "plural", "span", "subject_of", "third_person",
           "described_noun"]

import functools

from lemminflect import getAllLemmas, getInflection, getLemma

from pipeline.common import resources

SUBJECT_DEPS = ("nsubj", "nsubjpass", "expl")
# words that negate a clause (S3's negation rules; "some" cannot stand in their scope)
# third-person pronouns, which point back at a noun said before
THIRD_PERSON = frozenset({"he", "she", "it", "they", "him", "her", "them", "his", "its", "their", "hers", "theirs"})
# prepositions of a path ("running across the field"): a phrase with one tells how an act moves
PATH_PREPOSITIONS = frozenset({"through", "across", "into", "onto", "over", "past", "toward", "towards", "along"})
NEGATIVE_WORDS = ("not", "n't", "no", "never", "nobody", "nothing", "none", "neither", "nor", "nowhere")


@functools.lru_cache(maxsize=None)
def inflect_engine():
    """The one ``inflect`` engine (plurals, numbers in words, a/an).

    inflect 7 wraps its methods in typeguard's ``@typechecked``, which parses inflect's whole source again for
    each of them at import (about 5 s) and checks argument types on every call. Only str and int are passed
    here, so inflect is imported with the decorator as a no-op, as typeguard itself makes it under
    ``python -O``; the results are the same.
    """
    import sys

    if "inflect" not in sys.modules:
        import typeguard

        checked = typeguard.typechecked
        typeguard.typechecked = _unchecked
        try:
            import inflect
        finally:
            typeguard.typechecked = checked
    import inflect

    engine = inflect.engine()
    # American English, as SICK's captions: the "h" of "herb" is silent ("an herb", Merriam-Webster; MSR-Video
    # writes "chopping an herb", which inflect's British rule turned into "a herb", q22 readers)
    engine.defan("herbs?|herbal")
    return engine


def _unchecked(target=None, **_options):
    """typeguard's ``typechecked`` decorator, doing nothing (used with and without arguments)."""
    return target if target is not None else _unchecked


@functools.lru_cache(maxsize=65536)
def inflect_word(lemma: str, tag: str) -> str:
    """``lemma`` in the form of Penn tag ``tag`` (e.g. ``('ride', 'VBN') -> 'ridden'``); lemma when unknown.

    Multi-word lemmas ("play soccer") inflect their first word.
    """
    head, sep, rest = lemma.partition(" ")
    forms = getInflection(head, tag=tag)
    word = forms[0] if forms else head
    return word + sep + rest


@functools.lru_cache(maxsize=65536)
def lemma_of(word: str, upos: str) -> str:
    """Lemma of ``word`` for universal POS ``upos`` (lemminflect), lower-cased; the word when unknown."""
    lemmas = getLemma(word.lower(), upos=upos)
    return lemmas[0] if lemmas else word.lower()


def known_non_verb(word: str) -> bool:
    """Whether lemminflect's dictionary knows ``word`` only as another part of speech ("headfirst": ADJ, ADV);
    a word it does not know at all ("wakeboards") may still be a verb."""
    lemmas = getAllLemmas(word.lower())
    return bool(lemmas) and "VERB" not in lemmas and "AUX" not in lemmas


def gerund(lemma: str) -> str:
    """Present participle: ``'run' -> 'running'``."""
    return inflect_word(lemma, "VBG")


# participles lemminflect gives in a form an editor would change
_PARTICIPLES = {"bear": "borne", "light": "lit"}


def participle(lemma: str) -> str:
    """Past participle: ``'ride' -> 'ridden'``; "bear" (carry) gives "borne", not the "born" of birth (p6
    readers of issue 11: "A green flag is being born in a parade"); "light" gives "lit", lemminflect's second
    form (q34 readers: "is being lighted")."""
    return _PARTICIPLES.get(lemma) or inflect_word(lemma, "VBN")


def third_person(lemma: str) -> str:
    """Third person singular present: ``'play' -> 'plays'``."""
    return inflect_word(lemma, "VBZ")


@functools.lru_cache(maxsize=65536)
def plural(noun: str) -> str:
    """Plural of a singular noun (inflect)."""
    return inflect_engine().plural_noun(noun) or noun


def number_words(n: int) -> str:
    """Number written in letters: ``2 -> 'two'``, ``21 -> 'twenty-one'``."""
    return inflect_engine().number_to_words(n)


def doc_words(doc) -> frozenset[str]:
    """The lower-case words of ``doc``, computed once per doc (kept in ``doc.user_data``): rules that look for one
    word ask it first instead of walking every token (spaCy makes a new Token object for each)."""
    key = ("sick", "words")
    if key not in doc.user_data:
        doc.user_data[key] = frozenset(t.lower_ for t in doc)
    return doc.user_data[key]


def span(token) -> tuple[int, int]:
    """``(start, end)`` token indices of ``token``'s subtree (end exclusive)."""
    return token.left_edge.i, token.right_edge.i + 1


def children(token, *deps: str) -> list:
    """Children of ``token`` whose dependency label is one of ``deps``."""
    return [c for c in token.children if c.dep_ in deps]


def in_hyphenated(tok) -> bool:
    """Whether ``tok`` is part of a hyphenated word: a "-" token right before or after it ("half - pipe")."""
    doc = tok.doc
    return (tok.i > 0 and doc[tok.i - 1].text == "-") or (tok.i + 1 < len(doc) and doc[tok.i + 1].text == "-")


def matches_at(doc, start: int, words) -> bool:
    """Whether the lower-cased token texts from ``start`` are ``words`` (a sequence of lower-case words)."""
    return start + len(words) <= len(doc) and all(doc[start + k].lower_ == w for k, w in enumerate(words))


def fixed_name_index(names) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Fixed names (lower-case phrases of two or more words) filed by their first word, for
    :func:`fixed_name_tokens`; built once per rule set (``ruleset.derived``)."""
    index: dict[str, list[tuple[str, ...]]] = {}
    for name in names:
        words = tuple(name.split())
        index.setdefault(words[0], []).append(words)
    return {first: tuple(phrases) for first, phrases in index.items()}


def fixed_name_tokens(doc, index: dict[str, tuple[tuple[str, ...], ...]]) -> set[int]:
    """Indices of the tokens inside a fixed name ("little league", "fast food"; ``index``: the names by first
    word, :func:`fixed_name_index`), the last word also in the plural ("hot dogs"); a word-level rule must not
    touch them ("a little league player" -/-> "a small league player")."""
    out: set[int] = set()
    if not index:
        return out
    lower = [t.lower_ for t in doc]
    for i, first in enumerate(lower):
        for words in index.get(first, ()):
            end = i + len(words)
            if end > len(lower) or lower[i + 1:end - 1] != list(words[1:-1]):
                continue
            last = lower[end - 1]
            if last == words[-1] or lemma_of(last, "NOUN") == words[-1]:
                out.update(range(i, end))
    return out


def described_noun(tok):
    """The noun an adjective (or other modifier) ``tok`` says something about: its head when attributive ("a
    small dog"), the subject when predicative ("The dog is small"); None when neither is a noun."""
    if tok.dep_ in ("acomp", "attr"):
        subj = children(tok.head, *SUBJECT_DEPS)
        return subj[0] if subj and subj[0].pos_ == "NOUN" else None
    return tok.head if tok.head.pos_ == "NOUN" and tok.head is not tok else None


def subject_of(verb):
    """The subject token of ``verb`` (``nsubj``/``nsubjpass``/``expl``), following ``conj`` up to the first
    conjunct (in "A man sings and dances", the subject of "dances" is "man"); None when there is none."""
    tok = verb
    for _ in range(5):
        subj = children(tok, *SUBJECT_DEPS)
        if subj:
            return subj[0]
        if tok.dep_ in ("conj", "xcomp") and tok.head is not tok:
            tok = tok.head
            continue
        return None
    return None


@functools.lru_cache(maxsize=65536)
def irregular_plural(word: str) -> bool:
    """"mice", "teeth", "geese": a plural without -s (inflect's plural of lemminflect's lemma), which the tagger
    may call singular; "sheep" and "fish" are their own lemma and do not count."""
    lemma = lemma_of(word, "NOUN")
    return not word.endswith("s") and lemma != word and plural(lemma) == word


def _worn_or_owned(head, conj) -> bool:
    """A garment or body part the parse coordinated with the person or animal wearing or having it: "a woman
    with red hair and a black striped shirt" is one woman (p5 readers of the fourth part: "... are talking")."""
    if not resources.first_sense_animate(head.lemma_.lower()):
        return False
    return resources.under(conj.lemma_.lower(), ("clothing.n.01", "body_part.n.01"), 2)


def is_plural_np(head) -> bool:
    """Whether the noun phrase headed by ``head`` is grammatically plural.

    Plural when the head is tagged ``NNS``/``NNPS``, when it is coordinated ("a man and a woman"; not with a
    garment or body part the parse joined to its wearer, :func:`_worn_or_owned`), when it is
    "a couple of" before a plural ("a couple of dogs are"), or for the pronouns they/we/these/those.
    """
    if head.tag_ in ("NNS", "NNPS"):
        return True
    if head.lower_ == "couple" and any(c.dep_ == "prep" and c.lower_ == "of" and c.i == head.i + 1
                                       and any(o.dep_ == "pobj" and o.tag_ == "NNS" for o in c.children)
                                       for c in head.children):
        return True
    if any(c.dep_ == "conj" and c.pos_ in ("NOUN", "PROPN", "PRON") and not _worn_or_owned(head, c)
           for c in head.children):
        return True
    return head.lower_ in ("they", "we", "these", "those", "both")


def be_present(plural_subject: bool) -> str:
    """'are' for a plural subject, 'is' otherwise."""
    return "are" if plural_subject else "is"


def aux_be(verb):
    """The auxiliary form of *be* attached to ``verb`` (``aux``/``auxpass`` with lemma be), or None."""
    for c in verb.children:
        if c.dep_ in ("aux", "auxpass") and c.lemma_ == "be":
            return c
    return None


# a sense under one of these is a game or sport: "watching cricket", "watching football" stay bare
GAME_SYNSETS = ("game.n.01", "sport.n.01", "athletic_game.n.01")


@functools.lru_cache(maxsize=65536)
def is_game(word: str) -> bool:
    """Whether one of the first three WordNet noun senses of ``word`` is a game or sport ("cricket", "football",
    "baseball"): such a noun names the activity and takes no article ("Baseball is being played")."""
    for syn in resources.synsets(word, "n")[:3]:
        if any(h.name() in GAME_SYNSETS for path in syn.hypernym_paths() for h in path):
            return True
    return False
