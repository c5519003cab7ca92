#!/usr/bin/env python3
"""Mutation campaign through the whole pipeline (issue 29).

Takes small STEP/IGES seed files, applies format-aware structural edits and
runs each mutant through `extrack import` in a child process under an
address-space limit (`ulimit -v`), measuring the child's CPU time
(getrusage(RUSAGE_CHILDREN) deltas: the machine may be loaded, so wall time
is not the measure) and peak RSS, with a generous wall-clock safety kill,
then classifies the run:

  ok            scene written (exit 0)
  error         a clean one-line error (exit 1, `extrack: error: ...`)
  panic         a Rust panic (exit 101 or "panicked at")
  crash         killed by a signal / any other exit
  timeout       more CPU time than --timeout (or killed at --wall-limit)
  raw_bytes     a control character or invalid UTF-8 byte in the output
  wrong_type    a reference moved to an instance of another type class
                (STEP) was accepted (exit 0) and `extrack inspect` names
                neither the referring nor the referenced instance

Edits (STEP): truncation; dropped and duplicated instances; self, cyclic and
dangling references; a reference moved to an instance of another type
(EDGE_CURVE for ORIENTED_EDGE, LINE for CARTESIAN_POINT...); one instance's
body swapped with another's; references swapped between two instances
(edges or points between loops); absurd numbers (1e308, 1e20, NaN, huge
counts); 100,000-deep nesting; byte noise (NUL, 0xFF, random bytes).
(IGES): truncation; dropped/duplicated records; a DE pointer in the
parameter data replaced by itself, a dangling one or another entity's;
entity type numbers swapped in the directory; absurd numbers; byte noise.

Every input that was slow (CPU time over half the limit), panicked, crashed,
timed out, leaked raw bytes or was accepted with a wrong type silently is
kept in OUT/keep/ with its classification; the summary (runs, outcomes, the
slowest CPU and wall times, the largest peak RSS and the largest RSS as a
multiple of the file size) goes to OUT/summary.json and stdout.

  nice -n 10 python3 tools/mutate.py --bin target/release/extrack \\
      --minutes 20 --out /tmp/campaign SEED_FILES...
"""

import argparse
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import time

# ---------------------------------------------------------------- STEP ----

INST = re.compile(rb"#(\d+)\s*=\s*(.*?);\s*(?=#\d+\s*=|ENDSEC)", re.S)
REF = re.compile(rb"#(\d+)")
REAL = re.compile(rb"(?<![#\w.])-?\d+\.\d*(?:[EeDd][-+]?\d+)?")
INT = re.compile(rb"(?<![#\w.\d])\d+(?![.\dEe])")
NAME = re.compile(rb"\s*\(?\s*([A-Za-z_][A-Za-z0-9_]*)")

# type classes of the schema: a reference moved across classes is a type error
CLASSES = {
    "point": [b"CARTESIAN_POINT"],
    "direction": [b"DIRECTION"],
    "vector": [b"VECTOR"],
    "placement": [b"AXIS2_PLACEMENT_3D", b"AXIS2_PLACEMENT_2D", b"AXIS1_PLACEMENT"],
    "curve": [b"LINE", b"CIRCLE", b"ELLIPSE", b"B_SPLINE_CURVE_WITH_KNOTS", b"SURFACE_CURVE", b"SEAM_CURVE",
              b"TRIMMED_CURVE", b"POLYLINE", b"PCURVE", b"COMPOSITE_CURVE", b"INTERSECTION_CURVE"],
    "surface": [b"PLANE", b"CYLINDRICAL_SURFACE", b"CONICAL_SURFACE", b"SPHERICAL_SURFACE", b"TOROIDAL_SURFACE",
                b"B_SPLINE_SURFACE_WITH_KNOTS", b"SURFACE_OF_REVOLUTION", b"SURFACE_OF_LINEAR_EXTRUSION"],
    "vertex": [b"VERTEX_POINT"],
    "edge": [b"EDGE_CURVE"],
    "oriented_edge": [b"ORIENTED_EDGE"],
    "loop": [b"EDGE_LOOP", b"VERTEX_LOOP", b"POLY_LOOP"],
    "bound": [b"FACE_BOUND", b"FACE_OUTER_BOUND"],
    "face": [b"ADVANCED_FACE", b"FACE_SURFACE"],
    "shell": [b"CLOSED_SHELL", b"OPEN_SHELL"],
}
CLASS_OF = {n: c for c, names in CLASSES.items() for n in names}
# subtypes the schema allows where the class is required (ORIENTED_EDGE is an edge)
ALSO = {"edge": {"oriented_edge"}}


