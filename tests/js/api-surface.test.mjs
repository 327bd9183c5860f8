// The typings (src/bindings/vramcalc.d.ts; its Estimate part is generated from src/core/outputs.cpp) against what the module really is:
//  - every function/property declared on VramcalcApi exists on the API object, with that kind,
//    and the API object has nothing undeclared;
//  - the ES module vramcalc.mjs exports exactly the declared runtime names;
//  - the raw Emscripten module (vramcalc-wasm.mjs) exports exactly the C functions that
//    vramcalc.mjs calls, plus Emscripten's own runtime members listed in EMSCRIPTEN_INTERNALS;
//  - the values the API returns have exactly the shapes the typings declare (Estimate, Scenario,
//    presets, fields, issues), recursively;
//  - nothing in the shipped JS uses eval / new Function (CSP script-src 'self' 'wasm-unsafe-eval').
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

import { distFile, importModule, loadApi, readText, root } from './_support.mjs';

// Members Emscripten 3.1.6 itself puts on the raw Module object (runtime, heap views, the options
// we pass in). They are not part of the API: only vramcalc.mjs sees the raw module. Update this
// list when the Emscripten version changes.
const EMSCRIPTEN_INTERNALS = new Set([
  'HEAP8', 'HEAP16', 'HEAP32', 'HEAPU8', 'HEAPU16', 'HEAPU32', 'HEAPF32', 'HEAPF64',
  '___wasm_call_ctors', 'asm', 'calledRun', 'preloadedAudios', 'preloadedImages', 'ready', 'run',
  'wasmBinary', 'locateFile',
  // Embind's runtime (its error classes, handle counters, type registration, its allocator).
  'BindingError', 'InternalError', 'UnboundTypeError', 'count_emval_handles', 'get_first_emval',
  '___getTypeName', '___embind_register_native_and_builtin_types', '_malloc', '_free',
]);
const isEmscriptenInternal = (name) => EMSCRIPTEN_INTERNALS.has(name) || /^dynCall_\w+$/.test(name);

// ───────────── A small reader for the subset of TypeScript the .d.ts uses ─────────────

const dts = readText(join(root, 'src', 'bindings', 'vramcalc.d.ts'));
const code = dts.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');

function matchBrace(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  throw new Error('unbalanced braces in vramcalc.d.ts');
}

