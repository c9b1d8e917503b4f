"""The game-agnostic vocabulary: players, decks, hands, windows, drawing, playing, looking.

Every step here works for any game whose state uses the shared protocol shapes (players
with hands, decks with draw and discard piles). pytest-bdd 9 tries each step text against
every definition, so the vocabulary is a few parametrised steps rather than many
near-copies; the phrases inside them (card lists, pile descriptions, card variables) are
parsed by ``oracle.suite.dsl``. Each step declares with ``@requires`` what it needs of an
engine, so a scenario is found ``unsupported`` before anything is sent.

Checks about what *another viewer* sees are compared with the referee's view first, and
charged to the concept they are about (``hand-size-public``, ``hand-hidden``,
``hand-revealed``, ``pile-public``): a game maps each to the rule that states it.
"""

from __future__ import annotations

import importlib
from typing import Any

from oracle.protocol import REFEREE, Rejected
from oracle.scenario.outcomes import EngineLacks, RuleViolation, ScenarioError
from oracle.scenario.requirements import plays, requires
from oracle.scenario.world import ScenarioWorld, check_pile
from oracle.suite.arguments import Argument, takes
from oracle.suite.dsl import (
    CardRef,
    Pile,
    describe_cards,
    parse_cards,
    parse_count,
    parse_names,
    parse_pile,
)
from oracle.suite.stepdefs import given, parsers, then, when

NAME = r"[A-Z][\w'-]*"
VIEWER = rf"{NAME}|a spectator"
#: A card in a step: a quoted name, or a card variable bound by 'Given card A is ...'.
CARD = r'(?:"[^"]+"|card [A-Z])'


def card_word(text: str) -> Any:
    """``"Sabotage"`` -> ``"Sabotage"``; ``card A`` -> ``CardRef("A")``."""
    return parse_cards(text)[0]


def _bind_needs(world: ScenarioWorld, ref: str, spec: str, **_: Any) -> list[str]:
    """A card variable some step plays needs its card modelled; one only held, nothing."""
    card = world.cards.bind(ref, spec)
    return [f"{world.game.id}/card/{card}"] if world.cards.plays(ref) else []


def _game_targets(world: ScenarioWorld, text: str | None) -> dict[str, Any]:
    """A game's own reading of 'targeting ...' (its steps module's ``parse_target``)."""
    if not text:
        return {}
    module = importlib.import_module(world.game.steps) if world.game.steps else None
    parse_target = getattr(module, "parse_target", None)
    if parse_target is None:
        raise ScenarioError(f"{world.game.id} defines no targets; cannot read {text!r}")
    return parse_target(world, text)


def _next_player(world: ScenarioWorld, player: str) -> str:
    names = [p["name"] for p in world.state["players"]]
    if player not in names or len(names) < 2:
        raise ScenarioError(f"a card's recipe needs another player besides {player}")
    return names[(names.index(player) + 1) % len(names)]


# -- Given ---------------------------------------------------------------------------