def allowed(expected, found):
    return found == expected or found in ALSO.get(expected, ())


# topology and geometry: the reader reads every reference of these
READ = {"point", "direction", "vector", "placement", "curve", "surface", "vertex", "edge", "oriented_edge", "loop",
        "bound", "face", "shell"}


def step_parse(data):
    """(instances [(id, start, end, body_start)], by id)"""
    out = []
    for m in INST.finditer(data):
        out.append((int(m.group(1)), m.start(), m.end(), m.start(2), m.end(2)))
    return out


STR = re.compile(rb"'(?:[^']|'')*'")


def masked(body):
    """`body` with the contents of its string literals blanked (same length):
    references, numbers and names are searched outside strings."""
    return STR.sub(lambda m: b"'" + b" " * (len(m.group(0)) - 2) + b"'", body)


def type_of(body):
    m = NAME.match(body)
    return m.group(1).upper() if m else b""


def face_reachable(data, insts, by_id):
    """Ids reachable from the faces (ADVANCED_FACE, FACE_SURFACE): the
    instances the reader follows with a type expectation."""
    todo = [i[0] for i in insts if type_of(data[i[3]:i[4]]) in (b"ADVANCED_FACE", b"FACE_SURFACE")]
    seen = set(todo)
    while todo:
        t = by_id.get(todo.pop())
        if not t:
            continue
        for r in REF.finditer(masked(data[t[3]:t[4]])):
            k = int(r.group(1))
            if k not in seen:
                seen.add(k)
                todo.append(k)
    return seen


REACH = {}


def step_mutant(rng, data):
    """One STEP edit; returns (bytes, kind, detail) or None."""
    insts = step_parse(data)
    if not insts:
        return None
    by_id = {i[0]: i for i in insts}
    key = hash(data)
    if key not in REACH:
        REACH.clear()
        REACH[key] = face_reachable(data, insts, by_id)
    reach = REACH[key]
    kind = rng.choice(["truncate", "drop", "duplicate", "self_ref", "cycle", "dangling", "wrong_type",
                       "body_swap", "ref_swap", "absurd", "absurd", "huge_count", "nesting", "noise"])
    pick = rng.choice(insts)
    iid, s, e, bs, be = pick
    body = data[bs:be]
    if kind == "truncate":
        k = rng.randrange(1, len(data))
        return data[:k], kind, f"at byte {k}"
    if kind == "drop":
        return data[:s] + data[e:], kind, f"#{iid}"
    if kind == "duplicate":
        return data[:e] + data[s:e] + data[e:], kind, f"#{iid}"
    refs = list(REF.finditer(masked(body)))
    if kind in ("self_ref", "dangling", "wrong_type", "cycle") and refs:
        r = rng.choice(refs)
        old = int(r.group(1))
        if kind == "self_ref":
            new = iid
        elif kind == "dangling":
            new = 99999999
        elif kind == "cycle":
            # the target refers back to this instance
            t = by_id.get(old)
            if not t:
                return None
            tb = data[t[3]:t[4]]
            trefs = list(REF.finditer(masked(tb)))
            if not trefs:
                return None
            tr = rng.choice(trefs)
            tb2 = tb[:tr.start()] + b"#%d" % iid + tb[tr.end():]
            return data[:t[3]] + tb2 + data[t[4]:], kind, f"#{old} -> #{iid} -> #{old}"
        else:
            t = by_id.get(old)
            if not t:
                return None
            want = CLASS_OF.get(type_of(data[t[3]:t[4]]))
            others = [i for i in insts if CLASS_OF.get(type_of(data[i[3]:i[4]])) is not None
                      and not allowed(want, CLASS_OF.get(type_of(data[i[3]:i[4]])))]
            if want is None or not others or CLASS_OF.get(type_of(body)) not in READ or iid not in reach:
                return None
            o = rng.choice(others)
            new = o[0]
            detail = {"from": iid, "to": new, "was": old,
                      "found": type_of(data[o[3]:o[4]]).decode(), "expected_class": want}
            b2 = body[:r.start()] + b"#%d" % new + body[r.end():]
            return data[:bs] + b2 + data[be:], kind, detail
        b2 = body[:r.start()] + b"#%d" % new + body[r.end():]
        return data[:bs] + b2 + data[be:], kind, f"#{iid}: #{old} -> #{new}"
    if kind == "body_swap":
        o = rng.choice(insts)
        if o[0] == iid or iid not in reach:
            return None
        # instance iid gets o's body: every reference to iid now finds o's type
        b2 = data[o[3]:o[4]]
        detail = {"from": None, "to": iid, "found": type_of(b2).decode(),
                  "expected_class": CLASS_OF.get(type_of(body))}
        return data[:bs] + b2 + data[be:], kind, detail
    if kind == "ref_swap":
        # a reference of this instance swapped with one of another instance of the same type
        same = [i for i in insts if i[0] != iid and type_of(data[i[3]:i[4]]) == type_of(body)]
        if not same or not refs:
            return None
        o = rng.choice(same)
        orefs = list(REF.finditer(masked(data[o[3]:o[4]])))
        if not orefs:
            return None
        r1, r2 = rng.choice(refs), rng.choice(orefs)
        a, b = (pick, o) if s < o[1] else (o, pick)
        ra, rb = (r1, r2) if a is pick else (r2, r1)
        ba, bb = data[a[3]:a[4]], data[b[3]:b[4]]
        ba2 = ba[:ra.start()] + rb.group(0) + ba[ra.end():]
        bb2 = bb[:rb.start()] + ra.group(0) + bb[rb.end():]
        out = data[:a[3]] + ba2 + data[a[4]:b[3]] + bb2 + data[b[4]:]
        return out, kind, f"#{a[0]} {ra.group(0).decode()} <-> #{b[0]} {rb.group(0).decode()}"
    if kind == "absurd":
        nums = list(REAL.finditer(masked(body)))
        if not nums:
            return None
        r = rng.choice(nums)
        v = rng.choice([b"1.E308", b"-1.E308", b"1.E20", b"-1.E20", b"1.E400", b"NaN", b"1.E-320", b"1.E6"])
        b2 = body[:r.start()] + v + body[r.end():]
        return data[:bs] + b2 + data[be:], kind, f"#{iid}: {r.group(0).decode()} -> {v.decode()}"
    if kind == "huge_count":
        nums = list(INT.finditer(masked(body)))
        if not nums:
            return None
        r = rng.choice(nums)
        v = rng.choice([b"999999999", b"2147483648", b"100000", b"-1"])
        b2 = body[:r.start()] + v + body[r.end():]
        return data[:bs] + b2 + data[be:], kind, f"#{iid}: {r.group(0).decode()} -> {v.decode()}"
    if kind == "nesting":
        depth = 100_000
        k = body.find(b"(")
        if k < 0:
            return None
        b2 = body[:k + 1] + b"(" * depth + b"1." + b")" * depth + b"," + body[k + 1:]
        return data[:bs] + b2 + data[be:], kind, f"#{iid}: {depth} levels"
    if kind == "noise":
        d = bytearray(data)
        for _ in range(rng.randrange(1, 8)):
            p = rng.randrange(len(d))
            d[p] = rng.choice([0, 0xFF, 0x1B, rng.randrange(256)])
        return bytes(d), kind, "bytes"
    return None


