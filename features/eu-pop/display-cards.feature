Feature: Display Cards
  A Display Card is placed face up on display and charged when played. In later Turns its
  player may take the Actions it lists: each costs Monarch Power, normally takes a Turn, and
  spends a charge (or more); the last charge spent discards the card. A player has at most 2
  Display Cards in play, never 2 of the same.

  Background:
    Given the players are Alice, Bob and Carol

  @eu-pop:6.2.display.2
  Rule: 6.2.display.2 A played Display Card is placed face up on display and charged

    Scenario: A played Display Card goes on display with its charges
      Given it is the action phase, Alice's turn
      And Alice holds "Royal Manufactory"
      When Alice plays "Royal Manufactory"
      Then Alice has "Royal Manufactory" on display with 3 charges
      And Alice holds no cards

    Scenario: The charges match the card
      Given it is the action phase, Alice's turn
      And Alice holds "Grand Archive"
      When Alice plays "Grand Archive"
      Then Alice has "Grand Archive" on display with 4 charges

    Scenario: A Display Card is face up: every player and spectator sees it
      Given it is the action phase, Alice's turn
      And Alice holds "Royal Manufactory"
      When Alice plays "Royal Manufactory"
      Then Alice has "Royal Manufactory" on display with 3 charges as seen by Bob
      And Alice has "Royal Manufactory" on display with 3 charges as seen by a spectator

  @eu-pop:6.2.display.4
  Rule: 6.2.display.4 In later Turns its Actions are available to the player who played it

    Scenario: The player who played it takes its Action in a later Turn
      Given it is the action phase, Alice's turn
      And Alice holds "Royal Manufactory"
      When Alice plays "Royal Manufactory"
      And Alice ends her turn
      And Bob ends his turn
      And Carol ends her turn
      And Alice uses "Expand Production"
      Then Alice has "Royal Manufactory" on display

    Scenario: Its Actions are not available in the Turn it is played
      Given it is the action phase, Alice's turn
      And Alice holds "Standing Army"
      When Alice plays "Standing Army"
      And Alice uses "Rapid Muster"
      Then the action is rejected
      And Alice has "Standing Army" on display

    Scenario: Other players cannot take its Actions
      Given it is the action phase, Bob's turn
      And Alice has "Royal Manufactory" on display with 3 charges
      When Bob uses "Expand Production"
      Then the action is rejected
      And Alice has "Royal Manufactory" on display with 3 charges

  @eu-pop:6.2.display.5
  Rule: 6.2.display.5 Its Actions work like other Actions: they cost Monarch Power and take a Turn

    Scenario: An Action on a Display Card costs its Monarch Power and resolves
      Given it is the action phase, Alice's turn
      And Alice has "Royal Manufactory" on display with 3 charges
      And Alice has 15 ducats
      When Alice uses "Expand Production"
      Then Alice has 2 administrative power
      And Alice has 17 ducats

    Scenario: An Action whose cost cannot be paid cannot be taken
      Given it is the action phase, Alice's turn
      And Alice has "Royal Manufactory" on display with 3 charges
      And Alice has 0 administrative power
      When Alice uses "Expand Production"
      Then the action is rejected
      And Alice has "Royal Manufactory" on display with 3 charges

    Scenario: An Action on a Display Card takes the Turn
      Given it is the action phase, Alice's turn
      And Alice has "Royal Manufactory" on display with 3 charges
      And Alice has "Grand Archive" on display with 4 charges
      When Alice uses "Expand Production"
      And Alice uses "Catalogue Records"
      Then the action is rejected
      And Alice has "Grand Archive" on display with 4 charges

    Scenario: An Action on a Display Card waits for its player's Turn
      Given it is the action phase, Bob's turn
      And Alice has "Royal Manufactory" on display with 3 charges
      When Alice uses "Expand Production"
      Then the action is rejected
      And Alice has 3 administrative power

  @eu-pop:6.2.display.6
  Rule: 6.2.display.6 Its Battle Actions and Reactions are treated as such

    Scenario: A Battle Action on a Display Card is used in a Battle, even on another player's Turn
      Given it is the action phase, Bob's turn
      And Bob attacks Alice in a battle
      And Alice has "Standing Army" on display with 2 charges
      When Alice uses "Drill Regiments"
      Then Alice's side has 1 infantry die from battle actions
      And Alice has "Standing Army" on display with 1 charge

    Scenario: A Battle Action on a Display Card is not used outside a Battle
      Given it is the action phase, Alice's turn
      And Alice has "Standing Army" on display with 2 charges
      When Alice uses "Drill Regiments"
      Then the action is rejected
      And Alice has "Standing Army" on display with 2 charges

    Scenario: A Reaction on a Display Card is used on another player's Turn and takes no Turn
      Given it is the action phase, Bob's turn
      And Alice has "Standing Army" on display with 2 charges
      And Bob holds "Forced March"
      When Alice uses "Rapid Muster"
      And Bob plays "Forced March"
      Then Alice has "Standing Army" on display with 1 charge
      And Bob holds no cards

  @eu-pop:6.2.display.7
  Rule: 6.2.display.7 Each use removes a charge, or more if the card says so

    Scenario: A use removes one charge
      Given it is the action phase, Alice's turn
      And Alice has "Royal Manufactory" on display with 3 charges
      When Alice uses "Expand Production"
      Then Alice has "Royal Manufactory" on display with 2 charges

    Scenario: An Action that says so removes more charges
      Given it is the action phase, Alice's turn
      And Alice has "Grand Archive" on display with 4 charges
      When Alice uses "Catalogue Records"
      Then Alice has "Grand Archive" on display with 2 charges

    Scenario: An Action needing more charges than are left cannot be taken
      Given it is the action phase, Alice's turn
      And Alice has "Grand Archive" on display with 1 charge
      When Alice uses "Catalogue Records"
      Then the action is rejected
      And Alice has "Grand Archive" on display with 1 charge

  @eu-pop:6.2.display.8
  Rule: 6.2.display.8 Once its last charge is spent, the Display Card is discarded

    Scenario: Spending the last charge discards the card
      Given it is the action phase, Alice's turn
      And Alice has "Royal Manufactory" on display with 1 charge
      When Alice uses "Expand Production"
      Then Alice has 0 cards on display
      And the administrative discard pile is "Royal Manufactory"

    Scenario: A card with charges left stays on display
      Given it is the action phase, Alice's turn
      And Alice has "Royal Manufactory" on display with 2 charges
      When Alice uses "Expand Production"
      Then Alice has "Royal Manufactory" on display with 1 charge
      And the administrative discard pile is empty

  @eu-pop:6.2.display.9
  Rule: 6.2.display.9 At most 2 Display Cards in play, and never 2 of the same card

    Scenario: A second copy of a card on display cannot be played
      Given it is the action phase, Alice's turn
      And Alice has "Royal Manufactory" on display with 2 charges
      And Alice holds "Royal Manufactory"
      When Alice plays "Royal Manufactory"
      Then the action is rejected
      And Alice holds "Royal Manufactory"
      And Alice has 1 card on display

    Scenario: Another player's copy does not stop a player
      Given it is the action phase, Alice's turn
      And Bob has "Royal Manufactory" on display with 2 charges
      And Alice holds "Royal Manufactory"
      When Alice plays "Royal Manufactory"
      Then Alice has "Royal Manufactory" on display

    Scenario: No more than 2 Display Cards stay in play
      Given it is the action phase, Alice's turn
      And Alice has "Royal Manufactory" on display with 2 charges
      And Alice has "Spy Network" on display with 3 charges
      And Alice holds "Standing Army"
      When Alice plays "Standing Army"
      And Alice discards "Royal Manufactory"
      Then Alice has 2 cards on display

  @eu-pop:6.2.display.10
  Rule: 6.2.display.10 Playing a Display Card with 2 in play discards 1 of the cards in play

    Scenario: The player chooses which Display Card to discard
      Given it is the action phase, Alice's turn
      And Alice has "Royal Manufactory" on display with 2 charges
      And Alice has "Spy Network" on display with 3 charges
      And Alice holds "Standing Army"
      When Alice plays "Standing Army"
      Then Alice must discard 1 card
      When Alice discards "Spy Network"
      Then Alice has "Royal Manufactory" on display with 2 charges
      And Alice has "Standing Army" on display
      And the diplomatic discard pile is "Spy Network"
      And no decision is pending
