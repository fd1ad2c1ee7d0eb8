"""``sick tasks export``: both orders x per_order, control share and spread, seeded shuffle, the three platforms'
files and templates, round trips export -> filled in -> read back, bad input, the command line."""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
import yaml

from pipeline.cli import parser
from pipeline.common.errors import InputError
from pipeline.common.vocabulary import ANSWERS, ORDERS
from pipeline.corpus.job import CORPUS_COLUMNS
from pipeline.crowd.controls import DEFAULT_CONTROLS, controls_table, load_controls
from pipeline.crowd.judgments import JUDGMENT_COLUMNS, control_base_id, read_judgments, write_judgments
from pipeline.crowd.tasks import (
    INSTRUCTIONS,
    LABELSTUDIO_CONFIG,
    MTURK_TEMPLATE,
    PLATFORMS,
    TASK_COLUMNS,
    build_task_rows,
    control_rows_needed,
    export_tasks,
    mturk_template,
    read_corpus_pairs,
)

CONTROLS = load_controls()
CONTROL_IDS = {c.id for c in CONTROLS}


def read(path) -> pd.DataFrame:
    return pd.read_csv(path, keep_default_na=False, dtype=str)


def make_corpus(path: Path, n: int) -> Path:
    """A corpus.tsv in sick build's layout with n pairs (gold columns empty)."""
    subjects = ["A man", "A woman", "A dog", "A child", "Two boys", "An old lady", "A cat", "The girl"]
    verbs = ["is running", "is eating", "is sleeping", "is jumping", "is swimming", "is reading", "is singing"]
    rows = []
    for i in range(1, n + 1):
        a = f"{subjects[i % 8]} {verbs[i % 7]} in place {i}"
        b = f"{subjects[(i + 3) % 8]} {verbs[(i + 2) % 7]} near thing {i}"
        row = dict.fromkeys(CORPUS_COLUMNS, "")
        row.update(pair_ID=str(i), sentence_A=a, sentence_B=b, SemEval_set="TRAIN", pair_type="S1aS1b")
        rows.append(row)
    pd.DataFrame(rows, columns=CORPUS_COLUMNS).to_csv(path, sep="\t", index=False, lineterminator="\n")
    return path


@pytest.fixture()
def corpus(tmp_path) -> Path:
    return make_corpus(tmp_path / "corpus.tsv", 60)


def task_table(out: Path, platform: str, raw: bool = False) -> pd.DataFrame:
    """All task rows of an export, in file order, as strings (is_control as true/false). The MTurk and Label
    Studio files hide the controls behind opaque ids; unless ``raw``, they are mapped back here through the
    manifest's ``controls.ids`` (to CTRL-001, CTRL-001#2…) and ``is_control`` is added, in TASK_COLUMNS order."""
    if platform == "labelstudio":
        files = sorted(out.glob("tasks*.json"))
        rows = [t["data"] for f in files for t in json.loads(f.read_text())]
        df = pd.DataFrame(rows).astype(str)
    else:
        files = sorted(out.glob("batch*.csv" if platform == "mturk" else "tasks*.csv"))
        df = pd.concat([read(f) for f in files], ignore_index=True)
        if platform == "mturk" and "pair_ID_1" in df.columns:  # HITs of N rows: back to one row per task
            n = sum(c.startswith("pair_ID_") for c in df.columns)
            cols = ["pair_ID", "order", "first_sentence", "second_sentence"]
            df = pd.DataFrame([{c: hit[f"{c}_{k}"] for c in cols} for hit in df.to_dict("records")
                               for k in range(1, n + 1) if hit[f"pair_ID_{k}"]], columns=cols)
    if raw:
        return df
    ids = json.loads((out / "manifest.json").read_text())["controls"]["ids"]
    if platform != "csv":
        df.insert(4, "is_control", df["pair_ID"].isin(ids).map({True: "true", False: "false"}))
    df["pair_ID"] = df["pair_ID"].map(lambda p: ids.get(p, p))
    return df


# ------------------------------------------------------------------------------------------ task rows


@pytest.mark.parametrize("platform", PLATFORMS)
def test_every_pair_in_both_orders_with_per_order(corpus, tmp_path, platform):
    out = tmp_path / "out"
    counts = export_tasks(corpus, platform, out, per_order=3)
    tasks = task_table(out, platform)
    assert list(tasks.columns[:5]) == TASK_COLUMNS
    pairs = {pid: (a, b) for pid, a, b in read_corpus_pairs(corpus)}
    real = tasks[tasks["is_control"] == "false"]
    assert Counter(zip(real["pair_ID"], real["order"])) == Counter({(p, o): 1 for p in pairs for o in ORDERS})
    for row in real.itertuples():
        a, b = pairs[row.pair_ID]
        assert (row.first_sentence, row.second_sentence) == ((a, b) if row.order == "AB" else (b, a))
    if platform != "mturk":
        assert set(tasks["judgments_needed"]) == {"3"}
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["options"]["per_order"] == 3
    assert counts["judgments_needed"] == 3 * len(tasks) == 3 * counts["rows"]
    assert counts["corpus_rows"] == 2 * len(pairs) == len(real)


