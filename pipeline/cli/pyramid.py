"""``sick pyramid build`` and ``sick pyramid eval``: paraphrase tests from summarization pyramids
(Baumel et al. 2016)."""

from __future__ import annotations

__all__ = ["register"]



import argparse
import json
import sys

from pipeline.cli.argtypes import add_force


def cmd_build(args) -> int:
    from pipeline.common.errors import InputError
    from pipeline.common.files import prepare_outputs
    from pipeline.pyramid.reader import read_pyramids
    from pipeline.pyramid.tests import build_tests, write_tests

    prepare_outputs(dirs=[args.out], inputs=args.pyramids, force=args.force)
    pyramids, skipped = read_pyramids(args.pyramids, skip_bad_files=args.skip_bad_files)
    for _path, msg in skipped:
        print(f"skipped {msg}", file=sys.stderr)
    if not pyramids:
        raise InputError(" ".join(map(str, args.pyramids)), "no pyramid files read")
    binary, questions, stats = build_tests(pyramids, seed=args.seed)
    stats["skipped_files"] = len(skipped)
    write_tests(args.out, binary, questions, stats)
    for k, v in stats.items():
        print(f"{k}\t{v}")
    return 0


def cmd_eval(args) -> int:
    from pipeline.pyramid.tests import evaluate, make_encoder, read_tests

    binary, questions = read_tests(args.tests)
    encoder = make_encoder(args.encoder, args.seed, args.model)  # MissingExtra is a SickError: cli.main, exit 2
    res = {"encoder": args.encoder, **evaluate(binary, questions, encoder, seed=args.seed)}
    if args.json:
        print(json.dumps(res))
    else:
        fmt = lambda v: "n/a" if v is None else f"{v:.3f}"  # noqa: E731
        print(f"encoder\t{res['encoder']}\npairs\t{res['pairs']}\nF\t{fmt(res['f_measure'])}\n"
              f"threshold\t{fmt(res['threshold'])}\nquestions\t{res['questions']}\n"
              f"success_rate\t{fmt(res['success_rate'])}\nMRR\t{fmt(res['mrr'])}")
    return 0


def _add_pyramid(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser("pyramid", help="paraphrase tests from summarization pyramids (Baumel et al. 2016)")
    sub = p.add_subparsers(dest="pyramid_command", required=True)
    b = sub.add_parser("build", help="build binary and ranking tests from DUCView .pyr files")
    b.add_argument("--pyramids", nargs="+", required=True, metavar="DIR_OR_FILE",
                   help=".pyr files, or directories searched for *.pyr")
    b.add_argument("--out", required=True, help="output directory (written atomically)")
    b.add_argument("--seed", type=int, default=0, help="seed of the negative pairs and distractors")
    add_force(b)
    b.add_argument("--skip-bad-files", action="store_true", help="skip and report malformed files")
    b.set_defaults(func=cmd_build)
    e = sub.add_parser("eval", help="evaluate an encoder on the pyramid tests")
    e.add_argument("--tests", required=True, help="directory written by `pyramid build`")
    e.add_argument("--encoder", required=True, choices=["random", "one-hot", "embedding"],
                   help="one-hot: bag of words; random: a seeded random vector per text (chance baseline); "
                        "embedding: sentence-transformers model")
    e.add_argument("--model", default=None, help="embedding model (default all-MiniLM-L6-v2, bundled)")
    e.add_argument("--json", action="store_true", help="print one JSON object")
    e.add_argument("--seed", type=int, default=0, help="seed of the threshold split and random vectors")
    e.set_defaults(func=cmd_eval)
    return p


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add this family's commands to the ``sick`` sub-commands."""
    _add_pyramid(subparsers)
