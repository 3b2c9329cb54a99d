"""Tables, the issue's targets, and the chart, from the medians of the runs."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

from benchmarks.peers import BASELINE

OPS = ("serialize", "deserialize", "roundtrip")
OP_TITLES = {"serialize": "serialize", "deserialize": "deserialize", "roundtrip": "round trip"}
WORKLOAD_TITLES = {
    "book": "book: one Book",
    "tasks": "tasks: protobuf-net's Task list, 2 Tasks",
    "boilers": "boilers: AllBoilers, 7,000 boiler records",
    "dns": "dns: DnsResponse, 5,000 DNS records with proto2 defaults",
    "gm1_proto2": "gm1_proto2: Google's GoogleMessage1 (proto2), 228 bytes",
    "gm1_proto3": "gm1_proto3: GoogleMessage1, proto3 form",
}


def medians(runs: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """``{lib: {workload: {op_ns: median, samples: {op: {run: ns}}, size, gzip_size, error?}}}``.

    ``runs`` holds the workers' outputs, each tagged with its ``run`` number.
    """
    acc: dict[str, dict[str, dict[str, Any]]] = {}
    for out in runs:
        lib = out["lib"]
        libacc = acc.setdefault(lib, {})
        if "error" in out:
            libacc.setdefault("*", {"error": out["error"]})
            continue
        for w, res in out["workloads"].items():
            wacc = libacc.setdefault(w, {"samples": {op: {} for op in OPS}})
            if "error" in res:
                wacc["error"] = res["error"]
                continue
            wacc["size"] = res["size"]
            wacc["gzip_size"] = res["gzip_size"]
            for op in OPS:
                wacc["samples"][op][out.get("run", len(wacc["samples"][op]))] = res[f"{op}_ns"]
    for libacc in acc.values():
        for wacc in libacc.values():
            samples = wacc.get("samples", {})
            for op, xs in samples.items():
                if xs:
                    wacc[f"{op}_ns"] = statistics.median(xs.values())
            wacc["runs"] = max((len(xs) for xs in samples.values()), default=0)
    return acc


def paired_ratio(med: dict[str, Any], lib: str, other: str, w: str, op: str) -> float | None:
    """Median over the runs of ``lib``'s time / ``other``'s time in the same run.

    Within a run the libraries are timed back to back on the same workload, so
    a per-run ratio cancels most of the drift in machine load between runs.
    """
    mine = med.get(lib, {}).get(w, {}).get("samples", {}).get(op, {})
    theirs = med.get(other, {}).get(w, {}).get("samples", {}).get(op, {})
    ratios = [mine[r] / theirs[r] for r in mine if theirs.get(r)]
    return statistics.median(ratios) if ratios else None


def best_ratio(med: dict[str, Any], lib: str, other: str, w: str, op: str) -> float | None:
    """``lib``'s fastest run / ``other``'s fastest run: the least disturbed figures."""
    mine = med.get(lib, {}).get(w, {}).get("samples", {}).get(op, {})
    theirs = med.get(other, {}).get(w, {}).get("samples", {}).get(op, {})
    if not mine or not theirs or len(mine) < 2:
        return None
    return min(mine.values()) / min(theirs.values())


def spread(med: dict[str, Any], lib: str, w: str, op: str) -> float | None:
    """Slowest run / fastest run: how noisy the machine was for this figure."""
    xs = list(med.get(lib, {}).get(w, {}).get("samples", {}).get(op, {}).values())
    return max(xs) / min(xs) if xs and min(xs) > 0 else None


def _all_samples(libacc: dict[str, Any]) -> list[dict[Any, float]]:
    return [xs for wacc in libacc.values() for xs in wacc.get("samples", {}).values()]


def noise_note(med: dict[str, Any], workloads: list[str]) -> str:
    """One line on how much the runs disagreed (slowest / fastest run, per figure)."""
    xs = [
        sp
        for lib in med
        for w in workloads
        for op in OPS
        if (sp := spread(med, lib, w, op)) is not None
    ]
    if not xs or max(len(x) for lib in med.values() for x in _all_samples(lib)) < 2:
        return ""
    xs.sort()
    return (
        "\nrun-to-run spread (slowest / fastest run of a figure): "
        f"median {statistics.median(xs):.2f}, worst {xs[-1]:.2f}"
    )


def _us(ns: float | None) -> str:
    if ns is None:
        return "-"
    us = ns / 1000
    if us >= 10_000:
        return f"{us:,.0f}"
    if us >= 100:
        return f"{us:,.1f}"
    return f"{us:.2f}"


def _fmt_ratio(r: float | None) -> str:
    return "-" if r is None else f"{r:.2f}x"


def table(med: dict[str, Any], libs: list[str], workloads: list[str], markdown: bool) -> str:
    """One section per workload: µs per operation, ratio to Google upb, sizes."""
    out: list[str] = []
    head = ["library"]
    for op in OPS:
        head += [f"{OP_TITLES[op]} µs", "x upb"]
    head += ["size B", "gzip B"]
    for w in workloads:
        rows = []
        for lib in libs:
            r = med.get(lib, {}).get(w)
            if r is None and "*" not in med.get(lib, {}):
                continue  # the library does not implement this workload
            r = r or med[lib]["*"]
            if "error" in r:
                rows.append([lib, f"FAILED: {r['error']}"[:90]])
                continue
            row = [lib]
            for op in OPS:
                ratio = paired_ratio(med, lib, BASELINE, w, op)
                row += [_us(r.get(f"{op}_ns")), _fmt_ratio(ratio)]
            row += [f"{r['size']:,}", f"{r['gzip_size']:,}"]
            rows.append(row)
        out.append(_render(WORKLOAD_TITLES.get(w, w), head, rows, markdown))
    return "\n\n".join(out)


def _render(title: str, head: list[str], rows: list[list[str]], markdown: bool) -> str:
    if markdown:
        lines = [f"**{title}**", "", "| " + " | ".join(head) + " |"]
        lines.append("|" + "|".join([":---"] + ["---:"] * (len(head) - 1)) + "|")
        for row in rows:
            lines.append("| " + " | ".join(row + [""] * (len(head) - len(row))) + " |")
        return "\n".join(lines)
    widths = [
        max(len(h), *(len(r[i]) for r in rows if len(r) == len(head))) for i, h in enumerate(head)
    ]
    fmt_row: Callable[[list[str]], str] = lambda r: "  ".join(  # noqa: E731
        c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r)
    )
    lines = [title, fmt_row(head), "  ".join("-" * w for w in widths)]
    for row in rows:
        lines.append(
            fmt_row(row) if len(row) == len(head) else f"{row[0].ljust(widths[0])}  {row[1]}"
        )
    return "\n".join(lines)


# --- the targets ------------------------------------------------------


def _get(med: dict[str, Any], lib: str, w: str, key: str) -> float | None:
    r = med.get(lib, {}).get(w, {})
    v = r.get(key)
    return None if v is None else float(v)


def targets(med: dict[str, Any], workloads: list[str]) -> list[dict[str, Any]]:
    """Every target of the issue, per workload: the measured figure and met/missed."""
    P, PURE = "protoattr", "pure-protobuf"
    spec = [
        # (label, other lib, key, figure(protoattr, other) -> float, met(figure) -> bool, unit)
        ("serialize <= 0.8x google-upb", BASELINE, "serialize_ns", "ratio", 0.8),
        ("deserialize <= 1.0x google-upb", BASELINE, "deserialize_ns", "ratio", 1.0),
        ("serialize >= 10x faster than pure-protobuf", PURE, "serialize_ns", "speedup", 10.0),
        ("deserialize >= 10x faster than pure-protobuf", PURE, "deserialize_ns", "speedup", 10.0),
        ("serialize faster than json", "json", "serialize_ns", "ratio<", 1.0),
        ("deserialize faster than json", "json", "deserialize_ns", "ratio<", 1.0),
        ("serialize faster than pickle", "pickle", "serialize_ns", "ratio<", 1.0),
        ("deserialize faster than pickle", "pickle", "deserialize_ns", "ratio<", 1.0),
        ("smaller than json", "json", "size", "ratio<", 1.0),
        ("smaller than pickle", "pickle", "size", "ratio<", 1.0),
        # issue 12, the native engine (protoattr's default backend when it is built)
        ("serialize <= 0.20x google-upb", BASELINE, "serialize_ns", "ratio", 0.2),
        ("deserialize <= 0.50x google-upb", BASELINE, "deserialize_ns", "ratio", 0.5),
        ("serialize faster than msgspec", "msgspec", "serialize_ns", "ratio<", 1.0),
        ("deserialize faster than msgspec", "msgspec", "deserialize_ns", "ratio<", 1.0),
    ]
    out = []
    for label, other, key, kind, bound in spec:
        for w in workloads:
            best = None
            if key == "size":
                mine, theirs = _get(med, P, w, key), _get(med, other, w, key)
                ratio = mine / theirs if mine and theirs else None
            else:
                ratio = paired_ratio(med, P, other, w, key.removesuffix("_ns"))
                best = best_ratio(med, P, other, w, key.removesuffix("_ns"))
            if not ratio:
                out.append({"target": label, "workload": w, "figure": None, "met": None})
                continue
            if kind == "speedup":
                fig = 1 / ratio
                met = fig >= bound
                text = f"{fig:.1f}x faster"
                if best:
                    text += f" (best {1 / best:.1f}x)"
            else:
                fig = ratio
                met = fig <= bound if kind == "ratio" else fig < bound
                text = f"{fig:.2f}x"
                if best:
                    text += f" (best {best:.2f}x)"
            out.append(
                {
                    "target": label,
                    "workload": w,
                    "figure": fig,
                    "best_runs_figure": best if kind != "speedup" or not best else 1 / best,
                    "text": text,
                    "met": met,
                }
            )
    return out


def targets_table(tg: list[dict[str, Any]], workloads: list[str], markdown: bool) -> str:
    labels = list(dict.fromkeys(t["target"] for t in tg))
    head = ["target (protoattr)", *workloads]
    rows = []
    for label in labels:
        row = [label]
        for w in workloads:
            t = next((t for t in tg if t["target"] == label and t["workload"] == w), None)
            if t is None or t["met"] is None:
                row.append("n/a")
            else:
                row.append(("met " if t["met"] else "MISSED ") + t["text"])
        rows.append(row)
    met = sum(1 for t in tg if t["met"])
    known = sum(1 for t in tg if t["met"] is not None)
    title = (
        f"Targets of the issue: {met} of {known} met (verdicts on the median of per-run "
        "ratios; in brackets, fastest run / fastest run, as a check on noise)"
    )
    return _render(title, head, rows, markdown)


# --- chart --------------------------------------------------------------------


def chart(med: dict[str, Any], libs: list[str], workloads: list[str], path: str) -> None:
    """Per workload, each library's serialize and deserialize time relative to Google upb."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(workloads), 1, figsize=(8, 2.2 + 1.6 * len(workloads)))
    if len(workloads) == 1:
        axes = [axes]
    colours = {"serialize": "#4c72b0", "deserialize": "#dd8452"}
    for ax, w in zip(axes, workloads, strict=True):
        present = [lib for lib in libs if _get(med, lib, w, "serialize_ns")]
        base = {op: _get(med, BASELINE, w, f"{op}_ns") for op in ("serialize", "deserialize")}
        ys = range(len(present))
        for k, op in enumerate(("serialize", "deserialize")):
            vals = [paired_ratio(med, lib, BASELINE, w, op) or 0.0 for lib in present]
            ax.barh(
                [y + (k - 0.5) * 0.38 for y in ys], vals, height=0.38, color=colours[op], label=op
            )
            for y, v in zip(ys, vals, strict=True):
                ax.text(v * 1.04, y + (k - 0.5) * 0.38, f"{v:.2f}", va="center", fontsize=7)
        ax.set_xscale("log")
        top = max(
            (paired_ratio(med, lib, BASELINE, w, op) or 1.0) for lib in present for op in colours
        )
        ax.set_xlim(right=top * 1.8)
        ax.axvline(1.0, color="grey", lw=0.8, ls="--")
        ax.set_yticks(list(ys))
        ax.set_yticklabels(present, fontsize=8)
        ax.invert_yaxis()
        bs, bd = base["serialize"], base["deserialize"]
        sub = f"(google-upb: {_us(bs)} µs / {_us(bd)} µs)" if bs and bd else ""
        ax.set_title(f"{WORKLOAD_TITLES.get(w, w)} {sub}", fontsize=9)
        ax.tick_params(axis="x", labelsize=8)
    axes[0].legend(fontsize=8, loc="lower right")
    axes[-1].set_xlabel("time relative to google-upb (log scale; lower is faster)", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
