// .gguf header → serving scenario. Metadata keys: llama.cpp src/llama-arch.cpp LLM_KV_NAMES
// ("%s.block_count", "%s.attention.head_count_kv", …); tensor names: LLM_TENSOR_NAMES
// ("token_embd", "output", "blk.%d.ffn_gate", …); general.file_type: llama.h enum llama_ftype.
#include "codec/import_gguf.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "codec/text.hpp"
#include "core/estimate.hpp"
#include "core/fields.hpp"

namespace vramcalc::codec {

namespace {

using W = WeightFormat;

// llama_ftype → the weight format whose recipe wrote it; ftypes without one fall back to the
// dominant tensor type below.
std::optional<WeightFormat> format_of_file_type(double ftype) {
    if (!(ftype >= 0 && ftype <= 255) || ftype != std::floor(ftype)) return std::nullopt;  // llama_ftype ids are < 256
    switch (int(ftype)) {
        case 0: return W::fp32;
        case 1: return W::fp16;
        case 2: return W::gguf_q4_0;
        case 7: return W::gguf_q8_0;
        case 10: return W::gguf_q2_k;
        case 12: return W::gguf_q3_k_m;
        case 14: return W::gguf_q4_k_s;
        case 15: return W::gguf_q4_k_m;
        case 16: return W::gguf_q5_k_s;
        case 17: return W::gguf_q5_k_m;
        case 18: return W::gguf_q6_k;
        case 30: return W::gguf_iq4_xs;
        case 32: return W::bf16;
        default: return std::nullopt;
    }
}

std::optional<WeightFormat> format_of_type(const std::string& type) {
    static const std::map<std::string, WeightFormat> by_type = {
        {"F32", W::fp32},          {"F16", W::fp16},          {"BF16", W::bf16},       {"Q8_0", W::gguf_q8_0},
        {"Q6_K", W::gguf_q6_k},    {"Q5_K", W::gguf_q5_k_m},  {"Q4_K", W::gguf_q4_k_m}, {"Q4_0", W::gguf_q4_0},
        {"Q3_K", W::gguf_q3_k_m},  {"Q2_K", W::gguf_q2_k},    {"IQ4_XS", W::gguf_iq4_xs},
    };
    auto it = by_type.find(type);
    return it == by_type.end() ? std::nullopt : std::optional(it->second);
}

// Architectures whose windowed layers alternate with global ones: every N-th layer global
// (llama.cpp llama-model.cpp: gemma2 / gpt-oss 2, gemma3 6, cohere2 4, llama4 4 via n_attn_chunk).
std::int64_t global_interval(const std::string& arch) {
    if (arch == "gemma2" || arch == "gpt-oss") return 2;
    if (arch == "gemma3") return 6;
    if (arch == "cohere2" || arch == "llama4") return 4;
    return 0;
}

struct Meta {
    const GgufHeader& h;
    const std::string arch;
    GgufImport& out;

