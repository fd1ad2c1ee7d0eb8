"""Paraphrase tests from pyramid annotations (Baumel, Cohen & Elhadad 2016) and their evaluation.

``sick pyramid build --pyramids DIR_OR_FILES... --out DIR [--seed S] [--skip-bad-files]`` writes

* ``binary.tsv`` (``pair_id, topic, text_a, text_b, scu_a, scu_b, label``): label 1 = two contributors of the
  same SCU, 0 = contributors of two different SCUs of the same topic;
* ``ranking.jsonl``: one question per positive pair: ``question`` (one contributor), ``answer`` (another
  contributor of the same SCU) and 3 ``distractors``, the texts most lexically similar to the question (shared
  distinct words, then Jaccard, then a seeded random order) each from a distinct other SCU of the topic;
* ``stats.json``: ``pyramids, scus, pairs, positives, negatives, questions, words, unique_words`` (words counted
  over the distinct texts used in either test).

Constraints (paper): every text has at least 3 words and no pronoun (spaCy POS ``PRON``); negative pairs share
more than 3 distinct words; every pair is lexically varied (the sets of content words, NOUN/PROPN/VERB/ADJ/ADV/NUM,
lower-cased, differ). Words (:func:`is_word`) are spaCy tokens (``pipeline.common.resources.nlp``, the
tokenization the paper states) that hold a letter or digit, lower-cased: punctuation, spaces and symbols such as
``$`` or a mis-decoded U+FFFD are not words, so "won the $1 million prize" and "$1 million prize money" share 3
words (1, million, prize), while "cannot" is the two words "can" and "not". The same definition counts the words
of a text, the words two texts share and the words the bag-of-words encoders sum.

``sick pyramid eval --tests DIR --encoder {random,one-hot,embedding} [--model M] [--json] [--seed S]``:
similarity is the cosine of the sentence vectors: ``one-hot`` sums one-hot word vectors (bag of words),
``embedding`` is a sentence-transformers model, and ``random`` -- the paper's chance baseline (Baumel et al. 2016,
Table 1: 24.7 % success, F 0.04) -- gives every distinct text its own random vector, seeded by ``--seed`` and the
text, so scores carry no information (expected success 1/4 with 3 distractors, MRR 0.521; F is then that of
calling every pair positive, which depends on the share of positives). Binary: the threshold maximizing F on a
seeded 10 % of the pairs is applied to the other 90 % and F reported there; ranking: success rate (answer ranked
first, ties broken by a seeded random order) and mean reciprocal rank.
"""

from __future__ import annotations

__all__ = ["BINARY_COLUMNS", "BagEncoder", "CONTENT_POS", "MIN_SHARED_NEG", "MIN_WORDS", "N_DISTRACTORS",
           "RandomEncoder", "SentenceEncoder", "TextInfo", "analyse", "best_threshold", "build_tests", "evaluate",
           "f_measure", "is_word", "make_encoder", "pair_ok", "read_tests", "varied", "write_tests"]

import hashlib
import itertools
import json
import random
from pathlib import Path

import numpy as np

from pipeline.common.errors import InputError
from pipeline.common.files import atomic_dir, write_json, write_tsv
from pipeline.pyramid.reader import Pyramid

CONTENT_POS = {"NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM"}
BINARY_COLUMNS = ["pair_id", "topic", "text_a", "text_b", "scu_a", "scu_b", "label"]
MIN_WORDS = 3
MIN_SHARED_NEG = 4  # "share more than 3 words"
N_DISTRACTORS = 3


# --------------------------------------------------------------------------------------------- analysis
def is_word(tok) -> bool:
    """A spaCy token that counts as a word: it holds a letter or digit (not punctuation, space or a symbol)."""
    return not tok.is_space and any(ch.isalnum() for ch in tok.text)


class TextInfo:
    __slots__ = ("text", "words", "wordset", "content", "has_pron")

    def __init__(self, text, words, content, has_pron):
        self.text = text
        self.words = words
        self.wordset = frozenset(words)
        self.content = frozenset(content)
        self.has_pron = has_pron

    @property
    def ok(self) -> bool:
        return len(self.words) >= MIN_WORDS and not self.has_pron


