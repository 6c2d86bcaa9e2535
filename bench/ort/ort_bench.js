// The peer of `edgecompile bench`: ONNX Runtime (CPU, sequential execution,
// the same thread count), timing the same model on the same input(s).
//
// usage: node ort_bench.js MODEL INPUT... ITERATIONS WARMUP THREADS [OUT.npy]
//   INPUT is FILE.npy (fed to the model's inputs in order) or NAME=FILE.npy
//   (fed to that input); the old one-input form `MODEL INPUT.npy ITERS WARMUP
//   THREADS [OUT.npy]` is the case of one INPUT.
//   --profile (anywhere): also time each run inside ONNX Runtime with its profiler and add
//   run_p50_ms (its "model_run" span: the session's run without the node binding) and
//   kernel_p50_ms (its kernels' spans summed per run). The binding costs tens of us per call
//   and copies every output into a new JS buffer (~0.25 ms per MB), which p50_ms includes.
// prints one JSON line {p50_ms, mean_ms, min_ms, iterations}; with OUT.npy,
// also writes the first output (float32 outputs; for correctness comparisons).
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

// .npy dtype code (without byte order) -> [ORT tensor type, typed array]. ORT takes bool as Uint8Array.
const NPY_TYPES = {
  f4: ['float32', Float32Array], f8: ['float64', Float64Array], f2: ['float16', Uint16Array],
  i1: ['int8', Int8Array], i2: ['int16', Int16Array], i4: ['int32', Int32Array], i8: ['int64', BigInt64Array],
  u1: ['uint8', Uint8Array], u2: ['uint16', Uint16Array], u4: ['uint32', Uint32Array], u8: ['uint64', BigUint64Array],
  b1: ['bool', Uint8Array],
};

// Minimal .npy (v1/v2/v3, little-endian, C order) reader and float32 writer.
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
  const bytes = b.buffer.slice(b.byteOffset + off, b.byteOffset + b.length);  // a copy: aligned
  return { type, shape, data: new Arr(bytes) };
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
  let args = process.argv.slice(2);
  const profile = args.includes('--profile');
  args = args.filter(a => a !== '--profile');
  const model = args.shift();
  const inputs = [];
  while (args.length && !/^\d+$/.test(args[0])) inputs.push(args.shift());
  const [iters, warm, threads, outPath] = args;
  if (!model || !inputs.length || threads === undefined)
    throw new Error('usage: node ort_bench.js MODEL INPUT.npy|NAME=INPUT.npy... ITERATIONS WARMUP THREADS [OUT.npy]');
  const n = Number(iters), w = Number(warm), t = Number(threads);
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: t, interOpNumThreads: 1, executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    ...(profile ? { enableProfiling: true, profileFilePrefix: profilePrefix } : {}),
  });
  const feeds = {};
  inputs.forEach((arg, i) => {
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : session.inputNames[i];
    if (name === undefined) throw new Error(`${arg}: the model has only ${session.inputNames.length} input(s)`);
    const x = readNpy(eq > 0 ? arg.slice(eq + 1) : arg);
    feeds[name] = new ort.Tensor(x.type, x.data, x.shape);
  });
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
  const result = { p50_ms: times[Math.floor(times.length / 2)], mean_ms: mean, min_ms: times[0], iterations: n };
  if (profile) Object.assign(result, profiledTimes(session, n));
  console.log(JSON.stringify(result));
}

const profilePrefix = require('path').join(require('os').tmpdir(), `ort_bench_${process.pid}`);

// The profiler's per-run spans of the last n runs (the timed ones): medians in ms.
function profiledTimes(session, n) {
  session.endProfiling();
  const dir = require('path').dirname(profilePrefix), base = require('path').basename(profilePrefix);
  const files = fs.readdirSync(dir).filter(f => f.startsWith(base + '_') && f.endsWith('.json'));
  if (files.length !== 1) throw new Error(`profile file ${profilePrefix}_*.json: found ${files.length}`);
  const file = require('path').join(dir, files[0]);
  const events = JSON.parse(fs.readFileSync(file, 'latin1'));
  fs.unlinkSync(file);
  const runs = events.filter(e => e.cat === 'Session' && e.name === 'model_run').sort((a, b) => a.ts - b.ts).slice(-n);
  const nodes = events.filter(e => e.cat === 'Node').sort((a, b) => a.ts - b.ts);
  const kernels = [];
  let j = 0;
  for (const r of runs) {
    let sum = 0;
    while (j < nodes.length && nodes[j].ts < r.ts) ++j;
    while (j < nodes.length && nodes[j].ts <= r.ts + r.dur) sum += nodes[j++].dur;
    kernels.push(sum);
  }
  const median = a => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)] / 1e3;
  return { run_p50_ms: median(runs.map(r => r.dur)), kernel_p50_ms: median(kernels) };
}

main().catch(e => { console.error(`ort_bench: ${e.message}`); process.exit(1); });
