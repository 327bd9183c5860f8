// Scenario: the single input of the estimator (model, training, parallelism, hardware).
// Plain aggregates with defaults; `resolve_layout()` (below) derives what the "0 = derive" fields leave open.
// Field names are the shared vocabulary of JSON, URL, CLI flags and the JS API.
#pragma once

#include <cstdint>
#include <string>

namespace vramcalc {

enum class MlpKind { gelu, swiglu };
enum class NormKind { layernorm, rmsnorm };
enum class PositionEmbedding { learned, rope };
// mixed_*: 16-bit weights + fp32 master copy in the optimizer (Megatron, DeepSpeed); amp_*: PyTorch
// autocast over fp32 weights and gradients (HF Trainer, most scripts); bf16/fp16: pure 16-bit.
enum class Precision { mixed_bf16, mixed_fp16, bf16, fp16, fp32, amp_bf16, amp_fp16 };
enum class GradDtype { match, fp32 };
enum class Optimizer { adamw, adamw_8bit, sgd_momentum, sgd };
// selective: Korthikanti et al. 2022 (attention core recomputed); full: only each layer's input is
// kept; ops: op-level selective checkpointing (matmul and attention outputs kept, the rest recomputed).
enum class Recompute { none, selective, full, ops };
// The training stack: a profile that sets realistic defaults for the fields below it.
enum class Framework { megatron, deepspeed, fsdp, hf, torchtune, generic };
// How activations are saved: fused (Megatron/TE kernels, Korthikanti et al. 2022), eager (plain
// PyTorch modules: HF Transformers, torchtune), compiled (torch.compile / Inductor).
enum class Kernels { fused, eager, compiled };
// Cross-entropy: standard (fp32 upcast + log-softmax), chunked (torchtune: per chunk), fused
// (vocab-parallel / in-place kernels: Megatron, llm.c).
enum class Loss { standard, chunked, fused };
enum class OptimizerImpl { foreach, fused };
enum class ZeroImpl { deepspeed, fsdp };
// MLP activation as implemented; only gelu_new (the Python tanh formula of HF GPT-2) saves more.
enum class Activation { auto_, gelu, gelu_tanh, gelu_new, silu, relu };
// fixed: time = FLOPs / achieved rate (given TFLOP/s or MFU); predicted: the step-time model of
// performance.hpp (compute at measured efficiencies + communication + bubble + optimizer).
enum class ThroughputModel { fixed, predicted };
// GPU families share the fitted constants of the throughput model (performance.cpp); only families
// with published measured runs are calibrated. A GPU preset names its family (presets.hpp).
enum class GpuFamily { generic, volta, ampere, ampere_consumer, ada, hopper, blackwell, cdna2, cdna3 };
// What trains: every parameter (full); low-rank adapters on a frozen 16-bit base (lora, Hu et al.
// 2021, arXiv:2106.09685) or on a quantised base (qlora, Dettmers et al. 2023, arXiv:2305.14314);
// only the last k layers (freeze).
enum class TrainingMethod { full, lora, qlora, freeze };
// QLoRA base-weight storage: NF4 with double quantisation (4.127 bits), NF4 with fp32 block
// constants (4.5 bits), LLM.int8 (8 bits + one fp32 scale per output row).
enum class BaseWeightFormat { nf4, nf4_no_dq, int8 };
// Adapter weights: fp32 (PEFT's autocast_adapter_dtype=True) or the dtype of the model's weights (torchtune).
enum class AdapterDtype { fp32, match };
// Linear-attention / state-space layers of hybrid stacks (Qwen3-Next: Gated DeltaNet; Jamba: Mamba).
enum class LinearAttention { gated_deltanet, mamba };
// What the scenario asks about: a training run (the default: every old link, JSON file and call
// keeps its meaning) or serving the model (docs/serving.md).
enum class Workload { training, inference };
// The serving engine whose memory accounting the estimate follows (docs/serving.md §3).
enum class Engine { vllm, sglang, trtllm, llamacpp, hf };
// How the checkpoint stores its weights (docs/serving.md §1; src/core/serving/weight_formats.cpp).
enum class WeightFormat {
    bf16, fp16, fp32, fp8, fp8_channel, fp8_block, int8, awq, gptq, nf4, mxfp4,
    gguf_q8_0, gguf_q6_k, gguf_q5_k_m, gguf_q5_k_s, gguf_q4_k_m, gguf_q4_k_s, gguf_q4_0,
    gguf_q3_k_m, gguf_q2_k, gguf_iq4_xs
};
// FP8 linear layers in training (src/core/fp8.hpp): none; tensorwise: one scale per tensor (Transformer
// Engine delayed / current scaling, torchao Float8 tensorwise); rowwise: one scale per row (torchao
// rowwise); blockwise: 1×128 activation tiles and 128×128 weight blocks (DeepSeek-V3, arXiv:2412.19437
// §3.3; Transformer Engine Float8BlockScaling).
enum class Fp8Recipe { none, tensorwise, rowwise, blockwise };
// KV-cache element type: auto = the model's 16-bit dtype; q8_0 / q4_0 are llama.cpp's block types.
enum class KvCacheDtype { auto_, fp16, bf16, fp8, q8_0, q4_0 };
// vLLM V1's top-k/top-p sampler, whose warm-up sizes the profile run (docs/serving.md §3).
enum class Sampler { flashinfer, pytorch };


// Defaults: GPT-3 6.7B (Brown et al. 2020, arXiv:2005.14165, Table 2.1), a plain GPT whose
// activations follow 34·sbh + 5·as²b per layer exactly (Korthikanti et al. 2022, arXiv:2205.05198, eq. 1).
struct ModelConfig {
    std::string name = "GPT-3 6.7B";
    std::int64_t layers = 32;            // L
    std::int64_t hidden_size = 4096;     // h
    std::int64_t num_heads = 32;         // a
    std::int64_t num_kv_heads = 0;       // g; 0 = a (multi-head attention)
    std::int64_t head_dim = 0;           // d; 0 = h/a (Gemma uses 256)
    std::int64_t ffn_hidden_size = 0;    // f; 0 = 4h
    std::int64_t vocab_size = 50257;     // V
    MlpKind mlp = MlpKind::gelu;
    NormKind norm = NormKind::layernorm;
    bool bias = true;                    // biases on every linear layer (GPT-2, NeoX)
    bool qkv_bias = false;               // biases on Q, K, V only (Qwen2)
    bool tied_embeddings = true;
    PositionEmbedding position_embedding = PositionEmbedding::learned;
    std::int64_t max_position_embeddings = 2048;
    std::int64_t norms_per_layer = 2;    // pre-attention and pre-MLP norms; Gemma 2 adds two post-norms (4)
    std::int64_t num_experts = 1;        // E; 1 = dense
    std::int64_t experts_per_token = 1;  // k (top-k routing)
    std::int64_t moe_ffn_hidden_size = 0;  // width of one routed / shared expert; 0 = ffn_hidden_size
    std::int64_t num_shared_experts = 0;   // S always-active experts of that width (DeepSeekMoE)
    std::int64_t dense_layers = 0;         // leading layers with a dense MLP of ffn_hidden_size (MoE models)
    Activation activation = Activation::auto_;  // auto: GELU for gelu MLPs, SiLU for gated ones
    double params_override = 0;          // > 0: use this parameter count instead of the architecture's
    // Multi-head latent attention (DeepSeek-V2/V3, Kimi K2; arXiv:2405.04434 §2.1): on when kv_lora_rank > 0.
    std::int64_t kv_lora_rank = 0;       // d_c: compressed KV latent width (DeepSeek-V3: 512)
    std::int64_t q_lora_rank = 0;        // d_c': compressed query width; 0 = queries not compressed (DeepSeek-V2-Lite)
    std::int64_t qk_rope_head_dim = 0;   // d_h^R: decoupled RoPE query/key width per head (DeepSeek-V3: 64)
    std::int64_t qk_nope_head_dim = 0;   // per-head query/key width without RoPE (DeepSeek-V3: 128)
    std::int64_t v_head_dim = 0;         // per-head value width (DeepSeek-V3: 128); 0 = head_dim
    // Sliding-window attention (Mistral 7B v0.1, Gemma 2/3, gpt-oss; Llama 4's chunked attention is counted as a window of its chunk).
    std::int64_t sliding_window = 0;            // W: tokens a windowed layer attends to; 0 = no windowed layers
    std::int64_t global_attention_interval = 0; // every N-th layer (1-based N, 2N, …) attends globally, the others use the window;
                                                // 0 = every layer windowed (when sliding_window > 0). Gemma 3: 6; Gemma 2, gpt-oss: 2; Llama 4: 4
    bool qk_norm = false;                       // per-head RMSNorm on queries and keys (Qwen3, Gemma 3): 2·d weights per layer
    // Hybrid stacks: linear-attention / state-space layers, a fixed-size state per sequence (no KV).
    std::int64_t full_attention_interval = 0;   // every N-th layer is softmax attention, the rest are linear layers; 0 = all softmax (Qwen3-Next: 4, Jamba: 8)
    LinearAttention linear_attention = LinearAttention::gated_deltanet;
    std::int64_t linear_num_key_heads = 0;      // Gated DeltaNet (Qwen3-Next-80B-A3B: 16)
    std::int64_t linear_num_value_heads = 0;    // (32)
    std::int64_t linear_key_head_dim = 0;       // (128)
    std::int64_t linear_value_head_dim = 0;     // (128)
    std::int64_t linear_conv_kernel = 4;        // short causal convolution width (Qwen3-Next 4, Mamba d_conv 4)
    std::int64_t ssm_state_size = 0;            // Mamba: N (Jamba: 16)
    std::int64_t ssm_expand = 2;                // Mamba: d_inner = expand · h
    // Further exact-count details (issue 24): all off in older models.
    bool attention_sinks = false;        // gpt-oss: one learned sink logit per head per layer (a weights)
    bool attention_output_gate = false;  // Qwen3-Next: q_proj also emits a sigmoid output gate (h·a·d more)
    bool router_bias = false;            // gpt-oss router bias; DeepSeek-V3 e_score_correction_bias (E per MoE layer)
    bool shared_expert_gate = false;     // Qwen2-MoE / Qwen3-Next: sigmoid gate h → 1 on the shared expert
};

struct TrainingConfig {
    std::int64_t seq_len = 2048;           // s
    std::int64_t micro_batch_size = 1;     // b, per GPU
    std::int64_t global_batch_size = 1024; // sequences per optimizer step; 0 = derive from grad_accum_steps
    std::int64_t grad_accum_steps = 0;     // 0 = derive from global_batch_size
    double tokens = 300e9;                  // D
    Precision precision = Precision::mixed_bf16;
    GradDtype grad_dtype = GradDtype::match;
    Optimizer optimizer = Optimizer::adamw;
    Recompute recompute = Recompute::none;
    bool flash_attention = false;
    bool dropout = true;
    bool attention_flops = false;  // count 12·L·s·h attention FLOPs per token on top of 6·P
    Framework framework = Framework::generic;
    Kernels kernels = Kernels::fused;
    Loss loss = Loss::standard;
    std::int64_t loss_chunks = 8;          // chunked loss: number of chunks (torchtune default 8)
    std::int64_t recompute_layers = 0;     // 0 = every layer of the stage; k = only k layers recomputed
    bool optimizer_in_backward = false;    // each parameter steps as soon as its gradient is ready
    bool offload_activations = false;      // saved activations / checkpoints go to host memory
    OptimizerImpl optimizer_impl = OptimizerImpl::fused;
    bool paged_optimizer = false;          // bitsandbytes paged states: unified memory, paged to the host
    bool persistent_gradients = true;      // gradient buffers stay allocated between steps
    TrainingMethod method = TrainingMethod::full;
    std::int64_t trainable_layers = 0;     // freeze: train only the last k layers; 0 = all layers
    std::int64_t lora_rank = 8;            // r (PEFT LoraConfig default)
    std::uint32_t lora_targets = 5;        // bit set of q,k,v,o,gate,up,down (finetune.hpp); q,v = PEFT's Llama default
    double lora_dropout = 0;               // > 0 keeps a mask and a dropped copy of each adapter input
    AdapterDtype adapter_dtype = AdapterDtype::fp32;
    BaseWeightFormat base_weight_format = BaseWeightFormat::nf4;
    Fp8Recipe fp8 = Fp8Recipe::none;       // FP8 GEMMs in the linear layers; attention stays 16-bit
};

struct ParallelConfig {
    std::int64_t num_gpus = 8;
    std::int64_t tensor = 1;    // t
    std::int64_t pipeline = 1;  // p
    int zero_stage = 1;         // 0..3
    bool sequence_parallel = false;
    bool tp_comm_overlap = false;        // Megatron-Core --tp-comm-overlap (TE userbuffers): TP all-gathers / reduce-scatters overlapped with the GEMMs; needs t > 1 and SP
    bool partition_activations = false;  // ZeRO-R
    double zero3_live_params = 1e9;      // ZeRO-3 gathered parameters: DeepSpeed stage3_max_live_parameters (default 1e9, deepspeed/runtime/zero/config.py; since link v3); 0 = not counted
    bool offload_optimizer = false;      // ZeRO-Offload: optimizer states in host memory
    std::int64_t expert = 1;             // EP degree
    bool offload_params = false;         // ZeRO-3 / FSDP parameter offload to host memory
    ZeroImpl zero_impl = ZeroImpl::deepspeed;
    std::int64_t interleave = 1;         // v: virtual pipeline stages per rank (interleaved 1F1B)
    std::int64_t context = 1;            // cp: context-parallel degree, the sequence split over cp GPUs (ring attention)
    std::int64_t shard_group = 0;        // HSDP: ZeRO/FSDP shards over groups of this many ranks, replicated across; 0 = all DP·cp ranks
};

struct HardwareConfig {
    std::string gpu = "A100-80GB";
    double memory_gib = 80;
    double peak_tflops = 312;      // dense bf16/fp16
    double achieved_tflops = 150;  // per GPU; 0 = derive from mfu
    double mfu = 0;                // model FLOPs utilisation in (0, 1]; used when achieved_tflops is 0
    double price_per_gpu_hour = 1.8;  // currency units per GPU-hour
    double reserved_gib = 0;       // any further fixed reserve per GPU
    double cuda_context_gib = 0.5;   // CUDA context + kernel images (outside PyTorch's allocator)
    double allocator_overhead = 0.05; // caching allocator: reserved ≈ peak allocated · (1 + this) + largest block
    // Interconnect and memory (defaults: DGX A100 80GB, as the A100-80GB preset).
    std::int64_t gpus_per_node = 8;
    double intra_node_gbps = 300;         // GB/s per GPU, one direction (NVLink 3)
    double inter_node_gbps = 25;          // GB/s per GPU, one direction (one 200 Gb/s HDR NIC per GPU)
    double memory_bandwidth_gbps = 2039;  // HBM2e
    ThroughputModel throughput_model = ThroughputModel::fixed;
};

// Serving settings (workload = inference; docs/serving.md). 0 = the engine's default where noted.
struct InferenceConfig {
    Engine engine = Engine::vllm;
    WeightFormat weight_format = WeightFormat::bf16;
    std::int64_t quant_group_size = 128;   // AWQ / GPTQ group size G along the input dimension; -1 = one group per column
    KvCacheDtype kv_cache_dtype = KvCacheDtype::auto_;
    std::int64_t context_len = 8192;        // tokens per sequence: vLLM max_model_len, llama.cpp n_ctx per slot
    std::int64_t concurrency = 1;           // sequences served at once (llama.cpp --parallel)
    double gpu_memory_utilization = 0;      // vLLM gpu_memory_utilization, SGLang mem_fraction_static, TRT-LLM free fraction; 0 = engine default
    std::int64_t max_batched_tokens = 0;    // vLLM max_num_batched_tokens, SGLang chunked_prefill_size, llama.cpp n_ubatch; 0 = engine default
    std::int64_t gpu_layers = -1;           // llama.cpp n_gpu_layers: layers on the GPU; -1 = all
    std::int64_t prompt_tokens = 1024;      // tokens of each prompt (time to first token, prefill)
    std::int64_t output_tokens = 256;       // tokens generated per request (decode speed, cost)
    Sampler sampler = Sampler::flashinfer;  // vLLM V1 top-k/top-p: FlashInfer kernels or the PyTorch sort
    double weight_bytes_override = 0;       // bytes; > 0: the checkpoint's exact weight bytes (a GGUF file's tensors), 0 = from the format
};

struct Scenario {
    Workload workload = Workload::training;
    ModelConfig model;
    TrainingConfig training;
    ParallelConfig parallel;
    HardwareConfig hardware;
    InferenceConfig inference;
};

// The layout and the other derived quantities that formulas need ("layout" in the estimate's
// JSON); computed once by `resolve_layout`.
struct Layout {
    std::int64_t kv_heads;         // g
    std::int64_t head_dim;         // d
    std::int64_t ffn_hidden_size;  // f
    std::int64_t moe_ffn_hidden_size;  // width of one expert (f unless given)
    std::int64_t data_parallel;    // DP = num_gpus / (t·p·cp)
    std::int64_t grad_accum_steps;
    std::int64_t global_batch_size;
    double achieved_flops_per_gpu;  // FLOP/s
};

// Fills the derived fields of a scenario that has passed validation.
Layout resolve_layout(const Scenario& scenario);

}  // namespace vramcalc
