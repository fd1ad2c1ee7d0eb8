"""The native-speaker pass: ``sick review export`` and ``sick review apply``.

SICK's sentences were all checked "for grammatical or lexical mistakes and disfluencies by a native English
speaker" (Marelli et al. 2014, section 3.3). This stage sends every generated sentence of a build (S1 from
normalization, S2-S4 from expansion; never the S0 source sentences) to reviewers and rebuilds the corpus from
their decisions.

**Export** (:func:`export_review`): one item per generated sentence of ``sentences.tsv``, not per pair. An item
(:data:`ITEM_FIELDS`) is ``sentence_id`` (``G00012:S2a``: group and slot, stable for a build), ``group``,
``slot``, ``source_sentence`` (the S0 an S1 was normalized from; the S1 an S2-S4 was made from), ``sentence``,
``rules`` (the ids of the rules that made it) and ``expected`` (what the slot must be, :data:`EXPECTED`). The
export manifest records the sha256 of every sentence text, so that a review always refers to one text.

**Apply** (:func:`apply_reviews`): every review row is checked (accept, edit, reject), votes
of several reviewers are counted (the decision with most votes wins; a tie keeps the sentence out and lists it in
``second_look.tsv``), and a complete build is written: edited sentences replace the originals (rules gain
:data:`REVIEW_EDIT`), rejected sentences and their pairs go, a rejected S1 takes its whole group with it, pairs are
deduplicated again (:func:`pipeline.corpus.dedup.dedup`), surviving pairs keep their pair_ID and SemEval split, and
unrelated pairs are trimmed or topped up to the build's share (12.2 %, Table 5) with
:func:`pipeline.corpus.pair.unrelated_pairs`. Table 4 and Table 5 files are recomputed with
:func:`pipeline.corpus.job.rule_frequencies` and :func:`pipeline.corpus.job.pair_distribution`.

A sentence nobody decided on (an empty ``decision``, e.g. outside a ``--sample``) is kept as it is. An edited S1
keeps its S2-S4, which were reviewed against the S1 as exported.
"""

from __future__ import annotations

__all__ = ["EXPECTED", "ITEM_FIELDS", "LABELSTUDIO_CONFIG", "MTURK_TEMPLATE", "REVIEW_COLUMNS", "REVIEW_EDIT",
           "REVIEW_INSTRUCTIONS", "REVIEW_LOG_COLUMNS", "REVIEW_STATS_COLUMNS", "SECOND_LOOK_COLUMNS", "apply_reviews",
           "export_review", "read_build", "review_summary", "sentence_id", "text_hash"]

import hashlib
import json
import random
import shutil
from collections import Counter, defaultdict
from pathlib import Path
from types import SimpleNamespace

import pandas as pd

from pipeline import __version__
from pipeline.common.errors import InputError
from pipeline.common.files import atomic_dir, html_cell, sha256_file, write_json, write_tsv
from pipeline.common.resources import ANNOTATIONS_DIR
from pipeline.common.vocabulary import FAMILIES
from pipeline.corpus.dedup import dedup
from pipeline.corpus.pair import Group, Pair, Slot, pair_key, related_pairs, unrelated_count, unrelated_pairs
from pipeline.crowd.judgments import read_text
from pipeline.review.readers import REJECTED_COLUMNS, REVIEW_FORMATS, Vote, check_votes, read_reviews
from pipeline.review.readers import verdicts as count_votes

ITEM_FIELDS = ["sentence_id", "group", "slot", "source_sentence", "sentence", "rules", "expected"]
REVIEW_COLUMNS = [*ITEM_FIELDS, "decision", "edited_sentence", "reason", "reviewer"]
"""Columns of ``review.csv`` (platform csv); ``decision`` is left empty for the reviewer."""
REVIEW_EDIT = "review-edit"
"""Added to the ``rules`` of a sentence a reviewer edited (``sentences.tsv``, ``rules_A``/``rules_B``)."""
EXPECTED = {
    "S1": "S1: the source sentence (S0) rewritten in SICK's style, same meaning, correct and natural English",
    "S2": "S2 similar: same meaning as the S1, in other words or another structure",
    "S3": "S3 contrasting: a clear change of meaning from the S1 (negation, opposite, another subject or action)",
    "S4": "S4 same words, different meaning: the S1's words rearranged into a plausible sentence meaning "
          "something else",
}
"""What each slot family must be (Marelli et al. 2014, section 3.2 and Table 3), shown to the reviewer."""

