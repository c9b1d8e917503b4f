"""rules-oracle: board-game rules as executable Gherkin scenarios, run against any engine.

The public surface is small on purpose: an engine implements ``Engine``
(``handle(request) -> reply``, see docs/protocol.md); everything else is
driven by the ``rules-oracle`` command or the pytest plugin.

PYTEST_DONT_REWRITE: the oracle states its verdicts in its own exceptions, not
in bare asserts, and ``rules-oracle`` imports it before pytest starts.
"""

from oracle.adapter import Engine
from oracle.protocol import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION", "Engine"]
__version__ = "0.1.0"
