// vramcalc.mjs: the public JavaScript API of vramcalc (an ES module, browsers and Node >= 18).
//
//   import createVramcalc from './vramcalc.mjs';
//   const api = await createVramcalc();
//   const e = api.estimate({model: {preset: 'llama-3-8b'}, training: {micro_batch_size: 4}});
//   e.memory_per_gpu_bytes.total   // bytes, a double
//
// The numbers come from the C++ core compiled to WebAssembly (vramcalc-wasm.mjs + .wasm, built
// from src/bindings/bindings.cpp). This file only moves the scenario (as typed values, or as JSON
// text), the estimate's numbers and other results across the boundary, builds the result objects
// and turns error lists into thrown Errors: it never computes an estimate or checks a field's rule
// itself. Typings: vramcalc.d.ts; guide:
// docs/api.md. Works under a Content-Security-Policy of script-src 'self' 'wasm-unsafe-eval'.
import createVramcalcWasm from './vramcalc-wasm.mjs';

const WASM_FILE = 'vramcalc-wasm.wasm';

function isNode() {
  return typeof process === 'object' && process !== null && typeof process.versions === 'object' &&
    process.versions !== null && typeof process.versions.node === 'string';
}

// The text of something thrown, whatever it is (a revoked Proxy, a getter that throws again).
function thrownText(e) {
  try {
    if (typeof e === 'object' && e !== null && typeof e.message === 'string') return e.message;
    return String(e);
  } catch {
    return 'an error that cannot be read';
  }
}

// Object.prototype.toString's tag ("Object", "Map"), or null when reading it throws (a revoked
// Proxy, a Symbol.toStringTag getter that throws).
function tagOf(value) {
  try {
    const tag = Object.prototype.toString.call(value).slice(8, -1);
    return typeof tag === 'string' ? tag : null;
  } catch {
    return null;
  }
}

