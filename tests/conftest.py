"""Shared fixtures: the project's rules, the spaCy model, and the real data beside the project."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def ruleset():
    from pipeline.rules import load_rules

    return load_rules()


@pytest.fixture(scope="session")
def nlp():
    from pipeline import resources

    return resources.nlp()


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"real data not found at {SHARED} (../shared/data beside the project)")
    return SHARED
