"""The SemEval-2014 Task 1 baselines (Marelli et al. 2014, task paper Table 5 / SICK paper Table 10).

``sick baseline {chance,majority,probability,overlap} --train TRAIN --test TEST [--seed S] [--runs R] --out RUN``

Each writes a submission (``pair_ID entailment_judgment relatedness_score``, tab-separated) for the pairs of TEST,
and, when TEST carries gold annotations, prints its scores (through :func:`pipeline.score_semeval.score`).

* ``chance``: relatedness uniform in [1, 5], labels uniform over CONTRADICTION/ENTAILMENT/NEUTRAL.
* ``majority``: every pair gets the most frequent TRAIN label (ties: alphabetical first); relatedness ``NA``
  (not applicable, as in the paper).
* ``probability``: labels drawn independently from the TRAIN label distribution; relatedness ``NA``.
* ``overlap``: the organisers' ``compute_overlap_baseline.py``: lower-cased tokens ``[\\w]+|[^\\s\\w]+``; the
  ``--stop-count`` (3) most frequent tokens of the INPUT (test) file are stop words (ties in frequency keep
  first-seen order, as the original under Python 3); overlap = |A & B| / max(|A|, |B|) over distinct tokens
  (1 when both are empty); ENTAILMENT when overlap >= 0.56, CONTRADICTION when <= 0.03, NEUTRAL otherwise.
  Relatedness: by default the raw overlap in [0, 1], exactly as the official baseline (its derived outputs and
  its official MSE ~10 are on that scale; Pearson/Spearman are unaffected by any linear map). ``--rescale``
  writes ``1 + 4 * overlap`` instead (the gold 1-5 range; lowers MSE, leaves r unchanged).
  ``--format sts`` reads an STS input file (``sentence1 TAB sentence2 [...]``, no header, no IDs) and writes one
  score per line: ``5 * overlap`` (the STS 0-5 scale). STS scorers can also call :func:`overlap_scores`.

Random baselines use ``numpy.random.default_rng(seed + run)`` for run 0..R-1; the file written is run 0's and the
printed figures are means (and sd) over the R runs.
"""

from __future__ import annotations

__all__ = ["TOKEN", "chance", "label_distribution", "majority", "overlap", "overlap_label", "overlap_scores",
           "overlap_sts", "probability_baseline", "read_sts_input", "run_baseline", "stop_words", "tokens",
           "write_score_lines", "write_submission"]

import re
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np

from pipeline.common.errors import InputError
from pipeline.common.files import atomic_file, write_tsv
from pipeline.corpus.sources import read_lines
from pipeline.evaluate.semeval import LABELS, r_format, read_sick, score

TOKEN = re.compile(r"[\w]+|[^\s\w]+")
SUBMISSION_COLUMNS = ["pair_ID", "entailment_judgment", "relatedness_score"]


def tokens(sentence: str) -> list[str]:
    """Lower-cased tokens: runs of word characters, or runs of other non-space characters."""
    return TOKEN.findall(sentence.lower())


def stop_words(pairs_a: Sequence[str], pairs_b: Sequence[str], stop_count: int = 3) -> set[str]:
    """The ``stop_count`` most frequent tokens over all sentences (A then B of each pair, in order).

    Ties in frequency keep first-seen order (Python's stable sort, as the original script under Python 3).
    """
    freqs: dict[str, int] = {}
    for a, b in zip(pairs_a, pairs_b):
        for s in (a, b):
            for t in tokens(s):
                freqs[t] = freqs.get(t, 0) + 1
    if stop_count < 0:
        raise ValueError("stop_count must be >= 0")
    if stop_count and stop_count >= len(freqs):
        raise ValueError(f"stop_count {stop_count} must be below the number of distinct tokens ({len(freqs)})")
    return set(sorted(freqs, key=lambda w: freqs[w], reverse=True)[:stop_count]) if stop_count else set()


def overlap_scores(pairs_a: Sequence[str], pairs_b: Sequence[str], stop_count: int = 3,
                   stop: set[str] | None = None) -> list[float]:
    """Word overlap of each pair (``pairs_a[i]``, ``pairs_b[i]``), in [0, 1].

    |A & B| / max(|A|, |B|) over distinct lower-cased tokens minus stop words; 1.0 when both sets are empty.
    Stop words are the ``stop_count`` most frequent tokens of the given sentences unless ``stop`` is given.
    Multiply by 5 for the STS scale.
    """
    if len(pairs_a) != len(pairs_b):
        raise ValueError(f"{len(pairs_a)} first sentences but {len(pairs_b)} second sentences")
    if stop is None:
        stop = stop_words(pairs_a, pairs_b, stop_count)
    out = []
    for a, b in zip(pairs_a, pairs_b):
        sa, sb = set(tokens(a)) - stop, set(tokens(b)) - stop
        longer = max(len(sa), len(sb))
        out.append(1.0 if longer == 0 else len(sa & sb) / longer)
    return out


def overlap_label(overlap: float, contradiction: float = 0.03, entailment: float = 0.56) -> str:
    if overlap >= entailment:
        return "ENTAILMENT"
    if overlap > contradiction:
        return "NEUTRAL"
    return "CONTRADICTION"


# --- baselines on SICK rows -> submission rows -----------------------------------------------------------

def chance(test_rows, rng, labels=LABELS) -> list[dict]:
    rel = rng.uniform(1.0, 5.0, size=len(test_rows))
    lab = rng.choice(list(labels), size=len(test_rows))
    return [{"pair_ID": r["pair_ID"], "entailment_judgment": str(lb), "relatedness_score": repr(float(s))}
            for r, lb, s in zip(test_rows, lab, rel)]