#: Russian phrasings of these steps (``# language: ru``; oracle.suite.phrasings): a pattern
#: a step matches whole, and the English step it stands for. Names stay as written.
PHRASES = {"ru": [
    (r"игроки: (?P<names>.+)", "the players are {names}"),
    (r"сид перемешивания (?P<seed>\d+)", "the shuffle seed is {seed}"),
    (r'карта (?P<ref>[A-Z]) — любая (?P<other>друг\w+ )?карта(?: (?P<cls>"[^"]+"))?',
     "card {ref} is any {other}{cls} card"),
    (rf"(?P<player>{NAME}) может сыграть карту (?P<ref>[A-Z])", "{player} can play card {ref}"),
    (rf'(?P<player>{NAME}) играет (?P<card>карту [A-Z]|"[^"]+")', "{player} plays {card}"),
    (rf"(?P<player>{NAME}) может сыграть карту (?P<ref>[A-Z]) против (?P<aim>{NAME})",
     "{player} can play card {ref} at {aim}"),
    (rf"(?P<player>{NAME}) играет карту (?P<ref>[A-Z]) против (?P<aim>{NAME})",
     "{player} plays card {ref} at {aim}"),
    *((rf'(?P<player>{NAME}) {verb} (?P<card>карту [A-Z]|"[^"]+") против '
       r'(?P<target>карты [A-Z]|"[^"]+")', f"{{player}} {english} {{card}} targeting {{target}}")
      for verb, english in (("играет", "plays"), ("начинает играть", "starts playing"))),
    (rf'(?P<player>{NAME}) начинает играть (?P<card>карту [A-Z]|"[^"]+")',
     "{player} starts playing {card}"),
    *((rf'(?P<player>{NAME}) {verb} (?P<card>карту [A-Z]|"[^"]+"), а (?P<canceller>{NAME}) '
       r'отменяет её картой (?P<cancel>"[^"]+")',
       f"{{player}} {english} {{card}} and {{canceller}} cancels it with {{cancel}}")
      for verb, english in (("играет", "plays"), ("начинает играть", "starts playing"))),
    (r"эффект карты (?P<ref>[A-Z]) произошёл", "the effect of card {ref} has happened"),
    (r"эффект карты (?P<ref>[A-Z]) не произошёл", "the effect of card {ref} has not happened"),
    (rf"у (?P<owner>{NAME}) на руке (?P<pile>.+?) с точки зрения (?P<viewer>{NAME}|зрителя)",
     "{owner} holds {pile} as seen by {viewer}"),
    (rf"у (?P<player>{NAME}) на руке (?P<pile>.+)", "{player} holds {pile}"),
    (rf"идёт фаза (?P<phase>\w+), ход (?P<player>{NAME})",
     "it is the {phase} phase, {player}'s turn"),
    (r"идёт фаза (?P<phase>\w+)", "it is the {phase} phase"),
    (r'открыто окно "(?P<window>[^"]+)"', 'the timing window "{window}" is open'),
    (rf"(?P<player>{NAME}) оставляет (?P<cards>.+)", "{player} keeps {cards}"),
    (rf"(?P<player>{NAME}) сбрасывает (?P<cards>.+)", "{player} discards {cards}"),
    (rf"(?P<player>{NAME}) показывает (?P<cards>.+)", "{player} reveals {cards}"),
    (r"все игроки пасуют", "all players pass"),
    (r"действие отклонено со ссылкой на (?P<rule>\S+)", "the action is rejected, citing {rule}"),
    (r"действие отклонено", "the action is rejected"),
    (r"действие разрешено", "the action is allowed"),
    (r"решения не ожидается", "no decision is pending"),
    (rf"(?P<player>{NAME}) долж\w* оставить (?P<count>\w+) карт\w*",
     "{player} must keep {count} cards"),
    (rf"(?P<player>{NAME}) долж\w* сбросить (?P<count>\w+) карт\w*",
     "{player} must discard {count} cards"),
]}

@given(parsers.re(r"the players are (?P<names>.+)"))
@takes(names="roster")
def _players(oracle_world: ScenarioWorld, names: str) -> None:
    """Players in seat (clockwise) order.

    Example: Given the players are Alice, Bob and Carol
    """
    oracle_world.add_players(parse_names(names))


@given(parsers.re(r"the shuffle seed is (?P<seed>\d+)"))
def _seed(oracle_world: ScenarioWorld, seed: str) -> None:
    """Seed the scenario's shuffles (a deck reshuffled when it runs out).

    Example: Given the shuffle seed is 7
    """
    oracle_world.given()
    oracle_world.seed = int(seed)


@given(parsers.re(r"card (?P<ref>[A-Z]) is (?P<spec>.+)"))
@takes(ref="new card variable")
@requires(_bind_needs)
def _bind(oracle_world: ScenarioWorld, ref: str, spec: str) -> None:
    """Name a card for the steps below: a card ("Sabotage"), or any card of a class the
    game declares (any "Action" card): if a step plays it, picked among the cards the
    engine models, else among every card of the class; 'any other' picks one not bound
    yet. Later steps write it 'card A'.

    Example: Given card A is any "Action" card
    """
    oracle_world.cards.bind(ref, spec)


