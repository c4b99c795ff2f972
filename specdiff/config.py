"""Configuration: `.specdiff.yaml` or `[tool.specdiff]` in pyproject.toml, and baseline files.

A configuration tunes the policy stage (levels, select/ignore, scoped ignores, baseline) and gives defaults for
`--policy` and `--fail-on`. Every mistake in it is a `ConfigError` naming the file and the line (YAML) or the
key (TOML), because a silently ignored setting is worse than none.

A configuration arrives with the pull request it checks, so it is untrusted: the files it names stay inside the
repository, are regular files under a size limit, and no error ever quotes their content.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field, replace
from functools import cache
from typing import TYPE_CHECKING, Any

from specdiff.config_search import CONFIG_NAMES, candidates
from specdiff.errors import ConfigError, InputError, UsageError
from specdiff.frozen import record
from specdiff.graph.selection import MAX_PATTERNS, Selection, check_pattern
from specdiff.graph.stability import DECLARED, SYNONYMS, level_word
from specdiff.load.files import NotRegular, inside, open_regular
from specdiff.load.limits import Limits, check_shape
from specdiff.notation import type_where
from specdiff.records import FAIL_ON, LEVELS, READERS
from specdiff.records import POLICIES as RULE_POLICIES

if TYPE_CHECKING:
    from pathlib import Path

    import yaml

POLICIES = ("auto", *RULE_POLICIES)
RULE_LEVELS = (*LEVELS, "off")
_KEYS = ("policy", "fail-on", "annotate-level", "response-readers", "rules", "extensions", "select", "ignore",
         "baseline", "deprecation-days", "check-version", "operations")
#: `operations:` keys, what each chooses (specdiff/graph/selection.py), and whether it holds path patterns
_SELECTION_KEYS = {"match-path": ("match_paths", True), "exclude-path": ("exclude_paths", True),
                   "tags": ("tags", False), "exclude-tags": ("exclude_tags", False),
                   "exclude-extensions": ("exclude_extensions", False)}
ANNOTATE_LEVELS = LEVELS
_IGNORE_KEYS = ("rule", "location", "reason", "expires")
_FINGERPRINT = re.compile(r"[0-9a-f]{16}")
MAX_FILE_BYTES = 8 * 1024 * 1024  # a configuration or baseline file larger than this is refused


@record(frozen=True, slots=True)
class ScopedIgnore:
    """An accepted finding: by rule (id or dotted prefix) and/or location glob, always with a reason."""

    rule: str | None
    location: str | None
    reason: str
    expires: dt.date | None = None
    origin: str = ""  # "file:line" (or "file:key") for notes

    def describe(self) -> str:
        parts = [f"rule {self.rule}" if self.rule else "any rule"]
        if self.location:
            parts.append(f"location {self.location!r}")
        return " at ".join(parts)


@record(frozen=True, slots=True)
class BaselineEntry:
    fingerprint: str
    comment: str
    origin: str


@record(frozen=True, slots=True)
class Config:
    """What a configuration file says; the empty Config changes nothing."""

    path: str | None = None
    policy: str | None = None
    fail_on: str | None = None
    annotate_level: str | None = None  # the mildest level sarif and github annotations carry
    #: how the API's clients read responses (records.READERS), which decides whether a response that may now
    #: carry what the spec excluded before breaks them; None: the policy's default
    response_readers: str | None = None
    levels: Mapping[str, str] = field(default_factory=dict)  # rule id or prefix -> level | "off"
    #: vendor extension -> the level of every finding about it (`x-codegen: dangerous`): a team whose clients
    #: depend on an extension says so; a level, never `off`, so a difference is never dropped this way
    extensions: Mapping[str, str] = field(default_factory=dict)
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    ignores: tuple[ScopedIgnore, ...] = ()
    baseline: tuple[BaselineEntry, ...] = ()
    baseline_path: str | None = None
    #: the shortest notice, in days between deprecation and sunset, by stability (alpha, beta, stable)
    deprecation_days: Mapping[str, int] = field(default_factory=dict)
    #: the release gate: the declared version change must be as large as the findings need (--check-version)
    check_version: bool = False
    #: the operations compared (`operations:`, --match-path and the like); the empty selection keeps them all
    selection: Selection = Selection()

    def __post_init__(self) -> None:
        """A renamed rule's former id is read as its current id here, once, however the configuration was made
        (a file, a mapping, command-line options, by hand): the policy stage matches current ids only."""
        if not (self.levels or self.select or self.ignore or any(entry.rule for entry in self.ignores)):
            return
        from specdiff.classify.cards import renamed

        current = renamed()
        if not current:
            return
        object.__setattr__(self, "levels", {current.get(rule, rule): level for rule, level in self.levels.items()})
        object.__setattr__(self, "select", tuple(current.get(rule, rule) for rule in self.select))
        object.__setattr__(self, "ignore", tuple(current.get(rule, rule) for rule in self.ignore))
        object.__setattr__(self, "ignores", tuple(
            replace(entry, rule=current[entry.rule]) if entry.rule in current else entry for entry in self.ignores))

    @property
    def filters(self) -> bool:
        """Whether the policy stage has anything to do: a level, a selection of rules, an ignore or a baseline."""
        return bool(self.levels or self.extensions or self.select or self.ignore or self.ignores or self.baseline)


# ---------------------------------------------------------------- finding and reading


def find_config(start: Path | str) -> Path | None:
    """The nearest `.specdiff.yaml` or pyproject.toml with a `[tool.specdiff]` table, from `start` upwards."""
    found = _nearest_config(str(start))
    if found is None:
        return None
    from pathlib import Path  # (a run that finds no configuration, as most do, never imports it, nor urllib)

    return Path(found)


def _nearest_config(start: str) -> str | None:
    for candidate in candidates(start):
        if os.path.basename(candidate) in CONFIG_NAMES:
            return _confined(candidate)
        if _has_tool_table(_confined(candidate)):
            return candidate
    return None


def _confined(path: str) -> str:
    """A configuration found (not named with --config) must be a file of the repository it was found in: one
    that is a symlink out of it would be read, and its content echoed in errors, from wherever it points."""
    folder = os.path.dirname(path)
    if not inside(path, folder) and not inside(path, _repository_root(folder)):  # asks git only for a link
        raise ConfigError("the configuration file is a symlink out of the repository (refused); pass --config "
                          "FILE to use the file it points to, or --no-config", file=_shown(path))
    return path


def _has_tool_table(path: str) -> bool:
    """Whether a pyproject.toml configures specdiff. One that is broken but mentions specdiff is an error, not
    a silent skip of its `[tool.specdiff]`; a broken one that never mentions specdiff is someone else's."""
    try:
        text = read_limited(path, "pyproject.toml")  # a FIFO, device or oversized file is refused, never read
    except ConfigError as err:
        raise ConfigError(f"{err.detail}; fix it, or pass --config FILE or --no-config", file=_shown(path)) from None
    if "specdiff" not in text and "\\u" not in text and "\\U" not in text:
        return False  # no table can be named specdiff (but a key may spell it with escapes): never parsed
    try:
        data = _parse_toml(text, _shown(path))
    except ConfigError as err:
        if "specdiff" not in text:
            return False
        raise ConfigError(f"{err.detail}; fix it, or pass --config FILE or --no-config", file=err.file) from None
    tool = data.get("tool")
    return isinstance(tool, dict) and "specdiff" in tool


