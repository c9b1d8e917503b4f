"""YAML data files (manifests, catalogs, card facts): parsed by libyaml, and once per process.

Why: pure-Python PyYAML took most of a one-rule run's start-up parsing two catalogs and two
card-facts files, and each card-facts file was parsed twice (by the suite and by the
reference engine). PyYAML's libyaml-backed ``CSafeLoader`` builds the same data ten times
faster; where PyYAML was built without libyaml the pure-Python ``SafeLoader`` is used.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import yaml

_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str) -> Any:
    """``yaml.safe_load(text)``, with libyaml's parser when PyYAML has it."""
    return yaml.load(text, Loader=_LOADER)  # a safe loader: CSafeLoader or SafeLoader


def read_yaml(path: Path) -> Any:
    """A YAML file's data, parsed once per process while the file is unchanged.

    The data is shared by every caller: read it, never change it. Raises ``OSError`` and
    ``yaml.YAMLError`` like reading and ``yaml.safe_load`` would.
    """
    stat = path.stat()
    return _read(path.resolve(), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=64)
def _read(path: Path, size: int, mtime_ns: int) -> Any:
    return parse_yaml(path.read_text(encoding="utf-8"))
