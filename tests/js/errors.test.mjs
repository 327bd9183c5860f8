// Bad input: estimate() and encodeLink() throw an Error whose message names every field;
// validate() lists the same issues and never throws. Nothing crashes, nothing returns NaN.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

import { distFile, importModule, loadApi } from './_support.mjs';

const api = await loadApi();

// [description, input, fields that must be named (each in message and issues)]
const cases = [
  ['heads that do not divide the hidden size', { model: { hidden_size: 4096, num_heads: 30 } }, ['model.hidden_size']],
  ['a string where a number belongs', { training: { seq_len: '2048' } }, ['training.seq_len']],
  ['a boolean where a number belongs', { parallel: { num_gpus: true } }, ['parallel.num_gpus']],
  ['a number where a choice belongs', { training: { precision: 16 } }, ['training.precision']],
  ['an unknown choice', { training: { optimizer: 'lion' } }, ['training.optimizer']],
  ['a fractional integer', { model: { layers: 31.5 } }, ['model.layers']],
  ['a negative micro-batch', { training: { micro_batch_size: -1 } }, ['training.micro_batch_size']],
  ['an unknown field', { model: { layerz: 32 } }, ['model.layerz']],
  ['an unknown section', { optimizer: { lr: 1e-4 } }, ['optimizer']],
  ['an unknown model preset', { model: { preset: 'gpt-5' } }, ['model.preset']],
  ['a section that is not an object', { training: 5 }, ['training']],
  ['an array as a section', { parallel: [1, 2] }, ['parallel']],
  ['null as a field', { model: { layers: null } }, ['model.layers']],
  ['an object as a field', { model: { layers: { value: 3 } } }, ['model.layers']],
  ['NaN', { model: { layers: NaN } }, ['model.layers']],
  ['Infinity', { training: { tokens: Infinity } }, ['training.tokens']],
  ['a function', { hardware: { memory_gib: () => 80 } }, ['hardware.memory_gib']],
  ['a huge BigInt', { model: { hidden_size: 2n ** 64n } }, ['model.hidden_size']],
  ['a number beyond 2^53 for an integer', { model: { vocab_size: 1e20 } }, ['model.vocab_size']],
  ['a 100 KB name', { model: { name: 'x'.repeat(100_000) } }, ['model.name']],
  ['several problems at once', { model: { layers: 'many', num_heads: 0 }, parallel: { zero_stage: 7 } },
    ['model.layers']],
  ['several rule violations', { model: { num_heads: 0 }, parallel: { zero_stage: 7, num_gpus: 0 } },
    ['model.num_heads', 'parallel.zero_stage', 'parallel.num_gpus']],
  ['null', null, ['scenario']],
  ['undefined', undefined, ['scenario']],
  ['a number', 42, ['scenario']],
  ['a string', '{"model": {}}', ['scenario']],
  ['an array', [{ model: {} }], ['scenario']],
  ['a Map', new Map([['model', {}]]), ['scenario']],
  ['a Date', new Date(0), ['scenario']],
  ['a "__proto__" section (from JSON.parse)', JSON.parse('{"__proto__": {"layers": 1}}'), ['__proto__']],
  ['a "__proto__" field (from JSON.parse)', JSON.parse('{"model": {"__proto__": 5}}'), ['model.__proto__']],
  ['a lone surrogate in a text field', { model: { name: 'ab\ud800c' } }, ['model.name']],
  ['a lone surrogate in a key', { model: { ['x\udc00']: 1 } }, ['model.x\\uDC00']],  // shown escaped (issue 22.8)
  ['a getter that throws', { get model() { throw new Error('boom'); } }, ['scenario']],
];

