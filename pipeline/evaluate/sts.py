"""Score Semantic Textual Similarity systems: STS 2012-2016 files and the STS Benchmark csv.

STS 2012-2016 (``sick score sts``)
    Gold ``STS.gs.<set>.txt`` holds one number (0-5) per line. System answers ``STS.output.<set>.txt`` hold
    ``score[TAB]confidence`` per line (confidence optional, any further fields ignored).

    Where we give the official ``correlation-noconfidence.pl`` (STS 2014) figure, with a warning on each line
    (its outputs on 9 edge cases are in sts2014/derived/, README there; tests/evaluate/test_sts.py checks each):
      * an *empty gold line* is scored as gold 0 (Perl's undefined value in arithmetic), not skipped;
      * the script splits a line on white space (``split /\\s+/``), so a line that *starts with a space or tab*
        has an empty first field, scored as 0 -- whatever number follows;
      * score and confidence may be separated by spaces instead of a tab.
    Where we are stricter than the script (:class:`SubmissionError` naming the file and 1-based line, no figure):
      the two files must have the same number of lines (the script silently pairs line i with line i, so a
      missing, extra or comment line shifts every later answer); an empty system line (the script scores 0);
      an answer or confidence that is not a finite number.

    ``--all DIR`` scores every ``STS.gs.<set>.txt`` in DIR against ``STS.output.<set>.txt`` found in
    ``--system-dir`` (default: DIR itself; the file name rule can be changed with ``--system-pattern``, e.g.
    ``STS.output.{set}.en.txt``) and reports the mean of the per-set Pearson weighted by the number of scored
    pairs -- the official STS 2014 figure. A set without a system file is an error unless ``--partial`` is given,
    in which case the mean covers only the sets found and is labelled partial.

STS Benchmark (``sick score stsb``)
    ``sts-{train,dev,test}.csv`` are tab separated with quoting off (sentences contain unbalanced ``"``): genre,
    filename, year, id, score, sentence1, sentence2 and, on some rows, two licence/source fields (7 or 9
    fields). Dev/test spell the forum genre ``main-forums``, train ``main-forum``; both are reported as
    ``main-forums``. The system file has one answer per line in gold order (first tab-separated field is the
    score; a TSV with a header row naming a ``score`` column is accepted too). Pearson is reported overall, per
    split (one per gold file given; several gold files are read in the order given) and per genre.

Pearson is computed in float64 (population formula, as the official scripts); printed with 5 decimals as the
official script prints it.
"""

from __future__ import annotations

__all__ = ["DEFAULT_SYSTEM_PATTERN", "GOLD_PREFIX", "STSB_GENRES", "StsbRow", "gold_sets", "pearson_or_none",
           "read_sts_gold", "read_sts_system", "read_stsb", "read_stsb_system", "score_sts", "score_sts_all",
           "score_stsb"]

import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pipeline.common.errors import InputError, SubmissionError
from pipeline.common.files import sha256_file
from pipeline.common.options import STS_SYSTEM_PATTERN
from pipeline.corpus.sources import read_lines
from pipeline.evaluate import semeval as score_semeval

GOLD_PREFIX = "STS.gs."
DEFAULT_SYSTEM_PATTERN = STS_SYSTEM_PATTERN
STSB_GENRES = {"main-news": "main-news", "main-captions": "main-captions",
               "main-forum": "main-forums", "main-forums": "main-forums"}


# --------------------------------------------------------------------------------------------- helpers
def pearson_or_none(x, y) -> float | None:
    """The project's one Pearson r (:func:`pipeline.evaluate.semeval.pearson`), or None when undefined (fewer
    than 2 pairs or a constant side), as the STS scorer prints no figure then."""
    if np.asarray(x).size < 2:
        return None
    r = score_semeval.pearson(x, y)
    return None if math.isnan(r) else r


