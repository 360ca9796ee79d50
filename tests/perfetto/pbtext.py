#!/usr/bin/env python3
"""pbtext.py - Perfetto TextProto traces to the binary wire format, for tests.

Perfetto's diff tests write their traces as TextProto (`packet { ... }`);
protoc would need Perfetto's .proto files, so this encoder carries the
field numbers of the few messages the tests use (taken from Perfetto's
protos/perfetto/trace/ .proto files).  A field it does not know is an error
(never silently dropped).

Usage: pbtext.py IN.textproto OUT.pftrace
"""
import re
import sys

V, S, M, B = "varint", "string", "message", "bool"   # B: true/false as varint
P = "packed"   # a [packed = true] repeated varint: all values in one record, as protoc writes it

# message -> field -> (number, kind, message type or None)
SCHEMA = {
    "Trace": {"packet": (1, M, "TracePacket")},
    "TracePacket": {
        "timestamp": (8, V, None), "timestamp_clock_id": (58, V, None),
        "trusted_packet_sequence_id": (10, V, None), "trusted_uid": (3, V, None),
        "trusted_pid": (79, V, None), "sequence_flags": (13, V, None),
        "previous_packet_dropped": (42, B, None), "first_packet_on_sequence": (87, B, None),
        "incremental_state_cleared": (41, B, None),
        "ftrace_events": (1, M, "FtraceEventBundle"), "process_tree": (2, M, "ProcessTree"),
        "interned_data": (12, M, "InternedData"), "system_info": (45, M, "SystemInfo"),
        "track_event": (11, M, "TrackEvent"), "clock_snapshot": (6, M, "ClockSnapshot"),
        "android_log": (39, M, "AndroidLog"), "track_descriptor": (60, M, "TrackDescriptor"),
        "trace_packet_defaults": (59, M, "TracePacketDefaults"), "perf_sample": (66, M, "PerfSample"),
        "streaming_profile_packet": (54, M, "StreamingProfilePacket"),
        "service_event": (69, M, "TracingServiceEvent"), "ftrace_stats": (34, M, "FtraceStats"),
    },
    "FtraceStats": {"phase": (1, V, None), "preserve_ftrace_buffer": (8, B, None)},
    "TracingServiceEvent": {"tracing_started": (2, B, None), "all_data_sources_started": (1, B, None)},
    "TracePacketDefaults": {"timestamp_clock_id": (58, V, None),
                            "perf_sample_defaults": (12, M, "PerfSampleDefaults"),
                            "track_event_defaults": (11, M, "TrackEventDefaults")},
    "TrackEventDefaults": {"track_uuid": (11, V, None)},
    "PerfSampleDefaults": {"timebase": (1, M, "Timebase"), "followers": (4, M, "FollowerEvent")},
    "Timebase": {"period": (1, V, None), "frequency": (2, V, None), "counter": (4, V, None),
                 "tracepoint": (3, M, "Tracepoint"), "name": (10, S, None)},
    "Tracepoint": {"name": (1, S, None), "filter": (2, S, None)},
    "FollowerEvent": {"counter": (1, V, None), "name": (4, S, None)},
    "PerfSample": {"cpu": (1, V, None), "pid": (2, V, None), "tid": (3, V, None),
                   "callstack_iid": (4, V, None), "cpu_mode": (5, V, None),
                   "timebase_count": (6, V, None), "follower_counts": (7, V, None),
                   "kernel_records_lost": (17, V, None), "sample_skipped_reason": (18, V, None)},
    "Frame": {"iid": (1, V, None), "function_name_id": (2, V, None), "mapping_id": (3, V, None),
              "rel_pc": (4, V, None)},
    "Callstack": {"iid": (1, V, None), "frame_ids": (2, V, None)},
    "Mapping": {"iid": (1, V, None), "build_id": (2, V, None), "start_offset": (3, V, None),
                "start": (4, V, None), "end": (5, V, None), "load_bias": (6, V, None),
                "path_string_ids": (7, V, None), "exact_offset": (8, V, None)},
    "ClockSnapshot": {"clocks": (1, M, "Clock"), "primary_trace_clock": (2, V, None)},
    "Clock": {"clock_id": (1, V, None), "timestamp": (2, V, None)},
    "AndroidLog": {"events": (1, M, "LogEvent")},
    "LogEvent": {"log_id": (1, V, None), "pid": (2, V, None), "tid": (3, V, None), "uid": (4, V, None),
                 "timestamp": (5, V, None), "tag": (6, S, None), "prio": (7, V, None),
                 "message": (8, S, None)},
    "SystemInfo": {"utsname": (1, M, "Utsname")},
    "Utsname": {"sysname": (1, S, None), "version": (2, S, None), "release": (3, S, None),
                "machine": (4, S, None)},
    "InternedData": {"kernel_symbols": (26, M, "InternedString"), "event_names": (2, M, "EventName"),
                     "function_names": (5, M, "InternedString"), "frames": (6, M, "Frame"),
                     "callstacks": (7, M, "Callstack"), "build_ids": (16, M, "InternedString"),
                     "mapping_paths": (17, M, "InternedString"), "mappings": (19, M, "Mapping")},
    "InternedString": {"iid": (1, V, None), "str": (2, S, None)},
    "EventName": {"iid": (1, V, None), "name": (2, S, None)},
    "ProcessTree": {"processes": (1, M, "Process"), "threads": (2, M, "Thread")},
    "Process": {"pid": (1, V, None), "ppid": (2, V, None), "cmdline": (3, S, None), "uid": (5, V, None)},
    "Thread": {"tid": (1, V, None), "name": (2, S, None), "tgid": (3, V, None)},
    "StreamingProfilePacket": {"callstack_iid": (1, V, None), "timestamp_delta_us": (2, V, None),
                               "process_priority": (3, V, None)},
    "TrackDescriptor": {"uuid": (1, V, None), "thread": (4, M, "ThreadDescriptor"), "parent_uuid": (5, V, None),
                        "process": (3, M, "ProcessDescriptor"),
                        "disallow_merging_with_system_tracks": (9, B, None)},
    "ThreadDescriptor": {"pid": (1, V, None), "tid": (2, V, None), "thread_name": (5, S, None),
                         "reference_timestamp_us": (6, V, None)},
    "ProcessDescriptor": {"pid": (1, V, None), "process_name": (6, S, None)},
    "TrackEvent": {"type": (9, V, None), "track_uuid": (11, V, None), "name": (23, S, None),
                   "categories": (22, S, None)},
    "FtraceEventBundle": {"cpu": (1, V, None), "event": (2, M, "FtraceEvent"),
                          "compact_sched": (4, M, "CompactSched"),
                          "last_read_event_timestamp": (9, V, None),
                          "previous_bundle_end_timestamp": (10, V, None)},
    "CompactSched": {"intern_table": (5, S, None), "switch_timestamp": (1, P, None),
                     "switch_prev_state": (2, P, None), "switch_next_pid": (3, P, None),
                     "switch_next_prio": (4, P, None), "switch_next_comm_index": (6, P, None),
                     "waking_timestamp": (7, P, None), "waking_pid": (8, P, None),
                     "waking_target_cpu": (9, P, None), "waking_prio": (10, P, None),
                     "waking_comm_index": (11, P, None), "waking_common_flags": (12, P, None)},
    "FtraceEvent": {"timestamp": (1, V, None), "pid": (2, V, None), "common_flags": (5, V, None),
                    "print": (3, M, "Print"), "sched_switch": (4, M, "SchedSwitch"),
                    "sched_wakeup": (17, M, "SchedWaking"), "sched_blocked_reason": (18, M, "SchedBlocked"),
                    "sched_waking": (20, M, "SchedWaking"), "sched_wakeup_new": (114, M, "SchedWaking"),
                    "task_newtask": (235, M, "TaskNewtask"), "task_rename": (236, M, "TaskRename"),
                    "binder_transaction": (50, M, "BinderTransaction"),
                    "binder_transaction_received": (51, M, "BinderReceived"),
                    "binder_return": (486, M, "BinderReturn"),
                    "dma_heap_stat": (351, M, "DmaHeapStat"),
                    "sched_process_free": (240, M, "SchedProcessFree")},
    "SchedProcessFree": {"comm": (1, S, None), "pid": (2, V, None), "prio": (3, V, None)},
    "DmaHeapStat": {"inode": (1, V, None), "len": (2, V, None), "total_allocated": (3, V, None)},
    "BinderTransaction": {"debug_id": (1, V, None), "target_node": (2, V, None), "to_proc": (3, V, None),
                          "to_thread": (4, V, None), "reply": (5, V, None), "code": (6, V, None),
                          "flags": (7, V, None)},
    "BinderReceived": {"debug_id": (1, V, None)},
    "BinderReturn": {"cmd": (1, V, None)},
    "Print": {"ip": (1, V, None), "buf": (2, S, None)},
    "SchedSwitch": {"prev_comm": (1, S, None), "prev_pid": (2, V, None), "prev_prio": (3, V, None),
                    "prev_state": (4, V, None), "next_comm": (5, S, None), "next_pid": (6, V, None),
                    "next_prio": (7, V, None)},
    "SchedWaking": {"comm": (1, S, None), "pid": (2, V, None), "prio": (3, V, None),
                    "success": (4, V, None), "target_cpu": (5, V, None)},
    "SchedBlocked": {"pid": (1, V, None), "caller": (2, V, None), "io_wait": (3, V, None)},
    "TaskNewtask": {"pid": (1, V, None), "comm": (2, S, None), "clone_flags": (3, V, None),
                    "oom_score_adj": (4, V, None)},
    "TaskRename": {"pid": (1, V, None), "oldcomm": (2, S, None), "newcomm": (3, S, None),
                   "oom_score_adj": (4, V, None)},
}

