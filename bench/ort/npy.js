// Minimal .npy reader and writer (v1/v2/v3 headers, little-endian, C order) shared by
// the ONNX Runtime runners: bench/ort/ort_bench.js (the speed peer) and
// core/backends/onnx/test/ort_run.js (the export round trip's reference).
'use strict';
const fs = require('fs');

// .npy dtype code (without byte order) -> [ORT tensor type, typed array]. ORT takes bool as Uint8Array.
const NPY_TYPES = {
  f4: ['float32', Float32Array], f8: ['float64', Float64Array], f2: ['float16', Uint16Array],
  i1: ['int8', Int8Array], i2: ['int16', Int16Array], i4: ['int32', Int32Array], i8: ['int64', BigInt64Array],
  u1: ['uint8', Uint8Array], u2: ['uint16', Uint16Array], u4: ['uint32', Uint32Array], u8: ['uint64', BigUint64Array],
  b1: ['bool', Uint8Array],
};
// ORT tensor type -> .npy descr.
const DESCR = Object.fromEntries(Object.entries(NPY_TYPES).map(([code, [type]]) =>
  [type, (code[1] === '1' ? '|' : '<') + code]));

/// {type, shape, data}: type is ORT's tensor type name, data a typed array (an aligned copy).
function readNpy(path) {
  const b = fs.readFileSync(path);
  const major = b[6];
  const hlen = major === 1 ? b.readUInt16LE(8) : b.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = b.toString('latin1', start, start + hlen);
  const m = header.match(/'descr':\s*'([<>|=]?)([a-z]\d+)'/);
  const entry = m && m[1] !== '>' ? NPY_TYPES[m[2]] : undefined;
  if (!entry || header.includes("'fortran_order': True"))
    throw new Error(`${path}: only little-endian C-order arrays of ${Object.keys(NPY_TYPES).join(' ')} are supported`);
  const [type, Arr] = entry;
  const shape = header.match(/'shape':\s*\(([^)]*)\)/)[1].split(',').map(s => s.trim()).filter(Boolean).map(Number);
  const off = start + hlen;
  const bytes = b.buffer.slice(b.byteOffset + off, b.byteOffset + b.length);
  return { type, shape, data: new Arr(bytes) };
}

/// Writes `data` (a typed array of ORT tensor type `type`) of shape `dims`, atomically.
function writeNpy(path, type, dims, data) {
  const descr = DESCR[type];
  if (!descr) throw new Error(`${path}: tensors of type ${type} are not written`);
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${dims.join(', ')}${dims.length === 1 ? ',' : ''}), }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1; head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  fs.writeFileSync(path + '.tmp', Buffer.concat([head, Buffer.from(header, 'latin1'), body]));
  fs.renameSync(path + '.tmp', path);
}

module.exports = { NPY_TYPES, readNpy, writeNpy };
