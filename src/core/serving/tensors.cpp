#include "core/serving/tensors.hpp"

#include <cmath>

namespace vramcalc::serving {

bool is_mla(const ModelConfig& m) { return m.kv_lora_rank > 0; }

// Layer i is softmax attention when full_attention_interval is 0 or (i+1) is a multiple of it;
// among the softmax layers the j-th is global when (j+1) is a multiple of global_attention_interval
// (MODEL_FIELDS.md; HF Qwen3-Next layer_types, Gemma 3 sliding_window_pattern, gpt-oss layer_types).
LayerKind layer_kind(const ModelConfig& m, std::int64_t layer) {
    bool moe = m.num_experts > 1 && layer >= m.dense_layers;
    const std::int64_t n_full = m.full_attention_interval;
    if (n_full > 0 && (layer + 1) % n_full != 0) return {Mixer::linear_attention, moe};
    if (m.sliding_window <= 0) return {Mixer::full_attention, moe};
    const std::int64_t softmax_index = n_full > 0 ? (layer + 1) / n_full - 1 : layer;
    const std::int64_t g = m.global_attention_interval;
    bool global = g > 0 && (softmax_index + 1) % g == 0;
    return {global ? Mixer::full_attention : Mixer::window_attention, moe};
}

MixerCounts mixer_counts(const ModelConfig& m) {
    const double layers = double(m.layers);
    MixerCounts c;
    c.linear = m.full_attention_interval > 0 ? layers - std::floor(layers / double(m.full_attention_interval)) : 0.0;
    const double softmax = layers - c.linear;
    if (m.sliding_window > 0)
        c.window = m.global_attention_interval > 0 ? softmax - std::floor(softmax / double(m.global_attention_interval)) : softmax;
    c.full = softmax - c.window;
    return c;
}

namespace {

void add_attention(const ModelConfig& m, const Layout& r, LayerTensors& t) {
    const double h = double(m.hidden_size), a = double(m.num_heads);
    if (is_mla(m)) {
        // DeepSeek-V2/V3 modeling: q_a_proj, q_b_proj (or q_proj), kv_a_proj_with_mqa, kv_b_proj, o_proj [arXiv:2405.04434 §2.1]
        const double qk = double(m.qk_nope_head_dim + m.qk_rope_head_dim);
        const double v = double(m.v_head_dim > 0 ? m.v_head_dim : r.head_dim);
        if (m.q_lora_rank > 0) {
            t.add(TensorRole::attn_latent_down, double(m.q_lora_rank), h);
            t.add(TensorRole::attn_latent_up, a * qk, double(m.q_lora_rank));
        } else {
            t.add(TensorRole::attn_q, a * qk, h);
        }
        t.add(TensorRole::attn_latent_down, double(m.kv_lora_rank + m.qk_rope_head_dim), h);
        t.add(TensorRole::attn_kv_up, a * double(m.qk_nope_head_dim) + a * v, double(m.kv_lora_rank));
        t.add(TensorRole::attn_o, h, a * v);
        return;
    }
    const double d = double(r.head_dim), g = double(r.kv_heads);
    t.add(TensorRole::attn_q, a * d, h);
    t.add(TensorRole::attn_k, g * d, h);
    t.add(TensorRole::attn_v, g * d, h);
    t.add(TensorRole::attn_o, h, a * d);
}

void add_linear_mixer(const ModelConfig& m, LayerTensors& t) {
    const double h = double(m.hidden_size);
    if (m.linear_attention == LinearAttention::gated_deltanet) {
        // HF Qwen3NextGatedDeltaNet: in_proj_qkvz (2·nk·dk + 2·nv·dv), in_proj_ba (2·nv), out_proj
        const double keys = double(m.linear_num_key_heads * m.linear_key_head_dim);
        const double values = double(m.linear_num_value_heads * m.linear_value_head_dim);
        t.add(TensorRole::linear_in, 2.0 * keys + 2.0 * values, h);
        t.add(TensorRole::linear_in, 2.0 * double(m.linear_num_value_heads), h);
        t.add(TensorRole::linear_out, h, values);
        return;
    }
    // HF JambaMambaMixer: in_proj (2·d_inner), x_proj (dt_rank + 2N), dt_proj, out_proj; dt_rank = ceil(h/16)
    const double inner = double(m.ssm_expand) * h, dt_rank = std::ceil(h / 16.0);
    t.add(TensorRole::linear_in, 2.0 * inner, h);
    t.add(TensorRole::linear_in, dt_rank + 2.0 * double(m.ssm_state_size), inner);
    t.add(TensorRole::linear_in, inner, dt_rank);
    t.add(TensorRole::linear_out, h, inner);
}

void add_mlp(const ModelConfig& m, double width, bool shared, double copies, LayerTensors& t) {
    const double h = double(m.hidden_size);
    const bool gated = m.mlp == MlpKind::swiglu;
    TensorRole gate = shared ? TensorRole::ffn_gate : TensorRole::expert_gate;
    TensorRole up = shared ? TensorRole::ffn_up : TensorRole::expert_up;
    TensorRole down = shared ? TensorRole::ffn_down : TensorRole::expert_down;
    if (gated) t.add(gate, width, h, copies);
    t.add(up, width, h, copies);
    t.add(down, h, width, copies);
}

}  // namespace

LayerTensors layer_tensors(const ModelConfig& m, const Layout& r, LayerKind kind) {
    LayerTensors t;
    if (kind.mixer == Mixer::linear_attention) add_linear_mixer(m, t);
    else add_attention(m, r, t);
    if (!kind.moe) {
        add_mlp(m, double(r.ffn_hidden_size), true, 1, t);
        return t;
    }
    t.add(TensorRole::router, double(m.num_experts), double(m.hidden_size));
    add_mlp(m, double(r.moe_ffn_hidden_size), false, double(m.num_experts), t);
    if (m.num_shared_experts > 0) add_mlp(m, double(m.num_shared_experts * r.moe_ffn_hidden_size), true, 1, t);
    return t;
}

double tensor_elements(const LayerTensors& t) {
    double n = 0;
    for (int i = 0; i < t.count; ++i) n += t.items[std::size_t(i)].rows * t.items[std::size_t(i)].cols * t.items[std::size_t(i)].count;
    return n;
}

}  // namespace vramcalc::serving
