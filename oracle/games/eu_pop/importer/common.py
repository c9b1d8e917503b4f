"""Where the EU rules sources are, and where the catalog goes.

Why apart: the file names are shared by the sentence table (each heading names its source),
the reader, the mapping and the catalog.
"""

from __future__ import annotations

from oracle.games.kit.sources import REPO_ROOT, SHARED_SOURCES

#: The sources live *beside* the repository (``../shared/sources``), never at a fixed path.
DEFAULT_SOURCES = SHARED_SOURCES
DEFAULT_OUT = REPO_ROOT / "features" / "eu-pop"

GAME = "eu-pop"
MODULE = "oracle.games.eu_pop.importer"
TITLE = "Europa Universalis: The Price of Power — 6. Action Cards"
CATALOG_FILE = "catalog.yaml"

CHAPTER = "eu-pop/action-cards.rulebook.en.wiki"
CLEANUP = "eu-pop/related/4-5-phase-5-cleanup.md"
#: Every source the catalog reads, in the order its rules are listed, with its role.
SOURCES: tuple[tuple[str, str], ...] = ((CHAPTER, "canonical"), (CLEANUP, "related"))
