/**
 * Typings of the vramcalc JavaScript API (`vramcalc.mjs` + `vramcalc-wasm.mjs` + `vramcalc-wasm.wasm`).
 *
 * Hand-written (Emscripten 3.1.6 has no `--emit-tsd`); `tests/js/api-surface.test.mjs` checks that
 * every function and property declared on {@link VramcalcApi} exists on the module and that the
 * module exposes nothing undeclared. Guide with examples: `docs/api.md`.
 *
 * @example
 * ```js
 * import createVramcalc from './vramcalc.mjs';
 * const api = await createVramcalc();
 * const e = api.estimate({ model: { preset: 'llama-3-8b' }, training: { micro_batch_size: 4 } });
 * console.log(e.memory_per_gpu_bytes.total / 2 ** 30, 'GiB per GPU; fits:', e.fits);
 * ```
 * @packageDocumentation
 */

// ─────────────────────────────── Factory ───────────────────────────────

/** Options of {@link createVramcalc}. All are optional; the defaults suit browsers and Node. */
export interface VramcalcOptions {
  /**
   * The bytes of `vramcalc-wasm.wasm`, when the caller has them already (bundlers, tests).
   * In Node the factory reads the file next to `vramcalc.mjs` by itself.
   */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Maps the file name `vramcalc-wasm.wasm` to the URL (browser) or path (Node) to load it from.
   * By default the file is looked up next to `vramcalc.mjs` (`new URL(name, import.meta.url)`).
   */
  locateFile?: (path: string, prefix: string) => string;
  /**
   * `true`: every scenario crosses into the module as JSON text. By default a scenario whose keys
   * are all known and whose values all have their field's type crosses as typed values (faster);
   * results and messages are the same either way (the tests compare the two).
   */
  jsonScenarios?: boolean;
}

/**
 * Loads the WebAssembly module and returns one API instance. Instances are independent; the
 * returned object is frozen and holds only plain functions (nothing to `delete()`).
 */
export function createVramcalc(options?: VramcalcOptions): Promise<VramcalcApi>;
export default createVramcalc;

// ─────────────────────────────── The API ───────────────────────────────

/** What {@link createVramcalc} resolves to. */
export interface VramcalcApi {
  /**
   * Estimates memory per GPU, parameters, activations and compute for a scenario.
   * Returns exactly what the CLI prints with `vramcalc --config FILE --json`.
   * @param scenario A full or partial scenario; missing fields take their defaults.
   * @throws {@link ScenarioError} when the input is not an object, has unknown sections or fields,
   *   wrong types, or breaks a rule (e.g. heads not dividing the hidden size). The message lists
   *   every problem as `field: message`.
   */
  estimate(scenario: ScenarioInput): Estimate;

  /**
   * Every problem of a scenario (decoding problems, else the rules it breaks); `[]` when valid.
   * Never throws, whatever the input.
   */
  validate(scenario: unknown): Issue[];

  /**
   * Searches every layout (t, p, DP, ZeRO stage, micro-batch, recomputation, sequence parallelism,
   * interleaving, optimizer offload) for the scenario's model and GPU, keeps those that fit in
   * memory (with `options.min_headroom_fraction` free), ranks them by the predicted step time and
   * returns the best with why each wins or loses. The same object as `vramcalc --plan --json`.
   * @param scenario Model, precision, optimizer, kernels and hardware; its layout fields are searched.
   * @param options GPU count, global batch, sequence length (default: the scenario's) and limits.
   * @throws {@link ScenarioError} for an invalid scenario or options (`options.max_results: …`).
   */
  plan(scenario: ScenarioInput, options?: PlanOptions): PlanResult;

  /**
   * The inference planner: every GPU preset × tensor parallel (pipeline across nodes where one node
   * does not fit) × weight format (× engine with `all_engines`) whose serving estimate fits
   * `inference.concurrency` sequences of `inference.context_len` and meets the tokens/s targets,
   * cheapest per million output tokens first; formats under `min_bits_per_weight` (default 4) are
   * left out and named. The same object as `vramcalc --workload inference --plan --json`.
   * An empty `plans` comes with `shortfall` and `message` (nothing fits, or the target is out of reach).
   * @throws {@link ScenarioError} for an invalid scenario or options (`options.max_gpus: …`).
   */
  planInference(scenario: ScenarioInput, options?: InferencePlanOptions): InferencePlanResult;

  /**
   * The shareable link fragment of a scenario (without `#`): `"v=3&mp=llama-3-8b&b=4"`. Only
   * fields that differ from the defaults (or from the named presets) are written; the version
   * says which defaults and presets (links of every earlier version keep their meaning).
   * @throws {@link ScenarioError} exactly as {@link VramcalcApi.estimate} does.
   */
  encodeLink(scenario: ScenarioInput): string;

  /**
   * Reads a link fragment (with or without the leading `#`; a whole URL is accepted too: only
   * what follows its first `#` is read). Lenient: never throws, and the scenario is always valid —
   * unknown keys are ignored, bad values fall back to their defaults, and each problem is listed
   * in `issues` with the field (or link key) it concerns.
   */
  decodeLink(fragment: string): DecodedLink;

  /**
   * Reads a Hugging Face `config.json` (its text) and sets the model of `base` from it, as the
   * CLI's `--hf-config` does (families and rules: `docs/imports.md`). The training, parallel and
   * hardware settings of `base` are kept, except that the sequence is lowered to the positions of
   * a learned-position model; an architecture equal to a model preset becomes that preset.
   * The result may break a rule together with `base`'s layout (e.g. heads not divisible by the
   * tensor degree): {@link VramcalcApi.validate} says so.
   * @param text The file's text.
   * @param base The scenario to start from (full or partial); the defaults when omitted.
   * @throws {@link ImportError} when the text is no usable config (JSON syntax, types, missing
   *   keys, impossible shapes; each issue names the config's own key), or `base` is invalid
   *   (fields `base.…`).
   */
  importHfConfig(text: string, base?: ScenarioInput): ImportResult;

  /**
   * Reads a DeepSpeed config (`ds_config.json` text) and sets ZeRO stage, offload, stage-3 live
   * parameters, batch sizes and precision of `base`, as the CLI's `--deepspeed-config` does;
   * `"auto"` values keep `base`'s value and add a note. The model and hardware are kept.
   * @throws {@link ImportError} as {@link VramcalcApi.importHfConfig} does (issues name DeepSpeed
   *   key paths such as `"zero_optimization.stage"`).
   */
  importDeepSpeedConfig(text: string, base?: ScenarioInput): ImportResult;

  /**
   * Reads the header of a `.gguf` file (its first bytes: 8 MiB is enough for most, at most 64 MiB
   * are read) and sets the model, `inference.weight_format` (from `general.file_type`), engine
   * `llamacpp` and workload `inference` on `base`, as the CLI's `--gguf` does. Counts and lengths
   * of the header are bounded: a header claiming 2^40 tensors is an error, not an allocation.
   * @param bytes The file's first bytes (`await file.slice(0, 8 << 20).arrayBuffer()`).
   * @throws {@link ImportError} naming `"gguf"` or the metadata key; with `incomplete: true` when
   *   the header continues past the bytes given (pass more of the file).
   */
  importGguf(bytes: Uint8Array | ArrayBuffer, base?: ScenarioInput): GgufImportResult;

  /** The default scenario (GPT-3 6.7B on 8 × A100-80GB), every field present. A fresh copy. */
  defaultScenario(): Scenario;

  /** Model presets with their exact architecture and source. A fresh copy. */
  modelPresets(): ModelPreset[];

  /** GPU presets with memory, throughput, price and source. A fresh copy. */
  gpuPresets(): GpuPreset[];

  /** The table of every scenario field (labels, help texts, URL keys, UI ranges). A fresh copy. */
  fields(): FieldInfo[];

  /** Version of vramcalc, e.g. `"0.1.0"`. */
  readonly version: string;
}

