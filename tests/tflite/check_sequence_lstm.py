#!/usr/bin/env python3
"""ONNX LSTM -> TFLite's own sequence ops (issue 35): `edgecompile convert` writes an
LSTM as UNIDIRECTIONAL_SEQUENCE_LSTM (forward; reverse through REVERSE_V2 in time) or
BIDIRECTIONAL_SEQUENCE_LSTM, as the TensorFlow converter writes a Keras LSTM, and
unrolls it only when the sequence op cannot express it (here: the last cell state
Y_c is a graph output).

Each case (direction x layout, odd hidden sizes, peepholes, Y and Y_h outputs) is an
ONNX model built here with random weights (seed 0); the oracle is a NumPy LSTM
written from the ONNX operator specification (gates i, o, f, c; peepholes i, o, f).
Checked: the file holds the expected TFLite op, the real TFLite interpreter
(tfjs-tflite) and `edgecompile run` on the written file both equal the oracle within
1e-5 x max|output|.

usage: check_sequence_lstm.py EDGECOMPILE INTERPRETER_DIR"""
import os
import sys
import atexit
import shutil
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tflite_util as tu  # noqa: E402


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def onnx_lstm(x, W, R, B, P, direction, layout):
    """Y, Y_h, Y_c of ONNX's LSTM (default activations, zero initial states)."""
    if layout:
        x = x.transpose(1, 0, 2)
    T, Bn, _ = x.shape
    dirs, H = W.shape[0], R.shape[2]
    Y = np.zeros((T, dirs, Bn, H), np.float64)
    hs, cs = [], []
    for d in range(dirs):
        w, r = W[d].astype(np.float64), R[d].astype(np.float64)
        b = B[d, :4 * H].astype(np.float64) + B[d, 4 * H:]
        p = P[d].astype(np.float64) if P is not None else np.zeros(3 * H)
        h, c = np.zeros((Bn, H)), np.zeros((Bn, H))
        backward = direction == "reverse" or d == 1
        for t in (range(T - 1, -1, -1) if backward else range(T)):
            g = x[t] @ w.T + h @ r.T + b
            i = sigmoid(g[:, :H] + p[:H] * c)
            f = sigmoid(g[:, 2 * H:3 * H] + p[2 * H:] * c)
            cc = np.tanh(g[:, 3 * H:])
            c = f * c + i * cc
            o = sigmoid(g[:, H:2 * H] + p[H:2 * H] * c)
            h = o * np.tanh(c)
            Y[t, d] = h
        hs.append(h)
        cs.append(c)
    Yh, Yc = np.stack(hs), np.stack(cs)
    if layout:
        Y, Yh, Yc = Y.transpose(2, 0, 1, 3), Yh.transpose(1, 0, 2), Yc.transpose(1, 0, 2)
    return {"Y": Y.astype(np.float32), "Y_h": Yh.astype(np.float32), "Y_c": Yc.astype(np.float32)}


def build(path, rng, direction, layout, H, T, Bn, I, outs, peepholes):
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    dirs = 2 if direction == "bidirectional" else 1
    W = (rng.standard_normal((dirs, 4 * H, I)) * 0.5).astype(np.float32)
    R = (rng.standard_normal((dirs, 4 * H, H)) * 0.5).astype(np.float32)
    B = (rng.standard_normal((dirs, 8 * H)) * 0.5).astype(np.float32)
    P = (rng.standard_normal((dirs, 3 * H)) * 0.5).astype(np.float32) if peepholes else None
    inputs = ["X", "W", "R", "B"] + (["", "", "", "P"] if peepholes else [])
    node = helper.make_node("LSTM", inputs, [o if o in outs else "" for o in ("Y", "Y_h", "Y_c")],
                            direction=direction, hidden_size=H, layout=layout)
    xs = [T, Bn, I] if layout == 0 else [Bn, T, I]
    shapes = {"Y": [T, dirs, Bn, H] if layout == 0 else [Bn, T, dirs, H],
              "Y_h": [dirs, Bn, H] if layout == 0 else [Bn, dirs, H]}
    shapes["Y_c"] = shapes["Y_h"]
    inits = [numpy_helper.from_array(W, "W"), numpy_helper.from_array(R, "R"), numpy_helper.from_array(B, "B")]
    if peepholes:
        inits.append(numpy_helper.from_array(P, "P"))
    g = helper.make_graph([node], "lstm", [helper.make_tensor_value_info("X", TensorProto.FLOAT, xs)],
                          [helper.make_tensor_value_info(o, TensorProto.FLOAT, shapes[o]) for o in outs], inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)]), path)
    x = rng.standard_normal(xs).astype(np.float32)
    return x, onnx_lstm(x, W, R, B, P, direction, layout)


