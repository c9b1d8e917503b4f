"""What any EU action must do whatever the scenario: the checks that charge the right rule.

Each diagnostic stands for one concept, which ``features/eu-pop/game.yaml`` maps to the rule
that states it (``oracle.scenario.diagnosis`` explains how a failed scenario is charged).
They are conservative on purpose: each checks only what its rule says for *every* accepted
action of its kinds, read from the referee's views before and after (docs/protocol.md, EU),
so that a slip in another rule never trips it. Where two rules share an action (a card that
resolves is discarded, 6.action-cards.6; onto its own deck's pile, 6.decks.2), each checks
only its own part.

A few judge refusals instead (``rejected=True``): an action another rule allows, refused
although nothing else forbids it (a Reaction, a Counterespionage aimed at a Covert Action, an
appointment, a Battle Action card). A scenario that needs such an action to go through
before it checks its own rule then charges the rule that allows it.

Costs, charges and die icons are the card facts' (``features/eu-pop/cards.yaml``), the same
facts the scenarios are written from. The checks live in ``piles`` (decks, plays, costs,
countering), ``tables`` (Display Cards, characters, Step C) and ``battles`` (Battles and the
refusals); ``reading`` holds their shared, package-private readers of the views. The order
of ``DIAGNOSTICS`` matters: for one action, the first that fails is charged.
"""

from __future__ import annotations

from oracle.games.eu_pop.diagnostics.battles import (
    appoint_refused,
    battle_action_involved,
    battle_action_moment,
    battle_action_once,
    battle_card_refused,
    battle_card_refused_next_round,
    battle_order_refused,
    chosen_die,
    counter_refused,
    dice_per_icon,
    dice_stay,
    display_mark_refused,
    duplicate_refused,
    minor_action_refused,
    reaction_keeps_the_turn,
    reaction_refused,
    turn_refused,
    turn_refused_after_reaction,
)
from oracle.games.eu_pop.diagnostics.piles import (
    action_effect_resolved,
    card_effect_resolved,
    cost_never_below_zero,
    cost_of_deck_type,
    countered_card_discarded,
    countered_cost_stays,
    countered_has_no_effect,
    discard_as_set_up,
    discarded_on_own_pile,
    display_action_cost,
    draw_from_deck,
    ducat_cost,
    effect_waits_for_resolution,
    pile_intact,
    played_card_leaves_hand,
    prevented_uses_stay_spent,
    rebuilt_leaving_five,
    rebuilt_whole,
    resolved_card_discarded,
    setup_draw_from_decks,
)
from oracle.games.eu_pop.diagnostics.reading import PLAYS
from oracle.games.eu_pop.diagnostics.tables import (
    appointed,
    character_role,
    charges_spent,
    display_limit,
    display_placed,
    displays_not_counted,
    empty_display_discarded,
    kept_what_was_chosen,
    limit_only_in_step_c,
    plays_appoint_nobody,
    step_c_asks_every_player,
    third_display_asks,
)
from oracle.scenario.diagnosis import Diagnostic, hands_as_set_up


def _every_kind_but(*kinds: str) -> frozenset[str]:
    return frozenset({"draw", "play", "use", "resolve", "appoint", "end_turn", "choose",
                      "discard_down", "battle_step", "battle_round", "battle_end"}) - set(kinds)


