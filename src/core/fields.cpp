#include "fields.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <string_view>
#include <limits>
#include <type_traits>

#include "core/training/finetune.hpp"

namespace vramcalc {
namespace {

constexpr std::array<const char*, 2> mlp_choice = {"gelu", "swiglu"};
constexpr std::array<const char*, 2> norm_choice = {"layernorm", "rmsnorm"};
constexpr std::array<const char*, 2> position_choice = {"learned", "rope"};
constexpr std::array<const char*, 7> precision_choice = {"mixed_bf16", "mixed_fp16", "bf16",    "fp16",
                                                        "fp32",       "amp_bf16",   "amp_fp16"};
constexpr std::array<const char*, 2> grad_dtype_choice = {"match", "fp32"};
constexpr std::array<const char*, 4> optimizer_choice = {"adamw", "adamw_8bit", "sgd_momentum", "sgd"};
constexpr std::array<const char*, 4> recompute_choice = {"none", "selective", "full", "ops"};
constexpr std::array<const char*, 6> framework_choice = {"megatron", "deepspeed", "fsdp", "hf", "torchtune", "generic"};
constexpr std::array<const char*, 3> kernels_choice = {"fused", "eager", "compiled"};
constexpr std::array<const char*, 3> loss_choice = {"standard", "chunked", "fused"};
constexpr std::array<const char*, 2> optimizer_impl_choice = {"foreach", "fused"};
constexpr std::array<const char*, 2> zero_impl_choice = {"deepspeed", "fsdp"};
constexpr std::array<const char*, 6> activation_choice = {"auto", "gelu", "gelu_tanh", "gelu_new", "silu", "relu"};
constexpr std::array<const char*, 2> throughput_model_choice = {"fixed", "predicted"};
constexpr std::array<const char*, 4> method_choice = {"full", "lora", "qlora", "freeze"};
constexpr std::array<const char*, 3> base_weight_format_choice = {"nf4", "nf4_no_dq", "int8"};
constexpr std::array<const char*, 2> adapter_dtype_choice = {"fp32", "match"};
constexpr std::array<const char*, 2> linear_attention_choice = {"gated_deltanet", "mamba"};
constexpr std::array<const char*, 2> workload_choice = {"training", "inference"};
constexpr std::array<const char*, 5> engine_choice = {"vllm", "sglang", "trtllm", "llamacpp", "hf"};
// The names of serving::weight_formats(), in enum order (tests/test_serving_fields.cpp checks they agree).
constexpr std::array<const char*, 21> weight_format_choice = {
    "bf16",        "fp16",        "fp32",        "fp8",         "fp8_channel", "fp8_block",   "int8",
    "awq",         "gptq",        "nf4",         "mxfp4",       "gguf-q8_0",   "gguf-q6_k",   "gguf-q5_k_m",
    "gguf-q5_k_s", "gguf-q4_k_m", "gguf-q4_k_s", "gguf-q4_0",   "gguf-q3_k_m", "gguf-q2_k",   "gguf-iq4_xs"};
constexpr std::array<const char*, 4> fp8_choice = {"none", "tensorwise", "rowwise", "blockwise"};
constexpr std::array<const char*, 6> kv_cache_dtype_choice = {"auto", "fp16", "bf16", "fp8", "q8_0", "q4_0"};
constexpr std::array<const char*, 2> sampler_choice = {"flashinfer", "pytorch"};
constexpr std::span<const char* const> no_choices{};

// double → field type without undefined behaviour: a value an integer member cannot hold (or NaN)
// becomes that type's max/lowest, which every validation rule rejects. (fuzz_decode_link found
// "z=125e9": 1.25e11 cast to the int zero_stage.)
template <class T>
T to_member(double v) {
    if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(v);
    } else {
        constexpr double lowest = static_cast<double>(std::numeric_limits<T>::lowest());  // -2^31 or -2^63, exact
        if (!(v >= lowest)) return std::numeric_limits<T>::lowest();  // also NaN
        if (v >= -lowest) return std::numeric_limits<T>::max();       // 2^31 or 2^63 and above
        return static_cast<T>(v);
    }
}

// Accessor pairs generated per member; `sub` is model/training/parallel/hardware.
#define VRC_NUM(sub, member, type)                                                  \
    [](const Scenario& s) { return static_cast<double>(s.sub.member); },             \
    [](Scenario& s, double v) { s.sub.member = to_member<type>(v); }, nullptr, nullptr
#define VRC_BOOL(sub, member)                                                       \
    [](const Scenario& s) { return s.sub.member ? 1.0 : 0.0; },                      \
    [](Scenario& s, double v) { s.sub.member = v != 0.0; }, nullptr, nullptr
#define VRC_ENUM(sub, member, type)                                                 \
    [](const Scenario& s) { return static_cast<double>(static_cast<int>(s.sub.member)); }, \
    [](Scenario& s, double v) { s.sub.member = static_cast<type>(static_cast<int>(v)); }, nullptr, nullptr
#define VRC_TOP_ENUM(member, type)                                                  \
    [](const Scenario& s) { return static_cast<double>(static_cast<int>(s.member)); },  \
    [](Scenario& s, double v) { s.member = static_cast<type>(static_cast<int>(v)); }, nullptr, nullptr
#define VRC_TEXT(sub, member)                                                       \
    nullptr, nullptr, [](const Scenario& s) { return s.sub.member; },                \
    [](Scenario& s, std::string v) { s.sub.member = std::move(v); }

using K = FieldKind;
using I = std::int64_t;

// Adding a field is one row here (and its group below); the array counts itself.
constexpr auto field_table = std::to_array<FieldSpec>({
    // model
    {"model.name", "name", "Model name", "", "", "A label for the model; a preset name selects that preset.",
     K::text, no_choices, 0, 0, VRC_TEXT(model, name)},
    {"model.layers", "L", "Layers", "L", "", "Transformer layers. Weights and activations grow linearly with L.",
     K::integer, no_choices, 1, 200, VRC_NUM(model, layers, I)},
    {"model.hidden_size", "h", "Hidden size", "h", "", "Model width. Weights grow with h², activations with h.",
     K::integer, no_choices, 64, 32768, VRC_NUM(model, hidden_size, I)},
    {"model.num_heads", "a", "Attention heads", "a", "", "Query heads. Without FlashAttention the 5·a·s²·b score term grows with a.",
     K::integer, no_choices, 1, 256, VRC_NUM(model, num_heads, I)},
    {"model.num_kv_heads", "g", "KV heads", "g", "", "Key/value heads (grouped-query attention); 0 = same as attention heads.",
     K::integer, no_choices, 0, 256, VRC_NUM(model, num_kv_heads, I), "auto"},
    {"model.head_dim", "d", "Head dim", "d", "", "Width of one head; 0 = h / a (Gemma uses 256).",
     K::integer, no_choices, 0, 512, VRC_NUM(model, head_dim, I), "auto"},
    {"model.ffn_hidden_size", "f", "FFN size", "f", "", "MLP inner width; 0 = 4h. SwiGLU/GeGLU models use 3 matrices of h × f.",
     K::integer, no_choices, 0, 131072, VRC_NUM(model, ffn_hidden_size, I), "auto"},
    {"model.vocab_size", "V", "Vocabulary", "V", "tokens", "Vocabulary size: embedding V·h parameters and the s·b·V logits.",
     K::integer, no_choices, 1, 262144, VRC_NUM(model, vocab_size, I)},
    {"model.mlp", "mlp", "MLP", "", "", "gelu: 2 matrices (GPT); swiglu: 3 gated matrices (Llama, also GeGLU).",
     K::choice, mlp_choice, 0, 1, VRC_ENUM(model, mlp, MlpKind)},
    {"model.norm", "norm", "Norm", "", "", "layernorm: weight + bias (2h); rmsnorm: weight only (h).",
     K::choice, norm_choice, 0, 1, VRC_ENUM(model, norm, NormKind)},
    {"model.bias", "bias", "Linear biases", "", "", "Biases on every linear layer (GPT-2, GPT-NeoX).",
     K::boolean, no_choices, 0, 1, VRC_BOOL(model, bias)},
    {"model.qkv_bias", "qkvb", "QKV biases", "", "", "Biases on the Q, K, V projections only (Qwen2).",
     K::boolean, no_choices, 0, 1, VRC_BOOL(model, qkv_bias)},
    {"model.tied_embeddings", "tie", "Tied embeddings", "", "", "The LM head shares the token embedding (no extra V·h parameters).",
     K::boolean, no_choices, 0, 1, VRC_BOOL(model, tied_embeddings)},
    {"model.position_embedding", "pos", "Positions", "", "", "learned: max_pos·h parameters (GPT-2); rope: none.",
     K::choice, position_choice, 0, 1, VRC_ENUM(model, position_embedding, PositionEmbedding)},
    {"model.max_position_embeddings", "maxpos", "Max positions", "", "tokens", "Longest sequence the model supports; sizes learned position tables.",
     K::integer, no_choices, 1, 131072, VRC_NUM(model, max_position_embeddings, I)},
    {"model.norms_per_layer", "nrm", "Norms per layer", "", "", "Norms in each layer: 2 (before attention and MLP); Gemma 2 also normalises their outputs (4).",
     K::integer, no_choices, 1, 8, VRC_NUM(model, norms_per_layer, I)},
    {"model.num_experts", "E", "Experts", "E", "", "MoE experts per layer; 1 = dense.",
     K::integer, no_choices, 1, 256, VRC_NUM(model, num_experts, I)},
    {"model.experts_per_token", "k", "Experts per token", "k", "", "Top-k routing: experts each token uses (active parameters, MLP activations).",
     K::integer, no_choices, 1, 16, VRC_NUM(model, experts_per_token, I)},
    {"model.moe_ffn_hidden_size", "fe", "Expert FFN size", "", "", "Width of one routed or shared expert (DeepSeekMoE: 1408, narrower than the dense MLP); 0 = FFN size.",
     K::integer, no_choices, 0, 131072, VRC_NUM(model, moe_ffn_hidden_size, I), "auto"},
    {"model.num_shared_experts", "Es", "Shared experts", "", "", "Experts every token passes through besides its k routed ones (DeepSeekMoE: 2).",
     K::integer, no_choices, 0, 16, VRC_NUM(model, num_shared_experts, I)},
    {"model.dense_layers", "Ld", "Dense layers", "", "layers", "MoE models: leading layers with a dense MLP of FFN size (DeepSeekMoE: 1).",
     K::integer, no_choices, 0, 16, VRC_NUM(model, dense_layers, I)},
    {"model.activation", "act", "Activation", "", "", "MLP activation as implemented; gelu_new (GPT-2's Python tanh formula) saves 5 f-wide tensors in eager mode; auto = GELU or SiLU by MLP.",
     K::choice, activation_choice, 0, 5, VRC_ENUM(model, activation, Activation)},
    {"model.params_override", "P", "Parameter override", "P", "parameters", "When > 0, use this parameter count instead of the architecture's.",
     K::number, no_choices, 0, 1e12, VRC_NUM(model, params_override, double)},
    // model: attention variants (MLA, sliding windows, q/k norms, sinks, output gate)
    {"model.kv_lora_rank", "kvr", "KV latent rank", "d_c", "", "Multi-head latent attention (DeepSeek-V2/V3): keys and values come from one compressed latent of this width (DeepSeek-V3: 512); 0 = ordinary attention.",
     K::integer, no_choices, 0, 2048, VRC_NUM(model, kv_lora_rank, I), "off"},
    {"model.q_lora_rank", "qr", "Query latent rank", "d_c'", "", "MLA: queries pass through a compressed latent of this width (DeepSeek-V3: 1536); 0 = a direct h × a·(nope + rope) query projection.",
     K::integer, no_choices, 0, 4096, VRC_NUM(model, q_lora_rank, I), "off"},
    {"model.qk_rope_head_dim", "dr", "RoPE head dim", "d_R", "", "MLA: per-head query/key width that carries rotary positions, with one shared rotary key per token (DeepSeek-V3: 64).",
     K::integer, no_choices, 0, 512, VRC_NUM(model, qk_rope_head_dim, I)},
    {"model.qk_nope_head_dim", "dn", "NoPE head dim", "", "", "MLA: per-head query/key width without positions (DeepSeek-V3: 128).",
     K::integer, no_choices, 0, 512, VRC_NUM(model, qk_nope_head_dim, I)},
    {"model.v_head_dim", "dv", "Value head dim", "", "", "MLA: per-head value width (DeepSeek-V3: 128); 0 = head dim.",
     K::integer, no_choices, 0, 512, VRC_NUM(model, v_head_dim, I), "auto"},
    {"model.sliding_window", "W", "Sliding window", "W", "tokens", "Tokens a windowed layer attends to (Gemma 3: 1024, gpt-oss: 128); windowed layers keep only W tokens of KV cache. 0 = every layer global.",
     K::integer, no_choices, 0, 131072, VRC_NUM(model, sliding_window, I), "off"},
    {"model.global_attention_interval", "gai", "Global layer every", "", "layers", "With a sliding window: every N-th layer attends globally, the others use the window (Gemma 3: 6, Gemma 2 and gpt-oss: 2); 0 = every layer windowed.",
     K::integer, no_choices, 0, 64, VRC_NUM(model, global_attention_interval, I), "none"},
    {"model.qk_norm", "qkn", "Q/K norms", "", "", "Per-head RMSNorm on queries and keys (Qwen3, Gemma 3): 2·d weights per attention layer.",
     K::boolean, no_choices, 0, 1, VRC_BOOL(model, qk_norm)},
    {"model.attention_sinks", "sink", "Attention sinks", "", "", "A learned sink logit per head in every attention layer (gpt-oss): a weights per layer.",
     K::boolean, no_choices, 0, 1, VRC_BOOL(model, attention_sinks)},
    {"model.attention_output_gate", "ogate", "Attention output gate", "", "", "The query projection also yields a sigmoid gate on the attention output (Qwen3-Next): h·a·d more weights per attention layer.",
     K::boolean, no_choices, 0, 1, VRC_BOOL(model, attention_output_gate)},
    // model: hybrid stacks (linear-attention / state-space layers)
    {"model.full_attention_interval", "fai", "Softmax layer every", "", "layers", "Hybrid stacks: every N-th layer is softmax attention, the others are linear-attention or Mamba layers with a fixed state per sequence (Qwen3-Next: 4, Jamba: 8); 0 = all softmax.",
     K::integer, no_choices, 0, 64, VRC_NUM(model, full_attention_interval, I), "off"},
    {"model.linear_attention", "lin", "Linear layer kind", "", "", "Kind of the non-softmax layers: gated_deltanet (Qwen3-Next) or mamba (Mamba-1 as in Jamba).",
     K::choice, linear_attention_choice, 0, 1, VRC_ENUM(model, linear_attention, LinearAttention)},
    {"model.linear_num_key_heads", "lkh", "Linear key heads", "", "", "Gated DeltaNet: query/key heads of a linear layer (Qwen3-Next-80B-A3B: 16).",
     K::integer, no_choices, 0, 256, VRC_NUM(model, linear_num_key_heads, I)},
    {"model.linear_num_value_heads", "lvh", "Linear value heads", "", "", "Gated DeltaNet: value heads of a linear layer, a multiple of the key heads (Qwen3-Next-80B-A3B: 32).",
     K::integer, no_choices, 0, 256, VRC_NUM(model, linear_num_value_heads, I)},
    {"model.linear_key_head_dim", "lkd", "Linear key head dim", "", "", "Gated DeltaNet: width of one query/key head (Qwen3-Next: 128).",
     K::integer, no_choices, 0, 512, VRC_NUM(model, linear_key_head_dim, I)},
    {"model.linear_value_head_dim", "lvd", "Linear value head dim", "", "", "Gated DeltaNet: width of one value head (Qwen3-Next: 128); the state per head is key dim × value dim.",
     K::integer, no_choices, 0, 512, VRC_NUM(model, linear_value_head_dim, I)},
    {"model.linear_conv_kernel", "lck", "Conv kernel", "", "", "Width of the short causal convolution of a linear or Mamba layer (Qwen3-Next and Mamba: 4).",
     K::integer, no_choices, 1, 16, VRC_NUM(model, linear_conv_kernel, I)},
    {"model.ssm_state_size", "ssmN", "SSM state size", "N", "", "Mamba: state width per channel (Jamba: 16).",
     K::integer, no_choices, 0, 256, VRC_NUM(model, ssm_state_size, I)},
    {"model.ssm_expand", "ssmx", "SSM expansion", "", "", "Mamba: inner width = expansion × h (Jamba: 2).",
     K::integer, no_choices, 1, 8, VRC_NUM(model, ssm_expand, I)},
    // model: MoE details
    {"model.router_bias", "rbias", "Router bias", "", "", "A bias of E values on each MoE router (gpt-oss; DeepSeek-V3's e_score_correction_bias).",
     K::boolean, no_choices, 0, 1, VRC_BOOL(model, router_bias)},
    {"model.shared_expert_gate", "segate", "Shared-expert gate", "", "", "A sigmoid gate h → 1 on the shared expert's output (Qwen2-MoE, Qwen3-Next): h weights per MoE layer.",
     K::boolean, no_choices, 0, 1, VRC_BOOL(model, shared_expert_gate)},
    // training
    {"training.method", "meth", "Method", "", "", "full: every parameter trains; lora: low-rank adapters on a frozen 16-bit model; qlora: adapters on a 4-bit (or 8-bit) frozen model; freeze: only the last k layers train.",
     K::choice, method_choice, 0, 3, VRC_ENUM(training, method, TrainingMethod)},
    {"training.lora_rank", "rank", "LoRA rank", "r", "", "Rank r of each adapter: r·(d_in + d_out) trainable parameters per adapted linear (PEFT default 8).",
     K::integer, no_choices, 1, 256, VRC_NUM(training, lora_rank, I)},
    {"training.lora_targets", "tgt", "LoRA targets", "", "", "Linears that get adapters: attention (q,k,v,o), all_linear, or a list of q,k,v,o,gate,up,down (PEFT's Llama default: q,v).",
     K::text, no_choices, 0, 0, nullptr, nullptr, [](const Scenario& s) { return format_lora_targets(s.training.lora_targets); },
     [](Scenario& s, std::string v) { s.training.lora_targets = parse_lora_targets(v); }},
    {"training.lora_dropout", "ldrop", "LoRA dropout", "", "", "Dropout on each adapter's input; above 0 every adapter keeps a 1-byte mask and its own copy of its input.",
     K::number, no_choices, 0, 0.5, VRC_NUM(training, lora_dropout, double)},
    {"training.adapter_dtype", "adt", "Adapter dtype", "", "", "fp32: adapters, their gradients and AdamW states in fp32 (PEFT's default); match: the model's weight dtype (torchtune).",
     K::choice, adapter_dtype_choice, 0, 1, VRC_ENUM(training, adapter_dtype, AdapterDtype)},
    {"training.base_weight_format", "qfmt", "QLoRA base format", "", "", "nf4: 4-bit NormalFloat with double quantisation, 4.127 bits/param (QLoRA); nf4_no_dq: 4.5 bits; int8: LLM.int8, 8 bits + an fp32 scale per row.",
     K::choice, base_weight_format_choice, 0, 2, VRC_ENUM(training, base_weight_format, BaseWeightFormat)},
    {"training.trainable_layers", "tlay", "Trainable layers", "", "layers", "Freeze: only the last k layers train (LLaMA-Factory freeze_trainable_layers); 0 = all layers. Embeddings, final norm and LM head stay frozen.",
     K::integer, no_choices, 0, 200, VRC_NUM(training, trainable_layers, I), "all"},
    {"training.seq_len", "s", "Sequence length", "s", "tokens", "Tokens per sequence. Activations grow with s (and s² without FlashAttention).",
     K::integer, no_choices, 128, 131072, VRC_NUM(training, seq_len, I)},
    {"training.micro_batch_size", "b", "Micro-batch", "b", "sequences/GPU", "Sequences per GPU per forward/backward pass. Activations grow linearly with b.",
     K::integer, no_choices, 1, 256, VRC_NUM(training, micro_batch_size, I)},
    {"training.global_batch_size", "B", "Global batch", "B", "sequences", "Sequences per optimizer step = b × DP × grad-accum; 0 = derive from grad_accum_steps.",
     K::integer, no_choices, 0, 65536, VRC_NUM(training, global_batch_size, I), "auto"},
    {"training.grad_accum_steps", "ga", "Grad accumulation", "", "steps", "Micro-batches per step per GPU; 0 = derive from global_batch_size.",
     K::integer, no_choices, 0, 4096, VRC_NUM(training, grad_accum_steps, I), "auto"},
    {"training.tokens", "D", "Training tokens", "D", "tokens", "Dataset size in tokens: compute C = 6·P·D.",
     K::number, no_choices, 1e9, 1e14, VRC_NUM(training, tokens, double)},
    {"training.precision", "prec", "Precision", "", "", "mixed_*: 2-byte weights + fp32 master copy in the optimizer; bf16/fp16: pure 16-bit; fp32: 4 bytes.",
     K::choice, precision_choice, 0, 6, VRC_ENUM(training, precision, Precision)},
    {"training.grad_dtype", "gdt", "Gradient dtype", "", "", "match: gradients in the model dtype (as Transformer Math 101 counts them); fp32: 4-byte gradients.",
     K::choice, grad_dtype_choice, 0, 1, VRC_ENUM(training, grad_dtype, GradDtype)},
    {"training.optimizer", "opt", "Optimizer", "", "", "AdamW 12 B/param (mixed), 8-bit Adam 6, SGD with momentum 8, SGD 4.",
     K::choice, optimizer_choice, 0, 3, VRC_ENUM(training, optimizer, Optimizer)},
    {"training.recompute", "rc", "Recomputation", "", "", "none; selective (recompute attention scores, drops 5·a·s²·b); full (keep only 2·s·b·h per layer, +1 forward).",
     K::choice, recompute_choice, 0, 3, VRC_ENUM(training, recompute, Recompute)},
    {"training.recompute_layers", "rcl", "Recomputed layers", "", "layers/stage", "With full or ops recomputation: 0 = every layer; k = only k layers per pipeline stage (Megatron recompute_num_layers), the rest keep all activations.",
     K::integer, no_choices, 0, 200, VRC_NUM(training, recompute_layers, I)},
    {"training.flash_attention", "fa", "FlashAttention", "", "", "Attention scores are never stored: drops the a·s²·b terms.",
     K::boolean, no_choices, 0, 1, VRC_BOOL(training, flash_attention)},
    {"training.dropout", "drop", "Dropout", "", "", "Dropout masks (1 byte each) are stored; Llama-style training has none.",
     K::boolean, no_choices, 0, 1, VRC_BOOL(training, dropout)},
    {"training.framework", "fw", "Framework", "", "", "Training stack; sets realistic defaults for kernels, loss, optimizer, sharding and overheads (each can be changed).",
     K::choice, framework_choice, 0, 5, VRC_ENUM(training, framework, Framework)},
    {"training.kernels", "kern", "Kernels", "", "", "fused: Megatron/TE kernels (Korthikanti et al. 2022); eager: plain PyTorch modules (HF Transformers) save fp32 upcasts and intermediates; compiled: torch.compile recomputes pointwise work.",
     K::choice, kernels_choice, 0, 2, VRC_ENUM(training, kernels, Kernels)},
    {"training.loss", "loss", "Loss", "", "", "standard: cross-entropy on fp32-upcast logits; chunked: one chunk upcast at a time (torchtune); fused: fused linear cross-entropy, logits never whole (Liger).",
     K::choice, loss_choice, 0, 2, VRC_ENUM(training, loss, Loss)},
    {"training.loss_chunks", "lch", "Loss chunks", "", "", "Chunks of the chunked loss (torchtune: 8).",
     K::integer, no_choices, 1, 64, VRC_NUM(training, loss_chunks, I)},
    {"training.optimizer_impl", "oimp", "Optimizer kernel", "", "", "foreach: PyTorch's default multi-tensor step, one state-sized temporary; fused: in-place fused kernel.",
     K::choice, optimizer_impl_choice, 0, 1, VRC_ENUM(training, optimizer_impl, OptimizerImpl)},
    {"training.paged_optimizer", "paged", "Paged optimizer", "", "", "bitsandbytes paged optimizer: states in CUDA unified memory, moved to the host under pressure (not counted on the GPU).",
     K::boolean, no_choices, 0, 1, VRC_BOOL(training, paged_optimizer)},
    {"training.persistent_gradients", "pgrad", "Persistent gradients", "", "", "Gradient buffers stay allocated between steps (Megatron's main_grad buffers; zero_grad(set_to_none=False), PyTorch < 2.0's default); off: gradients are freed after each step.",
     K::boolean, no_choices, 0, 1, VRC_BOOL(training, persistent_gradients)},
    {"training.optimizer_in_backward", "oib", "Optimizer in backward", "", "", "Each parameter steps as soon as its gradient exists (torchtune): gradients never all live at once.",
     K::boolean, no_choices, 0, 1, VRC_BOOL(training, optimizer_in_backward)},
    {"training.offload_activations", "offa", "Offload activations", "", "", "Saved activations go to host memory; about two layers stay on the GPU.",
     K::boolean, no_choices, 0, 1, VRC_BOOL(training, offload_activations)},
    {"training.fp8", "fp8", "FP8 linears", "", "", "FP8 GEMMs in the linear layers (attention, norms and LM head stay 16-bit): tensorwise (Transformer Engine delayed/current scaling, torchao tensorwise), rowwise (torchao), blockwise (1×128 / 128×128 scales, DeepSeek-V3). Fused kernels = Transformer Engine: FP8 inputs saved, FP8 weight copies kept; otherwise torchao: cast on the fly.",
     K::choice, fp8_choice, 0, 3, VRC_ENUM(training, fp8, Fp8Recipe)},
    {"training.attention_flops", "attnf", "Attention FLOPs", "", "", "Count 12·L·s·h attention FLOPs per token on top of 6·P.",
     K::boolean, no_choices, 0, 1, VRC_BOOL(training, attention_flops)},
    // parallel
    {"parallel.num_gpus", "N", "GPUs", "N", "", "Total GPUs. Data-parallel degree DP = N / (t·p·cp).",
     K::integer, no_choices, 1, 16384, VRC_NUM(parallel, num_gpus, I)},
    {"parallel.tensor", "t", "Tensor parallel", "t", "", "Tensor-parallel degree: divides model states and most activations by t.",
     K::integer, no_choices, 1, 64, VRC_NUM(parallel, tensor, I)},
    {"parallel.pipeline", "p", "Pipeline parallel", "p", "", "Pipeline stages: divides model states by p; the first stage keeps p micro-batches in flight (p + (p−1)/v with v interleaved chunks).",
     K::integer, no_choices, 1, 128, VRC_NUM(parallel, pipeline, I)},
    {"parallel.context", "cp", "Context parallel", "cp", "", "Context-parallel degree: each sequence is split over cp GPUs (ring attention passes K,V around them); activations divide by cp. N = t·p·cp·DP.",
     K::integer, no_choices, 1, 64, VRC_NUM(parallel, context, I)},
    {"parallel.shard_group", "sg", "Shard group", "", "GPUs", "HSDP: ZeRO/FSDP states are sharded over groups of this many data-parallel ranks (e.g. one node) and replicated across groups; 0 = shard over all DP·cp ranks.",
     K::integer, no_choices, 0, 16384, VRC_NUM(parallel, shard_group, I), "all"},
    {"parallel.zero_stage", "z", "ZeRO stage", "", "", "0 off; 1 shards optimizer; 2 + gradients; 3 + weights, over DP.",
     K::integer, no_choices, 0, 3, VRC_NUM(parallel, zero_stage, int)},
    {"parallel.sequence_parallel", "sp", "Sequence parallel", "", "", "Megatron sequence parallelism: all activations divide by t.",
     K::boolean, no_choices, 0, 1, VRC_BOOL(parallel, sequence_parallel)},
    {"parallel.tp_comm_overlap", "tpo", "TP comm overlap", "", "", "Megatron-Core --tp-comm-overlap (Transformer Engine userbuffers): the sequence-parallel all-gathers and reduce-scatters of the layers' linears run under their GEMMs; needs t > 1 and sequence parallelism.",
     K::boolean, no_choices, 0, 1, VRC_BOOL(parallel, tp_comm_overlap)},
    {"parallel.partition_activations", "pa", "Partition activations", "", "", "ZeRO-R: activations divide by t (GPT-NeoX partition_activations).",
     K::boolean, no_choices, 0, 1, VRC_BOOL(parallel, partition_activations)},
    {"parallel.zero3_live_params", "live", "ZeRO-3 live params", "", "parameters", "DeepSpeed stage3_max_live_parameters (its default: 1e9); 0 = not counted.",
     K::number, no_choices, 0, 1e10, VRC_NUM(parallel, zero3_live_params, double), "not counted"},
    {"parallel.offload_optimizer", "off", "Offload optimizer", "", "", "ZeRO-Offload: optimizer states live in host (CPU) memory.",
     K::boolean, no_choices, 0, 1, VRC_BOOL(parallel, offload_optimizer)},
    {"parallel.zero_impl", "zimpl", "Sharding", "", "", "deepspeed: ZeRO with stage3_max_live_parameters; fsdp: PyTorch FSDP2 (current + prefetched layer and the root gathered).",
     K::choice, zero_impl_choice, 0, 1, VRC_ENUM(parallel, zero_impl, ZeroImpl)},
    {"parallel.offload_params", "offp", "Offload parameters", "", "", "ZeRO-3 / FSDP parameter offload: weights, gradients and optimizer states live in host memory.",
     K::boolean, no_choices, 0, 1, VRC_BOOL(parallel, offload_params)},
    {"parallel.expert", "ep", "Expert parallel", "", "", "Expert-parallel degree: expert weights divide by it (MoE).",
     K::integer, no_choices, 1, 256, VRC_NUM(parallel, expert, I)},
    {"parallel.interleave", "vpp", "Interleave", "v", "stages/GPU", "Virtual pipeline stages per GPU (interleaved 1F1B): the bubble shrinks by v, point-to-point sends grow by v, the first stage keeps (p−1)/v more micro-batches of activations.",
     K::integer, no_choices, 1, 16, VRC_NUM(parallel, interleave, I)},
    // hardware
    {"hardware.gpu", "gpu", "GPU", "", "", "A GPU preset name fills memory and throughput; any other text is a label.",
     K::text, no_choices, 0, 0, VRC_TEXT(hardware, gpu)},
    {"hardware.memory_gib", "mem", "GPU memory", "", "GiB", "Memory of one GPU as the device reports it.",
     K::number, no_choices, 1, 256, VRC_NUM(hardware, memory_gib, double)},
    {"hardware.peak_tflops", "peak", "Peak TFLOP/s", "", "TFLOP/s", "Dense bf16/fp16 peak of one GPU.",
     K::number, no_choices, 1, 5000, VRC_NUM(hardware, peak_tflops, double)},
    {"hardware.achieved_tflops", "ach", "Achieved TFLOP/s", "", "TFLOP/s", "Throughput one GPU really reaches (A100: ~150 GPT-NeoX); 0 = use MFU.",
     K::number, no_choices, 0, 5000, VRC_NUM(hardware, achieved_tflops, double), "from MFU"},
    {"hardware.mfu", "mfu", "MFU", "", "", "Model FLOPs utilisation (0–1), used when achieved TFLOP/s is 0.",
     K::number, no_choices, 0, 1, VRC_NUM(hardware, mfu, double)},
    {"hardware.price_per_gpu_hour", "price", "Price per GPU-hour", "", "$/GPU-h", "What one GPU-hour costs you.",
     K::number, no_choices, 0, 20, VRC_NUM(hardware, price_per_gpu_hour, double)},
    {"hardware.reserved_gib", "rsv", "Reserved memory", "", "GiB", "A further fixed reserve per GPU (NCCL buffers, other processes) on top of the CUDA context and the allocator overhead.",
     K::number, no_choices, 0, 16, VRC_NUM(hardware, reserved_gib, double)},
    {"hardware.cuda_context_gib", "ctx", "CUDA context", "", "GiB", "CUDA context and kernel images per GPU, outside PyTorch's allocator (nvidia-smi counts it).",
     K::number, no_choices, 0, 8, VRC_NUM(hardware, cuda_context_gib, double)},
    {"hardware.allocator_overhead", "alloc", "Allocator overhead", "", "", "Fraction the caching allocator reserves above the peak of allocated tensors (fragmentation, rounding).",
     K::number, no_choices, 0, 1, VRC_NUM(hardware, allocator_overhead, double)},
    {"hardware.throughput_model", "tm", "Throughput model", "", "", "fixed: time = FLOPs / the achieved TFLOP/s (or MFU) given; predicted: step time modelled from compute, communication, bubble and optimizer.",
     K::choice, throughput_model_choice, 0, 1, VRC_ENUM(hardware, throughput_model, ThroughputModel)},
    {"hardware.gpus_per_node", "gpn", "GPUs per node", "", "", "GPUs sharing the fast intra-node link (NVLink); groups larger than this cross nodes.",
     K::integer, no_choices, 1, 72, VRC_NUM(hardware, gpus_per_node, I)},
    {"hardware.intra_node_gbps", "nvl", "Intra-node link", "", "GB/s", "Per-GPU bandwidth to the other GPUs of its node, one direction (DGX A100 NVLink: 300).",
     K::number, no_choices, 1, 2000, VRC_NUM(hardware, intra_node_gbps, double)},
    {"hardware.inter_node_gbps", "ib", "Inter-node link", "", "GB/s", "Per-GPU network bandwidth between nodes, one direction (one 200 Gb/s NIC per GPU: 25).",
     K::number, no_choices, 0.1, 200, VRC_NUM(hardware, inter_node_gbps, double)},
    {"hardware.memory_bandwidth_gbps", "hbm", "Memory bandwidth", "", "GB/s", "GPU memory bandwidth (A100 80GB: 2039); bounds norms, activations, softmax and the optimizer step, and serving's decode speed.",
     K::number, no_choices, 100, 10000, VRC_NUM(hardware, memory_bandwidth_gbps, double)},
    // workload and serving (docs/serving.md); training-only fields are ignored for inference
    {"workload", "wl", "Workload", "", "", "training: a training run (the default); inference: serving the model with inference.engine.",
     K::choice, workload_choice, 0, 1, VRC_TOP_ENUM(workload, Workload)},
    {"inference.engine", "ie", "Serving engine", "", "", "vllm, sglang, trtllm, llamacpp or hf: whose memory accounting (KV pool, activation profile, buffers) the estimate follows.",
     K::choice, engine_choice, 0, 4, VRC_ENUM(inference, engine, Engine)},
    {"inference.weight_format", "iw", "Weight format", "", "", "How the checkpoint stores its weights: bf16/fp16/fp32, fp8 (per-tensor, _channel, _block scales), int8, awq, gptq, nf4, mxfp4 or a GGUF type (gguf-q4_k_m, …; llama.cpp).",
     K::choice, weight_format_choice, 0, 20, VRC_ENUM(inference, weight_format, WeightFormat)},
    {"inference.quant_group_size", "ig", "Quantisation group", "G", "inputs", "AWQ / GPTQ: input features sharing one scale and zero (default 128); -1 = one group per column.",
     K::integer, no_choices, -1, 1024, VRC_NUM(inference, quant_group_size, I)},
    {"inference.kv_cache_dtype", "ikv", "KV cache dtype", "", "", "auto = the model's 16-bit dtype; fp16, bf16; fp8 (1 byte); q8_0 / q4_0: llama.cpp's block types (34 / 18 bytes per 32).",
     K::choice, kv_cache_dtype_choice, 0, 5, VRC_ENUM(inference, kv_cache_dtype, KvCacheDtype)},
    {"inference.context_len", "ic", "Context length", "c", "tokens", "Tokens per sequence the engine must hold (vLLM max_model_len, llama.cpp context per slot).",
     K::integer, no_choices, 256, 1048576, VRC_NUM(inference, context_len, I)},
    {"inference.concurrency", "in", "Concurrency", "n", "sequences", "Sequences served at once, each up to the context length (llama.cpp --parallel).",
     K::integer, no_choices, 1, 1024, VRC_NUM(inference, concurrency, I)},
    {"inference.gpu_memory_utilization", "iu", "Memory fraction", "", "", "vLLM gpu_memory_utilization, SGLang mem_fraction_static, TensorRT-LLM free_gpu_memory_fraction; 0 = the engine's default (0.9; SGLang 0.79–0.88 by t).",
     K::number, no_choices, 0, 1, VRC_NUM(inference, gpu_memory_utilization, double), "engine default"},
    {"inference.max_batched_tokens", "it", "Batched tokens", "", "tokens", "vLLM max_num_batched_tokens, SGLang chunked_prefill_size, TensorRT-LLM max_num_tokens, llama.cpp n_ubatch: sizes the activation peak; 0 = the engine's default.",
     K::integer, no_choices, 0, 65536, VRC_NUM(inference, max_batched_tokens, I), "engine default"},
    {"inference.gpu_layers", "il", "GPU layers", "", "layers", "llama.cpp n_gpu_layers: layers on the GPU, the rest on the host; -1 = all (and the output layer).",
     K::integer, no_choices, -1, 200, VRC_NUM(inference, gpu_layers, I)},
    {"inference.prompt_tokens", "ip", "Prompt tokens", "", "tokens", "Tokens of each prompt: time to first token and prefill speed.",
     K::integer, no_choices, 1, 131072, VRC_NUM(inference, prompt_tokens, I)},
    {"inference.output_tokens", "io", "Output tokens", "", "tokens", "Tokens generated per request: the mean context during decode.",
     K::integer, no_choices, 1, 131072, VRC_NUM(inference, output_tokens, I)},
    {"inference.sampler", "is", "vLLM sampler", "", "", "vLLM V1's top-k/top-p sampler, whose warm-up over max_num_seqs × vocabulary logits the KV budget leaves room for: flashinfer (FlashInfer installed and enabled: vLLM's Docker images) or pytorch (PyTorch's sort: pip installs without FlashInfer before 0.11.1, and 0.11.1 on while the FlashInfer sampler was opt-in).",
     K::choice, sampler_choice, 0, 1, VRC_ENUM(inference, sampler, Sampler)},
    {"inference.weight_bytes_override", "iwb", "Weight bytes", "", "bytes", "When > 0, the checkpoint's exact weight bytes instead of the format's recipe (a GGUF import sets the file's tensor bytes); 0 = from the format.",
     K::number, no_choices, 0, 1e15, VRC_NUM(inference, weight_bytes_override, double), "from the format"},
});

#undef VRC_NUM
#undef VRC_BOOL
#undef VRC_ENUM
#undef VRC_TEXT
#undef VRC_TOP_ENUM

// ── Groups (the order within a group is the order a form shows; each array counts itself) ──
constexpr const char* stack_paths[] = {"training.framework"};
constexpr const char* architecture_paths[] = {
    "model.name", "model.layers", "model.hidden_size", "model.num_heads", "model.num_kv_heads", "model.head_dim",
    "model.ffn_hidden_size", "model.vocab_size", "model.mlp", "model.activation", "model.norm",
    "model.norms_per_layer", "model.bias", "model.qkv_bias", "model.tied_embeddings", "model.position_embedding",
    "model.max_position_embeddings"};
constexpr const char* experts_paths[] = {
    "model.num_experts",  "model.experts_per_token", "model.moe_ffn_hidden_size", "model.num_shared_experts",
    "model.dense_layers", "model.router_bias",       "model.shared_expert_gate",  "model.params_override"};
constexpr const char* batch_paths[] = {"training.seq_len",         "training.micro_batch_size",
                                                   "training.global_batch_size", "training.grad_accum_steps",
                                                   "training.tokens",            "training.attention_flops"};
constexpr const char* optimizer_paths[] = {
    "training.precision",      "training.grad_dtype",          "training.optimizer",
    "training.optimizer_impl", "training.persistent_gradients", "training.optimizer_in_backward",
    "training.paged_optimizer", "training.fp8"};
constexpr const char* activation_paths[] = {
    "training.kernels",   "training.flash_attention",  "training.dropout",     "training.recompute",
    "training.recompute_layers", "training.offload_activations", "training.loss", "training.loss_chunks"};
constexpr const char* finetune_paths[] = {
    "training.method",       "training.lora_rank",          "training.lora_targets",    "training.lora_dropout",
    "training.adapter_dtype", "training.base_weight_format", "training.trainable_layers"};
constexpr const char* layout_paths[] = {"parallel.num_gpus",          "parallel.tensor",
                                                    "parallel.pipeline",          "parallel.interleave",
                                                    "parallel.sequence_parallel", "parallel.tp_comm_overlap",
                                                    "parallel.expert",            "parallel.context"};
constexpr const char* sharding_paths[] = {
    "parallel.zero_stage",     "parallel.zero_impl",         "parallel.zero3_live_params",
    "parallel.offload_params", "parallel.offload_optimizer", "parallel.partition_activations",
    "parallel.shard_group"};
constexpr const char* gpu_paths[] = {"hardware.gpu",         "hardware.memory_gib",
                                                 "hardware.peak_tflops", "hardware.memory_bandwidth_gbps",
                                                 "hardware.achieved_tflops", "hardware.mfu",
                                                 "hardware.price_per_gpu_hour"};
constexpr const char* cluster_paths[] = {"hardware.throughput_model", "hardware.gpus_per_node",
                                                     "hardware.intra_node_gbps", "hardware.inter_node_gbps"};
constexpr const char* overhead_paths[] = {"hardware.cuda_context_gib", "hardware.allocator_overhead",
                                                      "hardware.reserved_gib"};

constexpr const char* attention_variant_paths[] = {
    "model.kv_lora_rank",   "model.q_lora_rank",       "model.qk_rope_head_dim",          "model.qk_nope_head_dim",
    "model.v_head_dim",     "model.sliding_window",    "model.global_attention_interval", "model.qk_norm",
    "model.attention_sinks", "model.attention_output_gate"};
constexpr const char* hybrid_paths[] = {
    "model.full_attention_interval", "model.linear_attention",      "model.linear_num_key_heads",
    "model.linear_num_value_heads",  "model.linear_key_head_dim",   "model.linear_value_head_dim",
    "model.linear_conv_kernel",      "model.ssm_state_size",        "model.ssm_expand"};

constexpr const char* workload_paths[] = {"workload"};
constexpr const char* serving_engine_paths[] = {"inference.engine", "inference.weight_format",
                                                            "inference.quant_group_size", "inference.kv_cache_dtype",
                                                            "inference.weight_bytes_override", "inference.sampler"};
constexpr const char* serving_load_paths[] = {
    "inference.context_len",   "inference.concurrency",       "inference.prompt_tokens", "inference.output_tokens",
    "inference.max_batched_tokens", "inference.gpu_memory_utilization", "inference.gpu_layers"};

constexpr auto group_table = std::to_array<FieldGroup>({
    {"workload", "Workload", "train or serve", workload_paths, true},
    {"training.stack", "Training stack", "framework profile", stack_paths, true},
    {"model.architecture", "Model", "architecture", architecture_paths},
    {"model.attention", "Attention variants", "latent (MLA), sliding window, q/k norms", attention_variant_paths},
    {"model.hybrid", "Hybrid layers", "linear attention, state-space (Mamba)", hybrid_paths},
    {"model.experts", "Experts and overrides", "mixture of experts, parameter count", experts_paths},
    {"training.batch", "Batch and data", "sequence, batch, tokens", batch_paths},
    {"training.optimizer", "Precision and optimizer", "bytes per parameter, the step", optimizer_paths},
    {"training.activations", "Activations and loss", "kernels, recomputation, loss", activation_paths},
    {"training.finetune", "Fine-tuning", "adapters, quantized base, frozen layers", finetune_paths},
    {"parallel.layout", "Parallelism", "how the GPUs share the work", layout_paths},
    {"parallel.sharding", "Sharding and offload", "ZeRO / FSDP", sharding_paths},
    {"hardware.gpu", "Hardware", "one GPU", gpu_paths},
    {"hardware.cluster", "Cluster and step time", "nodes, links, throughput model", cluster_paths},
    {"hardware.overheads", "Memory overheads", "outside the tensors", overhead_paths},
    {"inference.engine", "Serving engine", "engine, weight format, KV cache", serving_engine_paths},
    {"inference.load", "Serving load", "context, concurrency, batching", serving_load_paths},
});

}  // namespace

