"""``rules-oracle cards``: a game's card facts, for the people who write adapters.

Why a command: an adapter needs each card's deck, copies and (per game) costs, kinds,
charges, dice or timing window, and those facts live in the game's ``cards.yaml`` among the
scenarios, which an engine team may be told not to read (so that it implements the rules,
not the tests). This prints them, with the file's own explanation of its fields, as a
table per deck or (``--json``) as the data itself, so that an engine in any language can
load them without a YAML parser.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from oracle import options

#: Fields every game's card facts have, shown first.
FIRST = ("name", "count")


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "cards", help="a game's card facts (names, copies, costs, windows, ...)",
        description="Print a game's card facts, the data an adapter needs about each card: "
                    "its deck and copies, and per game its costs, kinds, charges, Actions "
                    "and dice (EU) or its phase and timing window (TI4); no card text; and "
                    "the card classes each card belongs to ('card A is any reaction card'). "
                    "The text form explains each field (the header of the game's "
                    "cards.yaml). Exit 0, or 2 for an unknown --game.")
    parser.add_argument("--game", required=True, metavar="ID", help="the game (ti4, eu-pop)")
    parser.add_argument("--json", action="store_true",
                        help="print the facts as JSON: {game, file, decks: {DECK: [card, "
                             "...]}, classes: {CLASS: [card, ...]}} plus the file's other "
                             "top-level keys (EU: illustrative); classes are the card classes "
                             "scenarios pick a card of, with the cards each may get; "
                             "file is the facts' file inside its features folder "
                             "(eu-pop/cards.yaml), the same on every machine")
    options.by_name()["features"].add_to_cli(parser)


def main(ns: argparse.Namespace) -> int:
    from oracle.scenario.cards import class_cards
    from oracle.suite.catalog import CatalogFileError, read_game_file
    from oracle.suite.games import discover_games, feature_roots

    try:
        games = discover_games(feature_roots(ns.oracle_features))
    except CatalogFileError as exc:
        print(f"rules-oracle cards: {exc}", file=sys.stderr)
        return 2
    game = games.get(ns.game)
    if game is None:
        print(f"rules-oracle cards: --game {ns.game}: no such game (games: "
              f"{', '.join(games)})", file=sys.stderr)
        return 2
    if not game.cards_file:
        print(f"rules-oracle cards: {game.id} has no card facts (no 'cards:' in its game.yaml)",
              file=sys.stderr)
        return 2
    path = game.folder / game.cards_file
    try:
        data = dict(read_game_file(path, "the card facts", schema=game.card_schema) or {})
        classes = {cls: class_cards(game, cls) for cls in game.plays["classes"]}
    except CatalogFileError as exc:
        print(f"rules-oracle cards: {exc}", file=sys.stderr)
        return 2
    if ns.json:
        # The file inside its features folder, not its absolute path: the JSON is checked
        # into engine repositories, and the path of one machine's virtualenv is no fact.
        print(json.dumps({**data, "game": game.id, "file": f"{game.folder.name}/"
                          f"{game.cards_file}", "decks": game.cards, "classes": classes},
                         ensure_ascii=False, indent=1))
        return 0
    print(render_text(game.id, path, data, game.cards) + render_classes(game.id, game.cards,
                                                                       classes), end="")
    return 0


def render_classes(game: str, decks: Mapping[str, list[Mapping[str, Any]]],
                   classes: Mapping[str, list[str]]) -> str:
    """Each card's classes: what a scenario's "card A is any reaction card" may pick it
    for, among the cards an engine declares (``plays.yaml``; a card with no recipe there is
    only ever named)."""
    if not classes:
        return ""
    of: dict[str, list[str]] = {c["name"]: [] for cards in decks.values() for c in cards}
    for cls, cards in classes.items():
        for card in cards:
            of[card].append(cls)
    width = max(len(n) for n in of)
    out = [f"Card classes: a scenario about a rule that is not about one card names a class "
           f'("card A is any reaction card") and gets one of its cards that the engine declares '
           f"({game}/card/NAME). Each card and the classes it may be picked for (a card with "
           "none is only ever named):", ""]
    for card, names in of.items():
        out += textwrap.wrap(", ".join(f"any {n}" for n in names) or "none",
                             100, initial_indent=f"  {card:<{width}}  ",
                             subsequent_indent=" " * (width + 4))
    return "\n".join(out) + "\n"


def header(path: Path) -> list[str]:
    """The comment block at the top of a card-facts file: what its fields mean."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[1:].removeprefix(" "))
    return lines


def render_text(game: str, path: Path, data: Mapping[str, Any],
                decks: Mapping[str, list[Mapping[str, Any]]]) -> str:
    """Every deck as a table (a card per line, nested entries such as a Display Card's
    Actions indented below it), after the file's explanation of its fields."""
    out = [f"Card facts of {game} ({path}); no card text. What the fields mean: "
           f"docs/protocol.md, the game's section; and the file's header:", ""]
    out += [f"  {line}".rstrip() for line in header(path)] + [""]
    for deck, cards in decks.items():
        copies = sum(int(c.get("count", 1)) for c in cards)
        out.append(f"{deck} deck: {len(cards)} cards, {copies} copies")
        out += _table(cards, "  ")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _table(rows: list[Mapping[str, Any]], indent: str) -> list[str]:
    """Rows as aligned columns; a field holding a list of mappings becomes sub-rows."""
    nested = [k for r in rows for k, v in r.items()
              if isinstance(v, list) and v and all(isinstance(x, Mapping) for x in v)]
    nested = list(dict.fromkeys(nested))
    columns = list(dict.fromkeys([*(k for k in FIRST if any(k in r for r in rows)),
                                  *(k for r in rows for k in r if k not in nested)]))
    cells = [[_cell(r.get(k)) for k in columns] for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(columns)]
    lines = [indent + "  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip()]
    for row, cells_of in zip(rows, cells, strict=True):
        lines.append(indent + "  ".join(c.ljust(w) for c, w in zip(cells_of, widths,
                                                                   strict=True)).rstrip())
        for key in nested:
            if row.get(key):
                lines.append(f"{indent}    {key}:")
                lines += _table(list(row[key]), indent + "      ")
    return lines


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, list):
        return ",".join(_cell(v) for v in value) or "-"
    if isinstance(value, Mapping):
        return ",".join(f"{k} {_cell(v)}" for k, v in value.items())
    return str(value)
