"""``sick rules check DIR``: load a rules directory and run every rule's examples; refuse it when one fails."""

from __future__ import annotations

__all__ = ["check_rules_dir", "register"]

import argparse
import sys
from typing import TYPE_CHECKING

from pipeline.common.errors import RuleError

if TYPE_CHECKING:
    from pipeline.corpus.rules import RuleSet


def check_rules_dir(path: str) -> RuleSet:
    """Load the rules under ``path``, run their examples and return the rule set.

    Raises:
        RuleError: a malformed rule file, or examples that fail (each named by file, rule id and number).
    """
    from pipeline.corpus.examples import check_examples
    from pipeline.corpus.rules import load_rules

    ruleset = load_rules(path)
    failures = check_examples(ruleset)
    if failures:
        listed = "; ".join(f"{f.file} {f.rule_id} example {f.number}: {f.problem}" for f in failures[:10])
        more = f" (and {len(failures) - 10} more)" if len(failures) > 10 else ""
        raise RuleError(path, f"{len(failures)} rule example(s) fail: {listed}{more}")
    return ruleset


def cmd_check(args: argparse.Namespace) -> int:
    n = sum(len(r.examples) for r in check_rules_dir(args.dir).rules)
    print(f"{args.dir}: all {n} rule examples pass", file=sys.stderr)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``rules check`` to the ``sick`` sub-commands."""
    r = subparsers.add_parser("rules", help="check a rules directory",
                              description="Rule sets: load one and run every rule's own examples.")
    rsub = r.add_subparsers(dest="rules_command", required=True)
    c = rsub.add_parser("check", help="run every rule's examples; exit 2 when one fails",
                        description="Load DIR (rule YAML files and lexicons/) and run each rule on its examples.")
    c.add_argument("dir", metavar="DIR", help="rules directory, e.g. a copy of the project's rules/")
    c.set_defaults(func=cmd_check)
