"""``sick build``, ``sick normalize``, ``sick expand`` and ``sick sample``: the corpus build, its stages one at a
time, and a random sample of a build's sentences to read.

``sick build`` runs the whole job (:mod:`pipeline.corpus.job`); ``sick normalize IN OUT`` and ``sick expand IN
OUT`` run one stage on any text so that a rule author can audit rules.
"""

from __future__ import annotations

__all__ = ["register"]

import argparse
import sys
from pathlib import Path

from pipeline.cli.argtypes import add_force, positive_int, probability, share
from pipeline.cli.rules import check_rules_dir
from pipeline.common.errors import InputError
from pipeline.common.files import prepare_outputs
from pipeline.common.options import BUILD_DEFAULTS, MAX_DEFAULT_WORKERS, default_workers


def _filters(values: list[str]) -> tuple[tuple[str, str], ...]:
    out = []
    for v in values or []:
        key, sep, val = v.partition("=")
        if not sep or not key:
            raise InputError("--filter", f"expected KEY=VALUE, got {v!r}")
        out.append((key, val))
    return tuple(out)


def cmd_build(args) -> int:
    from pipeline.common.resources import DEFAULT_INPUT
    from pipeline.corpus.job import BuildConfig, build
    from pipeline.corpus.sources import SourceSpec

    filters = _filters(args.filter)
    sources = [SourceSpec.parse(s, filters) for s in (args.source or [f"tsv:{DEFAULT_INPUT}"])]
    prepare_outputs(dirs=[args.out], inputs=[s.path for s in sources] + ([args.rules] if args.rules else []),
                    force=args.force)
    if args.rules:  # a rule set other than the project's must pass its own examples first
        check_rules_dir(args.rules)
    cfg = BuildConfig(sources=sources, out=Path(args.out), pairs_per_source=args.pairs_per_source,
                      seed=args.seed, rules_dir=Path(args.rules) if args.rules else None,
                      all_candidates=args.all_candidates, skip_bad_lines=args.skip_bad_lines, quiet=args.quiet,
                      unrelated_share=args.unrelated_share, combine_rate=args.combine_rate, workers=args.workers)
    build(cfg)
    return 0


def _stage_inputs(args: argparse.Namespace) -> tuple:
    """``(ruleset, sentences)`` of ``sick normalize`` / ``sick expand``, after checking the output path; a rules
    directory other than the project's is loaded once, and refused when one of its rule examples fails."""
    from pipeline.corpus.rules import load_rules
    from pipeline.corpus.sources import read_sentences

    prepare_outputs(files=[args.output])
    ruleset = check_rules_dir(args.rules) if args.rules else load_rules()
    return ruleset, read_sentences(args.input)


def cmd_normalize(args) -> int:
    from pipeline.common.files import atomic_file, write_tsv
    from pipeline.corpus.normalize import normalize_texts

    ruleset, texts = _stage_inputs(args)
    results = normalize_texts(texts, ruleset, progress=not args.quiet, total=len(texts))
    rows = [{"input": r.input, "output": r.output, "rules": " ".join(r.rules), "status": r.status,
             "reason": r.reason} for r in results]
    with atomic_file(args.output) as tmp:
        write_tsv(tmp, rows, ["input", "output", "rules", "status", "reason"])
    return 0


def cmd_expand(args) -> int:
    from pipeline.common.files import atomic_file, write_tsv
    from pipeline.common.vocabulary import FAMILIES
    from pipeline.corpus.expand import choose_gated, expand_texts

    ruleset, texts = _stage_inputs(args)
    all_cands = expand_texts(texts, ruleset, progress=not args.quiet, total=len(texts))
    gated = choose_gated(list(zip(texts, all_cands)), args.seed, args.combine_rate, ruleset.weights(), ruleset)
    rows = []
    for text, cands, gt in zip(texts, all_cands, gated):
        for fam in FAMILIES:
            fam_cands = [c for c in cands if c.family == fam]
            for c in fam_cands:
                chosen = gt.picked.get(fam) == c
                status = "chosen" if chosen else "rejected" if c in gt.rejected else "candidate"
                reason = ",".join(gt.rejected.get(c, ()))
                output = c.output
                if chosen and fam in gt.repaired:  # the gate's repair is what the build keeps
                    reason, output = "repaired:" + ",".join(gt.repaired[fam]), gt.chosen[fam].output
                rows.append({"input": text, "family": fam, "output": output, "rules": " ".join(c.rules),
                             "status": status, "reason": reason})
            if not fam_cands:
                rows.append({"input": text, "family": fam, "output": "", "rules": "", "status": "no candidate",
                             "reason": ""})
    with atomic_file(args.output) as tmp:
        write_tsv(tmp, rows, ["input", "family", "output", "rules", "status", "reason"])
    return 0


