"""S3 (contrasting meaning) rules: Marelli et al. 2014, Table 3 (S3) on written sentences and real MSR-Video S1s."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from pipeline.corpus.actions.contrast import WordnetAntonymParams, _wordnet_antonyms
from pipeline.corpus.expand import expand_doc, rule_outputs
from pipeline.corpus.sentence import Sentence

S3_RULES = ("negation-insert", "negation-remove", "determiner-opposite", "nobody-subject", "there-is-no",
            "antonym-wordnet", "opposite-lexicon")
BROKEN = re.compile(r"\b(not not|no no|a a|an an|the the|is is|are are|is are|are is|not no|no not|"
                    r"does not not|there is there|there are there)\b", re.I)


def s3(nlp, rules, text):
    return [c for c in expand_doc(nlp(text), rules, combine=False) if c.family == "S3"]


def outputs_of(rule_id, nlp, ruleset, text):
    return rule_outputs(ruleset.by_id(rule_id), Sentence(nlp(text)), ruleset)


def test_all_table3_s3_rules_loaded(ruleset):
    ids = {r.id for r in ruleset.stage("S3")}
    assert set(S3_RULES) <= ids


@pytest.mark.parametrize("name", ["determiner_opposites", "negative_subjects", "opposites"])
def test_lexicon_words_are_strings(ruleset, name):
    """YAML 1.1 reads bare no/off/on as booleans: every word of these lexicons must stay a string."""

    def walk(x, key=None):
        if isinstance(x, dict):
            for k, v in x.items():
                assert isinstance(k, str), (name, k)
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif key != "transitive":
            assert isinstance(x, str), (name, key, x)

    walk(ruleset.lexicon(name))


@pytest.mark.parametrize("s1,expected,rule_id", [
    ("A man is riding a bike", "A man is not riding a bike", "negation-insert"),
    # r12: a progressive subject is left to there-is-no (SICK's house style); a passive keeps "No"
    ("An onion is being cut by a man", "No onion is being cut by a man", "determiner-opposite"),
    ("A man is riding a bike", "There is no man riding a bike", "there-is-no"),
    ("A man is riding a bike", "A woman is riding a bike", "opposite-lexicon"),
    ("The dogs are wet", "No dogs are wet", "determiner-opposite"),
    ("The skier is descending the hill and wearing a silver helmet",
     "The skier is not descending the hill and is not wearing a silver helmet", "negation-insert"),
    ("Two dogs are playing", "There are no dogs playing", "there-is-no"),
    ("Two dogs are playing", "There is no dog playing", "there-is-no"),
    ("A man is riding a horse", "Nobody is riding a horse", "nobody-subject"),
    ("A girl in a uniform is lowering her arm", "A girl in a uniform is raising her arm", "opposite-lexicon"),
    ("A group of people are marching", "There is no group of people marching", "there-is-no"),
    ("No man is running", "Every man is running", "determiner-opposite"),
    ("No dogs are running", "All dogs are running", "determiner-opposite"),
    ("There is no man standing in the background", "There is a man standing in the background",
     "negation-remove"),
    ("A man is not riding a bike", "A man is riding a bike", "negation-remove"),
    ("A man can't ride a bike", "A man can ride a bike", "negation-remove"),
    ("A man doesn't ride a bike", "A man rides a bike", "negation-remove"),
    ("There is a dog", "There is no dog", "negation-insert"),
    ("There are two dogs playing in the park", "There are no dogs playing in the park", "negation-insert"),
    ("A woman thinly slices an onion", "A woman does not thinly slice an onion", "negation-insert"),
    ("A boy sings and plays a guitar", "A boy does not sing and play a guitar", "negation-insert"),
    ("The cat played with a ball", "The cat did not play with a ball", "negation-insert"),
    ("A plane is taking off", "A plane is landing", "opposite-lexicon"),
    ("A woman is taking off her hat", "A woman is putting on her hat", "opposite-lexicon"),
    ("A woman is tapping her fingers on a table", "A man is tapping his fingers on a table", "opposite-lexicon"),
    ("A man is sitting down", "A man is standing up", "opposite-lexicon"),
    ("A man is standing in front of a house", "A man is standing behind a house", "opposite-lexicon"),
    ("The kids are playing inside", "The kids are playing outside", "opposite-lexicon"),
    ("A tall man is walking", "A short man is walking", "antonym-wordnet"),
    ("A huge dog is barking", "A small dog is barking", "antonym-wordnet"),
    ("Someone is drawing", "Nobody is drawing", "determiner-opposite"),
    ("Someone is drawing", "There is no one drawing", "there-is-no"),
    ("Many people are dancing", "Few people are dancing", "determiner-opposite"),
])
def test_s3_candidates(nlp, ruleset, s1, expected, rule_id):
    cands = [c for c in expand_doc(nlp(s1), ruleset) if c.family == "S3"]
    assert cands, f"no S3 candidate for {s1!r}"
    assert all(c.rules[0] in S3_RULES for c in cands)  # the S3 rule comes first, an S2 rule may follow
    assert expected in outputs_of(rule_id, nlp, ruleset, s1)


@pytest.mark.parametrize("s1,bad,rule_id", [
    ("A man is not riding a bike", "A man is not not riding a bike", "negation-insert"),
    ("A man isn't riding a bike", "No man isn't riding a bike", "determiner-opposite"),
    ("There is no man standing", "There is every man standing", "determiner-opposite"),
    ("A man and a woman are dancing", "A woman and a woman are dancing", "opposite-lexicon"),
    ("A man and a woman are dancing", "There are no man and a woman dancing", "there-is-no"),
    ("A woman is taking off her hat", "A woman is landing her hat", "opposite-lexicon"),
    ("A boy is picking up a ball", "A boy is picking down a ball", "opposite-lexicon"),
    ("A man is cutting garlic into pieces", "A man is cutting garlic out of pieces", "opposite-lexicon"),
    ("A man and a woman are kissing each other", "A man and a woman are kissing each same", "antonym-wordnet"),
    ("The man erased what the other man had", "The man erased what no other man had", "determiner-opposite"),
    ("Some is grating onion into water", "No is grating onion into water", "determiner-opposite"),
    # issue 11 round 2
    ("A couple of policewomen are singing", "No couple of policewomen are singing", "determiner-opposite"),
    ("A couple of policewomen are singing", "There is no couple of policewomen singing", "there-is-no"),
    ("A dark brown dog is running on a beach, a person following him",
     "No dark brown dog is running on a beach, a person following him", "determiner-opposite"),
    ("A dog is running on a beach, a man following him", "There is no dog running on a beach, a man following him",
     "there-is-no"),
    ("A bigger dog is putting the head on a smaller dog", "A bigger dog is putting the head on a larger dog",
     "opposite-lexicon"),
    ("A bigger dog is putting the head on a smaller dog", "A smaller dog is putting the head on a smaller dog",
     "opposite-lexicon"),
    ("Various people are on a basketball court", "Same people are on a basketball court", "antonym-wordnet"),
    ("Different people are on a basketball court", "Same people are on a basketball court", "opposite-lexicon"),
    ("A bear is catching a fish in a river", "A bear is throwing a fish in a river", "opposite-lexicon"),
    ("A person is caught in the legs", "A person is thrown in the legs", "opposite-lexicon"),
    # r6 readers: "other" refers back to a noun of the same kind
    ("The lady is measuring the other woman's ankle", "The lady is measuring the other man's ankle",
     "opposite-lexicon"),
    ("The lady is measuring the other woman's ankle", "The man is measuring the other woman's ankle",
     "opposite-lexicon"),
    # r9 readers and seed-1 build: "large" on a person, a colour of a colour list, "bright hair"
    ("A small boy is playing with a dog", "A large boy is playing with a dog", "opposite-lexicon"),
    ("A small boy is playing with a dog", "A large boy is playing with a dog", "antonym-wordnet"),
    ("A dark brown dog is chewing on a tire", "A light brown dog is chewing on a tire", "antonym-wordnet"),
    ("A dark brown dog is chewing on a tire", "A bright brown dog is chewing on a tire", "opposite-lexicon"),
    ("A lady with dark hair is dancing", "A lady with bright hair is dancing", "opposite-lexicon"),
    ("A woman is abusing her child", "A woman is abusing her adult", "opposite-lexicon"),
    ("A child is raising its face towards a window", "An adult is raising its face towards a window",
     "opposite-lexicon"),
    ("Women and children are playing on a paved road", "Women and adults are playing on a paved road",
     "opposite-lexicon"),
    # r12 readers: "No person is sky surfing" (SICK writes "There is no ..."), negation scope with a shared "is",
    # "any" on a singular after a preposition, "a dry boy", "empty of", "outside a room", "the top surface"
    ("A man is riding a bike", "No man is riding a bike", "determiner-opposite"),
    ("Two dogs are running", "No dogs are running", "determiner-opposite"),
    ("The skier is descending the hill and wearing a silver helmet",
     "The skier is not descending the hill and wearing a silver helmet", "negation-insert"),
    ("Two brown dogs are wrestling on some wasteland", "Two brown dogs are not wrestling on any wasteland",
     "negation-insert"),
    ("A wet boy carrying goggles is running", "A dry boy carrying goggles is running", "antonym-wordnet"),
    ("Two men are watching a ball pit full of colored balls", "Two men are watching a ball pit empty of colored balls",
     "antonym-wordnet"),
    ("Two men are watching a ball pit full of colored balls", "Two men are watching a ball pit empty of colored balls",
     "opposite-lexicon"),
    ("A child is jumping off a stool inside a room", "A child is jumping off a stool outside a room",
     "opposite-lexicon"),
    ("A young man is climbing the bottom surface of a rock", "A young man is climbing the top surface of a rock",
     "antonym-wordnet"),
    # r12, seed-1 build: a singular beside "same", "pouring ... off a plate", "holding an adult"
    ("Six hockey players of the same team are skating", "There is no hockey player of the same team skating",
     "there-is-no"),
    ("A man is pouring pasta onto a plate", "A man is pouring pasta off a plate", "opposite-lexicon"),
    ("A car is hitting white median bumpers", "A car is hitting white abnormal bumpers", "antonym-wordnet"),
    ("A male surfer is on his stomach and riding a wave", "A male surfer is not on his stomach and riding a wave",
     "negation-insert"),
    ("A blond child is crawling on playground equipment", "A blond adult is crawling on playground equipment",
     "opposite-lexicon"),
    ("A woman holding a child is walking through water", "A woman holding an adult is walking through water",
     "opposite-lexicon"),
    # q7-q8 readers: no sitting dancer, no frown "very big", no paddle held up low, no running toward a chaser
    ("A woman is dancing to music standing near a bonfire", "A woman is dancing to music sitting near a bonfire",
     "opposite-lexicon"),
    ("A person is smiling very big at the camera", "A person is frowning very big at the camera", "opposite-lexicon"),
    ("A man in a kayak is holding up the paddle high", "A man in a kayak is holding up the paddle low",
     "opposite-lexicon"),
    ("A man is running away from two men chasing him", "A man is running toward two men chasing him",
     "opposite-lexicon"),
    # q9 readers: held above one's head, picked up from a place, run down a bridge
    ("A baby is holding a controller above his head", "A baby is holding a controller below his head",
     "opposite-lexicon"),
    ("A brown dog is picking up a twig from a stone surface", "A brown dog is putting down a twig from a stone surface",
     "opposite-lexicon"),
    ("Two children are running down a bridge across a lake", "Two children are running up a bridge across a lake",
     "opposite-lexicon"),
    # q10 readers: "not A or not B" allows one of them; a subject with "including" reads badly after "There are no";
    # a perched bird stands or sits alike
    ("A black and white dog is playing or fighting with a brown dog",
     "A black and white dog is not playing or is not fighting with a brown dog", "negation-insert"),
    ("Several people including a child and a clown are walking towards a snowy sidewalk",
     "There are no people including a child and a clown walking towards a snowy sidewalk", "there-is-no"),
    ("A big bird is standing on a table", "A big bird is sitting on a table", "opposite-lexicon"),
    # q11 readers: both ends, a rope pulled, a box cut open, a snowbank outdoors, a stick bitten onto
    ("A tan dog is jumping over a hurdle that is on fire on the ends",
     "A tan dog is jumping over a hurdle that is on fire on the beginnings", "opposite-lexicon"),
    ("A black dog is pulling on a green rope in the grass", "A black dog is pushing on a green rope in the grass",
     "opposite-lexicon"),
    ("A man is opening a box with a knife", "A man is closing a box with a knife", "opposite-lexicon"),
    ("A brown dog is sitting outside next to a large snowbank",
     "A brown dog is sitting inside next to a large snowbank", "opposite-lexicon"),
    ("A dog is swimming across the water and is biting onto a stick",
     "A dog is swimming across the water and is biting off a stick", "opposite-lexicon"),
    # q12 readers: a place is crowded, not full; "very little" is an amount; dried noodles get wet anyway
    ("Two black dogs are trotting through an empty public area",
     "Two black dogs are trotting through a full public area", "opposite-lexicon"),
    ("A man wearing very little clothing is doing a jump", "A man wearing very big clothing is doing a jump",
     "opposite-lexicon"),
    ("The lady is putting the dried noodles in the hot water", "The lady is putting the wet noodles in the hot water",
     "antonym-wordnet"),
    # q13 readers: a noun read as a verb, a counting adjective left on a singular, a glider sinking
    ("A woman is chopping some shiso leaves", "A woman is chopping some shiso arrives", "opposite-lexicon"),
    ("Various members of a family are gathering around a table",
     "There is no various member of a family gathering around a table", "there-is-no"),
    ("Two people are floating through the air on a glider", "Two people are sinking through the air on a glider",
     "opposite-lexicon"),
    # q14 readers: "alive" after its noun only, towed behind a boat, a wall has no inside
    ("A rooster is pecking at a dead mouse", "A rooster is pecking at an alive mouse", "opposite-lexicon"),
    # q16 readers: "no many", airborne onto a hilltop, climbing outside a drawer
    ("There are many different-colored balls", "There are no many different-colored balls", "negation-insert"),
    ("Various people are eating at red tables", "There are no various people eating at red tables", "there-is-no"),
    ("A person is riding a bike off the top of a hill and is airborne",
     "A person is riding a bike onto the top of a hill and is airborne", "opposite-lexicon"),
    ("The cat is opening a drawer and climbing inside", "The cat is opening a drawer and climbing outside",
     "opposite-lexicon"),
    # q17 readers: sunglasses, a sitting horse, a handstand
    ("The head of a child with dark glasses is in focus", "The head of a child with bright glasses is in focus",
     "opposite-lexicon"),
    ("A horse is standing", "A horse is sitting", "opposite-lexicon"),
    ("A young person is skateboarding on a ramp and is standing on one arm",
     "A young person is skateboarding on a ramp and is sitting on one arm", "opposite-lexicon"),
    ("The man is being pulled behind a boat", "The man is being pulled in front of a boat", "opposite-lexicon"),
    ("A person is dressed in red and black outside a cracked wall",
     "A person is dressed in red and black inside a cracked wall", "opposite-lexicon"),
    # q28 readers: one dog does not run side by side; a second "not" before "then" reads badly
    ("Two yellow dogs are running side by side down a road",
     "There is no yellow dog running side by side down a road", "there-is-no"),
    ("A big cat is opening a plastic drawer with his paws and then hopping inside",
     "A big cat is not opening a plastic drawer with his paws and is not then hopping inside", "negation-insert"),
    # q31 readers: "women models" has no singular "women model"
    ("Women models are walking down a catwalk", "There is no women model walking down a catwalk", "there-is-no"),
    # q32 readers: a ball coming at the catcher is not thrown; calm water is rough, not angry
    ("The little boy in red trunks is catching a soccer ball that is coming towards him",
     "The little boy in red trunks is throwing a soccer ball that is coming towards him", "opposite-lexicon"),
    ("The man is dropping from a swinging rope into a calm river",
     "The man is dropping from a swinging rope into an angry river", "opposite-lexicon"),
    # q33 readers: up and down the court are one way
    ("A boy is dribbling the ball down the court", "A boy is dribbling the ball up the court", "opposite-lexicon"),
    # q35 readers: a boat sits or stands by a dock alike; a negation may deny only the purpose
    ("A blue and white sailboat is sitting by a dock", "A blue and white sailboat is standing by a dock",
     "opposite-lexicon"),
    ("The girl is sitting on the couch to crochet", "The girl is not sitting on the couch to crochet",
     "negation-insert"),
    # q36 readers: one lands on water, surfs down a dune only, grass is not "live", "not just" says more
    ("The white swan is taking off from the water", "The white swan is landing from the water", "opposite-lexicon"),
    ("A blonde girl is surfing down a sandy hill", "A blonde girl is surfing up a sandy hill", "opposite-lexicon"),
    ("Two dogs are running around on dead grass", "Two dogs are running around on live grass", "antonym-wordnet"),
    ("A black dog is just running down a ramp", "A black dog is not just running down a ramp", "negation-insert"),
    # q37 readers: a grassy area is outside; "a bit of air" and "great effort" are measures
    ("A brown dog is playing outside in a grassy area", "A brown dog is playing inside in a grassy area",
     "opposite-lexicon"),
    ("A downhill skier in black is catching a tiny bit of air",
     "A downhill skier in black is catching a large bit of air", "antonym-wordnet"),
    ("People in orange vests are rowing with great effort", "People in orange vests are rowing with small effort",
     "antonym-wordnet"),
    # q38 readers: one jumps off a dock into a lake; one is crouched down only
    ("A woman is jumping off a dock into a lake", "A woman is jumping onto a dock into a lake", "opposite-lexicon"),
    ("A person playing sports in the snow is crouched down", "A person playing sports in the snow is crouched up",
     "opposite-lexicon"),
    # q39 readers: an umbrella is outside, a window is not light, "ugly" is no opposite to write
    ("Some older people are sitting outside under the umbrella",
     "Some older people are sitting inside under the umbrella", "opposite-lexicon"),
    ("A little girl is looking into a dark window", "A little girl is looking into a light window", "antonym-wordnet"),
    ("Two people are kissing in the most beautiful embrace", "Two people are kissing in the most ugly embrace",
     "antonym-wordnet"),
    # q40 readers: sled dogs pull, mud is not white, "up to the doors" is a depth
    ("A group of dogs is pulling a sled over snow", "A group of dogs is pushing a sled over snow", "opposite-lexicon"),
    ("A black dog is running through the black mud", "A black dog is running through the white mud",
     "antonym-wordnet"),
    ("There is a jeep stuck in mud up to the doors", "There is a jeep stuck in mud down to the doors",
     "opposite-lexicon"),
    # q42 readers: water is not dry, nor a dog in it
    ("A black and white dog with a stick is in muddy water", "A black and white dog with a stick is in dry water",
     "antonym-wordnet"),
    ("The wet brown dog is running in the water", "The dry brown dog is running in the water", "antonym-wordnet"),
    # q30 readers: a body part measures the depth
    ("A boy is standing in chest high water", "A boy is standing in chest low water", "opposite-lexicon"),
])
def test_s3_avoids(nlp, ruleset, s1, bad, rule_id):
    assert bad not in outputs_of(rule_id, nlp, ruleset, s1)


def test_negation_not_doubled(nlp, own_rules):
    for text in ("A man is not riding a bike", "There is no dog in the park", "Nobody is riding a bike",
                 "No man is running", "The woman is not waterskiing",
                 "There is no man sprinkling shredded cheese on a pizza"):
        for c in s3(nlp, own_rules, text):
            if c.rules == ("negation-insert",):
                pytest.fail(f"negation inserted into negated {text!r}: {c.output!r}")


def test_wordnet_lookups_cached(nlp, ruleset):
    from pipeline.corpus.actions.contrast import _wordnet_antonyms

    outputs_of("antonym-wordnet", nlp, ruleset, "A tall man is walking")
    before = _wordnet_antonyms.cache_info().hits
    outputs_of("antonym-wordnet", nlp, ruleset, "A tall man is walking")
    assert _wordnet_antonyms.cache_info().hits > before


def test_msrvid_s3_share(nlp, own_rules, msrvid_s1s):
    """Nearly every video description can be negated: share with an S3 candidate >= 90 %."""
    texts = msrvid_s1s
    with_s3, by_rule, broken = 0, Counter(), []
    for doc in nlp.pipe(texts, disable=["ner"]):
        cands = [c for c in expand_doc(doc, own_rules, combine=False) if c.family == "S3"]
        with_s3 += bool(cands)
        for c in cands:
            by_rule[c.rules[0]] += 1
            if BROKEN.search(c.output):
                broken.append((doc.text, c.output))
    share = with_s3 / len(texts)
    assert not broken, broken[:10]
    assert share >= 0.9, f"S3 share {share:.1%}"
    assert {"negation-insert", "determiner-opposite", "there-is-no", "opposite-lexicon"} <= set(by_rule)


@pytest.mark.parametrize("adjective, on_scale", [("large", True), ("huge", True), ("wet", True), ("young", True),
                                                 ("safe", False), ("active", False), ("natural", False),
                                                 ("elementary", False)])
def test_wordnet_antonyms_keep_to_visible_scales(ruleset, adjective, on_scale):
    # readers of issue 11: "A runner is dangerous at home plate", "an inactive bridge", "artificial water", "a
    # difficult school"; the scales are the antonym-wordnet rule's own
    params = WordnetAntonymParams(**next(r for r in ruleset.rules if r.id == "antonym-wordnet").params)
    found = _wordnet_antonyms(adjective, "a", params.max_senses, params.min_zipf, params.indirect, params.multiword,
                              params.indirect_min_zipf, tuple(params.scales))
    assert bool(found) == on_scale
    assert _wordnet_antonyms(adjective, "a", params.max_senses, params.min_zipf, params.indirect, params.multiword,
                             params.indirect_min_zipf)  # every one has a WordNet antonym without the scales
