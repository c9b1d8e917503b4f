"""The flow vocabulary (issue 19, item 5): what a committee can now say about the game's flow,
each concept with the check that an engine which lacks it is ``unsupported``, not failed.

The mutants that break each concept are in the kill matrix (``tests/test_selftest.py``);
these tests show what the matrix cannot: an engine that does not declare (or does not say)
what a step needs gets ``unsupported``, and a writing mistake is refused before any engine
runs.
"""

from __future__ import annotations

import textwrap

import pytest

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


# -- what an engine does not declare ---------------------------------------------------------

WITHOUT = reference_engine(
    "The reference engine without one capability (the module's LACKS).",
    """def capabilities(self):
    return [c for c in super().capabilities() if c != LACKS]
""")


@pytest.mark.parametrize("lacks, rule, scenario", [
    ("ti4/law/Executive Sanctions", "ti4:2.4.1", "A law in play sets"),
    ("ti4/politics-deal", "ti4:2.2", "Politics is dealt as one deal"),
])
def test_what_the_engine_does_not_declare_leaves_its_scenarios_unsupported(
        oracle, engine_module, lacks, rule, scenario):
    engine_module("without", f"LACKS = {lacks!r}\n{WITHOUT}")
    run = oracle("run", "--engine", "without:factory", "--rule", rule)
    found = [s for s in run.scenarios() if s["name"].startswith(scenario)]
    assert [s["status"] for s in found] == ["unsupported"], found
    assert lacks in found[0]["message"]
    assert run.status(rule) == "pass" and run.code == 0
