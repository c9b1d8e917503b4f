Feature: The Council's rulings on action cards
  An example committee folder (docs/rulings.md): run it with
  rules-oracle run --features examples/council-rulings

  Background:
    Given the players are Alice, Bob and Carol

  @ti4:2.6.2
  Rule: 2.6.2 Same-name cards and different units
    Source: Council FAQ, questions 12 and 14 (https://example.org/council/faq)
    Authority: The Council of Rules
    Cites: ti4:2.6.2#1 "to affect the same units or game effect"

    Scenario: Three Direct Hits destroy three different dreadnoughts in one window
      Ruling: r3
      Date: 2024-02-11
      Status: official
      Given it is the action phase
      And the timing window "After another player's ship uses SUSTAIN DAMAGE to cancel a hit produced by your units or abilities" is open
      And Alice holds "Direct Hit", "Direct Hit" and "Direct Hit"
      And Bob has 3 dreadnoughts
      When Alice plays "Direct Hit" targeting Bob's dreadnought
      And Alice plays "Direct Hit" targeting Bob's dreadnought 2
      And Alice plays "Direct Hit" targeting Bob's dreadnought 3
      Then Bob has 0 dreadnoughts

    Scenario: Only one Direct Hit may be played in a window
      Ruling: r1
      Date: 2023-06-30
      Status: superseded by r3
      Given it is the action phase
      And the timing window "After another player's ship uses SUSTAIN DAMAGE to cancel a hit produced by your units or abilities" is open
      And Alice holds "Direct Hit" and "Direct Hit"
      And Bob has 2 dreadnoughts
      When Alice plays "Direct Hit" targeting Bob's dreadnought
      And Alice plays "Direct Hit" targeting Bob's dreadnought 2
      Then the action is rejected

    Scenario: A card cancelled in a window still counts as played in it
      Ruling: r2
      Date: 2024-05-02
      Status: pending
      Cites: ti4:2.6.2#2 "Canceled cards are not treated as being played."
      Given it is the action phase
      And the timing window "At the start of a combat round" is open
      And Alice holds "Morale Boost" and "Morale Boost"
      And Alice has a cruiser
      And Carol holds "Sabotage"
      When Alice plays "Morale Boost" and Carol cancels it with "Sabotage"
      And Alice plays "Morale Boost"
      Then the action is rejected

  @ti4:council:opening-hand
  Rule: Players start the game with no action cards, whatever their faction
    Ruling: r1
    Source: Council FAQ, question 3
    Date: 2024-03-02
    Authority: The Council of Rules
    Status: official
    Cites: ti4:note-1#1 "Players start the game with zero action cards."

    Scenario: The Yssaril player starts with no action cards
      Given Alice is the Yssaril player
      Then Alice holds no cards
      And Alice holds no cards as seen by Bob
