"""``sick report``: tables against independent counts on SemEval-2014, our pipeline's output, release files."""

from __future__ import annotations

import csv
import math
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from pipeline.common.corpus_io import read_corpus
from pipeline.common.errors import InputError, RuleError
from pipeline.report.tables import GROUPS, RANGES, TSV_NAMES, rule_families, write_report

FILES = ("SICK_train.txt", "SICK_trial.txt", "SICK_test_annotated.txt")


def _read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, sep="\t", keep_default_na=False)


# ---------------------------------------------------------------- the real SemEval-2014 files

@pytest.fixture(scope="module")
def semeval_files(shared_data) -> list[Path]:
    paths = [shared_data / "sick2014" / f for f in FILES]
    for p in paths:
        if not p.exists():
            pytest.skip(f"{p} not found")
    return paths


@pytest.fixture(scope="module")
def semeval_rows(semeval_files) -> list[dict]:
    """The rows read independently of the pipeline: the csv module, quoting off, fields stripped."""
    rows = []
    for p in semeval_files:
        with open(p, encoding="utf-8", newline="") as f:
            r = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
            header = [h.strip() for h in next(r)]
            for rec in r:
                if rec:
                    rows.append(dict(zip(header, (x.strip() for x in rec))))
    return rows


@pytest.fixture(scope="module")
def semeval_report(semeval_files, tmp_path_factory):
    out = tmp_path_factory.mktemp("semeval") / "report"
    res = write_report(semeval_files, out)
    return out, res


def _bin(x: float) -> str:
    if x < 2:
        return "[1-2)"
    if x < 3:
        return "[2-3)"
    if x < 4:
        return "[3-4)"
    return "[4-5]"


def test_semeval_reader_count(semeval_files, semeval_rows):
    df = read_corpus(semeval_files)
    assert len(df) == len(semeval_rows) == 9927
    assert set(df["entailment_label"]) == {"NEUTRAL", "ENTAILMENT", "CONTRADICTION"}
    assert not df["sentence_A"].str.endswith((" ", "\r")).any()
    assert Counter(df["SemEval_set"]) == {"TRAIN": 4500, "TRIAL": 500, "TEST": 4927}


def test_semeval_table6(semeval_report, semeval_rows):
    out, _ = semeval_report
    t6 = _read(out / TSV_NAMES["table6"])
    bins = Counter(_bin(float(r["relatedness_score"])) for r in semeval_rows)
    labels = Counter(r["entailment_judgment"] for r in semeval_rows)
    n = len(semeval_rows)
    rel = t6[t6["variable"] == "relatedness"].set_index("value")
    assert list(rel.index) == list(RANGES)
    for r in RANGES:
        assert rel.at[r, "count"] == bins[r]
        assert rel.at[r, "percent"] == pytest.approx(100 * bins[r] / n, abs=0.005)
    ent = t6[t6["variable"] == "entailment"].set_index("value")
    assert dict(ent["count"]) == dict(labels)
    assert ent["percent"].sum() == pytest.approx(100, abs=0.02)


def test_semeval_table7_and_chi2(semeval_report, semeval_rows):
    out, res = semeval_report
    t7 = _read(out / TSV_NAMES["table7"]).set_index("relatedness")
    cells = Counter((_bin(float(r["relatedness_score"])), r["entailment_judgment"]) for r in semeval_rows)
    labels = ["NEUTRAL", "ENTAILMENT", "CONTRADICTION"]
    for r in RANGES:
        for lb in labels:
            assert t7.at[r, lb] == cells[(r, lb)], (r, lb)
        assert t7.at[r, "total"] == sum(cells[(r, lb)] for lb in labels)
    for lb in labels:
        assert t7.at["total", lb] == sum(cells[(r, lb)] for r in RANGES)
    assert t7.at["total", "total"] == 9927
    chi = res["chi2"]
    assert chi["dof"] == (4 - 1) * (3 - 1)
    # chi-square by hand from the independent counts
    n = 9927
    row = {r: sum(cells[(r, lb)] for lb in labels) for r in RANGES}
    col = {lb: sum(cells[(r, lb)] for r in RANGES) for lb in labels}
    chi2 = sum((cells[(r, lb)] - row[r] * col[lb] / n) ** 2 / (row[r] * col[lb] / n) for r in RANGES for lb in labels)
    assert chi["chi2"] == pytest.approx(chi2, rel=1e-9)
    assert chi["p"] < 1e-10
    assert "dof = 6" in (out / "report.md").read_text(encoding="utf-8")


