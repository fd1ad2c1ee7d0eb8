"""`sick score semeval` against the official R scorer's printed output (derived/) and its stricter checks."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.common.errors import InputError
from pipeline.evaluate.semeval import exit_status, format_table, pearson, r_format, read_sick, score, spearman

GOLD_OF = {"trial": "SICK_trial.txt", "train": "SICK_train.txt", "test_annotated": "SICK_test_annotated.txt"}
KEYS = ["gold", "gold_sha256", "pairs", "relatedness", "entailment", "errors", "warnings"]


def parse_r_output(path: Path) -> dict:
    """What the official scorer printed: ids_error, entailment ('54.8'/'NaN'/'no data'/'wrong level'), relatedness."""
    out = {"ids_error": False, "entailment": None, "relatedness": None}
    rel = {}
    for line in path.read_text().splitlines():
        m = re.match(r'\[1\] "(.*)"$', line)
        if not m:
            continue
        msg = m.group(1)
        if msg.startswith("ERROR: pair IDs"):
            out["ids_error"] = True
        elif (a := re.match(r"Entailment: accuracy (\S+)%$", msg)):
            out["entailment"] = a.group(1)
        elif msg.startswith("No data for the entailment"):
            out["entailment"] = "no data"
        elif msg.startswith("ERROR: wrong level"):
            out["entailment"] = "wrong level"
        elif msg.startswith("No data for the relatedness"):
            out["relatedness"] = "no data"
        elif msg.startswith("ERROR: wrong format"):
            out["relatedness"] = "wrong format"
        elif (r := re.match(r"Relatedness: (Pearson correlation|Spearman correlation|MSE) (\S+)$", msg)):
            rel[{"Pearson correlation": "pearson", "Spearman correlation": "spearman", "MSE": "mse"}[r.group(1)]] = \
                r.group(2)
    if rel:
        out["relatedness"] = rel
    return out


def derived_cases(data: Path):
    d = data / "sick2014" / "derived"
    for name, gold in GOLD_OF.items():
        yield d / f"overlap_baseline_{name}.submission.txt", data / "sick2014" / gold
    for sub in sorted((d / "edge_cases_trial").glob("*.submission.txt")):
        yield sub, data / "sick2014" / "SICK_trial.txt"


def _r_output_for(sub: Path) -> Path:
    return sub.with_name(sub.name.replace(".submission.txt", ".R_output.txt"))


def test_all_derived_files_present(shared_data):
    cases = list(derived_cases(shared_data))
    assert len(cases) == 19
    assert all(_r_output_for(s).exists() for s, _ in cases)


@pytest.mark.parametrize("idx", range(19))
def test_matches_official_scorer(shared_data, idx):
    sub, gold = list(derived_cases(shared_data))[idx]
    official = parse_r_output(_r_output_for(sub))
    ours = score(gold, sub)
    assert list(ours) == KEYS
    text = " | ".join(ours["errors"] + ours["warnings"])

    if official["ids_error"]:
        assert ours["entailment"] is None and ours["relatedness"] is None
        assert "do not correspond" in text and exit_status(ours) == 1
        return

    ent = official["entailment"]
    # R scored something when it printed an entailment accuracy (not NaN) or the relatedness figures
    r_scored = ent not in (None, "no data", "wrong level", "NaN") or isinstance(official["relatedness"], dict)
    if ent is None or ent in ("no data", "wrong level", "NaN"):
        assert ours["entailment"] is None, sub.name
        if ent == "wrong level":
            assert "unknown label" in text
        elif ent == "NaN":
            assert "no column 'entailment_judgment'" in text
        elif ent == "no data":
            assert "entailment not" in text
    else:
        assert r_format(ours["entailment"]["accuracy"]) == ent, sub.name

    rel = official["relatedness"]
    if isinstance(rel, dict):
        assert ours["relatedness"] is not None, sub.name
        for k, printed in rel.items():
            assert r_format(ours["relatedness"][k]) == printed, (sub.name, k)
        assert ours["relatedness"]["mse_standardized"] < ours["relatedness"]["mse"]
    else:
        assert ours["relatedness"] is None, sub.name
        if rel == "wrong format":
            assert "not decimal numbers" in text or "no column 'relatedness_score'" in text
        else:
            assert "relatedness not" in text
    assert exit_status(ours) == (0 if r_scored else 1), sub.name


def test_verdict_details(shared_data):
    edge = shared_data / "sick2014" / "derived" / "edge_cases_trial"
    gold = shared_data / "sick2014" / "SICK_trial.txt"
    r = score(gold, edge / "05_missing_row.submission.txt")
    assert any("missing" in e and "9988" in e for e in r["errors"])
    r = score(gold, edge / "06_extra_row.submission.txt")
    assert any("not in the gold set" in e and "999999" in e for e in r["errors"])
    r = score(gold, edge / "11_dup_id.submission.txt")
    assert any("more than once" in e and ": 4" in e for e in r["errors"])
    r = score(gold, edge / "14_label_unknown.submission.txt")
    assert any("'UNKNOWN'" in e for e in r["errors"])
    r = score(gold, edge / "07_lowercase.submission.txt")
    assert any("case-sensitive" in e for e in r["errors"])
    r = score(gold, edge / "13_header_partial_names.submission.txt")
    assert any("entailment_judgment_x" in w for w in r["warnings"]) and not r["errors"]
    r = score(gold, edge / "16_quoted_header.submission.txt")
    assert any("quotes" in w for w in r["warnings"])
    r = score(gold, edge / "01_ent_all_NA.submission.txt")
    assert not r["errors"] and any("entailment not attempted" in w for w in r["warnings"])
    r = score(gold, edge / "02_ent_one_NA.submission.txt")
    assert any("entailment not scored" in e for e in r["errors"])


# --- small synthetic files ---------------------------------------------------------------------------------

GOLD = ("pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\r\n"
        "1\tA dog runs\tA dog is running\t4.5\tENTAILMENT\r\n"
        "2\tA cat sleeps\tNo cat sleeps\t3.0\tCONTRADICTION\r\n"
        "3\tA man cooks\tA girl sings\t1.2\tNEUTRAL\r\n"
        "4\tA boy jumps\tA kid jumps\t4.0\tNEUTRAL\r\n")


@pytest.fixture
def gold(tmp_path) -> Path:
    p = tmp_path / "gold.txt"
    p.write_bytes(GOLD.encode())
    return p


def sub(tmp_path, text, name="sub.txt") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_read_sick_crlf_and_strip(gold):
    rows = read_sick(gold)
    assert len(rows) == 4 and rows[0]["entailment_judgment"] == "ENTAILMENT" and rows[2]["relatedness_score"] == 1.2


def test_read_sick_errors(tmp_path):
    with pytest.raises(InputError, match="line 4.*duplicate"):
        read_sick(sub(tmp_path, GOLD.replace("3\tA man", "1\tA man").replace("\r", "")))
    with pytest.raises(InputError, match="not a number"):
        read_sick(sub(tmp_path, GOLD.replace("\t1.2\t", "\tx\t")))
    with pytest.raises(InputError, match="cannot read"):
        read_sick(tmp_path / "nope.txt")


def test_perfect_and_metrics(tmp_path, gold):
    s = sub(tmp_path, "relatedness_score\tpair_ID\tentailment_judgment\n4.5\t1\tENTAILMENT\n3.0\t2\tCONTRADICTION\n"
                      "1.2\t3\tNEUTRAL\n4.0\t4\tNEUTRAL\n")
    r = score(gold, s)
    assert r["entailment"] == {"accuracy": 100.0}
    assert r["relatedness"]["pearson"] == pytest.approx(1) and r["relatedness"]["mse"] == 0
    assert r["relatedness"]["mse_standardized"] == pytest.approx(0)
    assert r["pairs"] == 4 and len(r["gold_sha256"]) == 64 and not r["errors"] and not r["warnings"]


def test_spearman_average_ranks():
    from scipy.stats import pearsonr, spearmanr
    x, y = [1, 2, 2, 3, 5, 5, 5], [2, 1, 4, 3, 7, 7, 6]
    assert spearman(x, y) == pytest.approx(spearmanr(x, y).statistic)
    assert pearson(x, y) == pytest.approx(pearsonr(x, y).statistic)


@pytest.mark.parametrize("value,expect", [("0x1A", "not decimal"), ("Inf", "not decimal"), ("NaN", "not decimal"),
                                          ("TRUE", "not decimal")])
def test_r_coercions_rejected(tmp_path, gold, value, expect):
    s = sub(tmp_path, f"pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t{value}\n2\tNEUTRAL\t3\n"
                      "3\tNEUTRAL\t3\n4\tNEUTRAL\t3\n")
    r = score(gold, s)
    assert r["relatedness"] is None and any(expect in e and "1=" in e for e in r["errors"])
    assert r["entailment"] == {"accuracy": 50.0} and exit_status(r) == 0


def test_leading_zero_ids_bom_and_empty_label(tmp_path, gold):
    s = sub(tmp_path, "\ufeffpair_ID\tentailment_judgment\trelatedness_score\n001\t\t4\n2\tNEUTRAL\t3\n"
                      "3\tNEUTRAL\t3\n4\tNEUTRAL\t3\n")
    r = score(gold, s)
    assert any("byte-order" in w for w in r["warnings"]) and any("001" in w for w in r["warnings"])
    assert r["entailment"] is None and any("no label" in e for e in r["errors"])
    assert r["relatedness"] is not None


def test_ambiguous_partial_columns_and_missing_id(tmp_path, gold):
    s = sub(tmp_path, "pair_ID\tentailment_judgment_a\tentailment_judgment_b\trelatedness_score\n"
                      + "".join(f"{i}\tNEUTRAL\tNEUTRAL\t3\n" for i in range(1, 5)))
    r = score(gold, s)
    assert r["entailment"] is None and any("several" in e for e in r["errors"]) and r["relatedness"]
    r = score(gold, sub(tmp_path, "id\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t3\n"))
    assert exit_status(r) == 1 and any("pair_ID" in e for e in r["errors"])
    r = score(gold, sub(tmp_path, ""))
    assert exit_status(r) == 1


def test_cli_json_and_table(tmp_path, gold, capsys):
    good = sub(tmp_path, "pair_ID\tentailment_judgment\trelatedness_score\n"
                         + "".join(f"{i}\tNEUTRAL\t{i}\n" for i in range(1, 5)))
    assert main(["score", "semeval", "--gold", str(gold), "--submission", str(good), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert list(obj) == KEYS and obj["entailment"] == {"accuracy": 50.0}
    assert set(obj["relatedness"]) == {"pearson", "spearman", "mse", "mse_standardized"}
    assert main(["score", "semeval", "--gold", str(gold), "--submission", str(good)]) == 0
    table = capsys.readouterr().out
    assert "sha256" in table and "4 pairs" in table and "mse_standardized" in table and "raw scores" in table
    bad = sub(tmp_path, "pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t3\n", "bad.txt")
    assert main(["score", "semeval", "--gold", str(gold), "--submission", str(bad)]) == 1
    assert "ERROR" in capsys.readouterr().out


def test_format_table_not_scored(tmp_path, gold):
    r = score(gold, sub(tmp_path, "pair_ID\tentailment_judgment\trelatedness_score\n"
                                  + "".join(f"{i}\tNA\tNA\n" for i in range(1, 5))))
    assert exit_status(r) == 1
    t = format_table(r)
    assert "entailment  not scored" in t and "relatedness not scored" in t and "rejected" in t


def test_json_nan_is_null(tmp_path, gold, capsys):
    const = sub(tmp_path, "pair_ID\tentailment_judgment\trelatedness_score\n"
                          + "".join(f"{i}\tNEUTRAL\t3\n" for i in range(1, 5)))
    assert main(["score", "semeval", "--gold", str(gold), "--submission", str(const), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["relatedness"]["pearson"] is None and any("equal" in w for w in obj["warnings"])


# --- every printed figure of the official scorer on the 4,927-pair test file (derived/edge_cases_test, random_test) -

NEW_FOLDERS = {"edge_cases_test": 22, "random_test": 12}
TABLE_FIGURE = re.compile(r"^(entailment  accuracy|relatedness pearson|relatedness spearman|relatedness mse) +(\S+?)%?"
                          r"(?: |$)")
TABLE_KEY = {"entailment  accuracy": "accuracy", "relatedness pearson": "pearson",
             "relatedness spearman": "spearman", "relatedness mse": "mse"}


def _test_cases(data: Path) -> list[Path]:
    d = data / "sick2014" / "derived"
    return [s for folder in NEW_FOLDERS for s in sorted((d / folder).glob("*.submission.txt"))]


def _printed(table: str) -> dict:
    """{accuracy, pearson, spearman, mse: the figure as printed} from `sick score semeval`'s table."""
    out = {}
    for line in table.splitlines():
        if (m := TABLE_FIGURE.match(line)):
            out[TABLE_KEY[m.group(1)]] = m.group(2)
    return out


