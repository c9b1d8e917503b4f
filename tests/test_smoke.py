"""`rules-oracle smoke`: a new adapter's first conversation, checked and explained.

Why from the outside: the command's whole job is what its author reads and its exit
status, so these tests run it as a subprocess and read both.
"""

from __future__ import annotations

import shlex
import sys

import pytest

PY = shlex.quote(sys.executable)
SERVE = f"cmd:{PY} -m oracle.pipe serve"

SLOPPY = '''
"""A first attempt at an adapter: it logs to stdout, and lets anyone play anything."""
from oracle.games.ti4.engine import factory as reference

def factory():
    engine = reference()
    inner = engine.handle
    def handle(request):
        if request.get("op") == "act" and request["action"].get("type") == "play":
            return {"reply": "accepted"}
        if request.get("op") == "observe" and request.get("viewer") is None:
            return {"reply": "view", "view": {"players": {}}}
        return inner(request)
    engine.handle = handle
    return engine
'''

NOISY = '''
import sys
print("engine 1.0 starting")
sys.stdout.flush()
for line in sys.stdin:
    pass
'''


@pytest.mark.parametrize("spec", ["reference:ti4", f"{SERVE} reference:ti4"])
def test_a_good_engine_passes_every_check(oracle, spec):
    run = oracle("smoke", "--engine", spec)
    assert run.code == 0, run.out + run.err
    assert "FAIL" not in run.out
    assert "ok    handshake" in run.out and "all ok" in run.out
    assert "ok    ti4: refuses: Alice plays" in run.out


def test_a_sloppy_adapter_is_told_what_is_wrong_and_how_to_fix_it(oracle, engine_module):
    engine_module("sloppy", SLOPPY)
    run = oracle("smoke", "--engine", f"{SERVE} sloppy:factory")
    assert run.code == 1, run.out + run.err
    out = run.out
    assert "ok    ti4: setup" in out
    assert "FAIL  ti4: refuses: Alice plays" in out
    assert "fix: reject playing a card that is not in the player's hand" in out
    assert "FAIL  ti4: a spectator sees no hand" in out
    assert "FAIL  replies fit the JSON Schemas" in out and "'decks' is a required property" in out


def test_logging_to_stdout_is_caught_at_the_handshake(oracle, pytester):
    (pytester.path / "noisy.py").write_text(NOISY)
    run = oracle("smoke", "--engine", f"cmd:{PY} noisy.py", "--timeout", "5")
    assert run.code == 1, run.out + run.err
    assert "FAIL  handshake" in run.out
    assert "'engine 1.0 starting'" in run.out and "write logs to stderr" in run.out
    assert "1 checks, 1 failed" in run.out


@pytest.mark.parametrize("args, says", [
    (["--engine", "cmd:no-such-engine-xyz"], "is not on PATH"),
    (["--engine", "nonsense"], "is not an engine spec"),
    (["--engine", "reference", "--timeout", "-1"], "must be a positive number"),
])
def test_a_bad_spec_is_exit_2(oracle, args, says):
    run = oracle("smoke", *args)
    assert run.code == 2
    assert says in run.err
