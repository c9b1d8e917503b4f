"""The shell of an HTML report: one self-contained page, its style, its script, its filters.

Why so strict: the page is opened from a CI artifact or a mail attachment, often offline, and
shows text an engine wrote. So it loads nothing (no CDN, no font, no image: a
Content-Security-Policy of ``default-src 'none'`` makes sure), every piece of text goes
through ``esc``, and the one script and the one style sheet are allowed by their hashes only:
an engine message that slipped past escaping still could not run a script. The summary and
the tables are rendered here, on the server side; the script only filters rows and opens
the ``<details>`` a link points into, so the page reads without JavaScript.
"""

from __future__ import annotations

import base64
import hashlib
import html
from collections.abc import Iterable
from urllib.parse import quote

from oracle.report.model import FAILING, RULE_STATUSES, Status

CSS = """
:root{--fg:#1b1f24;--mute:#57606a;--line:#d0d7de;--bg2:#f6f8fa}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);
margin:0 auto;padding:1rem 1.5rem;max-width:80rem}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1.4rem 0 .5rem}
code,pre,.id{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12.5px}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:.3rem 0;background:var(--bg2);
padding:.4rem .6rem;border-radius:4px}
table{border-collapse:collapse;margin:.4rem 0}
th,td{border:1px solid var(--line);padding:.2rem .5rem;text-align:left;vertical-align:top}
thead th{background:var(--bg2)}td.n{text-align:right}
.verdict{font-weight:600}.good{color:#1a7f37}.bad{color:#cf222e}
.mute,.loc,.dur{color:var(--mute)}
.st{display:inline-block;min-width:5.5em;padding:0 .4em;border-radius:3px;font-weight:600;
text-align:center;background:#eaeef2;color:#24292f;text-decoration:none}
a.st:hover{outline:2px solid #0969da}
.st-pass{background:#dafbe1;color:#116329}.st-fail{background:#ffebe9;color:#a40e26}
.st-error{background:#8250df;color:#fff}.st-unsupported{background:#ddf4ff;color:#0a3069}
.st-xfail{background:#fff1e5;color:#953800}.st-xpass{background:#fff8c5;color:#7d4e00}
.st-untestable{background:#eaeef2;color:#57606a}.st-uncovered{background:#f6f8fa;color:#8c959f}
.st-blocked{background:#fbefff;color:#6e40c9}.st-flaky{background:#fff0f6;color:#99286e}.st-interrupted{background:#ffe2cc;color:#762c00}
dl.engine{display:grid;grid-template-columns:max-content 1fr;gap:0 1rem;margin:.4rem 0}
dl.engine dt{font-weight:600}dl.engine dd{margin:0}
summary code.id{display:inline-block;min-width:15em}
details{margin:.15rem 0}summary{cursor:pointer}
details.rule,details.engine{border:1px solid var(--line);border-radius:4px;padding:.2rem .5rem}
details.rule>summary>.text{color:var(--mute)}
.scenarios,.rulings{list-style:none;padding-left:1rem;margin:.3rem 0}
details.ruling{border-left:3px solid var(--line);padding-left:.5rem}
.standing{font-weight:600}
dl.provenance{display:grid;grid-template-columns:max-content 1fr;gap:0 1rem;
margin:.2rem 0 .2rem 1rem}
dl.provenance dt{font-weight:600}dl.provenance dd{margin:0;overflow-wrap:anywhere}
.chain{color:#6e40c9;font-size:.92em}
.msg{margin:.2rem 0 .6rem 1.2rem}.step{font-weight:600}
ol.exchanges{padding-left:1.2rem;margin:.2rem 0}
ol.exchanges li{font-family:ui-monospace,monospace;font-size:12px;overflow-wrap:anywhere}
li.req{color:#0550ae}li.rep{color:#116329}
#filters{display:flex;flex-wrap:wrap;gap:.3rem 1rem;align-items:center;padding:.5rem;
background:var(--bg2);border:1px solid var(--line);border-radius:4px;margin:.5rem 0}
#filters label{white-space:nowrap}
table.matrix th code.id{white-space:nowrap}
table.matrix td.text{color:var(--mute);min-width:18rem}
table.matrix th small{font-weight:400;color:var(--mute);display:block;max-width:12rem;
overflow-wrap:anywhere}
:target,.rule:target>summary{outline:2px solid #0969da}
.st-covered{background:#dafbe1;color:#116329}.st-waived{background:#eaeef2;color:#57606a}
.st-context{background:#ddf4ff;color:#0a3069}
main.coverage .st-uncovered{background:#ffebe9;color:#a40e26}
.law h3{margin:1.2rem 0 .3rem}.law h4{margin:.8rem 0 .2rem;font-size:.95rem}
.law h4 .mute{font-weight:400}
.sentence{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:.2rem 1.2rem;
padding:.35rem .6rem;margin:.15rem 0;border-left:4px solid var(--line)}
.sentence>.words{font:15px/1.5 Georgia,"DejaVu Serif",serif}
.sentence a.anchor{font:12px ui-monospace,monospace;color:var(--mute);text-decoration:none;
margin-right:.3rem}
.sentence.s-covered{border-left-color:#1a7f37}.sentence.s-waived{border-left-color:#8c959f}
.sentence.s-uncovered{border-left-color:#cf222e;background:#fff5f5}
.sentence.s-context{border-left-color:#0969da}
.sentence .reason{margin:.2rem 0 0;font-size:13px}
.checks ul{list-style:none;padding:0;margin:0}.checks li{margin:.1rem 0}
.checks .none{color:#a40e26;font-weight:600}.kills summary{color:var(--mute)}
@media (max-width:56rem){.sentence{grid-template-columns:1fr}}
[hidden]{display:none!important}
"""

