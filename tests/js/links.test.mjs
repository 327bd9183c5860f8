// Links: decode(encode(x)) == x, pinned links that must open identically in every later version,
// and hostile links that must open as valid scenarios with issues naming their keys.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cliJson, loadApi } from './_support.mjs';

const api = await loadApi();
const clone = (x) => JSON.parse(JSON.stringify(x));

// ───────────── Round trips ─────────────

const roundTrips = [
  ['the defaults', {}],
  ['a preset with edits', { model: { preset: 'llama-3-8b', layers: 16, num_kv_heads: 4 }, training: { micro_batch_size: 2 } }],
  ['a preset renamed', { model: { preset: 'gpt2', name: 'my GPT-2' }, training: { seq_len: 1024 } }],
  ['a preset carrying another preset\'s name', { model: { preset: 'gpt2', name: 'Llama-2-7B' }, training: { seq_len: 512 } }],
  ['an empty model name', { model: { name: '' } }],
  ['a name with URL syntax, unicode and markup',
    { model: { name: 'a&b=c#d%e+f?g/h ü ✓ "q" <script>alert(1)</script>' } }],
  ['a GPU preset with edits', { hardware: { gpu: 'H100-SXM', memory_gib: 94, price_per_gpu_hour: 0.1 + 0.2 } }],
  ['a custom GPU label', { hardware: { gpu: 'TPU v5e (sort of)', memory_gib: 16, peak_tflops: 197, achieved_tflops: 0, mfu: 0.42 } }],
  ['numbers that need exponents and many digits',
    { model: { params_override: 7.5e9 }, training: { tokens: 1.23456789012e12 }, parallel: { zero_stage: 3, zero3_live_params: 1e9 } }],
  ['tiny and fractional numbers', { hardware: { achieved_tflops: 0, mfu: 1.2345e-4, reserved_gib: 0.000123, price_per_gpu_hour: 1e-9 } }],
  ['every choice away from its default',
    { model: { mlp: 'swiglu', norm: 'rmsnorm', position_embedding: 'rope', bias: false, qkv_bias: true, tied_embeddings: false },
      training: { precision: 'fp16', grad_dtype: 'fp32', optimizer: 'sgd', recompute: 'full', flash_attention: true, dropout: false, attention_flops: true } }],
  ['a big parallel layout', { model: { preset: 'llama-3.1-405b' },
    parallel: { num_gpus: 16384, tensor: 8, pipeline: 16, zero_stage: 1, sequence_parallel: true, partition_activations: true },
    training: { seq_len: 8192, global_batch_size: 2048, tokens: 15.6e12 } }],
  ['MoE with expert parallelism and offload', { model: 'mixtral-8x7b', parallel: { num_gpus: 16, expert: 8, offload_optimizer: true } }],
  ['the predicted throughput model with interleaving and custom links',
    { parallel: { num_gpus: 64, pipeline: 4, interleave: 2 },
      hardware: { throughput_model: 'predicted', gpus_per_node: 4, intra_node_gbps: 123.5, inter_node_gbps: 12.5, memory_bandwidth_gbps: 1555 } }],
  ['grad accumulation instead of a global batch', { training: { global_batch_size: 0, grad_accum_steps: 3 } }],
  ['LoRA with an explicit target list', { model: 'llama-3-8b',
    training: { method: 'lora', lora_rank: 32, lora_targets: 'q,v,gate', lora_dropout: 0.1, adapter_dtype: 'match' } }],
  ['QLoRA with int8 base weights', { model: 'mistral-7b', training: { method: 'qlora', lora_targets: 'all_linear', base_weight_format: 'int8' } }],
  ['freeze the last 2 layers', { model: 'gemma-2-2b', training: { method: 'freeze', trainable_layers: 2 } }],
];