def test_test_file_cases_present(shared_data):
    d = shared_data / "sick2014" / "derived"
    for folder, n in NEW_FOLDERS.items():
        subs = sorted((d / folder).glob("*.submission.txt"))
        assert len(subs) == n and all(_r_output_for(s).exists() for s in subs), folder


@pytest.mark.parametrize("idx", range(sum(NEW_FOLDERS.values())))
def test_cli_prints_every_figure_of_the_official_scorer(shared_data, idx, capsys):
    sub = _test_cases(shared_data)[idx]
    gold = shared_data / "sick2014" / "SICK_test_annotated.txt"
    official = parse_r_output(_r_output_for(sub))
    status = main(["score", "semeval", "--gold", str(gold), "--submission", str(sub)])
    table = capsys.readouterr().out
    ours = _printed(table)
    name = sub.parent.name + "/" + sub.name

    if official["ids_error"]:
        assert status == 1 and not ours and "do not correspond" in table, name
        return
    ent, rel = official["entailment"], official["relatedness"]
    if ent in ("no data", "wrong level", "NaN"):
        assert "accuracy" not in ours and "entailment  not scored" in table, name
        expect = {"no data": "entailment not", "wrong level": "unknown label", "NaN": "no rows"}[ent]
        assert expect in table, name
    else:
        assert ours["accuracy"] == ent, name
    if isinstance(rel, dict):
        assert {k: ours.get(k) for k in rel} == rel, name
    else:
        assert "pearson" not in ours and "relatedness not scored" in table, name
        expect = {"no data": "relatedness not", "wrong format": "not decimal numbers"}[rel]
        assert expect in table or "no rows" in table, name
    r_scored = ent not in ("no data", "wrong level", "NaN") or isinstance(rel, dict)
    assert status == (0 if r_scored else 1), name


