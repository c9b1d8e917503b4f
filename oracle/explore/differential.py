"""Differential exploration: two engines play the same seeded games, and every reply and every
viewer's view is compared after every move.

Why: an invariant says what must always hold; two engines (yours and the reference, or your
release and your main branch) can disagree on anything the rules decide, invariant or not.
So the same search that explores one engine (``oracle.explore.search``: the game's model,
its setups and moves as step texts, Hypothesis choosing) plays each game on both engines at
once, move by move, and compares what the rules decide (``oracle.explore.compare``: what
may differ by the engine's choice is normalised, and a game that diverges by such a choice,
a shuffle dealt otherwise, ends there uncounted).

A disagreement is charged to one rule where that can be told, in this order:

1. the replies differ (one engine rejects what the other accepts): a refusal the size of
   its player's hand explains, to the rule the game maps ``refused-over-limit`` to
   (``oracle.explore.refusals``: the same game replayed with that hand at the limit has
   both engines accept it); else a game diagnostic one engine's move fails (as below);
   else the rule the rejection cites; else the rule that states the move (the model's
   ``move_rules`` for its action, ``answer_rules`` for the decision it answers);
2. the views differ: a game diagnostic (``oracle.scenario.diagnosis``, what any action of a
   kind must do) that one engine's move fails and the other's passes; else the invariants
   one engine breaks and the other keeps; else the invariants whose Then lines (what the
   rules require here, as the first engine shows it) fail on the second engine: an
   invariant standing for several rules is narrowed to the one that states the move, when
   it is among them; else the rule that states the move.

Each rule's first disagreement is shrunk (``oracle.explore.shrink``: the same rule charged
again) and written as a Gherkin scenario that is a pending ruling (docs/rulings.md): its
Then lines are what the first engine shows that the second does not, and the second's are
shown as comments. The search then runs again on the same games, ending at the rules already
charged, until it finds nothing new.
"""

from __future__ import annotations

import datetime
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import Phase, seed, settings

from oracle.engines import EngineClient
from oracle.explore.compare import (
    Loosened,
    choices_of,
    cited_apart,
    common,
    dealt,
    difference,
    drawn_from,
    normal_view,
    replies_agree,
    reply_signature,
    reshuffled,
    unordered,
)
from oracle.explore.model import (
    HELD,
    REJECTED_LINE,
    ExplorationModel,
    Explored,
    Invariant,
    answer_rules_of,
    move_rules_of,
    run_step,
)
from oracle.explore.refusals import OVER_LIMIT, Refused, refused, smaller_hands
from oracle.explore.render import rule_sentences, scenario
from oracle.explore.search import (
    SKIP,
    Slip,
    chosen,
    fewer_collections,
    game_test,
    private_hypothesis_home,
)
from oracle.explore.shrink import DEFAULT_SHRINK, ShrinkBudget, Shrunk, shrink
from oracle.protocol import REFEREE, Act, Choose, Rejected
from oracle.scenario.diagnosis import Transition
from oracle.scenario.outcomes import EngineFault, EngineLacks, RuleViolation, ScenarioError
from oracle.scenario.requirements import needs
from oracle.scenario.world import ScenarioWorld
from oracle.suite.games import Game

_FAILURES = (RuleViolation, EngineFault, EngineLacks, ScenarioError)
#: Raised by invariants' checks and Then-line makers reading a view they cannot make sense of.
_UNREADABLE = (*_FAILURES, KeyError, TypeError, ValueError, IndexError, AttributeError)


class Disagreed(Slip):
    """The engines disagree: the game that shows it, what differs, and the rules charged."""

    def __init__(self, what: str, given: list[str], lines: list[str], rules: tuple[str, ...],
                 kind: str, why: str) -> None:
        super().__init__(what, given, lines)
        self.rules, self.kind, self.why = rules, kind, why


@dataclass
class Duel:
    """One game on both engines: each side's explored game (the lines are shared)."""

    a: Explored
    b: Explored
    moves: int = 0
    #: The last move shuffled a deck on both engines (or the setup left decks to shuffle).
    shuffled: bool = False
    #: Where the last move's requests start in each side's history.
    sent: tuple[int, int] = (0, 0)
    #: The last move's outcome is partly the engine's choice (``GameChoices.outcome``).
    loosened: Loosened | None = None
    #: The decks the setup left to be shuffled: their draw piles' order is each engine's
    #: own until a card is drawn from them (``unordered``).
    orderless: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _Outcome:
    """How one engine took a move."""

    entries: list[tuple[Any, ...]]
    problem: tuple[str, str] | None  # (lacks | fault | leak | violation, message)
    changed: bool  # some request of the move was accepted


@dataclass
class DiffFinding:
    """A disagreement on one rule, shrunk, as a scenario that is a pending ruling."""

    rules: tuple[str, ...]
    kind: str  # reply, view, fault, leak
    message: str
    why: str  # how it was charged
    scenario: str  # the Rule: block with its ruling lines and scenario
    #: The scenario's Then lines pass on the first engine and fail on the second.
    confirmed: bool
    given: list[str]
    lines: list[str]
    first_shows: list[str]
    second_shows: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"rules": list(self.rules), "kind": self.kind, "message": self.message,
                "charged": self.why, "confirmed": self.confirmed, "given": self.given,
                "lines": self.lines, "first_shows": self.first_shows,
                "second_shows": self.second_shows, "scenario": self.scenario}


