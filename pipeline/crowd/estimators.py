"""Aggregation estimators for crowd judgments: a long table in, one row per item out.

Every function takes a *long* table, one row per judgment (crowd-kit's convention: ``task``, ``worker``,
``label``; here the column names are parameters), and returns a table with one row per item, items in order
of first appearance in the input (so the output follows the input file). Nothing is printed or written.

- :func:`majority_vote` -- most voted label, with a rule for ties and SNLI's "at least K votes" rule.
- :func:`dawid_skene` -- Dawid & Skene (1979) EM estimate of each worker's confusion matrix, through
  ``crowdkit.aggregation.DawidSkene`` (Ustalov et al., crowd-kit).
- :func:`numeric_summary` -- mean, standard deviation (chosen ``ddof``) and count of numeric ratings.
- :func:`krippendorff_alpha` -- Krippendorff's alpha (nominal, ordinal, interval or ratio) with the
  ``krippendorff`` package, fed value counts.
- :func:`label_distribution`, :func:`label_entropy` -- per-item label shares and their entropy (ChaosNLI's
  ``label_dist`` and ``entropy``, Nie et al. 2020).

Missing values (NaN/None) in the item, worker or label column are a ``ValueError``: a judgment is never dropped
silently. The readers of :mod:`pipeline.labels` turn bad input into :class:`pipeline.errors.InputError` before
it reaches these functions.
"""

from __future__ import annotations

__all__ = ["NO_LABEL", "TIE_RULES", "dawid_skene", "krippendorff_alpha", "label_distribution", "label_entropy",
           "majority_vote", "numeric_summary", "seeded_pick"]

import warnings
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

NO_LABEL = "-"
"""The label written where the votes decide nothing (a tie with ``ties="none"``, or under ``min_votes``): the
same mark SNLI uses in ``gold_label``."""

#: ``ties`` values with a meaning; any other value is the label given to every tied item.
TIE_RULES = ("none", "random", "first")


# krippendorff.alpha builds several float64 arrays of shape (items, values, values); above this many elements
# per array (about 400 MB each) krippendorff_alpha refuses rather than exhaust memory.
_ALPHA_MAX_ELEMENTS = 50_000_000


def _require(df: pd.DataFrame, columns: Sequence[str]) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"no column {missing[0]!r} in the table (columns: {', '.join(map(str, df.columns))})")
    for c in columns:
        bad = df[c].isna()
        if bad.any():
            first = int(np.argmax(bad.to_numpy()))
            raise ValueError(f"column {c!r} has {int(bad.sum())} missing value(s) (first at row {first})")


def _numeric(df: pd.DataFrame, column: str) -> pd.Series:
    values = pd.to_numeric(df[column], errors="coerce")
    bad = values.isna() | ~np.isfinite(values.to_numpy(dtype=float, na_value=np.nan))
    if bad.any():
        first = int(np.argmax(bad.to_numpy()))
        raise ValueError(f"column {column!r}: {df[column].iloc[first]!r} (row {first}) is not a finite number")
    return values.astype(float)


