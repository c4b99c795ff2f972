"""What the old spec's own text already said about a field whose `required` marker changed.

Kubernetes publishes `required` from Go markers, and releases that add or drop the markers mostly restate what
the API server always did: a field whose description said "Required." was validated as required before the
marker appeared, and a field the server defaults or populates is still there for readers after the marker goes.
These return the words that decide, quoted, so the reason can say which ones; None when the text says nothing.
The patterns are sentences, not any occurrence of a word: "Not required." and "required if ..." are no evidence.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: "Required." as a sentence of its own (Go doc comments often end "... will be ignored Required."), the
#: `+required` marker, or "This field is required."
_REQUIRED = re.compile(r"(?<![\w+-])(?<!Not )(?<!not )(?:Required\.|\+required\b|This field is required\.)(?=\s|$)")
#: a sentence opening with "Defaults to" a value (not "Defaults to empty", which the server leaves out), or the
#: server saying it writes the field itself
_WRITTEN = re.compile(r"(?:^|(?<=[.!:] )|(?<=\n))Defaults to (?!(?:empty|nil|null|unset|none|nothing|no)\b)[^.\n]{1,60}"
                      r"|\b[Pp]opulated by the (?:system|server)\b|\b[Ss]et by the (?:system|server)\b")


def _description(schema: Any) -> str:
    text = schema.get("description") if isinstance(schema, dict) else None
    return text if isinstance(text, str) else ""


def said_required(schema: Any) -> str | None:
    """`the old description says so ("Required.")` when the field's description states that it is required."""
    found = _REQUIRED.search(_description(schema))
    return f'the old description says so ("{found.group(0)}")' if found else None


def said_written(schema: Any, default: Any) -> str | None:
    """Why readers still always see the field: the description says the server defaults or populates it, or
    the schema gives it a `default` (`default` is what the differ counts as one: not a Kubernetes zero value)."""
    found = _WRITTEN.search(_description(schema))
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
