"""`sick sample`: random sentences of a build per slot, with their source sentences, for a person to read."""

from __future__ import annotations

import pandas as pd
import pytest

from pipeline.cli import main
from pipeline.corpus.job import SAMPLE_COLUMNS


def read(path) -> pd.DataFrame:
    return pd.read_csv(path, sep="\t", keep_default_na=False, dtype=str)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("b") / "default"
    assert main(["build", "--out", str(out), "--quiet", "--seed", "3"]) == 0
    return out


def test_sample_per_slot_with_sources(built, tmp_path):
    out = tmp_path / "sample.tsv"
    assert main(["sample", "--build", str(built), "--per-slot", "5", "--seed", "2", "--out", str(out)]) == 0
    s = read(out)
    assert list(s.columns) == SAMPLE_COLUMNS
    sents = read(built / "sentences.tsv")
    available = sents["slot"].str[:2].value_counts()
    # five per slot, or all of a slot that has fewer (the default build has few plausible S4)
    expected = {k: min(5, int(available[k])) for k in ("S1", "S2", "S3", "S4")}
    assert s["slot"].str[:2].value_counts().to_dict() == expected
    assert (s["verdict"] == "").all()
    text = {(g, sl): t for g, sl, t in zip(sents["group"], sents["slot"], sents["sentence"])}
    for r in s.itertuples():
        assert text[(r.group, r.slot)] == r.sentence
        src = ("S0" if r.slot.startswith("S1") else "S1") + r.slot[-1]
        assert text[(r.group, src)] == r.source_sentence


def test_sample_is_deterministic_for_a_seed(built, tmp_path):
    paths = []
    for name, seed in (("a", "4"), ("b", "4"), ("c", "5")):
        paths.append(tmp_path / f"{name}.tsv")
        main(["sample", "--build", str(built), "--per-slot", "6", "--seed", seed, "--out", str(paths[-1])])
    a, b, c = (p.read_bytes() for p in paths)
    assert a == b and a != c


def test_sample_takes_all_when_fewer(built, tmp_path):
    out = tmp_path / "all.tsv"
    main(["sample", "--build", str(built), "--per-slot", "100000", "--out", str(out)])
    sents = read(built / "sentences.tsv")
    assert len(read(out)) == sents["slot"].str[:2].isin(["S1", "S2", "S3", "S4"]).sum()


def test_not_a_build_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "x").mkdir()
    code = main(["sample", "--build", str(tmp_path / "x"), "--out", str(tmp_path / "s.tsv")])
    assert code == 2
    assert "not a sick build directory" in capsys.readouterr().err
    assert not (tmp_path / "s.tsv").exists()
