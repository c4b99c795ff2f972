"""One self-contained HTML page: findings grouped like the release notes, with a filter by level.

No network: the style and the script are inline, there are no links or images, and a Content-Security-Policy
forbids loading anything. Every string from a spec is HTML-escaped. Without JavaScript the page shows
everything; with it, unticking a level hides its findings and any heading left empty.
"""

from __future__ import annotations

import html

from specdiff.records import Finding, Level, Report
from specdiff.report import RenderOptions
from specdiff.report.sections import grouped, headed, reason, sentence
from specdiff.report.text import clean

_STYLE = """
:root { color-scheme: light dark; --breaking: #c62828; --dangerous: #b26a00; --safe: #2e7d32; --muted: #666; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem 3rem; }
h1 { font-size: 1.5rem; margin: .5rem 0; } h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .25rem; }
header p { margin: .25rem 0; color: var(--muted); }
fieldset { border: 1px solid #8884; border-radius: 6px; display: inline-flex; gap: 1.25rem; margin: .75rem 0 0; }
label { cursor: pointer; }
ul { list-style: none; margin: 0; padding: 0; }
li.finding { border-left: 4px solid var(--level); margin: .5rem 0; padding: .25rem .75rem; }
.breaking { --level: var(--breaking); } .dangerous { --level: var(--dangerous); } .safe { --level: var(--safe); }
.badge { color: var(--level); font-size: .8rem; font-weight: 600; text-transform: uppercase; }
.why, .where { color: var(--muted); font-size: .9rem; }
code { font-size: .85rem; overflow-wrap: anywhere; }
[hidden] { display: none !important; }
"""

_SCRIPT = """
(function () {
  var boxes = Array.prototype.slice.call(document.querySelectorAll("#filters input[type=checkbox]"));
  function apply() {
    var show = {}, shown = 0, total = 0;
    boxes.forEach(function (box) { show[box.value] = box.checked; });
    document.querySelectorAll("li.finding").forEach(function (item) {
      var visible = show[item.getAttribute("data-level")] === true;
      item.hidden = !visible;
      total += 1;
      shown += visible ? 1 : 0;
    });
    document.querySelectorAll("section.subject, section.part").forEach(function (section) {
      section.hidden = section.querySelector("li.finding:not([hidden])") === null;
    });
    document.getElementById("shown").textContent = shown + " of " + total + " findings shown";
  }
  boxes.forEach(function (box) { box.addEventListener("change", apply); });
  apply();
})();
"""


def escape(text: str) -> str:
    """HTML-escaped, without the control and bidi characters the text format drops (a page can be copied into a
    terminal, and reordered text misleads the reader)."""
    return html.escape(clean(text))


def coded(text: str) -> str:
    """`escape` for text whose backticks mark code (a value a message quotes): each marked span is a <code>;
    text with an unpaired backtick is escaped whole."""
    parts = text.split("`")
    if len(parts) % 2 == 0:
        return escape(text)
    return "".join(f"<code>{escape(part)}</code>" if i % 2 else escape(part) for i, part in enumerate(parts))


def render(report: Report, options: RenderOptions) -> str:
    summary = report.summary()
    header = [f"<h1>API changes: {escape(_name(report))}</h1>",
              f"<p>{escape(report.old.name)} → {escape(report.new.name)} · {escape(report.policy_label)}</p>"]
    return page(f"specdiff: {report.old.name} → {report.new.name}", header, summary, findings_html(report))


def page(title: str, header: list[str], summary: dict[str, int], main: list[str]) -> str:
    """The self-contained page around a report: the title, the header, the filter by level and the main part
    (one report's findings, or a history's steps)."""
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
           "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">",
           f"<title>{escape(title)}</title>", f"<style>{_STYLE}</style>", "</head>", "<body>", "<header>", *header,
           '<fieldset id="filters"><legend>Show</legend>']
    for level in Level:
        out.append(f'<label class="{level.value}"><input type="checkbox" id="show-{level.value}" '
                   f'value="{level.value}" checked> <span class="badge">{level.value}</span> '
                   f"({summary[level.value]})</label>")
    total = sum(summary.values())
    out += ["</fieldset>", f'<p id="shown">{total} of {total} findings shown</p>', "</header>", "<main>", *main,
            "</main>", f"<script>{_SCRIPT}</script>", "</body>", "</html>"]
    return "\n".join(out) + "\n"


def findings_html(report: Report, depth: int = 2, prefix: str = "") -> list[str]:
    """One report's findings grouped like the release notes, with its notes; `depth` is the level of the part
    headings (a history's steps sit one level above) and `prefix` keeps the part ids of several reports apart."""
    out = []
    sections = grouped(report)
    if not sections:
        out.append("<p>No changes found.</p>")
    for key, heading, subjects in sections:
        out += [f'<section class="part" id="{prefix}{key}">', f"<h{depth}>{escape(heading)}</h{depth}>"]
        for subject, findings in subjects:
            out += ['<section class="subject">', f"<h{depth + 1}>{escape(subject.title())}</h{depth + 1}>", "<ul>"]
            out += [_item(finding, not headed(subject)) for finding in findings]
            out += ["</ul>", "</section>"]
        out.append("</section>")
    if report.notes:
        out += [f'<section id="{prefix}notes">', f"<h{depth}>Notes</h{depth}>", "<ul>"]
        out += [f"<li>{escape(note)}</li>" for note in report.notes]
        out += ["</ul>", "</section>"]
    return out


def _name(report: Report) -> str:
    old, new = report.old, report.new
    name = new.title or old.title or new.name
    if old.version and new.version and old.version != new.version:
        return f"{name} {old.version} → {new.version}"
    return name


def _item(finding: Finding, scoped: bool) -> str:
    level = finding.level.value
    message = coded(sentence(finding, scoped=scoped))
    return (f'<li class="finding {level}" data-level="{level}">'
            f'<span class="badge">{level}</span> <span class="message">{message}</span> '
            f'<code class="rule">{escape(finding.rule)}</code>'
            f'<div class="why">{escape(reason(finding))}</div>'
            f'<div class="where"><code>{escape(finding.change.pointer)}</code></div></li>')
