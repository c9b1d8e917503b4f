Feature: Playing action cards
  When a card may be played, what it may target, how it resolves, and what
  cancelling it does. A rule that is not about one card plays "card A": any
  card of the class it needs that the engine models, picked for each run and
  shown in the report. Cards are named only where a rule is about them
  (Sabotage, which cancels; the examples the notes give).

  Background:
    Given the players are Alice, Bob and Carol

  @ti4:2.6
  Rule: 2.6 A card's first paragraph gives the timing of its ability
    Cites: ti4:2.6#2 "describes the timing of when that card’s ability can be resolved"

    Scenario Outline: A card is played in its own timing window, in its own phase
      Given card A is any <class>
      And it is <when>
      And Alice holds card A
      And Alice can play card A
      When Alice plays card A
      Then the action is <outcome>

      Examples:
        | class                          | when                                           | outcome  |
        | window card of the action phase | card A's timing window on Alice's turn         | allowed  |
        | window card of the action phase | card A's phase but another timing window       | rejected |
        | window card of the action phase | card A's timing window but another phase       | rejected |
        | agenda card                    | card A's timing window                         | allowed  |
        | agenda card                    | card A's phase but another timing window       | rejected |
        | agenda card                    | card A's timing window but another phase       | rejected |

    Scenario Outline: Sabotage answers another player's card while it is being played
      Cites: ti4:1.16#1 "the ability’s effect occurs at the moment of the described timing event"
      Given card A is any <class>
      And it is card A's timing window on Alice's turn
      And Alice holds <alice holds>
      And Alice can play card A
      And Bob holds "Sabotage"
      When <first>
      And <second>
      Then the action is <outcome>

      Examples:
        | class         | alice holds           | first                                                          | second                                               | outcome  |
        | "Action" card | card A                | Alice starts playing card A                                    | Bob starts playing "Sabotage" targeting card A       | allowed  |
        | agenda card   | card A                | Alice starts playing card A                                    | Bob starts playing "Sabotage" targeting card A       | allowed  |
        | "Action" card | card A                | Alice plays card A                                             | Bob starts playing "Sabotage" targeting card A       | rejected |
        | "Action" card | card A and "Sabotage" | Alice starts playing card A                                    | Alice starts playing "Sabotage" targeting card A     | rejected |
        | "Action" card | card A and "Sabotage" | Alice starts playing card A and Bob cancels it with "Sabotage" | Alice starts playing "Sabotage" targeting "Sabotage" | rejected |

    Scenario Outline: A timing event opens its window to the player the card's timing names
      Cites: ti4:1.23#1 "describes when a player can resolve that card’s ability"
      # "Before you assign hits to your ships": the moment belongs to the player the roll's
      # hits are against, not to the one who rolled nor to a player outside the combat.
      Given it is the action phase, Alice's turn
      And <player> holds "Shields Holding"
      When Alice makes a space combat roll that produces 3 hits against Bob
      And <player> plays "Shields Holding"
      Then the action is <outcome>

      Examples:
        | player | outcome  |
        | Bob    | allowed  |
        | Carol  | rejected |

    Scenario Outline: A discard by the hand limit opens Reverse Engineer's window, for a card with a component action
      Cites: ti4:1.14#1 "the ability’s effect occurs immediately before or after the described timing event"
      # Reverse Engineer is played after another player discards an action card that has a
      # component action: Alice's hand-limit discard is such a discard when the card she
      # discards is an "Action" card.
      Given it is the action phase, Alice's turn
      And Alice holds "Lucky Shot", "Morale Boost" and 5 other cards
      And Bob holds "Reverse Engineer"
      And the action deck is 2 cards
      When Alice draws 1 action card
      And Alice keeps all cards but "<card>"
      And Bob plays "Reverse Engineer" targeting "<card>"
      Then the action is <outcome>
      And Bob holds <hand>

      Examples:
        | card         | outcome  | hand               |
        | Lucky Shot   | allowed  | "Lucky Shot"       |
        | Morale Boost | rejected | "Reverse Engineer" |

  @ti4:2.6.1
  Rule: 2.6.1 An "Action" card is a component action, only if it can be completely resolved
    Cites: ti4:2.6.1#1 "a player must use a component action during the action phase to resolve the ability"

    Scenario Outline: An "Action" card is played as its player's action in the action phase
      Cites: ti4:22#1 "a player can perform during their turn of an action phase"
      Given card A is any "Action" card
      And it is <when>
      And Alice holds card A
      And Alice can play card A
      When Alice plays card A
      Then the action is <outcome>

      Examples:
        | when                           | outcome  |
        | the action phase, Alice's turn | allowed  |
        | the action phase, Bob's turn   | rejected |
        | the status phase               | rejected |
        | the agenda phase               | rejected |

    Scenario Outline: A component action needs the player's action for the turn
      Cites: ti4:66.1#1 "they can perform a strategic action"
      Cites: ti4:22.4#1 "it does not use that player’s action"
      Given card A is any "Action" card
      And it is card A's timing window on Alice's turn
      And Alice has the Politics strategy card
      And Alice holds card A
      And Alice can play card A
      And the action deck is 3 cards
      When <before>
      And Alice plays card A
      Then the action is <outcome>

      Examples:
        | before                                                                   | outcome  |
        | Alice reveals card A                                                     | allowed  |
        | Alice resolves the primary ability of Politics, choosing Bob as speaker  | rejected |

    Scenario Outline: A component action that cannot be completely resolved cannot be played
      Cites: ti4:2.6.1#2 "A player cannot resolve a component action if they cannot completely resolve its ability."
      Cites: ti4:22.3#1 "A component action cannot be performed if its ability cannot be completely resolved."
      Given card A is any "Action" card that may not resolve completely
      And it is card A's timing window on Alice's turn
      And Alice holds card A
      And <situation>
      When Alice plays card A
      Then the action is <outcome>

      Examples:
        | situation                                                             | outcome                    |
        | Alice can play card A                                                 | allowed                    |
        | Alice would play card A when its ability cannot be completely resolved | rejected, citing ti4:2.6.1 |

    Scenario Outline: A cancelled component action does not use the player's action
      Cites: ti4:22.4#1 "If a component action is canceled, it does not use that player’s action."
      Given card A is any "Action" card
      And it is card A's timing window on Alice's turn
      And Alice has the Politics strategy card
      And Alice holds card A
      And Alice can play card A
      And Bob holds "Sabotage"
      And the action deck is 3 cards
      When <first>
      And Alice resolves the primary ability of Politics, choosing Bob as speaker
      Then the action is <outcome>

      Examples:
        | first                                                  | outcome  |
        | Alice plays card A and Bob cancels it with "Sabotage"  | allowed  |
        | Alice plays card A                                     | rejected |

    Scenario Outline: A component action whose cost cannot be paid cannot be played
      Cites: ti4:1.12#3 "A player cannot resolve the effect of such an ability if they cannot resolve that ability’s cost."
      # Impersonation spends three influence: Alice's readied planets Arinam (2) and Lodor (1)
      # pay it; Lodor alone, or the exhausted Meer, do not.
      Given it is the action phase, Alice's turn
      And Alice holds "Impersonation"
      And Alice controls the planet "Arinam" with 1 resources and 2 influence
      And Alice controls the planet "Lodor" with 3 resources and 1 influence
      And Alice controls the exhausted planet "Meer" with 0 resources and 4 influence
      When Alice plays "Impersonation" spending <planets>
      Then the action is <outcome>

      Examples:
        | planets                          | outcome                    |
        | the planets "Arinam" and "Lodor" | allowed                    |
        | the planet "Lodor"               | rejected, citing ti4:2.6.1 |
        | the planet "Meer"                | rejected, citing ti4:2.6.1 |

  @ti4:2.6.2
  Rule: 2.6.2 Same-name cards cannot affect the same thing in one timing window
    Cites: ti4:2.6.2#1 "cannot be played during a single timing window to affect the same units or game effect"

    Scenario Outline: A second card of one name cannot affect the same thing in one window
      Given card A is any window card with copies that can affect the same thing again
      And it is card A's timing window on Alice's turn
      And Alice holds card A and card A
      And Alice can play card A
      When Alice plays card A
      And <between>
      And Alice plays card A
      Then the action is <outcome>

      Examples:
        | between                                 | outcome  |
        | all players pass                        | rejected |
        | the timing window of card A opens again | allowed  |

    Scenario: Cards of one name may affect different things in one window
      Given card A is any window card with copies aimed at a player
      And it is card A's timing window on Alice's turn
      And Alice holds card A and card A
      And Alice can play card A at Bob
      And Alice can play card A at Carol
      When Alice plays card A at Bob
      And Alice plays card A at Carol
      Then the effect of card A has happened
      And Alice holds no cards

    Scenario Outline: A new occurrence of a timing event lets a card of the same name affect the same thing again
      Cites: ti4:1.20#1 "Each ability can be resolved once for each occurrence of that ability’s timing event."
      # A roll's hits are one game effect, and so is a combat round's: a second card of the
      # name affects them only after the next roll or round.
      Given it is the action phase, Alice's turn
      And Bob holds "<card>" and "<card>"
      And Bob has a cruiser
      When <event>
      And Bob plays "<card>"
      And <between>
      And Bob plays "<card>"
      Then the action is <outcome>

      Examples:
        | card            | event                                                             | between                                                           | outcome  |
        | Shields Holding | Alice makes a space combat roll that produces 4 hits against Bob | all players pass                                                  | rejected |
        | Shields Holding | Alice makes a space combat roll that produces 4 hits against Bob | Alice makes a space combat roll that produces 3 hits against Bob | allowed  |
        | Morale Boost    | round 1 of a space combat between Alice and Bob starts           | all players pass                                                  | rejected |
        | Morale Boost    | round 1 of a space combat between Alice and Bob starts           | round 2 of a space combat between Alice and Bob starts           | allowed  |

  @ti4:2.7
  Rule: 2.7 A played card resolves, then goes to the action discard pile
    Cites: ti4:2.7#1 "a player reads and resolves the card’s ability text"
    Cites: ti4:2.7#2 "Then, that player discards the card, placing it in the action discard pile."

    Scenario Outline: A played card resolves, then goes to the action discard pile
      Given card A is any <class>
      And card B is any other card
      And it is card A's timing window on Alice's turn
      And Alice holds card A
      And Alice can play card A
      And the action deck is 2 cards
      And the action discard pile is card B
      When Alice plays card A
      Then the effect of card A has happened
      And Alice holds no cards
      And the action discard pile is card A and card B in any order

      Examples:
        | class                                                |
        | "Action" card                                        |
        | window card of the action phase that shows its effect |
        | agenda card                                          |

    Scenario: A card resolves only when every player has passed, and is discarded then
      Cites: ti4:1.16#1 "the ability’s effect occurs at the moment of the described timing event"
      Cites: ti4:1.note-5.3#1 "Once every player has consecutively declined to resolve an ability during a timing window"
      Given card A is any "Action" card
      And it is card A's timing window on Alice's turn
      And Alice holds card A
      And Alice can play card A
      When Alice starts playing card A
      Then the effect of card A has not happened
      And Alice holds no cards
      And the action discard pile is empty
      When all players pass
      Then the effect of card A has happened
      And the action discard pile is card A

    Scenario Outline: A card that is not in the hand cannot be played
      Cites: ti4:2.5#1 "A player’s action cards remain hidden from other players until those cards are played."
      Given card A is any "Action" card
      And card B is any other card
      And it is card A's timing window on Alice's turn
      And Alice holds <hand>
      And Alice can play card A
      When Alice plays card A
      Then the action is <outcome>

      Examples:
        | hand   | outcome  |
        | card A | allowed  |
        | card B | rejected |

    Scenario Outline: Direct Hit destroys a ship that used SUSTAIN DAMAGE, not another
      Cites: ti4:1.14#1 "the ability’s effect occurs immediately before or after the described timing event"
      # "That ship": the ship (or one of the ships) whose SUSTAIN DAMAGE opened the window.
      Given it is the action phase, Alice's turn
      And Alice holds "Direct Hit"
      And Bob has 2 dreadnoughts
      When <ships> SUSTAIN DAMAGE to cancel hits produced by Alice
      And Alice plays "Direct Hit" targeting <target>
      Then the action is <outcome>

      Examples:
        | ships                                         | target              | outcome                  |
        | Bob's dreadnought uses                        | Bob's dreadnought   | allowed                  |
        | Bob's dreadnought uses                        | Bob's dreadnought 2 | rejected, citing ti4:2.7 |
        | Bob's dreadnought and Bob's dreadnought 2 use | Bob's dreadnought 2 | allowed                  |

    Scenario Outline: A card's cost is paid and its effect carried out when it resolves
      Cites: ti4:1.12#1 "Some abilities have a cost that is followed by an effect."
      Given it is the action phase, Alice's turn
      And Alice holds "<card>"
      And Alice controls the planet "Arinam" with 1 resources and 2 influence
      And Alice controls the planet "Lodor" with 3 resources and 1 influence
      And Bob controls the planet "Quann" with 2 resources and 1 influence
      When Alice plays "<card>" <how>
      Then the planet "<exhausted>" is exhausted
      And Alice has <tg> trade goods
      And Alice has <so> secret objectives
      And Alice holds no cards

      Examples:
        | card          | how                                       | exhausted | tg | so |
        | Uprising      | targeting the planet "Quann"              | Quann     | 2  | 0  |
        | Impersonation | spending the planets "Arinam" and "Lodor" | Lodor     | 0  | 1  |

    Scenario Outline: Shields Holding cancels up to two hits of the roll it follows
      Cites: ti4:1.14#1 "immediately before or after the described timing event"
      Given it is the action phase, Alice's turn
      And Bob holds "Shields Holding"
      When Alice makes a space combat roll that produces <hits> hits against Bob
      And Bob plays "Shields Holding"
      Then Alice's roll has <left> hits left
      And Bob holds no cards

      Examples:
        | hits | left |
        | 3    | 1    |
        | 1    | 0    |

  @ti4:2.8
  Rule: 2.8 A cancelled card has no effect and is discarded
    Cites: ti4:2.8#1 "that card has no effect"
    Cites: ti4:2.8#2 "and is discarded"

    Scenario Outline: A cancelled card has no effect and is discarded, in every phase
      Given card A is any <class>
      And it is card A's timing window on Alice's turn
      And Alice holds card A
      And Alice can play card A
      And Bob holds "Sabotage"
      When Alice plays card A and Bob cancels it with "Sabotage"
      Then the effect of card A has not happened
      And Alice holds no cards
      And Bob holds no cards
      And the action discard pile is card A and "Sabotage" in any order

      Examples:
        | class                                                |
        | "Action" card                                        |
        | window card of the action phase that shows its effect |
        | agenda card                                          |

    Scenario: A cancelled card's cost is not paid
      Cites: ti4:1.12#1 "Some abilities have a cost that is followed by an effect."
      # Impersonation spends Arinam's and Lodor's influence when it resolves; cancelled, it
      # never does.
      Given it is the action phase, Alice's turn
      And Alice holds "Impersonation"
      And Alice controls the planet "Arinam" with 1 resources and 2 influence
      And Alice controls the planet "Lodor" with 3 resources and 1 influence
      And Bob holds "Sabotage"
      When Alice plays "Impersonation" spending the planets "Arinam" and "Lodor" and Bob cancels it with "Sabotage"
      Then the planet "Arinam" is readied
      And the planet "Lodor" is readied
      And Alice has 0 secret objectives
      And the action discard pile is "Impersonation" and "Sabotage" in any order

  @ti4:note-6
  Rule: Note 6 After a card is cancelled, its owner may play a second copy
    Cites: ti4:note-6#1 "if that player has a second copy of that action card, they may play it"
    Cites: ti4:2.6.2#2 "Canceled cards are not treated as being played."

    Scenario Outline: A second copy may be played once the first is cancelled
      Given card A is any window card with copies that can affect the same thing again
      And it is card A's timing window on Alice's turn
      And Alice holds card A and card A
      And Alice can play card A
      And Bob holds "Sabotage"
      When <first>
      And Alice plays card A
      Then the action is <outcome>

      Examples:
        | first                                                  | outcome  |
        | Alice plays card A and Bob cancels it with "Sabotage"  | allowed  |
        | Alice plays card A                                     | rejected |

  @ti4:note-7
  Rule: Note 7 A player cannot target themselves with offensive action cards
    Cites: ti4:note-7#1 "A player cannot target themselves with offensive action cards"

    Scenario Outline: An offensive card cannot be aimed at its own player
      Given card A is any <class>
      And it is card A's timing window on Alice's turn
      And Alice holds card A
      And Alice can play card A at Alice
      And Alice can play card A at Bob
      When Alice plays card A at <target>
      Then the action is <outcome>

      Examples:
        | class                   | target | outcome  |
        | offensive "Action" card | Bob    | allowed  |
        | offensive "Action" card | Alice  | rejected |
        | offensive window card   | Bob    | allowed  |
        | offensive window card   | Alice  | rejected |

    Scenario Outline: Lucky Shot cannot destroy the player's own ship
      Cites: ti4:note-7#1 "such as Lucky Shot"
      Given it is the action phase, Alice's turn
      And Alice holds "Lucky Shot"
      And Alice has a destroyer
      And Bob has a destroyer
      When Alice plays "Lucky Shot" targeting <owner>'s destroyer
      Then the action is <outcome>

      Examples:
        | owner | outcome  |
        | Bob   | allowed  |
        | Alice | rejected |

  @ti4:note-8
  Rule: Note 8 "Any number", "up to" and "each" targets may be zero
    Cites: ti4:note-8#1 "that action card may target zero of those objects"

    Scenario Outline: A card aimed at any number or each of some objects may affect none
      Cites: ti4:note-8#2 "these cards may be played even if they would cause no effect"
      Given card A is any <class>
      And it is card A's timing window on Alice's turn
      And Alice holds card A
      And Alice would play card A when it would affect zero objects
      When Alice plays card A
      Then the action is allowed
      And Alice holds no cards
      And the action discard pile is card A

      Examples:
        | class                                  |
        | card aimed at "any number" of objects  |
        | card aimed at "each" object            |

    Scenario: A card aimed at any number of objects may affect some of them
      Given card A is any card aimed at "any number" of objects
      And it is card A's timing window on Alice's turn
      And Alice holds card A
      And Alice can play card A
      When Alice plays card A
      Then the effect of card A has happened

  @ti4:note-9
  Rule: Note 9 A card that targets a specific number of objects needs them to exist
    Cites: ti4:note-9#1 "that action card cannot be played if those objects do not currently exist"

    Scenario Outline: A card aimed at specific objects cannot be played when none exists
      Given card A is any <class>
      And it is card A's timing window on Alice's turn
      And Alice holds card A
      And <situation>
      When Alice plays card A
      Then the action is <outcome>

      Examples:
        | class                                 | situation                                                   | outcome                     |
        | window card aimed at specific objects | Alice can play card A                                       | allowed                     |
        | window card aimed at specific objects | Alice would play card A when nothing it could target exists | rejected                    |
        | window card aimed at specific objects | Alice would play card A when its target does not exist      | rejected                    |
        | card aimed at specific objects        | Alice can play card A                                       | allowed                     |
        | card aimed at specific objects        | Alice would play card A when nothing it could target exists | rejected                    |
        | card aimed at specific objects        | Alice would play card A when its target does not exist      | rejected                    |
        | card aimed at specific objects        | Alice would play card A when nothing it could target exists | rejected, citing ti4:note-9 |
        | card aimed at specific objects        | Alice would play card A when its target does not exist      | rejected, citing ti4:note-9 |

    Scenario: Repeal Law cannot be played when no law is in play
      Cites: ti4:note-9#2 "Repeal Law cannot be played if there are no laws in play"
      Twin: Repeal Law can be played when a law is in play
      Given it is the action phase, Alice's turn
      And Alice holds "Repeal Law"
      When Alice plays "Repeal Law" targeting the law "Minister of Commerce"
      Then the action is rejected, citing ti4:note-9

    Scenario: Repeal Law can be played when a law is in play
      Cites: ti4:note-9#2 "Repeal Law cannot be played if there are no laws in play"
      Given it is the action phase, Alice's turn
      And Alice holds "Repeal Law"
      And the law "Minister of Commerce" is in play
      When Alice plays "Repeal Law" targeting the law "Minister of Commerce"
      Then the action is allowed
      And the law "Minister of Commerce" is not in play

    Scenario Outline: Uprising needs a readied planet of another player outside their home system
      # Uprising exhausts a planet of another player that is not in their home system: with
      # Bob's only planet exhausted, or in his home system, there is none.
      Given it is the action phase, Alice's turn
      And Alice holds "Uprising"
      And Bob controls the <planet> "Quann" with 2 resources and 1 influence
      When Alice plays "Uprising" targeting the planet "Quann"
      Then the action is <outcome>

      Examples:
        | planet           | outcome                     |
        | planet           | allowed                     |
        | exhausted planet | rejected, citing ti4:note-9 |
        | home planet      | rejected, citing ti4:note-9 |
