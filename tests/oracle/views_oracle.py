#!/usr/bin/env python3
"""views_oracle.py - pages, overdraw and images checked against plain Python.

Generates a capture (tests/oracle/gencapture.py: shuffled lifecycle events of
activities and their fragments, view dumps of the given sizes with clipping,
hidden subtrees and two-layer views, bitmap observations), ingests it, and
compares `godeye pages`, `godeye overdraw` and `godeye images` with values
computed here straight from the spec's definitions:

  * draw = first ON_DRAW - ON_CREATE (activity) / ON_ATTACH (fragment),
    load = ON_LOAD - the same start, null when missing;
  * overdraw by brute force: every view's effective rectangle (own rect
    intersected with every ancestor's and the screen, nothing under a hidden
    view) adds its layers to the cells of a grid compressed on the rectangles'
    edges; each cell's area counts exactly once, so pixel totals are exact;
  * image issues in AndroidGodEye's order with wasted bytes, de-duplicated by
    (page instance, view, bitmap size, issue).
"""
import argparse
import atexit
import bisect
import json
import os
import shutil
import subprocess
import sys
import tempfile

BPP = {"ARGB_8888": 4, "RGB_565": 2, "ALPHA_8": 1, "RGBA_F16": 8}


def pages_oracle(events):
    inst = {}
    for e in events:
        if e["type"] != "lifecycle":
            continue
        p = e["page"]
        key = (p.get("class"), p.get("hash"))
        inst.setdefault(key, {"type": p.get("type"), "events": []})["events"].append((e["ts"], e["event"]))
    out = {}
    for key, v in inst.items():
        evs = sorted(v["events"], key=lambda x: x[0])
        start_name = "ON_CREATE" if v["type"] == "activity" else "ON_ATTACH"
        start = next((t for t, n in evs if n == start_name), None)
        draw = next((t for t, n in evs if n == "ON_DRAW" and start is not None and t >= start), None)
        load = next((t for t, n in evs if n == "ON_LOAD" and start is not None and t >= start), None)
        out[key] = (None if start is None or draw is None else draw - start,
                    None if start is None or load is None else load - start)
    return out


def overdraw_oracle(dump, depth_limit):
    views = {v["id"]: v for v in dump["views"]}
    w, h = dump["screen"]["w"], dump["screen"]["h"]

    def chain(v):
        c = [v]
        while c[-1].get("parent", 0) not in (0, None):
            c.append(views[c[-1]["parent"]])
        return c

    rects = []
    max_depth = 0
    deep = []
    for v in dump["views"]:
        c = chain(v)
        max_depth = max(max_depth, len(c))
        if len(c) > depth_limit:
            deep.append(v["id"])
        if not all(x.get("visible", True) for x in c):
            continue
        l, t, r, b = 0, 0, w, h
        for x in c:
            xl, xt, xr, xb = x["rect"]
            l, t, r, b = max(l, xl), max(t, xt), min(r, xr), min(b, xb)
        layers = v.get("layers", 1)
        if r > l and b > t and layers > 0:
            rects.append((l, t, r, b, layers))
    xs = sorted({0, w} | {x for rc in rects for x in (rc[0], rc[2])})
    ys = sorted({0, h} | {y for rc in rects for y in (rc[1], rc[3])})
    grid = [[0] * (len(xs) - 1) for _ in range(len(ys) - 1)]
    for l, t, r, b, layers in rects:
        for j in range(bisect.bisect_left(ys, t), bisect.bisect_left(ys, b)):
            row = grid[j]
            for i in range(bisect.bisect_left(xs, l), bisect.bisect_left(xs, r)):
                row[i] += layers
    px = {"1": 0, "2": 0, "3": 0, "4+": 0}
    weighted = 0
    for j, row in enumerate(grid):
        hgt = ys[j + 1] - ys[j]
        for i, c in enumerate(row):
            if c >= 2:
                area = (xs[i + 1] - xs[i]) * hgt
                times = c - 1
                px["4+" if times >= 4 else str(times)] += area
                weighted += area * times
    return px, max_depth, deep, weighted / (w * h)