def test_semeval_label_stats(semeval_report, semeval_rows):
    out, res = semeval_report
    st = _read(out / TSV_NAMES["label_stats"]).set_index("label")
    by = {}
    for r in semeval_rows:
        by.setdefault(r["entailment_judgment"], []).append(float(r["relatedness_score"]))
    for lb, v in by.items():
        m = sum(v) / len(v)
        sd = math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1))
        assert st.at[lb, "n"] == len(v)
        assert st.at[lb, "mean"] == pytest.approx(m, abs=5e-5)
        assert st.at[lb, "sd"] == pytest.approx(sd, abs=5e-5)
    tk = _read(out / "label_tukey_hsd.tsv")
    assert len(tk) == 3
    for row in tk.itertuples():
        m1 = sum(by[row.label_1]) / len(by[row.label_1])
        m2 = sum(by[row.label_2]) / len(by[row.label_2])
        assert row.mean_diff == pytest.approx(m1 - m2, abs=5e-4)
        assert row.ci_low < row.mean_diff < row.ci_high
        assert row.p < 0.001  # the three labels differ clearly in relatedness on SICK


def test_semeval_skips_and_release(semeval_report, semeval_files):
    out, res = semeval_report
    for key in ("table4", "table5", "table8", "table9"):
        assert res[key] is None
        assert not (out / TSV_NAMES[key]).exists()
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "Skipped: the file has no provenance columns" in md
    assert "Skipped: the file has no pair_type column" in md
    assert not any((out / name).exists() for name in FILES)  # release files: sick release (issue 14)


# ---------------------------------------------------------------- our pipeline's output

@pytest.fixture(scope="module")
def gold_file(tmp_path_factory) -> Path:
    from pipeline.cli import main

    d = tmp_path_factory.mktemp("pipe")
    assert main(["build", "--out", str(d / "b"), "--quiet"]) == 0
    assert main(["simulate-judgments", "--corpus", str(d / "b" / "corpus.tsv"), "--out", str(d / "j.csv")]) == 0
    assert main(["aggregate", "--judgments", str(d / "j.csv"), "--corpus", str(d / "b" / "corpus.tsv"),
                 "--out", str(d / "g"), "--quiet"]) == 0
    return d / "g" / "gold.tsv"


@pytest.fixture(scope="module")
def gold_report(gold_file, tmp_path_factory):
    out = tmp_path_factory.mktemp("goldrep") / "report"
    res = write_report(gold_file, out)
    return out, res


def test_pipeline_tables_present(gold_report):
    out, res = gold_report
    for name in TSV_NAMES.values():
        assert (out / name).is_file(), name
    for name in ("report.md", "report.html"):
        assert (out / name).is_file(), name
    assert not (out / "sick.parquet").exists() and not (out / "SICK_train.txt").exists()
    pngs = sorted(p.name for p in (out / "plots").glob("*.png"))
    assert pngs == ["relatedness_by_label.png", "relatedness_by_pair_type.png", "table7_heatmap.png"]
    md = (out / "report.md").read_text(encoding="utf-8")
    html = (out / "report.html").read_text(encoding="utf-8")
    for p in pngs:
        assert f"plots/{p}" in md and f"plots/{p}" in html
    assert "Skipped" not in md
    assert "Agreement" in md and res["agreement"] is not None


