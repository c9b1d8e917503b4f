"""The search: one Hypothesis test plays random games on an engine and checks every invariant
after every move.

Why one search for every invariant: each game is played once and looked at by every
invariant, so N invariants cost one search, not N; and a move one invariant owns is no
longer a rejected example for the others. When an
invariant breaks, Hypothesis shrinks the game (each invariant fails with its own exception
type, so two broken invariants are two distinct bugs, not one shrunk into the other); the
search then runs again without the invariants already found broken, so that one bug never
hides the others.

Honesty: a move or setup that needs a capability the engine lacks is skipped, never the
invariant; each invariant counts the moves that exercised it, so "held" means "held over N
moves", and one that no move exercised is reported uncovered, not passed.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import tempfile
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from hypothesis import given, reject, settings
from hypothesis import strategies as st

from oracle.engines import EngineClient
from oracle.explore.model import (
    HELD,
    REJECTED_LINE,
    ExplorationModel,
    Explored,
    Held,
    Invariant,
    run_step,
)
from oracle.protocol import Rejected
from oracle.scenario.outcomes import EngineFault, EngineLacks, RuleViolation, ScenarioError
from oracle.scenario.requirements import needs
from oracle.scenario.world import ScenarioWorld
from oracle.suite.games import Game

#: Moves are drawn CHUNK at a time, one byte each, as one Hypothesis choice (``st.binary`` of
#: a fixed size): a draw costs Hypothesis about as much as a whole engine move, so one draw
#: per move was most of the search's own cost. Hypothesis shrinks a chunk byte by byte,
#: lowering each (towards the natural move, then towards skipping it), and deletes whole
#: chunks; the game ends where its slip shows, so later bytes are never drawn or kept.
CHUNK = 10
#: A byte of 0 plays no move: lowering a byte to 0 is how the shrinker deletes one move from
#: the middle of a chunk (a skipped move is not written in the counterexample).
SKIP = 0
#: Hypothesis draws many zero bytes (its first game is all zeros, and it favours zeros and
#: repeats chunks it drew before): a game draws chunks until it has made its moves or drawn
#: this many bytes per move, so that skipped moves do not make games shorter.
SKIPPABLE = 2
#: Bytes up to this take the first move on offer (the model's natural next one: answering a
#: decision, the active player's first card, the end of a Turn whose Action is taken), so
#: that about a quarter of the moves play the game forward as players would, and deep
#: states (a third Display Card, a second Action in a Turn) are reached in far fewer games.
NATURAL = 63
#: The other bytes spread over the moves on offer in order (a lower byte, an earlier move:
#: shrinking lowers towards the simplest); with more than this many moves on offer, some
#: are never chosen in that state.
SPREAD = 255 - NATURAL


def chosen(pick: int, candidates: Sequence[str]) -> str | None:
    """The move a drawn byte stands for: none (``SKIP``), the natural move, or one spread
    over the moves on offer."""
    if pick == SKIP:
        return None
    if pick <= NATURAL:
        return candidates[0]
    return candidates[(pick - NATURAL - 1) * len(candidates) // SPREAD]


class Slip(Exception):
    """Something the search found, carried out of Hypothesis with the game that shows it."""

    def __init__(self, message: str, given: list[str], lines: list[str]) -> None:
        super().__init__(message)
        self.message, self.given, self.lines = message, list(given), list(lines)


class Broken(Slip):
    """An invariant failed."""

    def __init__(self, invariant: Invariant, message: str, given: list[str], lines: list[str],
                 rules: tuple[str, ...] | None = None) -> None:
        super().__init__(f"{invariant.name}: {message}", given, lines)
        self.invariant, self.message = invariant, message
        self.rules = rules or invariant.rules


class Faulted(Slip):
    """The engine crashed, answered ``errored`` or broke the protocol (or the model sent a
    step that cannot be carried out); ``invariant`` is the one whose look failed, if any."""

    def __init__(self, message: str, given: list[str], lines: list[str],
                 invariant: Invariant | None = None) -> None:
        super().__init__(message, given, lines)
        self.invariant = invariant


@cache
def _broken_type(name: str) -> type[Broken]:
    """One exception type per invariant: Hypothesis tells bugs apart by the type and place of
    the exception, and would otherwise shrink one invariant's failure into another's."""
    return type(f"Broken[{name}]", (Broken,), {})


@dataclass
class Search:
    """One exploration of a game on an engine: what is still searched, and the tallies."""

    game: Game
    model: ExplorationModel
    client: EngineClient
    seed: int
    active: list[Invariant]
    #: Per invariant, the states (after a setup or a move) that exercised it.
    exercised: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    games: int = 0
    #: Per missing capability, the moves (or setups) skipped because the engine lacks it.
    skipped_moves: Counter[str] = field(default_factory=Counter)
    skipped_setups: Counter[str] = field(default_factory=Counter)
    #: Once a fault has been reported, a game that shows one again ends there (its later
    #: states cannot be trusted) instead of failing the search again; so does a game whose
    #: rejected move changed it, once that invariant is found broken (or is not searched).
    faults_end_games: bool = False
    games_cut: int = 0
    #: Told (games done in this search, games it may play, what is searched) every tenth of
    #: the budget, so that a long exploration is not a silent one.
    progress: Callable[[int, int, str], None] | None = None
    budget: int = 0
    _round_games: int = 0
    #: Per step text, the capabilities it needs that the engine does not declare.
    _needs: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    _probe: ScenarioWorld | None = None

    def new_world(self) -> ScenarioWorld:
        return ScenarioWorld(self.game, self.client, self.seed)

    def lacking(self, kind: str, texts: Sequence[str]) -> list[str]:
        """The capabilities these steps declare they need and the engine does not declare.

        What a step needs follows from its text alone (the models use no card variables),
        so it is worked out once per text.
        """
        found: list[str] = []
        for text in texts:
            missing = self._needs.get((kind, text))
            if missing is None:
                if self._probe is None:
                    self._probe = self.new_world()
                self._probe.cards.forget()  # each text alone: no card variable carries over
                missing = self._needs[kind, text] = tuple(
                    c for c in needs(self._probe, [(kind, text)])
                    if c not in self._probe.capabilities)
            found += missing
        return found

    def supported(self, kind: str, text: str) -> bool:
        """Whether the engine declares everything the step needs (asked many times a move:
        one dictionary lookup once the text has been seen)."""
        missing = self._needs.get((kind, text))
        return not (self.lacking(kind, [text]) if missing is None else missing)

    # -- a game ---------------------------------------------------------------------------

    def set_up(self, given: list[str]) -> Explored | None:
        """Build the setup's state on the engine; None when the engine cannot play it
        (setups needing a capability it does not declare are filtered out before this)."""
        world = self.new_world()
        try:
            for text in given:
                run_step(world, "given", text)
            world.start()
        except EngineLacks as exc:
            self.skipped_setups[exc.reason] += 1
            return None
        except (EngineFault, ScenarioError) as exc:
            fault = str(exc)
        else:
            self.games += 1
            self._tell()
            return Explored(world, list(given), supported=self.supported)
        if self.faults_end_games:
            self.games_cut += 1
            return None
        raise Faulted(f"setup: {fault}", given, [])

    def _tell(self) -> None:
        done, self._round_games = self._round_games, self._round_games + 1
        if self.progress and self.budget and done % max(self.budget // 10, 1) == 0 \
                and done < self.budget:
            self.progress(done, self.budget, f"game {done + 1}: {len(self.active)} "
                          f"invariant(s) searched, {self.moves} moves so far")

    def new_round(self) -> None:
        """A search starts again (without what it found): its games are counted afresh."""
        self._round_games = 0

    def move(self, explored: Explored, pick: int) -> bool:
        """Play the move a drawn byte picks (``chosen``); whether the game goes on (False: it
        showed a slip already reported, and ends here). Raises ``Slip`` for a new one."""
        world = explored.world
        if pick == SKIP:
            return True
        # Nothing reads a game's transcript here (a finding is replayed on a fresh world), and
        # keeping every view of a game alive until the next setup made the collector walk
        # them all, over and over.
        world.client.transcript.clear()
        if explored.candidates is None:
            explored.candidates = self.model.moves(explored)
        text = chosen(pick, explored.candidates)
        if text is None:
            return True
        return self.play(explored, text)

    def play(self, explored: Explored, text: str) -> bool:
        """Play one move by its text (the search's pick, or a replayed game's); whether the
        game goes on. Raises ``Slip`` for a new slip."""
        world = explored.world
        missing = self._needs.get(("when", text))
        if missing is None:
            missing = self.lacking("when", [text])
        if missing:
            self.skipped_moves[missing[0]] += 1
            return True
        explored.moving()
        sent = len(world.history)
        explored.lines.append(f"When {text}")
        explored.moves += 1
        self.moves += 1
        leak = fault = None
        try:
            run_step(world, "when", text)
        except EngineLacks as exc:
            explored.take_back()
            explored.moves -= 1
            self.skipped_moves[exc.reason] += 1
            # Nothing changed if nothing was accepted; otherwise the lines no longer say
            # what the game is, and it ends.
            return len(world.history) == sent
        except RuleViolation as exc:
            if _leaked(world, sent):  # the world's own check: a rejection changed the game
                leak = str(exc)
            else:
                fault = f"{text}: {exc}"
        except (EngineFault, ScenarioError) as exc:
            fault = str(exc)
        if fault is not None:
            return self._cut(explored, Faulted(fault, explored.given, explored.lines),
                             self.faults_end_games)
        history = world.history
        rejected = len(history) > sent and isinstance(world.last.reply if world.last
                                                      else None, Rejected)
        for i in range(sent, len(history)):
            if not isinstance(history[i][3], Rejected):
                explored.candidates = None  # an accepted action changed the game
                break
        if rejected:
            world.expect_rejected()
            explored.lines.append(REJECTED_LINE)
        explored.last_rejected = rejected
        if leak is not None:
            owner = next((i for i in self.active if i.catches_violations), None)
            if owner is None:
                return self._cut(explored, None, True)
            cited = world.last.reply.rule if world.last and isinstance(
                world.last.reply, Rejected) else None
            self.exercised[owner.name] += 1
            raise _broken_type(owner.name)(owner, leak, explored.given, explored.lines,
                                           (cited,) if cited else None)
        return True

    def replay(self, given: Sequence[str], moves: Sequence[str],
               searched: Sequence[Invariant] | None = None) -> Slip | None:
        """Play a game again by its texts (a slip's setup and moves, or fewer of them, while
        it is shrunk): the first slip it shows, or None. Only the ``searched`` invariants are
        checked (default: those still searched); a fault always shows. A move the model
        does not offer in the state it comes to ends the replay (None). Nothing is counted
        in the search's tallies, and no slip is tolerated as one already reported."""
        saved = (self.exercised, self.moves, self.games, self.games_cut, self.skipped_moves,
                 self.skipped_setups, self.faults_end_games, self.progress, self.active,
                 self._round_games)
        self.exercised, self.skipped_moves, self.skipped_setups = Counter(), Counter(), Counter()
        self.faults_end_games, self.progress = False, None
        if searched is not None:
            self.active = list(searched)
        try:
            explored = self.set_up(list(given))
            if explored is None or not self.check(explored):
                return None
            for text in moves:
                # Only moves the model offers in this state: a shrunk game stays a game the
                # search could have played (an answer to a decision that is pending, ...).
                if explored.candidates is None:
                    explored.candidates = self.model.moves(explored)
                if text not in explored.candidates:
                    return None
                played = explored.moves
                if not self.play(explored, text):
                    return None
                if explored.moves > played and not self.check(explored):
                    return None
        except Slip as slip:
            return slip
        finally:
            (self.exercised, self.moves, self.games, self.games_cut, self.skipped_moves,
             self.skipped_setups, self.faults_end_games, self.progress, self.active,
             self._round_games) = saved
        return None

    def _cut(self, explored: Explored, slip: Slip | None, tolerated: bool) -> bool:
        if tolerated or slip is None:
            self.games_cut += 1
            return False
        raise slip

    def check(self, explored: Explored) -> bool:
        """Every invariant still searched, on the state just reached (raises ``Slip``);
        whether the game goes on."""
        exercised = self.exercised
        for inv in self.active:
            fault = None
            try:
                verdict = inv.check(explored)
            except RuleViolation as exc:  # the view itself breaks the rule
                verdict = str(exc)
            except EngineLacks:
                verdict = None  # this engine cannot show what the invariant looks at
            except (EngineFault, ScenarioError) as exc:
                fault = Faulted(f"while checking '{inv.name}': {exc}", explored.given,
                                explored.lines, inv)
            if fault is not None:
                return self._cut(explored, fault, self.faults_end_games)
            if verdict is None:
                continue
            exercised[inv.name] += 1
            if verdict is not HELD and not isinstance(verdict, Held):
                raise _broken_type(inv.name)(inv, verdict, explored.given, explored.lines)
        return True


