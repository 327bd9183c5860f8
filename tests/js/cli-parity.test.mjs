// The JS API and the native CLI are two faces of one core: for the same scenario they must print
// the same JSON, number for number (deepStrictEqual on the parsed objects, no tolerance).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cliJson, loadApi } from './_support.mjs';

const scenarios = {
  'defaults (GPT-3 6.7B on 8 x A100-80GB)': {},
  'serving: Llama-3-8B on vLLM, H100, 32 sequences of 8k': {
    workload: 'inference',
    model: 'llama-3-8b',
    hardware: { gpu: 'H100-SXM' },
    inference: { engine: 'vllm', context_len: 8192, concurrency: 32 },
  },
  'serving: Llama-2-7B GGUF Q4_K_M on llama.cpp, 20 layers on an RTX 4090': {
    workload: 'inference',
    model: 'llama-2-7b',
    hardware: { gpu: 'RTX-4090' },
    inference: { engine: 'llamacpp', weight_format: 'gguf-q4_k_m', context_len: 4096, gpu_layers: 20 },
  },
  'Llama-3-8B, H100, ZeRO-3 with live params, FlashAttention, 64 GPUs': {
    model: { preset: 'llama-3-8b' },
    training: { micro_batch_size: 4, seq_len: 8192, flash_attention: true, dropout: false },
    parallel: { num_gpus: 64, zero_stage: 3, zero3_live_params: 1e9 },
    hardware: { gpu: 'H100-SXM' },
  },
  'Mixtral-8x7B MoE, t=2 p=4 ep=8, sequence parallel, 8-bit Adam, selective recompute': {
    model: { preset: 'mixtral-8x7b' },
    training: { precision: 'bf16', optimizer: 'adamw_8bit', recompute: 'selective' },
    parallel: { num_gpus: 64, tensor: 2, pipeline: 4, expert: 8, sequence_parallel: true },
  },
  'GPT-2 124M on one RTX 4090, fp32 + SGD momentum, throughput from MFU': {
    model: { preset: 'gpt2' },
    training: { seq_len: 1024, micro_batch_size: 8, global_batch_size: 512, precision: 'fp32', grad_dtype: 'fp32',
      optimizer: 'sgd_momentum', tokens: 9e9 },
    parallel: { num_gpus: 1, zero_stage: 0 },
    hardware: { gpu: 'RTX-4090', achieved_tflops: 0, mfu: 0.35 },
  },
  'Llama-2-70B on 512 GPUs, t=8 p=8, optimizer offload, full recompute, reserved memory': {
    model: 'llama-2-70b',
    training: { recompute: 'full' },
    parallel: { num_gpus: 512, tensor: 8, pipeline: 8, zero_stage: 1, offload_optimizer: true },
    hardware: { reserved_gib: 2.5, price_per_gpu_hour: 2.2 },
  },
  'params_override 7.5e9, ZeRO-2 over 64 GPUs, mixed fp16, attention FLOPs': {
    model: { params_override: 7.5e9 },
    training: { precision: 'mixed_fp16', attention_flops: true },
    parallel: { num_gpus: 64, zero_stage: 2 },
  },
  'a tiny custom model with an odd name, grad-accum-driven batch, uneven custom GPU': {
    model: { name: 'Tiny "test" model ✓ & co', layers: 3, hidden_size: 96, num_heads: 3, vocab_size: 1000,
      max_position_embeddings: 128, tied_embeddings: false },
    training: { seq_len: 128, micro_batch_size: 2, global_batch_size: 0, grad_accum_steps: 5, tokens: 1e9 },
    parallel: { num_gpus: 6, pipeline: 3 },
    hardware: { gpu: 'my lab GPU', memory_gib: 12.5, peak_tflops: 50, achieved_tflops: 20 },
  },
  'GPT-3 175B on 8 x A100: does not fit, with warnings': {
    model: { preset: 'gpt3-175b' },
  },
  'LoRA r16 on q,k,v,o with dropout, fp32 adapters, Llama-3-8B on 2 GPUs, full recompute': {
    model: 'llama-3-8b',
    training: { method: 'lora', lora_rank: 16, lora_targets: 'q,k,v,o', lora_dropout: 0.05, recompute: 'full',
      micro_batch_size: 4, global_batch_size: 64, tokens: 2e8 },
    parallel: { num_gpus: 2, zero_stage: 0 },
  },
  'QLoRA NF4 all linear layers, torchtune, Qwen2.5-7B on one RTX 4090': {
    model: 'qwen2.5-7b',
    training: { method: 'qlora', lora_rank: 64, lora_targets: 'all_linear', framework: 'torchtune', precision: 'bf16',
      adapter_dtype: 'match', recompute: 'full', global_batch_size: 8, tokens: 5e7 },
    parallel: { num_gpus: 1, zero_stage: 0 },
    hardware: { gpu: 'RTX-4090' },
  },
  'freeze: the last 4 layers of DeepSeekMoE-16B, int8 format set but unused': {
    model: 'deepseek-moe-16b',
    training: { method: 'freeze', trainable_layers: 4, base_weight_format: 'int8', global_batch_size: 32 },
    parallel: { num_gpus: 8, zero_stage: 2, expert: 8 },
  },
};

const api = await loadApi();

for (const [name, scenario] of Object.entries(scenarios)) {
  test(`estimate() equals vramcalc --json: ${name}`, () => {
    const { status, json } = cliJson(scenario);
    assert.equal(status, 0, `the CLI rejected the scenario: ${JSON.stringify(json.errors)}`);
    assert.deepStrictEqual(api.estimate(scenario), json);
  });

  test(`encodeLink() equals vramcalc --print-link, and the link opens the same estimate: ${name}`, () => {
    const { json, before } = cliJson(scenario, ['--print-link']);
    const link = api.encodeLink(scenario);
    assert.equal(link, before.trim());
    const fromLink = cliJson({}, ['--link', link]).json;
    assert.deepStrictEqual(api.estimate(api.decodeLink(link).scenario), fromLink);
    assert.deepStrictEqual(fromLink, json);
  });
}

test('the sample scenarios differ from one another (the comparison is not vacuous)', () => {
  const totals = Object.values(scenarios).map((s) => api.estimate(s).memory_per_gpu_bytes.total);
  assert.equal(new Set(totals).size, totals.length);
  assert.equal(api.estimate(scenarios['GPT-3 175B on 8 x A100: does not fit, with warnings']).fits, false);
});

test('a scenario breaking a rule: the CLI and the API report the same issues', () => {
  const bad = { model: { hidden_size: 4096, num_heads: 30 }, parallel: { num_gpus: 7 } };
  const { status, json } = cliJson(bad);
  assert.notEqual(status, 0);
  assert.ok(json.errors.length >= 2);
  assert.deepStrictEqual(api.validate(bad), json.errors);
  assert.throws(() => api.estimate(bad), (e) => {
    assert.deepStrictEqual(e.issues, json.errors);
    return true;
  });
});
