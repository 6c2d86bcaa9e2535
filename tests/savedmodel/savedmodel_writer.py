"""Writes real TensorFlow SavedModel folders without TensorFlow (none exists on Debian).

The layout is TensorFlow's published one:
  saved_model.pb                           SavedModel proto (tensorflow/core/protobuf/saved_model.proto)
  variables/variables.index                SSTable (LevelDB table format, TensorFlow's
                                           tensorflow/core/lib/io/table_builder.cc): key "" holds
                                           a BundleHeaderProto, every other key a BundleEntryProto
                                           (tensorflow/core/protobuf/tensor_bundle.proto)
  variables/variables.data-00000-of-00001  the tensors' bytes (tensorflow/core/util/tensor_bundle/
                                           tensor_bundle.cc: numeric tensors raw little-endian,
                                           string tensors as varint lengths, a masked CRC-32C of
                                           the lengths, then the bytes)

The messages come from the project's own .proto subset (core/frontends/savedmodel/proto/ec_tf:
TensorFlow's field numbers, package ec_tf; the bytes are the same as TensorFlow's),
compiled here with Debian's protoc --python_out into a temporary folder.
"""
import glob
import importlib
import os
import struct
import subprocess
import sys
import atexit
import shutil
import tempfile

import numpy as np

pb = None  # namespace of the generated modules, set by load_protos()


class _Modules:
    pass


def load_protos(proto_dir):
    """Compiles the project's .proto files for Python and imports them (once)."""
    global pb
    if pb is not None:
        return pb
    out = tempfile.mkdtemp(prefix="ec-savedmodel-pb2-")
    atexit.register(shutil.rmtree, out, True)  # no scratch left in /tmp
    files = sorted(glob.glob(os.path.join(proto_dir, "ec_tf", "*.proto")))
    subprocess.run(["protoc", f"--python_out={out}", f"-I{proto_dir}"] + files, check=True)
    sys.path.insert(0, out)
    pb = _Modules()
    for f in files:
        name = os.path.basename(f)[:-len(".proto")]
        setattr(pb, name, importlib.import_module(f"ec_tf.{name}_pb2"))
    return pb


# ---------------------------------------------------------------- CRC-32C, varints

_CRC_TABLE = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC_TABLE.append(_c)


def crc32c(data, crc=0):
    crc ^= 0xFFFFFFFF
    for b in data:
        crc = _CRC_TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def mask(crc):
    """LevelDB's masked CRC (util/crc32c.h), used by tables and tensor bundles."""
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


# ---------------------------------------------------------------- SSTable

TABLE_MAGIC = 0xDB4775248B80FB57


def _block(entries, restart_interval=16):
    """One block: prefix-compressed entries, restart offsets, their count (block_builder.cc)."""
    buf, restarts, last = bytearray(), [], b""
    for i, (k, v) in enumerate(entries):
        shared = 0
        if i % restart_interval == 0:
            restarts.append(len(buf))
        else:
            while shared < min(len(k), len(last)) and k[shared] == last[shared]:
                shared += 1
        buf += varint(shared) + varint(len(k) - shared) + varint(len(v)) + k[shared:] + v
        last = k
    if not restarts:
        restarts = [0]
    for r in restarts:
        buf += struct.pack("<I", r)
    buf += struct.pack("<I", len(restarts))
    return bytes(buf)


def sstable(items, block_size=4096):
    """The bytes of a table of sorted (key, value) byte pairs (table_builder.cc, format.cc):
    data blocks, an empty metaindex block, an index block (last key of each data block ->
    its handle), each block followed by its compression type (0, none) and masked CRC-32C;
    then a 48-byte footer: two handles padded to 40 bytes, then the magic number."""
    out = bytearray()

    def put_block(contents):
        offset = len(out)
        trailer = bytes([0])
        out.extend(contents + trailer + struct.pack("<I", mask(crc32c(contents + trailer))))
        return varint(offset) + varint(len(contents))

    items = sorted(items)
    index, cur, size = [], [], 0
    for k, v in items:
        cur.append((k, v))
        size += len(k) + len(v)
        if size >= block_size:
            index.append((cur[-1][0], put_block(_block(cur))))
            cur, size = [], 0
    if cur:
        index.append((cur[-1][0], put_block(_block(cur))))
    meta = put_block(_block([]))
    idx = put_block(_block(index, restart_interval=1))
    footer = (meta + idx).ljust(40, b"\0") + struct.pack("<Q", TABLE_MAGIC)
    return bytes(out) + footer


