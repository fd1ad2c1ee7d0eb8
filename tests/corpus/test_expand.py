"""The expansion engine: combination of rules, and the seeded choice of one candidate per family."""

from __future__ import annotations

from pipeline.corpus.expand import Candidate, choose, expand_doc


def cands(*specs):
    return [Candidate(fam, out, tuple(rules.split())) for fam, out, rules in specs]


def test_choose_is_deterministic_and_keeps_one_per_family():
    c = cands(("S2", "x1", "r1"), ("S2", "x2", "r2"), ("S3", "y1", "r3"), ("S2", "x3", "r1 r2"))
    first = choose(c, "A man is walking", seed=4)
    assert first == choose(list(reversed(c)), "A man is walking", seed=4)
    assert set(first) == {"S2", "S3"} and first["S3"].output == "y1"
    outcomes = {choose(c, f"A man is walking {i}", seed=4)["S2"].output for i in range(60)}
    assert outcomes == {"x1", "x2", "x3"}


def test_choose_follows_rule_weights():
    c = cands(("S2", "light", "light"), ("S2", "heavy", "heavy"))
    picks = [choose(c, f"sentence {i}", seed=1, weights={"light": 0.25})["S2"].output for i in range(2000)]
    share = picks.count("light") / len(picks)
    assert abs(share - 0.25 / 1.25) < 0.04


def test_combine_rate_zero_and_one():
    c = cands(("S2", "single", "r1"), ("S2", "single", "r2"), ("S2", "combo", "r1 r2"))
    texts = [f"s{i}" for i in range(50)]
    assert {choose(c, t, 0, combine_rate=0.0)["S2"].output for t in texts} == {"single"}
    assert {choose(c, t, 0, combine_rate=1.0)["S2"].output for t in texts} == {"combo"}


def test_a_combination_is_drawn_part_by_part():
    # a rule that applies everywhere but has a small weight (determiner-similar) must not ride along in most
    # combinations because it is the only partner: the second part is drawn by weight like a single rule
    c = cands(("S2", "a", "main"), ("S2", "b", "light"), ("S2", "c", "heavy"), ("S2", "a+b", "main light"))
    picks = [choose(c, f"s{i}", 0, combine_rate=1.0, weights={"light": 0.01})["S2"].output for i in range(600)]
    assert picks.count("a+b") < 20 and picks.count("a") > 200
    # with no single left (all turned down by the gate) a combination is still chosen
    assert choose(cands(("S2", "a+b", "main light")), "s", 0)["S2"].output == "a+b"


def test_combined_candidates_record_every_rule(nlp, ruleset):
    out = expand_doc(nlp("A young man is riding a black horse"), ruleset)
    rules_of = {r.id: r.stage for r in ruleset.rules}
    combined = [c for c in out if len(c.rules) > 1]
    assert combined, "no combined candidate"
    for c in out:
        assert c.output != "A young man is riding a black horse"
        assert rules_of[c.rules[0]] == c.family
        assert all(rules_of[r] == "S2" for r in c.rules[1:])  # S2 rules are the ones that combine
    assert not any(len(c.rules) > 1 for c in out if c.family == "S4")


def test_s3_never_combines_with_an_implied_modifier(nlp, ruleset):
    # "A person is not cutting a green pepper with a knife" does not contradict "A person is cutting a pepper"
    out = expand_doc(nlp("A person is cutting a pepper"), ruleset)
    assert any(c.rules == ("modifier-implied",) for c in out), "modifier-implied no longer applies"
    assert any(c.family == "S3" and len(c.rules) > 1 for c in out), "no S3 combination at all"
    assert not any(c.family == "S3" and "modifier-implied" in c.rules for c in out)


def test_each_s3_word_change_can_combine(nlp, ruleset):
    # SICK_train pairs "A man is folding a tortilla" with "A person is unfolding a tortilla": the opposites
    # lexicon's first candidate changes "man", and its "folding -> unfolding" must still meet a synonym
    out = expand_doc(nlp("A man is folding a tortilla"), ruleset)
    assert any(c.output == "A woman is folding a tortilla" for c in out), "the gender opposite no longer comes first"
    combined = {c.output: c.rules for c in out if c.family == "S3" and len(c.rules) > 1}
    assert combined.get("A person is unfolding a tortilla") == ("opposite-lexicon", "synonym-wordnet")
