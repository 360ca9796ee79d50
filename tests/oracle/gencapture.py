#!/usr/bin/env python3
"""gencapture.py - generate realistic, seeded godeye captures and their expected blocks.

Writes a capture in the godeye format (JSON Lines or document, optionally
gzip) or the same data as logcat text, BlockCanary block logs or
AndroidGodEye monitor messages, and with --oracle the blocks `godeye blocks
--format json` must print for it, computed here in plain Python from the
definitions in spec/trace-format.md (never from godeye's code).

python3 standard library only; the same arguments always give the same
bytes.  Times are kept in eighths of a millisecond so every timestamp and
every difference of two timestamps is exact in a double.
"""

import argparse
import datetime
import gzip
import json
import math
import os
import random
import re
import sys

TICKS = 8  # time unit: 1/8 ms (exact in binary floating point)
FRAC = ["", ".125", ".25", ".375", ".5", ".625", ".75", ".875"]

FRAMEWORK_PREFIXES = ("java.", "javax.", "android.", "androidx.", "com.android.", "dalvik.",
                      "libcore.", "sun.", "kotlin.", "kotlinx.", "com.google.android.")

APP = "com.example.shop"
CONFIG = {"long_block_ms": 500, "short_block_ms": 100, "dump_interval_ms": 300,
          "sample_delay_ms": 240, "max_depth": 10, "concern_packages": [APP]}
CLK_TCK = 100
CORES = 8
ANR_MS = 5000


def ms(ticks):
    """Ticks -> JSON number of milliseconds (int when whole, else an exact float)."""
    q, r = divmod(ticks, TICKS)
    return q if r == 0 else ticks / TICKS


def to_ticks(x_ms):
    return int(round(x_ms * TICKS))


def num(x):
    """Whole floats print as integers in the oracle."""
    if isinstance(x, float) and x.is_integer() and abs(x) < 2 ** 53:
        return int(x)
    return x


# ---------------------------------------------------------------------------
# Stack material.  Chains are written OUTERMOST first (as read bottom-up in a
# stack trace) and reversed into innermost-first frames when sampled.

LOOP_BOTTOM = [
    "com.android.internal.os.ZygoteInit.main(ZygoteInit.java:936)",
    "com.android.internal.os.RuntimeInit$MethodAndArgsCaller.run(RuntimeInit.java:548)",
    "java.lang.reflect.Method.invoke(Native Method)",
    "android.app.ActivityThread.main(ActivityThread.java:7918)",
    "android.os.Looper.loop(Looper.java:288)",
    "android.os.Looper.loopOnce(Looper.java:201)",
]
VIA_CALLBACK = LOOP_BOTTOM + [
    "android.os.Handler.dispatchMessage(Handler.java:99)",
    "android.os.Handler.handleCallback(Handler.java:942)",
]
CHOREO = VIA_CALLBACK + [
    "android.view.Choreographer$FrameDisplayEventReceiver.run(Choreographer.java:1229)",
    "android.view.Choreographer.doFrame(Choreographer.java:1235)",
    "android.view.Choreographer.doCallbacks(Choreographer.java:899)",
    "android.view.Choreographer$CallbackRecord.run(Choreographer.java:1301)",
    "android.view.ViewRootImpl$TraversalRunnable.run(ViewRootImpl.java:9305)",
    "android.view.ViewRootImpl.doTraversal(ViewRootImpl.java:3142)",
    "android.view.ViewRootImpl.performTraversals(ViewRootImpl.java:3964)",
]
RV_BIND = CHOREO + [
    "android.view.ViewRootImpl.performLayout(ViewRootImpl.java:3915)",
    "android.view.View.layout(View.java:23512)",
    "android.view.ViewGroup.layout(ViewGroup.java:6481)",
    "androidx.recyclerview.widget.RecyclerView.onLayout(RecyclerView.java:4579)",
    "androidx.recyclerview.widget.RecyclerView.dispatchLayout(RecyclerView.java:4012)",
    "androidx.recyclerview.widget.RecyclerView.dispatchLayoutStep2(RecyclerView.java:4578)",
    "androidx.recyclerview.widget.LinearLayoutManager.onLayoutChildren(LinearLayoutManager.java:668)",
    "androidx.recyclerview.widget.LinearLayoutManager.fill(LinearLayoutManager.java:1591)",
    "androidx.recyclerview.widget.LinearLayoutManager.layoutChunk(LinearLayoutManager.java:1631)",
    "androidx.recyclerview.widget.RecyclerView$Recycler.tryGetViewHolderForPositionByDeadline(RecyclerView.java:6541)",
    "androidx.recyclerview.widget.RecyclerView$Recycler.tryBindViewHolderByDeadline(RecyclerView.java:6320)",
    "androidx.recyclerview.widget.RecyclerView$Adapter.bindViewHolder(RecyclerView.java:7180)",
]
ACT_H = LOOP_BOTTOM + [
    "android.os.Handler.dispatchMessage(Handler.java:106)",
    "android.app.ActivityThread$H.handleMessage(ActivityThread.java:2307)",
    "android.app.servertransaction.TransactionExecutor.execute(TransactionExecutor.java:95)",
]
IDLE_STACK = list(reversed(LOOP_BOTTOM + [
    "android.os.MessageQueue.next(MessageQueue.java:335)",
    "android.os.MessageQueue.nativePollOnce(Native Method)",
]))
WORKER_BOTTOM = [
    "android.os.HandlerThread.run(HandlerThread.java:67)",
    "android.os.Looper.loop(Looper.java:288)",
    "android.os.Looper.loopOnce(Looper.java:201)",
    "android.os.Handler.dispatchMessage(Handler.java:99)",
    "android.os.Handler.handleCallback(Handler.java:942)",
]

# scenario: outer chain (shared by all samples), inner variants (weight, chain),
# handler kind for the Looper message, busy (CPU-bound: device busy >= 80%),
# thread-time fraction range.
SCENARIOS = {
    "feed_bind": {
        "outer": RV_BIND + [
            "com.example.shop.feed.FeedAdapter.onBindViewHolder(FeedAdapter.java:88)",
        ],
        "inner": [
            (5, ["com.example.shop.feed.FeedAdapter$ProductHolder.bind(FeedAdapter.java:203)",
                 "com.example.shop.image.ImageLoader.load(ImageLoader.java:97)",
                 "com.example.shop.image.ImageLoader.decodeSync(ImageLoader.java:142)",
                 "android.graphics.BitmapFactory.decodeStream(BitmapFactory.java:765)",
                 "android.graphics.BitmapFactory.decodeStreamInternal(BitmapFactory.java:790)",
                 "android.graphics.BitmapFactory.nativeDecodeStream(Native Method)"]),
            (2, ["com.example.shop.feed.FeedAdapter$ProductHolder.bind(FeedAdapter.java:197)",
                 "com.example.shop.util.PriceFormatter.format(PriceFormatter.java:31)",
                 "java.text.DecimalFormat.format(DecimalFormat.java:1007)",
                 "java.text.DecimalFormat.format(DecimalFormat.java:1102)"]),
            (2, ["com.example.shop.feed.FeedAdapter$ProductHolder.bind(FeedAdapter.java:190)",
                 "android.widget.TextView.setText(TextView.java:6353)",
                 "android.widget.TextView.checkForRelayout(TextView.java:10396)",
                 "android.text.StaticLayout.<init>(StaticLayout.java:611)",
                 "android.text.StaticLayout.generate(StaticLayout.java:740)"]),
        ],
        "handler": "frame", "busy": True, "thread": (0.85, 0.97),
    },
    "cart_sleep": {
        "outer": VIA_CALLBACK + [
            "com.example.shop.cart.CartActivity$1.run(CartActivity.java:54)",
            "com.example.shop.cart.CartRepository.refresh(CartRepository.java:52)",
        ],
        "inner": [
            (6, ["com.example.shop.cart.CartRepository.awaitSync(CartRepository.java:77)",
                 "java.lang.Thread.sleep(Thread.java:355)",
                 "java.lang.Thread.sleep(Thread.java:450)",
                 "java.lang.Thread.sleep(Native Method)"]),
            (1, ["com.example.shop.cart.CartRepository.awaitSync(CartRepository.java:81)",
                 "java.lang.Object.wait(Object.java:442)",
                 "java.lang.Object.wait(Native Method)"]),
        ],
        "handler": "cart", "busy": False, "thread": (0.02, 0.08),
    },
    "detail_inflate": {
        "outer": ACT_H + [
            "android.app.servertransaction.TransactionExecutor.executeCallbacks(TransactionExecutor.java:135)",
            "android.app.servertransaction.LaunchActivityItem.execute(LaunchActivityItem.java:103)",
            "android.app.ActivityThread.handleLaunchActivity(ActivityThread.java:3782)",
            "android.app.ActivityThread.performLaunchActivity(ActivityThread.java:3601)",
            "android.app.Instrumentation.callActivityOnCreate(Instrumentation.java:1448)",
            "android.app.Activity.performCreate(Activity.java:8305)",
            "com.example.shop.detail.ProductDetailActivity.onCreate(ProductDetailActivity.java:63)",
        ],
        "inner": [
            (3, ["androidx.appcompat.app.AppCompatActivity.setContentView(AppCompatActivity.java:199)",
                 "android.view.LayoutInflater.inflate(LayoutInflater.java:680)",
                 "android.view.LayoutInflater.rInflate(LayoutInflater.java:1101)",
                 "android.view.LayoutInflater.createViewFromTag(LayoutInflater.java:1006)",
                 "android.view.LayoutInflater.createView(LayoutInflater.java:852)",
                 "java.lang.reflect.Constructor.newInstance0(Native Method)",
                 "com.example.shop.widget.RatingBarView.<init>(RatingBarView.java:45)",
                 "com.example.shop.widget.RatingBarView.loadStarDrawables(RatingBarView.java:88)"]),
            (2, ["com.example.shop.detail.ProductDetailActivity.bindGallery(ProductDetailActivity.java:118)",
                 "com.example.shop.image.ImageLoader.load(ImageLoader.java:97)",
                 "com.example.shop.image.ImageLoader.decodeSync(ImageLoader.java:142)",
                 "android.graphics.BitmapFactory.nativeDecodeStream(Native Method)"]),
        ],
        "handler": "act", "busy": True, "thread": (0.8, 0.95),
    },
    "db_init": {
        "outer": VIA_CALLBACK + [
            "com.example.shop.home.HomeFragment$$ExternalSyntheticLambda0.run(Unknown Source:2)",
            "com.example.shop.home.HomeFragment.lambda$onViewCreated$0(HomeFragment.java:95)",
            "com.example.shop.db.ShopDatabase.<init>(ShopDatabase.java:30)",
        ],
        "inner": [
            (3, ["com.example.shop.db.ShopDatabase.migrate(ShopDatabase.java:71)",
                 "android.database.sqlite.SQLiteDatabase.execSQL(SQLiteDatabase.java:1919)",
                 "android.database.sqlite.SQLiteConnection.nativeExecute(Native Method)"]),
            (1, ["android.database.sqlite.SQLiteOpenHelper.getWritableDatabase(SQLiteOpenHelper.java:317)",
                 "android.database.sqlite.SQLiteConnection.nativeOpen(Native Method)"]),
        ],
        "handler": "lambda", "busy": True, "thread": (0.6, 0.9),
    },
    "ads_gson": {  # third-party only: key frame = innermost non-framework frame
        "outer": VIA_CALLBACK + [
            "com.acme.ads.AdSdk$1.run(AdSdk.java:212)",
            "com.acme.ads.AdConfigStore.parse(AdConfigStore.java:88)",
            "com.google.gson.Gson.fromJson(Gson.java:932)",
            "com.google.gson.internal.bind.ReflectiveTypeAdapterFactory$Adapter.read(ReflectiveTypeAdapterFactory.java:220)",
        ],
        "inner": [
            (3, ["com.google.gson.stream.JsonReader.nextString(JsonReader.java:830)",
                 "java.lang.String.<init>(String.java:262)"]),
            (2, ["com.google.gson.internal.bind.TypeAdapters$16.read(TypeAdapters.java:396)",
                 "com.google.gson.stream.JsonReader.peek(JsonReader.java:433)"]),
        ],
        "handler": "ads", "busy": None, "thread": (0.7, 0.95),
    },
    "framework_only": {  # no app and no third-party frame: key frame null
        "outer": CHOREO + [
            "android.view.ViewRootImpl.performMeasure(ViewRootImpl.java:3589)",
            "android.view.View.measure(View.java:26411)",
            "android.widget.FrameLayout.onMeasure(FrameLayout.java:194)",
        ],
        "inner": [
            (2, ["android.view.ViewGroup.measureChildWithMargins(ViewGroup.java:7214)",
                 "android.widget.LinearLayout.onMeasure(LinearLayout.java:742)",
                 "android.widget.TextView.onMeasure(TextView.java:10773)"]),
            (1, ["android.view.ViewGroup.measureChildWithMargins(ViewGroup.java:7214)",
                 "android.widget.ImageView.onMeasure(ImageView.java:1125)"]),
        ],
        "handler": "frame", "busy": None, "thread": (0.8, 0.95),
    },
    "prefs_commit": {
        "outer": ACT_H + [
            "android.app.servertransaction.TransactionExecutor.executeLifecycleState(TransactionExecutor.java:179)",
            "android.app.servertransaction.PauseActivityItem.execute(PauseActivityItem.java:47)",
            "android.app.ActivityThread.handlePauseActivity(ActivityThread.java:5026)",
            "android.app.Activity.performPause(Activity.java:8480)",
            "com.example.shop.MainActivity.onPause(MainActivity.java:141)",
            "com.example.shop.settings.SettingsStore.save(SettingsStore.java:41)",
            "android.app.SharedPreferencesImpl$EditorImpl.commit(SharedPreferencesImpl.java:604)",
        ],
        "inner": [
            (1, ["android.app.SharedPreferencesImpl$EditorImpl$1.run(SharedPreferencesImpl.java:585)",
                 "java.util.concurrent.CountDownLatch.await(CountDownLatch.java:203)",
                 "sun.misc.Unsafe.park(Native Method)"]),
        ],
        "handler": "act", "busy": False, "thread": (0.03, 0.1),
    },
    "search_kotlin": {
        "outer": VIA_CALLBACK + [
            "kotlinx.coroutines.DispatchedTask.run(DispatchedTask.kt:108)",
            "kotlin.coroutines.jvm.internal.BaseContinuationImpl.resumeWith(ContinuationImpl.kt:33)",
            "com.example.shop.search.SearchViewModel$search$1.invokeSuspend(SearchViewModel.kt:64)",
            "com.example.shop.search.SearchIndex.query(SearchIndex.kt:120)",
        ],
        "inner": [
            (3, ["kotlin.collections.CollectionsKt___CollectionsKt.sortedWith(_Collections.kt:1066)",
                 "java.util.Arrays.sort(Arrays.java:1307)",
                 "java.util.TimSort.sort(TimSort.java:220)",
                 "com.example.shop.search.SearchIndex$rank$$inlined$sortedBy$1.compare(Comparisons.kt:102)"]),
            (2, ["com.example.shop.search.Tokenizer.tokenize(Tokenizer.kt:41)",
                 "kotlin.text.StringsKt__StringsKt.split$default(Strings.kt:1307)"]),
        ],
        "handler": "coroutine", "busy": True, "thread": (0.85, 0.97),
    },
    "checkout_anr": {
        "outer": VIA_CALLBACK + [
            "android.view.View$PerformClick.run(View.java:29364)",
            "android.view.View.performClick(View.java:7506)",
            "com.example.shop.checkout.CheckoutActivity$2.onClick(CheckoutActivity.java:212)",
            "com.example.shop.checkout.CheckoutActivity.onPayClicked(CheckoutActivity.java:230)",
            "com.example.shop.checkout.PaymentClient.awaitResult(PaymentClient.java:58)",
        ],
        "inner": [
            (5, ["java.lang.Object.wait(Object.java:442)", "java.lang.Object.wait(Native Method)"]),
            (1, ["com.example.shop.checkout.PaymentClient.pollStatus(PaymentClient.java:74)",
                 "java.lang.Thread.sleep(Thread.java:450)", "java.lang.Thread.sleep(Native Method)"]),
        ],
        "handler": "click", "busy": False, "thread": (0.01, 0.03),
    },
}
SHORT_SCENARIOS = ["feed_bind", "feed_bind", "cart_sleep", "db_init", "ads_gson", "framework_only",
                   "prefs_commit", "search_kotlin"]
