"""The grammar gate (issue 11): each check on sentences written for the test, repairs, the gated choice, and
the flag rate on SICK's own sentences."""

from __future__ import annotations

import pandas as pd
import pytest

from pipeline.corpus.expand import Candidate, choose, choose_gated
from pipeline.corpus.grammar import CHECKS, check_texts, gate

GOOD = [
    "A runner is safe at home plate at a youth softball game",  # baseball's name for the plate (seed 25)
    "A man is out of breath",  # "out of" an unmodified noun stays an idiom
    "A dog is jumping out of the water",
    "A man is playing guitar",
    "Some people in medieval costume are walking through a crowded street",  # one costume each (q35 readers)
    "A man in a red shirt, a man in a blue shirt and a woman are talking",  # two list items alike, not the same
    "A man and a woman are walking",
    "A man and woman are standing in front of a refreshment stand",
    "A group of people is dancing",
    "No group of people is dancing",
    "No wet, blond dog is carrying a stick on the shore",  # the parse reads "wet" as the noun
    "A woman is slicing bread",  # foods eaten as a stuff stay bare
    "A man is cooking rice",
    "A woman is cutting broccoli",
    "The man is training a dog to zigzag through poles",  # an infinitive the parse reads as "to" + noun
    "A dog is being trained to zigzag through poles by the man",
    "Every team of players is running",
    "A group of people are riding bicycles in a race",
    "There is a man and a woman in the room",
    "There are no dogs playing with each other",
    "Two dogs are jumping up at each other",
    "The man who is running is tall",
    "A man with a hat and a coat is walking",
    "Nobody is riding a bike",
    "A few men are watching cricket",
    "A woman is cutting an onion",
    "Some men are playing soccer",
    "A boy is jumping side by side with a dog",
    "A dog is running in front of the house",
    "A man is walking over and over",
    "The fish are swimming",
    "A cat is sitting at home",
    "The furry brown and white dog is jumping around near a door",
    "A large brown and a small white dog are playing indoors on a carpet",
    "A black dog and a white dog with brown spots are staring at each other in the street",
    "A woman is sitting on a stone wall and talks on the phone",
    "People are gathered at a bar",
    "A person is scrubbing a zucchini",
    "A dog which is black and a white dog with brown spots are not staring at each other in the street",
    "A man is wearing a sports uniform and is running down the field",
    "A skier in white is catching a tiny bit of air",
    "A person who climbs rocks is clinging to a steep overhanging rock high above a mesa",
    "A big brown and white spotted dog is lying on a cloth on the street",
    "A female wearing pink gloves and a brown jacket is smiling in the snow",
    "A man is tying a red arm band around another mans arm in the street",
    # bare on purpose (issue 11): mass nouns, games, idioms, repeated nouns, mass settings with a modifier
    "A dog is running on grass",
    "A boy is swimming in water",
    "A man is watching cricket",
    "A girl with long hair is smiling",
    "A man is walking in heavy rain",
    "A skier is catching air",
    "A girl is singing on stage",
    "A monkey is swinging from branch to branch",
    "A dog is rolling from side to side",
    "A man is driving a four-wheeler off-road",
    "A middle-aged man in casual clothes is looking off camera",
    "A man is dressed in denim and is smiling off camera",  # q27: "off" parsed as a particle
    "A large bird is in mid flight",
    "A dog of large size is running on the grass",
    "People are enjoying a day full of sun",
    "A woman is applying eye liner to her eyelid",
    "A black bird is taking flight from a dead tree",
    "A man is squatting in brush",
    "A black dog is running in a grassy fenced in yard",
    "A man is drinking beer",  # r13: foods used bare though their plural is common (mass_nouns)
    "A boy is eating cereal",
    "A woman is putting chopped eggplant into a skillet",
    "A man is holding feed for a horse",
    "A man is kite surfing away from the camera",
    "A softball player is running towards first base",
    "A man, a woman and two girls are walking on the beach",  # SICK_train
    "A dog, which is brown, and a black one are running in the grass",  # SICK_train
    "A man is sprinkling shredded cheese on a pizza",
    "A play is being performed on stage",
    "A man is scratching the top of his head",
    "A girl is eating a piece of cake",
    "Three boys are posing for a picture, one of them making a silly face",  # an absolute clause after the verb
    "A beige dog with a collar is looking on as a brown dog is swimming in the water",
    "Two kids are looking down from a green tree they are climbing",
    "A woman who is wearing a pink boa is riding a bicycle",
    "A man is smiling because a dog is jumping",
    "A white bird with its wings lifted up is hovering over the water",
    "Two boys are playing basketball",
    "A surfer is catching air",
    "A man wearing ear defenders is shooting a pistol at a white target",
    "A person is standing by a creek in blue flannel shorts",  # q8 readers: not "in a blue flannel shorts"
    "A woman is teaching her son to swim",
    "A man and dogs are walking in the park",
    "A jeep is driving on an off-road course beside a river",  # not "an offa -road course"
    "Children are playing in a jumping tent filled with air",  # q19 readers: not "filled with the air"
    "A man is holding a sign with very small writing",  # q21 readers: not "a very small writing"
    "A swimmer is coming up for air after being underwater",  # q23 readers: not "for the air"
    "A man wearing a pair of shorts is running",
    "A man in brown is helping a man in red climb a rock",  # q14 readers: not "in a red climb"
]

