"""The game-agnostic vocabulary: players, decks, hands, windows, drawing, playing, looking.

Every step here works for any game whose state uses the shared protocol
shapes (players with hands, decks with draw and discard piles). pytest-bdd 9
tries each step text against every definition, so the vocabulary is a few
parametrised steps rather than many near-copies; the phrases inside them
(card lists, pile descriptions) are parsed by ``oracle.suite.dsl``.
"""

from __future__ import annotations

import importlib
from typing import Any

from pytest_bdd import given, parsers, then, when

from oracle.protocol import REFEREE, Rejected
from oracle.scenario.outcomes import RuleViolation, ScenarioError
from oracle.scenario.world import ScenarioWorld, check_pile
from oracle.suite.dsl import describe_cards, parse_cards, parse_count, parse_names, parse_pile

NAME = r"[A-Z][\w'-]*"
VIEWER = rf"{NAME}|a spectator"


def _game_targets(world: ScenarioWorld, text: str | None) -> dict[str, Any]:
    """A game's own reading of 'targeting ...' (its steps module's ``parse_target``)."""
    if not text:
        return {}
    module = importlib.import_module(world.game.steps) if world.game.steps else None
    parse_target = getattr(module, "parse_target", None)
    if parse_target is None:
        raise ScenarioError(f"{world.game.id} defines no targets; cannot read {text!r}")
    return parse_target(world, text)


# -- Given ---------------------------------------------------------------------------


@given(parsers.re(r"the players are (?P<names>.+)"))
def _players(oracle_world: ScenarioWorld, names: str) -> None:
    """Players in seat (clockwise) order."""
    oracle_world.add_players(parse_names(names))


@given(parsers.re(r"the shuffle seed is (?P<seed>\d+)"))
def _seed(oracle_world: ScenarioWorld, seed: str) -> None:
    oracle_world.given()
    oracle_world.seed = int(seed)


@given(parsers.re(rf"(?P<player>{NAME}) holds (?P<pile>.+)"))
def _hand(oracle_world: ScenarioWorld, player: str, pile: str) -> None:
    """A hand: named cards, or 'N cards' that nobody mentions elsewhere."""
    spec = parse_pile(pile)
    deck = next(iter(oracle_world.game.cards), "action")
    oracle_world.player(player)["hand"] = oracle_world.cards_for(deck, spec)


@given(parsers.re(r"the (?P<deck>\w+) (?P<which>deck|discard pile) is (?P<pile>.+)"))
def _pile(oracle_world: ScenarioWorld, deck: str, which: str, pile: str) -> None:
    """A draw pile or discard pile, top first."""
    spec = parse_pile(pile)
    key = "draw" if which == "deck" else "discard"
    oracle_world.deck(deck)[key] = oracle_world.cards_for(deck, spec)


@given(parsers.re(rf"it is the (?P<phase>\w+) phase(?:, (?P<player>{NAME})'s turn)?"))
def _phase(oracle_world: ScenarioWorld, phase: str, player: str | None) -> None:
    state = oracle_world.given()
    state["phase"] = phase
    if player:
        oracle_world.player(player)
        state["active_player"] = player
        state.setdefault("window", "Action")


@given(parsers.re(r'the timing window "(?P<window>[^"]+)" is open'))
def _window_open(oracle_world: ScenarioWorld, window: str) -> None:
    oracle_world.given()["window"] = window


# -- When ----------------------------------------------------------------------------


@when(parsers.re(r'the timing window "(?P<window>[^"]+)" opens'))
def _window_opens(oracle_world: ScenarioWorld, window: str) -> None:
    oracle_world.require(f"{oracle_world.game.id}/windows")
    oracle_world.act(f'the timing window "{window}" opens', {"type": "window", "window": window})


@when(parsers.re(rf"(?P<player>{NAME}) draws (?P<count>\w+) (?P<deck>\w+) cards?"))
def _draw(oracle_world: ScenarioWorld, player: str, count: str, deck: str) -> None:
    oracle_world.require(f"{oracle_world.game.id}/draw")
    n = parse_count(count)
    oracle_world.act(f"{player} draws {n} {deck} card(s)",
                     {"type": "draw", "player": player, "deck": deck, "count": n})


@when(parsers.re(
    rf'(?P<player>{NAME}) (?P<verb>plays|starts playing) "(?P<card>[^"]+)"'
    r"(?: (?P<how>targeting|choosing) (?P<target>.+?))?"
    rf'(?: and (?P<canceller>{NAME}) cancels it with "(?P<cancel>[^"]+)")?'
))
def _play(oracle_world: ScenarioWorld, player: str, verb: str, card: str, how: str | None,
          target: str | None, canceller: str | None, cancel: str | None) -> None:
    """Play a card; 'plays' lets every player pass afterwards, 'starts playing' leaves
    the card being played so that others can react. 'choosing' reads like 'targeting'
    (both go to the game's ``parse_target``), for choices that are not targets."""
    oracle_world.require(f"{oracle_world.game.id}/play")
    text = f'{player} plays "{card}"' + (f" {how} {target}" if target else "")
    action: dict[str, Any] = {"type": "play", "player": player, "card": card}
    targets = _game_targets(oracle_world, target)
    if targets:
        action["targets"] = targets
    play_and_pass(oracle_world, text, action, name=card, leave_open=verb == "starts playing",
                  canceller=canceller, cancel=cancel)


