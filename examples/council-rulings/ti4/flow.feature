Feature: The Council's rulings on the game's flow around action cards
  Rulings that need more than the cards: who may play when, the events that open a timing
  window, the deal of Politics, costs, planets and laws (docs/rulings.md). Sources marked
  "Living Rules Reference" are the action card notes published with the rules reference
  (https://www.tirules.com/C_action_cards, the page ti4:note-11 points to); their Date is the
  day the Council recorded the note, which the page does not date. The others are the
  Council's own illustrative examples, and say so.

  Background:
    Given the players are Alice, Bob and Carol

  @ti4:2.6.1
  Rule: 2.6.1 Insubordination needs a tactic token to remove
    Ruling: r1
    Source: Living Rules Reference, action card notes, Insubordination, note 1 (https://www.tirules.com/C_action_cards)
    Date: 2026-11-27
    Authority: The Living Rules Reference, recorded by the Council of Rules
    Status: official
    Cites: ti4:2.6.1#2 "cannot completely resolve its ability"

    Scenario: Insubordination cannot target a player with no command token in their tactic pool
      Twin: Insubordination can target a player with a command token in their tactic pool
      Given it is the action phase, Alice's turn
      And Alice holds "Insubordination"
      And Bob has 0 command tokens in his tactic pool
      When Alice plays "Insubordination" targeting Bob
      Then the action is rejected, citing ti4:2.6.1

    Scenario: Insubordination can target a player with a command token in their tactic pool
      Given it is the action phase, Alice's turn
      And Alice holds "Insubordination"
      And Bob has 1 command token in his tactic pool
      When Alice plays "Insubordination" targeting Bob
      Then the action is allowed
      And Bob has 0 command tokens in his tactic pool

  @ti4:2.4.1
  Rule: 2.4.1 A law can set the hand limit, for as long as it is in play
    # A ruling on a law needs an engine that declares it (ti4/law/Executive Sanctions): one
    # that does not model the law leaves these scenarios unsupported, never failed.
    Ruling: r1
    Source: The Council's illustrative example (no published ruling): Executive Sanctions, in play, limits each hand to three action cards
    Date: 2026-11-27
    Authority: The Council of Rules
    Status: official
    Cites: ti4:2.4.1#1 "A game effect can increase or decrease"

    Scenario: With Executive Sanctions in play, a fourth action card is over the limit
      Given the law "Executive Sanctions" is in play
      And Alice holds 3 cards
      And the action deck is 3 cards
      When Alice draws 1 action card
      Then Alice must keep 3 cards

    Scenario: Once Executive Sanctions is repealed, the limit is seven again
      Given it is the action phase, Alice's turn
      And the law "Executive Sanctions" is in play
      And Alice holds "Repeal Law" and 2 other cards
      And the action deck is 5 cards
      When Alice plays "Repeal Law" targeting the law "Executive Sanctions"
      And Alice draws 3 action cards
      Then no decision is pending
      And Alice holds 5 cards
      And the law "Executive Sanctions" is not in play

  @ti4:note-4
  Rule: Note 4 In a Politics deal, the reshuffle waits for those dealt from the old deck to discard down
    Ruling: r1
    Source: Living Rules Reference, 66 Politics, note 1 (https://www.tirules.com/R_politics)
    Date: 2026-11-27
    Authority: The Living Rules Reference, recorded by the Council of Rules
    Status: official
    Cites: ti4:note-4#1 "immediately shuffle the discard pile"
    Cites: ti4:66.note-1#2 "After those players have discarded down to their seven card hand limit, if necessary, the discard pile will be shuffled to form a new deck."
    Cites: ti4:66.note-1#3 "including the player who received the last action card from the previous deck"

    Scenario: The active player discards down before the reshuffle, then draws the rest of their cards
      # Alice takes the old deck's last card, goes over the limit and discards first; only
      # then is the pile (with her discard) shuffled, she takes her second card, discards
      # again, and Bob is dealt his two, the second after another reshuffle.
      Given it is the action phase, Alice's turn
      And Alice has the Politics strategy card
      And Carol is the speaker
      And card A is any card
      And card B is any other card
      And Alice holds 7 cards
      And the action deck is card A
      And the action discard pile is card B
      When Alice resolves the primary ability of Politics, choosing Bob as speaker, and Bob resolves its secondary ability
      Then Alice must keep 7 cards
      And the action deck is empty
      And the action discard pile is card B
      And Bob holds no cards
      When Alice keeps all cards but card A
      Then Alice must keep 7 cards
      And the action deck is 1 card
      And the action discard pile is empty
      When Alice keeps 7 cards
      Then Bob holds 2 cards
      And no decision is pending
      And the action deck is empty
      And the action discard pile is empty

  @ti4:2.6.2
  Rule: 2.6.2 Timing events: a ship, a roll, a combat round are each their own subject
    Source: Living Rules Reference, action card notes (https://www.tirules.com/C_action_cards)
    Date: 2026-11-27
    Authority: The Living Rules Reference, recorded by the Council of Rules
    Status: official
    Cites: ti4:2.6.2#1 "to affect the same units or game effect"
    Cites: ti4:1.20#1 "Each ability can be resolved once for each occurrence of that ability’s timing event."

    Scenario: A Direct Hit may be played for each ship that used SUSTAIN DAMAGE
      # Direct Hit, note 1: "If multiple ships use their Sustain Damage ability, a Direct
      # Hit may be played for each."
      Ruling: r4
      Given it is the action phase, Alice's turn
      And Alice holds "Direct Hit", "Direct Hit" and "Direct Hit"
      And Bob has 3 dreadnoughts
      When Bob's dreadnought, Bob's dreadnought 2 and Bob's dreadnought 3 use SUSTAIN DAMAGE to cancel hits produced by Alice
      And Alice plays "Direct Hit" targeting Bob's dreadnought
      And Alice plays "Direct Hit" targeting Bob's dreadnought 2
      And Alice plays "Direct Hit" targeting Bob's dreadnought 3
      Then Bob has 0 dreadnoughts
      And Alice holds no cards

    Scenario Outline: A second Shields Holding cannot cancel hits of the same roll, only of the next
      # Shields Holding, note 5: "A player cannot play a second Shields Holding to cancel a
      # second pair of hits produced by the same dice roll or other source."
      Ruling: r5
      Given it is the action phase, Alice's turn
      And Bob holds "Shields Holding" and "Shields Holding"
      When Alice makes a space combat roll that produces 4 hits against Bob
      And Bob plays "Shields Holding"
      And <between>
      And Bob plays "Shields Holding"
      Then the action is <outcome>
      And Alice's roll has 2 hits left

      Examples:
        | between                                                          | outcome                    |
        | all players pass                                                 | rejected, citing ti4:2.6.2 |
        | Alice makes a space combat roll that produces 4 hits against Bob | allowed                    |

    Scenario Outline: A second Morale Boost cannot be played in one combat round, only in the next
      # Morale Boost, note 1: "A second Morale Boost cannot be played during a combat round
      # to give +2 to the combat rolls of a player's units."
      Ruling: r6
      Given it is the action phase, Alice's turn
      And Alice holds "Morale Boost" and "Morale Boost"
      And Alice has a cruiser
      When round 1 of a space combat between Alice and Bob starts
      And Alice plays "Morale Boost"
      And <between>
      And Alice plays "Morale Boost"
      Then the action is <outcome>

      Examples:
        | between                                                | outcome                    |
        | all players pass                                       | rejected, citing ti4:2.6.2 |
        | round 2 of a space combat between Alice and Bob starts | allowed                    |

  @ti4:2.6
  Rule: 2.6 Reverse Engineer follows any discard of an "Action" card, however it was discarded
    Ruling: r1
    Source: Living Rules Reference, action card notes, Reverse Engineer, note 1 (https://www.tirules.com/C_action_cards)
    Date: 2026-11-27
    Authority: The Living Rules Reference, recorded by the Council of Rules
    Status: official
    Cites: ti4:2.6#2 "describes the timing of when that card’s ability can be resolved"

    Scenario: Reverse Engineer takes an "Action" card discarded after it was played
      Given it is the action phase, Alice's turn
      And Alice holds "Lucky Shot"
      And Bob has a destroyer
      And Carol holds "Reverse Engineer"
      When Alice plays "Lucky Shot" targeting Bob's destroyer
      And Carol plays "Reverse Engineer" targeting "Lucky Shot"
      Then Carol holds "Lucky Shot"
      And the action discard pile is "Reverse Engineer"

    Scenario: Reverse Engineer takes an "Action" card discarded to the hand limit
      Given it is the action phase, Alice's turn
      And Alice holds "Lucky Shot" and 6 other cards
      And Carol holds "Reverse Engineer"
      And the action deck is 2 cards
      When Alice draws 1 action card
      And Alice keeps all cards but "Lucky Shot"
      And Carol plays "Reverse Engineer" targeting "Lucky Shot"
      Then Carol holds "Lucky Shot"
      And Carol holds "Lucky Shot" as seen by Bob

  @ti4:2.1
  Rule: 2.1 The status phase's steps come in order
    Ruling: r1
    Source: The Council's illustrative example (no published ruling): the rules reference lists the status phase's steps in the order players perform them
    Date: 2026-11-27
    Authority: The Council of Rules
    Status: official
    Cites: ti4:2.1#1 "Each player draws one action card during each status phase."
    Cites: ti4:81#2 "players perform the following steps"

    Scenario Outline: Once the strategy cards are returned, the status phase's draw is past
      Given it is the status phase
      And the action deck is 6 cards
      When the status phase step "<step>" is resolved
      And the status phase step "Draw Action Cards" is resolved
      Then the action is <outcome>
      And Alice holds <cards>

      Examples:
        | step                    | outcome                  | cards    |
        | Return Strategy Cards   | rejected, citing ti4:2.1 | no cards |
        | Reveal Public Objective | allowed                  | 1 card   |

  @ti4:note-9
  Rule: Note 9 Uprising needs a readied planet of another player
    # Uprising, notes 1 and 2: "Uprising cannot be played if all planets owned by each other
    # player is exhausted." "Uprising cannot target an exhausted planet."
    Ruling: r1
    Source: Living Rules Reference, action card notes, Uprising, notes 1 and 2 (https://www.tirules.com/C_action_cards)
    Date: 2026-11-27
    Authority: The Living Rules Reference, recorded by the Council of Rules
    Status: official
    Cites: ti4:note-9#1 "that action card cannot be played if those objects do not currently exist"

    Scenario Outline: Uprising cannot be played when every planet of the other players is exhausted
      Given it is the action phase, Alice's turn
      And Alice holds "Uprising"
      And Bob controls the exhausted planet "Quann" with 2 resources and 1 influence
      And Carol controls the <state> "Lodor" with 3 resources and 1 influence
      When Alice plays "Uprising" targeting the planet "<target>"
      Then the action is <outcome>

      Examples:
        | state            | target | outcome  |
        | exhausted planet | Lodor  | rejected |
        | planet           | Quann  | rejected |
        | planet           | Lodor  | allowed  |

  @ti4:2.6.1
  Rule: 2.6.1 Impersonation needs three influence to spend
    # Impersonation, note 1: "A player cannot play Impersonation if they have less than three
    # influence available."
    Ruling: r2
    Source: Living Rules Reference, action card notes, Impersonation, note 1 (https://www.tirules.com/C_action_cards)
    Date: 2026-11-27
    Authority: The Living Rules Reference, recorded by the Council of Rules
    Status: official
    Cites: ti4:2.6.1#2 "cannot completely resolve its ability"
    Cites: ti4:1.12#3 "A player cannot resolve the effect of such an ability if they cannot resolve that ability’s cost."

    Scenario Outline: Impersonation is played only with three influence to spend
      Given it is the action phase, Alice's turn
      And Alice holds "Impersonation"
      And Alice controls the planet "Arinam" with 1 resources and 2 influence
      And Alice controls the <state> "Mecatol Rex" with 1 resources and 6 influence
      When Alice plays "Impersonation" spending the planet "<planet>"
      Then the action is <outcome>

      Examples:
        | state            | planet      | outcome                    |
        | planet           | Arinam      | rejected, citing ti4:2.6.1 |
        | exhausted planet | Mecatol Rex | rejected, citing ti4:2.6.1 |
        | planet           | Mecatol Rex | allowed                    |

  @ti4:2.8
  Rule: 2.8 A card cancelled by Sabotage pays no cost
    # Sabotage, note 2: "If an action card is cancelled by Sabotage, no costs are paid."
    Ruling: r1
    Source: Living Rules Reference, action card notes, Sabotage, note 2 (https://www.tirules.com/C_action_cards)
    Date: 2026-11-27
    Authority: The Living Rules Reference, recorded by the Council of Rules
    Status: official
    Cites: ti4:2.8#1 "that card has no effect"

    Scenario: Impersonation cancelled by Sabotage exhausts none of the planets it would spend
      Given it is the action phase, Alice's turn
      And Alice holds "Impersonation"
      And Alice controls the planet "Mecatol Rex" with 1 resources and 6 influence
      And Bob holds "Sabotage"
      When Alice plays "Impersonation" spending the planet "Mecatol Rex" and Bob cancels it with "Sabotage"
      Then the planet "Mecatol Rex" is readied
      And Alice has 0 secret objectives
