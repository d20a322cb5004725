"""The machine side of scripts/bench-ingest.sh: is the machine quiet, how much CPU did other processes
use during a run, which processes did a browser start and how much memory did they hold, and how to
stop them again (by PID, never by name).

Adapted from the shared research harness (shared/research/browser-perf-harness/run.py: `Quiet`,
`cpu_snapshot`, `foreign_cpu_seconds`, `proc_info`, `descendants`, `stop_browser`, the child
subreaper); added: resetting a process's peak memory (`reset_hwm`, /proc/PID/clear_refs "5", see
https://www.kernel.org/doc/html/latest/filesystems/proc.html#proc-pid-clear-refs).
"""
import ctypes
import os
import re
import signal
import subprocess
import time

HZ = os.sysconf("SC_CLK_TCK")


def loadavg1():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def pgrep_count(name):
    r = subprocess.run(["pgrep", "-c", name], capture_output=True, text=True)
    return int(r.stdout.strip() or 0)


def cpu_busy_jiffies():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return sum(v[:8]) - (v[3] + v[4])  # all but idle and iowait


def proc_cpu_jiffies(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            st = f.read()
        v = st[st.rindex(")") + 2:].split()
        return int(v[11]) + int(v[12]) + int(v[13]) + int(v[14])  # utime + stime (+ waited-for children)
    except (OSError, ValueError):
        return 0


def proc_stats():
    """(pid, fields after the command name) of /proc/PID/stat of every process that can be read."""
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                st = f.read()
        except OSError:
            continue
        yield int(d), st[st.rindex(")") + 2:].split()


def cpu_snapshot():
    """{pid: (starttime, utime+stime jiffies)} of every user-space process (kernel threads left out)."""
    snap = {}
    for pid, v in proc_stats():
        if v[1] == "2" or pid == 2:  # kthreadd and its children
            continue
        snap[pid] = (int(v[19]), int(v[11]) + int(v[12]))
    return snap


def foreign_cpu_seconds(before, after, mine):
    """CPU time used between two snapshots by processes that are not ours."""
    j = 0
    for pid, (start, cpu) in after.items():
        if pid in mine:
            continue
        b = before.get(pid)
        j += cpu - b[1] if b and b[0] == start else cpu
    return j / HZ


def others_busy_fraction(seconds=5.0):
    """Fraction of the machine's CPU capacity used by everything else while this runner idles."""
    me = os.getpid()
    b0, m0 = cpu_busy_jiffies(), proc_cpu_jiffies(me)
    time.sleep(seconds)
    b1, m1 = cpu_busy_jiffies(), proc_cpu_jiffies(me)
    return max(0.0, ((b1 - b0) - (m1 - m0)) / (HZ * seconds * os.cpu_count()))


class Quiet:
    """Waits for a quiet machine before each round: no rustc, no cargo (or a low load), and other
    processes using < 5 % of the CPUs over 5 s (rustc/cargo alone miss other jobs' browser tests,
    and the load average counts our own previous run). Checked every 30 s from a shared budget;
    when it is spent, the round runs anyway and is marked as not quiet."""

    def __init__(self, budget_s):
        self.budget = budget_s

    def state(self):
        return {"rustc": pgrep_count("rustc"), "cargo": pgrep_count("cargo"), "load1": loadavg1(),
                "others_busy": round(others_busy_fraction(), 3)}

    def wait(self, say=print):
        waited = 0.0
        while True:
            st = self.state()
            quiet = (st["rustc"] == 0 and (st["cargo"] == 0 or st["load1"] < 0.7) and st["others_busy"] < 0.05)
            if quiet or self.budget <= 0:
                st.update(quiet=quiet, waited_s=waited)
                return st
            say(f"  waiting for a quiet machine: {st} (budget left {self.budget / 60:.1f} min)")
            time.sleep(30)
            self.budget -= 30
            waited += 30


def children_map():
    kids = {}
    for pid, v in proc_stats():
        try:
            kids.setdefault(int(v[1]), []).append(pid)
        except (IndexError, ValueError):
            continue
    return kids


def descendants(pid):
    kids, out, stack = children_map(), [], [pid]
    while stack:
        for c in kids.get(stack.pop(), []):
            out.append(c)
            stack.append(c)
    return out


def proc_info(pid):
    """Type (Chromium's --type=, "browser" for the main process), VmHWM and VmRSS in KiB."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = b" ".join(f.read().split(b"\0"))  # Chromium rewrites its children's argv into one string
        with open(f"/proc/{pid}/status") as f:
            st = dict(line.split(":", 1) for line in f if ":" in line)
        exe = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return None
    m = re.search(rb"--type=([a-z-]+)", cmd)
    kb = lambda k: int(st.get(k, "0 kB").split()[0])
    return {"pid": pid, "type": m.group(1).decode() if m else "browser", "hwm_kb": kb("VmHWM"),
            "rss_kb": kb("VmRSS"), "exe": exe}


def tree_infos(browser_pid):
    """(pid, proc_info) of the browser and of every process it started that is still there."""
    for pid in [browser_pid, *descendants(browser_pid)]:
        info = proc_info(pid)
        if info:
            yield pid, info


def tree_cpu_ns(browser_pid):
    """{(pid, tid): (process type, thread name, CPU ns)} of every thread of the browser and of
    every process it started: the time each thread has run (/proc/PID/task/TID/schedstat, first
    field, in ns; see https://www.kernel.org/doc/html/latest/scheduler/sched-stats.html). A thread
    that ends between two readings takes its time with it, so a difference is a floor."""
    out = {}
    for pid, info in tree_infos(browser_pid):
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    ns = int(f.read().split()[0])
                with open(f"/proc/{pid}/task/{tid}/comm") as f:
                    name = f.read().strip()
            except (OSError, ValueError, IndexError):
                continue
            out[(pid, int(tid))] = (info["type"], name, ns)
    return out


def tree_process_cpu_ns(browser_pid):
    """{pid: (process type, CPU ns)} of the browser and every process it started: user + system
    time from /proc/PID/stat, which, unlike a thread's schedstat, keeps the time of the process's
    threads that ended (a worker the page terminated); clock-tick resolution (usually 10 ms)."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for pid, info in tree_infos(browser_pid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            # After the name: state is field 3, utime 14 and stime 15 (1-based, proc(5)).
            ticks = int(fields[11]) + int(fields[12])
        except (OSError, ValueError, IndexError):
            continue
        out[pid] = (info["type"], ticks * 1_000_000_000 // tick)
    return out


def renderers(browser_pid):
    return [i for i in (proc_info(p) for p in descendants(browser_pid)) if i and i["type"] == "renderer"]


def reset_hwm(pid):
    """Sets the process's peak resident size (VmHWM) to its current size."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def become_subreaper():
    """Orphaned Chromium helpers re-parent to us (not to a PID 1 that may not reap), so we can reap them."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except Exception:
        return False


def reap_orphans():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def stop_browser(proc, pids):
    """Terminates the browser we launched (by PID), then any recorded descendant still alive."""
    try:
        proc.terminate()
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
    time.sleep(0.3)
    for pid in pids:
        info = proc_info(pid)
        if info and "chrom" in info["exe"]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    time.sleep(0.2)
    reap_orphans()


def mem_available_bytes():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return 0
