"""Synthetic crowd judgments for demos, tests and load: ``sick simulate-judgments``.

The output is labelled SYNTHETIC twice: every worker id starts with ``synthetic-w`` and a companion
``<out>.manifest.json`` (``"synthetic": true``) records the model, its parameters, the seed, the corpus hash and
which workers were spammers. The judgments file itself has exactly the columns of our judgment CSV
(:data:`pipeline.judgments.JUDGMENT_COLUMNS`: ``pair_ID worker_id order relatedness answer is_control``).

Generative model
================
SICK's crowd task (Marelli et al. 2014, LREC, section 3.4): every pair is judged by 10 different people, 5 with
sentence A shown first (order ``AB``) and 5 with B first (``BA``), each giving a relatedness rating 1-5 and an
answer to "if the first sentence is true, is the second true / cannot say / false" (``TRUE|UNKNOWN|FALSE``).

1. **Pair type group.** Each corpus row falls in one of eight groups, from its ``pair_type`` and ``set`` columns
   (:func:`pair_group`): ``S1aS1b``, ``S1S2-same``, ``S1S2-cross``, ``S1S3-same``, ``S1S3-cross``,
   ``S1S4-same``, ``S1S4-cross``, ``unrelated``. (``same``: the expansion of the S1 of the pair; ``cross``: of
   the other S1 of the source pair; sentence A is always the S1.)
2. **True relatedness** of a pair: ``Normal(mean_g, sd_g)`` of its group, clipped to [1, 5].
3. **True relation** of a pair, one of five, drawn with the group's probabilities. It fixes the correct answer
   of each presentation order, so entailment can be one-way:

   ============== ============ ============ ===================
   relation        AB answer    BA answer    SICK gold label
   ============== ============ ============ ===================
   ``mutual``      TRUE         TRUE         ENTAILMENT
   ``forward``     TRUE         UNKNOWN      ENTAILMENT
   ``backward``    UNKNOWN      TRUE         NEUTRAL
   ``contradict``  FALSE        FALSE        CONTRADICTION
   ``neutral``     UNKNOWN      UNKNOWN      NEUTRAL
   ============== ============ ============ ===================

4. **Workers.** ``round(spammer_share * workers)`` of them, chosen with the seed, are spammers: uniform random
   answers and uniform random ratings 1-5. A good worker ``w`` has an answer accuracy ``acc_w ~ Uniform(accuracy)``
   (a wrong answer is one of the two others, equally likely) and a rating bias ``b_w ~ Normal(0, worker_bias_sd)``;
   a rating is ``round(true_relatedness + b_w + Normal(0, rating_noise))`` clipped to 1-5.
5. **Assignment.** Each pair gets ``2 * per_order`` distinct workers drawn uniformly without replacement; the first
   ``per_order`` see order AB, the others BA.
6. **Controls** (pairs with known answers, ``controls``): each worker judges ``controls_per_worker`` distinct
   (control, order) items, drawn with the seed. Good workers give the known answer with probability
   ``control_accuracy`` (controls are meant to be easy) and rate uniformly inside the control's expected
   relatedness range, rounded inwards to whole ratings (1-5 when it has none); spammers answer at random.

Everything is drawn from one ``numpy.random.Generator(PCG64(seed))`` in a fixed order, so the same corpus, controls,
options and seed give byte-identical files.

Where the numbers come from
===========================
The per-group numbers of steps 2 and 3 are data, in ``annotations/simulation_model.yaml`` (read by
:func:`load_model`; ``sick simulate-judgments --model FILE`` takes another file of the same form). They are
**fitted to the SICK paper** (Marelli et al. 2014, LREC): Table 8 (mean and SD of the gold relatedness per pair
type) and Table 9 (share of each gold label per pair type), copied as numbers in
``annotations/paper_figures.yaml``. The paper's figures are *gold* figures, after aggregation, so the file's
numbers are those that give the paper's figures after a simulated round with the default workers and controls
and ``sick aggregate``'s quality control (``tests/crowd/sim_fit.py`` fits them; the file's header says which
table each number answers to). The default worker parameters (``SIMULATION_DEFAULTS``: rating noise 0.84,
accuracy 0.75-0.95, 10 % spammers) give section 4's agreement figures (mean rating SD 0.76, majority share .84).

``tests/crowd/test_aggregate.py`` checks, on a corpus of SICK's pair-type mix (Table 5): every Table 8 figure
within 0.15, every Table 9 share within 6 points, the corpus distributions within 2 points of Table 6. On a corpus
with another mix (our 750+750 build has three times SICK's share of S4 pairs) the per-type figures still hold,
but the corpus-wide distributions follow the mix.
"""

