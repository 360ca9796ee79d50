#!/usr/bin/env python3
"""anrwalk.py - an independent walk of ANR dumps for hand checks of tests/corpus (#28).

Per dump: its VM TRACES section (or zip member), its index there, pid, Cmd line,
threads (name, sysTid).  python3 tests/anr/anrwalk.py FILE prints one line per
dump.  Shares no code with godeye (regular expressions over the text)."""
import re, sys, zipfile, io
def lines_of(path):
    if path.endswith('.zip'):
        z = zipfile.ZipFile(path)
        for n in z.namelist():
            if n.startswith('bugreport-') and n.endswith('.txt'):
                yield from (('text', l) for l in io.TextIOWrapper(z.open(n), errors='replace'))
        for n in z.namelist():
            if n.startswith('FS/data/anr/'):
                yield ('member:' + n, None)
                yield from (('member:' + n, l) for l in io.TextIOWrapper(z.open(n), errors='replace'))
    else:
        yield from (('text', l) for l in open(path, errors='replace'))
def walk(path):
    dumps = []; section = None; idx = 0; cur = None; subject = None
    for src, l in lines_of(path):
        if l is None:
            section = 'anr_file:' + src; idx = 0; continue
        l = l.rstrip('\n')
        m = re.match(r'^------ (VM TRACES[A-Z ]*?)(?: \(.*\))? ------$', l)
        if m:
            section = m.group(1); idx = 0; subject = None; continue
        if l.startswith('------ ') and l.endswith(' ------'):
            section = None; continue
        if l.startswith('Subject: ') and idx == 0: subject = l[9:]
        m = re.match(r'^----- pid (\d+) at ', l)
        if m:
            cur = dict(section=section, index=idx, pid=int(m.group(1)), cmd=None, threads=[], subject=subject if idx == 0 else None)
            idx += 1; dumps.append(cur); continue
        if cur is None: continue
        if l.startswith('----- end'): cur = None; continue
        if l.startswith('Cmd line: ') and cur['cmd'] is None and not cur['threads']: cur['cmd'] = l[10:]
        m = re.match(r'^"(.*)" .*', l)
        if m:
            t = re.search(r'sysTid=(\d+)', l)
            cur['threads'].append([m.group(1), int(t.group(1)) if t else None, l]); continue
        t = re.search(r'\| sysTid=(\d+)', l)
        if t and cur['threads']: cur['threads'][-1][1] = int(t.group(1))
    return dumps
if __name__ == '__main__':
    for d in walk(sys.argv[1]):
        main = next((t for t in d['threads'] if t[0] == 'main'), None) or next((t for t in d['threads'] if t[1] == d['pid']), None)
        print(d['section'], d['index'], d['pid'], repr(d['cmd']), 'main=' + (repr(main[0]) + '/' + str(main[1]) if main else '-'), 'hasmainname=' + str(any(t[0]=='main' for t in d['threads'])), 'subj=' + str(d['subject'])[:40])
def summary(path):
    ds = walk(path)
    from collections import Counter
    c = Counter()
    for d in ds:
        c['dumps'] += 1
        c['cmd'] += d['cmd'] is not None
        named = any(t[0] == 'main' for t in d['threads'])
        bypid = any(t[1] == d['pid'] for t in d['threads'])
        c['main_named'] += named
        c['main_bypid_only'] += (not named) and bypid
        c['no_main'] += (not named) and not bypid
        c['sec:' + str(d['section'])] += 1
    return c, [(d['section'], d['pid'], d['cmd']) for d in ds if d['index'] == 0]