REVIEW_INSTRUCTIONS = ANNOTATIONS_DIR / "review_instructions.md"
LABELSTUDIO_CONFIG = ANNOTATIONS_DIR / "templates" / "review_labelstudio_config.xml"
MTURK_TEMPLATE = ANNOTATIONS_DIR / "templates" / "review_mturk_question.html"

REVIEW_LOG_COLUMNS = ["sentence_id", "group", "slot", "reviewer", "decision", "reason", "sentence_before",
                      "sentence_after", "outcome", "file", "row"]
REVIEW_STATS_COLUMNS = ["by", "key", "sentences", "accept", "edit", "reject", "tie", "accept_rate", "edit_rate",
                        "reject_rate"]
SECOND_LOOK_COLUMNS = ["sentence_id", "group", "slot", "sentence", "votes"]
_SENTENCE_SLOTS = tuple(f"{f}{x}" for f in ("S1", *FAMILIES) for x in "ab")


def sentence_id(group: str, slot: str) -> str:
    """The review id of a sentence: ``G00012:S2a``."""
    return f"{group}:{slot}"


def text_hash(text: str) -> str:
    """sha256 (hex) of a sentence's UTF-8 text, as recorded in the export manifest."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------------------------- the build


def _read_tsv(path: Path) -> pd.DataFrame:
    if not path.is_file():
        raise InputError(path, "file not found (is this a `sick build` output directory?)")
    # write_tsv quotes a field holding a quote; reading with CSV quoting is its exact inverse
    return pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False, na_filter=False)


def read_build(build: str | Path) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """``(sentences, corpus, manifest)`` of a ``sick build`` directory, as strings exactly as written.

    Raises:
        InputError: a missing ``sentences.tsv``, ``corpus.tsv`` or ``manifest.json``, or bad JSON.
    """
    build = Path(build)
    sentences = _read_tsv(build / "sentences.tsv")
    corpus = _read_tsv(build / "corpus.tsv")
    mpath = build / "manifest.json"
    if not mpath.is_file():
        raise InputError(mpath, "file not found (is this a `sick build` output directory?)")
    try:
        manifest = json.loads(read_text(mpath))
    except json.JSONDecodeError as exc:
        raise InputError(mpath, f"not valid JSON: {exc.msg}", line=exc.lineno) from None
    return sentences, corpus, manifest


def _items(sentences: pd.DataFrame) -> list[dict]:
    """One review item per generated sentence (S1-S4) in ``sentences.tsv`` order."""
    text = {(g, s): t for g, s, t in zip(sentences["group"], sentences["slot"], sentences["sentence"])}
    items = []
    for row in sentences.to_dict("records"):
        slot = row["slot"]
        if slot not in _SENTENCE_SLOTS:
            continue
        source = ("S0" if slot.startswith("S1") else "S1") + slot[-1]
        items.append({"sentence_id": sentence_id(row["group"], slot), "group": row["group"], "slot": slot,
                      "source_sentence": text.get((row["group"], source), ""), "sentence": row["sentence"],
                      "rules": row["rules"], "expected": EXPECTED[slot[:2]]})
    return items


# ---------------------------------------------------------------------------------------------- export


def export_review(build: str | Path, out: str | Path, platform: str = "csv", slots: tuple[str, ...] = ("S1", *FAMILIES),
                  sample: int | None = None, seed: int = 1, reviewers_per_item: int = 1) -> dict:
    """Write review items for the generated sentences of a build (Marelli et al. 2014, section 3.3).

    Args:
        build: a ``sick build`` output directory (reads ``sentences.tsv`` and ``manifest.json``).
        out: output directory, replaced atomically.
        platform: ``csv`` (``review.csv``, :data:`REVIEW_COLUMNS`, one row per item), ``labelstudio``
            (``tasks.json``, a list of ``{"data": item}``, and ``review_labelstudio_config.xml``) or ``mturk``
            (``batch.csv`` with the item fields HTML-escaped, as MTurk pastes them into the page unescaped, and
            ``review_mturk_question.html``).
        slots: slot families to review (``S1``, ``S2``, ``S3``, ``S4``).
        sample: review only this many items, drawn with ``seed`` (kept in build order); None for all.
        reviewers_per_item: reviews wanted per item (MTurk assignments, Label Studio overlap, CSV copies);
            recorded in the manifest.

    Returns:
        The manifest's ``counts``: ``sentences`` (generated sentences in the build), ``items``, per-slot counts.

    Raises:
        InputError: a missing or malformed build. ValueError: an unknown platform or slot, a bad option.
    """
    if platform not in REVIEW_FORMATS:
        raise ValueError(f"unknown platform {platform!r} (use {', '.join(REVIEW_FORMATS)})")
    bad = [s for s in slots if s not in ("S1", *FAMILIES)]
    if bad or not slots:
        raise ValueError(f"unknown slot {bad[0] if bad else ''!r} (use S1, S2, S3, S4)")
    if reviewers_per_item < 1:
        raise ValueError(f"reviewers_per_item must be at least 1, got {reviewers_per_item}")
    build, out = Path(build), Path(out)
    sentences, _, _ = read_build(build)
    every = _items(sentences)
    items = [it for it in every if it["slot"][:2] in slots]
    if sample is not None:
        if sample < 1:
            raise ValueError(f"sample must be at least 1, got {sample}")
        picked = set(random.Random(f"{seed}|review").sample(range(len(items)), min(sample, len(items))))
        items = [it for i, it in enumerate(items) if i in picked]
    counts = {"sentences": len(every), "items": len(items),
              **{f"items_{f}": sum(it["slot"][:2] == f for it in items) for f in ("S1", *FAMILIES)}}
    with atomic_dir(out) as tmp:
        if platform == "csv":
            name = "review.csv"
            pd.DataFrame([{**it, "decision": "", "edited_sentence": "", "reason": "", "reviewer": ""} for it in items],
                         columns=REVIEW_COLUMNS).to_csv(tmp / name, index=False, lineterminator="\n",
                                                        encoding="utf-8")
            template = None
        elif platform == "labelstudio":
            name = "tasks.json"
            write_json(tmp / name, [{"data": it} for it in items])
            template = LABELSTUDIO_CONFIG
        else:
            name = "batch.csv"
            pd.DataFrame([{k: html_cell(v) for k, v in it.items()} for it in items], columns=ITEM_FIELDS).to_csv(
                tmp / name, index=False, lineterminator="\n", encoding="utf-8")
            template = MTURK_TEMPLATE
        copied = [p for p in (template, REVIEW_INSTRUCTIONS) if p is not None]
        for src in copied:
            shutil.copyfile(src, tmp / src.name)
        manifest = {
            "tool": "sick-pipeline", "version": __version__, "command": "review export", "platform": platform,
            "options": {"slots": list(slots), "sample": sample, "seed": seed,
                        "reviewers_per_item": reviewers_per_item},
            "build": {"path": str(build), "sentences_sha256": sha256_file(build / "sentences.tsv"),
                      "manifest_sha256": sha256_file(build / "manifest.json")},
            "templates": {src.name: sha256_file(src) for src in copied},
            "counts": counts, "files": [name, *(src.name for src in copied), "manifest.json"],
            "setup": _setup_note(platform, reviewers_per_item),
            "items": {it["sentence_id"]: text_hash(it["sentence"]) for it in items},
        }
        write_json(tmp / "manifest.json", manifest)
    return counts


def _setup_note(platform: str, k: int) -> str:
    if platform == "mturk":
        return (f"Create a project with review_mturk_question.html as its design layout, 'Number of assignments per "
                f"task' = {k}, publish batch.csv; download the batch results CSV and give it to `sick review apply`.")
    if platform == "labelstudio":
        return (f"Create a project with review_labelstudio_config.xml as its labeling interface, set 'Annotations "
                f"per task' to {k}, import tasks.json; export JSON, JSON-MIN or CSV and give it to `sick review "
                f"apply`.")
    return (f"Give each of {k} reviewer(s) a copy of review.csv; each fills decision (accept/edit/reject), "
            f"edited_sentence (for edit), reason and reviewer (their name) and returns the file; give all the "
            f"files to `sick review apply`.")


# ---------------------------------------------------------------------------------------------- rebuilding


def _groups(sentences: pd.DataFrame) -> list[Group]:
    groups: dict[str, Group] = {}
    for row in sentences.to_dict("records"):
        g = groups.get(row["group"])
        if g is None:
            src = SimpleNamespace(dataset=row["dataset"], source_id=row["source_id"], path=row["file"],
                                  line=row["line"], score=row["source_score"])
            g = groups[row["group"]] = Group(row["group"], src)
        g.slots[row["slot"]] = Slot(row["sentence"], tuple(row["rules"].split()))
    return list(groups.values())


def _where(g: Group) -> dict:
    """``file`` and ``line`` of a group's source pair, for ``dropped.tsv``."""
    src: SimpleNamespace = g.source  # type: ignore[assignment]  # Group.source is typed object
    return {"file": src.path, "line": src.line}


