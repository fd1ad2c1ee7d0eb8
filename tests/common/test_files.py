"""Outputs: nothing of the user's is overwritten or lost, concurrent writers are safe, errors are one clear line
(issue 13)."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.common.files import MARKER, OutputError, atomic_dir, atomic_file, clean_stale
from pipeline.common.resources import DEFAULT_INPUT

ROOT = Path(__file__).resolve().parents[2]


def sick(*argv) -> int:
    return main([str(a) for a in argv])


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A real build of the bundled default input: the first step of the issue's sequence."""
    run = tmp_path_factory.mktemp("b") / "run"
    assert sick("build", "--out", run, "--quiet") == 0
    return run


# ------------------------------------------------------------------------------ what --out may replace


def test_output_folder_holding_an_input_is_refused(built, tmp_path, capsys):
    run = tmp_path / "run"
    run.mkdir()
    for f in built.iterdir():
        (run / f.name).write_bytes(f.read_bytes())
    assert sick("simulate-judgments", "--corpus", run / "corpus.tsv", "--out", run / "j.csv") == 0
    before = sorted(p.name for p in run.iterdir())
    # the sequence: aggregating into the build folder used to leave only aggregate's files
    assert sick("aggregate", "--judgments", run / "j.csv", "--corpus", run / "corpus.tsv", "--out", run) == 2
    err = capsys.readouterr().err
    assert f"{run}: holds an input of this run ({run / 'j.csv'})" in err
    assert sorted(p.name for p in run.iterdir()) == before
    # not even --force replaces a folder holding an input
    assert sick("aggregate", "--judgments", run / "j.csv", "--corpus", run / "corpus.tsv", "--out", run,
                "--force") == 2
    assert sorted(p.name for p in run.iterdir()) == before
    # into a new folder it works, and the same command again replaces sick's own output
    gold = tmp_path / "gold"
    for _ in range(2):
        assert sick("aggregate", "--judgments", run / "j.csv", "--corpus", run / "corpus.tsv", "--out", gold) == 0
    assert sorted(p.name for p in gold.iterdir()) == [MARKER, "agreement.json", "gold.tsv", "manifest.json",
                                                      "rejected.tsv", "workers.tsv"]


def test_user_folder_is_replaced_only_with_force(built, tmp_path, capsys):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "n.txt").write_text("my notes")
    corpus = built / "corpus.tsv"
    assert sick("tasks", "export", "--corpus", corpus, "--platform", "csv", "--out", notes) == 2
    assert "exists and was not made by sick" in capsys.readouterr().err
    assert [p.name for p in notes.iterdir()] == ["n.txt"] and (notes / "n.txt").read_text() == "my notes"
    assert sick("tasks", "export", "--corpus", corpus, "--platform", "csv", "--out", notes, "--force") == 0
    assert (notes / MARKER).is_file() and not (notes / "n.txt").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["notes"]  # no temp or old directory left beside it


def test_directory_made_before_the_marker_is_recognized_by_its_manifest(tmp_path):
    out = tmp_path / "old-build"
    out.mkdir()
    (out / "manifest.json").write_text('{"tool": "sick-pipeline"}')
    with atomic_dir(out) as tmp:
        (tmp / "x").write_text("new")
    assert (out / "x").read_text() == "new" and not (out / "manifest.json").exists()


def test_output_directory_that_is_a_file_is_an_error_and_the_file_stays(built, tmp_path, capsys):
    f = tmp_path / "report"
    f.write_text("a file of mine")
    assert sick("report", "--corpus", built / "corpus.tsv", "--out", f) == 2
    assert f"{f}: is a file; an output directory is needed here" in capsys.readouterr().err
    assert f.read_text() == "a file of mine" and [p.name for p in tmp_path.iterdir()] == ["report"]
    with pytest.raises(OutputError, match="is a file"):
        with atomic_dir(f, force=True):
            pass
    assert f.read_text() == "a file of mine"


def test_input_inside_output_is_refused_by_atomic_dir(tmp_path):
    out = tmp_path / "out"
    (out / "sub").mkdir(parents=True)
    (out / MARKER).touch()
    (out / "sub" / "in.tsv").write_text("x")
    with pytest.raises(OutputError, match="holds an input of this run"):
        with atomic_dir(out, inputs=[out / "sub" / "in.tsv"], force=True):
            pass
    assert (out / "sub" / "in.tsv").read_text() == "x"