def _lines(path, error: type[InputError] = InputError) -> list[str]:
    """The lines of a UTF-8 file (BOM removed, LF or CRLF, no entry for the final newline); problems raise
    ``error`` (:class:`SubmissionError` for system files)."""
    try:
        lines = [ln for _, ln in read_lines(path)]
    except InputError as exc:
        if error is InputError:
            raise
        raise error(exc.path, exc.problem, line=exc.line, field=exc.field) from None
    if lines[-1] == "":
        lines.pop()  # final newline (or an empty file)
    return lines


def _number(text: str, path, line: int, field: str, error: type[InputError] = InputError) -> float:
    try:
        v = float(text)
    except ValueError:
        raise error(path, f"not a number: {text!r}", line=line, field=field) from None
    if not math.isfinite(v):
        raise error(path, f"not a finite number: {text!r}", line=line, field=field)
    return v


# --------------------------------------------------------------------------------------------- STS 2012-2016
def read_sts_gold(path) -> list[float | None]:
    """One entry per gold line: the score, or None for an empty line (which :func:`score_sts` scores as 0, as the
    official script does)."""
    out: list[float | None] = []
    for i, ln in enumerate(_lines(path), 1):
        s = ln.strip()
        out.append(None if s == "" else _number(s, path, i, "score"))
    if not out:
        raise InputError(path, "empty gold file")
    return out


def read_sts_system(path) -> list[tuple[float | None, float | None]]:
    """One (score, confidence) per line, fields split on white space as the official script does
    (``split /\\s+/``). An empty line gives (None, None); a line that starts with white space has an empty first
    field and gives (0.0, confidence) -- the script's reading -- and :func:`score_sts` warns about it.

    Raises:
        SubmissionError: unreadable file or a field that is not a finite number.
    """
    out: list[tuple[float | None, float | None]] = []
    for i, ln in enumerate(_lines(path, SubmissionError), 1):
        if ln.strip() == "":
            out.append((None, None))
            continue
        fields = re.split(r"\s+", ln.rstrip())
        try:
            score = 0.0 if fields[0] == "" else _number(fields[0], path, i, "score", SubmissionError)
        except SubmissionError as exc:
            raise SubmissionError(path, f"{exc.problem} (the line reads {ln!r}; a system file has one answer per "
                                        "line, no header or comment lines)", line=i, field="score") from None
        conf = None
        if len(fields) > 1 and fields[1] != "":
            conf = _number(fields[1], path, i, "confidence", SubmissionError)
        out.append((score, conf))
    return out


def score_sts(gold_path, system_path) -> dict:
    """Pearson of one STS 2012-2016 data set, the figure of the official ``correlation-noconfidence.pl``.

    Every line is a pair: an empty gold line is scored as gold 0 and a system line starting with white space as
    answer 0, as the script does, each with a warning naming the line (see the module docstring).

    Returns ``{"gold", "gold_sha256", "system", "lines", "pairs", "gold_empty", "system_leading_space",
    "pearson", "warnings"}`` (the two counts are the lines scored as 0); ``pearson`` is None (with a warning)
    when undefined (constant answers; the script dies with "Illegal division by zero").

    Raises:
        InputError: a malformed gold file; SubmissionError (a subclass) for problems in the system file.
    """
    gold = read_sts_gold(gold_path)
    system = read_sts_system(system_path)
    if len(system) != len(gold):
        raise SubmissionError(system_path, f"{len(system)} lines but gold {gold_path} has {len(gold)}",
                              line=min(len(system), len(gold)) + 1)
    sys_lines = _lines(system_path, SubmissionError)
    g, s, warnings = [], [], []
    out_of_range = gold_empty = leading = 0
    for i, (gv, (sv, _conf)) in enumerate(zip(gold, system), 1):
        if sv is None:
            raise SubmissionError(system_path, "empty answer (the official script would score it as 0)", line=i,
                                  field="score")
        if gv is None:
            gold_empty += 1
            gv = 0.0
            warnings.append(f"{gold_path} line {i}: empty gold line scored as gold 0, as the official script does "
                            "(remove the pair from both files if it has no gold score)")
        if sys_lines[i - 1][:1].isspace():
            leading += 1
            warnings.append(f"{system_path} line {i}: starts with white space, so its first field is empty and "
                            f"scored as 0, as the official script does (the line reads {sys_lines[i - 1]!r})")
        if not 0.0 <= sv <= 5.0:
            out_of_range += 1
        g.append(gv)
        s.append(sv)
    if out_of_range:
        warnings.append(f"{out_of_range} system score(s) outside 0-5 (scored as given)")
    r = pearson_or_none(g, s)
    if r is None:
        warnings.append("Pearson undefined (fewer than 2 scored pairs or constant scores)")
    return {"gold": str(gold_path), "gold_sha256": sha256_file(gold_path), "system": str(system_path),
            "lines": len(gold), "pairs": len(g), "gold_empty": gold_empty, "system_leading_space": leading,
            "pearson": r,
            "warnings": warnings}