BAD = [  # (sentence, check that must fail)
    ("A man in a black jacket is has a white headphone in his ear", "stacked-verb"),  # seed-22 readers
    ("A women are slicing green pepper", "article-plural"),
    ("A dogs is barking", "article-plural"),
    ("A man is playing a guitar under a windows", "article-plural"),
    ("A zucchini are being scrubbed by a person", "agreement"),
    ("A sheep are grazing", "agreement"),
    ("There is no dog jumping up at each other", "agreement"),
    ("Two dog are running", "agreement"),
    ("A young man in a plaid shirts is sitting on the deck of a boat", "article-plural"),  # r13, seed 2
    # q9 readers: adjectives joined by "and" are still one phrase; a garment named by a plural only
    ("A black and brown dogs are pulling a red leash", "article-plural"),
    ("A little boy in an orange goggles and a coat is playing on a blue sled", "article-plural"),
    ("These dog is running", "agreement"),
    ("The dogs is running", "agreement"),
    ("The players is maneuvering for the soccer ball", "agreement"),
    ("A person in a green jacket and black pants are lifting a rock", "agreement"),
    ("No group of people are dancing", "agreement"),  # issue 11 reading: "no" makes the collective singular
    ("Every team of players are running", "agreement"),
    ("A dog is brown white and white", "duplicate-coordinate"),
    ("A man and a man are walking", "duplicate-coordinate"),
    ("A person wearing a blue jacket, a blue jacket and black earmuffs is holding up a newspaper",
     "duplicate-coordinate"),  # a list the parser does not read as coordinated
    ("A man playing a guitar", "no-finite-verb"),
    ("A couple standing on the curb", "no-finite-verb"),
    ("Three girls walking, one is checking her phone", "no-finite-verb"),
    # p1 readers (fourth part): a verb only in the relative clause of an inner noun; a fragment before "and"
    ("A woman in a bicycle store where two men are working on a bike", "no-finite-verb"),
    ("People running a race and the guy in grey is in the lead", "loose-subject"),
    ("The comedic is miming performed on stage", "stacked-verb"),  # r13 readers (a garbled MSR-Video caption)
    ("A man and woman walking are holding each other", "stacked-verb"),
    ("A man is dressed as a safari hunter is posing with a woman", "stacked-verb"),  # seed-3 build
    ("There is no man is pushing the buttons of a microwave", "stacked-verb"),  # SICK's own slip
    ("The women have pink bunny ears are on their heads", "stacked-verb"),  # seed-2 build
    # seed-2 build, r13 readers: a caption's clauses run together
    ("Two men on a cliff edge and one is jumping into the water", "loose-subject"),
    ("A dog and a goat chase two children are playing soccer", "loose-subject"),
    ("A crowd of children and some are wearing green costumes", "loose-subject"),
]

