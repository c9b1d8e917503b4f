"""The flow vocabulary (issue 19, item 5): what a committee can now say about the game's flow,
each concept with the check that an engine which lacks it is ``unsupported``, not failed.

The mutants that break each concept are in the kill matrix (``tests/test_selftest.py``);
these tests show what the matrix cannot: an engine that does not declare (or does not say)
what a step needs gets ``unsupported``, and a writing mistake is refused before any engine
runs.
"""

from __future__ import annotations

import textwrap

# -- 'Then the action is rejected, citing RULE' -------------------------------------------------

def reference_engine(doc: str, body: str) -> str:
    """The source of a module whose ``factory`` makes the TI4 reference engine with
    ``body`` (methods, indented for the class) changed as ``doc`` says."""
    return (f"from oracle.games.ti4.engine import ReferenceEngine\n\n"
            f"class Engine(ReferenceEngine):\n    {doc!r}\n{textwrap.indent(body, '    ')}\n"
            f"def factory():\n    return Engine()\n")


NAMES_NO_RULE = reference_engine(
    "Rejects what the rules forbid, without saying which rule (the protocol allows it).",
    """def handle(self, request):
    reply = super().handle(request)
    if reply.get("reply") == "rejected":
        reply.pop("rule", None)
    return reply
""")


def test_a_rejection_that_names_no_rule_leaves_the_citing_check_unsupported(oracle,
                                                                            engine_module):
    engine_module("norule", NAMES_NO_RULE)
    run = oracle("run", "--engine", "norule:factory", "--rule", "ti4:note-9")
    citing = [s for s in run.scenarios() if s["name"].startswith("Repeal Law cannot")]
    assert [s["status"] for s in citing] == ["unsupported"], citing
    assert "without naming the rule" in citing[0]["message"]
    assert run.status("ti4:note-9") == "pass"  # its other scenarios judged it


# -- laws declared like cards (ti4/law/NAME) --------------------------------------------------

WITHOUT_A_LAW = reference_engine(
    "Models laws in play, but not Executive Sanctions' effect: it does not declare it.",
    """def capabilities(self):
    return [c for c in super().capabilities() if c != "ti4/law/Executive Sanctions"]
""")


def test_a_law_the_engine_does_not_declare_leaves_its_scenarios_unsupported(oracle,
                                                                         engine_module):
    engine_module("nolaw", WITHOUT_A_LAW)
    run = oracle("run", "--engine", "nolaw:factory", "--rule", "ti4:2.4.1")
    law = [s for s in run.scenarios() if "law" in s["name"]]
    assert [s["status"] for s in law] == ["unsupported"], law
    assert "ti4/law/Executive Sanctions" in law[0]["message"]
    assert run.status("ti4:2.4.1") == "pass" and run.code == 0