class _Votes:
    """Vote counts per (item, label) pair, computed once with numpy (no Python loop over items).

    Attributes: ``items`` (unique items, first-appearance order), ``labels`` (unique labels, sorted),
    ``p_item``/``p_label`` (codes of each observed pair, sorted by item then label), ``count`` (votes of the
    pair), ``starts`` (first pair of each item), ``n_votes``/``top``/``n_tied`` per item (judgments, votes of
    the most voted label, number of labels sharing that count).
    """

    def __init__(self, df: pd.DataFrame | None, item: str, label: str, codes: tuple | None = None):
        if codes is not None:  # (item codes, items, label codes, labels sorted) from a caller that factorized
            icode, self.items, lcode, self.labels = codes
        else:
            assert df is not None
            _require(df, [item, label])
            icode, self.items = pd.factorize(df[item], sort=False)
            try:
                lcode, self.labels = pd.factorize(df[label], sort=True)
            except TypeError:  # labels of mixed types that cannot be ordered
                lcode, self.labels = pd.factorize(df[label].astype(str), sort=True)
        n_labels = max(len(self.labels), 1)
        key = icode.astype(np.int64) * n_labels + lcode
        # counts of each (item, label) key: a bincount when the key space is small (far quicker than np.unique's
        # sort), np.unique otherwise; both give the keys in increasing order
        if len(key) and len(self.items) * n_labels <= 4 * len(key) + 1024:
            full = np.bincount(key, minlength=len(self.items) * n_labels)
            ukey = np.flatnonzero(full)
            self.count = full[ukey]
        else:
            ukey, self.count = np.unique(key, return_counts=True)
        self.p_item, self.p_label = ukey // n_labels, ukey % n_labels
        self.starts = np.flatnonzero(np.r_[True, self.p_item[1:] != self.p_item[:-1]]) if len(ukey) else ukey
        if len(ukey):
            self.n_votes = np.add.reduceat(self.count, self.starts)
            self.top = np.maximum.reduceat(self.count, self.starts)
            self.is_top = self.count == self.top[self.p_item]
            self.n_tied = np.add.reduceat(self.is_top.astype(np.int64), self.starts)
        else:
            self.n_votes = self.top = self.n_tied = np.zeros(0, dtype=np.int64)
            self.is_top = np.zeros(0, dtype=bool)

    def first_top(self) -> np.ndarray:
        """Label code of the first (in sorted label order) most voted label of each item."""
        sel = np.flatnonzero(self.is_top)
        first = sel[np.r_[True, self.p_item[sel][1:] != self.p_item[sel][:-1]]] if len(sel) else sel
        return self.p_label[first]


def majority_vote(df: pd.DataFrame, item: str = "item", label: str = "label", ties: Any = "none",
                  min_votes: int | None = None, seed: int = 0, details: bool = False) -> pd.DataFrame:
    """Most voted label of each item.

    Args:
        df: long table, one row per judgment.
        item, label: its item and label columns (any hashable values; no missing values).
        ties: what an item gets when two or more labels share the highest count:
            ``"none"`` (default) -> ``"-"`` (:data:`NO_LABEL`);
            ``"first"`` -> the tied label that appears first in the input (over all rows): crowd-kit's
            ``MajorityVote`` rule (``idxmax`` over the label columns of ``value_counts().unstack()``, which
            come in order of first appearance with pandas 3; ``tests/crowd/test_labels.py`` checks the two
            agree on a table with many ties);
            ``"random"`` -> one of the tied labels, drawn pseudo-randomly from ``seed``, the item and the
            label (a hash of the three: the pick for an item depends on nothing else, so it is the same
            whatever the row order or the other items; every tied label is equally likely across seeds);
            any other value -> that value, for every tie, *whether or not it is among the tied labels*. A
            tie means the crowd did not decide, and the value is the fallback answer, as ``"-"`` is for
            ``"none"``: SICK-style ties between TRUE and FALSE -> ``UNKNOWN``; Snow et al.'s binary RTE
            ties -> ``1`` or ``0``. The value is used as given (compare types: ``"1"`` is not ``1``); labels
            literally called ``none`` or ``random`` cannot be a tie fallback.
        min_votes: with K, an item whose most voted label has fewer than K votes gets ``"-"``, tie or not
            (SNLI's rule: a gold label needs 3 of the 5 annotator labels, Bowman et al. 2015). Applied
            before ``ties``: a tie at or above K still follows ``ties``.
        seed: for ``ties="random"``.
        details: also return ``top_votes`` (votes of the most voted label) and ``n_tied`` (labels sharing it;
            1 when there is no tie).

    Returns:
        DataFrame with columns ``item``, ``label`` (named as the arguments), ``n_votes`` (int >= 1:
        judgments of the item), ``majority_share`` (float in (0, 1]: votes of the most voted label divided
        by ``n_votes``, also where the label is ``"-"``), one row per item in order of first appearance.

    Raises:
        ValueError: a missing column or value, ``min_votes`` < 1.

    Vectorised (``np.unique`` over item x label codes, ``reduceat`` per item): 1,000,000 judgments over
    100,000 items take well under a second (``tests/bench_aggregate.py``).
    """
    if min_votes is not None and int(min_votes) < 1:
        raise ValueError(f"min_votes must be at least 1, got {min_votes}")
    v = _Votes(df, item, label)

    def first_seen_rank() -> np.ndarray:
        # rank of each label by its first appearance in the input, the order of crowd-kit's label columns
        seen = pd.unique(df[label])
        rank = pd.Index(seen).get_indexer(v.labels) if len(seen) == len(v.labels) else np.full(len(v.labels), -1)
        if (rank < 0).any():  # labels compared as text (mixed types)
            rank = pd.Index(pd.unique(df[label].astype(str))).get_indexer(v.labels)
        return rank

    return _majority(v, item, label, ties, min_votes, seed, details, first_seen_rank)