def test_pipeline_table4_matches_corpus(gold_report, gold_file):
    out, _ = gold_report
    g = _read(gold_file)
    t4 = _read(out / TSV_NAMES["table4"])
    sents = {}
    for s, r in list(zip(g["sentence_A"], g["rules_A"])) + list(zip(g["sentence_B"], g["rules_B"])):
        sents[(s, r)] = r.split()
    expect = Counter(rid for rules in sents.values() for rid in rules)
    got = {r.rule: r.freq for r in t4.itertuples() if r.freq}
    assert got == dict(expect)
    assert set(t4["family"]) <= {"normalize", "S2", "S3", "S4", "unknown"}
    assert "unknown" not in set(t4["family"])


def test_pipeline_table5_matches_corpus(gold_report, gold_file):
    out, _ = gold_report
    g = _read(gold_file)
    t5 = _read(out / TSV_NAMES["table5"])
    assert t5["count"].sum() == len(g)
    expect = Counter(zip(g["expected_relation"], g["pair_type"], g["set"]))
    assert {(r.expected_relation, r.pair_type, r.set): r.count for r in t5.itertuples()} == dict(expect)
    assert t5["percent"].sum() == pytest.approx(100, abs=0.2)


def _group(pt: str, st: str) -> str:
    """The paper's row name (Tables 8 and 9) of a pair type, derived here independently of the code."""
    if pt == "unrelated":
        return "Unrelated pairs"
    # pair types look like S1aS2b: the second sentence's slot is the digit after the second S
    second = pt[pt.index("S", 1) + 1]
    if second == "1":
        return "S1S1 cross set"
    return f"S1S{second} same set" if st == "same" else f"S1S{second} cross set"


def test_pipeline_tables8_9_match_corpus(gold_report, gold_file):
    out, _ = gold_report
    g = _read(gold_file)
    g["grp"] = [_group(p, s) for p, s in zip(g["pair_type"], g["set"])]
    t8 = _read(out / TSV_NAMES["table8"]).set_index("pair_type")
    t9 = _read(out / TSV_NAMES["table9"]).set_index("pair_type")
    assert set(t8.index) <= set(GROUPS)
    assert t8["n"].sum() == len(g)
    for grp, sub in g.groupby("grp"):
        v = sub["relatedness_score"].astype(float)
        assert t8.at[grp, "n"] == len(v)
        assert t8.at[grp, "mean"] == pytest.approx(v.mean(), abs=0.006)
        if len(v) > 1:
            assert t8.at[grp, "sd"] == pytest.approx(v.std(ddof=1), abs=0.006)
        c = Counter(sub["entailment_label"])
        for lb in ("NEUTRAL", "ENTAILMENT", "CONTRADICTION"):
            if lb in t9.columns:
                assert t9.at[grp, lb] == pytest.approx(100 * c[lb] / len(sub), abs=0.006)
    ours = t9.drop(columns=["n", *(c for c in t9.columns if c.startswith("paper_"))])
    assert (ours.sum(axis=1) - 100).abs().max() < 0.05
    # the paper's rows, in the paper's order, with the paper's figure beside ours (Marelli et al. 2014)
    paper_rows = ["S1S2 same set", "S1S3 same set", "S1S4 same set", "S1S1 cross set", "S1S2 cross set",
                  "S1S3 cross set", "S1S4 cross set", "Unrelated pairs"]
    assert list(t8.index) == [r for r in paper_rows if r in set(g["grp"])]
    assert t8.at["S1S2 same set", "paper_mean"] == 4.65 and t8.at["Unrelated pairs", "paper_sd"] == 0.85
    assert t9.at["S1S3 same set", "paper_CONTRADICTION"] == 58.2
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "| S1S2 cross set |" in md and "paper_mean" in md


