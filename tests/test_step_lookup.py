"""Finding a step's definition fast must find exactly what trying every definition finds.

The vocabulary rules definitions out by the literal text their patterns require
(``oracle.suite.stepdefs.literal_hint``) and remembers matches. Each shortcut is checked
against the slow answer it replaces, on every step of the bundled suite and on texts
generated from the patterns themselves. (pytest-bdd's own step lookup, and the runner that
skips it, are tests/test_bdd.py's.)
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracle.mutants.harness import game_cases
from oracle.suite.games import discover_games
from oracle.suite.stepdefs import literal_hint, regex_literals
from oracle.suite.vocabulary import Vocabulary, _may_match, step_modules

GAMES = discover_games()


def _steps(game_id: str) -> list[tuple[str, str]]:
    """Every step of the game's scenarios as they run (an Outline's rows filled in)."""
    return sorted({step for case in game_cases(GAMES[game_id]) for step in case.steps})


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_indexed_matching_finds_what_trying_every_definition_finds(game_id: str) -> None:
    words = Vocabulary(step_modules(GAMES[game_id]))
    for kind, text in _steps(game_id):
        slow = [d for d in words.defs if d.answers(kind) and d.matches(text)]
        assert words.match(kind, text) == slow, text
        assert len(slow) == 1, text  # the suite checks refuse anything else
        for d in slow:
            assert _may_match(literal_hint(d.context), text), (d.pattern, text)


@pytest.mark.parametrize("pattern, expected", [
    (r"the players are (?P<names>.+)", ("the players are ", ("the players are ",))),
    (r"(?P<p>[A-Z]\w*) holds (?P<pile>.+)", ("", (" holds ",))),
    (r"cards? drawn", ("card", ("card", " drawn"))),
    (r'the window "(?P<w>[^"]+)" is open', ('the window "', ('the window "', '" is open'))),
    (r"a\.b\\c [xy]z", ("a.b\\c ", ("a.b\\c ", "z"))),
    (r"keep|discard", None),
    (r"(?:a|b) c", ("", (" c",))),
])
def test_regex_literals(pattern: str, expected: object) -> None:
    assert regex_literals(pattern) == expected


PATTERNS = sorted({d.pattern for g in GAMES.values()
                   for d in Vocabulary(step_modules(g)).defs
                   if type(d.context.parser).__name__ == "re"})


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_text_a_pattern_matches_always_has_its_literal_text(data: st.DataObject) -> None:
    pattern = data.draw(st.sampled_from(PATTERNS))
    text = data.draw(st.from_regex(pattern, fullmatch=True))
    hint = regex_literals(pattern)
    assert hint is None or _may_match(hint, text), (pattern, text)
