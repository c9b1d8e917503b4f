Feature: Drawing action cards
  How action cards reach a hand: the status phase, the Politics strategy
  card, the top of the deck, the reshuffle of a depleted deck, and the order
  in which several players are dealt.

  Background:
    Given the players are Alice, Bob and Carol

  @ti4:2.1
  Rule: 2.1 Each player draws one action card during each status phase

    Scenario: Every player draws one card in the status phase
      Given it is the status phase
      And the action deck is "Sabotage", "Direct Hit", "Bribery" and 5 other cards
      When the status phase step "Draw Action Cards" is resolved
      Then Alice holds 1 card
      And Bob holds 1 card
      And Carol holds 1 card
      And the action deck is 5 cards

    Scenario: The status phase draw is not available in the action phase
      Given it is the action phase, Alice's turn
      When the status phase step "Draw Action Cards" is resolved
      Then the action is rejected
      And Alice holds no cards

  @ti4:2.2
  Rule: 2.2 The Politics strategy card draws action cards

    Scenario: The primary ability of Politics draws two action cards
      Given it is the action phase, Alice's turn
      And Alice has the Politics strategy card
      And Carol is the speaker
      And the action deck is "Sabotage", "Direct Hit" and 3 other cards
      When Alice resolves the primary ability of Politics, choosing Bob as speaker
      Then Alice holds "Sabotage" and "Direct Hit"
      And Bob is the speaker
      And the action deck is 3 cards

    Scenario: The secondary ability of Politics spends a strategy token to draw two
      Given it is the action phase, Alice's turn
      And Alice has the Politics strategy card
      And Bob has 1 command token in his strategy pool
      And the action deck is "Sabotage", "Direct Hit" and 3 other cards
      When Bob resolves the secondary ability of Politics
      Then Bob holds "Sabotage" and "Direct Hit"
      And Bob has 0 command tokens in his strategy pool

    Scenario: The secondary ability of Politics needs a token in the strategy pool
      Given it is the action phase, Alice's turn
      And Alice has the Politics strategy card
      And Bob has 0 command tokens in his strategy pool
      When Bob resolves the secondary ability of Politics
      Then the action is rejected
      And Bob holds no cards

    Scenario: Neural Motivator adds nothing to the Politics draw
      Given it is the action phase, Alice's turn
      And Alice has the Politics strategy card
      And Alice has researched "Neural Motivator"
      And Carol is the speaker
      And the action deck is "Sabotage", "Direct Hit" and 3 other cards
      When Alice resolves the primary ability of Politics, choosing Bob as speaker
      Then Alice holds "Sabotage" and "Direct Hit"

  @ti4:2.3
  Rule: 2.3 A draw takes the top card of the action card deck into the hand

    Scenario: Drawing takes the top card
      Given Alice holds "Direct Hit"
      And the action deck is "Sabotage", "Bribery" and "Lucky Shot"
      When Alice draws 1 action card
      Then Alice holds "Direct Hit" and "Sabotage"
      And the action deck is "Bribery" and "Lucky Shot"

    Scenario: Drawing two cards takes the top two
      Given the action deck is "Sabotage", "Bribery" and "Lucky Shot"
      When Bob draws 2 action cards
      Then Bob holds "Sabotage" and "Bribery"
      And the action deck is "Lucky Shot"
      And the action discard pile is empty

  @ti4:note-1
  Rule: Note 1 Players start the game with zero action cards

    Scenario: A new game gives nobody an action card
      # No hand is given, so the engine sets up a player as at the start of a game.
      Then Alice holds no cards
      And Bob holds no cards
      And Carol holds 0 cards as seen by Alice

  @ti4:note-4
  Rule: Note 4 A depleted deck is shuffled from the discard pile at once

    Scenario: Drawing the last card reshuffles the discard pile immediately
      Given the action deck is "Sabotage"
      And the action discard pile is "Direct Hit", "Bribery" and "Lucky Shot"
      When Alice draws 1 action card
      Then Alice holds "Sabotage"
      And the action deck is "Direct Hit", "Bribery" and "Lucky Shot" in any order
      And the action discard pile is empty

    Scenario: A draw that empties the deck part-way goes on from the new deck
      Given the action deck is "Sabotage"
      And the action discard pile is "Direct Hit"
      When Alice draws 2 action cards
      Then Alice holds "Sabotage" and "Direct Hit"
      And the action deck is empty
      And the action discard pile is empty

  @ti4:note-5
  Rule: Note 5 Action cards are dealt out in initiative order

    Scenario: The status phase deals in initiative order, not seat order
      Given it is the status phase
      And the initiative order is Carol, Alice and Bob
      And the action deck is "Sabotage", "Direct Hit", "Bribery" and 3 other cards
      When the status phase step "Draw Action Cards" is resolved
      Then Carol holds "Sabotage"
      And Alice holds "Direct Hit"
      And Bob holds "Bribery"

  @ti4:note-5.1
  Rule: Note 5.1 Neural Motivator draws both cards before the next player draws

    Scenario: The Neural Motivator player draws both cards in one turn of the deal
      Given it is the status phase
      And the initiative order is Alice, Bob and Carol
      And Alice has researched "Neural Motivator"
      And the action deck is "Sabotage", "Direct Hit", "Bribery", "Lucky Shot" and 2 other cards
      When the status phase step "Draw Action Cards" is resolved
      Then Alice holds "Sabotage" and "Direct Hit"
      And Bob holds "Bribery"
      And Carol holds "Lucky Shot"

  @ti4:note-5.2
  Rule: Note 5.2 The Yssaril player draws and discards before the next player draws

    Scenario: The deal waits for the Yssaril player's Scheming discard
      Given it is the status phase
      And the initiative order is Alice, Bob and Carol
      And Alice is the Yssaril player
      And the action deck is "Sabotage", "Direct Hit", "Bribery", "Lucky Shot" and 2 other cards
      When the status phase step "Draw Action Cards" is resolved
      Then Alice must discard 1 card
      And Alice holds "Sabotage" and "Direct Hit"
      And Bob holds no cards
      And the action deck is "Bribery", "Lucky Shot" and 2 other cards
      When Alice discards "Direct Hit"
      Then Alice holds "Sabotage"
      And Bob holds "Bribery"
      And Carol holds "Lucky Shot"
      And the action discard pile is "Direct Hit"