def read_limited(path: Path | str, what: str, limit: int = MAX_FILE_BYTES) -> str:
    """A regular file's text, refusing devices, FIFOs, folders and files over `limit` before reading them
    (opened without blocking, so a FIFO cannot hang the run)."""
    name = str(path)
    try:
        fh, _ = open_regular(path)
    except FileNotFoundError:
        raise ConfigError(f"no such {what}", file=name) from None
    except NotRegular:
        raise ConfigError(f"{what} is not a regular file", file=name) from None
    except OSError as err:
        raise ConfigError(f"{what} cannot be read: {err.strerror or 'error'}", file=name) from None
    with fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise ConfigError(f"{what} is larger than {limit} bytes", file=name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{what} is not UTF-8", file=name) from None


def load_config(path: Path | str, rule_ids: Iterable[str] | None = None, display: str | None = None) -> Config:
    """Read and validate one configuration file; `rule_ids` defaults to the shipped catalogue."""
    from pathlib import Path

    path = Path(path)
    name = display or str(path)
    try:
        text = read_limited(path, "configuration file")
    except ConfigError as err:
        raise ConfigError(err.detail, file=name) from None
    if rule_ids is None:
        from specdiff.classify.cards import rule_ids as known_rule_ids

        rule_ids = known_rule_ids()
    try:  # both readers and the checks recurse once per level
        if path.suffix == ".toml":
            data, place = _read_toml(text, name)
        else:
            _check_yaml_depth(text, name)
            data, place = _read_yaml(text, name)
        return _validate(data, _Where(name, place), frozenset(rule_ids), path.parent)
    except RecursionError:
        raise _too_deep(name) from None


#: levels a configuration file may nest: its deepest key (`ignores` > entry > `paths` > a path) needs four
_CONFIG_DEPTH = 64


def _too_deep(name: str, place: str | None = None) -> ConfigError:
    return ConfigError(f"nested deeper than a configuration can be (at most {_CONFIG_DEPTH} levels)", file=name,
                       place=place)


def _check_yaml_depth(text: str, name: str) -> None:
    """Refuse deep nesting before the YAML is composed, by its events, naming the line where it goes too deep."""
    import yaml  # a YAML configuration: a run without one never loads PyYAML

    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > _CONFIG_DEPTH:
                    mark = event.start_mark
                    raise _too_deep(name, str(mark.line + 1) if mark is not None else None)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return  # composing reports it, with its place


def config_from_mapping(data: Mapping[str, Any], name: str = "<config>", rule_ids: Iterable[str] | None = None,
                        folder: Path | None = None) -> Config:
    """A configuration given as data (the Python API): the same keys and checks as a file."""
    from pathlib import Path

    if rule_ids is None:
        from specdiff.classify.cards import rule_ids as known_rule_ids

        rule_ids = known_rule_ids()

    def place(at: tuple[Any, ...]) -> str | None:
        return ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in at).replace(".[", "[") or None

    return _validate(dict(data), _Where(name, place), frozenset(rule_ids), folder or Path.cwd())