def _recipe_needs(world: ScenarioWorld, ref: str, which: tuple[str, ...],
                  situation: str | None = None, **_: Any) -> list[str]:
    """What a card variable's recipe lines need (its Given lines, its effect lines): they
    run inside one step, so that step declares their needs."""
    from oracle.scenario.cards import class_members
    from oracle.scenario.requirements import needs

    card = world.cards.name(CardRef(ref))
    # A class left open (the capability map): what any of its cards' recipes would need.
    cards = ([c for c in class_members(world.game, card.removeprefix("any "))
              if c in world.game.plays["recipes"]] if card.startswith("any ") else [card])
    kinds = {"given": "given", "effect": "then", "no_effect": "then"}
    found: list[str] = []
    asked = situation or world.cards.situations.get(ref)
    for name in cards:
        recipe = world.cards.recipe(name)
        if asked is not None and len(cards) > 1 and not recipe.has(asked):
            continue  # a card of the open class without that situation is never picked
        recipe = recipe.situation(asked)
        found += needs(world, [(kinds[key], line) for key in which
                               for line in recipe.lines(key, "Alice", "Bob")])
    return list(dict.fromkeys(found))


@given(parsers.re(
    rf"(?P<player>{NAME}) (?:can|would) play card (?P<ref>[A-Z])(?: at (?P<aim>{NAME}))?"
    r"(?: when (?P<situation>.+))?"
))
@requires(lambda world, ref, situation=None, **_: _recipe_needs(world, ref, ("given",),
                                                                situation))
@plays("ref")
def _can_play(oracle_world: ScenarioWorld, player: str, ref: str, aim: str | None,
              situation: str | None) -> None:
    """Set up what playing the card needs (its recipe's Given lines: a target to aim at).

    'at Bob' aims it at Bob (the recipe's ``{other}``; default: the next player in seat
    order); 'when SITUATION' sets up one of the recipe's named situations instead (its
    class guarantees the card has it: ``has:`` in ``plays.yaml``), e.g. 'Alice would play
    card A when nothing it could target exists'.

    Example: Given Alice can play card A
    """
    from oracle.suite.vocabulary import vocabulary_for

    cards = oracle_world.cards
    oracle_world.names([CardRef(ref)])
    cards.players[ref] = player
    if aim:
        oracle_world.player(aim)
        cards.aims[ref] = aim
    if situation:
        cards.situations[ref] = situation
    words = vocabulary_for(oracle_world.game)
    for line in cards.recipe_of(ref).lines("given", player, _aim(oracle_world, ref, player)):
        words.run(oracle_world, "given", line)


def _aim(world: ScenarioWorld, ref: str, player: str) -> str:
    """Whom card ``ref`` is aimed at: as a step said ('at Bob'), else the next player."""
    return world.cards.aims.get(ref) or _next_player(world, player)


@given(parsers.re(rf"(?P<player>{NAME}) holds (?P<pile>.+)"))
def _hand(oracle_world: ScenarioWorld, player: str, pile: str) -> None:
    """A hand: named cards, or 'N cards' that nobody mentions elsewhere.

    Example: Given Alice holds "Sabotage" and 2 other cards
    """
    spec = parse_pile(pile)
    oracle_world.player(player)["hand"] = oracle_world.cards_for(None, spec)


@given(parsers.re(r"the (?P<deck>\w+) (?P<which>deck|discard pile) is (?P<pile>.+)"))
def _pile(oracle_world: ScenarioWorld, deck: str, which: str, pile: str) -> None:
    """A draw pile or discard pile, top first.

    Example: Given the action deck is "Sabotage" and 2 other cards
    """
    spec = parse_pile(pile)
    key = "draw" if which == "deck" else "discard"
    oracle_world.deck(deck)[key] = oracle_world.cards_for(deck, spec)


