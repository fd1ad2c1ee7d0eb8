"""The native-speaker pass: ``sick review export`` and ``sick review apply`` (Marelli et al. 2014, section 3.3)."""

from __future__ import annotations

__all__ = ["register"]

import argparse
import sys

from pipeline.cli.argtypes import positive_int

_FAMILIES = ("S1", "S2", "S3", "S4")


def _slots(value: str) -> tuple[str, ...]:
    slots = tuple(s.strip().upper() for s in value.split(",") if s.strip())
    bad = [s for s in slots if s not in _FAMILIES]
    if bad or not slots:
        raise argparse.ArgumentTypeError(f"expected a comma-separated list of {', '.join(_FAMILIES)}, got {value!r}")
    return slots


def cmd_export(args) -> int:
    """``sick review export``: run :func:`pipeline.review.stage.export_review`; print a summary; return 0."""
    from pipeline.review.stage import export_review

    counts = export_review(args.build, args.out, platform=args.platform, slots=args.slots, sample=args.sample,
                           seed=args.seed, reviewers_per_item=args.reviewers_per_item)
    print(f"{counts['items']} of {counts['sentences']} generated sentences to review ({args.platform}) in {args.out}",
          file=sys.stderr)
    return 0


def cmd_apply(args) -> int:
    """``sick review apply``: run :func:`pipeline.review.stage.apply_reviews`; print a summary; return 0."""
    from pipeline.review.stage import apply_reviews

    c = apply_reviews(args.build, args.reviews, args.out, fmt=args.format, skip_bad_rows=args.skip_bad_rows)
    print(f"{c['decisions']} decisions on {c['sentences_reviewed']} sentences: {c['accept']} accepted, {c['edit']} "
          f"edited, {c['reject']} rejected, {c['tie']} tied (second_look.tsv); {c['bad_rows']} bad rows; "
          f"{c['pairs_before']} -> {c['pairs_after']} pairs in {args.out}", file=sys.stderr)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``sick review export`` and ``sick review apply`` to the ``sick`` sub-commands."""
    r = subparsers.add_parser("review", help="native-speaker review of generated sentences",
                              description="Have every generated sentence (S1-S4) checked by a native speaker, as "
                                          "SICK's were (Marelli et al. 2014, section 3.3), and rebuild the corpus "
                                          "from the decisions.")
    rsub = r.add_subparsers(dest="review_command", required=True)
    e = rsub.add_parser("export", help="write review items for a build's generated sentences",
                        description="One item per generated sentence of BUILD/sentences.tsv: its source sentence, "
                                    "slot, rules and what the slot must be; annotations/review_instructions.md is "
                                    "copied beside it. manifest.json records the sha256 of every sentence text.")
    e.add_argument("--build", required=True, metavar="DIR", help="a `sick build` output directory")
    e.add_argument("--slots", type=_slots, default=_FAMILIES, metavar="S1,S2,S3,S4",
                   help="slot families to review (default all)")
    e.add_argument("--sample", type=positive_int, default=None, metavar="N",
                   help="review N sentences drawn with --seed (default: all)")
    e.add_argument("--seed", type=int, default=1, help="sampling seed")
    e.add_argument("--platform", choices=("csv", "labelstudio", "mturk"), default="csv",
                   help="csv: review.csv; labelstudio: tasks.json + labeling config; mturk: batch.csv + HTML question")
    e.add_argument("--reviewers-per-item", type=positive_int, default=1, metavar="K",
                   help="reviews wanted per sentence (recorded in the manifest; MTurk assignments, Label Studio "
                        "overlap)")
    e.add_argument("--out", required=True, metavar="DIR", help="output directory")
    e.set_defaults(func=cmd_export)

    a = rsub.add_parser("apply", help="apply review decisions and write the reviewed build",
                        description="Check every decision (unknown sentence_id, changed sentence text, unknown "
                                    "decision, empty edit: an error naming file, row and field), count several "
                                    "reviewers' votes (a tie keeps the sentence out, listed in second_look.tsv), and "
                                    "write a complete build with review_log.tsv, review_stats.tsv and a `review` "
                                    "section in manifest.json. A review file already applied to BUILD is refused.")
    a.add_argument("--build", required=True, metavar="DIR", help="the build the reviews were exported from")
    a.add_argument("--reviews", required=True, nargs="+", metavar="FILE", help="review files (all counted together)")
    a.add_argument("--format", choices=("auto", "csv", "labelstudio", "mturk"), default="auto",
                   help="review file format: csv (review.csv or Label Studio CSV export), labelstudio (JSON or "
                        "JSON-MIN export), mturk (batch results); auto: by extension and header")
    a.add_argument("--skip-bad-rows", action="store_true", help="put bad rows in rejected.tsv instead of stopping")
    a.add_argument("--out", required=True, metavar="DIR", help="output directory for the reviewed build")
    a.set_defaults(func=cmd_apply)
