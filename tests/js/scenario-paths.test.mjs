// The two ways a scenario crosses into the module (vramcalc.mjs): typed values (the fast path)
// and JSON text. Every call that takes a scenario must give the same result, the same error and
// the same messages both ways, for ordinary and hostile input alike. The JSON path is the
// reference: it is the codec's JSON decoder that the CLI and the C++ tests exercise.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { importModule, loadApi } from './_support.mjs';

const api = await loadApi();
const { createVramcalc } = await importModule();
const viaJson = await createVramcalc({ jsonScenarios: true });

// The outcome of one call: its result, or the thrown error's name, message and issues.
function outcome(call) {
  try {
    return { result: call() };
  } catch (e) {
    return { error: { name: e.name, message: e.message, issues: e.issues } };
  }
}

function agree(scenario, label) {
  const calls = {
    estimate: (a) => a.estimate(scenario),
    validate: (a) => a.validate(scenario),
    encodeLink: (a) => a.encodeLink(scenario),
    importHfConfig: (a) => a.importHfConfig('{"model_type": "llama", "hidden_size": 2048, "num_hidden_layers": 4, ' +
      '"num_attention_heads": 16, "intermediate_size": 5632, "vocab_size": 32000}', scenario),
  };
  for (const [name, call] of Object.entries(calls)) {
    assert.deepStrictEqual(outcome(() => call(api)), outcome(() => call(viaJson)), `${name}(${label})`);
  }
}

// A small deterministic generator (mulberry32), so a failure names a scenario that can be rerun.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const fields = api.fields();
const modelIds = api.modelPresets().map((m) => m.id);
const gpuIds = api.gpuPresets().map((g) => g.id);
const oddNumbers = [-0, 0, 1, -1, 0.5, 1.5, 3.000001, NaN, Infinity, -Infinity, 1e-320, Number.MIN_VALUE, 1e-300,
  1e300, 1e301, Number.MAX_VALUE, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e21, 2 ** 31, 2 ** 63, 123456789012];
const oddValues = [null, [], {}, [1], { a: 1 }, 'text', '', '12', 'true', true, false, 7n, 2n ** 70n, () => 1,
  Symbol('s'), undefined, new Date(0)];
const oddTexts = ['a\u0000b', '\u202E123', 'zero\u200Bwidth', 'lone \ud800 surrogate', '\udc00', 'x'.repeat(201),
  'y'.repeat(1030), 'é'.repeat(200), '😀'.repeat(100), 'Llama 3', '"quoted" \\ back', 'q,v', 'all_linear', 'bogus'];

// A value for a field: usually one of its kind, sometimes hostile.
function valueFor(field, next) {
  const pick = (list) => list[Math.floor(next() * list.length)];
  const roll = next();
  if (roll < 0.12) return pick(oddValues);
  if (roll < 0.2 && field.kind !== 'text') return pick(oddNumbers);
  switch (field.kind) {
    case 'choice':
      return roll < 0.25 ? pick(['bogus', 'ADAMW', 'rope ', 0, 1]) : pick(field.choices);
    case 'boolean':
      return roll < 0.25 ? pick([0, 1, 'true']) : next() < 0.5;
    case 'text':
      if (field.path === 'hardware.gpu') return roll < 0.6 ? pick(gpuIds) : pick(oddTexts);
      return pick(oddTexts);
    default: {
      const low = field.ui_min, high = field.ui_max;
      const value = low + next() * (high - low);
      return field.kind === 'integer' && next() < 0.85 ? Math.round(value) : value;
    }
  }
}

function generate(seed) {
  const next = random(seed);
  const scenario = {};
  const count = Math.floor(next() * 12);
  for (let i = 0; i < count; i++) {
    const field = fields[Math.floor(next() * fields.length)];
    const [section, key] = field.path.split('.');
    if (typeof scenario[section] !== 'object') scenario[section] = {};
    scenario[section][key] = valueFor(field, next);
  }
  const extra = next();
  if (extra < 0.15) scenario.model = { ...(scenario.model || {}), preset: next() < 0.8 ? modelIds[seed % modelIds.length] : 'nope' };
  else if (extra < 0.22) scenario.model = next() < 0.8 ? modelIds[seed % modelIds.length] : 'no-such-model';
  else if (extra < 0.26) scenario.training = { ...(scenario.training || {}), no_such_field: 1 };
  else if (extra < 0.29) scenario.hardwar = {};
  else if (extra < 0.31) scenario.parallel = 8;
  else if (extra < 0.33) scenario.model = { ...(scenario.model || {}), preset: 42 };
  return scenario;
}

