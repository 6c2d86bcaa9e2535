"""Two Python threads, each with its own session (threads=1), run concurrently: both
finish, their results equal the single-thread ones bit for bit, and the wall time is
below 1.6x that of one alone (the GIL is released while the core works)."""
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


def test_two_threads_in_parallel(models_dir):
    path = os.path.join(models_dir, "mobilenet_v2.onnx")
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal((1, 3, 224, 224)).astype(np.float32) for _ in range(2)]
    sessions = [ec.InferenceSession(path, threads=1) for _ in range(2)]
    alone_results = [s.run({"input": x})["output"] for s, x in zip(sessions, xs)]
    for s, x in zip(sessions, xs):  # warm both
        s.run({"input": x})

    ratios = []
    for attempt in range(5):  # the machine is shared: the best of five attempts
        out = {}
        start = time.perf_counter()
        run_many(sessions[0], xs[0], out, "alone")
        alone = time.perf_counter() - start

        threads = [threading.Thread(target=run_many, args=(s, x, out, i)) for i, (s, x) in enumerate(zip(sessions, xs))]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        both = time.perf_counter() - start
        assert not any(t.is_alive() for t in threads), "a thread did not finish"
        for i in range(2):
            assert out[i].tobytes() == alone_results[i].tobytes()
        ratios.append(both / alone)
        print(f"attempt {attempt + 1}: one session alone {alone * 1000:.1f} ms for {RUNS} runs, "
              f"two in two threads {both * 1000:.1f} ms: {both / alone:.2f}x (os.cpu_count()={os.cpu_count()})")
        if ratios[-1] < 1.6:
            break
    assert min(ratios) < 1.6, ratios
