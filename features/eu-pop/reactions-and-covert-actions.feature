Feature: Reactions and Covert Actions
  A Reaction interrupts play: it is played out of turn, outside the Action Phase or while
  another card is being played, and takes no Turn. A Covert Action (a card, or an Action on
  a Display Card such as Spy Network's) can be countered by Counterespionage: it has no
  effect, it is discarded, its cost stays paid and, on a Display Card, its uses stay spent.

  Counterespionage is named: these rules are about it. Counterespionage is itself a Covert
  Action (5.4), so it can be countered in turn.

  Background:
    Given the players are Alice, Bob and Carol

  @eu-pop:6.2.reactions.1
  Rule: 6.2.reactions.1 Reactions interrupt play like other Reactions
    Cites: eu-pop:6.2.reactions.1#1 "are used to interrupt play just like other Reactions"
    Cites: eu-pop:5.2.reactions#4 "Action Cards may also be labeled as Reactions."

    Scenario Outline: A Reaction is played on any Turn and in any phase
      Cites: eu-pop:5.2.reactions#2 "It is possible to play a Reaction on another player's Turn, after you have Passed, or even outside of the Action Phase."
      Given it is the <moment>
      And card R is any reaction card
      And Bob holds card R
      When Bob plays card R
      Then Bob holds no cards

      Examples:
        | moment                     |
        | action phase, Alice's turn |
        | action phase, Bob's turn   |
        | draw phase                 |
        | peace phase                |
        | income phase               |
        | cleanup phase              |

    Scenario: A Reaction on another player's Turn leaves that Turn alone
      Cites: eu-pop:5.2.reactions#2 "It is possible to play a Reaction on another player's Turn"
      Given it is the action phase, Alice's turn
      And card R is any reaction card
      And card A is any action card
      And Bob holds card R
      And Alice holds card A
      And Alice can play card A
      When Bob plays card R
      And Alice plays card A
      Then Bob holds no cards
      And Alice holds no cards

    Scenario: A Reaction does not take its player's own Turn
      Cites: eu-pop:6.action-cards.2#1 "(unless otherwise specified)"
      Cites: eu-pop:5.2#1 "Minor Actions do not complete your Turn"
      Given it is the action phase, Alice's turn
      And card R is any reaction card
      And card A is any action card
      And Alice holds card R and card A
      And Alice has 9 of each Monarch Power
      And Alice can play card A
      When Alice plays card R
      And Alice plays card A
      Then Alice holds no cards

    Scenario: A Reaction interrupts a card being played
      Given it is the action phase, Alice's turn
      And card A is any action card
      And card R is any reaction card
      And Alice holds card A
      And Alice can play card A
      And Bob holds card R
      When Alice starts playing card A
      And Bob plays card R
      Then Bob holds no cards

    Scenario: The card that was interrupted resolves afterwards
      Given it is the action phase, Alice's turn
      And card A is any action card with an effect
      And card R is any reaction card
      And Alice holds card A
      And Alice can play card A
      And Bob holds card R
      When Alice starts playing card A
      And Bob plays card R
      Then the effect of card A has happened
      And Alice holds no cards
      And Bob holds no cards

  @eu-pop:6.2.covert.2
  Rule: 6.2.covert.2 Covert Actions can be countered by Counterespionage
    Cites: eu-pop:6.2.covert.2#1 "these can be countered by a Counterespionage card"

    Scenario: A countered Covert Action has no effect
      Cites: eu-pop:5.4.covert-actions#2 "they can be countered by the Counter-espionage card"
      Given it is the action phase, Alice's turn
      And card A is any covert action card with an effect
      And Alice holds card A
      And Alice can play card A
      And card R is any reaction card
      And Bob holds card R and "Counterespionage"
      When Alice starts playing card A
      And Bob starts playing card R
      And Bob plays "Counterespionage" targeting card A
      Then the effect of card A has not happened
      And Alice holds no cards
      And Bob holds no cards

    Scenario Outline: Counterespionage counters Covert Actions only
      Cites: eu-pop:5.4.covert-actions#2 "These are Actions that target other Realms for devious purposes, and they can be countered"
      Given it is the action phase, Alice's turn
      And card A is any <class>
      And Alice holds card A
      And Alice can play card A
      And card R is any reaction card
      And Bob holds card R and "Counterespionage"
      When Alice starts playing card A
      And Bob starts playing card R
      And Bob plays "Counterespionage" targeting card A
      Then the action is <outcome>
      And Bob holds <left>

      Examples:
        | class                        | outcome  | left               |
        | covert action card           | allowed  | no cards           |
        | action card that is not covert | rejected | "Counterespionage" |

    Scenario: A Covert Action on a Display Card is countered too
      Cites: eu-pop:6.2.covert.4#1 "If a Covert Action on a Display Card is prevented"
      Cites: eu-pop:3.0.2#4 "Unless otherwise stated in the scenario, each player now puts 3"
      Given it is the action phase, Alice's turn
      And card A is any display card with a covert action
      And Alice has card A on display
      And card R is any reaction card
      And Bob holds card R and "Counterespionage"
      When Alice starts using the covert action of card A that spends 2 charges
      And Bob starts playing card R
      And Bob plays "Counterespionage" targeting card A
      Then Alice has 15 ducats
      And Bob holds no cards

    Scenario: Counterespionage is a Covert Action too, and can be countered
      Cites: eu-pop:5.4.covert-actions#10 "Counterespionage (Action Card)"
      Given it is the action phase, Alice's turn
      And card A is any covert action card with an effect
      And Alice holds card A and "Counterespionage"
      And Alice can play card A
      And card R is any reaction card
      And Bob holds card R and "Counterespionage"
      When Alice starts playing card A
      And Bob starts playing card R
      And Bob starts playing "Counterespionage" targeting card A
      And Alice plays "Counterespionage" targeting "Counterespionage"
      Then the effect of card A has happened
      And Alice holds no cards
      And Bob holds no cards

  @eu-pop:6.2.covert.3
  Rule: 6.2.covert.3 A countered card is discarded and its cost is still paid
    Cites: eu-pop:6.2.covert.3#1 "If a card is countered, it is discarded"
    Cites: eu-pop:6.2.covert.3#2 "and its cost must still be paid."

    Scenario: The countered card is discarded and its cost stays paid
      Given it is the action phase, Alice's turn
      And card A is any covert action card
      And Alice holds card A
      And Alice can play card A
      And card R is any reaction card
      And Bob holds card R and "Counterespionage"
      When Alice starts playing card A
      And Bob starts playing card R
      And Bob plays "Counterespionage" targeting card A
      Then Alice has paid the cost of card A
      And the diplomatic discard pile is card A and "Counterespionage" in any order
      And Alice holds no cards

    Scenario: A countered Counterespionage is discarded and its cost stays paid
      Cites: eu-pop:5.4.covert-actions#10 "Counterespionage (Action Card)"
      Given it is the action phase, Alice's turn
      And card A is any covert action card
      And Alice holds card A and "Counterespionage"
      And Alice can play card A
      And card R is any reaction card
      And Bob holds card R and "Counterespionage"
      When Alice starts playing card A
      And Bob starts playing card R
      And Bob starts playing "Counterespionage" targeting card A
      And Alice plays "Counterespionage" targeting "Counterespionage"
      Then Bob has paid the cost of "Counterespionage"
      And the diplomatic discard pile is card A, "Counterespionage" and "Counterespionage" in any order

  @eu-pop:6.2.covert.4
  Rule: 6.2.covert.4 A prevented Covert Action on a Display Card still spends its uses
    Cites: eu-pop:6.2.covert.4#1 "the indicated number of uses"

    Scenario Outline: A prevented Action still spends every use it indicates
      Given it is the action phase, Alice's turn
      And card A is any display card with a covert action
      And Alice has card A on display with 3 charges
      And card R is any reaction card
      And Bob holds card R and "Counterespionage"
      When Alice starts using the covert action of card A that spends <spent>
      And Bob starts playing card R
      And Bob plays "Counterespionage" targeting card A
      Then Alice has card A on display with <left>

      Examples:
        | spent     | left      |
        | 1 charge  | 2 charges |
        | 2 charges | 1 charge  |

    Scenario: A prevented Action that spends the last use still empties the card
      Cites: eu-pop:6.2.display.8#1 "on a Display Card has been spent, discard the card."
      Given it is the action phase, Alice's turn
      And card A is any display card with a covert action
      And Alice has card A on display with 1 charge
      And card R is any reaction card
      And Bob holds card R and "Counterespionage"
      When Alice starts using the covert action of card A that spends 1 charge
      And Bob starts playing card R
      And Bob plays "Counterespionage" targeting card A
      Then Alice has 0 cards on display
