"""A report format and an engine kind installed by another package work with no core edit.

The package is installed the way importlib.metadata finds any: a ``.dist-info`` folder with
an ``entry_points.txt`` beside the package, on ``sys.path``. That is what ``pip install``
leaves in site-packages, without the seconds a real install of a throwaway package costs;
the entry points are read by the same code either way (``oracle.extensions``).
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from oracle import extensions
from oracle.engines import spec as spec_module
from oracle.report import formats as formats_module

PACKAGE = '''
"""An outside package: a report format and a kind of --engine spec."""
from oracle.engines import EngineKind, EngineSpecError, load_factory
from oracle.report.formats import Format


def render(report):
    counts = {}
    for rule in report.rules:
        counts[rule.status.value] = counts.get(rule.status.value, 0) + 1
    return "".join(f"{status}={n}\\n" for status, n in sorted(counts.items()))


FORMAT = Format("tally", "write how many rules ended in each status to PATH", render)


class RecordedKind(EngineKind):
    """'recorded:GAME': a game's reference engine, as a team's recorded engine might be."""

    name, prefix, example = "recorded", "recorded:", "recorded:ti4"

    def factory(self, spec, games):
        game = games.get(spec.target)
        if game is None:
            raise EngineSpecError(f"recorded: no game {spec.target!r}")
        return load_factory(game.reference_engine), f"recorded:{spec.target}"
'''


def _install(root: Path, name: str, entry_points: str, source: str = PACKAGE) -> None:
    (root / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    info = root / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points))


def _forget() -> None:
    """Drop what the oracle read of the installed packages, so the next use reads again."""
    extensions._declared.cache_clear()
    formats_module.formats.cache_clear()
    spec_module.kinds.cache_clear()


@pytest.fixture
def installed(tmp_path: Path) -> Iterator[Path]:
    """A folder on sys.path to install packages into; everything undone afterwards."""
    kinds_before = dict(spec_module.KINDS)
    sys.path.insert(0, str(tmp_path))
    _forget()
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        for module in [m for m in sys.modules if m.startswith("outside_")]:
            del sys.modules[module]
        spec_module.KINDS.clear()
        spec_module.KINDS.update(kinds_before)
        _forget()


def test_a_format_and_an_engine_kind_from_another_package(installed, oracle, pytester):
    _install(installed, "outside_ext", """\
        [rules_oracle.formats]
        tally = outside_ext:FORMAT

        [rules_oracle.engine_kinds]
        recorded = outside_ext:RecordedKind
    """)
    assert "--tally" in oracle("run", "--help", report=False).out
    run = oracle("run", "--engine", "recorded:ti4", "--rule", "ti4:2.4", "--tally", "t.txt")
    assert run.code == 0, run.err
    assert run.report["engine"]["spec"] == "recorded:ti4"
    assert run.report["engine"]["games"]["ti4"]["label"] == "recorded:ti4"
    counts: dict[str, int] = {}
    for rule in run.report["rules"]:
        counts[rule["status"]] = counts.get(rule["status"], 0) + 1
    assert counts["pass"] >= 1
    assert (pytester.path / "t.txt").read_text() == "".join(
        f"{status}={n}\n" for status, n in sorted(counts.items()))


def test_a_broken_extension_is_an_error_naming_its_package(installed):
    _install(installed, "outside_broken", """\
        [rules_oracle.formats]
        broken = outside_broken:NOTHING
    """, source="X = 1\n")
    with pytest.raises(extensions.ExtensionError,
                       match=r"broken = 'outside_broken:NOTHING' \(rules_oracle\.formats, "
                             r"package outside_broken\) cannot be loaded"):
        formats_module.formats()


def test_an_extension_cannot_take_a_bundled_name(installed):
    _install(installed, "outside_clash", """\
        [rules_oracle.formats]
        json = outside_clash:FORMAT
    """, source="from oracle.report.formats import Format\n"
                "FORMAT = Format('json', 'another json', str)\n")
    with pytest.raises(extensions.ExtensionError, match="a format named 'json', which is taken"):
        formats_module.formats()
