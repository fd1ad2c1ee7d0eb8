"""Estimators of pipeline.crowd.estimators: synthetic cases, crowd-kit and krippendorff cross-checks, and real data
(ChaosNLI label distributions and entropy, USTS mean and population SD)."""

from __future__ import annotations

import json
import math
import time
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from pipeline.crowd import estimators as E


def table(rows, cols=("item", "worker", "label")):
    return pd.DataFrame(rows, columns=list(cols))


# ---------------------------------------------------------------- majority vote


def test_majority_vote_columns_counts_and_item_order():
    df = table([("b", "w1", "x"), ("a", "w1", "y"), ("b", "w2", "x"), ("b", "w3", "z"), ("a", "w2", "y")])
    out = E.majority_vote(df)
    assert list(out.columns) == ["item", "label", "n_votes", "majority_share"]
    assert out["item"].tolist() == ["b", "a"]  # first appearance
    assert out["label"].tolist() == ["x", "y"]
    assert out["n_votes"].tolist() == [3, 2]
    assert out["majority_share"].tolist() == pytest.approx([2 / 3, 1.0])


def test_majority_vote_uses_the_given_column_names():
    df = pd.DataFrame({"pair": [1, 1, 2], "answer": ["T", "T", "F"]})
    out = E.majority_vote(df, item="pair", label="answer")
    assert list(out.columns) == ["pair", "answer", "n_votes", "majority_share"]
    assert out.set_index("pair")["answer"].to_dict() == {1: "T", 2: "F"}


TIED = table([("t", "w1", "TRUE"), ("t", "w2", "FALSE"), ("t", "w3", "UNKNOWN"), ("t", "w4", "TRUE"),
              ("t", "w5", "FALSE"), ("u", "w1", "TRUE"), ("u", "w2", "TRUE"), ("u", "w3", "FALSE")])


def test_ties_none_gives_dash_and_keeps_share():
    out = E.majority_vote(TIED, ties="none").set_index("item")
    assert out.loc["t", "label"] == "-"
    assert out.loc["t", "majority_share"] == pytest.approx(0.4)
    assert out.loc["u", "label"] == "TRUE"


def test_ties_label_is_used_for_every_tie_even_when_not_among_the_tied():
    # TRUE and FALSE tie 2-2: the fallback UNKNOWN (not among the tied) is the answer, as SICK's neutral
    out = E.majority_vote(TIED, ties="UNKNOWN").set_index("item")
    assert out.loc["t", "label"] == "UNKNOWN"
    assert out.loc["u", "label"] == "TRUE"  # no tie: untouched
    assert E.majority_vote(TIED, ties="FALSE").set_index("item").loc["t", "label"] == "FALSE"


def test_ties_label_with_integer_labels():
    df = pd.DataFrame({"item": [1, 1, 2, 2, 2], "label": [0, 1, 1, 1, 0]})
    assert E.majority_vote(df, ties=1)["label"].tolist() == [1, 1]
    assert E.majority_vote(df, ties=0)["label"].tolist() == [0, 1]
    assert E.majority_vote(df)["label"].tolist() == ["-", 1]


def test_ties_random_picks_a_tied_label_deterministically():
    rng = np.random.default_rng(3)
    rows = []
    for i in range(400):  # every item a 2-2 tie between two of three labels
        a, b = rng.choice(["e", "n", "c"], 2, replace=False)
        rows += [(f"i{i}", "w1", a), (f"i{i}", "w2", b), (f"i{i}", "w3", a), (f"i{i}", "w4", b)]
    df = table(rows)
    out = E.majority_vote(df, ties="random", seed=7)
    tied_sets = df.groupby("item")["label"].agg(set)
    assert all(lab in tied_sets[i] for i, lab in zip(out["item"], out["label"]))
    # same seed: same picks, whatever the row order and whatever other items are present
    shuffled = df.sample(frac=1, random_state=1)
    again = E.majority_vote(shuffled, ties="random", seed=7).set_index("item")["label"]
    assert again.reindex(out["item"]).tolist() == out["label"].tolist()
    half = E.majority_vote(df[df["item"].isin([f"i{i}" for i in range(0, 400, 2)])], ties="random", seed=7)
    assert half.set_index("item")["label"].to_dict().items() <= out.set_index("item")["label"].to_dict().items()
    # another seed changes some picks; first and second tied label each chosen about half the time
    other = E.majority_vote(df, ties="random", seed=8)
    assert (other["label"] != out["label"]).sum() > 100
    first_sorted = [sorted(tied_sets[i])[0] == lab for i, lab in zip(out["item"], out["label"])]
    assert 150 < sum(first_sorted) < 250


