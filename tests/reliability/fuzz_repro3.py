#!/usr/bin/env python3
"""Regression tests for the third outside mutation campaign (issue 36, hostile files;
inputs in tests/data/fuzz-repro-3/, one folder per fault, README.md there).

Each case copies its folder to a temporary directory, rebuilds what git cannot hold
(symlinks are stored as text files holding their target, FIFOs are made with mkfifo,
large inputs are gunzipped or untarred) and runs the commands of its cmd.txt. A refused
input must give exit 1, exactly one readable stderr line (bounded: no megabytes of
echoed file text, no libonnx assertion text), no signal, no hang (10 s), no sanitizer
report, no file left in out/, and nothing read from outside the model (the packages'
outside files hold the marker FUZZ3-SECRET, which must never be printed). Inputs that
are valid but hostile (100k devices, 2M latencies, non-UTF-8 names) must succeed fast.

usage: fuzz_repro3.py EDGECOMPILE DATA_DIR CASE   (CASE 'list' prints the case names)
"""
import glob
import gzip
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

CASES = {}
SECRET = "FUZZ3-SECRET"
MAX_LINE = 600  # characters of the one stderr line


def case(fn):
    CASES[fn.__name__.replace("_", "-")] = fn
    return fn


class Failure(Exception):
    pass


def run(exe, args, cwd, timeout=10, env_extra=None, cpu_limit=None):
    """With `cpu_limit`, the limit is on the CPU time the command used (for the large
    inputs, whose wall time on a shared, loaded machine says little); the wall-clock
    limit is then 6 times as long."""
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0", UBSAN_OPTIONS="print_stacktrace=1")
    env.update(env_extra or {})
    t0 = time.monotonic()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = timeout * 6 if cpu_limit else timeout
    try:
        p = subprocess.run([exe] + args, cwd=cwd, capture_output=True, timeout=wall, env=env,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise Failure(f"hung: no answer after {wall} s ({' '.join(args)})")
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if cpu_limit and cpu > cpu_limit:
        raise Failure(f"too slow: {cpu:.1f} s of CPU time, at most {cpu_limit} ({' '.join(args)})")
    p.seconds = time.monotonic() - t0
    p.err = p.stderr.decode("utf-8", "replace")
    p.out = p.stdout.decode("utf-8", "replace")
    if "runtime error:" in p.err or "AddressSanitizer" in p.err:
        raise Failure(f"sanitizer report ({' '.join(args)}):\n{p.err[:3000]}")
    if p.returncode < 0:
        raise Failure(f"killed by signal {-p.returncode} ({' '.join(args)})\n{p.err[:2000]}")
    return p


def files_under(d):
    return sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs)


def refused(exe, args, cwd, names=(), pattern="", env=None, forbidden=(), timeout=10):
    """exit 1, one bounded readable stderr line naming `names` and matching `pattern`,
    no secret, out/ empty, no new file in the folder."""
    before = files_under(cwd)
    p = run(exe, args, cwd, timeout, env)
    lines = [l for l in p.err.splitlines() if l.strip()]
    problems = []
    if p.returncode != 1:
        problems.append(f"exit code {p.returncode}, want 1")
    if len(lines) != 1:
        problems.append(f"{len(lines)} stderr lines, want 1")
    msg = lines[0] if lines else ""
    if len(msg) > MAX_LINE:
        problems.append(f"the line has {len(msg)} characters (at most {MAX_LINE})")
    if any(ord(c) < 32 or c == "\ufffd" for c in msg):
        problems.append("the line holds control characters or invalid UTF-8")
    for n in names:
        if n not in msg:
            problems.append(f"message does not name '{n}'")
    if pattern and not re.search(pattern, msg, re.IGNORECASE):
        problems.append(f"message does not match /{pattern}/")
    for f in (SECRET,) + tuple(forbidden):
        if re.search(f, p.err + p.out):
            problems.append(f"output reveals /{f}/")
    after = files_under(cwd)
    if after != before:
        problems.append(f"files left behind: {sorted(set(after) - set(before))}")
    if problems:
        raise Failure(f"{' '.join(args)}: " + "; ".join(problems) + f"\n     stderr: {p.err.strip()[:1500]!r}")
    print(f"ok ({p.seconds:.2f} s): {' '.join(args)}: {msg}")