LONG_SCENARIOS = ["feed_bind", "detail_inflate", "cart_sleep", "search_kotlin", "db_init"]

WORKER_SCENARIOS = [
    {"name": "ShopWorker", "callback": "com.example.shop.analytics.EventUploader$1",
     "outer": WORKER_BOTTOM + ["com.example.shop.analytics.EventUploader$1.run(EventUploader.java:40)",
                               "com.example.shop.analytics.EventUploader.flush(EventUploader.java:66)"],
     "inner": [(3, ["java.net.SocketOutputStream.socketWrite(SocketOutputStream.java:145)",
                    "java.net.SocketOutputStream.socketWrite0(Native Method)"]),
               (2, ["com.example.shop.analytics.EventUploader.serialize(EventUploader.java:91)",
                    "org.json.JSONObject.toString(JSONObject.java:729)"])]},
    {"name": "ImageDecoder", "callback": "com.example.shop.image.DiskCache$WriteTask",
     "outer": WORKER_BOTTOM + ["com.example.shop.image.DiskCache$WriteTask.run(DiskCache.java:210)",
                               "com.example.shop.image.DiskCache.put(DiskCache.java:133)"],
     "inner": [(1, ["java.io.FileOutputStream.write(FileOutputStream.java:326)",
                    "libcore.io.IoBridge.write(IoBridge.java:540)",
                    "libcore.io.Linux.writeBytes(Native Method)"])]},
    {"name": "PrefetchThread", "callback": "com.example.shop.feed.Prefetcher$1",
     "outer": WORKER_BOTTOM + ["com.example.shop.feed.Prefetcher$1.run(Prefetcher.java:51)"],
     "inner": [(1, ["com.example.shop.feed.Prefetcher.warm(Prefetcher.java:77)",
                    "java.lang.Thread.sleep(Native Method)"])]},
]

BENIGN_CALLBACKS = ["androidx.lifecycle.LiveData$1", "com.example.shop.feed.FeedFragment$2",
                    "androidx.fragment.app.FragmentManager$5", "com.example.shop.home.BannerView$AutoScroll",
                    "android.view.View$UnsetPressedState", "androidx.core.view.ViewCompat$1"]


class Rng(random.Random):
    def hexhash(self):
        return format(self.randrange(0x1000000, 0xfffffff), "x")

    def ihash(self):
        return self.randrange(10_000_000, 2_000_000_000)

    def weighted(self, items):
        total = sum(w for w, _ in items)
        x = self.random() * total
        for w, v in items:
            x -= w
            if x < 0:
                return v
        return items[-1][1]


# ---------------------------------------------------------------------------
# The oracle: expected blocks from a list of event objects, written from the
# spec's definitions only.

def frame_class(frame):
    head = frame.split("(", 1)[0]
    return head.rsplit(".", 1)[0] if "." in head else head


def is_framework(cls):
    return cls.startswith(FRAMEWORK_PREFIXES)


def key_frame(samples, concern):
    """samples: list of frame lists (innermost first).  Returns (frame, ambiguous)."""
    if not samples:
        return None, False
    count, minidx = {}, {}
    for frames in samples:
        for i, f in enumerate(frames):
            if f in minidx:
                minidx[f] = min(minidx[f], i)
            else:
                minidx[f] = i
        for f in set(frames):
            count[f] = count.get(f, 0) + 1
    app = [f for f in count if frame_class(f).startswith(tuple(concern))]
    cands = app or [f for f in count if not is_framework(frame_class(f))]
    if not cands:
        return None, False
    best = max(count[f] for f in cands)
    top = [f for f in cands if count[f] == best]
    low = min(minidx[f] for f in top)
    top = [f for f in top if minidx[f] == low]
    top.sort()
    return top[0], len(top) > 1


def fallback_group(msg):
    """godeye-blocks(1), GROUPS: the group of a block without key frame,
    from its Looper message or slice name: (group, rule)."""
    if not msg:
        return None, None
    h = c = w = ""
    m = re.search(r"(?:>>>>> Dispatching to|<<<<< Finished to) (.*)$", msg)
    if m:
        rest = m.group(1)
        hm = re.match(r"Handler \(([^)]*)\)(.*)$", rest)
        if hm:
            h = hm.group(1)
            after = hm.group(2)
            b = after.find("} ")
            rest = after[b + 2:] if b >= 0 else after
            rest = rest.lstrip(" ")
        k = rest.rfind(":")
        if k >= 0 and rest[k + 1:k + 2] == " ":
            c, w = rest[:k], rest[k + 2:]
        else:
            c = rest
        if c == "null":
            c = ""
    elif re.search(r"(?:^| )h=", msg):
        def tok(key):
            t = re.search(r"(?<= )" + key + r"(\S*)", msg)
            return t.group(1) if t else ""
        h, c, w = tok("h="), tok("c="), tok("m=")
        if not w and tok("w="):
            w = tok("w=")[:-1] if tok("w=").endswith(")") else tok("w=")
        if c == "null":
            c = ""
    if h or c:
        c = re.sub(r"@[0-9a-fA-F]+(?![0-9A-Za-z_$])", "", c)
        if not h:
            return "c=" + c, "handler"
        if c:
            return "h=%s c=%s" % (h, c), "handler"
        return ("h=%s m=%s" % (h, w) if w else "h=" + h), "handler"

    def volatile(word):
        v = re.fullmatch(r"[#@+\-]?(?:0[xX])?([0-9a-fA-F]*)(?:ms|us|ns|s)?[,;:.)\]}]*", word)
        return bool(v) and any(ch.isdigit() for ch in v.group(1))
    words = [x for x in msg.split() if not volatile(x)]
    return (" ".join(words), "slice") if words else (None, None)


