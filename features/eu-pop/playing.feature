Feature: Playing Action Cards and appointing their characters
  Playing an Action Card takes a Turn and costs Monarch Power of its deck's type (and
  sometimes Ducats), never below 0; it resolves and is discarded. Every card can instead be
  used for the character it depicts, with the Appoint Advisor/Leader Action.

  No rule here is about a particular card: each scenario names a class of card
  (plays.yaml), and the oracle picks one the engine models. Players start with 3 of each
  Monarch Power and 15 Ducats unless a step says otherwise.

  Background:
    Given the players are Alice, Bob and Carol

  @eu-pop:6.action-cards.2
  Rule: 6.action-cards.2 Playing an Action Card takes up a whole Turn, not counting Minor Actions

    Scenario Outline: A card played for its Action takes the Turn; the next Turn allows another
      Given it is the action phase, Alice's turn
      And card A is any <first>
      And card B is any other action card
      And card C is any other action card
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
      Given it is the action phase, Alice's turn
      And card A is any card
      And card B is any other action card
      And Alice holds card A and card B
      And Alice can play card B
      When Alice appoints card A
      And Alice plays card B
      Then Alice holds no cards

  @eu-pop:6.action-cards.3
  Rule: 6.action-cards.3 The Monarch Power cost is always of the type of the card's deck

    Scenario Outline: A card costs Monarch Power of its deck's type, and of no other
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

    Scenario: A card with a Ducat cost takes the Ducats as well
      Given it is the action phase, Alice's turn
      And card A is any card with a ducat cost
      And Alice holds card A
      And Alice can play card A
      When Alice plays card A
      Then Alice has paid the Ducat cost of card A

    Scenario Outline: A card whose Ducat cost cannot be paid cannot be played
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
      Given it is the action phase, Alice's turn
      And card A is any action card without a ducat cost
      And Alice holds card A
      And Alice can play card A
      When Alice starts playing card A
      Then Alice has 15 ducats

  @eu-pop:6.action-cards.5
  Rule: 6.action-cards.5 A cost never goes below 0: no card gains its player Monarch Power

    Scenario Outline: A cost reduced below zero costs nothing and gains nothing
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
      Given it is the action phase, Alice's turn
      And card A is any card with a ducat cost
      And Alice holds card A
      And Alice can play card A
      And Alice's ducat costs are reduced by 5 by a game effect
      When Alice starts playing card A
      Then Alice has 15 ducats

    Scenario: The cost of an Action on a Display Card never goes below zero either
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

    Scenario: The effect resolves and the card is discarded
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
      Given it is the action phase, Alice's turn
      And card A is any action card
      And Alice holds card A
      And Alice can play card A
      When Alice starts playing card A
      Then every discard pile is empty
      And Alice holds no cards

    Scenario: A Display Card is not discarded
      Given it is the action phase, Alice's turn
      And card A is any display card
      And Alice holds card A
      When Alice plays card A
      Then every discard pile is empty
      And Alice has card A on display

  @eu-pop:6.action-cards.7
  Rule: 6.action-cards.7 All Action Cards are dual-purpose

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

    Scenario: An appointed card leaves the hand without its Action being taken
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
      Given it is the action phase, Alice's turn
      And card A is any action card
      And Alice holds card A
      And Alice can play card A
      When Alice plays card A
      Then Alice has no advisors
      And Alice has no leaders

    Scenario Outline: An appointed card cannot also be played for its Action
      Given it is the action phase, Alice's turn
      And card A is any action card
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

    Scenario Outline: Appointing is an Action of its player's Turn in the Action Phase
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
