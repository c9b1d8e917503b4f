"""What the catalog importers share: their error, reading and hashing sources, and the end of
a run (write the generated files, or with ``--check`` only say which are stale).

Why shared: every game's importer turns rules texts kept as received into a generated catalog,
and must fail the same way (naming file, line and rule id), record the same hashes, and leave
a committed file byte for byte as it was when nothing changed; the tests rely on ``--check``.
What a source *says* is each game's own parsing.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

#: Repository root: the sources and data live *beside* it (``../shared``), never at a fixed path.
REPO_ROOT = Path(__file__).resolve().parents[3]
SHARED_SOURCES = REPO_ROOT.parent / "shared" / "sources"
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"


class CatalogError(Exception):
    """A source disagrees with the canonical rendering, the reviewed tables, or what the
    importer expects.

    Carries the rendering (``path``, relative to the sources/data dir), the ``line`` and the
    rule ``item_id`` when known, so that callers and tests need not parse the message.
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 item_id: str | None = None) -> None:
        self.path, self.line, self.item_id = path, line, item_id
        where = f"{path}:{line}" if path and line is not None else (path or "")
        prefix = f"{where}: " if where else ""
        if item_id:
            prefix += f"[{item_id}] "
        super().__init__(prefix + message)


def read_source(base: Path, rel: str, flags: str) -> str:
    """Read a source as UTF-8; a missing file is a CatalogError naming the ``flags`` to pass."""
    try:
        return (base / rel).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CatalogError(f"file not found under {base} (pass the right {flags})",
                           path=rel) from None


def files_in(base: Path, rel_dir: str, flags: str) -> list[str]:
    """Every file of a sources folder (``ti4/related``), relative to ``base``, sorted: each
    must be read, so a new file is never skipped silently."""
    folder = Path(base) / rel_dir
    if not folder.is_dir():
        raise CatalogError(f"folder not found under {base} (pass the right {flags})",
                           path=rel_dir)
    return [f"{rel_dir}/{p.name}" for p in sorted(folder.iterdir()) if p.is_file()]


def sha256_of(base: Path, rel: str) -> str:
    """Hash a source so that the generated file records exactly which input it came from."""
    return hashlib.sha256((base / rel).read_bytes()).hexdigest()


def collapse(text: str) -> str:
    """Collapse runs of whitespace (incl. no-break spaces) to one space: layout, not content."""
    return re.sub(r"\s+", " ", text).strip()


def importer_parser(module: str, doc: str | None,
                    options: Sequence[tuple[str, Path, str]], check_help: str
                    ) -> argparse.ArgumentParser:
    """``python -m MODULE`` options: one directory per ``(flag, default, help)``, then
    ``--check``; the description is the first line of the importer's docstring."""
    parser = argparse.ArgumentParser(prog=f"python -m {module}",
                                     description=(doc or "").split("\n")[0])
    for flag, default, text in options:
        parser.add_argument(flag, type=Path, default=default,
                            help=f"{text} (default: {default})")
    parser.add_argument("--check", action="store_true", help=check_help)
    return parser


def write_outputs(build: Callable[[], Iterable[tuple[Path, str]]], *, check: bool,
                  module: str, hint: str) -> int:
    """Build every generated file, then write the changed ones (or, with ``check``, report
    them as stale): 0 all current, 1 stale, 2 a source error (printed with ``hint``).

    A file whose bytes would not change is not touched, so rerunning on the same sources
    changes nothing.
    """
    try:
        outputs: list[tuple[Path, Any]] = list(build())
    except CatalogError as exc:
        print(f"error: {exc}", file=sys.stderr)
        print(hint, file=sys.stderr)
        return 2
    stale = []
    for path, text in outputs:
        current = path.read_bytes() if path.exists() else None
        if current == text.encode("utf-8"):
            continue
        if check:
            stale.append(path)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode("utf-8"))
            print(f"wrote {path}")
    for path in stale:
        print(f"stale: {path} (regenerate with: python -m {module})", file=sys.stderr)
    return 1 if stale else 0