from __future__ import annotations

__all__ = ["DEFAULT_MODEL_FILE", "GROUPS", "GroupModel", "RELATIONS", "Simulation", "default_model",
           "expected_gold_shares", "load_model", "manifest_path", "pair_group", "simulate", "simulate_judgments",
           "write_judgments"]

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pipeline import __version__
from pipeline.common.errors import InputError
from pipeline.common.files import atomic_file, key_lines, sha256_file, write_json
from pipeline.common.options import SIMULATION_DEFAULTS
from pipeline.common.resources import ANNOTATIONS_DIR
from pipeline.common.vocabulary import ANSWERS, ORDERS, PAIR_GROUPS, pair_group
from pipeline.crowd.judgments import JUDGMENT_COLUMNS

RELATIONS = ("mutual", "forward", "backward", "contradict", "neutral")
"""True relation of a synthetic pair (see the module docstring)."""

_RELATION_ANSWERS = {  # relation -> (AB answer, BA answer) as indices into ANSWERS = (TRUE, UNKNOWN, FALSE)
    "mutual": (0, 0), "forward": (0, 1), "backward": (1, 0), "contradict": (2, 2), "neutral": (1, 1),
}
RELATION_GOLD = {"mutual": "ENTAILMENT", "forward": "ENTAILMENT", "backward": "NEUTRAL",
                 "contradict": "CONTRADICTION", "neutral": "NEUTRAL"}

GROUPS = PAIR_GROUPS

DEFAULT_MODEL_FILE = ANNOTATIONS_DIR / "simulation_model.yaml"
"""The model the simulator uses unless given another: fitted to the paper's Tables 8 and 9 (module docstring)."""


class _GroupParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mean: float = Field(ge=1, le=5)
    sd: float = Field(ge=0, allow_inf_nan=False)
    relation: dict[str, float]
    why: str = ""

    @field_validator("relation")
    @classmethod
    def _probabilities(cls, value: dict[str, float]) -> dict[str, float]:
        missing, unknown = sorted(set(RELATIONS) - set(value)), sorted(set(value) - set(RELATIONS))
        if missing or unknown:
            raise ValueError(f"needs exactly the relations {', '.join(RELATIONS)}"
                             + (f"; missing {', '.join(missing)}" if missing else "")
                             + (f"; unknown {', '.join(unknown)}" if unknown else ""))
        if any(v < 0 for v in value.values()):
            raise ValueError("probabilities must be >= 0")
        if abs(sum(value.values()) - 1) > 1e-6:
            raise ValueError(f"probabilities must sum to 1, they sum to {sum(value.values()):.6g}")
        return value


class _ModelFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source: str = Field(min_length=1)
    stand_in: bool
    groups: dict[str, _GroupParams]


@dataclass(frozen=True)
class GroupModel:
    """The per-group parameters of the generative model (step 2 and 3 of the module docstring).

    Attributes:
        groups: ``{group: {"mean": float 1-5, "sd": float >= 0, "relation": tuple of RELATIONS probabilities}}``
            for every group in :data:`GROUPS`.
        source: where the numbers come from (the manifest's ``model_source``).
        stand_in: True while the numbers are not the SICK paper's Tables 8 and 9.
        path, sha256: the file it was read from, or None.
    """

    groups: dict
    source: str
    stand_in: bool
    path: str | None = None
    sha256: str | None = None


