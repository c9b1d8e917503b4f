Feature: The action card hand limit
  A hand holds at most seven action cards, a game effect can change that,
  and the excess goes at once, by the player's choice, however the cards
  arrived. None of these rules is about a particular card.

  Background:
    Given the players are Alice, Bob and Carol

  @ti4:2.4
  Rule: 2.4 A hand holds at most seven action cards; the player chooses seven to keep
    Cites: ti4:2.4#2 "that player must choose seven cards to keep and discard the rest"

    Scenario Outline: Seven cards are within the limit; more make the player choose seven
      Cites: ti4:2.4#1 "a maximum of seven action cards"
      Given Alice holds <held> cards
      And the action deck is 4 cards
      When Alice draws <n> action cards
      Then <decision>
      And Alice holds <total> cards

      Examples:
        | held | n | decision                | total |
        | 6    | 1 | no decision is pending  | 7     |
        | 7    | 1 | Alice must keep 7 cards | 8     |
        | 5    | 3 | Alice must keep 7 cards | 8     |

    Scenario: The player chooses the seven cards to keep and discards the rest
      Given card A is any card
      And card B is any other card
      And Alice holds card A and 6 other cards
      And the action deck is card B and 2 other cards
      When Alice draws 1 action card
      And Alice keeps all cards but card A
      Then Alice holds card B and 6 other cards
      And the action discard pile is card A
      And no decision is pending

    Scenario Outline: Keeping other than seven cards is refused
      Given Alice holds 7 cards
      And the action deck is 3 cards
      When Alice draws 2 action cards
      And Alice keeps <kept> cards
      Then the action is <outcome>

      Examples:
        | kept | outcome  |
        | 7    | allowed  |
        | 6    | rejected |
        | 8    | rejected |

    Scenario Outline: A hand goes over the limit whichever way the cards arrive
      Cites: ti4:81.3#1 "each player draws one action card"
      Cites: ti4:66.2.2#1 "The active player draws two action cards."
      Given it is <phase>
      And <setup>
      And card A is any card
      And Alice holds card A
      And Bob holds 7 cards
      And the action deck is 4 cards
      When <event>
      Then Bob must keep 7 cards

      Examples:
        | phase                          | setup                                | event                                                                 |
        | the action phase, Alice's turn | Carol holds 1 card                   | Bob draws 1 action card                                               |
        | the status phase               | Carol holds 1 card                   | the status phase step "Draw Action Cards" is resolved                 |
        | the action phase, Bob's turn   | Bob has the Politics strategy card   | Bob resolves the primary ability of Politics, choosing Carol as speaker |
        | the action phase, Alice's turn | Alice is the Hacan player            | Alice gives card A to Bob in a transaction                            |

    Scenario: A hand goes over the limit when Politics' secondary ability draws
      Cites: ti4:66.3#1 "may spend one command token from their strategy pool to draw two action cards"
      Given it is the action phase, Alice's turn
      And Alice has the Politics strategy card
      And Bob holds 7 cards
      And the action deck is 4 cards
      When Alice resolves the primary ability of Politics, choosing Carol as speaker
      And Bob resolves the secondary ability of Politics
      Then Bob must keep 7 cards

  @ti4:2.4.1
  Rule: 2.4.1 A game effect can raise or lower the hand limit
    Cites: ti4:2.4.1#1 "A game effect can increase or decrease the number of cards a player’s hand can have."
    Cites: ti4:2.4#2 "must choose seven cards to keep"

    Scenario Outline: A game effect changes the limit of its player only
      # Bob, whose limit no effect changes, draws first: his eighth card is over the limit
      # of seven and he keeps seven, so the base limit is seen to work before Alice's.
      Given Alice's hand limit is <way> by <n> by a game effect
      And Alice holds <held> cards
      And Bob holds 7 cards
      And the action deck is 4 cards
      When Bob draws 1 action card
      And Bob keeps 7 cards
      And Alice draws 1 action card
      Then <decision>
      And Alice holds <total> cards

      Examples:
        | way     | n | held | decision                | total |
        | raised  | 1 | 7    | no decision is pending  | 8     |
        | raised  | 1 | 8    | Alice must keep 8 cards | 9     |
        | lowered | 2 | 4    | no decision is pending  | 5     |
        | lowered | 2 | 5    | Alice must keep 5 cards | 6     |

    Scenario: A law in play sets every player's hand limit
      # Executive Sanctions, in play, limits every hand to three action cards: Bob's third
      # card is within it; Alice's eighth is over it, and she keeps three (an engine with
      # no limit at all, which would not ask her, breaks 2.4 instead).
      Given the law "Executive Sanctions" is in play
      And Alice holds 3 cards
      And Bob holds 2 cards
      And the action deck is 6 cards
      When Bob draws 1 action card
      Then no decision is pending
      When Alice draws 5 action cards
      Then Alice must keep 3 cards
      And Alice holds 8 cards

  @ti4:note-10
  Rule: Note 10 The excess is discarded at once: not played, not traded away

    Scenario Outline: A player over the limit discards the excess before drawing again
      Cites: ti4:note-10#1 "they must discard the excess immediately"
      Given Alice holds <held> cards
      And the action deck is 4 cards
      When Alice draws 1 action card
      And Alice draws 1 action card
      Then the action is <outcome>
      And Alice holds <total> cards

      Examples:
        | held | outcome  | total |
        | 5    | allowed  | 7     |
        | 7    | rejected | 8     |

    Scenario Outline: A player over the limit cannot play a card to get down to it
      Cites: ti4:note-10#2 "They cannot play them to get down to seven"
      Given card A is any "Action" card
      And it is card A's timing window on Alice's turn
      And Alice holds card A and <others> other cards
      And Alice can play card A
      And the action deck is 3 cards
      When Alice draws 1 action card
      And Alice plays card A
      Then the action is <outcome>

      Examples:
        | others | outcome  |
        | 5      | allowed  |
        | 6      | rejected |

    Scenario Outline: The Hacan player over the limit cannot trade the excess away
      Cites: ti4:note-10#3 "the Hacan player cannot trade them"
      Given it is the action phase, Alice's turn
      And Alice is the Hacan player
      And card A is any card
      And Alice holds card A and <others> other cards
      And the action deck is 3 cards
      When Alice draws 1 action card
      And Alice gives card A to Bob in a transaction
      Then the action is <outcome>
      And Bob holds <received>

      Examples:
        | others | outcome  | received |
        | 5      | allowed  | card A   |
        | 6      | rejected | no cards |

    Scenario Outline: A player over the limit discards the excess before revealing cards
      Cites: ti4:note-10#1 "they must discard the excess immediately"
      Given card A is any card
      And Alice holds card A and <others> other cards
      And the action deck is 3 cards
      When Alice draws 1 action card
      And Alice reveals card A
      Then the action is <outcome>

      Examples:
        | others | outcome  |
        | 5      | allowed  |
        | 6      | rejected |

    Scenario: The status phase deal waits for an over-limit discard
      Cites: ti4:note-10#1 "they must discard the excess immediately"
      Cites: ti4:81.3#1 "Following initiative order"
      Given it is the status phase
      And the initiative order is Alice, Bob and Carol
      And card A is any card
      And card B is any other card
      And Alice holds 7 cards
      And the action deck is card A, card B and 3 other cards
      When the status phase step "Draw Action Cards" is resolved
      Then Alice must keep 7 cards
      And Bob holds no cards
      When Alice keeps all cards but card A
      Then Bob holds card B
      And the action discard pile is card A