# enum value names -> numbers (perf_events.proto Counter, profile_common.proto
# CpuMode, builtin_clock.proto BuiltinClock, PerfSample SampleSkipReason)
ENUMS = {"SW_CPU_CLOCK": 1, "SW_PAGE_FAULTS": 2, "SW_TASK_CLOCK": 3, "HW_CPU_CYCLES": 10,
         "HW_INSTRUCTIONS": 11, "MODE_UNKNOWN": 0, "MODE_KERNEL": 1, "MODE_USER": 2,
         "BUILTIN_CLOCK_REALTIME": 1, "BUILTIN_CLOCK_MONOTONIC": 3, "BUILTIN_CLOCK_BOOTTIME": 6,
         "PROFILER_SKIP_READ_STAGE": 1, "PROFILER_SKIP_UNWIND_STAGE": 2,
         "PROFILER_SKIP_UNWIND_ENQUEUE": 3, "PROFILER_SKIP_NOT_IN_SCOPE": 4}

TOKEN = re.compile(r'\s*(?:#[^\n]*\n)*\s*("(?:[^"\\]|\\.)*"|[{}:]|[^\s{}:"]+)')


def tokens(text):
    pos = 0
    while True:
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            return
        pos = m.end()
        yield m.group(1)


def varint(v):
    if v < 0:
        v += 1 << 64
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def unquote(s):
    return s[1:-1].encode("latin-1").decode("unicode_escape").encode("latin-1")