/** Options of {@link VramcalcApi.plan}; every one is optional. */
export interface PlanOptions {
  /** GPUs to plan for; default `parallel.num_gpus`. */
  num_gpus?: number;
  /** Sequences per optimizer step, held fixed; default the scenario's. */
  global_batch_size?: number;
  /** Tokens per sequence; default `training.seq_len`. */
  seq_len?: number;
  /** Plans returned, best first (1–1000, default 10). */
  max_results?: number;
  /** Fraction of GPU memory a plan must leave free (0 to below 1, default 0.1). */
  min_headroom_fraction?: number;
  /** Layout choices kept at the scenario's value instead of searched. */
  hold?: Array<'tensor' | 'recompute' | 'sequence_parallel' | 'zero_stage' | 'interleave' | 'offload_optimizer' | 'context'>;
}

/** Options of {@link VramcalcApi.planInference}; every one is optional. */
export interface InferencePlanOptions {
  /** Aggregate decode tokens/s one replica must reach (0 = none, at most 1e9); raises the concurrency to the smallest that does. */
  min_tokens_per_second?: number;
  /** Decode tokens/s each sequence must see, 1 / inter-token latency (0 = none, at most 1e9). */
  min_sequence_tokens_per_second?: number;
  /** Quality floor: formats whose checkpoint stores fewer bits per parameter are left out (0–32, default 4). */
  min_bits_per_weight?: number;
  /** Search every engine, not only `inference.engine` (default false). */
  all_engines?: boolean;
  /** GPUs of one replica at most (1–4096, default 64). */
  max_gpus?: number;
  /** Rows returned, cheapest first (1–1000, default 10). */
  max_results?: number;
  /** GPU preset ids to search (default: every preset). */
  gpus?: string[];
}

/** Result of {@link VramcalcApi.planInference}. */
export interface InferencePlanResult {
  /** Cheapest per million output tokens first. */
  plans: InferencePlan[];
  /** Candidates estimated; of those, the ones that fit; of those, the ones that meet the targets. */
  searched: number;
  fitting: number;
  meeting: number;
  /** Formats left out by `min_bits_per_weight`. */
  below_min_bits: WeightFormat[];
  shortfall: 'none' | 'nothing_fits' | 'target_unreached';
  /** Fastest aggregate and per-sequence decode tokens/s among the configurations that fit. */
  best_tokens_per_second: number;
  best_sequence_tokens_per_second: number;
  /** Why `plans` is empty, naming what to change; `""` otherwise. */
  message: string;
  /** Always `[]` here (invalid input throws). */
  errors: Issue[];
}

/** One serving configuration the planner found. */
/** A figure's measured error on held-out runs of its regime (docs/accuracy.md, Error bands). */
export interface ErrorBand {
  /** 10th and 90th percentiles of the signed error (predicted / measured − 1); 0 when `cases` is 0. */
  low: number;
  high: number;
  /** Held-out measured runs the band is made of; 0: no band (`regime` says why). */
  cases: number;
  regime: string;
}

export interface InferencePlan {
  gpu: string;
  /** t · p GPUs, on `nodes` machines. */
  gpus: number;
  nodes: number;
  tensor: number;
  pipeline: number;
  engine: Engine;
  weight_format: WeightFormat;
  /** Checkpoint bytes · 8 / parameters (the quality cost of the format). */
  bits_per_weight: number;
  /** Sequences served at once (raised to meet `min_tokens_per_second`). */
  concurrency: number;
  price_per_gpu_hour: number;
  cost_per_million_output_tokens: number;
  /** Aggregate decode tokens/s, and per sequence (1 / inter-token latency). */
  decode_tokens_per_second: number;
  sequence_tokens_per_second: number;
  /** Per GPU, as a serving estimate's `memory_per_gpu_bytes`. */
  memory_per_gpu_bytes: {
    weights: number; kv_cache: number; activations: number; overhead: number; total: number;
    weights_error_band: ErrorBand; total_error_band: ErrorBand;
  };
  /** The serving estimate's `inference` and `performance` objects. */
  inference: Estimate['inference'];
  performance: {
    time_to_first_token_seconds: number;
    prefill_tokens_per_second: number;
    decode_tokens_per_second: number;
    inter_token_latency_seconds: number;
    decode_step_bytes: number;
    cost_per_million_output_tokens: number;
    time_to_first_token_seconds_error_band: ErrorBand;
    prefill_tokens_per_second_error_band: ErrorBand;
    decode_tokens_per_second_error_band: ErrorBand;
  };
  /** The link fragment of this configuration (adopt it with {@link VramcalcApi.decodeLink}). */
  link: string;
}

/** Result of {@link VramcalcApi.plan}. */
export interface PlanResult {
  /** Best first. Empty when no layout fits. */
  plans: Plan[];
  /** Layouts estimated. */
  searched: number;
  /** Of those, the ones that fit in memory with the required headroom. */
  feasible: number;
  num_gpus: number;
  global_batch_size: number;
  /** Always `[]` here (invalid input throws). */
  errors: Issue[];
}

/** One layout the planner found. */
export interface Plan {
  layout: {
    tensor: number;
    pipeline: number;
    data_parallel: number;
    zero_stage: number;
    micro_batch_size: number;
    grad_accum_steps: number;
    recompute: Recompute;
    sequence_parallel: boolean;
    interleave: number;
    context: number;
    offload_optimizer: boolean;
  };
  memory_per_gpu_bytes: MemoryPerGpu;
  fits: boolean;
  performance: Performance;
  /** Days and cost of the whole run (`training.tokens`) with this layout. */
  days: number;
  cost: number;
  /** The link fragment of the scenario with this layout (adopt it with {@link VramcalcApi.decodeLink}). */
  link: string;
  /** step_seconds / the best plan's − 1. */
  slowdown: number;
  /** The largest differences from the best plan (for the best: from the runner-up). */
  reasons: PlanReason[];
}

/** One cause of a plan's difference from the reference plan. */
export interface PlanReason {
  factor: 'compute' | 'recompute' | 'tensor_parallel' | 'pipeline_bubble' | 'pipeline_p2p' | 'data_parallel' | 'zero' |
    'optimizer_step' | 'memory_headroom';
  label: string;
  /** This plan − reference: seconds per step (a positive value loses time), or bytes of headroom. */
  delta: number;
  unit: 'seconds' | 'bytes';
}

/** Memory of one GPU by term: the estimate's own `memory_per_gpu_bytes`. */
export type MemoryPerGpu = Estimate['memory_per_gpu_bytes'];

/** Throughput: with `hardware.throughput_model = "predicted"` the step-time model, else the given
 * rate. The estimate's own `performance`. */
export type Performance = Estimate['performance'];

/** Seconds of one optimizer step by cause: the estimate's own `performance.breakdown_seconds`. */
export type PerformanceBreakdown = Performance['breakdown_seconds'];

/** One problem with one field. `field` is a path such as `"model.hidden_size"`, or `"scenario"`, `"link"`, a link key. */
export interface Issue {
  field: string;
  message: string;
}

/** The `Error` that {@link VramcalcApi.estimate}, {@link VramcalcApi.plan} and {@link VramcalcApi.encodeLink} throw. */
export interface ScenarioError extends Error {
  /** `"ScenarioError"`. */
  name: 'ScenarioError';
  /** `"invalid scenario: field: message; field: message"`. */
  message: string;
  /** The same problems as data. */
  issues: Issue[];
}

/** What {@link VramcalcApi.importHfConfig} and {@link VramcalcApi.importDeepSpeedConfig} return. */
export interface ImportResult {
  /** `base` with the imported fields set: complete, every field present. */
  scenario: Scenario;
  /** The model family read (`"llama"`, `"gpt2"`, …), or `"deepspeed"`. */
  family: string;
  /** One sentence each: defaults assumed, `"auto"` values kept, what was mapped how. */
  notes: string[];
  /** Keys of the file that set nothing in the scenario. */
  unmapped_keys: string[];
  /** Pure metadata keys (e.g. `"transformers_version"`), read and ignored. */
  ignored_keys: string[];
}

/** What {@link VramcalcApi.importGguf} returns. */
export interface GgufImportResult {
  /** `base` with the model, weight format, engine and workload from the header. */
  scenario: Scenario;
  /** `general.architecture` (`"llama"`, `"qwen3"`, …). */
  family: string;
  /** One sentence each: what was read how, the exact tensor bytes, the estimate's recipe beside them. */
  notes: string[];
  /** The header: version, tensor count, its length, Σ elements and Σ bytes of the tensors, by ggml type. */
  gguf: {
    version: number;
    tensors: number;
    header_bytes: number;
    parameters: number;
    tensor_bytes: number;
    types: { type: string; tensors: number; elements: number; bytes: number }[];
  };
}