std::span<const FieldGroup> field_groups() { return group_table; }

const FieldGroup* group_of_field(std::string_view path) {
    for (const auto& g : group_table)
        for (const char* p : g.paths)
            if (path == p) return &g;
    return nullptr;
}

bool field_used_by(std::string_view path, Workload workload) {
    if (path == "workload") return true;
    const bool serving = path.starts_with("inference.");
    if (workload == Workload::training) return !serving;
    // What src/core/serving reads besides inference.* and the model.
    static constexpr std::string_view serving_reads[] = {
        "parallel.tensor",        "parallel.pipeline",          "hardware.gpu",
        "hardware.memory_gib",    "hardware.peak_tflops",       "hardware.memory_bandwidth_gbps",
        "hardware.price_per_gpu_hour", "hardware.intra_node_gbps", "hardware.cuda_context_gib",
        "hardware.allocator_overhead"};
    return serving || path.starts_with("model.") ||
           std::find(std::begin(serving_reads), std::end(serving_reads), path) != std::end(serving_reads);
}

std::span<const FieldSpec> scenario_fields() { return field_table; }

namespace {

// Lengths measured once: decoding looks up every key it reads (the JS API decodes a scenario per call).
template <const char* FieldSpec::*Name>
const FieldSpec* find_field(std::string_view name) {
    static const auto lengths = [] {
        std::array<std::size_t, std::tuple_size_v<decltype(field_table)>> out{};
        for (std::size_t i = 0; i < field_table.size(); ++i) out[i] = std::string_view(field_table[i].*Name).size();
        return out;
    }();
    for (std::size_t i = 0; i < field_table.size(); ++i)
        if (lengths[i] == name.size() && name == std::string_view(field_table[i].*Name, lengths[i])) return &field_table[i];
    return nullptr;
}

}  // namespace

