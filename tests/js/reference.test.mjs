// Reference values from published sources, through the JS API. Every expected number below is
// written from its source (paper, model card, worked example), never copied from the code.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadApi } from './_support.mjs';

const api = await loadApi();

// Parameter counts as the sources publish them.
const published = [
  // Hugging Face checkpoint of GPT-2 (Radford et al. 2019): 124,439,808 parameters.
  ['gpt2', 124_439_808, { training: { seq_len: 1024 } }],
  // Llama 2 (Touvron et al. 2023), Hugging Face model cards / safetensors totals.
  ['llama-2-7b', 6_738_415_616, {}],
  ['llama-2-70b', 68_976_648_192, {}],
  // GPT-NeoX-20B (Black et al. 2022), Table 1: 20,554,567,680.
  ['gpt-neox-20b', 20_554_567_680, {}],
  // Llama 3 8B, Hugging Face model card (8.03B): 8,030,261,248.
  ['llama-3-8b', 8_030_261_248, {}],
];

for (const [preset, count, extra] of published) {
  test(`${preset}: parameters.total = ${count.toLocaleString('en')} (published)`, () => {
    const e = api.estimate({ ...extra, model: { preset } });
    assert.equal(e.parameters.total, count);
    assert.equal(e.scenario.model.name, api.modelPresets().find((p) => p.id === preset).name);
  });
}

test('the preset table states the same published counts', () => {
  const byId = Object.fromEntries(api.modelPresets().map((p) => [p.id, p]));
  for (const [preset, count] of published) assert.equal(byId[preset].published_params, count, preset);
});

test('worked example of "LLM parameters, VRAM, TFLOPs? Training part 5" (LLaMA-65B shape): 80·(34·s·h + 5·a·s²) bytes of layer activations', () => {
  // 80 layers, h = 8192, a = 64, s = 2048, b = 1, GELU with f = 4h, dropout on, no FlashAttention,
  // no recomputation, t = p = 1: per layer 34·s·b·h + 5·a·s²·b bytes (Korthikanti et al. 2022).
  const e = api.estimate({
    model: { layers: 80, hidden_size: 8192, num_heads: 64, mlp: 'gelu', ffn_hidden_size: 0 },
    training: { seq_len: 2048, micro_batch_size: 1, dropout: true, flash_attention: false, recompute: 'none' },
    parallel: { tensor: 1, pipeline: 1 },
  });
  const s = 2048, h = 8192, a = 64, L = 80;
  assert.equal(80 * (34 * s * h + 5 * a * s * s), 153_008_209_920);
  assert.equal(e.activations.sbh_coefficient, 34);
  assert.equal(e.activations.as2b_coefficient, 5);
  assert.equal(e.activations.transformer_layers_bytes, L * (34 * s * h + 5 * a * s * s));
  assert.equal(e.activations.transformer_layers_bytes, 153_008_209_920);
});

test('ZeRO paper, Fig. 1: 7.5B parameters, 64 GPUs, mixed precision Adam: 120 / 31.4 / 16.6 / 1.9 GB', () => {
  // Rajbhandari et al. 2019: model states per GPU are (2 + 2 + K)·Ψ with K = 12, then
  // 2Ψ + 2Ψ + KΨ/Nd (P_os), 2Ψ + (2 + K)Ψ/Nd (P_os+g), (2 + 2 + K)Ψ/Nd (P_os+g+p).
  const psi = 7.5e9, nd = 64;
  const expected = [120e9, 31.40625e9, 16.640625e9, 1.875e9];
  assert.deepEqual(expected, [16 * psi, 4 * psi + 12 * psi / nd, 2 * psi + 14 * psi / nd, 16 * psi / nd]);
  expected.forEach((bytes, stage) => {
    const e = api.estimate({
      model: { params_override: psi },
      training: { precision: 'mixed_fp16', optimizer: 'adamw' },
      parallel: { num_gpus: nd, tensor: 1, pipeline: 1, zero_stage: stage, zero3_live_params: 0 },
    });
    const m = e.memory_per_gpu_bytes;
    assert.equal(m.zero3_live_params, 0);
    assert.equal(m.weights + m.gradients + m.optimizer, bytes, `ZeRO stage ${stage}`);
  });
  // The figure's rounded labels.
  assert.deepEqual(expected.map((b) => Math.round(b / 1e8) / 10), [120, 31.4, 16.6, 1.9]);
});

test('GPT-3 175B: 6·P·D with D = 300B tokens is 3.14e23 FLOPs (Brown et al. 2020, Table D.1)', () => {
  const e = api.estimate({ model: { preset: 'gpt3-175b' }, training: { tokens: 300e9 } });
  assert.equal(e.compute.model_flops, 6 * e.parameters.total * 300e9);
  // The paper rounds to 3.14E+23; P is 174.6B here (the paper's "175B" is rounded too).
  assert.ok(Math.abs(e.compute.model_flops / 3.14e23 - 1) < 0.005, String(e.compute.model_flops));
  assert.ok(Math.abs(e.compute.pflop_days / 3640 - 1) < 0.005, String(e.compute.pflop_days));  // Table D.1: 3.64E+03
});

test('capacity is memory_gib GiB: 80 GiB = 85,899,345,920 bytes', () => {
  assert.equal(api.estimate({}).capacity_bytes, 80 * 2 ** 30);
  assert.equal(api.estimate({}).capacity_bytes, 85_899_345_920);
});
