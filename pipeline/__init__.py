"""sick-pipeline: build, annotate, aggregate and score SICK-style sentence-pair benchmarks.

The import package is ``pipeline``; the command-line entry point is ``sick`` (see :mod:`pipeline.cli`).
"""

__version__ = "0.1.0"
