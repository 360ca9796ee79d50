# explain_pick.py - the facts of `godeye explain --format json` (stdin) whose
# name or section is an argument, one "section|name|value|source" line each
# (tests/cli/explain*.test).
import json, sys
want = sys.argv[1:]
for r in json.load(sys.stdin):
    if r["name"] in want or r["section"] in want:
        v = r["value"] if isinstance(r["value"], str) else json.dumps(r["value"])
        print(f'{r["section"]}|{r["name"]}|{v}|{r["source"]}')