/** The `Error` that the import functions throw. */
export interface ImportError extends Error {
  /** `"ImportError"`. */
  name: 'ImportError';
  /** `"could not import the config: key: message; key: message"`. */
  message: string;
  /** The problems as data: `field` is the config's key (`"hidden_size"`), `"config"`, or `"base.…"`. */
  issues: Issue[];
  /** importGguf: the header continues past the bytes given. */
  incomplete?: boolean;
}

/** Result of {@link VramcalcApi.decodeLink}. */
export interface DecodedLink {
  /** Always a valid, complete scenario. */
  scenario: Scenario;
  /** Problems found in the link; `[]` when it decoded cleanly. */
  issues: Issue[];
  /**
   * Values changed besides what the link names (not problems), e.g. a sequence length lowered to
   * the learned positions of the link's model preset; `[]` when none.
   */
  notes: Issue[];
}

// ─────────────────────────────── Scenario ───────────────────────────────

export type MlpKind = 'gelu' | 'swiglu';
export type LinearAttention = 'gated_deltanet' | 'mamba';
export type NormKind = 'layernorm' | 'rmsnorm';
export type PositionEmbedding = 'learned' | 'rope';
export type Precision = 'mixed_bf16' | 'mixed_fp16' | 'bf16' | 'fp16' | 'fp32' | 'amp_bf16' | 'amp_fp16';
export type GradDtype = 'match' | 'fp32';
export type Optimizer = 'adamw' | 'adamw_8bit' | 'sgd_momentum' | 'sgd';
export type Recompute = 'none' | 'selective' | 'full' | 'ops';
export type Activation = 'auto' | 'gelu' | 'gelu_tanh' | 'gelu_new' | 'silu' | 'relu';
export type Framework = 'megatron' | 'deepspeed' | 'fsdp' | 'hf' | 'torchtune' | 'generic';
export type Kernels = 'fused' | 'eager' | 'compiled';
export type Loss = 'standard' | 'chunked' | 'fused';
export type OptimizerImpl = 'foreach' | 'fused';
export type ZeroImpl = 'deepspeed' | 'fsdp';
export type ThroughputModel = 'fixed' | 'predicted';
/** What trains: every parameter, LoRA adapters on a frozen 16-bit or quantised model, or the last k layers. */
export type TrainingMethod = 'full' | 'lora' | 'qlora' | 'freeze';
/** QLoRA base weights: NF4 with double quantisation (4.127 bits), NF4 with fp32 constants (4.5), LLM.int8. */
export type BaseWeightFormat = 'nf4' | 'nf4_no_dq' | 'int8';
/** FP8 linear layers: none, per-tensor, per-row or 1×128 / 128×128 block scales. */
export type Fp8Recipe = 'none' | 'tensorwise' | 'rowwise' | 'blockwise';
/** LoRA adapter weights: fp32 (PEFT's default) or the model's weight dtype (torchtune). */
export type AdapterDtype = 'fp32' | 'match';

/** The model architecture. Integers must be whole numbers below 2^53. */
export interface ModelConfig {
  /** A label; a preset name also selects that preset when decoding a link. */
  name: string;
  /** L: transformer layers. */
  layers: number;
  /** h: model width. */
  hidden_size: number;
  /** a: attention (query) heads. */
  num_heads: number;
  /** g: key/value heads (grouped-query attention); 0 = `num_heads`. */
  num_kv_heads: number;
  /** d: width of one head; 0 = h / a. */
  head_dim: number;
  /** f: MLP inner width; 0 = 4h. */
  ffn_hidden_size: number;
  /** V: vocabulary size. */
  vocab_size: number;
  mlp: MlpKind;
  norm: NormKind;
  /** Biases on every linear layer (GPT-2, GPT-NeoX). */
  bias: boolean;
  /** Biases on Q, K, V only (Qwen2). */
  qkv_bias: boolean;
  tied_embeddings: boolean;
  position_embedding: PositionEmbedding;
  max_position_embeddings: number;
  /** E: experts per layer; 1 = dense. */
  num_experts: number;
  /** k: experts each token is routed to. */
  experts_per_token: number;
  /** MLP activation as implemented; `gelu_new` (GPT-2's Python tanh formula) keeps more in eager mode; `auto` = GELU or SiLU by `mlp`. */
  activation: Activation;
  /** Norms per layer: 2 (before attention and MLP); Gemma 2 has 4. */
  norms_per_layer: number;
  /** Width of one routed or shared expert; 0 = `ffn_hidden_size`. */
  moe_ffn_hidden_size: number;
  /** Experts every token passes through besides its k routed ones (DeepSeekMoE: 2). */
  num_shared_experts: number;
  /** MoE models: leading layers with a dense MLP of `ffn_hidden_size`. */
  dense_layers: number;
  /** When > 0, this parameter count replaces the architecture's. */
  params_override: number;
  /** d_c: multi-head latent attention's KV latent width (DeepSeek-V3: 512); 0 = ordinary attention. */
  kv_lora_rank: number;
  /** d_c': MLA's query latent width (DeepSeek-V3: 1536); 0 = a direct query projection. */
  q_lora_rank: number;
  /** MLA: per-head query/key width carrying RoPE (DeepSeek-V3: 64). */
  qk_rope_head_dim: number;
  /** MLA: per-head query/key width without RoPE (DeepSeek-V3: 128). */
  qk_nope_head_dim: number;
  /** MLA: per-head value width; 0 = `head_dim`. */
  v_head_dim: number;
  /** W: tokens a windowed layer attends to; 0 = every layer global. */
  sliding_window: number;
  /** With a window: every N-th layer is global (Gemma 3: 6, gpt-oss: 2); 0 = every layer windowed. */
  global_attention_interval: number;
  /** Per-head RMSNorm on queries and keys (Qwen3, Gemma 3). */
  qk_norm: boolean;
  /** A learned sink logit per head and layer (gpt-oss). */
  attention_sinks: boolean;
  /** The query projection also yields a sigmoid output gate (Qwen3-Next). */
  attention_output_gate: boolean;
  /** Hybrid stacks: every N-th layer is softmax attention, the others linear / Mamba; 0 = all softmax. */
  full_attention_interval: number;
  linear_attention: LinearAttention;
  /** Gated DeltaNet query/key heads (Qwen3-Next-80B-A3B: 16). */
  linear_num_key_heads: number;
  /** Gated DeltaNet value heads (32). */
  linear_num_value_heads: number;
  /** Gated DeltaNet key head width (128). */
  linear_key_head_dim: number;
  /** Gated DeltaNet value head width (128). */
  linear_value_head_dim: number;
  /** Short causal convolution width of a linear / Mamba layer (4). */
  linear_conv_kernel: number;
  /** N: Mamba state width per channel (Jamba: 16). */
  ssm_state_size: number;
  /** Mamba inner width = expansion × h (2). */
  ssm_expand: number;
  /** A bias on each MoE router (gpt-oss; DeepSeek-V3's e_score_correction_bias). */
  router_bias: boolean;
  /** A sigmoid gate h → 1 on the shared expert (Qwen2-MoE, Qwen3-Next). */
  shared_expert_gate: boolean;
}

