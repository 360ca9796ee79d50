#!/usr/bin/env python3
"""gen_capture.py - writes a large godeye JSONL capture for throughput figures.

    gen_capture.py N OUT.jsonl   N main-looper dispatches (begin/end pairs);
                                 every 50th lasts 120-900 ms with 3 stack samples.
"""
import json
import random
import sys

n, out = int(sys.argv[1]), sys.argv[2]
rnd = random.Random(1)
frames = [["com.example.shop.feed.FeedAdapter.bind(FeedAdapter.java:88)"],
          ["com.example.shop.db.Dao.load(Dao.java:41)"],
          ["com.example.shop.img.Decoder.decode(Decoder.java:17)"]]
with open(out, "w") as f:
    f.write(json.dumps({"type": "meta", "app": "com.example.shop", "version_name": "2.0.0",
                        "version_code": 200, "device": "Pixel 7", "pid": 100, "main_tid": 100,
                        "config": {"concern_packages": ["com.example.shop"]}}) + "\n")
    ts = 1700000000000.0
    for i in range(n):
        dur = rnd.uniform(120, 900) if i % 50 == 0 else rnd.uniform(0.2, 12)
        msg = f"Handler (android.os.Handler) {{a{i % 7}}} com.example.shop.Task${i % 13}@1: {i % 5}"
        f.write('{"type":"looper","ts":%.3f,"phase":"begin","msg":">>>>> Dispatching to %s"}\n' % (ts, msg))
        if dur > 100:
            fr = frames[i % 3] + ["android.os.Handler.dispatchMessage(Handler.java:106)"]
            for k in range(1, 4):
                f.write(json.dumps({"type": "stack", "ts": round(ts + dur * k / 4, 3),
                                    "frames": fr}) + "\n")
        f.write('{"type":"looper","ts":%.3f,"phase":"end","msg":"<<<<< Finished to %s"}\n' % (ts + dur, msg))
        ts += dur + rnd.uniform(0.5, 5)
