"""A Python adapter, the shape an engine team writes: protocol in, engine calls out.

`MyEngine` stands in for your engine's own API. Here it is the bundled TI4
reference engine driven through its protocol, so that this example runs:

    rules-oracle run --engine examples.python_adapter:factory

Replace the body of each method with calls into your engine. Every reply is
one of: described, ready, accepted, rejected, view, unsupported, errored
(docs/protocol.md).
"""

from __future__ import annotations

from typing import Any

from oracle.games.ti4.engine import ReferenceEngine as MyEngine


class Adapter:
    """Translates protocol requests into calls on the engine under test."""

    def __init__(self) -> None:
        self.engine = MyEngine()

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request["op"]
        if op == "describe":
            reply = self.engine.handle(request)
            reply["engine"]["name"] = "example adapter around the reference engine"
            return reply
        if op == "setup":
            if request["game"] != "ti4":
                return {"reply": "unsupported", "reason": "this engine plays only TI4"}
            return self.engine.handle(request)  # build your game from request["state"]
        if op in ("act", "choose"):
            return self.engine.handle(request)  # apply the move; "rejected" if illegal
        if op == "observe":
            return self.engine.handle(request)  # what request["viewer"] may see
        return {"reply": "errored", "message": f"unknown op {op!r}"}


def factory() -> Adapter:
    return Adapter()
