"""Cucumber JSON from the report (``--cucumber PATH``), with the rule tags.

Why our own rather than pytest-bdd's ``--cucumberjson``: that one leaves the tags empty
(ours are rule ids, ``@ti4:2.4``) and writes ``[]`` under pytest-xdist. This one is written
from the report, on the controller, from the steps each scenario recorded as it ran.
"""

from __future__ import annotations

import json
import re
from typing import Any

from oracle.report.formats import Format
from oracle.report.model import Report, ScenarioResult, Status


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _steps(scenario: ScenarioResult, probe: bool = False) -> list[dict[str, Any]]:
    # A known failure, or a probe (a ruling not official yet): pending, not failed.
    known = scenario.known or probe
    steps = []
    for step in scenario.steps:
        status = step.status
        if status == "failed" and known:
            status = "pending"
        if not scenario.played:
            status = "skipped"
        result: dict[str, Any] = {"status": status, "duration": 0}
        if step.status == "failed":
            result["error_message"] = scenario.message
        steps.append({"keyword": f"{step.keyword} ", "name": step.text, "line": step.line,
                      "result": result})
    if not steps:  # exploration, or a scenario that ended before its first step
        status = {Status.PASS: "passed", Status.XPASS: "passed", Status.XFAIL: "pending"}.get(
            scenario.status, "failed" if scenario.failing and not probe
            else "pending" if probe else "skipped")
        steps.append({"keyword": "Then ", "name": scenario.name, "line": 0,
                      "result": {"status": status, "duration": 0,
                                 **({"error_message": scenario.message}
                                    if status != "passed" else {})}})
    return steps


def render_cucumber(report: Report) -> str:
    features: dict[str, dict[str, Any]] = {}
    elements: dict[tuple[str, str], dict[str, Any]] = {}
    for rule in report.rules:
        # A ruling's scenarios too, tagged with the rule and the ruling (its id and standing)
        ruled = [(s, None) for s in rule.scenarios] + [
            (s, g) for g in rule.rulings for s in g.scenarios]
        for scenario, ruling in ruled:
            uri, _, line = scenario.location.rpartition(":")
            uri = uri or scenario.location
            key = (scenario.location, scenario.name)
            if key in elements:  # a scenario citing several rules: one element, every tag
                elements[key]["tags"].append({"name": f"@{rule.id}", "line": 0})
                continue
            feature = features.setdefault(uri, {
                "uri": uri, "id": _slug(uri), "name": uri, "keyword": "Feature",
                "line": 1, "description": "", "tags": [], "elements": []})
            element = {"id": f"{_slug(uri)};{_slug(scenario.name)}", "keyword": "Scenario",
                       "name": scenario.name, "type": "scenario", "description": "",
                       "line": int(line) if line.isdigit() else 0,
                       "tags": [{"name": f"@{rule.id}", "line": 0}],
                       "steps": _steps(scenario, ruling is not None and ruling.probe)}
            if ruling is not None:
                element["description"] = (f"Ruling {ruling.id} ({ruling.status_text}): "
                                          f"{ruling.provenance()}")
            elements[key] = element
            feature["elements"].append(element)
    out = list(features.values())
    if report.interrupted:  # said first: a partial run's features are incomplete
        marker = {"uri": "INTERRUPTED", "id": "interrupted", "keyword": "Feature",
                  "name": "INTERRUPTED: a partial report of the scenarios that ran",
                  "line": 1, "description": "", "tags": [], "elements": []}
        return "[" + json.dumps(marker) + "".join(",\n" + json.dumps(f, indent=2)
                                                  for f in out) + "]\n"
    return json.dumps(out, indent=2) + "\n"


FORMAT = Format("cucumber", "write the scenarios as Cucumber JSON, tagged with their rule ids",
                render_cucumber)
