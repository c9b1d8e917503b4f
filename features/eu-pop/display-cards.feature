Feature: Display Cards
  A Display Card is placed face up on display and charged when played. In later Turns its
  player may take the Actions it lists: each costs Monarch Power, normally takes a Turn, and
  spends a charge (or more); the last charge spent discards the card. A player has at most 2
  Display Cards in play, never 2 of the same.

  The Actions of a Display Card are named by their sort: "an action of card A" takes a
  Turn, "the battle action", "the reaction" and "the covert action" are marked as such; "that
  spends 2 charges" picks the Action that spends that many.

  Background:
    Given the players are Alice, Bob and Carol

  @eu-pop:6.2.display.2
  Rule: 6.2.display.2 A played Display Card is placed face up on display and charged
    Cites: eu-pop:6.2.display.2#1 "they are placed face-up on display when played"
    Cites: eu-pop:6.2.display.2#2 "charged up with a number of your"

    Scenario: A played Display Card goes on display with its charges
      Given it is the action phase, Alice's turn
      And card A is any display card
      And Alice holds card A
      When Alice plays card A
      Then Alice has card A on display, fully charged
      And Alice holds no cards

    Scenario: A Display Card is face up: every player and spectator sees it
      Given it is the action phase, Alice's turn
      And card A is any display card
      And Alice holds card A
      When Alice plays card A
      Then Alice has card A on display, fully charged as seen by Bob
      And Alice has card A on display, fully charged as seen by a spectator

    Scenario: A second Display Card is placed beside the first
      Cites: eu-pop:6.2.display.9#1 "You can have a maximum of 2 Display Cards"
      Given it is the action phase, Alice's turn
      And card A is any display card
      And card B is any other display card
      And Alice has card A on display with 1 charge
      And Alice holds card B
      When Alice plays card B
      Then Alice has card B on display, fully charged
      And Alice has card A on display with 1 charge

    Scenario: A third Display Card is placed and charged too, whichever card is discarded
      Cites: eu-pop:6.2.display.10#1 "If you play a Display Card when you already have 2 in play, discard 1 of the cards in play."
      Given it is the action phase, Alice's turn
      And card D is any display card
      And card E is any other display card
      And card F is any other display card
      And Alice has card D on display
      And Alice holds card E and card F
      And Alice has 9 of each Monarch Power
      When Alice plays card E
      And Alice's turn comes round again
      And Alice plays card F
      And Alice discards card D
      Then Alice has card F on display, fully charged

  @eu-pop:6.2.display.4
  Rule: 6.2.display.4 In later Turns its Actions are available to the player who played it
    Cites: eu-pop:6.2.display.4#1 "In subsequent Turns, when on display, a Display Card makes the Actions listed on the card available to the player who played it."

    Scenario: The player who played it takes its Action in a later Turn
      Cites: eu-pop:4.2#1 "players take Turns in clockwise order"
      Given it is the action phase, Alice's turn
      And card A is any display card with an action
      And Alice holds card A
      When Alice plays card A
      And Alice's turn comes round again
      And Alice uses an action of card A
      Then Alice has card A on display

    Scenario Outline: Its Actions are not available in the Turn it is played
      Cites: eu-pop:6.2.display.6#1 "marked as Battle Actions or Reactions"
      Cites: eu-pop:4.2#1 "players take Turns in clockwise order"
      Given it is the action phase, Alice's turn
      And card A is any display card with a reaction
      And card B is any other action card
      And Alice holds card A and card B
      When Alice plays card A
      And <between>
      And Alice uses the reaction of card A
      Then the action is <outcome>

      Examples:
        | between                        | outcome  |
        | Alice appoints card B          | rejected |
        | Alice's turn comes round again | allowed  |

    Scenario Outline: Only the player who played it can take its Actions
      Given it is the action phase, Bob's turn
      And card A is any display card with an action
      And <where>
      And Bob has 9 of each Monarch Power
      When Bob uses an action of card A
      Then the action is <outcome>

      Examples:
        | where                       | outcome  |
        | Alice has card A on display | rejected |
        | Bob has card A on display   | allowed  |
        | Bob holds card A            | rejected |

  @eu-pop:6.2.display.5
  Rule: 6.2.display.5 Its Actions work like other Actions: they cost Monarch Power and take a Turn
    Cites: eu-pop:6.2.display.5#1 "These Actions work just like any other Actions in the game"

    Scenario: An Action on a Display Card costs its Monarch Power
      Given it is the action phase, Alice's turn
      And card A is any display card with an action
      And Alice has card A on display
      When Alice uses an action of card A
      Then Alice has paid the cost of the action taken on card A

    Scenario: An Action on a Display Card resolves its effect
      Cites: eu-pop:6.action-cards.6#1 "resolve its effect right away"
      Given it is the action phase, Alice's turn
      And card A is any display card with an action that has an effect
      And Alice has card A on display
      When Alice uses an action of card A that has an effect
      Then the effect of the action taken on card A has happened

    Scenario Outline: An Action whose cost cannot be paid cannot be taken
      Cites: eu-pop:4.2.taking-a-turn#2 "Monarch Power costs that must be paid"
      Given it is the action phase, Alice's turn
      And card A is any display card with an action
      And Alice has card A on display
      And Alice has <amount> Monarch Power for an action of card A
      When Alice uses an action of card A
      Then the action is <outcome>

      Examples:
        | amount      | outcome  |
        | one too few | rejected |
        | just enough | allowed  |

    Scenario Outline: An Action on a Display Card takes the Turn
      Cites: eu-pop:6.2.display.5#1 "normally take a Turn to perform"
      Cites: eu-pop:4.0.2#1 "Players take Turns performing 1 Action at a time"
      Cites: eu-pop:4.2#1 "players take Turns in clockwise order"
      Given it is the action phase, Alice's turn
      And card A is any display card with an action
      And card B is any other display card with an action
      And card C is any action card
      And Alice has card A on display
      And Alice has card B on display
      And Alice holds card C
      And Alice has 9 of each Monarch Power
      When Alice uses an action of card A
      And <between>
      And Alice uses an action of card B
      Then the action is <outcome>

      Examples:
        | between                        | outcome  |
        | Alice appoints card C          | rejected |
        | Alice's turn comes round again | allowed  |

    Scenario Outline: An Action on a Display Card waits for its player's Turn
      Cites: eu-pop:6.2.display.5#1 "normally take a Turn to perform"
      Cites: eu-pop:4.2.taking-a-turn#1 "On their Turn, the Active Player"
      Given it is the <moment>
      And card A is any display card with an action
      And Alice has card A on display
      When Alice uses an action of card A
      Then the action is <outcome>

      Examples:
        | moment                     | outcome  |
        | action phase, Alice's turn | allowed  |
        | action phase, Bob's turn   | rejected |
        | cleanup phase              | rejected |

  @eu-pop:6.2.display.6
  Rule: 6.2.display.6 Its Battle Actions and Reactions are treated as such
    Cites: eu-pop:6.2.display.6#1 "some of them are marked as Battle Actions or Reactions, and are treated as such"

    Each scenario first plays a Battle Action card or a Reaction card at the same moment:
    if that is refused, the rule for such cards is charged, not this one.

    Scenario Outline: A Battle Action on a Display Card is used in a Battle, even on another player's Turn
      Cites: eu-pop:6.2.battle.2#2 "even if it is not your Turn"
      Cites: eu-pop:9.7#1 "At any point during the Action Phase or Peace & Rebels Phase, a Land Battle will commence"
      Given it is the <moment>
      And Bob attacks Alice in a battle
      And card B is any battle action card
      And card A is any display card with a battle action
      And Alice holds card B
      And Alice has card A on display with 2 charges
      When Alice plays card B
      And Alice uses the battle action of card A that spends 1 charge
      Then Alice has card A on display with 1 charge

      Examples:
        | moment                   |
        | action phase, Bob's turn |
        | peace phase              |

    Scenario Outline: A Battle Action on a Display Card waits for the "Play Battle Actions" step
      Cites: eu-pop:6.2.battle.1#1 "meant to be played during Battles in the"
      Given it is the action phase, Alice's turn
      And Bob attacks Alice in a battle<step>
      And card B is any battle action card
      And card A is any display card with a battle action
      And Alice holds card B
      And Alice has card A on display with 2 charges
      When Alice plays card B
      Then the action is <outcome>
      When Alice uses the battle action of card A that spends 1 charge
      Then the action is <outcome>

      Examples:
        | step                              | outcome  |
        |                                   | allowed  |
        | , in its "Roll Battle Dice" step  | rejected |

    Scenario Outline: A Reaction on a Display Card is used on another player's Turn or in another phase
      Cites: eu-pop:5.2.reactions#2 "It is possible to play a Reaction on another player's Turn, after you have Passed, or even outside of the Action Phase."
      Given it is the <moment>
      And card R is any reaction card
      And card A is any display card with a reaction
      And Alice holds card R
      And Alice has card A on display with 2 charges
      When Alice plays card R
      And Alice uses the reaction of card A that spends 1 charge
      Then Alice has card A on display with 1 charge

      Examples:
        | moment                   |
        | action phase, Bob's turn |
        | cleanup phase            |

    Scenario: A Reaction on a Display Card is used after the Turn's Action is taken
      Cites: eu-pop:6.2.reactions.1#1 "are used to interrupt play just like other Reactions"
      Given it is the action phase, Alice's turn
      And card C is any action card
      And card R is any reaction card
      And card A is any display card with a reaction
      And Alice holds card C and card R
      And Alice has 9 of each Monarch Power
      And Alice has card A on display with 2 charges
      And Alice can play card C
      When Alice plays card C
      And Alice plays card R
      And Alice uses the reaction of card A that spends 1 charge
      Then Alice has card A on display with 1 charge

  @eu-pop:6.2.display.7
  Rule: 6.2.display.7 Each use removes a charge, or more if the card says so
    Cites: eu-pop:6.2.display.7#1 "Each time you take one of the Actions on a Display Card, remove a"

    Scenario: A use removes one charge
      Given it is the action phase, Alice's turn
      And card A is any display card with an action spending 1 charge
      And Alice has card A on display with 3 charges
      When Alice uses an action of card A that spends 1 charge
      Then Alice has card A on display with 2 charges

    Scenario: Two uses in a row remove a charge each
      Cites: eu-pop:6.2.display.7#1 "Each time you take one of the Actions on a Display Card"
      Given it is the action phase, Alice's turn
      And card A is any display card with an action spending 1 charge
      And Alice has card A on display with 3 charges
      And Alice has 9 of each Monarch Power
      When Alice uses an action of card A that spends 1 charge
      And Alice's turn comes round again
      And Alice uses an action of card A that spends 1 charge
      Then Alice has card A on display with 1 charge

    Scenario: An Action that says so removes more charges
      Cites: eu-pop:6.2.display.7#1 "(or more if the text says so)"
      Given it is the action phase, Alice's turn
      And card A is any display card with an action spending 2 charges
      And Alice has card A on display with 4 charges
      When Alice uses an action of card A that spends 2 charges
      Then Alice has card A on display with 2 charges

    Scenario Outline: An Action needing more charges than are left cannot be taken
      Cites: eu-pop:6.2.display.7#1 "from the available uses on that card"
      Given it is the action phase, Alice's turn
      And card A is any display card with an action spending 2 charges
      And Alice has card A on display with <charges>
      When Alice uses an action of card A that spends 2 charges
      Then the action is <outcome>

      Examples:
        | charges   | outcome  |
        | 1 charge  | rejected |
        | 2 charges | allowed  |
        | 3 charges | allowed  |

  @eu-pop:6.2.display.8
  Rule: 6.2.display.8 Once its last charge is spent, the Display Card is discarded
    Cites: eu-pop:6.2.display.8#1 "on a Display Card has been spent, discard the card."

    Scenario Outline: Spending the last charge discards the card
      Cites: eu-pop:6.decks.2#1 "placing discarded cards face-up"
      Given it is the action phase, Alice's turn
      And card A is any display card with an action spending <spent>
      And Alice has card A on display with <left>
      When Alice uses an action of card A that spends <spent>
      Then Alice has 0 cards on display
      And card A is on top of its deck's discard pile

      Examples:
        | spent     | left      |
        | 1 charge  | 1 charge  |
        | 2 charges | 2 charges |

    Scenario: A card with charges left stays on display
      Given it is the action phase, Alice's turn
      And card A is any display card with an action spending 1 charge
      And Alice has card A on display with 2 charges
      When Alice uses an action of card A that spends 1 charge
      Then Alice has card A on display with 1 charge
      And every discard pile is empty

  @eu-pop:6.2.display.9
  Rule: 6.2.display.9 At most 2 Display Cards in play, and never 2 of the same card
    Cites: eu-pop:6.2.display.9#1 "You can have a maximum of 2 Display Cards"

    Scenario Outline: A second copy of a card on display cannot be played
      Cites: eu-pop:6.2.display.9#2 "and never 2 of the same card, in play at any given time."
      Given it is the action phase, Alice's turn
      And card A is any display card with several copies
      And <owner> has card A on display
      And Alice holds card A
      When Alice plays card A
      Then the action is <outcome>
      And Alice holds <left>

      Examples:
        | owner | outcome  | left     |
        | Alice | rejected | card A   |
        | Bob   | allowed  | no cards |

    Scenario: No more than 2 Display Cards stay in play
      Cites: eu-pop:6.2.display.10#1 "discard 1 of the cards in play"
      Given it is the action phase, Alice's turn
      And card D is any display card
      And card E is any other display card
      And card F is any other display card
      And Alice has card D on display
      And Alice holds card E and card F
      And Alice has 9 of each Monarch Power
      When Alice plays card E
      And Alice's turn comes round again
      And Alice plays card F
      And Alice discards card D
      Then Alice has 2 cards on display

  @eu-pop:6.2.display.10
  Rule: 6.2.display.10 Playing a Display Card with 2 in play discards 1 of the cards in play
    Cites: eu-pop:6.2.display.10#1 "If you play a Display Card when you already have 2 in play, discard 1 of the cards in play."

    Scenario Outline: The player chooses which Display Card to discard
      Given it is the action phase, Alice's turn
      And card D is any display card
      And card E is any other display card
      And card F is any other display card
      And Alice has card D on display
      And Alice holds card E and card F
      And Alice has 9 of each Monarch Power
      When Alice plays card E
      And Alice's turn comes round again
      And Alice plays card F
      Then Alice must discard 1 card
      When Alice discards card <gone>
      Then Alice has card <kept> on display
      And Alice has card F on display
      And card <gone> is on top of its deck's discard pile
      And no decision is pending

      Examples:
        | gone | kept |
        | D    | E    |
        | E    | D    |

    Scenario Outline: Only a Display Card in play can be discarded
      Given it is the action phase, Alice's turn
      And card D is any display card
      And card E is any other display card
      And card F is any other display card
      And card G is any other card
      And Alice has card D on display
      And Alice holds card E, card F and card G
      And Alice has 9 of each Monarch Power
      When Alice plays card E
      And Alice's turn comes round again
      And Alice plays card F
      And Alice discards card <gone>
      Then the action is <outcome>

      Examples:
        | gone | outcome  |
        | D    | allowed  |
        | G    | rejected |

    Scenario Outline: Nothing else of that player's is done before the card to discard is chosen
      Cites: eu-pop:6.2.display.9#1 "You can have a maximum of 2 Display Cards"
      Cites: eu-pop:6.2.display.9#2 "in play at any given time"
      Given it is the action phase, Alice's turn
      And card D is any display card
      And card E is any other display card
      And card F is any other display card
      And card R is any reaction card
      And Alice has card D on display
      And Alice holds card E, card F and card R
      And the military deck is 3 cards
      And Alice has 9 of each Monarch Power
      When Alice plays card E
      And Alice's turn comes round again
      And Alice plays card F
      And <meanwhile>
      And Alice plays card R
      Then the action is <outcome>

      Examples:
        | meanwhile                    | outcome  |
        | Alice discards card D        | allowed  |
        | Bob draws 1 military card    | rejected |

    Scenario: With one Display Card in play, a second is placed and none is discarded
      Cites: eu-pop:6.2.display.9#1 "You can have a maximum of 2 Display Cards"
      Given it is the action phase, Alice's turn
      And card D is any display card
      And card E is any other display card
      And Alice has card D on display
      And Alice holds card E
      When Alice plays card E
      Then no decision is pending
      And Alice has 2 cards on display
