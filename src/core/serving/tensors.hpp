// The tensors of a checkpoint by role and shape, as serving engines and quantisers see them
// (docs/serving.md §1). A quantiser decides per role; tensor parallelism shards per role.
#pragma once

#include <array>
#include <cstdint>

#include "core/scenario.hpp"

namespace vramcalc::serving {

// Roles follow llama.cpp's tensor categories (src/llama-quant.cpp tensor_get_category) and
// Hugging Face module names (q_proj, …, experts.*.down_proj, mlp.gate).
enum class TensorRole {
    embedding,      // token_embd / embed_tokens
    lm_head,        // output / lm_head (untied only)
    attn_q, attn_k, attn_v, attn_o,
    attn_latent_down,  // MLA q_a_proj, kv_a_proj_with_mqa: replicated under TP in vLLM / SGLang
    attn_latent_up,    // MLA q_b_proj (llama.cpp attn_q_b)
    attn_kv_up,        // MLA kv_b_proj (llama.cpp attn_kv_b: the "attn_v" category)
    ffn_gate, ffn_up, ffn_down,           // dense MLP and shared experts
    expert_gate, expert_up, expert_down,  // routed experts (count = E)
    router,         // mlp.gate / ffn_gate_inp: never quantised
    linear_in, linear_out,  // linear-attention / SSM projections (in_proj*, out_proj)
};
// Norms, biases, conv kernels, A_log and the like are not listed: they are the parameter count's
// remainder, kept in 16 (GGUF: 32) bits by every format.

struct Tensor {
    TensorRole role;
    double rows;   // output features (ggml ne[1])
    double cols;   // input features (ggml ne[0], the quantisation block axis)
    double count;  // copies per layer (experts)
};

// What one layer is: its token mixer and its MLP.
enum class Mixer { full_attention, window_attention, linear_attention };
struct LayerKind {
    Mixer mixer;
    bool moe;
};

// Layer i (0-based) of the model, by the counting rules of MODEL_FIELDS.md.
LayerKind layer_kind(const ModelConfig& m, std::int64_t layer);
bool is_mla(const ModelConfig& m);

// Counts of layers by mixer: L = full + window + linear.
struct MixerCounts {
    double full = 0, window = 0, linear = 0;
};
MixerCounts mixer_counts(const ModelConfig& m);

// The tensors of one layer of that kind; `count` of them are filled.
struct LayerTensors {
    std::array<Tensor, 20> items{};
    int count = 0;
    void add(TensorRole role, double rows, double cols, double copies = 1) {
        if (rows > 0 && cols > 0 && copies > 0 && count < int(items.size())) items[std::size_t(count++)] = {role, rows, cols, copies};
    }
};
LayerTensors layer_tensors(const ModelConfig& m, const Layout& r, LayerKind kind);

// Elements of the listed tensors of a layer.
double tensor_elements(const LayerTensors& t);

}  // namespace vramcalc::serving