def cmd_sample(args) -> int:
    from pipeline.common.files import atomic_file, write_tsv
    from pipeline.corpus.job import SAMPLE_COLUMNS, sample_sentences

    rows = sample_sentences(args.build, args.per_slot, args.seed)
    with atomic_file(args.out) as tmp:
        write_tsv(tmp, rows, SAMPLE_COLUMNS)
    return 0


def cmd_setup(args) -> int:
    from pipeline.common import resources

    try:
        resources.main()
    except RuntimeError as exc:  # a missing wn package or spaCy model: an install problem, named in the message
        print(f"sick: error: {exc}", file=sys.stderr)
        return 2
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``build``, ``normalize`` and ``expand`` to the ``sick`` sub-commands."""

    b = sub.add_parser("build", help="build a corpus from source caption pairs",
                       description="sources -> normalize -> expand -> pair -> dedup -> write (Marelli et al. 2014, "
                                   "section 3). Without --source, builds the bundled default input.")
    b.add_argument("--source", action="append", metavar="KIND:PATH",
                   help="input: flickr8k:, sts:, stsb: or tsv: followed by a path (repeatable)")
    b.add_argument("--filter", action="append", metavar="KEY=VALUE",
                   help="keep only stsb rows with this field value, e.g. genre=main-captions")
    b.add_argument("--pairs-per-source", type=positive_int, default=BUILD_DEFAULTS["pairs_per_source"], metavar="N",
                   help="source pairs drawn per source with the seed (default 750, as SICK)")
    b.add_argument("--seed", type=int, default=BUILD_DEFAULTS["seed"],
                   help="seed of the source sample and of every choice; the same seed gives the same corpus")
    b.add_argument("--rules", metavar="DIR", help="rules directory (default: the project's rules/)")
    b.add_argument("--out", default="build/default", metavar="DIR", help="output directory")
    add_force(b)
    b.add_argument("--all-candidates", action="store_true", help="also write candidates.tsv")
    b.add_argument("--skip-bad-lines", action="store_true",
                   help="record malformed input lines in dropped.tsv instead of stopping")
    b.add_argument("--unrelated-share", type=share, default=BUILD_DEFAULTS["unrelated_share"],
                   help="share of unrelated pairs in the final corpus (default 0.122, as SICK)")
    b.add_argument("--combine-rate", type=probability, default=BUILD_DEFAULTS["combine_rate"],
                   help="probability of keeping a combined (multi-rule) expansion when one exists")
    b.add_argument("--workers", type=positive_int, default=default_workers(), metavar="N",
                   help="normalize and expand in N processes; the output is the same (default: the cores "
                        f"this process may use, at most {MAX_DEFAULT_WORKERS}; here {default_workers()})")
    b.add_argument("--quiet", action="store_true", help="no progress bars or summary")
    b.set_defaults(func=cmd_build)

    sm = sub.add_parser("sample", help="random sentences of a build per slot, for a person to read",
                        description="Writes a TSV (slot group source_sentence sentence rules verdict) with "
                                    "--per-slot random S1, S2, S3 and S4 sentences of a build and their source "
                                    "sentences (S0 for S1, S1 for S2-S4); the verdict column is left for the reader.")
    sm.add_argument("--build", required=True, metavar="DIR", help="a directory written by sick build")
    sm.add_argument("--per-slot", type=positive_int, default=50, metavar="N", help="sentences drawn per slot S1-S4")
    sm.add_argument("--seed", type=int, default=1, help="seed of the draw; the same seed gives the same sample")
    sm.add_argument("--out", required=True, metavar="FILE", help="TSV to write, one sentence a row")
    sm.set_defaults(func=cmd_sample)

    for name, func, what in (("normalize", cmd_normalize, "S0 -> S1 (Table 2)"),
                             ("expand", cmd_expand, "S1 -> S2/S3/S4 candidates (Table 3)")):
        s = sub.add_parser(name, help=f"run one stage: {what}",
                           description=f"{what} on one sentence per line (or a TSV with a 'sentence' column); "
                                       "writes a TSV for auditing rules.")
        s.add_argument("input", metavar="IN")
        s.add_argument("output", metavar="OUT")
        s.add_argument("--rules", metavar="DIR", help="rules directory (default: the project's rules/)")
        s.add_argument("--quiet", action="store_true", help="no progress bar")
        if name == "expand":
            s.add_argument("--seed", type=int, default=BUILD_DEFAULTS["seed"], help="seed of the choice per family")
            s.add_argument("--combine-rate", type=probability, default=BUILD_DEFAULTS["combine_rate"],
                           help="probability of choosing a combined (multi-rule) expansion when one exists")
        s.set_defaults(func=func)

    u = sub.add_parser("setup", help="prepare WordNet for NLTK and check the spaCy model loads",
                       description="Done on first use anyway; run it once after installing, e.g. from a wheel. "
                                   "WordNet goes into $SICK_CACHE_DIR, the environment's share/sick-pipeline, or "
                                   "~/.cache/sick-pipeline when the environment is read-only.")
    u.set_defaults(func=cmd_setup)
