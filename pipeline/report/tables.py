"""``sick report``: the tables, statistics and plots of section 4 of the SICK paper for any corpus.

Marelli et al. 2014 (LREC), section 4: Table 4 (rule frequencies), Table 5 (pairs per relation and pair type),
Table 6 (relatedness and entailment distributions), Table 7 (relatedness range x entailment label), Tables 8 and 9
(relatedness and entailment per pair type group). Each is a function returning a DataFrame; ``write_report``
writes them as TSV and ``report.md``/``report.html`` with ``plots/*.png``, atomically (release files:
``sick release``).
"""

from __future__ import annotations

__all__ = ["GROUPS", "RANGES", "TSV_NAMES", "agreement_summary", "compute", "direction_summary", "label_stats",
           "pair_type_group", "relatedness_range", "rule_families", "table4_rule_frequencies",
           "table5_pair_distribution", "table6_distribution", "table7_crosstab", "table8_relatedness_by_pair_type",
           "table9_entailment_by_pair_type", "paper_figures", "write_report"]

import html
import json
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.common.corpus_io import read_corpus
from pipeline.common.files import atomic_dir, write_json, write_tsv
from pipeline.common.resources import ANNOTATIONS_DIR
from pipeline.common.vocabulary import LABELS, PAIR_GROUP_NAMES, PAIR_GROUPS, STAGES, pair_group
from pipeline.corpus.rules import DEFAULT_RULES_DIR, _read_yaml
from pipeline.report.io import is_synthetic
from pipeline.review.stage import review_summary

RANGES = ("[1-2)", "[2-3)", "[3-4)", "[4-5]")
BIN_EDGES = [1.0, 2.0, 3.0, 4.0]
RELATION_ORDER = ("similar", "contrasting", "lexical-overlap", "unrelated")
# Tables 8 and 9 rows, in the paper's order
GROUPS = tuple(PAIR_GROUP_NAMES[g] for g in PAIR_GROUPS)
PAPER_FIGURES = ANNOTATIONS_DIR / "paper_figures.yaml"
"""The SICK paper's Tables 6, 8 and 9 as numbers (Marelli et al. 2014, LREC), printed beside ours."""
TSV_NAMES = {
    "table4": "table4_rule_frequencies.tsv", "table5": "table5_pair_distribution.tsv",
    "table6": "table6_distribution.tsv", "table7": "table7_crosstab.tsv", "label_stats": "label_stats.tsv",
    "tukey": "label_tukey_hsd.tsv", "table8": "table8_relatedness_by_pair_type.tsv",
    "table9": "table9_entailment_by_pair_type.tsv",
}


# ---------------------------------------------------------------- helpers

def _has(df: pd.DataFrame, *cols: str) -> bool:
    return all(c in df.columns for c in cols) and all((df[c].astype(str) != "").any() for c in cols)


def relatedness_range(scores: pd.Series) -> pd.Series:
    """Map each score to ``[1-2)``, ``[2-3)``, ``[3-4)`` or ``[4-5]`` (5 in the last; NaN or outside 1..5: NaN)."""
    s = scores.astype(float)
    idx = np.searchsorted(BIN_EDGES, s.to_numpy(), side="right") - 1
    ok = s.notna().to_numpy() & (s.to_numpy() >= 1) & (s.to_numpy() <= 5)
    out = np.where(ok, np.array(RANGES, dtype=object)[np.clip(idx, 0, 3)], None)
    return pd.Series(out, index=scores.index, dtype=object)


def _labels_present(df: pd.DataFrame) -> list[str]:
    seen = [x for x in df["entailment_label"].unique() if x]
    return [lab for lab in LABELS if lab in seen] + sorted(x for x in seen if x not in LABELS)


def _rated(df: pd.DataFrame) -> pd.DataFrame:
    """Rows with both a relatedness score and an entailment label."""
    return df[df["relatedness_score"].notna() & (df["entailment_label"] != "")]


def pair_type_group(pair_type: pd.Series, set_: pd.Series) -> pd.Series:
    """Tables 8/9 row names (:data:`~pipeline.common.vocabulary.PAIR_GROUP_NAMES`) of each row; a set other
    than ``same`` counts as cross set, and a pair type outside SICK's scheme gives ''."""

    def name(pt: str, st: str) -> str:
        try:
            return PAIR_GROUP_NAMES[pair_group(pt, "same" if st == "same" else "cross")]
        except ValueError:
            return ""

    keys = pd.Series(list(zip(pair_type.astype(str), set_.astype(str))), index=pair_type.index, dtype=object)
    names = {k: name(*k) for k in keys.unique()}
    return keys.map(names).astype(object)