def gold_sets(gold_dir) -> dict[str, Path]:
    """``{set name: gold path}`` for every ``STS.gs.<set>.txt`` in gold_dir, sorted by name."""
    d = Path(gold_dir)
    if not d.is_dir():
        raise InputError(gold_dir, "not a directory")
    sets = {p.name[len(GOLD_PREFIX):-len(".txt")]: p
            for p in d.iterdir() if p.is_file() and p.name.startswith(GOLD_PREFIX) and p.name.endswith(".txt")}
    if not sets:
        raise InputError(gold_dir, f"no {GOLD_PREFIX}<set>.txt files")
    return dict(sorted(sets.items(), key=lambda kv: kv[0].lower()))


def score_sts_all(gold_dir, system_dir=None, pattern: str = DEFAULT_SYSTEM_PATTERN,
                  partial: bool = False) -> dict:
    """Score every set in gold_dir; system file of set X is ``system_dir / pattern.format(set=X)``.

    The ``mean`` is the per-set Pearson weighted by each set's number of scored pairs (official STS 2014
    figure). Missing system files raise SubmissionError unless ``partial`` (then listed under ``missing``);
    gold problems raise InputError.
    """
    if "{set}" not in pattern:
        raise ValueError("system pattern must contain {set}")
    sysdir = Path(system_dir) if system_dir is not None else Path(gold_dir)
    results, missing = {}, []
    for name, gpath in gold_sets(gold_dir).items():
        spath = sysdir / pattern.format(set=name)
        if not spath.is_file():
            missing.append(name)
            continue
        results[name] = score_sts(gpath, spath)
    if missing and not partial:
        raise SubmissionError(sysdir, "no system file for set(s) " + ", ".join(missing)
                              + f" (expected {pattern}; use --partial to score the others)")
    if not results:
        raise SubmissionError(sysdir, f"no system files matching {pattern}")
    defined = {k: v for k, v in results.items() if v["pearson"] is not None}
    n = sum(v["pairs"] for v in defined.values())
    mean = sum(v["pearson"] * v["pairs"] for v in defined.values()) / n if n else None
    warnings = [f"{k}: {w}" for k, v in results.items() for w in v["warnings"]]
    if missing:
        warnings.append("partial: mean excludes sets without a system file: " + ", ".join(missing))
    return {"gold_dir": str(gold_dir), "system_dir": str(sysdir), "pattern": pattern, "sets": results,
            "missing": missing, "pairs": n, "mean": mean, "partial": bool(missing),
            "metric": "Pearson per set; mean weighted by scored pairs", "warnings": warnings}


# --------------------------------------------------------------------------------------------- STS Benchmark
@dataclass(frozen=True)
class StsbRow:
    genre: str        # as spelled in the file (train: main-forum, dev/test: main-forums)
    filename: str
    year: str
    id: str
    score: float
    s1: str
    s2: str
    line: int

    @property
    def genre_canonical(self) -> str:
        return STSB_GENRES[self.genre]