test('clean scenarios take the fast path (no JSON text is written)', () => {
  const stringify = JSON.stringify;
  let written = 0;
  JSON.stringify = (...args) => {
    written += 1;
    return stringify(...args);
  };
  try {
    const scenario = api.defaultScenario();  // has text fields: serializing it would call JSON.stringify
    api.estimate(scenario);
    api.validate(scenario);
    assert.equal(written, 0, 'the default scenario was written as JSON');
    viaJson.estimate(scenario);
    assert.ok(written > 0, 'jsonScenarios: true writes JSON');
  } finally {
    JSON.stringify = stringify;
  }
});

test('the bench scenarios and the default agree both ways', () => {
  agree(api.defaultScenario(), 'default');
  agree({ model: { preset: 'llama-3-8b' }, training: { micro_batch_size: 4, seq_len: 4096 },
    parallel: { num_gpus: 8, zero_stage: 3 }, hardware: { gpu: 'H100-80GB' } }, 'llama preset');
  agree({ training: { micro_batch_size: 2 } }, 'two fields');
  agree({ training: { micro_batch_size: 0 } }, 'invalid');
  agree({}, 'empty');
  agree({ model: 'gpt2' }, 'model as a preset id');
  agree({ training: { framework: 'deepspeed', micro_batch_size: 2 }, hardware: { gpu: 'A100-40GB', memory_gib: 80 } },
    'framework and GPU presets under explicit fields');
});

test('-0, NaN, ±Infinity, non-integers, out-of-range values and names behave the same both ways', () => {
  for (const field of fields) {
    const [section, key] = field.path.split('.');
    for (const value of [...oddNumbers, ...oddValues, ...(field.kind === 'text' ? oddTexts : []), ...field.choices]) {
      agree({ [section]: { [key]: value } }, `${field.path} = ${typeof value === 'symbol' ? 'a symbol' : String(value).slice(0, 30)}`);
    }
  }
  // -0 is 0 in JSON text, so it is 0 in the estimated scenario too.
  assert.ok(Object.is(api.estimate({ training: { lora_dropout: -0 } }).scenario.training.lora_dropout, 0));
});

test('2,000 generated scenarios, hostile ones included, agree both ways', () => {
  for (let seed = 1; seed <= 2000; seed++) agree(generate(seed), `generate(${seed}): ${JSON.stringify(generate(seed), (k, v) =>
    (typeof v === 'bigint' ? `${v}n` : typeof v === 'number' && !Number.isFinite(v) ? String(v) : v))}`);
});

test('plan() agrees both ways', () => {
  for (const scenario of [{ model: { preset: 'llama-3-8b' }, parallel: { num_gpus: 16 } }, { training: { micro_batch_size: 0 } },
    { model: { layers: 1.5 } }, { training: { seq_len: NaN } }]) {
    for (const options of [{}, { hold: ['parallel.zero_stage'] }, { bogus: 'x' }]) {
      assert.deepStrictEqual(outcome(() => api.plan(scenario, options)), outcome(() => viaJson.plan(scenario, options)),
        JSON.stringify({ scenario, options }));
    }
  }
});

test('a getter that throws, a Proxy and an inherited key behave the same both ways', () => {
  const throwing = { training: { get micro_batch_size() { throw new Error('boom'); } } };
  agree(throwing, 'throwing getter');
  agree(new Proxy({ training: { micro_batch_size: 3 } }, {}), 'proxy');
  agree(Object.create({ training: { micro_batch_size: 3 } }), 'inherited section');
  const withProto = JSON.parse('{"training": {"__proto__": 5, "micro_batch_size": 2}}');
  agree(withProto, '__proto__ key');
});
