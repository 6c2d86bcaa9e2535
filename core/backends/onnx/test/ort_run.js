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

const { readNpy, writeNpy } = require('./npy.js');  // bench/ort/npy.js, copied beside this file

async function main() {
  const args = process.argv.slice(2);
  const model = args.shift(), outDir = args.shift();
  let optimize = true;
  const feeds = {};
  for (const a of args) {
    if (a === '--no-optimize') { optimize = false; continue; }
    const eq = a.indexOf('=');
    const x = readNpy(a.slice(eq + 1));
    feeds[a.slice(0, eq)] = new ort.Tensor(x.type, x.data, x.shape);
  }
  const session = await ort.InferenceSession.create(model, {
    graphOptimizationLevel: optimize ? 'all' : 'disabled', intraOpNumThreads: 1, executionMode: 'sequential',
  });
  const results = await session.run(feeds);
  fs.mkdirSync(outDir, { recursive: true });
  session.outputNames.forEach((name, i) => {
    const t = results[name];
    writeNpy(path.join(outDir, `${i}.npy`), t.type, t.dims, t.data);
  });
  fs.writeFileSync(path.join(outDir, 'outputs.json'), JSON.stringify(session.outputNames));
}

main().catch(e => { console.error(String(e.message || e).split('\n')[0]); process.exit(1); });