@dataclass
class DiffResult:
    """What comparing two engines on one game found, and how much was compared."""

    game: Game
    engines: tuple[str, str]
    seed: int
    findings: list[DiffFinding]
    moves: int
    games: int
    seconds: float
    #: Views compared (per viewer, after a setup and after every move).
    views: int = 0
    #: Games that ended where the engines diverged by a choice the rules leave them (a
    #: shuffle dealt otherwise, a move only one engine supports), per reason.
    diverged: Counter[str] = field(default_factory=Counter)
    skipped_moves: Counter[str] = field(default_factory=Counter)
    skipped_setups: Counter[str] = field(default_factory=Counter)
    #: Games ended at a disagreement on a rule already reported.
    games_cut: int = 0
    shrinks: list[Shrunk] = field(default_factory=list)
    #: Refusals both engines made citing other rules, each forbidding the action: "X / Y".
    cited_otherwise: Counter[str] = field(default_factory=Counter)

    @property
    def agree(self) -> bool:
        return not self.findings

    def feature(self) -> str:
        """Every finding as one feature file of pending rulings (a committee folder's)."""
        a, b = self.engines
        head = (f"Feature: Where {a} and {b} disagree ({self.game.title})\n"
                f"  Found by rules-oracle explore (differential, seed {self.seed}); each rule's\n"
                f"  first disagreement, shrunk. Pending rulings: a committee decides.\n")
        return head + "".join("\n" + _indent(f.scenario, 2) + "\n" for f in self.findings)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game.id, "engines": list(self.engines), "seed": self.seed,
                "agree": self.agree, "moves": self.moves, "games": self.games,
                "views": self.views, "seconds": round(self.seconds, 3),
                "diverged": dict(self.diverged), "games_cut": self.games_cut,
                "cited_otherwise": dict(self.cited_otherwise),
                "skipped_moves": dict(self.skipped_moves),
                "skipped_setups": dict(self.skipped_setups),
                "shrinks": [{"replays": s.replays, "seconds": round(s.seconds, 3),
                             "exhausted": s.exhausted} for s in self.shrinks],
                "findings": [f.to_json() for f in self.findings]}


def _one_line(text: str) -> str:
    return " ".join(text.split())[:400]


def _indent(text: str, n: int) -> str:
    pad = " " * n
    return "\n".join(pad + line if line else line for line in text.splitlines())