def seeded_pick(seed: int, item_codes: np.ndarray, item_values: np.ndarray, label_values: np.ndarray) -> np.ndarray:
    """``ties="random"`` of :func:`majority_vote`: one of each item's tied labels, drawn from ``seed``.

    Args:
        item_codes: int array, one entry per candidate (an item's tied label); equal codes = same item.
        item_values, label_values: the candidates' item and label as given (written into the hashed text, so
            the pick for an item depends only on the seed, the item and its tied labels).

    Returns:
        Positions into the candidate arrays, one per item (in increasing item code): the candidate whose hash
        of ``seed``, item and label is smallest.
    """
    keys = np.array([f"{seed}\x1f{i}\x1f{lab}" for i, lab in zip(item_values, label_values)], dtype=object)
    h = pd.util.hash_array(keys)
    order = np.lexsort((h, item_codes))
    return order[np.r_[True, item_codes[order][1:] != item_codes[order][:-1]]]


def _majority(v: _Votes, item: str, label: str, ties: Any, min_votes: int | None, seed: int, details: bool,
              first_seen_rank: Callable[[], np.ndarray]) -> pd.DataFrame:
    """:func:`majority_vote` on counted votes; ``first_seen_rank()`` gives each label's rank of first appearance
    (called only for ``ties="first"``)."""
    chosen = v.first_top()
    labels = np.asarray(v.labels, dtype=object)
    out_label = labels[chosen] if len(chosen) else np.zeros(0, dtype=object)
    tied = v.n_tied > 1
    rule = ties if isinstance(ties, str) and ties in TIE_RULES else None  # None: ties is the fallback label
    if rule == "random" and tied.any():
        idx = np.flatnonzero(v.is_top & tied[v.p_item])
        first = idx[seeded_pick(seed, v.p_item[idx], np.asarray(v.items, dtype=object)[v.p_item[idx]],
                                labels[v.p_label[idx]])]
        out_label[v.p_item[first]] = labels[v.p_label[first]]
    elif rule == "first" and tied.any():
        rank = first_seen_rank()
        idx = np.flatnonzero(v.is_top & tied[v.p_item])
        order = idx[np.lexsort((rank[v.p_label[idx]], v.p_item[idx]))]
        first = order[np.r_[True, v.p_item[order][1:] != v.p_item[order][:-1]]]
        out_label[v.p_item[first]] = labels[v.p_label[first]]
    elif rule != "random":
        out_label[tied] = NO_LABEL if rule == "none" else ties
    if min_votes is not None:
        out_label[v.top < int(min_votes)] = NO_LABEL
    out = pd.DataFrame({item: v.items, label: out_label, "n_votes": v.n_votes.astype(np.int64),
                        "majority_share": v.top / np.maximum(v.n_votes, 1)})
    if details:
        out["top_votes"] = v.top.astype(np.int64)
        out["n_tied"] = v.n_tied.astype(np.int64)
    return out


