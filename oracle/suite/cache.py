"""Work done on a file's contents, kept across runs: a folder of pickles keyed by a hash.

Why: parsing Gherkin is most of what a run does before its first scenario (the official
parser takes 10-15 ms a file), and it is redone on every run, by every xdist worker, for
files that have not changed. A parse keyed by the file's bytes (and the parser's version)
is valid for as long as those bytes exist, so it is kept in a cache folder outside the
user's tree:

- ``RULES_ORACLE_CACHE_DIR`` if set (empty or ``off``: no cache kept at all);
- else the platform's user cache folder (``platformdirs``): ``$XDG_CACHE_HOME/rules-oracle``
  or ``~/.cache/rules-oracle`` on Linux, ``~/Library/Caches/rules-oracle`` on macOS,
  ``%LOCALAPPDATA%/rules-oracle/Cache`` on Windows. The oracle's own tests keep theirs in a
  temporary folder (``tests/conftest.py``), so one test run never changes the next.

Anything wrong with the folder (unwritable, full, a damaged entry) costs a parse, never a
run: a cache entry is only ever a copy of what would be computed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

MAX_ENTRIES = 20_000
"""Entries kept per kind; past that the older half is removed when a new one is stored."""


def cache_dir() -> Path | None:
    """The cache folder (not necessarily existing yet), or None when caching is off."""
    chosen = os.environ.get("RULES_ORACLE_CACHE_DIR")
    if chosen is not None:
        return None if chosen.strip() in ("", "off") else Path(chosen)
    import platformdirs

    return Path(platformdirs.user_cache_dir("rules-oracle", appauthor=False))


def content_key(data: bytes, *salt: str) -> str:
    """A key for ``data`` as read by a given version of the code (``salt``)."""
    digest = hashlib.sha256(data)
    for part in salt:
        digest.update(b"\0" + part.encode())
    return digest.hexdigest()


def _entry(kind: str, key: str) -> Path | None:
    folder = cache_dir()
    return folder / kind / f"{key}.pickle" if folder is not None else None


def load(kind: str, key: str) -> Any | None:
    """The value stored under ``key``, or None (absent, unreadable, or caching off)."""
    path = _entry(kind, key)
    if path is None:
        return None
    try:
        return pickle.loads(path.read_bytes())
    except Exception:  # absent, damaged or from another version: recompute it
        return None


def store(kind: str, key: str, value: Any) -> None:
    """Keep ``value`` under ``key`` (atomically: a reader never sees half an entry)."""
    path = _entry(kind, key)
    if path is None:
        return
    with contextlib.suppress(OSError, pickle.PicklingError, TypeError, AttributeError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                pickle.dump(value, out, pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        if key.startswith("00"):  # now and then (1 store in 256) is often enough
            _prune(path.parent)


def _prune(folder: Path) -> None:
    """Keep a kind's folder bounded: past ``MAX_ENTRIES``, drop the older half."""
    entries = list(folder.glob("*.pickle"))
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort(key=lambda p: p.stat().st_mtime)
    for old in entries[: len(entries) // 2]:
        with contextlib.suppress(OSError):
            old.unlink()
