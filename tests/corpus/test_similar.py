"""S2 (similar meaning) expansion rules, Marelli et al. 2014, Table 3: candidates on written and real S1s."""

from __future__ import annotations

import re

import pytest

from pipeline.corpus.actions import similar
from pipeline.corpus.expand import expand_doc, rule_outputs
from pipeline.corpus.sentence import Sentence, surface

S2_RULES = ("determiner-similar", "quantifier-similar", "active-to-passive", "passive-to-active", "synonym-wordnet",
            "modifier-implied", "agentive-noun-expansion", "compound-to-relative", "adjective-to-relative")

WRITTEN = [
    "A man is riding a bike",
    "A group of kids is playing in a yard and an old man is standing in the background",
    "Two dogs are running in the grass",
    "A woman is slicing an onion",
    "A soccer player is kicking a ball",
    "A young girl is using a sewing machine",
    "A black dog is chasing a soccer ball",
    "A black dog is running",
    "Two young women are playing guitars",
    "A kid is jumping into a swimming pool",
    "The cyclists are racing on the road",
    "A little cat is chasing a mouse",
    "A man is cutting a potato",
    "Some people are dancing on a stage",
    "He is playing the piano",
    "A bike is being ridden by a man",
]

# Grammar breakage that a rule could introduce; each is checked only when the S1 does not already show it.
BROKEN = [
    (re.compile(r"\b(\w+) \1\b", re.I), "doubled word"),
    (re.compile(r"\ban? (a|an|the)\b", re.I), "two determiners"),
    (re.compile(r"\b(is|are) (is|are)\b", re.I), "two auxiliaries"),
    (re.compile(r"\b(who|which) (who|which)\b", re.I), "two relative pronouns"),
    (re.compile(r"\b(people|children|men|women|kids|boys|girls|dogs|players) (who|which) is\b", re.I),
     "plural noun + 'who is'"),
    (re.compile(r"^(a|an|one) \w+ (who|which) are\b", re.I), "singular noun + 'who are'"),
    (re.compile(r"\bby (he|she|they|we|i)\b", re.I), "nominative pronoun after 'by'"),
    (re.compile(r"\b(with a knife|in the water|in the air)\b.*\b\1\b", re.I), "modifier added twice"),
    (re.compile(r"\b(being) \w+ing\b", re.I), "'being' + gerund"),
]


def _problems(s1: str, s2: str) -> list[str]:
    return [name for rx, name in BROKEN if rx.search(s2) and not rx.search(s1)]


def _s2(doc, ruleset):
    return [c for c in expand_doc(doc, ruleset) if c.family == "S2"]


@pytest.fixture(scope="module")
def written(nlp, ruleset):
    return {s: _s2(nlp(s), ruleset) for s in WRITTEN}


def _one(rule_id, text, nlp, ruleset):
    return rule_outputs(ruleset.by_id(rule_id), Sentence(nlp(text)), ruleset)


def test_all_rules_loaded(ruleset):
    ids = {r.id for r in ruleset.stage("S2")}
    assert set(S2_RULES) <= ids


def test_every_written_sentence_gets_s2(written):
    for s1, cands in written.items():
        assert cands, f"no S2 candidate for {s1!r}"


def test_candidates_record_their_rules(written):
    for _s1, cands in written.items():
        for c in cands:
            assert c.rules and all(r in S2_RULES for r in c.rules), c


# a/an by sound, not spelling: every candidate's articles come from surface(), so check it on hand-picked cases
@pytest.mark.parametrize("text,expected", [
    ("A man is waiting for a hour", "A man is waiting for an hour"),
    ("a hourglass is on the table", "An hourglass is on the table"),
    ("a honest man is talking", "An honest man is talking"),
    ("A prince is an heir", "A prince is an heir"),
    ("A man is riding an horse", "A man is riding a horse"),
    ("A student is walking to an university", "A student is walking to a university"),
    ("an unicorn is running", "A unicorn is running"),
    ("A man is wearing an uniform", "A man is wearing a uniform"),
    ("A woman is holding a umbrella", "A woman is holding an umbrella"),
    ("A woman is slicing a onion", "A woman is slicing an onion"),
    ("A man is playing in an one-man band", "A man is playing in a one-man band"),
    ("an European flag is waving", "A European flag is waving"),
    ("A car is making an U-turn", "A car is making a U-turn"),
    ("A doctor is looking at a X-ray", "A doctor is looking at an X-ray"),
    ("a FBI agent is running", "An FBI agent is running"),
    ("An man is eating a apple", "A man is eating an apple"),
    ("A person is chopping an herb", "A person is chopping an herb"),  # American, as the captions (q22 readers)
    ("A man is holding a herb", "A man is holding an herb"),
])
def test_surface_articles(text, expected):
    assert surface(text) == expected


