"""Install from a wheel (issue 13): the wheel carries the rules and annotations, and an installed ``sick`` runs
build, tasks export and simulate-judgments from an empty folder, far from the repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "pipeline", "rules", "annotations")


def run(cmd, cwd, env=None) -> subprocess.CompletedProcess:
    res = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True)
    assert res.returncode == 0, f"{cmd} failed:\n{res.stdout}\n{res.stderr}"
    return res


@pytest.mark.slow
def test_wheel_installs_and_runs_from_an_empty_folder(tmp_path):
    src = tmp_path / "src"  # a copy, so that building leaves no build/ or egg-info in the repository
    src.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy(ROOT / name, src / name)
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", dist, src], tmp_path)
    (wheel,) = dist.glob("sick_pipeline-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for rel in ("rules", "annotations"):
        shipped = {str(p.relative_to(ROOT)) for p in (ROOT / rel).rglob("*") if p.is_file()}
        assert {f"pipeline/_data/{p}" for p in shipped} <= names, rel
    assert "pipeline/data/default_pairs.tsv" in names and "pipeline/cli/__init__.py" in names

    # a fresh environment with only the wheel installed; the dependencies come from this one on PYTHONPATH
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], tmp_path)
    py = venv / "bin" / "python"
    run([sys.executable, "-m", "pip", "--python", py, "install", "--no-deps", "--no-index", "-q", wheel], tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SICK_CACHE_DIR")}
    env["PYTHONPATH"] = sysconfig.get_paths()["purelib"]  # .pth files (our editable install) are not read here
    work = tmp_path / "work"
    work.mkdir()
    where = run([py, "-c", "import pipeline, pipeline.common.resources as r; print(pipeline.__file__); "
                 "print(r.RULES_DIR); print(r.ANNOTATIONS_DIR)"], work, env).stdout.split()
    assert all(Path(p).is_relative_to(venv) for p in where), where
    sick = venv / "bin" / "sick"
    run([sick, "build", "--out", "b", "--quiet"], work, env)
    assert (work / "b" / "corpus.tsv").read_text().count("\n") > 100
    run([sick, "tasks", "export", "--corpus", "b/corpus.tsv", "--platform", "mturk", "--out", "t"], work, env)
    assert (work / "t" / "mturk_question.html").is_file()
    run([sick, "simulate-judgments", "--corpus", "b/corpus.tsv", "--out", "j.csv"], work, env)
    assert (work / "j.csv").read_text().startswith("pair_ID,worker_id")
    # WordNet was prepared on first use inside the new environment
    assert (venv / "share" / "sick-pipeline" / "nltk_data" / "corpora" / "wordnet" / ".complete").is_file()
    assert f"WordNet 3.0 for NLTK in {venv}" in run([sick, "setup"], work, env).stdout
    assert sorted(p.name for p in work.iterdir()) == ["b", "j.csv", "j.csv.manifest.json", "t"]
