#!/bin/sh
# make-examples.sh - regenerates examples/ byte-identically from tests/oracle/gencapture.py.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
gen="python3 $here/tests/oracle/gencapture.py"
out="$here/examples"
mkdir -p "$out"

# shop.jsonl: ~360 main-thread dispatches, short and long blocks with stacks,
# cpu and memory, an unfinished ANR at the end, 2 worker threads, one thread
# of already paired dispatches, pages, 3 view dumps, 10 images, a method trace.
$gen --seed 7 --dispatches 360 --block-samples --noise-threads 2 --noise-gap-ms 1500 \
     --dispatch-thread 10 --unfinished --pages --views 3 --view-sizes 12,40,72 \
     --images 10 --methods --frames 30 --marks --unknown-kind \
     --out "$out/shop.jsonl" --oracle "$out/shop.oracle.json" --oracle-threshold 100

# shop.previous.jsonl: the same app's previous version (4.11.0), another
# seed and fewer dispatches: two versions in the database give the report's
# Versions section (and godeye diff) something to compare.
$gen --seed 8 --dispatches 240 --block-samples --pages --version-name 4.11.0 \
     --out "$out/shop.previous.jsonl"

# The other sections of the report, from small files written here (each a
# real format, hand-written for com.example.shop; never copied from a
# device capture).

# shop-anr.txt: an ANR dump (traces.txt) of a deadlock: the main thread
# waits for the Inventory lock held by CartSync, which waits for the Cart
# lock the main thread holds; a binder thread idles.
cat > "$out/shop-anr.txt" <<'TXT'

----- pid 13611 at 2023-11-14 22:13:41 -----
Cmd line: com.example.shop
Build fingerprint: 'google/panther/panther:14/UQ1A.231205.015/11084887:user/release-keys'
ABI: 'arm64'
Build type: optimized
Heap: 27% free, 21MB/29MB; 318204 objects

DALVIK THREADS (4):
"main" prio=5 tid=1 Blocked
  | group="main" sCount=1 ucsCount=0 flags=1 obj=0x72f4a1b8 self=0xb400007a1c214c00
  | sysTid=13611 nice=-10 cgrp=top-app sched=0/0 handle=0x7aa2b7a548
  | state=S schedstat=( 1620384756 202939465 1803 ) utm=128 stm=34 core=4 HZ=100
  | stack=0x7fd84f7000-0x7fd84f9000 stackSize=8188KB
  | held mutexes=
  at com.example.shop.cart.Cart.add(Cart.java:64)
  - waiting to lock <0x0b7c1d2e> (a com.example.shop.stock.Inventory) held by thread 17
  - locked <0x04f3a9c1> (a com.example.shop.cart.Cart)
  at com.example.shop.detail.ProductDetailActivity.onAddToCart(ProductDetailActivity.java:141)
  at android.view.View.performClick(View.java:7659)
  at android.os.Handler.handleCallback(Handler.java:958)
  at android.os.Handler.dispatchMessage(Handler.java:99)
  at android.os.Looper.loopOnce(Looper.java:205)
  at android.os.Looper.loop(Looper.java:294)
  at android.app.ActivityThread.main(ActivityThread.java:8177)
  at java.lang.reflect.Method.invoke(Native method)
  at com.android.internal.os.ZygoteInit.main(ZygoteInit.java:971)

"CartSync" prio=5 tid=17 Blocked
  | group="main" sCount=1 ucsCount=0 flags=1 obj=0x12d80a10 self=0xb400007a1c2a3800
  | sysTid=13625 nice=0 cgrp=top-app sched=0/0 handle=0x7a05d7e4f0
  | state=S schedstat=( 30394857 9839201 91 ) utm=2 stm=1 core=6 HZ=100
  | stack=0x7a05c7b000-0x7a05c7d000 stackSize=1039KB
  | held mutexes=
  at com.example.shop.stock.Inventory.reserve(Inventory.java:112)
  - waiting to lock <0x04f3a9c1> (a com.example.shop.cart.Cart) held by thread 1
  - locked <0x0b7c1d2e> (a com.example.shop.stock.Inventory)
  at com.example.shop.sync.CartSync.run(CartSync.java:48)
  at java.lang.Thread.run(Thread.java:1012)

"Signal Catcher" daemon prio=10 tid=5 Runnable
  | group="system" sCount=0 ucsCount=0 flags=0 obj=0x12c40148 self=0xb400007a1c21e000
  | sysTid=13618 nice=-20 cgrp=top-app sched=0/0 handle=0x7a0f3ff4f0
  | state=R schedstat=( 10293846 1203938 12 ) utm=0 stm=0 core=2 HZ=100
  | stack=0x7a0f305000-0x7a0f307000 stackSize=991KB
  | held mutexes= "mutator lock"(shared held)
  native: #00 pc 000000000053a6e0  /apex/com.android.art/lib64/libart.so (art::DumpNativeStack+108)
  (no managed stack frames)

"binder:13611_2" prio=5 tid=9 Native
  | group="main" sCount=1 ucsCount=0 flags=1 obj=0x12c80000 self=0xb400007a1c230000
  | sysTid=13623 nice=0 cgrp=top-app sched=0/0 handle=0x7a0d8ff4f0
  | state=S schedstat=( 2203948 3948573 20 ) utm=0 stm=0 core=1 HZ=100
  | stack=0x7a0d808000-0x7a0d80a000 stackSize=991KB
  | held mutexes=
  native: #00 pc 00000000000a33b8  /apex/com.android.runtime/lib64/bionic/libc.so (__ioctl+8)
  (no managed stack frames)

----- end 13611 -----
TXT