    const GgufValue* find(const std::string& key) const {
        auto it = h.metadata.find(key);
        return it == h.metadata.end() ? nullptr : &it->second;
    }
    // <arch>.<suffix> as a positive integer (a per-layer array: its largest item, with a note).
    std::optional<std::int64_t> count(const std::string& suffix, bool required, std::int64_t min = 1) {
        const std::string key = arch + "." + suffix;
        const GgufValue* v = find(key);
        if (!v) {
            if (required) out.result.issues.push_back({key, "is missing (required to describe the model)"});
            return std::nullopt;
        }
        double d = 0;
        if (v->kind == GgufValue::Kind::array && !v->array_numbers.empty()) {
            d = *std::max_element(v->array_numbers.begin(), v->array_numbers.end());
            out.result.notes.push_back("approximate: " + key + " differs by layer; its largest value " +
                                       std::to_string(std::int64_t(d)) + " is used for every layer");
        } else if (!v->number(d)) {
            out.result.issues.push_back({key, "must be a number"});
            return std::nullopt;
        }
        if (d != std::floor(d) || d < double(min) || d > 1e7) {
            out.result.issues.push_back({key, "must be an integer from " + std::to_string(min) + " to 10,000,000 (got " +
                                                  std::to_string(d) + ")"});
            return std::nullopt;
        }
        return std::int64_t(d);
    }
    bool has_tensor(std::string_view name) const {
        return std::any_of(h.tensors.begin(), h.tensors.end(), [&](const GgufTensor& t) { return t.name == name; });
    }
    bool any_tensor_contains(std::string_view part) const {
        return std::any_of(h.tensors.begin(), h.tensors.end(),
                           [&](const GgufTensor& t) { return t.name.find(part) != std::string::npos; });
    }
    const GgufTensor* tensor(std::string_view name) const {
        for (const auto& t : h.tensors)
            if (t.name == name) return &t;
        return nullptr;
    }
};

void read_attention(Meta& in, ModelConfig& m) {
    if (auto g = in.count("attention.head_count_kv", false)) m.num_kv_heads = *g;
    auto key = in.count("attention.key_length", false), value = in.count("attention.value_length", false);
    if (auto rank = in.count("attention.kv_lora_rank", false)) {  // MLA (deepseek2): key = nope + rope
        m.kv_lora_rank = *rank;
        m.q_lora_rank = in.count("attention.q_lora_rank", false).value_or(0);
        m.qk_rope_head_dim = in.count("rope.dimension_count", false).value_or(64);
        if (key) m.qk_nope_head_dim = std::max<std::int64_t>(0, *key - m.qk_rope_head_dim);
        if (value) m.v_head_dim = *value;
    } else if (key) {
        m.head_dim = *key;
        if (value && *value != *key) m.v_head_dim = *value;
    }
    if (auto w = in.count("attention.sliding_window", false)) {
        m.sliding_window = *w;
        m.global_attention_interval = global_interval(in.arch);
    }
    m.qk_norm = in.has_tensor("blk.0.attn_q_norm.weight");
    m.attention_sinks = in.has_tensor("blk.0.attn_sinks.weight");
    m.qkv_bias = in.has_tensor("blk.0.attn_q.bias") || in.has_tensor("blk.0.attn_qkv.bias");
}

void read_experts(Meta& in, ModelConfig& m) {
    auto experts = in.count("expert_count", false, 0);
    if (!experts || *experts <= 1) return;
    m.num_experts = *experts;
    m.experts_per_token = in.count("expert_used_count", true).value_or(1);
    m.moe_ffn_hidden_size = in.count("expert_feed_forward_length", false).value_or(0);
    m.num_shared_experts = in.count("expert_shared_count", false, 0).value_or(0);
    m.dense_layers = in.count("leading_dense_block_count", false, 0).value_or(0);
    m.router_bias = in.has_tensor("blk.0.ffn_gate_inp.bias") || in.has_tensor("blk.0.exp_probs_b.bias") ||
                    in.any_tensor_contains("exp_probs_b");
}

// The vocabulary: <arch>.vocab_size, else tokenizer.ggml.tokens' length, else token_embd's rows.
std::optional<std::int64_t> vocabulary(Meta& in) {
    if (auto v = in.count("vocab_size", false)) return v;
    if (const GgufValue* t = in.find("tokenizer.ggml.tokens"); t && t->kind == GgufValue::Kind::array && t->array_length > 0)
        return std::int64_t(t->array_length);
    if (const GgufTensor* e = in.tensor("token_embd.weight"); e && e->dims.size() == 2) return std::int64_t(e->dims[1]);
    in.out.result.issues.push_back({"tokenizer.ggml.tokens", "is missing, and so are " + in.arch +
                                                                 ".vocab_size and token_embd.weight: the vocabulary size is unknown"});
    return std::nullopt;
}

ModelConfig read_model(Meta& in) {
    ModelConfig m;
    m.num_kv_heads = m.head_dim = m.ffn_hidden_size = 0;
    m.params_override = 0;
    const GgufValue* name = in.find("general.name");
    m.name = excerpt(name && name->kind == GgufValue::Kind::string ? name->s : in.arch, 80) + " (GGUF)";
    m.layers = in.count("block_count", true).value_or(1);
    m.hidden_size = in.count("embedding_length", true).value_or(1);
    m.num_heads = in.count("attention.head_count", true).value_or(1);
    m.ffn_hidden_size = in.count("feed_forward_length", false).value_or(0);
    m.max_position_embeddings = in.count("context_length", false).value_or(2048);
    m.vocab_size = vocabulary(in).value_or(1);
    read_attention(in, m);
    read_experts(in, m);
    m.tied_embeddings = !in.has_tensor("output.weight");
    m.mlp = in.any_tensor_contains("ffn_gate") ? MlpKind::swiglu : MlpKind::gelu;
    m.norm = in.find(in.arch + ".attention.layer_norm_rms_epsilon") ? NormKind::rmsnorm : NormKind::layernorm;
    m.position_embedding = in.has_tensor("position_embd.weight") ? PositionEmbedding::learned : PositionEmbedding::rope;
    m.bias = in.has_tensor("blk.0.ffn_down.bias");
    if (m.bias) m.qkv_bias = false;
    m.norms_per_layer = 2 + (in.has_tensor("blk.0.post_attention_norm.weight") ? 1 : 0) +
                        (in.has_tensor("blk.0.post_ffw_norm.weight") ? 1 : 0);
    return m;
}

void summarise_tensors(const GgufHeader& h, GgufImport& out) {
    std::map<std::string, GgufTypeShare> by;
    for (const auto& t : h.tensors) {
        auto& s = by[ggml_type_by_id(t.type)->name];
        s.type = ggml_type_by_id(t.type)->name;
        ++s.tensors;
        s.elements += t.elements;
        s.bytes += t.bytes;
        out.parameters += t.elements;
        out.tensor_bytes += t.bytes;
    }
    for (auto& [_, s] : by) out.types.push_back(s);
    std::sort(out.types.begin(), out.types.end(), [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
}


void choose_format(const GgufHeader& h, GgufImport& out) {
    auto& inf = out.result.scenario.inference;
    auto it = h.metadata.find("general.file_type");
    double ftype = -1;
    std::optional<WeightFormat> f;
    if (it != h.metadata.end() && it->second.number(ftype)) f = format_of_file_type(ftype);
    if (!f && !out.types.empty()) {
        f = format_of_type(out.types.front().type);
        out.result.notes.push_back("approximate: general.file_type " + (it != h.metadata.end() ? grouped_count(ftype) : "absent") +
                                   " has no recipe here; the format of the largest tensor type (" + out.types.front().type +
                                   ") is used");
    }
    if (!f) {
        out.result.issues.push_back({"general.file_type", "names no weight format modelled here, nor does the largest tensor type (" +
                                                              (out.types.empty() ? std::string("no tensors") : out.types.front().type) + ")"});
        return;
    }
    inf.weight_format = *f;
    inf.engine = Engine::llamacpp;
    out.result.scenario.workload = Workload::inference;
    const auto& m = out.result.scenario.model;
    if (m.position_embedding == PositionEmbedding::learned && inf.context_len > m.max_position_embeddings) {
        inf.context_len = m.max_position_embeddings;  // learned positions: the context cannot be longer
        out.result.notes.push_back("inference.context_len lowered to the model's " + std::to_string(inf.context_len) +
                                   " learned positions");
    }
}

void note_mix(GgufImport& out) {
    std::string mix;
    for (const auto& s : out.types)
        mix += (mix.empty() ? "" : ", ") + s.type + " " + std::to_string(s.tensors) + " tensors " + grouped_count(s.bytes) + " B";
    out.result.notes.push_back("tensor data " + grouped_count(out.tensor_bytes) + " bytes exactly, " + grouped_count(out.parameters) +
                               " parameters in " + std::to_string(out.tensor_count) + " tensors (" + mix + ")");
    Scenario by_recipe = out.result.scenario;
    by_recipe.inference.weight_bytes_override = 0;
    Evaluation ev = evaluate(by_recipe);
    if (!ev.ok() || out.tensor_bytes <= 0) return;
    const double estimated = ev.estimate.inference.weights_total_bytes;
    const char* format = weight_format_names()[std::size_t(out.result.scenario.inference.weight_format)];
    char percent[32];
    std::snprintf(percent, sizeof percent, "%+.1f", (estimated / out.tensor_bytes - 1) * 100);
    out.result.notes.push_back(std::string("the weights are the file's tensor bytes (inference.weight_bytes_override); the ") +
                               format + " recipe would count " + grouped_count(estimated) + " bytes, " + percent + " % from them");
}

// The file's exact tensor bytes drive the weights (inference.weight_bytes_override); a total the
// estimate cannot hold (F64/I64 tensors of an absurd file) is an import error naming the field.
void use_file_bytes(GgufImport& out) {
    Scenario check = out.result.scenario;
    check.inference.weight_bytes_override = out.tensor_bytes;
    for (const auto& problem : validate(check))
        if (problem.field == "inference.weight_bytes_override")
            out.result.issues.push_back({"gguf", "the tensors hold " + grouped_count(out.tensor_bytes) + " bytes, so " +
                                                     problem.field + " " + problem.message});
    if (out.result.ok()) out.result.scenario.inference.weight_bytes_override = out.tensor_bytes;
}

}  // namespace

GgufImport import_gguf(std::span<const std::uint8_t> bytes, const Scenario& base) {
    GgufImport out;
    out.result.scenario = base;
    GgufHeader h = parse_gguf_header(bytes);
    out.version = h.version;
    out.incomplete = h.incomplete;
    if (h.incomplete) {
        out.result.issues.push_back({"gguf", "the header continues past the " + grouped_count(double(bytes.size())) +
                                                 " bytes read (a header is at most " + grouped_count(double(gguf_second_read)) + " bytes here)"});
        return out;
    }
    if (!h.error.empty()) return out.result.issues.push_back({"gguf", h.error}), out;
    out.header_bytes = h.header_bytes;
    out.tensor_count = h.tensors.size();
    auto arch = h.metadata.find("general.architecture");
    if (arch == h.metadata.end() || arch->second.kind != GgufValue::Kind::string || arch->second.s.empty())
        return out.result.issues.push_back({"general.architecture", "is missing (every GGUF model names its architecture)"}), out;
    if (printable(arch->second.s, 40) != arch->second.s)
        return out.result.issues.push_back({"general.architecture", "must be a short printable name such as \"llama\" (got \"" +
                                                                        excerpt(arch->second.s, 40) + "\")"}), out;
    out.result.family = arch->second.s;
    Meta in{h, arch->second.s, out};
    ModelConfig m = read_model(in);
    if (!out.result.ok()) return out;
    summarise_tensors(h, out);
    if (h.tensors.empty()) return out.result.issues.push_back({"gguf", "the header lists no tensors: there are no weights to serve"}), out;
    out.result.scenario.model = m;
    Scenario check = out.result.scenario;
    for (const auto& problem : validate(check))
        if (problem.field.starts_with("model."))
            out.result.issues.push_back({in.arch + " metadata", "sets " + problem.field + ", which " + problem.message});
    if (!out.result.ok()) return out;
    const double counted = estimate(check).parameters.total;
    if (counted != out.parameters) {
        out.result.scenario.model.params_override = out.parameters;
        check.model.params_override = out.parameters;  // the file's count must be one the estimate covers
        for (const auto& problem : validate(check))
            if (problem.field == "model.params_override")
                out.result.issues.push_back({"gguf", "the tensors hold " + grouped_count(out.parameters) + " parameters, so " +
                                                         problem.field + " " + problem.message});
        if (!out.result.ok()) return out;
        out.result.notes.push_back("the architecture as read counts " + grouped_count(counted) + " parameters, the file holds " +
                                   grouped_count(out.parameters) + ": the file's count is used (model.params_override)");
    }
    choose_format(h, out);
    if (!out.result.ok()) return out;
    use_file_bytes(out);
    if (!out.result.ok()) return out;
    out.result.notes.push_back(std::string("GGUF v") + std::to_string(h.version) + ", " + out.result.family +
                               ": workload inference, engine llamacpp, weight format " +
                               weight_format_names()[std::size_t(out.result.scenario.inference.weight_format)]);
    note_mix(out);
    return out;
}

}  // namespace vramcalc::codec
