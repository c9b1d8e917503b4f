"""The games the oracle knows: one folder of data per game, found, not listed.

A game is a folder under the bundled ``features/`` (or any folder given with
``--features``: ``feature_roots``) holding a ``game.yaml`` manifest: its id, its catalog
and card-facts files, its step module and its reference engine. The core
reads only these manifests, so adding a game never changes the core.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import importlib
import importlib.resources
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oracle.suite import filecheck
from oracle.suite.catalog import Catalog, CatalogFileError, load_catalog, read_game_file

if TYPE_CHECKING:
    from oracle.suite.facts import Facts
    from oracle.suite.governs import Governs


@dataclass(frozen=True)
class Game:
    """One game's data folder, as its manifest describes it."""

    id: str
    title: str
    folder: Path
    catalog_file: str
    cards_file: str | None
    steps: str | None
    reference_engine: str | None
    mutants: str | None = None
    explore: str | None = None
    #: Folders of more scenarios for this game (a committee's rulings), from other roots.
    extra_folders: tuple[Path, ...] = ()
    #: What each concept a check can be about stands for: concept -> rule id (local or
    #: qualified). A failed check about another rule's concept charges that rule.
    concepts: tuple[tuple[str, str], ...] = ()
    #: ``package.module:ATTR``: a sequence of ``oracle.scenario.diagnosis.Diagnostic``.
    diagnostics: str | None = None
    #: A YAML file of card classes and the recipes that play each card (``card A``).
    plays_file: str | None = None
    #: Refuse scenarios that expect a rejection without a twin (``twins: required``).
    twins_required: bool = False
    #: Refuse scenarios that cite no sentence of their rule, and sentences of a testable rule
    #: that no scenario cites and no waiver excuses (``cites: required``).
    cites_required: bool = False
    #: A YAML file of what scenarios may name, by kind (``oracle.suite.facts``).
    facts_file: str | None = None
    #: The game's own fields of a card fact, each with its JSON Schema (``card_fields:``):
    #: given, a card fact with any other field is refused.
    card_fields: tuple[tuple[str, Any], ...] = dataclasses.field(default=(), hash=False)
    #: A YAML file of which rule governs each action the steps perform, and of the checks
    #: no sentence states (``oracle.suite.governs``).
    governs_file: str | None = None

    @property
    def card_schema(self) -> dict[str, Any]:
        """The schema its card-facts file is checked against (``filecheck.card_schema``)."""
        return filecheck.card_schema(dict(self.card_fields))

    @functools.cached_property
    def catalog(self) -> Catalog:
        return load_catalog(self.folder / self.catalog_file)

    @functools.cached_property
    def cards(self) -> dict[str, list[dict[str, Any]]]:
        """Card facts per deck (name, count, and whatever else the game records)."""
        if not self.cards_file:
            return {}
        data = read_game_file(self.folder / self.cards_file, "the card facts",
                              schema=self.card_schema) or {}
        return dict(data.get("decks", {}))

    @functools.cached_property
    def facts(self) -> Facts:
        """What this game's scenarios may name (cards, decks, windows, laws, ...)."""
        from oracle.suite.facts import load_facts

        return load_facts(self)

    @functools.cached_property
    def governs(self) -> Governs:
        """Which rule governs each action, and the unstated checks (``governs:``)."""
        from oracle.suite.governs import load_governs

        return load_governs(self)

    def concept_rule(self, concept: str) -> str | None:
        """The rule id (``game:id``) that states a concept, or None if the game has none."""
        local = dict(self.concepts).get(concept)
        if local is None:
            return None
        return local if ":" in local else f"{self.id}:{local}"

    @functools.cached_property
    def diagnostic_checks(self) -> tuple[Any, ...]:
        """The game's diagnostics (``oracle.scenario.diagnosis.Diagnostic``), loaded once."""
        if not self.diagnostics:
            return ()
        module, _, attr = self.diagnostics.partition(":")
        try:
            return tuple(getattr(importlib.import_module(module), attr or "DIAGNOSTICS"))
        except (ImportError, AttributeError) as exc:
            raise CatalogFileError(
                f"{self.folder / 'game.yaml'}: 'diagnostics: {self.diagnostics}' cannot be "
                f"loaded ({exc}); name a module attribute holding a sequence of Diagnostic"
            ) from exc

    @functools.cached_property
    def plays(self) -> dict[str, Any]:
        """Card classes and play recipes (``plays:`` in the manifest), or empty ones."""
        if not self.plays_file:
            return {"classes": {}, "recipes": {}}
        path = self.folder / self.plays_file
        data = read_game_file(path, "the card plays", schema="plays") or {}
        plays = {"classes": dict(data.get("classes") or {}),
                 "recipes": dict(data.get("recipes") or {})}
        _check_flags(path, plays)
        return plays

    def feature_files(self) -> list[Path]:
        folders = (self.folder, *self.extra_folders)
        return [f for folder in folders for f in sorted(folder.rglob("*.feature"))]


