#include "core/serving/kv_cache.hpp"

#include <algorithm>
#include <cmath>

namespace vramcalc::serving {
namespace {

double round_up(double x, double multiple) { return multiple > 1 ? std::ceil(x / multiple) * multiple : std::ceil(x); }

// Per-sequence state of one linear layer, elements (all heads; the caller divides by t).
// Gated DeltaNet: conv state (kernel − 1)·(2·nk·dk + nv·dv) + recurrent nv·dk·dv (vLLM
// mamba_utils gated_delta_net_state_shape); Mamba: conv (d_conv − 1)·d_inner + ssm d_inner·N.
double linear_state_elements(const ModelConfig& m) {
    const double kernel = double(std::max<std::int64_t>(1, m.linear_conv_kernel)) - 1.0;
    if (m.linear_attention == LinearAttention::gated_deltanet) {
        const double keys = double(m.linear_num_key_heads * m.linear_key_head_dim);
        const double values = double(m.linear_num_value_heads * m.linear_value_head_dim);
        return kernel * (2.0 * keys + values) + double(m.linear_num_value_heads) * double(m.linear_key_head_dim) *
                                                     double(m.linear_value_head_dim);
    }
    const double inner = double(m.ssm_expand) * double(m.hidden_size);
    return kernel * inner + inner * double(m.ssm_state_size);
}

// Elements one softmax layer caches per token on one GPU.
double token_elements(const ModelConfig& m, const Layout& r, MlaStorage mla, double tensor) {
    if (m.kv_lora_rank > 0) {
        const double latent = double(m.kv_lora_rank + m.qk_rope_head_dim);
        const double a = double(m.num_heads);
        const double v = double(m.v_head_dim > 0 ? m.v_head_dim : r.head_dim);
        switch (mla) {
            case MlaStorage::latent: return latent;  // replicated on every TP rank
            case MlaStorage::latent_k_and_v: return latent + double(m.kv_lora_rank);
            case MlaStorage::full: return (a * double(m.qk_nope_head_dim + m.qk_rope_head_dim) + a * v) / tensor;
        }
    }
    // 2·g·d with g/t heads per rank, at least one (replicated when g < t)
    const double heads = std::max(1.0, std::floor(double(r.kv_heads) / tensor));
    return 2.0 * heads * double(r.head_dim);
}

}  // namespace

double kv_element_bytes(KvCacheDtype dtype, WeightFormat weights) {
    switch (dtype) {
        case KvCacheDtype::auto_: return weights == WeightFormat::fp32 ? 4.0 : 2.0;
        case KvCacheDtype::fp16:
        case KvCacheDtype::bf16: return 2.0;
        case KvCacheDtype::fp8: return 1.0;
        case KvCacheDtype::q8_0: return 34.0 / 32.0;
        case KvCacheDtype::q4_0: return 18.0 / 32.0;
    }
    return 2.0;
}

KvShape kv_shape(const Scenario& sc, const Layout& r, MlaStorage mla, double layer_share, double tensor) {
    const ModelConfig& m = sc.model;
    const MixerCounts c = mixer_counts(m);
    const double e = kv_element_bytes(sc.inference.kv_cache_dtype, sc.inference.weight_format);
    KvShape k;
    k.full_layers = c.full * layer_share;
    k.window_layers = c.window * layer_share;
    k.linear_layers = c.linear * layer_share;
    k.window = double(m.sliding_window);
    k.bytes_per_token_layer = token_elements(m, r, mla, tensor) * e;
    // States stay in the model's 16-bit dtype (vLLM mamba_ssm_cache_dtype = auto), split t ways.
    k.state_bytes_per_sequence = k.linear_layers * linear_state_elements(m) * 2.0 / tensor;
    return k;
}

double vllm_window_tokens(double window, double context, double batched_tokens, double block) {
    const double tokens = std::min(window - 1.0 + batched_tokens, context);
    return (std::ceil(tokens / block) + 1.0) * block;
}

double sequence_kv_bytes(const KvShape& k, double context, double block, double window_tokens) {
    const double full = round_up(context, block) * k.full_layers;
    const double windowed = window_tokens * k.window_layers;
    return (full + windowed) * k.bytes_per_token_layer + k.state_bytes_per_sequence;
}

double llamacpp_kv_bytes(const KvShape& k, double context, double sequences, double ubatch) {
    // one stream of PAD(context, 256) cells per sequence (kv_unified = false); SWA layers PAD(W + n_ubatch, 256) per stream
    const double cells = round_up(context, 256.0);
    const double swa_cells = std::min(cells, round_up(k.window + ubatch, 256.0));
    return sequences * ((cells * k.full_layers + swa_cells * k.window_layers) * k.bytes_per_token_layer +
                        k.state_bytes_per_sequence);
}

}  // namespace vramcalc::serving
