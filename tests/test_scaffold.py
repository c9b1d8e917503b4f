"""`rules-oracle new-adapter`: skeletons that pass smoke and run, as written.

Why: the skeleton is an engine team's first contact with the oracle. It must be a real
adapter out of the box (smoke all ok; a run in which every testable rule is `unsupported`,
with a message saying why, and nothing crashes), in both languages, or the team's first
hour goes into debugging our template instead of writing theirs. Both skeletons are written
and run for real; smoke and the run are in-process (the JavaScript adapter is still a node
process on a pipe).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from oracle.cli import main
from oracle.engines import EngineSpec
from oracle.probe.smoke import render, smoke
from oracle.report.judge import Exit
from oracle.suite.games import discover_games

GAMES = discover_games()
NODE = pytest.mark.skipif(shutil.which("node") is None,
                          reason="node is not installed: the JavaScript skeleton runs under node")
SPECS = {"python": "adapter:factory", "javascript": "cmd:node adapter.js"}


@pytest.fixture
def skeleton_dir(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder to write a skeleton into, made the current directory (the skeleton's
    README runs its commands from there), with no stale ``adapter`` module imported."""
    folder = pytester.path / "my-adapter"
    monkeypatch.chdir(pytester.path)
    monkeypatch.delitem(sys.modules, "adapter", raising=False)
    yield folder
    sys.modules.pop("adapter", None)


@pytest.mark.parametrize("lang", ["python", pytest.param("javascript", marks=NODE)])
def test_a_new_skeleton_passes_smoke_and_runs_every_rule_unsupported(
    lang: str, skeleton_dir: Path, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["new-adapter", "--lang", lang, str(skeleton_dir), "--game", "ti4"]) == 0
    said = capsys.readouterr().out
    assert f"rules-oracle run --engine {SPECS[lang]!r}".replace("'adapter:factory'",
                                                                "adapter:factory") in said
    readme = (skeleton_dir / "README.md").read_text()
    assert "rules-oracle smoke --engine" in readme and "--rule ti4" in readme
    monkeypatch.chdir(skeleton_dir)

    results = smoke(EngineSpec.parse(SPECS[lang]), {"ti4": GAMES["ti4"]}, timeout=30)
    out = render(results)
    assert [c.title for r in results for c in r.checks if not c.ok] == [], out
    assert "setup is not written yet" in out

    result = pytester.runpytest_inprocess(
        f"--oracle-engine={SPECS[lang]}", "--oracle-rule=ti4", "--oracle-json=r.json",
        "--oracle-timeout=30", "-p", "no:cacheprovider", "--rootdir", str(skeleton_dir))
    assert result.ret == Exit.NOTHING_TESTED, result.stdout.str()  # a green run tested something
    report = json.loads((skeleton_dir / "r.json").read_text())
    ti4 = [r for r in report["rules"] if r["id"].startswith("ti4:")]
    assert {r["status"] for r in ti4} == {"unsupported", "untestable"}
    assert sum(r["status"] == "unsupported" for r in ti4) == 23
    assert all(r["reason"] for r in ti4)
    text = result.stdout.str()
    assert "nothing was tested: the engine supports none of the" in text
    assert "docs/adapters.md" in text
    assert "the capabilities they wait for" in text and "  ti4/play\n" in text
    assert "Traceback" not in text
    assert report["summary"]["error"] == report["summary"]["fail"] == 0


@NODE
def test_the_javascript_skeleton_answers_a_bad_line_and_keeps_going(
    skeleton_dir: Path,
) -> None:
    assert main(["new-adapter", "--lang", "javascript", str(skeleton_dir)]) == 0
    lines = "not json\n" + json.dumps({"id": 0, "op": "describe", "protocol": 1}) + "\n"
    done = subprocess.run(["node", "adapter.js"], cwd=skeleton_dir, input=lines, text=True,
                          capture_output=True, timeout=30, check=True)
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["id"] is None and first["reply"] == "errored"
    assert second["id"] == 0 and second["reply"] == "described"
    assert [g["game"] for g in second["engine"]["games"]] == list(GAMES)  # default: every game


def test_new_adapter_writes_nothing_over_existing_files_or_for_unknown_games(
    skeleton_dir: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["new-adapter", "--lang", "python", str(skeleton_dir), "--game", "chess"]) == 2
    assert "--game chess: no such game; the games are" in capsys.readouterr().err
    assert not skeleton_dir.exists()
    assert main(["new-adapter", "--lang", "python", str(skeleton_dir)]) == 0
    (skeleton_dir / "adapter.py").write_text("# my work\n")
    assert main(["new-adapter", "--lang", "python", str(skeleton_dir)]) == 2
    assert "already there" in capsys.readouterr().err
    assert (skeleton_dir / "adapter.py").read_text() == "# my work\n"