const presetRoundTrips = [
  ...api.modelPresets().map((p) => [`model preset ${p.id}`, { model: { preset: p.id }, training: { seq_len: 1024 } }]),
  ...api.gpuPresets().map((g) => [`GPU preset ${g.id}`, { hardware: { gpu: g.id } }]),
];

for (const [what, input] of [...roundTrips, ...presetRoundTrips]) {
  test(`decodeLink(encodeLink(x)) == x: ${what}`, () => {
    const expected = api.estimate(input).scenario;  // x with every default filled in
    const link = api.encodeLink(input);
    assert.match(link, /^v=3(&|$)/);  // new links are written in the current version
    assert.ok(!/[#\s]/.test(link), `a fragment-safe link: ${link}`);
    const decoded = api.decodeLink(link);
    assert.deepStrictEqual(decoded.issues, [], link);
    assert.deepStrictEqual(decoded.scenario, expected, link);
    assert.equal(api.encodeLink(decoded.scenario), link, 'encoding is stable');
    assert.deepStrictEqual(api.decodeLink(`#${link}`), decoded, 'a leading # is accepted');
  });
}

test('a LoRA link round-trips through every face with identical numbers (link, JS API, CLI)', () => {
  // The link a person shares: QLoRA on Llama 3.1 8B, r 16 on q, k, v, o, one RTX 4090.
  const link = 'v=3&mp=llama-3.1-8b&gpu=RTX-4090&meth=qlora&rank=16&tgt=attention&ldrop=0.05&b=2&B=16&N=1&z=0';
  const decoded = api.decodeLink(link);
  assert.deepStrictEqual(decoded.issues, []);
  const t = decoded.scenario.training;
  assert.equal(t.method, 'qlora');
  assert.equal(t.lora_rank, 16);
  assert.equal(t.lora_targets, 'attention');
  assert.equal(t.lora_dropout, 0.05);
  const fromApi = api.estimate(decoded.scenario);
  assert.equal(fromApi.parameters.trainable, 32 * 16 * ((4096 + 4096) + 2 * (4096 + 1024) + (4096 + 4096)));
  // The JS API writes the same link back, the CLI opens it to the same numbers and prints it again.
  assert.equal(api.encodeLink(decoded.scenario), link);
  const fromCli = cliJson({}, ['--link', link]);
  assert.equal(fromCli.status, 0);
  assert.deepStrictEqual(fromCli.json, fromApi);
  const printed = cliJson(decoded.scenario, ['--print-link']);
  assert.equal(printed.before.trim(), link);
  // The target list in its text form survives the link too (written in q,k,v,o,gate,up,down order).
  const listed = api.encodeLink({ ...decoded.scenario, training: { ...t, lora_targets: 'gate, v_proj' } });
  assert.match(listed, /(^|&)tgt=v(,|%2C)gate(&|$)/);
  assert.equal(api.decodeLink(listed).scenario.training.lora_targets, 'v,gate');
});

test('links hold only what differs from the defaults', () => {
  assert.equal(api.encodeLink({}), 'v=3');
  assert.equal(api.encodeLink(api.defaultScenario()), 'v=3');
  assert.equal(api.encodeLink({ training: { micro_batch_size: 4 } }), 'v=3&b=4');
  assert.equal(api.encodeLink({ model: { preset: 'llama-2-7b' } }), 'v=3&mp=llama-2-7b');
});

test('decodeLink accepts a whole URL and reads only its fragment', () => {
  const d = api.decodeLink('https://example.org/vramcalc/?L=1#v=1&L=40');
  assert.deepStrictEqual(d.issues, []);
  assert.equal(d.scenario.model.layers, 40);
});

// ───────────── Pinned links: these strings must decode identically forever ─────────────
// Expected values are written by hand from what each key means (docs/api.md, fields table) and
// from the sources of the presets; they must not be regenerated from the code.

// Link version 1 defaults: GPT-3 6.7B (Brown et al. 2020, Table 2.1) on 8 x A100-80GB. A v=1 link
// stores only what differs from these, so they can never change without breaking old links.
const V1_DEFAULTS = Object.freeze({
  model: {
    name: 'GPT-3 6.7B', layers: 32, hidden_size: 4096, num_heads: 32, num_kv_heads: 0, head_dim: 0,
    ffn_hidden_size: 0, vocab_size: 50257, mlp: 'gelu', norm: 'layernorm', bias: true, qkv_bias: false,
    tied_embeddings: true, position_embedding: 'learned', max_position_embeddings: 2048, num_experts: 1,
    experts_per_token: 1, params_override: 0,
    // Fields added after version 1 take the values that reproduce what a v1 link meant.
    activation: 'auto', norms_per_layer: 2, moe_ffn_hidden_size: 0, num_shared_experts: 0, dense_layers: 0,
    // Attention variants and hybrid layers (issue 24): off.
    kv_lora_rank: 0, q_lora_rank: 0, qk_rope_head_dim: 0, qk_nope_head_dim: 0, v_head_dim: 0, sliding_window: 0,
    global_attention_interval: 0, qk_norm: false, attention_sinks: false, attention_output_gate: false,
    full_attention_interval: 0, linear_attention: 'gated_deltanet', linear_num_key_heads: 0, linear_num_value_heads: 0,
    linear_key_head_dim: 0, linear_value_head_dim: 0, linear_conv_kernel: 4, ssm_state_size: 0, ssm_expand: 2,
    router_bias: false, shared_expert_gate: false,
  },
  training: {
    seq_len: 2048, micro_batch_size: 1, global_batch_size: 1024, grad_accum_steps: 0, tokens: 300e9,
    precision: 'mixed_bf16', grad_dtype: 'match', optimizer: 'adamw', recompute: 'none', flash_attention: false,
    dropout: true, attention_flops: false,
    // Version 1 estimated the idealised fused-kernel case with every model state resident.
    framework: 'generic', kernels: 'fused', loss: 'standard', loss_chunks: 8, recompute_layers: 0,
    optimizer_impl: 'fused', paged_optimizer: false, persistent_gradients: true, optimizer_in_backward: false,
    offload_activations: false,
    // Every parameter trained.
    method: 'full', lora_rank: 8, lora_targets: 'q,v', lora_dropout: 0, adapter_dtype: 'fp32',
    base_weight_format: 'nf4', trainable_layers: 0,
    // Added after v1 (issue 25): no FP8 linears.
    fp8: 'none',
  },
  parallel: {
    num_gpus: 8, tensor: 1, pipeline: 1, zero_stage: 1, sequence_parallel: false, partition_activations: false,
    zero3_live_params: 0, offload_optimizer: false, expert: 1,
    offload_params: false, zero_impl: 'deepspeed',
    // Added after v1 with the value that keeps every v1 link's meaning: no interleaving.
    interleave: 1,
    // Added after v1 (issue 25): no context parallelism, ZeRO sharded over every rank (no HSDP).
    context: 1, shard_group: 0,
    // Added after v1 (issue 25): Megatron's default, no TP communication overlap.
    tp_comm_overlap: false,
  },
  hardware: {
    gpu: 'A100-80GB', memory_gib: 80, peak_tflops: 312, achieved_tflops: 150, mfu: 0, price_per_gpu_hour: 1.8,
    reserved_gib: 0,
    // Version 1 counted no CUDA context and no allocator reserve.
    cuda_context_gib: 0, allocator_overhead: 0,
    // Added after v1: the fixed throughput model keeps v1's time and cost; the node, links and
    // memory bandwidth are the A100-80GB preset's (DGX A100 datasheet: 8 GPUs, NVLink 600 GB/s both
    // ways, one 200 Gb/s HDR NIC per GPU; A100 80GB SXM datasheet: 2039 GB/s).
    throughput_model: 'fixed', gpus_per_node: 8, intra_node_gbps: 300, inter_node_gbps: 25, memory_bandwidth_gbps: 2039,
  },
  // Added after v1 (serving, issue 24): every older link is a training scenario; the serving
  // settings keep their defaults.
  workload: 'training',
  inference: {
    engine: 'vllm', weight_format: 'bf16', quant_group_size: 128, kv_cache_dtype: 'auto', context_len: 8192,
    concurrency: 1, gpu_memory_utilization: 0, max_batched_tokens: 0, gpu_layers: -1, prompt_tokens: 1024,
    output_tokens: 256, sampler: 'flashinfer', weight_bytes_override: 0,
  },
});

function withEdits(edits) {
  const s = clone(V1_DEFAULTS);
  for (const [section, fields] of Object.entries(edits)) Object.assign(s[section], fields);
  return s;
}

// Llama 2 7B (Hugging Face config.json): 32 layers, 4096 wide, 32 heads (no GQA), SwiGLU with
// 11008, vocabulary 32000, RMSNorm, no biases, untied embeddings, RoPE, 4096 positions.
const LLAMA_2_7B = {
  name: 'Llama-2-7B', layers: 32, hidden_size: 4096, num_heads: 32, num_kv_heads: 32, head_dim: 0,
  ffn_hidden_size: 11008, vocab_size: 32000, mlp: 'swiglu', norm: 'rmsnorm', bias: false, qkv_bias: false,
  tied_embeddings: false, position_embedding: 'rope', max_position_embeddings: 4096, num_experts: 1,
  experts_per_token: 1, params_override: 0,
};
// NVIDIA H100 SXM: 80 GB HBM3 reported as 81559 MiB = 79.6 GiB, 989 dense bf16 TFLOP/s; the
// preset's achieved 400 TFLOP/s (Llama 3 paper) and $3.0 per GPU-hour.
// DGX H100 datasheet: 8 GPUs, NVLink 900 GB/s both ways, one 400 Gb/s NIC per GPU; H100 SXM 3.35 TB/s HBM3.
const H100_SXM = {
  gpu: 'H100-SXM', memory_gib: 79.6, peak_tflops: 989, achieved_tflops: 400, mfu: 0, price_per_gpu_hour: 3, reserved_gib: 0,
  throughput_model: 'fixed', gpus_per_node: 8, intra_node_gbps: 450, inter_node_gbps: 50, memory_bandwidth_gbps: 3350,
};
// Mixtral 8x7B (config.json): Mistral-7B layers with 8 experts, 2 per token, 8 KV heads, 32768 positions.
const MIXTRAL = {
  name: 'Mixtral-8x7B', layers: 32, hidden_size: 4096, num_heads: 32, num_kv_heads: 8, head_dim: 0,
  ffn_hidden_size: 14336, vocab_size: 32000, mlp: 'swiglu', norm: 'rmsnorm', bias: false, qkv_bias: false,
  tied_embeddings: false, position_embedding: 'rope', max_position_embeddings: 32768, num_experts: 8,
  experts_per_token: 2, params_override: 0,
};

const pinned = [
  {
    link: 'v=1',
    scenario: withEdits({}),
  },
  {
    // The Llama-65B worked example shape of "LLM parameters, VRAM, TFLOPs? Training part 5":
    // 80 layers, h 8192, 64 heads, s 2048, b 1, GPT-shaped layers.
    link: 'v=1&L=80&h=8192&a=64&s=2048&b=1&name=worked%2065B',
    scenario: withEdits({ model: { name: 'worked 65B', layers: 80, hidden_size: 8192, num_heads: 64 } }),
    check: (e) => assert.equal(e.activations.transformer_layers_bytes, 80 * (34 * 2048 * 8192 + 5 * 64 * 2048 ** 2)),
  },
  {
    link: '#v=1&mp=llama-2-7b&gpu=H100-SXM&b=4&z=3&live=1e9&rc=selective&fa=1&drop=0',
    scenario: withEdits({
      model: LLAMA_2_7B,
      training: { micro_batch_size: 4, recompute: 'selective', flash_attention: true, dropout: false },
      parallel: { zero_stage: 3, zero3_live_params: 1e9 },
      hardware: H100_SXM,
    }),
    check: (e) => assert.equal(e.parameters.total, 6_738_415_616),
  },
  {
    link: 'v=1&mp=mixtral-8x7b&N=64&t=2&p=4&ep=8&prec=bf16&opt=adamw_8bit&D=2e12&name=My%20MoE%20run',
    scenario: withEdits({
      model: { ...MIXTRAL, name: 'My MoE run' },
      training: { precision: 'bf16', optimizer: 'adamw_8bit', tokens: 2e12 },
      parallel: { num_gpus: 64, tensor: 2, pipeline: 4, expert: 8 },
    }),
    check: (e) => assert.equal(e.parameters.total, 46_702_792_704),  // Mixtral 8x7B model card: 46.7B
  },
  {
    // One RTX 4090 (24 GB, 165.2 fp16-tensor TFLOP/s with fp32 accumulate), GPT-2-small shape.
    link: 'v=1&gpu=RTX-4090&L=12&h=768&a=12&maxpos=1024&s=1024&b=8&N=1&z=0&B=32&prec=fp32&opt=sgd&price=0.25&rsv=1.5',
    scenario: withEdits({
      model: { layers: 12, hidden_size: 768, num_heads: 12, max_position_embeddings: 1024 },
      training: { seq_len: 1024, micro_batch_size: 8, global_batch_size: 32, precision: 'fp32', optimizer: 'sgd' },
      parallel: { num_gpus: 1, zero_stage: 0 },
      // The preset's workstation: 4 GPUs on PCIe 4.0 x16 (32 GB/s), 10 Gb/s Ethernet; AD102 whitepaper 1008 GB/s.
      hardware: { gpu: 'RTX-4090', memory_gib: 24, peak_tflops: 165.2, achieved_tflops: 66, price_per_gpu_hour: 0.25, reserved_gib: 1.5,
        gpus_per_node: 4, intra_node_gbps: 32, inter_node_gbps: 1.25, memory_bandwidth_gbps: 1008 },
    }),
    check: (e) => assert.equal(e.parameters.total, 124_439_808),  // the GPT-2 124M architecture
  },
];

for (const { link, scenario, check } of pinned) {
  test(`pinned link opens identically: ${link}`, () => {
    const decoded = api.decodeLink(link);
    assert.deepStrictEqual(decoded.issues, []);
    assert.deepStrictEqual(decoded.scenario, scenario);
    const e = api.estimate(decoded.scenario);
    if (check) check(e);
  });
}

test('a link that names a field but no version, and v=1, open link version 1\'s defaults', () => {
  assert.deepStrictEqual(api.decodeLink('v=1').scenario, V1_DEFAULTS);
  assert.deepStrictEqual(api.decodeLink('L=40').scenario, withEdits({ model: { layers: 40 } }));
  assert.deepStrictEqual(api.decodeLink('theme=dark&L=40').scenario, withEdits({ model: { layers: 40 } }));
});

test('issue 21.1: the bare page, decodeLink(\'\'), #v=3, the CLI\'s defaults and defaultScenario() are one scenario', () => {
  // The empty fragment once opened version 1 (no CUDA context, no allocator reserve): 3.7–4 GiB per
  // GPU less than a v=2 link of the same scenario. Today's version is 3 (v2 counted no ZeRO-3 live
  // parameters, issue 21.6).
  const today = api.defaultScenario();
  assert.equal(today.hardware.cuda_context_gib, 0.5);
  assert.equal(today.hardware.allocator_overhead, 0.05);
  for (const fragment of ['', '#', 'v=3', '#v=3', 'https://example.org/vramcalc/#', 'units=gb&theme=light', '#embed=1']) {
    assert.deepStrictEqual(api.decodeLink(fragment), { scenario: today, issues: [], notes: [] }, JSON.stringify(fragment));
  }
  const expected = api.estimate(today).memory_per_gpu_bytes;
  assert.deepStrictEqual(api.estimate(api.decodeLink('').scenario).memory_per_gpu_bytes, expected);
  assert.equal(api.encodeLink(api.decodeLink('').scenario), 'v=3');  // no ctx=0&alloc=0 in copied links
  // The CLI: no arguments, and --link '' (after a config, which the link replaces).
  for (const link of ['', '#', 'v=3']) {
    const { status, json } = cliJson({ model: { layers: 40 } }, ['--link', link]);
    assert.equal(status, 0);
    assert.deepStrictEqual(json.scenario, today, `--link '${link}'`);
    assert.deepStrictEqual(json.memory_per_gpu_bytes, expected, `--link '${link}'`);
  }
  const plain = cliJson({});
  assert.deepStrictEqual(plain.json.scenario, today);
  assert.deepStrictEqual(plain.json.memory_per_gpu_bytes, expected);
});

test('a GPT-2 preset at the default 2,048 tokens: the sequence is lowered to its 1,024 positions, with a note', () => {
  // v1 meant 2,048 tokens (an invalid scenario): the change is noted. In v2 1,024 is what the link means.
  for (const [link, noted] of [['v=1&mp=gpt2', ['training.seq_len']], ['v=2&mp=gpt2', []]]) {
    const { scenario, issues, notes } = api.decodeLink(link);
    assert.deepStrictEqual(issues, [], link);
    assert.equal(scenario.training.seq_len, 1024, link);
    assert.deepStrictEqual(notes.map((n) => n.field), noted, link);
    assert.deepStrictEqual(api.validate(scenario), []);
  }
  const e = api.estimate({ model: { preset: 'gpt2-medium' } });
  assert.equal(e.scenario.training.seq_len, 1024);
  assert.deepStrictEqual(e.notes.map((n) => n.field), ['training.seq_len']);
  assert.equal(api.estimate({ model: { preset: 'gpt2' }, training: { seq_len: 512 } }).notes.length, 0);
});

// ───────────── Hostile links ─────────────
// Each opens as a valid scenario (the bad fields keep their defaults) with an issue naming the key.

const longName = 'A'.repeat(100_000);
const hostile = [
  // [link, the key or field an issue must name, scenario edits that must survive (or null)]
  ['v=1&zzz=1&L=40', 'zzz', { model: { layers: 40 } }],
  ['v=1&L=abc', 'model.layers', null],
  ['v=1&L=1.5', 'model.layers', null],
  ['v=1&L=nan', 'model.layers', null],
  ['v=1&L=99999999999999999999999', 'model.layers', null],
  ['v=1&h=1e308', 'model.hidden_size', null],
  ['v=1&D=1e999', 'training.tokens', null],
  ['v=1&D=-3', 'training.tokens', null],
  ['v=1&b=-5', 'training.micro_batch_size', null],
  ['v=1&N=0', 'parallel.num_gpus', null],
  ['v=1&h=100', 'model.hidden_size', null],
  ['v=1&t=3', 'parallel.tensor', null],
  ['v=1&fa=maybe', 'training.flash_attention', null],
  ['v=1&prec=fp8', 'training.precision', null],
  ['v=1&mp=gpt-5&L=40', 'model.preset', { model: { layers: 40 } }],
  ['v=4&L=40', 'v', { model: { layers: 40 } }],
  ['v=1&name=abc%2', 'name', null],
  ['v=1&L=4%', 'L', null],
  ['v=1&%E2%82=1&L=40', 'unknown link key', { model: { layers: 40 } }],  // a key that is not UTF-8
  ['v=1&L', 'L', null],
  [`v=1&name=${longName}`, 'link', null],
  [`v=1&name=${'x'.repeat(300)}`, 'model.name', null],
  ['v=1&%3Cscript%3Ealert(1)%3C%2Fscript%3E=1', '<script>', null],
  ['v=1&__proto__=1&constructor=2', '__proto__', null],
  ['v=1&mem=1e400&price=-1&ach=999999', 'hardware.memory_gib', null],
];

for (const [link, key, survives] of hostile) {
  test(`hostile link opens safely: ${link.length > 80 ? `${link.slice(0, 60)}… (${link.length} chars)` : link}`, () => {
    const { scenario, issues } = api.decodeLink(link);
    assert.deepStrictEqual(api.validate(scenario), [], 'the scenario is valid');
    assert.ok(issues.length > 0, 'the problem is reported');
    const mentioned = issues.some((i) => i.field === key || i.field.includes(key) || i.message.includes(key));
    assert.ok(mentioned, `an issue names ${key}: ${JSON.stringify(issues).slice(0, 400)}`);
    for (const i of issues) assert.ok(i.message.length < 400, 'messages stay short');
    if (survives) {
      for (const [section, fields] of Object.entries(survives))
        for (const [f, v] of Object.entries(fields)) assert.equal(scenario[section][f], v, `${section}.${f} kept`);
    }
    const e = api.estimate(scenario);
    assert.ok(Number.isFinite(e.memory_per_gpu_bytes.total));
  });
}

test('markup in a link stays inert text', () => {
  const { scenario, issues } = api.decodeLink('v=1&name=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E');
  assert.deepStrictEqual(issues, []);
  assert.equal(scenario.model.name, '<img src=x onerror=alert(1)><script>alert(1)</script>');
});

test('a text value that is not UTF-8 is reported and replaced by the default, never an exception', () => {
  const { scenario, issues } = api.decodeLink('v=1&name=%FF%FEok&L=40');
  assert.ok(issues.some((i) => i.field === 'model.name'), JSON.stringify(issues));
  assert.equal(scenario.model.name, V1_DEFAULTS.model.name);
  assert.equal(scenario.model.layers, 40);
  assert.deepStrictEqual(api.validate(scenario), []);
  for (const i of issues) assert.ok(!/[\ud800-\udfff]/.test(i.field + i.message), 'well-formed strings');
});

test('decodeLink never throws, whatever it is given', () => {
  for (const weird of [undefined, null, 42, {}, [], Symbol('x'), '', '#', '&&&=&==', '=', '%', '%%%', '\u0000', '\ud800', 'v=1&name=\ud800']) {
    const { scenario, issues } = api.decodeLink(weird);
    assert.deepStrictEqual(api.validate(scenario), []);
    assert.ok(Array.isArray(issues));
    if (typeof weird !== 'string') assert.equal(issues[0].field, 'link');
  }
  assert.deepStrictEqual(api.decodeLink(''), { scenario: api.defaultScenario(), issues: [], notes: [] });
});

test('issue 21.6: a v=3 link counts DeepSpeed\'s 1e9 ZeRO-3 live parameters, a v=2 link keeps counting none', () => {
  // deepspeed/runtime/zero/config.py: stage3_max_live_parameters defaults to 1e9.
  assert.equal(api.defaultScenario().parallel.zero3_live_params, 1e9);
  assert.equal(api.decodeLink('v=3&z=3').scenario.parallel.zero3_live_params, 1e9);
  assert.equal(api.decodeLink('v=2&z=3').scenario.parallel.zero3_live_params, 0);
  assert.equal(api.decodeLink('v=2&z=3&fw=hf').scenario.parallel.zero3_live_params, 0);
  assert.equal(api.decodeLink('v=3&z=3&fw=hf').scenario.parallel.zero3_live_params, 1e9);
  assert.equal(api.encodeLink(api.decodeLink('v=2&z=3').scenario), 'v=3&z=3&live=0');
});