class DiffSearch:
    """Two engines, one seeded search: the games, the comparisons and the tallies."""

    def __init__(self, game: Game, model: ExplorationModel, a: EngineClient, b: EngineClient,
                 seed: int, labels: tuple[str, str]) -> None:
        self.game, self.model, self.a, self.b, self.seed = game, model, a, b, seed
        self.labels = labels
        self.choices = choices_of(model)
        self.invariants = list(model.invariants())
        self.move_rules, self.answer_rules = move_rules_of(model), answer_rules_of(model)
        #: The rules of each disagreement reported: one sharing a rule with them ends its game.
        self.known: list[set[str]] = []
        self.moves = self.games = self.views = self.games_cut = 0
        self.diverged: Counter[str] = Counter()
        self.skipped_moves: Counter[str] = Counter()
        self.skipped_setups: Counter[str] = Counter()
        #: Refusals both engines made citing other rules, each forbidding it: "X / Y".
        self.cited_otherwise: Counter[str] = Counter()
        self._caps = a.info().capabilities & b.info().capabilities
        self._needs: dict[tuple[str, str], tuple[str, ...]] = {}
        self._probe: ScenarioWorld | None = None
        self._counting = True

    # -- what both engines can play ----------------------------------------------------------

    def lacking(self, kind: str, texts: Sequence[str]) -> list[str]:
        """The capabilities these steps need that one engine or the other does not declare."""
        found: list[str] = []
        for text in texts:
            missing = self._needs.get((kind, text))
            if missing is None:
                if self._probe is None:
                    self._probe = ScenarioWorld(self.game, self.a, self.seed)
                self._probe.cards.forget()  # each text alone: no card variable carries over
                missing = self._needs[kind, text] = tuple(
                    c for c in needs(self._probe, [(kind, text)]) if c not in self._caps)
            found += missing
        return found

    def supported(self, kind: str, text: str) -> bool:
        missing = self._needs.get((kind, text))
        return not (self.lacking(kind, [text]) if missing is None else missing)

    # -- a game ------------------------------------------------------------------------------

    def set_up(self, given: list[str]) -> Duel | None:
        """Both engines set up the same state; None when they cannot both play it."""
        sides: list[Explored | str] = []
        for client in (self.a, self.b):
            try:
                world = _started(self.game, client, self.seed, given)
            except EngineLacks as exc:
                self._count(self.skipped_setups, exc.reason)
                return None
            except (EngineFault, ScenarioError) as exc:
                sides.append(str(exc))
                continue
            sides.append(Explored(world, list(given), supported=self.supported))
        a, b = sides
        if isinstance(a, str) or isinstance(b, str):
            if isinstance(a, str) and isinstance(b, str):
                self._count(self.diverged, "both engines failed to set up a state")
                return None
            failed = self.labels[0] if isinstance(a, str) else self.labels[1]
            message = a if isinstance(a, str) else b
            raise Disagreed(f"{failed} failed to set up the state: {message}",
                            list(given), [], self._setup_rules(), "fault",
                            "a setup: the rules of every invariant")
        b.lines = a.lines  # one game: the same lines on both sides
        b.memo = {}
        if self._counting:
            self.games += 1
        duel = Duel(a, b)
        decks = a.world.state.get("decks") or {}
        duel.orderless = frozenset(deck for deck in self.game.cards if deck not in decks)
        duel.shuffled = bool(duel.orderless)
        return duel

    def _setup_rules(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r for inv in self.invariants for r in inv.rules))

    def move(self, duel: Duel, pick: int) -> bool:
        """Play the move a drawn byte picks; whether the game goes on."""
        if pick == SKIP:
            return True
        self.a.transcript.clear()
        self.b.transcript.clear()
        if duel.a.candidates is None:
            duel.a.candidates = self.model.moves(duel.a)
        text = chosen(pick, duel.a.candidates)
        return True if text is None else self.play(duel, text)

    def play(self, duel: Duel, text: str) -> bool:
        """Play one move on both engines and compare their replies; whether the game goes on
        (the views are compared by ``check``). Raises ``Disagreed``."""
        missing = self._needs.get(("when", text))
        if missing is None:
            missing = tuple(self.lacking("when", [text]))
        if missing:
            self._count(self.skipped_moves, missing[0])
            return True
        duel.a.moving()
        duel.b.moving()
        duel.sent = (len(duel.a.world.history), len(duel.b.world.history))
        first, second = _run(duel.a.world, text), _run(duel.b.world, text)
        lacks = [o.problem[1] for o in (first, second) if o.problem and o.problem[0] == "lacks"]
        if lacks:
            if first.changed or second.changed:
                self._count(self.diverged, "a move only one engine supports")
                return False
            self._count(self.skipped_moves, lacks[0])
            return True
        duel.a.lines.append(f"When {text}")
        rejected = bool(first.entries) and isinstance(first.entries[-1][3], Rejected)
        if rejected:
            duel.a.lines.append(REJECTED_LINE)
        duel.moves += 1
        duel.a.moves = duel.b.moves = duel.moves
        duel.a.last_rejected = rejected
        duel.b.last_rejected = bool(second.entries) and isinstance(second.entries[-1][3],
                                                                   Rejected)
        if self._counting:
            self.moves += 1
        if first.problem or second.problem:
            return self._problem(duel, text, first, second)
        if not replies_agree(reply_signature(first.entries), reply_signature(second.entries)):
            why = self.choices.reply(duel.a.before or {}, text) or \
                self.choices.reply(duel.b.before or {}, text)
            if why:
                self._count(self.diverged, why)
                return False
            apart = self._cited_apart(first.entries, second.entries)
            if apart is None or apart[1] is not None:
                return self._disagree(duel, "reply", text,
                                      _replies_text(self.labels, first, second))
            self._count(self.cited_otherwise, apart[0])
        duel.loosened = None
        if first.changed or second.changed:
            duel.a.candidates = None
            after = duel.a.world.referee_view()
            duel.shuffled = (reshuffled(duel.a.before or {}, after)
                             and reshuffled(duel.b.before or {}, duel.b.world.referee_view())
                             ) or drawn_from(duel.orderless, duel.a.before or {}, after,
                                             duel.b.before or {})
            duel.loosened = self.choices.outcome(duel.a.before or {}, text) or \
                self.choices.outcome(duel.b.before or {}, text)
        else:
            duel.shuffled = False
        return True

    def _cited_apart(self, first: Sequence[tuple[Any, ...]], second: Sequence[tuple[Any, ...]]
                     ) -> tuple[str, str | None] | None:
        """Both engines refused the move's last request (``ScenarioWorld.history`` entries,
        each engine's), each citing another rule, and an engine that can say which rules
        forbid an action (``forbidding``, the bundled ones: the first engine, else the
        second) was asked about the other's rule, in the state both are in: the two rules
        (``first / second``) and, when the other's rule does not forbid it (every check
        asked), that rule (the engine citing it refuses for a rule that allows the move: a
        disagreement); None when they differ otherwise, or no engine can say (a
        disagreement too). A disagreement is charged as any refusal is (the rule the first
        engine cites): whether the engine misapplies the rule it cites, or cites it for
        another's refusal, this state does not tell, and the finding's scenario is the
        first engine's, "rejected, citing" its rule."""
        signed_a, signed_b = reply_signature(first), reply_signature(second)
        index = cited_apart(signed_a, signed_b)
        if index is None or index != len(first) - 1 or index != len(second) - 1:
            return None
        _, kind, action, *_ = first[index]
        request = _request(kind, action)
        rule_a, rule_b = signed_a[index][2], signed_b[index][2]
        for client, other in ((self.a, rule_b), (self.b, rule_a)):
            said = _forbidding(client, request)
            if said is not None:
                rules, complete = said
                if other in rules:
                    return f"{rule_a} / {rule_b}", None
                return (f"{rule_a} / {rule_b}", other) if complete else None
        return None

    def _problem(self, duel: Duel, text: str, first: _Outcome, second: _Outcome) -> bool:
        """A move that failed on one engine or both (a fault, a leaking rejection)."""
        if first.problem and second.problem:
            self._count(self.diverged, "both engines failed a move")
            return False
        label, (kind, message) = ((self.labels[0], first.problem) if first.problem
                                  else (self.labels[1], second.problem))  # type: ignore[misc]
        kind = "leak" if kind == "leak" else "fault"
        return self._disagree(duel, kind, text, f"{label}: {message}")

    def check(self, duel: Duel) -> bool:
        """Compare every viewer's view on both engines; whether the game goes on. After
        every move, a rejected one too: a rejection must change nothing for any viewer (the
        world checks the referee's view, not what a player was shown)."""
        for viewer in self._viewers(duel):
            views = _views(duel, viewer)
            if isinstance(views, str):
                if views.startswith("fault:"):
                    return self._disagree(duel, "fault", None, views.removeprefix("fault:"))
                if views:
                    self._count(self.diverged, views)
                    return False
                continue
            va, vb = views
            if self._counting:
                self.views += 1
            if va == vb:
                continue
            na, nb = normal_view(va, viewer, self.choices), normal_view(vb, viewer, self.choices)
            common(na, nb)
            if na == nb:
                continue
            if duel.orderless and unordered(na, duel.orderless) == unordered(nb, duel.orderless):
                continue  # the decks the setup shuffled, each engine in its own order
            if duel.shuffled and self._dealt_alike(duel) and \
                    duel.a.world.view(REFEREE) != duel.b.world.view(REFEREE):
                self._count(self.diverged, "the engines shuffled differently")
                return False
            if duel.loosened is not None:
                duel.loosened.loosen(na)
                duel.loosened.loosen(nb)
                if na == nb:
                    self._count(self.diverged, duel.loosened.reason)
                    return False
            who = "the referee" if viewer == REFEREE else viewer or "a spectator"
            return self._disagree(duel, "view", None,
                                  f"the view for {who} differs at {difference(na, nb)} "
                                  f"({self.labels[0]} / {self.labels[1]})")
        return True

    def _dealt_alike(self, duel: Duel) -> bool:
        for viewer in self._viewers(duel):
            na = normal_view(duel.a.world.view(viewer), viewer, self.choices)
            nb = normal_view(duel.b.world.view(viewer), viewer, self.choices)
            common(na, nb)
            if dealt(na, viewer) != dealt(nb, viewer):
                return False
        return True

    @staticmethod
    def _viewers(duel: Duel) -> list[str | None]:
        players = duel.a.memo.get("viewers")
        if players is None:
            players = duel.a.memo["viewers"] = [REFEREE, None, *duel.a.players()]
        return players

    def _count(self, counter: Counter[str], reason: str) -> None:
        if self._counting:
            counter[reason] += 1

    # -- a disagreement ----------------------------------------------------------------------

    def _disagree(self, duel: Duel, kind: str, text: str | None, what: str) -> bool:
        rules, why = self.charge(duel, kind, text)
        if any(set(rules) & known for known in self.known):
            if self._counting:
                self.games_cut += 1
            return False
        raise Disagreed(what, duel.a.given, list(duel.a.lines), rules, kind, why)

    def charge(self, duel: Duel, kind: str, text: str | None) -> tuple[tuple[str, ...], str]:
        """The rule(s) a disagreement is charged to, and how they were found (see the
        module's docstring)."""
        move_rule = self._move_rule(duel)
        if kind == "fault":  # one engine failed the move: the rule that states it
            if move_rule:
                return (move_rule,), "the rule that states the move"
            return self._setup_rules(), "a setup or a look: every invariant's rules"
        forbade = self._first_forbade(duel) if kind == "reply" else None
        diagnosed = self._diagnosed(duel)
        if forbade is not None:
            cited, forbidding = forbade
            if not diagnosed or (forbidding is not None and diagnosed not in forbidding):
                return (cited,), ("the rule the first engine's refusal cites (the second "
                                  "allowed the move)")
        if kind == "reply":  # last: its replays set both engines up anew
            sized = self._size_refused(duel)
            if sized:
                return (sized,), ("a refusal the hand's size explains (the same game with "
                                  "fewer cards in hand is accepted)")
        if diagnosed:
            return (diagnosed,), "a diagnostic one engine's move fails"
        if kind in ("reply", "leak"):
            cited = self._cited(duel)
            if cited:
                return (cited[1],), f"the rule {cited[0]} rejection cites"
            if kind == "leak":
                owner = next((i for i in self.invariants if i.catches_violations), None)
                if owner is not None:
                    return owner.rules, f"the invariant '{owner.name}'"
        if kind == "view":
            concept = self._concept_apart(duel)
            if concept:
                return (concept[1],), f"a Then step about a fact of its rule ({concept[0]})"
            apart = self._invariants_apart(duel)
            if apart:
                return self._narrowed(apart, move_rule)
        if move_rule:
            return (move_rule,), "the rule that states the move"
        return self._setup_rules(), "no rule tells them apart: every invariant's"

    def _move_rule(self, duel: Duel) -> str | None:
        """The rule that states the last move's first request (action type, or the decision
        an answer answers), from the first engine's history."""
        entries = duel.a.world.history[duel.sent[0]:] if duel.moves else []
        if not entries:
            return None
        _, kind, action, _, before, _ = entries[0]
        if kind == "choose":
            player = action.get("player")
            decision = next((p.get("decision") for p in before.get("pending") or []
                             if p.get("player") == player), None)
            return self.answer_rules.get(decision or "")
        return self.move_rules.get(kind)

    def _first_forbade(self, duel: Duel) -> tuple[str, set[str] | None] | None:
        """When the first engine refused a request of the last move that the second
        accepted: the catalog rule its rejection cites, and every rule that forbids the
        request (the first engine's ``forbidding``, all its checks asked; None when it cannot
        say). The first engine's behaviour is what the rules say (its Then lines are the
        finding's), so the second broke a rule that forbids the move: a diagnostic judging
        what the second's acceptance then did is charged only if its rule is one of those
        (a second copy of a Display Card allowed is 6.2.display.9's slip, not placing's),
        else the rule cited."""
        found = refused(duel.a.world.history[duel.sent[0]:],
                        duel.b.world.history[duel.sent[1]:])
        if found is None or found.side != 0:
            return None
        entries = duel.a.world.history[duel.sent[0]:]
        _, kind, action, reply, *_ = entries[found.index]
        rule = reply.rule.partition("#")[0] if reply.rule else ""
        if rule not in self.game.catalog.ids():
            return None
        said = None
        if found.index == len(entries) - 1:  # the first engine is as it was before it
            said = _forbidding(self.a, _request(kind, action))
        if said is None or not said[1]:
            return rule, None
        return rule, {f"{self.game.id}:{r}" if ":" not in r else r for r in said[0]}

    def _size_refused(self, duel: Duel) -> str | None:
        """The rule the game maps ``OVER_LIMIT`` to, when one engine refused the last move
        while its player held more cards than the hand limit, the other accepted it, and the
        same game with that player holding no more than the limit (cards taken out of their
        Given hand, or draws left out: ``oracle.explore.refusals``) has both accept it, every
        move agreeing. Plays the game again on both engines: call it last."""
        rule = self.game.concept_rule(OVER_LIMIT)
        if rule is None or not duel.moves:
            return None
        found = refused(duel.a.world.history[duel.sent[0]:],
                        duel.b.world.history[duel.sent[1]:])
        if found is None or found.player is None or found.held is None \
                or found.limit is None or found.held <= found.limit:
            return None
        moves = [line.removeprefix("When ") for line in duel.a.lines
                 if line.startswith("When ")]
        for given, fewer_moves in smaller_hands(duel.a.given, moves, found.player,
                                                found.held - found.limit):
            accepted = self._accepted_with(given, fewer_moves, found)
            if accepted is not None:
                return rule if accepted else None
        return None

    def _accepted_with(self, given: list[str], moves: list[str], found: Refused
                       ) -> bool | None:
        """The game played again on both engines: whether the request one refused is
        accepted by both now its player holds no more than the limit (what follows it in
        the move may differ: another player's hand may be over the limit too); None when
        the game says nothing of it (it does not reach the move as before, or the hand is
        still over)."""
        games: list[list[_Outcome]] = []
        for client in (self.a, self.b):
            try:
                world = _started(self.game, client, self.seed, given)
                games.append([_run(world, text) for text in moves])
            except _FAILURES:
                return None
        for first, second in zip(games[0][:-1], games[1][:-1], strict=True):
            if first.problem or second.problem or not replies_agree(
                    reply_signature(first.entries), reply_signature(second.entries)):
                return None
        mine, theirs = games[found.side][-1], games[1 - found.side][-1]
        if mine.problem or theirs.problem or len(mine.entries) <= found.index \
                or len(theirs.entries) <= found.index \
                or isinstance(theirs.entries[found.index][3], Rejected):
            return None
        hand = mine.entries[found.index][4]["players"][found.player]["hand"]
        if not isinstance(hand.get("count"), int) or hand["count"] > (found.limit or 0):
            return None
        return not isinstance(mine.entries[found.index][3], Rejected)

    def _cited(self, duel: Duel) -> tuple[str, str] | None:
        """(whose, the rule) a rejection of the last move cites: the first engine's, else
        the second's."""
        ids = set(self.game.catalog.ids())
        for label, explored, start in ((self.labels[0], duel.a, duel.sent[0]),
                                       (self.labels[1], duel.b, duel.sent[1])):
            for entry in explored.world.history[start:]:
                reply = entry[3]
                if isinstance(reply, Rejected) and reply.rule:
                    rule = reply.rule.partition("#")[0]
                    if rule in ids:
                        return f"{label}'s", rule
        return None

    def _diagnosed(self, duel: Duel) -> str | None:
        """The rule of the first game diagnostic (in the order a scenario's failure is
        diagnosed: the move's requests in order, the game's diagnostics in order) that one
        engine's last move fails and the other's passes. Right after the setup, the
        diagnostics that judge any action judge the setup as one that changed nothing (a
        new game's hands, a pile as it was set up, a hand over its limit)."""
        failed: list[dict[tuple[int, int], str]] = []
        for explored, start in ((duel.a, duel.sent[0]), (duel.b, duel.sent[1])):
            found: dict[tuple[int, int], str] = {}
            try:
                if duel.moves:
                    history = explored.world.transitions()
                else:
                    view = explored.world.referee_view()
                    history, start = [Transition("the setup", "setup", {}, True, view, view,
                                                 explored.world.state)], 0
            except _FAILURES:
                return None
            for i in range(start, len(history)):
                for d, diagnostic in enumerate(self.game.diagnostic_checks):
                    if not diagnostic.judges(history[i]):
                        continue
                    try:
                        problem = diagnostic.check(history, i)
                    except (KeyError, TypeError, ValueError, IndexError):
                        continue
                    rule = self.game.concept_rule(diagnostic.concept) if problem else None
                    if rule:
                        found[i - start, d] = rule
            failed.append(found)
        apart = sorted(set(failed[0]).symmetric_difference(failed[1]))
        return (failed[0].get(apart[0]) or failed[1][apart[0]]) if apart else None

    def _concept_apart(self, duel: Duel) -> tuple[str, str] | None:
        """The first Then line (of the invariants', as the first engine shows it) that passes
        there and fails on the second engine checking a fact another rule states (its
        concept, mapped to a rule by the game: a hand's size is public, revealed cards are
        seen, ...): (the concept, its rule)."""
        for inv in self.invariants:
            for line in _then_lines(inv, duel.a):
                failure = _failure(duel.b.world, line)
                concept = getattr(failure, "concept", None)
                rule = self.game.concept_rule(concept) if concept else None
                if rule and not _fails(duel.a.world, line):
                    return concept, rule
        return None

    def _invariants_apart(self, duel: Duel) -> list[Invariant]:
        """The invariants one engine breaks and the other keeps here; else those whose Then
        lines, as the first engine shows them, fail on the second."""
        broken = []
        for inv in self.invariants:
            verdicts = [_verdict(inv, duel.a), _verdict(inv, duel.b)]
            if (verdicts[0] is False) != (verdicts[1] is False):
                broken.append(inv)
        if broken:
            return broken
        return [inv for inv in self.invariants if any(
            _fails(duel.b.world, line) and not _fails(duel.a.world, line)
            for line in _then_lines(inv, duel.a))]

    def _narrowed(self, invariants: list[Invariant], move_rule: str | None
                  ) -> tuple[tuple[str, ...], str]:
        rules = tuple(dict.fromkeys(r for inv in invariants for r in inv.rules))
        names = ", ".join(f"'{inv.name}'" for inv in invariants)
        if move_rule in rules and len(rules) > 1:
            return (move_rule,), f"the invariant(s) {names}, at the rule that states the move"
        return rules, f"the invariant(s) {names}"

    # -- the search --------------------------------------------------------------------------

    def replay(self, given: Sequence[str], moves: Sequence[str]) -> Disagreed | None:
        """Play a game again on both engines by its texts: the disagreement it shows (even on
        a rule already reported), or None. Nothing is counted."""
        self._counting, known, self.known = False, self.known, []
        try:
            duel = self.set_up(list(given))
            if duel is None or not self.check(duel):
                return None
            for text in moves:
                if duel.a.candidates is None:
                    duel.a.candidates = self.model.moves(duel.a)
                if text not in duel.a.candidates:
                    return None
                played = duel.moves
                if not self.play(duel, text):
                    return None
                if duel.moves > played and not self.check(duel):
                    return None
        except Disagreed as found:
            return found
        finally:
            self._counting, self.known = True, known
        return None


