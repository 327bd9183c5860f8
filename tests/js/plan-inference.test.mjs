// planInference(): the inference planner through the JS API equals `vramcalc --workload inference
// --plan --json` number for number, its rows open as links with the same verdict, and bad options
// are named errors (docs/serving.md §7).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cliJson, loadApi } from './_support.mjs';

const api = await loadApi();

// Llama-3.1-70B (70.6 B parameters, Meta model card) at 8k × 1 on H100s: 141 GB in bf16.
const llama70b = { model: 'llama-3.1-70b', workload: 'inference', inference: { context_len: 8192, concurrency: 1 } };

test('planInference() equals vramcalc --workload inference --plan --json', () => {
  const { status, json } = cliJson(llama70b, ['--plan', '--plan-top', '5', '--plan-gpus', 'H100-SXM,RTX-4090']);
  assert.equal(status, 0);
  const result = api.planInference(llama70b, { max_results: 5, gpus: ['H100-SXM', 'RTX-4090'] });
  assert.deepStrictEqual(result, json);
  assert.ok(result.plans.length === 5);
  assert.ok(result.searched >= result.fitting && result.fitting >= result.meeting && result.meeting >= 5);
});

test('bf16 needs two H100s, AWQ one; rows are cheapest first and open as links', () => {
  const r = api.planInference(llama70b, { max_results: 1000, gpus: ['H100-SXM'] });
  const has = (format, t) => r.plans.some((p) => p.weight_format === format && p.tensor === t);
  assert.ok(!has('bf16', 1) && has('bf16', 2) && has('awq', 1));
  let previous = 0;
  for (const p of r.plans.slice(0, 12)) {
    assert.ok(p.cost_per_million_output_tokens >= previous * 0.999);
    previous = p.cost_per_million_output_tokens;
    assert.ok(p.bits_per_weight >= 4);
    const { scenario, issues } = api.decodeLink(p.link);
    assert.deepStrictEqual(issues, []);
    const e = api.estimate(scenario);
    assert.equal(e.fits, true);
    assert.equal(e.memory_per_gpu_bytes.total, p.memory_per_gpu_bytes.total);
    assert.equal(scenario.inference.weight_format, p.weight_format);
  }
});

test('nothing fits / target out of reach: a message, not an error; bad options are named errors', () => {
  const none = api.planInference({ model: 'llama-3.1-405b', workload: 'inference' }, { max_gpus: 1 });
  assert.deepStrictEqual(none.plans, []);
  assert.equal(none.shortfall, 'nothing_fits');
  assert.match(none.message, /options\.max_gpus/);
  const far = api.planInference({ model: 'llama-3.1-8b', workload: 'inference' }, { min_sequence_tokens_per_second: 1e6 });
  assert.equal(far.shortfall, 'target_unreached');
  const expectError = (options, field) => {
    assert.throws(() => api.planInference(llama70b, options), (e) => e.name === 'ScenarioError' && e.issues.some((i) => i.field === field));
  };
  expectError({ min_tokens_per_second: -5 }, 'options.min_tokens_per_second');
  expectError({ min_tokens_per_second: 1e12 }, 'options.min_tokens_per_second');
  expectError({ min_bits_per_weight: Number.NaN }, 'options.min_bits_per_weight');
  expectError({ max_gpus: 0.5 }, 'options.max_gpus');
  expectError({ gpus: ['TPU-v9'] }, 'options.gpus');
  expectError({ gpus: 'H100-SXM' }, 'options.gpus');
  expectError({ all_engines: 'yes' }, 'options.all_engines');
  expectError({ bogus: 1 }, 'options.bogus');
  assert.throws(() => api.planInference({ model: 'llama-3.1-8b', inference: { context_len: 0 } }),
    (e) => e.issues.some((i) => i.field === 'inference.context_len'));
});
