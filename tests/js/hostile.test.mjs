// Hostile input through the JS API (issue 10): every input of the issue the API reaches. The C++
// faces are in tests/test_hostile_input.cpp, the page in tests/browser/hostile.test.mjs.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { importModule, loadApi } from './_support.mjs';

const api = await loadApi();

const finite = (value, path = 'estimate') => {
  assert.notEqual(value, null, `${path} is null`);
  if (typeof value === 'number') assert.ok(Number.isFinite(value), `${path} = ${value}`);
  else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) finite(v, `${path}.${k}`);
};
const throwsNaming = (input, field, words = '') => assert.throws(() => api.estimate(input), (e) => {
  assert.equal(e.name, 'ScenarioError');
  assert.ok(e.issues.some((i) => i.field === field && i.message.includes(words)), `${field}: ${JSON.stringify(e.issues)}`);
  return true;
});
const once = (issues) => assert.equal(new Set(issues.map((i) => `${i.field}\n${i.message}`)).size, issues.length, 'a problem repeats');
// A decoded link is valid and computes finite numbers.
const opens = (fragment) => {
  const d = api.decodeLink(fragment);
  assert.deepStrictEqual(api.validate(d.scenario), [], `${fragment} decoded to an invalid scenario`);
  finite(api.estimate(d.scenario));
  once(d.issues);
  return d;
};

test('10.2: vanishing rates are rejected naming the field; links with them open valid and finite', () => {
  throwsNaming({ hardware: { achieved_tflops: 1e-300 } }, 'hardware.achieved_tflops', 'from 0.001');
  throwsNaming({ hardware: { achieved_tflops: 0, mfu: 1e-300 } }, 'hardware.mfu', 'from 0.0001');
  throwsNaming({ hardware: { achieved_tflops: 0, mfu: 1e-320 } }, 'hardware.mfu');
  throwsNaming({ hardware: { peak_tflops: 1e-300 } }, 'hardware.peak_tflops');
  throwsNaming({ training: { tokens: 1e-300 } }, 'training.tokens');
  throwsNaming({ model: { params_override: 1e-300 } }, 'model.params_override');
  throwsNaming({ hardware: { throughput_model: 'predicted', inter_node_gbps: 1e-300 } }, 'hardware.inter_node_gbps');
  for (const [fragment, field] of [['v=1&ach=1e-300', 'hardware.achieved_tflops'], ['v=1&ach=0&mfu=1e-320', 'hardware.mfu'],
    ['v=1&P=1e-300', 'model.params_override']]) {
    const d = opens(fragment);
    assert.ok(d.issues.some((i) => i.field === field), `${fragment}: ${JSON.stringify(d.issues)}`);
  }
});

test('10.2: a global batch beyond 10^9 is rejected, never wraps', () => {
  throwsNaming({ training: { global_batch_size: 0, grad_accum_steps: 100000000, micro_batch_size: 1000 },
    parallel: { num_gpus: 100000000 } }, 'training.grad_accum_steps', 'more than 1000000000');
  const d = opens('v=1&B=0&ga=100000000&b=1000&N=100000000&L=40');
  assert.ok(d.issues.some((i) => i.field === 'training.grad_accum_steps'));
  assert.equal(d.scenario.model.layers, 40);
  assert.equal(api.estimate(d.scenario).layout.global_batch_size, 1024);
});

test('10.3: every preset link opens valid in every version; h=4096&a=30 resets only the heads, once', () => {
  for (const v of [1, 2]) {
    for (const m of api.modelPresets()) opens(`v=${v}&mp=${m.id}`);
    for (const g of api.gpuPresets()) opens(`v=${v}&gpu=${g.id}`);
  }
  const gpt2 = opens('#v=1&mp=gpt2');
  assert.deepStrictEqual(gpt2.issues, []);
  assert.equal(gpt2.scenario.training.seq_len, 1024);
  const d = opens('v=1&h=4096&a=30&L=40&b=2');
  assert.equal(d.issues.length, 1);
  assert.equal(d.issues[0].field, 'model.hidden_size');
  assert.match(d.issues[0].message, /reset model\.num_heads to the default \(32\)$/);
  assert.equal(d.scenario.model.hidden_size, 4096);
  assert.equal(d.scenario.model.num_heads, 32);
  assert.equal(d.scenario.model.layers, 40);
  assert.equal(d.scenario.training.micro_batch_size, 2);
});