Place = Callable[[tuple[Any, ...]], str | None]


@record(frozen=True)
class _Where:
    file: str
    place: Place

    def error(self, message: str, at: tuple[Any, ...]) -> ConfigError:
        return ConfigError(message, file=self.file, place=self.place(at))

    def origin(self, at: tuple[Any, ...]) -> str:
        place = self.place(at)
        return f"{self.file}:{place}" if place else self.file


def _parse_toml(text: str, name: str) -> dict[str, Any]:
    """TOML text as data. tomllib raises a bare ValueError, not TOMLDecodeError, for an integer longer than
    Python converts (4,300 digits), so both are a broken file."""
    import tomllib  # a TOML configuration only

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"invalid TOML: {err}", file=name) from None
    except ValueError as err:
        detail = "an integer with too many digits" if "digits" in str(err) else str(err)
        raise ConfigError(f"invalid TOML: {detail}", file=name) from None
    except RecursionError:  # tomllib recurses once per level of nested arrays and inline tables
        raise _too_deep(name) from None


def _read_toml(text: str, name: str) -> tuple[Any, Place]:
    data = _parse_toml(text, name)
    level: list[Any] = [data]
    depth = 0
    while level:  # nesting tomllib read within its recursion, still deeper than a configuration goes
        depth += 1
        if depth > _CONFIG_DEPTH:
            raise _too_deep(name)
        level = [child for node in level for child in (node.values() if isinstance(node, dict) else node)
                 if isinstance(child, dict | list)]
    tool = data.get("tool")
    section = tool.get("specdiff") if isinstance(tool, dict) else None
    if section is None:
        raise ConfigError("no [tool.specdiff] table", file=name)

    def place(at: tuple[Any, ...]) -> str:
        keys = ["tool", "specdiff"]
        for part in at:
            if isinstance(part, int):
                keys[-1] += f"[{part}]"
            elif re.fullmatch(r"[A-Za-z0-9_-]+", part):
                keys.append(part)
            else:
                keys.append(f'"{part}"')
        return ".".join(keys)

    return section, place