const FieldSpec* find_field_by_path(std::string_view path) { return find_field<&FieldSpec::path>(path); }
const FieldSpec* find_field_by_url_key(std::string_view key) { return find_field<&FieldSpec::url_key>(key); }

std::span<const char* const> mlp_names() { return mlp_choice; }
std::span<const char* const> norm_names() { return norm_choice; }
std::span<const char* const> position_names() { return position_choice; }
std::span<const char* const> precision_names() { return precision_choice; }
std::span<const char* const> grad_dtype_names() { return grad_dtype_choice; }
std::span<const char* const> optimizer_names() { return optimizer_choice; }
std::span<const char* const> recompute_names() { return recompute_choice; }
std::span<const char* const> framework_names() { return framework_choice; }
std::span<const char* const> kernels_names() { return kernels_choice; }
std::span<const char* const> loss_names() { return loss_choice; }
std::span<const char* const> throughput_model_names() { return throughput_model_choice; }
std::span<const char* const> linear_attention_names() { return linear_attention_choice; }
std::span<const char* const> workload_names() { return workload_choice; }
std::span<const char* const> engine_names() { return engine_choice; }
std::span<const char* const> weight_format_names() { return weight_format_choice; }
std::span<const char* const> kv_cache_dtype_names() { return kv_cache_dtype_choice; }
std::span<const char* const> sampler_names() { return sampler_choice; }
std::span<const char* const> fp8_names() { return fp8_choice; }

bool field_equal(const FieldSpec& f, const Scenario& a, const Scenario& b) {
    if (f.kind == FieldKind::text) return f.get_text(a) == f.get_text(b);
    return f.get(a) == f.get(b);
}

const FieldSpec* first_difference(const Scenario& a, const Scenario& b) {
    for (const auto& f : field_table)
        if (!field_equal(f, a, b)) return &f;
    return nullptr;
}

bool same_model(const ModelConfig& a, const ModelConfig& b) {
    Scenario x, y;
    x.model = a;
    y.model = b;
    for (const auto& f : field_table)
        if (std::string_view(f.path).starts_with("model.") && !field_equal(f, x, y)) return false;
    return true;
}

}  // namespace vramcalc