def _started(game: Game, client: EngineClient, seed_: int, given: Sequence[str]
             ) -> ScenarioWorld:
    """A game set up on one engine from its Given texts (raises what a step raises)."""
    world = ScenarioWorld(game, client, seed_)
    for text in given:
        run_step(world, "given", text)
    world.start()
    return world


def _run(world: ScenarioWorld, text: str) -> _Outcome:
    """One engine takes a move (a When step); its requests, replies and any failure."""
    sent = len(world.history)
    problem: tuple[str, str] | None = None
    try:
        run_step(world, "when", text)
    except EngineLacks as exc:
        problem = ("lacks", exc.reason)
    except RuleViolation as exc:
        leaked = len(world.history) > sent and world.history[-1][5] is not None and \
            world.history[-1][5] != world.history[-1][4]
        problem = ("leak" if leaked else "violation", str(exc))
    except (EngineFault, ScenarioError) as exc:
        problem = ("fault", str(exc))
    entries = world.history[sent:]
    if entries and isinstance(entries[-1][3], Rejected):
        world.expect_rejected()
    return _Outcome(entries, problem, any(not isinstance(e[3], Rejected) for e in entries))


def _request(kind: str, action: Any) -> dict[str, Any]:
    """The protocol request a history entry of ``kind`` (``choose`` or an act's type) sent."""
    return (Choose(action["player"], action["choose"]) if kind == "choose"
            else Act(action)).to_json()