def game_test(search: Search, steps: int) -> Callable[[], None]:
    """The test Hypothesis runs once per game: a setup, then up to ``steps`` moves, every
    invariant still searched checked on each new state. Setups the engine cannot play are
    filtered out before they are built.

    Why a plain ``@given`` test and not a ``RuleBasedStateMachine``: a game has one kind of
    step (a move, drawn as one number), and the state machine's rule choice and stop
    decision cost as much again per move as the draw itself, and its games went on with
    no-op steps after a game had ended. Shrinking is the same: each move is one byte, which
    Hypothesis lowers (towards the natural next move, then to no move); see ``CHUNK``.
    """

    def playable(given: list[str]) -> bool:
        missing = search.lacking("given", given)
        if missing:
            search.skipped_setups[missing[0]] += 1
        return not missing

    setups = search.model.setups(search.supported).filter(playable)
    chunk = st.binary(min_size=CHUNK, max_size=CHUNK)

    @given(given=setups, data=st.data())
    def play(given: list[str], data: st.DataObject) -> None:
        explored = search.set_up(given)
        if explored is None:
            reject()  # the engine cannot play this setup (counted): another one
        if not search.check(explored):
            return
        for _ in range(0, SKIPPABLE * steps, CHUNK):
            if explored.moves >= steps:
                return
            for pick in data.draw(chunk):
                moves = explored.moves
                if not search.move(explored, pick):
                    return  # a slip already reported ended the game
                if explored.moves > moves and not search.check(explored):
                    return

    return play


