#!/usr/bin/env python3
"""Regenerates the README's benchmark table against Open CASCADE.

The table lies between the markers `<!-- bench-table:start -->` and
`<!-- bench-table:end -->` of README.md. Each row is one criterion benchmark:
its extrack figure is the median point estimate of
`target/criterion/<group>/<bench>/new/estimates.json` (criterion writes the
group name with `/` replaced by `_`), its Open CASCADE figure comes from
OCCT below (or, where present, from `tools/occt_timings/*.json`), and the
ratio is Open CASCADE / extrack.

A row whose criterion output is missing keeps the extrack figure the README
already shows, and the script says so. Typical use:

    cargo bench --bench point_body && cargo bench --bench body_pair \\
        && cargo bench --bench step_parse && cargo bench --bench iges_parse
    python3 tools/bench_table.py            # rewrite the table in README.md
    python3 tools/bench_table.py --check    # exit 1 if README.md is stale

Options: --readme PATH, --criterion DIR (default target/criterion),
--print (write the table to stdout, leave the README alone).

The point–body per-file table (`cargo bench --bench point_body` writes
`target/criterion/point_body_files.json`) goes between
`<!-- point-body-files:start -->` and `<!-- point-body-files:end -->`: in the
README the summary over all files and the ten worst files, in
docs/benchmarks.md (--benchmarks PATH) every file. Without that JSON those
blocks are left as they are.
"""

import argparse
import glob
import json
import os
import re
import sys

START = "<!-- bench-table:start -->"
END = "<!-- bench-table:end -->"
FILES_START = "<!-- point-body-files:start -->"
FILES_END = "<!-- point-body-files:end -->"
PATHS = ("lissajous", "segments", "grazing")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Open CASCADE 8.0 reference times in microseconds, measured on the same
# 2-core machine, with where each comes from:
# - point queries: BRepExtrema_DistShapeShape between a vertex and the shape
#   (rounded_box, sculpted: the oracle generator's timings; box_sides_asm:
#   tools/occt_timings/step_sw2015_box_sides_asm.timing.json, the query object
#   reused, `brepextrema_reused`);
# - body pairs: tools/oracle/occt_pair_timing.py NAME --steps 100 (median per
#   step of BRepExtrema_DistShapeShape between the face compounds while B
#   moves near A);
# - imports: `read_total_ms` (ReadFile + TransferRoots) of the oracle's
#   inspect files.
OCCT_POINT_ROUNDED_BOX = 226.0
OCCT_POINT_SCULPTED = 693.0
OCCT_POINT_BOX_SIDES = 5370.2
OCCT_PAIR = {"ellipsoids": 56_000.0, "tiled_convex": 172_000.0, "assembly": 4_500.0, "corpus_as1": 143_000.0}
OCCT_IMPORT = {
    "step_catia5_ventilator.stp": 1272.06e3,
    "step_sw2015_box_sides_asm.step": 499.72e3,
    "iges_sw2010_impeller.igs": 1338.46e3,
    "iges_euclid_bearing.iges": 294.78e3,
}

# (criterion id, operation, Open CASCADE µs)
ROWS = [
    ("point_body/rounded_box/coherent_update", "point–body coherent update, rounded_box (26 faces)", OCCT_POINT_ROUNDED_BOX),
    ("point_body/rounded_box/cold_query", "point–body cold query, rounded_box", OCCT_POINT_ROUNDED_BOX),
    ("point_body/sculpted/coherent_update", "point–body coherent update, sculpted (3 freeform faces)", OCCT_POINT_SCULPTED),
    ("point_body/sculpted/cold_query", "point–body cold query, sculpted", OCCT_POINT_SCULPTED),
    ("point_body/sw2015_box_sides_asm/coherent_update", "point–body coherent update, box_sides_asm (417 faces)", OCCT_POINT_BOX_SIDES),
    ("point_body/sw2015_box_sides_asm/cold_query", "point–body cold query, box_sides_asm", OCCT_POINT_BOX_SIDES),
    ("body_pair/ellipsoids/coherent_update", "body–body coherent update, NURBS ellipsoids", OCCT_PAIR["ellipsoids"]),
    ("body_pair/ellipsoids/cold_query", "body–body cold query, NURBS ellipsoids", OCCT_PAIR["ellipsoids"]),
    ("body_pair/tiled_convex/coherent_update", "body–body coherent update, tiled_convex vs itself", OCCT_PAIR["tiled_convex"]),
    ("body_pair/tiled_convex/cold_query", "body–body cold query, tiled_convex", OCCT_PAIR["tiled_convex"]),
    ("body_pair/assembly/coherent_update", "body–body coherent update, assembly (holed box, sphere)", OCCT_PAIR["assembly"]),
    ("body_pair/assembly/cold_query", "body–body cold query, assembly", OCCT_PAIR["assembly"]),
    ("body_pair/corpus_as1/coherent_update", "body–body coherent update, autocad2000_as1 (non-convex parts)", OCCT_PAIR["corpus_as1"]),
    ("body_pair/corpus_as1/cold_query", "body–body cold query, autocad2000_as1", OCCT_PAIR["corpus_as1"]),
    ("step_parse_build/step_catia5_ventilator.stp", "STEP import, catia5_ventilator (2.3 MB)", OCCT_IMPORT["step_catia5_ventilator.stp"]),
    ("step_parse_build/step_sw2015_box_sides_asm.step", "STEP import, sw2015_box_sides_asm (757 KB)", OCCT_IMPORT["step_sw2015_box_sides_asm.step"]),
    ("iges_parse/iges_sw2010_impeller.igs", "IGES import, sw2010_impeller (4.0 MB)", OCCT_IMPORT["iges_sw2010_impeller.igs"]),
    ("iges_parse/iges_euclid_bearing.iges", "IGES import, euclid_bearing (1.3 MB)", OCCT_IMPORT["iges_euclid_bearing.iges"]),
]

