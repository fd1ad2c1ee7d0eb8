"""Reading raw crowd judgments (our CSV, MTurk batch results, Label Studio JSON): the table, every kind of bad row
(error naming file + row + field, or listed in ``rejected``), rejected MTurk assignments, round trips."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pipeline.common.errors import InputError
from pipeline.crowd.judgments import (
    ANSWERS,
    JUDGMENT_COLUMNS,
    REJECTED_COLUMNS,
    RowError,
    control_base_id,
    read_judgments,
    write_judgments,
)

PAIRS = {"1", "2", "3"}
CONTROLS = {"CTRL-001", "CTRL-002"}

# one good judgment per row; a bad-row case replaces one field of the 3rd row
GOOD = [
    {"pair_ID": "1", "worker_id": "w1", "order": "AB", "relatedness": "4", "answer": "TRUE", "is_control": "false"},
    {"pair_ID": "1", "worker_id": "w2", "order": "BA", "relatedness": "5", "answer": "UNKNOWN",
     "is_control": "false"},
    {"pair_ID": "2", "worker_id": "w1", "order": "AB", "relatedness": "1", "answer": "FALSE", "is_control": "false"},
    {"pair_ID": "CTRL-001", "worker_id": "w3", "order": "BA", "relatedness": "2", "answer": "UNKNOWN",
     "is_control": "true"},
    {"pair_ID": "3", "worker_id": "w3", "order": "AB", "relatedness": "3", "answer": "TRUE", "is_control": "false"},
]
BAD_AT = 2  # index into GOOD

# kind -> (our column that is wrong, value given, words the reason must contain)
BAD_KINDS = {
    "unknown pair": ("pair_ID", "99", "unknown pair_ID"),
    "empty pair": ("pair_ID", "", "empty pair_ID"),
    "empty worker": ("worker_id", "", "empty worker"),
    "bad order": ("order", "BAB", "not AB or BA"),
    "rating too high": ("relatedness", "6", "out of range"),
    "rating too low": ("relatedness", "0", "out of range"),
    "rating not integer": ("relatedness", "3.5", "not an integer"),
    "rating not a number": ("relatedness", "four", "not an integer"),
    "rating missing": ("relatedness", "", "not an integer"),
    "unknown answer": ("answer", "MAYBE", "not one of"),
    "bad is_control": ("is_control", "perhaps", "not true or false"),
    "is_control disagrees": ("is_control", "true", "not a control item"),
}
MTURK_FIELD = {"pair_ID": "Input.pair_ID", "order": "Input.order", "relatedness": "Answer.relatedness",
               "answer": "Answer.answer", "worker_id": "WorkerId", "is_control": "Input.is_control"}
LS_FIELD = {"pair_ID": "data.pair_ID", "order": "data.order", "relatedness": "relatedness", "answer": "answer",
            "worker_id": "completed_by", "is_control": "data.is_control"}


def expected_table(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame({
        "pair_ID": pd.Series([r["pair_ID"] for r in rows], dtype="str"),
        "worker_id": pd.Series([r["worker_id"] for r in rows], dtype="str"),
        "order": pd.Series([r["order"] for r in rows], dtype="str"),
        "relatedness": pd.Series([int(r["relatedness"]) for r in rows], dtype="int64"),
        "answer": pd.Series([r["answer"] for r in rows], dtype="str"),
        "is_control": pd.Series([r["is_control"] in (True, "true") for r in rows], dtype=bool),
    }, columns=JUDGMENT_COLUMNS)


# ----------------------------------------------------------------------------------------------- writers


def write_ours(path: Path, rows: list[dict]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=JUDGMENT_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return path


def write_mturk(path: Path, rows: list[dict], status: list[str] | None = None) -> Path:
    """An MTurk batch results CSV as the requester site gives it: every field quoted, many columns."""
    header = ["HITId", "HITTypeId", "Title", "AssignmentId", "WorkerId", "AssignmentStatus", "WorkTimeInSeconds",
              "Input.pair_ID", "Input.order", "Input.first_sentence", "Input.second_sentence", "Input.is_control",
              "Answer.answer", "Answer.order", "Answer.pair_ID", "Answer.relatedness", "Approve", "Reject"]
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
        w.writerow(header)
        for i, r in enumerate(rows):
            w.writerow([f"HIT{r['pair_ID']}{r['order']}", "TYPE1", "Sentence pairs", f"A{i}", r["worker_id"],
                        (status or ["Submitted"] * len(rows))[i], "31", r["pair_ID"], r["order"],
                        "A man is, \"quoted\"\nover two lines", "B", r["is_control"], r["answer"], r["order"],
                        r["pair_ID"], r["relatedness"], "", ""])
    return path


def write_labelstudio(path: Path, rows: list[dict], cancelled: set[int] = frozenset()) -> Path:
    """A Label Studio JSON export: one task per (pair, order) holding its annotations."""
    tasks: dict[tuple, dict] = {}
    for i, r in enumerate(rows):
        key = (r["pair_ID"], r["order"])
        task = tasks.setdefault(key, {"id": 100 + len(tasks), "data": {
            "pair_ID": r["pair_ID"], "order": r["order"], "first_sentence": "x", "second_sentence": "y",
            "is_control": {"true": True, "false": False}.get(r["is_control"], r["is_control"]),
            "judgments_needed": 5}, "annotations": []})
        result = []
        if r["relatedness"] != "":
            rating = int(r["relatedness"]) if r["relatedness"].lstrip("-").isdigit() else r["relatedness"]
            result.append({"from_name": "relatedness", "to_name": "second_sentence", "type": "rating",
                           "value": {"rating": rating}})
        if r["answer"] != "":
            result.append({"from_name": "answer", "to_name": "second_sentence", "type": "choices",
                           "value": {"choices": [r["answer"]]}})
        worker = r["worker_id"]
        task["annotations"].append({"id": 1000 + i, "completed_by": {"id": worker, "email": worker} if worker else
                                    None, "result": result, "was_cancelled": i in cancelled})
    path.write_text(json.dumps(list(tasks.values()), indent=1), encoding="utf-8")
    return path


def task_index(path: Path, pair_id: str, order: str) -> int:
    tasks = json.loads(path.read_text())
    return next(i for i, t in enumerate(tasks) if (t["data"]["pair_ID"], t["data"]["order"]) == (pair_id, order))


FORMATS = {
    "csv": (write_ours, "j.csv", lambda col: col),
    "mturk": (write_mturk, "results.csv", MTURK_FIELD.get),
    "labelstudio": (write_labelstudio, "export.json", LS_FIELD.get),
}


# ----------------------------------------------------------------------------------------------- good input


@pytest.mark.parametrize("fmt", FORMATS)
def test_good_rows_read_as_written(tmp_path, fmt):
    writer, name, _ = FORMATS[fmt]
    path = writer(tmp_path / name, GOOD)
    for given in (fmt, "auto"):
        judgments, rejected = read_judgments(path, given, pair_ids=PAIRS, control_ids=CONTROLS)
        pd.testing.assert_frame_equal(judgments, expected_table(GOOD))
        assert list(rejected.columns) == REJECTED_COLUMNS and rejected.empty


def test_write_read_round_trip_keeps_types_and_order(tmp_path):
    rng = np.random.default_rng(3)
    n = 500
    df = pd.DataFrame({
        "pair_ID": [str(i // 10) for i in range(n)], "worker_id": [f"w{i % 10}" for i in range(n)],
        "order": np.where(np.arange(n) % 10 < 5, "AB", "BA"), "relatedness": rng.integers(1, 6, n),
        "answer": np.array(ANSWERS)[rng.integers(0, 3, n)], "is_control": rng.random(n) < 0.1,
    })
    path = tmp_path / "out" / "judgments.csv"
    write_judgments(df, path)
    assert path.read_text().splitlines()[0] == ",".join(JUDGMENT_COLUMNS)
    back, rejected = read_judgments(path, pair_ids=set(df["pair_ID"]))
    assert rejected.empty
    assert list(back.columns) == JUDGMENT_COLUMNS
    assert back["relatedness"].dtype == np.int64 and back["is_control"].dtype == bool
    assert back.astype(object).values.tolist() == df.astype(object).values.tolist()
    assert [p.name for p in path.parent.iterdir()] == ["judgments.csv"]  # no temporary file left


def test_write_judgments_refuses_bad_values(tmp_path):
    good = expected_table(GOOD)
    for col, value in (("order", "AA"), ("relatedness", 6), ("answer", "yes"), ("is_control", "x"),
                       ("worker_id", "")):
        bad = good.astype(object)
        bad.loc[1, col] = value
        with pytest.raises(ValueError, match=f"row 1: bad {col}"):
            write_judgments(bad, tmp_path / "x.csv")
    with pytest.raises(ValueError, match="lack column"):
        write_judgments(good.drop(columns="answer"), tmp_path / "x.csv")
    assert not (tmp_path / "x.csv").exists()


def test_answers_and_values_are_normalized(tmp_path):
    rows = [dict(GOOD[0], answer=" true ", order="ab", worker_id=" w1 ", relatedness="4.0", is_control="0"),
            dict(GOOD[1], answer="can't say"), dict(GOOD[2], answer="No", is_control="FALSE")]
    judgments, _ = read_judgments(write_ours(tmp_path / "j.csv", rows), pair_ids=PAIRS)
    assert judgments["answer"].tolist() == ["TRUE", "UNKNOWN", "FALSE"]
    assert judgments["order"].tolist() == ["AB", "BA", "AB"]
    assert judgments["worker_id"].tolist() == ["w1", "w2", "w1"]
    assert judgments["relatedness"].tolist() == [4, 5, 1]


def test_control_repeats_count_as_controls(tmp_path):
    rows = [dict(GOOD[3], pair_ID="CTRL-002#2"), dict(GOOD[3], pair_ID="CTRL-001#3", worker_id="w9")]
    judgments, _ = read_judgments(write_ours(tmp_path / "j.csv", rows), pair_ids=PAIRS, control_ids=CONTROLS)
    assert judgments["is_control"].all()
    assert [control_base_id(p) for p in judgments["pair_ID"]] == ["CTRL-002", "CTRL-001"]
    assert control_base_id("17") == "17"
    with pytest.raises(RowError, match="unknown pair_ID 'CTRL-009#2'"):
        read_judgments(write_ours(tmp_path / "k.csv", [dict(GOOD[3], pair_ID="CTRL-009#2")]), pair_ids=PAIRS,
                       control_ids=CONTROLS)


def test_is_control_derived_from_control_ids_when_the_source_has_none(tmp_path):
    path = write_mturk(tmp_path / "r.csv", GOOD)
    df = pd.read_csv(path, dtype=str, keep_default_na=False).drop(columns="Input.is_control")
    df.to_csv(path, index=False)
    judgments, _ = read_judgments(path, "mturk", pair_ids=PAIRS, control_ids=CONTROLS)
    assert judgments["is_control"].tolist() == [False, False, False, True, False]
    judgments, _ = read_judgments(path, "mturk")
    assert not judgments["is_control"].any()


def test_without_id_sets_any_pair_is_accepted(tmp_path):
    rows = [dict(GOOD[0], pair_ID="anything")]
    judgments, _ = read_judgments(write_ours(tmp_path / "j.csv", rows))
    assert judgments["pair_ID"].tolist() == ["anything"]


def test_quoted_and_plain_files_read_alike(tmp_path):
    plain = write_ours(tmp_path / "plain.csv", GOOD + [dict(GOOD[0], answer="bad")])
    with open(tmp_path / "quoted.csv", "w", newline="") as f:  # quotes everywhere: the csv-module path
        w = csv.writer(f, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
        w.writerow(JUDGMENT_COLUMNS)
        w.writerows([list(r.values()) for r in GOOD + [dict(GOOD[0], answer="bad")]])
    results = [read_judgments(p, pair_ids=PAIRS, control_ids=CONTROLS, skip_bad_rows=True)
               for p in (plain, tmp_path / "quoted.csv")]
    pd.testing.assert_frame_equal(results[0][0], results[1][0])
    assert results[0][1]["row"].tolist() == results[1][1]["row"].tolist() == [7]
    assert results[0][1]["reason"].tolist() == results[1][1]["reason"].tolist()


def test_tsv_and_blank_lines_and_quoted_newlines_keep_line_numbers(tmp_path):
    path = tmp_path / "j.tsv"
    lines = ["\t".join(JUDGMENT_COLUMNS), "\t".join(GOOD[0].values()), "",
             "\t".join(dict(GOOD[1], worker_id='"w\n2"').values()), "\t".join(dict(GOOD[2], answer="NO!").values())]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RowError) as err:
        read_judgments(path, pair_ids=PAIRS)
    assert (err.value.line, err.value.field) == (6, "answer")  # the quoted worker id spans lines 4-5
    judgments, rejected = read_judgments(path, pair_ids=PAIRS, skip_bad_rows=True)
    assert judgments["worker_id"].tolist() == ["w1", "w\n2"]
    assert rejected["row"].tolist() == [6]


def test_unterminated_quote_is_an_error_naming_file_and_line(tmp_path):
    """A quote left open would swallow the rest of the file into one field: strict quoting stops there."""
    path = tmp_path / "j.csv"
    rows = [",".join(r.values()) for r in GOOD]
    rows[2] = rows[2].replace("w1", '"w1')  # the record of line 4 opens a quote that never closes
    path.write_text(",".join(JUDGMENT_COLUMNS) + "\n" + "\n".join(rows) + "\n")
    for fmt in ("auto", "csv"):
        with pytest.raises(InputError, match="malformed CSV") as err:
            read_judgments(path, fmt, skip_bad_rows=True)
        assert (err.value.path, err.value.line) == (str(path), 4)


# ------------------------------------------------------------------------------------------------ bad rows


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", BAD_KINDS)
def test_each_bad_row_kind_names_file_row_and_field(tmp_path, fmt, kind):
    column, value, words = BAD_KINDS[kind]
    writer, name, source_field = FORMATS[fmt]
    rows = [dict(r) for r in GOOD]
    rows[BAD_AT][column] = value
    path = writer(tmp_path / name, rows)
    if fmt == "labelstudio":
        where, row = "task index", task_index(path, rows[BAD_AT]["pair_ID"], rows[BAD_AT]["order"])
    else:
        # header is line 1; each MTurk record spans two lines (a sentence with a quoted newline)
        where, row = "line", (2 + 2 * BAD_AT if fmt == "mturk" else 2 + BAD_AT)
    with pytest.raises(RowError) as err:
        read_judgments(path, fmt, pair_ids=PAIRS, control_ids=CONTROLS)
    exc = err.value
    assert isinstance(exc, InputError)
    assert (exc.path, exc.row, exc.row_kind, exc.field) == (str(path), row, where, source_field(column))
    assert exc.line == (row if where == "line" else None)
    assert words in str(exc) and str(path) in str(exc) and f"{where} {row}" in str(exc)

    judgments, rejected = read_judgments(path, fmt, pair_ids=PAIRS, control_ids=CONTROLS, skip_bad_rows=True)
    kept = [r for i, r in enumerate(GOOD) if i != BAD_AT]
    pd.testing.assert_frame_equal(judgments, expected_table(kept))
    assert len(rejected) == 1
    rej = rejected.iloc[0]
    assert (rej["file"], rej["row"], rej["field"]) == (str(path), row, source_field(column))
    assert words in rej["reason"]
    as_read = {"true": "True"}.get(value, value) if fmt == "labelstudio" else value  # JSON true, read back
    assert rej[column] == as_read
    assert rej["pair_ID"] == rows[BAD_AT]["pair_ID"] or column == "pair_ID"
    assert json.loads(rej["raw"])  # the whole source record


@pytest.mark.parametrize("fmt", FORMATS)
def test_duplicate_worker_pair_order_keeps_the_first(tmp_path, fmt):
    writer, name, source_field = FORMATS[fmt]
    rows = GOOD + [dict(GOOD[0], relatedness="1", answer="FALSE")]
    path = writer(tmp_path / name, rows)
    with pytest.raises(RowError, match="duplicate: worker 'w1' already judged pair '1' in order AB") as err:
        read_judgments(path, fmt, pair_ids=PAIRS, control_ids=CONTROLS)
    assert err.value.field == source_field("worker_id")
    judgments, rejected = read_judgments(path, fmt, pair_ids=PAIRS, control_ids=CONTROLS, skip_bad_rows=True)
    pd.testing.assert_frame_equal(judgments.reset_index(drop=True), expected_table(GOOD))
    assert len(rejected) == 1 and rejected["answer"].iloc[0] == "FALSE"
    if fmt == "csv":
        assert err.value.line == 7 and "(line 2)" in str(err.value)
    if fmt == "labelstudio":  # the same task holds both annotations
        assert err.value.row == task_index(path, "1", "AB") and "(task index 0)" in str(err.value)


@pytest.mark.parametrize("fmt", FORMATS)
def test_several_bad_rows_error_names_the_first_and_all_are_listed(tmp_path, fmt):
    writer, name, _ = FORMATS[fmt]
    rows = [dict(r) for r in GOOD]
    rows[1]["answer"], rows[4]["relatedness"] = "?", "9"
    path = writer(tmp_path / name, rows)
    with pytest.raises(RowError, match="answer '\\?'"):
        read_judgments(path, fmt, pair_ids=PAIRS, control_ids=CONTROLS)
    judgments, rejected = read_judgments(path, fmt, pair_ids=PAIRS, control_ids=CONTROLS, skip_bad_rows=True)
    assert len(judgments) + len(rejected) == len(rows)  # nothing silently lost
    assert set(rejected["field"]) >= {FORMATS[fmt][2]("answer"), FORMATS[fmt][2]("relatedness")}


def test_csv_line_with_wrong_number_of_fields(tmp_path):
    path = write_ours(tmp_path / "j.csv", GOOD)
    lines = path.read_text().splitlines()
    lines[2] += ",extra"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RowError, match="expected 6 fields, found 7") as err:
        read_judgments(path, pair_ids=PAIRS)
    assert err.value.line == 3
    judgments, rejected = read_judgments(path, pair_ids=PAIRS, control_ids=CONTROLS, skip_bad_rows=True)
    assert len(judgments) == 4 and rejected["row"].tolist() == [3]
    assert json.loads(rejected["raw"].iloc[0])[-1] == "extra"


# ------------------------------------------------------------------------------------------ platform drops


def test_rejected_mturk_assignments_are_dropped_and_reported(tmp_path):
    status = ["Approved", "Rejected", "Submitted", "Rejected", "Approved"]
    rows = [dict(r) for r in GOOD]
    rows[3]["relatedness"] = "77"  # a rejected assignment is not checked: it is not used at all
    path = write_mturk(tmp_path / "r.csv", rows, status)
    judgments, rejected = read_judgments(path, pair_ids=PAIRS, control_ids=CONTROLS)  # no error, no skip
    pd.testing.assert_frame_equal(judgments, expected_table([GOOD[0], GOOD[2], GOOD[4]]))
    assert rejected["reason"].tolist() == ["assignment rejected"] * 2
    assert rejected["field"].tolist() == ["AssignmentStatus"] * 2
    assert rejected["row"].tolist() == [4, 8]
    assert rejected["worker_id"].tolist() == ["w2", "w3"]
    assert json.loads(rejected["raw"].iloc[0])["AssignmentId"] == "A1"


def test_rejected_assignment_does_not_count_as_first_of_a_duplicate(tmp_path):
    rows = [GOOD[0], dict(GOOD[0], relatedness="2")]
    path = write_mturk(tmp_path / "r.csv", rows, ["Rejected", "Approved"])
    judgments, rejected = read_judgments(path, pair_ids=PAIRS)
    assert judgments["relatedness"].tolist() == [2] and rejected["reason"].tolist() == ["assignment rejected"]


def test_cancelled_labelstudio_annotations_are_dropped_and_reported(tmp_path):
    path = write_labelstudio(tmp_path / "e.json", GOOD, cancelled={1})
    judgments, rejected = read_judgments(path, pair_ids=PAIRS, control_ids=CONTROLS)
    pd.testing.assert_frame_equal(judgments, expected_table([r for i, r in enumerate(GOOD) if i != 1]))
    assert rejected["reason"].tolist() == ["annotation cancelled"]
    assert rejected["row"].tolist() == [task_index(path, "1", "BA")]


def test_labelstudio_worker_forms_labels_and_malformed_tasks(tmp_path):
    tasks = [
        {"id": 1, "data": {"pair_ID": "1", "order": "AB"}, "annotations": [
            {"completed_by": 7, "result": [{"from_name": "relatedness", "type": "rating", "value": {"rating": 3}},
                                           {"from_name": "answer", "type": "choices", "value": {"choices": ["yes"]}}]},
            {"completed_by": {"id": 8}, "result": [
                {"from_name": "other", "type": "rating", "value": {"rating": 2}},
                {"from_name": "other2", "type": "choices", "value": {"choices": ["can't say"]}}]}]},
        {"id": 2, "data": {"pair_ID": "2", "order": "BA"}, "annotations": []},
        "not a task",
        {"id": 4, "data": {"pair_ID": "3", "order": "AB"}, "annotations": [
            {"completed_by": 7, "result": [{"from_name": "relatedness", "value": {"rating": 5}},
                                           {"from_name": "answer", "value": {"choices": ["TRUE", "FALSE"]}}]}]},
    ]
    path = tmp_path / "e.json"
    path.write_text(json.dumps(tasks))
    with pytest.raises(RowError, match="task index 2, field 'data'"):
        read_judgments(path, pair_ids=PAIRS)
    judgments, rejected = read_judgments(path, pair_ids=PAIRS, skip_bad_rows=True)
    assert judgments.values.tolist() == [["1", "7", "AB", 3, "TRUE", False], ["1", "8", "AB", 2, "UNKNOWN", False]]
    assert rejected["row"].tolist() == [2, 3]
    assert rejected["field"].tolist() == ["data", "answer"]
    assert "'TRUE|FALSE'" in rejected["reason"].iloc[1]


# -------------------------------------------------------------------------------------------- whole files


def test_file_level_errors(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        read_judgments(tmp_path / "missing.csv")
    path = write_ours(tmp_path / "j.csv", GOOD)
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    df.drop(columns="answer").to_csv(tmp_path / "no_answer.csv", index=False)
    with pytest.raises(InputError, match="missing column 'answer'") as err:
        read_judgments(tmp_path / "no_answer.csv", "csv")
    assert err.value.field == "answer"
    df.assign(note="x").to_csv(tmp_path / "extra.csv", index=False)
    with pytest.raises(InputError, match="unexpected column 'note'"):
        read_judgments(tmp_path / "extra.csv")
    df.rename(columns={"answer": "label"}).to_csv(tmp_path / "other.csv", index=False)
    with pytest.raises(InputError, match="cannot tell the format"):
        read_judgments(tmp_path / "other.csv")
    mt = pd.read_csv(write_mturk(tmp_path / "r.csv", GOOD), dtype=str, keep_default_na=False)
    mt.drop(columns="Answer.relatedness").to_csv(tmp_path / "r2.csv", index=False)
    with pytest.raises(InputError, match="missing column 'Answer.relatedness'") as err:
        read_judgments(tmp_path / "r2.csv")
    assert err.value.field == "Answer.relatedness"
    (tmp_path / "bad.json").write_text('[{"data": ')
    with pytest.raises(InputError, match="not valid JSON"):
        read_judgments(tmp_path / "bad.json")
    (tmp_path / "obj.json").write_text('{"data": {}}')
    with pytest.raises(InputError, match="list of tasks"):
        read_judgments(tmp_path / "obj.json")
    (tmp_path / "latin1.csv").write_bytes(",".join(JUDGMENT_COLUMNS).encode() + b"\n1,w\xe9,AB,3,TRUE,false\n")
    with pytest.raises(InputError, match="not valid UTF-8") as err:
        read_judgments(tmp_path / "latin1.csv")
    assert err.value.line == 2
    (tmp_path / "empty.csv").write_text("")
    with pytest.raises(InputError, match="empty file"):
        read_judgments(tmp_path / "empty.csv", "csv")
    with pytest.raises(ValueError, match="unknown judgment format"):
        read_judgments(path, "xlsx")


# ------------------------------------------------------------------ Label Studio's real exports (issue 14)

LS_EXPORTS = ("export_JSON.json", "export_JSON_MIN.json", "export_CSV.csv", "export_TSV.tsv")


@pytest.mark.parametrize("name", LS_EXPORTS)
def test_every_label_studio_export_gives_the_same_gold(shared_data, tmp_path, name):
    """Real exports of one round (../shared/data/labelstudio_exports, README there): full JSON, JSON_MIN, CSV and
    TSV all read to the same 90 judgments and aggregate to the same gold, with the README's figures."""
    from pipeline.cli import main

    d = shared_data / "labelstudio_exports"
    gold = {}
    for fname, args in ((name, []), ("export_JSON.json", [])):
        out = tmp_path / f"g-{fname}"
        if not out.exists():
            assert main(["aggregate", "--judgments", str(d / fname), "--corpus", str(d / "corpus.tsv"), "--quiet",
                         "--skip-bad-rows", "--out", str(out), *args]) == 0
        gold[fname] = (out / "gold.tsv").read_bytes()
        rejected = pd.read_csv(out / "rejected.tsv", sep="\t", dtype=str, keep_default_na=False)
        # only the full JSON carries the cancelled annotation; nothing else is rejected
        assert rejected["reason"].tolist() == (["annotation cancelled"] if fname == "export_JSON.json" else [])
    assert gold[name] == gold["export_JSON.json"]
    g = pd.read_csv(tmp_path / f"g-{name}" / "gold.tsv", sep="\t", dtype=str, keep_default_na=False)
    g = g.set_index("pair_ID")
    assert (g["n_ratings"] != "0").sum() == 12  # pairs 1-12 were annotated
    workers = pd.read_csv(tmp_path / f"g-{name}" / "workers.tsv", sep="\t", dtype=str).set_index("worker_id")
    assert workers.loc["4", "excluded"] == "true" and workers.loc["4", "controls_correct"] == "0"  # 0/6 controls
    assert (workers.drop(index="4")["excluded"] == "false").all()
    # the README's figures are over all 6 judgments of a pair: keep everyone to compare
    out = tmp_path / "all"
    assert main(["aggregate", "--judgments", str(d / name), "--corpus", str(d / "corpus.tsv"), "--quiet",
                 "--skip-bad-rows", "--min-control-accuracy", "0", "--out", str(out)]) == 0
    a = pd.read_csv(out / "gold.tsv", sep="\t", dtype=str, keep_default_na=False).set_index("pair_ID")
    assert (a.loc["1", "relatedness_score"], a.loc["1", "relatedness_sd"]) == ("2.667", "1.633")
    assert (a.loc["1", "entailment_AB"], a.loc["1", "entailment_BA"], a.loc["1", "entailment_label"]) == (
        "A_entails_B", "B_neutral_A", "ENTAILMENT")
    assert (a.loc["7", "relatedness_score"], a.loc["7", "relatedness_sd"], a.loc["7", "entailment_label"]) == (
        "3", "1.414", "CONTRADICTION")
    assert a.loc["11", "entailment_label"] == "NEUTRAL" and a.loc["11", "entailment_BA"] == "B_contradicts_A"
    assert (a.loc["12", "entailment_AB"], a.loc["12", "entailment_BA"], a.loc["12", "entailment_label"]) == (
        "A_contradicts_B", "B_entails_A", "NEUTRAL")
    assert (a["n_ratings"] != "0").sum() == 12 and set(a.loc[a["n_ratings"] != "0", "n_ratings"]) == {"6"}