def dawid_skene(df: pd.DataFrame, item: str = "item", worker: str = "worker", label: str = "label",
                n_iter: int = 100, tol: float = 1e-5,
                details: bool = False) -> Any:  # a DataFrame, or with details a tuple of three (see Returns)
    """Dawid & Skene (1979) labels: EM over one confusion matrix per worker and the class priors.

    Runs ``crowdkit.aggregation.DawidSkene(n_iter, tol).fit_predict`` (crowd-kit 1.4; it wants columns
    ``task``, ``worker``, ``label``: they are mapped there and back). Deterministic: crowd-kit starts from the
    majority-vote label shares and breaks ties between equal posteriors by label order.

    Args:
        df: long table, one row per judgment; item, worker, label: its columns (no missing values).
        n_iter: maximum EM iterations (>= 1); tol: stop when the log-likelihood gains less.

    Returns:
        DataFrame ``[item, label]`` (named as the arguments), one row per item in order of first appearance.
        With ``details``: ``(that, posteriors, skills)``: ``posteriors`` ``[item, <one column per label>]``,
        crowd-kit's ``probas_`` (each item's class probabilities, rows summing to 1) in the same item order,
        labels in sorted order; ``skills`` ``[worker, skill, agreement, n]``: ``skill`` = the worker's
        probability of giving the true label under the fitted model (sum over classes of the prior times the
        diagonal of its confusion matrix, crowd-kit's ``priors_`` and ``errors_``), ``agreement`` = share of
        its labels equal to Dawid-Skene's (what crowd-kit's ``skills_`` are for its other methods), ``n`` =
        its judgments; workers in order of first appearance.

    Raises:
        ValueError: a missing column or value, ``n_iter`` < 1.
    """
    from crowdkit.aggregation import DawidSkene

    if int(n_iter) < 1:
        raise ValueError(f"n_iter must be at least 1, got {n_iter}")
    _require(df, [item, worker, label])
    items = pd.unique(df[item])
    data = pd.DataFrame({"task": df[item].to_numpy(), "worker": df[worker].to_numpy(),
                         "label": df[label].to_numpy()})
    if data.empty:
        return pd.DataFrame({item: df[item].iloc[:0], label: df[label].iloc[:0]})
    with warnings.catch_warnings():  # crowd-kit 1.4 uses keywords pandas 3 deprecates (copy=, inplace=)
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", FutureWarning)
        model = DawidSkene(n_iter=int(n_iter), tol=float(tol)).fit(data)
    assert model.labels_ is not None and model.probas_ is not None  # set by fit
    result = model.labels_.reindex(pd.Index(items))
    out = pd.DataFrame({item: items, label: result.to_numpy()})
    if not details:
        return out
    probas = model.probas_.reindex(pd.Index(items))
    classes = sorted(probas.columns, key=str)
    posteriors = pd.DataFrame({item: items, **{str(c): probas[c].to_numpy(dtype=float) for c in classes}})
    workers = pd.unique(data["worker"])
    errors, priors = model.errors_, model.priors_
    assert errors is not None and priors is not None  # set by fit
    skill = []
    for w in workers:
        e = errors.loc[w]
        skill.append(float(sum(priors[c] * (e.at[c, c] if c in e.index else 0.0) for c in classes)))
    ds_label = data["task"].map(model.labels_)
    agree = (data["label"].to_numpy() == ds_label.to_numpy())
    by_worker = pd.DataFrame({"worker": data["worker"].to_numpy(), "agree": agree}).groupby("worker", sort=False)
    skills = pd.DataFrame({worker: workers, "skill": skill,
                           "agreement": by_worker["agree"].mean().reindex(workers).to_numpy(dtype=float),
                           "n": by_worker.size().reindex(workers).to_numpy(dtype=np.int64)})
    return out, posteriors, skills


