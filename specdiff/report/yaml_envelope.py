"""The JSON envelope as YAML: the same keys and values (values go through JSON first, so both formats carry
exactly the same data), dumped by the pure-Python safe dumper so every machine writes the same bytes."""

from __future__ import annotations

import json

import yaml

from specdiff.records import Report
from specdiff.report import RenderOptions
from specdiff.report.json_envelope import envelope


def render(report: Report, options: RenderOptions) -> str:
    data = json.loads(json.dumps(envelope(report), default=str))
    return yaml.dump(data, Dumper=yaml.SafeDumper, sort_keys=False, allow_unicode=True, default_flow_style=False,
                     width=120)