def packed(fields):
    out = bytearray()
    for num, vals in fields.items():
        body = b"".join(varint(v) for v in vals)
        out += varint(num << 3 | 2) + varint(len(body)) + body
    return bytes(out)


def parse(toks, msg, close):
    out = bytearray()
    pk = {}
    for t in toks:
        if t == "}":
            if not close:
                raise SystemExit("pbtext: unexpected }")
            return bytes(out) + packed(pk)
        if t not in SCHEMA[msg]:
            raise SystemExit("pbtext: %s has no field %r in this encoder" % (msg, t))
        num, kind, sub = SCHEMA[msg][t]
        nxt = next(toks)
        if nxt == ":":
            nxt = next(toks)
        if kind == M:
            if nxt != "{":
                raise SystemExit("pbtext: %s.%s wants {" % (msg, t))
            body = parse(toks, sub, True)
            out += varint(num << 3 | 2) + varint(len(body)) + body
        elif kind == S:
            b = unquote(nxt)
            out += varint(num << 3 | 2) + varint(len(b)) + b
        elif kind == P:
            pk.setdefault(num, []).append(ENUMS[nxt] if nxt in ENUMS else int(nxt, 0))
        elif kind == B:
            out += varint(num << 3) + varint(1 if nxt == "true" else 0 if nxt == "false" else int(nxt))
        else:
            out += varint(num << 3) + varint(ENUMS[nxt] if nxt in ENUMS else int(nxt, 0))
    if close:
        raise SystemExit("pbtext: missing }")
    return bytes(out) + packed(pk)


def main():
    text = open(sys.argv[1]).read()
    data = parse(tokens(text), "Trace", False)
    open(sys.argv[2], "wb").write(data)


if __name__ == "__main__":
    main()
