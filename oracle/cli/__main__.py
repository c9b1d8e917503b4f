"""``python -m oracle.cli``: the same as the ``rules-oracle`` command."""

import sys

from oracle.cli import main

sys.exit(main())
