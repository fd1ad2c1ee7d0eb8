"""Score a SemEval-2014 Task 1 submission against a SICK gold file, as the official ``sick_evaluation.R`` does.

``sick score semeval --gold GOLD --submission RUN [--json]``

Metrics (identical formulas AND arithmetic to the official R scorer; every figure it printed on 53 submissions --
derived/edge_cases_trial, edge_cases_test, random_test and the overlap baselines -- is reproduced to the last of its 15
significant digits, tests/evaluate/test_semeval.py):

* relatedness, on the RAW scores (no rescaling, no clipping): ``pearson`` (product-moment r), ``spearman``
  (Pearson r of average ranks), ``mse`` (mean squared raw difference). Additionally ``mse_standardized``: the MSE
  after z-scoring system and gold scores separately (mean 0, sd with n-1 as R's ``scale()``); the official scorer
  does NOT compute this, it is reported because the task guidelines mention standardized scores.
* entailment: ``accuracy`` in percent, computed as R does, ``(correct / N) * 100``.

Arithmetic as R's (EVALUATION_NOTES.txt): sums in long double (numpy.longdouble, 80-bit on x86_64), two-pass
means, ``cor`` as stats/src/cov.c (see :func:`_r_cor`); a double-precision Pearson differs in the 15th digit for
about 1 figure in 8. Figures are printed as R's ``paste()`` does (:func:`r_format`): ``NA`` for a correlation
with a constant side, ``NaN`` / ``Inf`` when a score overflows double precision (``1e400``), and a score such as
``1e200`` gives R's finite Pearson (long-double sums) but an MSE of ``Inf`` (squares in double) -- each with a
warning.

The submission is tab-separated with a header naming ``pair_ID``, ``entailment_judgment`` and
``relatedness_score`` in any order; other columns are ignored. A column that is ``NA`` throughout means the subtask
was not attempted. Exit status 0 when at least one subtask was scored, 1 when nothing was (submission rejected).

Where we agree with the official scorer (same verdict, same numbers):
  missing / extra / duplicate pair IDs reject the whole submission (we list the offending ids);
  any ``NA`` in a column -> that subtask is not scored (R: "No data for the ... task");
  a label outside the gold label set (exact, case-sensitive, e.g. ``neutral``, and spaces count: ``NEUTRAL ``
  is not ``NEUTRAL``, as R's read.delim keeps them) -> entailment error, relatedness still scored (R: "wrong
  level(s)"); we name the labels;
  a pair_ID written as a number with an integral value (``16.0``, ``007``, ``+7``) matches that ID, as R reads
  the column as numbers; we add a WARNING naming them;
  a non-numeric relatedness value -> relatedness error (R: "wrong format"); we name the ids and values;
  column order and extra columns are irrelevant.

Where the official scorer is lenient and we are stricter or louder (documented differences):
  * partial header names: R's ``$`` partially matches, so a column ``entailment_judgment_x`` is used for
    ``entailment_judgment``. We also use a column whose name uniquely starts with the required name (so numbers
    agree) but add a WARNING naming it. Two such columns -> error (R would silently get NULL).
  * a missing column (e.g. header ``entailment``): R prints "accuracy NaN%" / "wrong format"; we give an ERROR
    "no column 'entailment_judgment'" and the subtask is not scored.
  * quoted header or fields (``"pair_ID"``): R strips the quotes silently; we strip them with a WARNING.
  * empty entailment label: R treats it as an unknown level; we report it as a missing value (not scored).
  * R's numeric coercion accepts hexadecimal (``0x1A``), ``Inf``, ``NaN``; we reject them (ERROR, not scored).
  * a submission with a header and no rows: R prints "accuracy NaN%" and "wrong format"; we reject it (ERROR).
  * both subtasks: relatedness scores outside the gold range 1-5 get a WARNING (the raw-scale MSE is then large,
    e.g. ~10 for the 0-1 overlap baseline, as in the official output).
  * R recycles vectors of unequal length when comparing IDs; we compare ID sets exactly.
  * a UTF-8 byte-order mark is removed with a WARNING (R would make it part of the first column name).
"""

