"""Crowd rounds: ``sick tasks export``, ``sick simulate-judgments``, ``sick aggregate`` and ``sick aggregate-labels``
(Marelli et al. 2014, section 3.4)."""

from __future__ import annotations

__all__ = ["register"]

import argparse
import sys

from pipeline.cli.argtypes import add_force, non_negative_int, positive_int, probability, share
from pipeline.common.errors import InputError
from pipeline.common.files import atomic_file, prepare_outputs, sha256_file, write_json
from pipeline.common.options import AGGREGATION_METHODS, PLATFORMS, SIMULATION_DEFAULTS, TIES


def cmd_export(args) -> int:
    """``sick tasks export``: run :func:`export_tasks` with the parsed options; print a summary; return 0."""
    from pipeline.crowd.tasks import export_tasks

    prepare_outputs(dirs=[args.out], inputs=[p for p in (args.corpus, args.controls) if p], force=args.force)
    try:
        counts = export_tasks(args.corpus, args.platform, args.out, per_order=args.per_order,
                              controls=args.controls, control_rate=args.control_rate, batch_size=args.batch_size,
                              seed=args.seed, pairs_per_hit=args.pairs_per_hit)
    except ValueError as exc:
        raise InputError(args.corpus, str(exc)) from None
    repeats = f", {counts['control_repeats']} control items reused" if counts["control_repeats"] else ""
    print(f"{counts['pairs']} pairs -> {counts['rows']} task rows ({counts['corpus_rows']} pair rows, "
          f"{counts['control_rows']} control rows{repeats}) x {args.per_order} judgments in "
          f"{counts['batches']} file(s) in {args.out}", file=sys.stderr)
    return 0


def _add_tasks(subparsers) -> argparse.ArgumentParser:
    """Register ``sick tasks export`` on the ``sick`` sub-parsers; return the ``tasks`` parser."""
    t = subparsers.add_parser("tasks", help="crowd annotation tasks",
                              description="Crowd annotation tasks (Marelli et al. 2014, section 3.4).")
    tsub = t.add_subparsers(dest="tasks_command", required=True)
    e = tsub.add_parser("export", help="write tasks for MTurk, Label Studio or a CSV",
                        description="Every pair in both orders (A first, B first), --per-order judgments each, "
                                    "shuffled with the seed, control items mixed in at --control-rate.")
    e.add_argument("--corpus", required=True, metavar="corpus.tsv", help="corpus.tsv from `sick build`")
    e.add_argument("--platform", required=True, choices=PLATFORMS, help="where the tasks will run")
    e.add_argument("--per-order", type=positive_int, default=5, metavar="N",
                   help="judgments per pair and order (default 5, as SICK)")
    e.add_argument("--controls", metavar="FILE", help="control items (default annotations/controls.yaml)")
    e.add_argument("--control-rate", type=share, default=0.1, metavar="R",
                   help="share of task rows that are control items (default 0.1)")
    e.add_argument("--batch-size", type=positive_int, default=None, metavar="N",
                   help="rows per output file (default: one file; MTurk: a multiple of --pairs-per-hit)")
    e.add_argument("--pairs-per-hit", type=positive_int, default=10, metavar="N",
                   help="MTurk: task rows per HIT (default 10; the last HIT is filled with control items)")
    e.add_argument("--seed", type=int, default=1, help="shuffling seed")
    e.add_argument("--out", required=True, metavar="DIR", help="output directory")
    add_force(e)
    e.set_defaults(func=cmd_export)
    return t


def cmd_simulate(args) -> int:
    from pipeline.common.corpus_io import read_corpus
    from pipeline.crowd.simulate import default_model, load_model, manifest_path, simulate, write_judgments

    prepare_outputs(files=[args.out, manifest_path(args.out)])
    # our corpus.tsv is written by write_tsv, which quotes a field holding a quote
    corpus = read_corpus(args.corpus, required=("pair_ID",), numeric=False, csv_quoting=True)
    from pipeline.crowd.controls import DEFAULT_CONTROLS, controls_table, load_controls

    controls_file = None if args.no_controls else (args.controls or DEFAULT_CONTROLS)
    controls = controls_table(load_controls(controls_file)) if controls_file else None
    model = load_model(args.model) if args.model else default_model()
    try:
        sim = simulate(corpus, workers=args.workers, per_order=args.per_order, seed=args.seed,
                       spammer_share=args.spammer_share, controls=controls,
                       controls_per_worker=args.controls_per_worker, model=model)
    except ValueError as exc:
        raise InputError(args.corpus, str(exc)) from None
    manifest = dict(sim.manifest)
    manifest["corpus"] = {"path": str(args.corpus), "sha256": sha256_file(args.corpus)}
    if controls_file:
        manifest["controls_file"] = {"path": str(controls_file), "sha256": sha256_file(controls_file)}
    write_judgments(sim.judgments, args.out, manifest)
    return 0


