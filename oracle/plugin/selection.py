"""What a run tests: its games, the rules, shard and edition chosen, the committee's rulings,
and the scenarios ``--rerun-failed`` asks for again; and the lookups that place a feature
file or a scenario among them.

Its own object, held by the run (``OracleRun.selection``), because every stage asks it the
same questions (collection: is this scenario wanted, in this shard, retired?; a verdict: which
ruling, which citations, stale?; a report: which games, each file's short path) and none of
them changes it. ``Selection.discover`` reads the games from the file system: the plugin does
that when the session starts (``OracleRun.pytest_sessionstart``), not while pytest reads its
options. Bad input is a ``pytest.UsageError`` or a ``CatalogFileError`` saying what to write.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from oracle.plugin.rerun import failed_in
from oracle.plugin.verdicts import rules_of, scenario_key
from oracle.scenario.outcomes import EngineFault
from oracle.suite import editions as run_editions
from oracle.suite import reviews as run_reviews
from oracle.suite.catalog import CatalogFileError, Edition
from oracle.suite.features import FeatureSyntaxError, ScenarioDoc, read_feature
from oracle.suite.games import Game, discover_games, features_note, languages
from oracle.suite.lint import find_rulings, rule_tags
from oracle.suite.rulings import Ruling, Rulings


@dataclass(eq=False)  # holds caches: compared by identity
class Selection:
    """The games of a run and what of them it runs (``--rule``, ``--shard``, ``--edition``,
    ``--rerun-failed``, ``--all-games``)."""

    games: dict[str, Game]
    roots: list[Path] = field(default_factory=list)
    #: The rule ids ``--rule`` selects (each id and its sub-rules), or None for every rule.
    selected: set[str] | None = None
    shard: tuple[int, int] | None = None
    #: List every game's rules in the reports, also games no ``--rule`` selects.
    all_games: bool = False
    #: The edition each game runs as of (``--edition``); a game not named, its canonical.
    editions: dict[str, Edition] = field(default_factory=dict)
    #: The committee's rulings among the run's scenarios (read on every process: a worker
    #: needs them to tell a probe, the controller to report them).
    rulings: Rulings = field(default_factory=Rulings)
    #: ``--rerun-failed``: the (location, name) of the scenarios to run again (None: all).
    rerun: frozenset[tuple[str, str]] | None = None
    rerun_note: str = ""
    #: Where the bundled features come from, when that is worth saying (a checkout's, and
    #: the installed copy differs): shown in the header and the summary.
    features_note: str = ""
    _games_of: dict[Path, Game | None] = field(default_factory=dict)
    _short_paths: dict[Path, str] = field(default_factory=dict)
    #: Each folder's review stamps, read once per process (``stale_of``).
    _reviews: dict[Path, run_reviews.Reviews] = field(default_factory=dict)

    @classmethod
    def discover(cls, roots: list[Path], *, rules: list[str], shard: tuple[int, int] | None,
                 all_games: bool, editions: list[str], lang: str | None,
                 rerun_failed: str | None, rule_flag: str = "--oracle-rule",
                 lang_flag: str = "--oracle-lang") -> Selection:
        """The games under ``roots`` (a ``--features`` folder that adds none is refused) and
        the selection the options ask for (``rule_flag``, ``lang_flag``: the options as the
        user spelt them, for the errors)."""
        games = discover_games(roots)
        _check_feature_roots(roots[1:], games)
        rulings = find_rulings(games.values(), games)
        check_lang(lang, games, lang_flag)
        selection = cls(games=games, roots=roots,
                        selected=selected_rules(rules, games, rulings, rule_flag),
                        shard=shard, all_games=all_games,
                        editions=run_editions.choose_editions(editions, games),
                        rulings=rulings, features_note=features_note())
        if rerun_failed:
            selection.rerun, selection.rerun_note = _rerun(Path(rerun_failed))
        return selection

    # -- the games ------------------------------------------------------------------------------

    def game_of(self, path: Path) -> Game | None:
        """The game whose folders hold a feature file (worked out once a file: it is asked
        for every scenario, and ``Path.is_relative_to`` is slow)."""
        if path not in self._games_of:
            self._games_of[path] = next(
                (game for game in self.games.values()
                 if any(path.is_relative_to(f) for f in (game.folder, *game.extra_folders))),
                None)
        return self._games_of[path]

    def game_of_item(self, item: pytest.Item) -> Game | None:
        """The game of a collected scenario (its first rule's), or None for another test."""
        rules = rules_of(item)
        return self.games.get(rules[0].partition(":")[0]) if rules else None

    def selected_games(self) -> list[Game]:
        """The games a --rule selects (every game without one): only their feature files
        are checked and collected, and only they are explored."""
        if self.selected is None:
            return list(self.games.values())
        added = self.rulings.added_ids()
        return [g for g in self.games.values()
                if (set(g.catalog.ids()) | {i for i in added if i.startswith(f"{g.id}:")})
                & self.selected]

    def report_games(self) -> list[Game]:
        """The games a report lists: the selected ones, or every game with --all-games."""
        return list(self.games.values()) if self.all_games else self.selected_games()

    def short_path(self, path: Path) -> str:
        """A feature file's path as reports show it: from its features root, or from the
        current folder when it is under it (a committee's folder), else in full."""
        shown = self._short_paths.get(path)
        if shown is None:
            here = Path.cwd()
            shown = str(path.relative_to(here)) if path.is_relative_to(here) else str(path)
            for game in self.games.values():
                if path.is_relative_to(game.folder.parent):
                    shown = str(path.relative_to(game.folder.parent))
                    break
            self._short_paths[path] = shown
        return shown

    # -- which scenarios run ----------------------------------------------------------------

    def in_shard(self, key: str) -> bool:
        """Whether what ``key`` names (``shard_key``) runs in this run's shard (``--shard
        K/N``): the same split on every machine, whatever the paths and the order of
        collection, and every example row of a scenario in the same shard."""
        if self.shard is None:
            return True
        index, count = self.shard
        return zlib.crc32(key.encode("utf-8")) % count == index - 1

    def shard_key(self, scenario: ScenarioDoc) -> str:
        """What places a scenario in a shard: its game, file name and name (no folder, which
        differs between machines)."""
        game = self.game_of(scenario.path)
        return f"{game.id if game else ''}/{scenario.path.name}::{scenario.name}"

    def wants(self, scenario: ScenarioDoc) -> bool:
        """Whether to collect a scenario: it cites a selected rule, or nothing is selected.

        Unselected scenarios are not built at all, so a one-rule run of a large suite does
        not pay for the rest. If no scenario cites a selected rule (an untestable one, say),
        everything is collected and deselected as it always was, so such a run still ends
        as before rather than as a run that collected nothing.
        """
        if self.selected is None or not self._selection_has_scenarios:
            return True
        return not self.selected.isdisjoint(rule_tags(scenario.tag_names))

    @functools.cached_property
    def _selection_has_scenarios(self) -> bool:
        assert self.selected is not None
        for game in self.games.values():
            for path in game.feature_files():
                with contextlib.suppress(FeatureSyntaxError):  # the suite checks say so
                    for scenario in read_feature(path).scenarios:
                        if not self.selected.isdisjoint(rule_tags(scenario.tag_names)):
                            return True
        return False

    def retired(self, scenario: ScenarioDoc) -> bool:
        """Whether an official ruling retires (or replaces) this scenario: it does not run."""
        game = self.game_of(scenario.path)
        return game is not None and self.rulings.retired(scenario, game.id) is not None

    def not_in_edition(self, item: pytest.Item) -> str | None:
        """Why a collected scenario cannot be tested as of its game's edition (``--edition``:
        it cites a sentence the edition lacks), or None."""
        game = self.game_of_item(item)
        edition = self.editions.get(game.id) if game is not None else None
        behind = item.stash.get(scenario_key, None)
        if game is None or edition is None or behind is None:
            return None
        return run_editions.not_in_edition(game.catalog, edition,
                                           self.cites_of(behind[0].path, behind[0].name))

    # -- what a verdict says of its scenario ----------------------------------------------------

    def ruling_of(self, path: Path, name: str) -> Ruling | None:
        """The ruling a scenario (feature file, name) belongs to, if any."""
        return self.rulings.of_test(path, name)

    def scenario_doc(self, path: Path, name: str) -> ScenarioDoc | None:
        """A scenario (feature file, name) as parsed, for its verdict: from the file's parse,
        which every process has (cached) once it collected the file; None when it is gone."""
        try:
            return read_feature(path).by_name.get(name)
        except (OSError, FeatureSyntaxError):
            return None

    def cites_of(self, path: Path, name: str) -> tuple[str, ...]:
        """The sentence anchors a scenario (feature file, name) cites."""
        scenario = self.scenario_doc(path, name)
        return scenario.cited_anchors if scenario is not None else ()

    def stale_of(self, path: Path, scenario: ScenarioDoc) -> tuple[str, ...]:
        """The anchors a scenario of the feature file ``path`` cites whose text changed since
        it was reviewed (its folder's ``reviews.yaml``), or that the rules no longer have: it
        is ``stale``."""
        game = self.game_of(path)
        folder = run_reviews.folder_of(path, game) if game is not None else None
        if folder is None:
            return ()
        if folder not in self._reviews:
            try:
                self._reviews[folder] = run_reviews.Reviews.read(folder)
            except CatalogFileError as exc:
                raise EngineFault(str(exc)) from exc
        return run_reviews.staleness(scenario, self._reviews[folder], self.games).stale


def _rerun(path: Path) -> tuple[frozenset[tuple[str, str]] | None, str]:
    """``--rerun-failed``'s scenarios and what the header says of them."""
    failed = failed_in(path)
    if not failed:
        return None, f"--rerun-failed {path}: no scenario failed there; running every one"
    return failed, (f"--rerun-failed {path}: running the {len(failed)} scenario(s) that "
                    "failed, errored or were blocked there")


def _check_feature_roots(extra: list[Path], games: dict[str, Game]) -> None:
    """Refuse a --features folder that adds nothing: no game folder, no folder of a game's
    scenarios. Run as given, it would silently test only the bundled suite."""
    for root in extra:
        used = any(g.folder.parent == root or any(f.parent == root for f in g.extra_folders)
                   for g in games.values())
        if not used:
            raise CatalogFileError(
                f"--features {root}: holds no game folder (with a game.yaml) and no folder "
                f"named after a game holding .feature files (games: {', '.join(games)}); "
                "give the folder that holds them, e.g. --features my-rulings for "
                "my-rulings/ti4/*.feature")


def selected_rules(wanted: list[str], games: dict[str, Game], rulings: Rulings | None = None,
                   flag: str = "--oracle-rule") -> set[str] | None:
    """The rule ids ``--rule`` selects (each id and its sub-rules, or a whole game, or a
    committee namespace its rulings add), or None for every rule; a ``pytest.UsageError``
    for an id no catalog has, offering the closest ids (``flag``: the option as the user
    spelt it)."""
    if not wanted:
        return None
    every = [rid for g in games.values() for rid in g.catalog.ids()]
    every += sorted(rulings.added_ids()) if rulings else []
    selected: set[str] = set()
    for text in wanted:
        hits = [rid for rid in every
                if rid == text or rid.startswith(text + ".") or rid.startswith(text + ":")]
        if not hits:
            close = difflib.get_close_matches(text, [*every, *games], n=5, cutoff=0.6)
            offer = (f"did you mean {', '.join(close)}?" if close else
                     f"ids look like {', '.join(every[:3])} …")
            raise pytest.UsageError(
                f"{flag} {text}: no rule has this id; {offer} (a game id alone, "
                f"{' or '.join(games)}, selects all its rules; the JSON report lists "
                "every id)")
        selected.update(hits)
    return selected


def check_lang(lang: str | None, games: dict[str, Game], flag: str = "--oracle-lang") -> None:
    """Refuse a ``--lang`` no catalog has rule texts in, naming the languages there are."""
    if not lang:
        return
    known = languages(games.values())
    if lang not in known:
        raise pytest.UsageError(f"{flag} {lang}: no catalog has its rule texts in {lang!r}; "
                                f"the languages there are: {', '.join(known)}")
