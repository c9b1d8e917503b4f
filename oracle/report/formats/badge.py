"""A status badge: shields.io's endpoint JSON (``--badge PATH``).

Why this format: a README badge is how an engine shows its conformance at a glance, and
shields.io renders any URL that serves ``{"schemaVersion": 1, "label", "message",
"color"}``; a CI job publishes this file (a gist, GitHub Pages) and the badge follows it.
Written on one line, so that an interrupted run's badge says so on its first line.
"""

from __future__ import annotations

import json

from oracle.report.formats import Format
from oracle.report.model import Report


def render_badge(report: Report) -> str:
    rules = report.applicable()
    failing = sum(r.failing for r in rules)
    passing = sum(r.passing for r in rules)
    tested = report.tested()
    if report.interrupted:
        message, color = "interrupted", "lightgrey"
    elif failing:
        message, color = f"{failing} of {len(rules)} rules fail", "red"
    elif not tested:
        message, color = "nothing tested", "lightgrey"
    else:
        message = f"{passing}/{len(rules)} rules pass"
        color = "brightgreen" if passing == len(rules) else "yellow"
    return json.dumps({"schemaVersion": 1, "label": "rules-oracle", "message": message,
                       "color": color}) + "\n"


FORMAT = Format("badge", "write a shields.io endpoint badge (JSON) of the rules that pass",
                render_badge)