def test_paper_figures_file_matches_the_paper_tables(shared_data):
    """annotations/paper_figures.yaml (used when ../shared is absent) holds the numbers of the paper's tables."""
    from pipeline.report.tables import paper_figures

    d = shared_data / "sick2014" / "paper_tables"
    fig = paper_figures()
    t8 = pd.read_csv(d / "table8_relatedness_by_pair_type.tsv", sep="\t", keep_default_na=False)
    t9 = pd.read_csv(d / "table9_entailment_by_pair_type.tsv", sep="\t", keep_default_na=False)
    t6 = pd.read_csv(d / "table6_distribution.tsv", sep="\t", keep_default_na=False)
    names = [_group(f"S1aS{r.pair_type[-1]}{'a' if r.same_set == 'same' else 'b'}" if r.pair_type != "unrelated"
                    else "unrelated", r.same_set) for r in t8.itertuples()]
    assert names == list(GROUPS) == list(fig["table8"])
    for name, r8, r9 in zip(names, t8.itertuples(), t9.itertuples()):
        assert fig["table8"][name] == {"mean": r8.mean_relatedness, "sd": r8.sd}
        assert fig["table9"][name] == {"ENTAILMENT": r9.ENTAILMENT_pct, "CONTRADICTION": r9.CONTRADICTION_pct,
                                       "NEUTRAL": r9.NEUTRAL_pct}
    for r in t6.itertuples():
        assert fig["table6"][r.what][r.value] == r.pct


def test_pipeline_release_splits(gold_file, tmp_path):
    """``sick release`` writes the SemEval-2014 text files of its splits beside the Parquet ones."""
    from pipeline.cli import main

    out = tmp_path / "hub"
    assert main(["release", "--corpus", str(gold_file), "--out", str(out)]) == 0
    g = _read(gold_file)
    c = Counter(g["SemEval_set"])
    for key, name in (("TRAIN", "SICK_train.txt"), ("TRIAL", "SICK_trial.txt"), ("TEST", "SICK_test_annotated.txt")):
        f = _read(out / name)
        assert list(f.columns) == ["pair_ID", "sentence_A", "sentence_B", "relatedness_score", "entailment_judgment"]
        assert len(f) == c[key]
        assert b"\r" not in (out / name).read_bytes()
    back = read_corpus([out / n for n in ("SICK_train.txt", "SICK_trial.txt", "SICK_test_annotated.txt")])
    assert len(back) == len(g)
    assert sorted(back["pair_ID"].astype(int)) == sorted(g["pair_ID"].astype(int))


def test_unannotated_corpus(gold_file, tmp_path):
    """corpus.tsv straight from `sick build` (gold columns empty): tables 4/5 and splits, no crash."""
    corpus = gold_file.parent.parent / "b" / "corpus.tsv"
    res = write_report(corpus, tmp_path / "r")
    assert res["n_rated"] == 0 and res["chi2"]["dof"] == 0
    assert res["table4"] is not None and res["table5"]["count"].sum() == res["n_pairs"]
    assert (tmp_path / "r" / "report.md").is_file()


def test_cli_report(gold_file, tmp_path):
    from pipeline.cli import main

    assert main(["report", "--corpus", str(gold_file), "--out", str(tmp_path / "r"), "--quiet"]) == 0
    assert (tmp_path / "r" / "report.md").is_file()


# ---------------------------------------------------------------- malformed input

def _write(p: Path, text: str) -> Path:
    p.write_bytes(text.encode("utf-8"))
    return p


def test_sick_txt_layout_crlf_quotes_spaces(tmp_path):
    f = _write(tmp_path / "SICK.txt",
               "pair_ID\tsentence_A\tsentence_B\tentailment_label\trelatedness_score\tSemEval_set\r\n"
               '1\tA man says "hi" \t The "boy" is here\tNEUTRAL\t3.5 \tTRAIN\r\n'
               "2\tA dog runs\tA dog is running\tENTAILMENT\t4.9\tTEST\r\n")
    df = read_corpus(f)
    assert df.at[0, "sentence_A"] == 'A man says "hi"'
    assert df.at[0, "sentence_B"] == 'The "boy" is here'
    assert df.at[0, "relatedness_score"] == 3.5
    assert list(df["SemEval_set"]) == ["TRAIN", "TEST"]


