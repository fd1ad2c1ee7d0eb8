"""The action registry: the names that rule files use, mapped to the Python functions that carry them out.

A rule file names an *action* and gives its ``params``; the action is a function registered here with the
:func:`action` decorator, the way spaCy's ``registry`` maps the names in a config to functions (spaCy,
``spacy/util.py``). The contract sits in the decorator and in the types below:

- a normalization action is ``NormalizeAction``: ``func(sentence, params, ruleset) -> None``; it edits the
  :class:`~pipeline.corpus.sentence.Sentence` in place, or raises
  :class:`~pipeline.common.errors.Unnormalizable`;
- an expansion action (S2, S3, S4) is ``ExpandAction``: ``func(sentence, params, ruleset) -> Edits``, one
  ``{token index: new text}`` mapping per candidate, made on forks of the sentence.

``params`` is the action's validated pydantic model when it declares one, else the rule's plain mapping;
``ruleset`` is the :class:`~pipeline.corpus.rules.RuleSet` the rule belongs to (its lexicons).

:func:`load_actions` fills the table by importing :mod:`pipeline.corpus.actions`, once.
"""

from __future__ import annotations

__all__ = ["ACTIONS", "Edits", "ExpandAction", "NormalizeAction", "Params", "RegisteredAction", "action",
           "load_actions"]

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from pydantic import BaseModel

if TYPE_CHECKING:
    from pipeline.corpus.rules import RuleSet
    from pipeline.corpus.sentence import Sentence

Params: TypeAlias = "BaseModel | dict[str, Any]"
Edits: TypeAlias = "Iterable[dict[int, str]] | None"
NormalizeAction: TypeAlias = "Callable[[Sentence, Params, RuleSet], None]"
ExpandAction: TypeAlias = "Callable[[Sentence, Params, RuleSet], Edits]"
ACTIONS_PACKAGE = "pipeline.corpus.actions"


@dataclass(frozen=True)
class RegisteredAction:
    """One registered action: its name in rule files, the function, the stages it may serve and the pydantic
    model of its params (``None``: the params are passed as a plain mapping)."""

    name: str
    func: Callable[..., Any]
    stages: tuple[str, ...]
    params: type[BaseModel] | None


ACTIONS: dict[str, RegisteredAction] = {}


def action(name: str, stages: tuple[str, ...],
           params: type[BaseModel] | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function under ``name`` for ``stages`` (see the module docstring for its
    signature).

    Raises:
        ValueError: ``name`` is already registered.
    """

    def deco(func: Callable[..., Any]) -> Callable[..., Any]:
        if name in ACTIONS:
            raise ValueError(f"action {name!r} registered twice")
        ACTIONS[name] = RegisteredAction(name, func, stages, params)
        return func

    return deco


def load_actions() -> dict[str, RegisteredAction]:
    """Import the modules of :mod:`pipeline.corpus.actions` (their decorators fill :data:`ACTIONS`) and
    return the table. Importing again is a no-op, so calling this more than once is cheap."""
    importlib.import_module(ACTIONS_PACKAGE)
    return ACTIONS
