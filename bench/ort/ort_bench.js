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

const { readNpy, writeNpy } = require('./npy.js');

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
    writeNpy(outPath, 'float32', y.dims, y.data);
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
