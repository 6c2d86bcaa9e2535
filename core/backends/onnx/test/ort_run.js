// Runs an .onnx file on ONNX Runtime (npm onnxruntime-node, pinned by
// bench/ort/package-lock.json) and writes every output as OUT_DIR/<i>.npy (float32,
// int64 or int8 as produced), plus OUT_DIR/outputs.json with the output names in order.
//
// usage: node ort_run.js MODEL OUT_DIR [--no-optimize] NAME=FILE.npy...
//   --no-optimize: ORT's graph optimisations off (QDQ pairs run as written).
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const NPY_TYPES = {
  f4: ['float32', Float32Array], i1: ['int8', Int8Array], u1: ['uint8', Uint8Array],
  i4: ['int32', Int32Array], i8: ['int64', BigInt64Array],
};
const DESCR = { float32: '<f4', int8: '|i1', uint8: '|u1', int32: '<i4', int64: '<i8' };

function readNpy(file) {
  const b = fs.readFileSync(file);
  const major = b[6];
  const hlen = major === 1 ? b.readUInt16LE(8) : b.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = b.toString('latin1', start, start + hlen);
  const m = header.match(/'descr':\s*'([<>|=]?)([a-z]\d+)'/);
  const entry = m ? NPY_TYPES[m[2]] : undefined;
  if (!entry) throw new Error(`${file}: unsupported dtype`);
  const shape = header.match(/'shape':\s*\(([^)]*)\)/)[1].split(',').map(s => s.trim()).filter(Boolean).map(Number);
  const off = start + hlen;
  const bytes = b.buffer.slice(b.byteOffset + off, b.byteOffset + b.length);
  return new ort.Tensor(entry[0], new entry[1](bytes), shape);
}

function writeNpy(file, t) {
  const descr = DESCR[t.type];
  if (!descr) throw new Error(`output of type ${t.type} is not written`);
  const dims = t.dims;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${dims.join(', ')}${dims.length === 1 ? ',' : ''}), }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1; head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  const data = Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  fs.writeFileSync(file, Buffer.concat([head, Buffer.from(header, 'latin1'), data]));
}

async function main() {
  const args = process.argv.slice(2);
  const model = args.shift(), outDir = args.shift();
  let optimize = true;
  const feeds = {};
  for (const a of args) {
    if (a === '--no-optimize') { optimize = false; continue; }
    const eq = a.indexOf('=');
    feeds[a.slice(0, eq)] = readNpy(a.slice(eq + 1));
  }
  const session = await ort.InferenceSession.create(model, {
    graphOptimizationLevel: optimize ? 'all' : 'disabled', intraOpNumThreads: 1, executionMode: 'sequential',
  });
  const results = await session.run(feeds);
  fs.mkdirSync(outDir, { recursive: true });
  session.outputNames.forEach((name, i) => writeNpy(path.join(outDir, `${i}.npy`), results[name]));
  fs.writeFileSync(path.join(outDir, 'outputs.json'), JSON.stringify(session.outputNames));
}

main().catch(e => { console.error(String(e.message || e).split('\n')[0]); process.exit(1); });
