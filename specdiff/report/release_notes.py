"""Release notes in the style of Kubernetes' "API Change" notes and providers' changelogs, to publish as they are: which
API changed between which versions, then breaking changes first (what breaks and why), deprecations, new features and
other changes; one bullet per logical change, made to fit about a page. The tool's own words (policy, response readers,
rule ids) stay in the other formats. A kind has one heading across its versions; where its changes differ by version
each bullet names its own (`resource.k8s.io/{v1, v1beta2}: ...`), one change in several versions being one bullet. Types
several kinds use go under their group-version (`core/v1 types`); other APIs go by tag or path. A reason bullets under
several headings share is said once at the section's end, the bullets naming it by its title; no line runs past 200
characters.

A group of findings (one change at many places) is one bullet. Within a kind, the operations a release adds are one
bullet ("operations added: create, list, ... of `frobbers`"): a new resource reads as a line, not as twenty. A type
added on its own changes nothing a client can call or send (the operations and fields that use it are listed), so it is
left out. Places are written the way Kubernetes' own notes write them: `PodSpec.field` under a `core/v1` heading
(specdiff/notation.py). Spec strings are escaped like the PR comment's; nothing is cut short.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import partial

from specdiff.group import COUNTED_PLACES, operations_phrase
from specdiff.notation import PREPOSITIONS, bare, by_type, plural, type_name, used_by
from specdiff.patterns import compiled
from specdiff.records import Finding, Level, Report
from specdiff.report import RenderOptions
from specdiff.report.markdown import WIDTH, code_span, coded, escape, escaped_part, wrapped
from specdiff.report.sections import SHARED, Subject, grouped, headed, is_unclassified, reason, sentence

#: rules whose findings a kind lists in one bullet
_FOLDED = {"operation.added": "operations added"}
#: rules release notes leave out: a type added alone changes no call (what uses it is listed), and the title
#: already names the versions
_UNLISTED = {"schema.added", "info.version-changed"}


def _unnoticed(finding: Finding) -> bool:
    """A safe finding of a card (or `when` exception) that says no client can notice it (`section: unnoticed`):
    release notes leave it out and say how many they left; every other format lists it."""
    return finding.level is Level.SAFE and finding.rule_info.section == "unnoticed"


def render(report: Report, options: RenderOptions) -> str:
    return "\n".join(notes(report, 1, f"Release notes: {_title(report)}", _between(report))).rstrip("\n") + "\n"


def notes(report: Report, depth: int, title: str, between: str) -> list[str]:
    """The lines of one release's notes under `title` (markdown) at `depth` (1: a page of its own; a history's
    releases go one level down), saying the changes are from `between` (`1.0.0 to 1.1.0`)."""
    listed = replace(report, findings=tuple(f for f in report.findings if f.rule not in _UNLISTED
                                            and not _unnoticed(f)))
    unnoticed = sum(1 for f in report.findings if f.rule not in _UNLISTED and _unnoticed(f))
    level = "#" * depth
    left = (f"; {unnoticed} more that no client can notice (vendor extensions, the encodings of fields added or "
            "removed, schemas whose uses are listed) are left out" if unnoticed else "")
    lines = [f"{level} {title}", "",
             _wrapped(f"Changes from {between}: "
                      + ", ".join(f"{n} {level}" for level, n in listed.summary().items()) + left + "."), ""]
    sections = grouped(listed)
    if not sections:
        lines += ["No API changes.", ""]
    for key, title, subjects in sections:
        lines += [f"{level}# {title}", ""]
        if key == "corrections":
            lines += _corrections([finding for _, findings in subjects for finding in findings]) + [""]
            continue
        said = _said_once(subjects) if key != "features" else {}
        headings: dict[tuple[bool, str, str], dict[str, list[str]]] = {}
        for subject, findings in subjects:
            versions = headings.setdefault(_heading(subject), {})
            for bullet in _bullets(findings, with_reason=key != "features", scoped=not headed(subject), said=said):
                versions.setdefault(_named_once(bullet, subject), []).extend(_versions(subject))
        for heading in sorted(headings):
            lines += [f"{level}## {escape(_heading_title(heading, headings[heading]))}",
                      *(_wrapped(line) for line in _versioned(headings[heading]))]
        if said:
            lines += ["", "Why:", *(_wrapped(f"- *{coded(title)}*: {coded(why)}") for title, why in said.values())]
        lines.append("")
    return lines


def _corrections(findings: list[Finding]) -> list[str]:
    """Markers that now say what the old spec's own text already said: a line per rule naming the places. They
    change no client, so they get no headings; the words that decided each are in its reason (every other format,
    and `--format json`)."""
    by_rule: dict[str, list[str]] = {}
    for finding in findings:
        by_rule.setdefault(finding.rule, []).append(
            sentence(finding, partial(_spans, names=_names(finding)), scoped=False).rstrip("."))
    return ["The old spec already said so, in its descriptions, in the fields its types required or in the keys its "
            "lists merge by; each finding's "
            "reason quotes the words.", "",
            *(_wrapped(f"- {_one_sentence(parts)}.") for parts in by_rule.values())]


def _said_once(subjects: list[tuple[Subject, list[Finding]]]) -> dict[str, tuple[str, str]]:
    """{rule: (title, reason)} for the reasons a section would repeat under several headings: each is given once
    at the section's end under its rule's title, and its bullets name that title instead. A rule points at one
    reason: of a rule's repeated reasons the one under most headings is given there, the others stay inline where
    they occur."""
    headings: dict[tuple[str, str], set[tuple[bool, str, str]]] = {}
    titles: dict[str, str] = {}
    for subject, findings in subjects:
        for finding in findings:
            if finding.rule not in _FOLDED and not is_unclassified(finding):
                headings.setdefault((finding.rule, reason(finding)), set()).add(_heading(subject))
                titles[finding.rule] = finding.rule_info.title or finding.rule
    said: dict[str, tuple[str, str]] = {}
    for (rule, why), under in sorted(headings.items(), key=lambda item: (-len(item[1]), item[0])):
        if len(under) > 1:
            said.setdefault(rule, (titles[rule], why))
    return dict(sorted(said.items(), key=lambda item: (item[1][0].lower(), item[0])))


def _heading(subject: Subject) -> tuple[bool, str, str]:
    """(unheaded, group, what) a subject goes under: a kind once across its versions (`resource.k8s.io`,
    `ResourceSlice`), the types several kinds share once per group-version (`core/v1`, `types`), anything else
    as it is (an OpenAPI tag, a whole group-version, the general changes)."""
    if subject.shared:
        return False, subject.group, "types"
    if subject.group == SHARED:  # one heading: each bullet names its type (`charge.refunds`)
        return True, SHARED, ""
    if subject.kind and headed(subject) and "/" in subject.group and not subject.group.startswith("/"):
        return False, subject.group.partition("/")[0], subject.kind
    return not headed(subject), subject.group, subject.kind


#: a group's message for the operations a plain API's resource gains or loses (specdiff/group.py)
_RESOURCE_OPERATIONS = re.compile(r"- (.+?) (gains|loses) (\d+) operations: ")


def _named_once(bullet: str, subject: Subject) -> str:
    """Under a plain API's resource heading (`/v1/charges`), "/v1/charges loses 3 operations: ..." would name the
    resource twice: the bullet says "3 operations removed: ..."."""
    found = _RESOURCE_OPERATIONS.match(bullet)
    if subject.kind or not found or found.group(1) != escape(subject.group):
        return bullet
    done = "added" if found.group(2) == "gains" else "removed"
    return f"- {found.group(3)} operations {done}: {bullet[found.end():]}"


def _versions(subject: Subject) -> list[str]:
    """The group-versions a subject names: `resource.k8s.io/{v1, v1beta2}` is two."""
    group, _, version = subject.group.partition("/")
    if not subject.kind or subject.shared or subject.group.startswith("/") or not version:
        return [subject.group]
    return [f"{group}/{v}" for v in version.strip("{}").split(", ")]


def _folded_versions(group_versions: list[str]) -> str:
    """`resource.k8s.io/{v1, v1beta2}`: group-versions of one group with the group written once."""
    ordered = sorted(set(group_versions))
    if len(ordered) == 1:
        return ordered[0]
    group = ordered[0].partition("/")[0]
    return f"{group}/{{{', '.join(v.partition('/')[2] for v in ordered)}}}"


def _heading_title(heading: tuple[bool, str, str], bullets: dict[str, list[str]]) -> str:
    """`resource.k8s.io ResourceSlice` when its changes differ by version (each bullet names its own), else the
    group-versions they all hold in: `authentication.k8s.io/v1 TokenRequest`, `core/v1 types`."""
    _, group, what = heading
    every = {_folded_versions(v) for v in bullets.values()}
    return f"{every.pop() if len(every) == 1 else group} {what}".strip()


def _versioned(bullets: dict[str, list[str]]) -> list[str]:
    """Each bullet once; led by the group-versions it holds in (`resource.k8s.io/{v1, v1beta2}: ...`) when the
    bullets of a heading do not all hold in the same ones."""
    if len({_folded_versions(v) for v in bullets.values()}) == 1:
        return list(bullets)
    return [f"- {code_span(_folded_versions(versions))}: {bullet[2:]}" for bullet, versions in bullets.items()]


def _wrapped(bullet: str) -> str:
    return wrapped(bullet, WIDTH)


def _bullets(findings: list[Finding], with_reason: bool, scoped: bool,
             said: dict[str, tuple[str, str]]) -> list[str]:
    """One bullet per logical change: a kind's added operations, and its added types, are one bullet each; the
    findings of one rule with one reason (four fields of a status that became optional) share a bullet that
    gives the reason once."""
    order: list[tuple[str, ...]] = []
    together: dict[tuple[str, ...], list[Finding]] = {}
    for finding in findings:
        key = (finding.rule,) if finding.rule in _FOLDED and not finding.members else (
            finding.rule, finding.level.value, finding.reason)
        if key not in together:
            order.append(key)
            together[key] = []
        together[key].append(finding)
    return [_folded(key[0], together[key], scoped) if len(key) == 1
            else _line(together[key], with_reason, scoped, said) for key in order]


def _folded(rule: str, findings: list[Finding], scoped: bool) -> str:
    if len(findings) == 1:
        return _line(findings, with_reason=False, scoped=scoped)
    if rule == "operation.added":
        what = escape(operations_phrase([f.change.context for f in findings]))
    else:
        names = [code_span(bare(f.change.context)) + escape(used_by(f.change.context)) for f in findings]
        what = ", ".join(names[:_LISTED]) + (f" and {len(names) - _LISTED} more" if len(names) > _LISTED else "")
    return f"- {_FOLDED[rule][:1].upper()}{_FOLDED[rule][1:]}: {what}."


#: changes one bullet lists under its shared reason before the rest are folded into a count
_LISTED = 20
#: characters of changes one line may join (`a; b; c`) before each gets a line of its own
_SCANNED = 300


def _line(findings: list[Finding], with_reason: bool, scoped: bool,
          said: dict[str, tuple[str, str]] | None = None) -> str:
    """Changes of one rule and reason: on one line with the reason when they fit a glance (_SCANNED), else the
    reason once and one nested bullet each, the first _LISTED of them (the JSON report lists every one)."""
    first = findings[0]
    given = (said or {}).get(first.rule)
    given = given if given and given[1] == reason(first) else None  # at the section's end, under its title
    rule = f" (*{coded(given[0])}*, below)" if given else ""
    parts = [sentence(f, partial(_spans, names=_names(f)), scoped).rstrip(".") for f in findings]
    why = "Not classified yet: review it by hand." if is_unclassified(first) else \
        coded(reason(first)) if with_reason and not given else ""
    joined = _one_sentence(parts)
    if len(joined) <= _SCANNED or len(parts) == 1:
        return f"- {f'{joined}. {why}'.strip().rstrip('.')}." + rule
    listed = [f"  - {part}." for part in parts[:_LISTED]]
    if len(parts) > _LISTED:
        listed.append(f"  - … and {len(parts) - _LISTED} more (`--format json` lists every one).")
    lead = f"- {why.rstrip('.')}{rule}:" if why else f"- {len(parts)} changes{rule}:"
    return "\n".join([lead, *listed])


#: a change that starts with the places it is about: "`PodSpec.field` became optional", or a group's "2 places:
#: `A.x` and `A.y` became optional" (not one whose list is cut: "`A`, `B`, `C` and 5 more ...")
_PLACE_FIRST = re.compile(r"(?:\d+ places: )?((?:`[^`]+`, )*(?:`[^`]+` and )?`[^`]+`) (?!and )(.+)")
_CODE = re.compile(r"`[^`]+`")


#: a change that names its place after a noun: "Optional property `PodSpec.field` added"
_NOUN_PLACE = re.compile(r"((?:[\w-]+ )*?)([A-Za-z]+) (`[^`]+`) (.+)")


def _one_sentence(parts: list[str]) -> str:
    """Changes that say the same of several places read as one sentence ("`A`, `B` and `C` became optional",
    "Optional properties `A`, `B` and `C` added"), a group's places among them; others are joined with
    semicolons."""
    found = [_PLACE_FIRST.fullmatch(part) for part in parts]
    tails = {m.group(2) for m in found if m}
    if all(found) and len(tails) == 1 and (len(parts) > 1 or compiled(COUNTED_PLACES).match(parts[0])):
        return f"{_listed([name for m in found if m for name in _CODE.findall(m.group(1))])} {tails.pop()}"
    if len(parts) > 1:
        named = [m for m in map(_NOUN_PLACE.fullmatch, parts) if m]
        if len(named) == len(parts) and len({(m[1].lower(), m[2].lower(), m[4]) for m in named}) == 1:
            lead, noun, tail = named[0][1], named[0][2], named[0][4]
            noun = noun if noun.lower() in PREPOSITIONS else plural(noun)  # "Description of `A` and `B`"
            return f"{lead}{noun} {_listed([m[3] for m in named])} {tail}"
    return "; ".join([parts[0]] + [p[:1].lower() + p[1:] if p[1:2].islower() else p for p in parts[1:]])




def _listed(names: list[str]) -> str:
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _spans(text: str, names: list[str]) -> str:
    """`text` escaped, with the places it names as code spans (`PodSpec.workloadRef`), as Kubernetes' notes
    write fields."""
    names = sorted({n for n in names if n}, key=lambda n: (-len(n), n))  # longest first: the whole name wins
    pattern = re.compile(r"(?<![\w./])(?:" + "|".join(re.escape(n) for n in names) + r")(?!\w)") if names else None
    return coded(text, plain=partial(_named, pattern=pattern))  # (and the values a message quotes, `literal`)


def _named(text: str, pattern: re.Pattern[str] | None) -> str:
    """`text` escaped (spaces at its ends kept), the places `pattern` finds in it as code spans."""
    out, at = [], 0
    for found in pattern.finditer(text) if pattern else ():
        out += [escaped_part(text[at:found.start()]), code_span(found.group(0))]
        at = found.end()
    out.append(escaped_part(text[at:]))
    return "".join(out)


def _names(finding: Finding) -> list[str]:
    """The places a finding's message may name: each member's operation or field (by its kind's path and by its
    type), and its type."""
    contexts = [m.change.context for m in finding.members] or [finding.change.context]
    return [text for ctx in contexts for text in (ctx.operation or bare(ctx), by_type(ctx), type_name(ctx)) if text]


#: a git source as typed (`3d6c3c4:./reference/openapi.json`): the revision, and the path without `./`
_GIT_SOURCE = re.compile(r"([^:/\\]{2,}):(?:\./)*(.+)")


def _between(report: Report) -> str:
    """`1.0.0 to 1.1.0` when the specs name different versions; else which files, as a reader knows them:
    the file's name (`swagger-v1.36.json`), or the path in the repository at a revision (`reference/openapi.json
    at 3d6c3c4`)."""
    old, new = report.old, report.new
    if old.version and new.version and old.version != new.version:
        return f"{escape(old.version)} to {escape(new.version)}"
    return f"{_source(old.name)} to {_source(new.name)}"


def _source(name: str) -> str:
    found = _GIT_SOURCE.fullmatch(name)
    if found:
        return f"{code_span(found.group(2))} at {code_span(found.group(1))}"
    return code_span(name.rstrip("/").rpartition("/")[2] or name)


def api_name(report: Report) -> str:
    """The API's title as its spec gives it (escaped), else the newer file as a reader knows it."""
    title = report.new.title or report.old.title
    return escape(title) if title else _source(report.new.name)


def _title(report: Report) -> str:
    old, new = report.old, report.new
    name = api_name(report)
    if old.version and new.version and old.version != new.version:
        return f"{name} {escape(old.version)} → {escape(new.version)}"
    return name
