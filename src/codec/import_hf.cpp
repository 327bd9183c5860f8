// Hugging Face config.json → Scenario.model. Mapping tables and reasons: docs/imports.md.
#include "import_hf.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>

#include "codec/hf_multimodal.hpp"
#include "codec/hf_quantization.hpp"
#include "codec/scenario_json.hpp"
#include "codec/text.hpp"
#include "core/model/presets.hpp"

namespace vramcalc::codec {

using nlohmann::json;

// ───────────────────────── shared helpers ─────────────────────────
namespace detail {

std::string printable_key(std::string_view key) { return excerpt(key, 60); }

}  // namespace detail

namespace {

constexpr double max_exact_integer = 9007199254740992.0;  // 2^53

enum class BiasStyle {
    none,   // no biases (Mistral, Mixtral)
    llama,  // attention_bias (q, k, v, o) and mlp_bias (gate, up, down), both default false
    qwen2,  // q, k, v biases always; o and MLP none
    gpt2,   // every linear layer
    neox,   // attention_bias (q, k, v, dense) default true; MLP biases always
    gemma,  // attention_bias (q, k, v, o) default false; MLP none
};

// One supported family: its HF names and the architecture defaults of its HF config class.
struct Family {
    const char* model_type;
    const char* display;
    const char* architectures[2];
    MlpKind mlp;
    NormKind norm;
    PositionEmbedding position;
    bool tied_default;               // PretrainedConfig default of tie_word_embeddings for the class
    std::int64_t positions_default;  // class default of max_position_embeddings
    BiasStyle bias;
    bool gpt2_names;                 // n_layer / n_embd / n_head / n_positions / n_inner
    bool kv_heads;                   // reads num_key_value_heads
    bool head_dim;                   // reads head_dim
    bool moe;                        // reads num_local_experts / num_experts_per_tok
};

using MK = MlpKind;
using NK = NormKind;
using PE = PositionEmbedding;

// Defaults from transformers' LlamaConfig, MistralConfig, MixtralConfig, Qwen2Config, GPT2Config,
// GPTNeoXConfig, GemmaConfig.
constexpr Family families[] = {
    {"llama", "Llama", {"LlamaForCausalLM", "LLaMAForCausalLM"}, MK::swiglu, NK::rmsnorm, PE::rope, false, 2048,
     BiasStyle::llama, false, true, true, false},
    {"mistral", "Mistral", {"MistralForCausalLM", nullptr}, MK::swiglu, NK::rmsnorm, PE::rope, false, 4096 * 32,
     BiasStyle::none, false, true, true, false},
    {"mixtral", "Mixtral", {"MixtralForCausalLM", nullptr}, MK::swiglu, NK::rmsnorm, PE::rope, false, 4096 * 32,
     BiasStyle::none, false, true, true, true},
    {"qwen2", "Qwen2", {"Qwen2ForCausalLM", nullptr}, MK::swiglu, NK::rmsnorm, PE::rope, false, 32768,
     BiasStyle::qwen2, false, true, true, false},
    {"gpt2", "GPT-2", {"GPT2LMHeadModel", nullptr}, MK::gelu, NK::layernorm, PE::learned, true, 1024,
     BiasStyle::gpt2, true, false, false, false},
    {"gpt_neox", "GPT-NeoX", {"GPTNeoXForCausalLM", nullptr}, MK::gelu, NK::layernorm, PE::rope, false, 2048,
     BiasStyle::neox, false, false, false, false},
    {"gemma", "Gemma", {"GemmaForCausalLM", nullptr}, MK::swiglu, NK::rmsnorm, PE::rope, true, 8192,
     BiasStyle::gemma, false, true, true, false},
};

// Keys that describe the file, not the model.
constexpr const char* metadata_keys[] = {
    "architectures", "_name_or_path", "transformers_version", "torch_dtype", "dtype", "auto_map", "_commit_hash",
    "task_specific_params", "id2label", "label2id", "tokenizer_class", "finetuning_task", "problem_type", "prefix",
};

// Keys that change neither parameter count, nor memory, nor FLOPs as this estimator models them.
constexpr const char* no_effect_keys[] = {
    "bos_token_id", "eos_token_id", "pad_token_id", "sep_token_id", "decoder_start_token_id",
    "initializer_range", "rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon",
    "use_cache", "rope_theta", "rope_scaling", "rotary_pct", "rotary_emb_base", "use_parallel_residual",
    "classifier_dropout",
    "summary_activation", "summary_first_dropout", "summary_proj_to_labels", "summary_type", "summary_use_proj",
    "scale_attn_weights", "scale_attn_by_inverse_layer_idx", "reorder_and_upcast_attn", "n_ctx",
    "pretraining_tp", "output_router_logits", "router_aux_loss_coef", "router_jitter_noise",
    "return_dict", "output_attentions", "output_hidden_states", "torchscript", "is_decoder", "is_encoder_decoder",
    "use_mrope", "max_window_layers",
};

bool listed(std::string_view key, std::span<const char* const> list) {
    return std::any_of(list.begin(), list.end(), [&](const char* k) { return key == k; });
}

const Family* family_by_model_type(std::string_view type) {
    for (const auto& f : families)
        if (type == f.model_type) return &f;
    return nullptr;
}

const Family* family_by_architecture(std::string_view arch) {
    for (const auto& f : families)
        for (const char* a : f.architectures)
            if (a && arch == a) return &f;
    return nullptr;
}

std::string supported_list() {
    std::string out;
    for (const auto& f : families) out += (out.empty() ? "" : ", ") + std::string(f.model_type);
    return out;
}

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
    return out;
}

// Reads typed values from the top-level object, remembering which keys were consumed and which
// scenario field each HF key set (so validation problems can name the HF key).
struct Reader {
    const json& config;
    ImportResult& result;
    std::vector<std::string> consumed;
    std::map<std::string, std::string> source_of;  // scenario path → HF key