# ------------------------------------------------------------------------------ temp names, stale temps


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_temp_names_are_unique_and_stale_ones_are_cleaned(tmp_path):
    out = tmp_path / "o"
    with atomic_dir(out) as t1, atomic_dir(out) as t2:
        assert t1 != t2 and t1.parent == t2.parent == tmp_path
        assert t1.name.startswith(f".o.tmp-{os.getpid()}-")
        (t1 / "a").write_text("1")
        (t2 / "a").write_text("2")
    assert (out / "a").read_text() == "1"  # the writer finishing last wins
    dead = _dead_pid()
    old = time.time() - 3600
    stale = tmp_path / f".o.tmp-{dead}-abcd"
    recent = tmp_path / f".o.tmp-{dead}-efgh"
    alive = tmp_path / f".o.tmp-{os.getpid()}-ijkl"
    other = tmp_path / f".other.tmp-{dead}-mnop"
    for d in (stale, recent, alive, other):
        d.mkdir()
        (d / "partial.tsv").write_text("half")
    for d in (stale, alive, other):
        os.utime(d, (old, old))
    assert clean_stale(tmp_path, "o") == [stale]
    with atomic_dir(out) as tmp:
        (tmp / "a").write_text("3")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([recent.name, alive.name, other.name, "o"])


def _write(args) -> str | None:
    out, i = args
    try:
        with atomic_dir(out) as tmp:
            for k in range(5):
                (tmp / f"f{k}.txt").write_text(str(i))
    except Exception as exc:  # reported to the parent, which asserts there are none
        return repr(exc)
    return None


def test_concurrent_writers_never_fail_nor_leave_a_partial_directory(tmp_path):
    out = tmp_path / "o"
    with multiprocessing.get_context("fork").Pool(4) as pool:
        errors = [e for e in pool.map(_write, [(out, i) for i in range(300)], chunksize=1) if e]
    assert errors == []
    names = sorted(p.name for p in out.iterdir())
    assert names == [MARKER] + [f"f{k}.txt" for k in range(5)]
    assert len({(out / f"f{k}.txt").read_text() for k in range(5)}) == 1  # all five from one writer
    assert [p.name for p in tmp_path.iterdir()] == ["o"]


# ------------------------------------------------------------------------------ clear errors


def test_output_under_a_file_or_unwritable(tmp_path, capsys):
    f = tmp_path / "f"
    f.write_text("x")
    for out in (f / "sub", "/proc/sick-cannot-write-here"):
        assert sick("build", "--out", out, "--quiet") == 2
        err = capsys.readouterr().err
        assert err.startswith(f"sick: error: {out}: cannot write here") and "Traceback" not in err
    assert sick("normalize", DEFAULT_INPUT, f / "out.tsv") == 2
    assert f"{f} is a file, not a directory" in capsys.readouterr().err
    with pytest.raises(OutputError, match="cannot write here"):
        with atomic_file("/proc/sick-cannot-write-here.tsv"):
            pass


def test_out_dot_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "keep.txt").write_text("x")
    assert sick("build", "--out", ".", "--quiet", "--force") == 2
    assert "is the current directory or one of its parents" in capsys.readouterr().err
    assert sick("build", "--out", "..", "--quiet", "--force") == 2
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


@pytest.mark.parametrize("command", ["normalize", "expand"])
def test_stage_output_that_is_a_directory(tmp_path, capsys, command):
    (tmp_path / "d").mkdir()
    assert sick(command, DEFAULT_INPUT, tmp_path / "d", "--quiet") == 2
    assert f"{tmp_path / 'd'}: is a directory; a file name is needed here" in capsys.readouterr().err
    assert list((tmp_path / "d").iterdir()) == []


def test_stats_json_directory_is_refused_before_anything_is_written(tmp_path, capsys):
    labels = tmp_path / "labels.tsv"
    labels.write_text("item\tworker\tlabel\n1\ta\tyes\n1\tb\tyes\n2\ta\tno\n")
    (tmp_path / "stats").mkdir()
    assert sick("aggregate-labels", "--input", labels, "--item", "item", "--worker", "worker", "--label", "label",
                "--out", tmp_path / "out.tsv", "--stats-json", tmp_path / "stats") == 2
    assert f"{tmp_path / 'stats'}: is a directory" in capsys.readouterr().err
    assert not (tmp_path / "out.tsv").exists()


def test_closed_stdout_ends_quietly(tmp_path):
    labels = tmp_path / "labels.tsv"
    labels.write_text("item\tworker\tlabel\n1\ta\tyes\n1\tb\tyes\n2\ta\tno\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-m", "pipeline.cli", "aggregate-labels", "--input", str(labels),
                          "--item", "item", "--worker", "worker", "--label", "label", "--out", str(tmp_path / "o.tsv")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    p.stdout.close()  # as `sick … | head` does once it has read enough: here before sick prints its summary
    err = p.stderr.read().decode()
    assert (p.wait(), err) == (141, "")
    assert (tmp_path / "o.tsv").read_text().startswith("item\tlabel")


def test_nul_byte_in_input_names_file_and_line(tmp_path, capsys):
    src = tmp_path / "pairs.tsv"
    src.write_bytes(b"A dog runs.\tA dog is running.\nA cat\x00 sleeps.\tA cat is sleeping.\n")
    assert sick("build", "--source", f"tsv:{src}", "--out", tmp_path / "out", "--quiet") == 2
    assert f"{src}, line 2: NUL byte at column 6" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
