"""``python -m oracle.games.eu_pop.importer [--check]``: regenerate (or check) the EU catalog."""

from oracle.games.eu_pop.importer import main

raise SystemExit(main())
