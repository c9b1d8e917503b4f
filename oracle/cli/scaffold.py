"""``rules-oracle new-adapter``: a runnable adapter skeleton, in Python or JavaScript.

Why: an engine team's first hour goes into the protocol's plumbing (the dispatch, the pipe
framing, the reply shapes) before a single rule can run. The skeleton has all of it and
answers every request, ``unsupported`` where nothing is written yet, so ``rules-oracle
smoke`` passes out of the box and a run reports every rule ``unsupported`` with the reason,
never a crash; the team then fills in one method at a time (docs/adapters.md).

The files are templates shipped as package data (``oracle/cli/templates``), filled with a
few names (``string.Template``: ``${run}``; a literal ``$`` is ``$$``); nothing in them
imports rules-oracle, so the adapter lives in the engine's
repository on its own.
"""

from __future__ import annotations

import argparse
import json
import shlex
import string
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from oracle.suite.games import Game


@dataclass(frozen=True)
class Language:
    """One language a skeleton can be written in: its adapter file and how to run it."""

    name: str
    template: str
    filename: str
    spec: str  # the --engine spec, run from the skeleton's folder


LANGUAGES: dict[str, Language] = {
    "python": Language("Python", "adapter.py.tmpl", "adapter.py", "adapter:factory"),
    "javascript": Language("JavaScript", "adapter.js.tmpl", "adapter.js", "cmd:node adapter.js"),
}


class ScaffoldError(Exception):
    """A skeleton that cannot be written as asked; the message says what to do instead."""


def _template(name: str) -> str:
    return resources.files("oracle.cli").joinpath("templates", name).read_text(encoding="utf-8")


def skeleton_files(lang: str, games: Sequence[Game]) -> dict[str, str]:
    """The files of a skeleton for ``games``: file name -> text."""
    language = LANGUAGES[lang]
    listed = [{"game": g.id} for g in games]
    first_rule = next((r.id for g in games for r in g.catalog.rules if r.testable), games[0].id)
    names = ", ".join(f"{g.title} (`{g.id}`)" for g in games)
    only = f" --rule {games[0].id}" if len(games) == 1 else ""
    fill = {
        "run": f"rules-oracle run --engine {shlex.quote(language.spec)}{only}",
        "games_py": json.dumps(listed),
        "games_json": json.dumps(listed).replace('"', "'"),
        "games_text": names,
        "lang": language.name,
        "file": language.filename,
        "spec_quoted": shlex.quote(language.spec),
        "first_rule": first_rule,
    }
    files = {}
    for template, filename in ((language.template, language.filename),
                               ("README.md.tmpl", "README.md")):
        text = string.Template(_template(template)).substitute(fill)
        files[filename] = text
    return files


def write_skeleton(lang: str, folder: Path, games: Mapping[str, Game],
                   wanted: Sequence[str] = ()) -> list[Path]:
    """Write the skeleton into ``folder`` (made if needed) and return the files written.

    ``wanted`` names the games the adapter plays (default: every game given). Refuses to
    overwrite a file that is already there.
    """
    if lang not in LANGUAGES:
        raise ScaffoldError(f"--lang {lang!r}: choose one of {', '.join(LANGUAGES)}")
    unknown = [g for g in wanted if g not in games]
    if unknown:
        raise ScaffoldError(f"--game {', '.join(unknown)}: no such game; the games are "
                            f"{', '.join(games)}")
    chosen = [games[g] for g in dict.fromkeys(wanted)] or list(games.values())
    files = skeleton_files(lang, chosen)
    there = [name for name in files if (folder / name).exists()]
    if there:
        raise ScaffoldError(f"{folder}: {', '.join(there)} already there; choose a new folder "
                            "(nothing was written)")
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in files.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def next_steps(lang: str, folder: Path, games: Sequence[str] = ()) -> str:
    """What to run next, printed after the files are written."""
    spec = shlex.quote(LANGUAGES[lang].spec)
    only = f" --rule {games[0]}" if len(set(games)) == 1 else ""
    return (f"next, from {folder}:\n"
            f"  rules-oracle smoke --engine {spec}\n"
            f"  rules-oracle run --engine {spec}{only}\n"
            "then fill in setup and observe (README.md there; docs/adapters.md walks through "
            "it)")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """``rules-oracle new-adapter``: its options."""
    parser = sub.add_parser(
        "new-adapter", help="write a runnable adapter skeleton to start from",
        description="Write an adapter skeleton (the adapter and a README) into DIR. It answers "
                    "every request, 'unsupported' until filled in, so 'rules-oracle smoke' "
                    "passes as written and a run reports every rule unsupported. Exit 0 "
                    "written, 2 nothing written (a file already there, an unknown game).")
    parser.add_argument("--lang", required=True, choices=sorted(LANGUAGES),
                        help="python: an in-process adapter (--engine adapter:factory); "
                             "javascript: a Node process on a pipe (--engine 'cmd:node "
                             "adapter.js')")
    parser.add_argument("--game", action="append", default=[], metavar="ID",
                        help="a game the adapter plays (repeatable; default: every bundled "
                             "game)")
    parser.add_argument("dir", metavar="DIR", help="the folder to write into (made if needed)")


def main(ns: argparse.Namespace) -> int:
    """``rules-oracle new-adapter``: 0 written, 2 nothing written."""
    from oracle.suite.games import discover_games

    folder = Path(ns.dir)
    try:
        written = write_skeleton(ns.lang, folder, discover_games(), ns.game)
    except ScaffoldError as exc:
        print(f"rules-oracle new-adapter: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    print(next_steps(ns.lang, folder, ns.game))
    return 0
