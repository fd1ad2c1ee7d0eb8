"""`sick review export` / `sick review apply`: the native-speaker pass on a small real build (the bundled input).

One review covers every decision (accept, edit, reject), an edited and a rejected S1, three reviewers outvoting
each other, a tie, an undecided row and each kind of bad row; it is read from our CSV, Label Studio's JSON, JSON-MIN
and CSV exports and MTurk batch results, and must give the same corpus every time.
"""

from __future__ import annotations

import csv
import hashlib
import html
import json
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from pipeline.cli import main
from pipeline.common.errors import InputError
from pipeline.corpus.job import CORPUS_COLUMNS
from pipeline.corpus.pair import pair_key, unrelated_count
from pipeline.review.readers import read_reviews
from pipeline.review.stage import EXPECTED, LABELSTUDIO_CONFIG, REVIEW_COLUMNS, apply_reviews, export_review

OUT_FILES = ["corpus.tsv", "sentences.tsv", "rule_frequencies.tsv", "pair_distribution.tsv", "dropped.tsv",
             "manifest.json", "review_log.tsv", "review_stats.tsv", "second_look.tsv", "rejected.tsv"]

# (sentence_id, reviewer, decision, edited_sentence, reason)
DECISIONS = [
    ("G00001:S1a", "ann", "accept", "", ""),
    # reverting S2a to its S1 makes S1aS2a identical and S1bS2a a repeat of S1aS1b: dedup must drop both
    ("G00001:S2a", "ann", "edit", "A brown dog is running through the tall grass", "other"),
    ("G00012:S4a", "ann", "reject", "", "implausible"),
    ("G00003:S1b", "ann", "reject", "", "other"),  # an S1: the whole group goes
    ("G00004:S1b", "ann", "edit", "A young girl is holding a tiny cat in her arms", "ungrammatical"),
    ("G00004:S2b", "ann", "edit", "The young girl is holding a small cat in her arms", "ungrammatical"),
    ("G00004:S2b", "bob", "edit", "The young girl is holding a small cat in her arms", "ungrammatical"),
    ("G00005:S4b", "ann", "reject", "", "implausible"),
    ("G00005:S4b", "bob", "reject", "", "implausible"),
    ("G00005:S4b", "cid", "accept", "", ""),
    ("G00005:S4a", "ann", "accept", "", ""),
    ("G00005:S4a", "bob", "reject", "", "implausible"),  # 1-1: a tie, kept out for a second look
    ("G00006:S1a", "ann", "", "", ""),  # not decided: kept as it is
]
# (sentence_id, field, what to do, expected words in the error)
BAD = [
    ("G99999:S2a", "sentence_id", "unknown id", "unknown sentence_id"),
    ("G00001:S3a", "sentence", "changed text", "sentence text changed since export"),
    ("G00001:S3b", "edited_sentence", "empty edit", "empty edit"),
    ("G00002:S2a", "decision", "unknown decision", "unknown decision 'maybe'"),
]


def read(path) -> pd.DataFrame:
    return pd.read_csv(path, sep="\t", keep_default_na=False, dtype=str)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("build") / "default"
    assert main(["build", "--out", str(out), "--quiet"]) == 0
    return out


