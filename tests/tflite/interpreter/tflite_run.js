// Runs a .tflite model on a real TensorFlow Lite interpreter: tfjs-tflite's
// WebAssembly build of TFLite (XNNPACK delegate applied, 1 thread), loaded
// straight from node_modules (its JavaScript loader is browser-only).
//
//   node tflite_run.js MODEL.tflite --output-dir DIR [--input NAME=x.npy ...]
//   node tflite_run.js --batch JOBS.json      (many models in one process; see batch())
//
// Inputs are matched by tensor name (or by position when a name is "#0", "#1").
// Writes DIR/output_<i>.npy per output and DIR/outputs.json with their names,
// dtypes and shapes. Exit 1 with one line on stderr when anything fails.
'use strict';
const fs = require('fs');
const path = require('path');

const dir = path.join(__dirname, 'node_modules/@tensorflow/tfjs-tflite/wasm');

const NPY_TYPES = { '<f4': Float32Array, '<f8': Float64Array, '|u1': Uint8Array, '|i1': Int8Array, '|b1': Uint8Array, '<i2': Int16Array,
                    '<i4': Int32Array, '<u4': Uint32Array, '<i8': BigInt64Array };
const TYPE_DESCR = { float32: '<f4', float64: '<f8', uint8: '|u1', int8: '|i1', bool: '|b1', int16: '<i2', int32: '<i4', uint32: '<u4',
                     int64: '<i8' };

function readNpy(file) {
  const b = fs.readFileSync(file);
  if (b.toString('latin1', 1, 6) !== 'NUMPY') throw new Error(`${file}: not a .npy file`);
  const major = b[6];
  const hlen = major === 1 ? b.readUInt16LE(8) : b.readUInt32LE(8);
  const off = (major === 1 ? 10 : 12) + hlen;
  const header = b.toString('latin1', major === 1 ? 10 : 12, off);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error(`${file}: Fortran order is not supported`);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').filter((s) => s.trim()).map(Number);
  const T = NPY_TYPES[descr];
  if (!T) throw new Error(`${file}: dtype ${descr} is not supported`);
  const data = new T(b.buffer.slice(b.byteOffset + off, b.byteOffset + b.length));
  return { descr, shape, data };
}

