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
            rep, _, _ = check_util.compile_and_compare(CHECKS, name, prec, src, xin, a, WORK, TOL[prec], PROTO_DIR, Model_pb2)
            if rep and prec == "fp32":
                check(all(o.get("unit") != "ANE" for o in rep["ops"]), f"{name} fp32: no op predicted on the Neural Engine")
    CHECKS.exit()


if __name__ == "__main__":
    main()