HEADER = [
    "| operation | criterion id | extrack | Open CASCADE | ratio |",
    "|---|---|---:|---:|---:|",
]

UNITS_US = {"ns": 1e-3, "µs": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6}


def occt_overrides():
    """Open CASCADE point-query times from tools/occt_timings/*.json, by bench name."""
    out = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "tools", "occt_timings", "*.json"))):
        try:
            with open(path, encoding="utf-8") as f:
                d = json.load(f)
            us = d["queries"]["brepextrema_reused"]["us"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        stem = os.path.splitext(d.get("file", ""))[0]  # step_sw2015_box_sides_asm
        name = stem.split("_", 1)[1] if stem.startswith(("step_", "iges_")) else stem
        out[name] = float(us)
    return out


def fmt_time(us):
    """A time in µs with three significant figures and a readable unit."""
    for unit, scale in (("s", 1e6), ("ms", 1e3), ("µs", 1.0), ("ns", 1e-3)):
        if us >= scale or unit == "ns":
            v = us / scale
            if v >= 100:
                return f"{v:.0f} {unit}"
            if v >= 10:
                return f"{v:.1f} {unit}"
            return f"{v:.2f} {unit}"
    raise AssertionError


def fmt_ratio(r):
    return f"{r:,.0f}×" if r >= 10 else f"{r:.1f}×"


def parse_time(text):
    m = re.fullmatch(r"\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*(ns|µs|us|ms|s)\s*", text)
    if not m:
        return None
    return float(m.group(1).replace(",", "")) * UNITS_US[m.group(2)]


def current_rows(block):
    """criterion id → extrack µs, from the README's table."""
    rows = {}
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3:
            m = re.fullmatch(r"`([^`]+)`", cells[1])
            if m:
                rows[m.group(1)] = parse_time(cells[2])
    return rows


def criterion_median_us(criterion_dir, bench_id):
    parts = bench_id.split("/")
    group, bench = "_".join(parts[:-1]), parts[-1]
    path = os.path.join(criterion_dir, group, bench, "new", "estimates.json")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)["median"]["point_estimate"] / 1e3  # ns → µs
    except (OSError, ValueError, KeyError):
        return None


def build(old_rows, criterion_dir, log):
    overrides = occt_overrides()
    lines = list(HEADER)
    refreshed, kept, missing = [], [], []
    for bench_id, label, occt_us in ROWS:
        name = bench_id.split("/")[1]
        if bench_id.startswith("point_body/") and name in overrides:
            occt_us = overrides[name]
        us = criterion_median_us(criterion_dir, bench_id)
        if us is not None:
            refreshed.append(bench_id)
        else:
            us = old_rows.get(bench_id)
            (kept if us is not None else missing).append(bench_id)
        ours = fmt_time(us) if us is not None else "—"
        ratio = fmt_ratio(occt_us / us) if us else "—"
        lines.append(f"| {label} | `{bench_id}` | {ours} | {fmt_time(occt_us)} | {ratio} |")
    log(f"bench_table: {len(refreshed)} rows from {criterion_dir}")
    if kept:
        log(f"bench_table: no criterion output for {len(kept)} rows, kept the README's figures: " + ", ".join(kept))
    if missing:
        log(f"bench_table: no figure at all for: " + ", ".join(missing))
    return "\n".join(lines) + "\n"