def group_rule_of(kf, msg):
    """(group, group_rule) of a block: its key frame's, else the fallback."""
    if kf is not None:
        return group_of(kf), "key_frame"
    return fallback_group(msg)


def group_of(frame):
    if frame is None:
        return None
    i = frame.rfind("(")
    if i < 0 or not frame.endswith(")"):
        return frame
    inside = frame[i + 1:-1]
    c = inside.rfind(":")
    if c >= 0 and inside[c + 1:].isdigit():
        inside = inside[:c]
    return frame[:i + 1] + inside + ")"


def parse_stat(line):
    f = line.split()
    v = [int(x) for x in f[1:8]]
    total = sum(v)  # user nice system idle iowait irq softirq
    busy = total - v[3] - v[4]
    return total, busy


def stat_parts(line):
    """user nice system idle iowait irq softirq of a /proc/stat cpu line."""
    return [int(x) for x in line.split()[1:8]]


def app_jiffies(pid_stat):
    """utime + stime + cutime + cstime: fields 14-17, counted after comm's closing ')'."""
    after = pid_stat[pid_stat.rfind(")") + 1:].split()
    return sum(int(x) for x in after[11:15])


def cpu_busy(block_start, block_end, cpus, interval):
    inside = [c for c in cpus if block_start <= c[0] <= block_end]
    if len(inside) >= 2:
        dt = inside[-1][1] - inside[0][1]
        db = inside[-1][2] - inside[0][2]
        if dt <= 0:
            return None
        return db * 5 >= dt * 4  # db/dt >= 0.8, exactly
    if block_end - block_start > interval:
        # BlockCanary's rule: a starved sampler means busy, a sampler running
        # without a gap means not busy; no sample near the start says nothing
        lo, hi = block_start - interval, block_start + interval
        for a, b in zip(cpus, cpus[1:]):
            if lo < a[0] < hi and lo < b[0] < hi and b[0] - a[0] > 1.2 * interval:
                return True
        if any(lo < c[0] < hi for c in cpus):
            return False
    return None


def compute_oracle(meta, events, threshold=100.0, trace=1):
    """Expected `godeye blocks --format json` rows for one capture."""
    main_tid = meta.get("main_tid", meta.get("pid"))
    pid = meta.get("pid")
    cfg = meta.get("config") or {}
    concern = cfg.get("concern_packages") or ([meta["app"]] if meta.get("app") else [])
    long_ = cfg.get("long_block_ms", 500)
    interval = cfg.get("dump_interval_ms", 300)
    known = {"looper", "dispatch", "stack", "cpu", "memory", "lifecycle", "view_dump", "image",
             "method", "frame", "mark"}
    evs = [(i, e) for i, e in enumerate(events) if e.get("type") in known]
    last_ts = max(e["ts"] for _, e in evs)

    def tid_of(e):
        t = e.get("tid")
        return main_tid if t is None else t

    loopers, stacks, dispatches, cpus = {}, {}, [], []
    for i, e in evs:
        t = e["type"]
        if t == "looper":
            loopers.setdefault(tid_of(e), []).append((e["ts"], i, e))
        elif t == "stack":
            stacks.setdefault(tid_of(e), []).append((e["ts"], e["frames"]))
        elif t == "dispatch":
            dispatches.append({"tid": tid_of(e), "start": e["ts"], "end": e["ts"] + e["dur"],
                               "thread_ms": e.get("thread_dur"), "msg": e.get("msg"),
                               "unfinished": False})
        elif t == "cpu" and "stat" in e:
            total, busy = parse_stat(e["stat"])
            cpus.append((e["ts"], total, busy))
    cpus.sort()
    for tid, lst in loopers.items():
        lst.sort(key=lambda x: (x[0], x[1]))
        open_, expect_begin = None, True
        for ts, _, e in lst:
            ph = e.get("phase")
            msg = e.get("msg")
            if ph is None and msg is not None:
                if msg.startswith(">>>>> Dispatching"):
                    ph = "begin"
                elif msg.startswith("<<<<< Finished"):
                    ph = "end"
            if ph is None:
                ph = "begin" if expect_begin else "end"
            expect_begin = ph == "end"
            if ph == "begin":
                open_ = e  # a second begin replaces an unpaired one
            elif open_ is not None:
                tt = None
                if open_.get("thread_ts") is not None and e.get("thread_ts") is not None:
                    tt = e["thread_ts"] - open_["thread_ts"]
                dispatches.append({"tid": tid, "start": open_["ts"], "end": ts, "thread_ms": tt,
                                   "msg": open_.get("msg"), "unfinished": False})
                open_ = None
        if open_ is not None:
            dispatches.append({"tid": tid, "start": open_["ts"], "end": last_ts, "thread_ms": None,
                               "msg": open_.get("msg"), "unfinished": True})
    rows = []
    for d in dispatches:
        dur = d["end"] - d["start"]
        if dur < threshold:
            continue
        samples = [fr for ts, fr in stacks.get(d["tid"], []) if d["start"] < ts < d["end"]]
        kf, amb = key_frame(samples, concern)
        rows.append({
            "trace": trace, "pid": pid, "tid": d["tid"],
            "start_ms": num(d["start"]), "end_ms": num(d["end"]), "duration_ms": num(dur),
            "thread_ms": num(d["thread_ms"]) if d["thread_ms"] is not None else None,
            "kind": "anr" if dur >= ANR_MS else ("long" if dur >= long_ else "short"),
            "unfinished": d["unfinished"],
            "cpu_busy": cpu_busy(d["start"], d["end"], cpus, interval),
            "samples": len(samples), "key_frame": kf, "group": group_rule_of(kf, d["msg"])[0],
            "group_rule": group_rule_of(kf, d["msg"])[1], "msg": d["msg"], "blame": None,
        })
        if amb:
            rows[-1]["_ambiguous_key_frame"] = True
    rows.sort(key=lambda r: (r["start_ms"], r["tid"] if r["tid"] is not None else -1))
    return rows


