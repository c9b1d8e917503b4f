Feature: The Council's rulings on the flow of a Battle
  The Council's illustrative example (docs/rulings.md): the rulebook's Battle Sequence (9.6,
  9.7) has the attacker play all the Battle Actions it wishes to before the defender; the
  Council reads a side's pass as the end of its Battle Actions for that Round.

  Background:
    Given the players are Alice, Bob and Carol

  @eu-pop:6.2.battle.1
  Rule: 6.2.battle.1 A side that passed has played its Battle Actions for the Round
    Ruling: r1
    Source: The Council's illustrative example (no published ruling), reading the Battle Sequence, 9.7 "2. Play Battle Actions"
    Date: 2026-11-27
    Authority: The Council of Rules
    Status: official
    Cites: eu-pop:6.2.battle.1#1 "meant to be played during Battles in the"
    Cites: eu-pop:9.7.2#1 "The attacker must play all the Battle Actions they wish to use, before the defender does so."

    Scenario Outline: After passing, the attacker plays no Battle Action before the next Round, even if the defender has played none
      Given it is the action phase, Alice's turn
      And Alice attacks Bob in a battle
      And card A is any battle action card
      And card B is any other battle action card
      And Alice holds card A
      And Bob holds card B
      When <first>
      And Alice plays card A
      Then the action is <outcome>
      And Bob holds card B

      Examples:
        | first                        | outcome  |
        | Alice's side passes          | rejected |
        | a new round of battle begins | allowed  |

  @eu-pop:6.cards-in-hand.2
  Rule: 6.cards-in-hand.2 The set-up's hold of four is not the hand limit
    Ruling: r1
    Source: The Council's illustrative example (no published ruling), reading 3. Game Setup, step 4, and its note on the hand size limit
    Date: 2026-11-27
    Authority: The Council of Rules
    Status: official
    Cites: eu-pop:6.cards-in-hand.2#2 "only checked in Phase 5, Step C"
    Cites: eu-pop:3.0.4#4 "hold up to 4 Action Cards in their hand, discarding as necessary"

    Scenario: After the set-up's hold, a hand may grow past four and five before Step C
      Given it is the draw phase
      And the military deck is 8 cards
      When the set-up draw is resolved, each player choosing military, diplomatic and administrative for their 3 other cards
      And the set-up hold is resolved
      Then Alice must keep 4 cards
      When Alice keeps 4 cards
      And Alice draws 2 military cards
      Then Alice holds 6 cards
      And Bob must keep 4 cards
