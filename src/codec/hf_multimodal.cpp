// Vision-language configs: text_config unwrapping, vision tower counts, preset-shape matching.
// Module shapes from transformers' modeling files (SiglipVisionTransformer, Gemma3MultiModalProjector,
// Llama4VisionModel, Llama4MultiModalProjector, Qwen2_5_VisionTransformerPretrainedModel,
// PixtralVisionModel, Mistral3MultiModalProjector) and the config classes' defaults.
#include "codec/hf_multimodal.hpp"

#include <cmath>

#include "codec/hf_quantization.hpp"
#include "codec/scenario_json.hpp"
#include "codec/text.hpp"
#include "core/model/presets.hpp"

namespace vramcalc::codec {

using nlohmann::json;

namespace {

constexpr double max_width = 1e7;


// A positive integer key of `o` (or `fallback` when absent); nullopt when not a sane width.
std::optional<double> width(const json& o, const char* key, double fallback) {
    auto it = o.find(key);
    if (it == o.end() || it->is_null()) return fallback;
    if (!it->is_number()) return std::nullopt;
    double v = it->get<double>();
    if (!std::isfinite(v) || v != std::floor(v) || v < 1 || v > max_width) return std::nullopt;
    return v;
}

// One pre-norm ViT block with biases everywhere: q, k, v, o; fc1, fc2; two LayerNorms.
double vit_block(double h, double f) { return 4 * (h * h + h) + (h * f + f) + (f * h + h) + 4 * h; }

// SigLIP (Gemma 3's vision_config, SiglipVisionConfig defaults) and Gemma3MultiModalProjector.
std::optional<double> siglip_gemma3(const json& v, double text_hidden) {
    auto h = width(v, "hidden_size", 768), f = width(v, "intermediate_size", 3072), L = width(v, "num_hidden_layers", 12);
    auto p = width(v, "patch_size", 16), img = width(v, "image_size", 224), c = width(v, "num_channels", 3);
    if (!h || !f || !L || !p || !img || !c) return std::nullopt;
    const double patches = std::pow(std::floor(*img / *p), 2);
    double tower = *c * *p * *p * *h + *h + patches * *h + *L * vit_block(*h, *f) + 2 * *h;  // conv, positions, post-LN
    return tower + *h * text_hidden + *h;  // mm_input_projection_weight, mm_soft_emb_norm
}

// Llama4VisionModel (unfold linear, class token, positions, pre/post LN, pixel-shuffle MLP) and
// Llama4MultiModalProjector (linear_1 without bias).
std::optional<double> llama4_vision(const json& v, double text_hidden) {
    auto h = width(v, "hidden_size", 768), f = width(v, "intermediate_size", 3072), L = width(v, "num_hidden_layers", 34);
    auto p = width(v, "patch_size", 14), img = width(v, "image_size", 448), c = width(v, "num_channels", 3);
    auto in = width(v, "projector_input_dim", 4096), out = width(v, "projector_output_dim", 4096);
    auto vis_out = width(v, "vision_output_dim", 7680);
    if (!h || !f || !L || !p || !img || !c || !in || !out || !vis_out) return std::nullopt;
    const double positions = std::pow(std::floor(*img / *p), 2) + 1;
    double tower = *c * *p * *p * *h + *h + positions * *h + 4 * *h + *L * vit_block(*h, *f);
    double adapter = *f * *in + *out * *out;  // Llama4VisionMLP2 fc1, fc2 (no biases)
    return tower + adapter + *vis_out * text_hidden;
}

// Qwen2.5-VL vision transformer: Conv3d patches, RMSNorm blocks with fused qkv and a gated MLP
// (biases), the patch merger (RMSNorm, two linears over merge² patches).
std::optional<double> qwen25_vl_vision(const json& v, double text_hidden) {
    auto h = width(v, "hidden_size", 1280), f = width(v, "intermediate_size", 3420), L = width(v, "depth", 32);
    auto p = width(v, "patch_size", 14), t = width(v, "temporal_patch_size", 2);
    auto c = width(v, v.contains("in_chans") ? "in_chans" : "in_channels", 3);
    auto m = width(v, "spatial_merge_size", 2), out = width(v, "out_hidden_size", text_hidden);
    if (!h || !f || !L || !p || !t || !c || !m || !out) return std::nullopt;
    double block = 2 * *h + (3 * *h * *h + 3 * *h) + (*h * *h + *h) + 2 * (*h * *f + *f) + (*f * *h + *h);
    const double merged = *h * *m * *m;
    return *c * *t * *p * *p * *h + *L * block + *h + (merged * merged + merged) + (merged * *out + *out);
}

// PixtralVisionModel (conv without bias, ln_pre, RMSNorm blocks, gated MLP, no biases) and
// Mistral3MultiModalProjector (norm, patch merger, linear_1, linear_2).
std::optional<double> pixtral_vision(const json& config, const json& v, double text_hidden) {
    auto h = width(v, "hidden_size", 1024), f = width(v, "intermediate_size", 4096), L = width(v, "num_hidden_layers", 24);
    auto p = width(v, "patch_size", 16), c = width(v, "num_channels", 3), m = width(config, "spatial_merge_size", 2);
    if (!h || !f || !L || !p || !c || !m) return std::nullopt;
    double tower = *c * *p * *p * *h + *h + *L * (2 * *h + 4 * *h * *h + 3 * *h * *f);
    auto bias = config.find("multimodal_projector_bias");
    const double b = bias != config.end() && bias->is_boolean() && bias->get<bool>() ? 1 : 0;
    double projector = *h + *h * *m * *m * *h + (*h * text_hidden + b * text_hidden) + (text_hidden * text_hidden + b * text_hidden);
    return tower + projector;
}

std::string text_of(const json& o, const char* key) {
    auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The text families a VLM's text_config names, as this importer knows them.
std::string text_family(const std::string& outer, const json& text) {
    std::string type = text_of(text, "model_type");
    if (type == "qwen2_5_vl_text" || type == "qwen2_vl_text" || type == "qwen2_5_vl" || type == "qwen2_vl" ||
        (type.empty() && outer.starts_with("qwen2")))
        return "qwen2";
    if (!type.empty()) return type;
    if (outer == "gemma3") return "gemma3_text";
    if (outer == "llama4") return "llama4_text";
    if (outer == "mistral3") return "mistral";
    return type;
}

// The text config: text_config (VLMs) or the top level without the vision keys (Qwen2.5-VL's flat files).
json text_part(const json& config, std::string& where) {
    auto nested = config.find("text_config");
    json text;
    if (nested != config.end() && nested->is_object()) {
        text = *nested;
        where = "text_config.";
    } else {
        text = config;
        for (const char* k : {"vision_config", "vision_start_token_id", "vision_end_token_id", "vision_token_id",
                              "image_token_id", "video_token_id", "architectures"})
            text.erase(k);
        where = "";
    }
    text.erase("text_config");
    text.erase("vision_config");
    return text;
}

void note_vision(const json& config, const ImportResult& r, std::vector<std::string>& notes) {
    auto vision = config.find("vision_config");
    if (vision == config.end() || !vision->is_object()) return;
    auto count = hf_vision_parameters(config, r.scenario.model.hidden_size);
    std::string kind = text_of(*vision, "model_type");
    if (count)
        notes.push_back("vision tower and projector (vision_config" + (kind.empty() ? "" : ", " + detail::printable_key(kind)) +
                        "): " + grouped_count(*count) + " parameters, not counted: the estimate serves the text model only");
    else
        notes.push_back("vision tower (vision_config) not counted: its kind or sizes are not ones this importer derives");
}

}  // namespace

bool is_hf_multimodal(const json& config) {
    if (!config.is_object()) return false;
    auto t = config.find("text_config"), v = config.find("vision_config");
    return (t != config.end() && t->is_object()) || (v != config.end() && v->is_object());
}

std::optional<double> hf_vision_parameters(const json& config, std::int64_t text_hidden) {
    auto vision = config.find("vision_config");
    if (vision == config.end() || !vision->is_object() || text_hidden < 1) return std::nullopt;
    const std::string outer = text_of(config, "model_type"), kind = text_of(*vision, "model_type");
    const double d = double(text_hidden);
    if (kind == "siglip_vision_model" && outer == "gemma3") return siglip_gemma3(*vision, d);
    if (kind == "llama4_vision_model") return llama4_vision(*vision, d);
    if (outer == "qwen2_5_vl") return qwen25_vl_vision(*vision, d);
    if (kind == "pixtral" && outer == "mistral3") return pixtral_vision(config, *vision, d);
    return std::nullopt;
}

ImportResult import_hf_multimodal(const json& config, const Scenario& base) {
    const std::string outer = text_of(config, "model_type");
    std::string where;
    json text = text_part(config, where);
    const std::string family = text_family(outer, text);
    if (!family.empty()) text["model_type"] = family;
    const bool outer_quantization = !where.empty() && !text.contains("quantization_config") &&
                                    config.contains("quantization_config");
    if (outer_quantization) text["quantization_config"] = config["quantization_config"];
    ImportResult r = import_hf_json(text, base);
    for (auto& issue : r.issues)
        if (!(outer_quantization && issue.field.starts_with("quantization_config"))) issue.field = where + issue.field;
    if (!r.ok()) return r;
    std::vector<std::string> notes = {"vision-language model (" + detail::printable_key(outer.empty() ? "no model_type" : outer) +
                                      "): the text model (" + (where.empty() ? "top level" : "text_config") + ", " +
                                      family + ") is imported"};
    note_vision(config, r, notes);
    r.notes.insert(r.notes.begin(), notes.begin(), notes.end());
    return r;
}

namespace {

// A text config class's shape with its defaults: what the presets are matched on.
struct TextShape {
    const char* model_type;
    double layers, hidden, heads, kv_heads, head_dim, ffn, vocab, experts, positions;
    const char* ffn_key;  // Gemma 3: intermediate_size (dense); Llama 4: intermediate_size (one expert)
};
// transformers Gemma3TextConfig and Llama4TextConfig defaults.
constexpr TextShape text_shapes[] = {
    {"gemma3_text", 26, 2304, 8, 4, 256, 9216, 262208, 1, 131072, "intermediate_size"},
    {"llama4_text", 48, 5120, 40, 8, 128, 8192, 202048, 16, 131072, "intermediate_size"},
};

bool same_shape(const ModelConfig& m, const TextShape& s, const double (&got)[8]) {
    auto kv = m.num_kv_heads > 0 ? m.num_kv_heads : m.num_heads;
    auto ffn = s.experts > 1 ? m.moe_ffn_hidden_size : m.ffn_hidden_size;
    return double(m.layers) == got[0] && double(m.hidden_size) == got[1] && double(m.num_heads) == got[2] &&
           double(kv) == got[3] && double(m.head_dim) == got[4] && double(ffn) == got[5] &&
           double(m.vocab_size) == got[6] && double(m.num_experts) == got[7];
}

}  // namespace

bool import_hf_by_preset_shape(const json& config, ImportResult& r) {
    const std::string type = text_of(config, "model_type");
    const TextShape* shape = nullptr;
    for (const auto& s : text_shapes)
        if (type == s.model_type) shape = &s;
    if (!shape) return false;
    const char* keys[8] = {"num_hidden_layers", "hidden_size", "num_attention_heads", "num_key_value_heads",
                           "head_dim", shape->ffn_key, "vocab_size", "num_local_experts"};
    const double fallback[8] = {shape->layers, shape->hidden, shape->heads, shape->kv_heads, shape->head_dim,
                                shape->ffn, shape->vocab, shape->experts};
    double got[8];
    for (int i = 0; i < 8; ++i) {
        auto v = width(config, keys[i], fallback[i]);
        if (!v) {
            r.issues.push_back({keys[i], "must be a positive integer up to 10,000,000 (got " + describe_json(config[keys[i]]) + ")"});
            return true;
        }
        got[i] = *v;
    }
    auto positions = width(config, "max_position_embeddings", shape->positions);
    for (const auto& preset : model_presets()) {
        if (!same_shape(preset.model, *shape, got)) continue;
        r.scenario.model = preset.model;
        if (positions) r.scenario.model.max_position_embeddings = std::int64_t(*positions);
        r.family = type;
        r.notes.push_back(type + " has no field-by-field mapping here; its shape is the preset " + preset.id + " (" +
                          preset.model.name + "), whose architecture (window pattern, norms, experts) is used");
        return true;
    }
    r.issues.push_back({"model_type", "\"" + type + "\" is read by matching a model preset, and no preset has this shape (" +
                                          grouped_count(got[0]) + " layers, hidden_size " + grouped_count(got[1]) +
                                          "); set the model fields by hand"});
    return true;
}

}  // namespace vramcalc::codec