function writeNpy(file, descr, shape, data) {
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const h = Buffer.alloc(10);
  h.write('\x93NUMPY', 0, 'latin1');
  h[6] = 1; h[7] = 0;
  h.writeUInt16LE(header.length, 8);
  fs.writeFileSync(file, Buffer.concat([h, Buffer.from(header, 'latin1'), Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

// Loads the WebAssembly module; printErr lines are kept in `log` (and echoed under EC_DEBUG).
async function loadModule(log) {
  const factory = require(path.join(dir, 'tflite_web_api_cc.js'));
  return factory({ locateFile: (p) => path.join(dir, p), wasmBinary: fs.readFileSync(path.join(dir, 'tflite_web_api_cc.wasm')),
                   print: () => {},
                   printErr: (s) => { log.push(String(s)); if (log.length > 20) log.shift(); if (process.env.EC_DEBUG) console.error(s); } });
}

// Runs one model: inputs is a list of [name, file.npy]; writes outDir/output_<i>.npy and
// outDir/outputs.json and returns the manifest. int64 .npy data feeds an int32 input
// (the writer makes int64 model inputs int32) when every value fits.
function runModel(M, modelFile, inputs, outDir) {
  const model = fs.readFileSync(modelFile);
  const ptr = M._malloc(model.length);
  M.HEAPU8.set(model, ptr);
  let runner = null;
  try {
    const r = M.TFLiteWebModelRunner.CreateFromBufferAndOptions(ptr, model.length, { numThreads: 1, enableProfiling: false, maxProfilingBufferEntries: 1024 });
    if (!r.ok()) throw new Error(`${modelFile}: the interpreter refused the model: ${r.errorMessage()}`);
    runner = r.value();
    const ins = runner.GetInputs();
    const byName = new Map();
    for (let i = 0; i < ins.size(); ++i) { const t = ins.get(i); byName.set(t.name, t); byName.set(`#${i}`, t); }
    for (const [name, file] of inputs) {
      const t = byName.get(name);
      if (!t) throw new Error(`input '${name}' is not an input of ${modelFile} (inputs: ${[...byName.keys()].filter((k) => !k.startsWith('#')).join(', ')})`);
      const a = readNpy(file);
      let data = a.data;
      if (a.descr === '<i8' && t.dataType === 'int32') {
        data = Int32Array.from(a.data, (v) => {
          if (v > 2147483647n || v < -2147483648n) throw new Error(`input '${name}': ${v} does not fit the file's int32 input`);
          return Number(v);
        });
      } else if (TYPE_DESCR[t.dataType] !== a.descr) {
        throw new Error(`input '${name}' is ${t.dataType}, ${file} holds ${a.descr}`);
      }
      const dst = t.data();
      if (dst.length !== data.length) throw new Error(`input '${name}' has ${dst.length} elements (${t.shape}), ${file} holds ${data.length}`);
      dst.set(data);
    }
    if (!runner.Infer()) throw new Error(`${modelFile}: the interpreter failed to run it`);
    const outs = runner.GetOutputs();
    fs.mkdirSync(outDir, { recursive: true });
    const manifest = [];
    for (let i = 0; i < outs.size(); ++i) {
      const t = outs.get(i);
      const shape = t.shape ? String(t.shape).split(',').filter((s) => s !== '').map(Number) : [];
      const descr = TYPE_DESCR[t.dataType];
      if (!descr) throw new Error(`output '${t.name}' has type ${t.dataType}, which this runner cannot write`);
      const raw = t.data();
      const data = ArrayBuffer.isView(raw) ? raw.slice() : raw;
      writeNpy(path.join(outDir, `output_${i}.npy`), descr, shape, data);
      manifest.push({ name: t.name, dtype: t.dataType, shape, file: `output_${i}.npy` });
    }
    fs.writeFileSync(path.join(outDir, 'outputs.json'), JSON.stringify(manifest, null, 1));
    return manifest;
  } finally {
    if (runner && runner.delete) runner.delete();
    M._free(ptr);
  }
}

// Batch mode: JOBS.json is a list of {model, outputDir, inputs: [[name, file.npy], ...]}.
// One JSON line per job on stdout: {job, ok, error?, outputs?}. After a failure the module
// is instantiated afresh (a trap may leave it unusable).
async function batch(jobsFile) {
  const jobs = JSON.parse(fs.readFileSync(jobsFile, 'utf8'));
  const log = [];
  let M = await loadModule(log);
  for (let i = 0; i < jobs.length; ++i) {
    const j = jobs[i];
    log.length = 0;
    let line;
    try {
      line = { job: i, ok: true, outputs: runModel(M, j.model, j.inputs, j.outputDir) };
    } catch (e) {
      const detail = log.filter((s) => s.trim()).slice(-3).join(' | ');
      line = { job: i, ok: false, error: String(e.message || e) + (detail ? ` [interpreter: ${detail}]` : '') };
      M = await loadModule(log);
    }
    fs.writeSync(1, JSON.stringify(line) + '\n');
  }
}

async function main(argv) {
  if (argv[0] === '--batch') return batch(argv[1]);
  const args = { inputs: [], outDir: null, model: null };
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--input') args.inputs.push(argv[++i]);
    else if (argv[i] === '--output-dir') args.outDir = argv[++i];
    else if (!args.model) args.model = argv[i];
    else throw new Error(`unexpected argument ${argv[i]}`);
  }
  if (!args.model || !args.outDir) throw new Error('usage: node tflite_run.js MODEL.tflite --output-dir DIR [--input NAME=x.npy ...] | --batch JOBS.json');
  const M = await loadModule([]);
  const inputs = args.inputs.map((spec) => { const eq = spec.indexOf('='); return [spec.slice(0, eq), spec.slice(eq + 1)]; });
  runModel(M, args.model, inputs, args.outDir);
}

main(process.argv.slice(2)).then(() => process.exit(0)).catch((e) => { console.error(String(e.message || e)); process.exit(1); });