def rule_families(rules_dir: str | Path = DEFAULT_RULES_DIR) -> dict[str, str]:
    """Rule id -> family (its ``stage``), read from the rule YAML files (without loading the actions).

    Raises:
        RuleError: a rule file that is not valid YAML.
    """
    fam: dict[str, str] = {}
    for f in sorted(Path(rules_dir).glob("*.yaml")):
        data = _read_yaml(f) or {}
        for r in data.get("rules", []) or []:
            if isinstance(r, dict) and "id" in r:
                fam[str(r["id"])] = str(r.get("stage", ""))
    return fam


# ---------------------------------------------------------------- tables

def table4_rule_frequencies(df: pd.DataFrame, families: dict[str, str] | None = None) -> pd.DataFrame | None:
    """Table 4: per family and rule, the number of distinct corpus sentences the rule helped make.

    Read from ``rules_A``/``rules_B`` (space-separated rule ids); None when the file has no such columns.
    """
    if not ("rules_A" in df.columns and "rules_B" in df.columns):
        return None
    families = rule_families() if families is None else families
    sent = pd.concat([df[["sentence_A", "rules_A"]].set_axis(["s", "r"], axis=1),
                      df[["sentence_B", "rules_B"]].set_axis(["s", "r"], axis=1)], ignore_index=True)
    sent = sent.drop_duplicates()
    ids = sent["r"].str.split().explode().dropna()
    ids = ids[ids != ""]
    freq = ids.value_counts()
    rows = [{"family": fam, "rule": rid, "freq": int(freq.get(rid, 0))} for rid, fam in families.items()]
    # review-edit marks a sentence a native speaker corrected (sick review apply), not a rule
    rows += [{"family": "review" if rid == "review-edit" else "unknown", "rule": rid, "freq": int(n)}
             for rid, n in freq.items() if rid not in families]
    out = pd.DataFrame(rows, columns=["family", "rule", "freq"])
    rank = {f: i for i, f in enumerate(STAGES)}
    out["_o"] = out["family"].map(lambda f: rank.get(f, len(rank)))
    return out.sort_values(["_o", "freq", "rule"], ascending=[True, False, True], kind="stable") \
        .drop(columns="_o").reset_index(drop=True)


def table5_pair_distribution(df: pd.DataFrame) -> pd.DataFrame | None:
    """Table 5: pairs per expected relation and pair type (and set), count and % of all pairs."""
    if not _has(df, "expected_relation", "pair_type"):
        return None
    keys = ["expected_relation", "pair_type"] + (["set"] if "set" in df.columns else [])
    c = df.groupby(keys, sort=False).size().rename("count").reset_index()
    c["percent"] = (100 * c["count"] / len(df)).round(2)
    rank = {r: i for i, r in enumerate(RELATION_ORDER)}
    c["_o"] = c["expected_relation"].map(lambda r: rank.get(r, len(rank)))
    return c.sort_values(["_o", "pair_type"], kind="stable").drop(columns="_o").reset_index(drop=True)


def table6_distribution(df: pd.DataFrame) -> pd.DataFrame:
    """Table 6: relatedness ranges and entailment labels, count and % (of the pairs with a value)."""
    rr = relatedness_range(df["relatedness_score"]).dropna()
    rows = []
    n = len(rr) or 1
    for r in RANGES:
        k = int((rr == r).sum())
        rows.append({"variable": "relatedness", "value": r, "count": k, "percent": round(100 * k / n, 2)})
    lab = df["entailment_label"][df["entailment_label"] != ""]
    n = len(lab) or 1
    for lb in _labels_present(df):
        k = int((lab == lb).sum())
        rows.append({"variable": "entailment", "value": lb, "count": k, "percent": round(100 * k / n, 2)})
    return pd.DataFrame(rows, columns=["variable", "value", "count", "percent"])


