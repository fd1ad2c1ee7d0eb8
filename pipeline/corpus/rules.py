"""Rules as data: the YAML rule schema, the action registry and the lexicons.

A rule file (``rules/*.yaml``) is a mapping with a ``rules`` list. Each rule names a registered *action* (a
Python function, registered with :func:`action` the way spaCy's registry maps config names to functions)
and its ``params``; adding a rule rarely needs new Python. Lexicons are ``rules/lexicons/NAME.yaml``
mappings with ``description``, ``source`` and ``entries``; a rule refers to one by name in a param called
``lexicon`` or ending in ``_lexicon``.

Rule fields: ``id`` (unique), ``stage`` (``normalize`` | ``S2`` | ``S3`` | ``S4``), ``description``,
``source`` (paper, section/table), ``action``, ``params`` (mapping), ``examples`` (at least two
``{input, output}``; ``output: null`` means the rule does not apply, ``dropped: true`` that a normalization
rule rejects the sentence), ``enabled`` (default true), ``weight`` (default 1: relative chance that an
expansion made by this rule is the one kept for its S1, see :func:`pipeline.expand.choose`).

Normalization rules run in file order; expansion rules each propose candidates (see :mod:`pipeline.expand`).
"""

from __future__ import annotations

__all__ = ["DEFAULT_RULES_DIR", "Example", "Rule", "RuleSet", "load_rules"]

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pipeline.common.errors import RuleError
from pipeline.common.files import sha256_file
from pipeline.common.resources import RULES_DIR
from pipeline.corpus.registry import load_actions

DEFAULT_RULES_DIR = RULES_DIR

class Example(BaseModel):
    model_config = ConfigDict(extra="forbid")
    input: str
    output: str | None = None
    dropped: bool = False


