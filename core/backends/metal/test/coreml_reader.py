"""An independent reader of the Core ML package format for the tests: the
project's .proto files compiled by protoc for Python (not the C++ code that
wrote the package), and weight.bin parsed here from the published byte layout
(coremltools MILBlob StorageFormat.hpp: 64-byte header, 64-byte blob metadata
with sentinel 0xDEADBEEF, every record 64-byte aligned)."""
import importlib
import json
import os
import struct
import subprocess
import sys

SPEC_OPSET = {6: "CoreML5", 7: "CoreML6", 8: "CoreML7", 9: "CoreML8"}
# MIL DataType -> (blob dtype code, bytes per element)
BLOB = {10: (1, 2), 11: (2, 4), 31: (3, 1), 21: (4, 1), 23: (14, 4)}


def load_protos(proto_dir, out_dir):
    """Compiles the project's .proto files for Python with protoc; returns Model_pb2."""
    proto_dir, out_dir = os.path.abspath(proto_dir), os.path.abspath(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    files = [f for f in os.listdir(proto_dir) if f.endswith(".proto")]
    subprocess.run(["protoc", f"--python_out={out_dir}", f"-I{proto_dir}"] + files, check=True, cwd=proto_dir)
    if out_dir not in sys.path:
        sys.path.insert(0, out_dir)
    return importlib.import_module("Model_pb2")


def decode_with_protoc(proto_dir, model_file):
    """`protoc --decode=CoreML.Specification.Model` of the model file: (rc, text)."""
    with open(model_file, "rb") as f:
        r = subprocess.run(["protoc", "--decode=CoreML.Specification.Model", f"-I{proto_dir}",
                            os.path.join(proto_dir, "Model.proto")], stdin=f, capture_output=True)
    return r.returncode, r.stdout.decode(errors="replace") + r.stderr.decode(errors="replace")


def read_blobs(path):
    """Every blob of weight.bin: {metadata_offset: (dtype_code, size, data_offset)}; asserts the layout."""
    data = open(path, "rb").read()
    assert len(data) >= 64, "weight.bin shorter than its header"
    count, version = struct.unpack_from("<II", data, 0)
    assert version == 2, f"storage version {version}"
    assert struct.unpack_from("<7Q", data, 8) == (0,) * 7, "header reserved fields not zero"
    blobs, at = {}, 64
    for _ in range(count):
        assert at % 64 == 0, f"blob metadata at {at} not 64-aligned"
        sentinel, code, size, off, pad = struct.unpack_from("<IIQQQ", data, at)
        assert sentinel == 0xDEADBEEF, f"sentinel at {at}: {sentinel:#x}"
        assert off == at + 64 and off % 64 == 0, f"data offset {off} for metadata at {at}"
        assert off + size <= len(data), f"blob at {at} runs past the end"
        assert struct.unpack_from("<4Q", data, at + 32) == (0,) * 4, f"reserved fields of blob at {at}"
        assert pad == 0
        blobs[at] = (code, size, off)
        at = (off + size + 63) // 64 * 64
    assert at >= len(data) - 63, f"{len(data) - at} bytes after the last blob"
    return blobs


def check_package(pkg, Model_pb2):
    """Checks a .mlpackage: Manifest, model protobuf, names resolve, block outputs
    exist, opset agrees with the spec version, blob references resolve. Returns
    (model, stats)."""
    man = json.load(open(os.path.join(pkg, "Manifest.json")))
    assert man["fileFormatVersion"] == "1.0.0"
    entries = man["itemInfoEntries"]
    root = entries[man["rootModelIdentifier"]]
    for e in entries.values():
        assert set(e) == {"author", "description", "name", "path"}, e
        assert os.path.exists(os.path.join(pkg, "Data", e["path"])), e["path"]
    m = Model_pb2.Model()
    m.ParseFromString(open(os.path.join(pkg, "Data", root["path"]), "rb").read())
    assert m.WhichOneof("Type") == "mlProgram"
    fn = m.mlProgram.functions["main"]
    assert SPEC_OPSET[m.specificationVersion] == fn.opset, (m.specificationVersion, fn.opset)
    block = fn.block_specializations[fn.opset]
    blobs = read_blobs(os.path.join(pkg, "Data", "com.apple.CoreML", "weights", "weight.bin"))
    defined = {i.name for i in fn.inputs}
    assert [i.name for i in m.description.input] == [i.name for i in fn.inputs]
    used_blobs, n_blob, n_inline = set(), 0, 0
    for op in block.operations:
        name = op.attributes["name"].immediateValue.tensor.strings.values[0]
        assert op.outputs[0].name == name, (name, op.outputs[0].name)
        for arg, a in op.inputs.items():
            for b in a.arguments:
                assert b.WhichOneof("binding") == "name", f"{name}.{arg}: inline binding"
                assert b.name in defined, f"{name}.{arg} names undefined {b.name}"
        values = [v for k, v in op.attributes.items() if k != "name"]
        for v in values:
            tt = v.type.tensorType
            n = 1
            for d in tt.dimensions:
                n *= d.constant.size
            if v.WhichOneof("value") == "blobFileValue":
                assert v.blobFileValue.fileName == "@model_path/weights/weight.bin"
                off = v.blobFileValue.offset
                assert off in blobs, f"{name}: blob offset {off} is not a blob"
                code, size, _ = blobs[off]
                assert (code, size) == (BLOB[tt.dataType][0], n * BLOB[tt.dataType][1]), (name, code, size, n)
                assert n >= 10
                used_blobs.add(off)
                n_blob += 1
            else:
                if tt.dataType in (10, 11, 21, 31):
                    assert n < 10, f"{name}: {n} elements inline"
                n_inline += 1
        for o in op.outputs:
            assert o.name not in defined, f"{o.name} defined twice"
            defined.add(o.name)
    for o in block.outputs:
        assert o in defined, f"block output {o} undefined"
    assert [o.name for o in m.description.output] == list(block.outputs)
    assert used_blobs == set(blobs), "blobs nothing refers to"
    return m, {"ops": len(block.operations), "blobs": n_blob, "inline": n_inline}
