"""The command line as a whole: parsers only in pipeline/cli, light to build, every option's default shown."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline import __version__
from pipeline.cli import main, parser

ROOT = Path(__file__).resolve().parents[2]


def _parsers(p: argparse.ArgumentParser, path: str = "sick"):
    yield path, p
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, f"{path} {name}")


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"sick {__version__}"


def test_every_option_has_help_that_shows_its_default():
    missing, no_default = [], []
    for path, p in _parsers(parser()):
        formatter = p._get_formatter()
        for action in p._actions:
            if not action.option_strings or isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
                continue
            if not action.help:
                missing.append(f"{path} {action.option_strings[0]}")
            elif action.default not in (None, False, argparse.SUPPRESS):
                shown = formatter._get_help_string(action) % {"default": action.default}
                if "default" not in shown:
                    no_default.append(f"{path} {action.option_strings[0]}")
    assert not missing, f"options without help: {missing}"
    assert not no_default, f"options whose help hides the default: {no_default}"


def test_argparse_lives_only_in_the_cli_package():
    users = [p.relative_to(ROOT) for p in (ROOT / "pipeline").rglob("*.py")
             if "import argparse" in p.read_text(encoding="utf-8") and p.parent.name != "cli"]
    assert not users, f"argparse outside pipeline/cli: {users}"


def test_building_the_parser_imports_no_stage():
    """Heavy libraries load only when a command runs (AllenNLP's commands/ style)."""
    code = ("import sys; from pipeline.cli import parser; parser(); "
            "heavy = [m for m in ('spacy', 'pandas', 'numpy', 'scipy', 'matplotlib', 'pipeline.crowd.aggregate', "
            "'pipeline.corpus.job') if m in sys.modules]; print(','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == ""


def test_no_import_cycles_between_parts():
    """Data flows one way: common <- corpus <- crowd <- review/report/evaluate; no part imports the command line."""
    order = {"common": 0, "corpus": 1, "crowd": 2, "review": 3, "report": 3, "evaluate": 3, "pyramid": 3}
    bad = []
    for path in (ROOT / "pipeline").rglob("*.py"):
        part = path.relative_to(ROOT / "pipeline").parts[0]
        if part not in order:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            words = line.strip().split()
            if len(words) >= 2 and words[0] in ("from", "import") and words[1].startswith("pipeline."):
                other = words[1].split(".")[1]
                if other == "cli" or (other in order and order[other] > order[part]):
                    bad.append(f"{path.relative_to(ROOT)}: {line.strip()}")
    assert not bad, bad
