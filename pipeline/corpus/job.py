"""The main job, ``sick build``: sources -> normalize -> expand -> pair -> dedup -> split -> write.

Follows the construction of SICK (Marelli et al. 2014, section 3): source pairs are normalized into S1a/S1b
(Table 2), each S1 is expanded into at most one S2, S3 and S4 (Table 3), sentences of a group are paired
and unrelated pairs added (Table 5), duplicates removed (footnote 6), and the corpus split into
TRAIN/TRIAL/TEST (SemEval-2014 Task 1: 45/5/50 %).

Outputs in ``out`` (written into a temporary directory renamed at the end, so a failed run leaves nothing):
``corpus.tsv`` (SICK.txt's columns, gold columns empty, then ``pair_type set expected_relation rules_A
rules_B``), ``sentences.tsv``, ``candidates.tsv`` (with ``all_candidates``), ``rule_frequencies.tsv``
(Table 4), ``pair_distribution.tsv`` (Table 5), ``dropped.tsv`` and ``manifest.json``. The same inputs,
rules and seed give byte-identical files, whatever ``workers``: with ``workers`` > 1 the sentences are
normalized, gated and expanded in chunks by forked worker processes (each has the model already loaded), and
each sentence's result depends on that sentence alone (spaCy's parses do not depend on the batch; the choice
among candidates is seeded by the S1 text), so only the order of the work changes.

Every generated sentence passes the grammar gate (:mod:`pipeline.corpus.grammar`): an S1 is repaired or its
pair dropped (``dropped.tsv`` reason ``grammar:<check ids>``); an S2-S4 candidate that fails is not chosen
and another is chosen instead (:func:`~pipeline.corpus.expand.choose_gated`); a slot whose tried candidates
all fail is lost (reason ``grammar:<check ids>``). ``candidates.tsv`` has ``status`` (chosen | candidate |
rejected), ``reason`` (failed check ids, or ``repaired:<ids>``) and ``repaired`` (the repaired sentence the
corpus uses); ``manifest.json`` counts, per slot S1-S4, sentences checked and failures and repairs per check.
"""

from __future__ import annotations

__all__ = ["BuildConfig", "CANDIDATE_COLUMNS", "CORPUS_COLUMNS", "DROPPED_COLUMNS", "SENTENCE_COLUMNS", "SPLITS",
           "build", "pair_distribution", "pair_rows", "rule_frequencies", "split_labels"]

import multiprocessing
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pipeline import __version__
from pipeline.common import resources
from pipeline.common.errors import InputError
from pipeline.common.files import atomic_dir, sha256_file, write_json, write_tsv
from pipeline.common.options import default_workers
from pipeline.common.vocabulary import FAMILIES, STAGES
from pipeline.corpus.dedup import dedup
from pipeline.corpus.expand import Gated, choose_gated, expand_docs
from pipeline.corpus.grammar import CHECKS
from pipeline.corpus.normalize import gate_s1, normalize_texts
from pipeline.corpus.pair import UNRELATED_SHARE, Group, Pair, Slot, related_pairs, unrelated_count, unrelated_pairs
from pipeline.corpus.rules import RuleSet, load_rules
from pipeline.corpus.sources import SourcePair, SourceSpec, read_source, sample, sts_gold_path

CORPUS_COLUMNS = [
    "pair_ID", "sentence_A", "sentence_B", "entailment_label", "relatedness_score", "entailment_AB",
    "entailment_BA", "sentence_A_original", "sentence_B_original", "sentence_A_dataset", "sentence_B_dataset",
    "SemEval_set", "pair_type", "set", "expected_relation", "rules_A", "rules_B",
]
SENTENCE_COLUMNS = ["group", "slot", "sentence", "rules", "dataset", "source_id", "file", "line", "source_score"]
CANDIDATE_COLUMNS = ["group", "slot", "S1", "family", "output", "rules", "chosen", "status", "reason", "repaired"]
DROPPED_COLUMNS = ["stage", "item", "file", "line", "reason", "text"]
SPLITS = (("TRAIN", 0.45), ("TRIAL", 0.05), ("TEST", 0.50))