// A short, safe description of a JS value for messages ("the text \"abc\"", "NaN", "a function").
function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  try {
    if (Array.isArray(value)) return 'an array';
  } catch {
    return 'an object that cannot be read';  // a revoked Proxy
  }
  switch (typeof value) {
    case 'string': {
      const cut = value.length > 40 && (value.charCodeAt(40) & 0xfc00) === 0xdc00 ? 41 : 40;  // keep a pair whole
      const shown = printable(value.slice(0, cut).replace(/[\u0000-\u001f"]/g, '?'));
      return `the text "${shown}${value.length > cut ? '…' : ''}"`;
    }
    case 'number': return String(value);
    case 'bigint': return `the BigInt ${String(value).slice(0, 40)}`;
    case 'boolean': return String(value);
    case 'function': return 'a function';
    case 'symbol': return 'a symbol';
    default: {
      const tag = tagOf(value);
      if (tag === null) return 'an object that cannot be read';
      return tag === 'Object' ? 'an object' : `a ${printable(tag.slice(0, 40))}`;
    }
  }
}

function isPlainObject(value) {
  return typeof value === 'object' && value !== null && tagOf(value) === 'Object';
}

// Lone UTF-16 surrogates cannot be encoded as UTF-8: such strings must not reach the codec.
// (No lookbehind in the pattern: older Safari cannot parse it.)
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(^|[^\ud800-\udbff])[\udc00-\udfff]/;
const wellFormed = (text) => !LONE_SURROGATE.test(text);
// Text for a message: each lone surrogate written as its escape (\uD800), pairs kept.
function printable(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const paired = unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (paired) out += text[i] + text[++i];
    else if (unit >= 0xd800 && unit <= 0xdfff) out += `\\u${unit.toString(16).toUpperCase()}`;
    else out += text[i];
  }
  return out;
}

const documented = new WeakSet();  // the errors this module throws: ScenarioError, ImportError

function scenarioError(issues) {
  const error = new Error(`invalid scenario: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`);
  error.name = 'ScenarioError';
  error.issues = issues;
  documented.add(error);
  return error;
}

// What went wrong when something other than a documented error was thrown: the caller's own
// getter or Proxy trap, or (never expected) the WebAssembly module.
function unexpected(e) {
  let inModule = false;
  try {
    inModule = typeof WebAssembly === 'object' && ((typeof WebAssembly.RuntimeError === 'function' &&
      e instanceof WebAssembly.RuntimeError) || (typeof WebAssembly.Exception === 'function' && e instanceof WebAssembly.Exception));
  } catch {
    inModule = false;
  }
  return inModule ? `could not be processed (internal error in the WebAssembly module: ${thrownText(e)})`
    : `could not be read (${thrownText(e)})`;
}

// Runs an API call that documents `make` (scenarioError or importError) as what it throws:
// anything else thrown on the way becomes one, naming `field`.
function guarded(make, field, run) {
  try {
    return run();
  } catch (e) {
    if (documented.has(e)) throw e;
    throw make([{ field, message: unexpected(e) }]);
  }
}

// estimate() results are built by buildEstimate (generated below) from what the module leaves
// (bindings.cpp, run_estimate): one array of doubles (every scalar output in output-table
// order, every field of the estimated scenario in field-table order, the memory timeline) and a
// text part (text values, notes, warnings; see readTextPart). The object has the keys, nesting,
// value types and key order of the JSON estimate (the CLI's --json).
// JSON has no NaN or Infinity (they print as null).
const finite = (x) => (Number.isFinite(x) ? x : null);

// The layout of the module's numbers, from its tables, as ESTIMATE_LAYOUT writes it.
function estimateLayout(tables) {
  const { phases, components } = tables.memory_timeline;
  return `${tables.outputs.map((o) => `${o.path}:${o.kind} `).join('')}| ` +
    `${tables.fields.map((f) => `${f.path}:${f.kind}${f.choices.map((c, i) => `${i ? '/' : ':'}${c}`).join('')} `).join('')}|` +
    `${phases.map((p) => ` ${p}`).join('')} |${components.map((c) => ` ${c}`).join('')} |` +
    `${tables.composites.map((c) => c.path).sort().map((c) => ` ${c}`).join('')}`;
}

// <generated:estimate-builder>
// Generated from the output and field tables by tools/gen_api_docs.cpp; do not edit.
// The tables the numbers follow (vramcalc.mjs checks them against the module's at start):
const ESTIMATE_LAYOUT = 'parameters.total:number parameters.active:number parameters.embedding:number parameters.per_layer:number parameters.per_layer_active:number parameters.layers:number parameters.final_norm:number parameters.lm_head:number parameters.trainable:number parameters.adapter:number parameters.trained_layers:number parameters.quantized:number parameters.overridden:flag layout.data_parallel:integer layout.grad_accum_steps:integer layout.global_batch_size:integer layout.kv_heads:integer layout.head_dim:integer layout.ffn_hidden_size:integer layout.params_per_gpu:number layout.achieved_flops_per_gpu:number bytes_per_parameter.weights:number bytes_per_parameter.gradients:number bytes_per_parameter.optimizer:number activations.sbh_coefficient:number activations.as2b_coefficient:number activations.per_layer_bytes:number activations.layers_on_gpu:number activations.in_flight_microbatches:number activations.transformer_layers_bytes:number activations.embedding_bytes:number activations.output_bytes:number activations.total_bytes:number activations.recomputed_layers:number activations.forward_working_bytes:number activations.backward_working_bytes:number activations.recompute_working_bytes:number activations.logits_elements:number activations.loss_saved_per_logit:number activations.loss_peak_bytes:number activations.host_bytes:number model_states_bytes.weights:number model_states_bytes.gradients:number model_states_bytes.optimizer:number model_states_bytes.live_params:number model_states_bytes.autocast_copies:number model_states_bytes.frozen_weights:number model_states_bytes.fp8_weight_copies:number model_states_bytes.dequantized:number model_states_bytes.buckets:number model_states_bytes.optimizer_temporaries:number memory_per_gpu_bytes.weights:number memory_per_gpu_bytes.weights_error_band.low:number memory_per_gpu_bytes.weights_error_band.high:number memory_per_gpu_bytes.weights_error_band.cases:integer memory_per_gpu_bytes.weights_error_band.regime:text memory_per_gpu_bytes.kv_cache:number memory_per_gpu_bytes.zero3_live_params:number memory_per_gpu_bytes.gradients:number memory_per_gpu_bytes.optimizer:number memory_per_gpu_bytes.activations:number memory_per_gpu_bytes.logits:number memory_per_gpu_bytes.temporaries:number memory_per_gpu_bytes.peak_allocated:number memory_per_gpu_bytes.peak_allocated_error_band.low:number memory_per_gpu_bytes.peak_allocated_error_band.high:number memory_per_gpu_bytes.peak_allocated_error_band.cases:integer memory_per_gpu_bytes.peak_allocated_error_band.regime:text memory_per_gpu_bytes.peak_reserved:number memory_per_gpu_bytes.peak_reserved_error_band.low:number memory_per_gpu_bytes.peak_reserved_error_band.high:number memory_per_gpu_bytes.peak_reserved_error_band.cases:integer memory_per_gpu_bytes.peak_reserved_error_band.regime:text memory_per_gpu_bytes.peak_phase:text memory_per_gpu_bytes.overhead:number memory_per_gpu_bytes.total:number memory_per_gpu_bytes.total_error_band.low:number memory_per_gpu_bytes.total_error_band.high:number memory_per_gpu_bytes.total_error_band.cases:integer memory_per_gpu_bytes.total_error_band.regime:text host_memory_bytes.per_gpu:number host_memory_bytes.total:number capacity_bytes:number headroom_bytes:number fits:flag compute.flops_per_token:number compute.model_flops:number compute.forward_flops:number compute.backward_flops:number compute.recompute_flops:number compute.total_flops:number compute.cluster_flops_per_second:number compute.seconds:number compute.seconds_error_band.low:number compute.seconds_error_band.high:number compute.seconds_error_band.cases:integer compute.seconds_error_band.regime:text compute.days:number compute.gpu_hours:number compute.tflop_hours:number compute.pflop_days:number compute.cost:number compute.cost_error_band.low:number compute.cost_error_band.high:number compute.cost_error_band.cases:integer compute.cost_error_band.regime:text compute.chinchilla_tokens:number performance.step_seconds:number performance.step_seconds_error_band.low:number performance.step_seconds_error_band.high:number performance.step_seconds_error_band.cases:integer performance.step_seconds_error_band.regime:text performance.tokens_per_step:number performance.tokens_per_second:number performance.tokens_per_second_error_band.low:number performance.tokens_per_second_error_band.high:number performance.tokens_per_second_error_band.cases:integer performance.tokens_per_second_error_band.regime:text performance.achieved_tflops_per_gpu:number performance.mfu:number performance.microbatches:number performance.predicted:flag performance.calibrated:flag performance.breakdown_seconds.compute:number performance.breakdown_seconds.tensor_parallel:number performance.breakdown_seconds.pipeline_bubble:number performance.breakdown_seconds.pipeline_p2p:number performance.breakdown_seconds.context_parallel:number performance.breakdown_seconds.data_parallel:number performance.breakdown_seconds.zero:number performance.breakdown_seconds.optimizer_step:number performance.breakdown_seconds.overhead:number inference.kv_bytes_per_token:number inference.kv_pool_bytes:number inference.kv_pool_tokens:number inference.kv_pool_tokens_error_band.low:number inference.kv_pool_tokens_error_band.high:number inference.kv_pool_tokens_error_band.cases:integer inference.kv_pool_tokens_error_band.regime:text inference.max_concurrency:number inference.max_context_len:number inference.starts:flag inference.weights_total_bytes:number inference.memory_budget_bytes:number inference.memory_fraction:number inference.batched_tokens:number inference.gpus:integer inference.tm101_bytes:number performance.time_to_first_token_seconds:number performance.time_to_first_token_seconds_error_band.low:number performance.time_to_first_token_seconds_error_band.high:number performance.time_to_first_token_seconds_error_band.cases:integer performance.time_to_first_token_seconds_error_band.regime:text performance.prefill_tokens_per_second:number performance.prefill_tokens_per_second_error_band.low:number performance.prefill_tokens_per_second_error_band.high:number performance.prefill_tokens_per_second_error_band.cases:integer performance.prefill_tokens_per_second_error_band.regime:text performance.decode_tokens_per_second:number performance.decode_tokens_per_second_error_band.low:number performance.decode_tokens_per_second_error_band.high:number performance.decode_tokens_per_second_error_band.cases:integer performance.decode_tokens_per_second_error_band.regime:text performance.inter_token_latency_seconds:number performance.decode_step_bytes:number performance.cost_per_million_output_tokens:number | model.name:text model.layers:integer model.hidden_size:integer model.num_heads:integer model.num_kv_heads:integer model.head_dim:integer model.ffn_hidden_size:integer model.vocab_size:integer model.mlp:choice:gelu/swiglu model.norm:choice:layernorm/rmsnorm model.bias:boolean model.qkv_bias:boolean model.tied_embeddings:boolean model.position_embedding:choice:learned/rope model.max_position_embeddings:integer model.norms_per_layer:integer model.num_experts:integer model.experts_per_token:integer model.moe_ffn_hidden_size:integer model.num_shared_experts:integer model.dense_layers:integer model.activation:choice:auto/gelu/gelu_tanh/gelu_new/silu/relu model.params_override:number model.kv_lora_rank:integer model.q_lora_rank:integer model.qk_rope_head_dim:integer model.qk_nope_head_dim:integer model.v_head_dim:integer model.sliding_window:integer model.global_attention_interval:integer model.qk_norm:boolean model.attention_sinks:boolean model.attention_output_gate:boolean model.full_attention_interval:integer model.linear_attention:choice:gated_deltanet/mamba model.linear_num_key_heads:integer model.linear_num_value_heads:integer model.linear_key_head_dim:integer model.linear_value_head_dim:integer model.linear_conv_kernel:integer model.ssm_state_size:integer model.ssm_expand:integer model.router_bias:boolean model.shared_expert_gate:boolean training.method:choice:full/lora/qlora/freeze training.lora_rank:integer training.lora_targets:text training.lora_dropout:number training.adapter_dtype:choice:fp32/match training.base_weight_format:choice:nf4/nf4_no_dq/int8 training.trainable_layers:integer training.seq_len:integer training.micro_batch_size:integer training.global_batch_size:integer training.grad_accum_steps:integer training.tokens:number training.precision:choice:mixed_bf16/mixed_fp16/bf16/fp16/fp32/amp_bf16/amp_fp16 training.grad_dtype:choice:match/fp32 training.optimizer:choice:adamw/adamw_8bit/sgd_momentum/sgd training.recompute:choice:none/selective/full/ops training.recompute_layers:integer training.flash_attention:boolean training.dropout:boolean training.framework:choice:megatron/deepspeed/fsdp/hf/torchtune/generic training.kernels:choice:fused/eager/compiled training.loss:choice:standard/chunked/fused training.loss_chunks:integer training.optimizer_impl:choice:foreach/fused training.paged_optimizer:boolean training.persistent_gradients:boolean training.optimizer_in_backward:boolean training.offload_activations:boolean training.fp8:choice:none/tensorwise/rowwise/blockwise training.attention_flops:boolean parallel.num_gpus:integer parallel.tensor:integer parallel.pipeline:integer parallel.context:integer parallel.shard_group:integer parallel.zero_stage:integer parallel.sequence_parallel:boolean parallel.tp_comm_overlap:boolean parallel.partition_activations:boolean parallel.zero3_live_params:number parallel.offload_optimizer:boolean parallel.zero_impl:choice:deepspeed/fsdp parallel.offload_params:boolean parallel.expert:integer parallel.interleave:integer hardware.gpu:text hardware.memory_gib:number hardware.peak_tflops:number hardware.achieved_tflops:number hardware.mfu:number hardware.price_per_gpu_hour:number hardware.reserved_gib:number hardware.cuda_context_gib:number hardware.allocator_overhead:number hardware.throughput_model:choice:fixed/predicted hardware.gpus_per_node:integer hardware.intra_node_gbps:number hardware.inter_node_gbps:number hardware.memory_bandwidth_gbps:number workload:choice:training/inference inference.engine:choice:vllm/sglang/trtllm/llamacpp/hf inference.weight_format:choice:bf16/fp16/fp32/fp8/fp8_channel/fp8_block/int8/awq/gptq/nf4/mxfp4/gguf-q8_0/gguf-q6_k/gguf-q5_k_m/gguf-q5_k_s/gguf-q4_k_m/gguf-q4_k_s/gguf-q4_0/gguf-q3_k_m/gguf-q2_k/gguf-iq4_xs inference.quant_group_size:integer inference.kv_cache_dtype:choice:auto/fp16/bf16/fp8/q8_0/q4_0 inference.context_len:integer inference.concurrency:integer inference.gpu_memory_utilization:number inference.max_batched_tokens:integer inference.gpu_layers:integer inference.prompt_tokens:integer inference.output_tokens:integer inference.sampler:choice:flashinfer/pytorch inference.weight_bytes_override:number | forward loss backward optimizer_step | weights gradients optimizer activations logits temporaries total | errors fixes memory_timeline notes scenario warnings';
// The choice fields' names, in field-table order.
const CHOICES = [
  ['gelu', 'swiglu'],  // model.mlp
  ['layernorm', 'rmsnorm'],  // model.norm
  ['learned', 'rope'],  // model.position_embedding
  ['auto', 'gelu', 'gelu_tanh', 'gelu_new', 'silu', 'relu'],  // model.activation
  ['gated_deltanet', 'mamba'],  // model.linear_attention
  ['full', 'lora', 'qlora', 'freeze'],  // training.method
  ['fp32', 'match'],  // training.adapter_dtype
  ['nf4', 'nf4_no_dq', 'int8'],  // training.base_weight_format
  ['mixed_bf16', 'mixed_fp16', 'bf16', 'fp16', 'fp32', 'amp_bf16', 'amp_fp16'],  // training.precision
  ['match', 'fp32'],  // training.grad_dtype
  ['adamw', 'adamw_8bit', 'sgd_momentum', 'sgd'],  // training.optimizer
  ['none', 'selective', 'full', 'ops'],  // training.recompute
  ['megatron', 'deepspeed', 'fsdp', 'hf', 'torchtune', 'generic'],  // training.framework
  ['fused', 'eager', 'compiled'],  // training.kernels
  ['standard', 'chunked', 'fused'],  // training.loss
  ['foreach', 'fused'],  // training.optimizer_impl
  ['none', 'tensorwise', 'rowwise', 'blockwise'],  // training.fp8
  ['deepspeed', 'fsdp'],  // parallel.zero_impl
  ['fixed', 'predicted'],  // hardware.throughput_model
  ['training', 'inference'],  // workload
  ['vllm', 'sglang', 'trtllm', 'llamacpp', 'hf'],  // inference.engine
  ['bf16', 'fp16', 'fp32', 'fp8', 'fp8_channel', 'fp8_block', 'int8', 'awq', 'gptq', 'nf4', 'mxfp4', 'gguf-q8_0', 'gguf-q6_k', 'gguf-q5_k_m', 'gguf-q5_k_s', 'gguf-q4_k_m', 'gguf-q4_k_s', 'gguf-q4_0', 'gguf-q3_k_m', 'gguf-q2_k', 'gguf-iq4_xs'],  // inference.weight_format
  ['auto', 'fp16', 'bf16', 'fp8', 'q8_0', 'q4_0'],  // inference.kv_cache_dtype
  ['flashinfer', 'pytorch'],  // inference.sampler
];
// The estimate object from the module's estimate numbers: h = the array holding them, s = where
// the numbers start, t = the text values (text outputs, then text fields, in table order),
// r = the composites that cross as text ({<path>: value}).
function buildEstimate(h, s, t, r) {
  if (h[s + 269] === 1) return buildServingEstimate(h, s, t, r);
  return {
    activations: {
      as2b_coefficient: finite(h[s + 25]),
      backward_working_bytes: finite(h[s + 35]),
      embedding_bytes: finite(h[s + 30]),
      forward_working_bytes: finite(h[s + 34]),
      host_bytes: finite(h[s + 40]),
      in_flight_microbatches: finite(h[s + 28]),
      layers_on_gpu: finite(h[s + 27]),
      logits_elements: finite(h[s + 37]),
      loss_peak_bytes: finite(h[s + 39]),
      loss_saved_per_logit: finite(h[s + 38]),
      output_bytes: finite(h[s + 31]),
      per_layer_bytes: finite(h[s + 26]),
      recompute_working_bytes: finite(h[s + 36]),
      recomputed_layers: finite(h[s + 33]),
      sbh_coefficient: finite(h[s + 24]),
      total_bytes: finite(h[s + 32]),
      transformer_layers_bytes: finite(h[s + 29]),
    },
    bytes_per_parameter: {
      gradients: finite(h[s + 22]),
      optimizer: finite(h[s + 23]),
      weights: finite(h[s + 21]),
    },
    capacity_bytes: finite(h[s + 82]),
    compute: {
      backward_flops: finite(h[s + 88]),
      chinchilla_tokens: finite(h[s + 106]),
      cluster_flops_per_second: finite(h[s + 91]),
      cost: finite(h[s + 101]),
      cost_error_band: {
        cases: finite(h[s + 104]),
        high: finite(h[s + 103]),
        low: finite(h[s + 102]),
        regime: t[6],
      },
      days: finite(h[s + 97]),
      flops_per_token: finite(h[s + 85]),
      forward_flops: finite(h[s + 87]),
      gpu_hours: finite(h[s + 98]),
      model_flops: finite(h[s + 86]),
      pflop_days: finite(h[s + 100]),
      recompute_flops: finite(h[s + 89]),
      seconds: finite(h[s + 92]),
      seconds_error_band: {
        cases: finite(h[s + 95]),
        high: finite(h[s + 94]),
        low: finite(h[s + 93]),
        regime: t[5],
      },
      tflop_hours: finite(h[s + 99]),
      total_flops: finite(h[s + 90]),
    },
    errors: r.errors,
    fits: h[s + 84] !== 0,
    get fixes() { return r.fixes(this); },
    set fixes(value) { r.fixes = () => value; },
    headroom_bytes: finite(h[s + 83]),
    host_memory_bytes: {
      per_gpu: finite(h[s + 80]),
      total: finite(h[s + 81]),
    },
    layout: {
      achieved_flops_per_gpu: finite(h[s + 20]),
      data_parallel: finite(h[s + 13]),
      ffn_hidden_size: finite(h[s + 18]),
      global_batch_size: finite(h[s + 15]),
      grad_accum_steps: finite(h[s + 14]),
      head_dim: finite(h[s + 17]),
      kv_heads: finite(h[s + 16]),
      params_per_gpu: finite(h[s + 19]),
    },
    memory_per_gpu_bytes: {
      activations: finite(h[s + 60]),
      gradients: finite(h[s + 58]),
      logits: finite(h[s + 61]),
      optimizer: finite(h[s + 59]),
      overhead: finite(h[s + 74]),
      peak_allocated: finite(h[s + 63]),
      peak_allocated_error_band: {
        cases: finite(h[s + 66]),
        high: finite(h[s + 65]),
        low: finite(h[s + 64]),
        regime: t[1],
      },
      peak_phase: t[3],
      peak_reserved: finite(h[s + 68]),
      peak_reserved_error_band: {
        cases: finite(h[s + 71]),
        high: finite(h[s + 70]),
        low: finite(h[s + 69]),
        regime: t[2],
      },
      temporaries: finite(h[s + 62]),
      total: finite(h[s + 75]),
      total_error_band: {
        cases: finite(h[s + 78]),
        high: finite(h[s + 77]),
        low: finite(h[s + 76]),
        regime: t[4],
      },
      weights: finite(h[s + 51]),
      zero3_live_params: finite(h[s + 57]),
    },
    memory_timeline: [
      {
        activations: finite(h[s + 286]),
        gradients: finite(h[s + 284]),
        logits: finite(h[s + 287]),
        optimizer: finite(h[s + 285]),
        phase: 'forward',
        temporaries: finite(h[s + 288]),
        total: finite(h[s + 289]),
        weights: finite(h[s + 283]),
      },
      {
        activations: finite(h[s + 293]),
        gradients: finite(h[s + 291]),
        logits: finite(h[s + 294]),
        optimizer: finite(h[s + 292]),
        phase: 'loss',
        temporaries: finite(h[s + 295]),
        total: finite(h[s + 296]),
        weights: finite(h[s + 290]),
      },
      {
        activations: finite(h[s + 300]),
        gradients: finite(h[s + 298]),
        logits: finite(h[s + 301]),
        optimizer: finite(h[s + 299]),
        phase: 'backward',
        temporaries: finite(h[s + 302]),
        total: finite(h[s + 303]),
        weights: finite(h[s + 297]),
      },
      {
        activations: finite(h[s + 307]),
        gradients: finite(h[s + 305]),
        logits: finite(h[s + 308]),
        optimizer: finite(h[s + 306]),
        phase: 'optimizer_step',
        temporaries: finite(h[s + 309]),
        total: finite(h[s + 310]),
        weights: finite(h[s + 304]),
      },
    ],
    model_states_bytes: {
      autocast_copies: finite(h[s + 45]),
      buckets: finite(h[s + 49]),
      dequantized: finite(h[s + 48]),
      fp8_weight_copies: finite(h[s + 47]),
      frozen_weights: finite(h[s + 46]),
      gradients: finite(h[s + 42]),
      live_params: finite(h[s + 44]),
      optimizer: finite(h[s + 43]),
      optimizer_temporaries: finite(h[s + 50]),
      weights: finite(h[s + 41]),
    },
    notes: r.notes,
    parameters: {
      active: finite(h[s + 1]),
      adapter: finite(h[s + 9]),
      embedding: finite(h[s + 2]),
      final_norm: finite(h[s + 6]),
      layers: finite(h[s + 5]),
      lm_head: finite(h[s + 7]),
      overridden: h[s + 12] !== 0,
      per_layer: finite(h[s + 3]),
      per_layer_active: finite(h[s + 4]),
      quantized: finite(h[s + 11]),
      total: finite(h[s + 0]),
      trainable: finite(h[s + 8]),
      trained_layers: finite(h[s + 10]),
    },
    performance: {
      achieved_tflops_per_gpu: finite(h[s + 118]),
      breakdown_seconds: {
        compute: finite(h[s + 123]),
        context_parallel: finite(h[s + 127]),
        data_parallel: finite(h[s + 128]),
        optimizer_step: finite(h[s + 130]),
        overhead: finite(h[s + 131]),
        pipeline_bubble: finite(h[s + 125]),
        pipeline_p2p: finite(h[s + 126]),
        tensor_parallel: finite(h[s + 124]),
        zero: finite(h[s + 129]),
      },
      calibrated: h[s + 122] !== 0,
      mfu: finite(h[s + 119]),
      microbatches: finite(h[s + 120]),
      predicted: h[s + 121] !== 0,
      step_seconds: finite(h[s + 107]),
      step_seconds_error_band: {
        cases: finite(h[s + 110]),
        high: finite(h[s + 109]),
        low: finite(h[s + 108]),
        regime: t[7],
      },
      tokens_per_second: finite(h[s + 113]),
      tokens_per_second_error_band: {
        cases: finite(h[s + 116]),
        high: finite(h[s + 115]),
        low: finite(h[s + 114]),
        regime: t[8],
      },
      tokens_per_step: finite(h[s + 112]),
    },
    scenario: {
      hardware: {
        achieved_tflops: finite(h[s + 258]),
        allocator_overhead: finite(h[s + 263]),
        cuda_context_gib: finite(h[s + 262]),
        gpu: t[15],
        gpus_per_node: finite(h[s + 265]),
        inter_node_gbps: finite(h[s + 267]),
        intra_node_gbps: finite(h[s + 266]),
        memory_bandwidth_gbps: finite(h[s + 268]),
        memory_gib: finite(h[s + 256]),
        mfu: finite(h[s + 259]),
        peak_tflops: finite(h[s + 257]),
        price_per_gpu_hour: finite(h[s + 260]),
        reserved_gib: finite(h[s + 261]),
        throughput_model: CHOICES[18][h[s + 264]],
      },
      inference: {
        concurrency: finite(h[s + 275]),
        context_len: finite(h[s + 274]),
        engine: CHOICES[20][h[s + 270]],
        gpu_layers: finite(h[s + 278]),
        gpu_memory_utilization: finite(h[s + 276]),
        kv_cache_dtype: CHOICES[22][h[s + 273]],
        max_batched_tokens: finite(h[s + 277]),
        output_tokens: finite(h[s + 280]),
        prompt_tokens: finite(h[s + 279]),
        quant_group_size: finite(h[s + 272]),
        sampler: CHOICES[23][h[s + 281]],
        weight_bytes_override: finite(h[s + 282]),
        weight_format: CHOICES[21][h[s + 271]],
      },
      model: {
        activation: CHOICES[3][h[s + 187]],
        attention_output_gate: h[s + 198] !== 0,
        attention_sinks: h[s + 197] !== 0,
        bias: h[s + 176] !== 0,
        dense_layers: finite(h[s + 186]),
        experts_per_token: finite(h[s + 183]),
        ffn_hidden_size: finite(h[s + 172]),
        full_attention_interval: finite(h[s + 199]),
        global_attention_interval: finite(h[s + 195]),
        head_dim: finite(h[s + 171]),
        hidden_size: finite(h[s + 168]),
        kv_lora_rank: finite(h[s + 189]),
        layers: finite(h[s + 167]),
        linear_attention: CHOICES[4][h[s + 200]],
        linear_conv_kernel: finite(h[s + 205]),
        linear_key_head_dim: finite(h[s + 203]),
        linear_num_key_heads: finite(h[s + 201]),
        linear_num_value_heads: finite(h[s + 202]),
        linear_value_head_dim: finite(h[s + 204]),
        max_position_embeddings: finite(h[s + 180]),
        mlp: CHOICES[0][h[s + 174]],
        moe_ffn_hidden_size: finite(h[s + 184]),
        name: t[13],
        norm: CHOICES[1][h[s + 175]],
        norms_per_layer: finite(h[s + 181]),
        num_experts: finite(h[s + 182]),
        num_heads: finite(h[s + 169]),
        num_kv_heads: finite(h[s + 170]),
        num_shared_experts: finite(h[s + 185]),
        params_override: finite(h[s + 188]),
        position_embedding: CHOICES[2][h[s + 179]],
        q_lora_rank: finite(h[s + 190]),
        qk_nope_head_dim: finite(h[s + 192]),
        qk_norm: h[s + 196] !== 0,
        qk_rope_head_dim: finite(h[s + 191]),
        qkv_bias: h[s + 177] !== 0,
        router_bias: h[s + 208] !== 0,
        shared_expert_gate: h[s + 209] !== 0,
        sliding_window: finite(h[s + 194]),
        ssm_expand: finite(h[s + 207]),
        ssm_state_size: finite(h[s + 206]),
        tied_embeddings: h[s + 178] !== 0,
        v_head_dim: finite(h[s + 193]),
        vocab_size: finite(h[s + 173]),
      },
      parallel: {
        context: finite(h[s + 243]),
        expert: finite(h[s + 253]),
        interleave: finite(h[s + 254]),
        num_gpus: finite(h[s + 240]),
        offload_optimizer: h[s + 250] !== 0,
        offload_params: h[s + 252] !== 0,
        partition_activations: h[s + 248] !== 0,
        pipeline: finite(h[s + 242]),
        sequence_parallel: h[s + 246] !== 0,
        shard_group: finite(h[s + 244]),
        tensor: finite(h[s + 241]),
        tp_comm_overlap: h[s + 247] !== 0,
        zero3_live_params: finite(h[s + 249]),
        zero_impl: CHOICES[17][h[s + 251]],
        zero_stage: finite(h[s + 245]),
      },
      training: {
        adapter_dtype: CHOICES[6][h[s + 214]],
        attention_flops: h[s + 239] !== 0,
        base_weight_format: CHOICES[7][h[s + 215]],
        dropout: h[s + 228] !== 0,
        flash_attention: h[s + 227] !== 0,
        fp8: CHOICES[16][h[s + 238]],
        framework: CHOICES[12][h[s + 229]],
        global_batch_size: finite(h[s + 219]),
        grad_accum_steps: finite(h[s + 220]),
        grad_dtype: CHOICES[9][h[s + 223]],
        kernels: CHOICES[13][h[s + 230]],
        lora_dropout: finite(h[s + 213]),
        lora_rank: finite(h[s + 211]),
        lora_targets: t[14],
        loss: CHOICES[14][h[s + 231]],
        loss_chunks: finite(h[s + 232]),
        method: CHOICES[5][h[s + 210]],
        micro_batch_size: finite(h[s + 218]),
        offload_activations: h[s + 237] !== 0,
        optimizer: CHOICES[10][h[s + 224]],
        optimizer_impl: CHOICES[15][h[s + 233]],
        optimizer_in_backward: h[s + 236] !== 0,
        paged_optimizer: h[s + 234] !== 0,
        persistent_gradients: h[s + 235] !== 0,
        precision: CHOICES[8][h[s + 222]],
        recompute: CHOICES[11][h[s + 225]],
        recompute_layers: finite(h[s + 226]),
        seq_len: finite(h[s + 217]),
        tokens: finite(h[s + 221]),
        trainable_layers: finite(h[s + 216]),
      },
      workload: CHOICES[19][h[s + 269]],
    },
    warnings: r.warnings,
  };
}
// The same for a serving estimate (workload = inference): its outputs only.
function buildServingEstimate(h, s, t, r) {
  return {
    capacity_bytes: finite(h[s + 82]),
    errors: r.errors,
    fits: h[s + 84] !== 0,
    get fixes() { return r.fixes(this); },
    set fixes(value) { r.fixes = () => value; },
    headroom_bytes: finite(h[s + 83]),
    host_memory_bytes: {
      per_gpu: finite(h[s + 80]),
      total: finite(h[s + 81]),
    },
    inference: {
      batched_tokens: finite(h[s + 145]),
      gpus: finite(h[s + 146]),
      kv_bytes_per_token: finite(h[s + 132]),
      kv_pool_bytes: finite(h[s + 133]),
      kv_pool_tokens: finite(h[s + 134]),
      kv_pool_tokens_error_band: {
        cases: finite(h[s + 137]),
        high: finite(h[s + 136]),
        low: finite(h[s + 135]),
        regime: t[9],
      },
      max_concurrency: finite(h[s + 139]),
      max_context_len: finite(h[s + 140]),
      memory_budget_bytes: finite(h[s + 143]),
      memory_fraction: finite(h[s + 144]),
      starts: h[s + 141] !== 0,
      tm101_bytes: finite(h[s + 147]),
      weights_total_bytes: finite(h[s + 142]),
    },
    layout: {
      ffn_hidden_size: finite(h[s + 18]),
      head_dim: finite(h[s + 17]),
      kv_heads: finite(h[s + 16]),
      params_per_gpu: finite(h[s + 19]),
    },
    memory_per_gpu_bytes: {
      activations: finite(h[s + 60]),
      kv_cache: finite(h[s + 56]),
      overhead: finite(h[s + 74]),
      total: finite(h[s + 75]),
      total_error_band: {
        cases: finite(h[s + 78]),
        high: finite(h[s + 77]),
        low: finite(h[s + 76]),
        regime: t[4],
      },
      weights: finite(h[s + 51]),
      weights_error_band: {
        cases: finite(h[s + 54]),
        high: finite(h[s + 53]),
        low: finite(h[s + 52]),
        regime: t[0],
      },
    },
    memory_timeline: [
      {
        activations: finite(h[s + 286]),
        gradients: finite(h[s + 284]),
        logits: finite(h[s + 287]),
        optimizer: finite(h[s + 285]),
        phase: 'forward',
        temporaries: finite(h[s + 288]),
        total: finite(h[s + 289]),
        weights: finite(h[s + 283]),
      },
      {
        activations: finite(h[s + 293]),
        gradients: finite(h[s + 291]),
        logits: finite(h[s + 294]),
        optimizer: finite(h[s + 292]),
        phase: 'loss',
        temporaries: finite(h[s + 295]),
        total: finite(h[s + 296]),
        weights: finite(h[s + 290]),
      },
      {
        activations: finite(h[s + 300]),
        gradients: finite(h[s + 298]),
        logits: finite(h[s + 301]),
        optimizer: finite(h[s + 299]),
        phase: 'backward',
        temporaries: finite(h[s + 302]),
        total: finite(h[s + 303]),
        weights: finite(h[s + 297]),
      },
      {
        activations: finite(h[s + 307]),
        gradients: finite(h[s + 305]),
        logits: finite(h[s + 308]),
        optimizer: finite(h[s + 306]),
        phase: 'optimizer_step',
        temporaries: finite(h[s + 309]),
        total: finite(h[s + 310]),
        weights: finite(h[s + 304]),
      },
    ],
    notes: r.notes,
    parameters: {
      active: finite(h[s + 1]),
      embedding: finite(h[s + 2]),
      final_norm: finite(h[s + 6]),
      layers: finite(h[s + 5]),
      lm_head: finite(h[s + 7]),
      overridden: h[s + 12] !== 0,
      per_layer: finite(h[s + 3]),
      per_layer_active: finite(h[s + 4]),
      total: finite(h[s + 0]),
    },
    performance: {
      cost_per_million_output_tokens: finite(h[s + 165]),
      decode_step_bytes: finite(h[s + 164]),
      decode_tokens_per_second: finite(h[s + 158]),
      decode_tokens_per_second_error_band: {
        cases: finite(h[s + 161]),
        high: finite(h[s + 160]),
        low: finite(h[s + 159]),
        regime: t[12],
      },
      inter_token_latency_seconds: finite(h[s + 163]),
      prefill_tokens_per_second: finite(h[s + 153]),
      prefill_tokens_per_second_error_band: {
        cases: finite(h[s + 156]),
        high: finite(h[s + 155]),
        low: finite(h[s + 154]),
        regime: t[11],
      },
      time_to_first_token_seconds: finite(h[s + 148]),
      time_to_first_token_seconds_error_band: {
        cases: finite(h[s + 151]),
        high: finite(h[s + 150]),
        low: finite(h[s + 149]),
        regime: t[10],
      },
    },
    scenario: {
      hardware: {
        achieved_tflops: finite(h[s + 258]),
        allocator_overhead: finite(h[s + 263]),
        cuda_context_gib: finite(h[s + 262]),
        gpu: t[15],
        gpus_per_node: finite(h[s + 265]),
        inter_node_gbps: finite(h[s + 267]),
        intra_node_gbps: finite(h[s + 266]),
        memory_bandwidth_gbps: finite(h[s + 268]),
        memory_gib: finite(h[s + 256]),
        mfu: finite(h[s + 259]),
        peak_tflops: finite(h[s + 257]),
        price_per_gpu_hour: finite(h[s + 260]),
        reserved_gib: finite(h[s + 261]),
        throughput_model: CHOICES[18][h[s + 264]],
      },
      inference: {
        concurrency: finite(h[s + 275]),
        context_len: finite(h[s + 274]),
        engine: CHOICES[20][h[s + 270]],
        gpu_layers: finite(h[s + 278]),
        gpu_memory_utilization: finite(h[s + 276]),
        kv_cache_dtype: CHOICES[22][h[s + 273]],
        max_batched_tokens: finite(h[s + 277]),
        output_tokens: finite(h[s + 280]),
        prompt_tokens: finite(h[s + 279]),
        quant_group_size: finite(h[s + 272]),
        sampler: CHOICES[23][h[s + 281]],
        weight_bytes_override: finite(h[s + 282]),
        weight_format: CHOICES[21][h[s + 271]],
      },
      model: {
        activation: CHOICES[3][h[s + 187]],
        attention_output_gate: h[s + 198] !== 0,
        attention_sinks: h[s + 197] !== 0,
        bias: h[s + 176] !== 0,
        dense_layers: finite(h[s + 186]),
        experts_per_token: finite(h[s + 183]),
        ffn_hidden_size: finite(h[s + 172]),
        full_attention_interval: finite(h[s + 199]),
        global_attention_interval: finite(h[s + 195]),
        head_dim: finite(h[s + 171]),
        hidden_size: finite(h[s + 168]),
        kv_lora_rank: finite(h[s + 189]),
        layers: finite(h[s + 167]),
        linear_attention: CHOICES[4][h[s + 200]],
        linear_conv_kernel: finite(h[s + 205]),
        linear_key_head_dim: finite(h[s + 203]),
        linear_num_key_heads: finite(h[s + 201]),
        linear_num_value_heads: finite(h[s + 202]),
        linear_value_head_dim: finite(h[s + 204]),
        max_position_embeddings: finite(h[s + 180]),
        mlp: CHOICES[0][h[s + 174]],
        moe_ffn_hidden_size: finite(h[s + 184]),
        name: t[13],
        norm: CHOICES[1][h[s + 175]],
        norms_per_layer: finite(h[s + 181]),
        num_experts: finite(h[s + 182]),
        num_heads: finite(h[s + 169]),
        num_kv_heads: finite(h[s + 170]),
        num_shared_experts: finite(h[s + 185]),
        params_override: finite(h[s + 188]),
        position_embedding: CHOICES[2][h[s + 179]],
        q_lora_rank: finite(h[s + 190]),
        qk_nope_head_dim: finite(h[s + 192]),
        qk_norm: h[s + 196] !== 0,
        qk_rope_head_dim: finite(h[s + 191]),
        qkv_bias: h[s + 177] !== 0,
        router_bias: h[s + 208] !== 0,
        shared_expert_gate: h[s + 209] !== 0,
        sliding_window: finite(h[s + 194]),
        ssm_expand: finite(h[s + 207]),
        ssm_state_size: finite(h[s + 206]),
        tied_embeddings: h[s + 178] !== 0,
        v_head_dim: finite(h[s + 193]),
        vocab_size: finite(h[s + 173]),
      },
      parallel: {
        context: finite(h[s + 243]),
        expert: finite(h[s + 253]),
        interleave: finite(h[s + 254]),
        num_gpus: finite(h[s + 240]),
        offload_optimizer: h[s + 250] !== 0,
        offload_params: h[s + 252] !== 0,
        partition_activations: h[s + 248] !== 0,
        pipeline: finite(h[s + 242]),
        sequence_parallel: h[s + 246] !== 0,
        shard_group: finite(h[s + 244]),
        tensor: finite(h[s + 241]),
        tp_comm_overlap: h[s + 247] !== 0,
        zero3_live_params: finite(h[s + 249]),
        zero_impl: CHOICES[17][h[s + 251]],
        zero_stage: finite(h[s + 245]),
      },
      training: {
        adapter_dtype: CHOICES[6][h[s + 214]],
        attention_flops: h[s + 239] !== 0,
        base_weight_format: CHOICES[7][h[s + 215]],
        dropout: h[s + 228] !== 0,
        flash_attention: h[s + 227] !== 0,
        fp8: CHOICES[16][h[s + 238]],
        framework: CHOICES[12][h[s + 229]],
        global_batch_size: finite(h[s + 219]),
        grad_accum_steps: finite(h[s + 220]),
        grad_dtype: CHOICES[9][h[s + 223]],
        kernels: CHOICES[13][h[s + 230]],
        lora_dropout: finite(h[s + 213]),
        lora_rank: finite(h[s + 211]),
        lora_targets: t[14],
        loss: CHOICES[14][h[s + 231]],
        loss_chunks: finite(h[s + 232]),
        method: CHOICES[5][h[s + 210]],
        micro_batch_size: finite(h[s + 218]),
        offload_activations: h[s + 237] !== 0,
        optimizer: CHOICES[10][h[s + 224]],
        optimizer_impl: CHOICES[15][h[s + 233]],
        optimizer_in_backward: h[s + 236] !== 0,
        paged_optimizer: h[s + 234] !== 0,
        persistent_gradients: h[s + 235] !== 0,
        precision: CHOICES[8][h[s + 222]],
        recompute: CHOICES[11][h[s + 225]],
        recompute_layers: finite(h[s + 226]),
        seq_len: finite(h[s + 217]),
        tokens: finite(h[s + 221]),
        trainable_layers: finite(h[s + 216]),
      },
      workload: CHOICES[19][h[s + 269]],
    },
    warnings: r.warnings,
  };
}
// </generated:estimate-builder>

function importError(issues) {
  const error = new Error(`could not import the config: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`);
  error.name = 'ImportError';
  error.issues = issues;
  documented.add(error);
  return error;
}

// The module's interface (bindings.cpp) behind one small object, so that the wrapper reads the
// same whichever interface it uses: Embind functions over typed memory views (the default), or
// the plain C exports of the previous interface (an internal fallback that bench/js/api-bench.mjs
// times against the Embind path; chosen by the CEXPORTS option key, not part of the public API).
// A typed view on the module's memory goes stale (length 0) when the memory grows: fields() and
// values() fetch the views again then.
//   input(bytes) → [bytes view, offset]; fields() → {numbers, numbersAt, list, listAt, text, textAt};
//   estimate(count, length) → 0 invalid | 1 valid | 2 valid with the text part as JSON (count ≥ 0:
//   the field input's first `count` entries, else JSON text of `length` bytes in the input);
//   values() → [numbers view, offset]; the other calls return parsed results.
const CEXPORTS = Symbol.for('vramcalc.cExports');

function embindBoundary(wasm, decoder) {
  let fields = null, values = null;
  const parse = (view) => JSON.parse(decoder.decode(view));  // JSON text as UTF-8 in the module's memory
  const valid = wasm.EstimateStatus.valid, validTextAsJson = wasm.EstimateStatus.valid_text_as_json;
  const status = (s) => (s === valid ? 1 : s === validTextAsJson ? 2 : 0);
  return {
    input(bytes) { return [wasm.input(bytes), 0]; },
    tables() { return parse(wasm.tables()); },
    fields() {
      if (fields === null || fields.numbers.length === 0) {
        fields = { numbers: wasm.fieldNumbers(), numbersAt: 0, list: wasm.fieldList(), listAt: 0, text: wasm.fieldText(), textAt: 0 };
      }
      return fields;
    },
    scenarioFields(count, check) { wasm.scenarioFields(count, check !== 0); },
    scenarioJson(length, check) { wasm.scenarioJson(length, check !== 0); },
    estimate(count, length) {
      if (count >= 0) return status(wasm.estimateFields(count));
      wasm.scenarioJson(length, false);
      return status(wasm.estimate());
    },
    values() {
      if (values === null || values.length === 0) values = wasm.values();
      return [values, 0];
    },
    estimateText() { return decoder.decode(wasm.estimateText()); },
    estimateTextJson() { return parse(wasm.estimateTextJson()); },
    estimateIssues() { return wasm.estimateIssues(); },
    validate() { return wasm.validate(); },
    plan(length) { return parse(wasm.plan(length)); },
    planInference(length) { return parse(wasm.planInference(length)); },
    importGguf(length, withBase) { return parse(wasm.importGguf(length, withBase)); },
    composite(path) { return parse(wasm.composite(path)); },
    encodeLink() { return wasm.encodeLink(); },
    decodeLink(length) { return parse(wasm.decodeLink(length)); },
    importConfig(length, withBase, deepspeed) {
      return parse(wasm.importConfig(length, withBase, deepspeed ? wasm.ImportFormat.deepspeed : wasm.ImportFormat.hugging_face));
    },
  };
}

function cExportBoundary(wasm, decoder) {
  function get(at) {  // reads a NUL-terminated result
    const heap = wasm.HEAPU8;
    return decoder.decode(heap.subarray(at, heap.indexOf(0, at)));
  }
  const numbersAt = wasm._vramcalc_field_numbers() / 8;
  const listAt = wasm._vramcalc_field_list() / 4;
  const textAt = wasm._vramcalc_field_text();
  return {
    input(bytes) { return [wasm.HEAPU8, wasm._vramcalc_input(bytes)]; },
    tables() { return JSON.parse(get(wasm._vramcalc_tables())); },
    fields() { return { numbers: wasm.HEAPF64, numbersAt, list: wasm.HEAP32, listAt, text: wasm.HEAPU8, textAt }; },
    scenarioFields(count, check) { wasm._vramcalc_scenario_fields(count, check); },
    scenarioJson(length, check) { wasm._vramcalc_scenario_json(length, check); },
    estimate(count, length) {
      if (count >= 0) wasm._vramcalc_scenario_fields(count, 0);
      else wasm._vramcalc_scenario_json(length, 0);
      return wasm._vramcalc_estimate();
    },
    values() { return [wasm.HEAPF64, wasm._vramcalc_values() / 8]; },
    estimateText(bytes) {
      const start = wasm._vramcalc_text();
      return decoder.decode(wasm.HEAPU8.subarray(start, start + bytes));
    },
    estimateTextJson() { return JSON.parse(get(wasm._vramcalc_text())); },
    estimateIssues() { return JSON.parse(get(wasm._vramcalc_text())).errors; },
    validate() { return JSON.parse(get(wasm._vramcalc_validate())); },
    plan(length) { return JSON.parse(get(wasm._vramcalc_plan(length))); },
    planInference(length) { return JSON.parse(get(wasm._vramcalc_plan_inference(length))); },
    importGguf(length, withBase) { return JSON.parse(get(wasm._vramcalc_import_gguf(length, withBase ? 1 : 0))); },
    composite(path, put) { return JSON.parse(get(wasm._vramcalc_composite(put(path)))); },
    encodeLink() { return JSON.parse(get(wasm._vramcalc_encode_link())); },
    decodeLink(length) { return JSON.parse(get(wasm._vramcalc_decode_link(length))); },
    importConfig(length, withBase, deepspeed) { return JSON.parse(get(wasm._vramcalc_import(length, withBase ? 1 : 0, deepspeed))); },
  };
}

/**
 * Creates one instance of the API (each instance owns its own WebAssembly memory).
 * @param {{wasmBinary?: ArrayBuffer | Uint8Array, locateFile?: (path: string, prefix: string) => string, jsonScenarios?: boolean}} [options]
 * @returns {Promise<import('./vramcalc.d.ts').VramcalcApi>}
 */
export async function createVramcalc(options = {}) {
  const moduleArg = {};
  if (options && options.wasmBinary) moduleArg.wasmBinary = options.wasmBinary;
  if (options && typeof options.locateFile === 'function') moduleArg.locateFile = options.locateFile;
  // Emscripten 3.1.6 loads the .wasm with fetch(), which cannot read file: URLs in Node: read it here.
  if (!moduleArg.wasmBinary && isNode()) {
    // A computed specifier: bundlers do not try to resolve a Node module for browser builds.
    const fsModule = 'node:fs/promises';
    const { readFile } = await import(fsModule);
    let where = moduleArg.locateFile ? moduleArg.locateFile(WASM_FILE, '') : new URL(`./${WASM_FILE}`, import.meta.url);
    if (typeof where === 'string' && where.startsWith('file:')) where = new URL(where);
    moduleArg.wasmBinary = await readFile(where);
  }
  const wasm = await createVramcalcWasm(moduleArg);
  const fastPath = !(options && options.jsonScenarios === true);

  // Text crosses as UTF-8 in the module's memory (bindings.cpp). The memory views are fetched
  // after each call into the module: memory growth replaces them.
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const b = options && options[CEXPORTS] === true ? cExportBoundary(wasm, decoder) : embindBoundary(wasm, decoder);
  function put(text) {  // writes the argument; returns its length in bytes
    const capacity = text.length * 3;  // UTF-8 bytes per UTF-16 unit: at most 3
    const [bytes, at] = b.input(capacity + 1);
    return encoder.encodeInto(text, bytes.subarray(at, at + capacity)).written;
  }

  // Constant tables: parsed once, handed out as fresh copies so callers may mutate them.
  const tables = b.tables();
  const defaultText = JSON.stringify(tables.default_scenario);
  const fieldsText = JSON.stringify(tables.fields);
  const modelPresetsText = JSON.stringify(tables.model_presets);
  const gpuPresetsText = JSON.stringify(tables.gpu_presets);
  // Inputs longer than the codec reads are cut to just past its limit before they are copied into
  // the module's memory (which never shrinks), so the codec refuses them by their length.
  const { max_link_length: maxLinkLength, max_input_bytes: maxInputBytes } = tables.limits;
  const knownPaths = new Set(tables.fields.map((f) => f.path));
  knownPaths.add('model.preset');
  if (estimateLayout(tables) !== ESTIMATE_LAYOUT) {
    throw new Error('vramcalc.mjs and vramcalc-wasm.wasm come from different builds (their output tables differ)');
  }

  // A key's JSON text, or null when it is not valid Unicode; the known keys are looked up once.
  const keyTexts = new Map();
  function keyJson(key) {
    let text = keyTexts.get(key);
    if (text === undefined) {
      text = wellFormed(key) ? JSON.stringify(key) : null;
      if (keyTexts.size < 1000) keyTexts.set(key, text);
    }
    return text;
  }

  // Turns a JS scenario into JSON text for the C++ codec. Values JSON cannot carry (NaN, Infinity,
  // functions, symbols, out-of-range BigInts) become issues here instead of silently turning into
  // null or vanishing; field-level checks (types, unknown fields, rules) are the codec's.
  function serialize(scenario) {
    const issues = [];
    if (!isPlainObject(scenario)) {
      issues.push({
        field: 'scenario',
        message: `must be an object with model, training, parallel and hardware sections (got ${describe(scenario)})`,
      });
      return { text: null, issues };
    }
    // The JSON text is written here directly (keys in the caller's order, as JSON.stringify would
    // write them); a "__proto__" key stays an ordinary (unknown, reported) key.
    const scalar = (value, section, key) => {  // a field value's JSON text, or undefined: left out
      const path = () => (key === undefined ? section : `${section}.${key}`);
      switch (typeof value) {
        case 'string':
          if (value.length > maxInputBytes) {
            issues.push({ field: path(), message: `is longer than ${maxInputBytes} characters; not read` });
            return undefined;
          }
          if (wellFormed(value)) return JSON.stringify(value);
          issues.push({ field: path(), message: 'must be valid Unicode text (it contains a lone UTF-16 surrogate)' });
          return undefined;
        case 'boolean':
          return value ? 'true' : 'false';
        case 'number':
          if (Number.isFinite(value)) return String(value);
          issues.push({ field: path(), message: `must be a finite number (got ${describe(value)})` });
          return undefined;
        case 'bigint': {
          const n = Number(value);
          if (Number.isSafeInteger(n)) return String(n);
          issues.push({ field: path(), message: 'is out of range (must be an integer below 2^53)' });
          return undefined;
        }
        case 'undefined':
          return undefined;  // like a missing key: the default applies
        case 'object':
          // Contents do not matter (a field is a scalar); the codec reports the type.
          if (value === null) return 'null';
          return Array.isArray(value) ? '[]' : '{}';
        default:
          issues.push({
            field: path(),
            message: knownPaths.has(path()) ? `must be a number, string or boolean (got ${describe(value)})` : 'unknown field',
          });
          return undefined;
      }
    };
    let text = '';
    try {
      for (const section of Object.keys(scenario)) {
        if (keyJson(section) === null) {
          issues.push({ field: printable(section), message: 'unknown section (expected workload, model, training, parallel, hardware or inference)' });
          continue;
        }
        const value = scenario[section];
        let json;
        if (isPlainObject(value)) {
          json = '';
          for (const key of Object.keys(value)) {
            const k = keyJson(key);
            if (k === null) {
              issues.push({ field: `${section}.${printable(key)}`, message: 'unknown field' });
              continue;
            }
            const v = scalar(value[key], section, key);
            if (v !== undefined) json += `${json ? ',' : ''}${k}:${v}`;
          }
          json = `{${json}}`;
        } else if (sectionFields.has(section) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
          // A Map, a Date, a class instance: not a section's fields (the codec would read it as {}).
          issues.push({ field: section, message: `must be an object (got ${describe(value)})` });
          continue;
        } else {
          json = scalar(value, section);
          if (json === undefined) continue;
        }
        text += `${text ? ',' : ''}${keyJson(section)}:${json}`;
      }
    } catch (e) {
      issues.push({ field: 'scenario', message: `could not be read (${e && e.message ? e.message : String(e)})` });
      return { text: null, issues };
    }
    return { text: `{${text}}`, issues };
  }

  // Wrapper issues first; codec issues for fields the wrapper already reported are dropped.
  function merge(own, fromCodec) {
    if (own.length === 0) return fromCodec;
    const named = new Set(own.map((i) => i.field));
    return own.concat(fromCodec.filter((i) => !named.has(i.field)));
  }

  // The fast path (bindings.cpp, scenarioFields / estimateFields): a scenario whose keys are all known
  // and whose values all have their field's type crosses as typed values: numbers, booleans (0/1)
  // and choices (their index) as doubles, text as UTF-8 in the field's slot, each entry listed by
  // its field-table index. The codec decodes them with the JSON decoder's steps and rules. Anything
  // else (an unknown key, a value of another type, NaN, a lone surrogate, a getter that throws)
  // goes as JSON text, so every message is the same whichever way a scenario crosses.
  const NUMBER = 0, BOOLEAN = 1, CHOICE = 2, TEXT = 3;
  const { text_slot_bytes: slotBytes, model_preset: presetEntry, model_preset_id: presetIdEntry } = tables.field_input;
  const maxTextUnits = slotBytes / 3;  // UTF-8 bytes per UTF-16 unit: at most 3
  const sectionFields = new Map();  // section → Map(key → {entry, kind, choices, slot})
  // The keys each section had last time and their fields: callers tend to pass objects of one
  // shape again and again, and comparing a key with the one seen at that position is cheaper
  // than a lookup.
  const lastKeys = new Map();  // section → {keys: [], fields: []}
  let slots = 0;
  tables.fields.forEach((f, entry) => {
    const [section, key] = f.path.split('.');
    if (!sectionFields.has(section)) {
      sectionFields.set(section, new Map());
      lastKeys.set(section, { keys: [], fields: [] });
    }
    const kind = { integer: NUMBER, number: NUMBER, boolean: BOOLEAN, choice: CHOICE, text: TEXT }[f.kind];
    sectionFields.get(section).set(key, {
      entry, kind, choices: new Map(f.choices.map((c, i) => [c, i])), slot: kind === TEXT ? slots++ : -1,
      lastChoice: null, lastIndex: 0,
    });
  });
  const presetSlot = slots++;
  sectionFields.get('model').set('preset', { entry: presetEntry, kind: TEXT, choices: null, slot: presetSlot, lastChoice: null, lastIndex: 0 });
  // What each text slot holds: the text and its byte count (a text already there is not written again).
  const slotText = new Array(slots).fill(null);
  const slotLength = new Array(slots).fill(0);
  function putText(input, entry, slot, value) {  // false: not for the fast path
    if (typeof value !== 'string') return false;
    if (slotText[slot] !== value) {
      if (value.length > maxTextUnits || !wellFormed(value)) return false;
      const at = input.textAt + slot * slotBytes;
      slotLength[slot] = encoder.encodeInto(value, input.text.subarray(at, at + slotBytes)).written;
      slotText[slot] = value;
    }
    input.numbers[input.numbersAt + entry] = slotLength[slot];
    return true;
  }
  // Writes the scenario into the field input; returns the number of entries, or -1: not for the fast path.
  function writeFields(scenario) {
    if (!isPlainObject(scenario)) return -1;
    const input = b.fields();
    const { numbers, numbersAt, list, listAt } = input;
    let count = 0;
    for (const section of Object.keys(scenario)) {
      const fields = sectionFields.get(section);
      if (fields === undefined) return -1;
      const last = lastKeys.get(section);
      const value = scenario[section];
      if (value === undefined) continue;  // like a missing key
      if (section === 'model' && typeof value === 'string') {
        if (!putText(input, presetIdEntry, presetSlot, value)) return -1;
        list[listAt + count++] = presetIdEntry;
        continue;
      }
      if (!isPlainObject(value)) {  // a field outside every section ("workload"): a choice
        const top = fields.get(undefined);
        const index = top === undefined || top.kind !== CHOICE ? undefined : top.choices.get(value);
        if (index === undefined) return -1;
        numbers[numbersAt + top.entry] = index;
        list[listAt + count++] = top.entry;
        continue;
      }
      // The values with Object.values (one call, in the keys' order) rather than value[key]: a
      // lookup by a key that changes each time is V8's slowest property access. A getter that
      // deletes a later key makes the two lists differ: then JSON.
      const keys = Object.keys(value);
      const values = Object.values(value);
      if (values.length !== keys.length) return -1;
      for (let k = 0; k < keys.length; k++) {
        const key = keys[k];
        let field;
        if (last.keys[k] === key) {
          field = last.fields[k];
        } else {
          field = fields.get(key);
          if (field === undefined) return -1;
          last.keys[k] = key;
          last.fields[k] = field;
        }
        const v = values[k];
        if (v === undefined) continue;
        switch (field.kind) {
          case NUMBER:
            if (!Number.isFinite(v)) return -1;
            numbers[numbersAt + field.entry] = v === 0 ? 0 : v;  // -0 is 0, as in JSON text
            break;
          case BOOLEAN:
            if (typeof v !== 'boolean') return -1;
            numbers[numbersAt + field.entry] = v ? 1 : 0;
            break;
          case CHOICE: {
            let index;
            if (v === field.lastChoice) {  // the same name as last time: no lookup
              index = field.lastIndex;
            } else {
              index = field.choices.get(v);
              if (index === undefined) return -1;
              field.lastChoice = v;
              field.lastIndex = index;
            }
            numbers[numbersAt + field.entry] = index;
            break;
          }
          default:
            if (!putText(input, field.entry, field.slot, v)) return -1;
        }
        list[listAt + count++] = field.entry;
      }
    }
    return count;
  }

  // The estimate's text part (bindings.cpp, TextPart), after the numbers: [same as last time,
  // size in bytes, number of texts, counts (records; 0/1 lazy)..., texts' lengths in UTF-16 units...]; the
  // texts themselves, UTF-8, in the module's text bytes (b.estimateText()). Text outputs and text fields come first (→ t),
  // then the composites that cross as text, in composite-table order (→ r).
  const textPartAt = tables.outputs.length + tables.fields.length +
    tables.memory_timeline.phases.length * tables.memory_timeline.components.length;
  const textComposites = [];  // {path, crossing: 'records' | 'empty' | 'json' | 'lazy', keys}
  for (const { path, crossing } of tables.composites) {
    const [how, ...keys] = crossing.split(' ');
    if (how !== 'scenario' && how !== 'memory_timeline') textComposites.push({ path, crossing: how, keys });
  }
  const lazyPaths = textComposites.filter((c) => c.crossing === 'lazy').map((c) => c.path);
  // A lazy composite (bindings.cpp, crossing()): the generated builder makes it a getter that
  // calls this with the estimate. Empty ([]) unless the module said otherwise; else the module
  // computes it for the estimate's scenario once, when first read.
  function lazyValue(path, present) {
    let value = present ? undefined : [];
    return (estimate) => {
      if (value === undefined) {
        value = guarded(scenarioError, 'scenario', () => {
          const { ok, issues } = load(estimate.scenario, 0);
          if (!ok || issues.length > 0) throw scenarioError(issues);
          const result = b.composite(path, put);
          if (result.errors.length > 0) throw scenarioError(result.errors);
          return result.value;
        });
      }
      return value;
    };
  }
  // One count each (in composite-table order): the records of a list, or whether a lazy one is not empty.
  const countedComposites = textComposites.filter((c) => c.crossing === 'records' || c.crossing === 'lazy').length;
  const ownTexts = tables.outputs.filter((o) => o.kind === 'text').length + tables.fields.filter((f) => f.kind === 'text').length;
  let texts = [];  // the texts of the last text part read (reused while the module reports them the same)
  // Reads the text part of a valid estimate (`how`: the estimate's status, 1 or 2) into
  // `texts`; returns the composites that cross as text. Called after every valid estimate, thrown
  // away or not: the module's "same as last time" refers to the last text part it handed out.
  function readTextPart(how, h, s) {
    if (how === 2) {  // texts that are not UTF-8 (never expected): the text part is JSON
      const json = b.estimateTextJson();
      texts = json.text.concat(json.field_text);
      for (const path of lazyPaths) json[path] = lazyValue(path, true);
      return json;
    }
    let at = s + textPartAt;
    const counts = at + 3;
    if (h[at] === 0) {
      const bytes = h[at + 1], count = h[at + 2];
      const all = b.estimateText(bytes);
      texts = new Array(count);
      let offset = 0;
      at = counts + countedComposites;
      for (let i = 0; i < count; i++) {
        const end = offset + h[at + i];
        texts[i] = all.slice(offset, end);
        offset = end;
      }
    }
    const r = {};
    let k = ownTexts, c = counts;
    for (const { path, crossing, keys } of textComposites) {
      if (crossing === 'records') {
        const list = new Array(h[c++]);
        for (let i = 0; i < list.length; i++) {
          const record = {};
          record[keys[0]] = texts[k++];
          record[keys[1]] = texts[k++];
          list[i] = record;
        }
        r[path] = list;
      } else if (crossing === 'empty') {
        r[path] = [];
      } else if (crossing === 'lazy') {
        r[path] = lazyValue(path, h[c++] !== 0);
      } else {
        r[path] = JSON.parse(texts[k++]);
      }
    }
    return r;
  }

  const FAST = Object.freeze({ ok: true, issues: Object.freeze([]) });
  // What stage() wrote: the number of field-input entries (the fast path), or -1 and the JSON
  // text's length in bytes.
  let stagedCount = -1, stagedLength = 0;
  // Writes a scenario argument into the module's memory. Returns {ok, issues}: the wrapper's own
  // issues, and whether the scenario reached the module at all (false: the issues say why).
  function stage(scenario) {
    let count = -1;
    try {
      if (fastPath) count = writeFields(scenario);
    } catch {
      count = -1;  // e.g. a getter that throws: serialize() reports it
    }
    stagedCount = count;
    if (count >= 0) return FAST;
    const { text, issues } = serialize(scenario);
    if (text === null) return { ok: false, issues };
    if (text.length > maxInputBytes) {
      issues.push({ field: 'scenario', message: `is larger than ${maxInputBytes} bytes as JSON text; not read` });
      return { ok: false, issues };
    }
    stagedLength = put(text);
    return { ok: true, issues };
  }
  // Decodes a scenario argument in the module for the next call (check: whether to apply the rules).
  function load(scenario, check) {
    const staged = stage(scenario);
    if (!staged.ok) return staged;
    if (stagedCount >= 0) b.scenarioFields(stagedCount, check);
    else b.scenarioJson(stagedLength, check);
    return staged;
  }


  // A config file's text applied onto `base` (a scenario; missing = the defaults) by the codec.
  // deepspeed: 0 = a Hugging Face config.json, 1 = a DeepSpeed config (bindings.cpp, import_json).
  function importConfig(deepspeed, text, base) {
    if (typeof text !== 'string') {
      throw importError([{ field: 'config', message: `must be the text of a JSON file (got ${describe(text)})` }]);
    }
    if (text.length > maxInputBytes) {
      text = text.slice(0, maxInputBytes + 1);  // UTF-8 has at least a byte per UTF-16 unit: still too large
    } else if (!wellFormed(text)) {
      throw importError([{ field: 'config', message: 'must be valid Unicode text (it contains a lone UTF-16 surrogate)' }]);
    }
    if (base !== undefined) {
      const { ok, issues } = load(base, 0);
      if (!ok || issues.length > 0) throw importError(issues.map((i) => ({ ...i, field: `base.${i.field}` })));
    }
    const result = b.importConfig(put(text), base !== undefined, deepspeed);
    if (result.issues.length > 0) throw importError(result.issues);
    delete result.issues;
    return result;
  }

  // The first bytes of a .gguf file (bindings.cpp, import_gguf_json): at most 64 MiB cross.
  const maxGgufBytes = 64 * 1024 * 1024;
  function importGgufBytes(bytes, base) {
    if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
    if (!(bytes instanceof Uint8Array)) {
      throw importError([{ field: 'gguf', message: `must be the bytes of a .gguf file as a Uint8Array (got ${describe(bytes)})` }]);
    }
    if (base !== undefined) {
      const { ok, issues } = load(base, 0);
      if (!ok || issues.length > 0) throw importError(issues.map((i) => ({ ...i, field: `base.${i.field}` })));
    }
    const n = Math.min(bytes.length, maxGgufBytes);
    const [heap, at] = b.input(n + 1);
    heap.set(bytes.subarray(0, n), at);
    const result = b.importGguf(n, base !== undefined);
    if (result.issues.length > 0) {
      const error = importError(result.issues);
      error.incomplete = result.incomplete === true;  // the header continues: pass more of the file
      throw error;
    }
    delete result.issues;
    return result;
  }

  const api = {
    estimate(scenario) {
      return guarded(scenarioError, 'scenario', () => runEstimate(scenario));
    },
    validate(scenario) {
      try {
        const { ok, issues } = load(scenario, 1);
        if (!ok) return issues;
        return merge(issues, b.validate());
      } catch (e) {  // documented never to throw
        return [{ field: 'scenario', message: unexpected(e) }];
      }
    },
    plan(scenario, options = {}) {
      return guarded(scenarioError, 'scenario', () => runPlan(scenario, options));
    },
    planInference(scenario, options = {}) {
      return guarded(scenarioError, 'scenario', () => runPlan(scenario, options, (length) => b.planInference(length)));
    },
    encodeLink(scenario) {
      return guarded(scenarioError, 'scenario', () => runEncodeLink(scenario));
    },
    decodeLink(fragment) {
      try {
        return runDecodeLink(fragment);
      } catch (e) {  // documented never to throw
        return { scenario: JSON.parse(defaultText), issues: [{ field: 'link', message: `${unexpected(e)}; using the defaults` }],
          notes: [] };
      }
    },
    importHfConfig(text, base) {
      return guarded(importError, 'config', () => importConfig(0, text, base));
    },
    importDeepSpeedConfig(text, base) {
      return guarded(importError, 'config', () => importConfig(1, text, base));
    },
    importGguf(bytes, base) {
      return guarded(importError, 'gguf', () => importGgufBytes(bytes, base));
    },
    defaultScenario() {
      return JSON.parse(defaultText);
    },
    modelPresets() {
      return JSON.parse(modelPresetsText);
    },
    gpuPresets() {
      return JSON.parse(gpuPresetsText);
    },
    fields() {
      return JSON.parse(fieldsText);
    },
    version: tables.version,
  };
  return Object.freeze(api);

  function runEstimate(scenario) {
    // Decoded without the rules: the module's estimate checks them (once, in the core's evaluate).
    const { ok, issues } = stage(scenario);
    if (!ok) throw scenarioError(issues);
    const how = b.estimate(stagedCount, stagedLength);
    if (how === 0) throw scenarioError(merge(issues, b.estimateIssues()));
    const [h, s] = b.values();
    const r = readTextPart(how, h, s);
    if (issues.length > 0) throw scenarioError(issues);
    return buildEstimate(h, s, texts, r);
  }

  function runPlan(scenario, options, planner = (length) => b.plan(length)) {
    const { ok, issues } = load(scenario, 0);  // the layout is searched: the module checks plan_issues()
    if (!ok) throw scenarioError(issues);
    let optionsText;
    if (options === undefined || options === null) {
      optionsText = '{}';
    } else if (!isPlainObject(options)) {
      throw scenarioError([{ field: 'options', message: `must be an object (got ${describe(options)})` }]);
    } else {
      const bad = [];
      const clean = Object.create(null);
      for (const key of Object.keys(options)) {
        const value = options[key];
        if (key === 'hold' || key === 'gpus') {
          if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && wellFormed(v))) {
            bad.push({ field: `options.${key}`, message: `must be an array of ${key === 'hold' ? 'field names' : 'GPU preset ids'} (got ${describe(value)})` });
          } else {
            clean[key] = value.slice();
          }
        } else if (key === 'all_engines') {
          if (typeof value === 'boolean') clean[key] = value;
          else bad.push({ field: 'options.all_engines', message: `must be true or false (got ${describe(value)})` });
        } else if (typeof value === 'number' && Number.isFinite(value)) {
          clean[wellFormed(key) ? key : printable(key)] = value;
        } else if (value !== undefined) {
          bad.push({ field: `options.${printable(key)}`, message: `must be a finite number (got ${describe(value)})` });
        }
      }
      if (bad.length > 0) throw scenarioError(merge(issues, bad));
      optionsText = JSON.stringify(clean);
      if (optionsText.length > maxInputBytes) {
        throw scenarioError(merge(issues, [{ field: 'options', message: `is larger than ${maxInputBytes} bytes as JSON text; not read` }]));
      }
    }
    const result = planner(put(optionsText));
    const all = merge(issues, result.errors || []);
    if (all.length > 0) throw scenarioError(all);
    return result;
  }

  function runEncodeLink(scenario) {
    const { ok, issues } = load(scenario, 1);
    if (!ok) throw scenarioError(issues);
    const result = b.encodeLink();
    const all = merge(issues, result.errors || []);
    if (all.length > 0) throw scenarioError(all);
    return result.link;
  }

  function runDecodeLink(fragment) {
    if (typeof fragment !== 'string') {
      return {
        scenario: JSON.parse(defaultText),
        issues: [{ field: 'link', message: `must be a string (got ${describe(fragment)}); using the defaults` }],
        notes: [],
      };
    }
    // A whole URL is accepted too: only what follows the first '#' is the fragment. Two units past
    // the limit are enough for the codec to refuse a longer one (it drops one more leading '#').
    const hash = fragment.indexOf('#');
    let text = hash >= 0 ? fragment.slice(hash + 1) : fragment;
    if (text.length > maxLinkLength + 2) text = text.slice(0, maxLinkLength + 2);
    return b.decodeLink(put(text));
  }
}

export default createVramcalc;
