"""``sick aggregate``: raw crowd judgments -> SICK gold (Marelli et al. 2014, LREC, section 3.4).

SICK's gold came from 10 judgments per pair, 5 in each presentation order (A first: ``AB``; B first: ``BA``), each a
relatedness rating 1-5 and an answer to "if the first sentence is true, the second is TRUE / UNKNOWN (cannot say) /
FALSE". :func:`aggregate` turns our judgment table (:mod:`pipeline.judgments`) into that gold:

1. **Quality control first.** A control item (``annotations/controls.yaml``, ids ``CTRL-xxx``; ``CTRL-001#2`` is
   ``CTRL-001`` used again) has a known answer per order and optionally the range its mean rating should fall
   in. A control judgment is *correct* when its answer is the known answer of its order (with
   ``check_control_relatedness``, its rating must also lie in the range; off by default, since the range is
   about the mean: the mean rating of each control over kept workers is checked instead). A worker's
   ``control_accuracy`` = correct / seen; workers under ``min_control_accuracy`` (default 0.7) are excluded:
   none of their judgments is used. Workers who saw no control are kept (accuracy empty). Control judgments
   never enter the gold.
2. **Relatedness** of a pair: mean of all its ratings, both orders (as
   :func:`pipeline.crowd.estimators.numeric_summary`), and their SD with ``sd_ddof`` (default 1 = R's ``sd``).
   The corpus figure is the mean SD over pairs with a defined SD (the paper reports 0.76).
3. **Entailment per order**: the majority answer of the order's judgments (as
   :func:`pipeline.crowd.estimators.majority_vote`), written ``A_entails_B | A_neutral_B | A_contradicts_B`` for AB
   (TRUE / UNKNOWN / FALSE) and ``B_entails_A | B_neutral_A | B_contradicts_A`` for BA. **Ties** (two answers
   with the same highest count, e.g. 2-2-1 of 5) follow ``ties``: ``"neutral"`` (default: the crowd did not
   decide, so the order is neutral, UNKNOWN), ``"random"`` (one of the tied answers, drawn from ``seed``, the
   pair's corpus row and the order alone), or ``"none"`` (the order gets ``-``, no decision). With
   ``method="dawid-skene"`` the answers of both orders are aggregated by Dawid & Skene
   (:func:`pipeline.crowd.estimators.dawid_skene`, one confusion matrix per worker over items = pair x order)
   instead; the majority is still computed and compared.
4. **Gold label**, SICK's rule (:func:`gold_label`): ENTAILMENT when AB is ``A_entails_B``; CONTRADICTION when AB
   is ``A_contradicts_B`` and BA is ``B_contradicts_A``; NEUTRAL otherwise. Where the rule needs an order that
   has no judgment the label is empty, and ``-`` where it needs an order left undecided by ``ties="none"``.
   Mutual entailment (both orders entail) and one-way entailment (one order only) are counted.
5. **Agreement**: mean SD; mean per-pair share of the majority answer (the paper's .84; per pair, the votes
   of the most voted answer of each order over all the pair's votes); Krippendorff's alpha
   (:func:`pipeline.crowd.estimators.krippendorff_alpha`'s computation), interval over the ratings of each pair
   and nominal over the answers of each (pair, order).

Speed (issue 14): every column is coded to integers once (:func:`_clean`: pair_IDs by corpus row with pyarrow's
hash lookup, workers, orders and answers by index), and every step after that counts codes with ``np.bincount``
(per pair, per (pair, order) item, per worker); strings are made only for the output columns, each distinct value
once. 1,020,000 judgments of 100,000 pairs take a fraction of a second (``tests/bench_aggregate.py``).

Outputs (:func:`write_outputs`, one directory written atomically): ``gold.tsv`` (the corpus rows with
``entailment_label relatedness_score entailment_AB entailment_BA`` filled, plus ``relatedness_sd n_ratings
majority_share``), ``workers.tsv``, ``agreement.json`` and ``rejected.tsv`` (judgment rows the reader kept out).
``relatedness_score`` is the mean rounded to 3 decimals and written without trailing zeros, as SICK writes it
(``4.5``, ``4``; a mean of 10 ratings never has more than one decimal, of 9 ratings it has 3);
``relatedness_sd`` and ``majority_share`` have 3 decimals (``tests/test_aggregate.py`` checks the score format
against all 9,927 scores of the SemEval-2014 release). ``workers.tsv``: ``worker_id judgments`` (all rows)
``item_judgments`` (non-control) ``controls_seen controls_correct control_accuracy majority_agreement`` (share of
the worker's item answers equal to the final answer of that pair and order: a quality signal that needs no
controls) ``excluded`` (``true``/``false``). The same inputs and options give byte-identical files.
"""

from __future__ import annotations

__all__ = ["AggregateResult", "DIRECTION_LABELS", "METHODS", "TIES", "aggregate", "gold_label", "gold_labels",
           "normalize_answer", "write_outputs"]

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.common.files import atomic_dir, write_json, write_tsv
from pipeline.common.options import AGGREGATION_METHODS, TIES
from pipeline.crowd import estimators
from pipeline.crowd.judgments import (
    ANSWERS,
    CONTROL_REPEAT_SEP,
    JUDGMENT_COLUMNS,
    ORDERS,
    REJECTED_COLUMNS,
    control_base_id,
)

METHODS = AGGREGATION_METHODS
NO_DECISION = estimators.NO_LABEL
SYNTHETIC_WORKER_PREFIX = "synthetic-w"
"""Worker ids of simulated judgments (:data:`pipeline.crowd.simulate.WORKER_PREFIX`)."""
PAPER = {"mean_sd": 0.76, "majority_share": 0.84}
"""Marelli et al. 2014, section 4: mean SD of the relatedness ratings and mean share of the majority answer."""