def _add_simulate(subparsers) -> None:
    """Register ``sick simulate-judgments`` on an ``argparse`` subparsers object."""
    p = subparsers.add_parser(
        "simulate-judgments", help="make SYNTHETIC crowd judgments for a corpus (demos, tests, load)",
        description="Simulate a SICK-style crowd round (10 judgments per pair, 5 per presentation order) with a "
                    "documented generative model (pipeline/simulate.py): relatedness and entailment per pair type, "
                    "worker noise, spammers, control items. Writes our judgments CSV (pair_ID, worker_id, order, "
                    "relatedness, answer, is_control) and OUT.manifest.json; worker ids are synthetic-wNNN.")
    p.add_argument("--corpus", required=True, metavar="FILE", help="corpus.tsv from `sick build`")
    p.add_argument("--workers", type=positive_int, default=SIMULATION_DEFAULTS["workers"],
                   help=f"crowd size (default {SIMULATION_DEFAULTS['workers']})")
    p.add_argument("--per-order", type=positive_int, default=SIMULATION_DEFAULTS["per_order"],
                   help=f"judgments per pair and presentation order "
                        f"(default {SIMULATION_DEFAULTS['per_order']}, as SICK)")
    p.add_argument("--seed", type=int, default=SIMULATION_DEFAULTS["seed"], help="seed of the simulated round")
    p.add_argument("--spammer-share", type=probability, default=SIMULATION_DEFAULTS["spammer_share"],
                   help=f"share of workers answering at random (default {SIMULATION_DEFAULTS['spammer_share']})")
    p.add_argument("--controls", metavar="FILE",
                   help="control items (default: the bundled annotations/controls.yaml)")
    p.add_argument("--no-controls", action="store_true",
                   help="no control judgments (aggregate then cannot weed out spammers, and says so)")
    p.add_argument("--controls-per-worker", type=non_negative_int, default=SIMULATION_DEFAULTS["controls_per_worker"],
                   help=f"control judgments per worker (default {SIMULATION_DEFAULTS['controls_per_worker']})")
    p.add_argument("--model", metavar="FILE",
                   help="relatedness and relation probabilities per pair type group (default "
                        "annotations/simulation_model.yaml: fitted to the SICK paper's Tables 8 and 9, see its header)")
    p.add_argument("--out", required=True, metavar="FILE", help="judgments CSV to write")
    p.set_defaults(func=cmd_simulate)


