Feature: Reactions and Covert Actions
  A Reaction interrupts play: it is played out of turn, outside the Action Phase or while
  another card is being played, and takes no Turn. A Covert Action (a card, or an Action on
  the Spy Network Display Card) can be countered by Counterespionage: it has no effect, it is
  discarded, its cost stays paid and, on a Display Card, its uses stay spent.

  Background:
    Given the players are Alice, Bob and Carol

  @eu-pop:6.2.reactions.1
  Rule: 6.2.reactions.1 Reactions interrupt play like other Reactions

    Scenario: A Reaction is played on another player's Turn and leaves that Turn alone
      Given it is the action phase, Alice's turn
      And Bob holds "Court Intrigue"
      And Alice holds "Royal Decree"
      When Bob plays "Court Intrigue"
      And Alice plays "Royal Decree"
      Then Bob holds no cards
      And Alice holds no cards

    Scenario: A Reaction does not take its player's own Turn
      Given it is the action phase, Alice's turn
      And Alice holds "Court Intrigue" and "Royal Decree"
      When Alice plays "Court Intrigue"
      And Alice plays "Royal Decree"
      Then Alice holds no cards

    Scenario: A Reaction interrupts a card being played
      Given it is the action phase, Alice's turn
      And Alice holds "Royal Decree"
      And Bob holds "Court Intrigue"
      When Alice starts playing "Royal Decree"
      And Bob plays "Court Intrigue"
      Then the administrative discard pile is "Royal Decree" and "Court Intrigue" in any order

    Scenario: A Reaction is played outside the Action Phase
      Given it is the cleanup phase
      And Bob holds "Court Intrigue"
      When Bob plays "Court Intrigue"
      Then Bob holds no cards
      And the administrative discard pile is "Court Intrigue"

  @eu-pop:6.2.covert.2
  Rule: 6.2.covert.2 Covert Actions can be countered by Counterespionage

    Scenario: A countered Covert Action has no effect
      Given it is the action phase, Alice's turn
      And Alice holds "Secret Treaty"
      And Bob holds "Counterespionage"
      And Alice has 15 ducats
      When Alice plays "Secret Treaty" and Bob cancels it with "Counterespionage"
      Then Alice has 15 ducats
      And Alice holds no cards
      And Bob holds no cards

    Scenario: Counterespionage cannot counter a card that is not a Covert Action
      Given it is the action phase, Alice's turn
      And Alice holds "Royal Marriage"
      And Bob holds "Counterespionage"
      When Alice plays "Royal Marriage" and Bob cancels it with "Counterespionage"
      Then the action is rejected
      And Bob holds "Counterespionage"

    Scenario: A Covert Action on a Display Card is countered too
      Given it is the action phase, Alice's turn
      And Alice has "Spy Network" on display with 3 charges
      And Bob holds "Counterespionage"
      And Alice has 15 ducats
      When Alice uses "Sow Discontent" and Bob cancels it with "Counterespionage"
      Then Alice has 15 ducats
      And Bob holds no cards

  @eu-pop:6.2.covert.3
  Rule: 6.2.covert.3 A countered card is discarded and its cost is still paid

    Scenario: The countered card is discarded and its cost stays paid
      Given it is the action phase, Alice's turn
      And Alice holds "Secret Treaty"
      And Bob holds "Counterespionage"
      And Alice has 3 diplomatic power
      When Alice plays "Secret Treaty" and Bob cancels it with "Counterespionage"
      Then Alice has 2 diplomatic power
      And the diplomatic discard pile is "Secret Treaty" and "Counterespionage" in any order
      And Alice holds no cards

  @eu-pop:6.2.covert.4
  Rule: 6.2.covert.4 A prevented Covert Action on a Display Card still spends its uses

    Scenario: A prevented Action still spends its one use
      Given it is the action phase, Alice's turn
      And Alice has "Spy Network" on display with 3 charges
      And Bob holds "Counterespionage"
      When Alice uses "Support Rebels" and Bob cancels it with "Counterespionage"
      Then Alice has "Spy Network" on display with 2 charges

    Scenario: A prevented Action still spends every use it indicates
      Given it is the action phase, Alice's turn
      And Alice has "Spy Network" on display with 3 charges
      And Bob holds "Counterespionage"
      When Alice uses "Sow Discontent" and Bob cancels it with "Counterespionage"
      Then Alice has "Spy Network" on display with 1 charge
