Feature: Playing Action Cards and appointing their characters
  Playing an Action Card takes a Turn and costs Monarch Power of its deck's type (and
  sometimes Ducats), never below 0; it resolves and is discarded. Every card can instead be
  used for the character it depicts, with the Appoint Advisor/Leader Action.

  No rule here is about a particular card: each scenario names a class of card
  (plays.yaml), and the oracle picks one the engine models. Players start with 3 of each
  Monarch Power and 15 Ducats (3. Game Setup) unless a step says otherwise.

  Background:
    Given the players are Alice, Bob and Carol

  @eu-pop:6.action-cards.2
  Rule: 6.action-cards.2 Playing an Action Card takes up a whole Turn, not counting Minor Actions
    Cites: eu-pop:6.action-cards.2#1 "takes up a whole Turn"

    Scenario Outline: A card played for its Action takes the Turn; the next Turn allows another
      Cites: eu-pop:6.action-cards.2#1 "not counting Minor Actions"
      Cites: eu-pop:4.0.2#1 "Players take Turns performing 1 Action at a time"
      Cites: eu-pop:4.2#1 "players take Turns in clockwise order"
      Cites: eu-pop:4.2.taking-a-turn#5 "These may be performed in addition to any other Action"
      Given it is the action phase, Alice's turn
      And card A is any <first>
      And card B is any other action card
      And card C is any other action card that is not covert
      And Alice holds card A, card B and card C
      And Alice has 9 of each Monarch Power
      And Alice can play card A
      And Alice can play card B
      When Alice plays card A
      And <between>
      And Alice plays card B
      Then the action is <outcome>

      Examples:
        | first        | between                        | outcome  |
        | action card  | Alice appoints card C          | rejected |
        | display card | Alice appoints card C          | rejected |
        | action card  | Alice's turn comes round again | allowed  |
        | display card | Alice's turn comes round again | allowed  |

    Scenario Outline: A card is played for its Action only in its player's Turn of the Action Phase
      Cites: eu-pop:4.0#2 "Each Round is broken down into 5 Phases"
      Cites: eu-pop:4.2.taking-a-turn#1 "On their Turn, the Active Player may choose to perform either a Basic Action or play an Action Card from their hand."
      Cites: eu-pop:5.0#1 "During the Action Phase you can take Basic Actions and play Action Cards"
      Given it is the <moment>
      And card A is any <class>
      And Alice holds card A
      And Alice can play card A
      When Alice plays card A
      Then the action is <outcome>
      And Alice holds <left>

      Examples:
        | moment                      | class        | outcome  | left     |
        | action phase, Alice's turn  | action card  | allowed  | no cards |
        | action phase, Alice's turn  | display card | allowed  | no cards |
        | action phase, Bob's turn    | action card  | rejected | card A   |
        | action phase, Bob's turn    | display card | rejected | card A   |
        | draw phase                  | action card  | rejected | card A   |
        | peace phase                 | action card  | rejected | card A   |
        | income phase                | action card  | rejected | card A   |
        | cleanup phase               | action card  | rejected | card A   |

    Scenario: Appointing is a Minor Action that leaves the Turn's Action free
      Cites: eu-pop:6.action-cards.2#1 "not counting Minor Actions"
      Cites: eu-pop:4.2.taking-a-turn#4 "There are 5 Minor Actions that may be performed without using a Turn."
      Cites: eu-pop:4.2.basic-actions#10
      Cites: eu-pop:5.2#1 "Minor Actions do not complete your Turn"
      Given it is the action phase, Alice's turn
      And card A is any card
      And card B is any other action card
      And Alice holds card A and card B
      And Alice can play card B
      When Alice appoints card A
      And Alice plays card B
      Then Alice holds no cards

    Scenario Outline: A countered card has still taken up the Turn
      A countered card was played (its cost stays paid), and playing it took up the Turn:
      nothing gives the Turn back (TI4's cancelled component action does; this chapter says
      no such thing).
      Cites: eu-pop:6.action-cards.2#1 "Playing an Action Card takes up a whole Turn"
      Cites: eu-pop:6.2.covert.3#2 "its cost must still be paid"
      Given it is the action phase, Alice's turn
      And card A is any covert action card
      And card B is any other action card
      And Alice holds card A and card B
      And Alice has 9 of each Monarch Power
      And Alice can play card A
      And Alice can play card B
      And card R is any reaction card
      And Bob holds card R and "Counterespionage"
      When Alice starts playing card A
      And Bob starts playing card R
      And Bob plays "Counterespionage" targeting card A
      And <between>
      And Alice plays card B
      Then the action is <outcome>

      Examples:
        | between                        | outcome  |
        | all players pass               | rejected |
        | Alice's turn comes round again | allowed  |

  @eu-pop:6.action-cards.3
  Rule: 6.action-cards.3 The Monarch Power cost is always of the type of the card's deck
    Cites: eu-pop:6.action-cards.3#2 "is always of the type associated with the deck that the card belongs to"

    Scenario Outline: A card costs Monarch Power of its deck's type, and of no other
      Cites: eu-pop:4.2.taking-a-turn#2 "Monarch Power costs that must be paid with"
      Given it is the action phase, Alice's turn
      And card A is any <class>
      And Alice holds card A
      And Alice can play card A
      When Alice plays card A
      Then Alice has paid the Monarch Power cost of card A

      Examples:
        | class                      |
        | administrative action card |
        | diplomatic action card     |
        | military action card       |
        | display card               |
        | reaction card              |
        | battle action card         |

    Scenario Outline: A card cannot be paid for with power of another type
      Cites: eu-pop:5.0#1 "play Action Cards by paying their costs"
      Given it is the action phase, Alice's turn
      And card A is any <deck> action card
      And Alice holds card A
      And Alice has 9 of each Monarch Power
      And Alice has <amount> Monarch Power for card A
      When Alice plays card A
      Then the action is <outcome>
      And Alice holds <left>

      Examples:
        | deck           | amount      | outcome  | left     |
        | administrative | one too few | rejected | card A   |
        | administrative | just enough | allowed  | no cards |
        | diplomatic     | one too few | rejected | card A   |
        | diplomatic     | just enough | allowed  | no cards |
        | military       | one too few | rejected | card A   |
        | military       | just enough | allowed  | no cards |

  @eu-pop:6.action-cards.4
  Rule: 6.action-cards.4 Some cards also have a Ducat cost that must be paid
    Cites: eu-pop:6.action-cards.4#1 "Some cards also have a Ducat cost that must be paid."

    Scenario: A card with a Ducat cost takes the Ducats as well
      Given it is the action phase, Alice's turn
      And card A is any card with a ducat cost
      And Alice holds card A
      And Alice can play card A
      When Alice plays card A
      Then Alice has paid the Ducat cost of card A

    Scenario Outline: A card whose Ducat cost cannot be paid cannot be played
      Cites: eu-pop:5.0#1 "play Action Cards by paying their costs"
      Given it is the action phase, Alice's turn
      And card A is any card with a ducat cost
      And Alice holds card A
      And Alice can play card A
      And Alice has <amount> Ducats for card A
      When Alice plays card A
      Then the action is <outcome>
      And Alice holds <left>

      Examples:
        | amount      | outcome  | left     |
        | one too few | rejected | card A   |
        | just enough | allowed  | no cards |

    Scenario: A card without a Ducat cost takes no Ducats
      Cites: eu-pop:3.0.2#4 "Unless otherwise stated in the scenario, each player now puts 3"
      Given it is the action phase, Alice's turn
      And card A is any action card without a ducat cost
      And Alice holds card A
      And Alice can play card A
      When Alice starts playing card A
      Then Alice has 15 ducats

  @eu-pop:6.action-cards.5
  Rule: 6.action-cards.5 A cost never goes below 0: no card gains its player Monarch Power
    Cites: eu-pop:6.action-cards.5#1 "can never go below 0"

    Scenario Outline: A cost reduced below zero costs nothing and gains nothing
      Cites: eu-pop:6.action-cards.5#1 "you may never gain"
      Cites: eu-pop:3.0.2#4 "Unless otherwise stated in the scenario, each player now puts 3"
      Given it is the action phase, Alice's turn
      And card A is any <class>
      And Alice holds card A
      And Alice can play card A
      And Alice's administrative costs are reduced by 5 by a game effect
      And Alice's diplomatic costs are reduced by 5 by a game effect
      And Alice's military costs are reduced by 5 by a game effect
      When Alice plays card A
      Then Alice has 3 of each Monarch Power

      Examples:
        | class              |
        | action card        |
        | display card       |
        | battle action card |

    Scenario: A cost reduced to above zero is paid in part
      Cites: eu-pop:6.action-cards.3#2 "is always of the type associated with the deck"
      Given it is the action phase, Alice's turn
      And card A is any action card costing at least 2
      And Alice holds card A
      And Alice can play card A
      And Alice's administrative costs are reduced by 1 by a game effect
      And Alice's diplomatic costs are reduced by 1 by a game effect
      And Alice's military costs are reduced by 1 by a game effect
      When Alice plays card A
      Then Alice has paid the Monarch Power cost of card A, less 1

    Scenario: A reduced cost that the player can pay lets the card be played
      Cites: eu-pop:5.0#1 "play Action Cards by paying their costs"
      Given it is the action phase, Alice's turn
      And card A is any action card
      And Alice holds card A
      And Alice can play card A
      And Alice has one too few Monarch Power for card A
      And Alice's administrative costs are reduced by 1 by a game effect
      And Alice's diplomatic costs are reduced by 1 by a game effect
      And Alice's military costs are reduced by 1 by a game effect
      When Alice plays card A
      Then Alice holds no cards
      And Alice has paid the Monarch Power cost of card A, less 1

    Scenario: A Ducat cost reduced below zero gains no Ducats
      Cites: eu-pop:6.action-cards.4#1 "Some cards also have a Ducat cost"
      Cites: eu-pop:3.0.2#4 "Unless otherwise stated in the scenario, each player now puts 3"
      Given it is the action phase, Alice's turn
      And card A is any card with a ducat cost
      And Alice holds card A
      And Alice can play card A
      And Alice's ducat costs are reduced by 5 by a game effect
      When Alice starts playing card A
      Then Alice has 15 ducats

    Scenario: The cost of an Action on a Display Card never goes below zero either
      Cites: eu-pop:6.action-cards.5#1 "(or Action on a Display Card)"
      Cites: eu-pop:3.0.2#4 "Unless otherwise stated in the scenario, each player now puts 3"
      Given it is the action phase, Alice's turn
      And card A is any display card with an action
      And Alice has card A on display
      And Alice's administrative costs are reduced by 5 by a game effect
      And Alice's diplomatic costs are reduced by 5 by a game effect
      And Alice's military costs are reduced by 5 by a game effect
      When Alice uses an action of card A
      Then Alice has 3 of each Monarch Power

  @eu-pop:6.action-cards.6
  Rule: 6.action-cards.6 A card played for its Action resolves, then is discarded, unless it is a Display Card
    Cites: eu-pop:6.action-cards.6#2 "and then discard that card (unless it is a Display Card)."

    Scenario: The effect resolves and the card is discarded
      Cites: eu-pop:6.action-cards.6#1 "resolve its effect right away"
      Given it is the action phase, Alice's turn
      And card A is any action card with an effect
      And Alice holds card A
      And Alice can play card A
      When Alice plays card A
      Then the effect of card A has happened
      And card A is on top of its deck's discard pile
      And Alice holds no cards

    Scenario Outline: Every card played for its Action is discarded once it resolves
      Given it is the action phase, Alice's turn
      And card A is any <class>
      And Alice holds card A
      And Alice can play card A
      When Alice plays card A
      Then card A is on top of its deck's discard pile
      And Alice holds no cards

      Examples:
        | class              |
        | action card        |
        | reaction card      |
        | battle action card |

    Scenario: The card is not discarded before it resolves
      Cites: eu-pop:6.action-cards.6#1 "resolve its effect right away"
      Given it is the action phase, Alice's turn
      And card A is any action card
      And Alice holds card A
      And Alice can play card A
      When Alice starts playing card A
      Then every discard pile is empty
      And Alice holds no cards

    Scenario: A Display Card is not discarded
      Cites: eu-pop:6.2.display.2#1 "placed face-up on display when played"
      Given it is the action phase, Alice's turn
      And card A is any display card
      And Alice holds card A
      When Alice plays card A
      Then every discard pile is empty
      And Alice has card A on display

  @eu-pop:6.action-cards.7
  Rule: 6.action-cards.7 All Action Cards are dual-purpose
    Cites: eu-pop:6.action-cards.7#1 "All Action Cards are dual-purpose."
    Cites: eu-pop:6.characters.1#1 "Each Action Card depicts a character"

    Scenario Outline: Every kind of card can be appointed for its character
      Given it is the action phase, Alice's turn
      And card A is any <class>
      And Alice holds card A
      When Alice appoints card A
      Then Alice has card A as a character
      And Alice holds no cards

      Examples:
        | class              |
        | action card        |
        | display card       |
        | battle action card |
        | reaction card      |

  @eu-pop:6.action-cards.8
  Rule: 6.action-cards.8 A card is played either for its Action or to Appoint its character
    Cites: eu-pop:6.action-cards.8#1 "You may play the card to take its Action, or to Appoint the character in its bottom section."

    Scenario: An appointed card leaves the hand without its Action being taken
      Cites: eu-pop:5.2.appoint-advisor-leader#3 "to employ a Leader as a General or an Admiral"
      Cites: eu-pop:9.4#4 "Appointing a Leader costs 1 or 2"
      Given it is the action phase, Alice's turn
      And card A is any leader action card with an effect
      And Alice holds card A
      And Alice can play card A
      When Alice appoints card A
      Then Alice has card A as a character
      And Alice holds no cards
      And every discard pile is empty
      And the effect of card A has not happened

    Scenario: A card played for its Action is not also appointed
      Cites: eu-pop:6.characters.2#1 "Take the Appoint Advisor/Leader Action"
      Given it is the action phase, Alice's turn
      And card A is any action card
      And Alice holds card A
      And Alice can play card A
      When Alice plays card A
      Then Alice has no advisors
      And Alice has no leaders

    Scenario Outline: An appointed card cannot also be played for its Action
      Cites: eu-pop:4.2.taking-a-turn#6 "A player cannot perform a Minor Action alone on their Turn, they must also perform another Action."
      Cites: eu-pop:4.2#1 "players take Turns in clockwise order"
      Given it is the action phase, Alice's turn
      And card A is any action card that is not covert
      And card B is any other action card
      And Alice holds <hand> and card B
      And Alice has 9 of each Monarch Power
      And Alice can play card A
      And Alice can play card B
      When Alice plays card B
      And Alice appoints card A
      And Alice's turn comes round again
      And Alice plays card A
      Then the action is <outcome>

      Examples:
        | hand              | outcome  |
        | card A            | rejected |
        | card A, card A    | allowed  |

  @eu-pop:6.characters.1
  Rule: 6.characters.1 Each card depicts a character, either a Leader or an Advisor
    Cites: eu-pop:6.characters.1#1 "either a Leader (round portrait) or an Advisor (square portrait)"

    Scenario Outline: A Leader card gives a Leader, an Advisor card an Advisor
      Given it is the action phase, Alice's turn
      And card A is any <role> action card
      And Alice holds card A
      When Alice appoints card A
      Then Alice has card A as a <role>
      And Alice has no <other>s

      Examples:
        | role    | other   |
        | leader  | advisor |
        | advisor | leader  |

    Scenario: A Leader and an Advisor appointed in one Turn go each to their place
      Cites: eu-pop:4.2.taking-a-turn#5 "These may be performed in addition to any other Action"
      Given it is the action phase, Alice's turn
      And card A is any leader action card
      And card B is any advisor action card
      And Alice holds card A and card B
      When Alice appoints card A
      And Alice appoints card B
      Then Alice has card A as a leader
      And Alice has card B as an advisor

  @eu-pop:6.characters.2
  Rule: 6.characters.2 A character serves only once the Appoint Advisor/Leader Action appoints it
    Cites: eu-pop:6.characters.2#1 "Take the Appoint Advisor/Leader Action (see p. 13) to make use of them."

    Scenario Outline: Playing a card, of any kind, appoints no one
      Given it is the action phase, Alice's turn
      And card A is any <class>
      And Alice holds card A
      And Alice can play card A
      When Alice plays card A
      Then Alice has no advisors
      And Alice has no leaders

      Examples:
        | class              |
        | action card        |
        | display card       |
        | reaction card      |
        | battle action card |

    Scenario Outline: With no Reaction to allow it, appointing waits for its player's Turn
      Cites: eu-pop:5.2#1 "Minor Actions do not complete your Turn but may be performed in addition to your normal Turn Action."
      Cites: eu-pop:5.2.reactions#3 "the conditions under which these may be performed as Reactions are stated in each Action's description"
      Cites: eu-pop:5.2.appoint-advisor-leader#6 "If someone attacks one of your Armies located within your Realm"
      Given it is the <moment>
      And card A is any action card
      And Alice holds card A
      When Alice appoints card A
      Then the action is <outcome>

      Examples:
        | moment                     | outcome  |
        | action phase, Alice's turn | allowed  |
        | action phase, Bob's turn   | rejected |
        | peace phase                | rejected |

    Scenario Outline: Only a character in the player's own hand can be appointed
      Cites: eu-pop:5.2.appoint-advisor-leader#1 "on cards in your hand"
      Given it is the action phase, Alice's turn
      And card A is any administrative action card
      And <where>
      When Alice appoints card A
      Then the action is <outcome>

      Examples:
        | where                                      | outcome  |
        | Alice holds card A                         | allowed  |
        | Bob holds card A                           | rejected |
        | the administrative discard pile is card A  | rejected |
        | the administrative deck is card A          | rejected |
