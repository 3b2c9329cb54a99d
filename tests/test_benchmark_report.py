"""``python -m benchmarks.report``'s page and chart, from a made-up run (nothing is timed).

The lead re-runs the report unattended at the end of a release, so what it writes
must not depend on every section having succeeded: a failed section is said in its
place, the block between the markers is replaced (not appended to) on every run,
and the chart is well-formed SVG.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from benchmarks import report

LIBS = report.BINARY_LIBS


def _report() -> dict[str, Any]:
    us = {
        w: {lib: {"ser": 1.0 + k, "de": 2.0 + k} for k, lib in enumerate(LIBS)}
        for w in ("book", "gm1_proto2")
    }
    rows = [
        {"workload": "book", "op": "to_json", "protoattr_us": 2.0, "json_format_us": 8.0},
    ]
    rows[0]["ratio_json_format"] = 0.25
    return {
        "date": "2026-01-01 00:00 UTC",
        "commit": "abc1234",
        "sha": "abc1234",
        "seconds": 12.0,
        "machine": {
            "cpu": "a <CPU>",
            "cpus": 2,
            "os": "Linux",
            "python": "CPython 3.11",
            "loadavg_before": "0.1",
            "loadavg_after": "0.2",
        },
        "sections": {
            "binary": {"us": us},
            "json": {"peers": ["protoattr", "json_format"], "rows": rows},
            "streams": {"error": "timed out after 180 s"},
        },
    }


def test_the_page_block_is_replaced_and_says_what_failed(tmp_path: Path) -> None:
    doc = tmp_path / "benchmarks.md"
    doc.write_text(f"# B\n\nbefore\n\n{report.BEGIN}\nold\n{report.END}\n\nafter\n")
    block = report.markdown(_report())
    report.write_page(doc, block)
    report.write_page(doc, block)
    text = doc.read_text()
    assert text.count(report.BEGIN) == 1 and "old" not in text
    assert text.startswith("# B\n\nbefore\n\n") and text.endswith("\n\nafter\n")
    assert "at commit `abc1234`" in text
    assert "| gm1_proto2 | 1.00 / 2.00 (0.33x / 0.50x) |" in text  # protoattr / upb (3, 4)
    assert "| book | `to_json` | 2.00 | 8.00 (0.25x) |" in text
    assert "Not measured in this run: timed out after 180 s" in text
    assert "| serialize <= 0.20x google-upb | book | MISSED 0.33x |" in text
    assert "| deserialize <= 0.50x google-upb | gm1_proto2 | met 0.50x |" in text
    assert "| JSON <= 0.5x json_format |" not in text  # only the peers are targets
    assert "| JSON <= 0.5x protobuf-py | book `to_json` | not measured |" in text


def test_the_chart_is_well_formed_svg() -> None:
    svg = report.svg_chart(_report())
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "gm1_proto2 deserialize" in texts and "0.50" in texts
    assert any("a <CPU>" in (t or "") for t in texts)  # escaped in the file, read back


def test_render_rewrites_the_page_and_chart_from_a_saved_run(tmp_path: Path) -> None:
    saved = tmp_path / "report.json"
    saved.write_text(json.dumps(_report()))
    assert report.main(["--render", str(saved), "--docs", str(tmp_path)]) == 0
    assert "at commit `abc1234`" in (tmp_path / "benchmarks.md").read_text()
    ET.fromstring((tmp_path / report.CHART).read_text())
