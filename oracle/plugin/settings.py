"""A run's options, parsed once into a frozen value: what ``pytest_configure`` does, and all
it does.

Why its own value: pytest reads its options before any session exists (also for ``--help``
and ``--version``), so the plugin parses ours then and nothing more: no game discovered, no
file read, no engine made. Those need the file system and happen when the session starts
(``OracleRun.pytest_sessionstart``: ``Selection.discover``, ``EnginePool.open``). Bad input
that parsing alone shows (an unknown engine kind, ``--explore-out`` without ``--explore``)
is a ``pytest.UsageError`` here already.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from oracle import options as run_options
from oracle.engines import ConnectOptions, EngineSpec, EngineSpecError
from oracle.engines.spec import DEFAULT_MAX_TIMEOUTS, DEFAULT_TIMEOUT
from oracle.report.formats import file_formats
from oracle.suite.games import feature_roots


@dataclass(frozen=True)
class Settings:
    """Every option of one run (``oracle.options``), typed."""

    spec: EngineSpec
    #: The folders of games: the bundled features, then each ``--features`` (resolved).
    roots: tuple[Path, ...]
    seed: int = 0
    #: Each requested report format's path, by format name.
    outputs: Mapping[str, Path] = field(default_factory=lambda: MappingProxyType({}))
    #: An xdist worker: it runs scenarios, and never checks the suite or writes reports.
    is_worker: bool = False
    connect: ConnectOptions = field(default_factory=ConnectOptions)
    max_timeouts: int = DEFAULT_MAX_TIMEOUTS
    rules: tuple[str, ...] = ()
    shard: tuple[int, int] | None = None
    all_games: bool = False
    editions: tuple[str, ...] = ()
    #: Show rule texts in this language where catalogs have it (``--lang ru``).
    lang: str | None = None
    rerun_failed: Path | None = None
    expectations: Path | None = None
    strict_expectations: bool = False
    explore: bool = False
    explore_examples: int = 60
    explore_out: str | None = None
    require_coverage: float | None = None
    #: Run scenarios through pytest-bdd's public API only (``--bdd-public``).
    bdd_public: bool = False
    #: How many times each scenario runs (``--repeat N``).
    repeat: int = 1
    #: ``--rule`` and ``--lang`` as the user spelt them (the command's or pytest's), for
    #: the errors about them.
    rule_flag: str = "--oracle-rule"
    lang_flag: str = "--oracle-lang"
    #: Every option's value by name, for the reproduce command of a failure.
    values: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def from_config(cls, config: pytest.Config) -> Settings | None:
        """The options pytest parsed, or None when no engine is named (the plugin is
        inert); a ``pytest.UsageError`` for what is wrong in them alone."""
        values = run_options.read(config)
        if not values["engine"]:
            return None
        if values["explore_out"] and not values["explore"]:
            raise pytest.UsageError("--explore-out DIR writes exploration counterexamples, so "
                                    "it needs --explore; add --explore, or leave it out")
        try:
            spec = EngineSpec.parse(values["engine"])
        except EngineSpecError as exc:
            raise pytest.UsageError(str(exc)) from exc
        k, _, n = (values["shard"] or "").partition("/")  # K/N, checked by options._shard
        return cls(
            spec=spec, roots=tuple(feature_roots(values["features"])), seed=values["seed"],
            outputs=MappingProxyType({f.name: Path(values[f.name]) for f in file_formats()
                                      if values.get(f.name)}),
            is_worker=hasattr(config, "workerinput"),
            connect=ConnectOptions(timeout=values["timeout"] or DEFAULT_TIMEOUT,
                                   startup_timeout=values["startup_timeout"],
                                   strict=_strict(values["strict_protocol"])),
            max_timeouts=values["max_timeouts"], rules=tuple(values["rule"]),
            shard=(int(k), int(n)) if n else None,
            all_games=values["all_games"], editions=tuple(values.get("edition") or ()),
            lang=values.get("lang"),
            rerun_failed=Path(values["rerun_failed"]) if values["rerun_failed"] else None,
            expectations=Path(values["expectations"]) if values["expectations"] else None,
            strict_expectations=values["strict_expectations"], explore=values["explore"],
            explore_examples=values["explore_examples"], explore_out=values["explore_out"],
            require_coverage=values["require_coverage"], bdd_public=values["bdd_public"],
            repeat=values["repeat"] or 1, rule_flag=run_options.spelled(config, "rule"),
            lang_flag=run_options.spelled(config, "lang"), values=MappingProxyType(values))


def _strict(wanted: bool) -> bool:
    """``--strict-protocol``, refused where the validator cannot be loaded."""
    if wanted:
        from oracle.protocol import validate

        try:
            validate.validator("reply")
        except ImportError as exc:
            raise pytest.UsageError(f"--oracle-strict-protocol: {exc}") from exc
    return bool(wanted)