def _corpus_pairs(corpus: pd.DataFrame, groups: list[Group], path: Path) -> list[Pair]:
    """The :class:`Pair` behind every corpus row: related rows by group, slots and texts; unrelated rows by the S1
    texts and their S0 (``sentence_A_original``), which tells apart groups that share an S1."""
    related = {(p.pair_type, p.sentence_A, p.sentence_B): p for p in reversed(related_pairs(groups))}
    s1: dict[tuple[str, str], tuple[Group, str]] = {}
    for g in reversed(groups):
        for s in ("S1a", "S1b"):
            if s in g.slots:
                s1[(g.slots[s].text, g.original(s))] = (g, s)
    pairs = []
    for i, row in enumerate(corpus.to_dict("records")):
        if row["pair_type"] == "unrelated":
            a = s1.get((row["sentence_A"], row["sentence_A_original"]))
            b = s1.get((row["sentence_B"], row["sentence_B_original"]))
            p = None if a is None or b is None else Pair(a[0], a[1], b[0], b[1], "unrelated", "unrelated",
                                                         "unrelated")
        else:
            p = related.get((row["pair_type"], row["sentence_A"], row["sentence_B"]))
        if p is None:
            raise InputError(path, "pair not found among the sentences of sentences.tsv (corpus.tsv and "
                                   "sentences.tsv are not from the same build)", line=i + 2, field="sentence_B")
        pairs.append(p)
    return pairs