# ---------------------------------------------------------------- tensor bundles

DT = {np.dtype(np.float32): 1, np.dtype(np.float64): 2, np.dtype(np.int32): 3, np.dtype(np.uint8): 4,
      np.dtype(np.int64): 9, np.dtype(np.bool_): 10}


def shape_proto(shape):
    s = pb.tensor_shape.TensorShapeProto()
    for d in shape:
        s.dim.add().size = int(d)
    return s


def write_bundle(prefix, tensors, entry_hook=None):
    """Writes PREFIX.index and PREFIX.data-00000-of-00001. `tensors`: key -> numpy array, or
    bytes for a scalar DT_STRING. `entry_hook(key, entry)` may alter an entry (bad-input tests)."""
    data = bytearray()
    items = []
    header = pb.tensor_bundle.BundleHeaderProto(num_shards=1, endianness=0)
    header.version.producer = 1  # kTensorBundleVersion
    items.append((b"", header.SerializeToString()))
    for key in sorted(tensors):
        v = tensors[key]
        e = pb.tensor_bundle.BundleEntryProto()
        e.shard_id = 0
        e.offset = len(data)
        if isinstance(v, bytes):  # WriteStringTensor: lengths, their checksum, the bytes
            e.dtype = 7
            lengths = varint(len(v))
            crc = crc32c(struct.pack("<I", len(v)))
            length_ck = struct.pack("<I", mask(crc))
            crc = crc32c(v, crc32c(length_ck, crc))
            raw = lengths + length_ck + v
        else:
            a = np.ascontiguousarray(v)
            e.dtype = DT[a.dtype]
            e.shape.CopyFrom(shape_proto(a.shape))
            raw = a.astype(a.dtype.newbyteorder("<")).tobytes()
            crc = crc32c(raw)
        e.size = len(raw)
        e.crc32c = mask(crc)
        if entry_hook:
            entry_hook(key, e)
        data += raw
        items.append((key.encode(), e.SerializeToString()))
    os.makedirs(os.path.dirname(prefix), exist_ok=True)
    with open(prefix + ".data-00000-of-00001", "wb") as f:
        f.write(bytes(data))
    with open(prefix + ".index", "wb") as f:
        f.write(sstable(items))


# ---------------------------------------------------------------- graph helpers

def attr_type(t):
    return pb.attr_value.AttrValue(type=t)


def attr_ints(v):
    a = pb.attr_value.AttrValue()
    a.list.i.extend(int(x) for x in v)
    return a


def attr_shape(shape):
    return pb.attr_value.AttrValue(shape=shape_proto(shape))


def attr_func(name):
    a = pb.attr_value.AttrValue()
    a.func.name = name
    return a


def tensor_proto(arr):
    """A Const value: tensor_content for arrays, typed value fields for scalars (as TensorFlow does)."""
    a = np.asarray(arr)
    t = pb.tensor.TensorProto(dtype=DT[a.dtype])
    t.tensor_shape.CopyFrom(shape_proto(a.shape))
    if a.ndim == 0:
        if a.dtype == np.float32:
            t.float_val.append(float(a))
        elif a.dtype == np.int32:
            t.int_val.append(int(a))
        elif a.dtype == np.int64:
            t.int64_val.append(int(a))
    else:
        t.tensor_content = a.astype(a.dtype.newbyteorder("<")).tobytes()
    return t


def node(nodes, name, op, inputs=(), **attrs):
    n = nodes.add()
    n.name = name
    n.op = op
    n.input.extend(inputs)
    for k, v in attrs.items():
        n.attr[k].CopyFrom(v)
    return n


def const_node(nodes, name, arr):
    a = np.asarray(arr)
    return node(nodes, name, "Const", dtype=attr_type(DT[a.dtype]),
                value=pb.attr_value.AttrValue(tensor=tensor_proto(a)))