def _leaked(world: ScenarioWorld, sent: int) -> bool:
    """Whether the move's last request was a rejection that changed the game."""
    if len(world.history) <= sent:
        return False
    *_, reply, before, after = world.history[-1]
    return isinstance(reply, Rejected) and after is not None and after != before


def run_search(search: Search, budget: settings) -> list[Slip]:
    """One run of the search: the slips it found and shrank (none: it held)."""
    search.new_round()
    try:
        settings(budget)(game_test(search, budget.stateful_step_count))()
    except Slip as slip:
        return [slip]
    except BaseExceptionGroup as group:  # several distinct bugs, or a flaky one
        slips, rest = group.split(Slip)
        if rest is not None:
            raise
        return [s for s in _leaves(slips) if isinstance(s, Slip)]
    return []


def _leaves(group: BaseException | None) -> list[BaseException]:
    if isinstance(group, BaseExceptionGroup):
        return [leaf for e in group.exceptions for leaf in _leaves(e)]
    return [group] if group is not None else []


# -- Hypothesis's surroundings ------------------------------------------------------------


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """The cyclic garbage collector runs less often while exploring.

    A move allocates thousands of short-lived containers (views, requests, step arguments),
    none of them in a cycle: with Python's default threshold the collector ran every 700 of
    them, found next to nothing, and took about a fifth of the search's time. Memory is
    still freed as usual (by reference counting); only the search for cycles waits longer.
    """
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], 20_000), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


