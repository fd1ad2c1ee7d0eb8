"""S3 actions: contrasting expansions, Marelli et al. 2014, section 3.2, Table 3 (S3 rows).

Each action yields candidate edit mappings, each made on ``sent.fork()``.
"""

from __future__ import annotations

from ..rules import action  # noqa: F401