// Splits "a: T; b(x: U): V; ..." at top-level ';' / ',' / newlines into members.
function members(body) {
  const out = [];
  let depth = 0, start = 0;
  const flush = (end) => {
    const text = body.slice(start, end).trim();
    if (text) out.push(text);
    start = end + 1;
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if ('{(<['.includes(c)) depth++;
    else if ('})>]'.includes(c) && !(c === '>' && body[i - 1] === '=')) depth--;
    else if ((c === ';' || c === ',') && depth === 0) flush(i);
  }
  flush(body.length);
  return out.map((m) => {
    const r = /^(readonly\s+)?([A-Za-z_$][\w$]*)(\?)?\s*([(:])([\s\S]*)$/.exec(m);
    assert.ok(r, `cannot read the member "${m}"`);
    return { name: r[2], optional: Boolean(r[3]), method: r[4] === '(', type: r[4] === ':' ? r[5].trim() : null };
  });
}

const interfaces = new Map();
for (const m of code.matchAll(/export\s+interface\s+(\w+)(?:\s+extends\s+[\w<>, ]+)?\s*\{/g)) {
  const open = m.index + m[0].length - 1;
  interfaces.set(m[1], members(code.slice(open + 1, matchBrace(code, open))));
}
const aliases = new Map();
for (const m of code.matchAll(/export\s+type\s+(\w+)\s*=\s*([^;]+);/g)) aliases.set(m[1], m[2].trim());

const declaredExports = new Set();
for (const m of code.matchAll(/^export\s+(?:declare\s+)?(?:function|const|let|var|class)\s+(\w+)/gm)) declaredExports.add(m[1]);
if (/^export\s+default\s+\w+/m.test(code)) declaredExports.add('default');

function splitTopLevel(text, sep) {
  const parts = [];
  let depth = 0, start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if ('{(<['.includes(c)) depth++;
    else if ('})>]'.includes(c)) depth--;
    else if (c === sep && depth === 0) { parts.push(text.slice(start, i).trim()); start = i + 1; }
  }
  parts.push(text.slice(start).trim());
  return parts.filter(Boolean);
}

// Checks a JS value against a declared type; returns a list of mismatches ("path: why").
function check(value, type, path) {
  type = type.trim();
  const union = splitTopLevel(type, '|');
  if (union.length > 1) {
    const results = union.map((t) => check(value, t, path));
    return results.some((r) => r.length === 0) ? [] : [`${path}: ${JSON.stringify(value)?.slice(0, 80)} is none of ${type}`];
  }
  if (type.endsWith('[]')) {
    if (!Array.isArray(value)) return [`${path}: expected an array`];
    return value.flatMap((v, i) => check(v, type.slice(0, -2), `${path}[${i}]`));
  }
  if (/^'.*'$/.test(type)) return value === type.slice(1, -1) ? [] : [`${path}: expected ${type}, got ${value}`];
  if (['number', 'string', 'boolean'].includes(type)) {
    if (typeof value !== type) return [`${path}: expected ${type}, got ${typeof value}`];
    if (type === 'number' && !Number.isFinite(value)) return [`${path}: not finite`];
    return [];
  }
  if (aliases.has(type)) return check(value, aliases.get(type), path);
  const indexed = /^(\w+)\['(\w+)'\]$/.exec(type);  // Interface['member']
  if (indexed && interfaces.has(indexed[1])) {
    const member = interfaces.get(indexed[1]).find((m) => m.name === indexed[2]);
    if (!member) return [`${path}: ${type} names no member`];
    return check(value, member.type, path);
  }
  let declared;
  if (type.startsWith('{')) declared = members(type.slice(1, matchBrace(type, 0)));
  else if (interfaces.has(type)) declared = interfaces.get(type);
  else return [`${path}: the test cannot check the type ${type}`];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path}: expected an object`];
  const problems = [];
  const names = new Set(declared.map((m) => m.name));
  for (const key of Object.keys(value)) if (!names.has(key)) problems.push(`${path}.${key}: returned but not declared in vramcalc.d.ts`);
  for (const m of declared) {
    if (!(m.name in value)) {
      if (!m.optional) problems.push(`${path}.${m.name}: declared but missing`);
      continue;
    }
    problems.push(...check(value[m.name], m.type, `${path}.${m.name}`));
  }
  return problems;
}

// ───────────── Tests ─────────────

const api = await loadApi();
const declaredApi = interfaces.get('VramcalcApi');

test('the typings declare the API', () => {
  assert.ok(declaredApi, 'interface VramcalcApi');
  const names = declaredApi.map((m) => m.name);
  for (const n of ['estimate', 'validate', 'plan', 'planInference', 'encodeLink', 'decodeLink', 'defaultScenario', 'modelPresets', 'gpuPresets', 'fields', 'version'])
    assert.ok(names.includes(n), n);
});

test('every declared API member exists with its kind, and nothing undeclared is exposed', () => {
  for (const m of declaredApi) {
    assert.ok(m.name in api, `${m.name} is declared but missing`);
    if (m.method) assert.equal(typeof api[m.name], 'function', `${m.name} is a function`);
    else assert.deepStrictEqual(check(api[m.name], m.type, `api.${m.name}`), []);
  }
  const declared = new Set(declaredApi.map((m) => m.name));
  const actual = Reflect.ownKeys(api).map(String);
  assert.deepStrictEqual(actual.filter((k) => !declared.has(k)), [], 'undeclared members on the API object');
  assert.ok(Object.isFrozen(api));
});

test('vramcalc.mjs exports exactly the declared runtime names', async () => {
  const mod = await importModule();
  assert.deepStrictEqual(Object.keys(mod).sort(), [...declaredExports].sort());
  assert.equal(mod.default, mod.createVramcalc);
  assert.equal(typeof mod.createVramcalc, 'function');
});

test('the raw Emscripten module exports exactly what vramcalc.mjs calls (plus Emscripten internals)', async () => {
  const wrapper = readFileSync(distFile('vramcalc.mjs'), 'utf8');
  const used = new Set([...wrapper.matchAll(/\bwasm\.(\w+)\(/g)].map((m) => m[1]));
  // Embind's enum_ types: objects whose values the wrapper reads (wasm.ImportFormat.deepspeed).
  const enums = new Set([...wrapper.matchAll(/\bwasm\.([A-Z]\w+)\.\w+/g)].map((m) => m[1]).filter((n) => !isEmscriptenInternal(n)));
  assert.ok(used.size >= 8, 'the wrapper calls the raw module through `wasm.`');
  const { default: createRaw } = await import(pathToFileURL(distFile('vramcalc-wasm.mjs')).href);
  const raw = await createRaw({ wasmBinary: readFileSync(distFile('vramcalc-wasm.wasm')) });
  const own = Object.keys(raw).filter((k) => !isEmscriptenInternal(k));
  assert.deepStrictEqual(own.sort(), [...used, ...enums].sort());
  for (const name of used) assert.equal(typeof raw[name], 'function', name);
  for (const name of enums) assert.equal(typeof raw[name], 'function', `${name} (an Embind enum type)`);
});

test('returned values have exactly the declared shapes', () => {
  const samples = [
    ['estimate({})', api.estimate({}), 'Estimate'],
    ['estimate(ZeRO-3, offload, warnings)', api.estimate({ model: 'mixtral-8x7b', parallel: { num_gpus: 16, expert: 8, zero_stage: 3, offload_optimizer: true }, training: { tokens: 1e9 } }), 'Estimate'],
    ['estimate(does not fit)', api.estimate({ model: 'gpt3-175b' }), 'Estimate'],
    ['defaultScenario()', api.defaultScenario(), 'Scenario'],
    ['decodeLink(good)', api.decodeLink('v=1&mp=llama-3-8b&b=2'), 'DecodedLink'],
    ['decodeLink(bad)', api.decodeLink('v=1&zz=1&L=x'), 'DecodedLink'],
    ['modelPresets()', api.modelPresets(), 'ModelPreset[]'],
    ['gpuPresets()', api.gpuPresets(), 'GpuPreset[]'],
    ['fields()', api.fields(), 'FieldInfo[]'],
    ['validate(bad)', api.validate({ model: { layers: 'x' }, foo: 1 }), 'Issue[]'],
    ['encodeLink()', api.encodeLink({ training: { micro_batch_size: 2 } }), 'string'],
    ['estimate(predicted)', api.estimate({ hardware: { throughput_model: 'predicted' } }), 'Estimate'],
    ['plan()', api.plan({ model: 'llama-2-7b', parallel: { num_gpus: 16 } }, { max_results: 3 }), 'PlanResult'],
    ['planInference()', api.planInference({ model: 'llama-3.1-8b', workload: 'inference' }, { max_results: 3, gpus: ['H100-SXM'] }),
      'InferencePlanResult'],
  ];
  const warned = samples[1][1].warnings;
  assert.ok(warned.length > 0, 'a sample with warnings checks Warning[]');
  assert.ok(api.modelPresets().some((p) => !('published_params' in p)), 'a preset without published_params');
  for (const [what, value, type] of samples) assert.deepStrictEqual(check(value, type, what), [], what);
  let error;
  try { api.estimate({ model: { layers: 'x' } }); } catch (e) { error = e; }
  assert.deepStrictEqual(check(error.issues, 'Issue[]', 'error.issues'), []);
  assert.equal(error.name, 'ScenarioError');
});

test('the choice types of the typings list exactly the choices of the field table', () => {
  const byPath = Object.fromEntries(api.fields().map((f) => [f.path, f]));
  const scenario = interfaces.get('Scenario');
  // A member whose type is no interface is a field outside every section ("workload": a choice).
  const topLevel = (s) => !interfaces.has(s.type);
  for (const section of scenario.filter(topLevel)) {
    const field = byPath[section.name];
    assert.ok(field, `${section.name} is declared but is not a field`);
    const declared = splitTopLevel(aliases.get(section.type) ?? '', '|').map((t) => t.slice(1, -1));
    assert.deepStrictEqual(declared, field.choices, `${field.path}: ${section.type}`);
  }
  for (const section of scenario.filter((s) => !topLevel(s))) {
    for (const m of interfaces.get(section.type)) {
      const field = byPath[`${section.name}.${m.name}`];
      assert.ok(field, `${section.name}.${m.name} is declared but is not a field`);
      if (field.kind === 'choice') {
        const declared = splitTopLevel(aliases.get(m.type) ?? '', '|').map((t) => t.slice(1, -1));
        assert.deepStrictEqual(declared, field.choices, `${field.path}: ${m.type}`);
      }
    }
  }
  const declaredPaths = scenario.flatMap((s) => (topLevel(s) ? [s.name] : interfaces.get(s.type).map((m) => `${s.name}.${m.name}`)));
  assert.deepStrictEqual(declaredPaths.sort(), Object.keys(byPath).sort());
});

test('no eval or new Function in the shipped JS (CSP: script-src \'self\' \'wasm-unsafe-eval\')', () => {
  for (const name of ['vramcalc.mjs', 'vramcalc-wasm.mjs']) {
    const js = readFileSync(distFile(name), 'utf8');
    assert.ok(!/\bnew\s+Function\s*\(/.test(js), `${name}: new Function`);
    assert.ok(!/(^|[^.\w])eval\s*\(/.test(js), `${name}: eval(`);
    assert.ok(!/\bFunction\s*\(\s*["'`]/.test(js), `${name}: Function("...")`);
  }
});

test('fields() says what 0 stands for where it is a choice, not a quantity', () => {
  const byPath = Object.fromEntries(api.fields().map((f) => [f.path, f]));
  // 0 KV heads = one per attention head (multi-head attention), 0 global batch = derived from the
  // accumulation steps: docs/api.md field rows; a layer count of 0 means nothing (it is rejected).
  assert.equal(byPath['model.num_kv_heads'].zero_means, 'auto');
  assert.equal(byPath['training.global_batch_size'].zero_means, 'auto');
  assert.equal(byPath['model.layers'].zero_means, '');
  for (const f of api.fields()) assert.equal(typeof f.zero_means, 'string', f.path);
});
