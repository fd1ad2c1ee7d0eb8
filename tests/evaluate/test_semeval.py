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