def succeeds(exe, args, cwd, env=None, timeout=10, cpu_limit=None):
    p = run(exe, args, cwd, timeout, env, cpu_limit)
    if p.returncode != 0:
        raise Failure(f"{' '.join(args)}: exit code {p.returncode}, want 0\n     stderr: {p.err.strip()[:1500]!r}")
    if SECRET in p.out + p.err:
        raise Failure(f"{' '.join(args)}: output reveals {SECRET}")
    print(f"ok ({p.seconds:.2f} s): {' '.join(args)}: exit 0")
    return p


def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def make_symlink(d, rel):
    """git cannot hold the campaign's symlinks: the file holds the target."""
    path = os.path.join(d, rel)
    target = open(path).read().strip()
    os.remove(path)
    os.symlink(target, path)


def gunzip(d, name):
    with gzip.open(os.path.join(d, name + ".gz"), "rb") as f, open(os.path.join(d, name), "wb") as o:
        shutil.copyfileobj(f, o)


# Messages must not carry the ONNX version converter's assertion text.
ASSERT_TEXT = (r"Assertion", r"\.(h|cc):\d+", r"assertInVersionRange")

# ---- Core ML: reading outside the package, blob bounds, special files ---------------


@case
def coreml_symlink_escape_leak(exe, d):
    for rel in ("data_link.mlpackage/Data", "model_link.mlpackage/Data/com.apple.CoreML/model.mlmodel",
                "weights_link.mlpackage/Data/com.apple.CoreML/weights"):
        make_symlink(d, rel)
    refused(exe, ["inspect", "data_link.mlpackage"], d, ["data_link.mlpackage", "'Data'"], r"outside the package")
    refused(exe, ["run", "data_link.mlpackage", "--output-dir", "out"], d, ["'Data'"], r"outside the package")
    refused(exe, ["inspect", "model_link.mlpackage"], d, ["model.mlmodel"], r"outside the package")
    refused(exe, ["inspect", "weights_link.mlpackage"], d, ["weight.bin"], r"outside the package")


@case
def coreml_manifest_path_escape_leak(exe, d):
    refused(exe, ["inspect", "dotdot.mlpackage"], d, ["../../elsewhere/model.mlmodel"], r"'\.\.' is not allowed")
    refused(exe, ["inspect", "abs.mlpackage"], d, ["/etc/os-release"], r"absolute path", forbidden=[r"Debian|PRETTY_NAME"])
    refused(exe, ["run", "dotdot.mlpackage", "--output-dir", "out"], d, ["dotdot.mlpackage"], r"'\.\.' is not allowed")
    refused(exe, ["inspect", "etcpasswd.mlpackage"], d, ["/etc/passwd"], r"absolute path", forbidden=[r"root:"])


@case
def coreml_blob_offset_wrap_segv(exe, d):
    with tarfile.open(os.path.join(d, "mnv2_offset_wrap.mlpackage.tar.gz")) as t:
        t.extractall(d)
    os.remove(os.path.join(d, "mnv2_offset_wrap.mlpackage.tar.gz"))
    refused(exe, ["inspect", "mnv2_offset_wrap.mlpackage"], d, ["mnv2_offset_wrap.mlpackage"], r"past the end")
    refused(exe, ["run", "mnv2_offset_wrap.mlpackage", "--output-dir", "out"], d, [], r"past the end")
    refused(exe, ["inspect", "offset_wrap.mlpackage"], d, ["offset_wrap.mlpackage"], r"past the end")


@case
def coreml_blob_count_overflow_segv(exe, d):
    refused(exe, ["inspect", "tiny_fp32_count_wrap.mlpackage"], d, ["tiny_fp32_count_wrap.mlpackage"], r"more than 2\^31")
    refused(exe, ["run", "tiny_fp32_count_wrap.mlpackage", "--output-dir", "out"], d, [], r"more than 2\^31")


@case
def coreml_special_file_hang(exe, d):
    os.mkfifo(os.path.join(d, "model_fifo.mlpackage/Data/com.apple.CoreML/model.mlmodel"))
    os.mkfifo(os.path.join(d, "manifest_fifo.mlpackage/Manifest.json"))
    refused(exe, ["inspect", "manifest_devzero.mlpackage"], d, ["/dev/zero"], r"absolute path")
    refused(exe, ["inspect", "model_fifo.mlpackage"], d, ["model.mlmodel"], r"FIFO")
    refused(exe, ["inspect", "manifest_fifo.mlpackage"], d, ["Manifest.json"], r"FIFO")
    # The same file given directly where a package entry is expected: a device.
    os.remove(os.path.join(d, "manifest_devzero.mlpackage/Manifest.json"))
    os.symlink("/dev/zero", os.path.join(d, "manifest_devzero.mlpackage/Manifest.json"))
    refused(exe, ["inspect", "manifest_devzero.mlpackage"], d, ["Manifest.json"], r"outside the package|device")