def label_distribution(train_rows) -> dict[str, float]:
    if "entailment_judgment" not in train_rows[0]:
        raise ValueError("train file has no entailment_judgment column")
    c = Counter(r["entailment_judgment"] for r in train_rows)
    n = sum(c.values())
    return {k: c[k] / n for k in sorted(c)}


def majority(test_rows, train_rows) -> list[dict]:
    c = Counter(r["entailment_judgment"] for r in train_rows)
    label = sorted(c, key=lambda k: (-c[k], k))[0]
    return [{"pair_ID": r["pair_ID"], "entailment_judgment": label, "relatedness_score": "NA"} for r in test_rows]


def probability_baseline(test_rows, train_rows, rng) -> list[dict]:
    dist = label_distribution(train_rows)
    lab = rng.choice(list(dist), size=len(test_rows), p=list(dist.values()))
    return [{"pair_ID": r["pair_ID"], "entailment_judgment": str(lb), "relatedness_score": "NA"}
            for r, lb in zip(test_rows, lab)]


def overlap(test_rows, stop_count=3, contradiction=0.03, entailment=0.56, rescale=False) -> list[dict]:
    ov = overlap_scores([r["sentence_A"] for r in test_rows], [r["sentence_B"] for r in test_rows], stop_count)
    out = []
    for r, o in zip(test_rows, ov):
        rel = 1 + 4 * o if rescale else o
        out.append({"pair_ID": r["pair_ID"], "entailment_judgment": overlap_label(o, contradiction, entailment),
                    "relatedness_score": repr(float(rel))})
    return out


def read_sts_input(path) -> tuple[list[str], list[str]]:
    """First two tab-separated fields of each line of an STS input file (quoting off, no header; LF or CRLF)."""
    lines = list(read_lines(path))
    if lines[-1][1] == "":
        lines.pop()  # final newline (or an empty file)
    a, b = [], []
    for n, line in lines:
        fields = line.split("\t")
        if len(fields) < 2:
            raise InputError(path, "expected sentence1 TAB sentence2", line=n)
        a.append(fields[0].strip())
        b.append(fields[1].strip())
    if not a:
        raise InputError(path, "no sentence pairs")
    return a, b


def overlap_sts(input_path, stop_count: int = 3) -> list[float]:
    """STS-scale overlap (5 * overlap) for each line of an STS input file."""
    a, b = read_sts_input(input_path)
    try:
        return [5 * o for o in overlap_scores(a, b, stop_count)]
    except ValueError as exc:
        raise InputError(input_path, str(exc)) from None


# --- command line ---------------------------------------------------------------------------------------------

def write_submission(path, rows: Iterable[dict]) -> None:
    """A SemEval-2014 Task 1 submission: header and one row per pair (:data:`SUBMISSION_COLUMNS`, values
    written as given: callers format the numbers), tab-separated, written atomically."""
    with atomic_file(path) as tmp:
        write_tsv(tmp, list(rows), SUBMISSION_COLUMNS)


def write_score_lines(path, scores: Iterable[float], fmt: Callable[[float], str] = repr) -> None:
    """STS answers: one ``fmt(score)`` per line (LF), in input order, written atomically."""
    with atomic_file(path) as tmp:
        Path(tmp).write_text("".join(f"{fmt(s)}\n" for s in scores), encoding="utf-8")


def _summary(results: list[dict]) -> str:
    lines = [f"gold        {results[0]['gold']}  (sha256 {results[0]['gold_sha256'][:12]}, "
             f"{results[0]['pairs']} pairs), {len(results)} run(s)"]
    for key, metric, unit in (("entailment", "accuracy", "%"), ("relatedness", "pearson", ""),
                              ("relatedness", "spearman", ""), ("relatedness", "mse", "")):
        vals = [r[key][metric] for r in results if r[key] is not None]
        if not vals:
            continue
        extra = f"  (sd {r_format(float(np.std(vals, ddof=1)))} over {len(vals)} runs)" if len(vals) > 1 else ""
        lines.append(f"{key:<11} {metric:<9} {r_format(float(np.mean(vals)))}{unit}{extra}")
    return "\n".join(lines)


def run_baseline(method: str, test, train=None, out=None, seed: int = 1, runs: int = 1, stop_count: int = 3,
                 contradiction: float = 0.03, entailment: float = 0.56, rescale: bool = False) -> list[dict]:
    """Run a baseline on SICK files; write run 0's submission to ``out`` (if given).

    Returns the scorer's result for each run (empty when TEST has no gold annotations).
    """
    test_rows = read_sick(test)
    train_rows = read_sick(train) if train else None
    if method in ("majority", "probability"):
        if train_rows is None:
            raise InputError("--train", f"the {method} baseline needs a training file")
        if "entailment_judgment" not in train_rows[0]:
            raise InputError(train, "no entailment_judgment column to learn labels from")
    n_runs = runs if method in ("chance", "probability") else 1
    annotated = "entailment_judgment" in test_rows[0] and "relatedness_score" in test_rows[0]
    results = []
    for run in range(n_runs):
        rng = np.random.default_rng(seed + run)
        if method == "chance":
            rows = chance(test_rows, rng)
        elif method == "majority":
            rows = majority(test_rows, train_rows)
        elif method == "probability":
            rows = probability_baseline(test_rows, train_rows, rng)
        elif method == "overlap":
            try:
                rows = overlap(test_rows, stop_count, contradiction, entailment, rescale)
            except ValueError as exc:
                raise InputError(test, str(exc)) from None
        else:
            raise ValueError(f"unknown baseline {method!r}")
        if run == 0 and out:
            write_submission(out, rows)
        if annotated:
            import tempfile
            with tempfile.TemporaryDirectory() as d:
                sub = out if (run == 0 and out) else Path(d) / "run.txt"
                if sub != out:
                    write_submission(sub, rows)
                results.append(score(test, sub))
    return results