@given(parsers.re(rf"it is the (?P<phase>\w+) phase(?:, (?P<player>{NAME})'s turn)?"))
def _phase(oracle_world: ScenarioWorld, phase: str, player: str | None) -> None:
    """The phase, and whose turn it is (the turn opens the game's action window).

    Example: Given it is the action phase, Alice's turn
    """
    state = oracle_world.given()
    state["phase"] = phase
    if player:
        oracle_world.player(player)
        state["active_player"] = player
        state.setdefault("window", "Action")


# State, as the phase is: no capability (docs/protocol.md, "Needs no capability"); GAME/windows
# gates a window opening during the scenario.
@given(parsers.re(r'the timing window "(?P<window>[^"]+)" is open'))
def _window_open(oracle_world: ScenarioWorld, window: str) -> None:
    """A timing window is open: cards that name it may be played.

    Example: Given the timing window "At the start of a combat round" is open
    """
    oracle_world.given()["window"] = window


# -- When ----------------------------------------------------------------------------


@when(parsers.re(r'the timing window "(?P<window>[^"]+)" opens'))
@requires(lambda world, **_: [f"{world.game.id}/windows"])
def _window_opens(oracle_world: ScenarioWorld, window: str) -> None:
    """A new occurrence of a timing window opens.

    Example: When the timing window "At the start of a combat round" opens
    """
    oracle_world.require(f"{oracle_world.game.id}/windows")
    oracle_world.act(f'the timing window "{window}" opens', {"type": "window", "window": window})


@when(parsers.re(rf"(?P<player>{NAME}) draws (?P<count>\w+) (?P<deck>\w+) cards?"))
@requires(lambda world, **_: [f"{world.game.id}/draw"])
def _draw(oracle_world: ScenarioWorld, player: str, count: str, deck: str) -> None:
    """A player draws cards from the top of a deck.

    Example: When Alice draws 1 action card
    """
    oracle_world.require(f"{oracle_world.game.id}/draw")
    n = parse_count(count)
    oracle_world.act(f"{player} draws {n} {deck} card(s)",
                     {"type": "draw", "player": player, "deck": deck, "count": n})


def _play_needs(world: ScenarioWorld, card: str, cancel: str | None = None,
                **_: Any) -> list[str]:
    game = world.game.id
    needs = [f"{game}/play", f"{game}/card/{world.cards.name(card_word(card))}"]
    if cancel:
        needs.append(f"{game}/card/{world.cards.name(card_word(cancel))}")
    return needs


@when(parsers.re(
    rf"(?P<player>{NAME}) (?P<verb>plays|starts playing) (?P<card>{CARD})"
    rf"(?: at (?P<aim>{NAME}))?"
    r"(?: (?P<how>targeting|choosing|spending) (?P<target>.+?))?"
    rf"(?: and (?P<canceller>{NAME}) cancels it with (?P<cancel>{CARD}))?"
))
@requires(_play_needs)
@plays("card", "cancel")
def _play(oracle_world: ScenarioWorld, player: str, verb: str, card: str, aim: str | None,
          how: str | None, target: str | None, canceller: str | None,
          cancel: str | None) -> None:
    """Play a card; 'plays' lets every player pass afterwards, 'starts playing' leaves
    the card being played so that others can react. 'choosing' reads like 'targeting'
    (both go to the game's ``parse_target``), for choices that are not targets; 'spending'
    names what pays the card's cost (``parse_target`` reads it as 'spending ...'). A card
    variable played with no target aims at its recipe's target ('at Bob': Bob's).

    Example: When Alice plays "Lucky Shot" targeting Bob's destroyer
    Example: When Alice plays card A and Bob cancels it with "Sabotage"
    """
    oracle_world.require(f"{oracle_world.game.id}/play")
    word = card_word(card)
    name = oracle_world.names([word])[0]
    if isinstance(word, CardRef):
        oracle_world.cards.players.setdefault(word.name, player)
        if aim:
            oracle_world.cards.aims[word.name] = aim
        recipe = oracle_world.cards.recipe_of(word.name)
        if target is None and recipe.target:
            target = recipe.target.format(player=player,
                                          other=_aim(oracle_world, word.name, player))
    elif aim:
        raise ScenarioError(f"'at {aim}' aims a card variable's recipe; write 'targeting ...' "
                            f"for {card}")
    text = f'{player} plays "{name}"' + (f" {how or 'targeting'} {target}" if target else "")
    action: dict[str, Any] = {"type": "play", "player": player, "card": name}
    targets = _game_targets(oracle_world, f"spending {target}" if how == "spending" and target
                            else target)
    if targets:
        action["targets"] = targets
    cancel_name = oracle_world.names([card_word(cancel)])[0] if cancel else None
    play_and_pass(oracle_world, text, action, name=name, leave_open=verb == "starts playing",
                  canceller=canceller, cancel=cancel_name)


