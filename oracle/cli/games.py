"""The games a command reads: ``--game ID`` (repeatable) among the bundled features and the
``--features`` folders, for the commands that look at several games (capabilities,
coverage)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: every command builds its parser, few run it
    from oracle.suite.games import Game


class UsageError(Exception):
    """A bad combination of a command's options (exit 2); the message says which."""


def add_game_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", action="append", default=[], metavar="ID",
                        help="only this game (repeatable; default: every game)")


def chosen_games(wanted: Iterable[str], features: Iterable[str]
                 ) -> tuple[dict[str, Game], dict[str, Game]]:
    """(every game the bundled features and the folders hold, the ones ``wanted``: all of
    them when none is); UsageError for a game no folder holds. CatalogFileError (from the
    discovery) for a bad folder."""
    from oracle.suite.games import discover_games, feature_roots

    wanted = list(wanted)
    games = discover_games(feature_roots(features))
    unknown = [g for g in wanted if g not in games]
    if unknown:
        raise UsageError(f"--game {unknown[0]}: no such game (games: {', '.join(games)})")
    return games, {k: v for k, v in games.items() if not wanted or k in wanted}
