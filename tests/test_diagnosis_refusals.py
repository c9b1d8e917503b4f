"""The core's diagnostics judge refusals too (``Diagnostic(rejected=True)``), game-free.

A scenario often needs another rule's action to go through before it checks its own (a
Reaction played first, a Battle Action card before a Display Card's). An engine that wrongly
refuses that action breaks the other rule; a diagnostic of refusals charges it there.
"""

from __future__ import annotations

from oracle.scenario.diagnosis import Diagnostic, Transition, diagnose

VIEW = {"players": {}}


def step(text: str, kind: str, accepted: bool) -> Transition:
    return Transition(text, kind, {"type": kind}, accepted, VIEW, VIEW)


def blames_every(history, i):
    return f"judged {history[i].text}"


RULES = {"premise-refused": "g:1", "premise-wrong": "g:2"}.get


def test_a_refusal_diagnostic_judges_only_rejected_actions_of_its_kinds():
    refused = Diagnostic("premise-refused", blames_every, frozenset({"play"}), rejected=True)
    accepted = Diagnostic("premise-wrong", blames_every, frozenset({"play"}))
    ok, no, other = step("a", "play", True), step("b", "play", False), step("c", "use", False)
    assert [refused.judges(t) for t in (ok, no, other)] == [False, True, False]
    assert [accepted.judges(t) for t in (ok, no, other)] == [True, False, False]


def test_the_first_failing_diagnostic_in_the_order_sent_is_charged():
    diagnostics = (Diagnostic("premise-refused", blames_every, frozenset({"play"}),
                              rejected=True),)
    history = [step("Alice plays card R", "play", True), step("Bob plays card B", "play", False)]
    blame = diagnose(history, diagnostics, RULES)
    assert blame is not None and blame.rule == "g:1" and blame.concept == "premise-refused"
    assert blame.message == "after 'Bob plays card B': judged Bob plays card B"
    assert diagnose(history[:1], diagnostics, RULES) is None
