"""The layers of ``oracle/`` are enforced, not only written down (docs/architecture.md).

import-linter's contracts in ``pyproject.toml`` (a layers contract over every package of
``oracle/``, and no cycle between them) run here through its Python API, so ``.ci/run``
checks them. They count every import: one made inside a function, or under
``TYPE_CHECKING``, breaks a layer as a top-level one does (the last test proves it on a
package made for it), so a deferred import cannot hide a cycle.
"""

from __future__ import annotations

import re
import textwrap
import tomllib
from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def lint(config: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """lint-imports on ``config``, no cache written: its exit status and what it printed."""
    code = lint_imports(config_filename=str(config), no_cache=True, no_logo=True)
    return code, capsys.readouterr().out


def test_the_oracle_keeps_its_layers_and_has_no_cycle_between_packages(capsys):
    code, out = lint(PYPROJECT, capsys)
    assert code == 0, f"import-linter's contracts (pyproject.toml) are broken:\n{out}"
    assert "2 kept, 0 broken" in out


def test_the_layers_written_in_the_docs_are_the_contracts():
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]
    contract = next(c for c in config["contracts"] if c["type"] == "layers")
    section = ARCHITECTURE.read_text(encoding="utf-8").split("\n## Layers\n", 1)[1]
    written = re.search(r"```\n(.*?)```", section, re.S).group(1).splitlines()
    assert written == contract["layers"], (
        "docs/architecture.md's '## Layers' list and pyproject.toml's layers contract differ; "
        "change both together")
    assert contract["exhaustive"] is True  # a new package must be given its layer


def test_only_the_command_line_imports_the_facade():
    """``oracle/__init__.py`` imports the public names from below; a module below importing
    it back would close a cycle through the facade."""
    graph = grimp.build_graph("oracle", cache_dir=None)
    importers = {m for m in graph.find_modules_that_directly_import("oracle")
                 if m != "oracle.cli" and not m.startswith("oracle.cli.")}
    assert not importers, f"import the module itself, not the oracle package: {importers}"


def test_an_import_inside_a_function_or_for_type_checking_breaks_a_layer(
        tmp_path, monkeypatch, capsys):
    package = tmp_path / "layered"
    for name, source in {
        "__init__.py": "",
        "high/__init__.py": "from layered.low import base\n",
        "low/__init__.py": "",
        "low/base.py": """\
            from typing import TYPE_CHECKING

            if TYPE_CHECKING:
                from layered.high import hinted


            def helper():
                from layered.high import deferred
                return deferred
            """,
        "high/deferred.py": "",
        "high/hinted.py": "",
    }.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(textwrap.dedent(source), encoding="utf-8")
    config = tmp_path / "contracts.toml"
    config.write_text(textwrap.dedent("""\
        [tool.importlinter]
        root_package = "layered"

        [[tool.importlinter.contracts]]
        name = "layers"
        type = "layers"
        containers = ["layered"]
        layers = ["high", "low"]

        [[tool.importlinter.contracts]]
        name = "acyclic"
        type = "acyclic_siblings"
        ancestors = ["layered"]
        depth = 0
        """), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out = lint(config, capsys)
    assert code == 1
    assert "0 kept, 2 broken" in out
    assert "layered.low.base -> layered.high.deferred (l.8)" in out
    assert "layered.low.base -> layered.high.hinted (l.4)" in out
