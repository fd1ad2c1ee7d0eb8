"""`make bench`: build 750 + 750 real source pairs (Flickr 8K + MSR-Video) and compare with bare spaCy.

Prints the wall time of the whole build, sentences per second, and the ratio of the build to one bare
``nlp.pipe`` pass over the same S0 and S1 texts (model already loaded for both; the bare pass in one process,
as spaCy runs by default; the best of three interleaved timings of each, as timeit takes the best), for the
default ``--workers`` (the cores, at most 4) and for one worker, and the
expansion time per S1 sentence (parse excluded). Targets: under 2 minutes (issue 2), ratio at most 2.0 with
the default workers and the default build faster than one worker (issue 11); the exit status is 1 when one is
missed. Needs ../shared/data beside the project.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
# time this checkout's code, not whatever copy of the package the environment installed (an editable install
# of another checkout, a worktree)
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "data"
MAX_WALL_S = 120  # the whole `sick build` command
MAX_RATIO = 2.0   # in-process build / bare nlp.pipe (issue 11: "<= 2.0 times")
REPEATS = 3       # timings of the build and of the bare pass; the best of each is compared


def main() -> int:
    flickr = DATA / "flickr8k" / "Flickr8k.token.txt"
    msr = DATA / "sts2012_msrvid" / "train" / "STS.input.MSRvid.txt"
    if not flickr.exists() or not msr.exists():
        print(f"bench skipped: real data not found under {DATA}")
        return 0
    from pipeline.common import resources
    from pipeline.corpus.expand import expand_doc
    from pipeline.corpus.job import BuildConfig, build
    from pipeline.corpus.rules import load_rules
    from pipeline.corpus.sources import SourceSpec

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench"
        args = ["--source", f"flickr8k:{flickr}", "--source", f"sts:{msr}", "--pairs-per-source", "750",
                "--seed", "1", "--quiet"]
        t0 = time.perf_counter()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
        subprocess.run([sys.executable, "-m", "pipeline.cli", "build", *args, "--out", str(out / "cli")],
                       check=True, env=env)
        cli_wall = time.perf_counter() - t0

        nlp = resources.nlp()
        nlp("warm up")
        cfg = BuildConfig(sources=[SourceSpec.parse(f"flickr8k:{flickr}"), SourceSpec.parse(f"sts:{msr}")],
                          out=out / "inproc", pairs_per_source=750, seed=1, quiet=True)
        workers = cfg.workers
        t0 = time.perf_counter()
        manifest = build(cfg)
        build_times = [time.perf_counter() - t0]
        sents = pd.read_csv(out / "inproc" / "sentences.tsv", sep="\t", keep_default_na=False)
        s0 = list(dict.fromkeys(sents.loc[sents["slot"].str.startswith("S0"), "sentence"]))
        s1 = list(dict.fromkeys(sents.loc[sents["slot"].str.startswith("S1"), "sentence"]))
        # the build parses every sampled S0, dropped ones included
        n_s0 = manifest["counts"]["normalize"]["sentences"]
        # build and bare pass interleaved, REPEATS times each, and the best of each taken (as timeit does): one
        # timing of either varies by a third on this machine (the bare pass took 11.6-17.1 s in one hour)
        bares, bare_cpus = [], []
        for k in range(REPEATS):
            if k:
                shutil.rmtree(out / "inproc")
                t0 = time.perf_counter()
                build(cfg)
                build_times.append(time.perf_counter() - t0)
            t0, c0 = time.perf_counter(), time.process_time()
            for _ in nlp.pipe(s0 + s1, batch_size=256):
                pass
            bares.append(time.perf_counter() - t0)
            bare_cpus.append(time.process_time() - c0)
        build_time, bare, bare_cpu = min(build_times), min(bares), min(bare_cpus)
        cfg.workers, cfg.out = 1, out / "one"
        t0, c0 = time.perf_counter(), time.process_time()
        build(cfg)
        one_time, one_cpu = time.perf_counter() - t0, time.process_time() - c0

        ruleset = load_rules()
        s1_docs = list(nlp.pipe(s1, batch_size=256))
        expand_doc(s1_docs[0], ruleset)  # warm the WordNet reader
        t0 = time.perf_counter()
        for doc in s1_docs:
            expand_doc(doc, ruleset)
        per_s1 = (time.perf_counter() - t0) / len(s1_docs)
        n_texts = n_s0 + len(s1)
        c = manifest["counts"]
        print(f"source pairs: {c['sources']['pairs_sampled']}, groups kept: {c['normalize']['groups_kept']}, "
              f"pairs: {c['pairs']['final']}")
        print(f"sick build (command, incl. start-up and model load): {cli_wall:.1f} s")
        print(f"best of {REPEATS}: build {' / '.join(f'{t:.1f}' for t in build_times)} s, "
              f"bare {' / '.join(f'{t:.1f}' for t in bares)} s")
        print(f"build (in process, model loaded, {workers} workers): {build_time:.1f} s; "
              f"{n_texts / build_time:.0f} sentences/s ({n_s0} S0 + {len(s1)} S1 parsed)")
        print(f"build with one worker: {one_time:.1f} s")
        ratio = build_time / bare
        print(f"bare nlp.pipe over {len(s0) + len(s1)} S0+S1 texts: {bare:.1f} s; ratio build/bare = {ratio:.2f} "
              f"({workers} workers), {one_time / bare:.2f} (one worker)")
        # CPU time of this process: less disturbed than wall time when other work shares the machine
        print(f"CPU time, one worker: build {one_cpu:.1f} s, bare {bare_cpu:.1f} s; ratio {one_cpu / bare_cpu:.2f}")
        print(f"expansion (all S2-S4 candidates, parse excluded): {per_s1 * 1000:.1f} ms per S1 "
              f"over {len(s1_docs)} S1s")
    met = True
    for name, ok, detail in (
            ("sick build under 2 minutes", cli_wall < MAX_WALL_S, f"{cli_wall:.1f} s"),
            (f"ratio build/bare at most {MAX_RATIO:g}", ratio <= MAX_RATIO, f"{ratio:.2f}"),
            (f"{workers} workers faster than one", workers == 1 or build_time < one_time,
             f"{build_time:.1f} s against {one_time:.1f} s")):
        print(f"target {name}: {'met' if ok else 'MISSED'} ({detail})")
        met = met and ok
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