def _check_flags(path: Path, plays: dict[str, Any]) -> None:
    """Refuse a recipe flag no class asks for (``has:``): the schema takes any key of a
    recipe as a flag, so ``ofensive: true`` would be a flag nothing reads."""
    keys = set(filecheck.load("plays")["$defs"]["recipe"]["properties"])
    asked = {h for spec in plays["classes"].values() for h in (spec or {}).get("has") or ()}
    for card, recipe in plays["recipes"].items():
        for flag in (recipe or {}):
            if flag not in keys and flag not in asked:
                near = difflib.get_close_matches(flag, sorted(asked | keys), n=1)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                raise CatalogFileError(
                    f"{path}:{filecheck.key_line(path, ['recipes', card, flag])}: the flag "
                    f"{flag!r} of {card!r} is asked for by no class (has: [...]){hint} "
                    f"(a recipe's keys: {', '.join(sorted(keys))}, or a flag a class "
                    "asks for)")


def bundled_features_dir() -> Path:
    """The bundled features: the installed package's ``oracle.features`` (for an editable
    install, the checkout's ``features/`` itself), whatever the current folder. A run adds
    other folders with ``--features`` (``feature_roots``), never by where it is run from."""
    try:
        return Path(str(importlib.resources.files("oracle.features")))
    except ModuleNotFoundError as exc:
        raise CatalogFileError(
            f"the oracle package imported from {Path(__file__).parent.parent} has no bundled "
            "features (oracle.features): it is a source checkout imported in place of the "
            "installed rules-oracle (python -m puts the current folder first on sys.path). "
            "Install the checkout (pip install -e .), or run the command from another "
            "folder (or with python -P)") from exc


def feature_roots(features: Iterable[str | Path] = ()) -> list[Path]:
    """The folders of games a command reads: the bundled features, then each ``--features``
    folder (resolved), in the order given. Every command finds its games through here."""
    return [bundled_features_dir(), *(Path(f).resolve() for f in features)]


def checkout_features_dir(start: Path | None = None) -> Path | None:
    """The ``features/`` of a rules-oracle source checkout holding ``start`` (default: the
    current folder), or None when it is not inside one."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        project = folder / "pyproject.toml"
        if (folder / "features").is_dir() and project.is_file() and re.search(
                r'^name\s*=\s*"rules-oracle"', project.read_text(encoding="utf-8"), re.M):
            return folder / "features"
    return None


def features_note() -> str:
    """What a run says about where its bundled features come from: nothing, unless it is run
    from inside a source checkout whose ``features/`` differ from the installed ones, which
    are the ones used (so that a run does not change with the folder it is run from); then
    which files differ and how to run the checkout's."""
    installed = bundled_features_dir().resolve()
    checkout = checkout_features_dir()
    if checkout is None or checkout.resolve() == installed:
        return ""
    differ = _differing(installed, checkout)
    if not differ:
        return ""
    shown = ", ".join(differ[:4]) + (f" and {len(differ) - 4} more" if len(differ) > 4 else "")
    return (f"the installed features at {installed} are used, not those of the checkout "
            f"{checkout}, which differ in {len(differ)} file(s): {shown}; 'pip install -e .' "
            "in the checkout runs its own")