def table7_crosstab(df: pd.DataFrame) -> tuple[pd.DataFrame, dict]:
    """Table 7: relatedness range x entailment label counts with totals, and the chi-square test.

    Returns (table with a ``relatedness`` column, rows RANGES + ``total``, columns labels + ``total``;
    ``{"chi2", "dof", "p", "n"}``). Empty rows/columns are left out of the test.
    """
    from scipy.stats import chi2_contingency

    d = _rated(df)
    rr = relatedness_range(d["relatedness_score"])
    labels = _labels_present(d)
    ct = pd.crosstab(pd.Categorical(rr, categories=list(RANGES)),
                     pd.Categorical(d["entailment_label"], categories=labels), dropna=False)
    ct = ct.reindex(index=list(RANGES), columns=labels, fill_value=0).astype(int)
    obs = ct.loc[ct.sum(axis=1) > 0, ct.sum(axis=0) > 0].to_numpy()
    test = {"chi2": float("nan"), "dof": 0, "p": float("nan"), "n": int(ct.to_numpy().sum())}
    if obs.shape[0] >= 2 and obs.shape[1] >= 2:
        res = chi2_contingency(obs)
        test.update(chi2=float(res[0]), p=float(res[1]), dof=int(res[2]))
    out = ct.copy()
    out["total"] = out.sum(axis=1)
    out.loc["total"] = out.sum(axis=0)
    out.index.name = "relatedness"
    out.columns.name = None
    return out.reset_index(), test


