"""``rules-oracle explore --engine A --engine B``: two engines play the same seeded games, and
every place they disagree is reported per rule as a pending ruling
(``oracle.explore.differential``).

Why a command of its own: ``rules-oracle run --explore`` checks one engine against the
rules' invariants; this compares two engines with each other (yours and the reference, your
release and your main branch), which finds what no invariant states. One ``--engine`` is
compared with the bundled reference engine of each game.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from oracle import options
from oracle.cli.games import UsageError, add_game_option, chosen_games

if TYPE_CHECKING:  # imported where used: every command builds this parser, few run it
    from oracle.explore.differential import DiffResult

EXPLORE_JSON_VERSION = 1


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "explore", help="play the same seeded games on two engines and report where they "
                        "disagree",
        description="Play the same random games (the game's exploration model, seeded) on "
                    "two engines, compare every reply and every viewer's view after every "
                    "move, and report per rule the first disagreements, each shrunk to a "
                    "scenario that is a pending ruling (both engines' behaviour shown). What "
                    "the rules leave to the engine (a shuffle's order, docs/protocol.md's "
                    "engine's choices) is not compared. With one --engine, it is compared "
                    "with the reference engine. Exit 0 the engines agree, 1 they disagree, "
                    "2 usage error, 130 interrupted.")
    parser.add_argument("--engine", dest="engines", action="append", required=True,
                        metavar="SPEC", help=f"{options.ENGINE.help}; give it twice (the "
                        "first engine's behaviour is the scenarios' Then lines)")
    add_game_option(parser)
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="the games played and their shuffles (default 0)")
    parser.add_argument("--budget", type=options.at_least_one, default=100, metavar="N",
                        help="games per search (default 100); a search runs again without "
                             "the rules already found")
    parser.add_argument("--steps", type=options.at_least_one, default=50, metavar="N",
                        help="moves per game at most (default 50)")
    parser.add_argument("--shrink-replays", type=int, default=300, metavar="N",
                        help="replays a finding's shrink may cost (default 300; 0: no shrink)")
    parser.add_argument("--shrink-seconds", type=float, default=None, metavar="S",
                        help="seconds a finding's shrink may take (default: no limit; the "
                             "best scenario so far is kept when it runs out)")
    parser.add_argument("--out", metavar="DIR",
                        help="write the findings as a committee folder: DIR/GAME/"
                             "explored-disagreements.feature (run it with --features DIR)")
    parser.add_argument("--json", dest="json_path", metavar="PATH",
                        help="write the findings and tallies as JSON")
    run_options = options.by_name()
    for name in ("features", "timeout", "startup_timeout", "strict_protocol"):
        run_options[name].add_to_cli(parser)
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress; only the disagreements and a summary")


def main(ns: argparse.Namespace) -> int:
    from oracle.engines import ConnectOptions, EngineSpec, EngineSpecError, connect
    from oracle.engines.spec import DEFAULT_TIMEOUT
    from oracle.explore import default_budget, load_model
    from oracle.explore.differential import compare
    from oracle.explore.shrink import ShrinkBudget
    from oracle.suite.catalog import CatalogFileError

    specs = list(ns.engines)
    if len(specs) == 1:
        specs.insert(0, "reference")
    if len(specs) != 2:
        print("rules-oracle explore: give two engines (--engine A --engine B), or one to "
              "compare with the reference engine", file=sys.stderr)
        return 2
    try:
        parsed = [EngineSpec.parse(s) for s in specs]
        _, games = chosen_games(ns.game, ns.oracle_features)
    except (EngineSpecError, UsageError, CatalogFileError) as exc:
        print(f"rules-oracle explore: {exc}", file=sys.stderr)
        return 2
    connect_options = ConnectOptions(ns.oracle_timeout or DEFAULT_TIMEOUT,
                                      ns.oracle_startup_timeout, ns.oracle_strict_protocol)
    budget = default_budget(ns.budget)
    budget = type(budget)(budget, stateful_step_count=ns.steps)
    shrink = ShrinkBudget(ns.shrink_replays, ns.shrink_seconds)
    results: list[DiffResult] = []
    skipped: list[str] = []
    import oracle.steps.common  # noqa: F401  (the shared steps, before any game's)

    try:
        for game in games.values():
            model = load_model(game)
            if model is None:
                skipped.append(f"{game.id}: no exploration model")
                continue
            clients = []
            try:
                for spec in parsed:
                    client = connect(spec, {game.id: game}, connect_options)
                    clients.append(client)
                    if game.id not in client.info().games:
                        raise _Skip(f"{game.id}: {spec} does not play it")
                source = "rules-oracle explore " + " ".join(
                    f"--engine {shlex.quote(s)}" for s in specs) + \
                    f" --game {game.id} --seed {ns.seed} --budget {ns.budget}"
                if not ns.quiet:
                    print(f"explore {game.id}: {specs[0]} against {specs[1]}, "
                          f"{ns.budget} games per search ...", file=sys.stderr, flush=True)
                results.append(compare(
                    game, model, clients[0], clients[1], ns.seed, budget,
                    (specs[0], specs[1]), shrink, source,
                    progress=None if ns.quiet else _progress))
            except _Skip as exc:
                skipped.append(str(exc))
            finally:
                for client in clients:
                    client.close()
    except KeyboardInterrupt:
        print("rules-oracle explore: interrupted", file=sys.stderr)
        return 130
    print(render(results, skipped), end="")
    _write(ns, results, specs)
    if not results:
        print("rules-oracle explore: no game both engines play has an exploration model",
              file=sys.stderr)
        return 2
    return 0 if all(r.agree for r in results) else 1


class _Skip(Exception):
    pass


def _progress(message: str) -> None:
    print(f"  found: {message[:300]}", file=sys.stderr, flush=True)


def render(results: list[DiffResult], skipped: list[str]) -> str:
    """The terminal's summary: per game what was compared, then each disagreement."""
    out: list[str] = []
    for r in results:
        a, b = r.engines
        what = (f"{r.moves:,} moves in {r.games} games ({r.views:,} views compared), "
                f"{r.seconds:.1f} s")
        if r.diverged:
            what += "; games ended where the engines may differ: " + ", ".join(
                f"{n} ({reason})" for reason, n in r.diverged.most_common())
        if r.cited_otherwise:
            what += "; refused alike, each citing a rule that forbids it: " + ", ".join(
                f"{n} ({pair})" for pair, n in r.cited_otherwise.most_common())
        if r.agree:
            out.append(f"{r.game.id}: {a} and {b} agree: {what}")
            continue
        rules = [rule for f in r.findings for rule in f.rules]
        out.append(f"{r.game.id}: {a} and {b} disagree on {len(rules)} rule(s): "
                   f"{', '.join(rules)}; {what}")
        for f in r.findings:
            status = "confirmed" if f.confirmed else "not confirmed: its Then lines do not " \
                                                     "tell the engines apart"
            out.append(f"\n  {', '.join(f.rules)} [{f.kind}, {status}]: {f.message}")
            out.append(f"  charged by {f.why}")
            out.append("\n" + "\n".join(("    " + line).rstrip()
                                          for line in f.scenario.splitlines()))
        out.append("")
    out += [f"skipped {s}" for s in skipped]
    return "\n".join(out) + "\n"


def _write(ns: argparse.Namespace, results: list[DiffResult], specs: list[str]) -> None:
    if ns.out:
        for r in results:
            if r.findings:
                folder = Path(ns.out) / r.game.id
                folder.mkdir(parents=True, exist_ok=True)
                (folder / "explored-disagreements.feature").write_text(r.feature(),
                                                                       encoding="utf-8")
    if ns.json_path:
        Path(ns.json_path).write_text(json.dumps({
            "version": EXPLORE_JSON_VERSION, "engines": specs,
            "games": [r.to_json() for r in results]}, indent=1) + "\n", encoding="utf-8")
