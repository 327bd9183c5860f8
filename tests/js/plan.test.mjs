// plan(): the layout planner through the JS API equals `vramcalc --plan --json` number for number,
// its plans open as links, and bad options are named errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cliJson, loadApi } from './_support.mjs';

const api = await loadApi();

const scenarios = {
  'Llama-2-70B, H100, 64 GPUs, FlashAttention': {
    model: 'llama-2-70b',
    training: { seq_len: 4096, global_batch_size: 1024, flash_attention: true, dropout: false },
    parallel: { num_gpus: 64 },
    hardware: { gpu: 'H100-SXM', throughput_model: 'predicted' },
  },
  'GPT-3 175B on 384 A100s (arXiv 2104.04473 Table 2), t held': {
    model: 'gpt3-175b',
    training: { global_batch_size: 1536, precision: 'mixed_fp16', recompute: 'full', tokens: 300e9 },
    parallel: { num_gpus: 384, tensor: 8, zero_stage: 0 },
  },
};

test('plan() equals vramcalc --plan --json', () => {
  for (const [name, scenario] of Object.entries(scenarios)) {
    const { status, json } = cliJson(scenario, ['--plan', '--plan-top', '5']);
    assert.equal(status, 0, name);
    const result = api.plan(scenario, { max_results: 5 });
    assert.deepStrictEqual(result, json, name);
    assert.ok(result.plans.length > 0, name);
    assert.ok(result.searched >= result.feasible && result.feasible >= result.plans.length, name);
  }
});

test('each plan opens as a link with the same step time, best first', () => {
  const result = api.plan(scenarios['Llama-2-70B, H100, 64 GPUs, FlashAttention']);
  let previous = 0;
  for (const p of result.plans) {
    const { scenario, issues } = api.decodeLink(p.link);
    assert.deepStrictEqual(issues, []);
    const e = api.estimate(scenario);
    assert.equal(e.performance.step_seconds, p.performance.step_seconds);
    assert.equal(scenario.parallel.tensor, p.layout.tensor);
    assert.ok(p.performance.step_seconds >= previous * 0.999);
    previous = p.performance.step_seconds;
  }
});

test('options: num_gpus, hold, and named errors', () => {
  const base = scenarios['GPT-3 175B on 384 A100s (arXiv 2104.04473 Table 2), t held'];
  const held = api.plan(base, { hold: ['tensor', 'recompute'], num_gpus: 768 });
  assert.equal(held.num_gpus, 768);
  for (const p of held.plans) {
    assert.equal(p.layout.tensor, 8);
    assert.equal(p.layout.recompute, 'full');
  }
  const expectError = (options, field) => {
    assert.throws(() => api.plan(base, options), (e) => e.name === 'ScenarioError' && e.issues.some((i) => i.field === field));
  };
  expectError({ max_results: 0 }, 'options.max_results');
  expectError({ num_gpus: 1.5 }, 'options.num_gpus');
  expectError({ hold: ['tensr'] }, 'options.hold');
  expectError({ hold: 'tensor' }, 'options.hold');
  expectError({ min_headroom_fraction: Number.NaN }, 'options.min_headroom_fraction');
  expectError({ bogus: 1 }, 'options.bogus');
  expectError('x', 'options');
  assert.throws(() => api.plan({ model: { layers: 0 } }), (e) => e.issues.some((i) => i.field === 'model.layers'));
});
