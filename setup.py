"""Build hook: ship the repository's ``rules/`` and ``annotations/`` inside the wheel as ``pipeline/_data/``.

They stay at the top of the repository, where rule authors edit them; an installed ``pipeline`` finds them in
``pipeline/_data`` (:mod:`pipeline.common.resources`), a source checkout or editable install beside the package.
Everything else is declared in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DATA_DIRS = ("rules", "annotations")


class BuildPyWithData(build_py):
    def run(self):
        super().run()
        here = Path(__file__).resolve().parent
        for name in DATA_DIRS:
            target = Path(self.build_lib) / "pipeline" / "_data" / name
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(here / name, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))


setup(cmdclass={"build_py": BuildPyWithData})
