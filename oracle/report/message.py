"""A scenario's message, split into the parts a reader looks for.

Why parse text: a scenario verdict carries one message (``oracle.plugin.verdicts`` writes
it), laid out as the failing step (``line N: Then ...``), what went wrong, the engine and
seeds, a ``reproduce:`` command and the ``last exchanges with the engine in this
scenario:`` (``  > request`` and ``  < reply`` lines). Reports written by any version
keep that text; an HTML report shows its parts apart (the command copyable, the exchanges as
a list) and keeps whatever it does not recognise as plain text, so nothing of a message is
ever dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_STEP = re.compile(r"^line \d+: \S")
_CONTEXT = re.compile(r"^engine .*, scenario seed ")
REPRODUCE = "reproduce: "
EXCHANGES = "last exchanges with the engine in this scenario:"
# Reports written before the header named its scope; still read, never written.
_EXCHANGES_HEADERS = frozenset({EXCHANGES, "last exchanges with the engine:"})
_EXCHANGE = re.compile(r"^ {2}([<>]) (.*)$")


@dataclass(frozen=True)
class MessageParts:
    """The parts of a message; ``text`` holds every line not recognised as another part."""

    step: str = ""  # "line 22: Then Alice must keep 7 cards"
    text: str = ""  # what went wrong
    context: str = ""  # "engine SPEC, scenario seed N (run seed M)"
    reproduce: str = ""  # the command that runs the scenario again
    exchanges: tuple[tuple[str, str], ...] = ()  # (">" request or "<" reply, its JSON)


def split_message(message: str) -> MessageParts:
    """The parts of ``message``; a message of another layout is all ``text``."""
    step = context = reproduce = ""
    text: list[str] = []
    exchanges: list[tuple[str, str]] = []
    in_exchanges = False
    for i, line in enumerate(message.splitlines()):
        if in_exchanges and (hit := _EXCHANGE.match(line)):
            exchanges.append((hit.group(1), hit.group(2)))
            continue
        in_exchanges = False
        if not step and i < 2 and _STEP.match(line):
            step = line
        elif not context and _CONTEXT.match(line):
            context = line
        elif not reproduce and line.startswith(REPRODUCE):
            reproduce = line.removeprefix(REPRODUCE)
        elif line in _EXCHANGES_HEADERS:
            in_exchanges = True
        else:
            text.append(line)
    return MessageParts(step, "\n".join(text).strip("\n"), context, reproduce,
                        tuple(exchanges))