test('10.5: control, bidi and invisible format characters are rejected in every text field', () => {
  const bad = ['a\u0000b', '\u001b[2J', '\u202E123', 'a\u0085', 'x\u2066', 'zero\u200Bwidth', '\uFEFFbom', 'x'.repeat(201)];
  const textFields = api.fields().filter((f) => f.kind === 'text');
  assert.ok(textFields.length >= 2, 'model.name and hardware.gpu at least');
  for (const f of textFields) {
    const [section, name] = f.path.split('.');
    for (const text of bad) {
      throwsNaming({ [section]: { [name]: text } }, f.path);
      const d = opens(`v=2&${f.url_key}=${encodeURIComponent(text)}`);
      assert.ok(d.issues.some((i) => i.field === f.path), `${f.path} ${JSON.stringify(text)}: ${JSON.stringify(d.issues)}`);
    }
  }
  // Messages quote user text escaped: no control character reaches the caller.
  const d = api.decodeLink('v=1&%1B%5B31m=1&x%E2%80%AE=2&gpu=%1B%5B2J');
  for (const i of d.issues) assert.ok(!/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(i.field + i.message), JSON.stringify(i));
  assert.ok(d.issues.some((i) => i.field === 'hardware.gpu' && i.message.includes('U+001B')));
});

test('10.6: repeated link keys, loose numbers and bad escapes are named', () => {
  const repeated = opens('v=1&L=8&L=16&b=2');
  assert.ok(repeated.issues.some((i) => i.field === 'model.layers' && i.message.includes('is given 2 times')));
  assert.equal(repeated.scenario.model.layers, 32);
  const loose = opens('v=1&h=%-1&L=0x10&s=%20%205&P=1e-300&b=inf&N=nan&t=+2&p=1.');
  for (const field of ['link', 'model.layers', 'training.seq_len', 'model.params_override', 'training.micro_batch_size',
    'parallel.num_gpus', 'parallel.tensor', 'parallel.pipeline']) {
    assert.ok(loose.issues.some((i) => i.field === field), `${field}: ${JSON.stringify(loose.issues)}`);
  }
  // 50,000 unknown keys: at most 100 problems listed, then how many more.
  const many = api.decodeLink('v=2&' + Array.from({ length: 50000 }, (_, i) => `k${i}=1`).join('&'));
  assert.ok(many.issues.length <= 101, `${many.issues.length} problems listed`);
  assert.deepStrictEqual(api.validate(many.scenario), []);
});

test('10.5: every text the rule allows comes back exactly from estimate(), in the scenario and in notes', () => {
  // estimate()'s texts cross as one UTF-8 run cut by UTF-16 lengths (bindings.cpp, TextPart).
  const texts = ['"quoted"', 'back\\slash', '\ufffd replacement', '</script><b>', '\ud83d\ude00 astral', 'mixé ✓ 😀 a',
    '😀'.repeat(200), 'é'.repeat(200), 'x'.repeat(200), '{"json": [1]}', '\u00a0no-break', '%00', 'a'];
  for (const text of texts) {
    const e = api.estimate({ model: { preset: 'gpt2', name: text }, hardware: { gpu: text } });
    assert.equal(e.scenario.model.name, text);
    assert.equal(e.scenario.hardware.gpu, text);
    assert.ok(e.notes.some((n) => n.message.includes(text)), `${text}: ${JSON.stringify(e.notes)}`);
    finite(e);
  }
  // Texts the rule refuses never reach the text part; the next estimate is whole again.
  throwsNaming({ model: { name: 'a\u2028b' } }, 'model.name');
  assert.equal(api.estimate({ model: { name: 'after' } }).scenario.model.name, 'after');
});