# shop-logcat.txt: `adb logcat -v threadtime` of three launches (Displayed
# lines: a first cold one, then two quicker ones) and the framework's Slow
# Looper reports, which godeye issues lists.
cat > "$out/shop-logcat.txt" <<'TXT'
--------- beginning of main
11-14 22:14:02.101  1602  1668 I ActivityTaskManager: START u0 {act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 cmp=com.example.shop/.MainActivity} from uid 10155
11-14 22:14:02.148  1602  1640 I ActivityManager: Start proc 14020:com.example.shop/u0a212 for pre-top-activity {com.example.shop/com.example.shop.MainActivity}
11-14 22:14:03.958  1602  1668 I ActivityTaskManager: Displayed com.example.shop/.MainActivity: +1s857ms
11-14 22:14:04.410 14020 14020 W Looper  : Slow Looper main: doFrame is 612ms late because of 1 msg, msg 1 took 598ms (seq=41 late=9ms h=android.app.ActivityThread$H w=159)
11-14 22:14:09.722  1602  1668 I ActivityTaskManager: Displayed com.example.shop/.detail.ProductDetailActivity: +688ms
11-14 22:14:10.005 14020 14020 W Looper  : Slow Looper main: Long Msg: seq=118 plan=22:14:09.780 late=2ms wall=433ms running=401ms h=android.view.Choreographer$FrameHandler c=android.view.Choreographer$FrameDisplayEventReceiver
11-14 22:14:15.330  1602  1668 I ActivityTaskManager: Displayed com.example.shop/.checkout.CheckoutActivity: +412ms
TXT

# shop-am-start.txt: `adb shell am start -W` run three times: cold (past
# Android vitals' 5 s bar), warm and hot.
cat > "$out/shop-am-start.txt" <<'TXT'
Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] cmp=com.example.shop/.MainActivity }
Status: ok
LaunchState: COLD
Activity: com.example.shop/.MainActivity
TotalTime: 5214
WaitTime: 5230
Complete
Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] cmp=com.example.shop/.MainActivity }
Status: ok
LaunchState: WARM
Activity: com.example.shop/.MainActivity
TotalTime: 930
WaitTime: 944
Complete
Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] cmp=com.example.shop/.MainActivity }
Warning: Activity not started, its current task has been brought to the front
Status: ok
LaunchState: HOT
Activity: com.example.shop/.MainActivity
TotalTime: 212
WaitTime: 220
Complete
TXT

# shop-systrace.txt: atrace text of the app: frames (Choreographer#doFrame
# on the main thread, one slow, one frozen) and ART's monitor contention
# slices (the main thread waiting for CartSync's lock).
cat > "$out/shop-systrace.txt" <<'TXT'
# tracer: nop
#
# entries-in-buffer/entries-written: 28/28   #P:8
#
#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION
#              | |        |      |   ||||       |         |
  com.example.shop-14020 (14020) [004] ...1  300.000000: tracing_mark_write: B|14020|Choreographer#doFrame 1001
  com.example.shop-14020 (14020) [004] ...1  300.009000: tracing_mark_write: E|14020
  com.example.shop-14020 (14020) [004] ...1  300.016000: tracing_mark_write: B|14020|Choreographer#doFrame 1002
  com.example.shop-14020 (14020) [004] ...1  300.028000: tracing_mark_write: E|14020
  com.example.shop-14020 (14020) [004] ...1  300.033000: tracing_mark_write: B|14020|Choreographer#doFrame 1003
  com.example.shop-14020 (14020) [004] ...1  300.040000: tracing_mark_write: B|14020|monitor contention with owner CartSync (14031) at void com.example.shop.stock.Inventory.reserve(java.lang.String)(Inventory.java:112) waiters=0 blocking from void com.example.shop.cart.Cart.add(com.example.shop.cart.Item)(Cart.java:64)
  com.example.shop-14020 (14020) [004] ...1  300.086000: tracing_mark_write: E|14020
  com.example.shop-14020 (14020) [004] ...1  300.095000: tracing_mark_write: E|14020
  com.example.shop-14020 (14020) [004] ...1  300.100000: tracing_mark_write: B|14020|Choreographer#doFrame 1004
  com.example.shop-14020 (14020) [004] ...1  300.110000: tracing_mark_write: E|14020
  CartSync-14031 (14020) [006] ...1  300.120000: tracing_mark_write: B|14020|monitor contention with owner main (14020) at void com.example.shop.cart.Cart.add(com.example.shop.cart.Item)(Cart.java:64) waiters=1 blocking from void com.example.shop.stock.Inventory.reserve(java.lang.String)(Inventory.java:112)
  CartSync-14031 (14020) [006] ...1  300.139000: tracing_mark_write: E|14020
  com.example.shop-14020 (14020) [004] ...1  300.116000: tracing_mark_write: B|14020|Choreographer#doFrame 1005
  com.example.shop-14020 (14020) [004] ...1  300.200000: tracing_mark_write: B|14020|monitor contention with owner CartSync (14031) at void com.example.shop.sync.CartSync.flush()(CartSync.java:77) waiters=0 blocking from void com.example.shop.cart.Cart.total()(Cart.java:90)
  com.example.shop-14020 (14020) [004] ...1  300.960000: tracing_mark_write: E|14020
  com.example.shop-14020 (14020) [004] ...1  300.980000: tracing_mark_write: E|14020
  com.example.shop-14020 (14020) [004] ...1  301.000000: tracing_mark_write: B|14020|Choreographer#doFrame 1006
  com.example.shop-14020 (14020) [004] ...1  301.006000: tracing_mark_write: E|14020
  com.example.shop-14020 (14020) [004] ...1  301.016000: tracing_mark_write: B|14020|Choreographer#doFrame 1007
  com.example.shop-14020 (14020) [004] ...1  301.022000: tracing_mark_write: E|14020
TXT
