"""Raw crowd judgments: the long table every annotation tool's export is read into.

One row per judgment (Marelli et al. 2014, section 3.4: each pair judged by 10 workers, 5 per presentation
order, on relatedness 1-5 and on "if A is true, B is true / cannot be said / is false"):

``pair_ID`` (str), ``worker_id`` (str), ``order`` (``AB`` | ``BA``: which sentence was shown first),
``relatedness`` (int 1-5), ``answer`` (``TRUE`` | ``UNKNOWN`` | ``FALSE``, about the second sentence given the
first), ``is_control`` (bool: a control item with a known answer).
"""

from __future__ import annotations

JUDGMENT_COLUMNS = ["pair_ID", "worker_id", "order", "relatedness", "answer", "is_control"]
ORDERS = ("AB", "BA")
ANSWERS = ("TRUE", "UNKNOWN", "FALSE")
RELATEDNESS_RANGE = (1, 5)