/** The training run. */
export interface TrainingConfig {
  /** s: tokens per sequence. */
  seq_len: number;
  /** b: sequences per GPU per forward/backward pass. */
  micro_batch_size: number;
  /** Sequences per optimizer step; 0 = derive from `grad_accum_steps`. */
  global_batch_size: number;
  /** Micro-batches per step per GPU; 0 = derive from `global_batch_size`. */
  grad_accum_steps: number;
  /** D: training tokens. */
  tokens: number;
  precision: Precision;
  grad_dtype: GradDtype;
  optimizer: Optimizer;
  recompute: Recompute;
  flash_attention: boolean;
  dropout: boolean;
  /** Count 12·L·s·h attention FLOPs per token on top of 6·P. */
  attention_flops: boolean;
  /** The training stack: applies its profile (kernels, loss, optimizer kernel, precision, sharding) like a preset. */
  framework: Framework;
  /** How activations are kept: fused (Megatron/TE), eager (HF Transformers), compiled (torch.compile). */
  kernels: Kernels;
  loss: Loss;
  /** Chunks of the chunked loss. */
  loss_chunks: number;
  /** With full or ops recomputation: 0 = every layer, k = only k layers per pipeline stage. */
  recompute_layers: number;
  optimizer_impl: OptimizerImpl;
  /** bitsandbytes paged optimizer: states in unified memory, counted as host memory. */
  paged_optimizer: boolean;
  /** Gradient buffers stay allocated between steps (Megatron main_grad; set_to_none=False). */
  persistent_gradients: boolean;
  /** Each parameter steps as soon as its gradient exists (torchtune). */
  optimizer_in_backward: boolean;
  /** Saved activations go to host memory. */
  offload_activations: boolean;
  /** What trains (docs/formulas.md "Fine-tuning"). */
  method: TrainingMethod;
  /** r: rank of each LoRA adapter. */
  lora_rank: number;
  /**
   * Linears that get adapters, one text value: `'attention'` (q, k, v, o), `'all_linear'`, or a
   * comma-separated list of `q`, `k`, `v`, `o`, `gate`, `up`, `down` (`'q,v'`; `q_proj` is accepted).
   */
  lora_targets: string;
  /** LoRA dropout on each adapter's input; above 0 every adapter keeps a mask and a copy. */
  lora_dropout: number;
  adapter_dtype: AdapterDtype;
  /** QLoRA: how the frozen base weights are stored. */
  base_weight_format: BaseWeightFormat;
  /** FP8 GEMMs in the linear layers (attention, norms, LM head stay 16-bit); fused kernels = Transformer Engine, otherwise torchao. */
  fp8: Fp8Recipe;
  /** Freeze: train only the last k layers; 0 = all layers. */
  trainable_layers: number;
}

/** Parallelism and ZeRO. */
export interface ParallelConfig {
  /** N: total GPUs; data-parallel degree DP = N / (t·p·cp). */
  num_gpus: number;
  /** t: tensor-parallel degree. */
  tensor: number;
  /** p: pipeline stages. */
  pipeline: number;
  /** ZeRO stage, 0–3. */
  zero_stage: number;
  sequence_parallel: boolean;
  /** Megatron-Core `--tp-comm-overlap` (Transformer Engine userbuffers): TP all-gathers / reduce-scatters under the GEMMs; needs `tensor` > 1 and `sequence_parallel`. */
  tp_comm_overlap: boolean;
  /** ZeRO-R activation partitioning. */
  partition_activations: boolean;
  /** ZeRO-3 gathered parameters (DeepSpeed `stage3_max_live_parameters`); 0 = not counted. */
  zero3_live_params: number;
  /** ZeRO-Offload: optimizer states in host memory. */
  offload_optimizer: boolean;
  /** Expert-parallel degree (MoE). */
  expert: number;
  /** ZeRO-3 / FSDP parameter offload to host memory. */
  offload_params: boolean;
  /** ZeRO implementation: DeepSpeed (live-parameter bound) or FSDP2 (current + prefetched layer, root gathered). */
  zero_impl: ZeroImpl;
  /** v: virtual pipeline stages per GPU (interleaved 1F1B); must divide layers / pipeline. */
  interleave: number;
  /** cp: context-parallel degree, each sequence split over cp GPUs (ring attention); num_gpus = t·p·cp·DP. */
  context: number;
  /** HSDP: ZeRO/FSDP states sharded over groups of this many DP·cp ranks, replicated across; 0 = all. */
  shard_group: number;
}

/** The GPU and its price. */
export interface HardwareConfig {
  /** A GPU preset id (fills the other fields) or any label. */
  gpu: string;
  /** Memory of one GPU in GiB (2^30 bytes), as the device reports it. */
  memory_gib: number;
  /** Dense bf16/fp16 peak of one GPU, TFLOP/s. */
  peak_tflops: number;
  /** Throughput one GPU really reaches, TFLOP/s; 0 = use `mfu`. */
  achieved_tflops: number;
  /** Model FLOPs utilisation in (0, 1], used when `achieved_tflops` is 0. */
  mfu: number;
  /** Currency units per GPU-hour. */
  price_per_gpu_hour: number;
  /** Per-GPU memory reserved for CUDA context, NCCL buffers, fragmentation, GiB. */
  reserved_gib: number;
  /** CUDA context and kernel images per GPU in GiB, outside PyTorch's allocator. */
  cuda_context_gib: number;
  /** The caching allocator's reserve above the peak of allocated tensors, as a fraction. */
  allocator_overhead: number;
  /** `fixed`: time = FLOPs / the given rate; `predicted`: the step-time model. */
  throughput_model: ThroughputModel;
  /** GPUs on the fast intra-node link. */
  gpus_per_node: number;
  /** Per-GPU intra-node bandwidth, GB/s, one direction. */
  intra_node_gbps: number;
  /** Per-GPU inter-node bandwidth, GB/s, one direction. */
  inter_node_gbps: number;
  /** GPU memory bandwidth, GB/s. */
  memory_bandwidth_gbps: number;
}

/** What the scenario asks: a training run (the default) or serving the model (docs/serving.md). */
export type Workload = 'training' | 'inference';
export type Engine = 'vllm' | 'sglang' | 'trtllm' | 'llamacpp' | 'hf';
export type WeightFormat = 'bf16' | 'fp16' | 'fp32' | 'fp8' | 'fp8_channel' | 'fp8_block' | 'int8' | 'awq' | 'gptq' | 'nf4' | 'mxfp4' | 'gguf-q8_0' | 'gguf-q6_k' | 'gguf-q5_k_m' | 'gguf-q5_k_s' | 'gguf-q4_k_m' | 'gguf-q4_k_s' | 'gguf-q4_0' | 'gguf-q3_k_m' | 'gguf-q2_k' | 'gguf-iq4_xs';
export type KvCacheDtype = 'auto' | 'fp16' | 'bf16' | 'fp8' | 'q8_0' | 'q4_0';
export type Sampler = 'flashinfer' | 'pytorch';

/** Serving settings (`workload: "inference"`; docs/serving.md). */
export interface InferenceConfig {
  /** Whose memory accounting the estimate follows. */
  engine: Engine;
  /** How the checkpoint stores its weights (GGUF types need `engine: "llamacpp"`). */
  weight_format: WeightFormat;
  /** AWQ / GPTQ group size along the input features; -1 = one group per column. */
  quant_group_size: number;
  /** KV-cache element type; `auto` = the model's 16-bit dtype; `q8_0` / `q4_0` are llama.cpp's. */
  kv_cache_dtype: KvCacheDtype;
  /** Tokens per sequence (vLLM max_model_len, llama.cpp context per slot). */
  context_len: number;
  /** Sequences served at once. */
  concurrency: number;
  /** vLLM gpu_memory_utilization / SGLang mem_fraction_static / TRT-LLM free fraction; 0 = engine default. */
  gpu_memory_utilization: number;
  /** vLLM max_num_batched_tokens / SGLang chunked_prefill_size / llama.cpp n_ubatch; 0 = engine default. */
  max_batched_tokens: number;
  /** llama.cpp n_gpu_layers; -1 = all. */
  gpu_layers: number;
  /** Tokens of each prompt (time to first token, prefill). */
  prompt_tokens: number;
  /** Tokens generated per request (decode, cost). */
  output_tokens: number;
  /** vLLM V1's top-k/top-p sampler, whose warm-up the KV budget leaves room for: FlashInfer's kernels or PyTorch's sort. */
  sampler: Sampler;
  /** > 0: the checkpoint's exact weight bytes (an imported GGUF file's tensor data) instead of the format's recipe; 0 = from the format. */
  weight_bytes_override: number;
}

/** A complete scenario, as {@link VramcalcApi.defaultScenario} and {@link VramcalcApi.decodeLink} return it. */
export interface Scenario {
  workload: Workload;
  model: ModelConfig;
  training: TrainingConfig;
  parallel: ParallelConfig;
  hardware: HardwareConfig;
  inference: InferenceConfig;
}

