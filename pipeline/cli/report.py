"""``sick report``: the SICK paper's section-4 tables, statistics and plots for a corpus."""

from __future__ import annotations

__all__ = ["register"]



import argparse
import sys

from pipeline.cli.argtypes import add_force


def cmd_report(args: argparse.Namespace) -> int:
    from pipeline.common.files import prepare_outputs
    from pipeline.report.tables import write_report

    prepare_outputs(dirs=[args.out], inputs=args.corpus, force=args.force)
    res = write_report(args.corpus, args.out)
    if not getattr(args, "quiet", False):
        c = res["chi2"]
        print(f"{res['n_pairs']} pairs: chi2 = {c['chi2']:.2f} (dof {c['dof']}, p = {c['p']:.3g}); report in "
              f"{args.out}", file=sys.stderr)
    return 0


def _add_report(subparsers) -> argparse.ArgumentParser:
    """Register ``sick report`` on an ``argparse`` subparsers object."""
    p = subparsers.add_parser(
        "report", help="the SICK paper's tables, statistics and plots for a corpus; release split files",
        description="Tables 4-9 of Marelli et al. 2014 (section 4), chi-square and Tukey HSD, agreement figures, "
                    "plots, report.md/report.html, SemEval-2014 split files and a Parquet file, written into "
                    "--out atomically. FILE: our corpus.tsv/gold.tsv, SICK.txt or SemEval-2014 release files.")
    p.add_argument("--corpus", required=True, nargs="+", metavar="FILE", help="one or more corpus files")
    p.add_argument("--out", required=True, metavar="DIR", help="output directory")
    add_force(p)
    p.add_argument("--quiet", action="store_true", help="no summary")
    p.set_defaults(func=cmd_report)
    return p


def cmd_release(args: argparse.Namespace) -> int:
    from pipeline.report.hub import write_hub_dataset

    counts = write_hub_dataset(args.corpus, args.out, split_by=args.split_by, seed=args.seed)
    if not args.quiet:
        print(", ".join(f"{s} {n}" for s, n in counts.items()) + f" pairs; Hugging Face dataset in {args.out}",
              file=sys.stderr)
    return 0


def _add_release(subparsers) -> argparse.ArgumentParser:
    """Register ``sick release`` on an ``argparse`` subparsers object."""
    p = subparsers.add_parser(
        "release", help="a gold corpus as a Hugging Face Hub dataset folder (Parquet splits + dataset card)",
        description="Write DIR/data/{train,validation,test}.parquet (SemEval TRAIN/TRIAL/TEST), the SemEval-2014 "
                    "text files of the same splits, and DIR/README.md, a dataset card whose YAML header declares "
                    "the config, splits and typed features, so that datasets.load_dataset(DIR) gives three typed "
                    "splits.")
    p.add_argument("--corpus", required=True, metavar="FILE", help="gold.tsv from `sick aggregate`")
    p.add_argument("--split-by", choices=["semeval", "groups"], default="semeval",
                   help="semeval: the corpus's SemEval_set (default); groups: whole sentence groups, 45/5/50 %%, "
                        "so no sentence is in two splits")
    p.add_argument("--seed", type=int, default=1, help="seed of --split-by groups")
    p.add_argument("--quiet", action="store_true", help="no summary")
    p.add_argument("--out", required=True, metavar="DIR", help="output directory")
    p.set_defaults(func=cmd_release)
    return p


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add this family's commands to the ``sick`` sub-commands."""
    _add_report(subparsers)
    _add_release(subparsers)