def _forbidding(client: EngineClient, request: dict[str, Any]
                ) -> tuple[set[str], bool] | None:
    """The rules (ids, no sentence) an in-process engine's checks each refuse an act or
    choose request for in its game as it is, and whether every check was asked
    (``ProtocolEngine.forbidding``); None when the engine cannot say (it runs in another
    process, or has no such method)."""
    engine: Any = client.engine
    while not hasattr(engine, "forbidding") and hasattr(engine, "engine"):
        engine = engine.engine  # a guarded engine holds the engine inside
    forbidding = getattr(engine, "forbidding", None)
    if not callable(forbidding):
        return None
    found, complete = forbidding(request)
    return {r.rule.partition("#")[0] for r in found if r.rule}, complete


def _views(duel: Duel, viewer: str | None) -> tuple[Any, Any] | str:
    """Both engines' views for one viewer; or why not: "" (neither shows this viewer
    anything: nothing to compare), a reason to end the game (one engine does not show
    it), or "fault:" and what failed on one engine."""
    got: list[Any] = []
    for explored in (duel.a, duel.b):
        try:
            got.append(explored.world.view(viewer))
        except EngineLacks as exc:
            got.append(exc)
        except (EngineFault, ScenarioError) as exc:
            got.append(exc)
    a, b = got
    if not isinstance(a, Exception) and not isinstance(b, Exception):
        return a, b
    if isinstance(a, Exception) and isinstance(b, Exception):
        return ""
    failed, which = (a, "the first") if isinstance(a, Exception) else (b, "the second")
    if isinstance(failed, EngineLacks):
        return "a viewer only one engine shows"
    return f"fault:observe as {viewer!r} failed on {which} engine: {failed}"