@dataclass
class BuildConfig:
    """Options of ``sick build`` (see ``sick build --help``)."""

    sources: list[SourceSpec]
    out: Path
    pairs_per_source: int | None = 750
    seed: int = 1
    rules_dir: Path | None = None
    all_candidates: bool = False
    skip_bad_lines: bool = False
    quiet: bool = False
    workers: int = field(default_factory=default_workers)
    unrelated_share: float = UNRELATED_SHARE
    combine_rate: float = 0.3
    splits: tuple[tuple[str, float], ...] = SPLITS


@dataclass
class _State:
    dropped: list[dict] = field(default_factory=list)
    counts: dict = field(default_factory=dict)
    candidates: dict = field(default_factory=dict)
    gated: dict = field(default_factory=dict)
    grammar: dict = field(default_factory=lambda: {s: {"checked": 0, "failed": Counter(), "repaired": Counter()}
                                                   for s in ("S1", *FAMILIES)})


def split_labels(n: int, seed: int, splits=SPLITS) -> list[str]:
    """``n`` split labels in the given proportions (largest-remainder rounding), shuffled with the seed."""
    exact = [share * n for _, share in splits]
    counts = [int(x) for x in exact]
    for i in sorted(range(len(splits)), key=lambda i: exact[i] - counts[i], reverse=True)[: n - sum(counts)]:
        counts[i] += 1
    labels = [name for (name, _), c in zip(splits, counts) for _ in range(c)]
    random.Random(f"{seed}|split").shuffle(labels)
    return labels


def _class_words(entries: dict[str, list[str]]) -> frozenset[str]:
    """Every word of a lexicon of word classes (``adjective_classes``), lower-cased."""
    return frozenset(str(w).lower() for words in entries.values() for w in words)


def _read_sources(cfg: BuildConfig, st: _State, ruleset: RuleSet) -> tuple[list[SourcePair], list[dict]]:
    chosen: list[SourcePair] = []
    inputs = []
    # the modifiers the expansion rules work on: among equally clean Flickr 8K captions, those with more
    modifiers = ruleset.derived("adjective_classes", _class_words)
    for spec in cfg.sources:
        pairs, bad = read_source(spec, cfg.seed, cfg.skip_bad_lines, modifiers)
        for b in bad:
            st.dropped.append({"stage": "source", "item": "", "file": b.path, "line": b.line,
                               "reason": b.problem, "text": b.text})
        digest = sha256_file(spec.path)
        # keyed by the file's content, not its path: the same file gives the same sample wherever it lives
        picked = sample(pairs, cfg.pairs_per_source, cfg.seed, f"{spec.kind}:{digest}:{sorted(spec.filters)}")
        chosen.extend(picked)
        entry = {"kind": spec.kind, "path": spec.path, "sha256": digest,
                 "filters": dict(spec.filters), "pairs_available": len(pairs), "pairs_sampled": len(picked),
                 "bad_lines": len(bad)}
        gold = sts_gold_path(spec.path) if spec.kind == "sts" else None
        if gold is not None:
            entry["gold"] = {"path": str(gold), "sha256": sha256_file(gold)}
        inputs.append(entry)
    return chosen, inputs


# Work on sentences is cut into chunks; with workers > 1 forked processes do the chunks. The chunk functions
# read the rule set and options from this module-level state, which the forked processes inherit (nothing is
# pickled but the texts and the results).
CHUNK = 64
_WORK: dict = {}


def _normalize_chunk(texts: list[str]) -> list:
    return normalize_texts(texts, _WORK["ruleset"])


