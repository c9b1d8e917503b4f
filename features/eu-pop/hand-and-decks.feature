Feature: Hands, the three decks and their discard piles
  A hand is secret; its limit of 5 is checked only in Phase 5, Step C, where every player
  chooses what to keep and Display Cards in play do not count. Each of the three decks has
  its own public discard pile, and an empty deck is rebuilt from its discard pile when a card
  must be drawn, leaving out the top 5 discards.

  Background:
    Given the players are Alice, Bob and Carol

  @eu-pop:6.cards-in-hand.1
  Rule: 6.cards-in-hand.1 Cards in hand are kept secret from other players until played

    Scenario: Other players and spectators do not see the cards in a hand
      Given Alice holds "Royal Decree" and "Secret Treaty"
      Then Alice holds "Royal Decree" and "Secret Treaty"
      And Alice holds 2 hidden cards as seen by Bob
      And Alice holds 2 hidden cards as seen by a spectator

    Scenario: A drawn card is seen by its owner only
      Given Bob holds "Royal Marriage"
      And the military deck is "Volley Fire" and 2 other cards
      When Alice draws 1 military card
      Then Alice holds "Volley Fire"
      And Alice holds 1 hidden card as seen by Bob
      And Bob holds 1 hidden card as seen by Alice

    Scenario: The rest of a hand stays secret when one card is played
      Given it is the action phase, Alice's turn
      And Alice holds "Royal Decree" and "Secret Treaty"
      When Alice plays "Royal Decree"
      Then the administrative discard pile is "Royal Decree"
      And Alice holds 1 hidden card as seen by Bob

  @eu-pop:6.cards-in-hand.2
  Rule: 6.cards-in-hand.2 The hand limit is 5, checked only in Phase 5, Step C

    Scenario: A hand may grow past 5 cards before Phase 5
      Given it is the action phase, Alice's turn
      And Alice holds 5 cards
      And the military deck is "Volley Fire" and 2 other cards
      When Alice draws 2 military cards
      Then no decision is pending
      And Alice holds 7 cards

    Scenario: A hand over the limit can still be played from before Phase 5
      Given it is the action phase, Alice's turn
      And Alice holds "Forced March" and 6 other cards
      When Alice plays "Forced March"
      Then Alice holds 6 cards
      And no decision is pending

    Scenario: Phase 5, Step C makes a player over the limit keep 5 cards
      Given it is the cleanup phase
      And Alice holds 7 cards
      When Phase 5, Step C is resolved
      Then Alice must keep 5 cards
      When Alice keeps 5 cards
      Then Alice holds 5 cards
      And no decision is pending

    Scenario: Five cards are within the limit
      Given it is the cleanup phase
      And Alice holds 5 cards
      When Phase 5, Step C is resolved
      Then no decision is pending
      And Alice holds 5 cards

    Scenario: Step C belongs to Phase 5, not to the Action Phase
      Given it is the action phase, Alice's turn
      And Alice holds 7 cards
      When Phase 5, Step C is resolved
      Then the action is rejected
      And Alice holds 7 cards

  @eu-pop:4.5.c.1
  Rule: 4.5.c.1 In Step C all players discard down to 5 Action Cards

    Scenario: Every player over the limit discards down; the others keep their hands
      Given it is the cleanup phase
      And Alice holds 7 cards
      And Bob holds 6 cards
      And Carol holds 5 cards
      When Phase 5, Step C is resolved
      Then Alice must keep 5 cards
      And Bob must keep 5 cards
      When Alice keeps 5 cards
      And Bob keeps 5 cards
      Then Alice holds 5 cards
      And Bob holds 5 cards
      And Carol holds 5 cards
      And no decision is pending

  @eu-pop:4.5.c.2
  Rule: 4.5.c.2 Players choose which cards to discard

    Scenario: The player keeps the cards they chose; the rest go to their decks' discard piles
      Given it is the cleanup phase
      And Alice holds "Royal Decree", "Tax Reform", "Secret Treaty", "Forced March", "Volley Fire", "Royal Marriage" and "Bold Gambit"
      When Phase 5, Step C is resolved
      And Alice keeps "Tax Reform", "Secret Treaty", "Volley Fire", "Royal Marriage" and "Bold Gambit"
      Then Alice holds "Tax Reform", "Secret Treaty", "Volley Fire", "Royal Marriage" and "Bold Gambit"
      And the administrative discard pile is "Royal Decree"
      And the military discard pile is "Forced March"

    Scenario: Keeping other than 5 cards is refused
      Given it is the cleanup phase
      And Alice holds 7 cards
      When Phase 5, Step C is resolved
      And Alice keeps 4 cards
      Then the action is rejected
      And Alice must keep 5 cards

  @eu-pop:4.5.c.3
  Rule: 4.5.c.3 Display Cards in play do not count towards the 5-card limit

    Scenario: Five cards in hand and two on display are within the limit
      Given it is the cleanup phase
      And Alice holds 5 cards
      And Alice has "Royal Manufactory" on display with 2 charges
      And Alice has "Spy Network" on display with 1 charge
      When Phase 5, Step C is resolved
      Then no decision is pending
      And Alice holds 5 cards

  @eu-pop:6.decks.1
  Rule: 6.decks.1 There are three Action Card decks, kept apart

    Scenario: A new game has three decks, each of its own cards
      # No deck is given, so the engine builds each deck as at the start of a game.
      Then the military deck is "Forced March", "Forced March", "Volley Fire", "Volley Fire", "Volley Fire", "Combined Arms", "Combined Arms", "Bold Gambit", "Bold Gambit" and "Standing Army" in any order
      And the administrative deck is 9 cards
      And the diplomatic deck is 7 cards
      And the military discard pile is empty

    Scenario: Drawing from one deck leaves the other decks alone
      Given the administrative deck is "Royal Decree" and "Tax Reform"
      And the diplomatic deck is "Royal Marriage" and "Secret Treaty"
      And the military deck is "Forced March" and "Volley Fire"
      When Alice draws 1 diplomatic card
      Then Alice holds "Royal Marriage"
      And the diplomatic deck is "Secret Treaty"
      And the administrative deck is "Royal Decree" and "Tax Reform"
      And the military deck is "Forced March" and "Volley Fire"

  @eu-pop:6.decks.2
  Rule: 6.decks.2 Discarded cards go face up on their own deck's discard pile

    Scenario: A played card goes on top of its own deck's discard pile
      Given it is the action phase, Alice's turn
      And Alice holds "Forced March"
      And the military discard pile is "Volley Fire"
      When Alice plays "Forced March"
      Then the military discard pile is "Forced March" and "Volley Fire"
      And the administrative discard pile is empty
      And the diplomatic discard pile is empty

    Scenario: Cards discarded in Step C go to the piles of their own decks
      Given it is the cleanup phase
      And Alice holds "Royal Decree", "Secret Treaty", "Forced March", "Tax Reform", "Royal Marriage" and "Volley Fire"
      When Phase 5, Step C is resolved
      And Alice keeps "Royal Decree", "Secret Treaty", "Forced March", "Tax Reform" and "Royal Marriage"
      Then the military discard pile is "Volley Fire"
      And the administrative discard pile is empty
      And the diplomatic discard pile is empty

  @eu-pop:6.decks.3
  Rule: 6.decks.3 The discard piles are public information

    Scenario: Every player and spectator sees the discard piles
      Given the diplomatic discard pile is "Secret Treaty" and "Royal Marriage"
      Then the diplomatic discard pile is "Secret Treaty" and "Royal Marriage" as seen by Bob
      And the diplomatic discard pile is "Secret Treaty" and "Royal Marriage" as seen by a spectator

    Scenario: A card discarded in play is seen by everyone
      Given it is the action phase, Alice's turn
      And Alice holds "Royal Decree"
      When Alice plays "Royal Decree"
      Then the administrative discard pile is "Royal Decree" as seen by Carol

  @eu-pop:6.decks.4
  Rule: 6.decks.4 An empty deck is rebuilt from its discard pile, leaving the top 5 discards

    Scenario: The top 5 discards stay; the rest become the new deck
      Given the military deck is empty
      And the military discard pile is "Forced March", "Combined Arms", "Bold Gambit", "Forced March", "Volley Fire", "Volley Fire" and "Volley Fire"
      When Alice draws 1 military card
      Then Alice holds "Volley Fire"
      And the military deck is "Volley Fire"
      And the military discard pile is "Forced March", "Combined Arms", "Bold Gambit", "Forced March" and "Volley Fire"

    Scenario: A deck is rebuilt only when a card must be drawn from it
      Given the military deck is "Combined Arms"
      And the military discard pile is "Forced March", "Bold Gambit", "Forced March", "Volley Fire", "Volley Fire", "Volley Fire" and "Bold Gambit"
      When Alice draws 1 military card
      Then Alice holds "Combined Arms"
      And the military deck is empty
      And the military discard pile is 7 cards

    Scenario: A draw that empties the deck part-way goes on from the rebuilt deck
      Given the military deck is "Combined Arms"
      And the military discard pile is "Forced March", "Bold Gambit", "Forced March", "Volley Fire", "Volley Fire" and "Bold Gambit"
      When Alice draws 2 military cards
      Then Alice holds "Combined Arms" and "Bold Gambit"
      And the military deck is empty
      And the military discard pile is "Forced March", "Bold Gambit", "Forced March", "Volley Fire" and "Volley Fire"

  @eu-pop:6.decks.5
  Rule: 6.decks.5 A discard pile of 5 or fewer cards is shuffled whole

    Scenario: A discard pile of exactly 5 cards becomes the whole new deck
      Given the military deck is empty
      And the military discard pile is "Forced March", "Volley Fire", "Combined Arms", "Bold Gambit" and "Volley Fire"
      When Alice draws 1 military card
      Then Alice holds 1 card
      And the military deck is 4 cards
      And the military discard pile is empty

    Scenario: A discard pile of 2 cards becomes the new deck
      Given the military deck is empty
      And the military discard pile is "Volley Fire" and "Volley Fire"
      When Alice draws 1 military card
      Then Alice holds "Volley Fire"
      And the military deck is "Volley Fire"
      And the military discard pile is empty
