"""The step definitions pytest-bdd sees: one per kind, handing each step to the vocabulary.

Why: pytest-bdd 9 finds a step's definition by asking pytest for every fixture of the
session and trying each step definition among them on the step's text. Each step cost time
in proportion to the step library (7-9 ms for a 3-step scenario with 500 definitions), and
phrasings for rulings and translations only add definitions. The game's vocabulary
(``oracle.suite.vocabulary``) already indexes its definitions, and it is what the suite
checks match every step with. So a feature module holds these three definitions instead of
the game's (``define_in``): each matches any text of its kind and runs it through the
vocabulary, which picks the one definition the checks found. pytest-bdd still runs the
scenario step by step, with its hooks and its reports; only the search is the vocabulary's.
A step definition gets the scenario's world (``oracle_world``) and the arguments its pattern
parses, nothing else.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from pytest_bdd import given, parsers, then, when

from oracle.scenario.world import ScenarioWorld
from oracle.suite.vocabulary import vocabulary_for

ANY_TEXT = r"(?P<step_text>.+)"


def run_step(world: ScenarioWorld, kind: str, text: str) -> None:
    """Run one step of a scenario through its game's vocabulary."""
    vocabulary_for(world.game).run(world, kind, text)


def _given(oracle_world: ScenarioWorld, step_text: str) -> Any:
    run_step(oracle_world, "given", step_text)


def _when(oracle_world: ScenarioWorld, step_text: str) -> Any:
    run_step(oracle_world, "when", step_text)


def _then(oracle_world: ScenarioWorld, step_text: str) -> Any:
    run_step(oracle_world, "then", step_text)


DISPATCHERS = {"given": _given, "when": _when, "then": _then}
"""The dispatcher of each step kind."""

PARSER = parsers.re(ANY_TEXT)
"""How each dispatcher reads a step: all of its text, as ``step_text``."""

_DEFINE = compile("given(parser)(_given)\nwhen(parser)(_when)\nthen(parser)(_then)\n",
                  "<oracle.plugin.dispatch.define_in>", "exec")
_NAMES = {"given": given, "when": when, "then": then, "parser": PARSER,
          **{f.__name__: f for f in DISPATCHERS.values()}}


def define_in(module: ModuleType) -> None:
    """Make the three dispatchers step definitions of a feature file's test module.

    pytest-bdd's decorators define a step in the namespace of the code that applies them
    (its fixture goes into that frame's locals), so they are applied by a few lines run with
    the module's namespace as their locals: what the module's own code would do, were it a
    file. Each test of the module, and only those, then finds them.
    """
    exec(_DEFINE, dict(_NAMES), vars(module))
