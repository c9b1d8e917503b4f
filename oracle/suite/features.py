"""Feature files read once into one model that everything else reads.

Why our own model: pytest-bdd's parsed feature keeps scenarios in a dict by name (two
scenarios with one name silently become one) and drops the line numbers of tags. The
suite checks need both, and the collector, the checks and the reports should all read the
same parse. So each file is parsed once (cached by path, size and modification time) into
frozen values carrying what a scenario inherits: the feature's and the rule's tags, the
backgrounds' steps, and every step's resolved kind (``And`` and ``But`` take the kind of the
step before them).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from oracle.suite.documents import Document, GherkinSyntaxError, gherkin_document

STEP_KINDS = {"Context": "given", "Action": "when", "Outcome": "then"}


class FeatureSyntaxError(Exception):
    """A feature file that does not parse: where, the offending text, and why."""

    def __init__(self, path: Path, line: int, text: str, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.text, self.message = path, line, text, message


@dataclass(frozen=True, slots=True)
class TagLine:
    name: str  # without the "@"
    line: int


@dataclass(frozen=True, slots=True)
class StepLine:
    keyword: str  # as written: "Given", "And", ...
    kind: str  # "given", "when" or "then"
    text: str
    line: int

    def __str__(self) -> str:
        return f"{self.keyword} {self.text}"


@dataclass(frozen=True)
class ScenarioDoc:
    """One scenario, with everything it inherits from its feature and rule."""

    name: str
    path: Path
    line: int
    tags: tuple[TagLine, ...]
    steps: tuple[StepLine, ...]  # background steps first
    description: str = ""
    rule: str = ""  # the name of the Rule: block it sits in, if any
    rule_description: str = ""
    outline: bool = False  # a Scenario Outline (steps hold <placeholders>)
    #: An outline's example rows, each a mapping of placeholder to value.
    examples: tuple[tuple[tuple[str, str], ...], ...] = ()
    #: The lines of the scenario's and its rule's descriptions (for keyed lines' locations).
    description_line: int = 0
    rule_line: int = 0
    rule_description_line: int = 0
    language: str = "en"

    @property
    def tag_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.tags)

    def rendered(self) -> list[tuple[StepLine, ...]]:
        """The steps as they run: once, or once per example row with placeholders filled."""
        return list(self._rendered)

    @functools.cached_property
    def _rendered(self) -> tuple[tuple[StepLine, ...], ...]:
        """Filled in once: each suite check asks, and a large suite has thousands of rows."""
        if not self.examples:
            return (self.steps,)
        out = []
        for row in self.examples:
            values = dict(row)
            out.append(tuple(s if (text := _fill(s.text, values)) == s.text
                             else StepLine(s.keyword, s.kind, text, s.line)
                             for s in self.steps))  # a step without placeholders: shared
        return tuple(out)

    def description_value(self, key: str) -> str | None:
        """The value of a ``Key: value`` line of the scenario's description, if any."""
        for line in keyed_lines(self.description, self.description_line):
            if line.key.lower() == key.lower():
                return line.value
        return None

    def keyed(self) -> tuple[KeyedLine, ...]:
        """Every ``Key: value`` line of the rule's description, then of the scenario's: what
        a scenario says about itself (a twin, a ruling's provenance) and inherits."""
        return (*keyed_lines(self.rule_description, self.rule_description_line, "rule"),
                *keyed_lines(self.description, self.description_line))

    @functools.cached_property
    def citations(self) -> tuple[Citation, ...]:
        """The sentences the scenario cites: its ``Rule:`` block's ``Cites:`` lines, then its
        own (each adds to the others)."""
        return tuple(Citation.of(line) for line in self.keyed()
                     if line.key.lower() == CITES_KEY.lower())

    @property
    def cited_anchors(self) -> tuple[str, ...]:
        """The anchors cited, once each, in the order written (what a verdict carries)."""
        return tuple(dict.fromkeys(c.anchor for c in self.citations if c.anchor))


@dataclass(frozen=True)
class KeyedLine:
    """A ``Key: value`` line of a description, and where it is."""

    key: str
    value: str
    line: int
    #: "rule" for a line of the Rule: block's description, "scenario" for the scenario's.
    where: str = "scenario"


_KEY = re.compile(r"^\s*(?P<key>[^\W\d][\w -]{0,40}?)\s*:\s*(?P<value>.*?)\s*$")


def keyed_lines(description: str, first_line: int = 0, where: str = "scenario"
                ) -> tuple[KeyedLine, ...]:
    """The ``Key: value`` lines of a description; ``first_line`` is the file line of its first
    line (0 when unknown)."""
    out = []
    for offset, text in enumerate(description.splitlines()):
        m = _KEY.match(text)
        if m and not m["value"].startswith("//"):  # "https://..." alone is no key
            out.append(KeyedLine(m["key"].strip(), m["value"],
                                 first_line + offset if first_line else 0, where))
    return tuple(out)


CITES_KEY = "Cites"
#: A sentence anchor: ``GAME:ID#N`` (``ti4:2.4#2``, ``ti4:81.3#1``, ``eu-pop:6.decks.4#1``).
ANCHOR = re.compile(r"^(?P<game>[a-z0-9][a-z0-9_-]*):(?P<id>[^\s#]+)#(?P<n>[1-9]\d*)$")
#: The quotation marks a citation's quote may be written between (outermost pair).
QUOTES = {'"': '"', "\u201c": "\u201d", "\u00ab": "\u00bb", "'": "'"}