    void issue(const std::string& key, std::string message) { result.issues.push_back({key, std::move(message)}); }

    // The value of the first present (non-null) key among `keys`; also checks that aliases agree.
    const json* find(std::initializer_list<const char*> keys, std::string& used_key) {
        const json* found = nullptr;
        for (const char* k : keys) {
            auto it = config.find(k);
            if (it == config.end()) continue;
            consumed.emplace_back(k);
            if (it->is_null()) continue;
            if (!found) {
                found = &*it;
                used_key = k;
            } else if (*it != *found) {
                issue(k, "disagrees with " + used_key + " (" + describe_json(*it) + " vs " +
                             describe_json(*found) + "); they name the same setting");
            }
        }
        return found;
    }

    // An integer ≥ min (JSON integer, or a float with an integral value). nullopt when absent
    // (reported if required) or invalid (reported).
    std::optional<std::int64_t> integer(std::initializer_list<const char*> keys, std::int64_t min, const char* path,
                                        const char* meaning) {
        std::string key = *keys.begin();
        const json* v = find(keys, key);
        if (!v) {
            if (meaning) issue(key, std::string("is missing (required: ") + meaning + ")");
            return std::nullopt;
        }
        double value = 0;
        if (v->is_number_integer()) {
            if (v->is_number_unsigned()) {
                auto u = v->get<std::uint64_t>();
                value = u > std::uint64_t(max_exact_integer) ? 2 * max_exact_integer : double(u);
            } else {
                value = double(v->get<std::int64_t>());
            }
        } else if (v->is_number_float()) {
            value = v->get<double>();
            if (!std::isfinite(value) || value != std::floor(value)) {
                issue(key, "must be an integer (got " + describe_json(*v) + ")");
                return std::nullopt;
            }
        } else {
            issue(key, "must be an integer (got " + describe_json(*v) + ")");
            return std::nullopt;
        }
        if (value < double(min) || value > max_exact_integer) {
            // Above 2^53 a double no longer holds every integer, so the value could not be kept exactly.
            issue(key, "must be an integer from " + std::to_string(min) + " to 2^53 = " +
                           std::to_string(std::int64_t(max_exact_integer)) + " (got " + describe_json(*v) + ")");
            return std::nullopt;
        }
        if (path) source_of[path] = key;
        return static_cast<std::int64_t>(value);
    }

