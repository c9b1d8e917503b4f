"""The docs cannot drift: the architecture names every module, and each how-to is run.

Why: a map that omits a module, or a how-to whose commands no longer print what it shows,
costs a newcomer the hour it promises to save, and nobody notices until then. So
``docs/architecture.md``'s tree must name every module of ``oracle/`` (each game's own
package's too, in an entry of its own under ``games/``), and the how-tos are run here as a
reader would: docs/adapters.md's commands and code in order, in a scratch folder, each
command's output as the page shows it (its cuts aside); docs/adding-a-game.md's YAML against
the bundled game it quotes, and its commands.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import yaml
from conftest import cli_in_process

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
ORACLE = ROOT / "oracle"


def tree_entries(text: str) -> dict[str, tuple[int, str]]:
    """The tree block of docs/architecture.md: each entry under ``oracle/`` (``suite/``,
    ``options.py``) and each folder entry nested under one, two spaces deeper per level
    (``games/ti4/``, ``games/ti4/engine/``), with its first line's number and its own text,
    continuation lines too."""
    entries: dict[str, tuple[int, str]] = {}
    current = None
    stack: list[str] = []
    start = text.index("```\n") + 4
    first_line = text[:start].count("\n") + 1
    for number, line in enumerate(text[start:text.index("```", start)].splitlines(),
                                  first_line):
        entry = re.match(r"^( +)(\S+)", line)
        indent = len(entry.group(1)) if entry else 0
        if entry and indent == 2:
            stack = [entry.group(2)]
        elif (entry and stack and 2 < indent < DESCRIPTIONS and indent % 2 == 0
              and entry.group(2).endswith("/") and indent // 2 - 1 <= len(stack)):
            stack = [*stack[:indent // 2 - 1], entry.group(2)]
        elif current and line.startswith("   "):
            entries[current] = (entries[current][0], entries[current][1] + "\n" + line)
            continue
        else:
            current, stack = None, []
            continue
        current = "".join(stack)
        entries[current] = (number, line)
    return entries


DESCRIPTIONS = 17
"""The column the tree's descriptions start at: a line indented less names an entry."""


def unnamed_modules(text: str) -> list[str]:
    """The modules of ``oracle/`` the tree does not name, each with where to add it.

    A module is named in the entry of the nearest folder above it that has one: by its file
    name in a nested entry (``games/ti4/engine/``), by its name (or, in a sub-package, its
    stem) in a top entry (``suite/``). A game's own package needs an entry of its own under
    ``games/``: its modules are not named by the kit's."""
    entries = tree_entries(text)
    missing = []
    for path in sorted(ORACLE.rglob("*.py")):
        parts = path.relative_to(ORACLE).parts
        if len(parts) == 1:
            if parts[0] != "__init__.py" and parts[0] not in entries:
                missing.append(f"oracle/{parts[0]}: add an entry '  {parts[0]}  what it holds' "
                               "to the tree of docs/architecture.md")
            continue
        if parts[-1] == "__init__.py":
            continue  # a package: the entry, or its folder's name in the entry, names it
        folders = ["".join(f"{p}/" for p in parts[:n]) for n in range(len(parts) - 1, 0, -1)]
        package = next((f for f in folders if f in entries), folders[-1])
        line, entry = entries.get(package, (0, ""))
        game = parts[0] == "games" and len(parts) > 2 and parts[1] != "kit"
        if game and package.count("/") < 2:
            missing.append(f"oracle/{'/'.join(parts)}: add an entry '    {parts[1]}/  what it "
                           f"holds' under 'games/' in the tree (docs/architecture.md:{line}), "
                           f"naming {path.name}")
            continue
        named = re.search(rf"(?<![\w/]){re.escape(path.name)}\b", entry) or (
            package.count("/") == 1 and len(parts) > 2
            and re.search(rf"\b{re.escape(path.stem)}\b", entry))
        if not named:
            where = (f"the '{package}' entry of the tree (docs/architecture.md:{line})"
                     if line else f"a new '  {package}' entry of the tree")
            missing.append(f"oracle/{'/'.join(parts)}: name {path.name} and what it holds in "
                           f"{where}")
    return missing


def test_the_architecture_names_every_module():
    missing = unnamed_modules((DOCS / "architecture.md").read_text(encoding="utf-8"))
    assert not missing, "docs/architecture.md does not name:\n" + "\n".join(missing)