REPAIRED = [  # (sentence, check, repaired sentence)
    ("A young girl in a yellow shirt is jumping from a chair to couch", "missing-determiner",
     "A young girl in a yellow shirt is jumping from a chair to a couch"),  # q8 readers: a place, no infinitive
    ("A boy in a small striped shirt is sliding out of green tube", "missing-determiner",
     "A boy in a small striped shirt is sliding out of a green tube"),  # seed-15 readers
    ("A man is playing a blue guitar on the an empty urban street", "doubled-word",
     "A man is playing a blue guitar on an empty urban street"),  # seed-11 readers
    ("A guy is dribbling basketball away from a guy", "missing-determiner",
     "A guy is dribbling a basketball away from a guy"),  # seed-8 readers
    ("A black and brown dog is approaching camera across snow", "missing-determiner",
     "A black and brown dog is approaching the camera across snow"),  # seed-7 readers
    ("An elderly man in wheelchair is begging for handout", "missing-determiner",
     "An elderly man in a wheelchair is begging for a handout"),
    ("A man is sitting on low cement ledge", "missing-determiner", "A man is sitting on a low cement ledge"),
    ("A boy is riding bike", "missing-determiner", "A boy is riding a bike"),
    ("A car is going around curve", "missing-determiner", "A car is going around a curve"),  # a shape noun
    ("A crowd is in front of mosque", "missing-determiner", "A crowd is in front of a mosque"),
    # a food counted as pieces (SICK writes "slicing a carrot", "peeling a potato", never the bare singular)
    ("A woman is slicing carrot", "missing-determiner", "A woman is slicing a carrot"),
    ("A beige dog and brown dog are in the snow", "missing-determiner", "A beige dog and a brown dog are in the snow"),
    ("A boy is jumping on skateboard in a park", "missing-determiner", "A boy is jumping on a skateboard in a park"),
    ("A man is peeling potato", "missing-determiner", "A man is peeling a potato"),
    # r13 readers: a fruit counted as SICK counts it; a place part of a count thing; a noun the parse made an adverb
    ("The woman is peeling lemon", "missing-determiner", "The woman is peeling a lemon"),
    ("Two boys are looking at display", "missing-determiner", "Two boys are looking at a display"),
    ("Biker in a muddy orange shirt is riding a blue racing bike", "missing-determiner",
     "A biker in a muddy orange shirt is riding a blue racing bike"),  # r13, seed 2: a doer noun WordNet lacks
    ("A man is standing by orange pole", "missing-determiner", "A man is standing by an orange pole"),
    ("A lady in white pants and turquoise tank top is facing away", "missing-determiner",
     "A lady in white pants and a turquoise tank top is facing away"),
    ("A man is on skateboard on top of rust-colored barrel in a darkened area", "missing-determiner",
     "A man is on a skateboard on top of a rust-colored barrel in a darkened area"),
    # issue 11, S1 shapes of the real build: "the" for a bare setting, "a"/"an" by sound otherwise
    ("A girl wearing a black headscarf is walking in desert", "missing-determiner",
     "A girl wearing a black headscarf is walking in the desert"),
    ("Two young girls are looking at camera", "missing-determiner", "Two young girls are looking at the camera"),
    ("A man and woman are dancing in rain", "missing-determiner", "A man and woman are dancing in the rain"),
    ("A man is standing at top of hill", "missing-determiner", "A man is standing at the top of the hill"),
    ("A mountaineer is sitting in front of a yellow tent under clear blue sky", "missing-determiner",
     "A mountaineer is sitting in front of a yellow tent under a clear blue sky"),
    ("A cat is walking on hardwood floor", "missing-determiner", "A cat is walking on a hardwood floor"),
    ("A player is getting a ball on basketball court", "missing-determiner",
     "A player is getting a ball on a basketball court"),
    ("A baby in white outfit is holding a black and white flag", "missing-determiner",
     "A baby in a white outfit is holding a black and white flag"),
    ("A woman is cutting big pepper", "missing-determiner", "A woman is cutting a big pepper"),
    ("A lady is holding umbrella over a race car driver", "missing-determiner",
     "A lady is holding an umbrella over a race car driver"),
    ("Hooded women are at event", "missing-determiner", "Hooded women are at an event"),
    ("A woman is bathing into bath-tub", "missing-determiner", "A woman is bathing into a bath-tub"),
    ("People are standing in a corridor and are looking from balcony", "missing-determiner",
     "People are standing in a corridor and are looking from a balcony"),
    ("An older black man is handing small blue object to group of younger black men", "missing-determiner",
     "An older black man is handing a small blue object to a group of younger black men"),
    ("A man dressed in black suit and tie is reading a book", "missing-determiner",
     "A man dressed in a black suit and tie is reading a book"),
    ("A man in green uniform is marching", "missing-determiner", "A man in a green uniform is marching"),
    ("A fireman is spraying water into the hood of small white car on a jack", "missing-determiner",
     "A fireman is spraying water into the hood of a small white car on a jack"),  # q38: a part of one car
    # q34 readers: event nouns WordNet files as acts are counted
    ("A dog is performing act at dog show", "missing-determiner", "A dog is performing an act at a dog show"),
    ("A boy is performing trick on the bike", "missing-determiner", "A boy is performing a trick on the bike"),
    ("A man is is walking", "doubled-word", "A man is walking"),
    ("The the dog is running", "doubled-word", "The dog is running"),
]


