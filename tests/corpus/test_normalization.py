"""The whole normalization chain (all ``normalize`` rules in file order, then rendering) on caption-style
sentences, and its behaviour on real Flickr8k captions (Marelli et al. 2014, section 3.1, Table 2)."""

from __future__ import annotations

import random
import re

import pytest

from pipeline.corpus.actions.normalize_words import _keeps_possessive
from pipeline.corpus.normalize import normalize_doc

# (S0 caption in the style of Flickr8k / MSR-Video, expected S1)
CHAIN = [
    ("a cat sleeps on the warm windowsill .", "A cat is sleeping on the warm windowsill"),
    # a second participle after the object of the one the fragment rule made the predicate (seed-9 readers)
    ("A man smoking a cigarette talking to a lady who is sitting on steps .",
     "A man is smoking a cigarette and is talking to a lady who is sitting on steps"),
    # the small model reads "striped" as a verb: the compound modifier is hyphenated before the tense rules read it
    ("A tiger striped dog stands in a weird position and looks to the side .",
     "A tiger-striped dog is standing in a weird position and looking to the side"),
    ("Three horses ran across the meadow", "Three horses are running across the meadow"),
    ("A boy laughs and claps", "A boy is laughing and clapping"),
    ("A woman tries to open a jar", "A woman is opening a jar"),
    ("A girl is trying to reach the cookie jar", "A girl is reaching the cookie jar"),
    # complex-verb deletes the participle root "trying"; non-sentential must still add 'is'
    ("Old cat trying to catch a mouse", "An old cat is catching a mouse"),
    ("A man can juggle three balls", "A man is juggling three balls"),
    ("The chef has to chop an onion", "The chef is chopping an onion"),
    ("The boy will kick the ball", "The boy is kicking the ball"),
    ("A man is going to paint the fence", "A man is painting the fence"),
    ("A woman is picking the box up", "A woman is lifting the box"),
    ("A toddler holds his cup up", "A toddler is holding up the cup"),
    ("Mary is riding a horse", "A person is riding a horse"),
    ("A man is playing the guitar at the moment", "A man is playing the guitar"),
    ("3 puppies are sleeping in a basket", "Three puppies are sleeping in a basket"),
    ("A girl sings while a boy plays the piano", "A girl is singing and a boy is playing the piano"),
    ("A kite in the sky .", "A kite is in the sky"),
    ("Two children building a sandcastle on the beach .", "Two children are building a sandcastle on the beach"),
    ("A woman in a green dress walking her dog", "A woman in a green dress is walking her dog"),
    ("A dog that is chasing a ball", "A dog is chasing a ball"),
    ("The kids were swimming in the lake", "The kids are swimming in the lake"),
    ("The women start dancing", "The women are dancing"),
    ("A man has painted a wall", "A man is painting a wall"),
    ("A woman does not eat the cake", "A woman is not eating the cake"),
    ("A man attempts to lift a heavy box and fails", "A man is lifting a heavy box and failing"),
    ("A girl has a red balloon", "A girl has a red balloon"),
    ("Dog runs on the beach", "A dog is running on the beach"),
    ("A group of people stand in front of a building", "A group of people is standing in front of a building"),
    ("A boy wearing a blue hat jumps into the pool", "A boy wearing a blue hat is jumping into the pool"),
    ("A man in a red shirt on a bike", "A man in a red shirt is on a bike"),
    ("A close-up of a dog chewing a bone", "A dog is chewing a bone"),
    # issue 11: the source's typing errors are repaired, fragments parsed right
    ("A dog droppped a ball on the escelator .", "A dog is dropping a ball on the escalator"),
    ("A dog catches and orange frisbee .", "A dog is catching an orange frisbee"),
    ("Two girls play basket ball in a snow drift .", "Two girls are playing basketball in a snowdrift"),
    ("A man rock climbs with a city in the background .", "A man is rock climbing with a city in the background"),
    ("A woman in a purple dress plays with her hair while waiting in a lobby .",
     "A woman in a purple dress is playing with her hair while waiting in a lobby"),
    ("A couple of men in hats posing for a picture .", "A couple of men in hats are posing for a picture"),
    ("A man is squatting in brush to take a photograph .", "A man is squatting in brush and is taking a photograph"),
    ("A dog runs on the sand , holding a stick .", "A dog is running on the sand and is holding a stick"),
    ("A female applies something to he hair with her hands.",
     "A woman is applying something to her hair with her hands"),
    # issue 11 round 11 (r9 verdicts): compounds, initialisms, brands, deixis, articles on real captions
    ("A little boy in a white long sleeved t-shirt jumps on a trampoline .",
     "A little boy in a white long-sleeved t-shirt is jumping on a trampoline"),
    ("A black horse and its rider are clearing a 3 rung high jump in a competition .",
     "A black horse and its rider are clearing a three-rung high jump in a competition"),
    ("two dogs doing a tug of war on a black object", "Two dogs are doing a tug-of-war on a black object"),
    ("A man is doing push ups.", "A man is doing push-ups"),
    ("A person on a bmx bike .", "A person is on a BMX bike"),
    ("A man poured ric-a-roni into a pan.", "A man is pouring rice into a pan"),
    ("This man is smoking outside .", "A man is smoking outside"),
    ("Black and white dog leaping for Frisbee .", "A black and white dog is leaping for a Frisbee"),
    ("A person is combing a cat hair.", "A person is combing a cat's hair"),
    ("A baby in a baby seat wearing a red beanie .", "A baby in a baby seat is wearing a red beanie"),
    ("A crowd of people sit in bleachers , and some hold American flags .",
     "A crowd of people is sitting in bleachers, and some are holding American flags"),
    ("Smeone is laying down", "Someone is lying down"),
    ("A person in a green jacket and black pants lifts a rock .",
     "A person in a green jacket and black pants is lifting a rock"),
    ("A dog and a cat play in the yard", "A dog and a cat are playing in the yard"),
    ("A cat is opening a drawer and climbs inside.", "A cat is opening a drawer and climbing inside"),
    ("A man is holding a bat and balls", "A man is holding a bat and balls"),
    ("The lady puts the noodles in the hot water to cook .", "The lady is putting the noodles in the hot water"
     " to cook"),
    # issue 11 round 2: after "wearing X" the later verb is the predicate, whatever the tagger made of it
    ("Girl wearing black headscarf walks in desert .", "A girl wearing black headscarf is walking in desert"),
    ("a man wearing a white shirt and blue jeans falling down on a skateboarding ramp .",
     "A man wearing a white shirt and blue jeans is falling down on a skateboarding ramp"),
    ("A girl wearing a yellow shirt and sunglasses smiles .",
     "A girl wearing a yellow shirt and sunglasses is smiling"),
    ("Twin toddlers dressed alike being pushed in car strollers .",
     "Twin toddlers dressed alike are being pushed in car strollers"),
    ("A person is slicing a garlic into pieces.", "A person is slicing garlic into pieces"),
    ("The cat fished a straw out ouf his water dish.", "The cat is fishing a straw out of the water dish"),
    ("a man holding up a picture of two people suffering", "A man is holding up a picture of two people suffering"),
    ("Three children do jumping jacks while a man looks on .",
     "Three children are doing jumping jacks and a man is looking on"),
    # round 12 (r11 verdicts): the chain on real captions from Flickr 8K and MSR-Video
    ("Panda's play on a swing.", "Pandas are playing on a swing"),
    ("A smaller white dog and large shepherd playing near two people .",
     "A smaller white dog and a large shepherd are playing near two people"),
    ("A man is shaking another mans hand.", "A man is shaking another man's hand"),
    ("A man is turning foods.", "A man is turning food"),
    ("A woman is adding oil on fishes.", "A woman is adding oil to fish"),
    ("Someone is playing a gameboy.", "Someone is playing a video game"),  # q28 readers: no brand
    ("Two women wearing bare-back dresses look over their shoulder for a picture .",
     "Two women wearing backless dresses are looking over their shoulders for a picture"),
    ("A race dog with the number seven runs fast on a dog track .",
     "A race dog with the number seven is running fast on a dog track"),
    ("A bike rider sits and watches as a fellow rider does a jump off a ramp .",
     "A bike rider is sitting and watching as a fellow rider is doing a jump off a ramp"),
    ("A white bird with its wings lifted up hovers over the water .",
     "A white bird with its wings lifted up is hovering over the water"),
    ("A woman with four children are eating ice cream cones .",
     "A woman with four children is eating ice cream cones"),
    ("A women slicing lemons.", "A woman is slicing lemons"),
    ("A man and a woman is kissing each other.", "A man and a woman are kissing each other"),
    ("Two women wearing hats get their picture taken in a subway .",
     "Two women wearing hats are getting their picture taken in a subway"),
    ("A man in an orange hat starring at something .", "A man in an orange hat is staring at something"),
    # r13 readers' kinds, whole chain
    ("A video clip of Rihanna leaving a taxi.", "A person is leaving a taxi"),
    ("Two girls play in the beach.", "Two girls are playing on the beach"),
    ("A male airborne on a bicycle .", "A man is airborne on a bicycle"),
    ("A man in dark clothes appears to be climbing rocks .", "A man in dark clothes is climbing rocks"),
    ("a little league player points to another player .", "A youth league player is pointing to another player"),
    ("A girl in a purple shirt and a pink snoopy hat is laughing .",
     "A girl in a purple shirt and a pink cartoon hat is laughing"),
    ("A man takes a piece of pizza out of a pizza box and puts it on the lid after he closes the box.",
     "A man is taking a piece of pizza out of a pizza box and putting it on the lid after closing the box"),
    ("Two small boys dressed in tuxedos sitting on a red carpeted floor .",
     "Two small boys dressed in tuxedos are sitting on a red-carpeted floor"),  # q41: a hyphen
    ("Seven people are posing over a structure that extends over a watery area and ocean .",
     "Seven people are posing over a structure that extends over a watery area and the ocean"),
    # q19/q20 readers, whole chain: a number spelled out before a compound modifier, a capitalised word respelled
    ("A young child is riding a 3 wheeled scooter down the sidewalk .",
     "A young child is riding a three-wheeled scooter down the sidewalk"),
    ("The doberman pincer is leaping through the water .", "The Doberman pinscher is leaping through the water"),
    ("Three men climbing on each other wearing yellow and brown shirts .",
     "Three men are climbing on each other and are wearing yellow and brown shirts"),  # not "and is wearing"
]

