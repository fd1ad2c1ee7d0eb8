"""``sick tasks export``: crowd annotation tasks for a corpus, for MTurk, Label Studio or a plain CSV.

SICK's gold came from a crowd (Marelli et al. 2014, section 3.4 and Figure 1): every pair was judged by 10
people, 5 in each presentation order (sentence A first, then sentence B first), on two questions asked together:
how related the two sentences are (1-5) and whether the second is true if the first is (yes / can't say / no).
Control items with known answers, mixed in among the pairs, let the aggregation weed out careless workers.

One task row is one (pair, order): ``pair_ID``, ``order`` (``AB``: sentence_A shown first; ``BA``: sentence_B
first), ``first_sentence``, ``second_sentence``, ``is_control``; each is to be judged ``per_order`` times.
Control items come from ``annotations/controls.yaml`` (see :func:`load_controls`), in both orders, as a share
``control_rate`` of all rows; the rows are shuffled with the seed and the controls spread evenly through them,
so that every batch gets its share.

Workers must not be able to tell a control from a pair: a control row's ``pair_ID`` is an **opaque id** that
looks like a corpus pair_ID (:func:`opaque_control_ids`: the next free numbers after the corpus's largest id,
handed out in the order of a keyed hash, or a keyed hash when the corpus ids are not numbers), and the MTurk
and Label Studio files carry no ``is_control`` field. The key and the map opaque id -> control id
(``CTRL-001``, ``CTRL-001#2`` for its second use) are in ``manifest.json`` (``controls.key``, ``controls.ids``),
which ``sick aggregate`` reads (``--tasks-manifest``, or the ``manifest.json`` beside the judgments). The CSV
platform's file is the requester's own, so it keeps ``is_control``.

A worker should see each control at most once. MTurk: one row is one HIT and a worker can do a HIT once, but
the same control item used again (``#2``) is another HIT, so keep ``control_rows`` at most the number of items x
2 when workers do many HITs (``control_repeats`` in the manifest says how many reuses there are), or exclude
workers per batch with a qualification. Label Studio: a task is shown to an annotator once (overlap per task);
reused items are other tasks, the same caveat holds. ``sick simulate-judgments`` gives each worker distinct
control items.

Outputs in ``out`` (written into a temporary directory renamed at the end; a failed run leaves nothing):

- ``mturk``: ``batch.csv`` (or ``batch_001.csv``… with ``batch_size``), the batch input whose columns are the
  ``${...}`` variables of ``mturk_question.html`` (copied from ``annotations/templates/``); publish with
  "Number of assignments per task" = ``per_order`` (recorded in ``manifest.json``).
- ``labelstudio``: ``tasks.json`` (``tasks_001.json``…), a list of ``{"data": {...}}``, and
  ``labelstudio_config.xml``; set the project's overlap (annotations per task) to ``per_order``.
- ``csv``: ``tasks.csv`` (``tasks_001.csv``…), with a ``judgments_needed`` column.
- always ``instructions.md`` (the worker instructions) and ``manifest.json`` (corpus and controls sha256, seed,
  options, counts, files).
"""

from __future__ import annotations

__all__ = ["ANNOTATIONS", "CORPUS_NEEDS", "INSTRUCTIONS", "LABELSTUDIO_CONFIG", "MTURK_TEMPLATE", "TASK_COLUMNS",
           "build_task_rows", "control_key", "control_rows_needed", "export_tasks", "mturk_template",
           "opaque_control_ids", "read_corpus_pairs"]

import hashlib
import hmac
import random
import shutil
from pathlib import Path

import pandas as pd

from pipeline import __version__
from pipeline.common.corpus_io import read_one
from pipeline.common.errors import InputError
from pipeline.common.files import atomic_dir, html_cell, sha256_file, spreadsheet_cell, write_json
from pipeline.common.options import PLATFORMS
from pipeline.common.resources import ANNOTATIONS_DIR
from pipeline.common.vocabulary import ORDERS
from pipeline.crowd.controls import DEFAULT_CONTROLS, ControlItem, load_controls
from pipeline.crowd.judgments import CONTROL_REPEAT_SEP

ANNOTATIONS = ANNOTATIONS_DIR
INSTRUCTIONS = ANNOTATIONS / "instructions.md"
MTURK_TEMPLATE = ANNOTATIONS / "templates" / "mturk_question.html"
GUARDED = ("pair_ID", "first_sentence", "second_sentence")
"""Columns of tasks.csv whose cells a spreadsheet could take for formulas (see ``spreadsheet_cell``)."""
LABELSTUDIO_CONFIG = ANNOTATIONS / "templates" / "labelstudio_config.xml"

