"""rules-oracle: board-game rules as executable Gherkin scenarios, run against any engine.

The public surface is small on purpose: an engine implements ``Engine``
(``handle(request) -> reply``, see docs/protocol.md); ``connect`` turns an ``--engine``
spec into an engine to talk to; ``load_report`` reads a JSON report back as a typed
``Report``. Everything else is driven by the ``rules-oracle`` command or the pytest plugin.

PYTEST_DONT_REWRITE: the oracle states its verdicts in its own exceptions, not
in bare asserts, and ``rules-oracle`` imports it before pytest starts.
"""

import os as _os
import sys as _sys

if _sys.argv and _os.path.basename(_sys.argv[0]) == "rules-oracle":
    # The console script: Ctrl-C while it imports (about 0.15 s) ends it quietly, with no
    # traceback; ``oracle.cli.main`` takes over as soon as it starts (``interruptible``).
    import signal as _signal

    def _stop_while_starting(signum: int, frame: object) -> None:
        _sys.stderr.write("rules-oracle: interrupted while starting; nothing was run\n")
        raise SystemExit(130)

    if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
        _signal.signal(_signal.SIGINT, _stop_while_starting)

from oracle.protocol import PROTOCOL_VERSION, Engine

__all__ = ["PROTOCOL_VERSION", "Engine", "Report", "connect", "load_report"]
__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """``connect``, ``Report`` and ``load_report`` without importing them at start-up."""
    if name == "connect":
        from oracle.engines import connect

        return connect
    if name in ("Report", "load_report"):
        from oracle import report

        return getattr(report, name)
    raise AttributeError(f"module 'oracle' has no attribute {name!r}")