for (const [what, input, fields] of cases) {
  test(`estimate() throws an Error naming the field: ${what}`, () => {
    assert.throws(() => api.estimate(input), (e) => {
      assert.ok(e instanceof Error, 'an Error');
      assert.equal(e.name, 'ScenarioError');
      assert.ok(Array.isArray(e.issues) && e.issues.length > 0, 'error.issues');
      for (const issue of e.issues) {
        assert.equal(typeof issue.field, 'string');
        assert.equal(typeof issue.message, 'string');
        assert.ok(issue.message.length > 0);
        assert.ok(e.message.includes(`${issue.field}: ${issue.message}`), `message lists ${issue.field}`);
      }
      for (const field of fields) {
        assert.ok(e.issues.some((i) => i.field === field), `issues name ${field}: ${JSON.stringify(e.issues)}`);
        assert.ok(e.message.includes(`${field}: `), `message names ${field}: ${e.message}`);
      }
      assert.ok(e.message.length < 2000, 'the message stays short even for huge input');
      return true;
    });
  });

  test(`validate() lists the same issues and does not throw: ${what}`, () => {
    const issues = api.validate(input);
    assert.ok(issues.length > 0);
    let thrown;
    try { api.estimate(input); } catch (e) { thrown = e; }
    assert.deepStrictEqual(issues, thrown.issues);
  });

  test(`encodeLink() throws like estimate(): ${what}`, () => {
    assert.throws(() => api.encodeLink(input), (e) => e.name === 'ScenarioError' &&
      fields.every((f) => e.issues.some((i) => i.field === f)));
  });
}

test('messages state the rule, e.g. which numbers fail to divide', () => {
  const [issue] = api.validate({ model: { hidden_size: 4096, num_heads: 30 } });
  assert.equal(issue.field, 'model.hidden_size');
  assert.match(issue.message, /num_heads/);
  assert.match(issue.message, /4096/);
  assert.match(issue.message, /30/);
});

test('a string where a number belongs says what it got', () => {
  const [issue] = api.validate({ training: { seq_len: '2048' } });
  assert.match(issue.message, /integer/);
  assert.match(issue.message, /2048/);
});

test('valid input: validate() is empty, estimate() is finite everywhere', () => {
  const inputs = [{}, { model: {} }, { model: 'llama-2-7b' }, { model: { preset: 'gpt2', layers: 6 },
    training: { seq_len: 512, tokens: 1n * 10n ** 9n } }, { hardware: { gpu: 'H100-SXM' } },
  { model: { layers: undefined } }];
  const finite = (value, path) => {
    if (typeof value === 'number') assert.ok(Number.isFinite(value), path);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) finite(v, `${path}.${k}`);
  };
  for (const input of inputs) {
    assert.deepStrictEqual(api.validate(input), [], JSON.stringify(input, (k, v) => (typeof v === 'bigint' ? `${v}n` : v)));
    finite(api.estimate(input), 'estimate');
  }
});

test('undefined fields count as missing', () => {
  assert.deepStrictEqual(api.estimate({ model: { layers: undefined } }), api.estimate({}));
});

test('the API survives bad input: later calls still work', () => {
  for (const [, input] of cases) {
    try { api.estimate(input); } catch { /* expected */ }
  }
  assert.equal(api.estimate({}).parameters.total, api.estimate({}).parameters.total);
  assert.deepStrictEqual(api.validate({}), []);
});

test('options: locateFile and wasmBinary load the module too', async () => {
  const { createVramcalc } = await importModule();
  const wasmPath = distFile('vramcalc-wasm.wasm');
  const viaPath = await createVramcalc({ locateFile: () => wasmPath });
  const viaUrl = await createVramcalc({ locateFile: () => pathToFileURL(wasmPath).href });
  const viaBytes = await createVramcalc({ wasmBinary: readFileSync(wasmPath) });
  const expected = api.estimate({});
  for (const other of [viaPath, viaUrl, viaBytes]) assert.deepStrictEqual(other.estimate({}), expected);
  await assert.rejects(createVramcalc({ locateFile: () => `${wasmPath}.missing` }));
});
