"""synth_common.py - a stand-in for Perfetto's test/synth_common.py, for tests.

Perfetto's diff tests write some traces as Python scripts that build a
Trace with its `synth_common` module (over the python protobuf runtime and
Perfetto's compiled descriptors, neither of which godeye's tests have).
With this directory first on PYTHONPATH, such a script runs unchanged and
writes the same wire bytes: each add_* method below sets the fields that
Perfetto's helper of that name documents, and messages are encoded with
the field numbers of tests/perfetto/pbtext.py.  Only the helpers the
copied scripts use are here; a missing one fails loudly (AttributeError).

Usage: PYTHONPATH=tests/perfetto/synth python3 SCRIPT.py > OUT.pftrace
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pbtext  # noqa: E402

CLONE_THREAD = 0x00010000
CLONE_VFORK = 0x00004000
CLONE_VM = 0x00000100

# fields that repeat (everything else is set once)
REPEATED = {"packet", "event", "processes", "threads", "cmdline"}


class Repeated(list):
    def __init__(self, typ):
        super().__init__()
        self._typ = typ

    def add(self):
        m = Msg(self._typ)
        self.append(m)
        return m


class Msg(object):
    """A message of one pbtext.SCHEMA type: fields set in order."""

    def __init__(self, typ):
        object.__setattr__(self, "_typ", typ)
        object.__setattr__(self, "_f", {})

    def _spec(self, name):
        try:
            return pbtext.SCHEMA[self._typ][name]
        except KeyError:
            raise AttributeError("%s has no field %r in pbtext.py" % (self._typ, name))

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        num, kind, sub = self._spec(name)
        if name not in self._f:
            self._f[name] = Repeated(sub) if name in REPEATED else Msg(sub)
        return self._f[name]

    def __setattr__(self, name, value):
        self._spec(name)
        self._f[name] = value

    def SerializeToString(self):
        out = bytearray()
        # by field number, as protobuf writes them
        for name, value in sorted(self._f.items(), key=lambda kv: self._spec(kv[0])[0]):
            num, kind, _ = self._spec(name)
            for v in value if isinstance(value, list) else [value]:
                out += encode(num, kind, v)
        return bytes(out)


def encode(num, kind, v):
    if kind == pbtext.M:
        body = v.SerializeToString()
        return pbtext.varint(num << 3 | 2) + pbtext.varint(len(body)) + body
    if kind == pbtext.S:
        b = v.encode() if isinstance(v, str) else bytes(v)
        return pbtext.varint(num << 3 | 2) + pbtext.varint(len(b)) + b
    return pbtext.varint(num << 3) + pbtext.varint(int(v))


class Trace(object):
    def __init__(self):
        self.trace = Msg("Trace")
        self.packet = None
        self.proc_map = {0: "idle_thread"}

    def add_ftrace_packet(self, cpu):
        self.packet = self.trace.packet.add()
        self.packet.ftrace_events.cpu = cpu

    def add_packet(self, ts=None):
        self.packet = self.trace.packet.add()
        if ts is not None:
            self.packet.timestamp = ts
        return self.packet

    def _ftrace(self, ts, tid):
        ev = self.packet.ftrace_events.event.add()
        ev.timestamp = ts
        ev.pid = tid
        return ev

    def add_sched(self, ts, prev_pid, next_pid, prev_comm=None, next_comm=None, prev_state=None):
        ss = self._ftrace(ts, 0).sched_switch
        ss.prev_comm = prev_comm or self.proc_map[prev_pid]
        ss.prev_pid = prev_pid
        ss.next_pid = next_pid
        ss.next_comm = next_comm or self.proc_map[next_pid]
        if prev_state:
            ss.prev_state = {"R": 0, "S": 1, "U": 2, "D": 2}[prev_state]

    def add_newtask(self, ts, tid, new_tid, new_comm, flags):
        nt = self._ftrace(ts, tid).task_newtask
        nt.pid = new_tid
        nt.comm = new_comm
        nt.clone_flags = flags

    def add_process_free(self, ts, tid, comm, prio):
        pf = self._ftrace(ts, tid).sched_process_free
        pf.pid = tid
        pf.comm = comm
        pf.prio = prio

    def add_rename(self, ts, tid, old_comm, new_comm, oom_score_adj):
        tr = self._ftrace(ts, tid).task_rename
        tr.pid = tid
        tr.oldcomm = old_comm
        tr.newcomm = new_comm
        tr.oom_score_adj = oom_score_adj

    def add_print(self, ts, tid, buf):
        getattr(self._ftrace(ts, tid), "print").buf = buf

    def add_atrace_begin(self, ts, tid, pid, buf):
        self.add_print(ts, tid, "B|{}|{}".format(pid, buf))

    def add_atrace_end(self, ts, tid, pid):
        self.add_print(ts, tid, "E|{}".format(pid))

    def add_process(self, pid, ppid, cmdline, uid=None):
        p = self.packet.process_tree.processes.add()
        p.pid = pid
        p.ppid = ppid
        p.cmdline.append(cmdline)
        if uid is not None:
            p.uid = uid
        self.proc_map[pid] = cmdline

    def add_thread(self, tid, tgid, cmdline, name=None):
        t = self.packet.process_tree.threads.add()
        t.tid = tid
        t.tgid = tgid
        if name is not None:
            t.name = name
        self.proc_map[tid] = cmdline


def create_trace():
    return Trace()
