"""What a non-editable install (the README's ``pip install .``) ships.

Why: the package list in ``pyproject.toml`` is written out (``steps/`` and ``features/`` are
mapped into the package), and three subpackages added by later work were missing from it:
``pip install . && rules-oracle run`` then died loading a game's diagnostics, while every
test, run from the editable checkout, passed.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_of_the_tree_is_listed_for_the_wheel():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(ROOT).parts)
             for init in (ROOT / "oracle").rglob("__init__.py")}
    missing = sorted(found - listed)
    assert missing == [], (f"add {missing} to [tool.setuptools] packages in pyproject.toml, or "
                           "'pip install .' ships an oracle without them")
    mapped = set(config["tool"]["setuptools"]["package-dir"])
    assert listed - found <= mapped, sorted(listed - found - mapped)
