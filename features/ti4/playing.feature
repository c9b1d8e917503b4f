Feature: Playing action cards
  When a card may be played, what it may target, how it resolves, and what
  cancelling it does.

  Background:
    Given the players are Alice, Bob and Carol

  @ti4:2.6
  Rule: 2.6 A card's first paragraph gives the timing of its ability

    Scenario: A card is played in its timing window
      Given it is the action phase
      And the timing window "At the start of a combat round" is open
      And Alice holds "Morale Boost"
      And Alice has a cruiser
      When Alice plays "Morale Boost"
      Then the action discard pile is "Morale Boost"
      And Alice holds no cards

    Scenario: A card cannot be played outside its timing window
      Given it is the action phase
      And the timing window "After you activate a system" is open
      And Alice holds "Morale Boost"
      And Alice has a cruiser
      When Alice plays "Morale Boost"
      Then the action is rejected
      And Alice holds "Morale Boost"

    Scenario: A card of the agenda phase cannot be played in the action phase
      Given it is the action phase, Alice's turn
      And Alice holds "Bribery"
      When Alice plays "Bribery"
      Then the action is rejected
      And Alice holds "Bribery"

    Scenario: Sabotage needs another player's card being played
      Given it is the action phase, Alice's turn
      And Bob holds "Sabotage"
      When Bob plays "Sabotage"
      Then the action is rejected
      And Bob holds "Sabotage"

    Scenario: Sabotage cannot cancel a Sabotage
      Given it is the action phase, Alice's turn
      And Bob holds "Sabotage"
      And Alice holds "Lucky Shot" and "Sabotage"
      And Bob has a destroyer
      When Alice starts playing "Lucky Shot" targeting Bob's destroyer
      And Bob starts playing "Sabotage" targeting "Lucky Shot"
      And Alice starts playing "Sabotage" targeting "Sabotage"
      Then the action is rejected

  @ti4:2.6.1
  Rule: 2.6.1 An "Action" card is a component action, only if it can be completely resolved

    Scenario: An "Action" card is played as the active player's component action
      Given it is the action phase, Alice's turn
      And Alice holds "Lucky Shot"
      And Bob has a destroyer
      When Alice plays "Lucky Shot" targeting Bob's destroyer
      Then Bob has 0 destroyers
      And Alice holds no cards

    Scenario: An "Action" card cannot be played on another player's turn
      Given it is the action phase, Bob's turn
      And Alice holds "Lucky Shot"
      And Bob has a destroyer
      When Alice plays "Lucky Shot" targeting Bob's destroyer
      Then the action is rejected
      And Bob has 1 destroyer

    Scenario: An "Action" card cannot be played outside the action phase
      Given it is the status phase
      And Alice holds "Lucky Shot"
      And Bob has a destroyer
      When Alice plays "Lucky Shot" targeting Bob's destroyer
      Then the action is rejected

    Scenario: A component action that cannot be completely resolved cannot be played
      Given it is the action phase, Alice's turn
      And Alice holds "Insubordination"
      And Bob has 0 command tokens in his tactic pool
      When Alice plays "Insubordination" targeting Bob
      Then the action is rejected
      And Alice holds "Insubordination"

    Scenario: A component action uses the player's action for the turn
      Given it is the action phase, Alice's turn
      And Alice holds "Lucky Shot" and "Insubordination"
      And Bob has a destroyer
      And Bob has 2 command tokens in his tactic pool
      When Alice plays "Lucky Shot" targeting Bob's destroyer
      And Alice plays "Insubordination" targeting Bob
      Then the action is rejected
      And Bob has 2 command tokens in his tactic pool

  @ti4:2.6.2
  Rule: 2.6.2 Same-name cards cannot affect the same thing in one timing window

    Scenario: A second card of the same name cannot affect the same game effect
      Given it is the action phase
      And the timing window "At the start of a combat round" is open
      And Alice holds "Morale Boost" and "Morale Boost"
      And Alice has a cruiser
      When Alice plays "Morale Boost"
      And Alice plays "Morale Boost"
      Then the action is rejected
      And Alice holds "Morale Boost"

    Scenario: Same-name cards may affect different units in one window
      Given it is the action phase
      And the timing window "After another player's ship uses SUSTAIN DAMAGE to cancel a hit produced by your units or abilities" is open
      And Alice holds "Direct Hit" and "Direct Hit"
      And Bob has 2 dreadnoughts
      When Alice plays "Direct Hit" targeting Bob's dreadnought
      And Alice plays "Direct Hit" targeting Bob's dreadnought 2
      Then Bob has 0 dreadnoughts

    Scenario: The same card may be played again in a new window
      Given it is the action phase
      And the timing window "At the start of a combat round" is open
      And Alice holds "Morale Boost" and "Morale Boost"
      And Alice has a cruiser
      When Alice plays "Morale Boost"
      And the timing window "At the start of a combat round" opens
      And Alice plays "Morale Boost"
      Then Alice holds no cards

    Scenario: A cancelled card does not count as played in the window
      Given it is the action phase
      And the timing window "At the start of a combat round" is open
      And Alice holds "Morale Boost" and "Morale Boost"
      And Alice has a cruiser
      And Bob holds "Sabotage"
      When Alice plays "Morale Boost" and Bob cancels it with "Sabotage"
      And Alice plays "Morale Boost"
      Then Alice holds no cards
      And the action discard pile is "Morale Boost", "Morale Boost" and "Sabotage" in any order

  @ti4:2.7
  Rule: 2.7 A played card resolves, then goes to the action discard pile

    Scenario: A played card resolves and is then discarded
      Given it is the action phase, Alice's turn
      And Alice holds "Repeal Law"
      And the law "Minister of Commerce" is in play
      And the action discard pile is "Bribery"
      When Alice plays "Repeal Law" targeting the law "Minister of Commerce"
      Then the law "Minister of Commerce" is not in play
      And the action discard pile is "Repeal Law" and "Bribery"
      And Alice holds no cards

    Scenario: The card resolves only when every player has passed
      Given it is the action phase, Alice's turn
      And Alice holds "Lucky Shot"
      And Bob has a destroyer
      When Alice starts playing "Lucky Shot" targeting Bob's destroyer
      Then Bob has 1 destroyer
      When all players pass
      Then Bob has 0 destroyers
      And the action discard pile is "Lucky Shot"

    Scenario: A card that is not in the hand cannot be played
      Given it is the action phase, Alice's turn
      And Alice holds "Bribery"
      And Bob has a destroyer
      When Alice plays "Lucky Shot" targeting Bob's destroyer
      Then the action is rejected
      And Bob has 1 destroyer

  @ti4:2.8
  Rule: 2.8 A cancelled card has no effect and is discarded

    Scenario: Sabotage cancels a card: no effect, both discarded
      Given it is the action phase, Alice's turn
      And Alice holds "Lucky Shot"
      And Bob holds "Sabotage"
      And Bob has a destroyer
      When Alice plays "Lucky Shot" targeting Bob's destroyer and Bob cancels it with "Sabotage"
      Then Bob has 1 destroyer
      And Alice holds no cards
      And Bob holds no cards
      And the action discard pile is "Lucky Shot" and "Sabotage" in any order

  @ti4:note-6
  Rule: Note 6 After a card is cancelled, its owner may play a second copy

    Scenario: A second copy may be played after Sabotage cancels the first
      Given it is the action phase
      And the timing window "After another player's ship uses SUSTAIN DAMAGE to cancel a hit produced by your units or abilities" is open
      And Alice holds "Direct Hit" and "Direct Hit"
      And Bob holds "Sabotage"
      And Bob has a dreadnought
      When Alice plays "Direct Hit" targeting Bob's dreadnought and Bob cancels it with "Sabotage"
      And Alice plays "Direct Hit" targeting Bob's dreadnought
      Then Bob has 0 dreadnoughts
      And Alice holds no cards

    Scenario: A cancelled component action does not use the player's action
      Given it is the action phase, Alice's turn
      And Alice holds "Lucky Shot" and "Insubordination"
      And Bob holds "Sabotage"
      And Bob has a destroyer
      And Bob has 2 command tokens in his tactic pool
      When Alice plays "Lucky Shot" targeting Bob's destroyer and Bob cancels it with "Sabotage"
      And Alice plays "Insubordination" targeting Bob
      Then Bob has 1 command token in his tactic pool

  @ti4:note-7
  Rule: Note 7 A player cannot target themselves with offensive action cards

    Scenario: Lucky Shot cannot destroy the player's own ship
      Given it is the action phase, Alice's turn
      And Alice holds "Lucky Shot"
      And Alice has a destroyer
      And Bob has a destroyer
      When Alice plays "Lucky Shot" targeting Alice's destroyer
      Then the action is rejected
      And Alice has 1 destroyer

    Scenario: Insubordination cannot target the player who plays it
      Given it is the action phase, Alice's turn
      And Alice holds "Insubordination"
      And Alice has 2 command tokens in her tactic pool
      When Alice plays "Insubordination" targeting Alice
      Then the action is rejected
      And Alice has 2 command tokens in her tactic pool

    Scenario: Offensive cards may target another player
      Given it is the action phase, Alice's turn
      And Alice holds "Insubordination"
      And Bob has 2 command tokens in his tactic pool
      When Alice plays "Insubordination" targeting Bob
      Then Bob has 1 command token in his tactic pool

  @ti4:note-8
  Rule: Note 8 "Any number", "up to" and "each" targets may be zero

    Scenario: A card that spends any number of trade goods may spend none
      Given it is the agenda phase
      And the timing window "After the speaker votes on an agenda" is open
      And Alice holds "Bribery"
      And Alice has 0 trade goods
      When Alice plays "Bribery" targeting 0 trade goods
      Then Alice holds no cards
      And the action discard pile is "Bribery"

    Scenario: A card that affects each of a player's units may be played with none
      Given it is the action phase
      And the timing window "At the start of a combat round" is open
      And Alice holds "Morale Boost"
      When Alice plays "Morale Boost"
      Then Alice holds no cards
      And the action discard pile is "Morale Boost"

    Scenario: Spending some of any number of trade goods
      Given it is the agenda phase
      And the timing window "After the speaker votes on an agenda" is open
      And Alice holds "Bribery"
      And Alice has 3 trade goods
      When Alice plays "Bribery" targeting 2 trade goods
      Then Alice has 1 trade good

  @ti4:note-9
  Rule: Note 9 A card that targets a specific number of objects needs them to exist

    Scenario: Repeal Law cannot be played when no law is in play
      Given it is the action phase, Alice's turn
      And Alice holds "Repeal Law"
      When Alice plays "Repeal Law" targeting the law "Minister of Commerce"
      Then the action is rejected
      And Alice holds "Repeal Law"

    Scenario: Lucky Shot cannot be played when no other player has an eligible ship
      Given it is the action phase, Alice's turn
      And Alice holds "Lucky Shot"
      And Bob has an infantry
      When Alice plays "Lucky Shot" targeting Bob's infantry
      Then the action is rejected
      And Bob has 1 infantry
