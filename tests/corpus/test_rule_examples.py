"""Every rule's own examples (input -> expected output), run on the rule alone."""

from __future__ import annotations

import pytest

from pipeline.common.errors import Unnormalizable
from pipeline.corpus.expand import rule_outputs
from pipeline.corpus.normalize import apply_rule
from pipeline.corpus.rules import load_rules
from pipeline.corpus.sentence import Sentence

CASES = [(rule, n, ex) for rule in load_rules().rules for n, ex in enumerate(rule.examples, 1)]


@pytest.mark.parametrize("rule,n,example", CASES, ids=[f"{r.id}-{n}" for r, n, _ in CASES])
def test_rule_example(rule, n, example, nlp, ruleset):
    sent = Sentence(nlp(example.input))
    if rule.stage == "normalize":
        if example.dropped:
            with pytest.raises(Unnormalizable):
                apply_rule(rule, sent, ruleset)
            return
        changed = apply_rule(rule, sent, ruleset)
        if example.output is None:
            assert not changed, f"{rule.id} should not apply to {example.input!r}, gave {sent.render()!r}"
        else:
            assert changed and sent.render() == example.output
    else:
        outputs = rule_outputs(rule, sent, ruleset)
        if example.output is None:
            assert outputs == [], f"{rule.id} should not apply to {example.input!r}"
        else:
            assert example.output in outputs, f"{rule.id} on {example.input!r} gave {outputs}"
