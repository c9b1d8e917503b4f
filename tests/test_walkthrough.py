"""docs/adapters.md stays true: its code is the finished walkthrough's, the finished adapter
is the skeleton plus exactly the edits the page shows, and it gets the page's verdicts.

Why: a walkthrough whose code or output has drifted from the tool costs its reader the very
hour it promises to save. The outputs pasted in the page were produced by running these files.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from oracle.cli.scaffold import skeleton_files
from oracle.suite.games import discover_games

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "adapters.md"
FINISHED = ROOT / "examples" / "walkthrough"
TI4 = discover_games()["ti4"]


def code_blocks() -> list[tuple[str, str]]:
    """(file the block names in its first line, the rest) for each ```python block."""
    blocks = re.findall(r"^```python\n# (.+?)\n(.*?)^```", PAGE.read_text(), re.M | re.S)
    assert blocks
    return blocks


def method(text: str, name: str) -> str:
    found = re.search(rf"\n    def {name}\(.*?(?=\n    def |\n\n\ndef )", text, re.S)
    assert found, name
    return found.group(0)


def test_the_code_on_the_page_is_the_finished_walkthroughs() -> None:
    checked = 0
    for name, code in code_blocks():
        if (FINISHED / name).is_file():  # "my_engine.py, first version" is an earlier state
            assert code in (FINISHED / name).read_text(), f"{name}:\n{code}"
            checked += 1
    assert checked >= 3


def test_the_finished_adapter_is_the_skeleton_plus_the_edits_shown() -> None:
    skeleton = skeleton_files("python", [TI4])["adapter.py"]
    finished = (FINISHED / "adapter.py").read_text()
    edited = skeleton.replace("from typing import Any\n",
                              "from typing import Any\n\nfrom my_engine import Table\n")
    for name in ("setup", "observe"):
        edited = edited.replace(method(skeleton, name), method(finished, name))
    assert edited == finished, "regenerate examples/walkthrough and docs/adapters.md"


def test_the_finished_walkthrough_gets_the_verdicts_on_the_page(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(FINISHED)
    for module in ("adapter", "my_engine"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    out = pytester.path / "r.json"
    result = pytester.runpytest_inprocess(
        "--oracle-engine=adapter:factory", "--oracle-rule=ti4", f"--oracle-json={out}",
        # In the walkthrough's folder pytest finds this project's ini, whose -n auto would
        # start workers for this in-process run.
        "-n", "0", "-p", "no:cacheprovider", "--rootdir", str(pytester.path))
    for module in ("adapter", "my_engine"):
        sys.modules.pop(module, None)
    assert result.ret == 0, result.stdout.str()
    statuses = {r["id"]: r["status"] for r in json.loads(out.read_text())["rules"]
                if r["id"].startswith("ti4:")}
    by = {s: {i for i, v in statuses.items() if v == s} for s in set(statuses.values())}
    assert by["pass"] == {"ti4:note-1", "ti4:note-2", "ti4:2.5"}
    assert set(by) == {"pass", "unsupported", "untestable"} and len(by["unsupported"]) == 20
    assert "the capabilities they wait for" in result.stdout.str()
