"""The adapter protocol: the public contract between the oracle and any engine.

Why a package of its own: engines live outside this repository, so the contract is written
first as versioned JSON Schemas (``schemas/v1/``, checked by ``validate``), and second as
the frozen typed values the oracle builds requests from and parses replies into
(``messages``). ``adapter`` is the one-method interface an in-process Python engine
implements. Version 1 changes by additions only; a breaking change would be v2, with v1
still served.
"""

from oracle.protocol.adapter import Engine
from oracle.protocol.messages import (
    EXPECTED_REPLIES,
    PROTOCOL_VERSION,
    REFEREE,
    Accepted,
    Act,
    Choose,
    Describe,
    Described,
    EngineInfo,
    Errored,
    Observe,
    ProtocolError,
    Ready,
    Rejected,
    Reply,
    Request,
    Setup,
    Unsupported,
    View,
    parse_reply,
)

__all__ = [
    "EXPECTED_REPLIES",
    "PROTOCOL_VERSION",
    "REFEREE",
    "Accepted",
    "Act",
    "Choose",
    "Describe",
    "Described",
    "Engine",
    "EngineInfo",
    "Errored",
    "Observe",
    "ProtocolError",
    "Ready",
    "Rejected",
    "Reply",
    "Request",
    "Setup",
    "Unsupported",
    "View",
    "parse_reply",
]