def test_no_grammar_breakage_on_written(written):
    for s1, cands in written.items():
        for c in cands:
            assert not _problems(s1, c.output), (s1, c.output, c.rules, _problems(s1, c.output))


def test_combined_candidates_exist(written):
    combos = [c for cands in written.values() for c in cands if len(c.rules) > 1]
    assert combos
    outs = {c.output for c in written["A black dog is chasing a soccer ball"] if len(c.rules) > 1}
    assert "The black animal is chasing a soccer ball" in outs
    every_rule = {r for cands in written.values() for c in cands for r in c.rules}
    assert every_rule == set(S2_RULES)


# ------------------------------------------------------------------------------------------ single rules


# (rule id, S1, one expected output of that rule alone)
RULE_OUTPUTS = [
    ("active-to-passive", "A man is riding a bike", "A bike is being ridden by a man"),
    ("active-to-passive", "Two men are riding horses", "Horses are being ridden by two men"),
    ("active-to-passive", "A boy is kicking two balls", "Two balls are being kicked by a boy"),
    ("active-to-passive", "She is eating an apple", "An apple is being eaten by her"),
    ("active-to-passive", "A man and a woman are carrying a box", "A box is being carried by a man and a woman"),
    ("active-to-passive", "A group of kids is playing in a yard and an old man is feeding a dog",
     "A group of kids is playing in a yard and a dog is being fed by an old man"),
    ("passive-to-active", "A bike is being ridden by a man", "A man is riding a bike"),
    ("passive-to-active", "Horses are being ridden by two men", "Two men are riding horses"),
    ("passive-to-active", "A ball is being kicked by him", "He is kicking a ball"),
    ("passive-to-active", "The song is sung by two girls", "Two girls sing the song"),
    ("synonym-wordnet", "A man is riding a bicycle", "A man is riding a bike"),
    ("synonym-wordnet", "A kid is jumping", "A child is jumping"),
    ("synonym-wordnet", "The kids are jumping", "The children are jumping"),
    ("synonym-wordnet", "A man is talking on the phone", "A man is speaking on the phone"),
    ("synonym-wordnet", "A small dog is barking", "A little dog is barking"),
    ("synonym-wordnet", "A woman is slicing a tomato", "A woman is cutting a tomato"),
    ("modifier-implied", "A woman is slicing an onion", "A woman is slicing an onion with a knife"),
    ("modifier-implied", "A girl is flying a kite", "A girl is flying a kite in the air"),
    ("modifier-implied", "A man is typing", "A man is typing on a keyboard"),
    ("modifier-implied", "Two dogs are running in the snow", "Two dogs are running in the white snow"),
    ("agentive-noun-expansion", "A soccer player is kicking a ball", "A person who plays soccer is kicking a ball"),
    ("agentive-noun-expansion", "Two guitar players are singing", "Two people who play the guitar are singing"),
    ("compound-to-relative", "A young girl is using a sewing machine",
     "A young girl is using a machine made for sewing"),
    ("compound-to-relative", "A woman is loading a washing machine", "A woman is loading a machine used for washing"),
    ("adjective-to-relative", "A black dog is running", "A dog, which is black, is running"),
    ("adjective-to-relative", "Two white dogs are running", "Two dogs, which are white, are running"),
    ("adjective-to-relative", "The black and white dog is jumping", "The dog, which is black and white, is jumping"),
    ("active-to-passive", "A woman is adding oil to the fish", "Oil is being added to the fish by a woman"),
    ("quantifier-similar", "A group of kids is playing", "Some kids are playing"),
    ("quantifier-similar", "Some dogs are running", "A group of dogs is running"),
    ("quantifier-similar", "There is a group of people dancing", "There are some people dancing"),
    ("quantifier-similar", "Several men are fighting", "Some men are fighting"),
]