def read_stsb(path) -> list[StsbRow]:
    """Read an STS Benchmark csv (tab separated, quoting off, 7 or 9 fields per row)."""
    rows = []
    for i, ln in enumerate(_lines(path), 1):
        if ln == "":
            raise InputError(path, "empty line", line=i)
        f = ln.split("\t")
        if len(f) not in (7, 9):
            raise InputError(path, f"{len(f)} tab-separated fields, expected 7 or 9", line=i)
        if f[0] not in STSB_GENRES:
            raise InputError(path, f"unknown genre {f[0]!r} (expected one of {', '.join(STSB_GENRES)})",
                             line=i, field="genre")
        score = _number(f[4], path, i, "score")
        if not 0.0 <= score <= 5.0:
            raise InputError(path, f"score {score} outside 0-5", line=i, field="score")
        rows.append(StsbRow(f[0], f[1], f[2], f[3], score, f[5], f[6], i))
    if not rows:
        raise InputError(path, "empty file")
    return rows


def read_stsb_system(path) -> list[float]:
    """System answers: one per line (first tab field), or a TSV whose header row has a ``score`` column.

    Raises:
        SubmissionError: unreadable file, or a missing or non-numeric score.
    """
    lines = _lines(path, SubmissionError)
    col, start = 0, 0
    if lines:
        head = [h.strip().lower() for h in lines[0].split("\t")]
        try:
            float(head[0])
        except ValueError:
            if "score" in head:
                col, start = head.index("score"), 1
            elif "relatedness_score" in head:
                col, start = head.index("relatedness_score"), 1
    out = []
    for i, ln in enumerate(lines[start:], start + 1):
        f = ln.split("\t")
        if len(f) <= col or f[col].strip() == "":
            raise SubmissionError(path, "missing score", line=i, field="score")
        out.append(_number(f[col].strip(), path, i, "score", SubmissionError))
    return out


def _split_name(path) -> str:
    stem = Path(path).stem
    m = re.fullmatch(r"sts-(\w+)", stem)
    return m.group(1) if m else stem


def score_stsb(gold_csv, system_path) -> dict:
    """Pearson overall, per split (gold file) and per genre; gold_csv is one path or a list (read in order)."""
    golds = [gold_csv] if isinstance(gold_csv, (str, Path)) else list(gold_csv)
    rows: list[tuple[str, StsbRow]] = []
    for g in golds:
        rows.extend((_split_name(g), r) for r in read_stsb(g))
    system = read_stsb_system(system_path)
    if len(system) != len(rows):
        raise SubmissionError(system_path, f"{len(system)} answers but the gold file(s) have {len(rows)} pairs")
    gs = np.array([r.score for _, r in rows])
    ss = np.array(system, dtype=np.float64)

    def block(mask) -> dict:
        return {"pairs": int(mask.sum()), "pearson": pearson_or_none(gs[mask], ss[mask])}

    splits = {}
    for name in dict.fromkeys(n for n, _ in rows):
        splits[name] = block(np.array([n == name for n, _ in rows]))
    genres = {}
    for genre in ("main-news", "main-captions", "main-forums"):
        mask = np.array([r.genre_canonical == genre for _, r in rows])
        if mask.any():
            genres[genre] = block(mask)
    overall = block(np.ones(len(rows), dtype=bool))
    warnings = []
    if overall["pearson"] is None:
        warnings.append("Pearson undefined (constant scores)")
    out_of_range = int(((ss < 0) | (ss > 5)).sum())
    if out_of_range:
        warnings.append(f"{out_of_range} system score(s) outside 0-5 (scored as given)")
    return {"gold": [str(g) for g in golds], "gold_sha256": [sha256_file(g) for g in golds],
            "system": str(system_path), "pairs": overall["pairs"], "pearson": overall["pearson"],
            "splits": splits, "genres": genres, "metric": "Pearson r", "warnings": warnings}


# --------------------------------------------------------------------------------------------- CLI