DIRECTION_LABELS = {
    "AB": {"TRUE": "A_entails_B", "UNKNOWN": "A_neutral_B", "FALSE": "A_contradicts_B"},
    "BA": {"TRUE": "B_entails_A", "UNKNOWN": "B_neutral_A", "FALSE": "B_contradicts_A"},
}
GOLD_COLUMNS = ["entailment_label", "relatedness_score", "entailment_AB", "entailment_BA"]
EXTRA_COLUMNS = ["relatedness_sd", "n_ratings", "majority_share"]
WORKER_COLUMNS = ["worker_id", "judgments", "item_judgments", "controls_seen", "controls_correct",
                  "control_accuracy", "majority_agreement", "excluded"]
_ANSWER_ALIASES = {
    "TRUE": "TRUE", "T": "TRUE", "YES": "TRUE", "ENTAILS": "TRUE", "ENTAILMENT": "TRUE", "A_ENTAILS_B": "TRUE",
    "B_ENTAILS_A": "TRUE",
    "UNKNOWN": "UNKNOWN", "NEUTRAL": "UNKNOWN", "CAN'T SAY": "UNKNOWN", "CANNOT SAY": "UNKNOWN",
    "A_NEUTRAL_B": "UNKNOWN", "B_NEUTRAL_A": "UNKNOWN",
    "FALSE": "FALSE", "F": "FALSE", "NO": "FALSE", "CONTRADICTS": "FALSE", "CONTRADICTION": "FALSE",
    "A_CONTRADICTS_B": "FALSE", "B_CONTRADICTS_A": "FALSE",
}


# --------------------------------------------------------------------------------------------------- controls