TASK_COLUMNS = ["pair_ID", "order", "first_sentence", "second_sentence", "is_control"]
"""Columns of every task row; the csv platform adds ``judgments_needed``."""
PUBLIC_TASK_COLUMNS = [c for c in TASK_COLUMNS if c != "is_control"]
"""What the MTurk batch and the Label Studio task data carry (workers can read them): no ``is_control``."""
CORPUS_NEEDS = ("pair_ID", "sentence_A", "sentence_B")


# -------------------------------------------------------------------------------------------------- corpus


def read_corpus_pairs(path: str | Path) -> list[tuple[str, str, str]]:
    """``(pair_ID, sentence_A, sentence_B)`` of a ``corpus.tsv`` (``sick build``'s layout; only these three
    columns are needed), read by :func:`pipeline.common.corpus_io.read_one`.

    Raises:
        InputError: missing file, bad UTF-8, a missing column, a line with the wrong number of fields, an empty
            field or a repeated pair_ID (naming its line and field).
    """
    df = read_one(path, required=CORPUS_NEEDS, numeric=False, csv_quoting=True)
    lines = df.attrs["lines"]
    pairs = []
    for i, (pid, a, b) in enumerate(zip(*(df[c] for c in CORPUS_NEEDS))):
        for fld, value in zip(CORPUS_NEEDS, (pid, a, b)):
            if not value:
                raise InputError(path, f"empty {fld}", line=lines[i], field=fld)
        if CONTROL_REPEAT_SEP in pid or any(c.isspace() for c in pid):
            # judgments on such an id would be read as a repeated control item and rejected
            raise InputError(path, f"pair_ID {pid!r} must not contain blanks or {CONTROL_REPEAT_SEP!r}", line=lines[i],
                             field="pair_ID")
        pairs.append((pid, a, b))
    return pairs


def control_rows_needed(corpus_rows: int, control_rate: float) -> int:
    """Control rows for ``corpus_rows`` task rows so that controls are ``control_rate`` of all rows: the even
    number (each control item in both orders) nearest ``rate * corpus_rows / (1 - rate)``, so within one row of
    the exact share."""
    if control_rate <= 0 or corpus_rows == 0:
        return 0
    target = control_rate * corpus_rows / (1 - control_rate)
    return 2 * int(target / 2 + 0.5)


def control_key(seed: int, corpus_sha256: str) -> str:
    """The key of the opaque control ids: derived from the seed and the corpus's hash, so that the same inputs
    give the same files; kept in the export's ``manifest.json`` (which workers never see)."""
    return hashlib.sha256(f"sick-controls:{seed}:{corpus_sha256}".encode()).hexdigest()[:32]


def opaque_control_ids(control_uses: list[str], corpus_ids: list[str], key: str) -> dict[str, str]:
    """``{control use id (CTRL-001, CTRL-001#2): opaque id}``; opaque ids look like the corpus's pair_IDs.

    Numeric corpus ids (``sick build``'s): the numbers after the largest corpus id, given to the uses in the
    order of HMAC-SHA256(key, use id), so neither the number nor its place says which control it is. Other ids:
    the first 12 hex digits of the HMAC. Never a corpus pair_ID.
    """
    def mac(text: str) -> str:
        return hmac.new(key.encode(), text.encode(), hashlib.sha256).hexdigest()

    taken = set(corpus_ids)
    if corpus_ids and all(c.isdigit() for c in corpus_ids):
        start = max(int(c) for c in corpus_ids) + 1
        return {use: str(start + i) for i, use in enumerate(sorted(control_uses, key=mac))}
    out = {}
    for use in control_uses:
        h = mac(use)
        while h[:12] in taken:  # practically never: rehash
            h = mac(h)
        out[use] = h[:12]
        taken.add(h[:12])
    return out


def _row(pid: str, first: str, second: str, order: str, is_control: bool) -> dict:
    return {"pair_ID": pid, "order": order, "first_sentence": first, "second_sentence": second,
            "is_control": is_control}


