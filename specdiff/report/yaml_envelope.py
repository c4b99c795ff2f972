"""The JSON envelope as YAML: the same keys and values (values go through JSON first, so both formats carry
exactly the same data), dumped by the pure-Python safe dumper so every machine writes the same bytes."""

from __future__ import annotations

import json

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


def render(report: Report, options: RenderOptions) -> str:
    data = json.loads(json.dumps(envelope(report), default=str))
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False,
                     width=120)