def read_capture(path):
    """(meta, events) of a godeye capture (document or JSON Lines, gzip allowed)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    text = data.decode("utf-8")
    s = text.lstrip()
    if s.startswith("{") and s[1:].lstrip().startswith(('"godeye_trace"', '"meta"', '"events"')):
        doc = json.loads(text)
        return doc.get("meta", {}), doc.get("events", [])
    meta, events = {}, []
    for line in text.splitlines():
        if not line.strip():
            continue
        o = json.loads(line)
        if o.get("type") == "meta":
            meta = {k: v for k, v in o.items() if k != "type"}
        else:
            events.append(o)
    return meta, events


# ---------------------------------------------------------------------------
# The generator.

class Capture:
    def __init__(self, args):
        self.a = args
        self.rng = Rng(args.seed)
        r = self.rng
        self.pid = r.randrange(3000, 29000)
        self.t0 = to_ticks(iso_to_ms(args.start_iso))
        self.events = []  # (ticks, seq, dict)
        self.seq = 0
        self.main = []    # main-thread dispatch records
        self.handlers = {k: r.hexhash() for k in
                         ("frame", "act", "main", "vri", "cart", "click")}
        self.frame_receiver = r.hexhash()
        self.meta = {
            "app": APP, "version_name": args.version_name,
            "version_code": int("".join("%02d" % int(x) for x in args.version_name.split(".")[:3])),
            "device": "Google Pixel 6", "api_level": 33, "cpu_cores": CORES,
            "pid": self.pid, "main_tid": self.pid,
            "session": "s-%08x" % r.getrandbits(32),
            "config": dict(CONFIG), "clk_tck": CLK_TCK,
        }

    def add(self, ticks, ev):
        ev = dict(ev)
        d = {"type": ev.pop("type"), "ts": ms(ticks)}
        d.update(ev)
        self.events.append([ticks, self.seq, d])
        self.seq += 1
        return d

    # -- Looper messages ---------------------------------------------------
    def message(self, kind):
        r, h = self.rng, self.handlers
        if kind == "frame":
            tgt = "Handler (android.view.Choreographer$FrameHandler) {%s}" % h["frame"]
            cb, what = "android.view.Choreographer$FrameDisplayEventReceiver@" + self.frame_receiver, 0
        elif kind == "act":
            tgt = "Handler (android.app.ActivityThread$H) {%s}" % h["act"]
            cb, what = "null", 159
        elif kind == "cart":
            tgt = "Handler (android.os.Handler) {%s}" % h["main"]
            cb, what = "com.example.shop.cart.CartActivity$1@" + r.hexhash(), 0
        elif kind == "lambda":
            tgt = "Handler (android.os.Handler) {%s}" % h["main"]
            cb, what = "com.example.shop.home.HomeFragment$$ExternalSyntheticLambda0@" + r.hexhash(), 0
        elif kind == "ads":
            tgt = "Handler (android.os.Handler) {%s}" % h["main"]
            cb, what = "com.acme.ads.AdSdk$1@" + r.hexhash(), 0
        elif kind == "coroutine":
            tgt = "Handler (android.os.Handler) {%s}" % h["main"]
            cb = ("DispatchedContinuation[Dispatchers.Main, Continuation at "
                  "com.example.shop.search.SearchViewModel$search$1@%s]" % r.hexhash())
            what = 0
        elif kind == "click":
            tgt = "Handler (android.view.ViewRootImpl$ViewRootHandler) {%s}" % h["vri"]
            cb, what = "android.view.View$PerformClick@" + r.hexhash(), 0
        elif kind == "vri":
            tgt = "Handler (android.view.ViewRootImpl$ViewRootHandler) {%s}" % h["vri"]
            cb, what = "null", r.choice([1, 6, 31])
        elif kind == "apph":
            tgt = "Handler (com.example.shop.cart.CartPresenter$UiHandler) {%s}" % h["cart"]
            cb, what = "null", 3
        else:
            tgt = "Handler (android.os.Handler) {%s}" % h["main"]
            cb, what = r.choice(BENIGN_CALLBACKS) + "@" + r.hexhash(), 0
        return (">>>>> Dispatching to %s %s: %d" % (tgt, cb, what),
                "<<<<< Finished to %s %s" % (tgt, cb))

    def sample_stack(self, scen):
        inner = self.rng.weighted(scen["inner"])
        return list(reversed(scen["outer"] + inner))

    # -- main thread -------------------------------------------------------
    def plan_main(self):
        a, r = self.a, self.rng
        n = a.dispatches
        n_short = max(3, round(n * 0.03)) if n >= 20 else min(1, n)
        n_long = max(2, round(n * 0.008)) if n >= 20 else 0
        idx = list(range(3, max(4, n - 2)))
        r.shuffle(idx)
        short_idx = set(idx[:n_short])
        long_idx = set(idx[n_short:n_short + n_long])
        edge = sorted(short_idx)[:3]  # exactly at/below thresholds
        plans = []
        long_pool = list(LONG_SCENARIOS)
        r.shuffle(long_pool)
        short_pool = list(SHORT_SCENARIOS)
        r.shuffle(short_pool)
        short_pool = [x for x in short_pool if x in ("ads_gson", "framework_only")] + \
            [x for x in short_pool if x not in ("ads_gson", "framework_only")]
        for i in range(n):
            if i in long_idx:
                scen = long_pool[len([p for p in plans if p["block"] == "long"]) % len(long_pool)]
                dur = 500 + (r.random() ** 1.7) * 2000
                if not any(p.get("dur") == 500 for p in plans) and len(long_idx) >= 3 \
                        and i == max(long_idx):
                    dur = 500.0  # exactly the long threshold
                plans.append({"block": "long", "scen": scen, "dur": dur})
            elif i in short_idx:
                k = edge.index(i) if i in edge else -1
                if k == 0:    # exactly the short threshold: a block
                    plans.append({"block": "short", "scen": "feed_bind", "dur": 100.0})
                elif k == 1:  # just below it: not a block
                    plans.append({"block": "short", "scen": "feed_bind", "dur": 99.875})
                elif k == 2:  # longer than the sampling interval, sampler starved at its start
                    plans.append({"block": "short", "scen": "prefs_commit", "dur": 340 + r.random() * 50,
                                  "starve": True})
                else:
                    scen = short_pool[len([p for p in plans if p["block"] == "short"]) % len(short_pool)]
                    if scen in ("ads_gson", "framework_only"):
                        dur = 260 + r.random() * 200  # long enough for one stack sample
                    else:
                        dur = 100 + (r.random() ** 1.5) * 380
                    plans.append({"block": "short", "scen": scen, "dur": dur})
            else:
                kind = r.weighted([(55, "frame"), (3, "act"), (22, "other"), (8, "vri"), (5, "apph"),
                                   (4, "lambda"), (3, "coroutine")])
                dur = min(60.0, max(0.25, math.exp(r.gauss(math.log(3.5), 0.9))))
                plans.append({"block": None, "kind": kind, "dur": dur})
        return plans

    def gen_main(self):
        a, r = self.a, self.rng
        tc = r.randrange(3000, 9000)  # currentThreadTimeMillis at start
        t = self.t0 + to_ticks(40 + r.random() * 20)
        # the recorder started mid-dispatch: an end without a begin
        _, end0 = self.message("frame")
        self.add(t, {"type": "looper", "thread_ts": tc, "phase": "end", "msg": end0})
        t += to_ticks(3 + r.random() * 10)
        for p in self.plan_main():
            if p["block"]:
                scen = SCENARIOS[p["scen"]]
                kind = scen["handler"]
                lo, hi = scen["thread"]
            else:
                scen, kind, (lo, hi) = None, p["kind"], (0.55, 0.95)
            begin_msg, end_msg = self.message(kind)
            dur_t = to_ticks(p["dur"])
            tdur = int(round(p["dur"] * (lo + (hi - lo) * r.random())))
            rec = {"start": t, "end": t + dur_t, "tc0": tc, "tc1": tc + tdur, "plan": p,
                   "scen": p.get("scen"), "begin_msg": begin_msg, "end_msg": end_msg,
                   "handler": kind, "tid": self.pid}
            self.main.append(rec)
            tc += tdur + (1 if r.random() < 0.3 else 0)
            t = rec["end"] + to_ticks(min(400.0, max(0.5, math.exp(r.gauss(math.log(12), 1.0)))))
        if a.unfinished:
            begin_msg, _ = self.message("click")
            rec = {"start": t, "end": None, "tc0": tc, "tc1": None,
                   "plan": {"block": "anr"}, "scen": "checkout_anr", "begin_msg": begin_msg,
                   "end_msg": None, "handler": "click", "tid": self.pid}
            self.main.append(rec)
            self.anr_until = t + to_ticks(ANR_MS + 400 + r.random() * 900)
            self.capture_end = self.anr_until
        else:
            self.capture_end = t + to_ticks(20)
        for rec in self.main:
            self.add(rec["start"], {"type": "looper", "thread_ts": rec["tc0"], "phase": "begin",
                                    "msg": rec["begin_msg"]})
            if rec["end"] is not None:
                self.add(rec["end"], {"type": "looper", "thread_ts": rec["tc1"], "phase": "end",
                                      "msg": rec["end_msg"]})

    def sample_times(self, start, end, n_fixed=None):
        """Sampler times (ticks) strictly inside (start, end)."""
        r = self.rng
        if end is None:
            end = self.capture_end - to_ticks(30)
        out = []
        if n_fixed:
            step = (end - start) / (n_fixed + 1)
            for k in range(1, n_fixed + 1):
                out.append(start + int(step * k))
            return out
        k = 0
        while True:
            ts = start + to_ticks(CONFIG["sample_delay_ms"] + CONFIG["dump_interval_ms"] * k
                                  + r.random() * 3)
            if ts >= end:
                break
            out.append(ts)
            k += 1
        return out

    def gen_samples(self):
        a, r = self.a, self.rng
        if not (a.block_samples or a.samples_per_long_block):
            return
        main_tid = self.pid
        boundary_done = False
        for rec in self.main:
            if rec["scen"] is None:
                continue
            scen = SCENARIOS[rec["scen"]]
            end = rec["end"]
            dur = ((end if end is not None else self.capture_end) - rec["start"]) / TICKS
            fixed = None
            if a.samples_per_long_block and rec["plan"]["block"] in ("long", "anr"):
                fixed = a.samples_per_long_block
            elif not a.block_samples:
                continue
            if fixed is None and dur <= CONFIG["sample_delay_ms"]:
                continue
            times = self.sample_times(rec["start"], end, fixed)
            for _attempt in range(30):
                stacks = [self.sample_stack(scen) for _ in times]
                if not key_frame(stacks, CONFIG["concern_packages"])[1]:
                    break
            for ts, frames in zip(times, stacks):
                ev = {"type": "stack", "frames": frames}
                if r.random() < 0.5:
                    ev = {"type": "stack", "tid": main_tid, "thread": "main", "frames": frames}
                self.add(ts, ev)
            if not boundary_done and rec["plan"]["block"] == "long" and end is not None:
                # samples exactly at the begin and end prints: outside the open interval
                self.add(rec["start"], {"type": "stack", "tid": main_tid, "thread": "main",
                                        "frames": self.sample_stack(scen)})
                self.add(end, {"type": "stack", "tid": main_tid, "thread": "main",
                               "frames": self.sample_stack(scen)})
                boundary_done = True
        # a few samples while the looper idles (inside no dispatch)
        gaps = [(p["end"], q["start"]) for p, q in zip(self.main, self.main[1:])
                if p["end"] is not None and q["start"] - p["end"] > to_ticks(30)]
        r.shuffle(gaps)
        for g0, g1 in sorted(gaps[:4]):
            self.add((g0 + g1) // 2, {"type": "stack", "frames": IDLE_STACK})

    # -- other threads -----------------------------------------------------
    def gen_noise(self):
        a, r = self.a, self.rng
        stop = (self.main[-1]["start"] if a.unfinished else self.capture_end) + to_ticks(ANR_MS)
        stop = min(stop, self.capture_end - to_ticks(60))
        self.noise_recs = []
        for k in range(a.noise_threads):
            w = WORKER_SCENARIOS[k % len(WORKER_SCENARIOS)]
            tid = self.pid + 14 + 7 * k
            handler = r.hexhash()
            t = self.t0 + to_ticks(100 + r.random() * 300)
            tc = r.randrange(10, 200)
            omit_phase = k == 0
            blocks = 0
            while True:
                if r.random() < 0.07 or (blocks == 0 and t > self.t0 + to_ticks(3000)):
                    dur = 100 + r.random() * 800
                    blocks += 1
                    tdur = int(dur * (0.1 + 0.3 * r.random()))
                else:
                    dur = min(80.0, max(0.25, math.exp(r.gauss(math.log(3), 1.0))))
                    tdur = int(dur * 0.7)
                end = t + to_ticks(dur)
                if end >= stop:
                    break
                cb = "%s@%s" % (w["callback"], r.hexhash())
                bm = ">>>>> Dispatching to Handler (android.os.Handler) {%s} %s: 0" % (handler, cb)
                em = "<<<<< Finished to Handler (android.os.Handler) {%s} %s" % (handler, cb)
                b = {"type": "looper", "tid": tid, "thread_ts": tc, "msg": bm}
                e = {"type": "looper", "tid": tid, "thread_ts": tc + tdur, "msg": em}
                if not omit_phase:
                    b["phase"], e["phase"] = "begin", "end"
                self.add(t, b)
                self.add(end, e)
                if dur > CONFIG["sample_delay_ms"] and (a.block_samples or a.samples_per_long_block):
                    times = self.sample_times(t, end)
                    stacks = [list(reversed(w["outer"] + self.rng.weighted(w["inner"]))) for _ in times]
                    for ts, frames in zip(times, stacks):
                        self.add(ts, {"type": "stack", "tid": tid, "thread": w["name"], "frames": frames})
                tc += tdur
                t = end + to_ticks(a.noise_gap_ms * (0.1 + 1.8 * r.random()))
        if a.dispatch_thread:
            tid = self.pid + 31
            handler = r.hexhash()
            t = self.t0 + to_ticks(500 + r.random() * 500)
            for j in range(a.dispatch_thread):
                dur = 150 + r.random() * 400 if j % 6 == 2 else r.random() * 40 + 0.5
                dur_t = to_ticks(dur)
                if t + dur_t >= stop:
                    break
                cb = "com.example.shop.sync.SyncEngine$Pass@" + r.hexhash()
                self.add(t, {"type": "dispatch", "tid": tid, "dur": ms(dur_t),
                             "thread_dur": int(dur * 0.6),
                             "msg": ">>>>> Dispatching to Handler (android.os.Handler) {%s} %s: 0"
                             % (handler, cb)})
                t += dur_t + to_ticks(200 + r.random() * 1200)

    # -- cpu, memory -------------------------------------------------------
    def cpu_times(self):
        """Sampler schedule: every dump_interval (+ a few ms of jitter).  At the start of each
        block marked `starve` the sampler stalls: a sample a in [start - 280, start - 150] ms,
        the next 380 ms later (more than 1.2 x interval, both within +-interval of the
        start), the one after that past the block end.  No other gap exceeds 1.2 x interval."""
        r = self.rng
        iv = to_ticks(CONFIG["dump_interval_ms"])
        starve = [(m["start"], m["end"]) for m in self.main if m["plan"].get("starve")]
        times, i = [], 0
        t = self.t0 + to_ticks(80 + r.random() * 40)
        while t < self.capture_end - to_ticks(40):
            if i < len(starve) and t > starve[i][0] - to_ticks(300):
                s, e = starve[i]
                a_ = max(s - to_ticks(280), times[-1] + to_ticks(150))
                times += [a_, a_ + to_ticks(380)]
                t = a_ + to_ticks(380) + iv + to_ticks(5 + r.random() * 4)
                assert t > e
                i += 1
                continue
            times.append(t)
            t += iv + to_ticks(r.random() * 4)
        times.append(self.capture_end)  # the last event of the capture
        return times

    def gen_cpu(self):
        r = self.rng
        times = self.cpu_times()
        busy_iv = [(m["start"], m["end"] or self.capture_end, SCENARIOS[m["scen"]]["busy"])
                   for m in self.main if m["scen"]]
        c = {"user": 220763, "nice": 20135, "system": 175136, "idle": 1286053, "iowait": 35582,
             "irq": 21690, "softirq": 12205, "steal": 0}
        app = {"utime": 404, "stime": 140}
        comm = self.a.comm
        bi = 0
        prev = None
        for t in times:
            if prev is not None:
                dt = (t - prev) / TICKS
                dtotal = max(1, int(round(dt * CLK_TCK * CORES / 1000)))
                mode = None
                while bi < len(busy_iv) and busy_iv[bi][1] < prev:
                    bi += 1
                for s, e, b in busy_iv[bi:bi + 3]:
                    if s < t and e > prev:
                        mode = b
                        break
                if mode is True:
                    u = 0.86 + r.random() * 0.11
                    au = 0.09 + r.random() * 0.03
                elif mode is False:
                    u = 0.12 + r.random() * 0.3
                    au = 0.005 + r.random() * 0.01
                else:
                    u = 0.25 + r.random() * 0.35
                    au = 0.01 + r.random() * 0.04
                busy = int(round(dtotal * u))
                idle_all = dtotal - busy
                iow = int(round(idle_all * 0.04))
                c["idle"] += idle_all - iow
                c["iowait"] += iow
                irq = int(busy * 0.03)
                sirq = int(busy * 0.02)
                nice = int(busy * 0.04)
                sys_ = int(busy * 0.3)
                c["irq"] += irq
                c["softirq"] += sirq
                c["nice"] += nice
                c["system"] += sys_
                c["user"] += busy - irq - sirq - nice - sys_
                aj = int(round(dtotal * au))
                app["utime"] += aj - aj // 4
                app["stime"] += aj // 4
            prev = t
            stat = "cpu  %d %d %d %d %d %d %d %d 0 0" % (
                c["user"], c["nice"], c["system"], c["idle"], c["iowait"], c["irq"], c["softirq"],
                c["steal"])
            pid_stat = ("%d (%s) S 1189 1189 0 0 -1 1077952832 %d 0 %d 0 %d %d 0 0 10 -10 %d 0 "
                        "103013784 15879843840 %d 18446744073709551615 383004368896 383004381024 "
                        "548714307200 0 0 0 4612 1 1073775864 0 0 0 17 5 0 0 0 0 0 383004381184 "
                        "383004382456 384055037952 548714308092 548714308191 548714308191 "
                        "548714311646 0") % (self.pid, comm, 45274 + int((t - self.t0) / TICKS / 20),
                                             12, app["utime"], app["stime"], 41,
                                             48117 + int((t - self.t0) / TICKS / 50))
            self.add(t, {"type": "cpu", "stat": stat, "pid_stat": pid_stat})

    def gen_memory(self):
        r = self.rng
        t = self.t0 + to_ticks(500)
        alloc = 48000
        while t < self.capture_end - to_ticks(100):
            alloc = max(30000, alloc + r.randrange(-3000, 9000))
            ev = {"type": "memory",
                  "heap": {"freeMemKb": 524288 - alloc - 200000, "maxMemKb": 524288,
                           "allocatedKb": alloc}}
            if r.random() < 0.7:
                ev["pss"] = {"totalPssKb": 180000 + alloc // 2, "dalvikPssKb": alloc // 2 + 20000,
                             "nativePssKb": 61000 + r.randrange(0, 9000), "otherPssKb": 9000}
                ev["ram"] = {"availMemKb": 2900000 - r.randrange(0, 300000), "totalMemKb": 7645312,
                             "lowMemThresholdKb": 226492, "isLowMemory": False}
            self.add(t, ev)
            t += to_ticks(1800 + r.random() * 600)

    # -- pages, views, images, methods, frames, marks ----------------------
    def inside_dispatch(self, frac):
        """The ordinary (non-block, > 2 ms) main dispatch at fraction `frac` of all of them."""
        ordinary = [m for m in self.main if m["end"] is not None and not m["plan"]["block"]
                    and m["end"] - m["start"] > to_ticks(2)] or self.main
        return ordinary[min(len(ordinary) - 1, int(frac * len(ordinary)))]

    def gen_pages(self):
        r = self.rng
        main_hash, splash_hash = r.ihash(), r.ihash()
        home_hash, feed_hash, detail_hash = r.ihash(), r.ihash(), r.ihash()
        pages = {
            "splash": {"type": "activity", "class": "com.example.shop.SplashActivity",
                       "hash": splash_hash, "parent": None},
            "main": {"type": "activity", "class": "com.example.shop.MainActivity",
                     "hash": main_hash, "parent": None},
            "home": {"type": "fragment", "class": "com.example.shop.home.HomeFragment",
                     "hash": home_hash, "parent": main_hash},
            "feed": {"type": "fragment", "class": "com.example.shop.feed.FeedFragment",
                     "hash": feed_hash, "parent": main_hash},
            "detail": {"type": "activity", "class": "com.example.shop.detail.ProductDetailActivity",
                       "hash": detail_hash, "parent": None},
        }
        self.pages = pages
        seq = [  # (fraction of timeline, page, event)
            (0.00, "splash", "ON_CREATE"), (0.01, "splash", "ON_START"), (0.012, "splash", "ON_RESUME"),
            (0.03, "splash", "ON_DRAW"), (0.05, "splash", "ON_LOAD"),
            (0.10, "main", "ON_CREATE"), (0.101, "home", "ON_ATTACH"), (0.102, "home", "ON_CREATE"),
            (0.104, "home", "ON_VIEW_CREATE"), (0.106, "main", "ON_START"), (0.107, "home", "ON_START"),
            (0.108, "main", "ON_RESUME"), (0.109, "home", "ON_RESUME"), (0.11, "home", "ON_SHOW"),
            (0.111, "splash", "ON_PAUSE"), (0.13, "main", "ON_DRAW"), (0.131, "home", "ON_DRAW"),
            (0.15, "splash", "ON_STOP"), (0.16, "splash", "ON_DESTROY"),
            (0.20, "home", "ON_LOAD"), (0.21, "main", "ON_LOAD"),
            (0.35, "home", "ON_HIDE"), (0.351, "feed", "ON_ATTACH"), (0.352, "feed", "ON_CREATE"),
            (0.354, "feed", "ON_VIEW_CREATE"), (0.355, "feed", "ON_START"), (0.356, "feed", "ON_RESUME"),
            (0.357, "feed", "ON_SHOW"), (0.37, "feed", "ON_DRAW"), (0.42, "feed", "ON_LOAD"),
            (0.60, "main", "ON_PAUSE"), ("detail", "detail", "ON_CREATE"),
            (0.602, "detail", "ON_START"), (0.603, "detail", "ON_RESUME"), (0.62, "detail", "ON_DRAW"),
            (0.66, "detail", "ON_LOAD"), (0.63, "main", "ON_STOP"),
            (0.80, "detail", "ON_PAUSE"), (0.801, "main", "ON_START"), (0.802, "main", "ON_RESUME"),
            (0.81, "detail", "ON_STOP"), (0.82, "detail", "ON_DESTROY"),
        ]
        detail_block = next((m for m in self.main if m["scen"] == "detail_inflate"), None)
        evs = []
        for frac, key, name in seq:
            if frac == "detail":
                if detail_block is not None:
                    t = detail_block["start"] + to_ticks(1.5)
                    end = detail_block["end"] - to_ticks(2)
                else:
                    m = self.inside_dispatch(0.601)
                    t, end = m["start"] + to_ticks(0.5), m["end"] - to_ticks(0.25)
            else:
                m = self.inside_dispatch(frac)
                t = m["start"] + to_ticks(0.5)
                end = min(m["end"] - to_ticks(0.25), t + to_ticks(1 + r.random() * 8))
            ev = {"type": "lifecycle", "page": dict(pages[key]), "event": name}
            if name not in ("ON_DRAW", "ON_LOAD", "ON_SHOW", "ON_HIDE") and end > t:
                ev["end_ts"] = ms(end)
            evs.append((t, ev))
        evs.sort(key=lambda x: x[0])
        # ts strictly increasing per page (several callbacks can share a dispatch)
        last = {}
        for i, (t, ev) in enumerate(evs):
            h = ev["page"]["hash"]
            if h in last and t <= last[h]:
                t = last[h] + 1
                evs[i] = (t, ev)
                if "end_ts" in ev and to_ticks(ev["end_ts"]) <= t:
                    del ev["end_ts"]
            last[h] = t
        for t, ev in evs:
            d = self.add(t, ev)
            d["_shuffle"] = True

    def gen_views(self):
        r = self.rng
        n = self.a.views
        sizes = [12] + [r.randrange(40, 301) for _ in range(max(0, n - 1))]
        if self.a.view_sizes:
            given = [int(x) for x in self.a.view_sizes.split(",")]
            sizes = given[:n] + sizes[len(given):]
        fr = [0.14, 0.45, 0.7, 0.3, 0.9]
        pages = getattr(self, "pages", None) or {
            "main": {"type": "activity", "class": "com.example.shop.MainActivity", "hash": r.ihash(),
                     "parent": None}}
        for k in range(n):
            size = max(12, min(300, sizes[k]))
            t = self.inside_dispatch(fr[k % len(fr)])["start"] + to_ticks(1)
            if size < 20:  # a 12-view dialog
                page, views = pages["main"], dialog_views()
            else:
                page = pages.get("feed" if k % 2 else "detail", pages["main"])
                views = feed_views(r, size)
            self.add(t, {"type": "view_dump", "page": dict(page), "screen": {"w": 1080, "h": 2340},
                         "views": views})

    def gen_images(self):
        r = self.rng
        pages = getattr(self, "pages", None) or {}
        page = pages.get("feed") or {"type": "activity", "class": "com.example.shop.MainActivity",
                                      "hash": r.ihash(), "parent": None}
        cases = [  # view w,h, visible, bitmap w,h, config, source
            (288, 288, True, 1080, 1080, "ARGB_8888", "src"),    # too high
            (288, 288, True, 300, 300, "ARGB_8888", "src"),      # fine
            (400, 400, True, 120, 120, "ARGB_8888", "src"),      # too low
            (288, 288, False, 512, 512, "ARGB_8888", "src"),     # invisible
            (1080, 400, True, 1080, 400, "RGB_565", "background"),
            (96, 96, True, 96, 96, "ALPHA_8", "src"),
            (288, 288, True, 720, 720, "RGBA_F16", "src"),       # too high, 8 B/px
            (1032, 300, True, 1032, 300, "ARGB_8888", "background"),
            (200, 200, True, 245, 245, "ARGB_8888", "src"),      # 1.5006x: too high by a hair
            (200, 200, True, 141, 141, "RGB_565", "src"),        # 2x19881 < 40000: too low
        ]
        n = self.a.images
        for k in range(n):
            vw, vh, vis, bw, bh, cfg, src = cases[k % len(cases)]
            t = self.inside_dispatch(0.37 + 0.02 * k)["start"] + to_ticks(2)
            self.add(t, {"type": "image", "page": dict(page),
                         "view": {"hash": r.ihash(), "class": "android.widget.ImageView" if src == "src"
                                  else "android.widget.FrameLayout", "w": vw, "h": vh, "visible": vis},
                         "bitmap": {"w": bw, "h": bh, "config": cfg}, "source": src})

    def gen_methods(self):
        r = self.rng
        tid = self.pid
        blk = next((m for m in self.main if m["plan"]["block"] == "long" and m["scen"] == "feed_bind"),
                   None) or next((m for m in self.main if m["plan"]["block"] in ("long", "short")), None)
        if blk is None:
            return
        i = self.main.index(blk)
        prev = self.main[i - 1] if i > 0 else None
        calls = []
        if prev is not None and prev["end"] - prev["start"] > to_ticks(2):
            calls.append((prev["start"] + to_ticks(0.25), prev["end"] - to_ticks(0.25),
                          "com/example/shop/feed/FeedFragment$1", "onScrolled",
                          "(Landroidx/recyclerview/widget/RecyclerView;II)V", []))
        s, e = blk["start"] + to_ticks(1), blk["end"] - to_ticks(1)
        n = 3
        span = (e - s) // n
        for k in range(n):
            a0, a1 = s + span * k + to_ticks(0.5), s + span * (k + 1) - to_ticks(0.5)
            b0 = a0 + to_ticks(0.25)
            b1 = a1 - to_ticks(0.25)
            img0, img1 = b0 + to_ticks(0.5), b0 + (b1 - b0) * 3 // 4
            calls.append((a0, a1, "com/example/shop/feed/FeedAdapter", "onBindViewHolder",
                          "(Lcom/example/shop/feed/FeedAdapter$ProductHolder;I)V", [
                              (b0, b1, "com/example/shop/feed/FeedAdapter$ProductHolder", "bind",
                               "(Lcom/example/shop/model/Product;)V", [
                                   (img0, img1, "com/example/shop/image/ImageLoader", "load",
                                    "(Ljava/lang/String;Landroid/widget/ImageView;)V", [
                                        (img0 + to_ticks(0.125), img1 - to_ticks(0.125),
                                         "com/example/shop/image/ImageLoader", "decodeSync",
                                         "(Ljava/lang/String;)Landroid/graphics/Bitmap;", [])]),
                                   (img1 + to_ticks(0.25), b1 - to_ticks(0.125),
                                    "com/example/shop/util/PriceFormatter", "format",
                                    "(J)Ljava/lang/String;", [])])]))

        def emit(c):
            c0, c1, cls, name, desc, kids = c
            self.add(c0, {"type": "method", "tid": tid, "phase": "enter", "class": cls, "method": name,
                          "desc": desc})
            for kc in kids:
                emit(kc)
            self.add(c1, {"type": "method", "tid": tid, "phase": "exit", "class": cls, "method": name,
                          "desc": desc})
        for c in calls:
            emit(c)
        anr = self.main[-1]
        if self.a.unfinished and anr["end"] is None:
            self.add(anr["start"] + to_ticks(0.5), {"type": "method", "tid": tid, "phase": "enter",
                                                    "class": "com/example/shop/checkout/CheckoutActivity",
                                                    "method": "onPayClicked", "desc": "()V"})
            self.add(anr["start"] + to_ticks(2.25), {"type": "method", "tid": tid, "phase": "enter",
                                                     "class": "com/example/shop/checkout/PaymentClient",
                                                     "method": "awaitResult",
                                                     "desc": "(J)Lcom/example/shop/checkout/PaymentResult;"})

    def gen_frames(self):
        n = 0
        for m in self.main:
            if m["handler"] == "frame" and m["end"] is not None and n < self.a.frames:
                self.add(m["start"], {"type": "frame", "dur": ms(m["end"] - m["start"])})
                n += 1

    def gen_marks(self):
        for frac, name in ((0.34, "open feed"), (0.6, "open product detail")):
            self.add(self.inside_dispatch(frac)["start"], {"type": "mark", "name": name})

    def gen_startups(self):
        # a cold launch under Android vitals' 5 s bar and a warm one over its 2 s bar
        for frac, kind, total in ((0.02, "cold", 1834.5), (0.8, "warm", 2210.0)):
            self.add(self.inside_dispatch(frac)["start"],
                     {"type": "startup", "app": APP, "activity": "com.example.shop.MainActivity",
                      "startup_kind": kind, "total_ms": total, "source": "gencapture"})

    def gen_unknown(self):
        t = self.inside_dispatch(0.5)["start"] + to_ticks(3)
        self.add(t, {"type": "thermal", "status": "moderate", "headroom": 0.71})

    def build(self):
        a = self.a
        self.gen_main()
        self.gen_samples()
        self.gen_noise()
        if a.pages:
            self.gen_pages()
        if a.views:
            self.gen_views()
        if a.images:
            self.gen_images()
        if a.methods:
            self.gen_methods()
        if a.frames:
            self.gen_frames()
        if a.marks:
            self.gen_marks()
        if getattr(a, "startups", False):
            self.gen_startups()
        if a.unknown_kind:
            self.gen_unknown()
        self.gen_memory()
        self.gen_cpu()
        self.events.sort(key=lambda x: (x[0], x[1]))
        # recorders flush lifecycle callbacks out of order: shuffle them in small windows
        idx = [i for i, e in enumerate(self.events) if e[2].get("_shuffle")]
        for w in range(0, len(idx), 4):
            win = idx[w:w + 4]
            objs = [self.events[i] for i in win]
            self.rng.shuffle(objs)
            for i, o in zip(win, objs):
                self.events[i] = o
        out = []
        for e in self.events:
            e[2].pop("_shuffle", None)
            out.append(e[2])
        last = max(e["ts"] for e in out if e["type"] != "thermal")
        assert last == ms(self.capture_end), "the final cpu sample must be the last event"
        return out


def dialog_views():
    # a 12-view confirmation dialog (window inset, hidden progress bar)
    v = [
        (1, 0, "com.android.internal.policy.DecorView", [90, 880, 990, 1460], 1, True, None, None),
        (2, 1, "android.widget.LinearLayout", [90, 880, 990, 1460], 0, True, None, None),
        (3, 2, "android.widget.FrameLayout", [90, 880, 990, 1460], 0, True, "content", None),
        (4, 3, "androidx.appcompat.widget.AlertDialogLayout", [90, 880, 990, 1460], 1, True, "parentPanel", None),
        (5, 4, "android.widget.ImageView", [150, 940, 246, 1036], 1, True, "icon", None),
        (6, 4, "android.widget.TextView", [270, 950, 930, 1030], 1, True, "alertTitle", "Remove item?"),
        (7, 4, "android.widget.TextView", [150, 1070, 930, 1250], 1, True, "message",
         "The item will be removed from your cart."),
        (8, 4, "android.widget.ProgressBar", [480, 1120, 600, 1240], 1, False, "progress", None),
        (9, 4, "android.view.View", [90, 1280, 990, 1282], 1, True, "divider", None),
        (10, 4, "android.widget.LinearLayout", [90, 1300, 990, 1440], 0, True, "buttonPanel", None),
        (11, 10, "com.google.android.material.button.MaterialButton", [560, 1320, 760, 1420], 2, True, "button2", "CANCEL"),
        (12, 10, "com.google.android.material.button.MaterialButton", [780, 1320, 970, 1420], 2, True, "button1", "REMOVE"),
    ]
    return [view(*x) for x in v]


def view(i, parent, cls, rect, layers, visible, res_id, text):
    d = {"id": i, "parent": parent, "class": cls, "rect": rect, "layers": layers, "visible": visible,
         "res_id": res_id, "text": text}
    return d


def feed_views(r, size):
    """A feed screen of exactly `size` views (>= 20): app bar, a clipped list of product cards,
    a hidden empty-state subtree, a horizontal carousel running off-screen, bottom navigation."""
    v = []

    def add(parent, cls, rect, layers, visible=True, res_id=None, text=None):
        v.append(view(len(v) + 1, parent, cls, rect, layers, visible, res_id, text))
        return len(v)

    root = add(0, "com.android.internal.policy.DecorView", [0, 0, 1080, 2340], 1)
    ll = add(root, "android.widget.LinearLayout", [0, 0, 1080, 2340], 0)
    add(root, "android.view.View", [0, 0, 1080, 118], 1, res_id="statusBarBackground")
    content = add(ll, "android.widget.FrameLayout", [0, 118, 1080, 2340], 0, res_id="content")
    coord = add(content, "androidx.coordinatorlayout.widget.CoordinatorLayout", [0, 118, 1080, 2340], 1)
    bar = add(coord, "com.google.android.material.appbar.AppBarLayout", [0, 118, 1080, 286], 1)
    tb = add(bar, "androidx.appcompat.widget.Toolbar", [0, 118, 1080, 286], 1, res_id="toolbar")
    add(tb, "androidx.appcompat.widget.AppCompatTextView", [48, 160, 600, 244], 1, text="Shop")
    add(tb, "androidx.appcompat.widget.AppCompatImageButton", [936, 146, 1048, 258], 2, res_id="action_cart")
    empty = add(coord, "android.widget.LinearLayout", [0, 286, 1080, 2208], 1, visible=False,
                res_id="empty_state")
    add(empty, "android.widget.ImageView", [390, 900, 690, 1200], 1)
    add(empty, "android.widget.TextView", [140, 1240, 940, 1320], 1, text="Nothing here yet")
    nav = add(coord, "com.google.android.material.bottomnavigation.BottomNavigationView",
              [0, 2208, 1080, 2340], 1, res_id="bottom_nav")
    for k, label in enumerate(("Home", "Feed", "Cart", "Me")):
        add(nav, "com.google.android.material.bottomnavigation.BottomNavigationItemView",
            [270 * k, 2208, 270 * (k + 1), 2340], 1, text=label)
    # 18 views so far; a horizontal carousel (1 + 2 cards, the 2nd off-screen)
    car = add(coord, "androidx.recyclerview.widget.RecyclerView", [0, 286, 1080, 526], 0, res_id="carousel")
    add(car, "android.widget.ImageView", [24, 298, 824, 514], 2)
    add(car, "android.widget.ImageView", [848, 298, 1648, 514], 2)  # clipped by parent and screen
    # a ViewPager2 of product grids: the current page on screen, its neighbours laid out
    # off-screen at x +-1080 (offscreen page limit), each grid's last row cut by its bottom
    pager = add(coord, "androidx.viewpager2.widget.ViewPager2", [0, 526, 1080, 2208], 0, res_id="pager")
    page_no = 0
    while len(v) < size:
        x0 = 1080 * ((page_no + 1) // 2) * (1 if page_no % 2 else -1)
        grid = add(pager, "androidx.recyclerview.widget.RecyclerView", [x0, 526, x0 + 1080, 2208], 0,
                   res_id="grid")
        y = 550
        while len(v) < size and y < 2208:
            for col in range(2):
                if len(v) >= size:
                    break
                cx = x0 + 24 + col * 528
                card = add(grid, "com.google.android.material.card.MaterialCardView",
                           [cx, y, cx + 504, y + 560], 1)
                for cls, rect, layers, res, text in (
                        ("android.widget.ImageView", [cx + 24, y + 24, cx + 480, y + 324], 2, "thumb", None),
                        ("android.widget.TextView", [cx + 24, y + 340, cx + 480, y + 400], 1, "title",
                         "Product %d" % len(v)),
                        ("android.widget.TextView", [cx + 24, y + 410, cx + 240, y + 460], 2, "price",
                         "$%d.%02d" % (r.randrange(3, 200), r.randrange(100))),
                        ("com.google.android.material.button.MaterialButton",
                         [cx + 264, y + 460, cx + 480, y + 540], 2, "add_to_cart", "ADD")):
                    if len(v) >= size:
                        break
                    add(card, cls, rect, layers, res_id=res, text=text)
            y += 584
        page_no += 1
    return v[:size]


def iso_to_ms(s):
    dt = datetime.datetime.fromisoformat(s)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=datetime.timezone.utc)  # device local time is treated as UTC
    return dt.timestamp() * 1000


def utc(ms_):
    return datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + \
        datetime.timedelta(milliseconds=int(math.floor(ms_)))


def stamp(ms_):
    """BlockCanary / GodEye 'MM-dd HH:mm:ss.SSS' (ms truncated)."""
    d = utc(ms_)
    return d.strftime("%m-%d %H:%M:%S.") + "%03d" % (d.microsecond // 1000)


# ---------------------------------------------------------------------------
# Output: godeye capture.

def dumps(o):
    return json.dumps(o, separators=(",", ":"), ensure_ascii=False)


class Out:
    """Binary output (file or stdout), gzip when asked (mtime 0: byte-identical)."""

    def __init__(self, path, gz):
        self.raw = sys.stdout.buffer if path == "-" else open(path, "wb")
        self.f = gzip.GzipFile(filename="", mode="wb", fileobj=self.raw, mtime=0) if gz else self.raw

    def write(self, s):
        self.f.write(s.encode("utf-8"))

    def close(self):
        if self.f is not self.raw:
            self.f.close()
        if self.raw is not sys.stdout.buffer:
            self.raw.close()
        else:
            self.raw.flush()


def write_jsonl(out, meta, events, blank_line_at=None):
    out.write(dumps(dict({"type": "meta"}, **meta)) + "\n")
    for i, e in enumerate(events):
        if blank_line_at is not None and i == blank_line_at:
            out.write("\n")
        out.write(dumps(e) + "\n")


def write_document(out, meta, events):
    out.write('{"godeye_trace":1,"meta":' + dumps(meta) + ',"events":[\n')
    for i, e in enumerate(events):
        out.write(dumps(e) + (",\n" if i + 1 < len(events) else "\n"))
    out.write("]}\n")


def write_oracle(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        f.write("[\n")
        for i, r in enumerate(rows):
            f.write("  " + json.dumps(r, ensure_ascii=False) + (",\n" if i + 1 < len(rows) else "\n"))
        f.write("]\n")


# ---------------------------------------------------------------------------
# Other forms of the same data.  Each also has a projection oracle: the
# blocks its content alone determines (see examples/README.md).

def logcat_line(ms_, pid, tid, level, tag, msg):
    d = utc(ms_)
    return "%s.%03d %5d %5d %s %-8s: %s" % (d.strftime("%m-%d %H:%M:%S"), d.microsecond // 1000,
                                           pid, tid, level, tag, msg)


def form_logcat(cap, events, out_path, oracle_path, threshold):
    r = Rng(cap.a.seed + 1)
    pid = cap.pid
    other_pid = pid + 1187
    lines = []  # (ms, seq, text, looper-event-or-None)
    seq = 0
    for e in events:
        if e["type"] != "looper":
            continue
        tid = e.get("tid", pid)
        t = math.floor(e["ts"])
        lines.append((t, seq, logcat_line(t, pid, tid, "D", "Looper", e["msg"]),
                      {"pid": pid, "tid": tid, "ts": t, "msg": e["msg"]}))
        seq += 1
    t_first = lines[0][0]
    # another app's main looper, also logging its dispatches
    t = t_first + 7
    h = r.hexhash()
    t_stop = math.floor(ms(cap.capture_end)) - 30
    while t < t_stop:
        d = r.choice([1, 2, 3, 5, 8, 13, 40]) if r.random() > 0.06 else r.randrange(100, 700)
        cb = "com.other.chat.MessageList$Refresh@" + r.hexhash()
        for ts, txt in ((t, ">>>>> Dispatching to Handler (android.os.Handler) {%s} %s: 0" % (h, cb)),
                        (t + d, "<<<<< Finished to Handler (android.os.Handler) {%s} %s" % (h, cb))):
            lines.append((ts, seq, logcat_line(ts, other_pid, other_pid, "D", "Looper", txt),
                          {"pid": other_pid, "tid": other_pid, "ts": ts, "msg": txt}))
            seq += 1
        t += d + r.randrange(30, 900)
    noise = [("I", "ActivityManager", 1625, 1707, "Start proc 4521:com.other.chat/u0a211 for broadcast"),
             ("W", "OpenGLRenderer", pid, pid + 9, "Failed to choose config with EGL_SWAP_BEHAVIOR_PRESERVED"),
             ("I", "chatty", 1625, 1650, "uid=1000(system) Binder:1625_3 identical 4 lines"),
             ("D", "ViewRootImpl", pid, pid, "[ViewRootImpl] action cancel - 1, s:0 at 0"),
             ("I", "System.out", pid, pid, "cart: refresh requested"),
             ("W", "Looper", 1625, 1707, "Slow dispatch took 335ms android.fg h=android.os.Handler "
              "c=<recycled PooledLambda@b99102a> m=0"),
             ("E", "ShopApi", pid, pid + 14, "timeout after 10000 ms (retry 1/3)")]
    t = t_first + 3
    while t < t_stop:
        lv, tag, p, tid, msg = r.choice(noise)
        lines.append((t, seq, logcat_line(t, p, tid, lv, tag, msg), None))
        seq += 1
        t += r.randrange(50, 1500)
    lines.sort(key=lambda x: (x[0], x[1]))
    with open(out_path, "w", encoding="utf-8", newline="\n") as f:
        f.write("--------- beginning of main\n")
        for i, (_, _, txt, _) in enumerate(lines):
            if i == len(lines) // 3:
                f.write("--------- beginning of system\n")
            f.write(txt + "\n")
    if oracle_path:
        evs = [l[3] for l in lines if l[3] is not None]
        rows = []
        for p in sorted({e["pid"] for e in evs}):
            sub = [{"type": "looper", "ts": e["ts"], "tid": e["tid"], "msg": e["msg"]}
                   for e in evs if e["pid"] == p]
            last = max(e["ts"] for e in evs)
            sub.append({"type": "mark", "ts": last, "name": "last event of the log"})
            for row in compute_oracle({"pid": p, "main_tid": p, "app": APP, "config": CONFIG}, sub,
                                      threshold):
                row["cpu_busy"] = None
                rows.append(row)
        # Looper's own "Slow dispatch took Nms" warnings are dispatches of
        # known duration that ended at the line's time
        for t_, _, txt, ev in lines:
            if ev is None and " Looper  : Slow dispatch took " in txt:
                body = txt.split(" Looper  : ", 1)[1]
                n = int(body.split("took ", 1)[1].split("ms", 1)[0])
                pid_, tid_ = (int(x) for x in txt.split()[2:4])
                if n >= threshold:
                    rows.append({"trace": 1, "pid": pid_, "tid": tid_, "start_ms": t_ - n, "end_ms": t_,
                                 "duration_ms": n, "thread_ms": None,
                                 "kind": "anr" if n >= ANR_MS else ("long" if n >= CONFIG["long_block_ms"]
                                                                    else "short"),
                                 "unfinished": False, "cpu_busy": None, "samples": 0, "key_frame": None,
                                 "group": fallback_group(body)[0], "group_rule": fallback_group(body)[1],
                                 "msg": body, "blame": None})
        rows.sort(key=lambda x: (x["start_ms"], x["pid"], x["tid"]))
        write_oracle(oracle_path, rows)


def bc_cpu_entries(cpus):
    """BlockCanary CpuSampler entries (time, text) from consecutive raw samples."""
    out = []
    prev = None
    for ts, stat, pstat in cpus:
        f = stat.split()
        user, nice, system, idle, iow, irq, sirq = (int(x) for x in f[1:8])
        total = user + nice + system + idle + iow + irq + sirq
        after = pstat[pstat.rfind(")") + 2:].split()
        appt = sum(int(x) for x in after[11:15])
        if prev is not None:
            pu, ps, pi, pw, pt, pa = prev
            tt = total - pt
            if tt > 0:
                txt = "cpu:%d%% app:%d%% [user:%d%% system:%d%% ioWait:%d%% ]" % (
                    (tt - (idle - pi)) * 100 // tt, (appt - pa) * 100 // tt, (user - pu) * 100 // tt,
                    (system - ps) * 100 // tt, (iow - pw) * 100 // tt)
                out.append((math.floor(ts), txt))
        prev = (user, system, idle, iow, total, appt)
    return out


def bc_is_busy(entries, start, end, interval):
    if end - start > interval:
        s, e = start - interval, start + interval
        last = 0
        for t, _ in entries:
            if s < t < e:
                if last != 0 and t - last > int(interval * 1.2):
                    return True
                last = t
    return False


def finished_main_blocks(cap, events, minimum):
    main_tid = cap.pid
    pend, out = None, []
    for e in sorted((e for e in events if e["type"] == "looper" and e.get("tid", main_tid) == main_tid),
                    key=lambda e: e["ts"]):
        if e.get("phase") == "begin":
            pend = e
        elif pend is not None:
            if e["ts"] - pend["ts"] >= minimum:
                out.append((pend, e))
            pend = None
    return out


def form_blockcanary(cap, events, out_dir, oracle_path, threshold):
    os.makedirs(out_dir, exist_ok=True)
    interval = CONFIG["dump_interval_ms"]
    main_tid = cap.pid
    cpus = sorted((e["ts"], e["stat"], e["pid_stat"]) for e in events if e["type"] == "cpu")
    entries = bc_cpu_entries(cpus)
    stacks = sorted((e["ts"], e["frames"]) for e in events
                    if e["type"] == "stack" and e.get("tid", main_tid) == main_tid)
    mem = [e for e in events if e["type"] == "memory"]
    rows = []
    r = Rng(cap.a.seed + 2)
    for b, e in finished_main_blocks(cap, events, CONFIG["long_block_ms"]):
        s_ms, e_ms = math.floor(b["ts"]), math.floor(e["ts"])
        samples = [(math.floor(ts), fr) for ts, fr in stacks if s_ms < math.floor(ts) < e_ms]
        recent = [x for x in entries if x[0] <= e_ms][-10:]
        busy = bc_is_busy(recent, s_ms, e_ms, interval)
        heap = next((m["heap"] for m in reversed(mem) if m["ts"] <= e["ts"]), None)
        free_kb = heap["freeMemKb"] if heap else 0
        write_ms = e_ms + r.randrange(3, 40)
        kv = [("qua", "unknown"), ("versionName", cap.meta["version_name"]),
              ("versionCode", str(cap.meta["version_code"])), ("imei", "empty_imei"), ("uid", "uid"),
              ("network", "wifi"), ("model", "Pixel 6"), ("api-level", "33 13"),
              ("cpu-core", str(CORES)), ("process", APP), ("freeMemory", str(free_kb)),
              ("totalMemory", "7645312"), ("time", str(e_ms - s_ms)),
              ("thread-time", str(e["thread_ts"] - b["thread_ts"])), ("time-start", stamp(s_ms)),
              ("time-end", stamp(e_ms)), ("cpu-busy", "true" if busy else "false")]
        sep = "\r\n"
        body = "".join("%s = %s%s" % (k, v, sep) for k, v in kv)
        body += "cpu-rate = " + "".join("%s %s%s" % (stamp(t), txt, sep) for t, txt in recent) + sep
        if samples:
            body += "stack = " + "".join(stamp(t) + sep + sep + "".join(f + sep for f in fr) + sep
                                         for t, fr in samples) + sep
        d = utc(write_ms)
        name = "looper-%s.%03d.log" % (d.strftime("%Y-%m-%d_%H-%M-%S"), d.microsecond // 1000)
        text = sep + "*" * 22 + sep + d.strftime("%Y-%m-%d %H:%M:%S") + "(write log time)" + sep + sep \
            + body + sep
        with open(os.path.join(out_dir, name), "w", encoding="utf-8", newline="") as f:
            f.write(text)
        dur = e_ms - s_ms
        if dur >= threshold:
            kf, _ = key_frame([fr for _, fr in samples], CONFIG["concern_packages"])
            rows.append({"trace": 1, "pid": None, "tid": None, "start_ms": s_ms, "end_ms": e_ms,
                         "duration_ms": dur, "thread_ms": e["thread_ts"] - b["thread_ts"],
                         "kind": "anr" if dur >= ANR_MS else ("long" if dur >= CONFIG["long_block_ms"]
                                                              else "short"),
                         "unfinished": False, "cpu_busy": busy, "samples": len(samples),
                         "key_frame": kf, "group": group_of(kf), "msg": None, "blame": None})
    if oracle_path:
        write_oracle(oracle_path, rows)


def gson(o):
    """Gson's default output: compact, HTML characters escaped."""
    s = json.dumps(o, separators=(",", ":"), ensure_ascii=False)
    for ch, rep in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("=", "\\u003d"),
                    ("'", "\\u0027")):
        s = s.replace(ch, rep)
    return s


