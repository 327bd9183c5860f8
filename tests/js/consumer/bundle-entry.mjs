// A bundler build (esbuild --bundle --loader:.wasm=binary): the wasm bytes are part of the bundle,
// so the bundle runs from any folder (no node_modules, no .wasm file next to it).
import createVramcalc from 'vramcalc';
import wasmBinary from 'vramcalc/vramcalc-wasm.wasm';

const api = await createVramcalc({ wasmBinary });
const scenario = JSON.parse(typeof process === 'object' ? process.argv[2] : '{}');
const e = api.estimate(scenario);
console.log(JSON.stringify({ version: api.version, total: e.memory_per_gpu_bytes.total, fits: e.fits,
  parameters: e.parameters.total, link: api.encodeLink(e.scenario) }));