@contextlib.contextmanager
def private_hypothesis_home() -> Iterator[None]:
    """Exploration reads and writes nothing of the engine developer's tree.

    Hypothesis keeps a cache (``.hypothesis/``) in the current directory even without an
    example database: the constants it collects from the source of every local module
    loaded, which it then mixes into the data it draws. Both are turned off while exploring:
    the home folder is a temporary one, removed after, and no local constant is drawn, so
    the games explored depend on the seed and the budget only, not on which modules
    happened to be imported (another engine, another test, an edit anywhere).
    """
    from hypothesis import configuration

    previous = getattr(configuration, "__hypothesis_home_directory", None)
    with tempfile.TemporaryDirectory(prefix="rules-oracle-hypothesis-") as home, \
            _no_local_constants():
        configuration.set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            configuration.set_hypothesis_home_dir(previous)


class LocalConstantsKept(UserWarning):
    """Hypothesis's local constants could not be turned off (``_no_local_constants``)."""


#: Where Hypothesis keeps what ``_no_local_constants`` replaces (private names: a Hypothesis
#: release may move them; tests/test_explore_search.py fails on the day one does).
_PROVIDERS = "hypothesis.internal.conjecture.providers"


def local_constants_patch() -> tuple[Any, Callable[[], Any], Any, Any] | str:
    """What ``_no_local_constants`` patches: (the module, its ``_get_local_constants``, its
    ``CONSTANTS_CACHE``, an empty set of constants); or, where this Hypothesis keeps them
    elsewhere, why not."""
    import hypothesis

    try:
        providers = importlib.import_module(_PROVIDERS)
        original, cache = providers._get_local_constants, providers.CONSTANTS_CACHE
        empty = type(providers._local_constants)()
        cache.cache.clear  # noqa: B018 - cleared before and after, so it must be there
    except (ImportError, AttributeError, TypeError) as exc:
        return (f"hypothesis {hypothesis.__version__} keeps no {_PROVIDERS}."
                f"_get_local_constants, _local_constants and CONSTANTS_CACHE as rules-oracle "
                f"expects ({type(exc).__name__}: {exc})")
    return providers, original, cache, empty


@contextlib.contextmanager
def _no_local_constants() -> Iterator[None]:
    """Hypothesis draws constants found in local source modules (``providers``, an internal
    module): turned off while exploring. Where this Hypothesis keeps them elsewhere, the
    search runs with them, and says so (a ``LocalConstantsKept`` warning): never silently,
    since the games explored then depend on which modules happen to be imported."""
    patch = local_constants_patch()
    if isinstance(patch, str):
        warnings.warn(LocalConstantsKept(
            f"{patch}: exploration cannot turn off the constants Hypothesis collects from "
            "local modules, so the games it plays now depend on which modules are imported "
            "(the same seed and budget may explore other games in another run or on another "
            "machine). Pin the Hypothesis version that rules-oracle was tested with, and "
            "report this."), stacklevel=2)
        yield
        return
    providers, original, cache, empty = patch
    cache.cache.clear()
    providers._get_local_constants = lambda: empty
    try:
        yield
    finally:
        providers._get_local_constants = original
        cache.cache.clear()