# ---------------------------------------------------------------- IGES ----

def iges_split(data):
    lines = data.split(b"\n")
    return [l.rstrip(b"\r") for l in lines]


def iges_mutant(rng, data):
    lines = iges_split(data)
    ds = [i for i, l in enumerate(lines) if len(l) >= 73 and l[72:73] == b"D"]
    ps = [i for i, l in enumerate(lines) if len(l) >= 73 and l[72:73] == b"P"]
    if not ds or not ps:
        return None
    n_de = len(ds) // 2
    kind = rng.choice(["truncate", "drop", "duplicate", "self_ref", "dangling", "wrong_type", "type_swap",
                       "absurd", "absurd", "huge_count", "noise"])
    join = lambda ls: b"\n".join(ls) + b"\n"
    if kind == "truncate":
        k = rng.randrange(1, len(data))
        return data[:k], kind, f"at byte {k}"
    if kind in ("drop", "duplicate"):
        i = rng.choice(ps)
        ls = list(lines)
        if kind == "drop":
            del ls[i]
        else:
            ls.insert(i, ls[i])
        return join(ls), kind, f"line {i + 1}"
    if kind in ("self_ref", "dangling", "wrong_type"):
        i = rng.choice(ps)
        l = lines[i]
        field = l[:64]
        own = int(l[65:72] or b"0") if l[65:72].strip().isdigit() else 0
        ints = [m for m in re.finditer(rb"(?<![\d.DEde+-])\d+(?![\d.DEde])", field)
                if int(m.group(0)) % 2 == 1 and int(m.group(0)) < 2 * n_de]
        if not ints:
            return None
        m = rng.choice(ints)
        new = own if kind == "self_ref" else (2 * n_de + 101 if kind == "dangling" else 2 * rng.randrange(n_de) + 1)
        rep = b"%d" % new
        f2 = field[:m.start()] + rep + field[m.end():]
        if len(f2) > 64:
            return None
        ls = list(lines)
        ls[i] = f2.ljust(64) + l[64:]
        return join(ls), kind, f"line {i + 1}: {m.group(0).decode()} -> {new}"
    if kind == "type_swap":
        a, b = rng.sample(range(n_de), 2) if n_de >= 2 else (0, 0)
        la, lb = ds[2 * a], ds[2 * b]
        ls = list(lines)
        ta, tb = lines[la][:8], lines[lb][:8]
        for k, t in ((la, tb), (lb, ta)):
            ls[k] = t + ls[k][8:]
            ls[k + 1] = t + ls[k + 1][8:]
        return join(ls), kind, f"DE {2 * a + 1} <-> DE {2 * b + 1} entity types"
    if kind in ("absurd", "huge_count"):
        i = rng.choice(ps)
        l = lines[i]
        field = l[:64]
        pat = rb"-?\d+\.\d*(?:[EeDd][-+]?\d+)?" if kind == "absurd" else rb"(?<![\d.])\d+(?![\d.])"
        nums = list(re.finditer(pat, field))
        if not nums:
            return None
        m = rng.choice(nums)
        v = rng.choice([b"1.D308", b"-1.D308", b"1.D20", b"1.E400", b"1.E6"]) if kind == "absurd" else \
            rng.choice([b"999999999", b"100000", b"-1"])
        f2 = field[:m.start()] + v + field[m.end():]
        if len(f2) > 64:
            return None
        ls = list(lines)
        ls[i] = f2.ljust(64) + l[64:]
        return join(ls), kind, f"line {i + 1}: {m.group(0).decode()} -> {v.decode()}"
    if kind == "noise":
        d = bytearray(data)
        for _ in range(rng.randrange(1, 8)):
            p = rng.randrange(len(d))
            d[p] = rng.choice([0, 0xFF, 0x1B, rng.randrange(256)])
        return bytes(d), kind, "bytes"
    return None