// ── Issue 22.6: errors inside the contract, whatever the input is ──
// Values whose reading throws: a revoked Proxy, traps and getters that throw, a Symbol.toStringTag
// getter that throws, a thrown value that itself cannot be read.
const revoked = (() => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; })();
const fail = () => { throw new Error('trap'); };
const hostileValues = [
  ['a revoked Proxy', revoked],
  ['a Proxy whose every trap throws', new Proxy({}, { ownKeys: fail, get: fail, getPrototypeOf: fail, has: fail,
    getOwnPropertyDescriptor: fail })],
  ['a throwing Symbol.toStringTag', { get [Symbol.toStringTag]() { throw new Error('tag'); } }],
  ['a Symbol.toStringTag of "Array"', { [Symbol.toStringTag]: 'Array', model: {} }],
  ['a getter that throws', { get model() { throw new Error('getter'); } }],
  ['a getter that throws a revoked Proxy', { get model() { throw revoked; } }],
  ['a getter that throws a Symbol', { get training() { throw Symbol('thrown'); } }],
  ['a String object', new String('v=2')],
];
const issueList = (issues, where) => {
  assert.ok(Array.isArray(issues) && issues.length > 0, `${where}: no issues`);
  for (const i of issues) assert.ok(typeof i.field === 'string' && typeof i.message === 'string', `${where}: ${String(i)}`);
};
const throwsDocumented = (run, name, where) => assert.throws(run, (e) => {
  assert.ok(e instanceof Error, `${where}: threw ${typeof e}`);
  assert.equal(e.name, name, `${where}: ${e.name}: ${e.message}`);
  issueList(e.issues, where);
  return true;
});

test('22.6: validate() and decodeLink() never throw; the others throw only ScenarioError or ImportError', () => {
  const valid = { model: { preset: 'gpt2' } };
  for (const [what, value] of hostileValues) {
    for (const [where, scenario] of [['scenario', value], ['section', { model: value }], ['field', { model: { layers: value } }],
      ['deep', { training: value, model: { preset: 'gpt2' } }]]) {
      const label = `${what} as ${where}`;
      issueList(api.validate(scenario), `validate: ${label}`);
      throwsDocumented(() => api.estimate(scenario), 'ScenarioError', `estimate: ${label}`);
      throwsDocumented(() => api.plan(scenario), 'ScenarioError', `plan: ${label}`);
      throwsDocumented(() => api.encodeLink(scenario), 'ScenarioError', `encodeLink: ${label}`);
      throwsDocumented(() => api.importHfConfig('{"num_hidden_layers": 2}', scenario), 'ImportError', `importHfConfig base: ${label}`);
    }
    const d = api.decodeLink(value);
    issueList(d.issues, `decodeLink: ${what}`);
    assert.deepStrictEqual(api.validate(d.scenario), [], `decodeLink: ${what}: invalid scenario`);
    assert.deepStrictEqual(d.notes, []);
    throwsDocumented(() => api.plan(valid, value), 'ScenarioError', `plan options: ${what}`);
    throwsDocumented(() => api.plan(valid, { hold: value }), 'ScenarioError', `plan options.hold: ${what}`);
    throwsDocumented(() => api.importHfConfig(value), 'ImportError', `importHfConfig: ${what}`);
    throwsDocumented(() => api.importDeepSpeedConfig(value), 'ImportError', `importDeepSpeedConfig: ${what}`);
  }
  // A getter's own message is quoted, so the caller sees what went wrong.
  const issues = api.validate({ get model() { throw new Error('no model today'); } });
  assert.ok(issues.some((i) => i.field === 'scenario' && i.message.includes('no model today')), JSON.stringify(issues));
  // The API still works afterwards.
  assert.deepStrictEqual(api.validate(valid), []);
  assert.equal(api.estimate(valid).scenario.model.name, 'GPT-2 124M');
});

