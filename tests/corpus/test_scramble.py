"""S4 (same words, scrambled) rules: Marelli et al. 2014, Table 3 (S4) on written sentences and real MSR-Video S1s.

An S4 candidate must have exactly the words of its S1, except that a/an follows the next word and is/are
(was/were) agrees with a subject of the other number.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from pipeline.corpus.expand import expand_doc
from pipeline.corpus.sentence import Sentence

BROKEN = re.compile(r"\b(not not|no no|a a|an an|the the|is is|are are|is are|are is)\b", re.I)
S4_RULES = ("swap-subject-object", "swap-nouns", "swap-subject-pobj", "swap-object-pobj", "swap-adjectives",
            "swap-noun-modifiers")
NEW_RULES = ("move-adjective", "move-clothing-phrase", "swap-clause-subjects", "move-size-or-age-adjective",
             "move-adjective-to-thing", "swap-subject-possessor", "move-size-to-child", "move-old-to-adult",
             "swap-clothing-phrases", "swap-verb-objects", "swap-coat-colours",
             "swap-numbers",  # issue 11
             "move-colour-to-setting", "move-size-to-setting")  # issue 11, round 9
_SAME = {"an": "a", "are": "is", "were": "was", "aren't": "isn't", "weren't": "wasn't"}


def bag(text: str) -> Counter:
    """Lower-cased words, with a/an and is/are (was/were) identified."""
    return Counter(_SAME.get(w, w) for w in re.findall(r"[\w'-]+", text.lower()))


def s4(nlp, rules, text):
    doc = nlp(text)
    return Sentence(doc).render(), [c for c in expand_doc(doc, rules) if c.family == "S4"]


def test_all_table3_s4_rules_loaded(ruleset):
    assert set(S4_RULES) <= {r.id for r in ruleset.stage("S4")}


@pytest.mark.parametrize("s1,expected,rule_id", [
    ("A man is chasing a dog", "A dog is chasing a man", "swap-subject-object"),
    ("The cat is biting the dog", "The dog is biting the cat", "swap-subject-object"),
    ("Two dogs are chasing a cat", "A cat is chasing two dogs", "swap-subject-object"),
    ("A man is chasing two dogs", "Two dogs are chasing a man", "swap-subject-object"),
    ("People are greeting a woman", "A woman is greeting people", "swap-subject-object"),  # people is plural
    ("The turtle is following the fish", "The fish is following the turtle", "swap-subject-object"),  # SICK
    ("The boy kicked the girls", "The girls kicked the boy", "swap-subject-object"),
    ("A black dog is chasing a white cat", "A white dog is chasing a black cat", "swap-adjectives"),
    ("A black dog is chasing a white cat", "A black cat is chasing a white dog", "swap-nouns"),
    ("The log is lying on the panda bear", "The panda bear is lying on the log", "swap-subject-pobj"),
    ("A soccer player is kicking a tennis ball", "A tennis player is kicking a soccer ball", "swap-noun-modifiers"),
    ("A cat is jumping at a dog", "A dog is jumping at a cat", "swap-subject-pobj"),
    ("A man is being kicked by a horse", "A horse is being kicked by a man", "swap-subject-pobj"),
    ("A woman is introducing a man to a child", "A woman is introducing a child to a man", "swap-object-pobj"),
    ("A young boy is walking a dog", "A boy is walking a young dog", "move-adjective"),
    ("A girl in a pink hat is talking to a boy", "A girl is talking to a boy in a pink hat",
     "move-clothing-phrase"),
    ("A soccer player in blue is chasing after the player in black and white",
     "A soccer player in black and white is chasing after the player in blue", "swap-clothing-phrases"),
    ("A boy in black shorts is kicking a white ball", "A boy in white shorts is kicking a black ball",
     "swap-adjectives"),  # "shorts" is a garment, not the adjective "short"
    ("A man is cutting an onion and peeling a potato", "A man is cutting a potato and peeling an onion",
     "swap-verb-objects"),
])
def test_s4_candidates(nlp, ruleset, s1, expected, rule_id):
    base, cands = s4(nlp, ruleset, s1)
    assert cands, f"no S4 candidate for {s1!r}"
    assert all(len(c.rules) == 1 and c.rules[0] in S4_RULES + NEW_RULES for c in cands)
    assert (expected, rule_id) in [(c.output, c.rules[0]) for c in cands]
    for c in cands:
        assert bag(c.output) == bag(base), (c.output, base)


@pytest.mark.parametrize("s1", [
    "A man and a woman are dancing",               # coordination swap keeps the meaning: not S4
    "A man and a woman are kissing each other",    # reciprocal object
    "A man is kissing her",                        # a pronoun would change case
    "Two dogs chase a cat",                        # agreement would change "chase"
    "A man is dancing",                            # nothing to swap
    "A man is standing in front of a house",       # "in front of" is not an argument
    "A man is feeding a mouse to a snake",         # -/-> "feeding a snake to a mouse": a receiver is not food
    "A man is eating a sandwich and drinking a coffee",  # -/-> "eating a coffee and drinking a sandwich"
    # issue 11: a thing in the doer's slot, fixed verb-object pairs, identical heads, symmetric swaps
    "A person is cutting a green pepper",          # -/-> "A green pepper is cutting a person"
    "A woman is taking a bath",                    # -/-> "A bath is taking a woman"
    "A man is playing a flute",                    # -/-> "A flute is playing a man"
    "A woman is riding a horse",                   # -/-> "A horse is riding a woman"
    "Someone is carrying a fish",                  # a fish does not carry
    "A potato is being sliced by a woman",         # -/-> "... by a potato"
    "People are collecting a parachute",           # -/-> "A parachute are collecting people"
    "Another man is carrying a man",               # same head: the swap changes nothing
    "A black dog and a white dog are running",     # coordinated: "a white dog and a black dog" is the same
    "A toddler is sitting on a wooden horse",      # a wooden horse is a thing
])
def test_s4_none(nlp, own_rules, s1):
    _, cands = s4(nlp, own_rules, s1)
    assert cands == [], [c.output for c in cands]


def test_msrvid_s4_same_words(nlp, own_rules, msrvid_s1s):
    """S4 on real video descriptions: same multiset of words (modulo a/an, is/are), nothing doubled."""
    wrong, broken = [], []
    for doc in nlp.pipe(msrvid_s1s, disable=["ner"]):
        base = Sentence(doc).render()
        for c in expand_doc(doc, own_rules, combine=False):
            if c.family != "S4":
                continue
            if bag(c.output) != bag(base):
                wrong.append((base, c.output))
            if BROKEN.search(c.output):
                broken.append((base, c.output))
    assert not wrong, wrong[:10]
    assert not broken, broken[:10]


# --------------------------------------------------------------------- issue 11: plausible S4 on real S1s

@pytest.fixture(scope="module")
def s4_rules(ruleset):
    import dataclasses

    return dataclasses.replace(ruleset, rules=[r for r in ruleset.rules if r.stage == "S4"])


@pytest.fixture(scope="module")
def flickr_s1s(shared_data) -> list[str]:
    """The first 200 distinct Flickr8K captions in the present progressive ("... is/are ...ing ..."), final
    period stripped and first letter upper-cased: S1-like sentences of the other source of the real build."""
    path = shared_data / "flickr8k" / "Flickr8k.token.txt"
    if not path.exists():
        pytest.skip(f"{path} not found")
    out: dict[str, None] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.split("\t")[-1].strip().rstrip(" .")
        if re.search(r"\b(is|are) \w+ing\b", text):
            out.setdefault(text[:1].upper() + text[1:])
        if len(out) == 200:
            break
    return list(out)


def subject_animate(doc, person_words: frozenset[str]) -> bool | None:
    """Issue 11's measure: the main clause's subject is animate when the first WordNet noun sense of its head
    is filed under noun.person or noun.animal, or the head is a person word; None when the sentence has no
    nominal subject (nothing to measure)."""
    from pipeline.common import resources

    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    subj = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None) if root is not None else None
    if subj is None or subj.pos_ not in ("NOUN", "PROPN", "PRON"):
        return None
    lemma = subj.lemma_.lower()
    if lemma in person_words or subj.lower_ in person_words:
        return True
    senses = resources.synsets(lemma, "n") or resources.synsets(subj.lower_, "n")
    return bool(senses) and senses[0].lexname() in ("noun.person", "noun.animal")


def test_real_s4_plausible(nlp, s4_rules, ruleset, msrvid_s1s, flickr_s1s):
    """S4 of 400 real S1s (MSR-Video and Flickr8K): at least 85 % of the subjects of the S4 sentences are
    people or animals (before issue 11: 21 %; SICK's own sentences 93 %), is/are agrees with a plainly singular
    or plural subject, and S4 stays a minority of S1s (SICK: 380 S4 sentences, Table 4; 7.1 % S1S4 pairs, Table
    5), yet is not gone."""
    person_words = ruleset.lexicon_set("person_nouns") | ruleset.lexicon_set("animate_nouns")
    texts = msrvid_s1s + flickr_s1s
    outputs, with_s4 = [], 0
    for doc in nlp.pipe(texts, disable=["ner"]):
        cands = [c for c in expand_doc(doc, s4_rules, combine=False) if c.family == "S4"]
        assert all(c.rules[0] in S4_RULES + NEW_RULES for c in cands)
        outputs.extend(c.output for c in cands)
        with_s4 += bool(cands)
    measured = [(o, subject_animate(d, person_words)) for o, d in zip(outputs, nlp.pipe(outputs, disable=["ner"]))]
    measured = [(o, a) for o, a in measured if a is not None]
    animate = sum(a for _, a in measured) / len(measured)
    assert animate >= 0.85, (f"{animate:.0%} animate", [o for o, a in measured if not a][:15])
    disagree = [o for o in outputs
                if re.search(r"^(A|An|One) \w+ are\b|^(Two|Three|Several|Many) \w+s is\b", o)]
    assert not disagree, disagree[:10]
    share = with_s4 / len(texts)
    assert 0.05 <= share <= 0.5, f"{share:.0%} of S1s have an S4 candidate"


def test_swap_never_makes_two_alike_nouns(nlp, own_rules):
    # q23 readers: "A brown dog is following a brown dog that is carrying a black plate" (two dogs alike read as one);
    # the swap of the two dogs' colours stays
    _, cands = s4(nlp, own_rules,
                  "A black dog is following a brown dog that is carrying a brown plate through a grassy field")
    outs = {c.output for c in cands}
    assert "A brown dog is following a black dog that is carrying a brown plate through a grassy field" in outs
    assert not any(t.startswith("A brown dog is following a brown dog") for t in outs)
