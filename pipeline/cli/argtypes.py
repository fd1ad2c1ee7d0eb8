"""Checked argument types for the ``sick`` command line (argparse ``type=`` callables)."""

from __future__ import annotations

__all__ = ["HelpFormatter", "apply_formatter", "non_negative_int", "positive_int", "probability", "share"]

import argparse


def positive_int(text: str) -> int:
    """An integer >= 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """An integer >= 0."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, got {value}")
    return value


def probability(text: str) -> float:
    """A number in [0, 1]."""
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be in [0, 1], got {value}")
    return value


def share(text: str) -> float:
    """A number in [0, 1): a share that cannot be the whole."""
    value = float(text)
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"must be in [0, 1), got {value}")
    return value


def add_force(parser: argparse.ArgumentParser) -> None:
    """Add ``--force`` to a command that writes a directory (see :func:`pipeline.common.files.check_output_dir`)."""
    parser.add_argument("--force", action="store_true",
                        help="replace --out even if sick did not make it (never a file, nor a folder holding an "
                             "input of the run)")


class HelpFormatter(argparse.HelpFormatter):
    """Help that shows every option's default: "(default: X)" is added to a help text that does not already
    name its default, for options whose default is a value (not None, False or suppressed)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if ("default" in text or default in (None, False, argparse.SUPPRESS) or not action.option_strings
                or isinstance(action, (argparse._HelpAction, argparse._VersionAction))):
            return text
        return f"{text} (default: %(default)s)" if text else "(default: %(default)s)"


def apply_formatter(parser: argparse.ArgumentParser, formatter: type[argparse.HelpFormatter] = HelpFormatter) -> None:
    """Give ``parser`` and every sub-parser below it ``formatter`` (argparse does not pass it down)."""
    parser.formatter_class = formatter
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                apply_formatter(sub, formatter)
