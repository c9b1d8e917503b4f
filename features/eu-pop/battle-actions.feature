Feature: Battle Actions
  Battle Actions are played in a Battle's "Play Battle Actions" step by anyone involved in
  the Battle, on anyone's Turn, the attacker before the defender (9.6, 9.7). A side benefits
  from one use of a particular Battle Action per Round of Battle. The Battle Dice they add stay in the side's pool for the whole Battle;
  a "?" die icon adds a die of the type the player chooses.

  A Battle Action card whose icons include "?" is played choosing the die its recipe says
  (plays.yaml) unless the scenario chooses one.

  Background:
    Given the players are Alice, Bob and Carol

  @eu-pop:6.2.battle.1
  Rule: 6.2.battle.1 Battle Actions are played during Battles, in the "Play Battle Actions" step
    Cites: eu-pop:6.2.battle.1#1 "meant to be played during Battles in the"

    Scenario Outline: A Battle Action is played only in the "Play Battle Actions" step
      Cites: eu-pop:9.6#1 "perform the following steps in order"
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle<step>
      And card A is any battle action card
      And Alice holds card A
      When Alice plays card A
      Then the action is <outcome>
      And Alice holds <left>

      Examples:
        | step                                              | outcome  | left     |
        |                                                   | allowed  | no cards |
        | , in its "Battle Preparations" step               | rejected | card A   |
        | , in its "Roll Battle Dice" step                  | rejected | card A   |
        | , in its "Assign Casualties" step                 | rejected | card A   |
        | , in its "Wounded Leaders & Captured Ships" step  | rejected | card A   |
        | , in its "Retreat" step                           | rejected | card A   |
        | , in its "Proclaim a Winner" step                 | rejected | card A   |

    Scenario: A Battle Action cannot be played outside a Battle
      Twin: A Battle Action is played only in the "Play Battle Actions" step

      Given it is the action phase, Alice's turn
      And card A is any battle action card
      And Alice holds card A
      When Alice plays card A
      Then the action is rejected
      And Alice holds card A

    Scenario Outline: The attacker plays Battle Actions before the defender
      Cites: eu-pop:9.6.2#1 "Attacker first, then defender."
      Cites: eu-pop:9.7.2#1 "The attacker must play all the Battle Actions they wish to use, before the defender does so."
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And card A is any battle action card
      And card B is any other battle action card
      And Alice holds card A
      And Bob holds card B
      When <first> plays card <one>
      And <second> plays card <two>
      Then the action is <outcome>
      And <second> holds <left>

      Examples:
        | first | one | second | two | outcome  | left     |
        | Alice | A   | Bob    | B   | allowed  | no cards |
        | Bob   | B   | Alice  | A   | rejected | card A   |

    Scenario: A new Round of Battle lets the attacker play first again
      Cites: eu-pop:9.6.6#2 "Go back to Step 2 if Battle continues."
      Cites: eu-pop:9.6.2#1 "Attacker first, then defender."
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And card A is any battle action card
      And card B is any other battle action card
      And Alice holds card A
      And Bob holds card B
      When Bob plays card B
      And a new round of battle begins
      And Alice plays card A
      Then Alice holds no cards

    Scenario Outline: A side that passes plays no more Battle Actions in that Round
      Cites: eu-pop:9.7.2#1 "The attacker must play all the Battle Actions they wish to use, before the defender does so."
      Cites: eu-pop:9.6#2 "Repeat the sequence (skipping Step 1)"
      # Passing, the attacker says it has played all it wished to this Round: a later Battle
      # Action of its side waits for the next Round.
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And card A is any battle action card
      And Alice holds card A
      When <first>
      And <second>
      And Alice plays card A
      Then the action is <outcome>

      Examples:
        | first                        | second                       | outcome  |
        | Alice's side passes          | a new round of battle begins | allowed  |
        | a new round of battle begins | Alice's side passes          | rejected |

    Scenario Outline: Once the Battle has moved on, the step is over until the next Round
      Cites: eu-pop:9.6#1 "perform the following steps in order"
      Cites: eu-pop:9.6#2 "Repeat the sequence (skipping Step 1)"
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And card A is any battle action card
      And Alice holds card A
      When the battle moves to its "Roll Battle Dice" step
      And <move>
      And Alice plays card A
      Then the action is <outcome>

      Examples:
        | move                                   | outcome  |
        | the battle moves to its "Retreat" step | rejected |
        | a new round of battle begins           | allowed  |

  @eu-pop:6.2.battle.2
  Rule: 6.2.battle.2 Battle Actions can be used in any Battle you are involved in, even if it is not your Turn
    Cites: eu-pop:6.2.battle.2#2 "can be used in any Battle in which you are involved, even if it is not your Turn"

    Scenario Outline: Anyone involved in the Battle plays Battle Actions, on anyone's Turn
      Cites: eu-pop:9.7#1 "At any point during the Action Phase or Peace & Rebels Phase, a Land Battle will commence"
      Cites: eu-pop:9.7.2#1 "The attacker must play all the Battle Actions they wish to use"
      Given it is the <moment>
      And Alice attacks Bob in a battle
      And card A is any battle action card
      And <player> holds card A
      When <player> plays card A
      Then the action is <outcome>
      And <player> holds <left>

      Examples:
        | moment                     | player | outcome  | left     |
        | action phase, Alice's turn | Bob    | allowed  | no cards |
        | action phase, Carol's turn | Alice  | allowed  | no cards |
        | action phase, Carol's turn | Bob    | allowed  | no cards |
        | peace phase                | Bob    | allowed  | no cards |
        | action phase, Alice's turn | Carol  | rejected | card A   |
        | action phase, Carol's turn | Carol  | rejected | card A   |

    Scenario: An ally on the attacking side is involved
      Given it is the action phase, Alice's turn
      And Alice and Carol attack Bob in a battle
      And card A is any battle action card
      And Carol holds card A
      When Carol plays card A
      Then Carol holds no cards

  @eu-pop:6.2.battle.3
  Rule: 6.2.battle.3 Each side benefits from one use of a particular Battle Action per Round of Battle
    Cites: eu-pop:6.2.battle.3#1 "each side may only benefit from one use of any particular Battle Action"

    Scenario Outline: A side uses a particular Battle Action once a Round; the other side may too
      Cites: eu-pop:9.6.2#1 "Attacker first, then defender."
      Given it is the action phase, Alice's turn
      And Alice and Carol attack Bob in a battle
      And card A is any battle action card
      And card B is any other battle action card
      And Alice holds <alice>
      And Alice has 9 of each Monarch Power
      And <holder> holds <held>
      When Alice plays card A
      And <second> plays card <card>
      Then the action is <outcome>
      And <second> holds <left>

      Examples:
        | alice                     | holder | held     | second | card | outcome  | left              |
        | card A, card A and card B | Carol  | no cards | Alice  | A    | rejected | card A and card B |
        | card A and card B         | Carol  | card A   | Carol  | A    | rejected | card A            |
        | card A and card B         | Bob    | card A   | Bob    | A    | allowed  | no cards          |
        | card A, card A and card B | Carol  | no cards | Alice  | B    | allowed  | card A            |

    Scenario: A new Round of Battle allows another use
      Cites: eu-pop:6.2.battle.3#1 "In each Round of Battle"
      Cites: eu-pop:9.6.6#2 "Go back to Step 2 if Battle continues."
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And card A is any battle action card
      And Alice holds card A and card A
      And Alice has 9 of each Monarch Power
      When Alice plays card A
      And a new round of battle begins
      And Alice plays card A
      Then Alice holds no cards

  @eu-pop:6.2.battle.4
  Rule: 6.2.battle.4 Battle Dice gained from Battle Actions stay for the whole Battle
    Cites: eu-pop:6.2.battle.4#1 "remain in your dice pool for the duration of the Battle"
    Cites: eu-pop:9.6#5 "The effects of a Battle Action last for the duration of a Battle"

    Scenario: Dice gained in one Round are still in the pool in later Rounds
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And card A is any battle action card without a "?" die
      And Alice holds card A
      And Alice can play card A
      When Alice plays card A
      And the battle moves to its "Roll Battle Dice" step
      And a new round of battle begins
      And the battle moves to its "Retreat" step
      And a new round of battle begins
      Then the effect of card A has happened

    Scenario: Dice gained in two Rounds add up
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And card A is any battle action card without a "?" die
      And card B is any other battle action card
      And Alice holds card A and card B
      And Alice has 9 of each Monarch Power
      When Alice plays card A
      And a new round of battle begins
      And Alice plays card B
      And the battle moves to its "Roll Battle Dice" step
      Then Alice's side has the dice of card A and card B from battle actions

  @eu-pop:6.2.battle.5
  Rule: 6.2.battle.5 Each Battle Die icon adds one die of that type
    Cites: eu-pop:6.2.battle.5#1 "you may add one additional die of that type to your dice pool"
    Cites: eu-pop:9.7.3#2 "Add additional Battle Dice for any Battle Actions that were played"

    Scenario Outline: A Battle Action adds one die for each of its icons
      Given it is the action phase, Alice's turn
      And card A is any <class>
      And Alice holds card A
      And Alice can play card A
      When Alice plays card A
      Then the effect of card A has happened

      Examples:
        | class                                 |
        | battle action card with one fixed die |
        | battle action card with several dice  |

  @eu-pop:6.2.battle.6
  Rule: 6.2.battle.6 A "?" die icon adds 1 Battle Die of any type
    Cites: eu-pop:6.2.battle.6#1 "allows you to add 1 Battle Die of any type"

    Scenario Outline: The player chooses the type of a "?" die
      Cites: eu-pop:9.6.2#1 "Attacker first, then defender."
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And card A is any battle action card with a "?" die
      And card B is any battle action card with several dice
      And Alice holds card A
      And Bob holds card B
      And Bob has 9 of each Monarch Power
      When Alice plays card A choosing <die>
      And Bob plays card B
      Then Alice's side has 1 <type> die from battle actions

      Examples:
        | die              | type      |
        | an infantry die  | infantry  |
        | a cavalry die    | cavalry   |
        | an artillery die | artillery |