def numeric_summary(df: pd.DataFrame, item: str = "item", value: str = "value", ddof: int = 1) -> pd.DataFrame:
    """Mean, standard deviation and number of numeric ratings per item.

    Args:
        df: long table, one row per rating; item, value: its columns (values finite numbers, or strings
            that parse as such).
        ddof: delta degrees of freedom of the SD: 1 = sample SD (R's ``sd``, SICK's default), 0 = population
            SD (USTS's published ``std``, Wang et al. 2023).

    Returns:
        DataFrame ``[item, mean, sd, n]`` in order of first appearance; ``sd`` is NaN where ``n <= ddof``.

    Raises:
        ValueError: a missing column or value, a value that is not a finite number, ``ddof`` < 0.
    """
    if int(ddof) < 0:
        raise ValueError(f"ddof must be at least 0, got {ddof}")
    _require(df, [item, value])
    values = _numeric(df, value)
    g = values.groupby(df[item].to_numpy(), sort=False)
    out = pd.DataFrame({"mean": g.mean(), "n": g.size()})
    n = out["n"].to_numpy()
    out["sd"] = np.where(n > int(ddof), g.std(ddof=int(ddof)).to_numpy(dtype=float), np.nan)
    out = out.rename_axis(item).reset_index()
    return out[[item, "mean", "sd", "n"]].astype({"n": np.int64})


def _value_counts(df: pd.DataFrame, item: str, value: str, numeric: bool) -> tuple[np.ndarray, np.ndarray]:
    """Items x values count matrix (items with at least 2 judgments) and the sorted value domain."""
    vals = _numeric(df, value) if numeric else df[value]
    icode, _ = pd.factorize(df[item], sort=False)
    try:
        vcode, domain = pd.factorize(vals, sort=True)
    except TypeError:
        vcode, domain = pd.factorize(vals.astype(str), sort=True)
    return _count_matrix(icode, vcode, len(domain)), np.asarray(domain)


def _count_matrix(icode: np.ndarray, vcode: np.ndarray, n_values: int) -> np.ndarray:
    """Items x values count matrix from item and value codes, items with fewer than 2 judgments left out."""
    n_items = int(icode.max()) + 1 if len(icode) else 0
    per_item = np.bincount(icode, minlength=n_items)
    keep = per_item >= 2  # a unit with one judgment has no pair: it adds nothing to the coincidences
    new_code = np.cumsum(keep) - 1
    rows = keep[icode]
    n_kept = int(keep.sum())
    flat = new_code[icode[rows]].astype(np.int64) * n_values + vcode[rows]
    return np.bincount(flat, minlength=n_kept * n_values).astype(np.int64).reshape(n_kept, n_values)


def krippendorff_alpha(df: pd.DataFrame, item: str = "item", worker: str = "worker", value: str = "label",
                       level: str = "nominal") -> float:
    """Krippendorff's alpha over all judgments, with ``krippendorff.alpha(value_counts=...)``
    (:func:`_alpha_from_counts`; the test suite checks it against the package fed workers x items data).

    The reliability data is given as *value counts*, an items x values matrix of how many judgments of the
    item gave the value, not as the usual workers x items matrix. The two give the same alpha (alpha depends
    only on the values within each unit), but crowd workers overlap little (Snow RTE: 164 workers, each on a
    few of 800 items; a SICK-size crowd: hundreds of workers over 10,000 pairs), so the workers x items
    matrix would be almost all missing and its size workers x items, while value counts are items x values.
    ``worker`` is therefore not used in the computation; it is a parameter so that the call reads like the
    other estimators, and checked for missing values.

    Args:
        df: long table; item, worker, value: its columns.
        level: ``"nominal"`` (categorical labels; any values), ``"interval"`` (numbers; the value domain is
            the sorted distinct values), or ``"ordinal"`` / ``"ratio"``.

    Returns:
        alpha (float, at most 1; 1 = perfect agreement, 0 = chance, negative = systematic disagreement), or
        NaN when it is undefined: fewer than two distinct values among items with at least two judgments
        (items with one judgment carry no pair and are left out, as Krippendorff does).

    Raises:
        ValueError: a missing column or value; a non-numeric value at a numeric level.
    """
    if level not in ("nominal", "ordinal", "interval", "ratio"):
        raise ValueError(f"level must be nominal, ordinal, interval or ratio, got {level!r}")
    _require(df, [item, worker, value])
    counts, domain = _value_counts(df, item, value, numeric=level != "nominal")
    return _alpha_from_counts(counts.T, domain, level)


