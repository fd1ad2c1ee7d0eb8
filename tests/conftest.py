"""Shared fixtures: the project's rules, the spaCy model, and the real data beside the project."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def ruleset():
    from pipeline.corpus.rules import load_rules

    return load_rules()


@pytest.fixture(scope="session")
def nlp():
    from pipeline.common import resources

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


# --------------------------------------------------------------------- synthetic crowd rounds (simulate, aggregate)

# one representative corpus pair type per simulator model group
SIM_GROUP_TYPES = {"S1aS1b": ("S1aS1b", "cross"), "S1S2-same": ("S1aS2a", "same"),
                   "S1S2-cross": ("S1bS2a", "cross"), "S1S3-same": ("S1bS3b", "same"),
                   "S1S3-cross": ("S1aS3b", "cross"), "S1S4-same": ("S1aS4a", "same"),
                   "S1S4-cross": ("S1bS4a", "cross"), "unrelated": ("unrelated", "unrelated")}


@pytest.fixture(scope="session")
def sim_group_types() -> dict[str, tuple[str, str]]:
    return dict(SIM_GROUP_TYPES)


@pytest.fixture(scope="session")
def synthetic_corpus():
    """``synthetic_corpus(per_group)``: a corpus.tsv-like table (strings) with ``per_group`` pairs of every
    simulator model group, interleaved."""
    import pandas as pd

    def make(per_group: int = 50):
        rows = []
        for i in range(per_group):
            for g, (pt, st) in SIM_GROUP_TYPES.items():
                rows.append({"pair_ID": str(len(rows) + 1), "sentence_A": f"a {i} {g}", "sentence_B": f"b {i} {g}",
                             "pair_type": pt, "set": st, "expected_relation": "x"})
        return pd.DataFrame(rows)

    return make


@pytest.fixture(scope="session")
def sim_controls():
    """Eight control items as the simulator takes them: ``pair_ID answer_AB answer_BA relatedness_min
    relatedness_max`` (CTRL-008 has no expected BA answer)."""
    import pandas as pd

    return pd.DataFrame({
        "pair_ID": [f"CTRL-{i:03d}" for i in range(1, 9)],
        "answer_AB": ["TRUE", "TRUE", "FALSE", "UNKNOWN", "TRUE", "FALSE", "UNKNOWN", "TRUE"],
        "answer_BA": ["UNKNOWN", "TRUE", "FALSE", "UNKNOWN", "UNKNOWN", "FALSE", "TRUE", ""],
        "relatedness_min": [4, 4, 3, 1, 3, 3, 3, 4],
        "relatedness_max": [5, 5, 5, 2, 5, 5, 5, 5],
    })


@pytest.fixture(scope="session")
def sim_control_dict(sim_controls) -> dict[str, dict]:
    """:func:`sim_controls` in the form :func:`pipeline.crowd.controls.controls_by_id` returns."""
    return {r.pair_ID: {"AB": r.answer_AB or None, "BA": r.answer_BA or None,
                        "relatedness": (r.relatedness_min, r.relatedness_max)} for r in sim_controls.itertuples()}


@pytest.fixture(scope="session")
def write_sim_inputs(sim_controls):
    """``write_sim_inputs(corpus, folder)`` writes ``corpus.tsv`` and ``controls.yaml`` (the :func:`sim_controls`
    items in ``annotations/controls.yaml``'s form; the strict loader needs both answers, so CTRL-008's missing BA
    is written as UNKNOWN) into ``folder`` and returns their two paths."""

    def write(corpus, folder):
        cpath, ctl = folder / "corpus.tsv", folder / "controls.yaml"
        corpus.to_csv(cpath, sep="\t", index=False, lineterminator="\n")
        ctl.write_text("controls:\n" + "".join(
            f"  - id: {r.pair_ID}\n    sentence_A: control {r.pair_ID} first\n"
            f"    sentence_B: control {r.pair_ID} second\n"
            f"    answer_AB: \"{r.answer_AB}\"\n    answer_BA: \"{r.answer_BA or 'UNKNOWN'}\"\n"
            f"    relatedness: [{r.relatedness_min}, {r.relatedness_max}]\n" for r in sim_controls.itertuples()),
            encoding="utf-8")
        return cpath, ctl

    return write


# --------------------------------------------------------------------- expansion families

@pytest.fixture(scope="session")
def own_rules(ruleset):
    """Only the S3 and S4 rules, so that the S3 and S4 checks measure them alone."""
    import dataclasses

    return dataclasses.replace(ruleset, rules=[r for r in ruleset.rules if r.stage in ("S3", "S4")])
