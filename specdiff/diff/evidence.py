"""What the old spec's own text already said: about a field whose `required` marker changed, and about a limit,
format, list of values or default that a keyword now writes down.

Kubernetes publishes `required` from Go markers, and releases that add or drop the markers mostly restate what
the API server always did: a field whose description said "Required." was validated as required before the
marker appeared, and a field the server defaults or populates is still there for readers after the marker goes.
These return the words that decide, quoted, so the reason can say which ones; None when the text says nothing.
The patterns are sentences, not any occurrence of a word: "Not required." and "required if ..." are no evidence.
They are kept as text, compiled when one is first searched with and kept (`specdiff.patterns`): most comparisons
meet none of these changes, and compiling them all at import was a fixed cost of every run.
"""

from __future__ import annotations

import json
import re
from typing import Any

from specdiff.diff.kernel import mapping
from specdiff.patterns import compiled

#: "Required." as a sentence of its own (Go doc comments often end "... will be ignored Required."), the
#: `+required` marker, or "This field is required."
_REQUIRED = r"(?<![\w+-])(?<!Not )(?<!not )(?:Required\.|\+required\b|This field is required\.)(?=\s|$)"
#: a sentence opening with "Defaults to" a value (not "Defaults to empty", which the server leaves out), or the
#: server saying it writes the field itself
_WRITTEN = (r"(?:^|(?<=[.!:] )|(?<=\n))Defaults to (?!(?:empty|nil|null|unset|none|nothing|no)\b)[^.\n]{1,60}"
            r"|\b[Pp]opulated by the (?:system|server)\b|\b[Ss]et by the (?:system|server)\b")
#: words each of `_WRITTEN`'s phrases writes as they are
_WRITTEN_WORDS = ("Defaults to ", "opulated by the ", "et by the ")


def _description(schema: Any) -> str:
    text = schema.get("description") if isinstance(schema, dict) else None
    return text if isinstance(text, str) else ""


#: a description that opens by calling the element deprecated: "Deprecated. Whether to include presence data"
_DEPRECATED = r"(?i)^\W*deprecated\b"


def said_deprecated(element: Any) -> bool:
    """Whether an element's description opens by calling it deprecated, where the spec writes no marker."""
    return compiled(_DEPRECATED).search(_description(element)) is not None


def said_required(schema: Any) -> str | None:
    """`the old description says so ("Required.")` when the field's description states that it is required."""
    text = _description(schema)
    if "equired" not in text:
        return None  # (each sentence has it: the pattern, which opens with lookbehinds, is tried at every position)
    found = compiled(_REQUIRED).search(text)
    return _says_so(found.group(0)) if found else None


def said_written(schema: Any, default: Any) -> str | None:
    """Why readers still always see the field: the description says the server defaults or populates it, or
    the schema gives it a `default` (`default` is what the differ counts as one: not a Kubernetes zero value)."""
    text = _description(schema)
    # (the pattern is compiled, and tried, only for a description with one of its phrases' fixed words in it)
    found = compiled(_WRITTEN).search(text) if any(words in text for words in _WRITTEN_WORDS) else None
    if found:
        return f'the old description says ("{found.group(0).strip()}")'
    if default is not None:
        return f"the old schema gives it the default {json.dumps(default)}"
    return None


def empty_already_invalid(type_name: str, schema: Any) -> str | None:
    """An API server's own types are Go structs: an object that leaves the field out decodes to an empty value
    of its type, which fails validation when the old spec already required some of that type's fields (in its
    `required` list or in their descriptions)."""
    if not isinstance(schema, dict):
        return None
    listed = schema.get("required")
    names = {r for r in listed if isinstance(r, str)} if isinstance(listed, list) else set()
    properties = schema.get("properties")
    if isinstance(properties, dict):
        names |= {name for name, field in properties.items() if said_required(field)}
    if not names:
        return None
    ordered = sorted(names)
    fields = ", ".join(ordered[:-1]) + f" and {ordered[-1]}" if len(ordered) > 1 else ordered[0]
    short = type_name.rpartition(".")[2]
    return (f"the old spec already required {fields} of {short}, so an object without the field (an empty "
            f"{short}) never passed validation")


