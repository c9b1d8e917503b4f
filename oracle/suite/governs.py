"""Which rule governs each action a step performs, and the checks no sentence states.

Why: a scenario checks its own rule but stands on actions other rules govern: the scenario
of ti4:2.5 (hidden hands) gets its cards through Politics' secondary ability, which ti4:2.2
states. An engine that refuses that ability breaks ti4:2.2; charging the refusal to ti4:2.5
flags a rule the engine keeps. So each game declares, in ``features/GAME/governs.yaml``
(schema ``schemas/governs.json``), the sentences that state each action (by its protocol
type, or ``choose:KEY`` for the answer to a decision)::

    actions:
      politics_secondary:
        - sentence: ti4:2.2#1
          quote: secondary abilities of the Politics strategy card

An unexpected refusal of such an action, or an engine error answering it, in a scenario of
none of the listed rules, blocks the scenario and charges the first listed sentence's rule;
in a scenario of one of them, it is that scenario's own failure. An action not listed is its
scenario's own subject (a card played is what most scenarios are about).

``unstated`` lists the checks the oracle makes of every action (a diagnostic's concept, or
one of the world's own, such as a refused action changing nothing) that no sentence of the
catalog states, each with why: failing one ends the scenario ``error`` with what the engine
did, charged to no rule (``oracle.scenario.diagnosis``).

Every anchor is checked against the catalog (a rule's sentence, not a related chapter's,
which gets no verdict) and every quote against its sentence, with the file and line of a
problem (``check_governs``).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oracle.protocol.validate import action_types, choice_kinds
from oracle.suite import filecheck
from oracle.suite.catalog import CatalogFileError, closest_anchors, read_game_file
from oracle.suite.citations import quote_form
from oracle.suite.problems import Problem

if TYPE_CHECKING:
    from oracle.suite.games import Game

__all__ = ["Governs", "action_key", "check_governs", "load_governs"]

#: The concept of the world's own check that a refused action changed nothing
#: (``oracle.scenario.world``): the protocol's, stated by no game's sentence unless the
#: game's ``concepts:`` maps it.
REFUSAL_CHANGES_NOTHING = "refusal-changes-nothing"


@dataclass(frozen=True)
class Governs:
    """A game's declaration: the governing sentences of each action, in charging order, and
    the concepts no sentence states (with why)."""

    path: Path | None = None
    actions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    unstated: Mapping[str, str] = field(default_factory=dict)
    #: Actions no sentence of the catalog governs, with why: a refusal charges no rule.
    ungoverned: Mapping[str, str] = field(default_factory=dict)
    #: The file's data as read and checked against its schema: what ``check_governs``
    #: checks further (the quotes, the listing), with the lines of the file.
    data: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def rules(self, key: str) -> tuple[str, ...]:
        """The rule ids governing an action (``action_key``), first charged first; () when
        the game declares none (the scenario's own subject)."""
        return tuple(dict.fromkeys(a.partition("#")[0] for a in self.actions.get(key, ())))


def action_key(kind: str, action: Mapping[str, Any]) -> str:
    """How ``governs.yaml`` names an action: its type, or ``choose:KEY`` for an answer."""
    if kind == "choose":
        choice = action.get("choose")
        keys = sorted(choice) if isinstance(choice, Mapping) else []
        return f"choose:{keys[0]}" if len(keys) == 1 else "choose"
    return kind


def load_governs(game: Game) -> Governs:
    """The game's declaration (an empty one without ``governs:`` in its manifest); a file
    that does not fit its schema is a ``CatalogFileError`` with its line."""
    if not game.governs_file:
        return Governs()
    path = game.folder / game.governs_file
    data = read_game_file(path, "which rule governs each action", "see docs/rulings.md",
                          "governs") or {}
    listed = dict(data.get("actions") or {})
    actions = {str(k): tuple(str(e["sentence"]) for e in v)
               for k, v in listed.items() if isinstance(v, list)}
    return Governs(path, actions,
                   {str(k): str(v) for k, v in (data.get("unstated") or {}).items()},
                   {str(k): str(v["unstated"]) for k, v in listed.items()
                    if isinstance(v, dict) and "unstated" in v}, data)


def check_governs(game: Game) -> list[Problem]:
    """Every governing anchor is a sentence of a rule of the game's catalog, every quote is
    in its sentence, no concept is both mapped to a rule and unstated, and every action type
    of the game's request schema, and the answer of every kind of choice (``choose:KEY``), is
    listed, and nothing else."""
    try:
        governs = game.governs
    except CatalogFileError as exc:
        path = game.folder / (game.governs_file or "governs.yaml")
        return [Problem(path, 1, "governs", str(exc))]
    if governs.path is None:
        return []
    path, data = governs.path, governs.data
    problems = _listing_problems(game, path, data)
    for action, entries in (data.get("actions") or {}).items():
        for n, entry in enumerate(entries if isinstance(entries, list) else ()):
            where = ["actions", action, n, "sentence"]
            anchor = entry["sentence"]
            found = _anchor_problem(game, anchor)
            quote = entry.get("quote")
            if found is None and quote is not None:
                text = game.catalog.sentence(anchor).text  # type: ignore[union-attr]
                if quote_form(quote) not in quote_form(text):
                    where[-1] = "quote"
                    found = (f"the quote {quote!r} is not in {anchor}, which reads: {text!r}; "
                             "quote a few words of it exactly")
            if found:
                problems.append(Problem(path, filecheck.key_line(path, where),
                                        f"{action}: {anchor}", found))
    mapped = dict(game.concepts)
    for concept in governs.unstated:
        if concept in mapped:
            problems.append(Problem(path, filecheck.key_line(path, ["unstated", concept]),
                                    f"unstated: {concept}",
                                    f"concept {concept!r} is unstated here and mapped to "
                                    f"{mapped[concept]!r} by 'concepts:' in game.yaml; keep "
                                    "one (a concept a sentence states is charged to its rule)"))
    return problems


def _listing_problems(game: Game, path: Path, data: Mapping[str, Any]) -> list[Problem]:
    """Every action type the game's requests have, and every kind of answer to a decision
    (``choose:keep``, ``choose:discard``: the protocol's choices), is listed, and no other: an
    action left out would be charged to its scenario's rule without anyone deciding so."""
    types = action_types(game.id)
    if not types:
        return []
    known = (*types, *(f"choose:{kind}" for kind in choice_kinds()))
    listed = dict(data.get("actions") or {})
    problems = []
    for action in listed:
        if action not in known:
            near = difflib.get_close_matches(action, known, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            what = "answer" if action.startswith("choose") else "action type"
            problems.append(Problem(path, filecheck.key_line(path, ["actions", action]),
                                    f"actions: {action}",
                                    f"{game.id} has no {what} {action!r}{hint} (its "
                                    f"actions: {', '.join(known)})"))
    missing = [t for t in known if t not in listed]
    if missing:
        problems.append(Problem(path, filecheck.key_line(path, ["actions"]), "actions",
                                f"the {game.id} action(s) {', '.join(missing)} are not "
                                "listed: give each the sentence that governs it, or "
                                "'subject: why' (a refusal is its scenario's own failure), "
                                "or 'unstated: why' (no sentence of the catalog governs it)"))
    return problems


def _anchor_problem(game: Game, anchor: str) -> str | None:
    catalog = game.catalog
    sentence = catalog.sentence(anchor)
    if sentence is None:
        near = closest_anchors(catalog, anchor)
        hint = f"; the closest anchors: {', '.join(near)}" if near else ""
        return f"{anchor} is no sentence of the {game.id} catalog{hint}"
    rule = catalog.get(sentence.owner)
    if rule is None:
        return (f"{anchor} is a sentence of a related chapter, which gets no verdict: name "
                "the sentence of a rule that states the action, or leave the action out "
                "(its scenario's own subject)")
    if not rule.testable:
        return f"{anchor} is a sentence of {rule.id}, which is untestable: it gets no verdict"
    return None
