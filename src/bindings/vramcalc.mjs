// vramcalc.mjs: the public JavaScript API of vramcalc (an ES module, browsers and Node >= 18).
//
//   import createVramcalc from './vramcalc.mjs';
//   const api = await createVramcalc();
//   const e = api.estimate({model: {preset: 'llama-3-8b'}, training: {micro_batch_size: 4}});
//   e.memory_per_gpu_bytes.total   // bytes, a double
//
// The numbers come from the C++ core compiled to WebAssembly (vramcalc-wasm.mjs + .wasm, built
// from src/bindings/bindings.cpp). This file only moves JSON across the boundary and turns error
// lists into thrown Errors: it never computes an estimate itself. Typings: vramcalc.d.ts; guide:
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
    const { readFile } = await import('node:fs/promises');
    let where = moduleArg.locateFile ? moduleArg.locateFile(WASM_FILE, '') : new URL(`./${WASM_FILE}`, import.meta.url);
    if (typeof where === 'string' && where.startsWith('file:')) where = new URL(where);
    moduleArg.wasmBinary = await readFile(where);
  }
  const wasm = await createVramcalcWasm(moduleArg);

  // Constant tables: parsed once, handed out as fresh copies so callers may mutate them.
  const defaultText = wasm.defaultScenarioJson();
  const fieldsText = wasm.fieldsJson();
  const modelPresetsText = wasm.modelPresetsJson();
  const gpuPresetsText = wasm.gpuPresetsJson();
  const knownPaths = new Set(JSON.parse(fieldsText).map((f) => f.path));
  knownPaths.add('model.preset');

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
    // Null-prototype objects: a "__proto__" key stays an ordinary (unknown, reported) key.
    const clean = Object.create(null);
    const scalar = (value, path) => {
      switch (typeof value) {
        case 'string':
          if (wellFormed(value)) return { ok: true, value };
          issues.push({ field: path, message: 'must be valid Unicode text (it contains a lone UTF-16 surrogate)' });
          return { ok: false };
        case 'boolean':
          return { ok: true, value };
        case 'number':
          if (Number.isFinite(value)) return { ok: true, value };
          issues.push({ field: path, message: `must be a finite number (got ${describe(value)})` });
          return { ok: false };
        case 'bigint': {
          const n = Number(value);
          if (Number.isSafeInteger(n)) return { ok: true, value: n };
          issues.push({ field: path, message: 'is out of range (must be an integer below 2^53)' });
          return { ok: false };
        }
        case 'undefined':
          return { ok: false };  // like a missing key: the default applies
        case 'object':
          // Contents do not matter (a field is a scalar); the codec reports the type.
          if (value === null) return { ok: true, value: null };
          return { ok: true, value: Array.isArray(value) ? [] : {} };
        default:
          issues.push({
            field: path,
            message: knownPaths.has(path) ? `must be a number, string or boolean (got ${describe(value)})` : 'unknown field',
          });
          return { ok: false };
      }
    };
    try {
      for (const section of Object.keys(scenario)) {
        if (!wellFormed(section)) {
          issues.push({ field: printable(section), message: 'unknown section (expected model, training, parallel or hardware)' });
          continue;
        }
        const value = scenario[section];
        if (isPlainObject(value)) {
          const out = Object.create(null);
          for (const key of Object.keys(value)) {
            if (!wellFormed(key)) {
              issues.push({ field: `${section}.${printable(key)}`, message: 'unknown field' });
              continue;
            }
            const r = scalar(value[key], `${section}.${key}`);
            if (r.ok) out[key] = r.value;
          }
          clean[section] = out;
        } else {
          const r = scalar(value, section);
          if (r.ok) clean[section] = r.value;
        }
      }
    } catch (e) {
      issues.push({ field: 'scenario', message: `could not be read (${e && e.message ? e.message : String(e)})` });
      return { text: null, issues };
    }
    return { text: JSON.stringify(clean), issues };
  }

  // Wrapper issues first; codec issues for fields the wrapper already reported are dropped.
  function merge(own, fromCodec) {
    const named = new Set(own.map((i) => i.field));
    return own.concat(fromCodec.filter((i) => !named.has(i.field)));
  }

  function issuesOf(scenario) {
    const { text, issues } = serialize(scenario);
    if (text === null) return { text, issues };
    return { text, issues: merge(issues, JSON.parse(wasm.validateJson(text))) };
  }

  // A config file's text applied onto `base` (a scenario; missing = the defaults) by the codec.
  function importConfig(raw, text, base) {
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
    const result = JSON.parse(raw(text, baseText));
    if (result.issues.length > 0) throw importError(result.issues);
    delete result.issues;
    return result;
  }

  const api = {
    estimate(scenario) {
      const { text, issues } = serialize(scenario);
      if (text === null) throw scenarioError(issues);
      const result = JSON.parse(wasm.estimateJson(text));
      const all = merge(issues, result.errors || []);
      if (all.length > 0) throw scenarioError(all);
      return result;
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
      const result = JSON.parse(wasm.planJson(text, optionsText));
      const all = merge(issues, result.errors || []);
      if (all.length > 0) throw scenarioError(all);
      return result;
    },
    encodeLink(scenario) {
      const { text, issues } = serialize(scenario);
      if (text === null) throw scenarioError(issues);
      const result = JSON.parse(wasm.encodeLinkJson(text));
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
      return JSON.parse(wasm.decodeLinkJson(hash >= 0 ? fragment.slice(hash + 1) : fragment));
    },
    importHfConfig(text, base) {
      return importConfig((t, b) => wasm.importHfConfigJson(t, b), text, base);
    },
    importDeepSpeedConfig(text, base) {
      return importConfig((t, b) => wasm.importDeepSpeedConfigJson(t, b), text, base);
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
    version: wasm.versionString(),
  };
  return Object.freeze(api);
}

export default createVramcalc;
