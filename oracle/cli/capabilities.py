"""``rules-oracle capabilities``: which capability gates which steps, and what an engine lacks.

Why: an adapter writer's first question is what to declare in ``describe``, and the
answer is in the step definitions' ``@requires``, not in a table someone keeps by hand.
This command prints the map ``oracle.probe.capabilities`` computes from the scenarios
(``--markdown`` writes the same as ``docs/capabilities.md``), and with ``--engine`` asks
the engine's ``describe`` and says what it lacks, most unlocking first, and which rules
each missing capability leaves ``unsupported`` (as Markdown too, for an engine's README or
a CI job summary).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from oracle import options
from oracle.cli.games import UsageError, add_game_option, chosen_games

if TYPE_CHECKING:  # imported where used: every command builds this parser, few run it
    from oracle.probe.capabilities import EngineGaps, GameMap, Gate, Missing
    from oracle.suite.games import Game

FIX = "rules-oracle capabilities --markdown > docs/capabilities.md"
"""The command that regenerates docs/capabilities.md (a test checks it is fresh)."""

INTRO = (
    "Which capability (declared in `describe`, docs/protocol.md \"Capabilities\") gates "
    "which steps, what those steps send, and how many scenarios and rules need it. Computed "
    "from the scenarios through the steps' own `@requires`, the check a run makes before a "
    "scenario's first step; requests recorded by running each step on the game's reference "
    "engine. A rule *needs* a capability when every scenario of it does: on an engine "
    "without it, that rule is `unsupported`. `GAME/card/NAME` is listed per card, and per "
    "card class the scenarios pick a card of (`any reaction card`: declare one of its cards; "
    "the class itself is no capability).")


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "capabilities", help="which capability gates which steps; what an engine lacks",
        description="List each capability the scenarios need, with the steps and requests "
                    "it gates and the scenarios and rules that need it. With --engine, ask "
                    "the engine's describe and list what it declares, what it lacks and "
                    "which rules each missing capability leaves unsupported, most unlocking "
                    "first. Exit 0, or 2 for a bad --engine or --game.")
    add_game_option(parser)
    parser.add_argument("--engine", metavar="SPEC", help=options.ENGINE.help)
    run_options = options.by_name()
    for name in ("features", "seed", "timeout", "startup_timeout"):
        run_options[name].add_to_cli(parser)
    parser.add_argument("--markdown", action="store_true",
                        help=f"print as Markdown: the map (without --engine) as "
                             f"docs/capabilities.md holds it ({FIX}), or what the "
                             "engine lacks (with --engine)")


def main(ns: argparse.Namespace) -> int:
    """0 the map (or the engine's gaps) printed; 2 a bad --engine, --game or game folder."""
    from oracle.engines import EngineSpecError
    from oracle.probe.capabilities import game_map
    from oracle.suite.catalog import CatalogFileError

    try:
        _, chosen = chosen_games(ns.game, ns.oracle_features)
        if ns.engine:
            render = render_gaps_markdown if ns.markdown else render_gaps
            print(render(*engine_report(ns, chosen)), end="")
            return 0
    except (UsageError, EngineSpecError, CatalogFileError) as exc:
        print(f"rules-oracle capabilities: {exc}", file=sys.stderr)
        return 2
    maps = [game_map(g) for g in chosen.values()]
    print(render_markdown(maps) if ns.markdown else render_maps(maps), end="")
    return 0


def engine_report(ns: argparse.Namespace, games: dict[str, Game]
                  ) -> tuple[str, list[EngineGaps]]:
    """The engine's name and, per game, what it lacks (one describe per engine made)."""
    from oracle.engines import ConnectOptions, EngineSpec, connect
    from oracle.engines.spec import DEFAULT_TIMEOUT
    from oracle.probe.capabilities import engine_gaps

    spec = EngineSpec.parse(ns.engine)
    per_game = spec.engine_kind.per_game(spec)
    groups = [{g: games[g]} for g in games] if per_game else [dict(games)]
    names, gaps = [], []
    for group in groups:
        client = connect(spec, group, ConnectOptions(
            timeout=ns.oracle_timeout or DEFAULT_TIMEOUT,
            startup_timeout=ns.oracle_startup_timeout))
        try:
            info = client.info()
            for game in group.values():
                plays = game.id in info.games
                refused, refusals = (_refusals(client, game, info.capabilities, ns.oracle_seed)
                                     if plays else (None, None))
                gaps.append(engine_gaps(game, info.capabilities, plays, ns.oracle_seed,
                                        refused, refusals))
        finally:
            client.close()
        names.append(f"{info.name} {info.version}")
    return f"{spec} ({'; '.join(dict.fromkeys(names))})", gaps


def _refusals(client: Any, game: Game, capabilities: frozenset[str], seed: int
              ) -> tuple[dict[str, str] | None, dict[str, tuple[str, ...]] | None]:
    """What the engine refuses of what the game's scenarios send: the setup keys (each tried
    alone, as smoke does), key path -> its answer; and per scenario (test name), what made
    it ``unsupported`` when its requests were sent again as a run sends them (a refused key,
    the capability the answer named, or the request and the engine's reason). (None, None)
    when they cannot be known (the game has no reference engine to record them on)."""
    from oracle.probe.capabilities import refused_key
    from oracle.probe.sent import sent, shape_of
    from oracle.probe.smoke import replay, suite_requests

    found = suite_requests(client, game, capabilities, shapes=False, seed=seed)
    replayed = replay(client, game, capabilities, seed)
    if found is None or replayed is None:
        return None, None
    refused = {t.name: t.answer for t in found[0] if t.refused}
    paths = {r.case.test_name: r.paths for r in sent(game, capabilities, seed)}
    refusals: dict[str, tuple[str, ...]] = {}
    for test, (request, reply) in replayed.items():
        keys = tuple(refused_key(p) for p in sorted(paths[test]) if p in refused)
        if request["op"] == "setup" and keys:
            refusals[test] = keys
        elif reply.capability and reply.capability not in capabilities:
            refusals[test] = (reply.capability,)
        else:
            what = "setup" if request["op"] == "setup" else shape_of(request)
            refusals[test] = (f"{what!r} refused ({reply.reason})",)
    return refused, refusals


# -- the map, as text and Markdown -------------------------------------------------------------


def _families(m: GameMap) -> list[tuple[str, list[Gate]]]:
    """Families, the ones gating most scenarios first."""
    def weight(gates: list[Gate]) -> int:
        return -len(set().union(*(g.scenarios for g in gates)))

    return sorted(m.families().items(), key=lambda kv: (weight(kv[1]), kv[0]))


def _union(gates: Iterable[Gate], attr: str) -> list[str]:
    return sorted(set().union(*(getattr(g, attr) for g in gates)))


def _head(m: GameMap) -> str:
    return (f"{m.game}: {m.scenarios} scenarios of {len(m.rules)} testable rules; "
            f"{m.free} need no capability")


def _wrap(text: str, width: int, indent: str = "  ") -> list[str]:
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent + "  ",
                         break_on_hyphens=False, break_long_words=False)


