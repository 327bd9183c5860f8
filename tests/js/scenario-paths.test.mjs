// The two ways a scenario crosses into the module (vramcalc.mjs): typed values (the fast path)
// and JSON text. Every call that takes a scenario must give the same result, the same error and
// the same messages both ways, for ordinary and hostile input alike. The JSON path is the
// reference: it is the codec's JSON decoder that the CLI and the C++ tests exercise.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cliJson, importModule, loadApi } from './_support.mjs';

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

const described = (seed) => `generate(${seed}): ${JSON.stringify(generate(seed), (k, v) =>
  (typeof v === 'bigint' ? `${v}n` : typeof v === 'number' && !Number.isFinite(v) ? String(v) : v))}`;

test('2,000 generated scenarios, hostile ones included, agree both ways', () => {
  for (let seed = 1; seed <= 2000; seed++) agree(generate(seed), described(seed));
});

// estimate() decodes its argument without the rules and lets the core's evaluate() check them
// (once): it must refuse exactly what validate() (decoded with the rules) refuses, with the same
// issues; a scenario validate() accepts is estimated (or, where an output would not be finite,
// refused naming the scenario).
test('estimate() refuses what validate() refuses, with the same issues (2,000 generated scenarios)', () => {
  let refused = 0, estimated = 0;
  for (let seed = 1; seed <= 2000; seed++) {
    const scenario = generate(seed);
    const issues = api.validate(scenario);
    const { result, error } = outcome(() => api.estimate(scenario));
    if (issues.length > 0) {
      refused += 1;
      assert.deepStrictEqual(error && error.issues, issues, described(seed));
    } else if (error) {
      assert.deepStrictEqual(error.issues.map((i) => i.field), ['scenario'], described(seed));
    } else {
      estimated += 1;
      assert.equal(typeof result.memory_per_gpu_bytes.total, 'number', described(seed));
    }
  }
  assert.ok(refused > 200 && estimated > 200, `${refused} refused, ${estimated} estimated: both kinds must be common`);
});

// The estimate's texts (text outputs, text fields, notes, warnings) cross as one UTF-8 run cut by
// UTF-16 lengths, and are reused while the module reports them unchanged (bindings.cpp, TextPart).
const widths = ['a', 'é', '✓', '😀'];  // 1, 2, 3 and 4 UTF-8 bytes; 1, 1, 1 and 2 UTF-16 units
const mixedName = (seed, length) => {
  const next = random(seed);
  return Array.from({ length }, () => widths[Math.floor(next() * widths.length)]).join('');
};

test('texts of every UTF-8 width come back as given, the longest allowed included', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const name = mixedName(seed, 1 + (seed % 200));
    const gpu = mixedName(seed + 1000, 1 + ((seed * 7) % 200));
    const e = api.estimate({ model: { name }, hardware: { gpu } });
    assert.equal(e.scenario.model.name, name);
    assert.equal(e.scenario.hardware.gpu, gpu);
    assert.equal(e.scenario.training.lora_targets, api.defaultScenario().training.lora_targets);
    assert.equal(e.memory_per_gpu_bytes.peak_phase, api.estimate({}).memory_per_gpu_bytes.peak_phase);
  }
  const longest = '😀'.repeat(200);  // 200 characters (the limit), 400 UTF-16 units, 800 bytes
  assert.equal(api.estimate({ model: { name: longest } }).scenario.model.name, longest);
});

test('a note quoting a non-ASCII name, and warnings, equal vramcalc --json', () => {
  const scenario = { model: { preset: 'gpt2', name: 'GPT-2 ✓ é 😀 "q" \\ end' } };
  const { status, json } = cliJson(scenario);
  assert.equal(status, 0, JSON.stringify(json.errors));
  assert.ok(json.notes.length > 0 && json.notes[0].message.includes('😀'), 'the reference has a note quoting the name');
  const e = api.estimate(scenario);
  assert.deepStrictEqual(e.notes, json.notes);
  assert.deepStrictEqual(e.warnings, json.warnings);
  assert.deepStrictEqual(e, json);
  const warned = { model: { preset: 'gpt3-175b' } };
  const reference = cliJson(warned).json;
  assert.ok(reference.warnings.length > 0, 'the reference has warnings');
  assert.deepStrictEqual(api.estimate(warned), reference);
});