@case
def coreml_long_message_echo(exe, d):
    refused(exe, ["inspect", "longid.mlpackage"], d, ["longid.mlpackage"], r"Manifest.json")
    refused(exe, ["inspect", "longpath.mlpackage"], d, ["longpath.mlpackage"], r"")


@case
def savedmodel_non_utf8_string_protobuf_log(exe, d):
    # libprotobuf's own stderr line must not appear beside ours (proto3 UTF-8 check).
    for cmd in (["inspect", "non_utf8.savedmodel"], ["run", "non_utf8.savedmodel", "--output-dir", "out"]):
        refused(exe, cmd, d, ["non_utf8.savedmodel"], r"does not parse as a SavedModel", forbidden=[r"libprotobuf"])


# ---- ONNX ---------------------------------------------------------------------------


@case
def onnx_scan_no_body_segv(exe, d):
    refused(exe, ["inspect", "min_scan.onnx"], d, ["min_scan.onnx"], r"Scan.*no 'body'")
    refused(exe, ["inspect", "model.onnx"], d, ["model.onnx"], r"Scan.*no 'body'")
    refused(exe, ["run", "model.onnx", "--output-dir", "out"], d, ["model.onnx"], r"Scan.*no 'body'")
    refused(exe, ["optimize", "model.onnx", "--output", "out/o.eir"], d, ["model.onnx"], r"Scan.*no 'body'")


@case
def onnx_constantofshape_2p31_hang(exe, d):
    # x is i64[2^31]: libonnx would give ConstantOfShape's output 2^31 dims (8 GB)
    for model in ("model.onnx", "dim_2p33.onnx"):
        refused(exe, ["inspect", model], d, [model, "ConstantOfShape"], r"rank|dimensions")
    refused(exe, ["run", "model.onnx", "--output-dir", "out"], d, ["model.onnx"], r"rank|dimensions")
    refused(exe, ["optimize", "model.onnx", "--output", "out/o.eir"], d, ["model.onnx"], r"rank|dimensions")


@case
def onnx_version_converter_assert_text(exe, d):
    refused(exe, ["inspect", "relu_opset0.onnx"], d, ["relu_opset0.onnx"], r"opset 0", forbidden=ASSERT_TEXT)
    refused(exe, ["inspect", "round_opset6.onnx"], d, ["round_opset6.onnx"], r"opset 6", forbidden=ASSERT_TEXT)
    refused(exe, ["inspect", "two_default_opsets.onnx"], d, ["two_default_opsets.onnx"], r"opset", forbidden=ASSERT_TEXT)
    refused(exe, ["run", "relu_opset0.onnx", "--output-dir", "out"], d, ["relu_opset0.onnx"], r"opset 0",
            forbidden=ASSERT_TEXT)


@case
def onnx_nested_function_long_opname(exe, d):
    refused(exe, ["run", "slice_100_nested_functions.onnx", "--output-dir", "out"], d, [], r"not supported")
    succeeds(exe, ["inspect", "slice_100_nested_functions.onnx"], d)


# ---- TFLite -------------------------------------------------------------------------


def refused_or_complete(exe, args, cwd, output):
    """A writer either refuses (one line, nothing left) or writes a complete output."""
    p = run(exe, args, cwd, timeout=20)
    path = os.path.join(cwd, output)
    if p.returncode == 0:
        if not os.path.isfile(path) or open(path, "rb").read(8)[4:8] != b"TFL3":
            raise Failure(f"{' '.join(args)}: exit 0 but no complete {output}")
        os.remove(path)
        print(f"ok ({p.seconds:.2f} s): {' '.join(args)}: exit 0, {output} written")
        return
    lines = p.err.strip().splitlines()
    if p.returncode != 1 or len(lines) != 1 or os.path.exists(path) or glob.glob(path + ".tmp*"):
        raise Failure(f"{' '.join(args)}: exit {p.returncode}, {len(lines)} lines, "
                      f"{output} left: {os.path.exists(path)}: {p.err[:800]!r}")
    print(f"ok ({p.seconds:.2f} s): {' '.join(args)}: {lines[0]}")


