"""Every rule's own examples (input -> expected output), run on the rule alone, and the refusal of a rule set
whose examples fail (``sick rules check``, ``--rules DIR``)."""

from __future__ import annotations

import shutil

import pytest
import yaml

from pipeline.cli import main
from pipeline.common.resources import RULES_DIR
from pipeline.corpus.examples import check_examples, run_example
from pipeline.corpus.rules import load_rules

CASES = [(rule, n, ex) for rule in load_rules().rules for n, ex in enumerate(rule.examples, 1)]


@pytest.mark.parametrize("rule,n,example", CASES, ids=[f"{r.id}-{n}" for r, n, _ in CASES])
def test_rule_example(rule, n, example, nlp, ruleset):
    assert run_example(rule, example, ruleset, nlp) is None


@pytest.fixture
def broken_rules(tmp_path):
    """A copy of the project's rules in which one example of swap-subject-object expects the wrong output."""
    root = tmp_path / "rules"
    shutil.copytree(RULES_DIR, root)
    path = root / "s4_scramble.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    rule = next(r for r in data["rules"] if r["id"] == "swap-subject-object")
    rule["examples"][0]["output"] = "A man is chasing a man"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return root


def test_failing_example_is_found(broken_rules):
    failures = check_examples(load_rules(broken_rules))
    assert [(f.rule_id, f.number) for f in failures] == [("swap-subject-object", 1)]
    assert "expected 'A man is chasing a man'" in failures[0].problem


def test_rules_check_and_build_refuse_failing_examples(broken_rules, tmp_path, capsys):
    assert main(["rules", "check", str(broken_rules)]) == 2
    err = capsys.readouterr().err
    assert "swap-subject-object" in err and "example 1" in err
    assert main(["build", "--rules", str(broken_rules), "--quiet", "--out", str(tmp_path / "out")]) == 2
    assert not (tmp_path / "out").exists()
    assert main(["rules", "check", str(RULES_DIR)]) == 0
