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


@pytest.fixture(scope="session")
def msrvid_s1s(shared_data) -> list[str]:
    """The first 200 distinct first-column sentences of MSR-Video train, final period stripped.

    They are already in SICK's S1 style (present continuous), so expansion tests use them as S1s.
    """
    path = shared_data / "sts2012_msrvid" / "train" / "STS.input.MSRvid.txt"
    if not path.exists():
        pytest.skip(f"{path} not found")
    out: dict[str, None] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        s = line.split("\t")[0].strip()
        s = s[:-1].rstrip() if s.endswith(".") else s
        if s:
            out.setdefault(s)
    return list(out)[:200]
