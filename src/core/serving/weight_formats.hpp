// Weights by storage format: one table of formats, ggml's block types, and the exact bytes each
// format stores per tensor (docs/serving.md §1). Sources:
//   [GGML]  ggml-org/llama.cpp ggml/src/ggml-common.h (block_q4_K, …): bytes per block.
//   [QUANT] ggml-org/llama.cpp src/llama-quant.cpp llama_tensor_get_type_impl: the per-tensor mix.
//   [AWQ]   casper-hansen/AutoAWQ WQLinear_GEMM (qweight, qzeros int32 packed ×8; scales fp16).
//   [GPTQ]  AutoGPTQ / GPTQModel QuantLinear (qweight [K/8, N], qzeros, scales, g_idx int32 [K]).
//   [FP8]   vLLM / compressed-tensors fp8 checkpoints: e4m3 weights + fp32 scales per tensor, per
//           output channel, or per 128×128 block (DeepSeek-V3 weight_block_size).
//   [MXFP4] OCP Microscaling spec v1.0; openai/gpt-oss checkpoints: expert weights 4-bit E2M1 in
//           blocks of 32 with one E8M0 scale byte, everything else bf16.
#pragma once

#include <cstdint>
#include <span>

#include "core/scenario.hpp"
#include "core/serving/tensors.hpp"

namespace vramcalc::serving {

// ggml tensor types a GGUF recipe writes.
enum class GgmlType { f32, f16, q8_0, q6_k, q5_k, q4_k, q3_k, q2_k, q4_0, q5_0, q5_1, iq4_xs, iq4_nl };
struct GgmlTypeInfo {
    const char* name;
    int block_elements;  // QK: elements per block
    int block_bytes;     // sizeof(block_*) [GGML]
};
const GgmlTypeInfo& ggml_type_info(GgmlType type);
// Bytes of a rows × cols tensor (ggml_row_size · rows: cols is ne[0], the block axis).
double ggml_tensor_bytes(GgmlType type, double rows, double cols);

enum class FormatFamily { dense, fp8, int8, awq, gptq, nf4, mxfp4, gguf };
enum class Fp8Scales { none, per_tensor, per_channel, per_block };

struct WeightFormatInfo {
    WeightFormat id;
    const char* name;        // the JSON / link / CLI spelling
    FormatFamily family;
    double dense_bytes;      // bytes per element of what stays unquantised (embeddings, LM head, router, norms)
    GgmlType gguf_base;      // GGUF: llama_ftype_get_default_type [QUANT]
    Fp8Scales fp8_scales;
    const char* summary;     // one sentence: what is stored (help text, docs)
};
std::span<const WeightFormatInfo> weight_formats();  // in enum order
const WeightFormatInfo& weight_format_info(WeightFormat format);
bool is_gguf(WeightFormat format);

// Where a tensor sits, for the GGUF recipes that give some layers more bits [QUANT].
struct GgufPosition {
    std::int64_t layer = 0, layers = 1;        // i_layer, n_layer (ffn_down)
    std::int64_t attn_v = 0, attn_v_count = 1; // i_attention_wv, n_attention_wv
    double gqa = 1;                            // n_head / n_head_kv
    std::int64_t experts = 1;                  // n_expert
    bool is_70b = false;                       // llama.cpp LLM_TYPE_70B (80 layers with GQA)
};
// Layer 0's position, with the model's counts the recipes read (layers, attn_v tensors, GQA, experts).
GgufPosition gguf_first_position(const ModelConfig& m, const Layout& r);
// The ggml type the recipe of `format` gives a tensor of `role` with `cols` input features.
GgmlType gguf_tensor_type(WeightFormat format, TensorRole role, double cols, const GgufPosition& at);

// Bytes of one tensor stored in `format` (all its copies; GGUF: pass the recipe's type).
double tensor_bytes(const WeightFormatInfo& format, const Tensor& t, std::int64_t group_size, GgmlType gguf_type);

// The checkpoint's bytes by part. Layers are summed one by one (GGUF recipes differ by layer).
struct WeightBytes {
    double embedding = 0;      // token embedding
    double lm_head = 0;        // untied output projection (0 when tied)
    double layers = 0;         // every layer's listed tensors
    double routed_experts = 0; // the routed-expert part of `layers`
    double remainder = 0;      // norms, biases, small tensors: the parameter count's rest
    double layers_tp_rank = 0; // `layers` on one tensor-parallel rank (KV heads replicated when g < t)
    double routed_experts_tp_rank = 0;
    double total = 0;          // the checkpoint (safetensors / GGUF tensor data)
};
WeightBytes weight_bytes(const Scenario& sc, const Layout& r, double total_parameters);

}  // namespace vramcalc::serving