def test_test_file_case_details(shared_data):
    d = shared_data / "sick2014" / "derived" / "edge_cases_test"
    gold = shared_data / "sick2014" / "SICK_test_annotated.txt"
    r = score(gold, d / "11_trailing_space_label.submission.txt")
    assert any("'CONTRADICTION '" in e and "spaces around" in e for e in r["errors"]) and r["entailment"] is None
    r = score(gold, d / "12_id_decimal.submission.txt")
    assert any("16.0" in w and "matched by value" in w for w in r["warnings"]) and not r["errors"]
    r = score(gold, d / "16_overflow_1e400.submission.txt")
    assert any("1e400" in w and "infinite" in w for w in r["warnings"])
    r = score(gold, d / "08_constant_rel.submission.txt")
    assert r["relatedness"]["pearson"] is None and any("NA" in w for w in r["warnings"])
    r = score(gold, d / "20_header_only.submission.txt")
    assert exit_status(r) == 1 and any("no rows" in e for e in r["errors"])


# R 4.2.2 on these four pairs (gold 4.5, 3.0, 1.2, 4.0): cor(c(1e200, 2, 3, 4), gold) = "0.606318430364879",
# spearman "0.8", sum((x - y)^2) / 4 = "Inf"; with 1e400: "NaN", "0.8", "Inf"; cor(c(-1e200, 2, 3, 4), gold) =
# "-0.606318430364879"; cor(c(1e300, -1e300, 3, 4), gold) = "0.420331351709198".
@pytest.mark.parametrize("value,figures,warning", [
    ("1e200", {"pearson": "0.606318430364879", "spearman": "0.8", "mse": "Inf"}, "MSE is Inf"),
    ("-1e200", {"pearson": "-0.606318430364879", "spearman": "-0.4", "mse": "Inf"}, "MSE is Inf"),
    ("1e400", {"pearson": "NaN", "spearman": "0.8", "mse": "Inf"}, "read as infinite"),
])
def test_score_overflow_prints_what_r_prints(tmp_path, gold, capsys, value, figures, warning):
    s = sub(tmp_path, f"pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t{value}\n2\tNEUTRAL\t2\n"
                      "3\tNEUTRAL\t3\n4\tNEUTRAL\t4\n")
    assert main(["score", "semeval", "--gold", str(gold), "--submission", str(s)]) == 0
    table = capsys.readouterr().out
    printed = _printed(table)
    assert {k: printed[k] for k in figures} == figures and printed["accuracy"] == "50"
    assert warning in table