@case
def tflite_coral_rank0_resize_output_segv(exe, d):
    # The crash is in the TFLite writer (core/backends/coral/tflite_writer.cpp, owned by
    # another change): this case passes once that fix is merged.
    gunzip(d, "campaign_mutant_01084.tflite")
    refused_or_complete(exe, ["compile", "resize_only.tflite", "--target", "coral", "--output", "o.tflite"], d, "o.tflite")
    refused_or_complete(exe, ["convert", "resize_only.tflite", "--output", "c.tflite"], d, "c.tflite")
    refused_or_complete(exe, ["compile", "campaign_mutant_01084.tflite", "--target", "coral", "--output", "o2.tflite"],
                        d, "o2.tflite")
    succeeds(exe, ["inspect", "resize_only.tflite"], d)


@case
def tflite_non_utf8_name_internal_error_partial(exe, d):
    # A tensor name with byte 0xFF: escaped or replaced in every output, never exit 70.
    gunzip(d, "campaign_mutant_00859.tflite")
    refused_or_complete(exe, ["compile", "conv_int8_output_name_ff.tflite", "--target", "coral", "--output", "o.tflite"],
                        d, "o.tflite")
    refused_or_complete(exe, ["compile", "campaign_mutant_00859.tflite", "--target", "coral", "--output", "o2.tflite"],
                        d, "o2.tflite")
    p = succeeds(exe, ["inspect", "conv_int8_output_name_ff.tflite", "--json"], d)
    json.loads(p.stdout.decode("utf-8"))  # valid UTF-8 JSON
    succeeds(exe, ["inspect", "conv_int8_output_name_ff.tflite"], d)


@case
def tflite_long_custom_code_echo(exe, d):
    refused(exe, ["run", "custom_code_100k.tflite", "--output-dir", "out"], d, [], r"not supported")
    refused_or_complete(exe, ["compile", "custom_code_100k.tflite", "--target", "coral", "--output", "o.tflite"], d,
                        "o.tflite")
    succeeds(exe, ["inspect", "custom_code_100k.tflite"], d)


# ---- .eir ---------------------------------------------------------------------------


@case
def eir_long_token_echo(exe, d):
    gunzip(d, "long_statement.eir")
    refused(exe, ["inspect", "long_statement.eir"], d, ["long_statement.eir"], r"unknown statement")
    refused(exe, ["run", "long_statement.eir", "--output-dir", "out"], d, ["long_statement.eir"], r"unknown statement")


# ---- devices.json -------------------------------------------------------------------


@case
def devices_deep_json_segv(exe, d):
    gunzip(d, "deep_port.json")
    refused(exe, ["devices"], d, ["deep_root.json"], r"nested deeper", env={"EC_DEVICES_CONFIG": "deep_root.json"})
    refused(exe, ["devices", "--json"], d, ["deep_port.json"], r"nested deeper", env={"EC_DEVICES_CONFIG": "deep_port.json"})
    refused(exe, ["devices"], d, ["deep_root_unclosed.json"], r"nested deeper|not JSON",
            env={"EC_DEVICES_CONFIG": "deep_root_unclosed.json"})


@case
def devices_special_file_hang(exe, d):
    os.mkfifo(os.path.join(d, "fifo.json"))
    refused(exe, ["devices"], d, ["/dev/zero"], r"device", env={"EC_DEVICES_CONFIG": "/dev/zero"})
    refused(exe, ["devices"], d, ["fifo.json"], r"FIFO", env={"EC_DEVICES_CONFIG": "fifo.json"})


@case
def devices_slow_large_file_hang(exe, d):
    gunzip(d, "devices_100k.json")
    for f in ("devices_100k.json", "devices_20k.json"):
        p = succeeds(exe, ["devices", "--json"], d, env={"EC_DEVICES_CONFIG": f}, cpu_limit=10)
        n = len(json.loads(p.stdout)["devices"])
        if n < 20000:
            raise Failure(f"{f}: only {n} devices listed")
    succeeds(exe, ["devices"], d, env={"EC_DEVICES_CONFIG": "devices_100k.json"}, cpu_limit=10)


