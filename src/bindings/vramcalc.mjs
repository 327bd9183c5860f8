// vramcalc.mjs: the public JavaScript API of vramcalc (an ES module, browsers and Node >= 18).
//
//   import createVramcalc from './vramcalc.mjs';
//   const api = await createVramcalc();
//   const e = api.estimate({model: {preset: 'llama-3-8b'}, training: {micro_batch_size: 4}});
//   e.memory_per_gpu_bytes.total   // bytes, a double
//
// The numbers come from the C++ core compiled to WebAssembly (vramcalc-wasm.mjs + .wasm, built
// from src/bindings/bindings.cpp). This file only moves JSON text and the estimate's numbers across
// the boundary, builds the result objects and turns error lists into thrown Errors: it never
// computes an estimate itself. Typings: vramcalc.d.ts; guide:
// docs/api.md. Works under a Content-Security-Policy of script-src 'self' 'wasm-unsafe-eval'.
import createVramcalcWasm from './vramcalc-wasm.mjs';

const WASM_FILE = 'vramcalc-wasm.wasm';

function isNode() {
  return typeof process === 'object' && process !== null && typeof process.versions === 'object' &&
    process.versions !== null && typeof process.versions.node === 'string';
}

// A short, safe description of a JS value for messages ("the text \"abc\"", "NaN", "a function").
function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string': {
      const shown = value.slice(0, 40).replace(/[\u0000-\u001f"]/g, '?');
      return `the text "${shown}${value.length > 40 ? '…' : ''}"`;
    }
    case 'number': return String(value);
    case 'bigint': return `the BigInt ${String(value).slice(0, 40)}`;
    case 'boolean': return String(value);
    case 'function': return 'a function';
    case 'symbol': return 'a symbol';
    default: {
      const tag = Object.prototype.toString.call(value).slice(8, -1);
      return tag === 'Object' ? 'an object' : `a ${tag}`;
    }
  }
}

function isPlainObject(value) {
  return typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object Object]';
}

// Lone UTF-16 surrogates cannot be encoded as UTF-8: such strings must not reach the codec.
// (No lookbehind in the pattern: older Safari cannot parse it.)
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(^|[^\ud800-\udbff])[\udc00-\udfff]/;
const wellFormed = (text) => !LONE_SURROGATE.test(text);
const printable = (text) => text.replace(/[\ud800-\udfff]/g, '\ufffd');

function scenarioError(issues) {
  const error = new Error(`invalid scenario: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`);
  error.name = 'ScenarioError';
  error.issues = issues;
  return error;
}

// Builds estimate() results from what the module leaves (bindings.cpp, vramcalc_estimate): one
// array of doubles (every scalar output in output-table order, every field of the estimated
// scenario in field-table order, the memory timeline) and a small JSON object (text values, the
// other composites). The object has the keys, nesting, value types and key order of the JSON
// estimate (the CLI's --json).
// Returns build(heap, start, rest).
function estimateBuilder(tables) {
  const root = new Map();
  const place = (path, read) => {  // "a.b.c" → nested maps; leaves are read(heap, start, rest)
    const keys = path.split('.');
    let node = root;
    for (const key of keys.slice(0, -1)) {
      if (!node.has(key)) node.set(key, new Map());
      node = node.get(key);
    }
    node.set(keys[keys.length - 1], read);
  };
  // JSON has no NaN or Infinity (they print as null).
  const finite = (x) => (Number.isFinite(x) ? x : null);
  let texts = 0;
  tables.outputs.forEach((o, i) => {
    if (o.kind === 'text') {
      const t = texts++;
      place(o.path, (heap, start, rest) => rest.text[t]);
    } else if (o.kind === 'flag') {
      place(o.path, (heap, start) => heap[start + i] !== 0);
    } else {
      place(o.path, (heap, start) => finite(heap[start + i]));
    }
  });
  const scenario = new Map();
  const fieldBase = tables.outputs.length;
  let fieldTexts = 0;
  tables.fields.forEach((f, j) => {
    const [section, key] = f.path.split('.');
    if (!scenario.has(section)) scenario.set(section, new Map());
    let read;
    if (f.kind === 'text') {
      const t = fieldTexts++;
      read = (heap, start, rest) => rest.field_text[t];
    } else if (f.kind === 'boolean') {
      read = (heap, start) => heap[start + fieldBase + j] !== 0;
    } else if (f.kind === 'choice') {
      read = (heap, start) => f.choices[heap[start + fieldBase + j]];
    } else {
      read = (heap, start) => finite(heap[start + fieldBase + j]);
    }
    scenario.get(section).set(key, read);
  });
  // The memory timeline: [{phase, <component>: bytes, ...}] per step phase, after the fields.
  const { phases, components } = tables.memory_timeline;
  const timelineBase = fieldBase + tables.fields.length;
  const phaseKeys = ['phase', ...components].sort().map((key) => [key, components.indexOf(key)]);
  const timeline = (heap, start) => phases.map((phase, p) => {
    const out = {};
    const at = start + timelineBase + p * components.length;
    for (const [key, c] of phaseKeys) out[key] = c < 0 ? phase : finite(heap[at + c]);
    return out;
  });
  for (const [path, kind] of Object.entries(tables.composites)) {
    if (kind === 'scenario') place(path, scenario);
    else if (kind === 'memory_timeline') place(path, timeline);
    else place(path, (heap, start, rest) => rest[path]);
  }
  // A tree of maps → one function per object that creates it with its keys in JSON order.
  const compile = (node) => {
    if (typeof node === 'function') return node;
    const parts = [...node.keys()].sort().map((key) => [key, compile(node.get(key))]);
    return (heap, start, rest) => {
      const out = {};
      for (const [key, read] of parts) out[key] = read(heap, start, rest);
      return out;
    };
  };
  return compile(root);
}

