"""A pull-request comment: counts, breaking changes in a table, the rest folded away.

Everything taken from a spec is escaped, so a spec cannot inject markup, links, mentions or HTML; the comment
starts with a hidden marker so a bot can find and update it, and stays under GitHub's size limit.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial

from specdiff.frozen import record
from specdiff.notation import beside, finding_name, finding_scope, outline, where
from specdiff.records import Finding, Level, Report
from specdiff.report import RenderOptions
from specdiff.report.sections import sentence

MARKER = "<!-- specdiff -->"
GITHUB_LIMIT = 65536  # characters in one comment (counted here in UTF-16 units, the stricter count)
SUMMARY_LIMIT = 1024 * 1024  # bytes of UTF-8 in one step's job summary
_RESERVE = 600  # room kept for the truncation note and the closing lines
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
#: what GitHub turns into a link, mention, reference, emoji or math after Markdown is rendered: @mentions, e-mail
#: addresses, #123 and owner/repo#123, GH-123, commit hashes, :emoji:, URLs with a scheme, www. links (GitHub
#: links them at a word's start and after `(`, `*`, `_` or `~`, escaped or not), $math$
_LIVE = re.compile(r"@\w|#\d|\$|:[\w+-]+:|://|\b(?:mailto|xmpp):|\bGH-\d|(?:^|[(*_~])www\.|\b[0-9a-f]{7,40}\b",
                   re.IGNORECASE)
_ICONS = {Level.BREAKING: "🔴", Level.DANGEROUS: "🟠", Level.SAFE: "🟢"}


def escape(text: str, table: bool = False) -> str:
    """Neutralise Markdown, HTML, autolinks, @mentions, references and math in text that came from a spec.

    A word that GitHub would turn into something live (a mention, an issue or commit reference, an e-mail, a
    URL, an emoji, math) becomes a code span, which GitHub leaves as it is and which copies as written; in the
    other words the characters that open inline markup are backslash-escaped, so `<b>` and `&lt;` are text,
    `[x](y)` is not a link, `*`, `_` and backticks format nothing and `|` does not end a table cell (`table`:
    inside a table, where a code span's `|` needs its backslash too). Line breaks become spaces, so a finding
    stays on its line or table row, and control and invisible characters (bidirectional overrides included)
    are dropped. Callers never start a line with escaped text, so block syntax (`- `, `1.`, `---`) cannot begin.
    """
    words = " ".join(_CONTROL.sub(" ", text).split()).split(" ")
    return " ".join(_word(word, table) for word in words if word)


def _word(word: str, table: bool) -> str:
    if _LIVE.search(word):
        return _spanned(word, table)
    return _MARKDOWN_SPECIAL.sub(r"\\\1", word)


def coded(text: str, table: bool = False, plain: Callable[[str], str] | None = None) -> str:
    """`escape` for text whose backticks mark code (a card's `oneOf`, a value a message quotes, `literal`): each
    marked span becomes a code span, the rest is escaped (by `plain`, which keeps the spaces at its ends, when
    given); text with an unpaired backtick is escaped whole."""
    parts = text.split("`")
    if len(parts) % 2 == 0:
        parts = [text]
    escaped = plain or partial(escaped_part, table=table)
    return "".join(_spanned(part, table) if i % 2 else escaped(part) for i, part in enumerate(parts)).strip()


def _spanned(text: str, table: bool) -> str:
    span = code_span(text)
    return span.replace("|", "\\|") if table else span


def escaped_part(part: str, table: bool = False) -> str:
    """`escape` that keeps the spaces at the ends, which separate the part from a code span beside it."""
    inner = escape(part, table)
    if not inner:
        return " " if part[:1].isspace() else ""
    return (" " if part[:1].isspace() else "") + inner + (" " if part[-1:].isspace() else "")


def code_span(text: str) -> str:
    """Text from a spec as inline code: nothing in it is markup, a link or a mention, and it copies as it is.

    The fence is one backtick longer than the longest run inside; a space pads text that starts or ends with a
    backtick. Line breaks become spaces and control characters are dropped, as in `escape`.
    """
    text = " ".join(_CONTROL.sub(" ", text).split()) or " "
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text[0] == "`" or text[-1] == "`" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


_TICKS = re.compile(r"`+")


def code_spans(line: str) -> list[tuple[int, int]]:
    """Where a line's code spans are, (start, end), as CommonMark reads them: a run of n backticks opens a span
    that the next run of exactly n closes, backslashes being literal inside; outside, a backslash escapes the
    backtick after it. Read this way, not by counting backticks, a span whose fence is longer than one backtick
    or whose text ends in a backslash is one span. Linear: each run is looked at once, its closer found by
    bisection among the runs of its length."""
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(line)]
    by_length: dict[int, list[int]] = {}
    for k, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(k)
    spans: list[tuple[int, int]] = []
    k, outside = 0, 0
    while k < len(runs):
        start, end = runs[k]
        slashes = 0
        while start - slashes > outside and line[start - slashes - 1] == "\\":
            slashes += 1
        opener = start + slashes % 2  # an escaped backtick is text; the rest of the run may still open a span
        later = by_length.get(end - opener, [])
        closer = bisect.bisect_right(later, k)
        if opener < end and closer < len(later):
            spans.append((opener, runs[later[closer]][1]))
            outside, k = runs[later[closer]][1], later[closer] + 1
        else:
            k += 1
    return spans


#: what starts a block at a line's start: a list item, heading, quote, underline, table, or a code fence
_STARTS_BLOCK = re.compile(r"[-+*#>=|]|\d+[.)]|`{3}|~{3}")
_BULLET = re.compile(r" *(?:-|\d+[.)]) ")
#: the longest line a markdown report writes where it can break one: a bullet, a legend's reason
WIDTH = 200


def wrapped(text: str, width: int) -> str:
    """Lines past `width` broken at a space outside code spans (`code_spans`), the next line indented under a
    bullet's text: the same paragraph once rendered. No break goes inside a code span, which would end it and let
    its text render as markup, nor before a word that would start a list, quote, heading or fence there."""
    out = []
    for line in text.split("\n"):
        lead = _BULLET.match(line)
        indent = " " * len(lead.group(0)) if lead else ""
        spans = code_spans(line)
        inside = bytearray(len(line))
        for start, end in spans:
            inside[start:end] = b"\x01" * (end - start)
        start, prefix = 0, ""
        while len(prefix) + len(line) - start > width:
            # positions in the line as written now (prefix + line[start:]) from len(indent) + 2 up to width
            low, high = start + len(indent) + 2 - len(prefix), start + width - len(prefix)
            breaks = [i for i in range(max(low, start), min(high, len(line))) if line[i] == " " and not inside[i]
                      and not _STARTS_BLOCK.match(line, i + 1)]
            if not breaks:
                break
            out.append(prefix + line[start:breaks[-1]])
            start, prefix = breaks[-1] + 1, indent
        out.append(prefix + line[start:])
    return "\n".join(out)


def _row(finding: Finding, members: bool = True, shared: Mapping[str, int] | None = None) -> str:
    said = sentence(finding, scoped=False)
    change = coded(said if finding.members else beside(said, finding.change.context), table=True)
    number = (shared or {}).get(finding.reason)
    why = f"reason {number} (below)" if number is not None else escape(finding.reason, table=True)
    return f"| `{finding.rule}` | {_where(finding, members)} | {change} | {why} |"


def shared_reasons(findings: Sequence[Finding]) -> dict[str, int]:
    """The reasons several rows give, numbered in the order they first come: a table gives each once, under
    it, so 13 rows with one 200-character reason stay scannable (each row says which reason is its)."""
    counts = Counter(f.reason for f in findings)
    return {reason: i for i, reason in enumerate((r for r in dict.fromkeys(f.reason for f in findings)
                                                  if counts[r] > 1), start=1)}


def _legend(shared: Mapping[str, int]) -> list[str]:
    """The shared reasons under their table, as a numbered list whose numbers the rows name."""
    return ["", *(wrapped(f"{number}. {escape(reason)}", WIDTH) for reason, number in shared.items())] if shared else []


_MEMBERS = 20  # places a group's row lists before "and N more"


def _where(finding: Finding, members: bool) -> str:
    """The place at a glance (the group-version the message's short names leave out, the operation, the CRD's
    kind), or a group's count of places with the first of them (left out when room is short, or when the places
    differ only in the group-versions already given)."""
    if not finding.members:
        return escape(outline(finding.change.context), table=True)
    scope = escape(finding_scope(finding), table=True)
    count = f"{scope} ({len(finding.members)} places)" if scope else f"{len(finding.members)} places"
    if not members or (scope and len({finding_name(m) for m in finding.members}) == 1):
        return count
    shown = [escape(where(m.change.context), table=True) for m in finding.members[:_MEMBERS]]
    more = len(finding.members) - len(shown)
    return "<br>".join([count + ":", *shown] + ([f"and {more} more"] if more else []))


_TABLE_HEAD = ("| rule | where | change | why |", "|---|---|---|---|")


def render(report: Report, options: RenderOptions) -> str:
    """The pull-request comment, cut to GitHub's comment limit."""
    return sized(report, Fit(GITHUB_LIMIT, _utf16_units, "comment; the job summary, "))


def render_summary(report: Report, options: RenderOptions) -> str:
    """The same report for a job summary, which may be 16 times longer than a comment."""
    return sized(report, Fit(SUMMARY_LIMIT, _utf8_bytes, "job summary; "))


def section(report: Report, title: tuple[str, ...]) -> str:
    """The report as one section of a longer page (a history's step), under its own heading, as long as a job
    summary allows."""
    return sized(report, Fit(SUMMARY_LIMIT, _utf8_bytes, "job summary; "), title)


def sized(report: Report, fit: Fit, title: tuple[str, ...] = (MARKER, "### specdiff: API compatibility")) -> str:
    """The report in Markdown under `title` (a history gives each step its own heading and no marker)."""
    summary = report.summary()
    head = [*title,
            f"{code_span(_clip(report.old.name))} → {code_span(_clip(report.new.name))} · "
            f"{escape(_clip(report.policy_label))} · "
            + " · ".join(f"{_ICONS[level]} **{summary[level.value]}** {level.value}" for level in Level), ""]
    notes = _notes(report.notes, fit)
    if not report.findings:
        return "\n".join(head + ["No changes found.", ""] + notes)
    blocks: list[Block] = []
    breaking = [f for f in report.findings if f.level is Level.BREAKING]
    if breaking:
        shared = shared_reasons(breaking)
        blocks.append(Block(["#### Breaking changes", *_TABLE_HEAD], breaking, [*_legend(shared), ""], shared))
    for level in (Level.DANGEROUS, Level.SAFE):
        chosen = [f for f in report.findings if f.level is level]
        if chosen:
            plural = "s" if len(chosen) != 1 else ""
            opening = [f"<details><summary>{_ICONS[level]} {len(chosen)} {level.value} change{plural}</summary>",
                       "", *_TABLE_HEAD]
            shared = shared_reasons(chosen)
            blocks.append(Block(opening, chosen, [*_legend(shared), "", "</details>", ""], shared))
    return _cut(head, blocks, notes, fit)


@record(frozen=True)
class Block:
    """One table: the lines before its rows, its findings, the lines after them (the shared reasons' legend
    first) and the numbers its rows give those reasons."""

    opening: list[str]
    findings: list[Finding]
    closing: list[str]
    shared: Mapping[str, int]


#: characters of a file name or the policy label (which names a single CRD) the header shows, and of one note:
#: they come from the spec and the command line, and the comment must fit however long they are
_HEAD_TEXT, _NOTE_TEXT = 300, 1000


def _clip(text: str, width: int = _HEAD_TEXT) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _notes(notes: tuple[str, ...], fit: Fit) -> list[str]:
    """The notes section, each note clipped, and as many notes as fit in a quarter of the limit."""
    if not notes:
        return []
    lines, room = [], fit.limit // 4
    for i, note in enumerate(notes):
        line = f"- {escape(_clip(note, _NOTE_TEXT))}"
        room -= fit.measure(line) + 1
        if room < 0:
            lines.append(f"- and {len(notes) - i} more (`specdiff OLD NEW` shows them all)")
            break
        lines.append(line)
    return ["#### Notes", *lines, ""]


def _utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _utf8_bytes(text: str) -> int:
    return len(text.encode("utf-8"))


@record(frozen=True)
class Fit:
    limit: int
    measure: Callable[[str], int]
    where: str  # the truncation note's "did not fit in one ..." and where to look instead


def _cut(head: list[str], blocks: list[Block], notes: list[str], fit: Fit) -> str:
    """Keep the text under the limit, giving way in this order: safe rows, then the place lists of groups, and
    only when breaking and dangerous rows alone cannot fit, rows from the end; the text says what was left out
    and where the whole report is."""

    def _size(lines: list[str]) -> int:
        return sum(fit.measure(line) + 1 for line in lines)

    budget = fit.limit - _size(head) - _size(notes) - _RESERVE
    urgent = [block for block in blocks if block.findings[0].level is not Level.SAFE]
    listed = {id(f): _row(f, True, block.shared) for block in urgent for f in block.findings}  # every place
    members = _size([line for block in urgent
                     for line in block.opening + [listed[id(f)] for f in block.findings] + block.closing]) <= budget
    body: list[str] = []
    left_out = 0
    for opening, findings, closing, shared in ((b.opening, b.findings, b.closing, b.shared) for b in blocks):
        if left_out or _size(opening + closing) > budget:
            left_out += len(findings)
            continue
        budget -= _size(opening + closing)
        rows = []
        for finding in findings:
            row = listed[id(finding)] if members and id(finding) in listed else _row(finding, False, shared)
            if left_out or _size([row]) > budget:
                left_out += 1
                continue
            budget -= _size([row])
            rows.append(row)
        body += opening + rows + closing
    shortened = not members and any(f.members for block in urgent for f in block.findings)
    if left_out:
        body += [f"**Truncated:** {left_out} more finding{'s' if left_out != 1 else ''} did not fit in one "
                 f"{fit.where}`specdiff OLD NEW` or `--format json` show them all.", ""]
    if shortened:
        body += [f"**Shortened:** groups give how many places they have instead of listing them, to fit in one "
                 f"{fit.where}`specdiff OLD NEW` or `--format json` list every place.", ""]
    return "\n".join(head + body + notes) + "\n"
