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
failures that pass and that fail). Cucumber Messages reads the feature files a report names,
which change as scenarios are written: it reads them as they were when the reports were
written (``features.tar.gz``: the bundled files they name, at 6c5d5ed; a committee's file
named by an absolute path is not at hand, and is written from the report's steps, as on any
machine without it), and two things in its output are normalised, as they are not the
report's: each ``timestamp`` (the clock when the file is written, plus the durations; the
durations themselves are compared) and the ``meta`` envelope's Python, OS, CPU and
rules-oracle version (the machine's). When a format is changed on purpose,
``python tests/test_report_meaning.py`` writes the new digests.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import tarfile
import tempfile
from pathlib import Path
from unittest import mock

import pytest

from oracle.report import Report
from oracle.report.formats import cucumber_messages, formats

DATA = Path(__file__).resolve().parent / "data" / "report-formats"
DIGESTS = DATA / "renders.sha256.json"
REPORTS = sorted(p.name.removesuffix(".json.gz") for p in DATA.glob("*.json.gz"))
FEATURES = DATA / "features.tar.gz"
MACHINE = ("runtime", "os", "cpu")
"""The ``meta`` envelope's fields that describe the machine writing the file."""


def stored(name: str) -> Report:
    return Report.from_json(json.loads(gzip.decompress((DATA / f"{name}.json.gz").read_bytes())))


def normalised(ndjson: str) -> str:
    """Cucumber Messages with the clock and the machine left out (see the module's doc)."""
    def scrub(value: object) -> object:
        if isinstance(value, dict):
            return {k: "TIME" if k == "timestamp" else scrub(v) for k, v in value.items()}
        return [scrub(v) for v in value] if isinstance(value, list) else value

    lines = []
    for line in ndjson.splitlines():
        envelope = scrub(json.loads(line))
        if "meta" in envelope:
            meta = envelope["meta"]
            meta.update(dict.fromkeys(MACHINE, "MACHINE"))
            meta["implementation"]["version"] = "VERSION"
        lines.append(json.dumps(envelope, sort_keys=True))
    return "\n".join(lines)


def digests(names: list[str] = REPORTS) -> dict[str, dict[str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(FEATURES) as archive:
            archive.extractall(tmp, filter="data")
        folder = Path(tmp)

        def stored_feature(uri: str) -> Path | None:
            path = folder / uri
            return path if not Path(uri).is_absolute() and path.is_file() else None

        with mock.patch.object(cucumber_messages, "_find", stored_feature):
            return {name: {f: hashlib.sha256(
                (normalised(fmt.render(stored(name))) if f == "cucumber_messages"
                 else fmt.render(stored(name))).encode()).hexdigest()
                for f, fmt in formats().items()}
                for name in names}


@pytest.mark.parametrize("name", REPORTS)
def test_every_format_renders_a_stored_report_as_before(name):
    before = json.loads(DIGESTS.read_text())[name]
    now = digests([name])[name]
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