def _replies_text(labels: tuple[str, str], first: _Outcome, second: _Outcome) -> str:
    return f"{labels[0]} {_said(first)}; {labels[1]} {_said(second)}"


def _said(outcome: _Outcome) -> str:
    parts = []
    for _, kind, _, reply, _, _ in outcome.entries:
        if isinstance(reply, Rejected):
            rule = f" citing {reply.rule}" if reply.rule else ""
            parts.append(f"rejected {kind}{rule} ({reply.reason})")
        else:
            parts.append(f"{type(reply).__name__.lower()} {kind}")
    return ", ".join(parts) or "sent nothing"


def _verdict(inv: Invariant, explored: Explored) -> bool | None:
    """True: the invariant holds here; False: it is broken; None: not exercised or unreadable."""
    try:
        found = inv.check(explored)
    except RuleViolation:
        return False
    except _UNREADABLE:
        return None
    if found is None:
        return None
    return found is HELD or not isinstance(found, str)


def _then_lines(inv: Invariant, explored: Explored) -> list[str]:
    try:
        return list(inv.then(explored, explored.world))
    except _UNREADABLE:
        return []


def _shown(model: ExplorationModel, explored: Explored) -> list[str]:
    """The model's ``shows`` lines (what the state is, beyond its invariants' Then lines: the
    referee's hands, a board), for a finding's scenario only: they charge nothing."""
    shows = getattr(model, "shows", None)
    if shows is None:
        return []
    try:
        return list(shows(explored))
    except _UNREADABLE:
        return []


