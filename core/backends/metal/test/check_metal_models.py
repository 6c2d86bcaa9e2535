#!/usr/bin/env python3
"""mobilenet_v2, resnet18 and the transformer encoder (and efficientnet_b0, shufflenet_v2; exported by
tests/models/export_models.py) compiled with `edgecompile compile --target metal`
at fp16 and fp32; each package decoded by protoc and checked by the independent
reader (coreml_reader.py: names, outputs, opset/spec, weight.bin blob by blob),
read back by the Core ML frontend and run on the CPU runtime against the source
model run on the same runtime: max|diff| <= 1e-2 x max|output| at fp16 and
1e-5 x max|output| at fp32. Prints each figure and the compute-unit counts.

usage: check_metal_models.py EDGECOMPILE PROTO_DIR MODELS_DIR WORK_DIR
"""
import json
import os
import shutil
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_util  # noqa: E402
import coreml_reader  # noqa: E402

EC, PROTO_DIR, MODELS, WORK = sys.argv[1:5]
INPUTS = {"mobilenet_v2": (1, 3, 224, 224), "resnet18": (1, 3, 224, 224), "transformer": (1, 16, 64),
          # exported beside them (tests/models/export_models.py EXTRA_NAMES): SiLU, channel shuffle
          "efficientnet_b0": (1, 3, 224, 224), "shufflenet_v2_x1_0": (1, 3, 224, 224)}
TOL = {"fp16": 1e-2, "fp32": 1e-5}


CHECKS = check_util.Checks(EC)
check, run = CHECKS.check, CHECKS.run


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    Model_pb2 = coreml_reader.load_protos(PROTO_DIR, os.path.join(WORK, "py"))
    for name, shape in INPUTS.items():
        src = os.path.join(MODELS, name + ".onnx")
        x = np.random.default_rng(7).standard_normal(shape).astype(np.float32)
        xin = os.path.join(WORK, name + "_input.npy")
        np.save(xin, x)
        ref = os.path.join(WORK, name + "_ref")
        rc, _, err = run("run", src, "--input", "input=" + xin, "--output-dir", ref)
        check(rc == 0, f"{name}: source model runs ({err.strip()[:200]})")
        a = np.load(os.path.join(ref, "output.npy"))
        for prec in ("fp16", "fp32"):
            pkg = os.path.join(WORK, f"{name}_{prec}.mlpackage")
            rc, out, err = run("compile", src, "--target", "metal", "--precision", prec, "--output", pkg, "--json")
            check(rc == 0, f"{name} {prec}: compile (rc {rc}) {err.strip()[:300]}")
            if rc:
                continue
            rep = json.loads(out)
            units = {u: sum(1 for o in rep["ops"] if o.get("unit") == u) for u in ("ANE", "GPU", "CPU")}
            print(f"     {name} {prec}: {len(rep['ops'])} ops, predicted units {units}, estimate "
                  f"{rep['estimate']['latency_ms']:.3f} ms ({rep['estimate']['model'][:40]}...)")
            if prec == "fp32":
                check(units["ANE"] == 0, f"{name} fp32: no op predicted on the Neural Engine")
            drc, text = coreml_reader.decode_with_protoc(PROTO_DIR, os.path.join(pkg, "Data/com.apple.CoreML/model.mlmodel"))
            check(drc == 0 and "mlProgram" in text, f"{name} {prec}: protoc --decode=CoreML.Specification.Model")
            try:
                _, st = coreml_reader.check_package(pkg, Model_pb2)
                print(f"     {name} {prec}: {st['ops']} MIL ops, {st['blobs']} weight.bin blobs, {st['inline']} inline values")
                check(st["blobs"] > 0, f"{name} {prec}: independent reader: package well formed")
            except AssertionError as e:
                check(False, f"{name} {prec}: independent reader: {e}")
            got = os.path.join(WORK, f"{name}_{prec}_out")
            rc, _, err = run("run", pkg, "--input", "input=" + xin, "--output-dir", got)
            check(rc == 0, f"{name} {prec}: the package runs on the CPU runtime ({err.strip()[:200]})")
            if rc:
                continue
            b = np.load(os.path.join(got, "output.npy"))
            e = float(np.abs(a - b).max() / np.abs(a).max()) if a.shape == b.shape else float("inf")
            print(f"     {name} {prec}: max|diff| / max|output| = {e:.3g} (tolerance {TOL[prec]})")
            check(e <= TOL[prec], f"{name} {prec}: equals the source model")
    CHECKS.exit()


if __name__ == "__main__":
    main()