test('texts never come back stale: same bytes cut differently, changed names, errors in between', () => {
  // Name and LoRA targets are neighbours in the text run: "qq,v" as "qq," + "v" and as "q" + "q,v".
  const a = { model: { name: 'qq,' }, training: { lora_targets: 'v' } };
  const b = { model: { name: 'q' }, training: { lora_targets: 'q,v' } };
  const gpt2 = { model: 'gpt2' };          // a note
  const big = { model: 'gpt3-175b' };      // warnings
  const invalid = { training: { micro_batch_size: 0 } };
  const empty = {};
  const sequence = [a, a, b, b, a, gpt2, gpt2, big, a, invalid, a, invalid, b, big, big, gpt2, empty, empty];
  const expected = new Map([a, b, gpt2, big, empty].map((s) => [s, viaJson.estimate(s)]));
  for (const [i, scenario] of sequence.entries()) {
    if (scenario === invalid) {
      assert.throws(() => api.estimate(scenario), { name: 'ScenarioError' });
      continue;
    }
    const e = api.estimate(scenario);
    assert.deepStrictEqual(e, expected.get(scenario), `call ${i}`);
  }
  assert.equal(api.estimate(a).scenario.model.name, 'qq,');
  assert.equal(api.estimate(b).scenario.model.name, 'q');
  assert.equal(api.estimate(b).scenario.training.lora_targets, 'q,v');
  assert.ok(expected.get(gpt2).notes.length > 0 && expected.get(big).warnings.length > 0);
  // A scenario the wrapper refuses (NaN) whose other fields the module estimates: the texts of that
  // estimate must not be taken for the next one's.
  assert.equal(api.estimate({ model: { name: 'X' } }).scenario.model.name, 'X');
  assert.throws(() => api.estimate({ model: { name: 'Y' }, training: { seq_len: NaN } }), { name: 'ScenarioError' });
  assert.equal(api.estimate({ model: { name: 'Y' } }).scenario.model.name, 'Y');
  // A returned list is the caller's own: changing it does not change the next result.
  const first = api.estimate(big);
  first.warnings[0].message = 'changed';
  first.warnings.push({ id: 'x', message: 'y' });
  assert.deepStrictEqual(api.estimate(big).warnings, expected.get(big).warnings);
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

test('getters that delete or add keys as they are read behave the same both ways', () => {
  // The fast path reads a section's keys, then its values (Object.values): a getter that deletes
  // a later key makes the lists differ, and the scenario goes as JSON. Each call gets a fresh object.
  const makers = {
    'deletes a later key': () => ({ training: { get micro_batch_size() { delete this.seq_len; return 2; }, seq_len: 512 } }),
    'deletes a key between two': () => ({
      training: { get micro_batch_size() { delete this.seq_len; return 2; }, seq_len: 512, global_batch_size: 64 },
    }),
    'adds a key': () => ({ training: { get micro_batch_size() { this.seq_len = 512; return 2; } } }),
    'deletes an earlier key': () => ({ training: { seq_len: 512, get micro_batch_size() { delete this.seq_len; return 2; } } }),
    'replaces a later section': () => ({ model: { get layers() { this.extra = 1; return 4; } }, training: { micro_batch_size: 2 } }),
  };
  for (const [label, make] of Object.entries(makers)) {
    for (const method of ['estimate', 'validate', 'encodeLink']) {
      assert.deepStrictEqual(outcome(() => api[method](make())), outcome(() => viaJson[method](make())), `${method}: ${label}`);
    }
  }
  assert.equal(api.estimate(makers['deletes a later key']()).scenario.training.seq_len, api.defaultScenario().training.seq_len);
});
