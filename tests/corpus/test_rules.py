"""Rule files: schema checks, and errors that name the file and the rule id."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.common.errors import RuleError
from pipeline.common.vocabulary import STAGES
from pipeline.corpus.registry import ACTIONS
from pipeline.corpus.rules import DEFAULT_RULES_DIR, load_rules

GOOD = """rules:
  - id: my-rule
    stage: S2
    description: Swap the/a.
    source: Marelli et al. 2014, Table 3
    action: swap_determiner
    params: {lexicon: similar_determiners}
    examples:
      - {input: "The dog is running", output: "A dog is running"}
      - {input: "Dogs run", output: null}
"""


@pytest.fixture
def rules_dir(tmp_path) -> Path:
    d = tmp_path / "rules"
    (d / "lexicons").mkdir(parents=True)
    shutil.copy(DEFAULT_RULES_DIR / "lexicons" / "similar_determiners.yaml", d / "lexicons")
    return d


def test_project_rules_are_complete():
    rs = load_rules()
    assert {r.stage for r in rs.rules} == set(STAGES)
    for r in rs.rules:
        assert len(r.examples) >= 2 and r.source and r.description
        assert r.action in ACTIONS


def test_good_file_loads(rules_dir):
    (rules_dir / "mine.yaml").write_text(GOOD)
    rs = load_rules(rules_dir)
    assert [r.id for r in rs.rules] == ["my-rule"] and rs.rules[0].file == "mine.yaml"
    assert set(rs.hashes) == {"mine.yaml", "lexicons/similar_determiners.yaml"}


@pytest.mark.parametrize("edit,needle", [
    (lambda t: t.replace("action: swap_determiner", "action: no_such_action"), "unknown action 'no_such_action'"),
    (lambda t: t.replace("    source: Marelli et al. 2014, Table 3\n", ""), "source: Field required"),
    (lambda t: t.replace("stage: S2", "stage: S9"), "stage"),
    (lambda t: t.replace("stage: S2", "stage: S3"), "is for stages"),
    (lambda t: t.replace("{lexicon: similar_determiners}", "{lexicon: missing_one}"), "no lexicon named 'missing_one'"),
    (lambda t: t.replace("{lexicon: similar_determiners}", "{lexicon: similar_determiners, bogus: 1}"), "bogus"),
    (lambda t: t.split("      - {input: \"Dogs")[0], "examples"),
    (lambda t: t + t.split("rules:\n")[1], "duplicate rule id"),
])
def test_malformed_rule_names_file_and_rule(rules_dir, edit, needle):
    path = rules_dir / "mine.yaml"
    path.write_text(edit(GOOD))
    with pytest.raises(RuleError) as err:
        load_rules(rules_dir)
    msg = str(err.value)
    assert str(path) in msg and "'my-rule'" in msg and needle in msg


def test_bad_yaml_names_file(rules_dir):
    path = rules_dir / "broken.yaml"
    path.write_text("rules: [\n  - id: x\n")
    with pytest.raises(RuleError, match="not valid YAML") as err:
        load_rules(rules_dir)
    assert str(path) in str(err.value)


def test_infinite_weight_and_yaml_named_directory_are_rule_errors(tmp_path):
    import shutil

    from pipeline.common.errors import RuleError
    from pipeline.common.resources import RULES_DIR

    root = tmp_path / "rules"
    shutil.copytree(RULES_DIR, root)
    (root / "x.yaml").mkdir()
    with pytest.raises(RuleError, match="not a file"):
        load_rules(root)
    (root / "x.yaml").rmdir()
    path = root / "s4_scramble.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("    action: swap_arguments\n",
                                                            "    action: swap_arguments\n    weight: .inf\n", 1),
                    encoding="utf-8")
    with pytest.raises(RuleError, match="weight"):
        load_rules(root)