def analyse(texts, nlp=None) -> dict[str, TextInfo]:
    """Parse each distinct text once (``nlp.pipe``) into words, content words and a pronoun flag."""
    if nlp is None:
        from pipeline.common import resources
        nlp = resources.nlp(disable=("ner", "parser"))
    uniq = list(dict.fromkeys(texts))
    out = {}
    for t, doc in zip(uniq, nlp.pipe(uniq, batch_size=256)):
        toks = [tok for tok in doc if is_word(tok)]
        out[t] = TextInfo(t, [tok.lower_ for tok in toks],
                          [tok.lower_ for tok in toks if tok.pos_ in CONTENT_POS],
                          any(tok.pos_ == "PRON" for tok in doc))
    return out


def varied(a: TextInfo, b: TextInfo) -> bool:
    """At least one content word differs between the two texts."""
    return a.content != b.content


def pair_ok(a: TextInfo, b: TextInfo, positive: bool) -> bool:
    """The paper's constraints on one pair."""
    if not (a.ok and b.ok and varied(a, b)):
        return False
    return positive or len(a.wordset & b.wordset) >= MIN_SHARED_NEG


# --------------------------------------------------------------------------------------------- build
def build_tests(pyramids: list[Pyramid], seed: int = 0, nlp=None):
    """``(binary rows, ranking questions, stats)`` from pyramids (see the module docstring)."""
    rng = random.Random(seed)
    all_texts = [c.text for p in pyramids for s in p.scus for c in s.contributors]
    info = analyse(all_texts, nlp)
    binary, questions = [], []
    used: set[str] = set()
    for pyr in pyramids:
        # distinct valid texts per SCU (two identical contributors cannot make a varied pair)
        items = []  # (scu uid, TextInfo)
        for scu in pyr.scus:
            for t in dict.fromkeys(c.text for c in scu.contributors):
                if t and info[t].ok:
                    items.append((scu.uid, info[t]))
        by_scu: dict[str, list[TextInfo]] = {}
        for uid, ti in items:
            by_scu.setdefault(uid, []).append(ti)
        positives = []
        for uid, tis in by_scu.items():
            for a, b in itertools.combinations(tis, 2):
                if pair_ok(a, b, True):
                    positives.append((uid, a, b))
        for uid, a, b in positives:
            binary.append({"topic": pyr.topic, "text_a": a.text, "text_b": b.text, "scu_a": uid, "scu_b": uid,
                           "label": 1})
        for (ua, a), (ub, b) in itertools.combinations(items, 2):
            if ua != ub and pair_ok(a, b, False):
                binary.append({"topic": pyr.topic, "text_a": a.text, "text_b": b.text, "scu_a": ua, "scu_b": ub,
                               "label": 0})
        # ranking: one question per positive pair
        for uid, q, ans in positives:
            best = []  # per other SCU, its text most similar to the question
            for other, tis in by_scu.items():
                if other == uid:
                    continue
                cands = [t for t in tis if t.text not in (q.text, ans.text)]
                if not cands:
                    continue
                top = max(cands, key=lambda t: _lex_sim(q, t))
                best.append((_lex_sim(q, top), rng.random(), other, top))
            if len(best) < N_DISTRACTORS:
                continue
            best.sort(key=lambda x: (-x[0][0], -x[0][1], x[1]))
            chosen = best[:N_DISTRACTORS]
            questions.append({"topic": pyr.topic, "scu": uid, "question": q.text, "answer": ans.text,
                              "distractors": [c[3].text for c in chosen],
                              "distractor_scus": [c[2] for c in chosen]})
    for i, row in enumerate(binary, 1):
        row["pair_id"] = i
        used.update((row["text_a"], row["text_b"]))
    for i, q in enumerate(questions, 1):
        q["id"] = i
        used.update([q["question"], q["answer"], *q["distractors"]])
    n_pos = sum(r["label"] for r in binary)
    words = [w for t in used for w in info[t].words]
    stats = {"pyramids": len(pyramids), "scus": sum(len(p.scus) for p in pyramids), "pairs": len(binary),
             "positives": n_pos, "negatives": len(binary) - n_pos, "questions": len(questions),
             "words": len(words), "unique_words": len(set(words))}
    return binary, questions, stats


