"""``rules-oracle drift``: where a game's editions, renderings and translations part, and
the contradictions a reviewer recorded between its sources, each with who cites it.

Why a command: the catalog keeps every edition's wording (``Catalog.editions``), but a rules
committee or an engine team asks it the other way round: which sentences read otherwise in
the edition I follow, which does my translation lack, which scenarios rest on them. The text
is for a terminal, ``--markdown`` for a page, ``--json`` for tools; all three are the same
``oracle.suite.drift.GameDrift`` values.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from oracle import options
from oracle.cli.games import UsageError, add_game_option, chosen_games

DRIFT_VERSION = 1

#: How many citing scenarios a line of text shows before "and N more" (JSON lists all).
SHOWN = 3


def add_parsers(sub: argparse._SubParsersAction) -> None:
    drift = sub.add_parser(
        "drift", help="where a game's editions and translations differ, and where its "
                      "sources contradict each other",
        description="Across the editions and translations of each game's rules (the "
                    "catalog's 'editions:'): every sentence an edition words otherwise than "
                    "the canonical, verbatim, and what differs (markup, spacing, quotes, "
                    "dashes, words); every sentence a translation lacks and every rule it "
                    "numbers otherwise; and every contradiction between sources a reviewer "
                    "recorded in features/GAME/contradictions.yaml. Each with the scenarios "
                    "and rulings citing it. Exit 0, or 2 for a bad option or a "
                    "contradictions table that no longer holds.")
    add_game_option(drift)
    options.by_name()["features"].add_to_cli(drift)
    drift.add_argument("--json", metavar="PATH", help="write the drift as JSON")
    drift.add_argument("--markdown", metavar="PATH", help="write the drift as Markdown")


def main(ns: argparse.Namespace) -> int:
    if ns.command == "drift":
        return run_drift(ns)
    raise AssertionError(ns.command)


def run_drift(ns: argparse.Namespace) -> int:
    from oracle.suite.catalog import CatalogFileError
    from oracle.suite.drift import game_drift
    from oracle.suite.editions import citations_index

    try:
        known, games = chosen_games(ns.game, ns.oracle_features)
        index, _ = citations_index(known.values(), known)
        drifts = [game_drift(game, index) for game in games.values()]
    except (UsageError, CatalogFileError) as exc:
        print(f"rules-oracle drift: {exc}", file=sys.stderr)
        return 2
    data = {"version": DRIFT_VERSION, "games": [d.to_json() for d in drifts]}
    try:
        if ns.json:
            Path(ns.json).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n",
                                     encoding="utf-8")
        if ns.markdown:
            Path(ns.markdown).write_text(drift_markdown(data), encoding="utf-8")
    except OSError as exc:
        print(f"rules-oracle drift: cannot write ({exc})", file=sys.stderr)
        return 2
    print(drift_text(data), end="")
    return 0


# -- text ---------------------------------------------------------------------------------


def _citers(citers: Sequence[dict[str, Any]], limit: int | None = SHOWN) -> str:
    if not citers:
        return "cited by no scenario"
    shown = citers if limit is None else citers[:limit]
    names = "; ".join(_citer(c) for c in shown)
    more = f"; and {len(citers) - len(shown)} more" if len(citers) > len(shown) else ""
    return f"cited by {len(citers)}: {names}{more}"


def _citer(c: dict[str, Any]) -> str:
    what = f"ruling {c['ruling']} ({c['standing']}) " if c.get("ruling") else ""
    return f"{what}{c['name']!r} ({c['location']})"


def drift_text(data: dict[str, Any]) -> str:
    """The drift as a terminal shows it: per game, its editions, then each kind of drift."""
    lines: list[str] = []
    for game in data["games"]:
        lines += _game_text(game)
    return "\n".join(lines) + "\n"


def _game_text(game: dict[str, Any]) -> list[str]:
    out = [f"{game['game']}: {game['title']}"]
    editions = game["editions"]
    out.append("  editions: " + (" · ".join(
        f"{e['name']} ({e['role']}, {e['lang']}{', ' + e['date'] if e['date'] else ''})"
        for e in editions) or "none listed (the catalog has no 'editions:')"))
    canonical = next((e["name"] for e in editions if e["role"] == "canonical"), "canonical")
    wording = game["wording"]
    out.append(f"  wording: {len(wording)} sentence(s) worded otherwise than {canonical}")
    for w in wording:
        out.append(f"    {w['anchor']} in {w['edition']} ({', '.join(w['kinds'])}): "
                   f"{w['diff']}")
        out.append(f"      {_citers(w['cited_by'])}")
    by_edition: dict[str, list[dict[str, Any]]] = {}
    for m in game["missing"]:
        by_edition.setdefault(m["edition"], []).append(m)
    for edition, missing in by_edition.items():
        whole = list(dict.fromkeys(m["rule"] for m in missing if m["whole_rule"]))
        out.append(f"  missing in {edition}: {len(missing)} sentence(s)"
                   + (f"; whole rules: {', '.join(whole)}" if whole else ""))
        for m in missing:
            waived = f" (waived: {m['waiver']})" if m["waiver"] else ""
            out.append(f"    {m['anchor']} {m['text']!r}{waived}")
            out.append(f"      {_citers(m['cited_by'], None)}")
    renumbered: dict[str, list[dict[str, Any]]] = {}
    for r in game["renumbered"]:
        renumbered.setdefault(r["edition"], []).append(r)
    for edition, rules in renumbered.items():
        moved = sum(1 for r in rules if r["how"].startswith("moved"))
        out.append(f"  renumbered in {edition}: {len(rules)} rule(s), {moved} of them to "
                   "another number")
        for r in rules:
            out.append(f"    {r['rule']}: {r['how']}; {len(r['cited_by'])} scenario(s) "
                       "cite it")
    contradictions = game["contradictions"]
    out.append(f"  contradictions: {len(contradictions)} "
               f"({'reviewed' if contradictions else 'none recorded'} in "
               f"{game['contradictions_file']})")
    for c in contradictions:
        out.append(f"    {c['id']} [{c['fact']}] {c['question']}")
        for side in c["sides"]:
            edition = f" ({side['edition']})" if side.get("edition") else ""
            out.append(f"      {side['anchor']}{edition} says {side['says']!r}; "
                       f"{_citers(side['cited_by'], None)}")
        if c["reading"]:
            out.append(f"      reading: {c['reading']}")
    return out


# -- Markdown -----------------------------------------------------------------------------


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _md_citers(citers: Iterable[dict[str, Any]]) -> str:
    return "<br>".join(_cell(_citer(c)) for c in citers) or "none"


def drift_markdown(data: dict[str, Any]) -> str:
    """The drift as a page: per game, a table per kind of drift."""
    out = ["# Drift between editions", ""]
    for game in data["games"]:
        out += [f"## {game['game']}: {_cell(game['title'])}", "",
                "| edition | role | language | source | version | date | changes |",
                "|---|---|---|---|---|---|---|"]
        for e in game["editions"]:
            out.append(f"| {e['name']} | {e['role']} | {e['lang']} | `{e['source']}` | "
                       f"{_cell(e['version'])} | {e['date'] or 'unknown'} | "
                       f"{'<br>'.join(_cell(c) for c in e['changes'])} |")
        out += ["", f"### Wording ({len(game['wording'])})", ""]
        if game["wording"]:
            out += ["| anchor | edition | differs in | word diff | cited by |",
                    "|---|---|---|---|---|"]
            out += [f"| {w['anchor']} | {w['edition']} | {', '.join(w['kinds'])} | "
                    f"`{_cell(w['diff'])}` | {_md_citers(w['cited_by'])} |"
                    for w in game["wording"]]
        out += ["", f"### Missing in a translation ({len(game['missing'])})", ""]
        if game["missing"]:
            out += ["| anchor | edition | sentence | cited by |", "|---|---|---|---|"]
            out += [f"| {m['anchor']} | {m['edition']} | {_cell(m['text'])} | "
                    f"{_md_citers(m['cited_by'])} |" for m in game["missing"]]
        out += ["", f"### Renumbered ({len(game['renumbered'])})", ""]
        if game["renumbered"]:
            out += ["| rule | edition | there | how | scenarios citing it |",
                    "|---|---|---|---|---|"]
            out += [f"| {r['rule']} | {r['edition']} | {_cell(r['ref'])} | {_cell(r['how'])} | "
                    f"{len(r['cited_by'])} |" for r in game["renumbered"]]
        out += ["", f"### Contradictions between sources ({len(game['contradictions'])})", ""]
        for c in game["contradictions"]:
            out += [f"**{c['id']}** ({c['fact']}): {_cell(c['question'])}", "",
                    "| sentence | says | cited by |", "|---|---|---|"]
            out += [f"| {s['anchor']}{' (' + s['edition'] + ')' if s.get('edition') else ''} "
                    f"| {_cell(s['says'])} | {_md_citers(s['cited_by'])} |" for s in c["sides"]]
            if c["reading"]:
                out += ["", f"Reading: {_cell(c['reading'])}"]
            out.append("")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