DROPPED = [
    ("A dog", "non-sentential"),
    ("Two people .", "non-sentential"),
    ("I am riding my bike", "drop-first-second-person"),
    ("Is the dog running ?", "drop-question"),
    ("A dog is running . A cat is sleeping .", "drop-multiple-sentences"),
    ("A woman is holding onto a baby wearing who is wearing sunglasses .", "drop-repeated-verb"),
    # q40 readers: the stripes worn are no verb ("... wearing yellow and black is striping"); a scene, dropped
    ("A greyhound race with the lead dog wearing yellow and black stripes and the number 8 .", "non-sentential"),
]

POSSESSIVES = {"my", "your", "his", "its", "our", "their"}
PREDICATE = re.compile(r"\b(is|are)\b")  # present continuous; otherwise a stative verb must be there


@pytest.fixture(scope="module")
def rules(ruleset):
    return ruleset.stage("normalize")


@pytest.mark.parametrize("text,expected", CHAIN, ids=[t for t, _ in CHAIN])
def test_chain(text, expected, nlp, rules, ruleset):
    result = normalize_doc(nlp(text), rules, ruleset)
    assert result.status != "dropped", result.reason
    assert result.output == expected


@pytest.mark.parametrize("text,rule_id", DROPPED, ids=[t for t, _ in DROPPED])
def test_chain_drops(text, rule_id, nlp, rules, ruleset):
    result = normalize_doc(nlp(text), rules, ruleset)
    assert result.status == "dropped" and result.output == ""
    assert result.reason.startswith(rule_id + ":")