def _lex_sim(a: TextInfo, b: TextInfo) -> tuple[int, float]:
    inter = len(a.wordset & b.wordset)
    union = len(a.wordset | b.wordset)
    return inter, (inter / union if union else 0.0)


def write_tests(out, binary, questions, stats) -> None:
    with atomic_dir(out) as tmp:
        write_tsv(tmp / "binary.tsv", binary, BINARY_COLUMNS)
        with open(tmp / "ranking.jsonl", "w", encoding="utf-8", newline="\n") as fh:
            for q in questions:
                fh.write(json.dumps({"id": q["id"], **{k: v for k, v in q.items() if k != "id"}},
                                    ensure_ascii=False) + "\n")
        write_json(tmp / "stats.json", stats)


def read_tests(tests_dir):
    """``(binary rows, questions)`` from a directory written by ``pyramid build``."""
    import pandas as pd
    d = Path(tests_dir)
    bpath, rpath = d / "binary.tsv", d / "ranking.jsonl"
    for p in (bpath, rpath):
        if not p.is_file():
            raise InputError(p, "file not found (run `sick pyramid build` first)")
    try:
        df = pd.read_csv(bpath, sep="\t", keep_default_na=False, dtype={"text_a": str, "text_b": str})
    except pd.errors.EmptyDataError:
        raise InputError(bpath, "empty file (run `sick pyramid build` again)") from None
    except (pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise InputError(bpath, f"not a binary.tsv of `sick pyramid build`: {exc}") from None
    missing = [c for c in BINARY_COLUMNS if c not in df.columns]
    if missing:
        raise InputError(bpath, "header lacks column(s) " + ", ".join(missing), line=1)
    if df.empty:
        raise InputError(bpath, "no pairs (header only)")
    bad = ~df["label"].astype(str).isin(("0", "1"))
    if bad.any():
        i = int(bad.to_numpy().nonzero()[0][0])
        raise InputError(bpath, f"label {df['label'].iat[i]!r} is not 0 or 1", line=i + 2, field="label")
    questions = []
    for i, ln in enumerate(rpath.read_text(encoding="utf-8").splitlines(), 1):
        if not ln.strip():
            continue
        try:
            q = json.loads(ln)
            _ = q["question"], q["answer"], list(q["distractors"])
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(rpath, f"bad question ({exc})", line=i) from None
        questions.append(q)
    return df.to_dict("records"), questions


# --------------------------------------------------------------------------------------------- encoders
class BagEncoder:
    """One-hot bag of words: sentence vector = normalized sum of one-hot word vectors (words as :func:`is_word`,
    lower-cased)."""

    def __init__(self):
        from pipeline.common import resources
        self.tokenizer = resources.nlp(disable=("tok2vec", "tagger", "parser", "attribute_ruler",
                                                "lemmatizer", "ner")).tokenizer

    def encode(self, texts: list[str]) -> np.ndarray:
        toks = [[t.lower_ for t in self.tokenizer(s) if is_word(t)] for s in texts]
        vocab = {w: i for i, w in enumerate(sorted({w for ws in toks for w in ws}))}
        m = np.zeros((len(texts), len(vocab)))
        for i, ws in enumerate(toks):
            for w in ws:
                m[i, vocab[w]] += 1
        norms = np.linalg.norm(m, axis=1, keepdims=True)
        return m / np.where(norms == 0, 1, norms)


class RandomEncoder:
    """Chance baseline: each text gets a standard normal vector of ``dim`` values drawn from a generator seeded
    with ``seed`` and the SHA-256 of the text, so a text always gets the same vector (whatever else is encoded,
    in whatever order) and two different texts are unrelated. Summing random *word* vectors would not do: that is
    a random projection of the bag of words and ranks almost as one-hot does (success 0.335 against 0.340)."""

    def __init__(self, seed: int = 0, dim: int = 300):
        self.seed, self.dim = seed, dim

    def encode(self, texts: list[str]) -> np.ndarray:
        m = np.empty((len(texts), self.dim))
        for i, t in enumerate(texts):
            key = int.from_bytes(hashlib.sha256(t.encode("utf-8")).digest()[:8], "big")
            m[i] = np.random.default_rng([self.seed, key]).standard_normal(self.dim)
        return m / np.linalg.norm(m, axis=1, keepdims=True)


class SentenceEncoder:
    def __init__(self, model: str):
        from pipeline.evaluate import embedding
        self.model = embedding.load_model(model)  # raises MissingExtra with an install hint

    def encode(self, texts):
        return self.model.encode(list(texts), batch_size=64, convert_to_numpy=True, normalize_embeddings=True,
                                 show_progress_bar=False).astype(np.float64)


def make_encoder(kind: str, seed: int = 0, model: str | None = None):
    if kind == "one-hot":
        return BagEncoder()
    if kind == "random":
        return RandomEncoder(seed)
    if kind == "embedding":
        from pipeline.evaluate.embedding import DEFAULT_MODEL
        return SentenceEncoder(model or DEFAULT_MODEL)
    raise ValueError(f"unknown encoder {kind!r}")


# --------------------------------------------------------------------------------------------- evaluation
def best_threshold(scores, labels) -> tuple[float, float]:
    """``(threshold, F)`` maximizing F of ``score >= threshold`` on the given pairs."""
    s, y = np.asarray(scores, float), np.asarray(labels, int)
    if len(s) == 0 or y.sum() == 0:
        return float("inf"), 0.0
    order = np.argsort(-s, kind="stable")
    ss, yy = s[order], y[order]
    tp = np.cumsum(yy)
    k = np.arange(1, len(ss) + 1)
    last = np.r_[ss[1:] != ss[:-1], True]  # only cut between distinct scores
    f = 2 * tp / (k + y.sum())
    f = np.where(last, f, -1)
    i = int(np.argmax(f))
    return float(ss[i]), float(f[i])


def f_measure(pred, labels) -> float:
    p, y = np.asarray(pred, bool), np.asarray(labels, bool)
    tp = int((p & y).sum())
    return 2 * tp / (p.sum() + y.sum()) if (p.sum() + y.sum()) else 0.0


def evaluate(binary, questions, encoder, seed: int = 0) -> dict:
    texts = list(dict.fromkeys([r["text_a"] for r in binary] + [r["text_b"] for r in binary]
                               + [t for q in questions for t in (q["question"], q["answer"], *q["distractors"])]))
    vecs = encoder.encode(texts) if texts else np.zeros((0, 1))
    idx = {t: i for i, t in enumerate(texts)}

    def cos(a, b):
        return np.einsum("ij,ij->i", vecs[[idx[t] for t in a]], vecs[[idx[t] for t in b]])

    out = {"f_measure": None, "threshold": None, "success_rate": None, "mrr": None,
           "pairs": len(binary), "questions": len(questions)}
    if binary:
        scores = cos([r["text_a"] for r in binary], [r["text_b"] for r in binary])
        labels = np.array([int(r["label"]) for r in binary])
        rng = np.random.default_rng(seed)
        perm = rng.permutation(len(binary))
        n_tune = max(1, int(round(0.1 * len(binary))))
        tune, test = perm[:n_tune], perm[n_tune:]
        if len(test) == 0:
            test = tune
        thr, _ = best_threshold(scores[tune], labels[tune])
        out["threshold"] = thr
        out["f_measure"] = f_measure(scores[test] >= thr, labels[test])
    if questions:
        rng = np.random.default_rng(seed + 1)
        ranks = []
        for q in questions:
            cands = [q["answer"], *q["distractors"]]
            s = cos([q["question"]] * len(cands), cands)
            s = np.round(s, 12)
            higher = int((s[1:] > s[0]).sum())
            ties = int((s[1:] == s[0]).sum())
            ranks.append(1 + higher + (int(rng.integers(0, ties + 1)) if ties else 0))
        ranks = np.array(ranks)
        out["success_rate"] = float((ranks == 1).mean())
        out["mrr"] = float((1.0 / ranks).mean())
    return out


# --------------------------------------------------------------------------------------------- CLI