def form_monitor(cap, events, out_path, oracle_path, threshold):
    main_tid = cap.pid
    cpus = sorted((e["ts"],) + parse_stat(e["stat"]) + (e["stat"], e["pid_stat"])
                  for e in events if e["type"] == "cpu")
    stacks = sorted((e["ts"], e["frames"]) for e in events
                    if e["type"] == "stack" and e.get("tid", main_tid) == main_tid)
    mem = [e for e in events if e["type"] == "memory"]
    msgs, rows = [], []
    for b, e in finished_main_blocks(cap, events, CONFIG["short_block_ms"]):
        s_ms, e_ms = math.floor(b["ts"]), math.floor(e["ts"])
        m = next((x for x in reversed(mem) if x["ts"] <= e["ts"] and "pss" in x), None)
        memory = {"heapInfo": m["heap"], "pssInfo": m["pss"], "ramInfo": m["ram"]} if m else None
        dur = e_ms - s_ms
        tt = e["thread_ts"] - b["thread_ts"]
        samples = []
        if dur >= CONFIG["long_block_ms"]:
            inside = [c for c in cpus if b["ts"] <= c[0] <= e["ts"]]
            rates = []
            for c0, c1 in zip(inside, inside[1:]):
                dt = c1[1] - c0[1]
                u0, u1 = stat_parts(c0[3]), stat_parts(c1[3])
                rates.append({"totalUseRatio": (c1[2] - c0[2]) / dt,
                              "appCpuRatio": (app_jiffies(c1[4]) - app_jiffies(c0[4])) / dt,
                              "userCpuRatio": (u1[0] - u0[0]) / dt,
                              "sysCpuRatio": (u1[2] - u0[2]) / dt,
                              "ioWaitRatio": (u1[4] - u0[4]) / dt})
            busy = cpu_busy(b["ts"], e["ts"], [(c[0], c[1], c[2]) for c in cpus],
                            CONFIG["dump_interval_ms"]) is True
            export = {}
            seen = []
            for ts, fr in stacks:
                if b["ts"] < ts < e["ts"] and fr not in seen:  # GodEye drops repeated stacks
                    seen.append(fr)
                    export[stamp(ts)] = fr
                    samples.append(fr)
            info = {"timeStart": s_ms, "timeEnd": e_ms, "blockTime": dur, "threadTimeCost": tt,
                    "cpuBusy": busy, "cpuRateInfos": rates, "threadStackEntriesForExport": export}
            if memory:
                info["memoryDetailInfo"] = memory
        else:
            busy = None
            info = {"timeStart": s_ms, "timeEnd": e_ms, "threadTimeCost": tt, "blockTime": dur}
            if memory:
                info["memoryDetailInfo"] = memory
        msgs.append((e_ms, {"code": 1, "message": "success",
                            "data": {"moduleName": "blockInfo",
                                     "payload": {"blockTime": dur, "blockBaseinfo": gson(info)}}}))
        if dur >= threshold:
            kf, _ = key_frame(samples, CONFIG["concern_packages"])
            rows.append({"trace": 1, "pid": None, "tid": None, "start_ms": s_ms, "end_ms": e_ms,
                         "duration_ms": dur, "thread_ms": tt,
                         "kind": "anr" if dur >= ANR_MS else ("long" if dur >= CONFIG["long_block_ms"]
                                                              else "short"),
                         "unfinished": False, "cpu_busy": busy, "samples": len(samples),
                         "key_frame": kf, "group": group_of(kf), "msg": None, "blame": None})
    for e in events:
        if e["type"] == "lifecycle":
            p = e["page"]
            payload = {"pageType": p["type"].upper(), "pageClassName": p["class"],
                       "pageHashCode": p["hash"], "lifecycleEvent": e["event"],
                       "startTimeMillis": math.floor(e["ts"]),
                       "endTimeMillis": math.floor(e.get("end_ts", e["ts"])), "processedInfo": {}}
            msgs.append((math.floor(e["ts"]), {"code": 1, "message": "success",
                                               "data": {"moduleName": "pageLifecycle",
                                                        "payload": payload}}))
    msgs.sort(key=lambda x: x[0])
    with open(out_path, "w", encoding="utf-8") as f:
        for _, m in msgs:
            f.write(gson(m) + "\n")
    if oracle_path:
        write_oracle(oracle_path, rows)