def render_maps(maps: list[GameMap], width: int = 100) -> str:
    from oracle.probe.capabilities import NAME

    lines = textwrap.wrap(INTRO.replace("`", "").replace("*", ""), width)
    for m in maps:
        lines += ["", _head(m)]
        for fam, gates in _families(m):
            scenarios = len(set().union(*(g.scenarios for g in gates)))
            needed = _union(gates, "needed_by")
            if fam.endswith(f"/{NAME}"):
                lines.append(f"  {fam}: {_named(gates)}, {scenarios} scenarios; rules "
                             f"needing one of them: {len(needed)}")
                for g in gates:
                    lines.append(f"      {g.capability.split('/', 2)[2]:<28} "
                                 f"{len(g.scenarios):>3} scenarios  {_needs(g, width)}")
                    if g.capability in m.members:
                        lines += _wrap("a class: one of " + ", ".join(m.members[g.capability]),
                                       width, "        ")
            else:
                lines.append(f"  {fam}: {scenarios} scenarios; {_needs(gates[0], width)}")
            lines += [f"      {s}" for s in _union(gates, "steps")]
            sends = _union(gates, "requests")
            lines.append(f"      sends: {', '.join(sends) if sends else '(nothing recorded)'}")
    return "\n".join(lines) + "\n"


def _needs(g: Gate, width: int) -> str:
    if not g.needed_by:
        return "no rule needs it for every scenario"
    n = len(g.needed_by)
    text = f"needed by {n} rule{'s' * (n != 1)}: {', '.join(sorted(g.needed_by))}"
    return textwrap.shorten(text, width - 50, placeholder=" …")