/**
 * What the API accepts: any subset of a {@link Scenario}; missing sections and fields take their
 * defaults, and `undefined` values count as missing. `model.preset` (or `model: "<preset id>"`)
 * starts from a model preset and a known `hardware.gpu` from a GPU preset; explicit fields
 * override either. A model preset lowers `training.seq_len` to its learned positions unless the
 * input sets it (the estimate's `notes` say so). Unknown sections or fields, wrong types,
 * NaN/Infinity are errors.
 */
export interface ScenarioInput {
  model?: (Partial<ModelConfig> & { preset?: string }) | string;
  training?: Partial<TrainingConfig>;
  parallel?: Partial<ParallelConfig>;
  hardware?: Partial<HardwareConfig>;
  workload?: Workload;
  inference?: Partial<InferenceConfig>;
}

// ─────────────────────────────── Estimate ───────────────────────────────

/** A warning about the scenario (it still has an estimate). `id` is stable, e.g. `"does_not_fit"`. */
export interface Warning {
  id: string;
  message: string;
}

/**
 * A way to fit (`fixes` of an estimate that does not fit): one change after which the scenario fits,
 * estimated by the same estimator. `id` is stable: `"flash_attention"`, `"recompute"`,
 * `"micro_batch"`, `"sequence_parallel"`, `"zero_stage"`, `"offload_optimizer"`, `"more_gpus"`,
 * `"method"`. In an estimate's `fixes` it is computed when first read (a getter: when the scenario
 * does not fit, that takes a few dozen more estimates), for the estimate's `scenario` as it is then.
 */
export interface Fix {
  id: string;
  /** What changes, in words: `"full recomputation"`, `"ZeRO stage 2 → 3"`. */
  change: string;
  /** The fields it changes (paths as in {@link VramcalcApi.fields}) with their new values. */
  fields: Record<string, number | string | boolean>;
  /** Memory per GPU with the change (`memory_per_gpu_bytes.total`), bytes. */
  total_bytes: number;
  /** Capacity minus that total, bytes (≥ 0: it fits). */
  headroom_bytes: number;
}

/** What one GPU holds at one phase of a training step, bytes by component (docs/formulas.md §6). */
export interface MemoryPhase {
  phase: 'forward' | 'loss' | 'backward' | 'optimizer_step';
  weights: number;
  gradients: number;
  optimizer: number;
  activations: number;
  logits: number;
  temporaries: number;
  /** The sum of the components: what torch.cuda.memory_allocated would show. */
  total: number;
}

// <generated:estimate> from src/core/outputs.cpp by tools/gen_api_docs.cpp: edit the table, not this part
/**
 * The estimate: the same object as the CLI's `--json`. All byte counts are in bytes (not GiB),
 * all FLOP counts in FLOPs; they are plain numbers (doubles, exact up to 2^53).
 */
