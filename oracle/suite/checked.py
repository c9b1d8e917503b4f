"""Suites that passed their checks, remembered by the fingerprint of everything the checks read.

Why: the suite checks (``oracle.suite.lint.check_suite``) read every scenario of the selected
games before anything runs, and on a large suite they are most of a run's serial start: about
10 CPU-seconds on the controller for 5,000 scenarios, while xdist's workers wait. Their answer
depends only on files: the games' folders (features, catalogs, card facts, manifests), the
step modules, and the oracle's own code. So a clean result is kept in the cache folder
(``oracle.suite.cache``), keyed by the path and the contents (a hash) of each of those files,
the selection, and the versions; any edit or upgrade changes the key and the checks run
again. Contents, not modification times: an edit that keeps a file's size and time (a tool
that restores them, two saves within the clock's resolution) is still seen, and a file
written again with the same bytes (a checkout of another branch and back, a generated
suite) is still the suite that passed. Hashing every file costs about 7 ms for the bundled
suite and the oracle's code (2.3 MB), a third of listing them. Only a clean result is kept:
a suite with problems is always checked afresh, so its messages are always the current ones.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from oracle.suite import cache
from oracle.suite.games import Game
from oracle.suite.vocabulary import step_modules

KIND = "suite-checked"
VERSION = "2"


def fingerprint(games: Iterable[Game], known: Mapping[str, Game],
                selected: set[str] | None) -> str | None:
    """The key of one suite check: None when caching is off (nothing to compare with)."""
    if cache.cache_dir() is None:
        return None
    # the oracle's version is in oracle/__init__.py, one of the files hashed below
    lines = [f"python {sys.version}",
             "games " + " ".join(g.id for g in games),
             "selected " + (" ".join(sorted(selected)) if selected is not None else "*")]
    files: set[Path] = set()
    for game in known.values():
        lines.append(f"game {game.id} {game.folder}")
        for folder in (game.folder, *game.extra_folders):
            files.update(p for p in folder.rglob("*") if p.is_file())
        for module in (*step_modules(game), *([game.diagnostics.partition(":")[0]]
                                              if game.diagnostics else [])):
            files.update(_module_files(module))
    for package in ("oracle", "oracle.steps"):  # the checks' own code, and shared step helpers
        files.update(_module_files(package))
    for path in sorted(files):
        try:
            digest = hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
        except OSError:
            continue
        lines.append(f"{path}\0{digest}")
    return cache.content_key("\n".join(lines).encode("utf-8", "surrogateescape"), KIND,
                             VERSION)


def _module_files(name: str) -> list[Path]:
    """A module's source file (a package's every file), found without importing it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    if spec.submodule_search_locations:
        return [p for root in spec.submodule_search_locations for p in Path(root).rglob("*.py")]
    return [Path(spec.origin)] if spec.origin and spec.origin != "built-in" else []


def passed_before(key: str | None) -> bool:
    """Whether a suite with this fingerprint passed its checks before."""
    return key is not None and cache.load(KIND, key) is True


def remember_passed(key: str | None) -> None:
    if key is not None:
        cache.store(KIND, key, True)
