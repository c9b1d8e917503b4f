"""Writing reports so that none is lost: paths checked before the run, files replaced whole.

Why: a run can take minutes, and a report path that turns out unwritable at the end (a
folder, a device such as ``/dev/full``, a path under a file, two formats on one path) used to
cost the whole run's output. So every output path is checked before anything runs
(``check_outputs``, a usage error naming the path), each file is written to a temporary
file beside it and renamed over the target (``write_atomic``: a reader never sees half a
report, and an interrupted write leaves the previous file as it was), and an interrupted
run's partial report goes to a path of its own (``interrupted_path``), never over a
complete one.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Mapping
from pathlib import Path


class OutputError(Exception):
    """An output path that would lose a report; the message names it and says what to do."""


def _existing_ancestor(path: Path) -> Path:
    for parent in path.parents:
        if parent.exists():
            return parent
    return Path(path.anchor or ".")


def check_outputs(outputs: Mapping[str, Path]) -> None:
    """Refuse output paths that cannot hold their report, before the run starts.

    ``outputs`` maps what is written (``--json``, ``--markdown``, ...) to its path.
    """
    seen: dict[Path, str] = {}
    for what, path in outputs.items():
        resolved = path.resolve()
        if resolved in seen:
            raise OutputError(f"{seen[resolved]} and {what} both write {path}; give each "
                              "output its own file")
        seen[resolved] = what
        if path.exists() and not path.is_file():
            kind = "a folder" if path.is_dir() else "not a regular file (a device or a pipe)"
            raise OutputError(f"{what} {path}: {kind}; give the path of a file to write")
        ancestor = _existing_ancestor(resolved)
        if not ancestor.is_dir():
            raise OutputError(f"{what} {path}: {ancestor} is a file, so nothing can be written "
                              "under it; choose another folder")
        if not os.access(ancestor, os.W_OK | os.X_OK):
            raise OutputError(f"{what} {path}: cannot write in {ancestor} (permission "
                              "denied); choose a folder you can write to")


def interrupted_path(path: Path) -> Path:
    """Where an interrupted run writes the report meant for ``path``: beside it, renamed
    (``r.json`` -> ``r.interrupted.json``), so a complete report is never overwritten by
    a partial one."""
    return path.with_name(f"{path.stem}.interrupted{path.suffix}")


def write_atomic(path: Path, text: str | Iterable[bytes]) -> None:
    """Write ``text`` (or its UTF-8 bytes, a piece at a time) to a temporary file beside
    ``path`` and rename it over ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if isinstance(text, str):
            temporary.write_text(text, encoding="utf-8")
        else:
            with temporary.open("wb") as out:
                for piece in text:
                    out.write(piece)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
