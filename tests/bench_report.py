"""Time ``sick report`` on a 10,000-pair corpus (target: under 10 s). Run: ``python tests/bench_report.py``.

The corpus is sampled (with a fixed seed) from the SemEval-2014 release files in ``../shared/data/sick2014``
when present, else generated; each row gets our provenance columns (pair_type, set, expected_relation,
rules_A/rules_B, SemEval_set) so that every table of the report is computed.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SICK = ROOT.parent / "shared" / "data" / "sick2014"
N = 10_000
PAIR_TYPES = [("S1aS1b", "cross", "similar"), ("S1aS2a", "same", "similar"), ("S1aS2b", "cross", "similar"),
              ("S1aS3a", "same", "contrasting"), ("S1bS3a", "cross", "contrasting"),
              ("S1aS4a", "same", "lexical-overlap"), ("S1bS4a", "cross", "lexical-overlap"),
              ("unrelated", "unrelated", "unrelated")]
RULES = ["", "present-continuous", "possessive-pronoun", "active-to-passive", "negation-insert determiner-similar",
         "swap-subject-object", "synonym-wordnet", "there-is-no"]


def make_corpus(path: Path, n: int = N, seed: int = 1) -> str:
    rng = np.random.default_rng(seed)
    files = [SICK / f for f in ("SICK_train.txt", "SICK_trial.txt", "SICK_test_annotated.txt")]
    if all(f.exists() for f in files):
        from pipeline.common.corpus_io import read_corpus

        real = read_corpus(files)
        df = real.iloc[rng.integers(0, len(real), n)].reset_index(drop=True)
        origin = "sampled from the SemEval-2014 release files"
    else:
        words = np.array("a man dog woman is running playing the in park ball guitar with child".split())
        sent = lambda: " ".join(rng.choice(words, 8))  # noqa: E731
        df = pd.DataFrame({"sentence_A": [sent() for _ in range(n)], "sentence_B": [sent() for _ in range(n)],
                           "relatedness_score": rng.uniform(1, 5, n).round(1),
                           "entailment_label": rng.choice(["NEUTRAL", "ENTAILMENT", "CONTRADICTION"], n)})
        origin = "generated"
    df["pair_ID"] = np.arange(1, n + 1)
    pt = rng.integers(0, len(PAIR_TYPES), n)
    df["pair_type"] = [PAIR_TYPES[i][0] for i in pt]
    df["set"] = [PAIR_TYPES[i][1] for i in pt]
    df["expected_relation"] = [PAIR_TYPES[i][2] for i in pt]
    df["rules_A"] = rng.choice(RULES, n)
    df["rules_B"] = rng.choice(RULES, n)
    df["SemEval_set"] = rng.choice(["TRAIN", "TRIAL", "TEST"], n, p=[0.45, 0.05, 0.5])
    cols = ["pair_ID", "sentence_A", "sentence_B", "entailment_label", "relatedness_score", "SemEval_set",
            "pair_type", "set", "expected_relation", "rules_A", "rules_B"]
    df[cols].to_csv(path, sep="\t", index=False, lineterminator="\n")
    return origin


def main() -> int:
    with tempfile.TemporaryDirectory() as d:
        corpus = Path(d) / "corpus.tsv"
        origin = make_corpus(corpus)
        t0 = time.perf_counter()
        from pipeline.report.tables import write_report

        t1 = time.perf_counter()
        res = write_report(corpus, Path(d) / "report")
        t2 = time.perf_counter()
        total = t2 - t0
        print(f"sick report: {res['n_pairs']} pairs ({origin}): {t2 - t1:.2f} s report "
              f"+ {t1 - t0:.2f} s import = {total:.2f} s (target < 10 s) "
              f"{'OK' if total < 10 else 'TOO SLOW'}")
        return 0 if total < 10 else 1


if __name__ == "__main__":
    sys.exit(main())
