Feature: Hands, the three decks and their discard piles
  A hand is secret; its limit of 5 is checked only in Phase 5, Step C, where every player
  chooses what to keep and Display Cards in play do not count. Each of the three decks has
  its own public discard pile, and an empty deck is rebuilt from its discard pile when a card
  must be drawn, leaving out the top 5 discards.

  Cards a scenario only counts ("7 cards") are cards of the Administrative deck that the
  engine models; cards it names are of the class it says.

  Background:
    Given the players are Alice, Bob and Carol

  @eu-pop:6.cards-in-hand.1
  Rule: 6.cards-in-hand.1 Cards in hand are kept secret from other players until played
    Cites: eu-pop:6.cards-in-hand.1#1 "Cards in hand should be kept secret from other players until they are played."

    Scenario: Other players and spectators do not see the cards in a hand
      Given card A is any card
      And card B is any other card
      And Alice holds card A and card B
      Then Alice holds card A and card B
      And Bob sees none of the cards in Alice's hand
      And a spectator sees none of the cards in Alice's hand

    Scenario Outline: Drawn cards are seen by their owner only, one or several
      Cites: eu-pop:4.1.b#2 "should keep these cards secret from their Opponents"
      Given card A is any <deck> card
      And Bob holds 1 card
      And the <deck> deck is card A and 3 other cards
      When Alice draws <n> <deck> cards
      Then Alice holds <drawn>
      And Bob sees none of the cards in Alice's hand
      And a spectator sees none of the cards in Alice's hand
      And Alice sees none of the cards in Bob's hand

      Examples:
        | deck           | n | drawn                      |
        | military       | 1 | card A                     |
        | diplomatic     | 3 | card A and 2 other cards   |
        | administrative | 2 | card A and 1 other card    |

    Scenario Outline: The rest of a hand stays secret when one card leaves it
      Cites: eu-pop:6.action-cards.8#1 "You may play the card to take its Action, or to Appoint the character"
      Given it is the action phase, Alice's turn
      And card A is any action card
      And card B is any other card
      And Alice holds card A and card B
      And Alice can play card A
      When Alice <leaves> card A
      Then Alice holds card B
      And Bob sees none of the cards in Alice's hand

      Examples:
        | leaves   |
        | plays    |
        | appoints |

    Scenario: The cards kept in Step C stay secret
      Cites: eu-pop:4.5.c.2#1 "Players may choose which card(s) to discard."
      Given it is the cleanup phase
      And Alice holds 7 cards
      When Phase 5, Step C is resolved
      And Alice keeps 5 cards
      Then Bob sees none of the cards in Alice's hand
      And a spectator sees none of the cards in Alice's hand

  @eu-pop:6.cards-in-hand.2
  Rule: 6.cards-in-hand.2 The hand limit is 5, checked only in Phase 5, Step C
    Cites: eu-pop:6.cards-in-hand.2#1 "The hand size limit for Action Cards is 5"
    Cites: eu-pop:6.cards-in-hand.2#2 "only checked in Phase 5, Step C"

    Scenario Outline: A hand may grow past 5 cards outside Phase 5, Step C
      Cites: eu-pop:4.1.b#1 "each player then draws 3 Action Cards"
      Given it is the <moment>
      And Alice holds 5 cards
      And the military deck is 4 cards
      When Alice draws <n> military cards
      Then no decision is pending
      And Alice holds <held> cards

      Examples:
        | moment                     | n | held |
        | action phase, Alice's turn | 1 | 6    |
        | draw phase                 | 3 | 8    |
        | cleanup phase              | 2 | 7    |

    Scenario: The set-up's hold of four is its own, not the hand limit
      Cites: eu-pop:3.0.4#2 "draws 1 card from each of the Action Card decks, plus another 3 Action Cards of their choice"
      Cites: eu-pop:3.0.4#4 "hold up to 4 Action Cards in their hand, discarding as necessary"
      Cites: eu-pop:3.0.4#5 "hand size limit at the end of Phase 5 is 5 Action Cards"
      # The set-up's Action Cards replace Phase 1 of the first Round: six cards each, and
      # then each player holds four, which is not the limit of five checked in Step C.
      Given it is the draw phase
      And the military deck is 6 cards
      When the set-up draw is resolved, each player choosing military, diplomatic and administrative for their 3 other cards
      Then Alice holds 6 cards
      And no decision is pending
      When the set-up hold is resolved
      Then Alice must keep 4 cards

    Scenario: A hand over the limit can still be played from before Phase 5
      Cites: eu-pop:4.2.taking-a-turn#1 "play an Action Card from their hand"
      Given it is the action phase, Alice's turn
      And card A is any action card
      And Alice holds card A and 6 other cards
      And Alice can play card A
      When Alice plays card A
      Then Alice holds 6 cards
      And no decision is pending

    Scenario Outline: Phase 5, Step C makes a player over the limit keep 5 cards
      Cites: eu-pop:4.5.c.1#1 "All players must discard down to a maximum hand size of 5 Action Cards."
      Cites: eu-pop:4.5.c.2#1 "Players may choose which card(s) to discard."
      Given it is the cleanup phase
      And Alice holds <held> cards
      When Phase 5, Step C is resolved
      Then <decision>
      And Alice holds <held> cards

      Examples:
        | held | decision                |
        | 5    | no decision is pending  |
        | 6    | Alice must keep 5 cards |
        | 9    | Alice must keep 5 cards |

    Scenario: Keeping 5 cards ends the decision
      Cites: eu-pop:4.5.c.2#1 "Players may choose which card(s) to discard."
      Given it is the cleanup phase
      And Alice holds 7 cards
      When Phase 5, Step C is resolved
      And Alice keeps 5 cards
      Then Alice holds 5 cards
      And no decision is pending

    Scenario Outline: Step C belongs to Phase 5, not to the other phases
      Cites: eu-pop:4.0#2 "Each Round is broken down into 5 Phases"
      Cites: eu-pop:4.0.5#3 "C. Discard down to a hand size of 5 cards"
      Given it is the <moment>
      And Alice holds 7 cards
      When Phase 5, Step C is resolved
      Then the action is <outcome>
      And Alice holds 7 cards

      Examples:
        | moment                     | outcome  |
        | cleanup phase              | allowed  |
        | action phase, Alice's turn | rejected |
        | draw phase                 | rejected |
        | peace phase                | rejected |
        | income phase               | rejected |

  @eu-pop:4.5.c.1
  Rule: 4.5.c.1 In Step C all players discard down to 5 Action Cards
    Cites: eu-pop:4.5.c.1#1 "All players must discard down to a maximum hand size of 5 Action Cards."

    Scenario: Every player over the limit discards down; the others keep their hands
      Cites: eu-pop:4.5.c.2#1 "Players may choose which card(s) to discard."
      Given it is the cleanup phase
      And Alice holds 7 cards
      And Bob holds 6 cards
      And Carol holds 5 cards
      When Phase 5, Step C is resolved
      Then Alice must keep 5 cards
      When Alice keeps 5 cards
      Then Bob must keep 5 cards
      When Bob keeps 5 cards
      Then Alice holds 5 cards
      And Bob holds 5 cards
      And Carol holds 5 cards
      And no decision is pending

    Scenario: One player's answer leaves the other players' decisions pending
      Cites: eu-pop:4.5.c.2#1 "Players may choose which card(s) to discard."
      Given it is the cleanup phase
      And Alice holds 6 cards
      And Carol holds 8 cards
      When Phase 5, Step C is resolved
      And Alice keeps 5 cards
      Then Carol must keep 5 cards
      And Carol holds 8 cards
      And Alice holds 5 cards

    Scenario: A hand far over the limit discards several cards at once
      Cites: eu-pop:6.decks.2#1 "placing discarded cards face-up"
      Given it is the cleanup phase
      And Bob holds 9 cards
      When Phase 5, Step C is resolved
      And Bob keeps 5 cards
      Then Bob holds 5 cards
      And the administrative discard pile is 4 cards

    Scenario Outline: Keeping more than 5 cards is refused
      Given it is the cleanup phase
      And Alice holds 7 cards
      When Phase 5, Step C is resolved
      And Alice keeps <n> cards
      Then the action is <outcome>
      And <after>

      Examples:
        | n | outcome  | after                   |
        | 5 | allowed  | no decision is pending  |
        | 6 | rejected | Alice must keep 5 cards |

  @eu-pop:4.5.c.2
  Rule: 4.5.c.2 Players choose which cards to discard
    Cites: eu-pop:4.5.c.2#1 "Players may choose which card(s) to discard."

    Scenario: The player keeps the cards they chose and discards the others
      Cites: eu-pop:4.5.c.1#1 "discard down to a maximum hand size of 5"
      Cites: eu-pop:3.0.1#3 "leave space for each deck to have a discard pile"
      Given it is the cleanup phase
      And card A is any diplomatic card
      And card B is any military card
      And Alice holds card A, card B and 5 other cards
      When Phase 5, Step C is resolved
      And Alice chooses to keep all but card A and card B
      Then Alice holds 5 cards
      And the administrative discard pile is empty
      And no decision is pending

    Scenario Outline: Only cards in the hand can be kept
      Cites: eu-pop:4.5.c.1#1 "discard down to a maximum hand size of 5"
      Given it is the cleanup phase
      And card A is any administrative card
      And card Z is any diplomatic card
      And Alice holds card A and 6 other cards
      When Phase 5, Step C is resolved
      And Alice keeps <kept> and 4 other cards
      Then the action is <outcome>

      Examples:
        | kept   | outcome  |
        | card A | allowed  |
        | card Z | rejected |

  @eu-pop:4.5.c.3
  Rule: 4.5.c.3 Display Cards in play do not count towards the 5-card limit
    Cites: eu-pop:4.5.c.3#1 "Display Cards that are in play do not count towards the 5-card limit."

    Scenario Outline: Cards on display are not counted with the hand
      Cites: eu-pop:4.5.c.1#1 "discard down to a maximum hand size of 5"
      Given it is the cleanup phase
      And card D is any display card
      And card E is any other display card
      And Alice holds <held> cards
      And Bob holds 3 cards
      And Alice has card D on display
      And <second> has card E on display
      When Phase 5, Step C is resolved
      Then <decision>
      And Alice holds <held> cards
      And Alice has card D on display

      Examples:
        | held | second | decision                |
        | 5    | Alice  | no decision is pending  |
        | 4    | Alice  | no decision is pending  |
        | 5    | Bob    | no decision is pending  |
        | 6    | Alice  | Alice must keep 5 cards |

  @eu-pop:6.decks.1
  Rule: 6.decks.1 There are three Action Card decks, kept apart, drawn from the top
    Cites: eu-pop:6.decks.1#1 "The Action Card decks are placed next to each other"

    Scenario: A new game has three decks, each of its own cards
      Cites: eu-pop:3.0.1#3 "Shuffle each of the Action Card decks (C) separately"
      Cites: eu-pop:6.decks.2#1 "Discard piles are created as needed"
      # No deck is given, so the engine builds each deck as at the start of a game.
      Then each deck holds only its own cards
      And no deck is empty
      And every discard pile is empty

    Scenario Outline: Drawing from one deck leaves the other decks alone
      Cites: eu-pop:4.1.b#1 "from any of the 3 Action Card decks"
      Given card A is any administrative card
      And card B is any diplomatic card
      And card C is any military card
      And the administrative deck is card A and 1 other card
      And the diplomatic deck is card B and 1 other card
      And the military deck is card C and 1 other card
      When Alice draws 1 <deck> card
      Then Alice holds <drawn>
      And the administrative deck is <administrative>
      And the diplomatic deck is <diplomatic>
      And the military deck is <military>

      Examples:
        | deck           | drawn  | administrative          | diplomatic              | military                |
        | administrative | card A | 1 card                  | card B and 1 other card | card C and 1 other card |
        | diplomatic     | card B | card A and 1 other card | 1 card                  | card C and 1 other card |
        | military       | card C | card A and 1 other card | card B and 1 other card | 1 card                  |

    Scenario Outline: A draw takes the cards from the top of the deck
      Cites: eu-pop:4.1.b#2 "Players may draw cards one by one"
      Given card A is any military card
      And card B is any other military card
      And card C is any other military card
      And the military deck is card A, card B and card C
      When Alice draws <n> military cards
      Then Alice holds <drawn>
      And the military deck is <left>

      Examples:
        | n | drawn                      | left              |
        | 1 | card A                     | card B and card C |
        | 2 | card A and card B          | card C            |
        | 3 | card A, card B and card C  | empty             |

  @eu-pop:6.decks.2
  Rule: 6.decks.2 Discarded cards go face up on their own deck's discard pile
    Cites: eu-pop:6.decks.2#1 "Discard piles are created as needed, placing discarded cards face-up."
    Cites: eu-pop:3.0.1#3 "leave space for each deck to have a discard pile"

    Scenario Outline: A played card goes on top of its own deck's discard pile
      Cites: eu-pop:6.action-cards.6#2 "and then discard that card"
      Cites: eu-pop:6.decks.4#1 "the top 5 discards"
      Given it is the action phase, Alice's turn
      And card A is any <deck> action card
      And card B is any other <deck> card
      And Alice holds card A
      And Alice can play card A
      And the <deck> discard pile is card B
      When Alice plays card A
      Then the <deck> discard pile is card A and card B
      And the <other> discard pile is empty
      And the <third> discard pile is empty

      Examples:
        | deck           | other          | third      |
        | administrative | diplomatic     | military   |
        | diplomatic     | administrative | military   |
        | military       | administrative | diplomatic |

    Scenario: Cards discarded in Step C go to the piles of their own decks
      Cites: eu-pop:4.5.c.2#1 "Players may choose which card(s) to discard."
      Given it is the cleanup phase
      And card A is any diplomatic card
      And card B is any military card
      And Alice holds card A, card B and 5 other cards
      When Phase 5, Step C is resolved
      And Alice chooses to keep all but card A and card B
      Then the diplomatic discard pile is card A
      And the military discard pile is card B
      And the administrative discard pile is empty

    Scenario: A Display Card discarded from display goes on top of its own deck's pile
      Cites: eu-pop:6.2.display.8#1 "Once the last"
      Cites: eu-pop:6.decks.4#1 "the top 5 discards"
      Given it is the action phase, Alice's turn
      And card A is any display card with an action spending 1 charge
      And card X is any other administrative card
      And card Y is any other diplomatic card
      And card Z is any other military card
      And Alice has card A on display with 1 charge
      And the administrative discard pile is card X
      And the diplomatic discard pile is card Y
      And the military discard pile is card Z
      When Alice uses an action of card A that spends 1 charge
      Then card A is on top of its deck's discard pile

  @eu-pop:6.decks.3
  Rule: 6.decks.3 The discard piles are public information
    Cites: eu-pop:6.decks.3#1 "The discard piles are public information."

    Scenario: Every player and spectator sees the discard piles
      Given card A is any diplomatic card
      And card B is any other diplomatic card
      And the diplomatic discard pile is card A and card B
      Then the diplomatic discard pile is card A and card B in any order as seen by Bob
      And the diplomatic discard pile is card A and card B in any order as seen by a spectator

    Scenario: A card discarded in play is seen by everyone
      Cites: eu-pop:6.action-cards.6#2 "and then discard that card"
      Given it is the action phase, Alice's turn
      And card A is any administrative action card
      And Alice holds card A
      And Alice can play card A
      When Alice plays card A
      Then the administrative discard pile is card A as seen by Carol
      And the administrative discard pile is card A as seen by a spectator

    Scenario: Cards discarded in Step C are seen by everyone
      Cites: eu-pop:4.5.c.2#1 "Players may choose which card(s) to discard."
      Given it is the cleanup phase
      And card A is any diplomatic card
      And Alice holds card A and 5 other cards
      When Phase 5, Step C is resolved
      And Alice chooses to keep all but card A
      Then the diplomatic discard pile is card A as seen by Bob
      And the diplomatic discard pile is card A as seen by a spectator

  @eu-pop:6.decks.4
  Rule: 6.decks.4 An empty deck is rebuilt from its discard pile, leaving the top 5 discards
    Cites: eu-pop:6.decks.4#1 "leave out the top 5 discards and let them remain as a discard pile"

    Scenario: The top 5 discards stay; the rest become the new deck
      Given card A is any military card
      And card D is any other military card
      And the military deck is card D
      And the military discard pile is card A and 5 other cards
      When Alice draws 1 military card
      And Alice draws 1 military card
      Then Alice holds card D and 1 other card
      And the military deck is empty
      And the military discard pile is card A and 4 other cards

    Scenario: A deck is rebuilt only when a card must be drawn from it
      Cites: eu-pop:6.decks.4#1 "If a deck is empty when you need to draw a card"
      Given card A is any military card
      And the military deck is card A
      And the military discard pile is 7 cards
      When Alice draws 1 military card
      Then Alice holds card A
      And the military deck is empty
      And the military discard pile is 7 cards

    Scenario: A draw that empties the deck part-way goes on from the rebuilt deck
      Cites: eu-pop:6.decks.4#1 "If a deck is empty when you need to draw a card"
      Given card A is any military card
      And card B is any other military card
      And the military deck is card A
      And the military discard pile is card B and 5 other cards
      When Alice draws 2 military cards
      Then Alice holds card A and 1 other card
      And the military deck is empty
      And the military discard pile is card B and 4 other cards

    Scenario: Several cards drawn from a rebuilt deck all come from it
      Given card D is any military card
      And the military deck is card D
      And the military discard pile is 7 cards
      When Alice draws 1 military card
      And Alice draws 2 military cards
      Then Alice holds card D and 2 other cards
      And the military deck is empty
      And the military discard pile is 5 cards

  @eu-pop:6.decks.5
  Rule: 6.decks.5 A discard pile of 5 or fewer cards is shuffled whole
    Cites: eu-pop:6.decks.5#1 "If the discard pile has 5 or fewer cards when the deck is empty, shuffle the whole discard pile."

    Scenario Outline: A discard pile of 5 or fewer cards becomes the whole new deck
      Given card D is any military card
      And the military deck is card D
      And the military discard pile is <n> cards
      When Alice draws 1 military card
      And Alice draws 1 military card
      Then Alice holds card D and 1 other card
      And the military deck is <left> cards
      And the military discard pile is empty

      Examples:
        | n | left |
        | 1 | 0    |
        | 2 | 1    |
        | 5 | 4    |