@dataclass(frozen=True)
class Citation:
    """One ``Cites: ANCHOR "quote"`` line: the sentence cited, an optional short quote that
    must occur in it, and where the line is. ``anchor`` is empty when the line does not read
    as one (``error`` says why; the suite checks report it)."""

    anchor: str
    quote: str | None
    line: int
    where: str  # "rule" (the Rule: block's description) or "scenario"
    text: str  # the value as written
    error: str = ""

    @property
    def rule(self) -> str:
        """The rule (or context chapter item) id the anchor names: ``ti4:2.4`` of ``ti4:2.4#2``."""
        return self.anchor.partition("#")[0]

    @classmethod
    def of(cls, line: KeyedLine) -> Citation:
        value = line.value.strip()
        head, _, rest = value.partition(" ")
        rest = rest.strip()
        quote = None
        error = ""
        if rest:
            close = QUOTES.get(rest[0])
            if close is None or len(rest) < 3 or not rest.endswith(close):
                error = ("after the anchor, only a short quote between double quotes may "
                         "follow, e.g. Cites: ti4:2.4#2 \"must choose seven cards to keep\"; "
                         "cite one anchor per line")
            else:
                quote = rest[1:-1].strip()
        if not error and not ANCHOR.match(head):
            error = (f"{head!r} is not a sentence anchor: write GAME:RULE#N, the N-th sentence "
                     "of a rule, e.g. Cites: ti4:2.4#2")
        return cls("" if error else head, quote, line.line, line.where, value, error)


def _fill(text: str, values: dict[str, str]) -> str:
    for name, value in values.items():
        text = text.replace(f"<{name}>", value)
    return text


@dataclass(frozen=True)
class FeatureDoc:
    path: Path
    name: str
    language: str
    description: str
    scenarios: tuple[ScenarioDoc, ...]

    @functools.cached_property
    def by_name(self) -> dict[str, ScenarioDoc]:
        """The scenarios by name (the first of two with one name: the suite checks refuse
        the second)."""
        found: dict[str, ScenarioDoc] = {}
        for scenario in self.scenarios:
            found.setdefault(scenario.name, scenario)
        return found


def read_feature(path: Path) -> FeatureDoc:
    """The parsed feature file (cached while the file is unchanged)."""
    stat = path.stat()
    return _read(path.resolve(), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=4096)
def _read(path: Path, size: int, mtime: int) -> FeatureDoc:
    try:
        doc = gherkin_document(path)
    except GherkinSyntaxError as exc:
        raise FeatureSyntaxError(path, exc.line, exc.text,
                                 f"the feature file does not parse: {exc.message}") from exc
    feature = doc.get("feature")
    if feature is None:
        raise FeatureSyntaxError(path, 1, "", "the feature file holds no 'Feature:' line; "
                                 "a feature file starts with one (after its tags)")
    lines = path.read_text(encoding="utf-8").splitlines()
    scenarios: list[ScenarioDoc] = []
    background: tuple[StepLine, ...] = ()
    feature_tags = _tags(feature["tags"])
    for child in feature["children"]:
        if child.get("background"):
            background = _steps(child["background"]["steps"])
        if child.get("scenario"):
            scenarios.append(_scenario(path, child["scenario"], feature_tags, background,
                                       lines=lines, language=feature["language"]))
        if child.get("rule"):
            rule = child["rule"]
            rule_background = background
            for sub in rule["children"]:
                if sub.get("background"):
                    rule_background = background + _steps(sub["background"]["steps"])
                if sub.get("scenario"):
                    scenarios.append(_scenario(
                        path, sub["scenario"], feature_tags + _tags(rule["tags"]),
                        rule_background, rule=rule["name"],
                        rule_description=rule["description"],
                        rule_line=rule["location"]["line"], lines=lines,
                        language=feature["language"]))
    return FeatureDoc(path, feature["name"], feature["language"], feature["description"],
                      tuple(scenarios))


def _tags(tags: list[Document]) -> tuple[TagLine, ...]:
    return tuple(TagLine(t["name"].lstrip("@"), t["location"]["line"]) for t in tags)


def _steps(steps: list[Document], kind: str = "given") -> tuple[StepLine, ...]:
    out = []
    for step in steps:
        kind = STEP_KINDS.get(step["keywordType"], kind)
        out.append(StepLine(step["keyword"].strip(), kind, step["text"],
                            step["location"]["line"]))
    return tuple(out)


def _description_line(lines: list[str], keyword_line: int, description: str) -> int:
    """The file line of a description's first line: the first non-blank after its keyword."""
    if not description:
        return 0
    for number in range(keyword_line + 1, len(lines) + 1):
        if lines[number - 1].strip():
            return number
    return 0


def _scenario(path: Path, s: Document, inherited: tuple[TagLine, ...],
              background: tuple[StepLine, ...], *, rule: str = "",
              rule_description: str = "", rule_line: int = 0, lines: list[str] | None = None,
              language: str = "en") -> ScenarioDoc:
    own = _steps(s["steps"])
    lines = lines or []
    line = s["location"]["line"]
    return ScenarioDoc(
        name=s["name"], path=path, line=line,
        tags=inherited + _tags(s["tags"]), steps=background + own,
        description=s["description"], rule=rule,
        rule_description=rule_description,
        outline=bool(s["examples"]),
        examples=_examples(s["examples"]),
        description_line=_description_line(lines, line, s["description"]),
        rule_line=rule_line,
        rule_description_line=_description_line(lines, rule_line, rule_description),
        language=language or "en",
    )


def _examples(tables: list[Document]) -> tuple[tuple[tuple[str, str], ...], ...]:
    rows = []
    for table in tables:
        if not table.get("tableHeader"):
            continue
        names = [c["value"] for c in table["tableHeader"]["cells"]]
        for row in table.get("tableBody") or []:
            rows.append(tuple(zip(names, (c["value"] for c in row["cells"]), strict=False)))
    return tuple(rows)