// ── Issue 22.7: no input grows the module's memory beyond what the codec reads ──
// A second instance whose WebAssembly memory the test can see (the API does not expose it).
async function apiWithMemory() {
  const { createVramcalc } = await importModule();
  const instantiate = WebAssembly.instantiate;
  let memory = null;
  WebAssembly.instantiate = async (...args) => {
    const result = await instantiate.apply(WebAssembly, args);
    const exports = (result.instance || result).exports;
    memory = Object.values(exports).find((x) => x instanceof WebAssembly.Memory) || null;
    return result;
  };
  try {
    const instance = await createVramcalc();
    assert.ok(memory, 'the module exports its memory');
    return { instance, bytes: () => memory.buffer.byteLength };
  } finally {
    WebAssembly.instantiate = instantiate;
  }
}

test('22.7: a 300 M-character link, config or name is refused by its length without growing the wasm heap', async () => {
  const { instance, bytes } = await apiWithMemory();
  instance.decodeLink('v=2&b=2');  // the usual buffers, allocated once
  const before = bytes();
  const huge = 'v=2&b=2&' + 'x'.repeat(300_000_000);
  const long = 'v=2&b=2&' + 'x'.repeat(10_000_000);
  for (const link of [huge, '#' + long, 'https://example.org/#' + long, '##' + long]) {
    const d = instance.decodeLink(link);
    assert.deepStrictEqual(d.issues, [{ field: 'link', message: 'is longer than 8192 characters; ignored' }]);
    assert.deepStrictEqual(d.scenario, instance.defaultScenario());
  }
  // Exactly at the limit it is read (8,192 characters, a leading '#' not counted).
  const atLimit = 'v=2&b=2&L=8&' + 'x'.repeat(8192 - 12);
  assert.equal(instance.decodeLink('#' + atLimit).scenario.model.layers, 8);
  assert.equal(instance.decodeLink(atLimit + 'y').issues[0].message, 'is longer than 8192 characters; ignored');
  const config = '{"num_hidden_layers": 2, "x": "' + 'y'.repeat(20_000_000) + '"}';
  assert.throws(() => instance.importHfConfig(config), (e) => e.name === 'ImportError' &&
    e.issues[0].field === 'json' && e.issues[0].message === 'is larger than 1048576 bytes; not read');
  assert.throws(() => instance.importDeepSpeedConfig(config), (e) => e.name === 'ImportError' && e.issues[0].field === 'json');
  const name = 'n'.repeat(20_000_000);
  for (const run of [() => instance.estimate({ model: { name } }), () => instance.encodeLink({ hardware: { gpu: name } })]) {
    assert.throws(run, (e) => e.name === 'ScenarioError' && e.issues.some((i) =>
      (i.field === 'model.name' || i.field === 'hardware.gpu') && i.message === 'is longer than 1048576 characters; not read'));
  }
  const keys = Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`unknown_key_${i}`, 1]));
  assert.throws(() => instance.estimate({ model: keys }), (e) => e.name === 'ScenarioError' &&
    e.issues.some((i) => i.field === 'scenario' && i.message === 'is larger than 1048576 bytes as JSON text; not read'));
  assert.throws(() => instance.plan({}, { hold: [name] }), (e) => e.name === 'ScenarioError' && e.issues[0].field === 'options');
  const grown = bytes() - before;
  assert.ok(grown <= 8 * 1024 * 1024, `the wasm heap grew by ${grown} bytes`);
  assert.equal(instance.estimate({ model: { preset: 'gpt2' } }).parameters.total, 124439808);  // GPT-2 124M, HF config
});