export interface Estimate {
  /** The complete scenario that was estimated (defaults filled in). */
  scenario: Scenario;
  /** Advice that does not stop the estimate: `[{id, message}]`. */
  warnings: Warning[];
  /** What reading the input changed besides what it names, e.g. a sequence length lowered to the model's positions when a preset was chosen: `[{field, message}]`. */
  notes: Issue[];
  /** Always `[]` in an estimate (invalid input has only `errors`). */
  errors: Issue[];
  /** Bytes by component at each phase of a step: `[{phase, weights, gradients, optimizer, activations, logits, temporaries, total}]` for forward, loss, backward and optimizer_step; the peak phase is `memory_per_gpu_bytes.peak_phase`. */
  memory_timeline: MemoryPhase[];
  /** When the scenario does not fit: the smallest single changes after which it fits, smallest first (at most 4): `[{id, change, fields, total_bytes, headroom_bytes}]`, `fields` the changed fields with their new values, `total_bytes` the memory per GPU with the change. `[]` when it fits. */
  fixes: Fix[];
  parameters: {
    /** All parameters (with every expert of an MoE). (parameters) */
    total: number;
    /** Parameters one token passes through (MoE: k of E experts). (parameters) */
    active: number;
    /** Token embedding V·h (+ learned positions). (parameters) */
    embedding: number;
    /** One transformer layer, all experts. (parameters) */
    per_layer: number;
    /** One transformer layer, the experts a token uses. (parameters) */
    per_layer_active: number;
    /** L · per_layer. (parameters) */
    layers: number;
    /** The final norm's weight (and bias). (parameters) */
    final_norm: number;
    /** V·h when embeddings are untied, else 0. (parameters) */
    lm_head: number;
    /** Parameters that get gradients and optimizer states: all of them in full training, the LoRA adapters, or the last `training.trainable_layers` layers (freeze). (parameters; training estimates only, absent in serving estimates) */
    trainable: number;
    /** r·(d_in + d_out) per adapted linear per layer, added to the model (PEFT's all params = total + adapter). (parameters; training estimates only, absent in serving estimates) */
    adapter: number;
    /** Layers a gradient reaches: every layer, or the last `training.trainable_layers` (freeze). (count; training estimates only, absent in serving estimates) */
    trained_layers: number;
    /** QLoRA: the layers' linear weights stored in `training.base_weight_format`. (parameters; training estimates only, absent in serving estimates) */
    quantized: number;
    /** `model.params_override` replaced the architecture's count. (true/false) */
    overridden: boolean;
  };
  layout: {
    /** DP = num_gpus / (tensor · pipeline). (count; training estimates only, absent in serving estimates) */
    data_parallel: number;
    /** Micro-batches per optimizer step on each GPU. (count; training estimates only, absent in serving estimates) */
    grad_accum_steps: number;
    /** Sequences per optimizer step: micro-batch × DP × gradient accumulation. (sequences; training estimates only, absent in serving estimates) */
    global_batch_size: number;
    /** g: `model.num_kv_heads`, or the attention heads when it is 0. (count) */
    kv_heads: number;
    /** d: `model.head_dim`, or h / a when it is 0. (count) */
    head_dim: number;
    /** f: `model.ffn_hidden_size`, or 4h when it is 0. (count) */
    ffn_hidden_size: number;
    /** Model parameters held by one GPU before ZeRO sharding (P / (t·p), experts / EP). (parameters) */
    params_per_gpu: number;
    /** FLOP/s one GPU achieves: `hardware.achieved_tflops`, or peak × MFU. (FLOP/s; training estimates only, absent in serving estimates) */
    achieved_flops_per_gpu: number;
  };
  /** training estimates only, absent in serving estimates */
  bytes_per_parameter: {
    /** Bytes per parameter of the weights, before sharding. (bytes per parameter; training estimates only, absent in serving estimates) */
    weights: number;
    /** Bytes per parameter of the gradients, before sharding. (bytes per parameter; training estimates only, absent in serving estimates) */
    gradients: number;
    /** Master copy + optimizer states per parameter, before sharding. (bytes per parameter; training estimates only, absent in serving estimates) */
    optimizer: number;
  };
  /** training estimates only, absent in serving estimates */
  activations: {
    /** Bytes per s·b·h element per layer on this GPU (34 for a plain GPT with t = 1). (bytes per element; training estimates only, absent in serving estimates) */
    sbh_coefficient: number;
    /** Bytes per a·s²·b element per layer on this GPU (5 without FlashAttention). (bytes per element; training estimates only, absent in serving estimates) */
    as2b_coefficient: number;
    /** One layer, one micro-batch. (bytes; training estimates only, absent in serving estimates) */
    per_layer_bytes: number;
    /** ceil(L / p). (count; training estimates only, absent in serving estimates) */
    layers_on_gpu: number;
    /** Micro-batches whose activations the first pipeline stage holds (1F1B). (count; training estimates only, absent in serving estimates) */
    in_flight_microbatches: number;
    /** per_layer_bytes · layers_on_gpu · in_flight_microbatches. (bytes; training estimates only, absent in serving estimates) */
    transformer_layers_bytes: number;
    /** The embedding dropout mask (first stage). (bytes; training estimates only, absent in serving estimates) */
    embedding_bytes: number;
    /** Final norm and LM-head input (last stage). (bytes; training estimates only, absent in serving estimates) */
    output_bytes: number;
    /** The busiest pipeline stage's saved activations, without the loss. (bytes; training estimates only, absent in serving estimates) */
    total_bytes: number;
    /** Layers per stage whose activations are recomputed in backward. (count; training estimates only, absent in serving estimates) */
    recomputed_layers: number;
    /** Temporaries of one layer's forward: eager attention scores before the softmax, HF's 4-D causal mask. (bytes; training estimates only, absent in serving estimates) */
    forward_working_bytes: number;
    /** Gradients of one layer's activations in flight during its backward. (bytes; training estimates only, absent in serving estimates) */
    backward_working_bytes: number;
    /** With full or op-level recomputation: one layer's activations re-created during its backward. (bytes; training estimates only, absent in serving estimates) */
    recompute_working_bytes: number;
    /** s·b·V/t on the last stage. (count; training estimates only, absent in serving estimates) */
    logits_elements: number;
    /** Bytes per logit element the loss keeps for backward. (bytes per element; training estimates only, absent in serving estimates) */
    loss_saved_per_logit: number;
    /** The loss's largest working set (forward or backward), all logits included. (bytes; training estimates only, absent in serving estimates) */
    loss_peak_bytes: number;
    /** Activations kept in host memory (`offload_activations`). (bytes; training estimates only, absent in serving estimates) */
    host_bytes: number;
  };
  /** training estimates only, absent in serving estimates */
  model_states_bytes: {
    /** Parameters each GPU keeps (ZeRO-3: its shard). (bytes; training estimates only, absent in serving estimates) */
    weights: number;
    /** Gradients when all exist (ZeRO-2/3: the shard). (bytes; training estimates only, absent in serving estimates) */
    gradients: number;
    /** Master copy + states on the GPU (ZeRO-1+: the shard). (bytes; training estimates only, absent in serving estimates) */
    optimizer: number;
    /** ZeRO-3 / FSDP parameters gathered for compute during forward and backward. (bytes; training estimates only, absent in serving estimates) */
    live_params: number;
    /** 16-bit copies of the matmul weights autocast keeps from forward to backward. (bytes; training estimates only, absent in serving estimates) */
    autocast_copies: number;
    /** Fine-tuning: the part of the weights that gets no gradient, in its storage dtype (QLoRA: 4-bit codes + constants). (bytes; training estimates only, absent in serving estimates) */
    frozen_weights: number;
    /** training.fp8 with Transformer Engine (fused kernels): row- and column-wise FP8 copies of every linear weight, kept between micro-batches; part of the weights. (bytes; training estimates only, absent in serving estimates) */
    fp8_weight_copies: number;
    /** QLoRA: the 16-bit copy of the largest quantised weight made for each matmul (a temporary). (bytes; training estimates only, absent in serving estimates) */
    dequantized: number;
    /** DDP gradient buckets or DeepSpeed reduce buckets. (bytes; training estimates only, absent in serving estimates) */
    buckets: number;
    /** Extra buffers of one optimizer step (foreach AdamW: one state-sized buffer). (bytes; training estimates only, absent in serving estimates) */
    optimizer_temporaries: number;
  };
  memory_per_gpu_bytes: {
    /** At the peak: persistent, gathered (ZeRO-3/FSDP) and autocast copies. (bytes) */
    weights: number;
    /** inference estimates only */
    weights_error_band?: {
      /** 10th percentile of the signed error (predicted / measured - 1) of held-out measured runs of the same regime (docs/accuracy.md, Error bands); 0 when `cases` is 0. (fraction; inference estimates only) */
      low?: number;
      /** 90th percentile of the signed error of the same held-out runs; 0 when `cases` is 0. (fraction; inference estimates only) */
      high?: number;
      /** Held-out measured runs the band is made of; 0: no comparable case (`regime` says why), no band. (count; inference estimates only) */
      cases?: number;
      /** The regime the runs share (GPU, one node or several, framework or engine, size, sequence), or why there is no band. (name; inference estimates only) */
      regime?: string;
    };
    /** What `inference.concurrency` sequences of `inference.context_len` tokens hold on one GPU (the need, not the engine's preallocated pool). (bytes; inference estimates only) */
    kv_cache?: number;
    /** The part of `weights` that is ZeRO-3 / FSDP gathered parameters. (bytes; training estimates only, absent in serving estimates) */
    zero3_live_params: number;
    /** Gradients alive at the peak. (bytes; training estimates only, absent in serving estimates) */
    gradients: number;
    /** On the GPU (0 when offloaded). (bytes; training estimates only, absent in serving estimates) */
    optimizer: number;
    /** Saved activations alive at the peak. (bytes) */
    activations: number;
    /** Logits and loss tensors alive at the peak. (bytes; training estimates only, absent in serving estimates) */
    logits: number;
    /** Working buffers at the peak: backward and recompute working sets, optimizer-step temporaries, buckets. (bytes; training estimates only, absent in serving estimates) */
    temporaries: number;
    /** Largest phase of the step: what torch.cuda.max_memory_allocated reports. (bytes; training estimates only, absent in serving estimates) */
    peak_allocated: number;
    /** training estimates only, absent in serving estimates */
    peak_allocated_error_band: {
      /** 10th percentile of the signed error (predicted / measured - 1) of held-out measured runs of the same regime (docs/accuracy.md, Error bands); 0 when `cases` is 0. (fraction; training estimates only, absent in serving estimates) */
      low: number;
      /** 90th percentile of the signed error of the same held-out runs; 0 when `cases` is 0. (fraction; training estimates only, absent in serving estimates) */
      high: number;
      /** Held-out measured runs the band is made of; 0: no comparable case (`regime` says why), no band. (count; training estimates only, absent in serving estimates) */
      cases: number;
      /** The regime the runs share (GPU, one node or several, framework or engine, size, sequence), or why there is no band. (name; training estimates only, absent in serving estimates) */
      regime: string;
    };
    /** What PyTorch's caching allocator holds: torch.cuda.max_memory_reserved. (bytes; training estimates only, absent in serving estimates) */
    peak_reserved: number;
    /** training estimates only, absent in serving estimates */
    peak_reserved_error_band: {
      /** 10th percentile of the signed error (predicted / measured - 1) of held-out measured runs of the same regime (docs/accuracy.md, Error bands); 0 when `cases` is 0. (fraction; training estimates only, absent in serving estimates) */
      low: number;
      /** 90th percentile of the signed error of the same held-out runs; 0 when `cases` is 0. (fraction; training estimates only, absent in serving estimates) */
      high: number;
      /** Held-out measured runs the band is made of; 0: no comparable case (`regime` says why), no band. (count; training estimates only, absent in serving estimates) */
      cases: number;
      /** The regime the runs share (GPU, one node or several, framework or engine, size, sequence), or why there is no band. (name; training estimates only, absent in serving estimates) */
      regime: string;
    };
    /** When the peak happens: forward, loss, backward or optimizer_step. (name; training estimates only, absent in serving estimates) */
    peak_phase: string;
    /** Allocator reserve, CUDA context, NCCL buffers and `hardware.reserved_gib`: total − peak allocated. (bytes) */
    overhead: number;
    /** Device total as nvidia-smi shows it: peak reserved + CUDA context + NCCL + reserved; the verdict compares it with the GPU's memory. (bytes) */
    total: number;
    total_error_band: {
      /** 10th percentile of the signed error (predicted / measured - 1) of held-out measured runs of the same regime (docs/accuracy.md, Error bands); 0 when `cases` is 0. (fraction) */
      low: number;
      /** 90th percentile of the signed error of the same held-out runs; 0 when `cases` is 0. (fraction) */
      high: number;
      /** Held-out measured runs the band is made of; 0: no comparable case (`regime` says why), no band. (count) */
      cases: number;
      /** The regime the runs share (GPU, one node or several, framework or engine, size, sequence), or why there is no band. (name) */
      regime: string;
    };
  };
  host_memory_bytes: {
    /** Host (CPU) memory one GPU uses for offloaded or paged optimizer states, parameters and activations. (bytes) */
    per_gpu: number;
    /** Host (CPU) memory for what all GPUs offload. (bytes) */
    total: number;
  };
  /** `hardware.memory_gib` · 2^30. (bytes) */
  capacity_bytes: number;
  /** Capacity − total; negative when it does not fit. (bytes) */
  headroom_bytes: number;
  /** The per-GPU total is within the GPU's memory. (true/false) */
  fits: boolean;
  /** training estimates only, absent in serving estimates */
  compute: {
    /** 6·P_active (+ 12·L·s·h with `attention_flops`). (FLOPs; training estimates only, absent in serving estimates) */
    flops_per_token: number;
    /** flops_per_token · D: C = 6PD (fine-tuning: forward 2PD, backward 2PD through the layers a gradient reaches + 2·P_trainable·D). (FLOPs; training estimates only, absent in serving estimates) */
    model_flops: number;
    /** 2PD (+ attention): one third of the model FLOPs in full training. (FLOPs; training estimates only, absent in serving estimates) */
    forward_flops: number;
    /** 4PD (+ attention) in full training; fine-tuning computes weight gradients for trainable parameters only. (FLOPs; training estimates only, absent in serving estimates) */
    backward_flops: number;
    /** Extra forward work from activation recomputation. (FLOPs; training estimates only, absent in serving estimates) */
    recompute_flops: number;
    /** model_flops + recompute_flops: what the hardware executes. (FLOPs; training estimates only, absent in serving estimates) */
    total_flops: number;
    /** num_gpus · achieved FLOP/s (predicted model: total FLOPs / predicted time). (FLOP/s; training estimates only, absent in serving estimates) */
    cluster_flops_per_second: number;
    /** Total FLOPs / cluster throughput; with the predicted model, steps × the predicted step time. (seconds; training estimates only, absent in serving estimates) */
    seconds: number;
    /** training estimates only, absent in serving estimates */
    seconds_error_band: {
      /** 10th percentile of the signed error (predicted / measured - 1) of held-out measured runs of the same regime (docs/accuracy.md, Error bands); 0 when `cases` is 0. (fraction; training estimates only, absent in serving estimates) */
      low: number;
      /** 90th percentile of the signed error of the same held-out runs; 0 when `cases` is 0. (fraction; training estimates only, absent in serving estimates) */
      high: number;
      /** Held-out measured runs the band is made of; 0: no comparable case (`regime` says why), no band. (count; training estimates only, absent in serving estimates) */
      cases: number;
      /** The regime the runs share (GPU, one node or several, framework or engine, size, sequence), or why there is no band. (name; training estimates only, absent in serving estimates) */
      regime: string;
    };
    /** seconds / 86400. (days; training estimates only, absent in serving estimates) */
    days: number;
    /** seconds · num_gpus / 3600. (GPU-hours; training estimates only, absent in serving estimates) */
    gpu_hours: number;
    /** total_flops / (1e12 · 3600). (TFLOP-hours; training estimates only, absent in serving estimates) */
    tflop_hours: number;
    /** total_flops / (1e15 · 86400). (PetaFLOP-days; training estimates only, absent in serving estimates) */
    pflop_days: number;
    /** gpu_hours · `hardware.price_per_gpu_hour`. (currency of `price_per_gpu_hour`; training estimates only, absent in serving estimates) */
    cost: number;
    /** training estimates only, absent in serving estimates */
    cost_error_band: {
      /** 10th percentile of the signed error (predicted / measured - 1) of held-out measured runs of the same regime (docs/accuracy.md, Error bands); 0 when `cases` is 0. (fraction; training estimates only, absent in serving estimates) */
      low: number;
      /** 90th percentile of the signed error of the same held-out runs; 0 when `cases` is 0. (fraction; training estimates only, absent in serving estimates) */
      high: number;
      /** Held-out measured runs the band is made of; 0: no comparable case (`regime` says why), no band. (count; training estimates only, absent in serving estimates) */
      cases: number;
      /** The regime the runs share (GPU, one node or several, framework or engine, size, sequence), or why there is no band. (name; training estimates only, absent in serving estimates) */
      regime: string;
    };
    /** 20 · P (Hoffmann et al. 2022, arXiv:2203.15556). (tokens; training estimates only, absent in serving estimates) */
    chinchilla_tokens: number;
  };
  performance: {
    /** One optimizer step: predicted by the step-time model, or the time the given achieved rate implies. (seconds; training estimates only, absent in serving estimates) */
    step_seconds: number;
    /** training estimates only, absent in serving estimates */
    step_seconds_error_band: {
      /** 10th percentile of the signed error (predicted / measured - 1) of held-out measured runs of the same regime (docs/accuracy.md, Error bands); 0 when `cases` is 0. (fraction; training estimates only, absent in serving estimates) */
      low: number;
      /** 90th percentile of the signed error of the same held-out runs; 0 when `cases` is 0. (fraction; training estimates only, absent in serving estimates) */
      high: number;
      /** Held-out measured runs the band is made of; 0: no comparable case (`regime` says why), no band. (count; training estimates only, absent in serving estimates) */
      cases: number;
      /** The regime the runs share (GPU, one node or several, framework or engine, size, sequence), or why there is no band. (name; training estimates only, absent in serving estimates) */
      regime: string;
    };
    /** Global batch × sequence length. (tokens; training estimates only, absent in serving estimates) */
    tokens_per_step: number;
    /** Tokens the whole cluster trains on per second: tokens_per_step / step_seconds. (tokens per second; training estimates only, absent in serving estimates) */
    tokens_per_second: number;
    /** training estimates only, absent in serving estimates */
    tokens_per_second_error_band: {
      /** 10th percentile of the signed error (predicted / measured - 1) of held-out measured runs of the same regime (docs/accuracy.md, Error bands); 0 when `cases` is 0. (fraction; training estimates only, absent in serving estimates) */
      low: number;
      /** 90th percentile of the signed error of the same held-out runs; 0 when `cases` is 0. (fraction; training estimates only, absent in serving estimates) */
      high: number;
      /** Held-out measured runs the band is made of; 0: no comparable case (`regime` says why), no band. (count; training estimates only, absent in serving estimates) */
      cases: number;
      /** The regime the runs share (GPU, one node or several, framework or engine, size, sequence), or why there is no band. (name; training estimates only, absent in serving estimates) */
      regime: string;
    };
    /** Executed FLOPs (incl. recomputation) per GPU per second, in TFLOP/s. (TFLOP/s; training estimates only, absent in serving estimates) */
    achieved_tflops_per_gpu: number;
    /** Model FLOPs (6·P per token) per GPU per second over the dense peak. (fraction; training estimates only, absent in serving estimates) */
    mfu: number;
    /** Micro-batches each pipeline runs per optimizer step. (count; training estimates only, absent in serving estimates) */
    microbatches: number;
    /** `hardware.throughput_model` is `predicted`: the step time comes from the step-time model. (true/false; training estimates only, absent in serving estimates) */
    predicted: boolean;
    /** The GPU family has constants fitted on published runs (predicted model only). (true/false; training estimates only, absent in serving estimates) */
    calibrated: boolean;
    /** training estimates only, absent in serving estimates */
    breakdown_seconds: {
      /** GEMMs, attention, memory-bound ops and recomputation of all micro-batches. (seconds; training estimates only, absent in serving estimates) */
      compute: number;
      /** Tensor-parallel all-reduces (or reduce-scatter + all-gather), not overlapped. (seconds; training estimates only, absent in serving estimates) */
      tensor_parallel: number;
      /** (p − 1)/v idle micro-batch slots of 1F1B. (seconds; training estimates only, absent in serving estimates) */
      pipeline_bubble: number;
      /** Activations and gradients sent between stages. (seconds; training estimates only, absent in serving estimates) */
      pipeline_p2p: number;
      /** Ring attention's K,V (backward: K,V and dK,dV) sends between the cp GPUs of a sequence, left exposed by the attention steps. (seconds; training estimates only, absent in serving estimates) */
      context_parallel: number;
      /** Gradient all-reduce (or reduce-scatter + all-gather) left exposed. (seconds; training estimates only, absent in serving estimates) */
      data_parallel: number;
      /** ZeRO-3 parameter all-gathers and gradient reduce-scatters left exposed. (seconds; training estimates only, absent in serving estimates) */
      zero: number;
      /** The memory-bound optimizer update. (seconds; training estimates only, absent in serving estimates) */
      optimizer_step: number;
      /** Fixed per-step overhead (fitted). (seconds; training estimates only, absent in serving estimates) */
      overhead: number;
    };
    /** Prefill of one prompt of `prompt_tokens` tokens, alone on the GPUs, with the engine's request path. (seconds; inference estimates only) */
    time_to_first_token_seconds?: number;
    /** inference estimates only */
    time_to_first_token_seconds_error_band?: {
      /** 10th percentile of the signed error (predicted / measured - 1) of held-out measured runs of the same regime (docs/accuracy.md, Error bands); 0 when `cases` is 0. (fraction; inference estimates only) */
      low?: number;
      /** 90th percentile of the signed error of the same held-out runs; 0 when `cases` is 0. (fraction; inference estimates only) */
      high?: number;
      /** Held-out measured runs the band is made of; 0: no comparable case (`regime` says why), no band. (count; inference estimates only) */
      cases?: number;
      /** The regime the runs share (GPU, one node or several, framework or engine, size, sequence), or why there is no band. (name; inference estimates only) */
      regime?: string;
    };
    /** Prompt tokens per second: one prompt, or full batches of `max_batched_tokens` where vLLM, SGLang or TensorRT-LLM serve several. (tokens per second; inference estimates only) */
    prefill_tokens_per_second?: number;
    /** inference estimates only */
    prefill_tokens_per_second_error_band?: {
      /** 10th percentile of the signed error (predicted / measured - 1) of held-out measured runs of the same regime (docs/accuracy.md, Error bands); 0 when `cases` is 0. (fraction; inference estimates only) */
      low?: number;
      /** 90th percentile of the signed error of the same held-out runs; 0 when `cases` is 0. (fraction; inference estimates only) */
      high?: number;
      /** Held-out measured runs the band is made of; 0: no comparable case (`regime` says why), no band. (count; inference estimates only) */
      cases?: number;
      /** The regime the runs share (GPU, one node or several, framework or engine, size, sequence), or why there is no band. (name; inference estimates only) */
      regime?: string;
    };
    /** Output tokens per second of all `concurrency` sequences together (memory-bound). (tokens per second; inference estimates only) */
    decode_tokens_per_second?: number;
    /** inference estimates only */
    decode_tokens_per_second_error_band?: {
      /** 10th percentile of the signed error (predicted / measured - 1) of held-out measured runs of the same regime (docs/accuracy.md, Error bands); 0 when `cases` is 0. (fraction; inference estimates only) */
      low?: number;
      /** 90th percentile of the signed error of the same held-out runs; 0 when `cases` is 0. (fraction; inference estimates only) */
      high?: number;
      /** Held-out measured runs the band is made of; 0: no comparable case (`regime` says why), no band. (count; inference estimates only) */
      cases?: number;
      /** The regime the runs share (GPU, one node or several, framework or engine, size, sequence), or why there is no band. (name; inference estimates only) */
      regime?: string;
    };
    /** One decode step: each sequence gets its next token. (seconds; inference estimates only) */
    inter_token_latency_seconds?: number;
    /** Weights the step touches (MoE: the experts the batch routes to) + every sequence's KV, on one GPU. (bytes; inference estimates only) */
    decode_step_bytes?: number;
    /** GPU-hours of the replica per million decoded tokens × `hardware.price_per_gpu_hour`. (currency of `price_per_gpu_hour`; inference estimates only) */
    cost_per_million_output_tokens?: number;
  };
  /** inference estimates only */
  inference?: {
    /** Per GPU: one sequence's KV at `context_len` divided by `context_len` (exact 2·g·d·bytes per layer for full attention; less for window, latent and hybrid layers). (bytes; inference estimates only) */
    kv_bytes_per_token?: number;
    /** What the engine sets aside for KV (vLLM: "Available KV cache memory"). (bytes; inference estimates only) */
    kv_pool_bytes?: number;
    /** The engine's KV capacity as it reports it: vLLM "GPU KV cache size: N tokens", SGLang max_total_num_tokens, llama.cpp n_ctx. (tokens; inference estimates only) */
    kv_pool_tokens?: number;
    /** inference estimates only */
    kv_pool_tokens_error_band?: {
      /** 10th percentile of the signed error (predicted / measured - 1) of held-out measured runs of the same regime (docs/accuracy.md, Error bands); 0 when `cases` is 0. (fraction; inference estimates only) */
      low?: number;
      /** 90th percentile of the signed error of the same held-out runs; 0 when `cases` is 0. (fraction; inference estimates only) */
      high?: number;
      /** Held-out measured runs the band is made of; 0: no comparable case (`regime` says why), no band. (count; inference estimates only) */
      cases?: number;
      /** The regime the runs share (GPU, one node or several, framework or engine, size, sequence), or why there is no band. (name; inference estimates only) */
      regime?: string;
    };
    /** Sequences of `context_len` tokens the KV pool holds at once (vLLM "Maximum concurrency for N tokens per request"). (sequences; inference estimates only) */
    max_concurrency?: number;
    /** The longest context each of `concurrency` sequences can have in the KV memory available. (tokens; inference estimates only) */
    max_context_len?: number;
    /** The engine loads the model and its KV pool holds one sequence of `context_len`. (true/false; inference estimates only) */
    starts?: boolean;
    /** The whole model in `inference.weight_format` (safetensors / GGUF tensor data). (bytes; inference estimates only) */
    weights_total_bytes?: number;
    /** What the engine allows itself per GPU (vLLM: utilisation × memory). (bytes; inference estimates only) */
    memory_budget_bytes?: number;
    /** `inference.gpu_memory_utilization` or the engine's default. (fraction; inference estimates only) */
    memory_fraction?: number;
    /** `inference.max_batched_tokens` or the engine's default: the forward the activation peak is sized for. (tokens; inference estimates only) */
    batched_tokens?: number;
    /** tensor × pipeline GPUs serve one copy of the model. (count; inference estimates only) */
    gpus?: number;
    /** The seed's rule of thumb, total inference memory ≈ 1.2 × model memory, shown beside the engine's answer. (bytes; inference estimates only) */
    tm101_bytes?: number;
  };
}
// </generated:estimate>

