"""JSON: exactly one object, the report's ``to_dict``."""

from __future__ import annotations

import json

from partpicker.validate.report import Report


def render(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=2, allow_nan=False)