# ----------------------------------------------------------------- run ----

def limit(mem_mb):
    def f():
        resource.setrlimit(resource.RLIMIT_AS, (mem_mb << 20, mem_mb << 20))
        os.setsid()
    return f


def raw(b):
    """True when `b` holds a control character (other than newline and the
    progress bar's carriage return / ANSI codes, absent without a terminal)
    or invalid UTF-8."""
    try:
        s = b.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return any((ord(c) < 32 and c not in "\n") or 0x7F <= ord(c) < 0xA0 for c in s)


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_one(binary, path, out_exs, wall, mem_mb):
    """(class before the CPU check, wall s, CPU s, rc, output tail, peak RSS KiB)"""
    t0 = time.monotonic()
    c0 = children_cpu()
    p = subprocess.Popen(["/usr/bin/time", "-f", "@@RSS_KB %M", binary, "import", path, "-o", out_exs],
                         stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=limit(mem_mb))
    timed_out = False
    try:
        out, err = p.communicate(timeout=wall)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
    dt = time.monotonic() - t0
    cpu = children_cpu() - c0
    rc = p.returncode
    rss_kb = 0
    k = err.rfind(b"@@RSS_KB ")
    if k >= 0:
        try:
            rss_kb = int(err[k + 9:].split()[0])
        except (ValueError, IndexError):
            pass
        err = err[:k]
        # /usr/bin/time reports a signal as "Command terminated by signal N"
        sig = re.search(rb"Command terminated by signal (\d+)\s*$", err)
        if sig:
            rc = -int(sig.group(1))
            err = err[:sig.start()]
        err = re.sub(rb"Command exited with non-zero status \d+\s*$", b"", err)
    if timed_out:
        cls = "timeout"
    elif rc == 101 or b"panicked at" in err:
        cls = "panic"
    elif rc < 0 or rc not in (0, 1):
        cls = "crash"
    elif raw(out) or raw(err):
        cls = "raw_bytes"
    elif rc == 0:
        cls = "ok"
    else:
        cls = "error"
    return cls, dt, cpu, rc, (out + err)[-600:], rss_kb


