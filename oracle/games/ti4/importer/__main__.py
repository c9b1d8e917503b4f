"""``python -m oracle.games.ti4.importer [--check]``: regenerate (or check) the TI4 catalog."""

from oracle.games.ti4.importer import main

raise SystemExit(main())
