"""Two Python threads, each with its own session (threads=1), run concurrently: both
finish, their results equal the single-thread ones bit for bit, and the wall time is
below 1.6x that of one alone (the GIL is released while the core works).

The machine is shared (2 cores here, another engineer's benchmarks beside): each attempt
also times a control that is known to run in parallel (hashlib.sha256 releases the GIL),
the same way. When even the control cannot run two at once (ratio >= 1.5: a core is
taken), the sessions must do as well as the control instead of 1.6x."""
import hashlib
import os
import threading
import time

import numpy as np

import edgecompiler as ec

RUNS = 20


def run_many(session, x, out, key):
    for _ in range(RUNS):
        y = session.run({"input": x})["output"]
    out[key] = y


def timed_pair(work):
    """(seconds for work(0) alone, seconds for work(0) and work(1) in two threads)."""
    start = time.perf_counter()
    work(0)
    alone = time.perf_counter() - start
    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "a thread did not finish"
    return alone, time.perf_counter() - start


BLOCK = bytes(32 << 20)


def control(_):
    for _ in range(4):
        hashlib.sha256(BLOCK).digest()


def test_two_threads_in_parallel(models_dir):
    path = os.path.join(models_dir, "mobilenet_v2.onnx")
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal((1, 3, 224, 224)).astype(np.float32) for _ in range(2)]
    sessions = [ec.InferenceSession(path, threads=1) for _ in range(2)]
    alone_results = [s.run({"input": x})["output"] for s, x in zip(sessions, xs)]
    for s, x in zip(sessions, xs):  # warm both
        s.run({"input": x})

    ratios, controls = [], []
    for attempt in range(5):
        out = {}
        alone, both = timed_pair(lambda i: run_many(sessions[i], xs[i], out, i))
        for i in range(2):
            assert out[i].tobytes() == alone_results[i].tobytes()
        c_alone, c_both = timed_pair(control)
        ratios.append(both / alone)
        controls.append(c_both / c_alone)
        print(f"attempt {attempt + 1}: one session alone {alone * 1000:.1f} ms for {RUNS} runs, two in two threads "
              f"{both * 1000:.1f} ms: {ratios[-1]:.2f}x (control, sha256 in two threads: {controls[-1]:.2f}x; "
              f"os.cpu_count()={os.cpu_count()})")
        if ratios[-1] < 1.6:
            return
    best = min(range(len(ratios)), key=lambda k: ratios[k])
    assert controls[best] >= 1.5 and ratios[best] <= 1.15 * controls[best], (ratios, controls)
    print(f"the machine is busy (control {controls[best]:.2f}x): the sessions did as well as the control")