def test_a_module_the_architecture_leaves_out_is_named_with_where_to_add_it():
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    without = text.replace("seeds.py", "seed").replace("\n  pipe.py ", "\n  pip ")
    missing = unnamed_modules(without)
    line = text[:text.index("  scenario/")].count("\n") + 1
    assert missing == [
        "oracle/pipe.py: add an entry '  pipe.py  what it holds' to the tree of "
        "docs/architecture.md",
        "oracle/scenario/seeds.py: name seeds.py and what it holds in the 'scenario/' entry "
        f"of the tree (docs/architecture.md:{line})"]


def test_a_games_module_is_named_in_its_own_folders_entry():
    """eu_pop's explore/costs.py is not named by engine/'s costs.py, nor a game's module by
    the kit's: each folder of a game has its entry, and a module is named in its own."""
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    entries = tree_entries(text)
    line = entries["games/eu_pop/explore/"][0]
    without = text.replace("                 costs.py, displays.py, piles.py (the invariants",
                           "                 displays.py, piles.py (the invariants")
    assert unnamed_modules(without) == [
        "oracle/games/eu_pop/explore/costs.py: name costs.py and what it holds in the "
        f"'games/eu_pop/explore/' entry of the tree (docs/architecture.md:{line})"]
    games = entries["games/"][0]
    no_ti4 = re.sub(r"\n    ti4/ .*?(?=\n    eu_pop/)", "", text, flags=re.S)
    missing = unnamed_modules(no_ti4)
    assert len(missing) == len(list((ORACLE / "games" / "ti4").rglob("*.py"))) - 4  # inits
    assert missing[0] == ("oracle/games/ti4/cards.py: add an entry '    ti4/  what it holds' "
                          f"under 'games/' in the tree (docs/architecture.md:{games}), naming "
                          "cards.py")


# docs/adapters.md, run as written --------------------------------------------------------

def blocks(page: Path) -> list[tuple[str, str]]:
    """Each fenced block of a page, in order: (its language, its text)."""
    return re.findall(r"^```(\w+)\n(.*?)^```", page.read_text(encoding="utf-8"), re.M | re.S)


def method(text: str, name: str) -> str:
    found = re.search(rf"\n    def {name}\(.*?(?=\n    def |\n\n\ndef |\Z)", text, re.S)
    assert found, name
    return found.group(0).rstrip("\n")


def shown(line: str) -> str:
    """A line of output as the page compares it: times aside."""
    return re.sub(r" in \d+\.\d+s", " in TIME", line.rstrip())


def check_console(block: str, folder: Path, cwd: Path) -> tuple[int, str]:
    """Run a ``console`` block's command in ``cwd``; every output line it shows (its cuts,
    ``…``, aside) is printed, in that order."""
    command, *expected = block.splitlines()
    assert command.startswith("$ rules-oracle "), command
    code, out, err = cli_in_process(folder, shlex.split(command[2:])[1:])
    lines = [shown(x) for x in (out + err).splitlines()]
    at = 0
    for want in (shown(x) for x in expected if "…" not in x):
        assert want in lines[at:], (f"{command}: the page shows\n  {want}\nwhich the command "
                                    f"no longer prints in that order; it printed:\n{out}{err}")
        at = lines.index(want, at) + 1
    return code, out