JS = """
"use strict";
(function () {
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id ? document.getElementById(id) : null;
    for (; el; el = el.parentElement) {
      if (el.tagName === "DETAILS") { el.open = true; }
    }
  }
  window.addEventListener("hashchange", reveal);
  reveal();
  var bar = document.getElementById("filters");
  if (!bar) { return; }
  bar.hidden = false;
  var rows = Array.prototype.slice.call(document.querySelectorAll("[data-row]"));
  var boxes = Array.prototype.slice.call(bar.querySelectorAll("input[name=status]"));
  var game = bar.querySelector("select[name=game]");
  var query = bar.querySelector("input[name=q]");
  var groups = Array.prototype.slice.call(document.querySelectorAll("[data-group]"));
  var shown = document.getElementById("shown");
  function apply() {
    var want = {}, text = query.value.trim().toLowerCase(), n = 0;
    boxes.forEach(function (b) { if (b.checked) { want[b.value] = true; } });
    rows.forEach(function (row) {
      var ok = row.dataset.statuses.split(" ").some(function (s) { return want[s]; }) &&
        (!game.value || row.dataset.game === game.value) &&
        (!text || row.dataset.search.indexOf(text) >= 0);
      row.hidden = !ok;
      if (ok) { n += 1; }
    });
    groups.forEach(function (g) { g.hidden = !g.querySelector("[data-row]:not([hidden])"); });
    shown.textContent = String(n);
  }
  bar.addEventListener("input", apply);
  bar.addEventListener("change", apply);
  bar.querySelectorAll("button[data-pick]").forEach(function (button) {
    button.addEventListener("click", function () {
      var pick = button.dataset.pick;
      boxes.forEach(function (b) {
        b.checked = pick === "all" || (pick === "failing" && b.dataset.failing === "1") ||
          b.value === pick;
      });
      apply();
    });
  });
  apply();
}());
"""


def esc(text: object) -> str:
    """Any text, engine-provided or not, safe as HTML content or a quoted attribute."""
    return html.escape(str(text), quote=True)


def href(anchor: str) -> str:
    """A link to an element id, as an escaped ``href`` value."""
    return esc("#" + quote(anchor, safe=":/.-_~"))


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


CSP = (f"default-src 'none'; style-src {_hash(CSS)}; script-src {_hash(JS)}; "
       "img-src 'none'; base-uri 'none'; form-action 'none'")


INTERRUPTED_LINE = "<!-- rules-oracle: interrupted run, this report is partial -->\n"


def page(title: str, body: str, interrupted: bool = False) -> str:
    """A whole HTML document: ``body`` (already escaped HTML) in the report's shell.

    An interrupted run's page says so in a comment on its first line (allowed before
    the doctype without leaving standards mode), as every format does, so a tool that
    reads only the head of a file (``head -1``, a CI log) cannot take it for complete.
    """
    return ((INTERRUPTED_LINE if interrupted else "")
            + '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n{body}\n"
            f"<script>{JS}</script>\n</body>\n</html>\n")


def status_order(present: Iterable[str], first: Iterable[str] = ()) -> list[str]:
    """Statuses in report order (every ``Status`` member known), unknown ones after;
    ``first``: statuses of another kind of row (a sentence's) to put before them."""
    present = set(present)
    known = list(dict.fromkeys([*first, *(str(s) for s in RULE_STATUSES),
                                *(str(s) for s in Status if s not in RULE_STATUSES)]))
    return [s for s in known if s in present] + sorted(present - set(known))


def badge(status: object, link: str | None = None) -> str:
    """A status as a coloured label (a link when ``link`` is given); unknown ones as text."""
    cls = f"st st-{esc(status)}"
    if link is None:
        return f'<span class="{cls}">{esc(status)}</span>'
    return f'<a class="{cls}" href="{href(link)}">{esc(status)}</a>'


def filter_bar(counts: dict[str, int], games: list[str], total: int, what: str,
               picks: Iterable[str] = ("failing",), search: str = "rule",
               first: Iterable[str] = ()) -> str:
    """The filters (hidden until the script runs, since they need it): statuses (with how
    many rows show each), buttons that pick all of them or some (``failing``: fail and
    error; any status: that one only), game, text. Rows are ``[data-row]`` elements; a
    ``[data-group]`` element holding rows is hidden when all of its rows are."""
    failing = {str(s) for s in FAILING}
    boxes = "".join(
        f'<label><input type="checkbox" name="status" value="{esc(s)}" checked '
        f'data-failing="{int(s in failing)}"> {badge(s)} {counts[s]}</label>'
        for s in status_order(counts, first))
    options = "".join(f'<option value="{esc(g)}">{esc(g)}</option>' for g in games)
    return (f'<div id="filters" role="search" hidden>{boxes}'
            '<button type="button" data-pick="all">all</button>'
            + "".join(f'<button type="button" data-pick="{esc(p)}">{esc(p)} only</button>'
                      for p in picks) +
            f'<label>game <select name="game"><option value="">every game</option>{options}'
            f'</select></label><label>{esc(search)} <input type="search" name="q" '
            'placeholder="id or text"></label>'
            f'<span class="mute">showing <b id="shown">{total}</b> of {total} {esc(what)}'
            "</span></div>")


def row_attrs(statuses: Iterable[object], game: str, search: str) -> str:
    """The attributes the filters read on a row (a rule, or a matrix line)."""
    joined = " ".join(dict.fromkeys(str(s) for s in statuses))
    return (f'data-row data-statuses="{esc(joined)}" data-game="{esc(game)}" '
            f'data-search="{esc(search.lower())}"')
