"""What the bundled Python reference engines share besides their rules, one module per job.

- ``errors``: the replies a handler can raise (``RequestError``, ``UnsupportedRequest``,
  ``Rejected`` with its ``Rejection``);
- ``requests``: reading request fields (``need``, ``str_list``, ``count``, ``contains``);
- ``engine``: ``ProtocolEngine``, dispatch, errors as replies, rejected actions undone;
- ``observe``: the ``observe`` request's viewers (player, spectator, referee);
- ``cards``: a game's card facts read from its features folder, and looked up by name;
- ``stack``: the being-played stack, resolved last played first;
- ``setup``: a setup state's keys and players;
- ``reference``: ``CardGameEngine``, the base the games' rule mixins are composed onto;
- ``sources``: what the catalog importers share (errors, reading, writing or checking);
- ``explore``: what the exploration models share (reading views, phrasing piles).
- ``slips``: the overrides every game's mutants share (``returns``, a transaction without
  its undo).

Each game keeps its own rules; only code that is the same in every game lives here, because a
second copy of it would drift from the first.
"""

from oracle.games.kit.cards import CardLookup, read_features_file
from oracle.games.kit.engine import ProtocolEngine, snapshotted
from oracle.games.kit.errors import (
    JSON,
    REFEREE,
    Rejected,
    Rejection,
    RequestError,
    UnsupportedRequest,
)
from oracle.games.kit.observe import ObserveRequest
from oracle.games.kit.reference import CardGameEngine
from oracle.games.kit.requests import contains, count, need, not_kept, str_list
from oracle.games.kit.stack import BeingPlayedStack

__all__ = [
    "JSON",
    "REFEREE",
    "BeingPlayedStack",
    "CardGameEngine",
    "CardLookup",
    "ObserveRequest",
    "ProtocolEngine",
    "Rejected",
    "Rejection",
    "RequestError",
    "UnsupportedRequest",
    "contains",
    "count",
    "need",
    "not_kept",
    "read_features_file",
    "snapshotted",
    "str_list",
]
