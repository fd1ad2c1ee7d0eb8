"""Measure a build's sentences against issue 11's targets (not a test: prints figures beside the targets).

``python tests/measure_quality.py BUILD [--sick FILE]`` reads BUILD/sentences.tsv and prints, per slot (S1-S4):
- agreement and a/an-before-plural flags of :mod:`pipeline.corpus.grammar` (% of sentences; target <= 0.3 %);
- unknown words: alphabetic tokens with wordfreq zipf < 1, per 1,000 tokens (target <= 0.5; SICK 0.32);
- for S4, the share of subjects that are animate: the subject's first WordNet noun sense is noun.person or
  noun.animal, or it is in rules/lexicons/person_nouns.yaml (target >= 0.85; SICK 0.93).
With ``--sick FILE`` (a SICK/SemEval file) the same figures for its sentences, for comparison.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.common import resources  # noqa: E402
from pipeline.corpus import grammar  # noqa: E402
from pipeline.corpus.rules import load_rules  # noqa: E402

WORD = re.compile(r"[A-Za-z]+")


def unknown_per_1000(texts: list[str]) -> float:
    tokens = [w for t in texts for w in WORD.findall(t)]
    unknown = sum(1 for w in tokens if resources.zipf(w.lower()) < 1)
    return 1000 * unknown / max(len(tokens), 1)


def animate_share(texts: list[str], person_words: frozenset[str]) -> float:
    n = animate = 0
    for doc in resources.nlp().pipe(texts, batch_size=256, disable=["ner"]):
        subj = next((t for t in doc if t.dep_ in ("nsubj", "nsubjpass") and t.head.dep_ == "ROOT"), None)
        if subj is None or subj.pos_ == "PRON":
            continue
        n += 1
        syn = resources.synsets(subj.lemma_.lower(), "n")
        first = syn[0].lexname() if syn else ""
        if first in ("noun.person", "noun.animal") or subj.lemma_.lower() in person_words:
            animate += 1
    return animate / max(n, 1)


def report(name: str, texts: list[str], person_words: frozenset[str], s4: bool) -> None:
    verdicts = grammar.check_texts(texts)
    agree = 100 * sum("agreement" in v.failures for v in verdicts) / max(len(texts), 1)
    plural = 100 * sum("article-plural" in v.failures for v in verdicts) / max(len(texts), 1)
    line = (f"{name:<8} n={len(texts):>5}  agreement {agree:5.2f} %  a/an+plural {plural:5.2f} %  "
            f"unknown/1000 {unknown_per_1000(texts):5.2f}")
    if s4:
        line += f"  animate subjects {animate_share(texts, person_words):.3f}"
    print(line)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build")
    ap.add_argument("--sick", help="a SICK file to measure the same way")
    args = ap.parse_args()
    person_words = load_rules().lexicon_set("person_nouns")
    sents = pd.read_csv(Path(args.build) / "sentences.tsv", sep="\t", keep_default_na=False, dtype=str)
    for slot in ("S1", "S2", "S3", "S4"):
        texts = sents.loc[sents["slot"].str.startswith(slot), "sentence"].tolist()
        report(slot, texts, person_words, slot == "S4")
    if args.sick:
        df = pd.read_csv(args.sick, sep="\t", quoting=3, dtype=str, keep_default_na=False)
        texts = list(dict.fromkeys(df["sentence_A"].str.strip().tolist() + df["sentence_B"].str.strip().tolist()))
        report("SICK", texts, person_words, True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