def render_markdown(maps: list[GameMap]) -> str:
    """docs/capabilities.md: one table per game, card capabilities per card below it, then
    the card classes scenarios pick from, with their cards."""
    from oracle.probe.capabilities import NAME, is_card_class

    out = ["# Capabilities", "", f"Generated by `{FIX}`; a test checks it is fresh.", "",
           INTRO, "", "With an engine: `rules-oracle capabilities --engine SPEC` says what it "
           "declares, what it lacks, and which rules each missing capability leaves "
           "`unsupported`, most unlocking first (with `--markdown`, as tables).", ""]
    for m in maps:
        out += [f"## {m.game}", "", _head(m) + ".", "",
                "| capability | scenarios | rules needing it | steps | requests |",
                "|---|---|---|---|---|"]
        cards: list[tuple[str, list[Gate]]] = []
        for fam, gates in _families(m):
            if fam.endswith(f"/{NAME}"):
                cards.append((fam, gates))
            scenarios = len(set().union(*(g.scenarios for g in gates)))
            named = f" ({_named(gates)})" if fam.endswith(f"/{NAME}") else ""
            out.append(f"| `{fam}`{named} | {scenarios} | {len(_union(gates, 'needed_by'))} | "
                       f"{'<br>'.join(_md(s) for s in _union(gates, 'steps'))} | "
                       f"{', '.join(_union(gates, 'requests')) or '–'} |")
        for fam, gates in cards:
            named = [g for g in gates if not is_card_class(g.capability)]
            classes = [g for g in gates if is_card_class(g.capability)]
            kind = fam.split("/")[1]
            if named:
                out += ["", f"`{fam}`, per {kind}:", "",
                        "| capability | scenarios | rules needing it |", "|---|---|---|"]
                out += [f"| `{g.capability}` | {len(g.scenarios)} | "
                        f"{', '.join(sorted(g.needed_by)) or '–'} |" for g in named]
            if classes:
                out += ["", f"Classes of {kind} that scenarios pick from (`plays.yaml`): a "
                        f"class is no capability; a scenario gets one of the class's {kind}s "
                        f"the engine declares as `{fam}` (`rules-oracle cards --game "
                        f"{m.game}` shows each card's classes):", "",
                        f"| class | its {kind}s | scenarios | rules needing one of them |",
                        "|---|---|---|---|"]
                out += [f"| {_class_name(g)} | {', '.join(m.members.get(g.capability, ())) or '–'}"
                        f" | {len(g.scenarios)} | {', '.join(sorted(g.needed_by)) or '–'} |"
                        for g in classes]
        out.append("")
    return "\n".join(out)


def _named(gates: list[Gate]) -> str:
    """``12 cards, 22 classes``: how many of a family's gates are names, how many classes."""
    from oracle.probe.capabilities import is_card_class

    classes = sum(is_card_class(g.capability) for g in gates)
    kind, names = gates[0].capability.split("/")[1], len(gates) - classes
    parts = [f"{names} {kind}{'s' * (names != 1)}"]
    parts += [f"{classes} class{'es' * (classes != 1)}"] if classes else []
    return ", ".join(parts)


def _class_name(gate: Gate) -> str:
    """``any reaction card`` of ``eu-pop/card/any reaction card``."""
    return gate.capability.split("/", 2)[2]


def _md(text: str) -> str:
    """A step pattern as a code span in a table cell (GFM reads ``\\|`` there as ``|``)."""
    return "`" + text.replace("|", "\\|") + "`"


# -- what an engine lacks ----------------------------------------------------------------------


def render_gaps(engine: str, gaps: list[EngineGaps], width: int = 100) -> str:
    lines = [f"engine {engine}"]
    for gap in gaps:
        lines += ["", *_game_gaps(gap, width)]
    lines.append("")
    lines += textwrap.wrap(FOOTER, width)
    return "\n".join(lines) + "\n"


def _game_gaps(gap: EngineGaps, width: int) -> list[str]:
    from oracle.probe.capabilities import NAME, family

    if not gap.plays:
        return [f"{gap.game}: not played (describe lists no {gap.game!r}): its "
                f"{gap.scenarios} scenarios and {gap.rules} tested rules are unsupported; "
                "add it to describe's games"]
    lines = [f"{gap.game}: declares {len(gap.declared)} of its capabilities; {gap.runnable} "
             f"of {gap.scenarios} scenarios have all they need; {len(gap.unsupported)} of "
             f"{gap.rules} tested rules unsupported"]
    lines += _wrap(_keys_note(gap), width)
    if gap.declared:
        lines += _wrap("declares: " + ", ".join(gap.declared), width)
    for capability, why in gap.unknown.items():
        lines += _wrap(f"declared, but {capability}: {why}", width)
    if gap.unused:
        lines += _wrap("declared, needed by no scenario: " + ", ".join(gap.unused), width)
    if not gap.missing:
        return [*lines, "  lacks nothing the scenarios need"]
    lines.append("  lacks, most unlocking first (unlocks: rules it alone would get tested; "
                 "helps: rules whose fewest missing declarations include it; waits: "
                 "scenarios waiting for it):")
    groups: dict[str, list[Missing]] = {}
    for m in gap.missing:  # a family listed where its most unlocking member is
        groups.setdefault(family(m.capability), []).append(m)
    for fam, members in groups.items():
        indent = "    "
        if fam.endswith(f"/{NAME}") and len(members) > 1:
            lines.append(f"    {fam}: {len(members)} missing, helping "
                         f"{len(set().union(*(m.helps for m in members)))} rules")
            indent = "      "
        for m in members:
            lines += _missing(m, indent, width, gap.members.get(m.capability))
    lines.append("  the fewest declarations that would get each unsupported rule tested:")
    id_w = max(len(r) for r in gap.unsupported)
    for rule, fewest in gap.unsupported.items():
        lines += _wrap(f"{rule:<{id_w}}  {', '.join(fewest)}", width, "    ")
    return lines