def load_model(path: str | Path = DEFAULT_MODEL_FILE) -> GroupModel:
    """Read a simulation model file (format: ``annotations/simulation_model.yaml``, whose header documents it).

    Raises:
        InputError: missing file, bad YAML, a missing or unknown field or group, a mean outside 1-5, a negative
            SD, relation probabilities that are not the five :data:`RELATIONS` or do not sum to 1. The message
            names the file, the line and the field (``groups.S1aS1b.relation``).
    """
    import yaml

    p = Path(path)
    if not p.is_file():
        raise InputError(path, "model file not found")
    try:
        text = p.read_text(encoding="utf-8")
        data = yaml.safe_load(text)
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise InputError(path, f"not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise InputError(path, "a model file is a mapping with source, stand_in and groups")
    try:
        parsed = _ModelFile(**data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(str(x) for x in err["loc"])
        lines = key_lines(text)  # parses the text again: only for an error
        line = next((lines[loc[:i]] for i in range(len(loc), 0, -1) if loc[:i] in lines), None)
        raise InputError(path, err["msg"], line=line, field=".".join(loc) or None) from None
    missing, unknown = sorted(set(GROUPS) - set(parsed.groups)), sorted(set(parsed.groups) - set(GROUPS))
    if missing or unknown:
        problem = "; ".join(x for x in (f"missing group(s) {', '.join(missing)}" if missing else "",
                                       f"unknown group(s) {', '.join(unknown)}" if unknown else "") if x)
        raise InputError(path, f"{problem} (groups are {', '.join(GROUPS)})", line=key_lines(text).get(("groups",)),
                         field="groups")
    groups = {g: {"mean": parsed.groups[g].mean, "sd": parsed.groups[g].sd,
                  "relation": tuple(parsed.groups[g].relation[r] for r in RELATIONS)} for g in GROUPS}
    return GroupModel(groups, " ".join(parsed.source.split()), parsed.stand_in, str(path), sha256_file(p))


@lru_cache(maxsize=1)
def default_model() -> GroupModel:
    """:func:`load_model` of :data:`DEFAULT_MODEL_FILE`, read once."""
    return load_model(DEFAULT_MODEL_FILE)


DEFAULTS = SIMULATION_DEFAULTS
WORKER_PREFIX = "synthetic-w"


def _groups(model: GroupModel | dict | None) -> dict:
    if model is None:
        return default_model().groups
    return model.groups if isinstance(model, GroupModel) else model


def expected_gold_shares(model: GroupModel | dict | None = None) -> dict[str, dict[str, float]]:
    """Per group, the gold-label probabilities the model implies (ENTAILMENT / CONTRADICTION / NEUTRAL).

    ``model``: a :class:`GroupModel`, its ``groups`` dict, or None for :func:`default_model`.
    """
    out = {}
    for g, m in _groups(model).items():
        shares = {"ENTAILMENT": 0.0, "CONTRADICTION": 0.0, "NEUTRAL": 0.0}
        for rel, p in zip(RELATIONS, m["relation"]):
            shares[RELATION_GOLD[rel]] += p
        out[g] = {k: round(v, 6) for k, v in shares.items()}
    return out


@dataclass
class Simulation:
    """What :func:`simulate` made.

    Attributes:
        judgments: the judgment table (our CSV's columns; ``relatedness`` int, ``is_control`` bool).
        truth: per corpus pair: ``pair_ID group true_relatedness relation answer_AB answer_BA gold_label``.
        workers: ``worker_id spammer accuracy bias``.
        manifest: the JSON-able description written beside the CSV.
    """

    judgments: pd.DataFrame
    truth: pd.DataFrame
    workers: pd.DataFrame
    manifest: dict = field(default_factory=dict)


_CONTROL_COLUMNS = ["pair_ID", "answer_AB", "answer_BA", "relatedness_min", "relatedness_max"]


def _controls_table(controls) -> pd.DataFrame:
    """Controls as ``pair_ID answer_AB answer_BA relatedness_min relatedness_max``, the range rounded inwards to
    whole ratings (a range holding none becomes the rating nearest its middle).

    Accepts the dict of :func:`pipeline.aggregate.load_controls` (answers already normalised, range or None) or
    a DataFrame with ``pair_ID``, ``answer_AB``, ``answer_BA`` (``TRUE|UNKNOWN|FALSE`` in any case, or empty) and
    optional ``relatedness_min``/``relatedness_max`` (default 1 and 5).
    """
    if controls is None:
        return pd.DataFrame(columns=_CONTROL_COLUMNS)
    if isinstance(controls, dict):
        df = pd.DataFrame([(cid, c.get("AB") or "", c.get("BA") or "", *(c.get("relatedness") or (1, 5)))
                           for cid, c in controls.items()], columns=_CONTROL_COLUMNS)
    else:
        missing = [col for col in _CONTROL_COLUMNS[:3] if col not in controls.columns]
        if missing:
            raise ValueError(f"controls need a {missing[0]!r} column, got {list(controls.columns)}")
        df = controls.copy()
        for col in ("answer_AB", "answer_BA"):
            df[col] = df[col].fillna("").astype(str).str.strip().str.upper()
            bad = sorted(set(df[col]) - set(ANSWERS) - {""})
            if bad:
                raise ValueError(f"control {col} must be one of {ANSWERS} (or empty), got {bad}")
    for col, default, whole in (("relatedness_min", 1, np.ceil), ("relatedness_max", 5, np.floor)):
        values = df[col].replace("", np.nan) if col in df.columns else pd.Series(default, index=df.index)
        values = pd.to_numeric(values, errors="coerce").fillna(default).to_numpy(dtype=float)
        df[col] = np.clip(whole(values - (1e-9 if whole is np.ceil else -1e-9)), 1, 5).astype(int)
    flip = df["relatedness_min"] > df["relatedness_max"]  # a range holding no whole rating, e.g. [2.2, 2.8]
    if flip.any():
        mid = np.rint((df.loc[flip, "relatedness_min"] + df.loc[flip, "relatedness_max"]) / 2).astype(int)
        df.loc[flip, "relatedness_min"] = mid
        df.loc[flip, "relatedness_max"] = mid
    df["pair_ID"] = df["pair_ID"].astype(str)
    return df[_CONTROL_COLUMNS].reset_index(drop=True)


def _choose_workers(rng: np.random.Generator, n_items: int, n_workers: int, k: int, chunk: int = 20000):
    """``n_items`` x ``k`` matrix of distinct worker indices per row, uniformly drawn, in random order.

    A large crowd (``n_workers > 8 k``): ``k`` uniform draws per row, rows with a repeated worker drawn again
    until none is left. A small crowd: the ``k`` smallest of ``n_workers`` uniform keys per row.
    """
    if n_workers > 8 * k:
        out = rng.integers(0, n_workers, (n_items, k))
        todo = np.arange(n_items)
        while True:
            srt = np.sort(out[todo], axis=1)
            dup = (srt[:, 1:] == srt[:, :-1]).any(axis=1) if k > 1 else np.zeros(len(todo), dtype=bool)
            todo = todo[dup]
            if not len(todo):
                return out
            out[todo] = rng.integers(0, n_workers, (len(todo), k))
    out = np.empty((n_items, k), dtype=np.int64)
    for start in range(0, n_items, chunk):
        stop = min(n_items, start + chunk)
        r = rng.random((stop - start, n_workers))
        idx = (np.argpartition(r, k - 1, axis=1)[:, :k] if k < n_workers
               else np.tile(np.arange(n_workers), (stop - start, 1)))
        keys = np.take_along_axis(r, idx, axis=1)
        out[start:stop] = np.take_along_axis(idx, np.argsort(keys, axis=1, kind="stable"), axis=1)
    return out


def simulate(corpus: pd.DataFrame, workers: int = DEFAULTS["workers"], per_order: int = DEFAULTS["per_order"],
             seed: int = DEFAULTS["seed"], spammer_share: float = DEFAULTS["spammer_share"], controls=None, *,
             controls_per_worker: int = DEFAULTS["controls_per_worker"],
             accuracy: tuple[float, float] = DEFAULTS["accuracy"],
             control_accuracy: float = DEFAULTS["control_accuracy"], rating_noise: float = DEFAULTS["rating_noise"],
             worker_bias_sd: float = DEFAULTS["worker_bias_sd"], model: GroupModel | dict | None = None) -> Simulation:
    """Simulate a SICK-style crowd round on ``corpus`` (see the module docstring for the model).

    Args:
        corpus: corpus rows with ``pair_ID``, ``pair_type`` and ``set`` (as ``corpus.tsv``).
        workers: crowd size; must be at least ``2 * per_order``.
        per_order: judgments per pair and presentation order (SICK: 5).
        seed: random seed; everything is determined by it.
        spammer_share: share of workers answering at random, in [0, 1].
        controls: control items (DataFrame ``pair_ID answer_AB answer_BA [relatedness_min relatedness_max]`` or
            the dict of :func:`pipeline.aggregate.load_controls`), or None for no control judgments.
        controls_per_worker: control judgments per worker (distinct control x order items; fewer when there are
            fewer such items).
        accuracy: range of good workers' answer accuracy (uniform).
        control_accuracy: probability that a good worker answers a control as expected.
        rating_noise: SD of a good worker's rating noise; worker_bias_sd: SD of a worker's rating offset.
        model: a :class:`GroupModel` (:func:`load_model`), or a dict ``{group: {"mean", "sd", "relation"}}``;
            None: :func:`default_model` (``annotations/simulation_model.yaml``, fitted to Tables 8 and 9).

    Raises:
        ValueError: bad parameters, a corpus without ``pair_type``/``set`` or with unknown pair types.
    """
    if per_order < 1:
        raise ValueError(f"per_order must be at least 1, got {per_order}")
    if workers < 2 * per_order:
        raise ValueError(f"{workers} workers cannot give {2 * per_order} distinct judgments per pair")
    if not 0 <= spammer_share <= 1:
        raise ValueError(f"spammer_share must be in [0, 1], got {spammer_share}")
    lo, hi = accuracy
    if not 0 <= lo <= hi <= 1:
        raise ValueError(f"accuracy must be a range inside [0, 1], got {accuracy}")
    model = default_model() if model is None else model
    source = model if isinstance(model, GroupModel) else None
    model = _groups(model)
    for col in ("pair_ID", "pair_type", "set"):
        if col not in corpus.columns:
            raise ValueError(f"the corpus has no {col!r} column (a corpus.tsv from `sick build` has)")
    ids = corpus["pair_ID"].astype(str).to_numpy()
    if len(set(ids)) != len(ids):
        dup = pd.Series(ids)[pd.Series(ids).duplicated()].iloc[0]
        raise ValueError(f"pair_ID {dup!r} appears more than once in the corpus")
    kinds = pd.MultiIndex.from_arrays([corpus["pair_type"].astype(str), corpus["set"].astype(str)])
    kind_code, kind_uniques = pd.factorize(kinds)
    groups = np.array([pair_group(pt, st) for pt, st in kind_uniques], dtype=object)[kind_code]
    missing = sorted(set(groups) - set(model))
    if missing:
        raise ValueError(f"the model has no parameters for group(s) {missing}")
    ctl = _controls_table(controls)

    rng = np.random.Generator(np.random.PCG64(seed))
    n, k2 = len(ids), 2 * per_order

    # workers
    width = max(3, len(str(workers)))
    worker_ids = np.array([f"{WORKER_PREFIX}{i + 1:0{width}d}" for i in range(workers)], dtype=object)
    n_spam = int(round(spammer_share * workers))
    spam = np.zeros(workers, dtype=bool)
    spam[rng.permutation(workers)[:n_spam]] = True
    acc = rng.uniform(lo, hi, workers)
    bias = rng.normal(0.0, worker_bias_sd, workers)

    # pairs
    g_code, g_uniques = pd.factorize(groups)
    mean = np.array([model[g]["mean"] for g in g_uniques], dtype=float)[g_code]
    sd = np.array([model[g]["sd"] for g in g_uniques], dtype=float)[g_code]
    true_rel = np.clip(mean + sd * rng.standard_normal(n), 1.0, 5.0)
    probs = np.array([model[g]["relation"] for g in g_uniques], dtype=float).reshape(-1, len(RELATIONS))[g_code]
    probs = probs / probs.sum(axis=1, keepdims=True)
    u = rng.random(n)
    rel_idx = np.minimum((u[:, None] > np.cumsum(probs, axis=1)).sum(axis=1), len(RELATIONS) - 1)
    rel_answers = np.array([_RELATION_ANSWERS[r] for r in RELATIONS], dtype=np.int64)
    true_ab, true_ba = rel_answers[rel_idx, 0], rel_answers[rel_idx, 1]

    # judgments on corpus pairs: row-major (pair, slot); slots < per_order are AB
    who = _choose_workers(rng, n, workers, k2).reshape(-1)
    pair_idx = np.repeat(np.arange(n), k2)
    is_ab = np.tile(np.arange(k2) < per_order, n)
    truth_ans = np.where(is_ab, true_ab[pair_idx], true_ba[pair_idx])
    m = len(who)
    u_ans, u_wrong, spam_ans = rng.random(m), rng.integers(1, 3, m), rng.integers(0, 3, m)
    noise, spam_rating = rng.standard_normal(m), rng.integers(1, 6, m)
    good_ans = np.where(u_ans < acc[who], truth_ans, (truth_ans + u_wrong) % 3)
    answer = np.where(spam[who], spam_ans, good_ans)
    good_rating = np.clip(np.rint(true_rel[pair_idx] + bias[who] + rating_noise * noise), 1, 5).astype(np.int64)
    rating = np.where(spam[who], spam_rating, good_rating)
    main = pd.DataFrame({
        "pair_ID": ids[pair_idx], "worker_id": worker_ids[who],
        "order": np.where(is_ab, "AB", "BA").astype(object), "relatedness": rating.astype(np.int64),
        "answer": np.array(ANSWERS, dtype=object)[answer], "is_control": np.zeros(m, dtype=bool),
    })

    # control judgments
    exp_codes = np.array([[ANSWERS.index(a) if a else -1 for a in ctl[f"answer_{o}"]] for o in ORDERS],
                         dtype=np.int64).reshape(len(ORDERS), len(ctl)).T  # controls x orders, -1 = none
    items = [(i, o) for i in range(len(ctl)) for o in range(len(ORDERS)) if exp_codes[i, o] >= 0]
    parts = [main]
    n_ctl = 0
    if items and controls_per_worker > 0:
        per = min(controls_per_worker, len(items))
        chosen = _choose_workers(rng, workers, len(items), per)  # rows: workers, values: item indices
        c_worker = np.repeat(np.arange(workers), per)
        c_item = chosen.reshape(-1)
        item_arr = np.array(items, dtype=np.int64)
        c_ctl, c_ord = item_arr[c_item, 0], item_arr[c_item, 1]
        c_order = np.array(ORDERS, dtype=object)[c_ord]
        expected = exp_codes[c_ctl, c_ord]
        mc = len(c_worker)
        u_c, w_c, s_c = rng.random(mc), rng.integers(1, 3, mc), rng.integers(0, 3, mc)
        r_u, s_r = rng.random(mc), rng.integers(1, 6, mc)
        rmin = ctl["relatedness_min"].to_numpy()[c_ctl]
        rmax = ctl["relatedness_max"].to_numpy()[c_ctl]
        good_c = np.where(u_c < control_accuracy, expected, (expected + w_c) % 3)
        ans_c = np.where(spam[c_worker], s_c, good_c)
        good_r = rmin + np.floor(r_u * (rmax - rmin + 1)).astype(np.int64)
        rat_c = np.where(spam[c_worker], s_r, good_r)
        ctl_df = pd.DataFrame({
            "pair_ID": ctl["pair_ID"].to_numpy()[c_ctl], "worker_id": worker_ids[c_worker], "order": c_order,
            "relatedness": rat_c.astype(np.int64), "answer": np.array(ANSWERS, dtype=object)[ans_c],
            "is_control": np.ones(mc, dtype=bool),
        })
        parts.append(ctl_df)
        n_ctl = mc
    judgments = pd.concat(parts, ignore_index=True)[JUDGMENT_COLUMNS]

    rel_names = np.array(RELATIONS, dtype=object)[rel_idx]
    truth = pd.DataFrame({
        "pair_ID": ids, "group": groups, "true_relatedness": np.round(true_rel, 4), "relation": rel_names,
        "answer_AB": np.array(ANSWERS, dtype=object)[true_ab], "answer_BA": np.array(ANSWERS, dtype=object)[true_ba],
        "gold_label": np.array([RELATION_GOLD[r] for r in RELATIONS], dtype=object)[rel_idx],
    })
    worker_table = pd.DataFrame({"worker_id": worker_ids, "spammer": spam, "accuracy": np.round(acc, 4),
                                 "bias": np.round(bias, 4)})
    manifest = {
        "synthetic": True,
        "generator": "sick simulate-judgments (pipeline.simulate)",
        "version": __version__,
        "seed": seed,
        "params": {"workers": workers, "per_order": per_order, "spammer_share": spammer_share,
                   "controls_per_worker": controls_per_worker, "accuracy": list(accuracy),
                   "control_accuracy": control_accuracy, "rating_noise": rating_noise,
                   "worker_bias_sd": worker_bias_sd},
        "model_source": source.source if source else "given by the caller",
        "model_stand_in": source.stand_in if source else None,
        "model_file": {"path": source.path, "sha256": source.sha256} if source and source.path else None,
        "model": {g: {"mean": model[g]["mean"], "sd": model[g]["sd"],
                      "relation": dict(zip(RELATIONS, model[g]["relation"]))} for g in sorted(set(groups))},
        "counts": {"pairs": n, "judgments": int(len(judgments)), "control_judgments": n_ctl,
                   "controls": int(len(ctl)), "spammers": int(n_spam),
                   "pairs_per_group": {g: int((groups == g).sum()) for g in GROUPS if (groups == g).any()}},
        "spammers": sorted(worker_ids[spam].tolist()),
    }
    return Simulation(judgments, truth, worker_table, manifest)


def simulate_judgments(corpus: pd.DataFrame, workers: int = DEFAULTS["workers"],
                       per_order: int = DEFAULTS["per_order"], seed: int = DEFAULTS["seed"],
                       spammer_share: float = DEFAULTS["spammer_share"], controls=None, **kwargs) -> pd.DataFrame:
    """The judgment table of :func:`simulate` (same arguments); ``df.attrs["manifest"]`` holds the manifest.

    Columns ``pair_ID worker_id order relatedness answer is_control``; worker ids ``synthetic-wNNN``.
    """
    sim = simulate(corpus, workers, per_order, seed, spammer_share, controls, **kwargs)
    df = sim.judgments
    df.attrs["manifest"] = sim.manifest
    return df


def manifest_path(out: str | Path) -> Path:
    """Where the manifest of a judgments file goes: ``<out>.manifest.json``."""
    out = Path(out)
    return out.with_name(out.name + ".manifest.json")


def write_judgments(df: pd.DataFrame, out: str | Path, manifest: dict | None = None) -> None:
    """Write the judgments CSV (:func:`pipeline.judgments.write_judgments`: UTF-8, LF, header, ``is_control`` as
    ``true``/``false``) and its manifest ``<out>.manifest.json``.

    Each file is written under a temporary name and renamed; the manifest only after the CSV is complete.
    """
    from pipeline.crowd.judgments import write_judgments as write_csv

    with atomic_file(manifest_path(out)) as tmp_m:
        write_json(tmp_m, manifest if manifest is not None else df.attrs.get("manifest", {"synthetic": True}))
        write_csv(df, out)
