"""Every format says the same of a report as before, byte for byte.

Why: each format (the table, JSON, Markdown, HTML, JUnit, Cucumber, the badge) reads what a
report's statuses mean (what is charged to which rule, what counts as passing, which
scenarios are blocked and by what) through ``Report``'s query methods; a change to that
meaning, or to how a format words it, must be a decision, not a side effect. So stored
reports (``tests/data/report-formats/``) are rendered by every format and compared with the
digests of what they rendered when they were stored. The reports were written by::

    rules-oracle run --engine mutant:ti4/hand_count_hidden --rule ti4:note-1 \\
        --rule ti4:note-2 --rule ti4:2.4 --rule ti4:2.6.2 \\
        --features examples/council-rulings --json blocked-chain.json
    rules-oracle run --engine mutant:eu-pop/rebuild_at_once --rule eu-pop:6.decks.4 \\
        --rule eu-pop:6.cards-in-hand.2 --rule eu-pop:6.2.battle.1 \\
        --features examples/council-rulings --json eu-rulings.json
    (cd examples/walkthrough && rules-oracle run --engine adapter:factory \\
        --rule ti4:note-1 --rule ti4:note-2 --rule ti4:2.1 --rule ti4:2.6 --json partial.json)
    rules-oracle expectations --from blocked-chain.json --out known.yaml
    rules-oracle run --engine reference:ti4 --rule ti4:note-1 --rule ti4:note-2 \\
        --rule ti4:2.4 --expectations known.yaml --json known-passing.json
    rules-oracle run --engine mutant:ti4/hand_count_hidden --rule ti4:note-1 \\
        --rule ti4:note-2 --rule ti4:2.4 --expectations known.yaml --json known-failing.json

(a blocked chain and rulings, EU rulings, an engine that lacks most capabilities, known
failures that pass and that fail). Cucumber Messages is left out: it reads the feature files
the report names, which change as scenarios are written. When a format is changed on
purpose, ``python tests/test_report_meaning.py`` writes the new digests.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest

from oracle.report import Report
from oracle.report.formats import formats

DATA = Path(__file__).resolve().parent / "data" / "report-formats"
DIGESTS = DATA / "renders.sha256.json"
REPORTS = sorted(p.name.removesuffix(".json.gz") for p in DATA.glob("*.json.gz"))
LEFT_OUT = {"cucumber_messages"}


def stored(name: str) -> Report:
    return Report.from_json(json.loads(gzip.decompress((DATA / f"{name}.json.gz").read_bytes())))


def digests() -> dict[str, dict[str, str]]:
    return {name: {f: hashlib.sha256(fmt.render(stored(name)).encode()).hexdigest()
                   for f, fmt in formats().items() if f not in LEFT_OUT}
            for name in REPORTS}


@pytest.mark.parametrize("name", REPORTS)
def test_every_format_renders_a_stored_report_as_before(name):
    before = json.loads(DIGESTS.read_text())[name]
    now = digests()[name]
    changed = sorted(f for f in before if now.get(f) != before[f])
    assert not changed, (f"{', '.join(changed)} render(s) {name} otherwise than before; "
                         "if that is meant, run python tests/test_report_meaning.py")
    assert set(now) == set(before), "a new format: run python tests/test_report_meaning.py"


def test_the_stored_reports_show_what_they_are_kept_for():
    statuses = {name: {str(s.status) for r in stored(name).rules for s in r.scenarios}
                for name in REPORTS}
    assert {"blocked", "fail"} <= statuses["blocked-chain"]
    assert any(r.rulings for r in stored("eu-rulings").rules)
    assert "unsupported" in statuses["partial"]
    assert "xfail" in statuses["known-failing"]
    assert any(str(r.status) == "xpass" for r in stored("known-passing").rules)


if __name__ == "__main__":
    DIGESTS.write_text(json.dumps(digests(), indent=1, sort_keys=True))
