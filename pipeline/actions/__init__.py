"""Registered rule actions, one module per stage family.

Importing this package registers every action with :func:`pipeline.rules.action`.
"""

from . import contrast, normalization, scramble, similar  # noqa: F401
