Feature: The action card hand limit
  A hand holds at most seven action cards, a game effect can change that,
  and the excess goes at once, by the player's choice.

  Background:
    Given the players are Alice, Bob and Carol

  @ti4:2.4
  Rule: 2.4 A hand holds at most seven action cards; the player chooses seven to keep

    Scenario: Seven cards is within the limit
      Given Alice holds 6 cards
      And the action deck is "Sabotage" and 2 other cards
      When Alice draws 1 action card
      Then no decision is pending
      And Alice holds 7 cards

    Scenario: An eighth card makes the player choose seven to keep
      Given Alice holds "Sabotage", "Repeal Law", "Bribery", "Lucky Shot", "Direct Hit", "Morale Boost" and "Direct Hit"
      And the action deck is "Insubordination" and 2 other cards
      When Alice draws 1 action card
      Then Alice must keep 7 cards
      When Alice keeps "Sabotage", "Repeal Law", "Bribery", "Lucky Shot", "Direct Hit", "Morale Boost" and "Insubordination"
      Then Alice holds "Sabotage", "Repeal Law", "Bribery", "Lucky Shot", "Direct Hit", "Morale Boost" and "Insubordination"
      And the action discard pile is "Direct Hit"
      And no decision is pending

    Scenario: Keeping other than seven cards is refused
      Given Alice holds 7 cards
      And the action deck is "Sabotage" and 2 other cards
      When Alice draws 1 action card
      And Alice keeps 6 cards
      Then the action is rejected
      And Alice must keep 7 cards

  @ti4:2.4.1
  Rule: 2.4.1 A game effect can raise or lower the hand limit

    Scenario: A raised hand limit lets a player hold eight cards
      Given Alice's hand limit is raised by 1 by a game effect
      And Alice holds 7 cards
      And the action deck is "Sabotage" and 2 other cards
      When Alice draws 1 action card
      Then no decision is pending
      And Alice holds 8 cards

    Scenario: A lowered hand limit makes a player discard sooner
      Given Alice's hand limit is lowered by 2 by a game effect
      And Alice holds 5 cards
      And the action deck is "Sabotage" and 2 other cards
      When Alice draws 1 action card
      Then Alice must keep 5 cards

  @ti4:note-10
  Rule: Note 10 The excess is discarded at once: not played, not traded away

    Scenario: A player over the limit cannot play a card to get down to seven
      Given it is the action phase, Alice's turn
      And Alice holds "Lucky Shot" and 6 other cards
      And Bob has a destroyer
      And the action deck is "Repeal Law" and 2 other cards
      When Alice draws 1 action card
      And Alice plays "Lucky Shot" targeting Bob's destroyer
      Then the action is rejected
      And Alice must keep 7 cards
      And Bob has 1 destroyer

    Scenario: The Hacan player over the limit cannot trade the excess away
      Given it is the action phase, Alice's turn
      And Alice is the Hacan player
      And Alice holds "Sabotage" and 6 other cards
      And the action deck is "Repeal Law" and 2 other cards
      When Alice draws 1 action card
      And Alice gives "Sabotage" to Bob in a transaction
      Then the action is rejected
      And Bob holds no cards
      And Alice must keep 7 cards

    Scenario: The Hacan player within the limit may trade action cards
      Given it is the action phase, Alice's turn
      And Alice is the Hacan player
      And Alice holds "Sabotage" and 5 other cards
      When Alice gives "Sabotage" to Bob in a transaction
      Then Bob holds "Sabotage"
      And Alice holds 5 cards

    Scenario: The status phase deal waits for an over-limit discard
      Given it is the status phase
      And the initiative order is Alice, Bob and Carol
      And Alice holds 7 cards
      And the action deck is "Sabotage", "Repeal Law", "Bribery" and 2 other cards
      When the status phase step "Draw Action Cards" is resolved
      Then Alice must keep 7 cards
      And Bob holds no cards
      When Alice keeps 7 cards
      Then Bob holds "Repeal Law"
      And Carol holds "Bribery"