def _keys_note(gap: EngineGaps) -> str:
    """Whether the setup keys were checked, and which the engine refused."""
    if not gap.keys_checked:
        return ("setup keys not checked (the game has no reference engine to record what its "
                "scenarios send): a scenario is counted by its capabilities alone")
    if not gap.refused:
        return "takes every setup key its scenarios send (each tried alone, as smoke does)"
    return ("refuses setup keys its scenarios send (each tried alone, as smoke does; the "
            "scenarios sending them are not counted): " + "; ".join(
                f"{k}: {why}" for k, why in gap.refused.items()))


def _class_note(cards: Iterable[str] | None) -> str:
    """What to declare for a card class it lacks: one of its cards, named."""
    if cards is None:
        return ""
    return f" (a class: declare one of its cards: {', '.join(cards) or 'none'})"
FOOTER = ("A rule is unsupported when every scenario of it lacks a declaration or was "
          "answered unsupported when its requests were sent again as a run sends them (a "
          "run that goes another way, the engine answering otherwise than the reference "
          "engine, may meet another refusal: rules-oracle run says which).")


def render_gaps_markdown(engine: str, gaps: list[EngineGaps]) -> str:
    """What an engine lacks, as Markdown: for an engine's README or a CI job summary, the
    same facts as ``render_gaps`` (every capability it lacks, what declaring it unlocks,
    and the fewest declarations that would get each unsupported rule tested)."""
    out = [f"# Capabilities of {_md_text(engine)}", ""]
    for gap in gaps:
        out += [f"## {gap.game}", ""]
        if not gap.plays:
            out += [f"Not played (`describe` lists no `{gap.game}`): its {gap.scenarios} "
                    f"scenarios and {gap.rules} tested rules are unsupported.", ""]
            continue
        out += [f"Declares {len(gap.declared)} of its capabilities; {gap.runnable} of "
                f"{gap.scenarios} scenarios have all they need; {len(gap.unsupported)} of "
                f"{gap.rules} tested rules unsupported. {_md_text(_keys_note(gap))}", ""]
        out += [f"Declared, but `{c}`: {_md_text(why)}.\n" for c, why in gap.unknown.items()]
        if gap.unused:
            out += ["Declared, needed by no scenario: "
                    + ", ".join(f"`{c}`" for c in gap.unused) + ".", ""]
        if not gap.missing:
            out += ["Lacks nothing the scenarios need.", ""]
            continue
        out += ["| lacks | unlocks | helps | waits | leaves unsupported |",
                "|---|---|---|---|---|"]
        out += [f"| `{m.capability}`{_class_note(gap.members.get(m.capability))} | "
                f"{len(m.unlocks)} | {len(m.helps)} | {m.scenarios} | "
                f"{', '.join(sorted(m.leaves)) or '–'} |" for m in gap.missing]
        out += ["", "*unlocks*: rules it alone would get tested; *helps*: rules whose fewest "
                "missing declarations include it; *waits*: scenarios waiting for it.", ""]
        if gap.unsupported:
            out += ["| unsupported rule | fewest declarations to get it tested |", "|---|---|"]
            out += [f"| {rule} | {', '.join(f'`{c}`' for c in fewest)} |"
                    for rule, fewest in gap.unsupported.items()]
            out.append("")
    out.append(FOOTER)
    return "\n".join(out) + "\n"


def _md_text(text: str) -> str:
    """Plain text in Markdown: the characters that would start markup escaped."""
    return "".join(f"\\{c}" if c in "\\`*_[]<>|#" else c for c in text)


def _missing(m: Missing, indent: str, width: int, cards: Iterable[str] | None = None
             ) -> list[str]:
    lines = _wrap(f"{m.capability}{_class_note(cards)}: unlocks {len(m.unlocks)}, helps "
                  f"{len(m.helps)}, waits {m.scenarios}", width, indent)
    if m.leaves:
        lines += _wrap("leaves unsupported: " + ", ".join(sorted(m.leaves)), width,
                       indent + "  ")
    return lines
