"""The ``sick`` command line: one module per command family, each with a ``register(subparsers)``.

| module | commands |
|---|---|
| :mod:`pipeline.cli.build` | ``build``, ``normalize``, ``expand`` |
| :mod:`pipeline.cli.crowd` | ``tasks export``, ``simulate-judgments``, ``aggregate``, ``aggregate-labels`` |
| :mod:`pipeline.cli.report` | ``report`` |
| :mod:`pipeline.cli.score` | ``score semeval|sts|stsb``, ``baseline …`` |
| :mod:`pipeline.cli.pyramid` | ``pyramid build|eval`` |
| :mod:`pipeline.cli.review` | ``review export``, ``review apply`` |

Parsers are built from light modules only; each command imports its stages when it runs (the style of AllenNLP's
``commands/``). Errors in input or rules print one line naming file, line and field, and exit with status 2;
nothing is written then.
"""

from __future__ import annotations

__all__ = ["main", "parser"]

import argparse
import sys

from pipeline import __version__
from pipeline.cli import build, crowd, pyramid, report, review, score
from pipeline.cli.argtypes import HelpFormatter, apply_formatter
from pipeline.common.errors import SickError

FAMILIES = (build, crowd, report, score, pyramid, review)


def parser() -> argparse.ArgumentParser:
    """The ``sick`` parser with every sub-command; each sets ``func(args) -> exit status``."""
    p = argparse.ArgumentParser(prog="sick", description="Build SICK-style sentence-pair benchmarks.",
                                formatter_class=HelpFormatter)
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    for family in FAMILIES:
        family.register(sub)
    apply_formatter(p)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run ``sick`` with ``argv`` (default: ``sys.argv[1:]``); return the exit status (2 on a SickError)."""
    args = parser().parse_args(argv)
    try:
        return int(args.func(args))
    except SickError as exc:
        print(f"sick: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