def _differing(installed: Path, checkout: Path) -> list[str]:
    """The feature and data files (the package's data patterns) that differ between two
    feature folders, or are in only one of them."""
    def files(root: Path) -> dict[str, bytes]:
        return {str(p.relative_to(root)): p.read_bytes() for pattern in ("*/*.feature",
                                                                           "*/*.yaml")
                for p in root.glob(pattern)}

    a, b = files(installed), files(checkout)
    return sorted(name for name in a.keys() | b.keys() if a.get(name) != b.get(name))


def _read_manifest(path: Path) -> Game:
    data = read_game_file(path, "the game manifest", "see docs/adding-a-game.md", "game")
    if not isinstance(data, dict) or "id" not in data or "catalog" not in data:
        raise CatalogFileError(
            f"{path}: a game manifest needs at least 'id' and 'catalog' "
            "(see docs/adding-a-game.md)"
        )
    return Game(
        id=str(data["id"]),
        title=str(data.get("title", data["id"])),
        folder=path.parent,
        catalog_file=str(data["catalog"]),
        cards_file=data.get("cards"),
        steps=data.get("steps"),
        reference_engine=data.get("reference_engine"),
        mutants=data.get("mutants"),
        explore=data.get("explore"),
        concepts=tuple((str(k), str(v)) for k, v in (data.get("concepts") or {}).items()),
        diagnostics=data.get("diagnostics"),
        plays_file=data.get("plays"),
        twins_required=_required(data, "twins"),
        cites_required=_required(data, "cites"),
        facts_file=data.get("facts"),
        card_fields=tuple((data.get("card_fields") or {}).items()),
        governs_file=data.get("governs"),
    )


def _required(data: dict[str, Any], key: str) -> bool:
    """A manifest switch: ``KEY: required`` or ``KEY: optional`` (the default; the schema
    refuses anything else)."""
    return data.get(key, "optional") == "required"


def discover_games(roots: list[Path] | None = None) -> dict[str, Game]:
    """All games under the given feature roots (default: the bundled features), by id.

    A folder without a manifest, named like a known game (``rulings/ti4/``),
    adds its feature files to that game: that is how a committee keeps its
    own scenarios outside the bundled suite.
    """
    roots = roots or feature_roots()
    for root in roots:
        if not root.is_dir():
            raise CatalogFileError(f"{root}: no such folder of games; --features takes a "
                                   "folder holding game folders (like features/)")
    games: dict[str, Game] = {}
    for root in roots:
        for manifest in sorted(root.glob("*/game.yaml")):
            game = _read_manifest(manifest)
            if game.id in games:
                raise CatalogFileError(
                    f"{manifest}: game id {game.id!r} is already defined by "
                    f"{games[game.id].folder / 'game.yaml'}; give each game folder its own id"
                )
            games[game.id] = game
    for root in roots:
        for folder in sorted(p for p in root.iterdir() if p.is_dir()):
            if (folder / "game.yaml").exists() or not any(folder.rglob("*.feature")):
                continue
            game = games.get(folder.name)
            if game is None:
                raise CatalogFileError(
                    f"{folder}: feature files for an unknown game {folder.name!r}; name the "
                    f"folder after a game ({', '.join(games)}) or add a game.yaml to it"
                )
            games[game.id] = dataclasses.replace(
                game, extra_folders=(*game.extra_folders, folder))
    return games


def languages(games: Iterable[Game]) -> list[str]:
    """The languages rule texts can be shown in (``--lang``): the sources' own (en) and
    every translation a catalog carries, for its rules or its sentences."""
    found = {"en"}
    for game in games:
        for rule in game.catalog.rules:
            if rule.translation_lang:
                found.add(rule.translation_lang)
            for sentence in rule.sentences:
                found.update(sentence.translations)
    return sorted(found)