def _new_splits(have: Counter, n_new: int, total: int, splits: dict[str, float], seed: int) -> list[str]:
    """Split labels for ``n_new`` new pairs: those the final corpus lacks most against the build's proportions."""
    from pipeline.corpus.job import split_labels

    target = Counter(split_labels(total, seed, tuple(splits.items())))
    labels = [name for name in splits for _ in range(max(0, target[name] - have[name]))]
    labels += split_labels(n_new, seed, tuple(splits.items()))
    return labels[:n_new]


def apply_reviews(build: str | Path, reviews: list[str | Path], out: str | Path, fmt: str = "auto",
                  skip_bad_rows: bool = False) -> dict:
    """Apply review decisions to a build and write the reviewed build (Marelli et al. 2014, section 3.3).

    Args:
        build: a ``sick build`` directory (or one written by this function, for a further round of new reviews).
        reviews: review files (see :func:`read_reviews`), all counted together: several reviewers' decisions on
            one sentence are votes.
        out: the reviewed build's directory, replaced atomically: ``corpus.tsv``, ``sentences.tsv``,
            ``rule_frequencies.tsv``, ``pair_distribution.tsv``, ``dropped.tsv`` (the build's, plus ``review`` and
            ``dedup`` rows), ``candidates.tsv`` (copied, when present), ``manifest.json`` (the build's, with a
            ``review`` section), ``review_log.tsv`` (:data:`REVIEW_LOG_COLUMNS`, every decision), ``review_stats.tsv``
            (:data:`REVIEW_STATS_COLUMNS`: outcomes per slot family and per rule), ``second_look.tsv`` (ties) and
            ``rejected.tsv`` (bad and void rows).
        fmt: the review files' format (``auto``, ``csv``, ``labelstudio``, ``mturk``).
        skip_bad_rows: list bad rows in ``rejected.tsv`` instead of stopping.

    Returns:
        The ``review`` section's counts.

    Raises:
        InputError: a malformed build or review file; a review file already applied to ``build`` (its sha256 is in
            the build's ``review.applied``): applying the same reviews twice is refused.
        RowError: the first bad row (unknown sentence_id, changed sentence text, unknown decision, empty edit, a
            reviewer deciding twice), naming file, row and field, unless ``skip_bad_rows``.
    """
    from pipeline.corpus.job import CORPUS_COLUMNS, DROPPED_COLUMNS, pair_distribution, pair_rows, rule_frequencies
    from pipeline.corpus.rules import load_rules

    build, out = Path(build), Path(out)
    if not reviews:
        raise InputError("--reviews", "no review file given")
    sentences, corpus, manifest = read_build(build)
    previous = manifest.get("review") or {}
    inputs: list[dict] = []
    for review in reviews:
        if not Path(review).is_file():
            raise InputError(review, "file not found")
        digest = sha256_file(review)
        if digest in previous.get("applied", []):
            raise InputError(review, f"already applied to {build} (manifest.json review.applied); apply new "
                                     f"reviews only, or give all review files to the unreviewed build")
        inputs.append({"path": str(review), "sha256": digest})
    texts = {it["sentence_id"]: it["sentence"] for it in _items(sentences)}
    votes: list[Vote] = []
    rejected: list[dict] = []
    for review, entry in zip(reviews, inputs):
        vs, void = read_reviews(review, fmt)
        entry["rows"] = len(vs) + len(void)
        votes += vs
        rejected += void
    good, bad, undecided = check_votes(votes, texts, skip_bad_rows)
    rejected += bad
    verdicts = count_votes(good)

    groups = _groups(sentences)
    pairs = _corpus_pairs(corpus, groups, build / "corpus.tsv")
    rows = corpus.to_dict("records")
    by_gid = {g.group_id: g for g in groups}
    removed_groups: set[str] = set()
    dropped = _read_tsv(build / "dropped.tsv").to_dict("records") if (build / "dropped.tsv").is_file() else []
    for sid, (outcome, edit) in sorted(verdicts.items()):
        gid, slot = sid.split(":")
        g = by_gid[gid]
        if outcome == "edit" and edit is not None:
            g.slots[slot] = Slot(edit, (*g.slots[slot].rules, REVIEW_EDIT))
        elif outcome in ("reject", "tie"):
            if slot.startswith("S1"):
                removed_groups.add(gid)
            dropped.append({"stage": "review", "item": f"{gid} {slot}", **_where(g),
                            "reason": "rejected by review" if outcome == "reject" else "tie in review (second look)",
                            "text": g.slots[slot].text})
    gone = {sid for sid, (o, _) in verdicts.items() if o in ("reject", "tie")}

    def alive(g: Group, slot: str) -> bool:
        return g.group_id not in removed_groups and sentence_id(g.group_id, slot) not in gone

    # related pairs first (corpus order), deduplicated again since edits can make two pairs alike
    related = [(p, r) for p, r in zip(pairs, rows) if p.pair_type != "unrelated"
               and alive(p.group_a, p.slot_a) and alive(p.group_b, p.slot_b)]
    kept, removed, keys = dedup([p for p, _ in related])
    row_of = {id(p): r for p, r in related}
    for rm in removed:
        p = rm.pair
        dropped.append({"stage": "dedup", "item": f"{p.group_a.group_id} {p.pair_type}", **_where(p.group_a),
                        "reason": f"after review: {rm.reason}",
                        "text": f"{p.sentence_A} | {p.sentence_B}"})
    share = manifest.get("options", {}).get("unrelated_share", 0.122)
    seed = manifest.get("seed", 1)
    target = unrelated_count(len(kept), share)
    unrelated: list[Pair] = []
    for p, r in zip(pairs, rows):
        if p.pair_type == "unrelated" and alive(p.group_a, p.slot_a) and alive(p.group_b, p.slot_b):
            key = pair_key(p.sentence_A, p.sentence_B)
            if len(key) > 1 and key not in keys and len(unrelated) < target:
                keys.add(key)
                unrelated.append(p)
                row_of[id(p)] = r
    survivors = kept + unrelated
    final_rows = []
    for p in survivors:
        r = dict(row_of[id(p)])
        r.update(sentence_A=p.sentence_A, sentence_B=p.sentence_B, rules_A=" ".join(p.group_a.slots[p.slot_a].rules),
                 rules_B=" ".join(p.group_b.slots[p.slot_b].rules))
        final_rows.append(r)
    live = [g for g in groups if g.group_id not in removed_groups]
    for g in live:
        g.slots = {s: t for s, t in g.slots.items() if alive(g, s)}
    new = unrelated_pairs(live, target - len(unrelated), seed, keys) if target > len(unrelated) else []
    splits = manifest.get("options", {}).get("splits") or {"TRAIN": 0.45, "TRIAL": 0.05, "TEST": 0.5}
    labels = _new_splits(Counter(r["SemEval_set"] for r in final_rows), len(new), len(survivors) + len(new), splits,
                         seed)
    first_id = max((int(r["pair_ID"]) for r in rows), default=0) + 1
    final_rows += [{k: str(v) for k, v in r.items()} for r in pair_rows(new, labels, first_id)]
    all_pairs = survivors + new

    sentence_rows = []
    for row in sentences.to_dict("records"):
        g = by_gid[row["group"]]
        if row["group"] in removed_groups or row["slot"] not in g.slots:
            continue
        s = g.slots[row["slot"]]
        sentence_rows.append({**row, "sentence": s.text, "rules": " ".join(s.rules)})

    log = _log(good, verdicts, texts, sentences)
    stats = _stats(verdicts, sentences)
    second = [{"sentence_id": sid, "group": sid.split(":")[0], "slot": sid.split(":")[1], "sentence": texts[sid],
               "votes": " ".join(f"{v.reviewer or '?'}={v.decision}" for v in good if v.sentence_id == sid)}
              for sid, (o, _) in sorted(verdicts.items()) if o == "tie"]
    outcomes = Counter(o for o, _ in verdicts.values())
    counts = {
        "rows": sum(entry["rows"] for entry in inputs),
        "decisions": len(good), "undecided_rows": undecided, "bad_rows": len(bad),
        "void_rows": len(rejected) - len(bad), "reviewers": len({v.reviewer for v in good if v.reviewer}),
        "sentences_reviewed": len(verdicts), **{o: outcomes[o] for o in ("accept", "edit", "reject", "tie")},
        "groups_removed": len(removed_groups), "pairs_before": len(rows), "pairs_after": len(final_rows),
        "related_after": len(kept), "removed_identical": sum(r.reason == "identical sentences" for r in removed),
        "removed_repeated": sum(r.reason.startswith("repeated") for r in removed),
        "unrelated_kept": len(unrelated), "unrelated_added": len(new),
    }
    rules_dir = manifest.get("rules", {}).get("dir")
    ruleset = load_rules(None if rules_dir in (None, "rules (bundled)") else Path(rules_dir))
    manifest = dict(manifest)
    manifest["review"] = {
        "command": "review apply", "version": __version__, "build": str(build),
        "build_manifest_sha256": sha256_file(build / "manifest.json"), "format": fmt,
        "skip_bad_rows": skip_bad_rows, "inputs": inputs,
        "applied": [*previous.get("applied", []), *(i["sha256"] for i in inputs)],
        "counts": counts, **({"previous": previous} if previous else {}),
    }
    with atomic_dir(out) as tmp:
        write_tsv(tmp / "corpus.tsv", final_rows, list(corpus.columns) or CORPUS_COLUMNS)
        write_tsv(tmp / "sentences.tsv", sentence_rows, list(sentences.columns))
        if (build / "candidates.tsv").is_file():
            shutil.copyfile(build / "candidates.tsv", tmp / "candidates.tsv")
        write_tsv(tmp / "rule_frequencies.tsv", rule_frequencies(live, ruleset), ["family", "rule", "freq"])
        write_tsv(tmp / "pair_distribution.tsv", pair_distribution(all_pairs),
                  ["expected_relation", "pair_type", "set", "count", "percent"])
        write_tsv(tmp / "dropped.tsv", dropped, DROPPED_COLUMNS)
        write_tsv(tmp / "review_log.tsv", log, REVIEW_LOG_COLUMNS)
        write_tsv(tmp / "review_stats.tsv", stats, REVIEW_STATS_COLUMNS)
        write_tsv(tmp / "second_look.tsv", second, SECOND_LOOK_COLUMNS)
        write_tsv(tmp / "rejected.tsv", rejected, REJECTED_COLUMNS)
        write_json(tmp / "manifest.json", manifest)
    return counts


