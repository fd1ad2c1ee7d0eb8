"""Recall on SICK's own sentences: do our rules still make what SICK's authors made? Not a test, a report.

Issue 11 asks that precision gained on our builds not cost recall on SICK's own normalizations and
expansions. SICK's release has no S0 -> S1 -> S2/S3/S4 links, so two proxies are measured:

1. Normalization: SICK's SEMEVAL sentences were normalized from MSR-Video descriptions (Marelli et al. 2014,
   section 3.1). For each MSR-Video sentence (STS 2012 train and test), the SICK sentence closest to it
   (difflib ratio on lower-cased words, at least ``--min-ratio``) is taken as its S1; the report is the share of
   those for which our normalization gives that sentence exactly (case and final full stop ignored), and the
   share our rules drop.
2. Expansion: for each SICK train pair (A, B), whether B is among our S2/S3/S4 candidates of A, or A among
   those of B (SICK pairs each S1 with its own expansions: Table 5's similar, contrasting and lexical-overlap
   pairs). The report counts hits per family and rule.

Both are proxies: compare the figures between two versions of the rules, not with a target.

Usage (from the project root)::

    python tests/measure_sick_recall.py [--min-ratio 0.85]
"""

from __future__ import annotations

import argparse
import csv
import difflib
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's code
DATA = ROOT.parent / "shared" / "data"


def words(text: str) -> str:
    return " ".join(text.lower().rstrip(" .").replace(",", " ,").split())


def sick_pairs() -> list[tuple[str, str]]:
    with (DATA / "sick2014" / "SICK_train.txt").open(encoding="utf-8") as f:
        return [(r["sentence_A"], r["sentence_B"]) for r in csv.DictReader(f, delimiter="\t")]


def msr_sentences() -> list[str]:
    out = []
    for part in ("train", "test"):
        with (DATA / "sts2012_msrvid" / part / "STS.input.MSRvid.txt").open(encoding="utf-8") as f:
            for line in f:
                out.extend(line.rstrip("\n").split("\t")[:2])
    return list(dict.fromkeys(out))


def normalization_recall(min_ratio: float, ruleset, show: bool = False) -> None:
    from pipeline.corpus.normalize import normalize_texts

    sick = sorted({words(s) for p in sick_pairs() for s in p})
    index: dict[str, set[int]] = {}
    for k, s in enumerate(sick):
        for w in set(s.split()):
            index.setdefault(w, set()).add(k)
    matched = {}
    for s0 in msr_sentences():
        w = words(s0)
        shared = Counter(k for x in set(w.split()) for k in index.get(x, ()))
        best, score = None, min_ratio
        near = sorted(shared.items(), key=lambda kv: (-kv[1], kv[0]))[:30]
        for s in (sick[k] for k, _ in near):  # the closest SICK sentence, when close enough
            m = difflib.SequenceMatcher(None, w, s)
            if m.real_quick_ratio() >= score and m.quick_ratio() >= score and m.ratio() >= score:
                best, score = s, m.ratio()
        if best is not None:
            matched[s0] = best
    texts = list(matched)
    results = normalize_texts(texts, ruleset)
    same = sum(r.status != "dropped" and words(r.output) == matched[t] for t, r in zip(texts, results))
    dropped = sum(r.status == "dropped" for r in results)
    if show:
        for t, r in zip(texts, results):
            if r.status == "dropped" or words(r.output) != matched[t]:
                print(f"  S0 {t!r}\n    ours {r.output or r.reason!r}\n    SICK {matched[t]!r}")
    print(f"normalization: {len(texts)} MSR-Video sentences with a SICK sentence at ratio >= {min_ratio}: "
          f"{same} ({100 * same / len(texts):.1f} %) normalized to it exactly, {dropped} dropped")


def expansion_recall(ruleset) -> None:
    from pipeline.corpus.expand import expand_texts

    pairs = sick_pairs()
    texts = sorted({s for p in pairs for s in p})
    cands = dict(zip(texts, expand_texts(texts, ruleset)))
    outputs = {t: {words(c.output): c for c in cs} for t, cs in cands.items()}
    hits: Counter = Counter()
    rules: Counter = Counter()
    for a, b in pairs:
        c = outputs[a].get(words(b)) or outputs[b].get(words(a))
        if c is not None:
            hits[c.family] += 1
            rules.update(c.rules)
    total = sum(hits.values())
    print(f"expansion: {total} of {len(pairs)} SICK train pairs ({100 * total / len(pairs):.1f} %) are one "
          f"sentence and one of our candidates of the other; by family: "
          + ", ".join(f"{f} {n}" for f, n in sorted(hits.items())))
    print("  by rule: " + ", ".join(f"{r} {n}" for r, n in rules.most_common()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--min-ratio", type=float, default=0.85)
    ap.add_argument("--show", action="store_true", help="print the sentences our normalization misses")
    args = ap.parse_args()
    if not (DATA / "sick2014" / "SICK_train.txt").exists():
        print(f"skipped: real data not found under {DATA}")
        return 0
    from pipeline.corpus.rules import load_rules

    ruleset = load_rules()
    normalization_recall(args.min_ratio, ruleset, args.show)
    if not args.show:
        expansion_recall(ruleset)
    return 0


if __name__ == "__main__":
    sys.exit(main())
