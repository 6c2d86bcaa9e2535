#!/usr/bin/env python3
"""Regression tests for the outside mutation campaign's reproducers (issue 13; inputs
in tests/data/fuzz-repro/, whose README.md says where they come from, or built here
when they are symlinks, FIFOs or large generated models).

Each case runs edgecompile in a fresh copy of its folder and checks the contract
for a malformed input: exit 1, exactly one line on stderr naming the file and the
problem, no signal, no hang (timeout), no sanitizer report, no file left in out/,
and nothing read from outside the model's folder. Cases of valid inputs check that
they run (and agree with a reference).

usage: fuzz_repro.py EDGECOMPILE DATA_DIR CASE   (CASE 'list' prints the case names)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


class Failure(Exception):
    pass


def run(exe, args, cwd, timeout=20):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0", UBSAN_OPTIONS="print_stacktrace=1")
    try:
        p = subprocess.run([exe] + args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                           env=env, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise Failure(f"hung: no answer after {timeout} s ({' '.join(args)})")
    if "runtime error:" in p.stderr or "AddressSanitizer" in p.stderr:
        raise Failure(f"sanitizer report:\n{p.stderr[:3000]}")
    if p.returncode < 0:
        raise Failure(f"killed by signal {-p.returncode}\n{p.stderr[:2000]}")
    return p


def expect_refusal(exe, args, cwd, names, pattern, timeout=20, forbidden=()):
    """exit 1, one stderr line naming `names` and matching `pattern`, out/ empty."""
    p = run(exe, args, cwd, timeout)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    problems = []
    if p.returncode != 1:
        problems.append(f"exit code {p.returncode}, want 1")
    if len(lines) != 1:
        problems.append(f"{len(lines)} stderr lines, want 1")
    msg = lines[0] if lines else ""
    for n in names:
        if n not in msg:
            problems.append(f"message does not name '{n}'")
    if not re.search(pattern, msg, re.IGNORECASE):
        problems.append(f"message does not match /{pattern}/")
    for f in forbidden:
        if re.search(f, msg):
            problems.append(f"message reveals /{f}/")
    out = os.path.join(cwd, "out")
    left = sorted(os.listdir(out)) if os.path.isdir(out) else []
    if left:
        problems.append(f"files left in out/: {left}")
    if problems:
        raise Failure("; ".join(problems) + f"\n     stderr: {p.stderr.strip()[:2000]!r}")
    print(f"ok: {msg}")


def expect_success(exe, args, cwd, timeout=60):
    p = run(exe, args, cwd, timeout)
    if p.returncode != 0:
        raise Failure(f"exit code {p.returncode}, want 0\n     stderr: {p.stderr.strip()[:2000]!r}")
    return p


# ---- reproducers with a folder of their own -----------------------------------------

@case
def crash_libonnx_converter_empty_graph(exe, d):
    # opset 9, every node removed: SEGV in the version converter
    expect_refusal(exe, ["inspect", "model.onnx"], d, ["model.onnx"], r"output")


@case
def crash_libonnx_shapeinf_layernorm_axis(exe, d):
    expect_refusal(exe, ["inspect", "model.onnx"], d, ["model.onnx"], r"LayerNormalization.*axis -7.*out of range")


@case
def crash_libonnx_shapeinf_constant_raw_truncated(exe, d):
    # Constant raw_data 8 -> 7 bytes: SEGV in libonnx's ParseData
    expect_refusal(exe, ["inspect", "model.onnx"], d, ["model.onnx"], r"7 bytes of data but i64\[1\] needs 8")


@case
def heapoverflow_libonnx_shapeinf_raw_extended(exe, d):
    # int64 initializer raw_data longer than its dims: heap overflow WRITE in libonnx
    expect_refusal(exe, ["inspect", "model.onnx"], d, ["model.onnx", "'shape'"], r"constant 'shape' has 27 bytes of data but i64\[3\] needs 24")


@case
def heapoverflow_random_inputs_dim_2p62(exe, d):
    expect_refusal(exe, ["run", "model.onnx", "--output-dir", "out"], d, ["input 'input'", "--input"],
                   r"too large|more than")


@case
def hang_random_inputs_4GiB(exe, d):
    expect_refusal(exe, ["run", "model.onnx", "--output-dir", "out"], d, ["'x_zero_point'", "--input"],
                   r"more than the 1 GiB", timeout=10)


@case
def heapoverflow_gru_bias_wrong_shape(exe, d):
    # GRU(X, W, R, B=X): B is f32[1,3,2] where the spec needs f32[1,30]; release exited 0
    expect_refusal(exe, ["run", "model.onnx", "--input", "X=in_0.npy", "W=in_1.npy", "R=in_2.npy",
                         "--output-dir", "out"], d, ["GRU", "input B"], r"f32\[1,3,2\].*needs f32\[1,30\]")


@case
def heapoverflow_npy_shape_wrap(exe, d):
    # header shape (2**58, 1, 28, 28) f4 with no data: count * 4 wrapped to 0 bytes
    expect_refusal(exe, ["run", "dyn_cnn.onnx", "--input", "input_0=wrap.npy", "--output-dir", "out"], d,
                   ["wrap.npy"], r"shape|truncated")


@case
def ubsan_mul_overflow_in_optimize(exe, d):
    # INT64_MIN * 128 in constant folding wraps as numpy/ONNX Runtime do (UBSan flagged it)
    expect_success(exe, ["optimize", "model.onnx", "--output", "out/o.eir"], d)
    if not os.path.isfile(os.path.join(d, "out", "o.eir")):
        raise Failure("optimize wrote no out/o.eir")
    print("ok: optimized, no sanitizer report")


@case
def hang_converter_quadratic(exe, d):
    # Conv (opset 6) followed by a chain of 100k Relu: quadratic in libonnx's version converter
    import onnx
    from onnx import TensorProto, helper
    n = 100000
    nodes = [helper.make_node("Conv", ["x", "w"], ["r0"], kernel_shape=[1, 1])]
    nodes += [helper.make_node("Relu", [f"r{i}"], [f"r{i + 1}"]) for i in range(n)]
    w = helper.make_tensor("w", TensorProto.FLOAT, [2, 2, 1, 1], [1.0, 0.0, 0.0, 1.0])
    g = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4, 4])],
                          [helper.make_tensor_value_info(f"r{n}", TensorProto.FLOAT, [1, 2, 4, 4])], [w])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 6)]), os.path.join(d, "chain.onnx"))
    expect_refusal(exe, ["inspect", "chain.onnx"], d, ["chain.onnx"], r"opset 6 with 100001 nodes.*opset 13",
                   timeout=20)


@case
def converter_large_opset11_imports_natively(exe, d):
    # c_11_20000.onnx of the campaign: 20000 Relu at opset 11 took 200 s in the converter;
    # above the cap an opset-11 graph is imported natively instead
    import onnx
    from onnx import TensorProto, helper
    n = 20000
    nodes = [helper.make_node("Relu", [f"r{i}"], [f"r{i + 1}"]) for i in range(n)]
    g = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("r0", TensorProto.FLOAT, [1, 4])],
                          [helper.make_tensor_value_info(f"r{n}", TensorProto.FLOAT, [1, 4])])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 11)]), os.path.join(d, "c11.onnx"))
    p = expect_success(exe, ["inspect", "c11.onnx"], d, timeout=30)
    if "20000" not in p.stdout.replace(",", ""):
        raise Failure(f"inspect does not count 20000 ops:\n{p.stdout[:1500]}")
    print("ok: imported natively")


def symlink_case(d, link, target):
    os.symlink(target, os.path.join(d, link))


@case
def traversal_symlink_dir(exe, d):
    # location 'up/etc/passwd', up -> ../../../../../../..: external data read from outside the folder
    symlink_case(d, "up", "../../../../../../../../../..")
    expect_refusal(exe, ["run", "model.onnx", "--output-dir", "out"], d, ["model.onnx", "up/etc/passwd"],
                   r"outside the model's directory", forbidden=[str(os.path.getsize("/etc/passwd"))])


@case
def traversal_symlink_file(exe, d):
    # location 'weights.bin' -> /etc/passwd; the message must not reveal that file's size either
    symlink_case(d, "weights.bin", "/etc/passwd")
    expect_refusal(exe, ["run", "model.onnx", "--output-dir", "out"], d, ["model.onnx", "weights.bin"],
                   r"outside the model's directory", forbidden=[str(os.path.getsize("/etc/passwd"))])


@case
def traversal_symlink_file_wrong_size(exe, d):
    # (campaign, no folder) a symlinked file of the wrong size: refused without its size
    symlink_case(d, "weights.bin", "/etc/hostname" if os.path.exists("/etc/hostname") else "/etc/passwd")
    target = os.path.realpath(os.path.join(d, "weights.bin"))
    expect_refusal(exe, ["run", "model.onnx", "--output-dir", "out"], d, ["model.onnx", "weights.bin"],
                   r"outside the model's directory", forbidden=[r"\b" + str(os.path.getsize(target)) + r"\b"])


@case
def traversal_dotdot_control(exe, d):
    expect_refusal(exe, ["run", "model.onnx", "--output-dir", "out"], d, ["model.onnx"], r"'\.\.' is not allowed")


@case
def traversal_symlink_inside_folder_ok(exe, d):
    # A symlink that stays inside the model's folder is fine (e.g. shared weight files).
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    w = numpy_helper.from_array(np.arange(4, dtype=np.float32).reshape(1, 4), "w")
    g = helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])], [w])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    os.makedirs(os.path.join(d, "data"))
    onnx.save_model(m, os.path.join(d, "m.onnx"), save_as_external_data=True, location="data/w.bin",
                    size_threshold=0)
    os.rename(os.path.join(d, "data", "w.bin"), os.path.join(d, "data", "real.bin"))
    os.symlink("real.bin", os.path.join(d, "data", "w.bin"))
    np.save(os.path.join(d, "x.npy"), np.ones((1, 4), np.float32))
    expect_success(exe, ["run", "m.onnx", "--input", "x=x.npy", "--output-dir", "out"], d)
    y = np.load(os.path.join(d, "out", "y.npy"))
    if not np.array_equal(y, np.arange(4, dtype=np.float32).reshape(1, 4) + 1):
        raise Failure(f"wrong output {y}")
    print("ok: in-folder symlink read")


@case
def npy_input_is_directory(exe, d):
    os.makedirs(os.path.join(d, "adir"))
    expect_refusal(exe, ["run", "model.onnx", "--input", "input_0=adir", "--output-dir", "out"], d, ["adir"],
                   r"directory")


@case
def external_data_lost_on_opset_upgrade(exe, d):
    # valid external data of an opset-6 model must survive the upgrade to opset 13:
    # the output equals the one of the same model with its weights stored inline.
    import onnx
    m = onnx.load(os.path.join(d, "opset6.onnx"))  # loads the external data
    onnx.save_model(m, os.path.join(d, "inline6.onnx"), save_as_external_data=False)
    outs = {}
    for name in ("opset6", "inline6"):  # the same deterministic random input for both
        expect_success(exe, ["run", f"{name}.onnx", "--output-dir", f"o_{name}"], d)
        files = sorted(os.listdir(os.path.join(d, f"o_{name}")))
        outs[name] = [np.load(os.path.join(d, f"o_{name}", f)) for f in files]
    if not outs["opset6"] or not all(np.array_equal(a, b) for a, b in zip(outs["opset6"], outs["inline6"])):
        raise Failure("the opset-6 model with external data differs from the same model with inline weights")
    print("ok: external data survives the opset upgrade")


# ---- seen in the campaign without a folder of its own ----------------------------------

@case
def npy_input_dev_urandom(exe, d):
    expect_refusal(exe, ["run", "model.onnx", "--input", "input_0=/dev/urandom", "--output-dir", "out"], d,
                   ["/dev/urandom"], r"not a regular file", timeout=10)


@case
def npy_input_dev_zero(exe, d):
    expect_refusal(exe, ["run", "model.onnx", "--input", "input_0=/dev/zero", "--output-dir", "out"], d,
                   ["/dev/zero"], r"not a regular file", timeout=10)


@case
def npy_input_fifo(exe, d):
    os.mkfifo(os.path.join(d, "pipe.npy"))  # no writer: opening it would block forever
    expect_refusal(exe, ["run", "model.onnx", "--input", "input_0=pipe.npy", "--output-dir", "out"], d,
                   ["pipe.npy"], r"not a regular file", timeout=10)


def npy_with_header(path, descr, shape_text, payload=b""):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + payload)


@case
def npy_shape_product_overflow(exe, d):
    # a header shape whose element count overflows int64 (npy.cpp: count *= v)
    npy_with_header(os.path.join(d, "big.npy"), "<f4", "(4294967296, 4294967296, 28, 28)")
    expect_refusal(exe, ["run", "model.onnx", "--input", "input_0=big.npy", "--output-dir", "out"], d,
                   ["big.npy"], r"bad shape")


@case
def random_input_gru_dim_int64_max(exe, d):
    # a GRU whose input declares a dim of 2**63-1: SIGSEGV in the Tensor constructor (release)
    import onnx
    from onnx import TensorProto, helper
    H, I = 3, 2
    W = helper.make_tensor("W", TensorProto.FLOAT, [1, 3 * H, I], [0.1] * (3 * H * I))
    R = helper.make_tensor("R", TensorProto.FLOAT, [1, 3 * H, H], [0.1] * (3 * H * H))
    g = helper.make_graph([helper.make_node("GRU", ["X", "W", "R"], ["", "Y_h"], hidden_size=H)], "gru",
                          [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2**63 - 1, 1, I])],
                          [helper.make_tensor_value_info("Y_h", TensorProto.FLOAT, None)], [W, R])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), os.path.join(d, "gru.onnx"))
    expect_refusal(exe, ["run", "gru.onnx", "--output-dir", "out"], d, ["input 'X'", "--input"], r"more than")


def one_op_model(d, name, node, inputs, output, inits, opset=13):
    import onnx
    from onnx import helper
    g = helper.make_graph([node], "g", inputs, [output], inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)]), os.path.join(d, name))


@case
def tile_repeats_overflow(exe, d):
    # Tile whose repeats overflow the output size (data_movement.cpp signed overflow)
    from onnx import TensorProto, helper
    reps = helper.make_tensor("reps", TensorProto.INT64, [2], [2**62, 2**62])
    one_op_model(d, "tile.onnx", helper.make_node("Tile", ["x", "reps"], ["y"]),
                 [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2])],
                 helper.make_tensor_value_info("y", TensorProto.FLOAT, None), [reps])
    np.save(os.path.join(d, "x.npy"), np.ones((2, 2), np.float32))
    expect_refusal(exe, ["run", "tile.onnx", "--input", "x=x.npy", "--output-dir", "out"], d, [],
                   r"overflow|64-bit|too large|larger")


@case
def reshape_target_overflow(exe, d):
    # Reshape to a target whose product overflows (data_movement.cpp signed overflow)
    from onnx import TensorProto, helper
    shape = helper.make_tensor("shape", TensorProto.INT64, [3], [2**62, 2**62, -1])
    one_op_model(d, "reshape.onnx", helper.make_node("Reshape", ["x", "shape"], ["y"]),
                 [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2])],
                 helper.make_tensor_value_info("y", TensorProto.FLOAT, None), [shape])
    np.save(os.path.join(d, "x.npy"), np.ones((2, 2), np.float32))
    expect_refusal(exe, ["run", "reshape.onnx", "--input", "x=x.npy", "--output-dir", "out"], d, [],
                   r"reshape|overflow|64-bit")


@case
def converter_renamed_node_output(exe, d):
    # an old-opset model whose node output was renamed: SEGV in libonnx's version converter
    from onnx import TensorProto, helper
    import onnx
    nodes = [helper.make_node("Relu", ["x"], ["a_renamed"]), helper.make_node("Relu", ["a"], ["y"])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 9)]), os.path.join(d, "renamed.onnx"))
    expect_refusal(exe, ["inspect", "renamed.onnx"], d, ["renamed.onnx", "'a'"], r"no node, initializer")


@case
def converter_deleted_graph_output_producer(exe, d):
    # an old-opset model whose graph output lost its producer
    from onnx import TensorProto, helper
    import onnx
    nodes = [helper.make_node("Relu", ["x"], ["a"])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 9)]), os.path.join(d, "noout.onnx"))
    expect_refusal(exe, ["inspect", "noout.onnx"], d, ["noout.onnx", "'y'"], r"not produced")


def layer_norm_after_relu(d, name, axis):
    # the LayerNormalization input's rank is known only after shape inference
    from onnx import TensorProto, helper
    import onnx
    vi = helper.make_tensor_value_info
    scale = helper.make_tensor("scale", TensorProto.FLOAT, [3, 4], [1.0] * 12)
    bias = helper.make_tensor("bias", TensorProto.FLOAT, [3, 4], [0.0] * 12)
    nodes = [helper.make_node("Relu", ["x"], ["r"]),
             helper.make_node("LayerNormalization", ["r", "scale", "bias"], ["y", "mean", "inv_std"], axis=axis)]
    g = helper.make_graph(nodes, "g", [vi("x", TensorProto.FLOAT, [2, 3, 4])],
                          [vi("y", TensorProto.FLOAT, None), vi("mean", TensorProto.FLOAT, None),
                           vi("inv_std", TensorProto.FLOAT, None)], [scale, bias])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), os.path.join(d, name))


@case
def layernorm_axis_rank_from_inference(exe, d):
    # axis -7 where the rank (3) is known only after inference: libonnx must not see it
    layer_norm_after_relu(d, "ln.onnx", -7)
    expect_refusal(exe, ["inspect", "ln.onnx"], d, ["ln.onnx"], r"axis")


@case
def layernorm_axis_rank_from_inference_valid(exe, d):
    # the same with a valid axis (-2) inspects and runs
    layer_norm_after_relu(d, "ln.onnx", -2)
    expect_success(exe, ["inspect", "ln.onnx"], d)
    expect_success(exe, ["run", "ln.onnx", "--output-dir", "o"], d)
    mean = np.load(os.path.join(d, "o", "mean.npy"))
    if mean.shape != (2, 1, 1):
        raise Failure(f"mean has shape {mean.shape}, want (2, 1, 1)")
    print("ok: valid axis runs")


# Folder each case starts from (copied); cases not listed start from an empty folder.
FOLDERS = {
    "traversal_symlink_file_wrong_size": "traversal_symlink_file",
    "npy_input_dev_urandom": "npy_input_is_directory",
    "npy_input_dev_zero": "npy_input_is_directory",
    "npy_input_fifo": "npy_input_is_directory",
    "npy_shape_product_overflow": "npy_input_is_directory",
}


def main():
    exe, data, name = sys.argv[1], sys.argv[2], sys.argv[3]
    if name == "list":
        print(";".join(CASES))
        return
    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, name)
        src = os.path.join(data, FOLDERS.get(name, name))
        if os.path.isdir(src):
            shutil.copytree(src, d)
        else:
            os.makedirs(d)
        os.makedirs(os.path.join(d, "out"), exist_ok=True)
        try:
            CASES[name](os.path.abspath(exe), d)
        except Failure as e:
            print(f"FAIL {name}: {e}")
            sys.exit(1)


if __name__ == "__main__":
    main()