# (rule id, S1 the rule must leave alone)
RULE_REFUSES = [
    # machines only (s23e, r5 readers: "a rod made for fishing", "a ball made for soccer" read stiff)
    ("compound-to-relative", "A man is holding a fishing pole"),
    ("compound-to-relative", "Two boys are kicking a soccer ball"),
    ("active-to-passive", "A man is playing a guitar and singing"),   # shared subject with a second verb
    ("active-to-passive", "A man is picking up a box"),               # particle
    ("active-to-passive", "A woman is fixing her hair"),              # possessive would precede its antecedent
    ("active-to-passive", "A man is having lunch"),                   # excluded verb
    ("active-to-passive", "A dog is running in the park"),            # no object
    ("modifier-implied", "A woman is slicing an onion with a knife"),
    ("modifier-implied", "A man is cutting a tree"),
    ("modifier-implied", "A man is swimming in a lake"),
    ("modifier-implied", "A dog is running"),
    ("compound-to-relative", "A man is playing a video game"),
    ("compound-to-relative", "A man is sitting on a park bench"),
    ("compound-to-relative", "A boy is playing with a toy car"),
    ("adjective-to-relative", "A man is playing an electric guitar"),
    ("adjective-to-relative", "A man is eating a hot dog"),
    ("adjective-to-relative", "The other man is sitting"),
    ("adjective-to-relative", "A large group of people is dancing"),
    # issue 11 round 2: the clause must end the noun phrase; half a modifier does not move; things take "which"
    ("adjective-to-relative", "A woman is slicing a red tomato with a knife"),
    ("adjective-to-relative", "Two men are doing a funny skit with a boxer in front of a crowd"),
    ("adjective-to-relative", "The brown haired toddler is holding a cup"),
    # s23c: no clause on a person, none with a size, age or material, none with a colour the noun has anyway
    ("adjective-to-relative", "A young man is cooking"),
    ("adjective-to-relative", "A young man in a hat is cooking"),
    ("adjective-to-relative", "A man is talking to an asian girl"),
    ("adjective-to-relative", "A kid is holding a large icicle"),
    ("adjective-to-relative", "A man is emptying a plastic container"),
    ("adjective-to-relative", "Two puppies are playing in the green grass"),
    ("active-to-passive", "A man is pushing another man into the ocean"),
    ("determiner-similar", "A couple of policewomen are singing karaoke"),
    ("agentive-noun-expansion", "Two female baseball players are reaching for the ball"),
    # s23d (readers of the s808/s909/s1010 samples): adjective clauses only on the opening subject ("a pepper
    # which is red", "on the beach which is sandy" read stiff); agentive clauses only for players, on a subject,
    # right before its verb ("A person who cooks", "People who race", "Three people in black strips who play
    # rugby"); compound clauses only on equipment ("an indoor court made for sports")
    ("adjective-to-relative", "A dog is running on a sandy beach"),
    ("adjective-to-relative", "A woman is slicing a red tomato"),
    ("adjective-to-relative", "A man is holding a red flag"),
    ("agentive-noun-expansion", "Two cyclists are racing"),
    ("agentive-noun-expansion", "A cook is seasoning some dough"),
    ("agentive-noun-expansion", "A guitar player in a red shirt is singing"),
    ("agentive-noun-expansion", "A fisherman is sitting on a boat"),
    ("compound-to-relative", "Kids are jumping into a swimming pool"),
    ("compound-to-relative", "A man wearing black is standing on an indoor sports court"),
    ("active-to-passive", "A man is doing exercise"),
    ("active-to-passive", "A man is squeezing water"),
    ("active-to-passive", "The cat is eating corn on the cob"),
    ("synonym-wordnet", "A little league player is pointing to another player"),
    ("quantifier-similar", "A woman is slicing some tomatoes"),        # non-animates
]


@pytest.mark.parametrize("rule_id,s1,s2", RULE_OUTPUTS)
def test_rule_output(rule_id, s1, s2, nlp, ruleset):
    assert s2 in _one(rule_id, s1, nlp, ruleset)


@pytest.mark.parametrize("rule_id,s1", RULE_REFUSES)
def test_rule_refuses(rule_id, s1, nlp, ruleset):
    assert _one(rule_id, s1, nlp, ruleset) == []


