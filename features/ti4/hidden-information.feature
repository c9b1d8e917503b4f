Feature: What players may see of action cards
  A hand's cards are hidden from everybody but their owner until played or
  revealed; how many cards a hand holds is public. Each check below asks the
  engine for the view of one particular viewer. None of these rules is about
  a particular card.

  Background:
    Given the players are Alice, Bob and Carol

  @ti4:2.5
  Rule: 2.5 Action cards stay hidden from other players until played
    Cites: ti4:2.5#1 "remain hidden from other players until those cards are played"

    Scenario: Other players and spectators do not see the cards in a hand
      Given card A is any card
      And card B is any other card
      And Alice holds card A and card B
      Then Alice holds card A and card B
      And Alice holds 2 hidden cards as seen by Bob
      And Alice holds 2 hidden cards as seen by Carol
      And Alice holds 2 hidden cards as seen by a spectator

    Scenario Outline: A card that reaches a hand is seen by its owner only, however it arrives
      Given it is <phase>
      And <setup>
      And the initiative order is Bob, Alice and Carol
      And card A is any card
      And <source>
      When <event>
      Then Bob holds <held>
      And Bob holds <n> hidden cards as seen by Carol
      And Bob holds <n> hidden cards as seen by a spectator

      Examples:
        | phase                          | setup                                | source                                      | event                                                 | held                    | n |
        | the action phase, Alice's turn | Carol holds 1 card                   | the action deck is card A and 3 other cards | Bob draws 1 action card                               | card A                  | 1 |
        | the status phase               | Carol holds 1 card                   | the action deck is card A and 3 other cards | the status phase step "Draw Action Cards" is resolved | card A                  | 1 |
        | the action phase, Alice's turn | Alice is the Hacan player            | Alice holds card A                          | Alice gives card A to Bob in a transaction            | card A                  | 1 |

    Scenario: Cards Politics' secondary ability draws are seen by their owner only
      Cites: ti4:66.3#1 "may spend one command token from their strategy pool to draw two action cards"
      Given it is the action phase, Alice's turn
      And Alice has the Politics strategy card
      And card A is any card
      And card B is any other card
      And card C is any other card
      And the action deck is card B, card C, card A and 3 other cards
      When Alice resolves the primary ability of Politics, choosing Carol as speaker
      And Bob resolves the secondary ability of Politics
      Then Bob holds card A and 1 other card
      And Bob holds 2 hidden cards as seen by Carol
      And Bob holds 2 hidden cards as seen by a spectator

    Scenario: A played card is public; the rest of the hand stays hidden
      Cites: ti4:2.7#2 "placing it in the action discard pile"
      Given card A is any "Action" card
      And card B is any other card
      And it is card A's timing window on Alice's turn
      And Alice holds card A and card B
      And Alice can play card A
      When Alice plays card A
      Then the action discard pile is card A as seen by Bob
      And Alice holds 1 hidden card as seen by Bob
      And Alice holds card B

  @ti4:note-2
  Rule: Note 2 The number of action cards in a hand is public information
    Cites: ti4:note-2#1 "The number of action cards in a player’s hand is public information."

    Scenario: Everybody sees how many cards a hand holds
      Given Alice holds 3 cards
      Then Alice holds 3 cards as seen by Bob
      And Alice holds 3 cards as seen by Carol
      And Alice holds 3 cards as seen by a spectator

    Scenario Outline: A hand's public size follows every way in and out
      Given card A is any "Action" card
      And it is <phase>
      And <setup>
      And Alice holds card A and 2 other cards
      And the action deck is 4 cards
      When <event>
      Then Alice holds <n> cards as seen by Bob
      And Alice holds <n> cards as seen by a spectator

      Examples:
        | phase                          | setup                              | event                                                 | n |
        | the action phase, Alice's turn | Carol holds 1 card                 | Alice draws 2 action cards                            | 5 |
        | the status phase               | Carol holds 1 card                 | the status phase step "Draw Action Cards" is resolved | 4 |
        | the action phase, Alice's turn | Alice can play card A              | Alice plays card A                                    | 2 |
        | the action phase, Alice's turn | Alice is the Hacan player          | Alice gives card A to Bob in a transaction            | 2 |

    Scenario: A hand's public size follows Politics' secondary ability
      Cites: ti4:66.3#1 "may spend one command token from their strategy pool to draw two action cards"
      # Alice is the first player clockwise from Carol, so she is the first who may.
      Given it is the action phase, Carol's turn
      And Carol has the Politics strategy card
      And Alice holds 3 cards
      And the action deck is 4 cards
      When Carol resolves the primary ability of Politics, choosing Bob as speaker
      And Alice resolves the secondary ability of Politics
      Then Alice holds 5 cards as seen by Bob
      And Alice holds 5 cards as seen by a spectator

  @ti4:note-3
  Rule: Note 3 A player may reveal any or all of the cards in their hand
    Cites: ti4:note-3#1 "reveal any or all of the action cards in their hand"

    Scenario Outline: A player may reveal any or all of their cards; the rest stay hidden
      Given card A is any card
      And card B is any other card
      And card C is any other card
      And Alice holds card A, card B and card C
      When Alice reveals <revealed>
      Then Alice holds <revealed> and <hidden> hidden cards as seen by Bob
      And Alice holds <revealed> and <hidden> hidden cards as seen by a spectator
      And Alice holds card A, card B and card C

      Examples:
        | revealed                  | hidden |
        | card A                    | 2      |
        | card A and card B         | 1      |
        | card A, card B and card C | 0      |

    Scenario Outline: A player can reveal only cards they hold; a refused reveal shows nothing
      Given card A is any card
      And card B is any other card
      And card C is any other card
      And Alice holds card A and card B
      When Alice reveals <revealed>
      Then the action is <outcome>
      And Alice holds <seen> as seen by Bob

      Examples:
        | revealed          | outcome  | seen                     |
        | card B            | allowed  | card B and 1 hidden card |
        | card C            | rejected | 2 hidden cards           |
        | card B and card C | rejected | 2 hidden cards           |

    Scenario: A second reveal leaves the first card shown
      Given card A is any card
      And card B is any other card
      And Alice holds card A, card B and 1 other card
      When Alice reveals card A
      And Alice reveals card B
      Then Alice holds card A and card B and 1 hidden card as seen by Bob

    Scenario: A revealed card stays shown while the hand grows
      Given card A is any card
      And card B is any other card
      And Alice holds card A and 1 other card
      And the action deck is card B and 2 other cards
      When Alice reveals card A
      And Alice draws 1 action card
      Then Alice holds card A and 2 hidden cards as seen by Carol