def test_controls_in_both_orders_with_their_sentences(corpus, tmp_path):
    export_tasks(corpus, "csv", tmp_path / "out", control_rate=0.2)
    tasks = task_table(tmp_path / "out", "csv")
    ctrl = tasks[tasks["is_control"] == "true"]
    assert len(ctrl) > 0 and all(control_base_id(p) in CONTROL_IDS for p in ctrl["pair_ID"])
    assert not (tasks[tasks["is_control"] == "false"]["pair_ID"].isin(CONTROL_IDS)).any()
    by_id = {c.id: c for c in CONTROLS}
    for pid, group in ctrl.groupby("pair_ID"):
        assert sorted(group["order"]) == ["AB", "BA"]
        item = by_id[control_base_id(pid)]
        for row in group.itertuples():
            expected = (item.sentence_A, item.sentence_B) if row.order == "AB" else (item.sentence_B, item.sentence_A)
            assert (row.first_sentence, row.second_sentence) == expected


@pytest.mark.parametrize("pairs, rate", [(60, 0.1), (60, 0.05), (7, 0.1), (100, 0.25), (300, 0.1), (60, 0.0),
                                         (1, 0.1), (40, 0.33)])
def test_control_share_within_rounding_of_the_rate(tmp_path, pairs, rate):
    corpus = make_corpus(tmp_path / "c.tsv", pairs)
    counts = export_tasks(corpus, "csv", tmp_path / "out", control_rate=rate)
    tasks = task_table(tmp_path / "out", "csv")
    n_ctrl = int((tasks["is_control"] == "true").sum())
    corpus_rows = 2 * pairs
    exact = rate * corpus_rows / (1 - rate)  # control rows that make controls exactly `rate` of all rows
    assert abs(n_ctrl - exact) <= 1
    assert n_ctrl % 2 == 0 and n_ctrl == counts["control_rows"] == control_rows_needed(corpus_rows, rate)
    assert len(tasks) == corpus_rows + n_ctrl == counts["rows"]
    if n_ctrl:
        assert abs(n_ctrl / len(tasks) - rate) <= 1 / len(tasks)


def test_controls_reused_with_numbered_ids_when_the_corpus_needs_more(tmp_path):
    corpus = make_corpus(tmp_path / "c.tsv", 400)  # 800 rows at 0.1 -> 88.9 -> 88 control rows = 44 items
    counts = export_tasks(corpus, "csv", tmp_path / "out")
    tasks = task_table(tmp_path / "out", "csv")
    ctrl = tasks[tasks["is_control"] == "true"]
    assert counts["control_rows"] == 88 and counts["control_repeats"] == 44 - len(CONTROLS)
    assert not ctrl.duplicated(["pair_ID", "order"]).any()
    uses = Counter(control_base_id(p) for p in ctrl["pair_ID"].unique())
    assert set(uses) == CONTROL_IDS and max(uses.values()) - min(uses.values()) <= 1  # used evenly
    assert any(re.fullmatch(r"CTRL-\d{3}#[23]", p) for p in ctrl["pair_ID"])


def test_controls_spread_through_every_batch(tmp_path):
    corpus = make_corpus(tmp_path / "c.tsv", 450)  # 900 + 100 rows
    export_tasks(corpus, "mturk", tmp_path / "out", batch_size=100, control_rate=0.1, pairs_per_hit=1)
    files = sorted((tmp_path / "out").glob("batch_*.csv"))
    assert [f.name for f in files] == [f"batch_{i:03d}.csv" for i in range(1, 11)]
    ids = json.loads((tmp_path / "out" / "manifest.json").read_text())["controls"]["ids"]
    for f in files:
        batch = read(f)
        assert len(batch) == 100
        assert 8 <= batch["pair_ID"].isin(ids).sum() <= 12


@pytest.mark.parametrize("platform", ["mturk", "labelstudio"])
def test_workers_cannot_spot_a_control(tmp_path, platform):
    """What workers can read (the batch CSV / task data) names controls by ids like the corpus's and has no
    is_control; the manifest keeps the key and the map, and the same inputs give the same ids."""
    corpus = make_corpus(tmp_path / "c.tsv", 300)  # needs more control rows than items: reused items too
    export_tasks(corpus, platform, tmp_path / "out")
    raw = task_table(tmp_path / "out", platform, raw=True)
    assert "is_control" not in raw.columns
    worker_files = [f for f in (tmp_path / "out").iterdir() if f.name != "manifest.json"]
    for f in worker_files:
        assert "CTRL" not in f.read_text(encoding="utf-8"), f.name
    assert raw["pair_ID"].str.fullmatch(r"\d+").all()  # every id a number, as the corpus's
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    ids = manifest["controls"]["ids"]
    assert len(manifest["controls"]["key"]) == 32
    assert set(raw["pair_ID"]) - {str(i) for i in range(1, 301)} == set(ids)
    assert {control_base_id(v) for v in ids.values()} == CONTROL_IDS
    assert any("#" in v for v in ids.values())
    # the opaque number does not follow the control's id or its use: ids are not handed out in CTRL order
    by_number = [ids[k] for k in sorted(ids, key=int)]
    assert by_number != sorted(by_number)
    export_tasks(corpus, platform, tmp_path / "again")
    assert json.loads((tmp_path / "again" / "manifest.json").read_text())["controls"] == manifest["controls"]


def test_batches_partition_the_rows(corpus, tmp_path):
    export_tasks(corpus, "labelstudio", tmp_path / "one", seed=5)
    counts = export_tasks(corpus, "labelstudio", tmp_path / "split", seed=5, batch_size=50)
    whole, parts = task_table(tmp_path / "one", "labelstudio"), task_table(tmp_path / "split", "labelstudio")
    pd.testing.assert_frame_equal(whole, parts)
    sizes = [len(json.loads(f.read_text())) for f in sorted((tmp_path / "split").glob("tasks_*.json"))]
    assert sizes[:-1] == [50] * (len(sizes) - 1) and 0 < sizes[-1] <= 50 and counts["batches"] == len(sizes)


