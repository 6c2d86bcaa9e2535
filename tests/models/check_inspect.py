#!/usr/bin/env python3
"""Checks `edgecompile inspect --json --strict` on real PyTorch exports.

usage: check_inspect.py EDGECOMPILE MODELS_DIR

For each model exported by export_models.py: no unknown ops, a parameter count
equal to the element count that the onnx package finds in the file, the
dynamic batch dim reported by name, and MACs close to the architecture's
published figures (resnet18 1.82 GMACs, mobilenet_v2 0.30 GMACs at 224x224).
"""
import json
import subprocess
import sys

# Published multiply-accumulate counts (torchvision model docs / the papers), batch 1.
PUBLISHED_GMACS = {"resnet18": 1.814, "mobilenet_v2": 0.300}


def main():
    exe, models_dir = sys.argv[1], sys.argv[2]
    with open(f"{models_dir}/expected.json") as f:
        expected = json.load(f)
    passed = failed = 0

    def check(cond, what):
        nonlocal passed, failed
        if cond:
            passed += 1
        else:
            failed += 1
            print(f"FAIL: {what}")

    for name in ("mobilenet_v2", "resnet18", "transformer"):
        path = expected[name]["path"]
        proc = subprocess.run([exe, "inspect", "--json", "--strict", path],
                              capture_output=True, text=True, timeout=120)
        check(proc.returncode == 0, f"{name}: exit {proc.returncode}: {proc.stderr.strip()}")
        if proc.returncode != 0:
            continue
        report = json.loads(proc.stdout)
        params = report["parameters"]["count"]
        want = expected[name]["parameter_count"]
        print(f"{name}: {report['ops']['count']} ops, {params} parameters (onnx says {want}), "
              f"{report['compute']['macs'] / 1e9:.3f} GMACs")
        check(report["unknown_ops"] == {}, f"{name}: unknown ops {report['unknown_ops']}")
        check(params == want, f"{name}: parameter count {params} != {want}")
        check(report["ops"]["count"] > 0, f"{name}: no ops")
        check(report["inputs"][0]["shape"][0] == "batch",
              f"{name}: input shape {report['inputs'][0]['shape']} lacks the dynamic batch dim")
        check(report["model"]["producer"].startswith("pytorch"),
              f"{name}: producer {report['model']['producer']!r}")
        check(report["model"]["opset"].find("13") >= 0, f"{name}: opset {report['model']['opset']}")
        if name in PUBLISHED_GMACS:
            gmacs = report["compute"]["macs"] / 1e9
            ref = PUBLISHED_GMACS[name]
            check(abs(gmacs - ref) / ref < 0.03, f"{name}: {gmacs:.3f} GMACs, published {ref}")
        else:
            check(report["compute"]["macs"] > 0, f"{name}: no MACs estimated")
        # the dump is deterministic: two runs print the same text
        dumps = [subprocess.run([exe, "inspect", "--dump", path], capture_output=True,
                                text=True, timeout=120).stdout for _ in range(2)]
        check(dumps[0] == dumps[1] and len(dumps[0]) > 0, f"{name}: --dump is not deterministic")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
