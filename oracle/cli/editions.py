"""When the rules text changes: ``rules-oracle drift``, ``errata`` and ``review``.

- ``drift``: where a game's editions, renderings and translations part, and the
  contradictions a reviewer recorded between its sources, each with who cites it. The
  catalog keeps every edition's wording (``Catalog.editions``), but a committee or an engine
  team asks it the other way round: which sentences read otherwise in the edition I follow,
  which does my translation lack, which scenarios rest on them. Text for a terminal,
  ``--markdown`` for a page, ``--json`` for tools: the same ``GameDrift`` values.
- ``errata NEW_SOURCE``: what a new version of one source changes (``oracle.suite.errata``),
  with the scenarios and rulings that rest on it and the verdicts reports gave them.
- ``review``: the stamps of the text each scenario was reviewed against
  (``oracle.suite.reviews``), written or checked.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oracle import options
from oracle.cli.games import UsageError, add_game_option, chosen_games

if TYPE_CHECKING:
    from oracle.report.model import Report
    from oracle.suite.editions import Citer

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

    errata = sub.add_parser(
        "errata", help="what a new version of a rules source changes, and which scenarios, "
                       "rulings and verdicts rest on it",
        description="Import a new version of one of a game's rules sources (its file name, "
                    "or --replaces, says which) through the game's importer, on a copy of "
                    "the sources, into a temporary catalog (never over the bundled one "
                    "unless --write), and list every sentence added, removed or changed "
                    "(with a word diff), and every translation's or rendering's wording "
                    "changed; each with the scenarios and rulings citing it (stale until "
                    "re-reviewed: rules-oracle review) and each --report's verdicts on them. "
                    "Exit 0 when no scenario or ruling rests on what changed, 1 when some "
                    "does, 2 when the new version cannot be imported or an option is wrong.")
    errata.add_argument("new_source", metavar="NEW_SOURCE",
                        help="the new version of a rules source file")
    errata.add_argument("--game", metavar="ID",
                        help="the game whose source it is (default: the game with a source "
                             "of that file name)")
    errata.add_argument("--replaces", metavar="PATH",
                        help="which source it is a version of, as the catalog's 'sources' "
                             "name it (e.g. ti4/action-cards.lrr.en.yaml)")
    errata.add_argument("--report", action="append", default=[], metavar="R",
                        help="a JSON report (rules-oracle run --json): its verdicts on the "
                             "scenarios concerned; repeatable")
    options.by_name()["features"].add_to_cli(errata)
    errata.add_argument("--sources", metavar="DIR",
                        help="the folder of the game's other sources, as the catalog's "
                             "'sources' name them (default: ../shared/sources beside a "
                             "checkout, where the importer reads them)")
    errata.add_argument("--out", metavar="PATH", help="keep the new catalog at PATH")
    errata.add_argument("--write", action="store_true",
                        help="write the new catalog over the game's bundled catalog (once "
                             "the new source is in the sources folder)")
    errata.add_argument("--json", metavar="PATH", help="write the changes as JSON")

    review = sub.add_parser(
        "review", help="stamp each scenario with the text it was reviewed against; --check "
                       "says which are stale",
        description="Write each folder's reviews.yaml (features/GAME/ and each --features "
                    "folder of the game): per scenario, a stamp of the text of each sentence "
                    "it cites, as it reads now. A run marks a scenario stale when a stamp no "
                    "longer matches, or when it cites a sentence the rules no longer have. "
                    "With --check, write nothing and say which scenarios are stale, never "
                    "reviewed, or stamped but gone. A scenario citing a sentence the rules no "
                    "longer have is never stamped: update its Cites: lines first. Exit 0 all "
                    "reviewed and current, 1 not (or some scenario could not be stamped), 2 "
                    "a bad option.")
    add_game_option(review)
    options.by_name()["features"].add_to_cli(review)
    review.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a stamp is stale, missing or orphaned")
    review.add_argument("--scenario", action="append", default=[], metavar="NAME",
                        help="stamp only this scenario (repeatable); the others keep their "
                             "stamps")


def main(ns: argparse.Namespace) -> int:
    if ns.command == "drift":
        return run_drift(ns)
    if ns.command == "errata":
        return run_errata(ns)
    return run_review(ns)


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


# -- errata -------------------------------------------------------------------------------


def _errata_game(ns: argparse.Namespace, known: dict[str, Any], new: Path) -> Any:
    """The game whose source the new file is a version of: ``--game``, or the one game with
    a source of its name (or the ``--replaces`` path)."""
    from oracle.suite.catalog import read_game_file

    if ns.game:
        if ns.game not in known:
            raise UsageError(f"--game {ns.game}: no such game (games: {', '.join(known)})")
        return known[ns.game]
    hits = []
    for game in known.values():
        data = read_game_file(game.folder / game.catalog_file, "the catalog") or {}
        paths = [str(s.get("path")) for s in data.get("sources") or ()]
        if (ns.replaces in paths) if ns.replaces else any(Path(p).name == new.name
                                                          for p in paths):
            hits.append(game)
    if len(hits) != 1:
        which = "no game" if not hits else "more than one game"
        raise UsageError(f"{ns.replaces or new.name}: {which} has a source of that name; "
                         "say which with --game (and --replaces PATH)")
    return hits[0]


def run_errata(ns: argparse.Namespace) -> int:
    import shutil
    import tempfile

    from oracle.report.model import ReportFileError, load_report
    from oracle.suite.catalog import CatalogFileError
    from oracle.suite.editions import citations_index
    from oracle.suite.errata import (
        Errata,
        ErrataError,
        check_catalog,
        compare,
        import_new_version,
        touched_contradictions,
    )

    new = Path(ns.new_source)
    try:
        if not new.is_file():
            raise UsageError(f"{new}: no such file (the new version of a rules source)")
        known, _ = chosen_games([], ns.oracle_features)
        game = _errata_game(ns, known, new)
        reports = [(r, load_report(Path(r))) for r in ns.report]
        index, _ = citations_index([game], known)
        with tempfile.TemporaryDirectory(prefix="rules-oracle-errata-") as tmp:
            rel, path = import_new_version(game, new, ns.replaces, Path(tmp),
                                           Path(ns.sources) if ns.sources else None)
            changes = compare(game.catalog, check_catalog(path), rel, index)
            kept = []
            if ns.out:
                shutil.copyfile(path, ns.out)
                kept.append(str(ns.out))
            if ns.write:
                shutil.copyfile(path, game.folder / game.catalog_file)
                kept.append(str(game.folder / game.catalog_file))
        errata = Errata(game.id, rel, str(new), " and ".join(kept), changes,
                        touched_contradictions(game, changes))
    except (UsageError, CatalogFileError, ErrataError, ReportFileError, OSError) as exc:
        print(f"rules-oracle errata: {exc}", file=sys.stderr)
        return 2
    data = errata.to_json([label for label, _ in reports],
                          lambda citer: verdicts_of(reports, citer))
    if ns.json:
        try:
            Path(ns.json).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n",
                                     encoding="utf-8")
        except OSError as exc:
            print(f"rules-oracle errata: cannot write {ns.json} ({exc})", file=sys.stderr)
            return 2
    print(errata_text(data, game.folder / game.catalog_file), end="")
    return 1 if any(c["stale"] for c in data["changes"]) else 0


def verdicts_of(reports: Sequence[tuple[str, Report]], citer: Citer
                ) -> list[dict[str, str]]:
    """Each report's verdicts on a citing scenario (each of an outline's rows): the report's
    path, its engine, the row's name and status; ``none`` where the report has no verdict
    on it (not run, or not selected). A scenario is found by its file's name, its line and
    its name (a name is one scenario's in its game)."""
    from oracle.report.model import unique_scenarios

    out = []
    where = _place(citer.location)
    for label, report in reports:
        rows = [s for s in unique_scenarios(report.rules)
                if _place(s.location) == where and (s.name == citer.name
                                                    or s.name.startswith(citer.name + " ["))]
        spec = str(report.engine.get("spec", "?"))
        if not rows:
            out.append({"report": label, "engine": spec, "name": citer.name, "status": "none"})
        out += [{"report": label, "engine": spec, "name": s.name, "status": str(s.status)}
                for s in rows]
    return out


def _place(location: str) -> tuple[str, str]:
    """A scenario's file name and line: the same whichever folder a run was made from (a
    report shows a committee's file from the current folder, or in full)."""
    path, _, line = location.rpartition(":")
    return Path(path).name, line


def _verdicts(verdicts: Sequence[dict[str, str]]) -> str:
    """Each report's verdicts on a scenario, an outline's rows counted by status."""
    by_report: dict[tuple[str, str], list[str]] = {}
    for v in verdicts:
        by_report.setdefault((v["report"], v["engine"]), []).append(v["status"])
    parts = []
    for (report, engine), statuses in by_report.items():
        counted = ", ".join(f"{statuses.count(s)} {s}" if len(statuses) > 1 else s
                            for s in dict.fromkeys(statuses))
        parts.append(f"{report} ({engine}): {counted}")
    return "; " + "; ".join(parts) if parts else ""


def errata_text(data: dict[str, Any], bundled: Path) -> str:
    """What a new version changes, as a terminal shows it."""
    changes = data["changes"]
    counts = {k: sum(1 for c in changes if c["kind"] == k)
              for k in ("changed", "added", "removed", "translation", "rendering")}
    stale = {(c["location"], c["name"]) for ch in changes for c in ch["stale"]}
    out = [f"errata: {data['new_file']} is a new version of {data['replaced']} "
           f"({data['game']})",
           f"the new catalog: {'written to ' + data['catalog'] if data['catalog'] else 'not kept'}"
           f" (--out PATH keeps it, --write replaces {bundled})",
           f"{len(changes)} change(s): " + ", ".join(f"{n} {k}" for k, n in counts.items() if n)
           + (f"; {len(stale)} scenario(s) and ruling(s) stale until re-reviewed" if stale
              else "; no scenario or ruling rests on them")]
    for c in changes:
        head = {"changed": f"changed {c['anchor']} -> {c['new_anchor']}",
                "added": f"added {c['new_anchor']}",
                "removed": f"removed {c['anchor']}",
                "translation": f"{c['edition']} translation of {c['anchor']} changed",
                "rendering": f"{c['edition']} wording of {c['anchor']} changed"}[c["kind"]]
        kinds = f" ({', '.join(c['kinds'])})" if c["kinds"] else ""
        out.append(f"  {head}{kinds}")
        if c["kind"] == "added":
            out.append(f"    {c['new_text']}")
            out.append("    cited by no scenario yet: cite it (or waive it in the importer)")
            continue
        out.append(f"    {c['diff'] or c['text']}")
        for citer in c["cited_by"]:
            mark = "stale" if citer in c["stale"] else "not stale"
            out.append(f"    {mark}: {_citer(citer)}{_verdicts(citer.get('verdicts', ()))}")
        if not c["cited_by"]:
            out.append("    cited by no scenario")
    for contradiction in data["contradictions"]:
        out.append(f"  contradiction {contradiction} names a changed or removed sentence: "
                   "re-review it (contradictions.yaml)")
    if stale:
        out.append(f"next: re-read each stale scenario against the new words, update its "
                   f"Cites: lines, then 'rules-oracle review --game {data['game']}'")
    return "\n".join(out) + "\n"


# -- review -------------------------------------------------------------------------------


def run_review(ns: argparse.Namespace) -> int:
    from oracle.suite.catalog import CatalogFileError
    from oracle.suite.lint import read_suite
    from oracle.suite.reviews import review_folder, scenarios_by_folder

    try:
        known, games = chosen_games(ns.game, ns.oracle_features)
        by_game, _, problems = read_suite(games.values(), known)
        if problems:
            raise UsageError(f"{problems[0]} (and {len(problems) - 1} more problem(s)); "
                             "fix the feature files first")
        results = [review_folder(folder, docs, known, check=ns.check, only=ns.scenario)
                   for game in games.values()
                   for folder, docs in scenarios_by_folder(game, by_game[game.id]).items()]
    except (UsageError, CatalogFileError, OSError) as exc:
        print(f"rules-oracle review: {exc}", file=sys.stderr)
        return 2
    unknown = set(ns.scenario) - {n for r in results for n in r.names}
    if unknown:
        print(f"rules-oracle review: --scenario {sorted(unknown)[0]!r}: no such scenario in "
              f"the games reviewed", file=sys.stderr)
        return 2
    for result in results:
        print(result.describe())
    return 1 if any(not r.ok for r in results) else 0