@pytest.fixture(scope="module")
def exported(built, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("export") / "review"
    assert main(["review", "export", "--build", str(built), "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def items(exported) -> dict[str, dict]:
    with open(exported / "review.csv", encoding="utf-8", newline="") as f:
        return {r["sentence_id"]: r for r in csv.DictReader(f)}


def review_rows(items, decisions=DECISIONS, bad=()) -> list[dict]:
    rows = []
    for sid, who, decision, edit, reason in decisions:
        rows.append({**items[sid], "decision": decision, "edited_sentence": edit, "reason": reason, "reviewer": who})
    for sid, _, kind, _ in bad:
        base = dict(items.get(sid) or {**next(iter(items.values())), "sentence_id": sid})
        row = {**base, "decision": "accept", "reviewer": "dan"}
        if kind == "changed text":
            row["sentence"] += " today"
        elif kind == "empty edit":
            row["decision"] = "edit"
        elif kind == "unknown decision":
            row["decision"] = "maybe"
        rows.append(row)
    return rows


def write_csv(path: Path, rows: list[dict], columns=REVIEW_COLUMNS) -> Path:
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
        w.writeheader()
        w.writerows({c: r.get(c, "") for c in columns} for r in rows)
    return path


@pytest.fixture(scope="module")
def applied(built, items, tmp_path_factory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("apply")
    reviews = write_csv(d / "reviews.csv", review_rows(items))
    out = d / "reviewed"
    assert main(["review", "apply", "--build", str(built), "--reviews", str(reviews), "--out", str(out)]) == 0
    return out, reviews


# ------------------------------------------------------------------------------------------------ export


def test_export_has_one_item_per_generated_sentence(built, exported, items):
    sentences = read(built / "sentences.tsv")
    generated = sentences[~sentences["slot"].str.startswith("S0")]
    assert list(items) == [f"{g}:{s}" for g, s in zip(generated["group"], generated["slot"])]
    text = {(g, s): t for g, s, t in zip(sentences["group"], sentences["slot"], sentences["sentence"])}
    for sid, it in items.items():
        g, s = sid.split(":")
        assert it["sentence"] == text[(g, s)]
        assert it["source_sentence"] == text[(g, ("S0" if s.startswith("S1") else "S1") + s[-1])]
        assert it["expected"] == EXPECTED[s[:2]] and it["decision"] == "" and it["reviewer"] == ""
    with open(exported / "review.csv", encoding="utf-8") as f:
        assert f.readline().strip() == ",".join(REVIEW_COLUMNS)
    manifest = json.loads((exported / "manifest.json").read_text())
    assert manifest["items"] == {sid: hashlib.sha256(it["sentence"].encode()).hexdigest() for sid, it in items.items()}
    assert (exported / "review_instructions.md").is_file()


def test_export_slots_sample_and_platforms(built, items, tmp_path):
    counts = export_review(built, tmp_path / "s", slots=("S3", "S4"), sample=10, seed=3)
    df = pd.read_csv(tmp_path / "s" / "review.csv", dtype=str, keep_default_na=False)
    assert counts["items"] == len(df) == 10 and set(df["slot"].str[:2]) <= {"S3", "S4"}
    export_review(built, tmp_path / "s2", slots=("S3", "S4"), sample=10, seed=3)
    assert (tmp_path / "s" / "review.csv").read_bytes() == (tmp_path / "s2" / "review.csv").read_bytes()

    export_review(built, tmp_path / "m", platform="mturk", reviewers_per_item=3)
    batch = pd.read_csv(tmp_path / "m" / "batch.csv", dtype=str, keep_default_na=False)
    assert "&#x27;" in batch["expected"].iloc[0]  # S1's "SICK's": escaped, as MTurk pastes values as they are
    for row in batch.to_dict("records"):
        it = items[row["sentence_id"]]
        assert row["sentence"] == html.escape(it["sentence"]) and row["expected"] == html.escape(it["expected"])
    assert (tmp_path / "m" / "review_mturk_question.html").is_file()
    assert json.loads((tmp_path / "m" / "manifest.json").read_text())["options"]["reviewers_per_item"] == 3

    export_review(built, tmp_path / "l", platform="labelstudio")
    tasks = json.loads((tmp_path / "l" / "tasks.json").read_text())
    assert [t["data"]["sentence_id"] for t in tasks] == list(items)
    assert (tmp_path / "l" / "review_labelstudio_config.xml").read_text() == LABELSTUDIO_CONFIG.read_text()


def test_labelstudio_config_passes_the_sdk_checker(built, tmp_path):
    sdk = pytest.importorskip("label_studio_sdk.label_interface")
    li = sdk.LabelInterface(LABELSTUDIO_CONFIG.read_text())
    li.validate()  # raises on a bad config
    export_review(built, tmp_path / "l", platform="labelstudio")
    tasks = json.loads((tmp_path / "l" / "tasks.json").read_text())
    assert all(li.validate_task(t) for t in tasks[:20])
    ann = {"result": [
        {"from_name": "decision", "to_name": "sentence", "type": "choices", "value": {"choices": ["edit"]}},
        {"from_name": "edited_sentence", "to_name": "sentence", "type": "textarea", "value": {"text": ["A b"]}},
        {"from_name": "reason", "to_name": "sentence", "type": "choices", "value": {"choices": ["implausible"]}}]}
    assert li.validate_annotation(ann)
    ann["result"][0]["value"]["choices"] = ["maybe"]
    assert not li.validate_annotation(ann)


# ------------------------------------------------------------------------------------------------ apply


def test_all_accepted_gives_the_same_build(built, items, tmp_path):
    rows = [{**it, "decision": "accept", "reviewer": "ann"} for it in items.values()]
    apply_reviews(built, [write_csv(tmp_path / "r.csv", rows)], tmp_path / "out")
    for name in ("corpus.tsv", "sentences.tsv", "rule_frequencies.tsv", "pair_distribution.tsv", "dropped.tsv"):
        assert (tmp_path / "out" / name).read_bytes() == (built / name).read_bytes(), name


def test_decisions_rebuild_the_corpus(built, items, applied):
    out, _ = applied
    before, after = read(built / "corpus.tsv"), read(out / "corpus.tsv")
    assert list(after.columns) == CORPUS_COLUMNS
    sentences = read(out / "sentences.tsv")
    text = {f"{g}:{s}": (t, r) for g, s, t, r in zip(sentences["group"], sentences["slot"], sentences["sentence"],
                                                    sentences["rules"])}
    # edits replace the text everywhere and are marked
    for sid, new in (("G00001:S2a", "A brown dog is running through the tall grass"),
                     ("G00004:S1b", "A young girl is holding a tiny cat in her arms"),
                     ("G00004:S2b", "The young girl is holding a small cat in her arms")):
        assert text[sid][0] == new and text[sid][1].split()[-1] == "review-edit"
        old = items[sid]["sentence"]
        assert not ((after["sentence_A"] == old) | (after["sentence_B"] == old)).any()
    s1b = after[after["sentence_A"] == "A young girl is holding a tiny cat in her arms"]
    assert len(s1b) >= 3 and (s1b["rules_A"].str.split().str[-1] == "review-edit").all()
    # rejected and tied sentences are gone, with their pairs; a rejected S1 takes its group
    for sid in ("G00012:S4a", "G00005:S4b", "G00005:S4a"):
        assert sid not in text
        old = items[sid]["sentence"]
        assert not ((after["sentence_A"] == old) | (after["sentence_B"] == old)).any()
    assert not sentences["group"].eq("G00003").any()
    g3 = {it["sentence"] for sid, it in items.items() if sid.startswith("G00003:S1")}
    assert not (after["sentence_A"].isin(g3) | after["sentence_B"].isin(g3)).any()
    assert text["G00006:S1a"][0] == items["G00006:S1a"]["sentence"]  # undecided: unchanged
    # G00001's reverted S2a: S1aS2a became identical, S1bS2a a repeat of S1aS1b
    g1 = before[before["sentence_A"].isin([items["G00001:S1a"]["sentence"], items["G00001:S1b"]["sentence"]])]
    assert {"S1aS2a", "S1bS2a"} <= set(g1["pair_type"])
    g1_after = after[after["sentence_A"].isin([items["G00001:S1a"]["sentence"], items["G00001:S1b"]["sentence"]])
                     & (after["pair_type"] != "unrelated")]
    assert not {"S1aS2a", "S1bS2a"} & set(g1_after["pair_type"])
    dropped = read(out / "dropped.tsv")
    assert {"G00001 S1aS2a", "G00001 S1bS2a"} <= set(dropped.loc[dropped["stage"] == "dedup", "item"])
    assert {"G00012 S4a", "G00003 S1b", "G00005 S4b", "G00005 S4a"} == set(
        dropped.loc[dropped["stage"] == "review", "item"])
    # no pair twice, none identical; survivors keep pair_ID and split; unrelated at the build's share
    keys = [pair_key(a, b) for a, b in zip(after["sentence_A"], after["sentence_B"])]
    assert len(set(keys)) == len(keys) and all(len(k) == 2 for k in keys)
    old_split = dict(zip(before["pair_ID"], before["SemEval_set"]))
    kept = after[after["pair_ID"].isin(old_split)]
    assert (kept["SemEval_set"] == kept["pair_ID"].map(old_split)).all()
    assert len(kept) < len(before)
    n_unrel = int((after["pair_type"] == "unrelated").sum())
    assert n_unrel == unrelated_count(len(after) - n_unrel, 0.122)
    assert after["pair_ID"].is_unique


def test_tables_are_recounted(applied):
    out, _ = applied
    sentences, corpus = read(out / "sentences.tsv"), read(out / "corpus.tsv")
    used = Counter(rid for r in sentences["rules"] for rid in r.split())
    freq = read(out / "rule_frequencies.tsv")
    assert all(used[r] == int(n) for r, n in zip(freq["rule"], freq["freq"]))
    dist = read(out / "pair_distribution.tsv")
    counts = Counter(zip(corpus["expected_relation"], corpus["pair_type"], corpus["set"]))
    assert {(a, b, c): int(n) for a, b, c, n in zip(dist["expected_relation"], dist["pair_type"], dist["set"],
                                                      dist["count"])} == dict(counts)


def test_log_stats_second_look_and_manifest(applied):
    out, reviews = applied
    log = read(out / "review_log.tsv")
    decided = [d for d in DECISIONS if d[2]]
    assert len(log) == len(decided)
    row = log[(log["sentence_id"] == "G00005:S4b") & (log["reviewer"] == "cid")].iloc[0]
    assert (row["decision"], row["outcome"]) == ("accept", "reject")
    row = log[log["sentence_id"] == "G00004:S1b"].iloc[0]
    assert row["sentence_before"] == "A young girl is holding a small cat in her arms"
    assert row["sentence_after"] == "A young girl is holding a tiny cat in her arms"
    second = read(out / "second_look.tsv")
    assert second["sentence_id"].tolist() == ["G00005:S4a"] and second["votes"].iloc[0] == "ann=accept bob=reject"
    stats = read(out / "review_stats.tsv").set_index(["by", "key"])
    assert stats.loc[("all", "all"), ["sentences", "accept", "edit", "reject", "tie"]].tolist() == \
        ["8", "1", "3", "3", "1"]
    s4 = stats.loc[("slot", "S4"), ["sentences", "reject", "tie", "reject_rate"]].tolist()
    assert s4 == ["3", "2", "1", "0.6667"]
    # swap-subject-object made the rejected G00005:S4b, move-size-or-age-adjective the rejected G00012:S4a
    assert stats.loc[("rule", "swap-subject-object"), "reject"] == "1"
    assert stats.loc[("rule", "move-size-or-age-adjective"), "reject"] == "1"
    review = json.loads((out / "manifest.json").read_text())["review"]
    assert review["inputs"] == [{"path": str(reviews), "sha256": hashlib.sha256(reviews.read_bytes()).hexdigest(),
                                 "rows": len(DECISIONS)}]
    assert review["counts"]["decisions"] == len(decided) and review["counts"]["undecided_rows"] == 1
    assert review["counts"]["tie"] == 1 and review["counts"]["groups_removed"] == 1


def test_deterministic_and_second_application_refused(built, applied, tmp_path):
    out, reviews = applied
    again = tmp_path / "again"
    apply_reviews(built, [reviews], again)
    for name in OUT_FILES:
        assert (again / name).read_bytes() == (out / name).read_bytes(), name
    with pytest.raises(InputError, match="already applied"):
        apply_reviews(out, [reviews], tmp_path / "twice")
    assert not (tmp_path / "twice").exists()


def test_lost_unrelated_pairs_are_topped_up(built, items, tmp_path):
    """Rejecting whole groups loses more unrelated pairs than the smaller corpus needs: new ones are drawn."""
    decisions = [(f"G{n:05d}:S1a", "ann", "reject", "", "other") for n in range(7, 15)]
    counts = apply_reviews(built, [write_csv(tmp_path / "r.csv", review_rows(items, decisions))], tmp_path / "o")
    before, after = read(built / "corpus.tsv"), read(tmp_path / "o" / "corpus.tsv")
    assert counts["groups_removed"] == 8 and counts["unrelated_added"] > 0
    new = after[after["pair_ID"].astype(int) > before["pair_ID"].astype(int).max()]
    assert len(new) == counts["unrelated_added"] and (new["pair_type"] == "unrelated").all()
    assert new["pair_ID"].astype(int).tolist() == list(range(len(before) + 1, len(before) + 1 + len(new)))
    sentences = read(tmp_path / "o" / "sentences.tsv")
    s1 = set(sentences.loc[sentences["slot"].str.startswith("S1"), "sentence"])
    assert new["sentence_A"].isin(s1).all() and new["sentence_B"].isin(s1).all()
    assert set(new["SemEval_set"]) <= {"TRAIN", "TRIAL", "TEST"}
    n_unrel = int((after["pair_type"] == "unrelated").sum())
    assert n_unrel == unrelated_count(len(after) - n_unrel, 0.122)
    keys = [pair_key(a, b) for a, b in zip(after["sentence_A"], after["sentence_B"])]
    assert len(set(keys)) == len(keys)


# ------------------------------------------------------------------------------------------------ bad rows


@pytest.mark.parametrize("bad", BAD, ids=[b[2] for b in BAD])
def test_each_bad_row_is_an_error_naming_file_row_and_field(built, items, tmp_path, capsys, bad):
    f = write_csv(tmp_path / "r.csv", review_rows(items, DECISIONS[:2], [bad]))
    status = main(["review", "apply", "--build", str(built), "--reviews", str(f), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert status == 2 and not (tmp_path / "o").exists()
    assert f"{f}, line 4, field '{bad[1]}'" in err and bad[3] in err


def test_skip_bad_rows(built, items, applied, tmp_path):
    out, _ = applied
    f = write_csv(tmp_path / "r.csv", review_rows(items, DECISIONS, BAD))
    apply_reviews(built, [f], tmp_path / "o", skip_bad_rows=True)
    rejected = read(tmp_path / "o" / "rejected.tsv")
    assert rejected["field"].tolist() == [b[1] for b in BAD]
    assert rejected["row"].tolist() == [str(len(DECISIONS) + 2 + i) for i in range(len(BAD))]
    assert (tmp_path / "o" / "corpus.tsv").read_bytes() == (out / "corpus.tsv").read_bytes()


def test_same_reviewer_twice_is_a_bad_row(built, items, tmp_path):
    f = write_csv(tmp_path / "r.csv", review_rows(items, [DECISIONS[2], DECISIONS[2]]))
    with pytest.raises(InputError, match="second decision of reviewer 'ann'") as exc:
        apply_reviews(built, [f], tmp_path / "o")
    assert exc.value.line == 3


def test_a_corpus_from_another_build_is_refused(built, applied, tmp_path):
    import shutil

    _, reviews = applied
    other = tmp_path / "other"
    shutil.copytree(built, other)
    lines = (other / "corpus.tsv").read_text(encoding="utf-8").split("\n")
    fields = lines[5].split("\t")
    fields[2] = "A cat is sleeping on a sofa"
    lines[5] = "\t".join(fields)
    (other / "corpus.tsv").write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(InputError, match="not from the same build") as exc:
        apply_reviews(other, [reviews], tmp_path / "o")
    assert exc.value.line == 6


# ------------------------------------------------------------------------------------------------ platforms


def _ls_result(d) -> list[dict]:
    _, _, decision, edit, reason = d
    res = [{"from_name": "decision", "to_name": "sentence", "type": "choices", "value": {"choices": [decision]}}]
    if edit:
        res.append({"from_name": "edited_sentence", "to_name": "sentence", "type": "textarea",
                    "value": {"text": [edit]}})
    if reason:
        res.append({"from_name": "reason", "to_name": "sentence", "type": "choices", "value": {"choices": [reason]}})
    return res


def platform_files(items, d: Path) -> dict[str, Path]:
    """The same decisions as Label Studio's three exports and MTurk batch results would hold them."""
    decided = [x for x in DECISIONS if x[2]]
    by_sid: dict[str, list] = {}
    for x in decided:
        by_sid.setdefault(x[0], []).append(x)
    data = {sid: {k: items[sid][k] for k in ("sentence_id", "group", "slot", "source_sentence", "sentence", "rules",
                                            "expected")} for sid in by_sid}
    full = [{"id": n, "data": data[sid],
             "annotations": [{"id": 10 * n + i, "completed_by": {"id": i, "email": f"{x[1]}@example.org"},
                              "result": _ls_result(x), "was_cancelled": False} for i, x in enumerate(xs)]
             + [{"id": 0, "completed_by": 99, "result": _ls_result((sid, "z", "reject", "", "")),
                 "was_cancelled": True}]}
            for n, (sid, xs) in enumerate(by_sid.items(), 1)]
    mini, lscsv = [], []
    for x in decided:
        rec = {**data[x[0]], "id": 1, "annotator": f"{x[1]}@example.org", "annotation_id": 1,
               "decision": x[2], "lead_time": 3.5}
        if x[3]:
            rec["edited_sentence"] = x[3]
        if x[4]:
            rec["reason"] = x[4]
        mini.append(rec)
        lscsv.append({**rec, "decision": x[2]})
    mturk = [{"HITId": f"H{i}", "AssignmentStatus": "Approved", "WorkerId": x[1].upper(),
              **{f"Input.{k}": html.escape(v) for k, v in data[x[0]].items()},
              "Answer.decision": x[2], "Answer.edited_sentence": x[3], "Answer.reason": x[4]}
             for i, x in enumerate(decided)]
    # a rejected assignment that would otherwise break the tie is not counted
    mturk.append({**mturk[-1], "WorkerId": "EVE", "AssignmentStatus": "Rejected", "Answer.decision": "accept"})
    files = {"full": d / "export.json", "min": d / "export_min.json", "lscsv": d / "export_ls.csv",
             "mturk": d / "results.csv"}
    files["full"].write_text(json.dumps(full), encoding="utf-8")
    files["min"].write_text(json.dumps(mini), encoding="utf-8")
    cols = sorted({k for r in lscsv for k in r})
    write_csv(files["lscsv"], [{**r, "decision": r["decision"]} for r in lscsv], cols)
    write_csv(files["mturk"], mturk, list(mturk[0]))
    return files


@pytest.mark.parametrize("kind", ["full", "min", "lscsv", "mturk"])
def test_every_platform_export_gives_the_same_corpus(built, items, applied, tmp_path, kind):
    out, _ = applied
    f = platform_files(items, tmp_path)[kind]
    fmt = {"full": "auto", "min": "labelstudio", "lscsv": "labelstudio", "mturk": "auto"}[kind]
    counts = apply_reviews(built, [f], tmp_path / "o", fmt=fmt)
    assert counts["decisions"] == len([x for x in DECISIONS if x[2]])
    for name in ("corpus.tsv", "sentences.tsv", "rule_frequencies.tsv", "review_stats.tsv"):
        assert (tmp_path / "o" / name).read_bytes() == (out / name).read_bytes(), name
    assert read(tmp_path / "o" / "second_look.tsv")["sentence_id"].tolist() == ["G00005:S4a"]
    if kind in ("full", "mturk"):
        void = read(tmp_path / "o" / "rejected.tsv")
        tasks = len({x[0] for x in DECISIONS if x[2]})  # one cancelled annotation per task
        assert void["reason"].tolist() == (["annotation cancelled"] * tasks if kind == "full"
                                           else ["assignment rejected"])


def test_reviewers_are_read_from_each_platform(items, tmp_path):
    files = platform_files(items, tmp_path)
    names = {k: {v.reviewer for v in read_reviews(f, "labelstudio" if k != "mturk" else "mturk")[0]}
             for k, f in files.items()}
    assert names["full"] == names["min"] == names["lscsv"] == {"ann@example.org", "bob@example.org",
                                                                "cid@example.org"}
    assert names["mturk"] == {"ANN", "BOB", "CID"}


def test_several_files_are_votes_together(built, items, applied, tmp_path):
    out, _ = applied
    per = {}
    for x in DECISIONS:
        per.setdefault(x[1], []).append(x)
    files = [write_csv(tmp_path / f"{who}.csv", review_rows(items, xs)) for who, xs in sorted(per.items())]
    apply_reviews(built, files, tmp_path / "o")
    assert (tmp_path / "o" / "corpus.tsv").read_bytes() == (out / "corpus.tsv").read_bytes()


def test_report_shows_review_stats(applied, tmp_path):
    from pipeline.report.tables import write_report

    out, _ = applied
    write_report(out / "corpus.tsv", tmp_path / "rep")
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "## Native-speaker review" in md and "| slot | S4 | 3 |" in md
    t4 = read(tmp_path / "rep" / "table4_rule_frequencies.tsv")
    assert t4.loc[t4["rule"] == "review-edit", "family"].tolist() == ["review"]
    # two edited sentences are in pairs; the third (G00001:S2a, reverted to its S1) lost its pairs in dedup
    assert int(t4.loc[t4["rule"] == "review-edit", "freq"].iloc[0]) == 2