@pytest.mark.parametrize("s1,bad", [
    ("A man is riding a horse", "homo"),
    ("A person is walking", "individual"),
    ("A person is walking", "someone"),
    ("A baby is sleeping", "babe"),
    ("Two pandas are laying in the grass", "putting"),
    ("A man is drawing a picture", "pulling"),
    ("A man is riding a dirt bike", "soil"),
    # r7: wrong senses and split names of the seed-1 build and the r6 readers
    ("A cyclist is jumping the bike over a guidewire", "leaping"),
    ("A man is cutting grass", "slicing"),
    ("A dog is resting its paws on a keyboard", "relaxing"),
    ("A woman is putting a baby in a trash can", "rubbish"),
    ("Two dogs are doing a tug of war", "warfare"),
    ("A reddish brown dog is walking in water", "red"),
    ("A participant in a dog sled race is passing onlookers", "animal"),
    ("A dog is running across a green lawn", "grass"),
    ("A mother is helping her daughter climb with the help of ropes", "assist"),
    # r9 readers and seed-1 build: conditional curated synonyms
    ("The people are lifting bags", "raising"),
    ("A woman is lifting a dancing baby", "raising"),
    ("A small group of black adults is walking on a brown surface", "little"),
    ("Two dogs are running on muddy ground", "dirty"),
    ("Ten people with big smiles are posing", "large"),
    # q8 readers: a lookout point is no scout, a dog nips but does not pinch, a teenager is no child
    ("People are standing around a scenic lookout", "scout"),
    ("The brown and white dog is nipping at the yellow dog", "pinching"),
    ("A teenage girl is standing in a large garage", "child"),
    # q9: a gerund naming a kind of trick; a game controller
    ("The person with a helmet is doing a jumping trick on a four-wheeler", "leaping"),
    ("A baby is holding a controller to a video game above his head", "accountant"),
    # q14: "an animal who", one stem twice
    ("A man is throwing an object at a dog who is running away", "animal"),
    ("A teacher is instructing two boys how to use the computer", "instructor"),
    # q27: an entire party is no total one
    ("An entire wedding party is posing for pictures", "total"),
    # q33: sled dogs are a kind
    ("A group of sled dogs is standing together in the white snow", "animals"),
    # q34: a setting is no placing
    ("A female hurdle-jumper is clearing a hurdle in a track-and-field setting", "placing"),
    # q35: dogs collide, they do not jar
    ("A black dog is colliding with a golden dog", "jarring"),
    # q38: glass accented (lit) by green light is not emphasized
    ("Three men are looking through glass accented by green light", "emphasized"),
    # q39: a store's register is no registry
    ("A man in black is purchasing something at the register in a store", "registry"),
])
def test_synonym_blocklist(s1, bad, nlp, ruleset):
    assert not any(bad in out.lower().split() for out in _one("synonym-wordnet", s1, nlp, ruleset))


@pytest.mark.parametrize("rule_id,s1,bad", [
    # q29 readers: a body part after a preposition is someone's own
    ("determiner-similar", "The brown dog is biting the white and tan dog on the snout",
     "The brown dog is biting the white and tan dog on a snout"),
])
def test_s2_avoids(rule_id, s1, bad, nlp, ruleset):
    assert bad not in _one(rule_id, s1, nlp, ruleset)


def test_synonym_lookups_are_cached(nlp, ruleset):
    _one("synonym-wordnet", "A kid is jumping", nlp, ruleset)
    before = similar._wordnet_synonyms.cache_info().hits
    _one("synonym-wordnet", "A kid is jumping", nlp, ruleset)
    assert similar._wordnet_synonyms.cache_info().hits > before


def test_determiner_keeps_mass_nouns(nlp, ruleset):
    outs = _one("determiner-similar", "A dog is running in the grass", nlp, ruleset)
    assert "The dog is running in the grass" in outs
    assert not any("a grass" in o for o in outs)


# ------------------------------------------------------------------------------------------ real data


@pytest.fixture(scope="module")
def real(msrvid_s1s, nlp, ruleset):
    return [(doc.text, _s2(doc, ruleset)) for doc in nlp.pipe(msrvid_s1s, disable=["ner"])]


@pytest.mark.realdata
def test_real_coverage(real):
    covered = sum(1 for _, cands in real if cands)
    assert len(real) >= 150
    assert covered / len(real) >= 0.7, f"only {covered}/{len(real)} S1s got an S2 candidate"


@pytest.mark.realdata
def test_real_coverage_without_determiners(real):
    covered = sum(1 for _, cands in real if any(c.rules != ("determiner-similar",) for c in cands))
    assert covered / len(real) >= 0.6


@pytest.mark.realdata
def test_real_no_grammar_breakage(real):
    bad = [(s1, c.output, c.rules, _problems(s1, c.output)) for s1, cands in real for c in cands
           if _problems(s1, c.output)]
    assert not bad, bad[:10]



@pytest.mark.parametrize("s1,noun", [
    ("A man is carrying another man over the shoulder", "man"),
    ("Two men are taking a picture with the phone of one of the men", "men"),
])
def test_synonym_keeps_repeated_nouns(s1, noun, nlp, ruleset):
    """A noun mentioned twice (or after "another") keeps its word in every candidate: replacing one mention
    breaks the link ("A person is carrying another man")."""
    outs = _one("synonym-wordnet", s1, nlp, ruleset)
    assert all(o.split().count(noun) == s1.split().count(noun) for o in outs), outs


def test_relative_clause_for_things_uses_which(nlp, ruleset):
    """"stroller" is first a person in WordNet (one who strolls); a car stroller is a thing."""
    outs = _one("adjective-to-relative", "Toddlers are sitting in plastic car strollers", nlp, ruleset)
    assert not any(" who " in o for o in outs), outs
