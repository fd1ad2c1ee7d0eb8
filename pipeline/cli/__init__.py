"""The ``sick`` command line: one module per command family, each with a ``register(subparsers)``.

| module | commands |
|---|---|
| :mod:`pipeline.cli.build` | ``build``, ``normalize``, ``expand``, ``setup`` |
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
import contextvars
import os
import sys

from pipeline import __version__
from pipeline.cli import build, crowd, pyramid, report, review, rules, score
from pipeline.cli.argtypes import HelpFormatter, apply_formatter
from pipeline.common.errors import SickError

FAMILIES = (build, rules, review, crowd, report, score, pyramid)


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
    """Run ``sick`` with ``argv`` (default: ``sys.argv[1:]``); return the exit status (2 on a SickError).

    A closed standard output (``sick … | head``) ends the command quietly with status 141 (128 + SIGPIPE, as
    a shell reports a command killed by SIGPIPE).
    """
    try:
        try:
            args = parser().parse_args(argv)
        except SystemExit:  # --help, --version, usage errors: flush here, where a closed pipe is caught
            sys.stdout.flush()
            raise
        # the command's output policy (--force, its inputs; pipeline.common.files.prepare_outputs) lives in a
        # copied context, so that one command run in-process does not leak it into the next
        status = contextvars.copy_context().run(_run, args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        _quiet_stdout()
        return 141


def _run(args: argparse.Namespace) -> int:
    try:
        return int(args.func(args))
    except SickError as exc:
        print(f"sick: error: {exc}", file=sys.stderr)
        return 2


def _quiet_stdout() -> None:
    # Python flushes stdout again at exit and would print "Exception ignored ... BrokenPipeError": point the file
    # descriptor at /dev/null instead (the recipe of the Python docs, "Note on SIGPIPE").
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
