"""Finding a step's definition fast must find exactly what trying every definition finds.

The vocabulary rules definitions out by the literal text their patterns require
(``oracle.suite.bdd.literal_hint``) and remembers matches; pytest-bdd is pointed straight at
the dispatcher of a step's kind (``route_steps``) and reads the parses the suite checks made
(``share_parses``). Each shortcut is checked against the slow answer it replaces, on every
step of the bundled suite and on texts generated from the patterns themselves.
"""

from __future__ import annotations

import importlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracle.mutants.harness import game_cases
from oracle.suite import dispatch
from oracle.suite.bdd import literal_hint, regex_literals, route_steps, routes_to, share_parses
from oracle.suite.games import discover_games
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


def test_pytest_bdd_is_routed_to_the_dispatchers_and_shares_parses() -> None:
    """The shortcuts are in place: if pytest-bdd moves what they replace, this says so (the
    oracle still works, only slower)."""
    route_steps()
    share_parses()
    bdd_scenario = importlib.import_module("pytest_bdd.scenario")
    assert bdd_scenario.find_fixturedefs_for_step.routed
    assert bdd_scenario.get_step_function.__name__ == "direct"
    assert bdd_scenario._execute_step_function.direct
    assert importlib.import_module("pytest_bdd.parser").get_gherkin_document.shared_by_oracle
    assert set(routes_to(dispatch)) == {"given", "when", "then"}


HOOK_LOG = '''
import json

def _log(name, step, step_func_args, **more):
    with open("hooks.jsonl", "a") as f:
        f.write(json.dumps([name, step.name, sorted(step_func_args), *more.values()]) + "\\n")

def pytest_bdd_before_step(step):
    _log("before_step", step, {})

def pytest_bdd_before_step_call(step, step_func_args):
    _log("before_step_call", step, step_func_args)

def pytest_bdd_after_step(step, step_func_args):
    _log("after_step", step, step_func_args)

def pytest_bdd_step_error(step, step_func_args, exception):
    _log("step_error", step, step_func_args, error=type(exception).__name__)
'''


def test_a_dispatched_step_calls_every_pytest_bdd_hook_as_pytest_bdd_does(pytester):
    """The oracle runs its dispatchers itself (``bdd._step_runner``), yet a plugin watching
    pytest-bdd's step hooks sees what pytest-bdd would show it: for each step, before_step,
    before_step_call with the step's arguments, then after_step, or step_error with the
    exception for the step that failed."""
    import json

    pytester.makepyfile(hooklog=HOOK_LOG)
    pytester.syspathinsert()
    for engine in ("reference:ti4", "mutant:lazy_reshuffle"):
        result = pytester.runpytest_inprocess(
            "-p", "no:cacheprovider", "-p", "hooklog", "--oracle-engine", engine,
            "--oracle-rule", "ti4:note-4")
        assert result.ret in (0, 1), result.stdout.str()
    lines = [json.loads(line) for line in
             (pytester.path / "hooks.jsonl").read_text().splitlines()]
    args = ["oracle_world", "step_text"]
    steps = [lines[i:i + 3] for i, line in enumerate(lines) if line[0] == "before_step"]
    assert steps and len(lines) == 3 * len(steps), lines[:6]
    for before, call, after in steps:
        assert before[0] == "before_step", before
        assert call[0::2] == ["before_step_call", args], call
        assert after[0] in ("after_step", "step_error") and after[1:3] == [before[1], args]
    failed = [after for *_, after in steps if after[0] == "step_error"]
    assert failed and {f[3] for f in failed} == {"RuleViolation"}, failed
