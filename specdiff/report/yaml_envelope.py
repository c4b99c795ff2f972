"""The JSON envelope as YAML: the same keys and values (values go through JSON first, so both formats carry
exactly the same data), written the same on every machine: by libyaml's emitter when PyYAML has it and the
text holds nothing the two emitters write differently, else by the pure-Python safe dumper (five times slower:
seconds on a large report)."""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

from specdiff.records import Report
from specdiff.report import RenderOptions
from specdiff.report.json_envelope import envelope


class _Dumper(yaml.SafeDumper):
    """The safe dumper, but a string holding NEL (U+0085) is double-quoted, where it is written as the escape
    `\\N`: PyYAML writes it as it is in the other styles, and a YAML reader takes it there for a line break, so the
    report would load back as other data than the JSON report."""

    def choose_scalar_style(self) -> str:
        event = self.event
        if isinstance(event, yaml.ScalarEvent) and "\x85" in event.value:
            return '"'
        return str(super().choose_scalar_style())


#: in the envelope's JSON text, what the two emitters may write differently: characters outside those both print
#: as they are (NEL, the BOM, non-characters, above U+FFFF), control characters but the line break (which JSON
#: escapes), and an empty key; when any is there the pure-Python dumper writes the whole report
_EMITTERS_DIFFER = re.compile("[^\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd]|\\\\[rtbfu]|\"\": ")
_C_DUMPER: Any = getattr(yaml, "CSafeDumper", None)


def render(report: Report, options: RenderOptions) -> str:
    text = json.dumps(envelope(report), default=str, ensure_ascii=False)
    dumper = _C_DUMPER if _C_DUMPER is not None and not _EMITTERS_DIFFER.search(text) else _Dumper
    return dump(json.loads(text), dumper)


def dump(data: Any, dumper: Any) -> str:
    return yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, default_flow_style=False, width=120)