def play_and_pass(world: ScenarioWorld, text: str, action: dict[str, Any], *, name: str,
                  leave_open: bool = False, canceller: str | None = None,
                  cancel: str | None = None) -> None:
    """Send something that is *being played* until everyone passes (a card, or a game's own
    action such as using an ability), let one player cancel it with a card, then pass.

    Shared so that a game's own play-like steps answer, cancel and resolve exactly like
    ``plays``: the cancelling card targets ``{"card": name}``, the name being played.
    """
    if isinstance(world.act(text, action), Rejected) or leave_open:
        return
    if canceller and cancel:
        world.require(f"{world.game.id}/card/{cancel}")
        reply = world.act(
            f'{canceller} cancels "{name}" with "{cancel}"',
            {"type": "play", "player": canceller, "card": cancel, "targets": {"card": name}},
        )
        if isinstance(reply, Rejected):
            return
    world.act("all players pass", {"type": "resolve"})


@when("all players pass")
def _resolve(oracle_world: ScenarioWorld) -> None:
    oracle_world.act("all players pass", {"type": "resolve"})


@when(parsers.re(rf"(?P<player>{NAME}) reveals (?P<cards>.+)"))
def _reveal(oracle_world: ScenarioWorld, player: str, cards: str) -> None:
    oracle_world.require(f"{oracle_world.game.id}/reveal")
    names = parse_cards(cards)
    oracle_world.act(f"{player} reveals {describe_cards(names)}",
                     {"type": "reveal", "player": player, "cards": names})


@when(parsers.re(rf"(?P<player>{NAME}) (?P<verb>keeps|discards) (?P<cards>.+)"))
def _choose(oracle_world: ScenarioWorld, player: str, verb: str, cards: str) -> None:
    """Answer a pending decision. 'keeps 7 cards' keeps any 7 (the first the player sees)."""
    spec = parse_pile(cards)
    names = list(spec.cards)
    if spec.hidden or spec.others:
        _, seen = oracle_world.hand(player, player)
        rest = list(seen or [])
        for n in names:
            if n in rest:
                rest.remove(n)
        names += rest[: spec.hidden + spec.others]
    kind = "keep" if verb == "keeps" else "discard"
    oracle_world.choose(f"{player} {verb} {describe_cards(names)}", player, {kind: names})


@when(parsers.re(rf"(?P<player>{NAME}) ends (?:her|his|their) turn"))
def _end_turn(oracle_world: ScenarioWorld, player: str) -> None:
    oracle_world.act(f"{player} ends their turn", {"type": "end_turn", "player": player})


# -- Then ----------------------------------------------------------------------------


@then(parsers.re(rf"(?P<owner>{NAME}) holds (?P<pile>.+?)(?: as seen by (?P<viewer>{VIEWER}))?"))
def _hand_is(oracle_world: ScenarioWorld, owner: str, pile: str, viewer: str | None) -> None:
    """A hand as one viewer sees it: its size is public, its cards are the owner's."""
    who: str | None = owner if viewer is None else (None if viewer == "a spectator" else viewer)
    count, cards = oracle_world.hand(owner, who)
    seen_by = "" if viewer is None else f" as seen by {viewer}"
    check_pile(f"{owner}'s hand{seen_by}", parse_pile(pile), count, cards, hand=True)


@then(parsers.re(
    r"the (?P<deck>\w+) (?P<which>deck|discard pile) is (?P<pile>.+?)"
    rf"(?: as seen by (?P<viewer>{VIEWER}))?"
))
def _pile_is(oracle_world: ScenarioWorld, deck: str, which: str, pile: str,
             viewer: str | None) -> None:
    """A pile as the referee sees it, or as one viewer does (a discard pile is public)."""
    who: str | None = REFEREE if viewer is None else (None if viewer == "a spectator" else viewer)
    count, cards = oracle_world.pile(deck, "draw" if which == "deck" else "discard", who)
    seen_by = "" if viewer is None else f" as seen by {viewer}"
    check_pile(f"the {deck} {which}{seen_by}", parse_pile(pile), count, cards, hand=False)


@then("the action is rejected")
def _rejected(oracle_world: ScenarioWorld) -> None:
    oracle_world.expect_rejected()


@then(parsers.re(
    rf"(?:(?P<player>{NAME}) must (?P<decision>keep|discard) (?P<count>\w+) cards?"
    r"|(?P<none>no decision is pending))"
))
def _pending(oracle_world: ScenarioWorld, player: str | None, decision: str | None,
             count: str | None, none: str | None) -> None:
    """The decision the engine waits for (hand limit keep, discard for an ability)."""
    pending = oracle_world.pending()
    if none:
        if pending:
            raise RuleViolation(f"the engine is waiting for a decision: {pending}")
        return
    want = {"player": player, "decision": decision, "count": parse_count(count or "0")}
    if not any({k: p.get(k) for k in want} == want for p in pending):
        raise RuleViolation(
            f"expected {player} to have to {decision} {want['count']} card(s); the engine is "
            f"waiting for {pending or 'nothing'}"
        )