def _read_yaml(text: str, name: str) -> tuple[Any, Place]:
    import yaml

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        line = f"{mark.line + 1}" if mark else None
        raise ConfigError(f"invalid YAML: {err.problem or err}", file=name, place=line) from None
    except yaml.YAMLError as err:
        raise ConfigError(f"invalid YAML: {err}", file=name) from None
    if node is None:
        return {}, lambda at: None
    lines: dict[tuple[Any, ...], int] = {(): node.start_mark.line + 1}
    _mark_lines(node, (), lines, name, set())
    try:
        data = _constructor()().construct_document(node)
    except yaml.MarkedYAMLError as err:  # a tag no safe constructor knows, a value it cannot build
        mark = err.problem_mark or err.context_mark
        raise ConfigError(f"invalid YAML: {err.problem or err.context}", file=name,
                          place=str(mark.line + 1) if mark else None) from None
    _check_aliases(data, name)

    def place(at: tuple[Any, ...]) -> str | None:
        while at not in lines and at:
            at = at[:-1]
        return str(lines[at]) if at in lines else None

    return data, place


@cache
def _constructor() -> Any:
    """Safe YAML, with dates kept as text: `_date` checks them and names the line (2026-02-30 is no date)."""
    import yaml

    class Constructor(yaml.constructor.SafeConstructor):
        yaml_constructors = {**yaml.constructor.SafeConstructor.yaml_constructors,
                             "tag:yaml.org,2002:timestamp": yaml.constructor.SafeConstructor.construct_yaml_str}

    return Constructor


_PLAIN_TAGS = {f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "timestamp", "map",
                                                        "seq")}


#: what a configuration's YAML aliases may expand to: the bounds a spec has (specdiff.load.limits.check_shape),
#: at a configuration's size (a 400-byte file of nested aliases expands to a hundred million values)
_CONFIG_LIMITS = Limits(max_bytes=MAX_FILE_BYTES, max_depth=_CONFIG_DEPTH, max_alias_nodes=100_000)


def _check_aliases(data: Any, name: str) -> None:
    """Refuse aliases that expand past a configuration's bounds, counted once per distinct value."""
    try:
        check_shape(data, name, _CONFIG_LIMITS)
    except InputError as err:
        raise ConfigError(err.detail.split(" (alias budget")[0] + ", past a configuration's bound",
                          file=name) from None


def _mark_lines(node: yaml.Node, at: tuple[Any, ...], lines: dict[tuple[Any, ...], int], name: str,
                seen_nodes: set[int]) -> None:
    """The line of each key and item, checking tags and keys; a node met again through an alias is not walked
    again (a place inside it is named by the alias's line), so nested aliases cost their distinct nodes."""
    import yaml

    if id(node) in seen_nodes:
        return
    seen_nodes.add(id(node))
    if node.tag not in _PLAIN_TAGS:
        raise ConfigError("a configuration holds plain strings, numbers, lists and mappings; YAML tags such as "
                          f"{node.tag.replace('tag:yaml.org,2002:', '!!')[:80]!r} are refused", file=name,
                          place=str(node.start_mark.line + 1))
    if isinstance(node, yaml.MappingNode):
        seen: set[Any] = set()
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                raise ConfigError("a key must be a plain string, not a "
                                  f"{'list' if isinstance(key, yaml.SequenceNode) else 'mapping'}", file=name,
                                  place=str(key.start_mark.line + 1))
            token = key.value
            if token in seen:
                raise ConfigError(f"duplicate key {token!r}", file=name, place=str(key.start_mark.line + 1))
            seen.add(token)
            lines[(*at, token)] = key.start_mark.line + 1
            _mark_lines(value, (*at, token), lines, name, seen_nodes)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            lines[(*at, index)] = item.start_mark.line + 1
            _mark_lines(item, (*at, index), lines, name, seen_nodes)