DIAGNOSTICS = (
    Diagnostic("hands-as-set-up", hands_as_set_up),
    Diagnostic("discard-as-set-up", discard_as_set_up),
    Diagnostic("draw-from-deck", draw_from_deck, frozenset({"draw"})),
    Diagnostic("draw-from-deck", setup_draw_from_decks, frozenset({"setup_draw"})),
    Diagnostic("rebuild-leaves-five", rebuilt_leaving_five, frozenset({"draw"})),
    Diagnostic("rebuild-whole", rebuilt_whole, frozenset({"draw"})),
    Diagnostic("pile-intact", pile_intact, _every_kind_but("draw")),
    Diagnostic("discard-on-own-pile", discarded_on_own_pile, _every_kind_but("draw")),
    Diagnostic("played-card-leaves-hand", played_card_leaves_hand, frozenset({"play"})),
    Diagnostic("card-effect-resolved", effect_waits_for_resolution, frozenset({"play"})),
    Diagnostic("action-effect-resolved", effect_waits_for_resolution, frozenset({"use"})),
    Diagnostic("cost-of-deck-type", cost_of_deck_type, frozenset({"play"})),
    Diagnostic("ducat-cost", ducat_cost, frozenset({"play"})),
    Diagnostic("cost-never-below-zero", cost_never_below_zero, PLAYS),
    Diagnostic("display-action-cost", display_action_cost, frozenset({"use"})),
    Diagnostic("charges-spent", charges_spent, frozenset({"use"})),
    Diagnostic("empty-display-discarded", empty_display_discarded,
               frozenset({"use", "resolve"})),
    Diagnostic("countered-no-effect", countered_has_no_effect, frozenset({"resolve"})),
    Diagnostic("countered-cost-stays", countered_cost_stays, frozenset({"resolve"})),
    Diagnostic("prevented-uses-spent", prevented_uses_stay_spent, frozenset({"resolve"})),
    Diagnostic("third-display-asks", third_display_asks, frozenset({"resolve"})),
    Diagnostic("display-placed", display_placed, frozenset({"resolve", "choose"})),
    Diagnostic("resolved-card-discarded", resolved_card_discarded, frozenset({"resolve"})),
    Diagnostic("countered-card-discarded", countered_card_discarded, frozenset({"resolve"})),
    Diagnostic("card-effect-resolved", card_effect_resolved, frozenset({"resolve"})),
    Diagnostic("action-effect-resolved", action_effect_resolved, frozenset({"resolve"})),
    Diagnostic("display-limit", display_limit, frozenset({"resolve", "choose"})),
    Diagnostic("plays-appoint-nobody", plays_appoint_nobody, frozenset({"play", "resolve"})),
    Diagnostic("appointed", appointed, frozenset({"appoint"})),
    Diagnostic("character-role", character_role, frozenset({"appoint"})),
    Diagnostic("limit-only-in-step-c", limit_only_in_step_c, _every_kind_but()),
    Diagnostic("limit-only-in-step-c", limit_only_in_step_c, frozenset({"setup_hold"})),
    Diagnostic("step-c-asks-every-player", step_c_asks_every_player,
               frozenset({"discard_down"})),
    Diagnostic("displays-not-counted", displays_not_counted, frozenset({"discard_down"})),
    Diagnostic("kept-what-was-chosen", kept_what_was_chosen, frozenset({"choose"})),
    Diagnostic("battle-action-moment", battle_action_moment, frozenset({"play"})),
    Diagnostic("battle-action-involved", battle_action_involved, frozenset({"play"})),
    Diagnostic("battle-action-once", battle_action_once, frozenset({"play"})),
    Diagnostic("appoint-refused", appoint_refused, frozenset({"appoint"}), rejected=True),
    Diagnostic("minor-action-refused", minor_action_refused, frozenset({"appoint"}),
               rejected=True),
    Diagnostic("reaction-keeps-the-turn", reaction_keeps_the_turn,
               frozenset({"play", "use", "resolve"})),
    Diagnostic("reaction-keeps-the-turn", turn_refused_after_reaction, PLAYS, rejected=True),
    Diagnostic("duplicate-refused", duplicate_refused, frozenset({"play"}), rejected=True),
    Diagnostic("display-mark-refused", display_mark_refused, frozenset({"use"}), rejected=True),
    Diagnostic("turn-refused", turn_refused, PLAYS, rejected=True),
    Diagnostic("counter-refused", counter_refused, frozenset({"play"}), rejected=True),
    Diagnostic("reaction-refused", reaction_refused, frozenset({"play"}), rejected=True),
    Diagnostic("battle-card-refused", battle_card_refused, frozenset({"play"}), rejected=True),
    Diagnostic("battle-card-refused-next-round", battle_card_refused_next_round,
               frozenset({"play"}), rejected=True),
    Diagnostic("battle-order-refused", battle_order_refused, frozenset({"play"}),
               rejected=True),
    # A pool that lost a die it held is 6.2.battle.4's, whatever was added.
    Diagnostic("dice-stay", dice_stay, frozenset({"resolve"})),
    Diagnostic("dice-per-icon", dice_per_icon, frozenset({"resolve"})),
    Diagnostic("chosen-die", chosen_die, frozenset({"resolve"})),
    Diagnostic("dice-stay", dice_stay, frozenset({"battle_step", "battle_round"})),
)
