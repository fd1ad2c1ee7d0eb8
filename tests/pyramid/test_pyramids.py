"""Pyramid reader and paraphrase tests (Baumel et al. 2016). DUC text is read from ../shared, never copied here."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from pipeline.cli import main
from pipeline.common.errors import InputError
from pipeline.pyramid.reader import read_pyramid, read_pyramids, topic_of
from pipeline.pyramid.tests import (
    MIN_SHARED_NEG,
    RandomEncoder,
    analyse,
    build_tests,
    evaluate,
    make_encoder,
    pair_ok,
    read_tests,
)

HEAD = '<?xml version="1.0"?>\n<pyramid>\n'


def _pyr(lines, scus, regex=True):
    """A tiny DUCView file: scus = [(uid, label, [contributor label (single part), ...])]."""
    text = "\n".join(lines)
    out = [HEAD]
    if regex:
        out.append("<startDocumentRegEx><![CDATA[[-]+\\n]]></startDocumentRegEx>\n")
    out.append(" <text>\n" + "".join(f"  <line>{ln}</line>\n" for ln in lines) + " </text>\n")
    for uid, label, contribs in scus:
        out.append(f' <scu uid="{uid}" label="{label}">\n')
        for c in contribs:
            start = text.find(c)
            out.append(f'  <contributor label="{c}">\n   <part label="{c}" start="{start}" end="{start + len(c)}"/>\n'
                       "  </contributor>\n")
        out.append(" </scu>\n")
    out.append("</pyramid>\n")
    return "".join(out)


SUMMARY_LINES = [
    "----", "D0001.M.100.A.A", "----",
    "The committee approved the new budget for the city schools.",
    "Heavy rain flooded the river valley in early spring.",
    "The mayor announced a plan for the new city park near the river.",
    "----", "D0001.M.100.A.B", "----",
    "City council members passed the school budget proposal.",
    "Spring storms caused flooding across the valley farms.",
    "A park plan for the city near the river was presented by the mayor.",
    "The city schools budget was approved by the committee.",
    "Local farmers expect a good harvest this year.",
    "The river bridge will close for repairs in the city.",
]
SCUS = [
    ("1", "Budget approved", ["The committee approved the new budget for the city schools",
                              "City council members passed the school budget proposal",
                              "The city schools budget was approved by the committee"]),
    ("2", "Flooding", ["Heavy rain flooded the river valley in early spring",
                       "Spring storms caused flooding across the valley farms"]),
    ("3", "Park plan", ["The mayor announced a plan for the new city park near the river",
                        "A park plan for the city near the river was presented by the mayor"]),
    ("4", "Singleton", ["Heavy rain"]),
    ("5", "Harvest", ["Local farmers expect a good harvest this year"]),
    ("6", "Bridge", ["The river bridge will close for repairs in the city"]),
]


@pytest.fixture
def tiny(tmp_path):
    paths = []
    for name in ("D0001.pyr", "D0002-A-ABCD.pyr"):
        p = tmp_path / "pyr" / name
        p.parent.mkdir(exist_ok=True)
        p.write_text(_pyr(SUMMARY_LINES, SCUS, regex=name.startswith("D0001")), encoding="utf-8")
        paths.append(p)
    return paths


def _check_constraints(binary, questions, nlp=None):
    texts = {t for r in binary for t in (r["text_a"], r["text_b"])}
    texts |= {t for q in questions for t in (q["question"], q["answer"], *q["distractors"])}
    info = analyse(sorted(texts), nlp)
    for t in texts:
        assert len(info[t].words) >= 3, t
        assert not info[t].has_pron, t
    for r in binary:
        a, b = info[r["text_a"]], info[r["text_b"]]
        assert a.content != b.content, r
        if r["label"] == 1:
            assert r["scu_a"] == r["scu_b"]
        else:
            assert r["scu_a"] != r["scu_b"]
            assert len(a.wordset & b.wordset) >= MIN_SHARED_NEG, r
    for q in questions:
        assert len(q["distractors"]) == 3
        assert len(set(q["distractor_scus"])) == 3 and q["scu"] not in q["distractor_scus"]
        assert info[q["question"]].content != info[q["answer"]].content


# --------------------------------------------------------------------------------------------- reader
def test_reader_tiny(tiny):
    p = read_pyramid(tiny[0])
    assert p.topic == "D0001" and topic_of(tiny[1]) == "D0002-A"
    assert [s.uid for s in p.scus] == ["1", "2", "3", "4", "5", "6"]
    c = p.scus[0].contributors
    assert [x.summary for x in c] == ["D0001.M.100.A.A", "D0001.M.100.A.B", "D0001.M.100.A.B"]  # same summary twice
    assert p.realigned_parts == 0 and p.unaligned_parts == 0
    assert read_pyramid(tiny[1]).scus[0].contributors[0].summary == "D0001.M.100.A.A"  # no startDocumentRegEx


def test_reader_off_by_one(tmp_path):
    text = _pyr(SUMMARY_LINES, SCUS[:1])
    start = "\n".join(SUMMARY_LINES).find(SCUS[0][2][0])
    text = text.replace(f'start="{start}"', f'start="{start + 1}"', 1).replace(
        f'end="{start + len(SCUS[0][2][0])}"', f'end="{start + len(SCUS[0][2][0]) + 1}"', 1)
    f = tmp_path / "D0003.pyr"
    f.write_text(text, encoding="utf-8")
    p = read_pyramid(f)
    assert p.realigned_parts == 1
    assert p.scus[0].contributors[0].parts[0].start == start


@pytest.mark.parametrize("body, element", [
    ("<pyramid><text><line>x</line></text><scu uid='1' label='a'><contributor>", "XML"),
    ("<pyramid><scu label='a'><contributor label='b'/></scu></pyramid>", "<scu>"),
    ("<pyramid><scu uid='7' label='a'><contributor label='b'><part label='c' start='x' end='3'/>"
     "</contributor></scu></pyramid>", "<part>"),
    ("<pyramid><scu uid='7' label='a'><contributor><part label='c' start='1' end='3'/>"
     "</contributor></scu></pyramid>", "<contributor>"),
    ("<other/>", "<pyramid>"),
])
def test_malformed(tmp_path, body, element):
    f = tmp_path / "bad.pyr"
    f.write_text(body, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_pyramid(f)
    assert str(f) in str(exc.value) and element in str(exc.value)


def test_skip_bad_files(tiny, tmp_path):
    bad = tmp_path / "pyr" / "bad.pyr"
    bad.write_text("<pyramid>", encoding="utf-8")
    with pytest.raises(InputError):
        read_pyramids([tmp_path / "pyr"])
    pyrs, skipped = read_pyramids([tmp_path / "pyr"], skip_bad_files=True)
    assert len(pyrs) == 2 and [s[0] for s in skipped] == [str(bad)]


# --------------------------------------------------------------------------------------------- build/eval
def test_build_and_eval_tiny(tiny, tmp_path, nlp, capsys):
    pyrs, _ = read_pyramids(tiny)
    binary, questions, stats = build_tests(pyrs, seed=0, nlp=nlp)
    _check_constraints(binary, questions, nlp)
    # Worked out by hand; both files hold the same six SCUs, so each count is twice one pyramid's:
    # * valid texts (>= 3 words, no pronoun): SCU 1 has 3, SCUs 2 and 3 have 2 each, SCUs 5 and 6 one each;
    #   SCU 4 ("Heavy rain", 2 words) has none. Positives: C(3,2) + 1 + 1 = 5 (all lexically varied).
    # * negatives (different SCUs sharing >= 4 distinct lower-cased words): budget-1 ("The committee approved the
    #   new budget ...") x park-1 share the/new/for/city; budget-3 ("The city schools budget was approved ...")
    #   x park-2 share the/city/was/by; each park text x the bridge text shares the/river/for/city. Every other
    #   cross-SCU pair shares at most 3 (e.g. budget-1 x park-2: the/for/city). So 4.
    # * questions: one per positive, as each SCU has at least 3 other SCUs with a valid text: 5.
    assert stats["pyramids"] == 2 and stats["scus"] == 12
    assert (stats["positives"], stats["negatives"], stats["pairs"], stats["questions"]) == (10, 8, 18, 10)
    assert sum(r["label"] for r in binary) == 10 and len(binary) == 18 and len(questions) == 10
    out = tmp_path / "tests"
    assert main(["pyramid", "build", "--pyramids", str(tmp_path / "pyr"), "--out", str(out)]) == 0
    b2, q2 = read_tests(out)
    assert len(b2) == len(binary) and len(q2) == len(questions)
    assert json.loads((out / "stats.json").read_text())["pairs"] == len(binary)
    capsys.readouterr()
    for enc in ("one-hot", "random"):
        assert main(["pyramid", "eval", "--tests", str(out), "--encoder", enc, "--json"]) == 0
        res = json.loads(capsys.readouterr().out)
        assert set(res) == {"encoder", "f_measure", "threshold", "success_rate", "mrr", "pairs", "questions"}
        assert None not in (res["f_measure"], res["threshold"], res["success_rate"], res["mrr"])
        assert res["pairs"] == 18 and res["questions"] == 10


def test_eval_embedding_without_extra_is_one_line_error(tiny, tmp_path, monkeypatch, capsys):
    from pipeline.evaluate import embedding

    def missing(model):
        raise embedding.MissingExtra(embedding.INSTALL_HINT)

    monkeypatch.setattr(embedding, "load_model", missing)
    out = tmp_path / "tests"
    assert main(["pyramid", "build", "--pyramids", str(tmp_path / "pyr"), "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["pyramid", "eval", "--tests", str(out), "--encoder", "embedding"]) == 2
    err = capsys.readouterr().err
    assert err == f"sick: error: {embedding.INSTALL_HINT}\n"


def test_eval_perfect_and_deterministic():
    binary = [{"text_a": "red apples grow", "text_b": "red apples grow here", "label": 1},
              {"text_a": "blue cars drive fast", "text_b": "green trees stand tall", "label": 0}] * 10
    qs = [{"question": "red apples grow", "answer": "red apples grow here",
           "distractors": ["blue cars drive", "green trees stand", "old men walk"]}]
    enc = make_encoder("one-hot")
    r = evaluate(binary, qs, enc, seed=3)
    assert r["f_measure"] == 1.0 and r["success_rate"] == 1.0 and r["mrr"] == 1.0
    assert evaluate(binary, qs, make_encoder("random", 5), seed=5) == evaluate(binary, qs, make_encoder("random", 5),
                                                                               seed=5)


# --------------------------------------------------------------------------------------------- real data
@pytest.fixture(scope="module")
def real(shared_data):
    return sorted((shared_data / "pyramids").rglob("*.pyr"))


@pytest.fixture(scope="module")
def real_tests(real):
    from pipeline.common import resources
    pyrs, skipped = read_pyramids(real)
    assert not skipped
    return pyrs, build_tests(pyrs, seed=0, nlp=resources.nlp(disable=("ner", "parser")))


def test_reader_real(real, real_tests):
    pyrs, _ = real_tests
    assert len(real) == 73 and len(pyrs) == 73
    n_scus = sum(len(ET.parse(p).getroot().findall("scu")) for p in real)
    n_contribs = sum(len(ET.parse(p).getroot().findall("scu/contributor")) for p in real)
    assert n_scus == 3936 == sum(len(p.scus) for p in pyrs)
    assert n_contribs == sum(len(s.contributors) for p in pyrs for s in p.scus)
    assert all(len(p.summaries) == 4 for p in pyrs)
    assert len({p.topic for p in pyrs}) == 73
    assert all(c.summary for p in pyrs for s in p.scus for c in s.contributors)


def test_constraints_real(real_tests, nlp):
    _, (binary, questions, stats) = real_tests
    assert stats["positives"] > 1000 and stats["negatives"] > 1000 and stats["questions"] > 1000
    _check_constraints(binary, questions)


def test_one_hot_above_chance_random_at_chance_real(real_tests):
    """Each question has 4 candidates: chance success is 1/4 and chance MRR (1 + 1/2 + 1/3 + 1/4) / 4 = 0.521.
    One-hot ranks above chance; the random encoder (a random vector per text) must not (paper: 24.7 %, 0.522)."""
    _, (binary, questions, stats) = real_tests
    n = len(questions)
    chance, chance_mrr = 0.25, (1 + 1 / 2 + 1 / 3 + 1 / 4) / 4
    margin = 3 * (chance * (1 - chance) / n) ** 0.5
    one_hot = evaluate(binary, questions, make_encoder("one-hot"), seed=0)
    assert one_hot["questions"] == n and one_hot["success_rate"] > chance + margin and one_hot["mrr"] > chance_mrr
    for seed in (0, 1):
        rand = evaluate(binary, questions, make_encoder("random", seed), seed=seed)
        assert abs(rand["success_rate"] - chance) < margin, rand
        assert abs(rand["mrr"] - chance_mrr) < 0.03, rand
        # no information: the tuned threshold cannot beat calling every pair positive by more than noise
        p = stats["positives"] / stats["pairs"]
        assert rand["f_measure"] <= 2 * p / (1 + p) + 0.02, rand


def test_random_encoder_is_per_text_seeded_and_order_free():
    enc = RandomEncoder(seed=3)
    a = enc.encode(["the red car", "a blue bus", "the red car"])
    b = enc.encode(["a blue bus", "the red car"])
    assert np.array_equal(a[0], a[2]) and np.array_equal(a[0], b[1]) and np.array_equal(a[1], b[0])
    assert np.allclose(np.linalg.norm(a, axis=1), 1)
    # texts that share every word but one get unrelated vectors (summed word vectors would give ~0.9)
    c = enc.encode(["the red car stops here", "the red car stops there"])
    assert abs(float(c[0] @ c[1])) < 0.25
    assert not np.array_equal(RandomEncoder(seed=4).encode(["the red car"])[0], a[0])


def test_negative_rule_counts_spacy_words(nlp):
    """"Share more than 3 words" counts spaCy tokens that are words: "$" is no word, "cannot" is two."""
    info = analyse(["The balloonists won the $1 million Anheuser-Busch prize",
                    "$1 million prize half of which was to be donated to charity",
                    "Repeated U.S. Supreme Court rulings have found that creationism is not science",
                    "Educators say that science cannot be mastered and is hard"], nlp)
    t = list(info.values())
    assert len(t[0].wordset & t[1].wordset) == 3 and "$" not in t[0].wordset  # 1, million, prize
    assert not pair_ok(t[0], t[1], positive=False)
    assert {"can", "not"} <= t[3].wordset and len(t[2].wordset & t[3].wordset) == 4  # that, is, not, science
    assert pair_ok(t[2], t[3], positive=False)


def test_negatives_share_more_than_3_spacy_words_real(real_tests):
    """Every negative pair shares at least 4 words counted afresh with spaCy's tokenizer (tokens holding a letter
    or digit); the only negatives sharing 3 or fewer regex \\w+ words are those where spaCy splits "cannot"."""
    import re

    from pipeline.common import resources

    tokenizer = resources.nlp().tokenizer

    def words(text):
        return {t.text.lower() for t in tokenizer(text) if any(ch.isalnum() for ch in t.text)}

    _, (binary, _questions, stats) = real_tests
    negatives = [r for r in binary if r["label"] == 0]
    assert len(negatives) == stats["negatives"] == 7701
    assert all(len(words(r["text_a"]) & words(r["text_b"])) > 3 for r in negatives)
    regex_short = [r for r in negatives
                   if len(set(re.findall(r"\w+", r["text_a"].lower())) & set(re.findall(r"\w+", r["text_b"].lower())))
                   <= 3]
    assert len(regex_short) == 2 and all("cannot" in r["text_a"] + r["text_b"] for r in regex_short)
    assert not any("$1 million prize" in r["text_a"] and "$1 million prize" in r["text_b"] for r in negatives)


@pytest.mark.parametrize("content, words", [
    ("", "empty file"),
    ("pair_id\ttopic\ttext_a\ttext_b\tscu_a\tscu_b\tlabel\n", "no pairs"),
    ("pair_id\ttopic\ttext_a\ttext_b\tscu_a\tscu_b\tlabel\n1\tD1\ta b c\td e f\t1\t2\tyes\n", "not 0 or 1"),
    ("a\tb\n1\t2\n", "header lacks"),
])
def test_eval_on_empty_or_malformed_binary_tsv_is_a_clear_error(tmp_path, capsys, content, words):
    (tmp_path / "binary.tsv").write_text(content, encoding="utf-8")
    (tmp_path / "ranking.jsonl").write_text("", encoding="utf-8")
    from pipeline.cli import main

    assert main(["pyramid", "eval", "--tests", str(tmp_path), "--encoder", "one-hot"]) == 2
    assert words in capsys.readouterr().err