function importError(issues) {
  const error = new Error(`could not import the config: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`);
  error.name = 'ImportError';
  error.issues = issues;
  return error;
}

/**
 * Creates one instance of the API (each instance owns its own WebAssembly memory).
 * @param {{wasmBinary?: ArrayBuffer | Uint8Array, locateFile?: (path: string, prefix: string) => string}} [options]
 * @returns {Promise<import('./vramcalc.d.ts').VramcalcApi>}
 */
export async function createVramcalc(options = {}) {
  const moduleArg = {};
  if (options && options.wasmBinary) moduleArg.wasmBinary = options.wasmBinary;
  if (options && typeof options.locateFile === 'function') moduleArg.locateFile = options.locateFile;
  // Emscripten 3.1.6 loads the .wasm with fetch(), which cannot read file: URLs in Node: read it here.
  if (!moduleArg.wasmBinary && isNode()) {
    // A computed specifier: bundlers do not try to resolve a Node module for browser builds.
    const fsModule = 'node:fs/promises';
    const { readFile } = await import(fsModule);
    let where = moduleArg.locateFile ? moduleArg.locateFile(WASM_FILE, '') : new URL(`./${WASM_FILE}`, import.meta.url);
    if (typeof where === 'string' && where.startsWith('file:')) where = new URL(where);
    moduleArg.wasmBinary = await readFile(where);
  }
  const wasm = await createVramcalcWasm(moduleArg);

  // Text crosses as UTF-8 in the module's memory (bindings.cpp). The heap views are read after
  // each call into the module: memory growth replaces them.
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  function put(text) {  // writes the argument; returns its length in bytes
    const capacity = text.length * 3;  // UTF-8 bytes per UTF-16 unit: at most 3
    const at = wasm._vramcalc_input(capacity + 1);
    return encoder.encodeInto(text, wasm.HEAPU8.subarray(at, at + capacity)).written;
  }
  function putTwo(first, second) {  // writes two texts one after the other; returns their byte lengths
    const capacity = (first.length + second.length) * 3;
    const at = wasm._vramcalc_input(capacity + 1);
    const heap = wasm.HEAPU8;
    const firstBytes = encoder.encodeInto(first, heap.subarray(at, at + first.length * 3)).written;
    const secondBytes = encoder.encodeInto(second, heap.subarray(at + firstBytes, at + capacity)).written;
    return [firstBytes, secondBytes];
  }
  function get(at) {  // reads a NUL-terminated result
    const heap = wasm.HEAPU8;
    return decoder.decode(heap.subarray(at, heap.indexOf(0, at)));
  }

  // Constant tables: parsed once, handed out as fresh copies so callers may mutate them.
  const tables = JSON.parse(get(wasm._vramcalc_tables()));
  const defaultText = JSON.stringify(tables.default_scenario);
  const fieldsText = JSON.stringify(tables.fields);
  const modelPresetsText = JSON.stringify(tables.model_presets);
  const gpuPresetsText = JSON.stringify(tables.gpu_presets);
  const knownPaths = new Set(tables.fields.map((f) => f.path));
  knownPaths.add('model.preset');
  const buildEstimate = estimateBuilder(tables);

  // A key's JSON text, or null when it is not valid Unicode; the known keys are looked up once.
  const keyTexts = new Map();
  function keyJson(key) {
    let text = keyTexts.get(key);
    if (text === undefined) {
      text = wellFormed(key) ? JSON.stringify(key) : null;
      if (keyTexts.size < 1000) keyTexts.set(key, text);
    }
    return text;
  }

  // Turns a JS scenario into JSON text for the C++ codec. Values JSON cannot carry (NaN, Infinity,
  // functions, symbols, out-of-range BigInts) become issues here instead of silently turning into
  // null or vanishing; field-level checks (types, unknown fields, rules) are the codec's.
  function serialize(scenario) {
    const issues = [];
    if (!isPlainObject(scenario)) {
      issues.push({
        field: 'scenario',
        message: `must be an object with model, training, parallel and hardware sections (got ${describe(scenario)})`,
      });
      return { text: null, issues };
    }
    // The JSON text is written here directly (keys in the caller's order, as JSON.stringify would
    // write them); a "__proto__" key stays an ordinary (unknown, reported) key.
    const scalar = (value, section, key) => {  // a field value's JSON text, or undefined: left out
      const path = () => (key === undefined ? section : `${section}.${key}`);
      switch (typeof value) {
        case 'string':
          if (wellFormed(value)) return JSON.stringify(value);
          issues.push({ field: path(), message: 'must be valid Unicode text (it contains a lone UTF-16 surrogate)' });
          return undefined;
        case 'boolean':
          return value ? 'true' : 'false';
        case 'number':
          if (Number.isFinite(value)) return String(value);
          issues.push({ field: path(), message: `must be a finite number (got ${describe(value)})` });
          return undefined;
        case 'bigint': {
          const n = Number(value);
          if (Number.isSafeInteger(n)) return String(n);
          issues.push({ field: path(), message: 'is out of range (must be an integer below 2^53)' });
          return undefined;
        }
        case 'undefined':
          return undefined;  // like a missing key: the default applies
        case 'object':
          // Contents do not matter (a field is a scalar); the codec reports the type.
          if (value === null) return 'null';
          return Array.isArray(value) ? '[]' : '{}';
        default:
          issues.push({
            field: path(),
            message: knownPaths.has(path()) ? `must be a number, string or boolean (got ${describe(value)})` : 'unknown field',
          });
          return undefined;
      }
    };
    let text = '';
    try {
      for (const section of Object.keys(scenario)) {
        if (keyJson(section) === null) {
          issues.push({ field: printable(section), message: 'unknown section (expected model, training, parallel or hardware)' });
          continue;
        }
        const value = scenario[section];
        let json;
        if (isPlainObject(value)) {
          json = '';
          for (const key of Object.keys(value)) {
            const k = keyJson(key);
            if (k === null) {
              issues.push({ field: `${section}.${printable(key)}`, message: 'unknown field' });
              continue;
            }
            const v = scalar(value[key], section, key);
            if (v !== undefined) json += `${json ? ',' : ''}${k}:${v}`;
          }
          json = `{${json}}`;
        } else {
          json = scalar(value, section);
          if (json === undefined) continue;
        }
        text += `${text ? ',' : ''}${keyJson(section)}:${json}`;
      }
    } catch (e) {
      issues.push({ field: 'scenario', message: `could not be read (${e && e.message ? e.message : String(e)})` });
      return { text: null, issues };
    }
    return { text: `{${text}}`, issues };
  }

  // Wrapper issues first; codec issues for fields the wrapper already reported are dropped.
  function merge(own, fromCodec) {
    const named = new Set(own.map((i) => i.field));
    return own.concat(fromCodec.filter((i) => !named.has(i.field)));
  }

  function issuesOf(scenario) {
    const { text, issues } = serialize(scenario);
    if (text === null) return { text, issues };
    return { text, issues: merge(issues, JSON.parse(get(wasm._vramcalc_validate(put(text))))) };
  }

  // A config file's text applied onto `base` (a scenario; missing = the defaults) by the codec.
  // deepspeed: 0 = a Hugging Face config.json, 1 = a DeepSpeed config (bindings.cpp, vramcalc_import).
  function importConfig(deepspeed, text, base) {
    if (typeof text !== 'string') {
      throw importError([{ field: 'config', message: `must be the text of a JSON file (got ${describe(text)})` }]);
    }
    if (!wellFormed(text)) {
      throw importError([{ field: 'config', message: 'must be valid Unicode text (it contains a lone UTF-16 surrogate)' }]);
    }
    let baseText = '';
    if (base !== undefined) {
      const { text: serialized, issues } = serialize(base);
      if (serialized === null || issues.length > 0) throw importError(issues.map((i) => ({ ...i, field: `base.${i.field}` })));
      baseText = serialized;
    }
    const [configBytes, baseBytes] = putTwo(text, baseText);
    const result = JSON.parse(get(wasm._vramcalc_import(configBytes, baseBytes, deepspeed)));
    if (result.issues.length > 0) throw importError(result.issues);
    delete result.issues;
    return result;
  }

  const api = {
    estimate(scenario) {
      const { text, issues } = serialize(scenario);
      if (text === null) throw scenarioError(issues);
      const valid = wasm._vramcalc_estimate(put(text));
      const rest = JSON.parse(get(wasm._vramcalc_text()));
      const all = merge(issues, valid ? [] : rest.errors);
      if (all.length > 0) throw scenarioError(all);
      return buildEstimate(wasm.HEAPF64, wasm._vramcalc_values() / 8, rest);
    },
    validate(scenario) {
      return issuesOf(scenario).issues;
    },
    plan(scenario, options = {}) {
      const { text, issues } = serialize(scenario);
      if (text === null) throw scenarioError(issues);
      let optionsText;
      if (options === undefined || options === null) {
        optionsText = '{}';
      } else if (!isPlainObject(options)) {
        throw scenarioError([{ field: 'options', message: `must be an object (got ${describe(options)})` }]);
      } else {
        const bad = [];
        const clean = Object.create(null);
        for (const key of Object.keys(options)) {
          const value = options[key];
          if (key === 'hold') {
            if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && wellFormed(v))) {
              bad.push({ field: 'options.hold', message: `must be an array of field names (got ${describe(value)})` });
            } else {
              clean.hold = value.slice();
            }
          } else if (typeof value === 'number' && Number.isFinite(value)) {
            clean[wellFormed(key) ? key : printable(key)] = value;
          } else if (value !== undefined) {
            bad.push({ field: `options.${printable(key)}`, message: `must be a finite number (got ${describe(value)})` });
          }
        }
        if (bad.length > 0) throw scenarioError(merge(issues, bad));
        optionsText = JSON.stringify(clean);
      }
      // Both texts in the argument buffer, one after the other (bindings.cpp, vramcalc_plan).
      const [scenarioBytes, optionsBytes] = putTwo(text, optionsText);
      const result = JSON.parse(get(wasm._vramcalc_plan(scenarioBytes, optionsBytes)));
      const all = merge(issues, result.errors || []);
      if (all.length > 0) throw scenarioError(all);
      return result;
    },
    encodeLink(scenario) {
      const { text, issues } = serialize(scenario);
      if (text === null) throw scenarioError(issues);
      const result = JSON.parse(get(wasm._vramcalc_encode_link(put(text))));
      const all = merge(issues, result.errors || []);
      if (all.length > 0) throw scenarioError(all);
      return result.link;
    },
    decodeLink(fragment) {
      if (typeof fragment !== 'string') {
        return {
          scenario: JSON.parse(defaultText),
          issues: [{ field: 'link', message: `must be a string (got ${describe(fragment)}); using the defaults` }],
          notes: [],
        };
      }
      // A whole URL is accepted too: only what follows the first '#' is the fragment.
      const hash = fragment.indexOf('#');
      return JSON.parse(get(wasm._vramcalc_decode_link(put(hash >= 0 ? fragment.slice(hash + 1) : fragment))));
    },
    importHfConfig(text, base) {
      return importConfig(0, text, base);
    },
    importDeepSpeedConfig(text, base) {
      return importConfig(1, text, base);
    },
    defaultScenario() {
      return JSON.parse(defaultText);
    },
    modelPresets() {
      return JSON.parse(modelPresetsText);
    },
    gpuPresets() {
      return JSON.parse(gpuPresetsText);
    },
    fields() {
      return JSON.parse(fieldsText);
    },
    version: tables.version,
  };
  return Object.freeze(api);
}

export default createVramcalc;
