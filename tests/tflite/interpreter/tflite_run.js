// Runs a .tflite model on a real TensorFlow Lite interpreter: tfjs-tflite's
// WebAssembly build of TFLite (XNNPACK delegate applied, 1 thread), loaded
// straight from node_modules (its JavaScript loader is browser-only).
//
//   node tflite_run.js MODEL.tflite --output-dir DIR [--input NAME=x.npy ...]
//
// Inputs are matched by tensor name (or by position when a name is "#0", "#1").
// Writes DIR/output_<i>.npy per output and DIR/outputs.json with their names,
// dtypes and shapes. Exit 1 with one line on stderr when anything fails.
'use strict';
const fs = require('fs');
const path = require('path');

const dir = path.join(__dirname, 'node_modules/@tensorflow/tfjs-tflite/wasm');

const NPY_TYPES = { '<f4': Float32Array, '|u1': Uint8Array, '|i1': Int8Array, '<i4': Int32Array, '<i8': BigInt64Array };
const TYPE_DESCR = { float32: '<f4', uint8: '|u1', int8: '|i1', int32: '<i4', int64: '<i8' };

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

async function main(argv) {
  const args = { inputs: [], outDir: null, model: null };
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--input') args.inputs.push(argv[++i]);
    else if (argv[i] === '--output-dir') args.outDir = argv[++i];
    else if (!args.model) args.model = argv[i];
    else throw new Error(`unexpected argument ${argv[i]}`);
  }
  if (!args.model || !args.outDir) throw new Error('usage: node tflite_run.js MODEL.tflite --output-dir DIR [--input NAME=x.npy ...]');
  const factory = require(path.join(dir, 'tflite_web_api_cc.js'));
  const M = await factory({ locateFile: (p) => path.join(dir, p), wasmBinary: fs.readFileSync(path.join(dir, 'tflite_web_api_cc.wasm')),
                            print: () => {}, printErr: process.env.EC_DEBUG ? console.error : () => {} });
  const model = fs.readFileSync(args.model);
  const ptr = M._malloc(model.length);
  M.HEAPU8.set(model, ptr);
  const r = M.TFLiteWebModelRunner.CreateFromBufferAndOptions(ptr, model.length, { numThreads: 1, enableProfiling: false, maxProfilingBufferEntries: 1024 });
  if (!r.ok()) throw new Error(`${args.model}: the interpreter refused the model: ${r.errorMessage()}`);
  const runner = r.value();
  const ins = runner.GetInputs();
  const byName = new Map();
  for (let i = 0; i < ins.size(); ++i) { const t = ins.get(i); byName.set(t.name, t); byName.set(`#${i}`, t); }
  for (const spec of args.inputs) {
    const eq = spec.indexOf('=');
    const name = spec.slice(0, eq), file = spec.slice(eq + 1);
    const t = byName.get(name);
    if (!t) throw new Error(`input '${name}' is not an input of ${args.model} (inputs: ${[...byName.keys()].filter((k) => !k.startsWith('#')).join(', ')})`);
    const a = readNpy(file);
    if (TYPE_DESCR[t.dataType] !== a.descr) throw new Error(`input '${name}' is ${t.dataType}, ${file} holds ${a.descr}`);
    const dst = t.data();
    if (dst.length !== a.data.length) throw new Error(`input '${name}' has ${dst.length} elements (${t.shape}), ${file} holds ${a.data.length}`);
    dst.set(a.data);
  }
  if (!runner.Infer()) throw new Error(`${args.model}: the interpreter failed to run it`);
  const outs = runner.GetOutputs();
  fs.mkdirSync(args.outDir, { recursive: true });
  const manifest = [];
  for (let i = 0; i < outs.size(); ++i) {
    const t = outs.get(i);
    const shape = t.shape ? String(t.shape).split(',').filter((s) => s !== '').map(Number) : [];
    const raw = t.data();
    if (process.env.EC_DEBUG) console.error(t.dataType, typeof raw, raw && raw.constructor && raw.constructor.name);
    const data = ArrayBuffer.isView(raw) ? raw.slice() : raw;
    const descr = TYPE_DESCR[t.dataType];
    if (!descr) throw new Error(`output '${t.name}' has type ${t.dataType}, which this runner cannot write`);
    writeNpy(path.join(args.outDir, `output_${i}.npy`), descr, shape, data);
    manifest.push({ name: t.name, dtype: t.dataType, shape, file: `output_${i}.npy` });
  }
  fs.writeFileSync(path.join(args.outDir, 'outputs.json'), JSON.stringify(manifest, null, 1));
}

main(process.argv.slice(2)).then(() => process.exit(0)).catch((e) => { console.error(String(e.message || e)); process.exit(1); });
