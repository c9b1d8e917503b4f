Feature: Drawing action cards
  How action cards reach a hand: the status phase, the Politics strategy
  card, the top of the deck, the reshuffle of a depleted deck, and the order
  in which several players are dealt. None of these rules is about a
  particular card: card A, card B, ... are any cards the engine models,
  picked for each run and shown in the report.

  Background:
    Given the players are Alice, Bob and Carol

  @ti4:2.1
  Rule: 2.1 Each player draws one action card during each status phase
    Cites: ti4:2.1#1 "Each player draws one action card during each status phase."
    Cites: ti4:81.3#1 "each player draws one action card"

    Scenario: Every player draws one card in the status phase, whatever they hold
      Given it is the status phase
      And Alice holds 2 cards
      And Bob holds no cards
      And Carol holds 1 card
      And the action deck is 6 cards
      When the status phase step "Draw Action Cards" is resolved
      Then Alice holds 3 cards
      And Bob holds 1 card
      And Carol holds 2 cards
      And the action deck is 3 cards

    Scenario Outline: The status phase draw happens in the status phase only
      Cites: ti4:81#2 "To resolve the status phase, players perform the following steps"
      Given it is <phase>
      And the action deck is 6 cards
      When the status phase step "Draw Action Cards" is resolved
      Then the action is <outcome>

      Examples:
        | phase                          | outcome  |
        | the status phase               | allowed  |
        | the action phase, Alice's turn | rejected |
        | the agenda phase               | rejected |
        | the strategy phase             | rejected |

    Scenario Outline: The status phase's steps come in order: action cards are drawn in the third
      Cites: ti4:81#2 "players perform the following steps"
      Given it is the status phase
      And the action deck is 6 cards
      When the status phase step "<step>" is resolved
      And the status phase step "Draw Action Cards" is resolved
      Then the action is <outcome>

      Examples:
        | step                    | outcome                  |
        | Reveal Public Objective | allowed                  |
        | Remove Command Tokens   | rejected, citing ti4:2.1 |

  @ti4:2.2
  Rule: 2.2 The Politics strategy card draws action cards
    Cites: ti4:2.2#1 "by resolving the primary and secondary abilities of the Politics strategy card"

    Scenario: The primary ability of Politics draws two cards and names a new speaker
      Cites: ti4:66.1#1 "they can perform a strategic action to resolve that card’s primary ability"
      Cites: ti4:66.2.1#3 "they are now the speaker"
      Cites: ti4:66.2.2#1 "The active player draws two action cards."
      Given it is the action phase, Alice's turn
      And Alice has the Politics strategy card
      And Carol is the speaker
      And card A is any card
      And card B is any other card
      And Alice holds 1 card
      And the action deck is card A, card B and 3 other cards
      When Alice resolves the primary ability of Politics, choosing Bob as speaker
      Then Alice holds card A, card B and 1 other card
      And Bob is the speaker
      And the action deck is 3 cards

    Scenario Outline: The secondary ability of Politics spends a strategy token to draw two
      Cites: ti4:66.3#1 "may spend one command token from their strategy pool to draw two action cards"
      # Bob is the first player clockwise from Alice, so he is the first who may.
      Given it is the action phase, Alice's turn
      And Alice has the Politics strategy card
      And Bob has <tokens> command tokens in his strategy pool
      And card A is any card
      And card B is any other card
      And card C is any other card
      And card D is any other card
      And the action deck is card C, card D, card A, card B and 3 other cards
      When Alice resolves the primary ability of Politics, choosing Carol as speaker
      And Bob resolves the secondary ability of Politics
      Then the action is <outcome>
      And Bob holds <hand>
      And Bob has <left> command tokens in his strategy pool

      Examples:
        | tokens | outcome  | hand              | left |
        | 2      | allowed  | card A and card B | 1    |
        | 0      | rejected | no cards          | 0    |

    Scenario Outline: Only the other players resolve the secondary ability
      Cites: ti4:83.4#1 "only resolve the secondary ability of strategy cards that were chosen by other players"
      Cites: ti4:66.3#1 "each other player"
      Given it is the action phase, Alice's turn
      And Alice has the Politics strategy card
      And the action deck is 5 cards
      When Alice resolves the primary ability of Politics, choosing Carol as speaker
      And <player> resolves the secondary ability of Politics
      Then the action is <outcome>

      Examples:
        | player | outcome  |
        | Bob    | allowed  |
        | Alice  | rejected |

    Scenario Outline: The secondary ability is resolved after the primary ability
      Cites: ti4:66.3#1 "After the active player resolves the primary ability of the Politics strategy card"
      Cites: ti4:1.note-6#1 "after the primary ability"
      Given it is the action phase, Alice's turn
      And Alice has the Politics strategy card
      And card A is any card
      And Alice holds card A
      And the action deck is 5 cards
      When <first>
      And Bob resolves the secondary ability of Politics
      Then the action is <outcome>

      Examples:
        | first                                                                   | outcome  |
        | Alice resolves the primary ability of Politics, choosing Carol as speaker | allowed  |
        | Alice reveals card A                                                    | rejected |

    Scenario: Politics is dealt as one deal, clockwise from the active player
      Cites: ti4:66.3#1 "beginning with the player to the left of the active player and proceeding clockwise"
      Cites: ti4:66.note-1#1 "they will be dealt out in clockwise order from the active player"
      # Bob is the active player: Carol, on his left, is dealt before Alice, although Alice
      # is first in initiative order and the step names her first.
      Given it is the action phase, Bob's turn
      And the initiative order is Alice, Bob and Carol
      And Bob has the Politics strategy card
      And Alice is the speaker
      And card A is any card
      And card B is any other card
      And card C is any other card
      And card D is any other card
      And the action deck is card A, card B, card C, card D and 4 other cards
      When Bob resolves the primary ability of Politics, choosing Carol as speaker, and Alice and Carol resolve its secondary ability
      Then Bob holds card A and card B
      And Carol holds card C and card D
      And Alice holds 2 cards
      And the action deck is 2 cards
      And Alice has 1 command token in her strategy pool
      And Carol has 1 command token in her strategy pool

    Scenario: Neural Motivator adds nothing to a Politics draw
      Cites: ti4:66.2.2#1 "The active player draws two action cards."
      Given it is the action phase, Alice's turn
      And Alice has the Politics strategy card
      And Alice has researched "Neural Motivator"
      And Carol is the speaker
      And card A is any card
      And card B is any other card
      And the action deck is card A, card B and 3 other cards
      When Alice resolves the primary ability of Politics, choosing Bob as speaker
      Then Alice holds card A and card B

  @ti4:2.3
  Rule: 2.3 A draw takes the top card of the action card deck into the hand
    Cites: ti4:2.3#1 "take the top card from the action card deck and add it to their hand"

    Scenario Outline: A draw takes the top cards of the deck, in order, into the hand
      Given card A is any card
      And card B is any other card
      And card C is any other card
      And Alice holds <hand>
      And the action deck is card A, card B and card C
      When Alice draws <n> action cards
      Then Alice holds <after>
      And the action deck is <rest>
      And the action discard pile is empty

      Examples:
        | hand     | n | after                             | rest              |
        | no cards | 1 | card A                            | card B and card C |
        | no cards | 2 | card A and card B                 | card C            |
        | 2 cards  | 1 | card A and 2 other cards          | card B and card C |
        | 2 cards  | 3 | card A, card B, card C and 2 other cards | empty      |

  @ti4:note-1
  Rule: Note 1 Players start the game with zero action cards
    Cites: ti4:note-1#1 "Players start the game with zero action cards."

    Scenario: A new game gives nobody an action card
      # No hand is given, so the engine sets up each player as at the start of a game.
      Then Alice holds no cards
      And Bob holds no cards
      And Carol holds 0 cards as seen by Alice

    Scenario: A player given no hand holds none, beside hands already dealt
      Given Alice holds 2 cards
      And the initiative order is Bob, Carol and Alice
      Then Bob holds no cards
      And Carol holds no cards
      And Alice holds 2 cards

  @ti4:note-4
  Rule: Note 4 A depleted deck is shuffled from the discard pile at once
    Cites: ti4:note-4#1 "immediately shuffle the discard pile to form a new action card deck"

    Scenario: Drawing the last card reshuffles the discard pile immediately
      Given card A is any card
      And card B is any other card
      And card C is any other card
      And the action deck is card A
      And the action discard pile is card B, card C and 1 other card
      When Alice draws 1 action card
      Then Alice holds card A
      And the action deck is card B, card C and 1 other card in any order
      And the action discard pile is empty

    Scenario: A draw that empties the deck part-way goes on from the new deck
      # Two cards come from the old deck, so an engine that draws too few whatever the deck
      # holds is told apart from one that stops when the deck runs out.
      Given card A is any card
      And card B is any other card
      And card C is any other card
      And the action deck is card A and card B
      And the action discard pile is card C
      When Alice draws 3 action cards
      Then Alice holds card A, card B and card C
      And the action deck is empty
      And the action discard pile is empty

    Scenario: A deal reshuffles only after the players dealt from the old deck discard down
      Cites: ti4:81.note-2#2 "After those players have discarded down to their seven card hand limit, if necessary, the discard pile will be shuffled"
      Cites: ti4:81.note-2#3 "The remaining players"
      # Carol's draw first shows the hand limit at work. Then Bob is dealt card C and Alice
      # the old deck's last card, which puts her over the limit: the discard pile waits for
      # the card she discards, then the new deck deals Carol.
      Given it is the status phase
      And the initiative order is Bob, Alice and Carol
      And card A is any card
      And card B is any other card
      And card C is any other card
      And card D is any other card
      And Alice holds 7 cards
      And Carol holds 7 cards
      And the action deck is card D, card C and card A
      And the action discard pile is card B
      When Carol draws 1 action card
      And Carol keeps all cards but card D
      And the status phase step "Draw Action Cards" is resolved
      Then Bob holds card C
      And Alice must keep 7 cards
      And Carol holds 7 cards
      And the action deck is empty
      And the action discard pile is card D and card B
      When Alice keeps all cards but card A
      Then Carol holds 8 cards
      And Carol must keep 7 cards
      And the action deck is 2 cards
      And the action discard pile is empty

    Scenario: The status phase deal goes on from the reshuffled deck
      Cites: ti4:81.3#1 "Following initiative order"
      Cites: ti4:81.note-2#3 "The remaining players (including the player who received the last action card from the previous deck, if applicable) will then be dealt their action cards."
      Given it is the status phase
      And the action deck is 1 card
      And the action discard pile is 3 cards
      When the status phase step "Draw Action Cards" is resolved
      Then Alice holds 1 card
      And Bob holds 1 card
      And Carol holds 1 card
      And the action deck is 1 card
      And the action discard pile is empty

    Scenario: A Politics draw goes on from the reshuffled deck
      Cites: ti4:66.3#1 "may spend one command token from their strategy pool to draw two action cards"
      Cites: ti4:66.note-1#3 "The remaining players (including the player who received the last action card from the previous deck, if applicable) will then be dealt their action cards."
      # Alice's two cards come from the old deck, so an engine whose Politics draws too few
      # is told apart from one that stops when the deck runs out during Bob's draw.
      Given it is the action phase, Alice's turn
      And Alice has the Politics strategy card
      And the action deck is 3 cards
      And the action discard pile is 3 cards
      When Alice resolves the primary ability of Politics, choosing Bob as speaker
      And Bob resolves the secondary ability of Politics
      Then Alice holds 2 cards
      And Bob holds 2 cards
      And the action deck is 2 cards
      And the action discard pile is empty

  @ti4:note-5
  Rule: Note 5 Action cards are dealt out in initiative order
    # The note says "During the action phase", where the one deal to several players,
    # Politics, goes clockwise from the active player (ti4:66.3): it is read as the status
    # phase's deal, which the Status Phase page puts in initiative order (ti4:81.3).
    Cites: ti4:note-5#1 "action cards are dealt out in initiative order"
    Cites: ti4:81.3#1 "Following initiative order, each player draws one action card."

    Scenario Outline: The status phase deals in initiative order, not seat order
      Given it is the status phase
      And the initiative order is <first>, <second> and <third>
      And card A is any card
      And card B is any other card
      And card C is any other card
      And the action deck is card A, card B, card C and 3 other cards
      When the status phase step "Draw Action Cards" is resolved
      Then <first> holds card A
      And <second> holds card B
      And <third> holds card C

      Examples:
        | first | second | third |
        | Carol | Alice  | Bob   |
        | Bob   | Alice  | Carol |

  @ti4:note-5.1
  Rule: Note 5.1 Neural Motivator draws both cards before the next player draws
    Cites: ti4:note-5.1#1 "they will draw both their action cards before the next player in order draws an action card"
    Cites: ti4:81.3#1 "Following initiative order"

    Scenario Outline: The Neural Motivator player draws both cards in one turn of the deal
      Given it is the status phase
      And the initiative order is Alice, Bob and Carol
      And <player> has researched "Neural Motivator"
      And card A is any card
      And card B is any other card
      And card C is any other card
      And the action deck is card A, card B, card C and 3 other cards
      When the status phase step "Draw Action Cards" is resolved
      Then Alice holds <alice>
      And Bob holds <bob>

      Examples:
        | player | alice             | bob               |
        | Alice  | card A and card B | card C            |
        | Bob    | card A            | card B and card C |

    Scenario: The Neural Motivator player draws two cards in each status phase, round after round
      Cites: ti4:2.1#1 "during each status phase"
      Cites: ti4:40#1 "A game round consists of the following four phases"
      # Two status phases in a row: a Neural Motivator counted once a game, not once each
      # status phase, deals Carol card G in the second.
      Given it is the status phase
      And the initiative order is Alice, Bob and Carol
      And Bob has researched "Neural Motivator"
      And card A is any card
      And card B is any other card
      And card C is any other card
      And card D is any other card
      And card E is any other card
      And card F is any other card
      And card G is any other card
      And card H is any other card
      And the action deck is card A, card B, card C, card D, card E, card F, card G, card H and 2 other cards
      When the status phase step "Draw Action Cards" is resolved
      Then Bob holds card B and card C
      And Carol holds card D
      When the game goes on to the status phase of the next round
      And the status phase step "Draw Action Cards" is resolved
      Then Alice holds card A and card E
      And Bob holds card B, card C, card F and card G
      And Carol holds card D and card H
      And the action deck is 2 cards

  @ti4:note-5.2
  Rule: Note 5.2 The Yssaril player draws and discards before the next player draws
    Cites: ti4:note-5.2#1 "discard for their Scheming ability, before the next player in order draws an action card"
    Cites: ti4:81.3#1 "Following initiative order"

    Scenario Outline: The deal waits for the Yssaril player's Scheming discard
      Given it is the status phase
      And the initiative order is Alice, Bob and Carol
      And <player> is the Yssaril player
      And card A is any card
      And card B is any other card
      And card C is any other card
      And card D is any other card
      And the action deck is card A, card B, card C, card D and 2 other cards
      When the status phase step "Draw Action Cards" is resolved
      Then <player> must discard 1 card
      And <player> holds <drawn>
      And Carol holds no cards
      When <player> discards <discarded>
      Then Carol holds card D
      And the action discard pile is <discarded>

      Examples:
        | player | drawn                         | discarded |
        | Alice  | card A and card B             | card B    |
        | Bob    | card B and card C             | card C    |

    Scenario Outline: Scheming adds one card to a draw, however many cards the draw takes
      Cites: ti4:note-5.2#1 "The Yssaril player will draw all of their action cards"
      Cites: ti4:1.20#1 "Each ability can be resolved once for each occurrence of that ability’s timing event."
      # A draw of several cards is one timing event: one extra card, one discard.
      Given Alice is the Yssaril player
      And card A is any card
      And card B is any other card
      And card C is any other card
      And card D is any other card
      And the action deck is card A, card B, card C, card D and 3 other cards
      When Alice draws <n> action cards
      Then Alice must discard 1 card
      And Alice holds <drawn>
      And the action deck is <left> cards

      Examples:
        | n | drawn                             | left |
        | 1 | card A and card B                 | 5    |
        | 3 | card A, card B, card C and card D | 3    |

    Scenario: Two draws in a row each add one Scheming card
      Cites: ti4:1.20#1 "Each ability can be resolved once for each occurrence of that ability’s timing event."
      Given Alice is the Yssaril player
      And card A is any card
      And card B is any other card
      And card C is any other card
      And card D is any other card
      And the action deck is card A, card B, card C, card D and 3 other cards
      When Alice draws 1 action card
      Then Alice must discard 1 card
      When Alice discards card B
      And Alice draws 1 action card
      Then Alice must discard 1 card
      And Alice holds card A, card C and card D
      And the action discard pile is card B

    Scenario: With Neural Motivator, Scheming adds one card to the status phase's two
      Cites: ti4:note-5.1#1 "they will draw both their action cards"
      Cites: ti4:note-5.2#1 "The Yssaril player will draw all of their action cards, and discard for their Scheming ability"
      Cites: ti4:1.20#1 "Each ability can be resolved once for each occurrence of that ability’s timing event."
      # Both cards are one draw in the deal: one extra card, one discard. Bob, dealt
      # first, has Neural Motivator too, without Scheming.
      Given it is the status phase
      And the initiative order is Bob, Alice and Carol
      And Bob has researched "Neural Motivator"
      And Alice is the Yssaril player
      And Alice has researched "Neural Motivator"
      And card A is any card
      And card B is any other card
      And card C is any other card
      And card D is any other card
      And card E is any other card
      And the action deck is card A, card B, card C, card D, card E and 3 other cards
      When the status phase step "Draw Action Cards" is resolved
      Then Bob holds card A and card B
      And Alice must discard 1 card
      And Alice holds card C, card D and card E
      When Alice discards card E
      Then Alice holds card C and card D
      And the action discard pile is card E

    Scenario: Scheming adds one card to the two a Politics deal gives a player
      Cites: ti4:note-5.2#1 "The Yssaril player will draw all of their action cards, and discard for their Scheming ability"
      Cites: ti4:1.20#1 "Each ability can be resolved once for each occurrence of that ability’s timing event."
      Cites: ti4:66.3#1 "may spend one command token from their strategy pool to draw two action cards"
      Given it is the action phase, Alice's turn
      And Alice has the Politics strategy card
      And Carol is the speaker
      And Bob is the Yssaril player
      And card A is any card
      And card B is any other card
      And card C is any other card
      And card D is any other card
      And card E is any other card
      And the action deck is card A, card B, card C, card D, card E and 3 other cards
      When Alice resolves the primary ability of Politics, choosing Bob as speaker, and Bob resolves its secondary ability
      Then Alice holds card A and card B
      And Bob must discard 1 card
      And Bob holds card C, card D and card E
      And the action deck is 3 cards
