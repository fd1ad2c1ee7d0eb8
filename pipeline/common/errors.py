"""Errors raised on bad input, named so that a user can find and fix the offending line."""

from __future__ import annotations

__all__ = ["InputError", "RuleError", "SickError", "SubmissionError", "Unnormalizable"]


class SickError(Exception):
    """Base class of the errors the ``sick`` command reports as one line and exit status 2."""


class InputError(SickError):
    """A problem in an input file.

    Attributes:
        path: the file (as given by the user).
        line: 1-based line number, or None when the problem is the whole file.
        field: the field or column concerned, or None.
        problem: what is wrong, in words.
    """

    def __init__(self, path: object, problem: str, line: int | None = None, field: str | None = None) -> None:
        self.path = str(path)
        self.line = line
        self.field = field
        self.problem = problem
        where = self.path
        if line is not None:
            where += f", line {line}"
        if field is not None:
            where += f", field {field!r}"
        super().__init__(f"{where}: {problem}")


class SubmissionError(InputError):
    """A problem in a system's answers (a submission) rather than in the gold data or the user's setup.

    Scorers reject the submission (exit status 1) instead of stopping with status 2.
    """


class RuleError(SickError):
    """A malformed rule file, lexicon, or a rule naming an unknown action.

    The message names the file and, when known, the rule id.
    """

    def __init__(self, path: object, problem: str, rule_id: str | None = None) -> None:
        self.path = str(path)
        self.rule_id = rule_id
        where = self.path + (f", rule {rule_id!r}" if rule_id else "")
        super().__init__(f"{where}: {problem}")


class Unnormalizable(Exception):
    """Raised by a normalization action when a sentence cannot be brought into SICK's form.

    SICK dropped such source pairs (Marelli et al. 2014, section 3.1); the message is the reason
    written to ``dropped.tsv``.
    """