# ---------------------------------------------------------------- validation


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    import difflib  # only for a name that is wrong

    close = difflib.get_close_matches(word, sorted(set(choices)), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def rule_selectors(rule_ids: Iterable[str]) -> frozenset[str]:
    """Every rule id and every dotted prefix of one: what select/ignore/rules may name."""
    names: set[str] = set()
    for rule in rule_ids:
        parts = rule.split(".")
        names.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return frozenset(names)


def check_selector(value: Any, selectors: frozenset[str], what: str) -> str:
    """A rule id or dotted prefix, or a message saying why not (raised by the caller with a place)."""
    if not isinstance(value, str) or not value:
        raise ValueError(f"{what} must be a rule id or dotted prefix, not {value!r}")
    if value not in selectors:
        raise ValueError(f"unknown rule {value!r} in {what}{_did_you_mean(value, selectors)}")
    return value


def _validate(data: Any, where: _Where, rule_ids: frozenset[str], folder: Path) -> Config:
    if not isinstance(data, dict):
        raise where.error(f"configuration must be a mapping, not {type(data).__name__}", ())
    for key in data:
        if key not in _KEYS:
            raise where.error(f"unknown key {key!r}{_did_you_mean(str(key), _KEYS)}", (key,))
    selectors = rule_selectors(rule_ids)

    def choice(key: str, allowed: tuple[str, ...]) -> str | None:
        value = data.get(key)
        if value is None:
            return None
        if value not in allowed:
            raise where.error(f"{key} must be one of {', '.join(allowed)}, not {value!r}", (key,))
        return str(value)

    def selector_list(key: str) -> tuple[str, ...]:
        value = data.get(key)
        items = [] if value is None else [value] if isinstance(value, str) else value
        if not isinstance(items, list):
            raise where.error(f"{key} must be a list of rule ids or prefixes", (key,))
        chosen = []
        for index, item in enumerate(items):
            if key == "ignore" and isinstance(item, dict):
                continue
            try:
                chosen.append(check_selector(item, selectors, key))
            except ValueError as err:
                raise where.error(str(err), (key, index)) from None
        return tuple(chosen)

    levels: dict[str, str] = {}
    rules = data.get("rules") or {}
    if not isinstance(rules, dict):
        raise where.error("rules must map rule ids to a level or off", ("rules",))
    for rule, level in rules.items():
        if level is False:  # YAML 1.1 reads a bare `off` as false
            level = "off"
        try:
            check_selector(rule, selectors, "rules")
        except ValueError as err:
            raise where.error(str(err), ("rules", rule)) from None
        if level not in RULE_LEVELS:
            raise where.error(f"level of {rule} must be one of {', '.join(RULE_LEVELS)}, not {level!r}",
                              ("rules", rule))
        levels[rule] = level

    ignores = _scoped_ignores(data.get("ignore", []), where, selectors)
    baseline_entries: tuple[BaselineEntry, ...] = ()
    baseline_path = None
    if data.get("baseline") is not None:
        if not isinstance(data["baseline"], str) or not data["baseline"] or "\0" in data["baseline"]:
            raise where.error("baseline must be a file path", ("baseline",))
        resolved = folder / data["baseline"]
        shown = data["baseline"][:200]
        if not inside(resolved, _repository_root(folder)):
            raise where.error(f"baseline {shown!r} is outside the repository; name a file inside it",
                              ("baseline",))
        if not os.path.exists(resolved):  # False, not an OSError, for a name over the file system's limit
            raise where.error(f"baseline file {shown!r} does not exist", ("baseline",))
        baseline_path = str(resolved)
        baseline_entries = read_baseline(resolved)
    return Config(path=where.file, policy=choice("policy", POLICIES), fail_on=choice("fail-on", FAIL_ON),
                  annotate_level=choice("annotate-level", ANNOTATE_LEVELS),
                  response_readers=choice("response-readers", READERS),
                  levels=levels, extensions=_extensions(data.get("extensions"), where),
                  select=selector_list("select"), ignore=selector_list("ignore"), ignores=ignores,
                  baseline=baseline_entries, baseline_path=baseline_path,
                  deprecation_days=_deprecation_days(data.get("deprecation-days"), where),
                  check_version=_flag(data, "check-version", where),
                  selection=_selection(data.get("operations"), where))


def _selection(value: Any, where: _Where) -> Selection:
    """`operations: {match-path: [...], exclude-path: [...], tags: [...], exclude-tags: [...],
    exclude-extensions: [x-internal]}`: which operations are compared."""
    if value is None:
        return Selection()
    if not isinstance(value, dict):
        raise where.error(f"operations must map {', '.join(_SELECTION_KEYS)} to lists", ("operations",))
    chosen: dict[str, tuple[str, ...]] = {}
    for key, items in value.items():
        at: tuple[Any, ...] = ("operations", key)
        if key not in _SELECTION_KEYS:
            raise where.error(f"unknown key {key!r} in operations{_did_you_mean(str(key), _SELECTION_KEYS)}", at)
        items = [items] if isinstance(items, str) else items
        if not isinstance(items, list) or len(items) > MAX_PATTERNS:
            raise where.error(f"operations {key} must be a list of at most {MAX_PATTERNS} strings", at)
        field_name, patterns = _SELECTION_KEYS[key]
        for index, item in enumerate(items):
            try:
                check_pattern(item) if patterns else check_name(item)
            except ValueError as err:
                raise where.error(str(err), (*at, index)) from None
        chosen[field_name] = tuple(items)
    return Selection(**chosen)


def _extensions(value: Any, where: _Where) -> dict[str, str]:
    """`extensions: {x-codegen: dangerous}`: the level of the findings about each vendor extension named."""
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > MAX_PATTERNS:
        raise where.error(f"extensions must map at most {MAX_PATTERNS} extension names to a level", ("extensions",))
    levels: dict[str, str] = {}
    for name, level in value.items():
        at = ("extensions", name)
        try:
            check_name(name)
        except ValueError as err:
            raise where.error(str(err), at) from None
        if not name.startswith("x-"):
            raise where.error(f"extensions names vendor extensions, which start with x-, not {name[:40]!r}", at)
        if level is False or level == "off":  # (YAML 1.1 reads a bare `off` as false)
            raise where.error(f"extensions set a level, never off: set {name[:40]} to safe to keep it quiet", at)
        if level not in LEVELS:
            raise where.error(f"level of {name[:40]} must be one of {', '.join(LEVELS)}, not {str(level)[:40]!r}", at)
        levels[name] = str(level)
    return levels


def check_name(value: Any) -> str:
    """A tag or an extension name as given, or ValueError saying why not."""
    if not isinstance(value, str) or not value or len(value) > 200:
        raise ValueError(f"a tag or extension name must be a string of 1 to 200 characters, not {str(value)[:40]!r}")
    return value


def _flag(data: dict[str, Any], key: str, where: _Where) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise where.error(f"{key} must be true or false, not {str(value)[:40]!r}", (key,))
    return value


def _deprecation_days(value: Any, where: _Where) -> dict[str, int]:
    """`deprecation-days: {stable: 180, beta: 90}`: the shortest notice a deprecation must give, per level."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise where.error("deprecation-days must map a stability level to a number of days", ("deprecation-days",))
    days: dict[str, int] = {}
    for level, count in value.items():
        word = level_word(level)
        if word is None:  # keys are the x-stability-level words (and their synonyms), judged by the level each gives
            raise where.error(f"deprecation-days level must be one of {', '.join((*DECLARED, *SYNONYMS))}, not "
                              f"{level!r}", ("deprecation-days", level))
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise where.error(f"deprecation-days of {level} must be a whole number of days",
                              ("deprecation-days", level))
        days[DECLARED[word]] = max(count, days.get(DECLARED[word], 0))
    return days


def _scoped_ignores(value: Any, where: _Where, selectors: frozenset[str]) -> tuple[ScopedIgnore, ...]:
    if isinstance(value, str) or not isinstance(value, list):
        return ()  # selector_list reports the shape problem
    found = []
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            continue
        at = ("ignore", index)
        for key in item:
            if key not in _IGNORE_KEYS:
                raise where.error(f"unknown key {key!r} in an ignore entry{_did_you_mean(str(key), _IGNORE_KEYS)}",
                                  (*at, key))
        rule, location, reason, expires = (item.get(k) for k in _IGNORE_KEYS)
        if rule is not None:
            try:
                check_selector(rule, selectors, "ignore")
            except ValueError as err:
                raise where.error(str(err), (*at, "rule")) from None
        if location is not None and (not isinstance(location, str) or not location):
            raise where.error("location must be a glob over the finding's location or pointer", (*at, "location"))
        if rule is None and location is None:
            raise where.error("an ignore entry needs a rule, a location, or both", at)
        if not isinstance(reason, str) or not reason.strip():
            raise where.error("an ignore entry needs a reason: say why the finding is accepted", at)
        found.append(ScopedIgnore(rule, location, reason.strip(), _date(expires, where, (*at, "expires")),
                                  where.origin(at)))
    return tuple(found)


def _date(value: Any, where: _Where, at: tuple[Any, ...]) -> dt.date | None:
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        for parse in (dt.date.fromisoformat, lambda text: dt.datetime.fromisoformat(text).date()):
            try:
                return parse(value)
            except ValueError:
                pass
    raise where.error(f"expires must be a date like 2026-12-31, not {str(value)[:40]!r}", at)


# ---------------------------------------------------------------- baselines


def _repository_root(folder: Path | str) -> Path | str:
    """The git work tree the configuration is in, else its own folder: where the files it names must be."""
    import subprocess  # here: a run without a baseline file never needs it

    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=folder, capture_output=True, text=True,
                             timeout=30, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        top = ""
    return top or folder


def read_baseline(path: Path | str) -> tuple[BaselineEntry, ...]:
    """Fingerprints, one a line; `#` starts a comment; blank lines are skipped. An error names the line, never
    quotes it: the file might not be a baseline at all (`baseline: /proc/self/environ`)."""
    name = str(path)
    text = read_limited(path, "baseline file")
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        head, _, comment = line.partition("#")
        head = head.strip()
        if not head:
            continue
        if not _FINGERPRINT.fullmatch(head):
            raise ConfigError("not a fingerprint (16 lowercase hex digits expected); is this a baseline file?",
                              file=name, place=str(number))
        entries.append(BaselineEntry(head, comment.strip(), f"{name}:{number}"))
    return tuple(entries)


def render_baseline(entries: Iterable[tuple[str, Any]], kept: Iterable[BaselineEntry] = ()) -> str:
    """Sorted fingerprints with their rule and location: reviewable, stable diffs when the list changes.

    `entries` are (fingerprint, finding) pairs (`policy.accepted`); `kept` are entries of an existing baseline
    that stay (with their comments) beside the findings added."""
    rows = {entry.fingerprint: entry.comment for entry in kept}
    for fingerprint, finding in entries:
        location = type_where(finding.change.context) or finding.change.pointer  # as earlier baselines
        rows[fingerprint] = " ".join(f"{finding.rule} {location}".splitlines())  # one line, as read back
    lines = ["# specdiff baseline: accepted findings, one fingerprint a line (rule and location after #)."]
    lines += [f"{fp}  # {rows[fp]}" for fp in sorted(rows)]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the command line's view


def for_command(config_file: str | None = None, no_config: bool = False, select: Sequence[str] = (),
                ignore: Sequence[str] = (), baseline: str | None = None, start: Path | None = None,
                rule_ids: Iterable[str] | None = None) -> Config:
    """The configuration a command runs with: the file (given or found), then the command line on top.

    `--select` replaces the file's `select`; `--ignore` adds to its `ignore`; `--baseline` replaces its baseline.
    """
    config = Config()
    if config_file is not None:
        config = load_config(config_file, rule_ids)
    elif not no_config:
        found = find_config(start or os.getcwd())
        if found is not None:
            config = load_config(found, rule_ids, display=_shown(found))
    if select or ignore:  # the catalogue is read here only to check the names given
        _check_options(select, ignore, rule_ids)
    changes: dict[str, Any] = {}
    if select:
        changes["select"] = tuple(select)
    if ignore:
        changes["ignore"] = config.ignore + tuple(ignore)
    if baseline is not None:
        changes["baseline"], changes["baseline_path"] = read_baseline(baseline), baseline
    return replace(config, **changes) if changes else config


def _check_options(select: Sequence[str], ignore: Sequence[str], rule_ids: Iterable[str] | None) -> None:
    """--select and --ignore name rules of the catalogue (or dotted prefixes of them)."""
    if rule_ids is None:
        from specdiff.classify.cards import rule_ids as known_rule_ids

        rule_ids = known_rule_ids()
    selectors = rule_selectors(rule_ids)
    for option, values in (("--select", select), ("--ignore", ignore)):
        for value in values:
            try:
                check_selector(value, selectors, option)
            except ValueError as err:
                raise UsageError(str(err)) from None


def _shown(path: Path | str) -> str:
    """A found file as the user would type it: relative to the working directory when below it."""
    from pathlib import Path

    path = Path(path)
    try:
        return str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
