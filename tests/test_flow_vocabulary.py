"""The flow vocabulary (issue 19, item 5): what a committee can now say about the game's flow,
each concept with the check that an engine which lacks it is ``unsupported``, not failed.

The mutants that break each concept are in the kill matrix (``tests/test_selftest.py``);
these tests show what the matrix cannot: an engine that does not declare (or does not say)
what a step needs gets ``unsupported``, and a writing mistake is refused before any engine
runs.
"""

from __future__ import annotations

# -- 'Then the action is rejected, citing RULE' -------------------------------------------------

NAMES_NO_RULE = '''
from oracle.games.ti4.engine import ReferenceEngine

class NamesNoRule(ReferenceEngine):
    """Rejects what the rules forbid, without saying which rule (the protocol allows it)."""
    def handle(self, request):
        reply = super().handle(request)
        if reply.get("reply") == "rejected":
            reply.pop("rule", None)
        return reply

def factory():
    return NamesNoRule()
'''


def test_a_rejection_that_names_no_rule_leaves_the_citing_check_unsupported(oracle,
                                                                            engine_module):
    engine_module("norule", NAMES_NO_RULE)
    run = oracle("run", "--engine", "norule:factory", "--rule", "ti4:note-9")
    citing = [s for s in run.scenarios() if s["name"].startswith("Repeal Law cannot")]
    assert [s["status"] for s in citing] == ["unsupported"], citing
    assert "without naming the rule" in citing[0]["message"]
    assert run.status("ti4:note-9") == "pass"  # its other scenarios judged it