def _fails(world: ScenarioWorld, then: str) -> bool:
    return _failure(world, then) is not None


def _failure(world: ScenarioWorld, then: str) -> Exception | None:
    """How a Then line fails on a world, or None when it holds (or cannot be read)."""
    try:
        run_step(world, "then", then)
    except (RuleViolation, EngineFault) as exc:
        return exc
    except _UNREADABLE:
        return None
    return None


# -- running it ----------------------------------------------------------------------------------


def compare(game: Game, model: ExplorationModel, first: EngineClient, second: EngineClient,
            seed_: int, budget: settings, labels: tuple[str, str],
            shrink_budget: ShrinkBudget = DEFAULT_SHRINK,
            source: str = "", max_findings: int = 20,
            progress: Callable[[str], None] | None = None) -> DiffResult:
    """Play the same seeded games on two engines; each rule's first disagreement, shrunk and
    written as a pending ruling. ``budget.max_examples`` games per search (a search runs
    again, on the same games, without the rules already charged)."""
    search = DiffSearch(game, model, first, second, seed_, labels)
    findings: list[DiffFinding] = []
    shrinks: list[Shrunk] = []
    found_by = settings(budget, phases=[p for p in budget.phases
                                        if p not in (Phase.shrink, Phase.explain)])
    start = time.perf_counter()
    with private_hypothesis_home(), fewer_collections():
        while len(findings) < max_findings:
            slip = _search_once(search, found_by, seed_)
            if slip is None:
                break
            if progress:
                progress(f"{game.id}: {', '.join(slip.rules)}: {slip.message}")
            if Phase.shrink in budget.phases and not shrink_budget.off:
                slip = _shrunk(search, slip, shrink_budget, shrinks)
            findings.append(render(search, slip, source))
            search.known.append(set(slip.rules))
    return DiffResult(game, labels, seed_, findings, search.moves, search.games,
                      time.perf_counter() - start, search.views, search.diverged,
                      search.skipped_moves, search.skipped_setups, search.games_cut, shrinks,
                      search.cited_otherwise)


def _search_once(search: DiffSearch, budget: settings, seed_: int) -> Disagreed | None:
    """One search. Derandomised (the "ci" profile), the seed picks the games too; the "dev"
    profile draws new games each run, as it does for ``oracle.explore.explore``."""
    test = settings(budget)(game_test(search, budget.stateful_step_count))
    if budget.derandomize:
        test = seed(seed_)(test)
    try:
        test()
    except Disagreed as found:
        return found
    except BaseExceptionGroup as group:
        found, rest = group.split(Disagreed)
        if rest is not None or found is None:
            raise
        first = found.exceptions[0]
        while isinstance(first, BaseExceptionGroup):
            first = first.exceptions[0]
        return first  # type: ignore[return-value]
    return None


