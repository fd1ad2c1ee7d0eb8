"""Pyramid paraphrase tests: one-hot, random (chance) and embedding encoders side by side with the paper's figures
(Baumel, Cohen & Elhadad 2016, Table 1; DUC 2005-2007). Run: ``python tests/bench_pyramid.py``.

Builds the tests from ``../shared/data/pyramids`` (DUC 2006 + 2007, seed 0) into a temporary folder and evaluates
each encoder with seed 0; the embedding row needs the ``[embed]`` extra and reads n/a without it. Prints the
build and evaluation times. Exit status 1 when the shared data is absent.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PYRAMIDS = ROOT.parent / "shared" / "data" / "pyramids"
# Baumel et al. 2016, Table 1: (F, success rate, MRR); the paper has no all-MiniLM-L6-v2 row
PAPER = {"one-hot": (0.263, 0.640, 0.772), "random": (0.041, 0.247, 0.522), "embedding": None}


def main() -> int:
    if not PYRAMIDS.is_dir():
        print(f"bench_pyramid: {PYRAMIDS} not found; nothing measured")
        return 1
    from pipeline.common.errors import SickError
    from pipeline.pyramid.reader import read_pyramids
    from pipeline.pyramid.tests import build_tests, evaluate, make_encoder, read_tests, write_tests

    t0 = time.perf_counter()
    pyramids, _ = read_pyramids([PYRAMIDS])
    binary, questions, stats = build_tests(pyramids, seed=0)
    with tempfile.TemporaryDirectory() as d:
        write_tests(Path(d) / "tests", binary, questions, stats)
        binary, questions = read_tests(Path(d) / "tests")
    t1 = time.perf_counter()
    print(f"pyramid tests: {stats['pyramids']} pyramids, {stats['scus']} SCUs -> {stats['pairs']} pairs "
          f"({stats['positives']} positive, {stats['negatives']} negative), {stats['questions']} questions; "
          f"built in {t1 - t0:.1f} s")
    print(f"{'encoder':<10} {'F':>6} {'success':>8} {'MRR':>6}   {'paper F':>7} {'success':>8} {'MRR':>6}   time")
    for kind in ("one-hot", "random", "embedding"):
        t2 = time.perf_counter()
        try:
            res = evaluate(binary, questions, make_encoder(kind, 0), seed=0)
            ours = f"{res['f_measure']:>6.3f} {res['success_rate']:>8.3f} {res['mrr']:>6.3f}"
        except SickError as exc:  # the [embed] extra is not installed
            ours = f"{'n/a':>6} {'n/a':>8} {'n/a':>6}"
            print(f"  ({kind}: {exc})")
        paper = PAPER[kind]
        theirs = f"{paper[0]:>7.3f} {paper[1]:>8.3f} {paper[2]:>6.3f}" if paper else f"{'-':>7} {'-':>8} {'-':>6}"
        print(f"{kind:<10} {ours}   {theirs}   {time.perf_counter() - t2:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