def play_and_pass(world: ScenarioWorld, text: str, action: dict[str, Any], *, name: str,
                  leave_open: bool = False, canceller: str | None = None,
                  cancel: str | None = None) -> None:
    """Send something that is *being played* until everyone passes (a card, or a game's own
    action such as using an ability), let one player cancel it with a card, then pass.

    Shared so that a game's own play-like steps answer, cancel and resolve exactly like
    ``plays``: the cancelling card targets ``{"card": name}``, the name being played. With
    ``leave_open`` ('starts playing ... and Bob cancels it with ...') both stay being played.
    """
    if isinstance(world.act(text, action), Rejected):
        return
    if canceller and cancel:
        world.require(f"{world.game.id}/card/{cancel}")
        reply = world.act(
            f'{canceller} cancels "{name}" with "{cancel}"',
            {"type": "play", "player": canceller, "card": cancel, "targets": {"card": name}},
        )
        if isinstance(reply, Rejected):
            return
    if not leave_open:
        world.act("all players pass", {"type": "resolve"})


@when("all players pass")
def _resolve(oracle_world: ScenarioWorld) -> None:
    """Every player passes: the card being played resolves.

    Example: When all players pass
    """
    oracle_world.act("all players pass", {"type": "resolve"})


@when(parsers.re(rf"(?P<player>{NAME}) reveals (?P<cards>.+)"))
@requires(lambda world, **_: [f"{world.game.id}/reveal"])
def _reveal(oracle_world: ScenarioWorld, player: str, cards: str) -> None:
    """A player shows cards from their hand to everyone.

    Example: When Alice reveals "Sabotage"
    """
    oracle_world.require(f"{oracle_world.game.id}/reveal")
    names = oracle_world.names(parse_cards(cards))
    oracle_world.act(f"{player} reveals {describe_cards(names)}",
                     {"type": "reveal", "player": player, "cards": names})


@when(parsers.re(rf"(?P<player>{NAME}) (?P<verb>keeps|discards) (?P<cards>.+)"))
@takes(cards="kept cards")
def _choose(oracle_world: ScenarioWorld, player: str, verb: str, cards: str) -> None:
    """Answer a pending decision. 'keeps 7 cards' keeps any 7 (the first the player sees);
    'keeps all cards but card A' keeps every card of the hand except those named.

    Example: When Alice keeps 7 cards
    Example: When Alice keeps all cards but card A
    """
    if cards.startswith("all cards but "):
        _, seen = oracle_world.hand(player, player)
        names = list(seen)
        for n in oracle_world.names(parse_cards(cards.removeprefix("all cards but "))):
            if n not in names:
                raise RuleViolation(f"{player}'s hand does not hold {n!r}, which the scenario "
                                    "expects it to hold")
            names.remove(n)
        kind = "keep" if verb == "keeps" else "discard"
        oracle_world.choose(f"{player} {verb} {describe_cards(names)}", player, {kind: names})
        return
    spec = parse_pile(cards)
    names = oracle_world.names(spec.cards)
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
    """The active player ends their turn.

    Example: When Alice ends her turn
    """
    oracle_world.act(f"{player} ends their turn", {"type": "end_turn", "player": player})


# -- Then ----------------------------------------------------------------------------