def test_the_adapter_walkthrough_runs_as_written(pytester, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")  # the page's outputs are of a 100-column terminal
    for variable in ("CI", "BUILD_NUMBER"):  # on CI pytest does not cut its summary lines
        monkeypatch.delenv(variable, raising=False)
    folder = pytester.path
    adapter = folder / "my-adapter"
    ran = []
    for language, text in blocks(DOCS / "adapters.md"):
        if language == "console":
            cwd = adapter if adapter.is_dir() else folder
            monkeypatch.chdir(cwd)
            code, _ = check_console(text, folder, cwd)
            wanted = 1 if "FAILED" in text else 5 if "nothing was tested" in text else 0
            assert code == wanted, text.splitlines()[0]
            ran.append(text.splitlines()[0])
        elif language == "python":
            header, code_text = text.split("\n", 1)
            name = header.removeprefix("# ").split(",")[0]
            if name == "adapter.py":
                source = (adapter / name).read_text()
                if "from my_engine import Table" not in source:
                    # "In adapter.py, import it (from my_engine import Table)"
                    source = source.replace(
                        "from typing import Any\n",
                        "from typing import Any\n\nfrom my_engine import Table\n")
                replaced = re.search(r"\n    def (\w+)\(", "\n" + code_text).group(1)
                source = source.replace(method(source, replaced), "\n" + code_text.rstrip("\n"))
                (adapter / name).write_text(source)
            else:
                (adapter / name).write_text(code_text)
    assert len(ran) == 7  # new-adapter, smoke twice, run four times
    report = (adapter / "report.md").read_text().splitlines()
    quoted = re.findall(r"^- `ti4:.*$", (DOCS / "adapters.md").read_text(), re.M)
    assert len(quoted) == 3
    for line in quoted:  # "From report.md:"
        assert line in report, f"report.md no longer has the page's line\n  {line}"


# docs/adding-a-game.md, run as written ---------------------------------------------------

def within(shown_value: Any, real: Any, where: str) -> list[str]:
    """How a value the page shows differs from the real one (a part of it)."""
    if isinstance(shown_value, dict):
        if not isinstance(real, dict):
            return [f"{where}: the page shows a mapping, the file has {real!r}"]
        return [p for k, v in shown_value.items()
                for p in (within(v, real[k], f"{where}.{k}") if k in real
                          else [f"{where}: the file has no {k!r}"])]
    if isinstance(shown_value, list):
        if not isinstance(real, list):
            return [f"{where}: the page shows a list, the file has {real!r}"]
        return [p for i, v in enumerate(shown_value)
                for p in ([] if any(not within(v, r, where) for r in real)
                          else [f"{where}[{i}]: no item of the file is {v!r}"])]
    return [] if shown_value == real else [f"{where}: the page shows {shown_value!r}, "
                                           f"the file has {real!r}"]


def test_the_yaml_of_adding_a_game_is_the_bundled_games():
    games = {g: yaml.safe_load((ROOT / "features" / g / "game.yaml").read_text())
             for g in ("ti4", "eu-pop")}
    catalog = yaml.safe_load((ROOT / "features" / "ti4" / "catalog.yaml").read_text())
    checked = []
    for language, text in blocks(DOCS / "adding-a-game.md"):
        if language != "yaml" or "..." in text:
            continue  # a sketch with its parts left out
        data = yaml.safe_load(text)
        if text.startswith("# features/eu-pop/game.yaml") or "card_fields" in data:
            real, where = games["eu-pop"], "features/eu-pop/game.yaml"
        else:
            real, where = catalog, "features/ti4/catalog.yaml"
        problems = within(data, real, where)
        assert not problems, "docs/adding-a-game.md:\n" + "\n".join(problems)
        checked.append(where)
    assert len(checked) == 3


def test_the_commands_of_adding_a_game_run_as_written(pytester, monkeypatch):
    from oracle.mutants import find_mutant
    from oracle.suite.games import discover_games

    text = next(t for lang, t in blocks(DOCS / "adding-a-game.md") if lang == "sh")
    commands = [line.split("#")[0].split() for line in text.splitlines()]
    assert [c[:2] for c in commands] == [["rules-oracle", "run"]] * 2 + [
        ["rules-oracle", "selftest"]]
    monkeypatch.chdir(pytester.path)
    json_report = pytester.path / "reference.json"
    code, out, err = cli_in_process(pytester.path, [*commands[0][1:], "--json",
                                                    str(json_report)])
    assert code == 0, out + err
    statuses = {r["id"]: r["status"] for r in yaml.safe_load(json_report.read_text())["rules"]
                if r["id"].startswith("eu-pop:")}
    assert statuses and set(statuses.values()) == {"pass", "untestable"}

    code, out, err = cli_in_process(pytester.path, commands[1][1:])
    assert code == 1, out + err
    mutant = commands[1][commands[1].index("--engine") + 1].rpartition(".")[2]
    _, declared = find_mutant([discover_games()["eu-pop"]], mutant)
    flagged = {r["id"] for r in yaml.safe_load((pytester.path / "r.json").read_text())["rules"]
               if r["status"] == "fail"}
    assert flagged == set(declared.breaks)

    code, out, err = cli_in_process(pytester.path, commands[2][1:])
    assert code == 0 and " 0 survived, 0 with false flags" in out, out + err

