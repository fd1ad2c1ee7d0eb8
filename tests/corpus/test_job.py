"""`sick build` end to end: output layout, pairing, dedup, split, determinism, atomic failure."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from pipeline.cli import main
from pipeline.common.resources import DEFAULT_INPUT
from pipeline.corpus.dedup import dedup
from pipeline.corpus.job import CORPUS_COLUMNS
from pipeline.corpus.pair import Group, Pair, Slot

FILES = ["corpus.tsv", "sentences.tsv", "rule_frequencies.tsv", "pair_distribution.tsv", "dropped.tsv",
         "manifest.json", "candidates.tsv"]


def read(path) -> pd.DataFrame:
    return pd.read_csv(path, sep="\t", keep_default_na=False, dtype=str)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("b") / "default"
    assert main(["build", "--out", str(out), "--quiet", "--seed", "7", "--all-candidates"]) == 0
    return out


def test_corpus_layout(built):
    corpus = read(built / "corpus.tsv")
    assert list(corpus.columns) == CORPUS_COLUMNS
    assert corpus["pair_ID"].astype(int).tolist() == list(range(1, len(corpus) + 1))
    for col in ("entailment_label", "relatedness_score", "entailment_AB", "entailment_BA"):
        assert (corpus[col] == "").all()
    assert set(corpus["SemEval_set"]) <= {"TRAIN", "TRIAL", "TEST"}
    for s in pd.concat([corpus["sentence_A"], corpus["sentence_B"]]):
        assert s and s[0].isupper() and not s.endswith(".") and "  " not in s


def test_pairs_match_their_group_sentences(built):
    corpus, sents = read(built / "corpus.tsv"), read(built / "sentences.tsv")
    groups_of = {}  # (sentence, slot) -> ids of the groups holding that sentence in that slot
    for row in sents.itertuples():
        groups_of.setdefault((row.sentence, row.slot), set()).add(row.group)
    related = corpus[corpus["set"] != "unrelated"]
    assert len(related) > 0
    for row in related.itertuples():
        slot_a, slot_b = row.pair_type[:3], row.pair_type[3:]
        shared = groups_of.get((row.sentence_A, slot_a), set()) & groups_of.get((row.sentence_B, slot_b), set())
        assert shared, f"pair {row.pair_ID} ({row.pair_type}) does not join two sentences of one group"
        assert row.set == ("same" if slot_a[-1] == slot_b[-1] and slot_b != "S1b" else "cross")
        fam = slot_b[:2]
        assert row.expected_relation == {"S1": "similar", "S2": "similar", "S3": "contrasting",
                                         "S4": "lexical-overlap"}[fam]
    # every pair type of a group is there unless its sentence is missing or dedup removed it
    allowed = {"S1aS1b"} | {f"S1{x}S{k}{y}" for k in "234" for x in "ab" for y in "ab"}
    assert set(related["pair_type"]) <= allowed


def test_no_identical_or_repeated_pairs(built):
    corpus = read(built / "corpus.tsv")
    keys = [frozenset((a.lower(), b.lower())) for a, b in zip(corpus["sentence_A"], corpus["sentence_B"])]
    assert all(len(k) == 2 for k in keys) and len(set(keys)) == len(keys)


def _pair(ga, slot_a, gb, slot_b):
    return Pair(ga, slot_a, gb, slot_b, slot_a + slot_b, "same", "similar")


def test_dedup_removes_identical_and_repeated_pairs():
    g1 = Group("G00001", None, {"S1a": Slot("A man is riding a horse"), "S1b": Slot("A man rides a horse"),
                                "S2a": Slot("a MAN is riding a horse"), "S3a": Slot("A man is not riding a horse")})
    g2 = Group("G00002", None, {"S1a": Slot("A man rides a horse"), "S1b": Slot("a man is riding a horse"),
                                "S3a": Slot("A MAN IS NOT RIDING A HORSE")})
    pairs = [
        _pair(g1, "S1a", g1, "S1b"),  # kept
        _pair(g1, "S1a", g1, "S2a"),  # the same sentence but for case: identical
        _pair(g1, "S1a", g1, "S3a"),  # kept
        _pair(g2, "S1a", g2, "S1b"),  # G00001's S1aS1b in reversed order (and another case): repeated
        _pair(g2, "S1b", g2, "S3a"),  # G00001's S1aS3a in another case: repeated
        _pair(g2, "S1a", g2, "S3a"),  # new: kept
        _pair(g2, "S3a", g1, "S1a"),  # G00001's S1aS3a reversed: repeated
    ]
    kept, removed, keys = dedup(pairs)
    assert kept == [pairs[0], pairs[2], pairs[5]]
    assert [(r.pair, r.reason) for r in removed] == [
        (pairs[1], "identical sentences"),
        (pairs[3], "repeated pair (same as S1aS1b of G00001)"),
        (pairs[4], "repeated pair (same as S1aS3a of G00001)"),
        (pairs[6], "repeated pair (same as S1aS3a of G00001)"),
    ]
    assert keys == {frozenset(("a man is riding a horse", "a man rides a horse")),
                    frozenset(("a man is riding a horse", "a man is not riding a horse")),
                    frozenset(("a man rides a horse", "a man is not riding a horse"))}
    assert dedup([]) == ([], [], set())


def test_build_drops_a_source_pair_repeated_in_reverse(tmp_path):
    """The second source pair is the first one reversed: every related pair of its group repeats one of the
    first group's (its S1a is the first group's S1b and expansion depends on the sentence only)."""
    src = tmp_path / "in.tsv"
    src.write_text("A man is riding a horse\tA woman is slicing an onion\n"
                   "A woman is slicing an onion\tA man is riding a horse\n")
    out = tmp_path / "out"
    assert main(["build", "--source", f"tsv:{src}", "--out", str(out), "--quiet"]) == 0
    corpus, dropped = read(out / "corpus.tsv"), read(out / "dropped.tsv")
    counts = json.loads((out / "manifest.json").read_text())["counts"]["pairs"]
    related = corpus[corpus["set"] != "unrelated"]
    assert counts["removed_identical"] == 0
    assert counts["removed_repeated"] == len(related) == counts["related"] // 2 > 0
    dedup_rows = dropped[dropped["stage"] == "dedup"]
    assert len(dedup_rows) == counts["removed_repeated"]
    assert dedup_rows["item"].str.startswith("G00002 ").all()
    assert dedup_rows["reason"].str.startswith("repeated pair (same as ").all()
    assert corpus["sentence_A_original"].isin(["A man is riding a horse", "A woman is slicing an onion"]).all()


def test_unrelated_share_and_split(built):
    corpus = read(built / "corpus.tsv")
    n, u = len(corpus), (corpus["set"] == "unrelated").sum()
    assert abs(u - 0.122 * n) <= 1
    unrel = corpus[corpus["set"] == "unrelated"]
    sents = read(built / "sentences.tsv")
    s1 = set(sents.loc[sents["slot"].isin(["S1a", "S1b"]), "sentence"])
    assert set(unrel["sentence_A"]) <= s1 and set(unrel["sentence_B"]) <= s1
    counts = Counter(corpus["SemEval_set"])
    for name, share in (("TRAIN", .45), ("TRIAL", .05), ("TEST", .5)):
        assert abs(counts[name] - share * n) < 1


def test_tables_agree_with_corpus(built):
    corpus, sents = read(built / "corpus.tsv"), read(built / "sentences.tsv")
    dist = read(built / "pair_distribution.tsv")
    assert dict(zip(dist["pair_type"], dist["count"].astype(int))) == dict(Counter(corpus["pair_type"]))
    freq = read(built / "rule_frequencies.tsv")
    from pipeline.corpus.rules import load_rules
    assert set(freq["rule"]) == {r.id for r in load_rules().rules}
    used = Counter(r for rules in sents["rules"] for r in rules.split())
    assert dict(zip(freq["rule"], freq["freq"].astype(int))) == {r: used.get(r, 0) for r in freq["rule"]}


def test_manifest_records_inputs_and_rules(built):
    m = json.loads((built / "manifest.json").read_text())
    assert m["seed"] == 7
    assert m["inputs"][0]["sha256"] == hashlib.sha256(DEFAULT_INPUT.read_bytes()).hexdigest()
    rules_dir = Path(__file__).resolve().parents[2] / "rules"
    assert set(m["rules"]["files"]) == {p.relative_to(rules_dir).as_posix() for p in rules_dir.rglob("*.yaml")}
    for rel, digest in m["rules"]["files"].items():
        assert hashlib.sha256((rules_dir / rel).read_bytes()).hexdigest() == digest
    assert m["resources"]["spacy"].startswith("3.8") and m["resources"]["wordnet"] == "3.0"


def test_same_seed_byte_identical_other_seed_differs(built, tmp_path):
    again = tmp_path / "again"
    assert main(["build", "--out", str(again), "--quiet", "--seed", "7", "--all-candidates"]) == 0
    for name in FILES:
        assert (again / name).read_bytes() == (built / name).read_bytes(), name
    other = tmp_path / "other"
    assert main(["build", "--out", str(other), "--quiet", "--seed", "8"]) == 0
    assert (other / "corpus.tsv").read_bytes() != (built / "corpus.tsv").read_bytes()


def test_sample_depends_on_the_file_not_its_path(tmp_path, monkeypatch):
    """The same input under another name, given relative or absolute, draws the same source pairs; a file
    with other content draws others."""
    lines = DEFAULT_INPUT.read_text(encoding="utf-8").splitlines(keepends=True)
    (tmp_path / "a").mkdir()
    first = tmp_path / "a" / "pairs.tsv"
    first.write_text("".join(lines), encoding="utf-8")
    second = tmp_path / "copy of pairs.tsv"
    second.write_text("".join(lines), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    outs = []
    for i, src in enumerate(["a/pairs.tsv", str(second)]):
        outs.append(tmp_path / f"out{i}")
        assert main(["build", "--source", f"tsv:{src}", "--pairs-per-source", "8", "--out", str(outs[-1]),
                     "--quiet"]) == 0
    assert (outs[0] / "corpus.tsv").read_bytes() == (outs[1] / "corpus.tsv").read_bytes()
    third = tmp_path / "other.tsv"
    third.write_text("".join(lines + ["A cat is sleeping on a sofa\tA kitten is sleeping on a couch\n"]),
                     encoding="utf-8")
    assert main(["build", "--source", f"tsv:{third}", "--pairs-per-source", "8", "--out", str(tmp_path / "out2"),
                 "--quiet"]) == 0
    originals = [set(read(o / "sentences.tsv")["sentence"]) for o in (outs[0], tmp_path / "out2")]
    assert originals[0] != originals[1]


def test_bad_input_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "bad.tsv"
    bad.write_text("A dog runs.\tA dog is running.\nonly one column\n")
    out = tmp_path / "out"
    assert main(["build", "--source", f"tsv:{bad}", "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert f"{bad}, line 2" in err and "sentence_A<TAB>sentence_B" in err
    assert not out.exists() and list(tmp_path.iterdir()) == [bad]
    # an existing output survives a failed run untouched
    out.mkdir()
    (out / ".sick-output").touch()  # a previous output of sick, which a new build may replace
    (out / "corpus.tsv").write_text("keep me")
    assert main(["build", "--source", f"tsv:{bad}", "--out", str(out), "--quiet"]) == 2
    assert (out / "corpus.tsv").read_text() == "keep me"
    # with --skip-bad-lines the line is recorded, not lost
    assert main(["build", "--source", f"tsv:{bad}", "--out", str(out), "--quiet", "--skip-bad-lines"]) == 0
    dropped = read(out / "dropped.tsv")
    row = dropped[dropped["stage"] == "source"].iloc[0]
    assert row["line"] == "2" and row["text"] == "only one column"


def test_unknown_kind_is_an_error(tmp_path, capsys):
    assert main(["build", "--source", f"csv:{DEFAULT_INPUT}", "--out", str(tmp_path / "o"), "--quiet"]) == 2
    assert "unknown source kind 'csv'" in capsys.readouterr().err


def test_stage_commands(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text("A dog runs through the grass .\nA man is riding a horse\n")
    out = tmp_path / "norm.tsv"
    assert main(["normalize", str(src), str(out), "--quiet"]) == 0
    norm = read(out)
    assert list(norm.columns[:4]) == ["input", "output", "rules", "status"] and len(norm) == 2
    assert norm["input"].tolist() == ["A dog runs through the grass .", "A man is riding a horse"]
    assert norm["output"].tolist() == ["A dog is running through the grass", "A man is riding a horse"]
    assert norm["status"].tolist() == ["changed", "unchanged"]
    assert "present-continuous" in norm["rules"][0].split() and norm["rules"][1] == ""
    tsv = tmp_path / "s1.tsv"
    tsv.write_text("id\tsentence\n1\tThe turtle is following the fish\n")
    out2 = tmp_path / "exp.tsv"
    assert main(["expand", str(tsv), str(out2), "--quiet"]) == 0
    exp = read(out2)
    assert list(exp.columns) == ["input", "family", "output", "rules", "status", "reason"]
    assert set(exp["input"]) == {"The turtle is following the fish"}
    chosen = exp[exp["status"] == "chosen"]
    assert sorted(chosen["family"]) == ["S2", "S3", "S4"]  # the sentence has a candidate of every family
    # riding a horse is a fixed verb-object pair: no S4 ("A horse is riding a man")
    tsv.write_text("id\tsentence\n1\tA man is riding a horse\n")
    assert main(["expand", str(tsv), str(out2), "--quiet"]) == 0
    exp = read(out2)
    assert "S4" not in set(exp.loc[exp["status"] == "chosen", "family"])


def test_console_script_runs():
    exe = Path(sys.executable).parent / "sick"
    res = subprocess.run([str(exe), "build", "--help"], capture_output=True, text=True)
    assert res.returncode == 0 and "--pairs-per-source" in res.stdout


def test_real_sources_small_build(shared_data, tmp_path):
    flickr = shared_data / "flickr8k" / "Flickr8k.token.txt"
    msr = shared_data / "sts2012_msrvid" / "train" / "STS.input.MSRvid.txt"
    out = tmp_path / "real"
    assert main(["build", "--source", f"flickr8k:{flickr}", "--source", f"sts:{msr}", "--pairs-per-source", "30",
                 "--out", str(out), "--quiet"]) == 0
    corpus, sents = read(out / "corpus.tsv"), read(out / "sentences.tsv")
    m = json.loads((out / "manifest.json").read_text())
    assert [i["pairs_sampled"] for i in m["inputs"]] == [30, 30]
    assert m["inputs"][1]["gold"]["path"].endswith("STS.gs.MSRvid.txt")
    assert set(corpus["sentence_A_dataset"]) == {"FLICKR", "SEMEVAL"}
    flickr_caps = {" ".join(line.split("\t")[1].split()) for line in flickr.read_text().splitlines()}
    msr_sents = {" ".join(s.split()) for line in msr.read_text().splitlines() for s in line.split("\t")}
    s0 = sents[sents["slot"].str.startswith("S0")]
    # two S0s for every sampled source pair whose group normalization did not drop
    dropped = read(out / "dropped.tsv")
    assert len(s0) == 2 * (30 + 30 - (dropped["stage"] == "normalize").sum()) > 0
    for row in s0.itertuples():
        assert row.sentence in (flickr_caps if row.dataset == "FLICKR" else msr_sents)
    groups = m["counts"]["normalize"]["groups_kept"]
    assert groups >= 40 and len(corpus) > 5 * groups
    assert set(corpus["expected_relation"]) == {"similar", "contrasting", "lexical-overlap", "unrelated"}


def test_output_does_not_depend_on_hash_seed(tmp_path):
    """Two processes with different string hashing must write the same bytes (no set order leaks out)."""
    import os

    exe = Path(sys.executable).parent / "sick"
    outs = []
    for seed in ("11", "12"):
        out = tmp_path / f"h{seed}"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([str(exe), "build", "--out", str(out), "--quiet", "--all-candidates"], check=True, env=env)
        outs.append(out)
    for name in FILES:
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes(), name


def test_workers_do_not_change_the_output(tmp_path, monkeypatch):
    """``--workers 3`` does the sentences in chunks in three forked processes; every file (candidates too) is
    byte-identical to one worker's. Chunks of 5 sentences, so that every process gets several."""
    from pipeline.corpus import job

    monkeypatch.setattr(job, "CHUNK", 5)
    for n in ("1", "3"):
        assert main(["build", "--quiet", "--all-candidates", "--workers", n, "--out", str(tmp_path / f"w{n}")]) == 0
    for name in ("corpus.tsv", "sentences.tsv", "candidates.tsv", "dropped.tsv", "rule_frequencies.tsv",
                 "pair_distribution.tsv", "manifest.json"):
        assert (tmp_path / "w1" / name).read_bytes() == (tmp_path / "w3" / name).read_bytes(), name