@then(parsers.re(rf"(?P<owner>{NAME}) holds (?P<pile>.+?)(?: as seen by (?P<viewer>{VIEWER}))?"))
def _hand_is(oracle_world: ScenarioWorld, owner: str, pile: str, viewer: str | None) -> None:
    """A hand as one viewer sees it: its cards are the owner's; its size is public where a
    rule of the game says so (TI4 note-2); where none does (EU), the size another viewer is
    shown is not checked, and may be null.

    Example: Then Alice holds "Sabotage" and 1 hidden card as seen by Bob
    """
    spec = parse_pile(pile)
    resolved = Pile(tuple(oracle_world.names(spec.cards)), spec.hidden, spec.others,
                    spec.any_order, spec.names_matter)
    if viewer is None or viewer == owner:
        count, cards = oracle_world.hand(owner, owner)
        check_pile(f"{owner}'s hand", resolved, count, cards, hand=True)
        return
    who = None if viewer == "a spectator" else viewer
    true_count, true_cards = oracle_world.hand(owner, REFEREE)
    seen_by = f"{owner}'s hand as seen by {viewer}"
    if oracle_world.game.concept_rule("hand-size-public") is None:
        # No sentence makes the size public: only the cards are checked (a count of null,
        # or none, charges no rule; the pile below is checked against the true size).
        hand = oracle_world.view(who)["players"][owner]["hand"] or {}
        count, cards = true_count, hand.get("cards", [])
        cards = None if cards is None else list(cards)
    else:
        count, cards = oracle_world.hand(owner, who)
    if count != true_count:
        raise RuleViolation(f"{seen_by} has {count} card(s), but it holds {true_count}",
                            concept="hand-size-public")
    if cards is not None:  # null: the engine does not say what this viewer sees
        leaked = _extra(cards, list(resolved.cards))
        if leaked and resolved.names_matter:
            # Cards a refused reveal named were shown by that reveal: the rule about
            # revealing is broken (a refused action changes nothing), not the hidden hand's.
            concept = ("hand-revealed"
                       if not _extra(leaked, _refused_reveals(oracle_world, owner))
                       else "hand-hidden")
            raise RuleViolation(f"{seen_by} shows {describe_cards(leaked)}, which {viewer} "
                                "must not see", concept=concept)
        missing = _extra(list(resolved.cards), cards)
        if missing and not _extra(list(resolved.cards), true_cards or []):
            raise RuleViolation(f"{seen_by} does not show {describe_cards(missing)}, which "
                                f"{owner} has revealed", concept="hand-revealed")
    check_pile(seen_by, resolved, count, cards, hand=True)


def _refused_reveals(world: ScenarioWorld, owner: str) -> list[str]:
    """The cards ``owner`` asked to reveal in reveals the engine refused."""
    return [card for _text, kind, action, reply, _before, _after in world.history
            if kind == "reveal" and action.get("player") == owner
            and isinstance(reply, Rejected) for card in action.get("cards") or ()]


def _extra(have: list[str], allowed: list[str]) -> list[str]:
    """The cards of ``have`` beyond the multiset ``allowed``."""
    rest = list(allowed)
    extra = []
    for card in have:
        if card in rest:
            rest.remove(card)
        else:
            extra.append(card)
    return extra


@then(parsers.re(
    r"the (?P<deck>\w+) (?P<which>deck|discard pile) is (?P<pile>.+?)"
    rf"(?: as seen by (?P<viewer>{VIEWER}))?"
))
def _pile_is(oracle_world: ScenarioWorld, deck: str, which: str, pile: str,
             viewer: str | None) -> None:
    """A pile as the referee sees it, or as one viewer does (a discard pile is public).

    Example: Then the action discard pile is "Lucky Shot" and "Sabotage" in any order
    """
    key = "draw" if which == "deck" else "discard"
    spec = parse_pile(pile)
    resolved = Pile(tuple(oracle_world.names(spec.cards)), spec.hidden, spec.others,
                    spec.any_order, spec.names_matter)
    count, cards = oracle_world.pile(deck, key, REFEREE)
    if viewer is not None:
        who = None if viewer == "a spectator" else viewer
        seen = oracle_world.pile(deck, key, who)
        if key == "discard" and seen != (count, cards):
            raise RuleViolation(f"the {deck} {which} as seen by {viewer} is "
                                f"{describe_cards(seen[1] or [])}, but it is "
                                f"{describe_cards(cards or [])}", concept="pile-public")
        count, cards = seen
    seen_by = "" if viewer is None else f" as seen by {viewer}"
    check_pile(f"the {deck} {which}{seen_by}", resolved, count, cards, hand=False)