def test_r_mixed_signs_overflow_and_long_double():
    # R: cor(c(1e300, -1e300, 3, 4), c(4.5, 3, 1.2, 4)) prints 0.420331351709198 (double sums would overflow)
    assert r_format(pearson([1e300, -1e300, 3, 4], [4.5, 3.0, 1.2, 4.0])) == "0.420331351709198"


@pytest.mark.parametrize("value,printed", [  # as.character() in R 4.2.2
    (-0.0, "0"), (1e5, "1e+05"), (123456, "123456"), (1e15, "1e+15"), (1e-4, "1e-04"), (0.0001234, "0.0001234"),
    (1234567.1, "1234567.1"), (0.1 + 0.2, "0.3"), (1 / 3, "0.333333333333333"), (2 / 3 * 1e-5, "6.66666666666667e-06"),
    (123456789012345678, "123456789012345680"), (5e-324, "4.94065645841247e-324"), (1.7e308, "1.7e+308"),
    (None, "NA"), (float("nan"), "NaN"), (float("inf"), "Inf"), (float("-inf"), "-Inf"),
])
def test_r_format_as_r_prints(value, printed):
    assert r_format(value) == printed


def test_accuracy_order_of_operations(tmp_path):
    # R computes (c / N) * 100: 95 correct of 4927 prints 1.92815100466815, 100 * c / N would print ...816
    assert r_format(95 / 4927 * 100) == "1.92815100466815" != r_format(100 * 95 / 4927)
