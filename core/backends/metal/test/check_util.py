"""What the Metal backend's CLI checks share: a check list and running edgecompile."""
import subprocess


class Checks:
    def __init__(self, edgecompile):
        self.edgecompile = edgecompile
        self.fails = []

    def check(self, cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            self.fails.append(what)

    def run(self, *args, timeout=900):
        r = subprocess.run([self.edgecompile, *args], capture_output=True, text=True, timeout=timeout)
        return r.returncode, r.stdout, r.stderr

    def exit(self):
        print(f"{len(self.fails)} failure(s)")
        raise SystemExit(1 if self.fails else 0)


def compile_and_compare(checks, name, prec, src, xin, ref, work, tol, proto_dir, model_pb2, what="the source model",
                        target=None):
    """`edgecompile compile SRC --target metal --precision PREC [--deployment-target TARGET]`, the package decoded by protoc and
    checked by the independent reader, run with `edgecompile run` and compared with `ref` (an
    array): max|diff| <= tol x max|ref|. Prints the figures; returns (report, Model, error) with
    None for what did not get that far."""
    import json
    import os

    import numpy as np

    import coreml_reader

    check, run = checks.check, checks.run
    if target:  # a deployment target other than the default
        name, extra = f"{name}_{target}", ["--deployment-target", target]
    else:
        extra = []
    pkg = os.path.join(work, f"{name}_{prec}.mlpackage")
    rc, out, err = run("compile", src, "--target", "metal", "--precision", prec, "--output", pkg, "--json", *extra)
    check(rc == 0, f"{name} {prec}: compile (rc {rc}) {err.strip()[:300]}")
    if rc:
        return None, None, None
    rep = json.loads(out)
    units = {u: sum(1 for o in rep["ops"] if o.get("unit") == u) for u in ("ANE", "GPU", "CPU")}
    print(f"     {name} {prec}: {len(rep['ops'])} ops, predicted units {units}, estimate "
          f"{rep['estimate']['latency_ms']:.3f} ms ({rep['estimate']['model'][:40]}...)")
    drc, text = coreml_reader.decode_with_protoc(proto_dir, os.path.join(pkg, "Data/com.apple.CoreML/model.mlmodel"))
    check(drc == 0 and "mlProgram" in text, f"{name} {prec}: protoc --decode=CoreML.Specification.Model")
    model = None
    try:
        model, st = coreml_reader.check_package(pkg, model_pb2)
        print(f"     {name} {prec}: {st['ops']} MIL ops, {st['blobs']} weight.bin blobs, {st['inline']} inline values")
        check(st["blobs"] > 0, f"{name} {prec}: independent reader: package well formed")
    except AssertionError as e:
        check(False, f"{name} {prec}: independent reader: {e}")
    got = os.path.join(work, f"{name}_{prec}_out")
    rc, _, err = run("run", pkg, "--input", "input=" + xin, "--output-dir", got)
    check(rc == 0, f"{name} {prec}: the package runs on the CPU runtime ({err.strip()[:300]})")
    if rc:
        return rep, model, None
    b = np.load(os.path.join(got, "output.npy"))
    e = float(np.abs(ref - b).max() / np.abs(ref).max()) if ref.shape == b.shape else float("inf")
    print(f"     {name} {prec}: max|diff| / max|output| = {e:.3g} (tolerance {tol}; shapes {ref.shape} {b.shape})")
    check(e <= tol, f"{name} {prec}: equals {what}")
    return rep, model, e