// ─────────────────────────────── Tables ───────────────────────────────

/** One model preset. */
export interface ModelPreset {
  /** Stable id used in links (`mp=`) and `model.preset`, e.g. `"llama-2-7b"`. */
  id: string;
  /** Display name (= `model.name`). */
  name: string;
  /** The full model section of the preset. */
  model: ModelConfig;
  /** The parameter count the source publishes; absent when it gives only a rounded size. */
  published_params?: number;
  /** Where the architecture comes from. */
  source: string;
}

/** One GPU preset. */
export interface GpuPreset {
  /** Stable id used in links (`gpu=`) and `hardware.gpu`, e.g. `"H100-SXM"`. */
  id: string;
  memory_gib: number;
  peak_tflops: number;
  achieved_tflops: number;
  price_per_gpu_hour: number;
  gpus_per_node: number;
  intra_node_gbps: number;
  inter_node_gbps: number;
  memory_bandwidth_gbps: number;
  source: string;
  /** System datasheet for the node size, links and memory bandwidth. */
  interconnect_source: string;
}

export type FieldKind = 'integer' | 'number' | 'boolean' | 'choice' | 'text';

/** One scenario field, as the UI, the CLI and links name it. */
export interface FieldInfo {
  /** `"model.hidden_size"`: section and key in a {@link Scenario}. */
  path: string;
  /** Key in a link fragment, e.g. `"h"`. */
  url_key: string;
  label: string;
  /** Formula symbol, e.g. `"h"`; `""` if none. */
  symbol: string;
  /** `"tokens"`, `"GiB"`, …; `""` if none. */
  unit: string;
  /** One sentence: meaning and effect (tooltip text). */
  help: string;
  kind: FieldKind;
  /** Allowed values of a `choice` field, else `[]`. */
  choices: string[];
  /** Suggested UI range (validation has its own rules). */
  ui_min: number;
  ui_max: number;
  /** What 0 stands for where it is a choice, not a quantity (`"auto"`: derived from other fields,
   *  `"all layers"`, …); `""` when 0 is just zero. */
  zero_means: string;
  /** The value in {@link VramcalcApi.defaultScenario}. */
  default: number | string | boolean;
}