def _stative_present(ruleset) -> set[str]:
    from pipeline.corpus.wordforms import third_person

    lemmas = ruleset.lexicon("stative_verbs")
    return set(lemmas) | {third_person(v) for v in lemmas}


def test_real_flickr_captions(shared_data, nlp, rules, ruleset):
    """~300 real captions: most are kept, and every kept one is a SICK-style sentence."""
    path = shared_data / "flickr8k" / "Flickr8k.token.txt"
    if not path.exists():
        pytest.skip(f"{path} not found")
    captions = [line.split("\t", 1)[1].strip() for line in path.read_text(encoding="utf-8").splitlines()
                if "\t" in line]
    sample = random.Random(2014).sample(captions, 300)
    results = [normalize_doc(doc, rules, ruleset) for doc in nlp.pipe(sample, batch_size=128)]
    kept = [r for r in results if r.status != "dropped"]
    assert len(kept) >= 0.8 * len(results), f"kept only {len(kept)}/{len(results)}"
    stative = _stative_present(ruleset)
    for r in kept:
        assert r.output and not r.output.endswith("."), (r.input, r.output)
    no_predicate = [(r.input, r.output) for r in kept
                    if not (PREDICATE.search(r.output) or stative & set(r.output.lower().split()))]
    assert not no_predicate, f"{len(no_predicate)}/{len(kept)} kept without is/are or a stative verb: {no_predicate}"
    # no possessive pronoun left but where the rule keeps it: before a body part, as in SICK, a plural, a person
    # or an animal, clothing, after "with" ("her" is checked on a parse, it may be an object pronoun)
    keep = next(r for r in ruleset.rules if r.id == "possessive-pronoun").parsed_params
    for r, doc in zip(kept, nlp.pipe([r.output for r in kept], batch_size=128)):
        bad = [t.text for t in doc if (t.tag_ == "PRP$" or t.lower_ in POSSESSIVES)
               and not (t.head.i > t.i and _keeps_possessive(t.head, keep))]
        assert not bad, f"possessive pronoun in {r.output!r} (from {r.input!r})"


