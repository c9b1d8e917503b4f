"""What a finished run means for CI: the exit status, and the requirements on top of it.

Why one place: ``rules-oracle run``, plain ``pytest --oracle-engine`` and ``rules-oracle
combine`` must judge a report the same way, and a green result must mean that something was
tested: a run in which every scenario was ``unsupported``, or none was selected, is not a
pass but its own exit status.
"""

from __future__ import annotations

from enum import IntEnum

from oracle.report.model import Report, Status


class Exit(IntEnum):
    """The exit statuses of ``rules-oracle run`` (and of ``combine``); see ``EXIT_TABLE``."""

    OK = 0
    FAILED = 1
    USAGE = 2
    INTERNAL = 3
    NOTHING_TESTED = 5  # pytest's "no tests collected"
    INTERRUPTED = 130  # 128 + SIGINT, the shell's convention


EXIT_TABLE = """\
exit status:
  0    every applicable rule conforms, and at least one scenario ran on the engine
  1    some rule fails, errors or is flaky (--repeat N: its runs ended differently), a
       scenario errors charged to no rule (a check no sentence states, such as a pile
       losing a card outside any draw), or a requirement is not met
       (--strict-expectations, --require-coverage). A blocked rule (its scenario tripped
       over another rule's failure first, or over an action another rule governs) is
       not a failure itself: the failure is charged to the rule that blocked it, which
       fails, so the run exits 1 through that rule (unless an expectations file lists
       the charge as known). unsupported, untestable and uncovered rules never fail a run
  2    usage or configuration error: a bad option, an engine that cannot be imported or
       made (its factory raised) or fails at start-up (it crashes, hangs or misbehaves
       before describing itself), an unwritable report path, a suite the checks refuse
  3    internal error in rules-oracle (please report it)
  5    nothing was tested: no scenario was selected, or the engine supports none of the
       selected scenarios (all unsupported)
  130  interrupted (Ctrl-C or SIGTERM); the partial reports are written beside the
       requested paths as NAME.interrupted.EXT and say so on their first line"""


def nothing_tested(report: Report) -> str | None:
    """Why a run tested nothing (``Report.ran``: no scenario of its report ran on the
    engine), or None if it tested some."""
    if report.ran():
        return None
    scenarios = report.scenarios()
    if not scenarios:
        return ("nothing was tested: no scenario ran. Check --rule, -k, --shard and the "
                "paths given (in an engine's repository, run pytest without paths, or pass "
                "the features folder)")
    if all(s.status == Status.UNTESTABLE for s in scenarios):
        return (f"nothing was tested: each of the {len(scenarios)} selected scenarios cites a "
                "sentence the run's edition lacks (--edition): untestable as of it")
    unsupported = report.unsupported()
    why = f" The first says: {unsupported[0].message}" if unsupported else ""
    return (f"nothing was tested: the engine supports none of the {len(scenarios)} selected "
            "scenarios (every one is unsupported). Start with setup and observe, then declare "
            "the capabilities the engine has in its 'described' reply (docs/adapters.md; "
            f"docs/protocol.md, \"Capabilities\").{why}")


def coverage_shortfall(report: Report, percent: float | None) -> str | None:
    """Why ``report`` falls short of ``--require-coverage PERCENT``, or None if it does not.

    The share is of the selected testable rules that were tested (not ``unsupported`` nor
    ``uncovered``)."""
    if percent is None:
        return None
    wanted = report.applicable()
    missing = [r.id for r in wanted if r.status in (Status.UNSUPPORTED, Status.UNCOVERED)]
    share = 100.0 * (len(wanted) - len(missing)) / len(wanted) if wanted else 0.0
    if share + 1e-9 >= percent:
        return None
    shown = ", ".join(missing[:8]) + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
    return (f"--require-coverage {percent:g}: {len(wanted) - len(missing)} of {len(wanted)} "
            f"selected testable rules were tested ({share:.0f}%); not tested: {shown}")


def stale_expectations(report: Report) -> list[str]:
    """The rules whose known failures pass now (``xpass``): ``--strict-expectations``
    fails the run on them, so that the expectations file stays honest."""
    return [r.id for r in report.rules if r.status == Status.XPASS]


def judge(report: Report, require_coverage: float | None = None,
          strict_expectations: bool = False) -> tuple[Exit, list[str]]:
    """The exit status a report earns on its own, and the notes that explain it."""
    if report.interrupted:
        return Exit.INTERRUPTED, ["the run was interrupted: the report is partial"]
    empty = nothing_tested(report)
    if empty:
        return Exit.NOTHING_TESTED, [empty]
    if not report.conforms:
        return Exit.FAILED, []
    uncharged = {s.name for r in report.rules for s in r.scenarios
                 if s.uncharged and s.status == Status.ERROR}
    if uncharged:
        return Exit.FAILED, [f"{len(uncharged)} scenario(s) ended error charged to no rule: "
                             "the engine did what no sentence of the rules speaks of (a "
                             "protocol slip); see their messages"]
    stale = stale_expectations(report) if strict_expectations else []
    if stale:
        return Exit.FAILED, [f"--strict-expectations: known failures pass now, remove them "
                             f"from the expectations file: {', '.join(stale)}"]
    short = coverage_shortfall(report, require_coverage)
    return (Exit.FAILED, [short]) if short else (Exit.OK, [])