def test_min_votes_is_snlis_rule_and_ties_apply_above_it():
    df = table([("a", "w1", "e"), ("a", "w2", "e"), ("a", "w3", "n"), ("a", "w4", "c"), ("a", "w5", "e"),
                ("b", "w1", "e"), ("b", "w2", "e"), ("b", "w3", "n"), ("b", "w4", "n"), ("b", "w5", "c"),
                ("c", "w1", "e"), ("c", "w2", "e"), ("c", "w3", "e"), ("c", "w4", "n"), ("c", "w5", "n"),
                ("c", "w6", "n")])
    out = E.majority_vote(df, min_votes=3, ties="e", details=True).set_index("item")
    assert out.loc["a", "label"] == "e"       # 3 of 5
    assert out.loc["b", "label"] == "-"       # 2-2-1: nobody reaches 3, even with a tie fallback
    assert out.loc["c", "label"] == "e"       # 3-3 tie at K: the tie rule
    assert out.loc["c", "n_tied"] == 2 and out.loc["b", "top_votes"] == 2
    with pytest.raises(ValueError):
        E.majority_vote(df, min_votes=0)


def test_majority_vote_rejects_missing_values_and_columns():
    with pytest.raises(ValueError, match="missing"):
        E.majority_vote(table([("a", "w", None), ("a", "w2", "x")]))
    with pytest.raises(ValueError, match="no column 'answer'"):
        E.majority_vote(table([("a", "w", "x")]), label="answer")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # crowd-kit 1.4 on pandas 3
def test_majority_vote_agrees_with_crowdkit_where_there_is_no_tie():
    from crowdkit.aggregation import MajorityVote

    rng = np.random.default_rng(0)
    n = 20_000
    df = pd.DataFrame({"task": rng.integers(0, 3_000, n).astype(str), "worker": rng.integers(0, 300, n).astype(str),
                       "label": rng.choice(["a", "b", "c", "d"], n, p=[0.5, 0.2, 0.2, 0.1])})
    ours = E.majority_vote(df, item="task", ties="none", details=True).set_index("task")
    theirs = MajorityVote().fit_predict(df)
    clear = ours["n_tied"] == 1
    assert clear.sum() > 2_000
    assert (ours.loc[clear, "label"] == theirs.reindex(ours.index[clear])).all()


def test_majority_vote_is_fast_on_a_million_judgments():
    rng = np.random.default_rng(1)
    n = 1_000_000
    df = pd.DataFrame({"item": rng.integers(0, 100_000, n).astype(str), "label": rng.choice(["e", "n", "c"], n)})
    t0 = time.perf_counter()
    out = E.majority_vote(df, ties="random", seed=1)
    elapsed = time.perf_counter() - t0
    assert len(out) == df["item"].nunique()
    assert out["n_votes"].sum() == n
    assert elapsed < 10, f"majority_vote took {elapsed:.1f} s"


# ---------------------------------------------------------------- Dawid-Skene


