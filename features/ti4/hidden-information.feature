Feature: What players may see of action cards
  A hand's cards are hidden from everybody but their owner until played or
  revealed; how many cards a hand holds is public. Each check below asks the
  engine for the view of one particular viewer.

  Background:
    Given the players are Alice, Bob and Carol

  @ti4:2.5
  Rule: 2.5 Action cards stay hidden from other players until played

    Scenario: Other players and spectators do not see the cards in a hand
      Given Alice holds "Sabotage" and "Repeal Law"
      Then Alice holds "Sabotage" and "Repeal Law"
      And Alice holds 2 hidden cards as seen by Bob
      And Alice holds 2 hidden cards as seen by Carol
      And Alice holds 2 hidden cards as seen by a spectator

    Scenario: A drawn card is seen by its owner only
      Given Bob holds "Repeal Law"
      And the action deck is "Sabotage" and 2 other cards
      When Alice draws 1 action card
      Then Alice holds "Sabotage"
      And Alice holds 1 hidden card as seen by Bob
      And Bob holds 1 hidden card as seen by Alice

    Scenario: A played card is public; the rest of the hand stays hidden
      Given it is the action phase, Alice's turn
      And Alice holds "Lucky Shot" and "Repeal Law"
      And Bob has a destroyer
      When Alice plays "Lucky Shot" targeting Bob's destroyer
      Then the action discard pile is "Lucky Shot"
      And Alice holds 1 hidden card as seen by Bob

  @ti4:note-2
  Rule: Note 2 The number of action cards in a hand is public information

    Scenario: Everybody sees how many cards a hand holds
      Given Alice holds 3 cards
      Then Alice holds 3 cards as seen by Bob
      And Alice holds 3 cards as seen by Carol
      And Alice holds 3 cards as seen by a spectator

    Scenario: A hand's public size follows a draw
      Given Alice holds 1 card
      And the action deck is "Sabotage" and 2 other cards
      When Alice draws 1 action card
      Then Alice holds 2 cards as seen by Bob

  @ti4:note-3
  Rule: Note 3 A player may reveal any or all of the cards in their hand

    Scenario: A revealed card is seen by everyone; the rest stay hidden
      Given Alice holds "Sabotage", "Repeal Law" and "Bribery"
      When Alice reveals "Sabotage"
      Then Alice holds "Sabotage" and 2 hidden cards as seen by Bob
      And Alice holds "Sabotage" and 2 hidden cards as seen by a spectator
      And Alice holds "Sabotage", "Repeal Law" and "Bribery"

    Scenario: A player may reveal every card in their hand
      Given Alice holds "Sabotage" and "Repeal Law"
      When Alice reveals "Sabotage" and "Repeal Law"
      Then Alice holds "Sabotage" and "Repeal Law" as seen by Carol

    Scenario: A player cannot reveal a card they do not hold
      Given Alice holds "Sabotage"
      When Alice reveals "Repeal Law"
      Then the action is rejected
      And Alice holds 1 hidden card as seen by Bob