def test_shuffle_is_deterministic_for_a_seed_and_differs_for_another(corpus, tmp_path):
    digests = {}
    for name, seed in (("a", 1), ("b", 1), ("c", 2)):
        export_tasks(corpus, "csv", tmp_path / name, seed=seed)
        digests[name] = hashlib.sha256((tmp_path / name / "tasks.csv").read_bytes()).hexdigest()
    assert digests["a"] == digests["b"] != digests["c"]
    a, c = task_table(tmp_path / "a", "csv"), task_table(tmp_path / "c", "csv")
    key = lambda df: sorted(zip(df["pair_ID"], df["order"], df["is_control"]))  # noqa: E731
    real_a, real_c = a[a["is_control"] == "false"], c[c["is_control"] == "false"]
    assert key(real_a) == key(real_c) and len(a) == len(c)  # the same pair rows, in another order
    order = lambda df: list(zip(df["pair_ID"], df["order"]))  # noqa: E731
    assert order(real_a) != order(real_c)  # the pair rows themselves are reordered by the seed
    used = lambda df: set(df[df["is_control"] == "true"]["pair_ID"])  # noqa: E731
    assert used(a) != used(c)  # 7 of the 20 control items, drawn with the seed
    ab = real_a[real_a["order"] == "AB"]["pair_ID"].tolist()
    assert ab != sorted(ab, key=int)  # not corpus order
    first_half = real_a["order"].iloc[: len(real_a) // 2]
    assert 0.3 < (first_half == "AB").mean() < 0.7  # both orders mixed, not all AB then all BA
    assert (tmp_path / "a" / "manifest.json").read_bytes() == (tmp_path / "b" / "manifest.json").read_bytes()


def test_build_task_rows_counts():
    pairs = [(str(i), f"A{i}", f"B{i}") for i in range(30)]
    rows, counts = build_task_rows(pairs, CONTROLS[:3], 0.5, seed=4)
    assert counts["corpus_rows"] == 60 and counts["control_rows"] == 60
    assert counts["control_items_used"] == 3 and counts["control_repeats"] == 27
    assert len({(r["pair_ID"], r["order"]) for r in rows}) == len(rows) == 120
    with pytest.raises(ValueError, match="needs control items"):
        build_task_rows(pairs, [], 0.1, seed=1)


# ------------------------------------------------------------------------------------------ files written


def test_manifest_records_inputs_and_counts(corpus, tmp_path):
    counts = export_tasks(corpus, "mturk", tmp_path / "out", per_order=5, seed=9, batch_size=40)
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["inputs"]["corpus"]["sha256"] == hashlib.sha256(corpus.read_bytes()).hexdigest()
    assert manifest["inputs"]["controls"]["sha256"] == hashlib.sha256(DEFAULT_CONTROLS.read_bytes()).hexdigest()
    assert manifest["seed"] == 9 and manifest["platform"] == "mturk"
    assert manifest["options"] == {"per_order": 5, "control_rate": 0.1, "batch_size": 40, "pairs_per_hit": 10,
                                   "orders": ["AB", "BA"]}
    assert manifest["counts"] == counts
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(counts["files"] + [".sick-output"])
    assert {"mturk_question.html", "instructions.md"} <= set(counts["files"])
    assert (tmp_path / "out" / "mturk_question.html").read_text() == mturk_template(10)
    assert counts["rows"] % 10 == 0 and counts["hits"] == counts["rows"] // 10


@pytest.mark.parametrize("platform, files", [("mturk", {"batch.csv", "mturk_question.html"}),
                                             ("labelstudio", {"tasks.json", "labelstudio_config.xml"}),
                                             ("csv", {"tasks.csv"})])
def test_platform_files(corpus, tmp_path, platform, files):
    export_tasks(corpus, platform, tmp_path / "out")
    names = {p.name for p in (tmp_path / "out").iterdir()}
    assert names == files | {"instructions.md", "manifest.json", ".sick-output"}


class _Inputs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.inputs: list[dict] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "input":
            self.inputs.append(dict(attrs))

    def handle_data(self, data):
        self.text.append(data)


@pytest.mark.parametrize("per_hit", [1, 10])
def test_mturk_template_matches_batch_columns_and_the_readers_fields(corpus, tmp_path, per_hit):
    export_tasks(corpus, "mturk", tmp_path / "out", pairs_per_hit=per_hit)
    html = (tmp_path / "out" / "mturk_question.html").read_text()
    variables = set(re.findall(r"\$\{([^}]*)\}", html))
    columns = set(read(tmp_path / "out" / "batch.csv").columns)
    suffixes = [""] if per_hit == 1 else [f"_{k}" for k in range(1, per_hit + 1)]
    names = {"first_sentence", "second_sentence", "pair_ID", "order"}
    assert variables == columns == {n + x for n in names for x in suffixes}
    parser = _Inputs()
    parser.feed(html)
    radios = {}
    for attrs in parser.inputs:
        if attrs.get("type") == "radio":
            radios.setdefault(attrs["name"], []).append(attrs["value"])
    # the names become Answer.relatedness(_k) / Answer.answer(_k), which read_judgments(fmt="mturk") reads
    assert radios == {f"{n}{x}": v for x in suffixes
                      for n, v in (("relatedness", ["1", "2", "3", "4", "5"]), ("answer", list(ANSWERS)))}
    hidden = {a["name"]: a["value"] for a in parser.inputs if a.get("type") == "hidden"}
    assert hidden == {f"{n}{x}": "${" + n + x + "}" for x in suffixes for n in ("pair_ID", "order")}
    text = " ".join(" ".join(parser.text).split())
    assert "How similar are the two sentences?" in text and "If sentence 1 is true, is sentence 2 true?" in text
    assert "<crowd-form" in html and "${is_control}" not in html  # workers never see which items are controls


def test_labelstudio_config_rating_and_single_choice(corpus, tmp_path):
    export_tasks(corpus, "labelstudio", tmp_path / "out")
    root = ET.fromstring((tmp_path / "out" / "labelstudio_config.xml").read_text())
    ratings = root.findall(".//Rating")
    assert len(ratings) == 1 and ratings[0].get("maxRating") == "5" and ratings[0].get("name") == "relatedness"
    choices = root.findall(".//Choices")
    assert len(choices) == 1 and choices[0].get("name") == "answer"
    assert choices[0].get("choice") in ("single", "single-radio")
    assert [c.get("alias") or c.get("value") for c in choices[0].findall("Choice")] == list(ANSWERS)
    data_keys = set(json.loads((tmp_path / "out" / "tasks.json").read_text())[0]["data"])
    names = {t.get("name") for t in root.iter() if t.get("name")}
    for el in root.iter():
        if el.get("value", "").startswith("$"):
            assert el.get("value")[1:] in data_keys
        if el.get("toName"):
            assert el.get("toName") in names


# ---------------------------------------------------------------------------------------------- round trips


def fill(tasks: pd.DataFrame, per_order: int, seed: int) -> pd.DataFrame:
    """Fake crowd answers: per_order distinct workers per task row, random ratings and answers."""
    rng = random.Random(seed)
    workers = [f"W{i:03d}" for i in range(40)]
    rows = []
    for t in tasks.itertuples():
        for w in rng.sample(workers, per_order):
            rows.append({"pair_ID": t.pair_ID, "worker_id": w, "order": t.order, "relatedness": rng.randint(1, 5),
                         "answer": rng.choice(ANSWERS), "is_control": t.is_control == "true"})
    return pd.DataFrame(rows, columns=JUDGMENT_COLUMNS)


def as_records(df: pd.DataFrame) -> list[tuple]:
    return sorted(tuple(r) for r in df.astype(object).itertuples(index=False))


def test_round_trip_csv(corpus, tmp_path):
    export_tasks(corpus, "csv", tmp_path / "out", per_order=4)
    tasks = task_table(tmp_path / "out", "csv")
    filled = fill(tasks, int(tasks["judgments_needed"].iloc[0]), seed=1)
    write_judgments(filled, tmp_path / "judgments.csv")
    pair_ids = {p for p, _, _ in read_corpus_pairs(corpus)}
    back, rejected = read_judgments(tmp_path / "judgments.csv", "csv", pair_ids=pair_ids, control_ids=CONTROL_IDS)
    assert rejected.empty and as_records(back) == as_records(filled)
    assert back["is_control"].sum() == 4 * (tasks["is_control"] == "true").sum()


def test_round_trip_mturk(corpus, tmp_path):
    export_tasks(corpus, "mturk", tmp_path / "out", per_order=5, batch_size=70)
    tasks = task_table(tmp_path / "out", "mturk")
    filled = fill(tasks, 5, seed=2)
    # the results CSV MTurk gives for the batch: Input.* = batch columns, Answer.* = the template's input names
    by_task = {(r.pair_ID, r.order): r for r in tasks.itertuples()}
    results = []
    for i, j in enumerate(filled.itertuples()):
        t = by_task[(j.pair_ID, j.order)]
        results.append({"HITId": f"H{t.Index}", "AssignmentId": f"A{i}", "WorkerId": j.worker_id,
                        "AssignmentStatus": "Approved",
                        **{f"Input.{c}": getattr(t, c) for c in TASK_COLUMNS},
                        "Answer.pair_ID": j.pair_ID, "Answer.order": j.order,
                        "Answer.relatedness": str(j.relatedness), "Answer.answer": j.answer})
    rejected_extra = dict(results[0], AssignmentId="AX", WorkerId="SPAMMER", AssignmentStatus="Rejected")
    results.append(rejected_extra)
    path = tmp_path / "Batch_results.csv"
    pd.DataFrame(results).to_csv(path, index=False, quoting=csv.QUOTE_ALL)
    pair_ids = {p for p, _, _ in read_corpus_pairs(corpus)}
    back, rejected = read_judgments(path, pair_ids=pair_ids, control_ids=CONTROL_IDS)
    assert as_records(back) == as_records(filled)
    assert rejected["reason"].tolist() == ["assignment rejected"] and rejected["worker_id"].tolist() == ["SPAMMER"]


def test_round_trip_labelstudio(corpus, tmp_path):
    export_tasks(corpus, "labelstudio", tmp_path / "out", per_order=3)
    tasks = json.loads((tmp_path / "out" / "tasks.json").read_text())
    ids = json.loads((tmp_path / "out" / "manifest.json").read_text())["controls"]["ids"]
    for t in tasks:  # the requester's side: opaque ids mapped back to the control ids
        t["data"]["pair_ID"] = ids.get(t["data"]["pair_ID"], t["data"]["pair_ID"])
    table = task_table(tmp_path / "out", "labelstudio")
    filled = fill(table, 3, seed=3)
    # Label Studio's JSON export: the imported tasks with ids and one annotation per worker
    index = {(t["data"]["pair_ID"], t["data"]["order"]): i for i, t in enumerate(tasks)}
    export = [{"id": 500 + i, "data": t["data"], "annotations": [], "predictions": []} for i, t in enumerate(tasks)]
    for k, j in enumerate(filled.itertuples()):
        export[index[(j.pair_ID, j.order)]]["annotations"].append({
            "id": k, "completed_by": {"id": j.worker_id, "email": j.worker_id}, "was_cancelled": False,
            "result": [{"id": "r1", "from_name": "relatedness", "to_name": "second_sentence", "type": "rating",
                        "value": {"rating": j.relatedness}},
                       {"id": "r2", "from_name": "answer", "to_name": "second_sentence", "type": "choices",
                        "value": {"choices": [j.answer]}}]})
    path = tmp_path / "project-1-at-2024.json"
    path.write_text(json.dumps(export))
    pair_ids = {p for p, _, _ in read_corpus_pairs(corpus)}
    back, rejected = read_judgments(path, pair_ids=pair_ids, control_ids=CONTROL_IDS)
    assert rejected.empty and as_records(back) == as_records(filled)


# ----------------------------------------------------------------------------------------------- bad input


def test_missing_corpus_and_missing_columns(tmp_path):
    with pytest.raises(InputError, match="file not found") as err:
        export_tasks(tmp_path / "nope.tsv", "csv", tmp_path / "out")
    assert err.value.path == str(tmp_path / "nope.tsv")
    path = make_corpus(tmp_path / "c.tsv", 5)
    table = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    table.drop(columns="sentence_B").to_csv(tmp_path / "d.tsv", sep="\t", index=False)
    with pytest.raises(InputError, match="missing column 'sentence_B'") as err:
        export_tasks(tmp_path / "d.tsv", "csv", tmp_path / "out")
    assert (err.value.path, err.value.field) == (str(tmp_path / "d.tsv"), "sentence_B")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("line, replace, field, words", [
    (3, ("A", ""), "sentence_A", "empty sentence_A"),
    (4, ("3\t", "2\t"), "pair_ID", "repeats line 3"),
    (2, ("\t", "\t\t"), None, "expected 17 fields .as the header., found 18"),
])
def test_bad_corpus_lines(tmp_path, line, replace, field, words):
    path = make_corpus(tmp_path / "c.tsv", 5)
    lines = path.read_text().split("\n")
    if field == "sentence_A":
        parts = lines[line - 1].split("\t")
        parts[1] = ""
        lines[line - 1] = "\t".join(parts)
    else:
        lines[line - 1] = lines[line - 1].replace(*replace, 1)
    path.write_text("\n".join(lines))
    with pytest.raises(InputError, match=words) as err:
        export_tasks(path, "csv", tmp_path / "out")
    assert (err.value.line, err.value.field) == (line, field)


def write_controls(path: Path, items: list[dict]) -> Path:
    path.write_text(yaml.safe_dump({"controls": items}, sort_keys=False))
    return path


GOOD_ITEM = {"id": "CTRL-901", "sentence_A": "A man is singing", "sentence_B": "A man is making music",
             "relatedness": [3.5, 5], "answer_AB": "TRUE", "answer_BA": "UNKNOWN"}


@pytest.mark.parametrize("change, field, words", [
    ({"answer_AB": "MAYBE"}, "answer_AB", "not one of"),
    ({"relatedness": [4, 6]}, "relatedness", "low <= high <= 5"),
    ({"relatedness": [4, 2]}, "relatedness", "low <= high"),
    ({"relatedness": 4}, "relatedness", "[low, high]"),
    ({"sentence_B": None}, "sentence_B", "missing 'sentence_B'"),
    ({"sentence_B": "A man is singing"}, "sentence_B", "identical"),
    ({"id": "CTRL 1"}, "id", "must not contain"),
    ({"id": "CTRL-1#2"}, "id", "must not contain"),
    ({"colour": "red"}, "colour", "unknown field"),
])
def test_bad_control_items_name_line_and_field(tmp_path, corpus, change, field, words):
    item = {**GOOD_ITEM, **change}
    path = write_controls(tmp_path / "controls.yaml", [GOOD_ITEM | {"id": "CTRL-900"}, item])
    with pytest.raises(InputError, match=re.escape(words)) as err:
        export_tasks(corpus, "csv", tmp_path / "out", controls=path)
    assert err.value.path == str(path) and err.value.field == field
    text = path.read_text().splitlines()
    assert err.value.line is not None and err.value.line > text.index("- id: CTRL-900") + 1
    assert "control 2" in str(err.value)
    assert not (tmp_path / "out").exists()


def test_control_file_level_errors(tmp_path, corpus):
    with pytest.raises(InputError, match="file not found"):
        export_tasks(corpus, "csv", tmp_path / "out", controls=tmp_path / "none.yaml")
    dup = write_controls(tmp_path / "dup.yaml", [GOOD_ITEM, GOOD_ITEM])
    with pytest.raises(InputError, match="repeats control 1"):
        load_controls(dup)
    (tmp_path / "bad.yaml").write_text("controls: [\n  - id: x\n")
    with pytest.raises(InputError, match="not valid YAML"):
        load_controls(tmp_path / "bad.yaml")
    (tmp_path / "list.yaml").write_text("- 1\n")
    with pytest.raises(InputError, match="list 'controls'"):
        load_controls(tmp_path / "list.yaml")
    clash = write_controls(tmp_path / "clash.yaml", [GOOD_ITEM | {"id": "7"}])
    with pytest.raises(InputError, match="also a pair_ID"):
        export_tasks(corpus, "csv", tmp_path / "out", controls=clash)
    # without controls, a missing default file does not matter
    counts = export_tasks(corpus, "csv", tmp_path / "out", control_rate=0, controls=None)
    assert counts["control_rows"] == 0


def test_unquoted_yaml_booleans_read_as_answers(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("controls:\n  - id: C1\n    sentence_A: A cat is purring\n    sentence_B: A cat is not purring\n"
                    "    relatedness: [3, 5]\n    answer_AB: FALSE\n    answer_BA: false\n")
    (item,) = load_controls(path)
    assert (item.answer_AB, item.answer_BA) == ("FALSE", "FALSE")


def test_failed_export_keeps_the_previous_output(corpus, tmp_path):
    out = tmp_path / "out"
    export_tasks(corpus, "csv", out)
    before = (out / "tasks.csv").read_bytes()
    with pytest.raises(InputError):
        export_tasks(corpus, "csv", out, controls=write_controls(tmp_path / "x.yaml", [GOOD_ITEM | {"id": "1"}]))
    assert (out / "tasks.csv").read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_option_errors(corpus, tmp_path):
    for kwargs, words in (({"platform": "prolific"}, "unknown platform"), ({"per_order": 0}, "per_order"),
                          ({"control_rate": 1.0}, "control_rate"), ({"batch_size": 0}, "batch_size")):
        with pytest.raises(ValueError, match=words):
            export_tasks(corpus, kwargs.pop("platform", "csv"), tmp_path / "out", **kwargs)


# ------------------------------------------------------------------------------------------ shipped material


def test_shipped_controls_are_sick_style_and_cover_every_answer():
    assert 15 <= len(CONTROLS) <= 40
    assert all(re.fullmatch(r"CTRL-\d{3}", c.id) for c in CONTROLS)
    answers = Counter(a for c in CONTROLS for a in (c.answer_AB, c.answer_BA))
    assert set(answers) == set(ANSWERS) and min(answers.values()) >= 5
    assert any(c.answer_AB != c.answer_BA for c in CONTROLS)  # one-way entailment, both directions
    assert any(c.relatedness[1] <= 2 for c in CONTROLS) and any(c.relatedness[0] >= 4 for c in CONTROLS)
    for c in CONTROLS:
        for s in (c.sentence_A, c.sentence_B):
            assert s[0].isupper() and not s.endswith(".") and "  " not in s
        if c.relatedness[1] <= 2:  # unrelated: nothing follows either way
            assert c.answer_AB == c.answer_BA == "UNKNOWN"
        if "FALSE" in (c.answer_AB, c.answer_BA):  # contradiction is symmetric
            assert c.answer_AB == c.answer_BA == "FALSE"
    table = controls_table(CONTROLS)
    assert table["pair_ID"].tolist() == [c.id for c in CONTROLS]
    assert list(table.columns[:5]) == ["pair_ID", "answer_AB", "answer_BA", "relatedness_min", "relatedness_max"]


def test_instructions_cover_the_example_kinds_without_giving_away_controls():
    text = INSTRUCTIONS.read_text()
    lowered = text.lower()
    for words in ("unrelated", "very related", "sentence 2 true", "cannot say", "sentence 2 false",
                  "how similar are the two sentences?", "if sentence 1 is true, is sentence 2 true?"):
        assert words in lowered
    control_sentences = {s for c in CONTROLS for s in (c.sentence_A, c.sentence_B)}
    examples = {cell.strip() for line in text.splitlines() if line.startswith("| ")
                for cell in line.strip("|").split("|")}
    assert examples and not (examples & control_sentences)
    html = MTURK_TEMPLATE.read_text()
    assert not any(s in html for s in control_sentences)
    assert not any(s in LABELSTUDIO_CONFIG.read_text() for s in control_sentences)


# ----------------------------------------------------------------------------------------------- command line


def cli(argv: list[str]) -> argparse.Namespace:
    return parser().parse_args(argv)


def test_cli_export(corpus, tmp_path, capsys):
    args = cli(["tasks", "export", "--corpus", str(corpus), "--platform", "mturk", "--per-order", "4",
                "--controls", str(DEFAULT_CONTROLS), "--control-rate", "0.2", "--batch-size", "30", "--seed", "3",
                "--out", str(tmp_path / "out")])
    assert args.func(args) == 0
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["options"] == {"per_order": 4, "control_rate": 0.2, "batch_size": 30, "pairs_per_hit": 10,
                                   "orders": ["AB", "BA"]}
    assert manifest["seed"] == 3 and (tmp_path / "out" / "batch_001.csv").exists()
    assert "task rows" in capsys.readouterr().err


def test_cli_defaults_and_refusals(corpus, tmp_path):
    args = cli(["tasks", "export", "--corpus", str(corpus), "--platform", "csv", "--out", str(tmp_path / "o")])
    assert (args.per_order, args.controls, args.control_rate, args.batch_size, args.seed) == (5, None, 0.1, None, 1)
    assert args.pairs_per_hit == 10
    for bad in (["--platform", "xls"], ["--per-order", "0"], ["--control-rate", "1"], ["--batch-size", "0"]):
        argv = ["tasks", "export", "--corpus", str(corpus), "--platform", "csv", "--out", "o", *bad]
        with pytest.raises(SystemExit):
            cli(argv)
    with pytest.raises(SystemExit):
        cli(["tasks", "export", "--platform", "csv", "--out", "o"])  # --corpus is required


def test_quotes_never_merge_rows_or_lose_a_pair(tmp_path):
    """Issue 13, item 2: a sentence beginning with a quote and a later one ending with one no longer merge two rows
    (pandas' quoting did, and one pair vanished with exit 0): each line is one row, or an error names it."""
    head = "pair_ID\tsentence_A\tsentence_B\n"
    path = tmp_path / "c.tsv"
    path.write_text(head + '1\t"Hi there\tA dog runs\n2\tA cat sits\tA cat sleeps\n3\tA man says hi"\tA man waves\n',
                    encoding="utf-8")
    with pytest.raises(InputError, match="malformed quoting") as err:
        read_corpus_pairs(path)
    assert err.value.line == 2
    # written by write_tsv (a field holding a quote is quoted whole): read back exactly, every pair kept
    from pipeline.common.files import write_tsv

    rows = [{"pair_ID": "1", "sentence_A": '"Hi" says a man', "sentence_B": "A dog runs"},
            {"pair_ID": "2", "sentence_A": "A cat sits", "sentence_B": 'A man says "hi"'}]
    write_tsv(path, rows, ["pair_ID", "sentence_A", "sentence_B"])
    assert read_corpus_pairs(path) == [(r["pair_ID"], r["sentence_A"], r["sentence_B"]) for r in rows]


def test_pair_id_that_looks_like_a_repeated_control_is_refused(tmp_path):
    """Issue 13, item 11: ``CTRL-001#2`` passed export, then every judgment on it was rejected."""
    path = tmp_path / "c.tsv"
    path.write_text("pair_ID\tsentence_A\tsentence_B\nCTRL-001#2\tA dog runs\tA cat sits\n", encoding="utf-8")
    with pytest.raises(InputError, match="must not contain") as err:
        export_tasks(path, "csv", tmp_path / "out")
    assert (err.value.line, err.value.field) == (2, "pair_ID")
    assert not (tmp_path / "out").exists()


def test_aggregate_maps_opaque_control_ids_through_the_export_manifest(tmp_path, capsys):
    """Export for MTurk, answer every HIT (one careless worker gets every control wrong), aggregate the results
    CSV: the manifest beside it (or --tasks-manifest) maps the opaque ids back, so quality control works."""
    from pipeline.cli import main

    corpus = make_corpus(tmp_path / "c.tsv", 40)
    out = tmp_path / "export"
    export_tasks(corpus, "mturk", out, per_order=3)
    manifest = json.loads((out / "manifest.json").read_text())
    ids = manifest["controls"]["ids"]
    known = {c.id: c for c in CONTROLS}
    tasks = task_table(out, "mturk", raw=True)
    results = []
    for t in tasks.itertuples():
        control = known.get(control_base_id(ids[t.pair_ID])) if t.pair_ID in ids else None
        for w in ("good1", "good2", "careless"):
            if control is not None:
                right = getattr(control, f"answer_{t.order}")
                answer = right if w != "careless" else next(a for a in ANSWERS if a != right)
            else:
                answer = "TRUE"
            results.append({"WorkerId": w, "AssignmentStatus": "Approved", "Input.pair_ID": t.pair_ID,
                            "Input.order": t.order, "Input.first_sentence": t.first_sentence,
                            "Input.second_sentence": t.second_sentence, "Answer.relatedness": "4",
                            "Answer.answer": answer})
    beside = out / "Batch_results.csv"
    pd.DataFrame(results).to_csv(beside, index=False)
    assert main(["aggregate", "--judgments", str(beside), "--corpus", str(corpus), "--quiet",
                 "--out", str(tmp_path / "g")]) == 0
    workers = pd.read_csv(tmp_path / "g" / "workers.tsv", sep="\t", dtype=str).set_index("worker_id")
    assert workers.loc["careless", "excluded"] == "true" and workers.loc["careless", "controls_correct"] == "0"
    assert workers.loc["good1", "excluded"] == "false"
    assert int(workers.loc["good1", "controls_seen"]) == len(tasks) - 80
    gold_manifest = json.loads((tmp_path / "g" / "manifest.json").read_text())
    assert gold_manifest["inputs"]["tasks_manifest"] == str(out / "manifest.json")
    # elsewhere, named with --tasks-manifest; without it the opaque ids are unknown pairs: exit 2
    elsewhere = tmp_path / "results.csv"
    elsewhere.write_bytes(beside.read_bytes())
    assert main(["aggregate", "--judgments", str(elsewhere), "--corpus", str(corpus), "--quiet",
                 "--tasks-manifest", str(out / "manifest.json"), "--out", str(tmp_path / "g2")]) == 0
    assert (tmp_path / "g2" / "gold.tsv").read_bytes() == (tmp_path / "g" / "gold.tsv").read_bytes()
    capsys.readouterr()
    assert main(["aggregate", "--judgments", str(elsewhere), "--corpus", str(corpus), "--quiet",
                 "--out", str(tmp_path / "g3")]) == 2
    assert not (tmp_path / "g3").exists()


def test_labelstudio_config_passes_label_studio_sdks_checker(corpus, tmp_path, shared_data):
    """label-studio-sdk's LabelInterface (the server's own parser) reads our config: the two object tags take
    the task fields we export, the controls are a 5-point rating and the three answers, every annotation of the
    real export (../shared/data/labelstudio_exports) validates, and answers outside the config do not.
    label-studio-sdk is not a dependency (it pulls ~70 packages); the test runs where it is installed."""
    sdk = pytest.importorskip("label_studio_sdk.label_interface")
    li = sdk.LabelInterface(LABELSTUDIO_CONFIG.read_text(encoding="utf-8"))
    export_tasks(corpus, "labelstudio", tmp_path / "out")
    data = json.loads((tmp_path / "out" / "tasks.json").read_text())[0]["data"]
    assert {o.value[1:] for o in li.objects} == {"first_sentence", "second_sentence"} <= set(data)
    assert li.get_control("relatedness").attr["maxRating"] == "5"
    assert li.get_control("answer").labels == list(ANSWERS)
    tasks = json.loads((shared_data / "labelstudio_exports" / "export_JSON.json").read_text())
    annotations = [a for t in tasks for a in t["annotations"]]
    assert len(annotations) == 91 and all(li.validate_annotation(a) for a in annotations)
    bad_choice = {"from_name": "answer", "to_name": "second_sentence", "type": "choices",
                  "value": {"choices": ["MAYBE"]}}
    assert not li.validate_annotation({"result": [bad_choice]})


def test_mturk_hits_of_ten_round_trip(tmp_path):
    """--pairs-per-hit 10 (the default): every HIT is full (the last filled with controls), and MTurk's results
    of such HITs (Input.pair_ID_k, Answer.relatedness_k, Answer.answer_k) read back one judgment per slot."""
    corpus = make_corpus(tmp_path / "c.tsv", 33)  # 66 rows + 7 controls = 73: the last HIT needs 7 more
    counts = export_tasks(corpus, "mturk", tmp_path / "out", per_order=2)
    batch = read(tmp_path / "out" / "batch.csv")
    assert len(batch) == counts["hits"] == 8 and counts["rows"] == 80 and counts["control_rows"] == 14
    assert (batch != "").all().all()  # no empty slot
    rng = random.Random(5)
    results, expected = [], []
    for h, hit in enumerate(batch.to_dict("records")):
        for w in ("W1", "W2"):
            row = {"HITId": f"H{h}", "WorkerId": w, "AssignmentStatus": "Approved",
                   **{f"Input.{c}": v for c, v in hit.items()}}
            for k in range(1, 11):
                r, a = rng.randint(1, 5), rng.choice(ANSWERS)
                row |= {f"Answer.relatedness_{k}": str(r), f"Answer.answer_{k}": a}
                expected.append((hit[f"pair_ID_{k}"], w, hit[f"order_{k}"], r, a))
            results.append(row)
    path = tmp_path / "Batch_results.csv"
    pd.DataFrame(results).to_csv(path, index=False)
    ids = json.loads((tmp_path / "out" / "manifest.json").read_text())["controls"]["ids"]
    pair_ids = {p for p, _, _ in read_corpus_pairs(corpus)}
    back, rejected = read_judgments(path, pair_ids=pair_ids, control_ids=set(ids))
    assert rejected.empty and len(back) == 160
    assert sorted(zip(back["pair_ID"], back["worker_id"], back["order"], back["relatedness"], back["answer"])) == \
        sorted(expected)
    assert back["is_control"].sum() == 2 * 14
    with pytest.raises(ValueError, match="multiple of pairs_per_hit"):
        export_tasks(corpus, "mturk", tmp_path / "x", batch_size=25)
    with pytest.raises(ValueError, match="fill HITs"):
        export_tasks(corpus, "mturk", tmp_path / "y", control_rate=0)


HOSTILE = {"1": ("=HYPERLINK(\"http://x\",\"click\")", "<script>alert(1)</script> A dog runs"),
           "2": ("+SUM(A1:A2) a man eats", "@cmd a cat sits"),
           "3": ("-2 dogs run", "A man says \"hi\" & <b>waves</b>")}


def hostile_corpus(path: Path) -> Path:
    rows = []
    for pid, (a, b) in HOSTILE.items():
        row = dict.fromkeys(CORPUS_COLUMNS, "")
        row.update(pair_ID=pid, sentence_A=a, sentence_B=b, SemEval_set="TRAIN", pair_type="S1aS1b")
        rows.append(row)
    pd.DataFrame(rows, columns=CORPUS_COLUMNS).to_csv(path, sep="\t", index=False, lineterminator="\n")
    return path


def test_no_formula_or_markup_reaches_a_spreadsheet_or_the_mturk_page(tmp_path):
    """Issue 13, items 5-6: captions starting with = + - @ are no formulas in tasks.csv or batch.csv, and no
    caption adds markup to the MTurk page; the texts stay recoverable."""
    from pipeline.common.files import FORMULA_STARTS, unguard_cell

    corpus = hostile_corpus(tmp_path / "c.tsv")
    export_tasks(corpus, "csv", tmp_path / "csv", control_rate=0)
    export_tasks(corpus, "mturk", tmp_path / "mturk", control_rate=0, pairs_per_hit=1)
    for path in (tmp_path / "csv" / "tasks.csv", tmp_path / "mturk" / "batch.csv"):
        table = pd.read_csv(path, dtype=str, keep_default_na=False)
        cells = [v for col in ("first_sentence", "second_sentence") for v in table[col]]
        assert not [v for v in cells if v.startswith(FORMULA_STARTS)], path
        assert {unguard_cell(v) for v in cells} == {s for pair in HOSTILE.values() for s in pair}
    batch = (tmp_path / "mturk" / "batch.csv").read_text(encoding="utf-8")
    assert "<script>" not in batch and "<b>" not in batch and "&lt;script&gt;" in batch


def test_a_pair_id_cannot_leave_the_mturk_value_attribute(tmp_path):
    from pipeline.common.files import html_cell, unguard_cell

    hostile = '7" onclick="alert(1)'
    assert '"' not in html_cell(hostile) and unguard_cell(html_cell(hostile)) == hostile
    # MTurk returns the escaped value as Input.pair_ID: the reader maps it back to the corpus id
    results = tmp_path / "Batch_results.csv"
    pd.DataFrame([{"WorkerId": "w1", "AssignmentStatus": "Approved", "Input.pair_ID": html_cell(hostile),
                   "Input.order": "AB", "Answer.relatedness": "4", "Answer.answer": "TRUE"}]).to_csv(results,
                                                                                          index=False)
    judgments, rejected = read_judgments(results, "mturk", pair_ids={hostile})
    assert judgments["pair_ID"].tolist() == [hostile] and rejected.empty