def _spammer_data(seed=0):
    """300 binary items; 3 accurate workers (90 %) and 4 spammers who always answer 1."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 2, 300)
    rows = []
    for i, t in enumerate(truth):
        for w in range(3):
            rows.append((f"q{i}", f"good{w}", int(t if rng.random() < 0.9 else 1 - t)))
        for w in range(4):
            rows.append((f"q{i}", f"spam{w}", 1))
    return pd.DataFrame(rows, columns=["question", "annotator", "answer"]), truth


def test_dawid_skene_beats_majority_against_spammers_and_is_deterministic():
    df, truth = _spammer_data()
    ds = E.dawid_skene(df, item="question", worker="annotator", label="answer")
    assert list(ds.columns) == ["question", "answer"]
    assert ds["question"].tolist() == [f"q{i}" for i in range(300)]
    ds_acc = (ds["answer"].to_numpy() == truth).mean()
    mv = E.majority_vote(df, item="question", label="answer", ties=1)
    mv_acc = (mv["answer"].to_numpy() == truth).mean()
    assert mv_acc < 0.6 and ds_acc > 0.8  # the spammers outvote the good workers on every 0 item
    again = E.dawid_skene(df.sample(frac=1, random_state=2), item="question", worker="annotator", label="answer")
    assert again.set_index("question")["answer"].reindex(ds["question"]).tolist() == ds["answer"].tolist()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # crowd-kit 1.4 on pandas 3
def test_dawid_skene_is_crowdkits():
    from crowdkit.aggregation import DawidSkene

    df, _ = _spammer_data(1)
    ours = E.dawid_skene(df, item="question", worker="annotator", label="answer", n_iter=50)
    theirs = DawidSkene(n_iter=50).fit_predict(df.rename(columns={"question": "task", "annotator": "worker",
                                                                  "answer": "label"}))
    assert ours.set_index("question")["answer"].to_dict() == theirs.to_dict()
    with pytest.raises(ValueError):
        E.dawid_skene(df, item="question", worker="annotator", label="answer", n_iter=0)


# ---------------------------------------------------------------- numeric summary


def test_numeric_summary_ddof_and_undefined_sd():
    df = pd.DataFrame({"item": ["a", "a", "a", "b", "c", "c"], "value": ["1", "2", "4", "3", 2.5, 3.5]})
    one = E.numeric_summary(df, ddof=1).set_index("item")
    zero = E.numeric_summary(df, ddof=0).set_index("item")
    assert list(E.numeric_summary(df).columns) == ["item", "mean", "sd", "n"]
    assert one.loc["a", "mean"] == pytest.approx(7 / 3)
    assert one.loc["a", "sd"] == pytest.approx(np.std([1, 2, 4], ddof=1))
    assert zero.loc["a", "sd"] == pytest.approx(np.std([1, 2, 4], ddof=0))
    assert math.isnan(one.loc["b", "sd"]) and zero.loc["b", "sd"] == 0.0
    assert one["n"].tolist() == [3, 1, 2]
    assert math.isnan(E.numeric_summary(df, ddof=2).set_index("item").loc["c", "sd"])
    with pytest.raises(ValueError, match="not a finite number"):
        E.numeric_summary(pd.DataFrame({"item": ["a"], "value": ["high"]}))
    with pytest.raises(ValueError):
        E.numeric_summary(df, ddof=-1)


# ---------------------------------------------------------------- Krippendorff's alpha


def _reliability_matrix(df):
    """Workers x items matrix (NaN = not judged): the package's other input form, for a cross-check."""
    m = df.assign(v=df["label"].astype(float)).pivot(index="worker", columns="item", values="v")
    return m.to_numpy(dtype=float)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_krippendorff_alpha_with_value_counts_equals_reliability_data(level):
    import krippendorff

    rng = np.random.default_rng(5)
    rows = []
    for i in range(60):
        true = rng.integers(1, 6)
        for w in rng.choice(40, size=rng.integers(1, 6), replace=False):  # 1-5 workers per item, little overlap
            rows.append((f"i{i}", f"w{w}", int(np.clip(true + rng.integers(-1, 2), 1, 5))))
    df = table(rows)
    ours = E.krippendorff_alpha(df, level=level)
    theirs = krippendorff.alpha(reliability_data=_reliability_matrix(df), level_of_measurement=level)
    assert ours == pytest.approx(theirs, abs=1e-12)
    assert -1 < ours < 1


def test_krippendorff_alpha_edge_cases():
    perfect = table([("a", "w1", "x"), ("a", "w2", "x"), ("b", "w1", "y"), ("b", "w3", "y"), ("c", "w9", "x")])
    assert E.krippendorff_alpha(perfect) == pytest.approx(1.0)
    one_value = table([("a", "w1", "x"), ("a", "w2", "x"), ("b", "w1", "x"), ("b", "w3", "x")])
    assert math.isnan(E.krippendorff_alpha(one_value))
    singles = table([("a", "w1", "x"), ("b", "w1", "y")])
    assert math.isnan(E.krippendorff_alpha(singles))
    with pytest.raises(ValueError):
        E.krippendorff_alpha(perfect, level="fuzzy")
    with pytest.raises(ValueError):
        E.krippendorff_alpha(perfect, level="interval")  # labels are not numbers


# ---------------------------------------------------------------- distributions and entropy


def test_label_distribution_and_entropy():
    df = table([("a", "w1", "e"), ("a", "w2", "e"), ("a", "w3", "n"), ("a", "w4", "c"), ("b", "w1", "n")])
    dist = E.label_distribution(df, categories=["e", "n", "c"])
    assert list(dist.columns) == ["item", "e", "n", "c"]
    assert dist.iloc[0, 1:].tolist() == [0.5, 0.25, 0.25] and dist.iloc[1, 1:].tolist() == [0, 1, 0]
    counts = E.label_distribution(df, categories=["e", "n", "c"], normalize=False)
    assert counts.iloc[0, 1:].tolist() == [2, 1, 1]
    ent = E.label_entropy(df)
    assert ent["entropy"].tolist() == pytest.approx([1.5, 0.0])
    assert ent["n_votes"].tolist() == [4, 1]
    assert E.label_entropy(df, base=math.e)["entropy"].iloc[0] == pytest.approx(1.5 * math.log(2))
    with pytest.raises(ValueError, match="not among the categories"):
        E.label_distribution(df, categories=["e", "n"])