@pytest.fixture(scope="module")
def verdicts():
    texts = GOOD + [t for t, _ in BAD] + [t for t, _, _ in REPAIRED]
    return dict(zip(texts, check_texts(texts)))


@pytest.mark.parametrize("text", GOOD)
def test_good_sentences_pass_unchanged(verdicts, text):
    v = verdicts[text]
    assert v.ok and not v.repairs and v.text == text, (v.failures, v.repairs)


@pytest.mark.parametrize("text,check", BAD)
def test_bad_sentences_fail_their_check(verdicts, text, check):
    v = verdicts[text]
    assert check in v.failures and not v.ok
    assert set(v.failures) <= set(CHECKS)


@pytest.mark.parametrize("text,check,fixed", REPAIRED)
def test_repairs(verdicts, text, check, fixed):
    v = verdicts[text]
    assert v.ok and check in v.repairs and v.text == fixed


def test_gate_returns_repair_and_failures():
    assert gate("A boy is riding bike") == ("A boy is riding a bike", ())
    assert gate("A boy is riding a bike") == (None, ())
    assert gate("A women are slicing green pepper") == (None, ("article-plural",))


def test_gated_choice_rechooses_without_the_failing_candidate():
    s1 = "A person is scrubbing a zucchini"
    bad = Candidate("S4", "A zucchini are being scrubbed by a person", ("swap-subject-object",))
    good = Candidate("S4", "A zucchini is scrubbing a person", ("swap-subject-object",))
    # find a seed whose plain choice picks the bad candidate, so the gate has to act
    seed = next(s for s in range(100) if choose([bad, good], s1, s)["S4"] == bad)
    out = choose_gated([(s1, [bad, good])], seed)[0]
    assert out.chosen["S4"] == good and out.rejected == {bad: ("agreement",)} and not out.lost
    alone = choose_gated([(s1, [bad])], seed)[0]
    assert "S4" not in alone.chosen and alone.lost == {"S4": ("agreement",)}


def test_flag_rate_on_sick_sentences(shared_data):
    """SICK's own sentences are grammatical: the gate must flag few of them (precision over recall)."""
    df = pd.read_csv(shared_data / "sick2014" / "SICK_train.txt", sep="\t", keep_default_na=False)
    texts = list(dict.fromkeys(list(df["sentence_A"]) + list(df["sentence_B"])))[::6]  # ~1,000 sentences
    assert len(texts) > 800
    vs = check_texts(texts)
    rate = {c: sum(c in v.failures for v in vs) / len(texts) for c in CHECKS}
    assert rate["agreement"] <= 0.005 and rate["article-plural"] <= 0.003, rate
    assert sum(not v.ok for v in vs) / len(texts) <= 0.01, rate
    assert sum(bool(v.repairs) for v in vs) / len(texts) <= 0.02