CASES = [
    # name, direction, layout, hidden, T, batch, input, outputs, peepholes, TFLite op expected
    ("forward", "forward", 0, 5, 6, 2, 3, ("Y", "Y_h"), False, "UNIDIRECTIONAL_SEQUENCE_LSTM"),
    ("forward_batch_major", "forward", 1, 7, 5, 3, 4, ("Y", "Y_h"), False, "UNIDIRECTIONAL_SEQUENCE_LSTM"),
    ("reverse", "reverse", 0, 5, 6, 2, 3, ("Y", "Y_h"), False, "UNIDIRECTIONAL_SEQUENCE_LSTM"),
    ("reverse_batch_major", "reverse", 1, 3, 4, 2, 5, ("Y_h",), False, "UNIDIRECTIONAL_SEQUENCE_LSTM"),
    ("bidirectional", "bidirectional", 0, 6, 5, 3, 3, ("Y", "Y_h"), False, "BIDIRECTIONAL_SEQUENCE_LSTM"),
    ("bidirectional_batch_major", "bidirectional", 1, 5, 4, 3, 2, ("Y", "Y_h"), False, "BIDIRECTIONAL_SEQUENCE_LSTM"),
    ("peepholes", "forward", 0, 4, 5, 1, 3, ("Y",), True, "UNIDIRECTIONAL_SEQUENCE_LSTM"),
    ("bidirectional_peepholes", "bidirectional", 0, 3, 4, 2, 3, ("Y_h",), True, "BIDIRECTIONAL_SEQUENCE_LSTM"),
    # the last cell state is no output of TFLite's op: unrolled instead
    ("cell_state_used", "forward", 0, 5, 4, 2, 3, ("Y", "Y_c"), False, None),
]


def main():
    exe, idir = sys.argv[1:3]
    script = tu.interpreter_or_skip(idir)
    try:
        import onnx  # noqa: F401
    except ImportError:
        print("SKIP: the onnx Python package is not installed")
        sys.exit(tu.SKIP)
    rng = np.random.default_rng(0)
    work = tempfile.mkdtemp(prefix="tflite_sequence_lstm_")
    atexit.register(shutil.rmtree, work, True)  # no scratch left in /tmp
    failures = []
    for name, direction, layout, H, T, Bn, I, outs, peep, want in CASES:
        model = os.path.join(work, name + ".onnx")
        out = os.path.join(work, name + ".tflite")
        x, ref = build(model, rng, direction, layout, H, T, Bn, I, outs, peep)
        tu.run([exe, "convert", model, "--output", out], timeout=300)
        listing = tu.run([exe, "inspect", out]).stdout
        has = [op for op in ("UNIDIRECTIONAL_SEQUENCE_LSTM", "BIDIRECTIONAL_SEQUENCE_LSTM") if op in listing]
        if (want and has != [want]) or (not want and has):
            failures.append(f"{name}: the file holds {has or 'no sequence op'}, expected {want or 'the unrolled form'}")
        got = dict(tu.interpreter(script, out, {"X": x}))
        ours = tu.edgecompile_run(exe, out, {"X": x})
        for o in outs:
            tol = 1e-5 * max(float(np.abs(ref[o]).max()), 1.0)
            for who, v in (("interpreter", got.get(o)), ("edgecompile run", ours.get(o))):
                err = float(np.abs(v.reshape(ref[o].shape) - ref[o]).max()) if v is not None and v.size == ref[o].size else float("inf")
                ok = err <= tol
                print(f"{'ok  ' if ok else 'FAIL'} {name}: {o} {who} vs the ONNX oracle max |diff| {err:.3g} "
                      f"(tolerance {tol:.3g}){'' if not want else ', ' + want}")
                if not ok:
                    failures.append(f"{name}: {o} from the {who} differs by {err:.3g}")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(CASES)} cases, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