@case
def devices_number_overflow_internal_error(exe, d):
    refused(exe, ["devices"], d, ["version_1e400.json"], r"1e400|number", env={"EC_DEVICES_CONFIG": "version_1e400.json"})
    refused(exe, ["devices", "--json"], d, ["port_1e400.json"], r"1e400|number",
            env={"EC_DEVICES_CONFIG": "port_1e400.json"})
    # Also seen: version 2^32+1, 1.5 or true, port 2^32+22 or 22.7 were accepted.
    for field, value in (("version", "4294967297"), ("version", "1.5"), ("version", "true")):
        open(os.path.join(d, "v.json"), "w").write('{"%s": %s}' % (field, value))
        refused(exe, ["devices"], d, ["v.json", "version"], r"whole number", env={"EC_DEVICES_CONFIG": "v.json"})
    for value in ("4294967318", "22.7"):
        open(os.path.join(d, "p.json"), "w").write(
            '{"version": 1, "devices": [{"id": "a", "provider": {"type": "ssh", "host": "h", "port": %s}}]}' % value)
        refused(exe, ["devices"], d, ["p.json", "port"], r"whole number", env={"EC_DEVICES_CONFIG": "p.json"})


@case
def devices_huge_value_echo(exe, d):
    refused(exe, ["devices"], d, ["root_array_100k.json"], r"expected an object",
            env={"EC_DEVICES_CONFIG": "root_array_100k.json"})
    refused(exe, ["devices"], d, ["version_array_50k.json"], r"whole number",
            env={"EC_DEVICES_CONFIG": "version_array_50k.json"})


# ---- the run history ----------------------------------------------------------------


def untouched(d, name, digest):
    if sha(os.path.join(d, name)) != digest:
        raise Failure(f"{name} was modified")
    extra = [f for f in os.listdir(d) if f.startswith(name) and f != name]
    if extra:
        raise Failure(f"files created beside {name}: {extra}")


def copy_db(d, src, dst):
    shutil.copy(os.path.join(d, src), os.path.join(d, dst))
    return sha(os.path.join(d, dst))


@case
def runsdb_deep_json_segv(exe, d):
    gunzip(d, "deep_options.db")
    gunzip(d, "deep_report.db")
    for dst, src, args, pattern in (("w1.db", "deep_options.db", ["runs", "list", "--json"], r"options.*nested deeper"),
                                    ("w2.db", "deep_options.db", ["runs", "show", "1", "--json"], r"options.*nested deeper"),
                                    ("w3.db", "deep_report.db", ["runs", "show", "1", "--json"], r"report.*nested deeper")):
        h = copy_db(d, src, dst)
        refused(exe, args + ["--runs-db", dst], d, [dst, "run "], pattern)
        untouched(d, dst, h)
    h = copy_db(d, "deep_options.db", "w4.db")
    succeeds(exe, ["runs", "list", "--runs-db", "w4.db"], d)
    untouched(d, "w4.db", h)


@case
def runsdb_failed_read_modifies_file(exe, d):
    h = copy_db(d, "empty.db", "e1.db")
    refused(exe, ["runs", "show", "1", "--runs-db", "e1.db"], d, ["e1.db"], r"empty|not a run history")
    untouched(d, "e1.db", h)
    h = copy_db(d, "one_byte.db", "o1.db")
    refused(exe, ["runs", "compare", "1", "2", "--runs-db", "o1.db"], d, ["o1.db"], r"not a SQLite database|damaged|not a run history")
    untouched(d, "o1.db", h)
    refused(exe, ["runs", "show", "1", "--runs-db", "new/sub/runs.db"], d, ["new/sub/runs.db"], r"no such file")
    if os.path.exists(os.path.join(d, "new")):
        raise Failure("runs show created the folder new/")
    refused(exe, ["runs", "list", "--runs-db", "nope.db"], d, ["nope.db"], r"no such file")


@case
def runsdb_locked_by_other_process_hang(exe, d):
    h = copy_db(d, "real_4runs.db", "runs.db")
    holder = subprocess.Popen([sys.executable, "hold_lock.py", "30"], cwd=d, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.5)
        refused(exe, ["runs", "list", "--runs-db", "runs.db"], d, ["runs.db"], r"locked by another process", timeout=10)
        refused(exe, ["runs", "show", "1", "--runs-db", "runs.db"], d, ["runs.db"], r"locked by another process",
                timeout=10)
    finally:
        holder.kill()
        holder.wait()
    succeeds(exe, ["runs", "list", "--runs-db", "runs.db"], d)
    del h  # hold_lock.py itself rewrote the file (UPDATE runs SET kind=kind)