# ---------------------------------------------------------------- real data


@pytest.mark.realdata
@pytest.mark.parametrize("name", ["snli", "mnli_m", "alphanli"])
def test_chaosnli_distribution_and_entropy_reproduce_the_files_fields(shared_data, name):
    path = shared_data / "nli_raw" / "chaosnli_v1.0" / f"chaosNLI_{name}.jsonl"
    if not path.exists():
        pytest.skip(f"{path} not found")
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    cats = ["1", "2"] if name == "alphanli" else ["e", "n", "c"]
    # the 100 labels of each item as a long table (one row per label)
    long = pd.DataFrame([(r["uid"], lab) for r in records for lab, k in r["label_counter"].items() for _ in range(k)],
                        columns=["item", "label"])
    assert len(long) == 100 * len(records)
    dist = E.label_distribution(long, categories=cats).set_index("item")
    counts = E.label_distribution(long, categories=cats, normalize=False).set_index("item")
    ent = E.label_entropy(long, base=2).set_index("item")
    mv = E.majority_vote(long, details=True).set_index("item")
    for r in records:
        assert counts.loc[r["uid"]].tolist() == r["label_count"]
        assert dist.loc[r["uid"]].tolist() == pytest.approx(r["label_dist"], abs=1e-12)
        assert ent.loc[r["uid"], "entropy"] == pytest.approx(r["entropy"], abs=1e-9)
        # independent check of the entropy from the counter itself
        assert r["entropy"] == pytest.approx(-sum(k / 100 * math.log2(k / 100) for k in r["label_counter"].values()
                                                  if k), abs=1e-9)
    clear = [r for r in records if mv.loc[r["uid"], "n_tied"] == 1]
    assert len(clear) >= len(records) - 20  # ChaosNLI: 14 tied items per NLI file
    assert all(mv.loc[r["uid"], "label"] == str(r["majority_label"]) for r in clear)


def _usts(shared_data):
    root = shared_data / "raw_ratings" / "usts"
    files = sorted(root.glob("usts[cu]/*.json"))
    if not files:
        pytest.skip(f"USTS files not found under {root}")
    return files


@pytest.mark.realdata
def test_usts_mean_and_population_sd_reproduce_the_published_figures(shared_data):
    n_items = 0
    for path in _usts(shared_data):
        data = json.loads(path.read_text(encoding="utf-8"))
        long = pd.DataFrame([(k, j, x) for k, v in data.items() for j, x in enumerate(v["raw_annotation"])],
                            columns=["item", "worker", "value"])
        out = E.numeric_summary(long, ddof=0).set_index("item")
        published = pd.DataFrame.from_dict(data, orient="index")
        assert out["n"].to_dict() == published["raw_annotation"].map(len).to_dict()
        assert np.abs(out["mean"] - published["mean_score"].reindex(out.index)).max() <= 0.005 + 1e-9, path
        assert np.abs(out["sd"] - published["std"].reindex(out.index)).max() <= 0.005 + 1e-9, path
        # the sample SD (ddof 1) is not what USTS published
        sample = E.numeric_summary(long, ddof=1).set_index("item")
        assert (np.abs(sample["sd"] - published["std"].reindex(out.index)) > 0.005).mean() > 0.5
        # independent check on the first items with the standard library
        for k in list(data)[:50]:
            raw = data[k]["raw_annotation"]
            mean = sum(raw) / len(raw)
            assert out.loc[k, "mean"] == pytest.approx(mean)
            assert out.loc[k, "sd"] == pytest.approx(math.sqrt(sum((x - mean) ** 2 for x in raw) / len(raw)))
        alpha = E.krippendorff_alpha(long, value="value", level="interval")
        assert 0 < alpha < 1
        n_items += len(data)
    assert n_items == 14_951


@pytest.mark.realdata
def test_snow_rte_alpha_and_ties_with_estimators(shared_data):
    path = shared_data / "snow2008_rte" / "all_collected_data" / "rte.standardized.tsv"
    if not path.exists():
        pytest.skip(f"{path} not found")
    df = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    mv = E.majority_vote(df, item="orig_id", label="response", details=True)
    counts = df.groupby("orig_id")["response"].agg(lambda s: tuple(sorted(Counter(s).values())))
    assert (mv["n_tied"] > 1).sum() == (counts == (5, 5)).sum() == 65
    # 0.24148: "RTE Krippendorff alpha (nominal, all 10 raters/item)" in ../shared/data/snow2008_rte/PROVENANCE.txt
    assert E.krippendorff_alpha(df, "orig_id", "!amt_worker_ids", "response") == pytest.approx(0.2415, abs=5e-5)
