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

test('issue 22: one rule for the GPU count (plan_issues), shared with vramcalc --plan', () => {
  const llama = { model: 'llama-3-8b', hardware: { gpu: 'H100-SXM' } };
  // 7 GPUs: t = 1, p = 7, DP = 1 is a layout of a 32-layer model, in the options or in the scenario.
  const viaOptions = api.plan(llama, { num_gpus: 7, max_results: 3 });
  assert.ok(viaOptions.searched > 0 && viaOptions.plans.length > 0);
  const inScenario = { ...llama, parallel: { num_gpus: 7 } };
  const { status, json } = cliJson(inScenario, ['--plan', '--plan-top', '3']);
  assert.equal(status, 0);
  assert.deepStrictEqual(api.plan(inScenario, { max_results: 3 }), json);
  // 10^6 GPUs: more than t (≤ 8 KV heads) × p (≤ 32 layers) × DP (≤ the batch of 1,024) = 262,144.
  assert.throws(() => api.plan(llama, { num_gpus: 1e6 }), (e) => e.name === 'ScenarioError' &&
    e.issues.some((i) => i.field === 'options.num_gpus' && i.message.startsWith('must be at most 262144 for this model and batch')));
  // One H100: 8 B parameters × 16 bytes do not fit 80 GB; with the optimizer offloaded (ZeRO-1) they do.
  const one = api.plan({ ...llama, parallel: { num_gpus: 1 } }, { max_results: 1 });
  assert.equal(one.plans.length, 1);
  assert.equal(one.plans[0].layout.offload_optimizer, true);
  assert.ok(one.plans[0].layout.zero_stage >= 1);
});