def label_stats(df: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """Mean and SD (ddof 1) of relatedness per entailment label, and Tukey HSD between the labels.

    Returns (``label n mean sd``, ``label_1 label_2 mean_diff ci_low ci_high p`` or None when fewer than two
    labels have two or more pairs).
    """
    from scipy.stats import tukey_hsd

    d = _rated(df)
    labels = _labels_present(d)
    groups = {lb: d["relatedness_score"][d["entailment_label"] == lb].to_numpy(float) for lb in labels}
    stats = pd.DataFrame([{"label": lb, "n": len(v), "mean": round(float(v.mean()), 4) if len(v) else np.nan,
                           "sd": round(float(v.std(ddof=1)), 4) if len(v) > 1 else np.nan}
                          for lb, v in groups.items()], columns=["label", "n", "mean", "sd"])
    ok = [lb for lb in labels if len(groups[lb]) >= 2]
    if len(ok) < 2:
        return stats, None
    res = tukey_hsd(*[groups[lb] for lb in ok])
    ci = res.confidence_interval()
    rows = []
    for i in range(len(ok)):
        for j in range(i + 1, len(ok)):
            rows.append({"label_1": ok[i], "label_2": ok[j], "mean_diff": round(float(res.statistic[i, j]), 4),
                         "ci_low": round(float(ci.low[i, j]), 4), "ci_high": round(float(ci.high[i, j]), 4),
                         "p": float(res.pvalue[i, j])})
    return stats, pd.DataFrame(rows)


def _grouped(df: pd.DataFrame) -> pd.DataFrame | None:
    if not _has(df, "pair_type"):
        return None
    set_ = df["set"] if "set" in df.columns else pd.Series("", index=df.index)
    d = df.assign(group=pair_type_group(df["pair_type"], set_))
    return d[d["group"] != ""]


def paper_figures() -> dict:
    """The SICK paper's figures (``annotations/paper_figures.yaml``: Marelli et al. 2014, Tables 6, 8 and 9 and
    section 4), with Tables 8 and 9 keyed by row name (:data:`GROUPS`); {} when the file is missing."""
    import yaml

    if not PAPER_FIGURES.is_file():
        return {}
    data = yaml.safe_load(PAPER_FIGURES.read_text(encoding="utf-8"))
    for key in ("table8", "table9"):
        data[key] = {PAIR_GROUP_NAMES[g]: v for g, v in data[key].items()}
    return data


def table8_relatedness_by_pair_type(df: pd.DataFrame, paper: bool = True) -> pd.DataFrame | None:
    """Table 8: mean relatedness (SD) per pair type group, in the paper's rows and order; None without
    ``pair_type``. With ``paper`` (and a corpus whose pair types follow SICK's scheme), ``paper_mean`` and
    ``paper_sd`` give the paper's figure of each row (:func:`paper_figures`)."""
    d = _grouped(df)
    if d is None:
        return None
    fig = paper_figures().get("table8", {}) if paper and len(d) else {}
    rows = []
    for g in GROUPS:
        v = d["relatedness_score"][(d["group"] == g)].dropna().to_numpy(float)
        if not len(v) and not (d["group"] == g).any():
            continue
        m = float(v.mean()) if len(v) else np.nan
        s = float(v.std(ddof=1)) if len(v) > 1 else np.nan
        row = {"pair_type": g, "n": len(v), "mean": round(m, 2), "sd": round(s, 2),
               "mean_sd": "" if np.isnan(m) else f"{m:.2f} ({s:.2f})"}
        if fig:
            row.update(paper_mean=fig[g]["mean"], paper_sd=fig[g]["sd"])
        rows.append(row)
    return pd.DataFrame(rows, columns=["pair_type", "n", "mean", "sd", "mean_sd"]
                        + (["paper_mean", "paper_sd"] if fig else []))


def table9_entailment_by_pair_type(df: pd.DataFrame, paper: bool = True) -> pd.DataFrame | None:
    """Table 9: entailment label distribution (% of the group's labelled pairs) per pair type group, in the
    paper's rows and order. With ``paper`` (and a corpus whose pair types follow SICK's scheme), ``paper_LABEL``
    gives the paper's share of each label in the row (:func:`paper_figures`)."""
    d = _grouped(df)
    if d is None:
        return None
    d = d[d["entailment_label"] != ""]
    labels = _labels_present(df)
    fig = paper_figures().get("table9", {}) if paper and len(d) else {}
    extra = [lb for lb in labels if lb in LABELS] if fig else []
    rows = []
    for g in GROUPS:
        lab = d["entailment_label"][d["group"] == g]
        if lab.empty:
            continue
        row = {"pair_type": g, "n": len(lab)}
        for lb in labels:
            row[lb] = round(100 * float((lab == lb).mean()), 2)
        for lb in extra:
            row[f"paper_{lb}"] = fig[g][lb]
        rows.append(row)
    return pd.DataFrame(rows, columns=["pair_type", "n", *labels, *(f"paper_{lb}" for lb in extra)])


def agreement_summary(corpus_path: str | Path) -> dict | None:
    """The agreement figures of ``agreement.json`` beside the corpus file, or None."""
    f = Path(corpus_path).with_name("agreement.json")
    if not f.is_file():
        return None
    try:
        a = json.loads(f.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    rel, ent = a.get("relatedness", {}), a.get("entailment", {})
    return {"file": str(f), "mean_relatedness_sd": rel.get("mean_sd"), "alpha_interval": rel.get("alpha_interval"),
            "mean_majority_share": ent.get("mean_majority_share"), "alpha_nominal": ent.get("alpha_nominal"),
            "mutual_entailment": ent.get("mutual_entailment"), "one_way_entailment": ent.get("one_way_entailment"),
            "workers": a.get("workers"), "paper_mean_sd": rel.get("paper_mean_sd"),
            "paper_majority_share": ent.get("paper_majority_share"), "synthetic": bool(a.get("synthetic"))}


SYNTHETIC_BANNER = ("SYNTHETIC DATA: this gold was aggregated from simulated judgments (sick simulate-judgments), "
                    "not from people. Its figures show what the pipeline does, not what a crowd said.")


def direction_summary(df: pd.DataFrame) -> dict | None:
    """Mutual vs one-way entailment from ``entailment_AB``/``entailment_BA`` (our gold layout), or None."""
    if not _has(df, "entailment_AB", "entailment_BA"):
        return None
    ab = df["entailment_AB"] == "A_entails_B"
    ba = df["entailment_BA"] == "B_entails_A"
    return {"mutual": int((ab & ba).sum()), "A_entails_B_only": int((ab & ~ba).sum()),
            "B_entails_A_only": int((~ab & ba).sum())}


def compute(df: pd.DataFrame, families: dict[str, str] | None = None) -> dict:
    """Every table and statistic of the report, as DataFrames (None: skipped for want of columns)."""
    t7, chi = table7_crosstab(df)
    stats, tukey = label_stats(df)
    return {"table4": table4_rule_frequencies(df, families), "table5": table5_pair_distribution(df),
            "table6": table6_distribution(df), "table7": t7, "chi2": chi, "label_stats": stats, "tukey": tukey,
            "table8": table8_relatedness_by_pair_type(df), "table9": table9_entailment_by_pair_type(df),
            "directions": direction_summary(df), "n_pairs": len(df), "n_rated": len(_rated(df))}


# ---------------------------------------------------------------- plots

def make_plots(df: pd.DataFrame, res: dict, plot_dir: Path) -> list[tuple[str, str]]:
    """Write the PNG plots; return ``[(file name, caption)]``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plot_dir.mkdir(parents=True, exist_ok=True)
    out = []
    d = _rated(df)
    if len(d):
        labels = _labels_present(d)
        fig, ax = plt.subplots(figsize=(7, 4.2))
        bins = np.arange(1, 5.01, 0.25)
        ax.hist([d["relatedness_score"][d["entailment_label"] == lb] for lb in labels], bins=list(bins),
                stacked=True, label=labels, edgecolor="white", linewidth=0.5)
        ax.set_xlabel("relatedness score (1-5)")
        ax.set_ylabel("pairs")
        ax.set_title("Relatedness by entailment label")
        ax.legend(title="entailment label")
        fig.tight_layout()
        fig.savefig(plot_dir / "relatedness_by_label.png", dpi=100)
        plt.close(fig)
        out.append(("relatedness_by_label.png", "Relatedness histogram by entailment label"))

        t7 = res["table7"].set_index("relatedness").drop(index="total", columns="total")
        fig, ax = plt.subplots(figsize=(6, 4))
        im = ax.imshow(t7.to_numpy(), cmap="Blues", aspect="auto")
        ax.set_xticks(range(t7.shape[1]), t7.columns)
        ax.set_yticks(range(t7.shape[0]), t7.index)
        vmax = t7.to_numpy().max() or 1
        for i in range(t7.shape[0]):
            for j in range(t7.shape[1]):
                v = int(t7.iat[i, j])
                ax.text(j, i, str(v), ha="center", va="center", color="white" if v > vmax / 2 else "black")
        ax.set_xlabel("entailment label")
        ax.set_ylabel("relatedness range")
        ax.set_title("Table 7: relatedness range x entailment label")
        fig.colorbar(im, ax=ax, label="pairs")
        fig.tight_layout()
        fig.savefig(plot_dir / "table7_heatmap.png", dpi=100)
        plt.close(fig)
        out.append(("table7_heatmap.png", "Table 7 as a heatmap (pairs)"))

    g = _grouped(df)
    if g is not None and g["relatedness_score"].notna().any():
        present = [x for x in GROUPS if (g["group"] == x).any()]
        data = [g["relatedness_score"][g["group"] == x].dropna().to_numpy(float) for x in present]
        fig, ax = plt.subplots(figsize=(8, 4.2))
        ax.boxplot(data, showmeans=True)
        ax.set_xticks(range(1, len(present) + 1), present, rotation=30, ha="right")
        ax.set_xlabel("pair type")
        ax.set_ylabel("relatedness score (1-5)")
        ax.set_title("Relatedness by pair type")
        fig.tight_layout()
        fig.savefig(plot_dir / "relatedness_by_pair_type.png", dpi=100)
        plt.close(fig)
        out.append(("relatedness_by_pair_type.png", "Relatedness by pair type (box plot; triangle = mean)"))
    return out


# ---------------------------------------------------------------- report text

def _fmt(v) -> str:
    if isinstance(v, float):
        return "" if np.isnan(v) else (f"{v:.3g}" if abs(v) < 1e-3 and v != 0 else f"{v:g}")
    return str(v)


def _md_table(df: pd.DataFrame) -> str:
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(_fmt(v).replace("|", "\\|") for v in row) + " |")
    return "\n".join(lines)


def _sections(res: dict, sources: list[str], agreement: dict | None,
              synthetic: bool = False) -> list[tuple[str, object]]:
    """Report content as (heading, DataFrame | text) in order; shared by the Markdown and HTML writers. A
    synthetic corpus starts with the banner (heading ``"SYNTHETIC"``)."""
    s: list[tuple[str, object]] = []
    if synthetic:
        s.append(("SYNTHETIC", SYNTHETIC_BANNER))
    s.append(("", f"Corpus: {', '.join(sources)} — {res['n_pairs']} pairs, {res['n_rated']} with relatedness "
                  f"and entailment label. Tables follow Marelli et al. 2014 (LREC), section 4."))
    s.append(("Table 4: rule frequencies per family", res["table4"] if res["table4"] is not None else
              "Skipped: the file has no provenance columns (rules_A, rules_B)."))
    s.append(("Table 5: pairs per expected relation and pair type", res["table5"] if res["table5"] is not None
              else "Skipped: the file has no expected_relation/pair_type columns."))
    s.append(("Table 6: relatedness and entailment distribution", res["table6"]))
    c = res["chi2"]
    s.append(("Table 7: relatedness range × entailment label", res["table7"]))
    s.append(("", f"Chi-square test of association: χ² = {_fmt(round(c['chi2'], 2))}, dof = {c['dof']}, "
                  f"p = {_fmt(c['p'])} (n = {c['n']})."))
    s.append(("Relatedness per entailment label", res["label_stats"]))
    if res["tukey"] is not None:
        s.append(("Tukey HSD between labels", res["tukey"]))
    s.append(("Table 8: mean relatedness (SD) per pair type", res["table8"] if res["table8"] is not None
              else "Skipped: the file has no pair_type column."))
    s.append(("Table 9: entailment labels (%) per pair type", res["table9"] if res["table9"] is not None
              else "Skipped: the file has no pair_type column."))
    if agreement is not None or res["directions"] is not None:
        rows = []
        if agreement is not None:
            for k in ("mean_relatedness_sd", "paper_mean_sd", "alpha_interval", "mean_majority_share",
                      "paper_majority_share", "alpha_nominal"):
                if agreement.get(k) is not None:
                    rows.append({"figure": k, "value": agreement[k]})
        d = res["directions"] or {}
        if agreement is not None and agreement.get("mutual_entailment") is not None and not d:
            ow = agreement.get("one_way_entailment") or {}
            d = {"mutual": agreement["mutual_entailment"], **ow}
        for k, v in d.items():
            rows.append({"figure": f"entailment {k}", "value": v})
        s.append(("Agreement", pd.DataFrame(rows, columns=["figure", "value"])))
    return s


def render_md(sections, plots) -> str:
    out = ["# Corpus report", ""]
    for head, body in sections:
        if head == "SYNTHETIC":
            out += [f"> **⚠ {body}**", ""]
            continue
        if head:
            out += [f"## {head}", ""]
        out += [_md_table(body) if isinstance(body, pd.DataFrame) else str(body), ""]
    if plots:
        out += ["## Plots", ""]
        for name, cap in plots:
            out += [f"![{cap}](plots/{name})", "", f"*{cap}*", ""]
    return "\n".join(out)


def render_html(sections, plots) -> str:
    out = ["<!DOCTYPE html>", "<html><head><meta charset='utf-8'><title>Corpus report</title>",
           "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}table{border-collapse:collapse}"
           "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}img{max-width:100%}</style>",
           "</head><body>", "<h1>Corpus report</h1>"]
    for head, body in sections:
        if head == "SYNTHETIC":
            out.append("<p class='synthetic' style='background:#fdd;border:2px solid #c00;padding:.5em;"
                       f"font-weight:bold'>⚠ {html.escape(str(body))}</p>")
            continue
        if head:
            out.append(f"<h2>{html.escape(head)}</h2>")
        if isinstance(body, pd.DataFrame):
            out.append(body.to_html(index=False, na_rep="", float_format=_fmt, border=0))
        else:
            out.append(f"<p>{html.escape(str(body))}</p>")
    if plots:
        out.append("<h2>Plots</h2>")
        for name, cap in plots:
            out.append(f"<figure><img src='plots/{html.escape(name)}' alt='{html.escape(cap)}'>"
                       f"<figcaption>{html.escape(cap)}</figcaption></figure>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- run

def write_report(paths, out_dir: str | Path, families: dict[str, str] | None = None) -> dict:
    """Read ``paths``, compute every table and write the report into ``out_dir`` atomically; return the results.

    Raises:
        InputError: a missing or malformed corpus file (nothing is written).
    """
    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    df = read_corpus(paths)
    res = compute(df, families)
    agreement = agreement_summary(paths[0]) if len(paths) == 1 else None
    res["agreement"] = agreement
    res["synthetic"] = any(is_synthetic(p) for p in paths)
    with atomic_dir(out_dir) as tmp:
        for key, name in TSV_NAMES.items():
            if res[key] is not None:
                write_tsv(tmp / name, res[key])
        write_json(tmp / "statistics.json", {"synthetic": res["synthetic"], "n_pairs": res["n_pairs"],
                                             "n_rated": res["n_rated"],
                                             "chi2": res["chi2"], "agreement": agreement,
                                             "directions": res["directions"],
                                             "skipped": [TSV_NAMES[k] for k in ("table4", "table5", "table8",
                                                                                 "table9") if res[k] is None]})
        plots = make_plots(df, res, tmp / "plots")
        sections = _sections(res, [str(p) for p in paths], agreement, res["synthetic"])
        review = review_summary(paths[0]) if len(paths) == 1 else None
        if review is not None:
            write_tsv(tmp / "review_stats.tsv", review)
            sections.append(("Native-speaker review (review_stats.tsv): outcomes per slot and rule", review))
        (tmp / "report.md").write_text(render_md(sections, plots), encoding="utf-8")
        (tmp / "report.html").write_text(render_html(sections, plots), encoding="utf-8")
    res["plots"] = [p for p, _ in plots]
    return res
