"""``CardGameEngine``: the base every bundled reference engine composes its rule mixins onto.

Why one base: both games answer ``observe`` the same way, resolve a being-played stack the
same way, and look card names up in their facts the same way; listing those parts once keeps
the method resolution order (rules first, shared plumbing last) the same in every game.
"""

from __future__ import annotations

from oracle.games.kit.cards import CardLookup
from oracle.games.kit.engine import ProtocolEngine
from oracle.games.kit.observe import ObserveRequest
from oracle.games.kit.stack import BeingPlayedStack


class CardGameEngine(ObserveRequest, BeingPlayedStack, CardLookup, ProtocolEngine):
    """A ``ProtocolEngine`` with the shared ``observe``, ``resolve`` and card lookup.

    A game's ``ReferenceEngine`` lists its rule mixins first and this class last, so that the
    game's ``view`` and stack names override the placeholders here.
    """
