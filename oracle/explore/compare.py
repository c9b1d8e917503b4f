"""What two engines must agree on: each reply and each view as the rules decide them, not as
an engine represents them.

Why normalise: two engines that both follow the rules still differ where the rules (and
docs/protocol.md) leave a choice, and a comparison that flags those is worse than none. The
choices every game shares are the protocol's, and are made here:

- **Replies**: the kind (``accepted``, ``rejected``, ...) of every request a move sent, and
  the rule a rejection cites when both engines cite one, unless the rule the second cites
  forbids the action too (``cited_apart``: two rules may forbid one action, and each engine
  cites the one it checks first); never a rejection's ``reason`` or an acceptance's
  ``events`` (free-form, for people).
- **Hands are not ordered**: the cards of a hand are compared as a multiset; piles are
  ordered (top first) and compared as lists; ``being_played`` is in play order.
- **``"cards": null``** is "this engine does not say which cards this viewer may see": not
  compared. ``hand_limit`` is only shown to people: not compared.
- **Keys one engine leaves out**: a view key (or a player's key) only one engine shows is
  an optional key the other has no notion of: not compared; so is a ``null`` ``phase``,
  ``window`` or ``active_player``, as an engine with no phases, windows or turns shows them.
  ``pending`` is compared as a set (the protocol gives its entries no order) of what the
  protocol says of a decision (player, decision, count, and EU's from).
- **Shuffles**: a shuffle's order is the engine's (its random generator with the seed, the
  protocol says, not which one). Where both engines shuffled in a move (a draw pile gained
  cards it did not hold, or a discard pile lost some: the discard pile went back into the
  deck) or a setup left a deck to be shuffled, and the referee's views differ, views that
  agree once the dealt cards are pooled (each hand and draw pile by its count, the referee's
  hands and draw piles together as one multiset, discard piles as they are) are a
  divergence by choice: the game ends there, uncounted, since the engines now hold
  different cards. A deck the setup left to be shuffled is compared as the cards its draw
  pile holds (``unordered``) until a move draws from it (``drawn_from``): only then do the
  engines hold different cards. Engines that shuffle alike (a reference engine and its
  mutants) are compared card by card.

A game's own choices (docs/protocol.md, its section's "Questions an adapter asks") are its
model's ``choices`` (``GameChoices``): a further normalisation of its views, the moves whose
answer the rules leave to the engine, and the moves whose outcome they leave partly to it
(then the game ends there, if the engines differ only that way).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from oracle.protocol import REFEREE, Rejected

View = Mapping[str, Any]
#: View keys that only restrict what may happen, which an engine with no notion of them
#: shows ``null`` (docs/protocol.md, "No phases or timing windows"): not shown, so not
#: compared. A no-phase engine was flagged at its first view ("phase: 'action' / None"),
#: charged to every invariant's rules.
UNSHOWN_WHEN_NULL = frozenset({"phase", "window", "active_player"})
#: What a pending decision says (docs/protocol.md, observe; EU adds where the cards come
#: from): other keys an engine adds are its own.
PENDING_KEYS = frozenset({"player", "decision", "count", "from"})


class GameChoices(Protocol):
    """What a game's rules leave to the engine, for differential exploration (a model's
    optional ``choices``; see ``choices_of``). Each hook gets the referee's view before the
    move (the first engine's) and the move's step text."""

    def view(self, view: dict[str, Any], viewer: str | None) -> None:
        """Normalise a view further, in place (it is the comparison's own copy): what a
        game's engines may show otherwise in any state."""
        ...

    def reply(self, before: View, text: str) -> str | None:
        """Why the engines may answer this move differently (the engine's choice); None
        when the rules decide the answer."""
        ...

    def outcome(self, before: View, text: str) -> Loosened | None:
        """Why this move's outcome may be arranged otherwise by the engine, and the
        normalisation under which the engines must still agree (the game then ends there:
        the engines' states differ from then on); None when the rules decide it."""
        ...


@dataclass(frozen=True)
class Loosened:
    """A move whose outcome the rules leave partly to the engine: why, and what of the view
    to compare after it (``loosen`` normalises a normal view in place)."""

    reason: str
    loosen: Callable[[dict[str, Any]], None]


class NoChoices:
    """A game whose rules leave nothing to the engine beyond the protocol's choices."""

    def view(self, view: dict[str, Any], viewer: str | None) -> None:
        return None

    def reply(self, before: View, text: str) -> str | None:
        return None

    def outcome(self, before: View, text: str) -> Loosened | None:
        return None


def choices_of(model: Any) -> GameChoices:
    """The model's ``choices``, or none."""
    found = getattr(model, "choices", None)
    return found if found is not None else NoChoices()


def reply_signature(history: Sequence[tuple[Any, ...]]) -> tuple[tuple[str, str, str | None], ...]:
    """What must agree in the replies to a move's requests (``ScenarioWorld.history``
    entries): per request, the action's type and the reply's kind, and for a rejection the
    rule it cites (its id, without a sentence number)."""
    out = []
    for entry in history:
        kind, reply = entry[1], entry[3]
        rule = reply.rule.partition("#")[0] if isinstance(reply, Rejected) and reply.rule \
            else None
        out.append((kind, type(reply).__name__, rule))
    return tuple(out)


def replies_agree(a: Sequence[tuple[str, str, str | None]],
                  b: Sequence[tuple[str, str, str | None]]) -> bool:
    """Same requests, same kinds of reply; a cited rule only counts where both cite one."""
    if len(a) != len(b):
        return False
    for (ka, ra, rule_a), (kb, rb, rule_b) in zip(a, b, strict=True):
        if ka != kb or ra != rb or (rule_a and rule_b and rule_a != rule_b):
            return False
    return True


def cited_apart(a: Sequence[tuple[str, str, str | None]],
                b: Sequence[tuple[str, str, str | None]]) -> int | None:
    """Where two replies' signatures differ only in the rule a rejection cites: the index of
    the one request both engines rejected, each citing another rule; None when they differ
    otherwise (or not at all). Two rules may forbid one action, and an engine cites the
    one it checked first: whether the other forbids it too is the differential's to ask
    (``oracle.explore.differential``)."""
    if len(a) != len(b):
        return None
    apart = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if not replies_agree([x], [y])]
    if len(apart) != 1:
        return None
    (ka, ra, rule_a), (kb, rb, rule_b) = a[apart[0]], b[apart[0]]
    if ka != kb or ra != rb or ra != "Rejected" or not rule_a or not rule_b:
        return None
    return apart[0]


def normal_view(view: View, viewer: str | None, choices: GameChoices) -> dict[str, Any]:
    """A copy of ``view`` holding what the rules decide (see the module's docstring)."""
    out = {k: v for k, v in view.items() if not (k in UNSHOWN_WHEN_NULL and v is None)}
    players = {}
    for name, entry in (view.get("players") or {}).items():
        player = dict(entry)
        player.pop("hand_limit", None)
        hand = dict(player.get("hand") or {})
        if hand.get("cards") is None:
            hand.pop("cards", None)
        else:
            hand["cards"] = sorted(hand["cards"])
        player["hand"] = hand
        players[name] = player
    out["players"] = players
    pending = out.get("pending")
    if pending:
        out["pending"] = sorted(
            ({k: v for k, v in p.items() if k in PENDING_KEYS} if isinstance(p, Mapping)
             else p for p in pending),
            key=lambda p: sorted((k, str(v)) for k, v in p.items())
            if isinstance(p, Mapping) else [])
    choices.view(out, viewer)
    return out


def common(a: dict[str, Any], b: dict[str, Any]) -> None:
    """Drop, in place, the keys only one of two normal views shows: at the top, in each
    player both show, and in each such player's hand (``cards`` left out by ``normal_view``
    where an engine does not say)."""
    _drop_one_sided(a, b)
    pa, pb = a.get("players") or {}, b.get("players") or {}
    for name in set(pa) & set(pb):
        _drop_one_sided(pa[name], pb[name])
        ha, hb = pa[name].get("hand"), pb[name].get("hand")
        if isinstance(ha, dict) and isinstance(hb, dict):
            _drop_one_sided(ha, hb)


def _drop_one_sided(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in set(a).symmetric_difference(b):
        a.pop(key, None)
        b.pop(key, None)


def difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where two JSON values first differ, as ``path: A / B``; None when they are equal."""
    if a == b:
        return None
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{path}{key}: {_short(a.get(key, '(absent)'))} / " \
                       f"{_short(b.get(key, '(absent)'))}"
            found = difference(a[key], b[key], f"{path}{key}.")
            if found:
                return found
    return f"{path.rstrip('.') or 'the view'}: {_short(a)} / {_short(b)}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


# -- shuffles ------------------------------------------------------------------------------------


def _draw_cards(view: View, deck: str) -> list[str] | None:
    entry = (view.get("decks") or {}).get(deck, {}).get("draw")
    cards = entry.get("cards") if isinstance(entry, Mapping) else entry
    return list(cards) if isinstance(cards, list) else None


def reshuffled(before: View, after: View) -> bool:
    """Whether a move shuffled some deck (referee views around it): its draw pile gained a
    card it did not hold, or its discard pile lost one, which only a shuffle of the discard
    pile into the draw pile does."""
    for deck in after.get("decks") or {}:
        was, now = _draw_cards(before, deck), _draw_cards(after, deck)
        if was is not None and now is not None and not _within(now, was):
            return True
        old = ((before.get("decks") or {}).get(deck) or {}).get("discard")
        new = ((after.get("decks") or {}).get(deck) or {}).get("discard")
        if isinstance(old, list) and isinstance(new, list) and not _within(old, new):
            return True
    return False


def drawn_from(decks: frozenset[str], before: View, after: View,
               other_before: View | None = None) -> bool:
    """Whether a move took cards off the draw pile of one of ``decks`` (referee views) that
    the two engines had in different orders (``other_before``, the second engine's view
    before the move; not given: any order). Why the order: engines that shuffle alike (a
    reference engine and its mutants) hold the same piles, and a draw from them is compared
    card by card, so a draw off the wrong end of the deck is flagged."""
    for deck in decks:
        pile = _pile(before, deck)
        if other_before is not None and pile is not None and pile == _pile(other_before, deck):
            continue
        was = (((before.get("decks") or {}).get(deck) or {}).get("draw") or {})
        now = (((after.get("decks") or {}).get(deck) or {}).get("draw") or {})
        if isinstance(was, Mapping) and isinstance(now, Mapping) and \
                int(now.get("count") or 0) < int(was.get("count") or 0):
            return True
    return False


def _pile(view: View, deck: str) -> Any:
    draw = (((view.get("decks") or {}).get(deck) or {}).get("draw") or {})
    return draw.get("cards") if isinstance(draw, Mapping) else None


def unordered(view: View, decks: frozenset[str]) -> dict[str, Any]:
    """A normal view with the draw piles of ``decks`` as multisets: the order a setup's
    shuffle dealt them is each engine's (its own generator with the seed), and which cards
    they hold is not. Why: every table that left a deck out to be shuffled ended at its first
    view on an engine with a generator of its own (an outside EU engine over the pipe: 108
    games of 159, 66 moves played), though nothing had been drawn from it yet."""
    out = dict(view)
    piles = dict(out.get("decks") or {})
    for deck in decks:
        entry = piles.get(deck)
        draw = entry.get("draw") if isinstance(entry, Mapping) else None
        if isinstance(draw, Mapping) and isinstance(draw.get("cards"), list):
            piles[deck] = {**entry, "draw": {**draw, "cards": sorted(draw["cards"])}}
    out["decks"] = piles
    return out


def _within(some: Sequence[str], cards: Sequence[str]) -> bool:
    """Whether ``some`` is a sub-multiset of ``cards``."""
    left = list(cards)
    for card in some:
        if card not in left:
            return False
        left.remove(card)
    return True


def dealt(view: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """A normal view blind to the order a shuffle dealt: hands and draw piles by their
    counts, and for the referee every card they hold between them as one multiset."""
    out = dict(view)
    pool: list[str] = []
    players = {}
    for name, entry in (view.get("players") or {}).items():
        player = dict(entry)
        hand = dict(player.get("hand") or {})
        pool += hand.pop("cards", None) or []
        player["hand"] = hand
        players[name] = player
    out["players"] = players
    decks = {}
    for name, entry in (view.get("decks") or {}).items():
        deck = dict(entry)
        draw = deck.get("draw")
        if isinstance(draw, Mapping):
            draw = dict(draw)
            pool += draw.pop("cards", None) or []
            deck["draw"] = draw
        decks[name] = deck
    out["decks"] = decks
    out["dealt"] = sorted(pool) if viewer == REFEREE else None
    return out