def type_message_seen(binary, path, detail):
    """The referring or the referenced instance named in a warning."""
    r = subprocess.run([binary, "inspect", path], capture_output=True, timeout=30, preexec_fn=limit(4096))
    text = r.stdout + r.stderr
    ids = [detail.get("to")] + ([detail["from"]] if detail.get("from") else [])
    return any(re.search(rb"#%d\b" % i, text) for i in ids if i)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--minutes", type=float, default=20)
    ap.add_argument("--out", required=True)
    ap.add_argument("--timeout", type=float, default=10.0, help="CPU seconds per run (more is a timeout)")
    ap.add_argument("--wall-limit", type=float, default=60.0, help="wall-clock safety kill per run, seconds")
    ap.add_argument("--mem-mb", type=int, default=4096, help="address-space limit per run (ulimit -v), MiB")
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("seeds", nargs="+")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    os.makedirs(os.path.join(a.out, "keep"), exist_ok=True)
    work = os.path.join(a.out, "work")
    os.makedirs(work, exist_ok=True)
    seeds = [(p, open(p, "rb").read()) for p in a.seeds]
    counts, by_kind, kept, slowest, slowest_wall = {}, {}, [], [], []
    max_rss = (0, 0, "", "")
    max_mult = (0.0, 0, 0, "", "")
    start = time.monotonic()
    n = 0
    log = open(os.path.join(a.out, "runs.jsonl"), "w")
    while time.monotonic() - start < a.minutes * 60:
        path, data = rng.choice(seeds)
        is_step = data.lstrip().startswith(b"ISO-10303-21")
        m = (step_mutant if is_step else iges_mutant)(rng, data)
        if m is None:
            continue
        mutant, kind, detail = m
        n += 1
        ext = ".stp" if is_step else ".igs"
        f = os.path.join(work, "m" + ext)
        with open(f, "wb") as fh:
            fh.write(mutant)
        cls, dt, cpu, rc, tail, rss_kb = run_one(a.bin, f, os.path.join(work, "m.exs"), a.wall_limit, a.mem_mb)
        if cls not in ("timeout", "panic", "crash") and cpu > a.timeout:
            cls = "timeout"
        if rss_kb > max_rss[0]:
            max_rss = (rss_kb, len(mutant), os.path.basename(path), kind)
        mult = rss_kb * 1024.0 / max(1, len(mutant))
        if mult > max_mult[0]:
            max_mult = (mult, rss_kb, len(mutant), os.path.basename(path), kind)
        if cls == "ok" and kind in ("wrong_type", "body_swap") and isinstance(detail, dict) \
                and detail.get("expected_class") \
                and not allowed(detail["expected_class"], CLASS_OF.get(detail["found"].encode())):
            if not type_message_seen(a.bin, f, detail):
                cls = "wrong_type"
        counts[cls] = counts.get(cls, 0) + 1
        by_kind.setdefault(kind, {}).setdefault(cls, 0)
        by_kind[kind][cls] += 1
        slowest.append((cpu, dt, os.path.basename(path), kind))
        slowest = sorted(slowest, reverse=True)[:5]
        slowest_wall.append((dt, cpu, os.path.basename(path), kind))
        slowest_wall = sorted(slowest_wall, reverse=True)[:5]
        rec = {"n": n, "seed": os.path.basename(path), "kind": kind, "detail": detail, "class": cls,
               "cpu_s": round(cpu, 3), "wall_s": round(dt, 3), "rc": rc, "rss_kb": rss_kb, "bytes": len(mutant)}
        log.write(json.dumps(rec) + "\n")
        if cls not in ("ok", "error") or cpu > a.timeout / 2:
            name = f"{n:06d}_{cls}_{kind}_{os.path.basename(path)}{ext}"
            shutil.copy(f, os.path.join(a.out, "keep", name))
            rec["tail"] = tail.decode("utf-8", "backslashreplace")
            kept.append(rec)
            print(json.dumps(rec), flush=True)
    summary = {
        "command": " ".join(sys.argv),
        "minutes": a.minutes,
        "cpu_limit_s": a.timeout,
        "wall_limit_s": a.wall_limit,
        "mem_limit_mib": a.mem_mb,
        "runs": n,
        "classes": counts,
        "by_edit": by_kind,
        "slowest_cpu": [{"cpu_s": round(c, 2), "wall_s": round(w, 2), "seed": s, "edit": k}
                        for c, w, s, k in slowest],
        "slowest_wall": [{"wall_s": round(w, 2), "cpu_s": round(c, 2), "seed": s, "edit": k}
                         for w, c, s, k in slowest_wall],
        "max_rss": {"mib": round(max_rss[0] / 1024, 1), "file_bytes": max_rss[1], "seed": max_rss[2],
                    "edit": max_rss[3]},
        "max_rss_multiple": {"multiple": round(max_mult[0], 1), "mib": round(max_mult[1] / 1024, 1),
                             "file_bytes": max_mult[2], "seed": max_mult[3], "edit": max_mult[4]},
        "kept": len(kept),
    }
    with open(os.path.join(a.out, "summary.json"), "w") as fh:
        json.dump(summary, fh, indent=1)
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