from __future__ import annotations

__all__ = ["LABELS", "exit_status", "format_table", "mse", "pearson", "r_format", "read_sick", "relatedness_metrics",
           "score", "spearman", "zscore"]

import math
import re
from pathlib import Path

import numpy as np

from pipeline.common.errors import InputError
from pipeline.common.files import sha256_file
from pipeline.common.vocabulary import R_LABEL_LEVELS

LABELS = R_LABEL_LEVELS  # the scorer lists labels in R's factor-level order
SICK_COLUMNS = ("pair_ID", "sentence_A", "sentence_B", "relatedness_score", "entailment_judgment")
SUB_ID, SUB_ENT, SUB_REL = "pair_ID", "entailment_judgment", "relatedness_score"
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_MAX_LISTED = 10


def _listing(items) -> str:
    items = list(items)
    shown = ", ".join(str(i) for i in items[:_MAX_LISTED])
    return shown + (f" ... ({len(items)} in all)" if len(items) > _MAX_LISTED else "")


def _read_text(path) -> str:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(path, f"cannot read file: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(path, "not valid UTF-8", line=line) from None


def _id_key(raw: str) -> str:
    """Canonical pair ID: numbers with an integral value compared by value, as R reads pair_ID as a number
    (``007``, ``+7`` and ``7.0`` are all 7); anything else as text."""
    if re.fullmatch(r"[+-]?\d+", raw):
        return str(int(raw))
    if _NUMBER.match(raw):
        v = float(raw)
        if math.isfinite(v) and v == int(v):
            return str(int(v))
    return raw


def read_sick(path) -> list[dict]:
    """Rows of a SICK file (``pair_ID sentence_A sentence_B [relatedness_score entailment_judgment]``).

    Tab-separated, quoting off, LF or CRLF, fields stripped. The gold columns are optional (an unannotated test
    file); when present, ``relatedness_score`` is a float and ``entailment_judgment`` a string. Extra columns are
    ignored.

    Raises:
        InputError: unreadable file, missing columns, short lines, duplicate IDs, non-numeric relatedness.
    """
    text = _read_text(path).lstrip("\ufeff")
    lines = text.splitlines()
    if not lines:
        raise InputError(path, "empty file")
    header = [h.strip() for h in lines[0].split("\t")]
    for col in SICK_COLUMNS[:3]:
        if col not in header:
            raise InputError(path, f"header lacks column {col!r} (has {', '.join(header)})", line=1, field=col)
    idx = {c: header.index(c) for c in SICK_COLUMNS if c in header}
    rows, seen = [], {}
    for n, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = [f.strip() for f in line.split("\t")]
        if len(fields) < len(header):
            raise InputError(path, f"{len(fields)} fields, header has {len(header)}", line=n)
        row = {c: fields[i] for c, i in idx.items()}
        if not row["pair_ID"]:
            raise InputError(path, "empty pair_ID", line=n, field="pair_ID")
        key = _id_key(row["pair_ID"])
        if key in seen:
            raise InputError(path, f"duplicate pair_ID {row['pair_ID']} (first on line {seen[key]})", line=n,
                             field="pair_ID")
        seen[key] = n
        if "relatedness_score" in row:
            v = row["relatedness_score"]
            if not _NUMBER.match(v):
                raise InputError(path, f"relatedness_score {v!r} is not a number", line=n, field="relatedness_score")
            row["relatedness_score"] = float(v)
        rows.append(row)
    if not rows:
        raise InputError(path, "no pairs")
    return rows


# --- metrics ---------------------------------------------------------------------------------------------------
# R accumulates sums in long double (80-bit on x86_64) and means in two passes; numpy.longdouble is the same type
# there. cumsum adds left to right as R's loops do (np.sum would add pairwise and round differently).

def _ld_sum(x) -> np.longdouble:
    x = np.asarray(x, dtype=np.longdouble)
    return np.cumsum(x)[-1] if x.size else np.longdouble(0)


def r_mean(x) -> float:
    """R's ``mean()`` of a double vector: long-double sum / n, then corrected by the mean residual (two-pass)."""
    x = np.asarray(x, dtype=float)
    n = x.size
    with np.errstate(invalid="ignore", over="ignore"):
        tmp = _ld_sum(x) / n
        if np.isfinite(tmp.astype(float)):
            tmp = tmp + _ld_sum(x.astype(np.longdouble) - tmp) / n
    return float(tmp)


def _r_cor(x, y) -> float | None:
    """R's ``cor(x, y)`` (stats/src/cov.c, complete cases): two-pass long-double means stored as double,
    long-double sums of centred cross products divided by n-1 and stored as double, the sds as double
    ``sqrtl`` of the long-double sums, r = cov / (sd_x * sd_y) in double, clamped to [-1, 1]. None when a sd is 0
    (R: NA with the warning "the standard deviation is zero"); NaN when a value is infinite."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    n1 = x.size - 1
    if n1 < 1:
        return None
    with np.errstate(invalid="ignore", over="ignore"):
        dx = x.astype(np.longdouble) - np.longdouble(r_mean(x))
        dy = y.astype(np.longdouble) - np.longdouble(r_mean(y))
        cov = float(_ld_sum(dx * dy) / n1)
        sdx = float(np.sqrt(_ld_sum(dx * dx) / n1))
        sdy = float(np.sqrt(_ld_sum(dy * dy) / n1))
        if sdx == 0 or sdy == 0:
            return None
        r = cov / (sdx * sdy)
    return r if math.isnan(r) else min(1.0, max(-1.0, r))


def pearson(x, y) -> float:
    """Product-moment correlation exactly as R's ``cor`` computes it (see :func:`_r_cor`); NaN when undefined
    (a constant side, fewer than 2 values, or an infinite value)."""
    r = _r_cor(x, y)
    return float("nan") if r is None else r


def spearman(x, y) -> float:
    """Pearson r of ranks, ties given average ranks (R ``cor(method="spearman")``)."""
    from scipy.stats import rankdata  # scipy.stats takes a second to import; only scoring needs it

    return pearson(rankdata(x, method="average"), rankdata(y, method="average"))


def mse(x, y) -> float:
    """``sum((x - y)^2) / N`` as R evaluates it: squares in double, a long-double sum rounded to double, / N."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        return float(_ld_sum((x - y) ** 2).astype(float)) / len(x)


def zscore(x) -> np.ndarray:
    """(x - mean) / sd with the n-1 sd, as R's ``scale()``; a constant vector becomes all zeros."""
    x = np.asarray(x, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        sd = x.std(ddof=1) if len(x) > 1 else 0.0
        return (x - x.mean()) / sd if sd > 0 else np.zeros_like(x)


def relatedness_metrics(system, gold) -> dict:
    """``{"pearson", "spearman", "mse", "mse_standardized"}``; a correlation R prints as NA (a constant side) is
    None, one R prints as NaN (an infinite score) is float NaN."""
    from scipy.stats import rankdata

    return {"pearson": _r_cor(system, gold),
            "spearman": _r_cor(rankdata(system, method="average"), rankdata(gold, method="average")),
            "mse": mse(system, gold), "mse_standardized": mse(zscore(system), zscore(gold))}


def r_format(value: float | None) -> str:
    """A number as R's ``paste()`` / ``as.character()`` prints it: at most 15 significant digits, trailing zeros
    dropped, fixed notation unless scientific is narrower (R's ``scipen = 0`` rule, so 1e5 is ``1e+05``);
    None is ``NA``, NaN ``NaN``, infinities ``Inf`` / ``-Inf``, and -0 ``0``."""
    if value is None:
        return "NA"
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Inf" if value > 0 else "-Inf"
    if value == 0:
        return "0"
    mant, exp = f"{value:.14e}".split("e")
    e = int(exp)
    digits = mant.replace("-", "").replace(".", "").rstrip("0") or "0"
    sig = len(digits)
    sign = "-" if value < 0 else ""
    sci = sign + digits[0] + ("." + digits[1:] if sig > 1 else "") + f"e{'-' if e < 0 else '+'}{abs(e):02d}"
    decimals = max(0, sig - 1 - e)
    fixed = f"{value:.{decimals}f}"
    return fixed if len(fixed) <= len(sci) else sci


# --- the submission ------------------------------------------------------------------------------------------

def _unquote(value: str) -> tuple[str, bool]:
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].replace('""', '"'), True
    return value, False


def _find_column(header: list[str], name: str, errors: list, warnings: list) -> int | None:
    if name in header:
        if header.count(name) > 1:
            warnings.append(f"column {name!r} appears {header.count(name)} times; the first is used")
        return header.index(name)
    partial = [i for i, h in enumerate(header) if h.startswith(name)]
    if len(partial) == 1:
        warnings.append(f"no column named exactly {name!r}; using column {header[partial[0]]!r} (the official "
                        f"scorer partially matches names; please rename it)")
        return partial[0]
    if len(partial) > 1:
        errors.append(f"no column named exactly {name!r} and several that start with it: "
                      f"{_listing(header[i] for i in partial)}")
        return None
    hint = [h for h in header if h and (name.startswith(h) or h.lower() == name.lower())]
    errors.append(f"no column {name!r} in the header (columns: {_listing(header)})"
                  + (f"; rename column {hint[0]!r} to {name!r}" if hint else ""))
    return None


def score(gold_path, submission_path) -> dict:
    """Score ``submission_path`` against the SICK gold file ``gold_path``.

    Returns ``{"gold", "gold_sha256", "pairs", "relatedness", "entailment", "errors", "warnings"}``;
    ``relatedness`` is ``{"pearson", "spearman", "mse", "mse_standardized"}`` or None, ``entailment`` is
    ``{"accuracy"}`` (percent) or None. A rejected submission has both None and at least one error.

    Raises:
        InputError: the gold file is unreadable or malformed, or the submission file cannot be read or decoded.
    """
    gold_rows = read_sick(gold_path)
    for col in ("relatedness_score", "entailment_judgment"):
        if col not in gold_rows[0]:
            raise InputError(gold_path, f"gold file has no {col!r} column (an unannotated file cannot be a gold set)")
    result = {"gold": str(gold_path), "gold_sha256": sha256_file(gold_path), "pairs": len(gold_rows),
              "relatedness": None, "entailment": None, "errors": [], "warnings": []}
    errors, warnings = result["errors"], result["warnings"]

    text = _read_text(submission_path)
    if text.startswith("\ufeff"):
        text = text[1:]
        warnings.append("the submission starts with a UTF-8 byte-order mark; it was ignored")
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        errors.append("the submission is empty or its first line (the header) is blank")
        return result
    header, quoted = [], False
    for h in lines[0].split("\t"):
        h, q = _unquote(h.strip())
        header.append(h)
        quoted |= q
    if quoted:
        warnings.append("header names are in double quotes; the quotes were removed")
    i_id = _find_column(header, SUB_ID, errors, warnings)
    i_ent = _find_column(header, SUB_ENT, errors, warnings)
    i_rel = _find_column(header, SUB_REL, errors, warnings)
    if i_id is None:
        errors.append("submission rejected: without a pair_ID column no score can be aligned with the gold set")
        return result

    sub: dict[str, tuple[str | None, str | None]] = {}
    order: list[str] = []
    counts: dict[str, int] = {}
    short, quoted_fields, odd_ids = [], 0, []
    needed = max(i for i in (i_id, i_ent, i_rel) if i is not None)
    for n, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = []
        for f in line.split("\t"):
            # R's read.delim keeps spaces around text (strip.white = FALSE), so a label "NEUTRAL " is a wrong
            # level; numbers are converted with surrounding spaces ignored. Only pair_ID and relatedness are
            # stripped, below.
            unquoted, q = _unquote(f.strip())
            fields.append(unquoted if q else f)
            quoted_fields += q
        if len(fields) <= needed:
            short.append(n)
            fields += [""] * (needed + 1 - len(fields))
        fields[i_id] = fields[i_id].strip()
        if i_rel is not None:
            fields[i_rel] = fields[i_rel].strip()
        raw_id = fields[i_id]
        key = _id_key(raw_id)
        if key != raw_id:
            odd_ids.append(raw_id)
        counts[key] = counts.get(key, 0) + 1
        order.append(key)
        sub.setdefault(key, (fields[i_ent] if i_ent is not None else None,
                             fields[i_rel] if i_rel is not None else None))
    if quoted_fields:
        warnings.append(f"{quoted_fields} field(s) are in double quotes; the quotes were removed")
    if short:
        warnings.append(f"line(s) {_listing(short)} have fewer fields than the header; missing fields read as empty")
    if odd_ids:
        warnings.append(f"pair IDs written in a non-canonical integer form were matched by value: {_listing(odd_ids)}")
    if not order:
        errors.append("submission rejected: it has a header but no rows (the official scorer prints accuracy NaN "
                      "and 'wrong format')")
        return result

    gold_ids = [_id_key(r["pair_ID"]) for r in gold_rows]
    gold_set = set(gold_ids)
    missing = [g for g in gold_ids if g not in counts]
    extra = [k for k in dict.fromkeys(order) if k not in gold_set]
    dups = [k for k, c in counts.items() if c > 1]
    if missing:
        errors.append(f"{len(missing)} gold pair ID(s) missing from the submission: {_listing(missing)}")
    if extra:
        errors.append(f"{len(extra)} pair ID(s) in the submission are not in the gold set: {_listing(extra)}")
    if dups:
        errors.append(f"{len(dups)} pair ID(s) appear more than once in the submission: {_listing(dups)}")
    if missing or extra or dups:
        errors.append("submission rejected: pair IDs in the submission and the gold set do not correspond "
                      "(the official scorer stops here too)")
        return result

    # entailment
    if i_ent is not None:
        preds = [sub[g][0] for g in gold_ids]
        absent = [g for g, p in zip(gold_ids, preds) if p.strip() in ("NA", "")]
        if len(absent) == len(preds):
            warnings.append("entailment not attempted (entailment_judgment is NA throughout): not scored")
        elif absent:
            errors.append(f"entailment not scored: {len(absent)} pair(s) have no label (NA or empty): "
                          f"{_listing(absent)}")
        else:
            gold_labels = {r["entailment_judgment"] for r in gold_rows}
            unknown = sorted(set(preds) - gold_labels)
            if unknown:
                hint = ""
                if all(u.strip().upper() in gold_labels for u in unknown):
                    hints = (["labels are case-sensitive: write them in upper case"]
                             * any(u.strip() not in gold_labels for u in unknown)
                             + ["spaces around a label make it a different label, as in the official scorer"]
                             * any(u != u.strip() for u in unknown))
                    hint = f" ({'; '.join(hints)})"
                errors.append(f"entailment not scored: unknown label(s) {_listing(repr(u) for u in unknown)}; "
                              f"allowed: {', '.join(sorted(gold_labels))}{hint}")
            else:
                correct = sum(p == r["entailment_judgment"] for p, r in zip(preds, gold_rows))
                # R's order of operations, (c / N) * 100, prints differently from 100 * c / N for ~2 % of counts
                result["entailment"] = {"accuracy": correct / len(gold_rows) * 100}

    # relatedness
    if i_rel is not None:
        vals = [sub[g][1] for g in gold_ids]
        absent = [g for g, v in zip(gold_ids, vals) if v in ("NA", "")]
        bad = [(g, v) for g, v in zip(gold_ids, vals) if v not in ("NA", "") and not _NUMBER.match(v)]
        if len(absent) == len(vals):
            warnings.append("relatedness not attempted (relatedness_score is NA throughout): not scored")
        else:
            if absent:
                errors.append(f"relatedness not scored: {len(absent)} pair(s) have no score (NA or empty): "
                              f"{_listing(absent)}")
            if bad:
                errors.append(f"relatedness not scored: {len(bad)} value(s) are not decimal numbers: "
                              f"{_listing(f'{g}={v!r}' for g, v in bad)}")
            if not absent and not bad:
                x = np.array([float(v) for v in vals])
                y = np.array([r["relatedness_score"] for r in gold_rows])
                if x.min() < 1 or x.max() > 5:
                    warnings.append(f"relatedness scores range {r_format(x.min())}..{r_format(x.max())}, outside "
                                    f"the gold scale 1..5; MSE is computed on the raw scores and is large")
                if x.min() == x.max():
                    warnings.append("all relatedness scores are equal: correlations are undefined (NA, as the "
                                    "official scorer prints them)")
                if not np.isfinite(x).all():
                    over = [f"{g}={v!r}" for g, v, f in zip(gold_ids, vals, x) if not math.isfinite(f)]
                    warnings.append(f"{len(over)} relatedness value(s) exceed double precision and read as infinite: "
                                    f"{_listing(over)}; Pearson is NaN and MSE Inf, as the official scorer prints")
                result["relatedness"] = relatedness_metrics(x, y)
                if np.isfinite(x).all() and math.isinf(result["relatedness"]["mse"]):
                    warnings.append(f"relatedness scores up to {r_format(float(np.abs(x).max()))}: their squared "
                                    "differences exceed double precision, so MSE is Inf, as the official scorer "
                                    "prints (its long-double sums keep Pearson and Spearman finite)")

    if result["relatedness"] is None and result["entailment"] is None:
        errors.append("submission rejected: nothing could be scored")
    return result


def format_table(result: dict) -> str:
    """The plain-text report: gold file, sha256 prefix, pairs, metric variants, errors and warnings."""
    out = [f"gold        {result['gold']}  (sha256 {result['gold_sha256'][:12]}, {result['pairs']} pairs)"]
    rel, ent = result["relatedness"], result["entailment"]
    if ent is not None:
        out.append(f"entailment  accuracy          {r_format(ent['accuracy'])}%")
    else:
        out.append("entailment  not scored")
    if rel is not None:
        out.append(f"relatedness pearson           {r_format(rel['pearson'])}   (raw scores)")
        out.append(f"relatedness spearman          {r_format(rel['spearman'])}   (raw scores, average ranks)")
        out.append(f"relatedness mse               {r_format(rel['mse'])}   (raw scores, as the official scorer)")
        out.append(f"relatedness mse_standardized  {r_format(rel['mse_standardized'])}   "
                   "(both z-scored, sd n-1; not in the official scorer)")
    else:
        out.append("relatedness not scored")
    out += [f"ERROR: {e}" for e in result["errors"]]
    out += [f"warning: {w}" for w in result["warnings"]]
    return "\n".join(out)


def exit_status(result: dict) -> int:
    return 0 if (result["relatedness"] is not None or result["entailment"] is not None) else 1


def _json_safe(obj):
    """NaN (an undefined correlation) becomes null so that the output is strict JSON."""
    if isinstance(obj, dict):
        return {k: _json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_json_safe(v) for v in obj]
    if isinstance(obj, float) and math.isnan(obj):
        return None
    return obj