def test_actions_do_not_parse(monkeypatch, nlp, rules, ruleset):
    """Normalization works on the one parse it is given: no action calls the spaCy pipeline again."""
    docs = list(nlp.pipe(["A man sings while a woman dances", "Two dogs playing in the snow .",
                          "John has to cut the 2 onions", "A man is picking the ball up"]))
    from pipeline.common import resources

    def forbidden(*args, **kwargs):  # pragma: no cover - only called on failure
        raise AssertionError("an action called resources.nlp()")

    monkeypatch.setattr(resources, "nlp", forbidden)
    for doc in docs:
        normalize_doc(doc, rules, ruleset)


def test_spelling_is_conservative():
    """A correction needs one clearly most frequent word at the smallest distance; known words stay."""
    from pipeline.corpus.actions.normalize_spelling import best_correction, closed_compound

    assert best_correction("brwon") == "brown"
    assert best_correction("retreiver") == "retriever"
    assert best_correction("conoe") is None  # cone and canoe are both close and frequent
    assert best_correction("greating") is None  # creating, treating, greeting, grating
    assert best_correction("rollerblader") is None  # WordNet knows it
    assert best_correction("parasailing") is None
    assert best_correction("shappens", transitive=True) == "sharpens"  # "happen" takes no object
    assert closed_compound("basket", "ball") == "basketball"
    assert closed_compound("tennis", "ball") is None and closed_compound("fire", "fighter") is None


def test_spelling_on_sick_changes_only_typos(shared_data, nlp, ruleset):
    """SICK's own sentences are clean: the spelling rule may change only the typos among its rare words."""
    from pipeline.corpus.normalize import apply_rule
    from pipeline.corpus.sentence import Sentence

    path = shared_data / "sick2014" / "SICK_train.txt"
    if not path.exists():
        pytest.skip(f"{path} not found")
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    texts = sorted({t for r in rows for t in r[1:3]})
    rule = next(r for r in ruleset.stage("normalize") if r.id == "spelling")
    changed = {}
    for doc in nlp.pipe(texts, batch_size=256):
        sent = Sentence(doc)
        if apply_rule(rule, sent, ruleset):
            changed[doc.text] = sent.render()
    assert len(changed) <= 2, changed