@case
def runsdb_slow_large_history_hang(exe, d):
    gunzip(d, "latencies_2M.db")
    h = copy_db(d, "latencies_2M.db", "w1.db")
    succeeds(exe, ["runs", "compare", "1", "2", "--runs-db", "w1.db"], d, cpu_limit=10)
    succeeds(exe, ["runs", "compare", "1", "2", "--json", "--runs-db", "w1.db"], d, cpu_limit=10)
    untouched(d, "w1.db", h)
    succeeds(exe, ["runs", "show", "1", "--runs-db", "w1.db"], d)
    subprocess.run([sys.executable, "make_rows_100k.py", "real_4runs.db"], cwd=d, check=True)
    p = succeeds(exe, ["runs", "list", "--json", "--runs-db", "rows_100k.db"], d, cpu_limit=10)
    if len(json.loads(p.stdout)["runs"]) != 100004:
        raise Failure("runs list --json does not list 100004 runs")
    succeeds(exe, ["runs", "list", "--runs-db", "rows_100k.db"], d, cpu_limit=10)


@case
def runsdb_json_internal_error(exe, d):
    # An op profile entry whose name is a number: a listing does not read op profiles;
    # reading the run in full refuses it in one line.
    h = copy_db(d, "stats_op_profile_name_number.db", "w1.db")
    succeeds(exe, ["runs", "list", "--runs-db", "w1.db"], d)
    untouched(d, "w1.db", h)
    h = copy_db(d, "stats_op_profile_name_number.db", "w2.db")
    refused(exe, ["runs", "compare", "1", "2", "--runs-db", "w2.db"], d, ["w2.db", "run "], r"statistics are malformed")
    untouched(d, "w2.db", h)
    # A non-UTF-8 kind is shown replaced (JSON) or escaped (text), not an internal error.
    h = copy_db(d, "non_utf8_kind.db", "w3.db")
    p = succeeds(exe, ["runs", "list", "--json", "--runs-db", "w3.db"], d)
    json.loads(p.stdout.decode("utf-8"))
    p = succeeds(exe, ["runs", "show", "1", "--json", "--runs-db", "w3.db"], d)
    json.loads(p.stdout.decode("utf-8"))
    p = succeeds(exe, ["runs", "list", "--runs-db", "w3.db"], d)
    p.stdout.decode("utf-8")  # escaped: valid UTF-8
    untouched(d, "w3.db", h)


# ---- found by the repository's own fuzzers (tests/fuzz/regressions) ------------------

REGRESSIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz", "regressions")


@case
def fuzz_found_onnx_recursive_local_function(exe, d):
    # fuzz_onnx: a local function calling itself overflowed the stack in libonnx's inference
    shutil.copy(os.path.join(REGRESSIONS, "onnx", "recursive_local_function.onnx"), d)
    refused(exe, ["inspect", "recursive_local_function.onnx"], d, ["recursive_local_function.onnx"],
            r"calls itself")


@case
def fuzz_found_onnx_output_is_initializer(exe, d):
    # fuzz_onnx: an opset-6 graph whose output is an initializer no node computes crashed (SEGV)
    # in libonnx's graphProtoToGraph, inside the version converter
    shutil.copy(os.path.join(REGRESSIONS, "onnx", "output-is-initializer-opset6.onnx"), d)
    refused(exe, ["inspect", "output-is-initializer-opset6.onnx"], d, ["output-is-initializer-opset6.onnx"],
            r"graph output '3' is a constant")


@case
def fuzz_found_onnx_function_defined_twice(exe, d):
    # fuzz_onnx: two definitions of one local function hid a call cycle from our check (it took
    # one, libonnx's inference the other): stack overflow in InferShapeForFunctionNode
    shutil.copy(os.path.join(REGRESSIONS, "onnx", "function-defined-twice-cycle.onnx"), d)
    refused(exe, ["inspect", "function-defined-twice-cycle.onnx"], d, ["function-defined-twice-cycle.onnx"],
            r"defined more than once")


def main():
    exe, data, name = sys.argv[1], sys.argv[2], sys.argv[3]
    if name == "list":
        print(";".join(CASES))
        return
    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, name)
        if os.path.isdir(os.path.join(data, name)):
            shutil.copytree(os.path.join(data, name), d)
        else:  # a case without a campaign folder
            os.makedirs(d)
        for root, dirs, files in os.walk(d):  # the data may be read-only
            for x in dirs + files:
                os.chmod(os.path.join(root, x), 0o755 if x in dirs else 0o644)
        os.chmod(d, 0o755)
        os.makedirs(os.path.join(d, "out"), exist_ok=True)
        try:
            CASES[name](os.path.abspath(exe), d)
        except Failure as e:
            print(f"FAIL {name}: {e}")
            sys.exit(1)


if __name__ == "__main__":
    main()
