Feature: Playing Action Cards and appointing their characters
  Playing an Action Card takes a Turn and costs Monarch Power of its deck's type (and
  sometimes Ducats), never below 0; it resolves and is discarded. Every card can instead be
  used for the character it depicts, with the Appoint Advisor/Leader Action.

  The cards named here are the illustrative stand-ins of cards.yaml. Players start with 3 of
  each Monarch Power and 15 Ducats unless a step says otherwise.

  Background:
    Given the players are Alice, Bob and Carol

  @eu-pop:6.action-cards.2
  Rule: 6.action-cards.2 Playing an Action Card takes up a whole Turn, not counting Minor Actions

    Scenario: A card played for its Action takes the Turn
      Given it is the action phase, Alice's turn
      And Alice holds "Royal Decree" and "Forced March"
      When Alice plays "Royal Decree"
      And Alice plays "Forced March"
      Then the action is rejected
      And Alice holds "Forced March"

    Scenario: The player's next Turn allows the next card
      Given it is the action phase, Alice's turn
      And Alice holds "Royal Decree" and "Forced March"
      When Alice plays "Royal Decree"
      And Alice ends her turn
      And Bob ends his turn
      And Carol ends her turn
      And Alice plays "Forced March"
      Then Alice holds no cards

    Scenario: A card cannot be played on another player's Turn
      Given it is the action phase, Bob's turn
      And Alice holds "Royal Decree"
      When Alice plays "Royal Decree"
      Then the action is rejected
      And Alice holds "Royal Decree"

    Scenario: A card cannot be played for its Action outside the Action Phase
      Given it is the cleanup phase
      And Alice holds "Royal Decree"
      When Alice plays "Royal Decree"
      Then the action is rejected
      And Alice holds "Royal Decree"

    Scenario: Appointing is a Minor Action that leaves the Turn's Action free
      Given it is the action phase, Alice's turn
      And Alice holds "Tax Reform" and "Royal Decree"
      When Alice appoints "Tax Reform"
      And Alice plays "Royal Decree"
      Then the administrative discard pile is "Royal Decree"

  @eu-pop:6.action-cards.3
  Rule: 6.action-cards.3 The Monarch Power cost is always of the type of the card's deck

    Scenario: An Administrative card costs Administrative power
      Given it is the action phase, Alice's turn
      And Alice holds "Royal Decree"
      When Alice plays "Royal Decree"
      Then Alice has 1 administrative power
      And Alice has 3 diplomatic power
      And Alice has 3 military power

    Scenario: A Military card costs Military power
      Given it is the action phase, Alice's turn
      And Alice holds "Forced March"
      When Alice plays "Forced March"
      Then Alice has 2 military power
      And Alice has 3 administrative power

    Scenario: A card cannot be paid for with power of another type
      Given it is the action phase, Alice's turn
      And Alice holds "Royal Marriage"
      And Alice has 1 diplomatic power
      And Alice has 5 administrative power
      When Alice plays "Royal Marriage"
      Then the action is rejected
      And Alice holds "Royal Marriage"
      And Alice has 1 diplomatic power
      And Alice has 5 administrative power

  @eu-pop:6.action-cards.4
  Rule: 6.action-cards.4 Some cards also have a Ducat cost that must be paid

    Scenario: A card with a Ducat cost takes the Ducats as well
      Given it is the action phase, Alice's turn
      And Alice holds "Tax Reform"
      And Alice has 10 ducats
      When Alice plays "Tax Reform"
      Then Alice has 7 ducats
      And Alice has 2 administrative power

    Scenario: A card whose Ducat cost cannot be paid cannot be played
      Given it is the action phase, Alice's turn
      And Alice holds "Tax Reform"
      And Alice has 2 ducats
      When Alice plays "Tax Reform"
      Then the action is rejected
      And Alice holds "Tax Reform"
      And Alice has 3 administrative power

  @eu-pop:6.action-cards.5
  Rule: 6.action-cards.5 A cost never goes below 0: no card gains its player Monarch Power

    Scenario: A cost reduced below zero costs nothing and gains nothing
      Given it is the action phase, Alice's turn
      And Alice's military costs are reduced by 3 by a game effect
      And Alice has 2 military power
      And Alice holds "Forced March"
      When Alice plays "Forced March"
      Then Alice has 2 military power

    Scenario: A cost reduced to above zero is paid in part
      Given it is the action phase, Alice's turn
      And Alice's administrative costs are reduced by 1 by a game effect
      And Alice holds "Royal Decree"
      When Alice plays "Royal Decree"
      Then Alice has 2 administrative power

    Scenario: A Ducat cost reduced below zero gains no Ducats
      Given it is the action phase, Alice's turn
      And Alice's ducat costs are reduced by 5 by a game effect
      And Alice has 10 ducats
      And Alice holds "Tax Reform"
      When Alice plays "Tax Reform"
      Then Alice has 10 ducats

    Scenario: The cost of an Action on a Display Card never goes below zero either
      Given it is the action phase, Alice's turn
      And Alice's administrative costs are reduced by 2 by a game effect
      And Alice has "Royal Manufactory" on display with 3 charges
      When Alice uses "Expand Production"
      Then Alice has 3 administrative power

  @eu-pop:6.action-cards.6
  Rule: 6.action-cards.6 A card played for its Action resolves, then is discarded, unless it is a Display Card

    Scenario: The effect resolves and the card is discarded
      Given it is the action phase, Alice's turn
      And Alice holds "Royal Decree"
      And Alice has 15 ducats
      And the administrative discard pile is "Tax Reform"
      When Alice plays "Royal Decree"
      Then Alice has 17 ducats
      And the administrative discard pile is "Royal Decree" and "Tax Reform" in any order
      And Alice holds no cards

    Scenario: A Display Card is not discarded
      Given it is the action phase, Alice's turn
      And Alice holds "Royal Manufactory"
      When Alice plays "Royal Manufactory"
      Then the administrative discard pile is empty
      And Alice has "Royal Manufactory" on display

  @eu-pop:6.action-cards.7
  Rule: 6.action-cards.7 All Action Cards are dual-purpose

    Scenario: A Display Card, a Battle Action and a Reaction can each be appointed
      Given it is the action phase, Alice's turn
      And Alice holds "Spy Network", "Volley Fire" and "Court Intrigue"
      When Alice appoints "Spy Network"
      And Alice appoints "Volley Fire"
      And Alice appoints "Court Intrigue"
      Then Alice has "Spy Network" as a character
      And Alice has "Volley Fire" as a character
      And Alice has "Court Intrigue" as a character

  @eu-pop:6.action-cards.8
  Rule: 6.action-cards.8 A card is played either for its Action or to Appoint its character

    Scenario: An appointed card leaves the hand without its Action being taken
      Given it is the action phase, Alice's turn
      And Alice holds "Royal Decree"
      And Alice has 15 ducats
      When Alice appoints "Royal Decree"
      Then Alice has "Royal Decree" as a character
      And Alice holds no cards
      And the administrative discard pile is empty
      And Alice has 15 ducats
      And Alice has 3 administrative power

    Scenario: An appointed card cannot also be played for its Action
      Given it is the action phase, Alice's turn
      And Alice holds "Royal Decree"
      When Alice appoints "Royal Decree"
      And Alice plays "Royal Decree"
      Then the action is rejected
      And Alice has 15 ducats

  @eu-pop:6.characters.1
  Rule: 6.characters.1 Each card depicts a character, either a Leader or an Advisor

    Scenario: A Leader card gives a Leader, an Advisor card an Advisor
      Given it is the action phase, Alice's turn
      And Alice holds "Forced March" and "Tax Reform"
      When Alice appoints "Forced March"
      And Alice appoints "Tax Reform"
      Then Alice has "Forced March" as a leader
      And Alice has "Tax Reform" as an advisor

  @eu-pop:6.characters.2
  Rule: 6.characters.2 A character serves only once the Appoint Advisor/Leader Action appoints it

    Scenario: Playing a card for its Action appoints no one
      Given it is the action phase, Alice's turn
      And Alice holds "Royal Decree"
      When Alice plays "Royal Decree"
      Then Alice has no advisors
      And Alice has no leaders

    Scenario: Only a character in the player's hand can be appointed
      Given it is the action phase, Alice's turn
      And Alice holds "Tax Reform"
      When Alice appoints "Royal Decree"
      Then the action is rejected
      And Alice has no advisors
