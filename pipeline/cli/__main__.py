"""``python -m pipeline.cli …``: the ``sick`` command without the installed script."""

import sys

from pipeline.cli import main

sys.exit(main())
