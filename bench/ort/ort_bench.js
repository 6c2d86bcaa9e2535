// The peer of `edgecompile bench`: ONNX Runtime (CPU, sequential execution,
// the same thread count), timing the same model on the same input.
//
// usage: node ort_bench.js MODEL INPUT.npy ITERATIONS WARMUP THREADS [OUT.npy]
// prints one JSON line {p50_ms, mean_ms, min_ms, iterations}; with OUT.npy,
// also writes the first output (for correctness comparisons).
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

// Minimal .npy (v1/v2, little-endian f4 or i8, C order) reader and writer.
function readNpy(path) {
  const b = fs.readFileSync(path);
  const major = b[6];
  const hlen = major === 1 ? b.readUInt16LE(8) : b.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = b.toString('latin1', start, start + hlen);
  const type = header.includes("'<f4'") ? 'float32' : header.includes("'<i8'") ? 'int64' : null;
  if (!type || header.includes("'fortran_order': True"))
    throw new Error(`${path}: only little-endian float32 or int64 C-order arrays are supported`);
  const shape = header.match(/\(([^)]*)\)/)[1].split(',').map(s => s.trim()).filter(Boolean).map(Number);
  const off = start + hlen;
  const bytes = b.buffer.slice(b.byteOffset + off, b.byteOffset + b.length);
  const data = type === 'float32' ? new Float32Array(bytes) : new BigInt64Array(bytes);
  return { type, shape, data };
}

function writeNpy(path, dims, data) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${dims.join(', ')}${dims.length === 1 ? ',' : ''}), }`;
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

async function main() {
  const [model, inputPath, iters, warm, threads, outPath] = process.argv.slice(2);
  const n = Number(iters), w = Number(warm), t = Number(threads);
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: t, interOpNumThreads: 1, executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const x = readNpy(inputPath);
  const feeds = { [session.inputNames[0]]: new ort.Tensor(x.type, x.data, x.shape) };
  for (let i = 0; i < w; ++i) await session.run(feeds);
  const times = [];
  let out;
  for (let i = 0; i < n; ++i) {
    const t0 = process.hrtime.bigint();
    out = await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  if (outPath) {
    const y = out[session.outputNames[0]];
    writeNpy(outPath, y.dims, y.data);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  console.log(JSON.stringify({ p50_ms: times[Math.floor(times.length / 2)], mean_ms: mean,
                               min_ms: times[0], iterations: n }));
}

main().catch(e => { console.error(`ort_bench: ${e.message}`); process.exit(1); });