def _find_tasks_manifest(args) -> tuple[str | None, dict]:
    """The ``manifest.json`` of ``sick tasks export`` (``--tasks-manifest``, or the one beside the judgments when
    it is an export's): its path and ``controls.ids`` (opaque id -> control id), or (None, {})."""
    import json
    from pathlib import Path

    path = Path(args.tasks_manifest) if args.tasks_manifest else Path(args.judgments).with_name("manifest.json")
    if not path.is_file():
        if args.tasks_manifest:
            raise InputError(path, "file not found")
        return None, {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(path, f"not valid JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("command") != "tasks export":
        if args.tasks_manifest:
            raise InputError(path, "not the manifest.json of `sick tasks export`")
        return None, {}
    ids = (data.get("controls") or {}).get("ids") or {}
    return str(path), {str(k): str(v) for k, v in ids.items()}


def _judgments_manifest(path) -> dict:
    """``OUT.manifest.json`` of ``sick simulate-judgments`` beside the judgments, or {}."""
    import json

    from pipeline.crowd.simulate import manifest_path

    m = manifest_path(path)
    try:
        return json.loads(m.read_text(encoding="utf-8")) if m.is_file() else {}
    except (OSError, ValueError):
        return {}


def cmd_aggregate(args) -> int:
    from pipeline.common.corpus_io import read_corpus
    from pipeline.crowd.aggregate import aggregate, summary, write_outputs
    from pipeline.crowd.controls import DEFAULT_CONTROLS, controls_by_id, load_controls
    from pipeline.crowd.judgments import control_base_id, read_judgments

    prepare_outputs(dirs=[args.out], inputs=[p for p in (args.judgments, args.corpus, args.controls) if p],
                    force=args.force)
    # our corpus.tsv is written by write_tsv, which quotes a field holding a quote
    corpus = read_corpus(args.corpus, required=("pair_ID",), numeric=False, csv_quoting=True)
    controls_file = None if args.no_controls else (args.controls or DEFAULT_CONTROLS)
    controls = controls_by_id(load_controls(controls_file)) if controls_file else {}
    tasks_manifest, opaque = _find_tasks_manifest(args)
    unknown = sorted({control_base_id(v) for v in opaque.values()} - set(controls))
    if unknown and controls:
        raise InputError(tasks_manifest, f"the export used control(s) {', '.join(unknown[:3])} that are not in "
                                         f"{controls_file}: pass the controls file of the export with --controls")
    fmt = getattr(args, "format", "auto") or "auto"
    control_ids = (set(controls) | set(opaque)) if controls else None
    judgments, rejected = read_judgments(args.judgments, fmt, set(corpus["pair_ID"].astype(str)),
                                         control_ids, args.skip_bad_rows)
    if len(judgments) == 0 and len(rejected) > 0:
        reasons = rejected["reason"].value_counts()
        raise InputError(args.judgments, f"every one of the {len(rejected)} judgment rows was rejected (most often: "
                                         f"{reasons.index[0]!r}); see --format and the file's layout")
    if opaque:  # the export's opaque ids back to the control ids (CTRL-001, CTRL-001#2)
        judgments["pair_ID"] = judgments["pair_ID"].map(lambda p: opaque.get(p, p))
    sim_manifest = _judgments_manifest(args.judgments)
    synthetic = True if sim_manifest.get("synthetic") else None  # else: from the worker ids
    try:
        result = aggregate(judgments, corpus, controls, method=args.method,
                           min_control_accuracy=args.min_control_accuracy, sd_ddof=args.sd_ddof, ties=args.ties,
                           seed=args.seed, min_controls=args.min_controls, synthetic=synthetic)
    except ValueError as exc:
        raise InputError(args.judgments, str(exc)) from None
    inputs = {"judgments": {"path": str(args.judgments), "sha256": sha256_file(args.judgments)},
              "corpus": {"path": str(args.corpus), "sha256": sha256_file(args.corpus)},
              "controls": ({"path": str(controls_file), "sha256": sha256_file(controls_file)}
                           if controls_file else None),
              "tasks_manifest": tasks_manifest,
              "judgments_manifest": ({"synthetic": True, "model_source": sim_manifest.get("model_source")}
                                     if sim_manifest.get("synthetic") else None)}
    write_outputs(result, args.out, rejected, inputs)
    if getattr(args, "quiet", False):  # warnings are printed even with --quiet
        for w in result.agreement.get("warnings", []):
            print(f"WARNING: {w}", file=sys.stderr)
    else:
        print(summary(result, args.out), file=sys.stderr)
    return 0


def _add_aggregate(subparsers) -> argparse.ArgumentParser:
    """Register ``sick aggregate`` on an ``argparse`` subparsers object."""
    p = subparsers.add_parser(
        "aggregate", help="raw crowd judgments -> SICK gold (relatedness, entailment, agreement)",
        description="Quality control on control items, then SICK's gold (Marelli et al. 2014, section 3.4): "
                    "relatedness = mean of all ratings (and SD), entailment = majority answer per presentation "
                    "order, gold label by SICK's rule; agreement figures. Writes gold.tsv, workers.tsv, "
                    "agreement.json and rejected.tsv into --out, atomically.")
    p.add_argument("--judgments", required=True, metavar="FILE", help="raw judgments (our CSV, MTurk, Label Studio)")
    p.add_argument("--format", choices=["auto", "csv", "mturk", "labelstudio"], default="auto",
                   help="judgment file format (default: auto)")
    p.add_argument("--corpus", required=True, metavar="FILE", help="corpus.tsv from `sick build`")
    p.add_argument("--controls", metavar="FILE",
                   help="control items (default: the bundled annotations/controls.yaml)")
    p.add_argument("--no-controls", action="store_true", help="no quality control on control items")
    p.add_argument("--tasks-manifest", metavar="FILE",
                   help="manifest.json of `sick tasks export`, whose key maps the opaque control ids back "
                        "(default: manifest.json beside the judgments, when it is an export's)")
    p.add_argument("--min-controls", type=positive_int, default=3, metavar="K",
                   help="judge a worker on controls only after K control answers (default 3)")
    p.add_argument("--method", choices=list(AGGREGATION_METHODS), default="majority",
                   help="entailment per order: majority vote (default) or Dawid-Skene")
    p.add_argument("--min-control-accuracy", type=probability, default=0.7,
                   help="exclude workers below this accuracy on control items (default 0.7)")
    p.add_argument("--sd-ddof", type=non_negative_int, default=1, help="ddof of the relatedness SD (default 1, R's sd)")
    p.add_argument("--ties", choices=list(TIES), default="neutral",
                   help="a tied order: neutral (default, UNKNOWN), random (seeded) or none ('-')")
    p.add_argument("--seed", type=int, default=1, help="seed for --ties random")
    p.add_argument("--skip-bad-rows", action="store_true",
                   help="list bad judgment rows in rejected.tsv instead of stopping")
    p.add_argument("--quiet", action="store_true", help="no summary")
    p.add_argument("--out", required=True, metavar="DIR", help="output directory for gold.tsv and the rest")
    add_force(p)
    p.set_defaults(func=cmd_aggregate)
    return p


def cmd_aggregate_labels(args: argparse.Namespace) -> int:
    """Run ``sick aggregate-labels``; returns the exit status (errors are raised as InputError)."""
    from pipeline.crowd.labels import aggregate_labels, summary, write_table

    prepare_outputs(files=[args.out, args.stats_json])  # both checked before either is written
    numeric = bool(args.numeric)
    if not numeric and args.sd_ddof is not None:
        raise InputError("--sd-ddof", "applies to --numeric labels only")
    method = args.method or "majority"
    ties = args.ties if args.ties is not None else "none"
    sd_ddof = 1 if args.sd_ddof is None else args.sd_ddof
    if (args.posteriors or args.worker_skills) and method != "dawid-skene":
        raise InputError("--posteriors" if args.posteriors else "--worker-skills",
                         "needs --method dawid-skene (majority vote has no model of the workers)")
    details: dict = {}
    table, stats = aggregate_labels(args.input, args.item, args.worker, args.label, numeric=numeric, method=method,
                                    ties=ties, min_votes=args.min_votes, sd_ddof=sd_ddof,
                                    seed=0 if args.seed is None else args.seed, details=details)
    write_table(table, args.out)
    if args.posteriors:
        write_table(details["posteriors"], args.posteriors)
    if args.worker_skills:
        write_table(details["skills"], args.worker_skills)
    if args.stats_json:
        with atomic_file(args.stats_json) as tmp:
            write_json(tmp, stats)
    print(summary(stats, args.out))
    return 0


def _add_aggregate_labels(subparsers) -> argparse.ArgumentParser:
    """Register ``aggregate-labels`` on the ``sick`` subparsers (``func=cmd_aggregate_labels``)."""
    p = subparsers.add_parser(
        "aggregate-labels", help="aggregate any crowd label file (one row per judgment) into one row per item",
        description="Majority vote (or Dawid-Skene) of categorical labels, or mean/SD of numeric ratings, per "
                    "item of a TSV/CSV/JSONL file with one row per judgment; Krippendorff's alpha printed and in "
                    "--stats-json. Output TSV: item label n_votes majority_share, or item mean sd n.")
    p.add_argument("--input", required=True, metavar="FILE", help="judgments: .tsv/.csv/.jsonl, one per row")
    p.add_argument("--item", default="task", metavar="COL",
                   help="column naming the item judged (default task, as crowd-kit)")
    p.add_argument("--worker", default="worker", metavar="COL",
                   help="column naming the worker (default worker, as crowd-kit)")
    p.add_argument("--label", default="label", metavar="COL",
                   help="column holding the label or rating (default label, as crowd-kit)")
    p.add_argument("--numeric", action="store_true", help="labels are numbers: output item mean sd n")
    p.add_argument("--method", choices=AGGREGATION_METHODS, default=None,
                   help="categorical aggregation: majority (default) or dawid-skene (crowd-kit)")
    p.add_argument("--ties", default=None, metavar="none|random|first|LABEL",
                   help="majority ties: none -> '-' (default), random -> seeded pick among the tied labels, "
                        "first -> the tied label that sorts first (crowd-kit's MajorityVote), "
                        "or this LABEL for every tie")
    p.add_argument("--min-votes", type=positive_int, default=None, metavar="K",
                   help="'-' where no label has K votes (SNLI: 3)")
    p.add_argument("--sd-ddof", type=non_negative_int, default=None, metavar="D",
                   help="with --numeric: SD's delta degrees of freedom, 1 (default, R's sd) or 0 (population)")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="seed of --ties random (default 0)")
    p.add_argument("--stats-json", metavar="FILE", help="write counts and alpha as JSON")
    p.add_argument("--posteriors", metavar="FILE",
                   help="with --method dawid-skene: TSV item + one column per label, each item's class "
                        "probabilities (crowd-kit's probas_)")
    p.add_argument("--worker-skills", metavar="FILE",
                   help="with --method dawid-skene: TSV worker skill agreement n (skill: the worker's probability "
                        "of the true label under the model)")
    p.add_argument("--out", required=True, metavar="FILE", help="output TSV")
    p.set_defaults(func=cmd_aggregate_labels)
    return p


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add this family's commands to the ``sick`` sub-commands."""
    _add_tasks(subparsers)
    _add_simulate(subparsers)
    _add_aggregate(subparsers)
    _add_aggregate_labels(subparsers)