class Rule(BaseModel):
    """One rule entry of a rule file (see the module docstring for the fields)."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_\-]*$")
    stage: Literal["normalize", "S2", "S3", "S4"]
    description: str = Field(min_length=1)
    source: str = Field(min_length=1)
    action: str
    params: dict[str, Any] = Field(default_factory=dict)
    examples: list[Example] = Field(min_length=2)
    enabled: bool = True
    weight: float = Field(default=1.0, gt=0, allow_inf_nan=False)
    # set by the loader
    file: str = ""
    parsed_params: Any = None
    func: Any = None  # the registered action's function, resolved once by the loader

    @field_validator("examples")
    @classmethod
    def _one_positive(cls, v: list[Example]) -> list[Example]:
        if not any(e.output is not None or e.dropped for e in v):
            raise ValueError("at least one example must show the rule applying")
        return v


@dataclass
class RuleSet:
    """All rules and lexicons of a rules directory.

    Attributes:
        rules: enabled rules in load order (files sorted by name, then position in file).
        lexicons: ``{name: entries}``.
        hashes: ``{relative file path: sha256}`` of every rule and lexicon file, for the manifest.
    """

    root: Path
    rules: list[Rule]
    lexicons: dict[str, Any]
    hashes: dict[str, str] = field(default_factory=dict)
    _derived: dict[tuple, Any] = field(default_factory=dict, repr=False)

    def stage(self, stage: str) -> list[Rule]:
        return [r for r in self.rules if r.stage == stage]

    def by_id(self, rule_id: str) -> Rule:
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise KeyError(rule_id)

    def weights(self) -> dict[str, float]:
        """``{rule id: weight}`` of every rule."""
        return {r.id: r.weight for r in self.rules}

    def lexicon(self, name: str) -> Any:
        try:
            return self.lexicons[name]
        except KeyError:
            raise RuleError(self.root / "lexicons", f"no lexicon named {name!r}") from None

    def derived(self, name: str, build: Callable[[Any], Any]) -> Any:
        """``build(entries of lexicon name)``, computed once per rule set (an index, a set, a table)."""
        key = (name, build)
        if key not in self._derived:
            self._derived[key] = build(self.lexicon(name))
        return self._derived[key]

    def cached(self, key: tuple, build: Callable[[], Any]) -> Any:
        """``build()``, computed once per rule set under ``key`` (a table drawn from several lexicons); the
        result is shared, so callers must not change it."""
        key = ("cached", *key)
        if key not in self._derived:
            self._derived[key] = build()
        return self._derived[key]

    def lexicon_set(self, name: str) -> frozenset[str]:
        """A list lexicon (or the keys of a mapping lexicon) as a lower-cased frozenset, built once."""
        return self.derived(name, _lower_set)


def _lower_set(entries: Any) -> frozenset[str]:
    return frozenset(str(x).lower() for x in entries)


# libyaml's parser when PyYAML was built with it (ten times faster; the same safe constructors, so the same data)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _read_yaml(path: Path) -> Any:
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)  # noqa: S506 (a safe loader)
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise RuleError(path, f"not valid YAML: {exc}") from None


def load_rules(root: str | Path | None = None) -> RuleSet:
    """Load and validate every rule file and lexicon under ``root`` (default: the project's ``rules/``).

    Raises:
        RuleError: a file that is not valid YAML, a rule missing a field or with a bad value, a duplicate id,
            an unknown action or one not allowed for the rule's stage, params the action rejects, or a
            reference to a missing lexicon. The message names the file and rule id.
    """
    actions = load_actions()
    root = Path(root) if root is not None else DEFAULT_RULES_DIR
    if not root.is_dir():
        raise RuleError(root, "rules directory not found")
    hashes: dict[str, str] = {}
    lexicons: dict[str, Any] = {}
    for path in sorted(root.glob("*.yaml")) + sorted((root / "lexicons").glob("*.yaml")):
        if not path.is_file():
            raise RuleError(path, "a rule or lexicon file name that is not a file")
    for path in sorted((root / "lexicons").glob("*.yaml")):
        data = _read_yaml(path)
        if not isinstance(data, dict) or "entries" not in data:
            raise RuleError(path, "a lexicon file must be a mapping with 'entries' (and description, source)")
        for key in ("description", "source"):
            if not data.get(key):
                raise RuleError(path, f"lexicon lacks {key!r}")
        lexicons[path.stem] = data["entries"]
        hashes[str(path.relative_to(root))] = sha256_file(path)

    rules: list[Rule] = []
    seen: dict[str, Path] = {}
    for path in sorted(root.glob("*.yaml")):
        hashes[str(path.relative_to(root))] = sha256_file(path)
        data = _read_yaml(path)
        if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
            raise RuleError(path, "a rule file must be a mapping with a 'rules' list")
        for pos, raw in enumerate(data["rules"], 1):
            rid = raw.get("id") if isinstance(raw, dict) else None
            label = rid or f"#{pos}"
            if not isinstance(raw, dict):
                raise RuleError(path, "rule entry is not a mapping", label)
            try:
                rule = Rule(**raw)
            except ValidationError as exc:
                problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'rule'}: {e['msg']}" for e in exc.errors())
                raise RuleError(path, problems, label) from None
            if rule.id in seen:
                raise RuleError(path, f"duplicate rule id (also in {seen[rule.id].name})", rule.id)
            seen[rule.id] = path
            reg = actions.get(rule.action)
            if reg is None:
                raise RuleError(path, f"unknown action {rule.action!r} (known: {', '.join(sorted(actions))})",
                                rule.id)
            if rule.stage not in reg.stages:
                raise RuleError(path, f"action {rule.action!r} is for stages {reg.stages}, not {rule.stage}",
                                rule.id)
            for key, value in rule.params.items():
                if (key == "lexicon" or key.endswith("_lexicon")) and value not in lexicons:
                    raise RuleError(path, f"param {key}: no lexicon named {value!r} in {root / 'lexicons'}",
                                    rule.id)
            if reg.params is not None:
                unknown = sorted(set(rule.params) - set(reg.params.model_fields))
                if unknown:
                    raise RuleError(path, f"action {rule.action!r} takes no param(s) {', '.join(unknown)} "
                                          f"(known: {', '.join(reg.params.model_fields) or 'none'})", rule.id)
                try:
                    rule.parsed_params = reg.params(**rule.params)
                except ValidationError as exc:
                    problems = "; ".join(f"params.{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
                    raise RuleError(path, problems, rule.id) from None
            else:
                rule.parsed_params = rule.params
            rule.func = reg.func
            rule.file = str(path.relative_to(root))
            if rule.enabled:
                rules.append(rule)
    return RuleSet(root=root, rules=rules, lexicons=lexicons, hashes=hashes)