@then(parsers.re(r"the action is (?P<outcome>rejected|allowed)(?:, citing (?P<rule>\S+))?"))
@takes(rule=Argument("rule", asserts=True))
def _outcome(oracle_world: ScenarioWorld, outcome: str, rule: str | None) -> None:
    """What the engine answered to the last action: the rules forbid it, or allow it. A
    scenario that expects a rejection has a twin that expects the same action allowed.
    'citing RULE' also checks the rule the engine's rejection names (the rule id, or one of
    its sentences, RULE#N); an engine that names none leaves the scenario unsupported.

    Example: Then the action is rejected
    Example: Then the action is rejected, citing ti4:note-9
    """
    if outcome == "allowed":
        if rule:
            raise ScenarioError("only a rejection cites a rule; write 'Then the action is "
                                "allowed' or 'Then the action is rejected, citing ...'")
        oracle_world.expect_allowed()
        return
    rejected = oracle_world.expect_rejected()
    if rule is None:
        return
    if rejected.rule is None:
        raise EngineLacks(f"the engine rejected the action without naming the rule that "
                          f"forbids it ({rejected.reason!r}); the scenario checks that it "
                          f"cites {rule}")
    if rejected.rule != rule and not rejected.rule.startswith(f"{rule}#"):
        raise RuleViolation(f"the engine rejected the action citing {rejected.rule} "
                            f"({rejected.reason!r}); the rule that forbids it is {rule}")


@then(parsers.re(r"the effect of card (?P<ref>[A-Z]) (?P<neg>has not|has) happened"))
@requires(lambda world, ref, **_: _recipe_needs(world, ref, ("effect", "no_effect")))
@plays("ref")
def _effect(oracle_world: ScenarioWorld, ref: str, neg: str) -> None:
    """The card's effect (its recipe's Then lines), or that it had none (cancelled).

    Example: Then the effect of card A has not happened
    """
    from oracle.suite.vocabulary import vocabulary_for

    card = oracle_world.names([CardRef(ref)])[0]
    recipe = oracle_world.cards.recipe_of(ref)
    player = oracle_world.cards.players.get(ref)
    if player is None:
        raise ScenarioError(f"nobody played card {ref}; write 'When Alice plays card {ref}'")
    lines = recipe.lines("effect" if neg == "has" else "no_effect", player,
                         _aim(oracle_world, ref, player))
    if not lines:
        raise ScenarioError(f"card {ref} is {card!r}, whose recipe shows no effect; bind it to "
                            "a class whose cards have a visible effect")
    words = vocabulary_for(oracle_world.game)
    for line in lines:
        words.run(oracle_world, "then", line)


@then(parsers.re(
    rf"(?:(?P<player>{NAME}) must (?P<decision>keep|discard) (?P<count>\w+) cards?"
    rf"|(?P<none>no decision is pending)(?: for (?P<whose>{NAME}))?)"
))
def _pending(oracle_world: ScenarioWorld, player: str | None, decision: str | None,
             count: str | None, none: str | None, whose: str | None) -> None:
    """The decision the engine waits for (hand limit keep, discard for an ability); or none,
    from anyone or from one player (while others have theirs to make).

    Example: Then Alice must keep 7 cards
    """
    pending = oracle_world.pending()
    if none:
        waiting = [p for p in pending if whose is None or p.get("player") == whose]
        if waiting:
            raise RuleViolation(f"the engine is waiting for a decision: {waiting}")
        return
    want = {"player": player, "decision": decision, "count": parse_count(count or "0")}
    if not any({k: p.get(k) for k in want} == want for p in pending):
        raise RuleViolation(
            f"expected {player} to have to {decision} {want['count']} card(s); the engine is "
            f"waiting for {pending or 'nothing'}"
        )