#: where a list names the field its items are merged by: strategic merge patch's merge key (with the merge
#: strategy), and server-side apply's list-map keys
_MERGE_MARKERS = (("x-kubernetes-patch-merge-key", "x-kubernetes-patch-strategy"), ("x-kubernetes-list-map-keys", ""))
_MARKED = frozenset(marker for marker, _ in _MERGE_MARKERS)


def merge_keys(schemas: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Named type -> field -> the evidence that the API server merges lists of that type by the field: a list of
    it keyed by the field (`PodSpec.hostAliases` merges by `ip`). An item without its key cannot be merged, so
    the API server always needed it there, whatever `required` said. `schemas` maps each name to an object with
    a `schema` (graph.model.NamedSchema)."""
    found: dict[str, dict[str, str]] = {}
    for holder, named in schemas.items():
        properties = named.schema.get("properties") if isinstance(named.schema, dict) else None
        if not isinstance(properties, dict) or _unmarked(properties):
            continue
        for field, value in properties.items():
            if not isinstance(value, dict) or _MARKED.isdisjoint(value):
                continue  # (most fields: the markers are looked for before the list's items are read)
            items = value.get("items")
            ref = items.get("$ref") if isinstance(items, dict) else None
            if not isinstance(ref, str):
                all_of = items.get("allOf") if isinstance(items, dict) else None
                ref = all_of[0].get("$ref") if isinstance(all_of, list) and len(all_of) == 1 \
                    and isinstance(all_of[0], dict) else None
            if not isinstance(ref, str):
                continue
            target = ref.rpartition("/")[2]
            for marker, strategy in _MERGE_MARKERS:
                keys = value.get(marker)
                keys = [keys] if isinstance(keys, str) else keys if isinstance(keys, list) else []
                if strategy and "merge" not in str(value.get(strategy, "")).split(","):
                    continue
                where = f"{holder.rpartition('.')[2]}.{field}"
                for key in keys:
                    if isinstance(key, str):
                        found.setdefault(target, {}).setdefault(
                            key, f"the old spec already merged {where} by {key} ({marker}), so the API server "
                                 f"needed it in every item")
    return found


def _unmarked(properties: dict[str, Any]) -> bool:
    """Whether no field of a type writes a merge marker, asked of all its fields at once (most types: each field
    read on its own was most of the work of reading every type); False when unsure, for a field that is no
    object or list."""
    try:
        return all(map(_MARKED.isdisjoint, properties.values()))
    except TypeError:  # a field that is a number or null: read field by field
        return False


# -- keywords that write down what the old description already said: limits, formats, values, defaults -------

_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10, "twenty": 20, "fifty": 50, "hundred": 100}
_NUMBER = r"(\d[\d,]*|" + "|".join(_NUMBER_WORDS) + r")"
#: a limit stated in words: "The maximum size is 40 characters", "A maximum of three actions", "up to 4
#: sequences", "limits the number of annotations to a maximum of 50", "(max 100)", "at least 1"
_LIMIT = (r"(?i)\b(?:max(?:imum)?|min(?:imum)?|at most|at least|up to|no more than|no fewer than|"
          r"cannot exceed|must not exceed|limited to|between)\b[^.\n\d]{0,40}?\b" + _NUMBER + r"\b")
#: the limits whose value a description states as a number
LIMITS = ("maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties", "maximum", "minimum")
#: the pattern a description writes out for a value of a `format`: it tells one format from another, where
#: the standard both follow (ISO 8601 for `date` and `date-time`) does not
_SHAPES = {"date-time": r"YYYY-MM-DDTHH:MM:SS", "date": r"YYYY-MM-DD\b"}
#: what a description calls a value that a `format` names: the standard, or the pattern it writes out
_FORMATS = {"date-time": r"ISO[ -]?8601|RFC[ -]?3339|" + _SHAPES["date-time"],
            "date": r"ISO[ -]?8601|RFC[ -]?3339|" + _SHAPES["date"],
            "uri": r"\b(?:URL|URI|url)\b", "url": r"\b(?:URL|URI|url)\b",
            "email": r"(?i)\be-?mail address\b", "uuid": r"\bUUID\b",
            "ipv4": r"\bIPv4\b", "ipv6": r"\bIPv6\b",
            # a file's bytes, as a multipart part sends them (Stripe's "A file to upload ... RFC 2388")
            "binary": r"\b[Aa] file\b(?! ?name)|RFC[ -]?2388|\bbinary (?:data|content)\b"}
#: words that introduce the values a field takes: "Options are", "Can be one of", "either"
#: every run of text between two quotes or backticks (found at each opening, so `"a", "b"` gives both)
_QUOTED = r"(?=[`\"']([^`\"'\n]{1,200})[`\"'])"
_WORD = r"[\w.-]+"
_NAMED_VALUES = 6  # values a reason names; past them it says how many
#: a case of a field's value that the description says what the field does in: "If set to Never, ..."
_CASE = r"\b(?:[Ii]f|[Ww]hen) (?:it is )?set to [`\"']?([\w.-]*\w)"
_LISTING = r"(?i)\b(?:one of|options are|can be|possible values|either|supported|must be|values are)\b"
#: how a description states a default: "Defaults to X", "Default: `X`", "The default is X", "(default X)",
#: "Implicitly inferred to be X if unspecified"
_DEFAULT = (r"(?i:\bdefaults? (?:to|is|value is)\s*:?|\bdefault:|\(default|\binferred to be(?= \S+ if unspecified))"
            r"\s*[`\"']?")


def _number(text: str) -> float | None:
    word = _NUMBER_WORDS.get(text.lower())
    return float(word) if word is not None else float(text.replace(",", ""))


def said_limit(schema: Any, value: Any) -> str | None:
    """`the old description says so ("The maximum size is 20 characters")` when it states the limit a keyword
    now writes down (the same number after a word that makes it a limit)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    for found in compiled(_LIMIT).finditer(_description(schema)):
        if _number(found.group(1)) == float(value):
            return _says_so(found.group(0).strip())
    return None


def said_format(schema: Any, format_name: Any) -> str | None:
    """`the old description says so ("ISO 8601")` when it names the standard or the shape a `format` names."""
    pattern = _FORMATS.get(format_name) if isinstance(format_name, str) else None
    found = compiled(pattern).search(_description(schema)) if pattern else None
    return _says_so(found.group(0)) if found else None


def said_shape(schema: Any, format_name: Any) -> str | None:
    """`the old description says so ("YYYY-MM-DDTHH:MM:SS")` when it wrote out the pattern of the format that
    replaces the old one (`date` corrected to `date-time`): the values were always of the new format."""
    shape = _SHAPES.get(format_name) if isinstance(format_name, str) else None
    found = compiled(shape).search(_description(schema)) if shape else None
    return _says_so(found.group(0)) if found else None


#: the range of each integer format (OpenAPI's format registry)
_INTEGER_RANGES = {"int32": (-(2 ** 31), 2 ** 31 - 1), "int64": (-(2 ** 63), 2 ** 63 - 1)}


def bounded_as(schema: Any, format_name: Any) -> str | None:
    """`the old minimum and maximum were already the int64 bounds` when an integer format now names the range
    the old bounds wrote out (compared as the doubles JSON readers parse them into: `9223372036854776000`)."""
    bounds = _INTEGER_RANGES.get(format_name) if isinstance(format_name, str) else None
    if bounds is None or not isinstance(schema, dict):
        return None
    written = [schema.get("minimum"), schema.get("maximum")]
    numbers = [float(v) for v in written if isinstance(v, int | float) and not isinstance(v, bool)]
    if numbers != [float(v) for v in bounds]:
        return None
    return f"the old minimum and maximum were already the {format_name} bounds"


#: a description saying a map's values are text: "Values are strings", "values can be a maximum of 512
#: characters long"
_TEXT_VALUES = (r"(?i)\bvalues (?:are|must be) strings\b"
                r"|\bvalues (?:can|may) be (?:a maximum of|at most|up to) \d[\d,]* characters\b")


def said_text_values(schema: Any, values: Any) -> str | None:
    """`the old description says so ("values can be a maximum of 512 characters long")` when a map that took
    any values now takes strings (`additionalProperties: {type: string}`), which its description said."""
    if not isinstance(values, dict) or values.get("type") != "string" or set(values) - {"type", "description"}:
        return None
    found = compiled(_TEXT_VALUES).search(_description(schema))
    return _says_so(found.group(0)) if found else None


def said_values(schema: Any, values: Any) -> str | None:
    """`the old description lists them (pcm16, g711_ulaw and g711_alaw)` when it names every value an `enum`
    now lists: each one quoted (`x`, "x"), or each a word of a sentence that says these are the values, or
    each a case the description says what the field does in ("If set to Never, ...") when those cases are
    exactly the enum's values, at least two."""
    text = _description(schema)
    if not text or not isinstance(values, list) or not values or not all(isinstance(v, str) and v for v in values):
        return None
    quoted = set(compiled(_QUOTED).findall(text))  # (the text is read once, however many values the enum lists)
    words = {word.rstrip(".") for word in compiled(_WORD).findall(text)}
    listed = compiled(_LISTING).search(text) is not None and all(value in words for value in values)
    cases = set(compiled(_CASE).findall(text))
    if not (listed or all(value in quoted for value in values) or len(cases) > 1 and cases == set(values)):
        return None
    if len(values) > _NAMED_VALUES:
        return f"the old description lists all {len(values)} of them"
    names = ", ".join(values[:-1]) + f" and {values[-1]}" if len(values) > 1 else values[0]
    return f"the old description lists them ({names})"


#: the one value a field may take, which is its default whether or not the schema says so
_ONLY = r"(?i:\bonly)\s+[`\"']?{}[`\"']?\s+(?i:is\s+(?:currently\s+)?supported)"


def said_default(schema: Any, value: Any) -> str | None:
    """`the description says so ("Default: `1`")` when it states the default a schema writes down (or still
    states the one it stops writing), or says the value is the only one supported. The default may be written in
    the prose's case ("defaults to shared") when the description also names the value as it is spelt
    ("expected values are Shared: ..."), so the words can mean no other value."""
    if isinstance(value, dict | list) or value is None:
        return None
    shown = json.dumps(value) if isinstance(value, bool) else str(value)
    text = _description(schema)
    found = re.search(_DEFAULT + re.escape(shown) + r"(?![\w-])[`\"']?", text) or re.search(
        _ONLY.format(re.escape(shown)), text)
    if not found and isinstance(value, str) and re.search(rf"(?<![\w-]){re.escape(shown)}(?![\w-])", text):
        found = re.search(_DEFAULT + f"(?i:{re.escape(shown)})" + r"(?![\w-])[`\"']?", text)
    return f'the description says so ("{found.group(0).strip()}")' if found else None


#: a sentence that calls fields mutually exclusive: 'This is a mutually exclusive setting with "Number".'
_EXCLUSIVE = r"[^.\n]*\bmutually exclusive\b[^.\n]*"


def said_exclusive(schema: Any) -> str | None:
    """`the old descriptions say so ("... mutually exclusive setting with "Number"")` when a struct's fields
    are each described as mutually exclusive with every other (Kubernetes' `ServiceBackendPort`): a valid object
    sets one of them at most, so no two server-side apply managers can own fields of it side by side."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict) or len(properties) < 2:
        return None
    quotes = []
    for name, field in properties.items():
        sentences = compiled(_EXCLUSIVE).findall(_description(field))
        named = {word.lower() for sentence in sentences for word in compiled(_QUOTED).findall(sentence)}
        if not sentences or {other.lower() for other in properties if other != name} - named:
            return None
        quotes.append(sentences[0].strip())
    return f'the old descriptions say so ("{quotes[0]}")'


#: a sentence saying when a field is required: "**Required if you provide a `status` of `completed`**."
_REQUIRED_IF = r"(?i)\brequired (?:if|when)\b[^.\n]*"
#: what a branch of a union that only states a condition may write: which values of one field it is for
#: (`properties: {status: {enum: [completed]}}`) and which fields it then requires
_CONDITION_KEYWORDS = frozenset({"properties", "required", "additionalProperties", "type"})


def _condition(branch: Any) -> tuple[str, list[Any], set[str]] | None:
    """(field, its values, the fields required) of a branch that only requires fields for some values of one."""
    if not isinstance(branch, dict) or set(branch) - _CONDITION_KEYWORDS or branch.get("type", "object") != "object" \
            or branch.get("additionalProperties", True) is not True:
        return None
    properties, required = branch.get("properties"), branch.get("required", [])
    if not isinstance(properties, dict) or len(properties) != 1 or not isinstance(required, list):
        return None
    [(field, values)] = properties.items()
    if not isinstance(values, dict) or set(values) != {"enum"} or not isinstance(values["enum"], list):
        return None
    return field, values["enum"], {name for name in required if isinstance(name, str)}


def said_conditions(schema: Any, keyword: str, branches: Any) -> str | None:
    """`the old description says so ("Required if you provide a `status` of `completed`")` when a `oneOf` or
    `anyOf` only writes down which fields one field's values require, and the old description of each field it
    requires said when it is: the branches share out the field's old `enum` (one branch, or for `anyOf` at
    least one, takes a value without the field), so nothing else is refused."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    conditions = [_condition(branch) for branch in branches] if isinstance(branches, list) else []
    if not isinstance(properties, dict) or len(conditions) < 2 or None in conditions:
        return None
    read = [c for c in conditions if c is not None]
    field = read[0][0]
    known = properties.get(field, {}).get("enum") if isinstance(properties.get(field), dict) else None
    taken = [json.dumps(value) for _, values, _ in read for value in values]
    without = sum(field not in required for _, _, required in read)  # branches a value without the field meets
    if any(c[0] != field for c in read) or not isinstance(known, list) or len(taken) != len(set(taken)) \
            or set(taken) != {json.dumps(value) for value in known} or not 1 <= without <= (
                1 if keyword == "oneOf" else len(read)):
        return None
    quotes = []
    for _, values, required in read:
        for name in sorted(required - {field}):
            found = compiled(_REQUIRED_IF).search(_description(properties.get(name)))
            quoted = set(compiled(_QUOTED).findall(found.group(0))) if found else set()
            if not found or field not in quoted or not all(str(value) in quoted for value in values):
                return None
            quotes.append(found.group(0).strip(" *_"))
    return _says_so(quotes[0]) if quotes else None


