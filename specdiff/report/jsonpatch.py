"""The RFC 6902 JSON Patch that turns the old document into the new one (the jsonpatch library's diff).

It is the raw structural difference, with no verdicts: for tools that apply or inspect changes. A per-group
directory is patched as one object keyed by group/version; CRD inputs as their list of CRDs.
"""

from __future__ import annotations

import json
from typing import Any

import jsonpatch

from specdiff.errors import UsageError
from specdiff.records import Report
from specdiff.report import RenderOptions, json_text


def render(report: Report, options: RenderOptions) -> str:
    if options.old_doc is None or options.new_doc is None:
        raise UsageError("the jsonpatch format needs both documents (render it from the command line)")
    old, new = _tree(options.old_doc), _tree(options.new_doc)
    patch = jsonpatch.make_patch(old, new).patch
    return json_text(patch)


def _tree(doc: Any) -> Any:
    """The document as plain JSON data (YAML dates become strings, as in the JSON envelope)."""
    data = {key: part.data for key, part in doc.parts} if doc.parts else doc.data
    return json.loads(json.dumps(data, default=str))
