#!/usr/bin/env python3
"""deep_stack_gen.py - writes a godeye capture (JSONL) whose one block has
samples of N frames (issue #25 item 4: no recursion on input-sized depth;
300,000 frames is about 9 MB).  Two samples of the same stack inside one
1,000 ms dispatch on the main thread.

Usage: deep_stack_gen.py OUT N
"""
import json
import sys


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    frames = ["d.C.m%d(C.java)" % i for i in range(n)]
    with open(path, "w") as o:
        o.write('{"type":"meta","app":"com.deep","pid":100,"main_tid":100,'
                '"config":{"long_block_ms":500,"short_block_ms":100}}\n')
        o.write('{"type":"looper","ts":1000,"phase":"begin",'
                '"msg":">>>>> Dispatching to Handler (android.os.Handler) {1} null: 0"}\n')
        for ts in (1300, 1600):
            o.write(json.dumps({"type": "stack", "ts": ts, "tid": 100, "thread": "main",
                                "frames": frames}) + "\n")
        o.write('{"type":"looper","ts":2000,"phase":"end",'
                '"msg":"<<<<< Finished to Handler (android.os.Handler) {1} null"}\n')


if __name__ == "__main__":
    main()