def restated(keyword: str, kind: str, old: Any, new: Any, old_value: Any, new_value: Any) -> str | None:
    """The words that already said what a keyword written (or dropped) now says, for the keywords a description
    states in words: a limit, a format, a default written down that the old description gave; a default dropped
    that the new description still gives; a format replaced by the one whose pattern the old description wrote."""
    if kind == "added" and keyword in LIMITS:
        return said_limit(old, new_value)
    if kind == "added" and keyword == "format":
        return said_format(old, new_value) or bounded_as(old, new_value)
    if kind == "modified" and keyword == "format":
        return said_shape(old, new_value)
    if keyword == "default" and kind != "modified":
        return said_default(old, new_value) if kind == "added" else said_default(new, old_value)
    return None


# -- a CEL rule that writes down a constraint the old description stated -----------------------------------

#: words that state a constraint on which fields are set: "is required when", "It is invalid to set", "MUST",
#: "Only one of TPP or Cloud may be specified"
_PRESENCE_WORDS = (r"\b(?:required|requires|invalid|must|MUST|[Oo]nly one of|[Aa]t most one|"
                   r"[Ee]xactly one)\b")
_EXACTLY_ONE = r"==\s*1\b"
_AT_MOST_ONE = r"(?i)\b(?:only one of|at most one)\b"
#: words that state items (or the values of a field across items) do not repeat
_UNIQUE_WORDS = r"(?i)\b(?:unique|more than once)\b"
#: a rule that keeps items apart: `self.all(a, self.exists_one(b, a.name == b.name))`
_UNIQUENESS = r"\bexists_one\("
_READ = r"\.(\w+)\b(?!\()"
_LITERAL = r"'([^']+)'|\"([^\"]+)\""
_SENTENCE = r"(?<=[.!?])\s+"


