#include "core/serving/weight_formats.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/training/finetune.hpp"

namespace vramcalc::serving {
namespace {

// [GGML] ggml-common.h: QK4_0 = QK8_0 = 32, QK_K = 256; block_q4_K = 2·fp16 + 12 scales + 128 qs, …
constexpr std::array<GgmlTypeInfo, 13> ggml_types = {{
    {"F32", 1, 4},
    {"F16", 1, 2},
    {"Q8_0", 32, 34},     // fp16 d + 32 int8
    {"Q6_K", 256, 210},   // 128 ql + 64 qh + 16 scales + fp16 d
    {"Q5_K", 256, 176},   // 2 fp16 + 12 scales + 32 qh + 128 qs
    {"Q4_K", 256, 144},   // 2 fp16 + 12 scales + 128 qs
    {"Q3_K", 256, 110},   // 32 hmask + 64 qs + 12 scales + fp16 d
    {"Q2_K", 256, 84},    // 16 scales + 64 qs + 2 fp16
    {"Q4_0", 32, 18},     // fp16 d + 16 nibbles
    {"Q5_0", 32, 22},     // fp16 d + 4 qh + 16 qs
    {"Q5_1", 32, 24},     // 2 fp16 + 4 qh + 16 qs
    {"IQ4_XS", 256, 136}, // fp16 d + 2 scales_h + 4 scales_l + 128 qs
    {"IQ4_NL", 32, 18},   // fp16 d + 16 qs
}};

using F = FormatFamily;
using G = GgmlType;
using S = Fp8Scales;
constexpr std::array<WeightFormatInfo, 21> format_table = {{
    {WeightFormat::bf16, "bf16", F::dense, 2, G::f16, S::none, "Every tensor in bfloat16: 2 bytes per parameter."},
    {WeightFormat::fp16, "fp16", F::dense, 2, G::f16, S::none, "Every tensor in float16: 2 bytes per parameter."},
    {WeightFormat::fp32, "fp32", F::dense, 4, G::f32, S::none, "Every tensor in float32: 4 bytes per parameter."},
    {WeightFormat::fp8, "fp8", F::fp8, 2, G::f16, S::per_tensor,
     "Linear weights in fp8 e4m3 with one fp32 weight scale and one input scale per tensor; embeddings, LM head and router bf16."},
    {WeightFormat::fp8_channel, "fp8_channel", F::fp8, 2, G::f16, S::per_channel,
     "Linear weights in fp8 e4m3 with one fp32 scale per output channel; embeddings, LM head and router bf16."},
    {WeightFormat::fp8_block, "fp8_block", F::fp8, 2, G::f16, S::per_block,
     "Linear weights in fp8 e4m3 with one fp32 scale per 128×128 block (DeepSeek-V3); embeddings, LM head and router bf16."},
    {WeightFormat::int8, "int8", F::int8, 2, G::f16, S::none,
     "Linear weights in int8 with one fp32 scale per output row (LLM.int8, W8A8); embeddings, LM head and router 16-bit."},
    {WeightFormat::awq, "awq", F::awq, 2, G::f16, S::none,
     "AWQ int4: packed 4-bit weights, an fp16 scale and a packed 4-bit zero per group of quant_group_size inputs; embeddings, LM head, router fp16."},
    {WeightFormat::gptq, "gptq", F::gptq, 2, G::f16, S::none,
     "GPTQ int4: as AWQ plus an int32 g_idx per input feature; embeddings, LM head, router fp16."},
    {WeightFormat::nf4, "nf4", F::nf4, 2, G::f16, S::none,
     "bitsandbytes NF4 with double quantisation: 4.127 bits per linear weight; LM head and embeddings 16-bit."},
    {WeightFormat::mxfp4, "mxfp4", F::mxfp4, 2, G::f16, S::none,
     "MXFP4 (gpt-oss): routed-expert weights 4-bit in blocks of 32 with an 8-bit scale (4.25 bits); everything else bf16."},
    {WeightFormat::gguf_q8_0, "gguf-q8_0", F::gguf, 4, G::q8_0, S::none, "GGUF Q8_0: 8.5 bits per weight; norms f32."},
    {WeightFormat::gguf_q6_k, "gguf-q6_k", F::gguf, 4, G::q6_k, S::none, "GGUF Q6_K: 6.5625 bits per weight; norms f32."},
    {WeightFormat::gguf_q5_k_m, "gguf-q5_k_m", F::gguf, 4, G::q5_k, S::none,
     "GGUF Q5_K_M: Q5_K, with Q6_K for half of attn_v and ffn_down and the output."},
    {WeightFormat::gguf_q5_k_s, "gguf-q5_k_s", F::gguf, 4, G::q5_k, S::none, "GGUF Q5_K_S: Q5_K, output Q6_K."},
    {WeightFormat::gguf_q4_k_m, "gguf-q4_k_m", F::gguf, 4, G::q4_k, S::none,
     "GGUF Q4_K_M: Q4_K, with Q6_K for half of attn_v and ffn_down and the output."},
    {WeightFormat::gguf_q4_k_s, "gguf-q4_k_s", F::gguf, 4, G::q4_k, S::none,
     "GGUF Q4_K_S: Q4_K, Q5_K for the first attn_v and ffn_down layers, output Q6_K."},
    {WeightFormat::gguf_q4_0, "gguf-q4_0", F::gguf, 4, G::q4_0, S::none, "GGUF Q4_0: 4.5 bits per weight, output Q6_K."},
    {WeightFormat::gguf_q3_k_m, "gguf-q3_k_m", F::gguf, 4, G::q3_k, S::none,
     "GGUF Q3_K_M: Q3_K, with Q4_K/Q5_K for attn_v, ffn_down and attn_output."},
    {WeightFormat::gguf_q2_k, "gguf-q2_k", F::gguf, 4, G::q2_k, S::none,
     "GGUF Q2_K: Q2_K, with Q3_K/Q4_K for attn_v, ffn_down and attn_output."},
    {WeightFormat::gguf_iq4_xs, "gguf-iq4_xs", F::gguf, 4, G::iq4_xs, S::none,
     "GGUF IQ4_XS: 4.25 bits per weight, Q5_K for attn_v with GQA ≥ 4 and the first ffn_down layers."},
}};

bool is_attn_v_like(TensorRole role) { return role == TensorRole::attn_v || role == TensorRole::attn_kv_up; }
bool is_ffn_down(TensorRole role) { return role == TensorRole::ffn_down || role == TensorRole::expert_down; }

// llama-quant.cpp use_more_bits: the first and last eighth of the layers and every third between.
bool use_more_bits(std::int64_t i, std::int64_t n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }

// [QUANT] the OUTPUT branch: Q6_K unless the file is Q8_0 (or the width does not divide the block).
GgmlType gguf_output_type(GgmlType base, double cols) {
    if (std::fmod(cols, double(ggml_type_info(base).block_elements)) != 0) return G::q8_0;
    return base == G::q8_0 ? G::q8_0 : G::q6_k;
}

GgmlType gguf_attn_v_type(WeightFormat f, GgmlType t, const GgufPosition& at) {
    using W = WeightFormat;
    if (f == W::gguf_q2_k) t = at.gqa >= 4 ? G::q4_k : G::q3_k;
    else if (f == W::gguf_q3_k_m) t = at.attn_v < 2 ? G::q5_k : G::q4_k;
    else if (f == W::gguf_iq4_xs && at.gqa >= 4) t = G::q5_k;
    else if ((f == W::gguf_q4_k_m || f == W::gguf_q5_k_m) && use_more_bits(at.attn_v, at.attn_v_count)) t = G::q6_k;
    else if (f == W::gguf_q4_k_s && at.attn_v < 4) t = G::q5_k;
    if (at.is_70b && (t == G::q3_k || t == G::q4_k)) t = G::q5_k;
    if (at.experts == 8) t = G::q8_0;
    return t;
}

GgmlType gguf_ffn_down_type(WeightFormat f, GgmlType t, const GgufPosition& at) {
    using W = WeightFormat;
    const std::int64_t i = at.layer, n = at.layers;
    if (f == W::gguf_q2_k) return G::q3_k;
    if (f == W::gguf_q3_k_m) return i < n / 16 ? G::q5_k : G::q4_k;  // non-Falcon: Q4_K
    if (f == W::gguf_q4_k_m) return use_more_bits(i, n) ? G::q6_k : t;
    if (f == W::gguf_iq4_xs) return i < n / 8 ? G::q5_k : t;  // without an importance matrix
    if (f == W::gguf_q5_k_m) return use_more_bits(i, n) ? G::q6_k : t;
    if (f == W::gguf_q4_k_s) return i < n / 8 ? G::q5_k : t;
    return t;
}

GgmlType gguf_attn_output_type(WeightFormat f, GgmlType t, const GgufPosition& at) {
    using W = WeightFormat;
    if (at.experts == 8)
        return f == W::gguf_q2_k || f == W::gguf_q3_k_m || f == W::gguf_q4_k_s || f == W::gguf_q4_k_m ||
                       f == W::gguf_iq4_xs
                   ? G::q5_k
                   : t;
    if (f == W::gguf_q2_k) return G::q3_k;
    if (f == W::gguf_q3_k_m) return G::q4_k;
    return t;
}

// [QUANT] tensor_type_fallback: a width the block does not divide takes a 32-element type, else F16.
GgmlType gguf_fallback(GgmlType t, double cols) {
    auto divides = [cols](GgmlType x) { return std::fmod(cols, double(ggml_type_info(x).block_elements)) == 0; };
    if (divides(t)) return t;
    GgmlType alt = t;
    switch (t) {
        case G::iq4_xs: alt = G::iq4_nl; break;
        case G::q2_k:
        case G::q3_k: alt = G::q4_0; break;
        case G::q4_k: alt = G::q5_0; break;
        case G::q5_k: alt = G::q5_1; break;
        case G::q6_k: alt = G::q8_0; break;
        default: break;
    }
    return divides(alt) ? alt : G::f16;
}

// AWQ / GPTQ int4 [AWQ, GPTQ]: qweight K·N/2 B; per group of G inputs an fp16 scale (2 B) and a
// packed 4-bit zero (0.5 B) per output; GPTQ adds g_idx, one int32 per input.
double int4_group_bytes(const Tensor& t, std::int64_t group_size, bool g_idx) {
    const double groups = group_size > 0 ? std::ceil(t.cols / double(group_size)) : 1.0;
    double bytes = t.rows * t.cols / 2.0 + groups * t.rows * (2.0 + 0.5);
    if (g_idx) bytes += 4.0 * t.cols;
    return bytes;
}

// fp8 e4m3 [FP8]: 1 B per weight + fp32 scales.
double fp8_bytes(Fp8Scales scales, const Tensor& t) {
    const double codes = t.rows * t.cols;
    switch (scales) {
        case S::per_tensor: return codes + 8.0;  // weight_scale + input_scale
        case S::per_channel: return codes + 4.0 * t.rows;
        case S::per_block: return codes + 4.0 * std::ceil(t.rows / 128.0) * std::ceil(t.cols / 128.0);
        case S::none: break;
    }
    return codes;
}

bool is_expert(TensorRole role) {
    return role == TensorRole::expert_gate || role == TensorRole::expert_up || role == TensorRole::expert_down;
}

// What each family leaves unquantised: embeddings, the LM head and the router (every format);
// MXFP4 quantises the routed experts only.
bool quantised_by(FormatFamily family, TensorRole role) {
    if (role == TensorRole::embedding || role == TensorRole::lm_head || role == TensorRole::router) return false;
    if (family == F::mxfp4) return is_expert(role);
    return family != F::dense;
}

}  // namespace

const GgmlTypeInfo& ggml_type_info(GgmlType type) { return ggml_types[std::size_t(type)]; }

double ggml_tensor_bytes(GgmlType type, double rows, double cols) {
    const auto& info = ggml_type_info(type);
    return rows * std::ceil(cols / double(info.block_elements)) * double(info.block_bytes);
}

std::span<const WeightFormatInfo> weight_formats() { return format_table; }
const WeightFormatInfo& weight_format_info(WeightFormat format) { return format_table[std::size_t(format)]; }
bool is_gguf(WeightFormat format) { return weight_format_info(format).family == F::gguf; }

namespace {

// The recipe's type of a layer tensor before the width fallback [QUANT].
GgmlType gguf_layer_type(WeightFormat format, TensorRole role, const GgufPosition& at) {
    GgmlType t = weight_format_info(format).gguf_base;
    if (is_attn_v_like(role)) t = gguf_attn_v_type(format, t, at);
    else if (role == TensorRole::attn_k && at.experts == 8) t = G::q8_0;
    else if (is_ffn_down(role)) t = gguf_ffn_down_type(format, t, at);
    else if (role == TensorRole::attn_o) t = gguf_attn_output_type(format, t, at);
    return t;
}

}  // namespace

GgmlType gguf_tensor_type(WeightFormat format, TensorRole role, double cols, const GgufPosition& at) {
    if (role == TensorRole::router) return G::f32;  // convert_hf_to_gguf keeps ffn_gate_inp in F32
    if (role == TensorRole::lm_head) return gguf_output_type(weight_format_info(format).gguf_base, cols);
    return gguf_fallback(gguf_layer_type(format, role, at), cols);
}

double tensor_bytes(const WeightFormatInfo& f, const Tensor& t, std::int64_t group_size, GgmlType gguf_type) {
    if (f.family == F::gguf) return t.count * ggml_tensor_bytes(gguf_type, t.rows, t.cols);
    if (!quantised_by(f.family, t.role)) return t.count * t.rows * t.cols * f.dense_bytes;
    double one = 0;
    switch (f.family) {
        case F::dense: one = t.rows * t.cols * f.dense_bytes; break;
        case F::fp8: one = fp8_bytes(f.fp8_scales, t); break;
        case F::int8: one = quantized_matrix_bytes(BaseWeightFormat::int8, t.cols, t.rows); break;
        case F::awq: one = int4_group_bytes(t, group_size, false); break;
        case F::gptq: one = int4_group_bytes(t, group_size, true); break;
        case F::nf4: one = quantized_matrix_bytes(BaseWeightFormat::nf4, t.cols, t.rows); break;
        case F::mxfp4: one = t.rows * t.cols * 17.0 / 32.0; break;  // 16 B of E2M1 + 1 B E8M0 per 32 [MXFP4]
        case F::gguf: break;
    }
    return t.count * one;
}

namespace {

// Share of a tensor one tensor-parallel rank holds: K/V projections keep max(1, g/t) heads
// (vLLM QKVParallelLinear replicates KV heads when t > g); MLA down-projections and the router are
// replicated (ReplicatedLinear); everything else is split t ways.
double tp_share(TensorRole role, double t, double kv_heads) {
    if (role == TensorRole::attn_k || role == TensorRole::attn_v) return std::max(1.0, kv_heads / t) / kv_heads;
    if (role == TensorRole::attn_latent_down || role == TensorRole::router) return 1.0;
    return 1.0 / t;
}

// Tensors whose GGUF type depends on the layer (use_more_bits and the first-layers rules).
bool varies_by_layer(TensorRole role) { return is_attn_v_like(role) || is_ffn_down(role); }

// A GGUF tensor whose type depends on the layer: how many layers of the kind got each recipe type
// (the rules give one tensor at most two; four slots leave room), sized once per type after the loop.
struct VaryingTensor {
    int item = 0;  // index in LayerTensors
    std::array<GgmlType, 4> recipe{};
    std::array<double, 4> layers{};
    int known = 0;
};

// One layer kind's tensors and the bytes of those every layer of the kind stores alike (all of
// them, but GGUF's attn_v and ffn_down, whose types depend on the layer): the layer loop then adds.
struct KindCache {
    bool ready = false;
    LayerTensors tensors;
    double elements = 0;
    WeightBytes bytes;  // layers, routed_experts and their TP-rank shares of one layer
    std::array<VaryingTensor, 4> varying{};
    int varying_count = 0;
};

void add_bytes(WeightBytes& w, TensorRole role, double bytes, double rank) {
    w.layers += bytes;
    w.layers_tp_rank += rank;
    if (is_expert(role)) {
        w.routed_experts += bytes;
        w.routed_experts_tp_rank += rank;
    }
}

enum class Pick { all, constant, varying };

// Adds one layer of these tensors (those `pick` selects) to `w`; GGUF types decided at `at`.
void add_tensors(const Scenario& sc, const Layout& r, const LayerTensors& tensors, GgufPosition& at, WeightBytes& w,
                 Pick pick = Pick::all) {
    const WeightFormatInfo& f = weight_format_info(sc.inference.weight_format);
    const double t = double(std::max<std::int64_t>(1, sc.parallel.tensor));
    for (int k = 0; k < tensors.count; ++k) {
        const Tensor& x = tensors.items[std::size_t(k)];
        if (pick != Pick::all && varies_by_layer(x.role) != (pick == Pick::varying)) continue;
        GgmlType type = f.family == F::gguf ? gguf_tensor_type(f.id, x.role, x.cols, at) : G::f16;
        double bytes = tensor_bytes(f, x, sc.inference.quant_group_size, type);
        add_bytes(w, x.role, bytes, bytes * tp_share(x.role, t, double(r.kv_heads)));
        if (is_attn_v_like(x.role)) ++at.attn_v;
    }
}

// GGUF: counts one layer's layer-dependent tensors at `at` by recipe type; `w` takes a type the
// slots have no room for directly.
void count_varying(const Scenario& sc, const Layout& r, KindCache& c, GgufPosition& at, WeightBytes& w, double layers = 1) {
    const WeightFormat format = sc.inference.weight_format;
    for (int v = 0; v < c.varying_count; ++v) {
        VaryingTensor& slot = c.varying[std::size_t(v)];
        const Tensor& x = c.tensors.items[std::size_t(slot.item)];
        const GgmlType recipe = gguf_layer_type(format, x.role, at);
        int k = 0;
        while (k < slot.known && slot.recipe[std::size_t(k)] != recipe) ++k;
        if (k == slot.known && k < int(slot.recipe.size())) slot.recipe[std::size_t(slot.known++)] = recipe;
        if (k < slot.known) {
            slot.layers[std::size_t(k)] += layers;
        } else {
            const double bytes = layers * tensor_bytes(weight_format_info(format), x, 0, gguf_fallback(recipe, x.cols));
            add_bytes(w, x.role, bytes, bytes * tp_share(x.role, double(std::max<std::int64_t>(1, sc.parallel.tensor)),
                                                         double(r.kv_heads)));
        }
        if (is_attn_v_like(x.role)) ++at.attn_v;
    }
}

// Adds the counted layer-dependent tensors of a kind: each recipe type's bytes × its layers.
void add_varying(const Scenario& sc, const Layout& r, const KindCache& c, WeightBytes& w) {
    const WeightFormatInfo& f = weight_format_info(sc.inference.weight_format);
    const double t = double(std::max<std::int64_t>(1, sc.parallel.tensor));
    for (int v = 0; v < c.varying_count; ++v) {
        const VaryingTensor& slot = c.varying[std::size_t(v)];
        const Tensor& x = c.tensors.items[std::size_t(slot.item)];
        for (int k = 0; k < slot.known; ++k) {
            const double bytes = slot.layers[std::size_t(k)] * tensor_bytes(f, x, 0, gguf_fallback(slot.recipe[std::size_t(k)], x.cols));
            add_bytes(w, x.role, bytes, bytes * tp_share(x.role, t, double(r.kv_heads)));
        }
    }
}

// The kind's layer-dependent GGUF tensors (attn_v, ffn_down), at most four per layer.
void find_varying(KindCache& c) {
    for (int k = 0; k < c.tensors.count && c.varying_count < int(c.varying.size()); ++k)
        if (varies_by_layer(c.tensors.items[std::size_t(k)].role)) c.varying[std::size_t(c.varying_count++)].item = k;
}

// Lists a layer kind's tensors once and sizes those every layer of the kind stores alike.
void prepare_kind(const Scenario& sc, const Layout& r, LayerKind kind, const GgufPosition& at, KindCache& c) {
    const bool gguf = is_gguf(sc.inference.weight_format);
    c.tensors = layer_tensors(sc.model, r, kind);
    c.elements = tensor_elements(c.tensors);
    GgufPosition unused = at;
    add_tensors(sc, r, c.tensors, unused, c.bytes, gguf ? Pick::constant : Pick::all);
    if (gguf) find_varying(c);
    c.ready = true;
}

// One layer kind throughout (softmax attention, one MLP kind) with one attn_v-like tensor a layer, so
// that the attn_v index is the layer index.
bool uniform_layers(const Scenario& sc, const KindCache& c) {
    const ModelConfig& m = sc.model;
    const MixerCounts mixers = mixer_counts(m);
    const double layers = double(m.layers);
    const bool one_mixer = mixers.full == layers || mixers.window == layers;
    const bool one_mlp = m.num_experts <= 1 || m.dense_layers <= 0 || m.dense_layers >= m.layers;
    int attn_v = 0;
    for (int k = 0; k < c.tensors.count; ++k) attn_v += is_attn_v_like(c.tensors.items[std::size_t(k)].role) ? 1 : 0;
    return one_mixer && one_mlp && attn_v == 1;
}

// GGUF, uniform layers: the positions the rules tell apart change only at layers 2, 4, L/16, L/8 and
// 7L/8, and between L/8 and 7L/8 use_more_bits repeats every third layer, so in each run between
// those edges three layers stand for all (each weighted by the layers of its residue mod 3).
void count_uniform(const Scenario& sc, const Layout& r, KindCache& c, GgufPosition& at, WeightBytes& w) {
    const std::int64_t n = sc.model.layers;
    std::array<std::int64_t, 7> edges = {0, 2, 4, n / 16, n / 8, 7 * n / 8, n};
    std::sort(edges.begin(), edges.end());
    for (std::size_t e = 0; e + 1 < edges.size(); ++e) {
        const std::int64_t lo = std::clamp<std::int64_t>(edges[e], 0, n), hi = std::clamp<std::int64_t>(edges[e + 1], 0, n);
        for (std::int64_t k = 0; k < std::min<std::int64_t>(hi - lo, 3); ++k) {
            at.layer = lo + k;
            at.attn_v = lo + k;
            count_varying(sc, r, c, at, w, double((hi - lo - k - 1) / 3 + 1));
        }
    }
}

// Every layer, by kind: the kind's constant bytes × its layer count, plus GGUF's layer-dependent
// tensors counted by recipe type; returns the elements of the listed tensors.
double add_layers(const Scenario& sc, const Layout& r, GgufPosition& at, WeightBytes& w) {
    std::array<KindCache, 6> cache{};
    std::array<double, 6> layers_of_kind{};
    const bool gguf = is_gguf(sc.inference.weight_format);
    bool counted = false;
    if (gguf && sc.model.layers > 0) {  // the common case without the layer loop
        const LayerKind kind = layer_kind(sc.model, 0);
        const std::size_t k = std::size_t(int(kind.mixer) * 2 + (kind.moe ? 1 : 0));
        prepare_kind(sc, r, kind, at, cache[k]);
        if (uniform_layers(sc, cache[k])) {
            count_uniform(sc, r, cache[k], at, w);
            layers_of_kind[k] = double(sc.model.layers);
            counted = true;
        }
    }
    for (std::int64_t i = 0; !counted && i < sc.model.layers; ++i) {
        const LayerKind kind = layer_kind(sc.model, i);
        const std::size_t k = std::size_t(int(kind.mixer) * 2 + (kind.moe ? 1 : 0));
        if (!cache[k].ready) prepare_kind(sc, r, kind, at, cache[k]);
        ++layers_of_kind[k];
        if (gguf) {
            at.layer = i;
            count_varying(sc, r, cache[k], at, w);
        }
    }
    double elements = 0;
    for (std::size_t k = 0; k < cache.size(); ++k) {
        const double n = layers_of_kind[k];
        if (n == 0) continue;
        add_varying(sc, r, cache[k], w);
        const WeightBytes& b = cache[k].bytes;
        w.layers += n * b.layers;
        w.layers_tp_rank += n * b.layers_tp_rank;
        w.routed_experts += n * b.routed_experts;
        w.routed_experts_tp_rank += n * b.routed_experts_tp_rank;
        elements += n * cache[k].elements;
    }
    return elements;
}

}  // namespace

GgufPosition gguf_first_position(const ModelConfig& m, const Layout& r) {
    const MixerCounts mixers = mixer_counts(m);
    GgufPosition at;
    at.layers = m.layers;
    at.attn_v_count = std::max<std::int64_t>(1, std::int64_t(mixers.full + mixers.window));
    at.gqa = double(m.num_heads) / double(r.kv_heads);
    at.experts = m.num_experts;
    at.is_70b = m.layers == 80 && r.kv_heads < m.num_heads;  // llama.cpp: 80 layers with GQA = LLM_TYPE_70B
    return at;
}

WeightBytes weight_bytes(const Scenario& sc, const Layout& r, double total_parameters) {
    const ModelConfig& m = sc.model;
    const WeightFormatInfo& f = weight_format_info(sc.inference.weight_format);
    WeightBytes w;
    GgufPosition at = gguf_first_position(m, r);
    const double layer_elements = add_layers(sc, r, at, w);
    const double h = double(m.hidden_size), v = double(m.vocab_size);
    // [QUANT] tied models quantise token_embd as the output tensor; untied ones at the base type.
    Tensor embedding{TensorRole::embedding, v, h, 1};
    GgmlType embedding_type = m.tied_embeddings ? gguf_output_type(f.gguf_base, h) : gguf_fallback(f.gguf_base, h);
    w.embedding = tensor_bytes(f, embedding, 0, embedding_type);
    if (!m.tied_embeddings) w.lm_head = tensor_bytes(f, {TensorRole::lm_head, v, h, 1}, 0, gguf_output_type(f.gguf_base, h));
    const double listed = v * h * (m.tied_embeddings ? 1.0 : 2.0);
    w.remainder = std::max(0.0, total_parameters - listed - layer_elements) * f.dense_bytes;
    w.total = w.embedding + w.lm_head + w.layers + w.remainder;
    // inference.weight_bytes_override: the file's exact bytes (a GGUF header's Σ ggml_nbytes) replace the
    // recipe's total; each part keeps the recipe's share of it, so the GPU/host split still follows the parts
    const double exact = sc.inference.weight_bytes_override;
    if (exact > 0 && w.total > 0) {
        const double scale = exact / w.total;
        for (double* part : {&w.embedding, &w.lm_head, &w.layers, &w.routed_experts, &w.remainder, &w.layers_tp_rank,
                             &w.routed_experts_tp_rank})
            *part *= scale;
        w.total = exact;
    }
    return w;
}

}  // namespace vramcalc::serving
