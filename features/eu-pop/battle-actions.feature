Feature: Battle Actions
  Battle Actions are played in a Battle's "Play Battle Actions" step by anyone involved in
  the Battle, on anyone's Turn. A side benefits from one use of a particular Battle Action
  per Round of Battle. The Battle Dice they add stay in the side's pool for the whole Battle;
  a "?" die icon adds a die of the type the player chooses.

  Background:
    Given the players are Alice, Bob and Carol

  @eu-pop:6.2.battle.1
  Rule: 6.2.battle.1 Battle Actions are played during Battles, in the "Play Battle Actions" step

    Scenario: A Battle Action is played in the "Play Battle Actions" step
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And Alice holds "Volley Fire"
      When Alice plays "Volley Fire"
      Then Alice's side has 1 artillery die from battle actions
      And the military discard pile is "Volley Fire"
      And Alice holds no cards

    Scenario: A Battle Action cannot be played outside a Battle
      Given it is the action phase, Alice's turn
      And Alice holds "Volley Fire"
      When Alice plays "Volley Fire"
      Then the action is rejected
      And Alice holds "Volley Fire"

    Scenario: A Battle Action cannot be played in another step of the Battle
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle, in its "Roll Battle Dice" step
      And Alice holds "Volley Fire"
      When Alice plays "Volley Fire"
      Then the action is rejected
      And Alice holds "Volley Fire"

    Scenario: Once the Battle has moved on to rolling, the step is over
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And Alice holds "Volley Fire"
      When the battle moves to its "Roll Battle Dice" step
      And Alice plays "Volley Fire"
      Then the action is rejected

  @eu-pop:6.2.battle.2
  Rule: 6.2.battle.2 Battle Actions can be used in any Battle you are involved in, even if it is not your Turn

    Scenario: The defender plays a Battle Action on the attacker's Turn
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And Bob holds "Volley Fire"
      When Bob plays "Volley Fire"
      Then Bob's side has 1 artillery die from battle actions
      And Bob holds no cards

    Scenario: A player who is not in the Battle cannot play a Battle Action in it
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And Carol holds "Volley Fire"
      When Carol plays "Volley Fire"
      Then the action is rejected
      And Carol holds "Volley Fire"

  @eu-pop:6.2.battle.3
  Rule: 6.2.battle.3 Each side benefits from one use of a particular Battle Action per Round of Battle

    Scenario: A second use of the same Battle Action in one Round is refused
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And Alice holds "Volley Fire" and "Volley Fire"
      When Alice plays "Volley Fire"
      And Alice plays "Volley Fire"
      Then the action is rejected
      And Alice holds "Volley Fire"
      And Alice's side has 1 artillery die from battle actions

    Scenario: Allies on one side share the one use
      Given it is the action phase, Alice's turn
      And Alice and Carol attack Bob in a battle
      And Alice holds "Volley Fire"
      And Carol holds "Volley Fire"
      When Alice plays "Volley Fire"
      And Carol plays "Volley Fire"
      Then the action is rejected
      And Carol holds "Volley Fire"

    Scenario: The other side may use the same Battle Action in the same Round
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And Alice holds "Volley Fire"
      And Bob holds "Volley Fire"
      When Alice plays "Volley Fire"
      And Bob plays "Volley Fire"
      Then Alice's side has 1 artillery die from battle actions
      And Bob's side has 1 artillery die from battle actions

    Scenario: A new Round of Battle allows another use
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And Alice holds "Volley Fire" and "Volley Fire"
      When Alice plays "Volley Fire"
      And a new round of battle begins
      And Alice plays "Volley Fire"
      Then Alice holds no cards

  @eu-pop:6.2.battle.4
  Rule: 6.2.battle.4 Battle Dice gained from Battle Actions stay for the whole Battle

    Scenario: Dice gained in one Round are still in the pool in later Rounds
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And Alice holds "Volley Fire"
      When Alice plays "Volley Fire"
      And the battle moves to its "Roll Battle Dice" step
      And a new round of battle begins
      And the battle moves to its "Retreat" step
      And a new round of battle begins
      Then Alice's side has 1 die from battle actions

  @eu-pop:6.2.battle.5
  Rule: 6.2.battle.5 Each Battle Die icon adds one die of that type

    Scenario: A Battle Action with two die icons adds one die of each type
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And Alice holds "Combined Arms"
      When Alice plays "Combined Arms"
      Then Alice's side has 1 infantry die and 1 cavalry die from battle actions

  @eu-pop:6.2.battle.6
  Rule: 6.2.battle.6 A "?" die icon adds 1 Battle Die of any type

    Scenario: The player chooses cavalry for a "?" die
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And Alice holds "Bold Gambit"
      When Alice plays "Bold Gambit" choosing a cavalry die
      Then Alice's side has 1 cavalry die from battle actions

    Scenario: The player chooses artillery for a "?" die
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And Alice holds "Bold Gambit"
      When Alice plays "Bold Gambit" choosing an artillery die
      Then Alice's side has 1 artillery die from battle actions