def load_files(criterion_dir):
    """The point–body per-file JSON of the bench, or None."""
    try:
        with open(os.path.join(criterion_dir, "point_body_files.json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def worst_coherent(row, key):
    return max(row["paths"][p][key] for p in PATHS if p in row["paths"])


def files_table(doc, worst=None):
    """Markdown of the per-file table: every file, or the summary and the `worst` files."""
    files = doc["files"]
    head = (
        f"{doc['steps']:,} updates per path, {doc['cold']:,} cold queries, {doc['batch']:,} batch points per file; "
        f"load average at the run: {doc.get('load', '?')}. Times in µs (coherent: median / p99 / p99.9 / max).\n\n"
    )
    lines = ["| file | pieces | " + " | ".join(PATHS) + " | cold median / max | batch points/s |", "|---|---:|" + "---|" * len(PATHS) + "---|---:|"]

    def row(r):
        cells = []
        for p in PATHS:
            x = r["paths"].get(p)
            cells.append(
                "—" if x is None else f"{x['median_us']:.2f} / {x['p99_us']:.1f} / {x['p999_us']:.1f} / {x['max_us']:.0f}"
            )
        return (
            f"| {r['file']} | {r['pieces']} | "
            + " | ".join(cells)
            + f" | {r['cold_median_us']:.1f} / {r['cold_max_us']:.0f} | {r['batch_points_per_s']:,.0f} |"
        )

    if worst is None:
        return head + "\n".join(lines + [row(r) for r in files]) + "\n"
    n = len(files)
    pick = lambda key: sorted(r[key] for r in files)
    med = lambda v: v[len(v) // 2] if v else float("nan")
    meds = sorted(worst_coherent(r, "median_us") for r in files)
    p999 = sorted(worst_coherent(r, "p999_us") for r in files)
    mx = sorted(worst_coherent(r, "max_us") for r in files)
    cold = pick("cold_median_us")
    coldmax = pick("cold_max_us")
    by_pieces = sorted(files, key=lambda r: r["pieces"])
    median_part = by_pieces[len(by_pieces) // 2] if by_pieces else None
    summary = [
        "| over the files (worst path of each) | median file | worst file |",
        "|---|---:|---:|",
        f"| coherent median | {med(meds):.2f} | {meds[-1]:.2f} |" if n else "",
        f"| coherent p99.9 | {med(p999):.1f} | {p999[-1]:.1f} |" if n else "",
        f"| coherent max | {med(mx):.0f} | {mx[-1]:.0f} |" if n else "",
        f"| cold median | {med(cold):.1f} | {cold[-1]:.1f} |" if n else "",
        f"| cold max | {med(coldmax):.0f} | {coldmax[-1]:.0f} |" if n else "",
    ]
    if median_part:
        summary.append(
            f"| batch points/s, median part by pieces ({median_part['file']}, {median_part['pieces']} pieces) | "
            f"{median_part['batch_points_per_s']:,.0f} | |"
        )
    ranked = sorted(files, key=lambda r: worst_coherent(r, "p999_us"), reverse=True)[:worst]
    return (
        head
        + "\n".join(x for x in summary if x)
        + f"\n\nThe {len(ranked)} files with the highest coherent p99.9 ({n} files; every file: docs/benchmarks.md):\n\n"
        + "\n".join(lines + [row(r) for r in ranked])
        + "\n"
    )


def replace_block(text, start, end, block):
    i, j = text.find(start), text.find(end)
    if i < 0 or j < i:
        return None
    return text[: i + len(start)] + "\n" + block + text[j:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--readme", default=os.path.join(ROOT, "README.md"))
    ap.add_argument("--criterion", default=os.path.join(ROOT, "target", "criterion"))
    ap.add_argument("--benchmarks", default=os.path.join(ROOT, "docs", "benchmarks.md"))
    ap.add_argument("--check", action="store_true", help="exit 1 when the README's table differs from a regeneration")
    ap.add_argument("--print", action="store_true", help="print the table, leave the README alone")
    args = ap.parse_args()

    with open(args.readme, encoding="utf-8") as f:
        text = f.read()
    i, j = text.find(START), text.find(END)
    if i < 0 or j < i:
        sys.exit(f"bench_table: markers {START} … {END} not found in {args.readme}")
    block = text[i + len(START) : j].strip("\n") + "\n"
    table = build(current_rows(block), args.criterion, lambda m: print(m, file=sys.stderr))
    files = load_files(args.criterion)
    if files is None:
        print("bench_table: no point_body_files.json; the per-file blocks are kept", file=sys.stderr)

    if args.print:
        sys.stdout.write(table)
        if files is not None:
            sys.stdout.write("\n" + files_table(files, worst=10))
        return 0
    new = text[: i + len(START)] + "\n" + table + text[j:]
    if files is not None:
        new = replace_block(new, FILES_START, FILES_END, files_table(files, worst=10)) or new
    outputs = [(args.readme, text, new)]
    if files is not None and os.path.exists(args.benchmarks):
        with open(args.benchmarks, encoding="utf-8") as f:
            btext = f.read()
        bnew = replace_block(btext, FILES_START, FILES_END, files_table(files)) or btext
        outputs.append((args.benchmarks, btext, bnew))
    if args.check:
        stale = [p for p, old, new in outputs if old != new]
        if stale:
            print(f"bench_table: stale: {', '.join(stale)}; run python3 tools/bench_table.py", file=sys.stderr)
            return 1
        print("bench_table: the tables are up to date", file=sys.stderr)
        return 0
    for path, old, new in outputs:
        if new != old:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            print(f"bench_table: rewrote {path}", file=sys.stderr)
        else:
            print(f"bench_table: no change in {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
