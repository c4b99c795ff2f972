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


#: where a list names the field its items are merged by: strategic merge patch's merge key (with the merge
#: strategy), and server-side apply's list-map keys
_MERGE_MARKERS = (("x-kubernetes-patch-merge-key", "x-kubernetes-patch-strategy"), ("x-kubernetes-list-map-keys", ""))


def merge_keys(schemas: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Named type -> field -> the evidence that the API server merges lists of that type by the field: a list of
    it keyed by the field (`PodSpec.hostAliases` merges by `ip`). An item without its key cannot be merged, so
    the API server always needed it there, whatever `required` said. `schemas` maps each name to an object with
    a `schema` (graph.model.NamedSchema)."""
    found: dict[str, dict[str, str]] = {}
    for holder, named in schemas.items():
        properties = named.schema.get("properties") if isinstance(named.schema, dict) else None
        for field, value in (properties.items() if isinstance(properties, dict) else ()):
            items = value.get("items") if isinstance(value, dict) else None
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