    std::optional<bool> boolean(const char* key, const char* path) {
        std::string used = key;
        const json* v = find({key}, used);
        if (!v) return std::nullopt;
        if (!v->is_boolean()) {
            issue(key, "must be true or false (got " + describe_json(*v) + ")");
            return std::nullopt;
        }
        if (path) source_of[path] = key;
        return v->get<bool>();
    }
};

// The model fields two configs must share for the same parameter count, memory and FLOPs.
bool same_architecture(const ModelConfig& a, const ModelConfig& b) {
    auto kv = [](const ModelConfig& m) { return m.num_kv_heads > 0 ? m.num_kv_heads : m.num_heads; };
    auto hd = [](const ModelConfig& m) { return m.head_dim > 0 ? m.head_dim : m.hidden_size / m.num_heads; };
    auto ffn = [](const ModelConfig& m) { return m.ffn_hidden_size > 0 ? m.ffn_hidden_size : 4 * m.hidden_size; };
    return a.layers == b.layers && a.hidden_size == b.hidden_size && a.num_heads == b.num_heads && kv(a) == kv(b) &&
           hd(a) == hd(b) && ffn(a) == ffn(b) && a.vocab_size == b.vocab_size && a.mlp == b.mlp && a.norm == b.norm &&
           a.bias == b.bias && a.qkv_bias == b.qkv_bias && a.tied_embeddings == b.tied_embeddings &&
           a.position_embedding == b.position_embedding && a.max_position_embeddings == b.max_position_embeddings &&
           a.num_experts == b.num_experts && a.experts_per_token == b.experts_per_token &&
           a.params_override == b.params_override && a.activation == b.activation;
}

const Family* detect_family(const json& config, ImportResult& r) {
    const Family* from_arch = nullptr;
    std::string arch_name;
    if (auto a = config.find("architectures"); a != config.end() && a->is_array()) {
        for (const auto& item : *a) {
            if (!item.is_string()) continue;
            if (arch_name.empty()) arch_name = item.get<std::string>();
            if ((from_arch = family_by_architecture(item.get_ref<const std::string&>()))) {
                arch_name = item.get<std::string>();
                break;
            }
        }
    }
    auto mt = config.find("model_type");
    if (mt != config.end() && !mt->is_null()) {
        if (!mt->is_string()) {
            r.issues.push_back({"model_type", "must be a string such as \"llama\" (got " + describe_json(*mt) + ")"});
            return nullptr;
        }
        const Family* f = family_by_model_type(mt->get_ref<const std::string&>());
        if (!f) {
            r.issues.push_back({"model_type", "\"" + detail::printable_key(mt->get_ref<const std::string&>()) +
                                                  "\" is not a supported family (supported: " + supported_list() +
                                                  "); set the model fields by hand"});
            return nullptr;
        }
        if (from_arch && from_arch != f)
            r.notes.push_back("architectures names " + detail::printable_key(arch_name) + " but model_type is \"" +
                              f->model_type + "\"; model_type decides");
        return f;
    }
    if (from_arch) {
        r.notes.push_back(std::string("model_type is missing; family taken from architectures (") +
                          detail::printable_key(arch_name) + ")");
        return from_arch;
    }
    r.issues.push_back({"model_type", "is missing and architectures names no supported family (supported: " +
                                          supported_list() + ")"});
    return nullptr;
}

// The checkpoint's storage format from quantization_config (when the model itself imported).
ImportResult& with_quantization(const json& config, ImportResult& r) {
    auto q = config.find("quantization_config");
    if (r.ok() && q != config.end() && !q->is_null()) import_hf_quantization(*q, r);
    return r;
}

// Layers, width, heads, vocabulary, MLP width, KV heads, head_dim, positions, tied embeddings, experts.
void read_shape(Reader& in, const Family* fam, ModelConfig& m) {
    ImportResult& r = in.result;
    const bool g2 = fam->gpt2_names;
    auto layers = g2 ? in.integer({"n_layer", "num_hidden_layers"}, 1, "model.layers", "number of transformer layers")
                     : in.integer({"num_hidden_layers"}, 1, "model.layers", "number of transformer layers");
    auto hidden = g2 ? in.integer({"n_embd", "hidden_size"}, 1, "model.hidden_size", "model width")
                     : in.integer({"hidden_size"}, 1, "model.hidden_size", "model width");
    auto heads = g2 ? in.integer({"n_head", "num_attention_heads"}, 1, "model.num_heads", "attention heads")
                    : in.integer({"num_attention_heads"}, 1, "model.num_heads", "attention heads");
    auto vocab = in.integer({"vocab_size"}, 1, "model.vocab_size", "vocabulary size");
    if (layers) m.layers = *layers;
    if (hidden) m.hidden_size = *hidden;
    if (heads) m.num_heads = *heads;
    if (vocab) m.vocab_size = *vocab;

    if (g2) {
        // n_inner: null or absent = 4·n_embd (GPT2Config).
        if (auto f = in.integer({"n_inner"}, 1, "model.ffn_hidden_size", nullptr)) m.ffn_hidden_size = *f;
    } else if (auto f = in.integer({"intermediate_size"}, 1, "model.ffn_hidden_size", "MLP inner width")) {
        m.ffn_hidden_size = *f;
    }

    if (fam->kv_heads) {
        // Absent or null: multi-head attention (num_key_value_heads = num_attention_heads).
        if (auto g = in.integer({"num_key_value_heads"}, 1, "model.num_kv_heads", nullptr)) m.num_kv_heads = *g;
    }
    if (fam->head_dim) {
        // Absent or null: hidden_size / num_attention_heads.
        if (auto d = in.integer({"head_dim"}, 1, "model.head_dim", nullptr)) m.head_dim = *d;
    }

    auto positions = g2 ? in.integer({"n_positions", "max_position_embeddings"}, 1, "model.max_position_embeddings", nullptr)
                        : in.integer({"max_position_embeddings"}, 1, "model.max_position_embeddings", nullptr);
    m.max_position_embeddings = positions.value_or(fam->positions_default);
    if (!positions && r.issues.empty())
        r.notes.push_back(std::string(g2 ? "n_positions" : "max_position_embeddings") + " not given: using the " +
                          fam->display + " default " + std::to_string(fam->positions_default));

    auto tied = in.boolean("tie_word_embeddings", "model.tied_embeddings");
    m.tied_embeddings = tied.value_or(fam->tied_default);

    if (fam->moe) {
        auto experts = in.integer({"num_local_experts"}, 1, "model.num_experts", nullptr);
        auto per_token = in.integer({"num_experts_per_tok"}, 1, "model.experts_per_token", nullptr);
        m.num_experts = experts.value_or(8);  // MixtralConfig defaults
        m.experts_per_token = per_token.value_or(2);
        if (!experts) r.notes.push_back("num_local_experts not given: using the Mixtral default 8");
        if (!per_token) r.notes.push_back("num_experts_per_tok not given: using the Mixtral default 2");
    }
}

// Biases by the family's style: the scenario has `bias` (every linear layer) and `qkv_bias` (Q, K, V only).
void read_biases(Reader& in, const Family* fam, ModelConfig& m) {
    ImportResult& r = in.result;
    std::int64_t h = m.hidden_size, L = m.layers;
    switch (fam->bias) {
        case BiasStyle::none: m.bias = false; m.qkv_bias = false; break;
        case BiasStyle::qwen2: m.bias = false; m.qkv_bias = true; break;
        case BiasStyle::gpt2: m.bias = true; m.qkv_bias = false; break;
        case BiasStyle::llama: {
            bool attention = in.boolean("attention_bias", "model.bias").value_or(false);
            bool mlp = in.boolean("mlp_bias", "model.bias").value_or(false);
            m.bias = attention && mlp;
            m.qkv_bias = attention && !mlp;
            if (attention && !mlp)
                r.notes.push_back("approximate: attention_bias without mlp_bias is counted as Q/K/V biases only; the "
                                  "o_proj bias (hidden_size per layer, " + std::to_string(L) + " × " +
                                  std::to_string(h) + " parameters in all) is not counted");
            if (mlp && !attention)
                r.notes.push_back("approximate: mlp_bias without attention_bias is not representable; the MLP biases "
                                  "(2·intermediate_size + hidden_size per layer and expert) are not counted");
            break;
        }
        case BiasStyle::gemma: {
            bool attention = in.boolean("attention_bias", "model.qkv_bias").value_or(false);
            m.bias = false;
            m.qkv_bias = attention;
            if (attention)
                r.notes.push_back("approximate: attention_bias is counted as Q/K/V biases only; the o_proj bias "
                                  "(hidden_size per layer, " + std::to_string(L) + " × " + std::to_string(h) +
                                  " parameters in all) is not counted");
            break;
        }
        case BiasStyle::neox: {
            bool attention = in.boolean("attention_bias", "model.bias").value_or(true);
            m.bias = attention;
            m.qkv_bias = false;
            if (!attention)
                r.notes.push_back("approximate: attention_bias false with GPT-NeoX's always-biased MLP is not "
                                  "representable; the MLP biases (intermediate_size + hidden_size per layer) are not counted");
            break;
        }
    }
}

// model.activation as implemented: only GPT-2's Python "gelu_new" keeps more than one tensor per
// activation in eager mode; every single-kernel activation (gelu, gelu_pytorch_tanh, silu, relu)
// is the MLP's usual one ("auto").
void read_activation(Reader& in, ModelConfig& m) {
    std::string key = "activation_function";
    const json* act = in.find({"activation_function", "hidden_act", "hidden_activation"}, key);
    if (act && !act->is_string()) in.issue(key, "must be a string (got " + describe_json(*act) + ")");
    else if (act && act->get_ref<const std::string&>() == "gelu_new") m.activation = Activation::gelu_new;
}

// training.dropout: on when any dropout probability of the config is above 0 (GPT-2's attn/resid/embd
// pdrop 0.1); Llama-family, NeoX and Gemma configs set them to 0. Absent: the family's default.
void read_dropout(Reader& in, const Family* fam) {
    ImportResult& r = in.result;
    bool any_given = false, on = false;
    for (const char* k : {"attention_dropout", "hidden_dropout", "attn_pdrop", "resid_pdrop", "embd_pdrop",
                          "attention_probs_dropout_prob", "hidden_dropout_prob"}) {
        std::string used = k;
        const json* v = in.find({k}, used);
        if (!v) continue;
        if (!v->is_number()) {
            in.issue(k, "must be a number (got " + describe_json(*v) + ")");
            continue;
        }
        any_given = true;
        on = on || v->get<double>() > 0;
    }
    r.scenario.training.dropout = any_given ? on : fam->gpt2_names;
}

// Keys that set nothing: metadata (ignored), known no-effect keys, and everything else (not modelled).
void list_unmapped(Reader& in, const json& config) {
    ImportResult& r = in.result;
    std::vector<std::string> no_effect, not_modelled;
    std::size_t not_listed = 0;
    for (auto it = config.begin(); it != config.end(); ++it) {
        const std::string& key = it.key();
        if (std::find(in.consumed.begin(), in.consumed.end(), key) != in.consumed.end()) continue;
        std::string shown = detail::printable_key(key);
        if (listed(key, metadata_keys)) {
            r.ignored_keys.push_back(shown);
            continue;
        }
        if (shown.empty()) shown = "(empty key)";
        if (r.unmapped_keys.size() >= detail::max_listed_keys) {
            ++not_listed;
            continue;
        }
        r.unmapped_keys.push_back(shown);
        (listed(key, no_effect_keys) ? no_effect : not_modelled).push_back(shown);
    }
    if (!r.ignored_keys.empty()) r.notes.push_back("ignored (metadata): " + join(r.ignored_keys));
    if (!no_effect.empty())
        r.notes.push_back("not mapped, no effect on parameters, memory or FLOPs as estimated here: " + join(no_effect));
    if (!not_modelled.empty())
        r.notes.push_back("not mapped, not modelled by the estimator (check them yourself): " + join(not_modelled));
    if (not_listed > 0) r.notes.push_back("… and " + std::to_string(not_listed) + " more unmapped keys not listed");
}

// Rules of the model itself (e.g. heads must divide hidden_size), reported under the HF key.
void report_model_rules(Reader& in, const Scenario& base, const ModelConfig& m) {
    ImportResult& r = in.result;
    Scenario candidate = base;
    candidate.model = m;
    for (const auto& problem : validate(candidate)) {
        if (!problem.field.starts_with("model.")) continue;  // base's training/parallel settings: caller validates
        auto src = in.source_of.find(problem.field);
        std::string key = src != in.source_of.end() ? src->second : problem.field;
        r.issues.push_back({key, "sets " + problem.field + ", which " + problem.message});
    }
}

// An architecture equal to a preset becomes that preset (exact name; links say mp=<id>).
void use_matching_preset(ModelConfig& m, ImportResult& r) {
    for (const auto& preset : model_presets()) {
        if (same_architecture(preset.model, m)) {
            m = preset.model;
            r.notes.push_back(std::string("matches the preset ") + preset.id + " (" + preset.model.name + ")");
            break;
        }
    }
}

}  // namespace