def _alpha_from_counts(counts: np.ndarray, domain: np.ndarray, level: str) -> float:
    """:func:`krippendorff_alpha` from a values x items count matrix (the layout the aggregation's counts come
    in: sums over items run across a few long rows) and its sorted value domain, with the ``krippendorff``
    package (``krippendorff.alpha(value_counts=...)``, which takes items x values).

    Raises:
        ValueError: items x values^2 above :data:`_ALPHA_MAX_ELEMENTS` (the package builds arrays of that shape).
    """
    import krippendorff

    used = counts.sum(axis=1) > 0  # values seen only in single-judgment items play no part
    counts, domain = counts[used], domain[used]
    if counts.shape[1] == 0 or len(domain) < 2:
        return float("nan")
    if counts.shape[1] * counts.shape[0] ** 2 > _ALPHA_MAX_ELEMENTS:
        raise ValueError(f"{counts.shape[1]} items x {counts.shape[0]} distinct values is too large for "
                         "krippendorff.alpha (items x values^2 arrays); round the values")
    value_domain = domain if level != "nominal" else np.arange(len(domain))
    return float(krippendorff.alpha(value_counts=counts.T, value_domain=value_domain,
                                    level_of_measurement=level))  # type: ignore[arg-type]  # checked above


def label_distribution(df: pd.DataFrame, item: str = "item", label: str = "label",
                       categories: Sequence | None = None, normalize: bool = True) -> pd.DataFrame:
    """Per-item label counts or shares as a wide table (ChaosNLI's ``label_count`` / ``label_dist``).

    Args:
        df: long table; item, label: its columns.
        categories: the label columns, in this order (e.g. ``["e", "n", "c"]`` for ChaosNLI); default the
            sorted distinct labels. A label of the data not among them is an error.
        normalize: shares (each row sums to 1) rather than counts.

    Returns:
        DataFrame ``[item, <one column per category>]`` in order of first appearance; counts are int, shares
        float in [0, 1].

    Raises:
        ValueError: a missing column or value, a label not in ``categories``.
    """
    v = _Votes(df, item, label)
    labels = list(v.labels)
    cats = labels if categories is None else list(categories)
    unknown = [lab for lab in labels if lab not in cats]
    if unknown:
        raise ValueError(f"label {unknown[0]!r} is not among the categories {cats}")
    col = np.array([cats.index(lab) for lab in labels], dtype=np.int64)
    counts = np.zeros((len(v.items), len(cats)), dtype=np.int64)
    counts[v.p_item, col[v.p_label]] = v.count
    values = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1) if normalize else counts
    out = pd.DataFrame(values, columns=cats)
    out.insert(0, item, v.items)
    return out


def label_entropy(df: pd.DataFrame, item: str = "item", label: str = "label", base: float = 2) -> pd.DataFrame:
    """Entropy of each item's label distribution, ``-sum p log_base p`` (0 log 0 = 0).

    ChaosNLI (Nie et al. 2020) reports it in base 2 over its 100 labels per item: 0 = unanimous, log2(3) =
    1.585 = uniform over three classes.

    Returns:
        DataFrame ``[item, entropy, n_votes]`` in order of first appearance (entropy float >= 0).

    Raises:
        ValueError: a missing column or value, ``base`` <= 0 or 1.
    """
    if base <= 0 or base == 1:
        raise ValueError(f"base must be positive and not 1, got {base}")
    v = _Votes(df, item, label)
    p = v.count / v.n_votes[v.p_item]
    terms = -p * np.log(p) / np.log(base)
    entropy = np.add.reduceat(terms, v.starts) if len(terms) else terms
    return pd.DataFrame({item: v.items, "entropy": entropy + 0.0, "n_votes": v.n_votes.astype(np.int64)})