def build_task_rows(pairs: list[tuple[str, str, str]], controls: list[ControlItem], control_rate: float,
                    seed: int, key: str | None = None, multiple_of: int = 1) -> tuple[list[dict], dict]:
    """Task rows (:data:`TASK_COLUMNS`, ``is_control`` a bool) and counts.

    Every pair gives an ``AB`` and a ``BA`` row; these are shuffled with ``seed``. Control items (shuffled with
    the seed) fill :func:`control_rows_needed` rows, both orders each, cycling through the items when the corpus
    needs more than there are: the n-th use of an item has the id ``ID#n`` (``CTRL-001#2``). Each control row is
    put at a random place within its own equal slice of the list, so any run of rows holds about its share.
    With ``key``, control rows get opaque ids (:func:`opaque_control_ids`) and ``counts["control_ids"]`` maps
    each back to its use id. With ``multiple_of`` N (MTurk's pairs per HIT) and control items, a few more
    control rows make the total a multiple of N, so the last HIT is full (the last use may then be in one order).
    """
    rng = random.Random(seed)
    rows = [_row(pid, a, b, "AB", False) for pid, a, b in pairs]
    rows += [_row(pid, b, a, "BA", False) for pid, a, b in pairs]
    rng.shuffle(rows)
    n_control = control_rows_needed(len(rows), control_rate)
    if n_control and not controls:
        raise ValueError("control_rate > 0 needs control items")
    if multiple_of > 1 and (len(rows) + n_control) % multiple_of:
        if not controls:
            raise ValueError(f"{len(rows)} task rows do not fill HITs of {multiple_of}: the last HIT is filled with "
                             f"control items, so give some (or choose another number of pairs per HIT)")
        n_control += -(len(rows) + n_control) % multiple_of
    items = list(controls)
    rng.shuffle(items)
    ctrl_rows = []
    for k in range((n_control + 1) // 2):
        item, use = items[k % len(items)], k // len(items) + 1
        cid = item.id if use == 1 else f"{item.id}{CONTROL_REPEAT_SEP}{use}"
        ctrl_rows += [_row(cid, item.sentence_A, item.sentence_B, "AB", True),
                      _row(cid, item.sentence_B, item.sentence_A, "BA", True)]
    del ctrl_rows[n_control:]  # an odd number (full HITs): the last use in one order
    if key is not None and ctrl_rows:
        ids = opaque_control_ids(list(dict.fromkeys(r["pair_ID"] for r in ctrl_rows)),
                                 [pid for pid, _, _ in pairs], key)
        ctrl_rows = [{**r, "pair_ID": ids[r["pair_ID"]]} for r in ctrl_rows]
    rng.shuffle(ctrl_rows)
    total = len(rows) + len(ctrl_rows)
    bounds = [int(j * total / len(ctrl_rows) + 0.5) for j in range(len(ctrl_rows) + 1)] if ctrl_rows else []
    places = {rng.randrange(bounds[j], bounds[j + 1]): r for j, r in enumerate(ctrl_rows)}
    corpus_iter = iter(rows)
    merged = [places[i] if i in places else next(corpus_iter) for i in range(total)]
    counts: dict[str, object] = {
        "pairs": len(pairs), "corpus_rows": len(rows), "control_items_available": len(controls),
        "control_items_used": min(len(items), (n_control + 1) // 2), "control_rows": len(ctrl_rows),
        "control_repeats": max(0, (n_control + 1) // 2 - len(items)), "rows": total,
        "control_share": round(len(ctrl_rows) / total, 6) if total else 0.0,
    }
    if key is not None and ctrl_rows:
        counts["control_ids"] = {v: k for k, v in sorted(ids.items(), key=lambda kv: kv[1])}
    return merged, counts


def mturk_template(pairs_per_hit: int) -> str:
    """The MTurk question for HITs of ``pairs_per_hit`` task rows: ``annotations/templates/mturk_question.html``
    (one item) with its item block repeated, each copy's variables and answer names suffixed ``_1`` … ``_N``
    (``${pair_ID_3}``, ``relatedness_3``); for 1, the file as it is."""
    text = MTURK_TEMPLATE.read_text(encoding="utf-8")
    if pairs_per_hit == 1:
        return text
    start = text.index('  <div class="sick-task">')
    end = text.index("</crowd-form>")
    block = text[start:end]
    names = ("pair_ID", "order", "first_sentence", "second_sentence", "relatedness", "answer")
    copies = []
    for k in range(1, pairs_per_hit + 1):
        b = block
        for n in names:
            b = b.replace("${" + n + "}", "${" + f"{n}_{k}" + "}").replace(f'name="{n}"', f'name="{n}_{k}"')
        heading = f'<div class="sick-task">\n    <h3>Pair {k} of {pairs_per_hit}</h3>'
        b = b.replace('<div class="sick-task">', heading, 1)
        copies.append(b)
    head = text[:start].replace("One HIT = one pair in one presentation order.",
                                f"One HIT = {pairs_per_hit} task rows (pair, presentation order), variables and "
                                f"answers suffixed _1 to _{pairs_per_hit}.")
    return head + "\n".join(copies) + text[end:]


def _hits(rows: list[dict], n: int) -> list[dict]:
    """Task rows grouped n to a HIT: one batch row with ``pair_ID_1 order_1 first_sentence_1 second_sentence_1``
    … ``_n`` (what workers may read: no ``is_control``)."""
    return [{f"{c}_{k + 1}": r[c] for k, r in enumerate(rows[i:i + n]) for c in PUBLIC_TASK_COLUMNS}
            for i in range(0, len(rows), n)]


def _batches(rows: list[dict], batch_size: int | None) -> list[list[dict]]:
    if batch_size is None:
        return [rows]
    return [rows[i:i + batch_size] for i in range(0, len(rows), batch_size)] or [[]]


def _name(stem: str, ext: str, i: int, split: bool) -> str:
    return f"{stem}_{i + 1:03d}.{ext}" if split else f"{stem}.{ext}"


def _csv_rows(rows: list[dict]) -> list[dict]:
    return [{**r, "is_control": "true" if r["is_control"] else "false"} for r in rows]


def export_tasks(corpus: str | Path, platform: str, out: str | Path, per_order: int = 5,
                 controls: str | Path | None = None, control_rate: float = 0.1, batch_size: int | None = None,
                 seed: int = 1, pairs_per_hit: int = 10) -> dict:
    """Write crowd tasks for every pair of ``corpus`` (Marelli et al. 2014, section 3.4 and Figure 1).

    Args:
        corpus: a ``corpus.tsv`` (needs ``pair_ID``, ``sentence_A``, ``sentence_B``).
        platform: ``mturk`` (batch input CSV + HTML question template), ``labelstudio`` (tasks JSON + labeling
            config XML) or ``csv`` (one row per pair and order, with ``judgments_needed``).
        out: output directory, replaced atomically.
        per_order: judgments wanted per pair and order (SICK: 5, so 10 per pair); MTurk's assignments per HIT.
        controls: control items (default ``annotations/controls.yaml``); not read when ``control_rate`` is 0.
        control_rate: share of all task rows that are control rows, in [0, 1).
        batch_size: rows per file (``batch_001.csv``, ``tasks_001.json``…); None for one file. MTurk: a multiple
            of ``pairs_per_hit``.
        seed: shuffling seed; the same inputs and seed give byte-identical files.
        pairs_per_hit: MTurk only: task rows per HIT (default 10: a worker judges ten pairs for one reward, as
            crowd tasks usually bundle short items). The batch CSV then has one row per HIT with columns
            ``pair_ID_1`` … ``second_sentence_N`` and the question repeats its item block N times; the last HIT
            is filled with extra control rows. 1 gives one pair per HIT, with unsuffixed columns.

    Returns:
        The counts written to ``manifest.json``: ``pairs``, ``corpus_rows`` (2 per pair), ``control_rows``,
        ``control_items_used``, ``control_repeats``, ``rows``, ``control_share``, ``judgments_needed`` (rows x
        per_order), ``batches``, ``files``.

    Raises:
        InputError: a missing or malformed corpus or controls file (naming file, line and field), or a control
            id that is also a corpus pair_ID.
        ValueError: an unknown platform or an option out of range.
    """
    if platform not in PLATFORMS:
        raise ValueError(f"unknown platform {platform!r} (use {', '.join(PLATFORMS)})")
    if per_order < 1:
        raise ValueError(f"per_order must be at least 1, got {per_order}")
    if not 0 <= control_rate < 1:
        raise ValueError(f"control_rate must be in [0, 1), got {control_rate}")
    if batch_size is not None and batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    per_hit = pairs_per_hit if platform == "mturk" else 1
    if per_hit < 1:
        raise ValueError(f"pairs_per_hit must be at least 1, got {pairs_per_hit}")
    if batch_size is not None and batch_size % per_hit:
        raise ValueError(f"batch_size {batch_size} must be a multiple of pairs_per_hit {per_hit} (whole HITs)")
    corpus, out = Path(corpus), Path(out)
    pairs = read_corpus_pairs(corpus)
    controls_path = Path(controls) if controls is not None else DEFAULT_CONTROLS
    items = load_controls(controls_path) if control_rate > 0 or controls is not None else []
    corpus_ids = {pid for pid, _, _ in pairs}
    for item in items:
        if item.id in corpus_ids:
            raise InputError(controls_path, f"control id {item.id!r} is also a pair_ID of {corpus}", field="id")
    corpus_sha = sha256_file(corpus)
    key = control_key(seed, corpus_sha)
    rows, counts = build_task_rows(pairs, items, control_rate, seed, key, multiple_of=per_hit)
    control_ids = counts.pop("control_ids", {})
    batches = _batches(rows, batch_size)
    split = batch_size is not None
    counts.update(judgments_needed=len(rows) * per_order, batches=len(batches))
    if platform == "mturk":
        counts["hits"] = -(-len(rows) // per_hit)

    files = []
    with atomic_dir(out) as tmp:
        for i, batch in enumerate(batches):
            if platform == "mturk":
                name = _name("batch", "csv", i, split)
                if per_hit == 1:
                    table = pd.DataFrame(_csv_rows(batch), columns=PUBLIC_TASK_COLUMNS)
                else:
                    table = pd.DataFrame(_hits(batch, per_hit), columns=[f"{c}_{k}" for k in range(1, per_hit + 1)
                                                                         for c in PUBLIC_TASK_COLUMNS])
                table = table.map(lambda v: html_cell(str(v)))  # MTurk puts ${column} raw into the page
                table.to_csv(tmp / name, index=False, lineterminator="\n", encoding="utf-8")
            elif platform == "csv":
                name = _name("tasks", "csv", i, split)
                pd.DataFrame([{**{c: spreadsheet_cell(str(v)) if c in GUARDED else v for c, v in r.items()},
                               "judgments_needed": per_order} for r in _csv_rows(batch)],
                             columns=[*TASK_COLUMNS, "judgments_needed"]).to_csv(
                    tmp / name, index=False, lineterminator="\n", encoding="utf-8")
            else:
                name = _name("tasks", "json", i, split)
                write_json(tmp / name, [{"data": {**{c: r[c] for c in PUBLIC_TASK_COLUMNS},
                                                  "judgments_needed": per_order}} for r in batch])
            files.append(name)
        template = {"mturk": MTURK_TEMPLATE, "labelstudio": LABELSTUDIO_CONFIG}.get(platform)
        copied = [p for p in (template, INSTRUCTIONS) if p is not None]
        for src in copied:
            if src == MTURK_TEMPLATE:
                (tmp / src.name).write_text(mturk_template(per_hit), encoding="utf-8")
            else:
                shutil.copyfile(src, tmp / src.name)
            files.append(src.name)
        counts["files"] = files + ["manifest.json"]
        manifest = {
            "tool": "sick-pipeline", "version": __version__, "command": "tasks export", "seed": seed,
            "platform": platform,
            "options": {"per_order": per_order, "control_rate": control_rate, "batch_size": batch_size,
                        "pairs_per_hit": per_hit if platform == "mturk" else None,
                        "orders": list(ORDERS)},
            "inputs": {"corpus": {"path": str(corpus), "sha256": corpus_sha},
                       "controls": ({"path": str(controls_path), "sha256": sha256_file(controls_path)}
                                    if items else None)},
            "templates": {src.name: sha256_file(tmp / src.name) for src in copied},
            "counts": counts,
            # the secret half of the opaque control ids: never give this file to workers
            "controls": {"key": key, "ids": control_ids},
            "setup": _setup_note(platform, per_order),
        }
        write_json(tmp / "manifest.json", manifest)
    return counts


def _setup_note(platform: str, per_order: int) -> str:
    if platform == "mturk":
        return (f"Create a project with mturk_question.html as its design layout, 'Number of assignments per task' "
                f"= {per_order}, and publish each batch CSV; download the batch results CSV and read it with "
                f"format 'mturk'.")
    if platform == "labelstudio":
        return (f"Create a project with labelstudio_config.xml as its labeling interface, set 'Annotations per "
                f"task' (overlap) to {per_order} on all tasks, import the tasks JSON; export JSON and read it with "
                f"format 'labelstudio'.")
    return (f"Collect judgments_needed = {per_order} judgments per row (different workers) and write them as the "
            f"judgment CSV (pair_ID, worker_id, order, relatedness, answer, is_control).")


# ------------------------------------------------------------------------------------------------------ CLI