std::vector<HfFamilyName> hf_families() {
    std::vector<HfFamilyName> out;
    for (const auto& f : families) out.push_back({f.model_type, f.display});
    return out;
}

ImportResult import_json_text(std::string_view text, const Scenario& base, std::string_view family,
                              ImportJson import_json) {
    json config;
    ImportResult r;
    if (parse_json_object(text, config, r.issues)) {
        r = import_json(config, base);
    } else {
        r.scenario = base;
        r.family = family;
    }
    tidy_issues(r.issues, "json");
    return r;
}

ImportResult import_hf_config(std::string_view text, const Scenario& base) {
    return import_json_text(text, base, "", import_hf_json);
}

ImportResult import_hf_json(const json& config, const Scenario& base) {
    ImportResult r;
    r.scenario = base;
    r.scenario.inference.weight_bytes_override = 0;  // a GGUF file's exact bytes belong to that file's model
    if (!config.is_object()) {
        r.issues.push_back({"json", "must be a JSON object {...} (got " + describe_json(config) + ")"});
        return r;
    }
    if (is_hf_multimodal(config)) return import_hf_multimodal(config, base);
    if (import_hf_by_preset_shape(config, r)) return with_quantization(config, r);
    const Family* fam = detect_family(config, r);
    if (!fam) return r;
    r.family = fam->model_type;

    Reader in{config, r, {"model_type", "quantization_config"}, {}};
    ModelConfig m;  // every field is set below: nothing of base's model survives
    m.name = std::string(fam->display) + " (HF config)";
    m.mlp = fam->mlp;
    m.norm = fam->norm;
    m.position_embedding = fam->position;
    m.num_kv_heads = 0;
    m.head_dim = 0;
    m.ffn_hidden_size = 0;
    m.num_experts = 1;
    m.experts_per_token = 1;
    m.params_override = 0;

    read_shape(in, fam, m);
    read_biases(in, fam, m);
    read_activation(in, m);
    read_dropout(in, fam);
    list_unmapped(in, config);

    if (!r.issues.empty()) return r;
    report_model_rules(in, base, m);
    if (!r.issues.empty()) return r;

    use_matching_preset(m, r);
    r.scenario.model = m;
    std::vector<Note> lowered;  // as choosing a preset does: the sequence the model can take
    fit_sequence_to_model(r.scenario, &lowered);
    for (const auto& n : lowered) r.notes.push_back(n.field + " " + n.message);
    return with_quantization(config, r);
}

}  // namespace vramcalc::codec
