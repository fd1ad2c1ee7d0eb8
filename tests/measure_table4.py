"""Measure a build's rule mix against SICK's Table 4 (Marelli et al. 2014): not a test, a report.

For each family (S2, S3, S4) it prints, per row of the paper's Table 4, the share of the family's rule uses
in the build beside the paper's share, and the difference in points. Our rule ids map onto the paper's rows
through the ``Table 4 row "..."`` phrase in each rule's ``source`` (rules/*.yaml); a family with a single
paper row (S4, "Scramble words") takes all of its rules.

Two counts are shown: ``freq`` from the build's ``rule_frequencies.tsv`` (distinct corpus sentences each rule
helped make; a combined candidate counts for each of its rules) and ``kept`` from ``sentences.tsv`` (the
kept S2/S3/S4 sentences, each split equally among its rules).

Usage (from the project root)::

    python tests/measure_table4.py BUILD_DIR            # read a build
    python tests/measure_table4.py BUILD_DIR --build    # run the 750+750 build into BUILD_DIR first
"""

from __future__ import annotations

import argparse
import csv
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
PAPER = ROOT.parent / "shared" / "data" / "sick2014" / "paper_tables" / "table4_rule_frequencies.tsv"
ROW = re.compile(r'Table 4 row "([^"]+)"')
BUILD = ["build", "--source", "flickr8k:../shared/data/flickr8k/Flickr8k.token.txt",
         "--source", "sts:../shared/data/sts2012_msrvid/train/STS.input.MSRvid.txt",
         "--pairs-per-source", "750", "--seed", "1", "--all-candidates", "--quiet"]


def paper_rows() -> dict[str, dict[str, int]]:
    """``{family: {paper row: frequency}}`` from the paper's Table 4."""
    out: dict[str, dict[str, int]] = defaultdict(dict)
    with PAPER.open(encoding="utf-8") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            out[r["stage"]][r["rule"]] = int(r["freq"])
    return out


def rule_rows(paper: dict[str, dict[str, int]]) -> dict[str, tuple[str, str]]:
    """``{rule id: (family, paper row)}`` from the rule files' ``source`` fields."""
    out = {}
    for path in sorted((ROOT / "rules").glob("*.yaml")):
        for r in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("rules", []):
            fam = r.get("stage")
            if fam not in paper:
                continue
            m = ROW.search(" ".join(str(r.get("source", "")).split()))
            if m:
                if m.group(1) not in paper[fam]:
                    sys.exit(f"{path.name}: rule {r['id']}: {m.group(1)!r} is not a {fam} row of Table 4")
                out[r["id"]] = (fam, m.group(1))
            elif len(paper[fam]) == 1:
                out[r["id"]] = (fam, next(iter(paper[fam])))
            else:
                sys.exit(f"{path.name}: rule {r['id']} ({fam}) names no Table 4 row in its source")
    return out


def counts(build: Path, rows: dict[str, tuple[str, str]]) -> tuple[dict, dict]:
    """``(freq, kept)``: ``{(family, paper row): count}`` from rule_frequencies.tsv and sentences.tsv."""
    freq: dict = defaultdict(float)
    with (build / "rule_frequencies.tsv").open(encoding="utf-8") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if r["rule"] in rows:
                freq[rows[r["rule"]]] += int(r["freq"])
    kept: dict = defaultdict(float)
    with (build / "sentences.tsv").open(encoding="utf-8") as f:
        for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            ids = [x for x in r["rules"].split() if x in rows]
            if r["slot"][:2] in ("S2", "S3", "S4") and ids:
                for x in ids:
                    kept[rows[x]] += 1 / len(ids)
    return freq, kept


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", type=Path)
    ap.add_argument("--build", dest="run", action="store_true", help="run the 750+750 build first")
    args = ap.parse_args()
    if args.run:
        cmd = [sys.executable, "-c", "import sys; from pipeline.cli import main; sys.exit(main())",
               *BUILD, "--out", str(args.build)]
        subprocess.run(cmd, cwd=ROOT, check=True)
    paper = paper_rows()
    rows = rule_rows(paper)
    freq, kept = counts(args.build, rows)
    print(f"{'family':6} {'Table 4 row':40} {'paper%':>7} {'freq%':>7} {'kept%':>7} {'d_freq':>7} {'d_kept':>7}")
    worst = 0.0
    for fam, prow in paper.items():
        ptot = sum(prow.values())
        ftot = sum(v for (f, _), v in freq.items() if f == fam) or 1
        ktot = sum(v for (f, _), v in kept.items() if f == fam) or 1
        for name, n in prow.items():
            p, q, k = 100 * n / ptot, 100 * freq[(fam, name)] / ftot, 100 * kept[(fam, name)] / ktot
            worst = max(worst, abs(q - p))
            print(f"{fam:6} {name:40} {p:7.1f} {q:7.1f} {k:7.1f} {q - p:+7.1f} {k - p:+7.1f}")
    print(f"largest |freq% - paper%|: {worst:.1f} points")


if __name__ == "__main__":
    main()