@pytest.mark.parametrize("text,problem", [
    ("pair_ID\tsentence_A\tsentence_B\trelatedness_score\n1\ta\tb\t3\n", "missing column"),
    ("pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n1\ta\tb\tx\tNEUTRAL\n",
     "not a number"),
    ("pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n1\ta\tb\t3\n", "fields"),
    ("pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n1\ta\tb\t3\tNEUTRAL\n"
     "1\tc\td\t2\tNEUTRAL\n", "duplicate pair_ID"),
    ("", "empty"),
])
def test_malformed_input(tmp_path, text, problem):
    f = _write(tmp_path / "bad.txt", text)
    with pytest.raises(InputError, match=problem) as ei:
        write_report(f, tmp_path / "out")
    assert ei.value.path == str(f)
    assert not (tmp_path / "out").exists()


def test_errors_name_real_line_after_blank_lines(tmp_path):
    head = "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n"
    f = _write(tmp_path / "bad.txt", head + "\n\n1\ta\tb\t3\tNEUTRAL\n\n2\tc\td\tx\tNEUTRAL\n")
    with pytest.raises(InputError, match="not a number") as ei:
        read_corpus(f)
    assert ei.value.line == 6 and ei.value.field == "relatedness_score"
    f = _write(tmp_path / "dup.txt", head + "\n1\ta\tb\t3\tNEUTRAL\n\r\n1\tc\td\t2\tNEUTRAL\n")
    with pytest.raises(InputError, match="duplicate pair_ID") as ei:
        read_corpus(f)
    assert ei.value.line == 5 and ei.value.field == "pair_ID"


def test_broken_rule_file_is_a_rule_error(tmp_path):
    (tmp_path / "bad.yaml").write_text("rules: [\n", encoding="utf-8")
    with pytest.raises(RuleError, match="not valid YAML"):
        rule_families(tmp_path)


def test_missing_file_and_bad_utf8(tmp_path):
    with pytest.raises(InputError, match="not found"):
        read_corpus(tmp_path / "nope.txt")
    f = tmp_path / "bad.txt"
    f.write_bytes(b"pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n1\ta\xff\tb\t3\tNEUTRAL\n")
    with pytest.raises(InputError, match="UTF-8") as ei:
        read_corpus(f)
    assert ei.value.line == 2


def test_failed_run_keeps_previous_report(tmp_path):
    good = _write(tmp_path / "good.txt", "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n"
                  "1\ta\tb\t3\tNEUTRAL\n2\tc\td\t4.5\tENTAILMENT\n3\te\tf\t1.5\tNEUTRAL\n")
    write_report(good, tmp_path / "out")
    before = (tmp_path / "out" / "table6_distribution.tsv").read_text()
    bad = _write(tmp_path / "bad.txt", "pair_ID\tsentence_A\n1\ta\n")
    with pytest.raises(InputError):
        write_report(bad, tmp_path / "out")
    assert (tmp_path / "out" / "table6_distribution.tsv").read_text() == before


@pytest.mark.parametrize("value", ["70", "-2", "inf", "5.01"])
def test_relatedness_outside_1_to_5_is_an_error_naming_the_row(tmp_path, value):
    head = "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n"
    f = _write(tmp_path / "bad.txt", head + "1\ta\tb\t3\tNEUTRAL\n2\tc\td\t" + value + "\tNEUTRAL\n")
    with pytest.raises(InputError, match="outside 1-5") as ei:
        read_corpus(f)
    assert ei.value.line == 3 and ei.value.field == "relatedness_score"


def test_unknown_label_is_an_error_naming_the_row(tmp_path):
    head = "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n"
    f = _write(tmp_path / "bad.txt", head + "1\ta\tb\t3\tNEUTRAL\n2\tc\td\t4\t$\\foo$\n")
    with pytest.raises(InputError, match="not one of NEUTRAL") as ei:
        read_corpus(f)
    assert ei.value.line == 3 and ei.value.field == "entailment_label"