def normalize_answer(value) -> str | None:
    """An expected control answer as ``TRUE|UNKNOWN|FALSE`` (None when absent).

    Accepts the three answers in any case, YAML booleans, the templates' ``yes / can't say / no``, and SICK's
    direction labels (``A_entails_B`` ...). Raises ValueError for anything else.
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    key = str(value).strip().upper()
    if key not in _ANSWER_ALIASES:
        raise ValueError(f"{value!r} is not an answer (TRUE, UNKNOWN or FALSE)")
    return _ANSWER_ALIASES[key]


# --------------------------------------------------------------------------------------------------- gold rule


def gold_label(ab: str, ba: str) -> str:
    """SICK's gold label from the two directions (checked on all 9,840 pairs of SICK's release, see the issue).

    ENTAILMENT when ``ab`` is ``A_entails_B``; CONTRADICTION when ``ab`` is ``A_contradicts_B`` and ``ba`` is
    ``B_contradicts_A``; NEUTRAL otherwise. When the rule needs a direction that is empty (no judgments) the
    result is empty; when it needs one that is ``-`` (undecided) it is ``-``.
    """
    return str(gold_labels(np.array([ab], dtype=object), np.array([ba], dtype=object))[0])


def gold_labels(ab, ba) -> np.ndarray:
    """Vectorised :func:`gold_label` over two arrays of direction labels."""
    ab = np.asarray(ab, dtype=object)
    ba = np.asarray(ba, dtype=object)
    ab_c = ab == "A_contradicts_B"
    conds = [ab == "A_entails_B", ab == "A_neutral_B",
             ab_c & (ba == "B_contradicts_A"), ab_c & np.isin(ba, ["B_entails_A", "B_neutral_A"]),
             ab_c & (ba == NO_DECISION), ab == NO_DECISION]
    choices = ["ENTAILMENT", "NEUTRAL", "CONTRADICTION", "NEUTRAL", NO_DECISION, NO_DECISION]
    return np.select(conds, choices, default="").astype(object)


# --------------------------------------------------------------------------------------------------- aggregate


@dataclass
class AggregateResult:
    """What :func:`aggregate` computed.

    Attributes:
        gold: the corpus rows with the gold columns filled (strings, as written to ``gold.tsv``).
        workers: one row per worker (:data:`WORKER_COLUMNS`).
        agreement: the figures written to ``agreement.json``.
        pairs: numeric per-pair table ``pair_ID n_ratings mean sd majority_share n_AB n_BA answer_AB answer_BA
            tied_AB tied_BA entailment_AB entailment_BA entailment_label``; with Dawid-Skene the ``entailment_*``
            columns are Dawid-Skene's (``answer_*``, ``tied_*`` and ``majority_share`` stay the majority vote's),
            plus ``majority_entailment_label``, the gold label of the majority vote.
    """

    gold: pd.DataFrame
    workers: pd.DataFrame
    agreement: dict
    pairs: pd.DataFrame


def _bool_column(s: pd.Series) -> np.ndarray:
    if s.dtype == bool:
        return s.to_numpy()
    codes, uniques = pd.factorize(s.astype(str).str.strip().str.lower())
    truth = {"true": True, "1": True, "yes": True, "t": True, "y": True,
             "false": False, "0": False, "no": False, "f": False, "n": False}
    bad = [u for u in uniques if u not in truth]
    if bad:
        i = int(np.flatnonzero(codes == list(uniques).index(bad[0]))[0])
        raise ValueError(f"judgments row {i}: is_control {s.iloc[i]!r} is not a boolean")
    return np.array([truth[u] for u in uniques], dtype=bool)[codes] if len(uniques) else np.zeros(0, dtype=bool)


# Answer codes of a (pair, order) item: 0-2 index ANSWERS; then "-" (undecided: a tie under ties="none") and ""
# (no judgment). Every per-item and per-pair step works on these codes; strings are made once per column at the end.
_UNDECIDED, _UNJUDGED = len(ANSWERS), len(ANSWERS) + 1
_ANSWER_NAMES = (*ANSWERS, NO_DECISION, "")
_DIRECTION_NAMES = {o: tuple(DIRECTION_LABELS[o].get(a, a) for a in _ANSWER_NAMES) for o in ORDERS}
_GOLD_NAMES = ("ENTAILMENT", "CONTRADICTION", "NEUTRAL", NO_DECISION, "")
_GOLD_EMPTY = _GOLD_NAMES.index("")


def _gold_code_table() -> np.ndarray:
    """``[AB answer code, BA answer code] -> gold label code`` (index into :data:`_GOLD_NAMES`), filled by
    :func:`gold_labels` itself so that the rule is written once."""
    ab, ba = np.meshgrid(np.arange(len(_ANSWER_NAMES)), np.arange(len(_ANSWER_NAMES)), indexing="ij")
    names = gold_labels(np.array(_DIRECTION_NAMES["AB"], dtype=object)[ab.ravel()],
                        np.array(_DIRECTION_NAMES["BA"], dtype=object)[ba.ravel()])
    return np.array([_GOLD_NAMES.index(x) for x in names], dtype=np.int64).reshape(ab.shape)


_GOLD_CODE = _gold_code_table()


def _string_column(codes: np.ndarray, names) -> pd.api.extensions.ExtensionArray:
    """``names[codes]`` as a column of pandas' string dtype, gathered by pyarrow: no Python string per row (making
    100,000 of them and converting them to Arrow is what made the gold table slow)."""
    return pd.array(pc.take(pa.array(list(names), type=pa.large_string()), pa.array(np.asarray(codes))), dtype="str")


def _formatted(values: np.ndarray, nd: int = 3, trim: bool = False) -> pd.api.extensions.ExtensionArray:
    """:func:`_fmt_all` as a string column: each distinct value formatted once."""
    codes, uniq = pd.factorize(np.asarray(values, dtype=float), use_na_sentinel=False)
    return _string_column(codes, _fmt_each(uniq, nd, trim))


def _arrow_text(s: pd.Series, name: str) -> pa.Array:
    """A judgment column as a pyarrow string array (no copy for pandas' default string dtype, whose storage it is).

    Raises ValueError on a missing value."""
    arr = pa.array(s.astype(str))
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    if arr.null_count:
        i = int(np.flatnonzero(np.asarray(arr.is_null()))[0])
        raise ValueError(f"judgments row {i}: missing {name}")
    return arr


def _index_in(values: pa.Array, domain: pa.Array) -> np.ndarray:
    """Position of each value in ``domain`` (int64; -1 where absent): one hash lookup per row in pyarrow."""
    found = pc.index_in(values, value_set=domain.cast(values.type))
    if found.null_count:  # absent values are nulls
        found = pc.fill_null(found, -1)
    return np.asarray(found, dtype=np.int64)


@dataclass
class _Judgments:
    """The judgment table as codes, one entry per row (no string work per row after :func:`_clean`).

    ``pair`` codes the pair_ID by its corpus row (0 .. n-1) when it is a corpus pair, else n + its index among
    the other ids (controls, or ids to reject) in order of first appearance; ``pair_names`` holds the id of
    every code (a pyarrow array: Python strings are made only for the few ids looked at one by one).
    ``worker`` indexes ``worker_uniques`` (sorted).
    """

    pair: np.ndarray          # int64, see above
    pair_names: pa.Array      # pair_IDs: the corpus's, then the others
    worker: np.ndarray        # code into worker_uniques (sorted)
    worker_uniques: np.ndarray
    order: np.ndarray         # 0 = AB, 1 = BA
    answer: np.ndarray        # index into ANSWERS
    rating: np.ndarray        # float
    is_control: np.ndarray    # bool


def _codes(values: pa.Array, allowed: tuple, name: str, original: pd.Series) -> np.ndarray:
    out = _index_in(values, pa.array(list(allowed)))
    bad = out < 0
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"judgments row {i}: bad {name} {original.iloc[i]!r}")
    return out


def _clean(judgments: pd.DataFrame, corpus_ids: pa.Array) -> _Judgments:
    """Code the judgment table (columns :data:`pipeline.judgments.JUDGMENT_COLUMNS`) against the corpus's
    pair_IDs (``corpus_ids``, distinct). Raises ValueError for a missing column, a missing
    pair_ID or worker_id, a bad order, answer, relatedness (not a number in 1-5) or is_control."""
    missing = [c for c in JUDGMENT_COLUMNS if c not in judgments.columns]
    if missing:
        raise ValueError(f"judgments lack column(s) {', '.join(missing)}")
    # the same data without the frame's attrs (a simulated round carries its manifest there), which pandas
    # would deep-copy into every Series taken from the frame (the constructor does not carry attrs over)
    judgments = pd.DataFrame(judgments, copy=False)
    n = len(corpus_ids)
    ids = _arrow_text(judgments["pair_ID"], "pair_ID")
    pair = _index_in(ids, corpus_ids)
    others = np.flatnonzero(pair < 0)  # controls (and ids to reject): few, coded after the corpus rows
    extra = pa.array([], type=ids.type)
    if len(others):
        enc = pc.dictionary_encode(ids.take(pa.array(others)))
        pair[others] = n + np.asarray(enc.indices, dtype=np.int64)
        extra = enc.dictionary
    names = pa.concat_arrays([corpus_ids.cast(ids.type), extra])

    enc = pc.dictionary_encode(_arrow_text(judgments["worker_id"], "worker_id"))
    w_names = np.asarray(enc.dictionary.to_pylist(), dtype=object)
    w_sorted = np.argsort(w_names, kind="stable")  # workers.tsv lists workers by id
    w_rank = np.empty(len(w_sorted), dtype=np.int64)
    w_rank[w_sorted] = np.arange(len(w_sorted))
    worker = w_rank[np.asarray(enc.indices, dtype=np.int64)]

    order = _codes(_arrow_text(judgments["order"], "order"), ORDERS, "order", judgments["order"])
    answer = _codes(_arrow_text(judgments["answer"], "answer"), ANSWERS, "answer", judgments["answer"])
    rating = pd.to_numeric(judgments["relatedness"], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    bad = ~np.isfinite(rating) | (rating < 1) | (rating > 5)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"judgments row {i}: bad relatedness {judgments['relatedness'].iloc[i]!r}")
    return _Judgments(pair, names, worker, w_names[w_sorted], order, answer, rating,
                      _bool_column(judgments["is_control"]))


def _round(x, nd: int = 6):
    if x is None:
        return None
    x = float(x)
    return round(x, nd) if math.isfinite(x) else None


def _fmt_all(values: np.ndarray, nd: int = 3, trim: bool = False) -> list[str]:
    """Numbers as fixed-point strings (correctly rounded by ``format``); NaN -> ''; ``trim``: no trailing zeros."""
    values = np.asarray(values, dtype=float)
    if len(values) > 64:  # means and SDs of a few ratings repeat: format each distinct value once
        uniq, inverse = np.unique(values, return_inverse=True)
        return np.asarray(_fmt_each(uniq, nd, trim), dtype=object)[inverse.ravel()].tolist()
    return _fmt_each(values, nd, trim)


def _fmt_each(values: np.ndarray, nd: int, trim: bool) -> list[str]:
    out = []
    for x in np.asarray(values, dtype=float).tolist():
        if not math.isfinite(x):
            out.append("")
            continue
        s = f"{x:.{nd}f}"
        if trim and "." in s:
            s = s.rstrip("0").rstrip(".")
        out.append("0" if s in ("-0", "") else s)
    return out


def _worker_table(j: _Judgments, ctl_mask: np.ndarray, scored: np.ndarray, correct: np.ndarray,
                  min_acc: float, min_controls: int = 1) -> pd.DataFrame:
    nw = len(j.worker_uniques)
    judg = np.bincount(j.worker, minlength=nw)
    rows = np.flatnonzero(ctl_mask)  # a few percent of the rows: count the controls over them alone
    w_ctl, ctl_scored = j.worker[rows], scored[rows]
    item = judg - np.bincount(w_ctl, minlength=nw)
    seen = np.bincount(w_ctl, weights=ctl_scored, minlength=nw).astype(np.int64)
    corr = np.bincount(w_ctl, weights=ctl_scored & correct[rows], minlength=nw).astype(np.int64)
    acc = np.where(seen > 0, corr / np.maximum(seen, 1), np.nan)
    out = pd.DataFrame({"worker_id": j.worker_uniques, "judgments": judg.astype(np.int64), "item_judgments": item,
                        "controls_seen": seen, "controls_correct": corr, "control_accuracy": acc})
    # excluded when the worker answered enough controls to judge and is below the bar (compared on counts, so
    # 0.7 of 10 = 7 passes); one wrong answer out of one or two controls says little about a worker
    out["excluded"] = (seen >= max(1, min_controls)) & (corr < min_acc * seen - 1e-9)
    return out


def _control_summary(j: _Judgments, ctl_mask, scored, correct, kept_worker, controls) -> dict:
    """Answer accuracy on controls and the controls whose mean rating (kept workers) is outside their range."""
    kept = ctl_mask & kept_worker[j.worker]
    sel = kept & scored
    codes, inverse = np.unique(j.pair[kept], return_inverse=True)  # the control rows' ids, as control ids
    ids = np.array([control_base_id(x) for x in j.pair_names.take(pa.array(codes)).to_pylist()], dtype=object)
    t = pd.DataFrame({"id": ids[inverse.ravel()], "rating": j.rating[kept]})
    means = t.groupby("id", sort=True)["rating"].mean()
    outside = []
    for cid, m in means.items():
        rng = controls.get(cid, {}).get("relatedness")
        if rng and not rng[0] - 1e-9 <= m <= rng[1] + 1e-9:
            outside.append({"id": cid, "mean_rating": _round(m, 3), "range": list(rng)})
    return {"items": len(controls), "items_seen": int(len(means)), "judgments_kept_workers": int(kept.sum()),
            "answer_accuracy_kept_workers": _round(correct[sel].mean()) if sel.any() else None,
            "answer_accuracy_all_workers": _round(correct[scored].mean()) if scored.any() else None,
            "mean_rating_outside_range": outside}


def _control_judgments(j: _Judgments, controls: dict, check_relatedness: bool
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which judgments are on control items and which of those are right (per pair code first, then per row
    through the codes): ``(control mask, scored mask, correct mask)``; a control order without an expected
    answer is not scored."""
    n_codes = len(j.pair_names)
    control_of: dict[int, str] = {}  # pair code -> control id, for the codes that are controls
    if controls:
        # candidates: a control id, or an id with the repeat mark (CTRL-001#2 is CTRL-001 again); only these few
        # become Python strings
        candidate = pc.or_(pc.is_in(j.pair_names, value_set=pa.array(list(controls), type=j.pair_names.type)),
                           pc.match_substring(j.pair_names, CONTROL_REPEAT_SEP))
        codes = np.flatnonzero(np.asarray(candidate, dtype=bool))
        for u, name in zip(codes.tolist(), j.pair_names.take(pa.array(codes)).to_pylist()):
            if control_base_id(name) in controls:
                control_of[u] = control_base_id(name)
    u_is_ctl = np.zeros(n_codes, dtype=bool)
    u_is_ctl[list(control_of)] = True
    u_exp = np.full((n_codes, 2), -1, dtype=np.int64)
    u_lo = np.ones((n_codes, 2))
    u_hi = np.full((n_codes, 2), 5.0)
    for u, cid in control_of.items():
        c = controls[cid]
        for o, order in enumerate(ORDERS):
            if c.get(order):
                u_exp[u, o] = ANSWERS.index(c[order])
                if check_relatedness and c.get("relatedness"):
                    u_lo[u, o], u_hi[u, o] = c["relatedness"]
    ctl_mask = j.is_control | u_is_ctl[j.pair]
    rows = np.flatnonzero(ctl_mask)  # a few percent of the rows: only they have an expected answer
    at = (j.pair[rows], j.order[rows])
    exp = u_exp[at]
    scored = np.zeros(len(ctl_mask), dtype=bool)
    scored[rows] = exp >= 0
    correct = np.zeros(len(ctl_mask), dtype=bool)
    rating = j.rating[rows]
    correct[rows] = (j.answer[rows] == exp) & (rating >= u_lo[at]) & (rating <= u_hi[at])
    return ctl_mask, scored, correct


@dataclass
class _Kept:
    """The judgments the gold is made of (item judgments of kept workers), one entry per judgment."""

    pair: np.ndarray    # corpus row
    key: np.ndarray     # the (pair, order) item: pair * 2 + order (AB, BA)
    answer: np.ndarray  # answer code 0-2
    rating: np.ndarray  # float


def _rating_counts(kept: _Kept, n: int) -> tuple[np.ndarray, np.ndarray]:
    """How many kept ratings of each of the ``n`` corpus pairs have each value: ``(counts (V, n), values (V,))``,
    values sorted (values x pairs, so that per-pair sums run across a few long rows). Whole-number ratings (the
    readers insist on them) are their own codes (values 0 .. the highest, unused ones counted 0); other ratings
    are coded by rank. One ``np.bincount`` over the judgments, then every per-pair figure (:func:`_relatedness`)
    and the interval alpha work on this small matrix."""
    whole = kept.rating.astype(np.int64)
    if not len(whole):
        return np.zeros((0, n), dtype=np.int64), np.zeros(0)
    if (whole == kept.rating).all():
        vcode, values = whole, np.arange(int(whole.max()) + 1, dtype=float)
    else:
        vcode, uniques = pd.factorize(kept.rating, sort=True)
        values = np.asarray(uniques, dtype=float)
    n_values = len(values)
    counts = np.bincount(vcode * n + kept.pair, minlength=n_values * n).reshape(n_values, n)
    return counts, values


def _relatedness(counts: np.ndarray, values: np.ndarray, ddof: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean, SD (``ddof``) and count of the kept ratings of each corpus pair (NaN, NaN, 0 when unjudged), from
    :func:`_rating_counts`: SICK's gold relatedness (Marelli et al. 2014, section 3.4). The SD from the
    deviations from each pair's mean (two passes, no cancellation)."""
    n = counts.shape[1]
    n_ratings = counts.sum(axis=0)
    judged = n_ratings > 0
    mean = np.full(n, np.nan)
    mean[judged] = np.einsum("vp,v->p", counts, values)[judged] / n_ratings[judged]
    squares = np.einsum("vp,vp->p", counts, (values[:, None] - mean) ** 2)
    has_sd = n_ratings > ddof
    sd = np.full(n, np.nan)
    sd[has_sd] = np.sqrt(squares[has_sd] / (n_ratings[has_sd] - ddof))
    return mean, sd, n_ratings


def _majority_per_order(kept: _Kept, n: int, ties: str, seed: int
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The majority answer of each (pair, order) item, ``2 n`` of them, AB then BA per pair, as in
    :func:`pipeline.crowd.estimators.majority_vote` (the first most voted answer in ANSWERS' order; a tie gets
    UNKNOWN, ``-`` or a pick of :func:`pipeline.crowd.estimators.seeded_pick`).

    Returns ``(answer code per item (:data:`_ANSWER_NAMES`), votes per item, tied per item, majority share per
    pair, answers x items vote counts)``.
    """
    # answers x items (not items x answers): each reduction below runs across 3 long rows, which numpy does far
    # quicker than 200,000 reductions of 3 values
    n_items = 2 * n
    counts = np.bincount(kept.answer * n_items + kept.key, minlength=len(ANSWERS) * n_items).reshape(-1, n_items)
    n_votes = counts.sum(axis=0)
    top = counts.max(axis=0)
    is_top = (counts == top) & (n_votes > 0)
    tied = is_top.sum(axis=0) > 1
    answer = np.where(n_votes > 0, counts.argmax(axis=0), _UNJUDGED)
    rule = TIES[ties]
    if rule in ANSWERS:
        answer[tied] = ANSWERS.index(rule)
    elif rule == "none":
        answer[tied] = _UNDECIDED
    elif tied.any():  # random: the candidates are the tied items' top answers
        labels, items = np.nonzero(is_top & tied)
        pick = estimators.seeded_pick(seed, items, items, labels)
        answer[items[pick]] = labels[pick]
    votes = n_votes[0::2] + n_votes[1::2]
    share = np.where(votes > 0, (top[0::2] + top[1::2]) / np.maximum(votes, 1), np.nan)
    return answer, n_votes, tied, share, counts


def _alphas(rating_counts: np.ndarray, values: np.ndarray, answer_counts: np.ndarray) -> tuple[float, float]:
    """Krippendorff's alpha, interval over the ratings of each pair and nominal over the answers of each (pair,
    order) item (:func:`pipeline.crowd.estimators.krippendorff_alpha`'s computation, fed the values x items
    counts of :func:`_rating_counts` and :func:`_majority_per_order`); an item with one judgment has no pair of
    judgments and is left out."""
    rated = rating_counts.sum(axis=0) >= 2
    alpha_rel = estimators._alpha_from_counts(rating_counts[:, rated], values, "interval")
    answered = answer_counts.sum(axis=0) >= 2
    alpha_ans = estimators._alpha_from_counts(answer_counts[:, answered], np.arange(len(ANSWERS)), "nominal")
    return alpha_rel, alpha_ans


def _agreement_with(j: _Judgments, final_answer: np.ndarray, ctl_mask: np.ndarray) -> np.ndarray:
    """Each worker's share of item judgments (kept or not) equal to the final per-order answer (NaN: none)."""
    # control rows point at one extra, undecided item, so that every row is looked up at once (no row selection)
    n_items = len(final_answer)
    fa = np.append(final_answer, _UNDECIDED)[np.where(ctl_mask, n_items, j.pair * 2 + j.order)]
    nw = len(j.worker_uniques)
    hits = np.bincount(j.worker, weights=j.answer == fa, minlength=nw)  # fa >= 3 (undecided) never equals
    tot = np.bincount(j.worker, weights=fa < len(ANSWERS), minlength=nw)
    return np.where(tot > 0, hits / np.maximum(tot, 1), np.nan)


def _agreement_figures(*, j: _Judgments, n_used: int, alpha_rel: float, alpha_ans: float, n: int,
                       mean: np.ndarray, sd: np.ndarray, share: np.ndarray, n_ratings: np.ndarray,
                       label: np.ndarray, answer: np.ndarray, tied: np.ndarray, ctl_mask: np.ndarray,
                       scored: np.ndarray, correct: np.ndarray, item_rows: np.ndarray, excluded_w: np.ndarray,
                       kept_worker: np.ndarray, workers: pd.DataFrame, controls: dict,
                       ds_stats: dict | None, synthetic: bool | None, options: dict) -> dict:
    """``agreement.json``: counts, Krippendorff's alpha (interval on ratings, nominal on answers), mean SD and
    majority share beside the paper's (Marelli et al. 2014, section 4), label counts, mutual and one-way
    entailment, control results, warnings and whether the judgments are synthetic. ``label`` and ``answer`` are
    the final gold label codes per pair and answer codes per (pair, order) item."""
    judged_pairs = n_ratings > 0
    per_label = np.bincount(label, minlength=len(_GOLD_NAMES))
    counts = {k: int(per_label[_GOLD_NAMES.index(k)]) for k in ("ENTAILMENT", "CONTRADICTION", "NEUTRAL")}
    counts["undecided"] = int(per_label[_GOLD_NAMES.index(NO_DECISION)])
    counts["incomplete"] = int(((label == _GOLD_EMPTY) & judged_pairs).sum())
    counts["unjudged"] = int((~judged_pairs).sum())
    entails = ANSWERS.index("TRUE")
    ab_e, ba_e = answer[0::2] == entails, answer[1::2] == entails
    if synthetic is None:
        synthetic = bool(any(str(w).startswith(SYNTHETIC_WORKER_PREFIX) for w in j.worker_uniques))
    warnings = []
    if not scored.any():
        warnings.append("no control judgments: quality control excluded no one (export and simulate with "
                        "controls, or check --controls and the judgments' is_control column)")
    few = workers["controls_seen"].between(1, max(1, options['min_controls']) - 1)
    if few.any():
        warnings.append(f"{int(few.sum())} worker(s) answered fewer than {options['min_controls']} controls and were "
                        "kept without a quality check")
    agreement = {
        "synthetic": bool(synthetic),
        "warnings": warnings,
        "method": options["method"],
        "options": {k: v for k, v in options.items() if k != "method"},
        "pairs": {"corpus": n, "judged": int(judged_pairs.sum())},
        "judgments": {"total": int(len(j.pair)), "control": int(ctl_mask.sum()),
                      "control_unscored": int((ctl_mask & ~scored).sum()),
                      "from_excluded_workers": int((item_rows & excluded_w[j.worker]).sum()),
                      "used": int(n_used)},
        "workers": {"total": int(len(workers)), "excluded": int(excluded_w.sum()),
                    "without_controls": int((workers["controls_seen"] == 0).sum())},
        "relatedness": {"mean_sd": _round(np.nanmean(sd)) if np.isfinite(sd).any() else None,
                        "pairs_with_sd": int(np.isfinite(sd).sum()),
                        "mean_score": _round(np.nanmean(mean)) if judged_pairs.any() else None,
                        "alpha_interval": _round(alpha_rel), "paper_mean_sd": PAPER["mean_sd"]},
        "entailment": {"mean_majority_share": _round(np.nanmean(share)) if judged_pairs.any() else None,
                       "alpha_nominal": _round(alpha_ans), "paper_majority_share": PAPER["majority_share"],
                       "ties": {"rule": options["ties"], "tied_orders": int(tied.sum())},
                       "labels": counts,
                       "mutual_entailment": int((ab_e & ba_e).sum()),
                       "one_way_entailment": {"A_entails_B_only": int((ab_e & ~ba_e).sum()),
                                              "B_entails_A_only": int((~ab_e & ba_e).sum())}},
    }
    if controls:
        agreement["controls"] = _control_summary(j, ctl_mask, scored, correct, kept_worker, controls)
    if ds_stats is not None:
        agreement["dawid_skene"] = ds_stats

    return agreement


def aggregate(judgments: pd.DataFrame, corpus: pd.DataFrame, controls: dict | None = None,
              method: str = "majority", min_control_accuracy: float = 0.7, sd_ddof: int = 1,
              ties: str = "neutral", seed: int = 1,
              check_control_relatedness: bool = False, min_controls: int = 3,
              synthetic: bool | None = None) -> AggregateResult:
    """Aggregate raw judgments into SICK gold (see the module docstring for every rule).

    Args:
        judgments: our judgment table (:data:`pipeline.judgments.JUDGMENT_COLUMNS`).
        corpus: the corpus (``corpus.tsv`` read as strings); its rows, in its order, are the gold rows.
        controls: ``{id: {"AB", "BA", "relatedness"}}`` (:func:`pipeline.crowd.controls.controls_by_id`), or
            None (no quality control).
        method: ``"majority"`` or ``"dawid-skene"`` (answers per order).
        min_control_accuracy: workers below it on controls are excluded (0 keeps everyone).
        sd_ddof: ddof of the relatedness SD (1 = R's ``sd``).
        ties: ``"neutral"``, ``"random"`` or ``"none"`` (see the module docstring).
        seed: for ``ties="random"``.
        check_control_relatedness: a control judgment must also rate inside the control's range to be correct.
            Off by default: ``annotations/controls.yaml`` gives the range of the *mean* rating of careful workers,
            not of each rating; the mean rating of each control is checked against it instead (``agreement.json``,
            ``controls.mean_rating_outside_range``).
        min_controls: a worker is judged (and maybe excluded) only after answering at least this many controls;
            fewer, and the worker is kept (``controls_seen`` in ``workers.tsv`` shows it).
        synthetic: whether the judgments are simulated (``agreement.json``'s ``"synthetic"``); None: True when
            any worker id starts with ``synthetic-w`` (:mod:`pipeline.crowd.simulate`'s workers).

    ``agreement["warnings"]`` lists what the user must know: no control judgments at all (so quality control
    excluded no one), workers kept because they answered fewer than ``min_controls`` controls.

    Raises:
        ValueError: bad options, a judgment table out of schema, judgments on pairs neither in the corpus nor
            among the controls, a corpus without ``pair_ID`` or with repeated ids.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if ties not in TIES:
        raise ValueError(f"ties must be one of {', '.join(TIES)}, got {ties!r}")
    if not 0 <= min_control_accuracy <= 1:
        raise ValueError(f"min_control_accuracy must be in [0, 1], got {min_control_accuracy}")
    if int(sd_ddof) < 0:
        raise ValueError(f"sd_ddof must be at least 0, got {sd_ddof}")
    if "pair_ID" not in corpus.columns:
        raise ValueError("the corpus has no 'pair_ID' column")
    controls = controls or {}
    corpus_ids = _arrow_text(corpus["pair_ID"], "corpus pair_ID")
    n = len(corpus_ids)
    if len(pc.unique(corpus_ids)) < n:
        pindex = pd.Index(corpus_ids.to_pylist(), dtype=object)
        raise ValueError(f"pair_ID {pindex[pindex.duplicated()][0]!r} appears more than once in the corpus")
    j = _clean(judgments, corpus_ids)

    if int(min_controls) < 1:
        raise ValueError(f"min_controls must be at least 1, got {min_controls}")
    ctl_mask, scored, correct = _control_judgments(j, controls, check_control_relatedness)
    workers = _worker_table(j, ctl_mask, scored, correct, min_control_accuracy, int(min_controls))
    excluded_w = workers["excluded"].to_numpy()
    kept_worker = ~excluded_w

    unknown = ~ctl_mask & (j.pair >= n)  # pair codes from n on are ids that are not corpus pairs
    if unknown.any():
        i = int(np.flatnonzero(unknown)[0])
        raise ValueError(f"{int(unknown.sum())} judgment(s) on pairs not in the corpus "
                         f"(first: {j.pair_names[int(j.pair[i])].as_py()!r}, row {i})")
    item_rows = ~ctl_mask
    use = item_rows & kept_worker[j.worker]
    p = j.pair[use]
    kept = _Kept(pair=p, key=p * 2 + j.order[use], answer=j.answer[use], rating=j.rating[use])

    # ---- per pair and per (pair, order) item, on codes
    rating_counts, values = _rating_counts(kept, n)
    mean, sd, n_ratings = _relatedness(rating_counts, values, int(sd_ddof))
    answer, n_votes, tied, share, answer_counts = _majority_per_order(kept, n, ties, seed)
    label = _GOLD_CODE[answer[0::2], answer[1::2]]
    pairs = pd.DataFrame({
        "pair_ID": pd.array(corpus_ids, dtype="str"), "n_ratings": n_ratings, "mean": mean, "sd": sd,
        "majority_share": share, "n_AB": n_votes[0::2], "n_BA": n_votes[1::2],
        "answer_AB": _string_column(answer[0::2], _ANSWER_NAMES),
        "answer_BA": _string_column(answer[1::2], _ANSWER_NAMES),
        "tied_AB": tied[0::2], "tied_BA": tied[1::2],
        "entailment_AB": _string_column(answer[0::2], _DIRECTION_NAMES["AB"]),
        "entailment_BA": _string_column(answer[1::2], _DIRECTION_NAMES["BA"]),
        "entailment_label": _string_column(label, _GOLD_NAMES),
    })
    final_answer = answer

    ds_stats = None
    if method == "dawid-skene":
        used = pd.DataFrame({"key": kept.key, "worker": j.worker[use], "answer": kept.answer})
        ds = estimators.dawid_skene(used, item="key", worker="worker", label="answer")
        ds_answer = np.full(2 * n, _UNJUDGED, dtype=np.int64)
        ds_answer[ds["key"].to_numpy(dtype=np.int64)] = ds["answer"].to_numpy(dtype=np.int64)
        ds_label = _GOLD_CODE[ds_answer[0::2], ds_answer[1::2]]
        judged = n_votes > 0
        same_item = (ds_answer == answer)[judged]
        has_gold = (label != _GOLD_EMPTY) & (ds_label != _GOLD_EMPTY)
        ds_stats = {
            "items": int(judged.sum()),
            "agree_with_majority": _round(same_item.mean()) if len(same_item) else None,
            "differ_from_majority": int((~same_item).sum()),
            "gold_agree_with_majority": _round((ds_label == label)[has_gold].mean()) if has_gold.any() else None,
        }
        pairs["majority_entailment_label"] = pairs["entailment_label"]
        pairs["entailment_AB"] = _string_column(ds_answer[0::2], _DIRECTION_NAMES["AB"])
        pairs["entailment_BA"] = _string_column(ds_answer[1::2], _DIRECTION_NAMES["BA"])
        pairs["entailment_label"] = _string_column(ds_label, _GOLD_NAMES)
        label, final_answer = ds_label, ds_answer

    workers["majority_agreement"] = _agreement_with(j, final_answer, ctl_mask)
    workers = workers[WORKER_COLUMNS]

    alpha_rel, alpha_ans = _alphas(rating_counts, values, answer_counts)
    agreement = _agreement_figures(
        j=j, n_used=len(kept.pair), alpha_rel=alpha_rel, alpha_ans=alpha_ans, n=n, mean=mean, sd=sd, share=share,
        n_ratings=n_ratings, label=label, answer=final_answer, tied=tied, ctl_mask=ctl_mask, scored=scored,
        correct=correct, item_rows=item_rows, excluded_w=excluded_w, kept_worker=kept_worker, workers=workers,
        controls=controls, ds_stats=ds_stats, synthetic=synthetic, options={
            "method": method, "min_control_accuracy": min_control_accuracy, "sd_ddof": int(sd_ddof), "ties": ties,
            "seed": seed, "check_control_relatedness": check_control_relatedness, "min_controls": int(min_controls)})

    # ---- gold table: the corpus rows with the gold columns as strings, as written
    gold = corpus.copy()
    # GOLD_COLUMNS in their order: a column the corpus lacks is appended, one it has is filled in place
    gold["entailment_label"] = pairs["entailment_label"].array
    gold["relatedness_score"] = _formatted(mean, 3, trim=True)
    gold["entailment_AB"] = pairs["entailment_AB"].array
    gold["entailment_BA"] = pairs["entailment_BA"].array
    gold["relatedness_sd"] = _formatted(sd)
    gold["n_ratings"] = _formatted(n_ratings, 0)
    gold["majority_share"] = _formatted(share)
    gold = gold.astype(str)
    return AggregateResult(gold=gold, workers=workers, agreement=agreement, pairs=pairs)


# --------------------------------------------------------------------------------------------------- outputs


def _workers_for_tsv(w: pd.DataFrame) -> pd.DataFrame:
    out = w.copy()
    out["control_accuracy"] = _fmt_all(out["control_accuracy"], 4)
    out["majority_agreement"] = _fmt_all(out["majority_agreement"], 4)
    out["excluded"] = np.where(out["excluded"], "true", "false")
    return out


def write_outputs(result: AggregateResult, out_dir: str | Path, rejected: pd.DataFrame | None = None,
                  inputs: dict | None = None) -> None:
    """Write ``gold.tsv``, ``workers.tsv``, ``agreement.json``, ``rejected.tsv`` and ``manifest.json`` into
    ``out_dir``, atomically.

    ``rejected`` is the reader's table (:func:`pipeline.judgments.read_judgments`); without one, ``rejected.tsv``
    has only the header (:data:`pipeline.judgments.REJECTED_COLUMNS`). ``manifest.json``: ``{"synthetic": bool,
    "generator", "warnings", "inputs"}`` (``inputs``: what the command read, with hashes), so that gold made from
    simulated judgments says so wherever the folder goes.
    """
    if rejected is None:
        rejected = pd.DataFrame(columns=REJECTED_COLUMNS)
    manifest = {"synthetic": bool(result.agreement.get("synthetic")), "generator": "sick aggregate",
                "warnings": result.agreement.get("warnings", []), "inputs": inputs or {}}
    with atomic_dir(out_dir) as tmp:
        write_json(tmp / "manifest.json", manifest)
        write_tsv(tmp / "gold.tsv", result.gold)
        write_tsv(tmp / "workers.tsv", _workers_for_tsv(result.workers))
        write_json(tmp / "agreement.json", result.agreement)
        write_tsv(tmp / "rejected.tsv", rejected)


# --------------------------------------------------------------------------------------------------- command


def summary(result: AggregateResult, out_dir) -> str:
    a = result.agreement
    e, r = a["entailment"], a["relatedness"]
    lab = e["labels"]
    text = "".join(f"WARNING: {w}\n" for w in a.get("warnings", []))
    if a.get("synthetic"):
        text += "SYNTHETIC: these judgments are simulated (sick simulate-judgments); the gold is not real data\n"
    text += (f"{a['pairs']['judged']}/{a['pairs']['corpus']} pairs judged; {a['judgments']['used']} judgments used, "
            f"{a['workers']['excluded']}/{a['workers']['total']} workers excluded by controls\n"
            f"gold: {lab['ENTAILMENT']} ENTAILMENT, {lab['CONTRADICTION']} CONTRADICTION, {lab['NEUTRAL']} NEUTRAL "
            f"({e['mutual_entailment']} mutual entailments, "
            f"{e['ties']['tied_orders']} tied orders -> {e['ties']['rule']})\n"
            f"relatedness: mean SD {r['mean_sd']} (paper 0.76), alpha (interval) {r['alpha_interval']}\n"
            f"entailment: mean majority share {e['mean_majority_share']} (paper 0.84), "
            f"alpha (nominal) {e['alpha_nominal']}")
    if "dawid_skene" in a:
        text += f"\nDawid-Skene agrees with the majority on {a['dawid_skene']['agree_with_majority']} of the items"
    return text + f"\nwritten to {out_dir}"