def _shrunk(search: DiffSearch, slip: Disagreed, budget: ShrinkBudget,
            shrinks: list[Shrunk]) -> Disagreed:
    last: list[Disagreed] = []

    def attempt(given: list[str], moves: list[str]) -> list[str] | None:
        again = search.replay(given, moves)
        if again is None or again.rules != slip.rules:
            return None
        last[:] = [again]
        return [line.removeprefix("When ") for line in again.lines if line.startswith("When ")]

    shrinks.append(shrink(slip.given, [line.removeprefix("When ") for line in slip.lines
                                       if line.startswith("When ")], attempt, budget))
    return last[0] if last else slip


# -- a disagreement as a pending ruling -----------------------------------------------------------


def _replayed(search: DiffSearch, client: EngineClient, slip: Disagreed
              ) -> tuple[Explored, _Outcome | None]:
    """The slip's game again on one engine, fresh: its explored game and its last move."""
    world = _started(search.game, client, search.seed, slip.given)
    explored = Explored(world, list(slip.given), supported=search.supported)
    last = None
    for line in slip.lines:
        if line.startswith("When "):
            explored.moving()
            last = _run(world, line.removeprefix("When "))
            explored.lines.append(line)
            explored.moves += 1
            if last.entries and isinstance(last.entries[-1][3], Rejected):
                explored.lines.append(REJECTED_LINE)
    return explored, last


def render(search: DiffSearch, slip: Disagreed, source: str = "") -> DiffFinding:
    """The disagreement as a pending ruling: the Then lines the first engine passes and the
    second fails, and what the second shows instead, as comments."""
    first_label, second_label = search.labels
    lines = list(slip.lines)
    then: list[str] = []
    theirs: list[str] = []
    confirmed = False
    try:
        a, last_a = _replayed(search, search.a, slip)
        b, last_b = _replayed(search, search.b, slip)
        lines = list(a.lines)
        if slip.kind == "reply" and last_a is not None:
            reply = last_a.entries[-1][3] if last_a.entries else None
            if isinstance(reply, Rejected):
                lines = lines[:-1] if lines[-1:] == [REJECTED_LINE] else lines
                cited = reply.rule.partition("#")[0] if reply.rule else ""
                then.append(f"the action is rejected, citing {cited}"
                            if cited in search.game.catalog.ids() else "the action is rejected")
            else:
                then.append("the action is allowed")
        mine = list(dict.fromkeys([*(t for inv in search.invariants for t in _then_lines(inv, a)),
                                   *_shown(search.model, a)]))
        other = list(dict.fromkeys([*(t for inv in search.invariants for t in _then_lines(inv, b)),
                                    *_shown(search.model, b)]))
        then += [t for t in mine if t not in then and _fails(b.world, t)
                 and not _fails(a.world, t)]
        theirs = [t for t in other if t not in mine]
        if slip.kind == "reply" and last_b is not None:
            theirs.insert(0, f"the engine: {_said(last_b)}")
        # Confirmed: every Then line passes on the first engine afresh, and one fails on the
        # second.
        again, _ = _replayed(search, search.a, slip)
        again_b, _ = _replayed(search, search.b, slip)
        confirmed = bool(then) and not any(_fails(again.world, t) for t in then) and any(
            _fails(again_b.world, t) for t in then)
    except _FAILURES as exc:
        theirs = [f"could not replay the game: {exc}"]
    if not then:
        theirs.append(f"no Then step of the game's model tells them apart: {slip.message}")
    name = (f"Explored: {first_label} and {second_label} disagree on {slip.rules[0]} "
            f"(seed {search.seed}, {sum(1 for x in lines if x.startswith('When '))} move(s))")
    comments = [f"# {first_label} shows the Then lines above; {second_label} shows instead:"]
    comments += [f"#   {t}" for t in theirs]
    # A ruling refines one rule (docs/rulings.md): the first charged; it cites them all.
    body = scenario(slip.rules[:1], name, slip.given, lines, then, search.seed,
                    cites=rule_sentences(search.game, slip.rules))
    text = _as_ruling(body, slip, source, search) + "\n" + "\n".join(
        "    " + c for c in comments)
    return DiffFinding(slip.rules, slip.kind, slip.message, slip.why, text, confirmed,
                       list(slip.given), lines, then, theirs)


def _as_ruling(body: str, slip: Disagreed, source: str, search: DiffSearch) -> str:
    """A ``Rule:`` block holding the scenario as a pending ruling (docs/rulings.md)."""
    tags, _, rest = body.partition("\n")
    number = len(search.known) + 1
    first, second = search.labels
    head = [tags, f"Rule: {first} and {second} disagree on {slip.rules[0]}",
            f"  Ruling: explored-{number}",
            f"  Source: {source or 'rules-oracle explore'}",
            f"  Date: {datetime.date.today().isoformat()}",
            "  Authority: rules-oracle differential exploration (a candidate; the committee "
            "decides)",
            "  Status: pending",
            f"  # {_one_line(slip.message)}",
            f"  # charged to {', '.join(slip.rules)} by {slip.why}", ""]
    return "\n".join(head) + "\n" + _indent(rest, 2)