def images_oracle(events, high=1.5, low=0.5):
    found = {}
    for e in events:
        if e["type"] != "image":
            continue
        v, b = e["view"], e["bitmap"]
        va, ba = v["w"] * v["h"], b["w"] * b["h"]
        bpp = BPP.get(b.get("config"), 4)
        if not v.get("visible", True):
            issue, wasted = "INVISIBLE_BUT_MEMORY_OCCUPIED", ba * bpp
        elif ba > high * va:
            issue, wasted = "BITMAP_QUALITY_TOO_HIGH", (ba - va) * bpp
        elif ba < low * va:
            issue, wasted = "BITMAP_QUALITY_TOO_LOW", 0
        else:
            continue
        key = (e["page"].get("hash"), v.get("hash"), b["w"], b["h"], issue)
        if key in found:
            found[key][1] += 1
        else:
            found[key] = [wasted, 1]
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("gen", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    gen = [x for x in a.gen if x != "--"]
    here = os.path.dirname(os.path.abspath(__file__))
    tmp = tempfile.mkdtemp(prefix="godeye-views-")
    atexit.register(shutil.rmtree, tmp, True)  # the suite leaves no temporary folder
    cap = os.path.join(tmp, "capture.jsonl")
    subprocess.run([sys.executable, os.path.join(here, "gencapture.py"),
                    *gen, "--out", cap], check=True)
    events = [json.loads(l) for l in open(cap) if l.strip()]
    meta = next((e for e in events if e.get("type") == "meta"), {})
    depth_limit = (meta.get("config") or {}).get("max_depth", 10)
    env = dict(os.environ, GODEYE_DB=os.path.join(tmp, "g.db"))
    godeye = os.path.join(a.bin, "godeye")
    subprocess.run([godeye, "ingest", "-q", cap], check=True, env=env)

    def q(*args):
        return json.loads(subprocess.run([godeye, *args, "--format", "json"], check=True, env=env,
                                         capture_output=True, text=True).stdout)

    problems = []
    checked = 0
    # pages
    exp_pages = pages_oracle(events)
    got_pages = {(p["page"], p["hash"]): (p["draw_ms"], p["load_ms"]) for p in q("pages")}
    if set(exp_pages) != set(got_pages):
        problems.append(f"page instances differ: {sorted(set(exp_pages) ^ set(got_pages))[:5]}")
    for k, (d, l) in exp_pages.items():
        g = got_pages.get(k)
        checked += 1
        if g is None:
            continue
        for name, x, y in (("draw", d, g[0]), ("load", l, g[1])):
            if (x is None) != (y is None) or (x is not None and abs(x - y) > 1e-6):
                problems.append(f"page {k}: {name}_ms {y}, expected {x}")
    # overdraw
    dumps = [e for e in events if e["type"] == "view_dump"]
    got_dumps = q("overdraw")
    if len(dumps) != len(got_dumps):
        problems.append(f"{len(got_dumps)} dumps, expected {len(dumps)}")
    for d, g in zip(sorted(dumps, key=lambda e: e["ts"]), got_dumps):
        px, depth, deep, ratio = overdraw_oracle(d, depth_limit)
        checked += 1
        if g["overdraw_px"] != px:
            problems.append(f"dump at {d['ts']}: overdraw_px {g['overdraw_px']}, expected {px}")
        if g["max_depth"] != depth or g["deep_views"] != deep:
            problems.append(f"dump at {d['ts']}: depth {g['max_depth']} {g['deep_views']}, expected {depth} {deep}")
        if g["views"] != len(d["views"]):
            problems.append(f"dump at {d['ts']}: {g['views']} views, expected {len(d['views'])}")
        if abs(g["overdraw_ratio"] - ratio) > 1e-9:
            problems.append(f"dump at {d['ts']}: ratio {g['overdraw_ratio']}, expected {ratio}")
    # images
    exp_img = images_oracle(events)
    got_img = {(r["page_hash"], r["view_hash"], r["bitmap"][0], r["bitmap"][1], r["issue"]):
               [r["wasted_bytes"], r["count"]] for r in q("images")}
    checked += len(exp_img)
    if exp_img != got_img:
        for k in sorted(set(exp_img) | set(got_img), key=str):
            if exp_img.get(k) != got_img.get(k):
                problems.append(f"image {k}: got {got_img.get(k)}, expected {exp_img.get(k)}")
    for p in problems[:40]:
        print(p)
    print(f"{len(exp_pages)} pages, {len(dumps)} dumps ({', '.join(str(len(d['views'])) for d in dumps)} views), "
          f"{sum(1 for e in events if e['type'] == 'image')} images -> {len(exp_img)} issues")
    print(f"{checked - len(problems)} passed, {len(problems)} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
