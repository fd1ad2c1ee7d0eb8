"""The ``sick`` command line.

``sick build`` runs the whole job (:mod:`pipeline.build`); ``sick normalize IN OUT`` and ``sick expand IN OUT``
run one stage on any text so that a rule author can audit rules. Errors in input or rules print one line
naming file, line and field, and exit with status 2; nothing is written then.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .argtypes import positive_int, probability, share
from .errors import InputError, SickError
from .sources import SourceSpec, read_lines


def _filters(values: list[str]) -> tuple[tuple[str, str], ...]:
    out = []
    for v in values or []:
        key, sep, val = v.partition("=")
        if not sep or not key:
            raise InputError("--filter", f"expected KEY=VALUE, got {v!r}")
        out.append((key, val))
    return tuple(out)


def read_sentences(path: str) -> list[str]:
    """Sentences of a stage input: one per line, or a TSV whose header has a ``sentence`` column.

    Raises:
        InputError: missing file, bad UTF-8, a TSV line without the ``sentence`` field, or no sentence at all.
    """
    lines = list(read_lines(path))
    col = None
    if lines and "sentence" in lines[0][1].split("\t"):
        col = lines[0][1].split("\t").index("sentence")
        lines = lines[1:]
    out = []
    for n, line in lines:
        if not line.strip():
            continue
        if col is not None:
            fields = line.split("\t")
            if len(fields) <= col:
                raise InputError(path, "line has no 'sentence' field", line=n, field="sentence")
            line = fields[col]
        if line.strip():
            out.append(" ".join(line.split()))
    if not out:
        raise InputError(path, "no sentences found")
    return out


def cmd_build(args) -> int:
    from .build import DEFAULT_INPUT, BuildConfig, build

    filters = _filters(args.filter)
    sources = [SourceSpec.parse(s, filters) for s in (args.source or [f"tsv:{DEFAULT_INPUT}"])]
    cfg = BuildConfig(sources=sources, out=Path(args.out), pairs_per_source=args.pairs_per_source,
                      seed=args.seed, rules_dir=Path(args.rules) if args.rules else None,
                      all_candidates=args.all_candidates, skip_bad_lines=args.skip_bad_lines, quiet=args.quiet,
                      unrelated_share=args.unrelated_share, combine_rate=args.combine_rate)
    build(cfg)
    return 0


def cmd_normalize(args) -> int:
    from .normalize import normalize_texts
    from .outputs import atomic_file, write_tsv
    from .rules import load_rules

    ruleset = load_rules(args.rules)
    texts = read_sentences(args.input)
    results = normalize_texts(texts, ruleset, progress=not args.quiet, total=len(texts))
    rows = [{"input": r.input, "output": r.output, "rules": " ".join(r.rules), "status": r.status,
             "reason": r.reason} for r in results]
    with atomic_file(args.output) as tmp:
        write_tsv(tmp, rows, ["input", "output", "rules", "status", "reason"])
    return 0


def cmd_expand(args) -> int:
    from .expand import choose, expand_texts
    from .outputs import atomic_file, write_tsv
    from .rules import FAMILIES, load_rules

    ruleset = load_rules(args.rules)
    texts = read_sentences(args.input)
    rows = []
    for text, cands in zip(texts, expand_texts(texts, ruleset, progress=not args.quiet, total=len(texts))):
        chosen = choose(cands, text, args.seed, args.combine_rate, ruleset.weights())
        for fam in FAMILIES:
            fam_cands = [c for c in cands if c.family == fam]
            for c in fam_cands:
                rows.append({"input": text, "family": fam, "output": c.output, "rules": " ".join(c.rules),
                             "status": "chosen" if chosen.get(fam) == c else "candidate"})
            if not fam_cands:
                rows.append({"input": text, "family": fam, "output": "", "rules": "", "status": "no candidate"})
    with atomic_file(args.output) as tmp:
        write_tsv(tmp, rows, ["input", "family", "output", "rules", "status"])
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="sick", description="Build SICK-style sentence-pair benchmarks.")
    sub = p.add_subparsers(dest="command", required=True)

    b = sub.add_parser("build", help="build a corpus from source caption pairs",
                       description="sources -> normalize -> expand -> pair -> dedup -> write (Marelli et al. 2014, "
                                   "section 3). Without --source, builds the bundled default input.")
    b.add_argument("--source", action="append", metavar="KIND:PATH",
                   help="input: flickr8k:, sts:, stsb: or tsv: followed by a path (repeatable)")
    b.add_argument("--filter", action="append", metavar="KEY=VALUE",
                   help="keep only stsb rows with this field value, e.g. genre=main-captions")
    b.add_argument("--pairs-per-source", type=positive_int, default=750, metavar="N",
                   help="source pairs drawn per source with the seed (default 750, as SICK)")
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--rules", metavar="DIR", help="rules directory (default: the project's rules/)")
    b.add_argument("--out", default="build/default", metavar="DIR")
    b.add_argument("--all-candidates", action="store_true", help="also write candidates.tsv")
    b.add_argument("--skip-bad-lines", action="store_true",
                   help="record malformed input lines in dropped.tsv instead of stopping")
    b.add_argument("--unrelated-share", type=share, default=0.122,
                   help="share of unrelated pairs in the final corpus (default 0.122, as SICK)")
    b.add_argument("--combine-rate", type=probability, default=0.3,
                   help="probability of keeping a combined (multi-rule) expansion when one exists")
    b.add_argument("--quiet", action="store_true", help="no progress bars or summary")
    b.set_defaults(func=cmd_build)

    for name, func, what in (("normalize", cmd_normalize, "S0 -> S1 (Table 2)"),
                             ("expand", cmd_expand, "S1 -> S2/S3/S4 candidates (Table 3)")):
        s = sub.add_parser(name, help=f"run one stage: {what}",
                           description=f"{what} on one sentence per line (or a TSV with a 'sentence' column); "
                                       "writes a TSV for auditing rules.")
        s.add_argument("input", metavar="IN")
        s.add_argument("output", metavar="OUT")
        s.add_argument("--rules", metavar="DIR")
        s.add_argument("--quiet", action="store_true")
        if name == "expand":
            s.add_argument("--seed", type=int, default=1)
            s.add_argument("--combine-rate", type=probability, default=0.3)
        s.set_defaults(func=func)

    from . import (aggregate, baselines, embedding, labels, pyramid_tests, report, score_semeval, score_sts,
                   simulate, tasks)

    tasks.add_parser(sub)
    simulate.add_parser(sub)
    aggregate.add_parser(sub)
    labels.add_parser(sub)
    report.add_parser(sub)
    score = sub.add_parser("score", help="score a system: SemEval-2014 Task 1, STS 2012-2016, STS Benchmark",
                           description="Score system output the way the official scorers did (see each "
                                       "sub-command's --help).")
    score_kinds = score.add_subparsers(dest="score_kind", required=True)
    score_semeval.add_semeval_parser(score_kinds)
    score_sts.add_sts_parsers(score_kinds)
    embedding.add_embedding_parser(baselines.add_parser(sub))
    pyramid_tests.add_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except SickError as exc:
        print(f"sick: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