def _s1_chunk(texts: list[str]) -> tuple[list, dict, dict]:
    """Gate S1 texts, expand those that pass (from the gate's parse) and choose their S2-S4 through the gate."""
    ruleset, cfg = _WORK["ruleset"], _WORK["cfg"]
    verdicts, docs = gate_s1(texts, ruleset)
    cands = dict(zip(docs, expand_docs(docs.values(), ruleset)))
    gated = dict(zip(cands, choose_gated(list(cands.items()), cfg.seed, cfg.combine_rate, ruleset.weights(),
                                         ruleset)))
    return verdicts, cands, gated


def _chunked(fn, texts: list[str], pool, workers: int, desc: str, quiet: bool) -> list:
    """``fn`` on chunks of ``texts`` (in the pool when there is one), results in order, with a progress bar."""
    from tqdm import tqdm

    # small inputs in smaller chunks, so that every process gets some
    size = CHUNK if pool is None else max(1, min(CHUNK, -(-len(texts) // (4 * workers))))
    chunks = [texts[i:i + size] for i in range(0, len(texts), size)]
    results = pool.imap(fn, chunks) if pool is not None else map(fn, chunks)
    out = []
    with tqdm(total=len(texts), desc=desc, unit="sent", disable=quiet) as bar:
        for chunk, r in zip(chunks, results):
            out.append(r)
            bar.update(len(chunk))
    return out


def _pool(workers: int):
    """A pool of ``workers`` forked processes, or None for one worker (or where fork is not available)."""
    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    # load what every chunk needs before forking, so that each process has it without loading it again
    resources.nlp()
    resources.synsets("dog", "n")
    return multiprocessing.get_context("fork").Pool(workers, initializer=resources.reopen_after_fork)


def _gate_and_expand(cfg, s1_texts: list[str], st: _State, pool) -> list:
    """The gate's verdicts on ``s1_texts`` (in order); the candidates and gated choices of the S1s that pass go
    to ``st`` for :func:`_expand` (one parse per S1 serves the gate and the expansion)."""
    verdicts = []
    for v, cands, gated in _chunked(_s1_chunk, s1_texts, pool, cfg.workers, "gate and expand", cfg.quiet):
        verdicts.extend(v)
        st.candidates.update(cands)
        st.gated.update(gated)
    return verdicts


def _normalize(cfg, ruleset, sources: list[SourcePair], st: _State, pool) -> list[Group]:
    texts = list(dict.fromkeys(t for p in sources for t in (p.s0_a, p.s0_b)))
    normalized = _chunked(_normalize_chunk, texts, pool, cfg.workers, "normalize", cfg.quiet)
    results = dict(zip(texts, (r for chunk in normalized for r in chunk)))
    # the grammar gate on every S1 of a pair that normalized, then (from the gate's parse) the expansion and
    # the gated choice of S2-S4 for the S1s that pass
    s1_texts = list(dict.fromkeys(results[t].output for p in sources for t in (p.s0_a, p.s0_b)
                                  if results[p.s0_a].status != "dropped" and results[p.s0_b].status != "dropped"))
    verdicts = _gate_and_expand(cfg, s1_texts, st, pool)
    gate = dict(zip(s1_texts, verdicts))
    g1 = st.grammar["S1"]
    g1["checked"] = len(s1_texts)
    for v in verdicts:
        g1["failed"].update(v.failures)
        g1["repaired"].update(v.repairs)
    groups = []
    for n, p in enumerate(sources, 1):
        ra, rb = results[p.s0_a], results[p.s0_b]
        bad = [(r.reason, s) for r, s in ((ra, p.s0_a), (rb, p.s0_b)) if r.status == "dropped"]
        if not bad:
            bad = [("grammar:" + ",".join(gate[r.output].failures), r.output) for r in (ra, rb)
                   if not gate[r.output].ok]
        if bad:
            reason, text = bad[0]
            st.dropped.append({"stage": "normalize", "item": p.source_id, "file": p.path, "line": p.line,
                               "reason": reason, "text": text})
            continue
        g = Group(f"G{n:05d}", p, {"S0a": Slot(p.s0_a), "S0b": Slot(p.s0_b),
                                   "S1a": Slot(gate[ra.output].text, tuple(ra.rules)),
                                   "S1b": Slot(gate[rb.output].text, tuple(rb.rules))})
        groups.append(g)
    st.counts["normalize"] = {"sentences": len(texts),
                              "sentences_dropped": sum(r.status == "dropped" for r in results.values()),
                              "groups_kept": len(groups), "groups_dropped": len(sources) - len(groups)}
    return groups


def _expand(cfg, groups: list[Group], st: _State) -> list[dict]:
    texts = list(dict.fromkeys(g.slots[s].text for g in groups for s in ("S1a", "S1b")))
    cands = {t: st.candidates[t] for t in texts}
    gated: dict[str, Gated] = {t: st.gated[t] for t in texts}
    for gt in gated.values():
        for c, failures in gt.rejected.items():
            st.grammar[c.family]["failed"].update(failures)
        for fam, repairs in gt.repaired.items():
            st.grammar[fam]["repaired"].update(repairs)
        for fam in {*gt.picked, *(c.family for c in gt.rejected)}:
            st.grammar[fam]["checked"] += sum(c.family == fam for c in gt.rejected) + (fam in gt.picked)
    candidate_rows = []
    kept = Counter()
    for g in groups:
        for x in "ab":
            s1 = g.slots[f"S1{x}"].text
            gt = gated[s1]
            for fam in FAMILIES:
                if fam in gt.chosen:
                    g.slots[f"{fam}{x}"] = Slot(gt.chosen[fam].output, gt.chosen[fam].rules)
                    kept[fam] += 1
                else:
                    reason = ("grammar:" + ",".join(gt.lost[fam])) if fam in gt.lost else f"no {fam} candidate"
                    st.dropped.append({"stage": "expand", "item": f"{g.group_id} {fam}{x}", "file": g.source.path,
                                       "line": g.source.line, "reason": reason, "text": s1})
            if cfg.all_candidates:
                for c in cands[s1]:
                    chosen = gt.picked.get(c.family) == c
                    status = "chosen" if chosen else "rejected" if c in gt.rejected else "candidate"
                    reason = ",".join(gt.rejected.get(c, ()))
                    if chosen and c.family in gt.repaired:
                        reason = "repaired:" + ",".join(gt.repaired[c.family])
                    candidate_rows.append({"group": g.group_id, "slot": f"S1{x}", "S1": s1, "family": c.family,
                                           "output": c.output, "rules": " ".join(c.rules), "chosen": chosen,
                                           "status": status, "reason": reason,
                                           "repaired": gt.chosen[c.family].output if reason.startswith("repaired")
                                           else ""})
    st.counts["expand"] = {"S1_sentences": len(texts), "candidates": sum(len(c) for c in cands.values()),
                           **{f"{fam}_kept": kept[fam] for fam in FAMILIES}}
    st.counts["grammar"] = {slot: {"checked": v["checked"],
                                   "failed": {c: v["failed"][c] for c in CHECKS},
                                   "repaired": {c: v["repaired"][c] for c in CHECKS}}
                            for slot, v in st.grammar.items()}
    return candidate_rows


def pair_rows(pairs: list[Pair], labels: list[str], first_id: int = 1) -> list[dict]:
    """Corpus rows (:data:`CORPUS_COLUMNS`) of ``pairs`` with their split labels, pair_IDs from ``first_id``."""
    rows = []
    for n, (p, split) in enumerate(zip(pairs, labels), first_id):
        rows.append({
            "pair_ID": n, "sentence_A": p.sentence_A, "sentence_B": p.sentence_B,
            "entailment_label": "", "relatedness_score": "", "entailment_AB": "", "entailment_BA": "",
            "sentence_A_original": p.group_a.original(p.slot_a), "sentence_B_original": p.group_b.original(p.slot_b),
            "sentence_A_dataset": p.group_a.source.dataset, "sentence_B_dataset": p.group_b.source.dataset,
            "SemEval_set": split, "pair_type": p.pair_type, "set": p.set, "expected_relation": p.expected_relation,
            "rules_A": " ".join(p.group_a.slots[p.slot_a].rules), "rules_B": " ".join(p.group_b.slots[p.slot_b].rules),
        })
    return rows


def rule_frequencies(groups: list[Group], ruleset) -> list[dict]:
    """Table 4: how many corpus sentences each rule helped make, listed under the rule's own family.

    An S2 rule combined into an S3 sentence counts for that sentence too. Rules never used have 0.
    """
    freq = Counter(rid for g in groups for s in g.slots.values() for rid in s.rules)
    return [{"family": r.stage, "rule": r.id, "freq": freq[r.id]}
            for stage in STAGES for r in ruleset.stage(stage)]


def pair_distribution(pairs: list[Pair]) -> list[dict]:
    """Table 5: pairs per expected relation and pair type, counts and % of the corpus."""
    c = Counter((p.expected_relation, p.pair_type, p.set) for p in pairs)
    order = {"similar": 0, "contrasting": 1, "lexical-overlap": 2, "unrelated": 3}
    total = len(pairs) or 1
    return [{"expected_relation": rel, "pair_type": pt, "set": s, "count": n, "percent": round(100 * n / total, 2)}
            for (rel, pt, s), n in sorted(c.items(), key=lambda kv: (order[kv[0][0]], kv[0][1]))]


def build(cfg: BuildConfig) -> dict:
    """Run the whole job and write ``cfg.out``; return the manifest.

    Raises:
        InputError: a missing or malformed input (nothing is written).
        RuleError: a malformed rule file (nothing is written).
    """
    ruleset = load_rules(cfg.rules_dir)
    st = _State()
    sources, inputs = _read_sources(cfg, st, ruleset)
    st.counts["sources"] = {"pairs_sampled": len(sources)}
    _WORK.update(ruleset=ruleset, cfg=cfg)
    pool = _pool(cfg.workers)
    try:
        groups = _normalize(cfg, ruleset, sources, st, pool)
    finally:
        if pool is not None:
            pool.terminate()
        _WORK.clear()
    candidate_rows = _expand(cfg, groups, st)

    related = related_pairs(groups)
    kept, removed, keys = dedup(related)
    for r in removed:
        p = r.pair
        st.dropped.append({"stage": "dedup", "item": f"{p.group_a.group_id} {p.pair_type}",
                           "file": p.group_a.source.path, "line": p.group_a.source.line, "reason": r.reason,
                           "text": f"{p.sentence_A} | {p.sentence_B}"})
    unrelated = unrelated_pairs(groups, unrelated_count(len(kept), cfg.unrelated_share), cfg.seed, keys)
    pairs = kept + unrelated
    labels = split_labels(len(pairs), cfg.seed, cfg.splits)
    st.counts["pairs"] = {
        "related": len(related),
        "removed_identical": sum(r.reason == "identical sentences" for r in removed),
        "removed_repeated": sum(r.reason.startswith("repeated") for r in removed),
        "unrelated": len(unrelated), "final": len(pairs),
        **{f"split_{name}": labels.count(name) for name, _ in cfg.splits},
    }

    sentence_rows = [{"group": g.group_id, "slot": slot, "sentence": s.text, "rules": " ".join(s.rules),
                      "dataset": g.source.dataset, "source_id": g.source.source_id, "file": g.source.path,
                      "line": g.source.line, "source_score": "" if g.source.score is None else g.source.score}
                     for g in groups for slot, s in sorted(g.slots.items())]
    manifest = {
        "tool": "sick-pipeline", "version": __version__, "seed": cfg.seed,
        "options": {"pairs_per_source": cfg.pairs_per_source, "unrelated_share": cfg.unrelated_share,
                    "combine_rate": cfg.combine_rate, "splits": dict(cfg.splits),
                    "skip_bad_lines": cfg.skip_bad_lines, "all_candidates": cfg.all_candidates},
        # workers (processes) is left out: it does not change the output
        "inputs": inputs,
        "rules": {"dir": str(cfg.rules_dir) if cfg.rules_dir else "rules (bundled)", "files": ruleset.hashes},
        "resources": resources.versions(),
        "counts": st.counts,
    }
    with atomic_dir(cfg.out) as tmp:
        write_tsv(tmp / "corpus.tsv", pair_rows(pairs, labels), CORPUS_COLUMNS)
        write_tsv(tmp / "sentences.tsv", sentence_rows, SENTENCE_COLUMNS)
        if cfg.all_candidates:
            write_tsv(tmp / "candidates.tsv", candidate_rows, CANDIDATE_COLUMNS)
        write_tsv(tmp / "rule_frequencies.tsv", rule_frequencies(groups, ruleset), ["family", "rule", "freq"])
        write_tsv(tmp / "pair_distribution.tsv", pair_distribution(pairs),
                  ["expected_relation", "pair_type", "set", "count", "percent"])
        write_tsv(tmp / "dropped.tsv", st.dropped, DROPPED_COLUMNS)
        write_json(tmp / "manifest.json", manifest)
    if not cfg.quiet:
        c = st.counts
        print(f"{c['sources']['pairs_sampled']} source pairs -> {c['normalize']['groups_kept']} groups "
              f"({c['normalize']['groups_dropped']} dropped in normalization) -> {c['pairs']['final']} pairs "
              f"({c['pairs']['unrelated']} unrelated, {c['pairs']['removed_identical']} identical and "
              f"{c['pairs']['removed_repeated']} repeated removed) in {cfg.out}", file=sys.stderr)
    return manifest


SAMPLE_COLUMNS = ["slot", "group", "source_sentence", "sentence", "rules", "verdict"]
SAMPLE_SLOTS = ("S1", "S2", "S3", "S4")


def sample_sentences(build_dir: str | Path, per_slot: int, seed: int) -> list[dict]:
    """Random sentences of a build for a person to read (``sick sample``).

    For each slot S1, S2, S3, S4: ``per_slot`` sentences (all when fewer) drawn with the seed from
    ``sentences.tsv`` (a and b sides together), each with its source sentence (S0 of the same side for S1, S1
    for S2-S4) and rules. Rows have :data:`SAMPLE_COLUMNS`; ``verdict`` is empty, for the reader. The same
    build and seed give the same rows.

    Raises:
        InputError: ``build_dir`` is not a build (no ``sentences.tsv`` and ``manifest.json``), or its
            sentences.tsv lacks a column.
    """
    import pandas as pd

    d = Path(build_dir)
    path = d / "sentences.tsv"
    if not d.is_dir() or not path.is_file() or not (d / "manifest.json").is_file():
        raise InputError(d, "not a sick build directory (needs sentences.tsv and manifest.json from sick build)")
    df = pd.read_csv(path, sep="\t", keep_default_na=False, dtype=str)
    missing = {"group", "slot", "sentence", "rules"} - set(df.columns)
    if missing:
        raise InputError(path, f"missing column(s) {', '.join(sorted(missing))}")
    text = {(g, s): t for g, s, t in zip(df["group"], df["slot"], df["sentence"])}
    rows = []
    for slot in SAMPLE_SLOTS:
        sub = df[df["slot"].str.startswith(slot)]
        items = list(zip(sub["group"], sub["slot"], sub["sentence"], sub["rules"]))
        rng = random.Random(f"{seed}|sample|{slot}")
        picked = rng.sample(items, min(per_slot, len(items)))
        for group, s, sentence, rules in picked:
            src = ("S0" if slot == "S1" else "S1") + s[-1]
            rows.append({"slot": s, "group": group, "source_sentence": text.get((group, src), ""),
                         "sentence": sentence, "rules": rules, "verdict": ""})
    return rows