def _says_so(sentence: str) -> str:
    return f'the old description says so ("{sentence}")'


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in compiled(_SENTENCE).split(text) if s.strip()]


def _names(sentence: str, field: str) -> bool:
    """Whether a sentence names a field, as prose writes it: `certificateRefs` as CertificateRefs, `tpp` as TPP."""
    return re.search(rf"(?i)(?<![\w.-]){re.escape(field)}(?![\w-])", sentence) is not None


def said_rule(rule: Any, old: Any, new: Any) -> tuple[str, bool] | None:
    """`the old description says so ("...")`, quoting the sentence of the old descriptions that already stated
    what an added CEL rule enforces, and whether it stated all of it; None when none did.

    The sentences are those of the old description of the object the rule is on (or of its items) and of each
    of its fields the rule reads. A sentence states a rule that keeps items apart (`exists_one`) when it says
    "unique" or "more than once" and names each field the rule reads (or is that field's own description, or
    calls the items "identical" in the list's own description while the rule compares all their fields). It
    states any other rule that tests which fields are set (`has()`, `size()`) when it says "required",
    "invalid", "must" or "only one of", is the description of a field the rule reads, and names each string the
    rule compares with and each other field the rule reads but compares with no string or emptiness. A field
    the release adds is left out of both, and then the sentence does not state all of the rule; nor does "only
    one of" state a rule that demands exactly one. A rule about values (`startsWith`, `matches`) is never
    stated so."""
    if not isinstance(rule, str) or not isinstance(old, dict):
        return None
    unique = compiled(_UNIQUENESS).search(rule) is not None
    if not unique and "has(" not in rule and "size(" not in rule:
        return None
    items = mapping(old.get("items"))
    known = {**mapping(items.get("properties")), **mapping(old.get("properties"))}
    new_items = mapping(mapping(new).get("items"))
    added = {*mapping(new_items.get("properties")), *mapping(mapping(new).get("properties"))} - set(known)
    # (`__namespace__` is CEL's escape of `namespace`)
    every = {name.strip("_") for name in compiled(_READ).findall(rule)}
    read = every - added
    holders = sorted(read & set(known))
    if not holders:
        return None
    whole = not every & added
    literals = {a or b for a, b in compiled(_LITERAL).findall(rule)}
    # a field compared with a string or with emptiness is the rule's condition: naming the string names it, unless
    # every string is also a field's name ("ExtensionRef" is a type and a field), which then says nothing
    conditions = {name for name in read if re.search(
        rf"\b{name}\b\s*(?:==|!=|in)\s*['\"\[]|size\([\w.]*\b{name}\)\s*==\s*0", rule)}
    if literals and all(value.lower() in {name.lower() for name in read} for value in literals):
        conditions = set()
    own = [("", _description(old)), ("", _description(items))] + [(name, _description(known[name]))
                                                                   for name in holders]
    for holder, text in own:
        for sentence in _sentences(text):
            if unique:
                compared = all(name == holder or _names(sentence, name) for name in read)
                identical = not holder and "identical" in sentence and read == set(mapping(
                    items.get("properties")))
                if compiled(_UNIQUE_WORDS).search(sentence) and (compared or identical):
                    return _says_so(sentence), whole
                continue
            if not holder or not compiled(_PRESENCE_WORDS).search(sentence):
                continue
            if all(_names(sentence, value) for value in literals) and all(
                    name == holder or name in conditions or _names(sentence, name) for name in read):
                # "only one of" allows none: a rule demanding exactly one (`== 1`) says more
                exactly = compiled(_EXACTLY_ONE).search(rule) and compiled(_AT_MOST_ONE).search(sentence)
                return _says_so(sentence), whole and not exactly
    return None
