"""Every rule's own examples, run on the rule alone: the contract a rule file states about itself.

A rule's ``examples`` give an ``input`` and the expected ``output`` (``null``: the rule must not apply;
``dropped: true``: a normalization rule rejects the sentence). ``sick rules check DIR`` and every command given
``--rules DIR`` run them, so a rule set whose examples fail is refused before it builds anything; the test suite
runs them for the project's own ``rules/``.
"""

from __future__ import annotations

__all__ = ["ExampleFailure", "check_examples", "run_example"]

from dataclasses import dataclass
from typing import Any

from pipeline.common import resources
from pipeline.common.errors import Unnormalizable
from pipeline.corpus.expand import rule_outputs
from pipeline.corpus.normalize import apply_rule
from pipeline.corpus.rules import Example, Rule, RuleSet
from pipeline.corpus.sentence import Sentence


@dataclass(frozen=True)
class ExampleFailure:
    """One example that failed: the rule, its file, the example's number (from 1), and what went wrong."""

    rule_id: str
    file: str
    number: int
    problem: str


def run_example(rule: Rule, example: Example, ruleset: RuleSet, nlp: Any = None) -> str | None:
    """Run ``rule`` alone on ``example.input``; None when the result is the one the example states, else the
    problem in words. ``nlp``: a spaCy pipeline (default :func:`pipeline.common.resources.nlp`)."""
    sent = Sentence((nlp or resources.nlp())(example.input))
    if rule.stage == "normalize":
        try:
            changed = apply_rule(rule, sent, ruleset)
        except Unnormalizable as exc:
            return None if example.dropped else f"dropped {example.input!r} ({exc}), expected {example.output!r}"
        if example.dropped:
            return f"should drop {example.input!r}, gave {sent.render()!r}"
        if example.output is None:
            return f"should not apply to {example.input!r}, gave {sent.render()!r}" if changed else None
        if not changed or sent.render() != example.output:
            return f"on {example.input!r} gave {sent.render()!r}, expected {example.output!r}"
        return None
    outputs = rule_outputs(rule, sent, ruleset)
    if example.output is None:
        return f"should not apply to {example.input!r}, gave {outputs}" if outputs else None
    return None if example.output in outputs else f"on {example.input!r} gave {outputs}, expected {example.output!r}"


def check_examples(ruleset: RuleSet) -> list[ExampleFailure]:
    """Run every example of every enabled rule of ``ruleset``; the failures, in rule and example order."""
    nlp = resources.nlp()
    return [ExampleFailure(rule.id, rule.file, n, problem)
            for rule in ruleset.rules for n, ex in enumerate(rule.examples, 1)
            if (problem := run_example(rule, ex, ruleset, nlp)) is not None]