# ---------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description="Generate a realistic godeye capture (and expected blocks).")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--version-name", default="4.12.0",
                    help="the app version in the meta (version_code from it: 4.12.0 -> 41200)")
    ap.add_argument("--dispatches", type=int, default=400, help="main-thread dispatches (before the ANR)")
    ap.add_argument("--format", choices=["jsonl", "document"], default="jsonl")
    ap.add_argument("--gzip", action="store_true")
    ap.add_argument("--out", default="-", help="output file, '-' for stdout (a directory for blockcanary-dir)")
    ap.add_argument("--start-iso", default="2023-11-14T22:13:20",
                    help="wall clock of the capture start (UTC unless an offset is given)")
    ap.add_argument("--block-samples", action="store_true",
                    help="stack samples every 300 ms from 240 ms into each dispatch longer than 240 ms")
    ap.add_argument("--samples-per-long-block", type=int, default=0, metavar="N",
                    help="exactly N evenly spaced samples in each long block (and the ANR)")
    ap.add_argument("--noise-threads", type=int, default=0, metavar="K",
                    help="K worker HandlerThreads with their own Looper prints and samples")
    ap.add_argument("--noise-gap-ms", type=float, default=500.0,
                    help="mean idle time between two dispatches of a noise thread")
    ap.add_argument("--dispatch-thread", type=int, default=0, metavar="N",
                    help="one more thread written as N already paired `dispatch` events")
    ap.add_argument("--unfinished", action="store_true",
                    help="end with an ANR: a main-thread begin without end lasting > 5 s")
    ap.add_argument("--pages", action="store_true", help="activity and fragment lifecycle events")
    ap.add_argument("--views", type=int, default=0, metavar="N", help="N view dumps (12..300 views)")
    ap.add_argument("--view-sizes", default="", metavar="A,B,...",
                    help="view counts of the dumps (< 20: the 12-view dialog)")
    ap.add_argument("--images", type=int, default=0, metavar="N", help="N image observations")
    ap.add_argument("--methods", action="store_true", help="a method enter/exit trace across one block")
    ap.add_argument("--frames", type=int, default=0, metavar="N",
                    help="frame events for the first N Choreographer dispatches")
    ap.add_argument("--marks", action="store_true", help="a couple of user marks")
    ap.add_argument("--startups", action="store_true", help="two app launches (startup events)")
    ap.add_argument("--unknown-kind", action="store_true",
                    help="one event of a kind this format version does not define")
    ap.add_argument("--blank-line", action="store_true", help="one blank line in the JSON Lines")
    ap.add_argument("--comm", default="e.shop (x) y", help="comm field of the pid_stat lines")
    ap.add_argument("--as", dest="form", choices=["capture", "logcat", "blockcanary-dir", "godeye-monitor"],
                    default="capture", help="write the same data in another format")
    ap.add_argument("--oracle", metavar="FILE", help="write the expected blocks (JSON) here")
    ap.add_argument("--oracle-threshold", type=float, default=100.0, metavar="MS",
                    help="block threshold of the oracle (default 100)")
    ap.add_argument("--oracle-of", metavar="CAPTURE",
                    help="only compute the oracle of an existing godeye capture")
    a = ap.parse_args(argv)

    if a.oracle_of:
        meta, events = read_capture(a.oracle_of)
        rows = compute_oracle(meta, events, a.oracle_threshold)
        if a.oracle:
            write_oracle(a.oracle, rows)
        else:
            sys.stdout.write(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
        return 0
    if a.dispatches < 1:
        ap.error("--dispatches must be at least 1")
    cap = Capture(a)
    events = cap.build()
    if a.form == "capture":
        out = Out(a.out, a.gzip)
        if a.format == "jsonl":
            write_jsonl(out, cap.meta, events, len(events) // 2 if a.blank_line else None)
        else:
            write_document(out, cap.meta, events)
        out.close()
        if a.oracle:
            rows = compute_oracle(cap.meta, json.loads(json.dumps(events)), a.oracle_threshold)
            bad = [r for r in rows if r.get("_ambiguous_key_frame")]
            if bad:
                sys.stderr.write("gencapture: warning: %d blocks with an ambiguous key frame\n" % len(bad))
            write_oracle(a.oracle, rows)
    elif a.form == "logcat":
        if a.out == "-":
            ap.error("--as logcat needs --out FILE")
        form_logcat(cap, events, a.out, a.oracle, a.oracle_threshold)
    elif a.form == "blockcanary-dir":
        if a.out == "-":
            ap.error("--as blockcanary-dir needs --out DIR")
        form_blockcanary(cap, events, a.out, a.oracle, a.oracle_threshold)
    else:
        if a.out == "-":
            ap.error("--as godeye-monitor needs --out FILE")
        form_monitor(cap, events, a.out, a.oracle, a.oracle_threshold)
    return 0


if __name__ == "__main__":
    sys.exit(main())