def test_label_studio_tsv_named_csv_is_read(shared_data, tmp_path):
    """The server names its TSV download .csv: the delimiter is told from the header line."""
    d = shared_data / "labelstudio_exports"
    renamed = tmp_path / "export.csv"
    renamed.write_bytes((d / "export_TSV.tsv").read_bytes())
    a, _ = read_judgments(renamed)
    b, _ = read_judgments(d / "export_CSV.csv")
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 90 and set(a["worker_id"]) == {"2", "3", "4"}


def test_label_studio_config_in_the_exports_is_ours(shared_data):
    """The exports were made with the labeling config `sick tasks export` writes."""
    from pipeline.crowd.tasks import LABELSTUDIO_CONFIG

    d = shared_data / "labelstudio_exports"
    assert (d / "labelstudio_config.xml").read_text() == LABELSTUDIO_CONFIG.read_text()


def test_aggregate_stops_when_every_row_is_rejected(shared_data, tmp_path):
    """--skip-bad-rows must not turn a file read the wrong way into an empty gold with exit 0."""
    from pipeline.cli import main

    d = shared_data / "labelstudio_exports"
    records = json.loads((d / "export_JSON_MIN.json").read_text(encoding="utf-8"))
    for r in records:
        r["pair_ID"] = "x" + r["pair_ID"]
    bad = tmp_path / "min.json"
    bad.write_text(json.dumps(records), encoding="utf-8")
    assert main(["aggregate", "--judgments", str(bad), "--corpus", str(d / "corpus.tsv"), "--skip-bad-rows",
                 "--quiet", "--out", str(tmp_path / "g")]) == 2
    assert not (tmp_path / "g").exists()


@pytest.mark.parametrize("name, text", [("j.csv", "pair_ID,worker_id,order,relatedness,answer,is_control\n"),
                                        ("export.json", "[]\n")])
def test_header_only_or_empty_export_is_an_error(tmp_path, name, text):
    """Issue 13, item 8: these exited 0 with an empty gold."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match="no judgments"):
        read_judgments(path, pair_ids=PAIRS)