def _log(votes: list[Vote], verdicts: dict, texts: dict[str, str], sentences: pd.DataFrame) -> list[dict]:
    rows = []
    for v in votes:
        gid, slot = v.sentence_id.split(":")
        before = texts[v.sentence_id]
        after = {"accept": before, "edit": v.edited_sentence, "reject": ""}[v.decision]
        rows.append({"sentence_id": v.sentence_id, "group": gid, "slot": slot, "reviewer": v.reviewer,
                     "decision": v.decision, "reason": v.reason, "sentence_before": before, "sentence_after": after,
                     "outcome": verdicts[v.sentence_id][0], "file": v.file, "row": v.row})
    return rows


def _stats(verdicts: dict, sentences: pd.DataFrame) -> list[dict]:
    """Outcomes per sentence (not per vote) for all, per slot family and per rule; rules with the most edits and
    rejects first, as those need work."""
    rules = {sentence_id(g, s): r.split() for g, s, r in zip(sentences["group"], sentences["slot"], sentences["rules"])}
    tallies: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for sid, (outcome, _) in verdicts.items():
        fam = sid.split(":")[1][:2]
        tallies[("all", "all")][outcome] += 1
        tallies[("slot", fam)][outcome] += 1
        for rid in dict.fromkeys(rules.get(sid, [])):
            if rid != REVIEW_EDIT:
                tallies[("rule", rid)][outcome] += 1

    def row(by: str, key: str) -> dict:
        c = tallies[(by, key)]
        n = sum(c.values())
        return {"by": by, "key": key, "sentences": n, **{o: c[o] for o in ("accept", "edit", "reject", "tie")},
                **{f"{o}_rate": round(c[o] / n, 4) if n else 0.0 for o in ("accept", "edit", "reject")}}

    out = [row("all", "all")] if verdicts else []
    out += [row("slot", f) for f in ("S1", *FAMILIES) if ("slot", f) in tallies]
    rule_rows = [row("rule", k) for by, k in tallies if by == "rule"]
    out += sorted(rule_rows, key=lambda r: (-(r["edit"] + r["reject"] + r["tie"]) / r["sentences"], r["key"]))
    return out


def review_summary(corpus_path: str | Path) -> pd.DataFrame | None:
    """``review_stats.tsv`` beside a corpus file (written by :func:`apply_reviews`), for ``sick report``; None when
    there is none or it lacks :data:`REVIEW_STATS_COLUMNS`."""
    f = Path(corpus_path).with_name("review_stats.tsv")
    if not f.is_file():
        return None
    df = pd.read_csv(f, sep="\t", dtype=str, keep_default_na=False, na_filter=False)
    return df if list(df.columns) == REVIEW_STATS_COLUMNS else None
