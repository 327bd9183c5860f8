// quantization_config → inference.weight_format. The keys each method writes, by source:
//   awq:   transformers AwqConfig (bits, group_size, zero_point, version, modules_to_not_convert).
//   gptq:  transformers GPTQConfig (bits, group_size, desc_act, sym, checkpoint_format).
//   fp8:   transformers FineGrainedFP8Config / DeepSeek-V3 config.json (fmt, weight_block_size).
//   compressed-tensors: neuralmagic/compressed-tensors QuantizationConfig (config_groups → weights
//          {num_bits, type, strategy, group_size, block_structure}, ignore, format).
//   bitsandbytes: transformers BitsAndBytesConfig (load_in_4bit, bnb_4bit_quant_type,
//          bnb_4bit_use_double_quant, load_in_8bit, llm_int8_skip_modules).
//   mxfp4: transformers Mxfp4Config (modules_to_not_convert), openai/gpt-oss config.json.
#include "codec/hf_quantization.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "codec/scenario_json.hpp"
#include "core/fields.hpp"

namespace vramcalc::codec {

using nlohmann::json;

namespace {

constexpr std::int64_t max_group_size = 1024;  // the inference.quant_group_size range (fields.cpp)
constexpr const char* supported_methods = "awq, gptq, fp8, compressed-tensors, bitsandbytes, mxfp4";

struct QuantReader {
    const json& q;
    ImportResult& r;
    const std::string& prefix;

    void issue(const std::string& key, std::string message) { r.issues.push_back({prefix + key, std::move(message)}); }

    const json* get(const char* key) const {
        auto it = q.find(key);
        return it == q.end() || it->is_null() ? nullptr : &*it;
    }

    // An integer in [lo, hi] (an integral float counts); nullopt when absent or refused (reported).
    std::optional<std::int64_t> integer(const char* key, std::int64_t lo, std::int64_t hi, const char* what) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        double value = v->is_number() ? v->get<double>() : std::nan("");
        if (!v->is_number() || !std::isfinite(value) || value != std::floor(value)) {
            issue(key, "must be an integer (got " + describe_json(*v) + ")");
            return std::nullopt;
        }
        if (value < double(lo) || value > double(hi)) {
            issue(key, "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + " (" + what +
                           "; got " + describe_json(*v) + ")");
            return std::nullopt;
        }
        return std::int64_t(value);
    }

    std::optional<bool> boolean(const char* key) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_boolean()) {
            issue(key, "must be true or false (got " + describe_json(*v) + ")");
            return std::nullopt;
        }
        return v->get<bool>();
    }

    std::optional<std::string> text(const char* key) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_string()) {
            issue(key, "must be a string (got " + describe_json(*v) + ")");
            return std::nullopt;
        }
        return v->get<std::string>();
    }

    // A list of module names (modules_to_not_convert, ignore, …); refused items are reported.
    std::vector<std::string> names(const char* key) {
        std::vector<std::string> out;
        const json* v = get(key);
        if (!v) return out;
        if (!v->is_array()) {
            issue(key, "must be a list of module names (got " + describe_json(*v) + ")");
            return out;
        }
        for (const auto& item : *v) {
            if (!item.is_string()) {
                issue(key, "must list module names as strings (got " + describe_json(item) + ")");
                return {};
            }
            out.push_back(detail::printable_key(item.get_ref<const std::string&>()));
        }
        return out;
    }

    // group_size: -1 (one group per column) or 1 … 1024.
    std::optional<std::int64_t> group_size(const char* key) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (v->is_number() && v->get<double>() == -1) return -1;
        return integer(key, 1, max_group_size, "inputs sharing one scale; -1 = one group per column");
    }
};

// What every format leaves in 16-bit anyway (weight_formats.cpp quantised_by), and what the text
// model does not hold: such names in a keep-unquantised list change nothing here.
bool kept_anyway(std::string_view name, WeightFormat format) {
    for (const char* part : {"lm_head", "embed", "router", "mlp.gate", "norm", "vision", "visual", "multi_modal",
                             "mm_", "patch", "merger"})
        if (name.find(part) != std::string_view::npos) return true;
    if (name == "gate" || name.ends_with(".gate")) return true;
    if (format == WeightFormat::mxfp4)  // MXFP4 quantises the routed experts only
        return name.find("attn") != std::string_view::npos || name.find("shared") != std::string_view::npos;
    return false;
}

// The note on a keep-unquantised list: what it says and what the estimate does with it.
void note_kept_modules(QuantReader& in, const char* key, WeightFormat format) {
    auto listed = in.names(key);
    if (listed.empty()) return;
    std::vector<std::string> counted_quantised;
    for (const auto& name : listed)
        if (!kept_anyway(name, format)) counted_quantised.push_back(name);
    std::string shown;
    for (std::size_t i = 0; i < counted_quantised.size() && i < 12; ++i) shown += (i ? ", " : "") + counted_quantised[i];
    if (counted_quantised.size() > 12) shown += ", …";
    if (counted_quantised.empty())
        in.r.notes.push_back(in.prefix + key + ": the modules it keeps unquantised (" + std::to_string(listed.size()) +
                             ") are the embeddings, LM head, router, norms or vision tower, which the format leaves "
                             "16-bit here too");
    else
        in.r.notes.push_back("approximate: " + in.prefix + key + " keeps " + shown +
                             " unquantised; the estimate counts them in the quantised format");
}

void set_format(QuantReader& in, WeightFormat format, std::optional<std::int64_t> group, const std::string& said) {
    in.r.scenario.inference.weight_format = format;
    std::string line = in.prefix + "quant_method " + said + " → inference.weight_format " +
                       std::string(weight_format_names()[std::size_t(format)]);
    if (group) {
        in.r.scenario.inference.quant_group_size = *group;
        line += ", inference.quant_group_size " + std::to_string(*group);
    }
    in.r.notes.push_back(line);
    if (in.r.scenario.inference.engine == Engine::llamacpp) {  // llama.cpp loads GGUF, not these checkpoints
        in.r.scenario.inference.engine = Engine::vllm;
        in.r.notes.push_back("inference.engine set to vllm: llama.cpp does not load " + said + " checkpoints");
    }
}

// AWQ and GPTQ: 4-bit weights, a group size (AWQ's "w_bit" / "q_group_size" are AutoAWQ's older names).
void import_int4_groups(QuantReader& in, bool gptq) {
    const char* bits_key = !gptq && in.get("w_bit") && !in.get("bits") ? "w_bit" : "bits";
    const char* group_key = !gptq && in.get("q_group_size") && !in.get("group_size") ? "q_group_size" : "group_size";
    auto bits = in.integer(bits_key, 2, 8, "bits per weight");
    if (!in.get(bits_key)) in.issue(bits_key, "is missing (required: bits per weight, 4)");
    if (bits && *bits != 4)
        in.issue(bits_key, std::to_string(*bits) + "-bit " + (gptq ? "GPTQ" : "AWQ") +
                               " is not modelled: inference.weight_format " + (gptq ? "gptq" : "awq") +
                               " stores 4-bit weights (bits must be 4)");
    auto group = in.group_size(group_key);
    if (!in.get(group_key)) in.r.notes.push_back(in.prefix + group_key + " not given: using 128 (AutoAWQ / AutoGPTQ default)");
    if (gptq && in.boolean("desc_act").value_or(false))
        in.r.notes.push_back(in.prefix + "desc_act true (activation order): the same bytes, g_idx is stored either way");
    if (!in.r.ok()) return;
    set_format(in, gptq ? WeightFormat::gptq : WeightFormat::awq, group.value_or(128), gptq ? "gptq" : "awq");
    note_kept_modules(in, "modules_to_not_convert", gptq ? WeightFormat::gptq : WeightFormat::awq);
}

void import_fp8(QuantReader& in) {
    WeightFormat format = WeightFormat::fp8;
    if (const json* block = in.get("weight_block_size")) {
        bool pair = block->is_array() && block->size() == 2 && (*block)[0].is_number() && (*block)[1].is_number();
        if (!pair) {
            in.issue("weight_block_size", "must be a pair [rows, columns] of block sizes (got " + describe_json(*block) + ")");
            return;
        }
        if ((*block)[0].get<double>() != 128 || (*block)[1].get<double>() != 128) {
            in.issue("weight_block_size", "must be [128, 128]: only 128×128 blocks are modelled (inference.weight_format "
                                          "fp8_block, DeepSeek-V3) (got " + describe_json(*block) + ")");
            return;
        }
        format = WeightFormat::fp8_block;
    }
    if (auto fmt = in.text("fmt"); fmt && *fmt != "e4m3" && *fmt != "e5m2" && *fmt != "float8_e4m3fn")
        in.issue("fmt", "must be e4m3 or e5m2 (got " + describe_text(*fmt) + ")");
    if (!in.r.ok()) return;
    set_format(in, format, std::nullopt, format == WeightFormat::fp8_block ? "fp8, 128×128 blocks" : "fp8");
    note_kept_modules(in, "ignored_layers", format);
    note_kept_modules(in, "modules_to_not_convert", format);
}

// bitsandbytes: quant_method "bitsandbytes" (or none, in older configs) with load_in_4bit / load_in_8bit.
void import_bitsandbytes(QuantReader& in) {
    bool four = in.boolean("load_in_4bit").value_or(false), eight = in.boolean("load_in_8bit").value_or(false);
    if (!in.r.ok()) return;
    if (four && eight) return in.issue("load_in_8bit", "cannot be true together with load_in_4bit (one bit width per checkpoint)");
    if (!four && !eight)
        return in.issue("load_in_4bit", "is not true and neither is load_in_8bit: a bitsandbytes config quantises with one of them");
    if (eight) {
        set_format(in, WeightFormat::int8, std::nullopt, "bitsandbytes, load_in_8bit");
        note_kept_modules(in, "llm_int8_skip_modules", WeightFormat::int8);
        return;
    }
    std::string type = in.text("bnb_4bit_quant_type").value_or("fp4");  // BitsAndBytesConfig default
    if (!in.r.ok()) return;
    if (type != "nf4" && type != "fp4")
        return in.issue("bnb_4bit_quant_type", "must be nf4 or fp4 (got " + describe_text(type) + ")");
    if (type == "fp4")
        in.r.notes.push_back(in.prefix + "bnb_4bit_quant_type fp4: the same bytes as nf4 (4 bits and an absmax per 64)");
    if (!in.boolean("bnb_4bit_use_double_quant").value_or(false))
        in.r.notes.push_back("approximate: bnb_4bit_use_double_quant is off, so each absmax is fp32 (0.5 bits per weight); "
                             "the estimate's nf4 counts double quantisation (0.127 bits), 0.37 bits per weight less");
    if (!in.r.ok()) return;
    set_format(in, WeightFormat::nf4, std::nullopt, "bitsandbytes, load_in_4bit " + type);
    note_kept_modules(in, "llm_int8_skip_modules", WeightFormat::nf4);
}

// compressed-tensors: one weight scheme for every group (a file mixing schemes is refused).
void import_compressed_tensors(QuantReader& in) {
    const json* groups = in.get("config_groups");
    if (!groups || !groups->is_object() || groups->empty())
        return in.issue("config_groups", "must be an object of quantisation groups, each with \"weights\" (got " +
                                             (groups ? describe_json(*groups) : std::string("nothing")) + ")");
    const json* first = nullptr;
    std::string first_name;
    for (auto it = groups->begin(); it != groups->end(); ++it) {
        auto w = it.value().is_object() ? it.value().find("weights") : it.value().end();
        if (!it.value().is_object() || w == it.value().end() || !w->is_object())
            return in.issue("config_groups." + detail::printable_key(it.key()) + ".weights", "must be an object {num_bits, type, strategy}");
        if (!first) first = &*w, first_name = detail::printable_key(it.key());
        else if (*w != *first)
            return in.issue("config_groups." + detail::printable_key(it.key()) + ".weights",
                            "differs from " + first_name + "'s: a checkpoint mixing weight schemes is not modelled");
    }
    std::string scope = in.prefix + "config_groups." + first_name + ".weights.";
    QuantReader w{*first, in.r, scope};
    auto bits = w.integer("num_bits", 1, 16, "bits per weight");
    auto type = w.text("type").value_or("int");
    auto strategy = w.text("strategy").value_or("tensor");
    if (!in.r.ok()) return;
    if (!bits) return w.issue("num_bits", "is missing (required: bits per weight)");
    std::string said = "compressed-tensors, " + std::to_string(*bits) + "-bit " + type + " " + strategy;
    if (*bits == 8 && type == "float") {
        WeightFormat f = strategy == "channel" ? WeightFormat::fp8_channel
                         : strategy == "block" ? WeightFormat::fp8_block : WeightFormat::fp8;
        if (strategy != "tensor" && strategy != "channel" && strategy != "block")
            return w.issue("strategy", "must be tensor, channel or block for fp8 weights (got " + describe_text(strategy) + ")");
        if (const json* b = w.get("block_structure"); f == WeightFormat::fp8_block && b && *b != json::array({128, 128}))
            return w.issue("block_structure", "must be [128, 128]: only 128×128 blocks are modelled (got " + describe_json(*b) + ")");
        set_format(in, f, std::nullopt, said);
    } else if (*bits == 4 && type == "int" && (strategy == "group" || strategy == "channel")) {
        auto group = strategy == "channel" ? std::optional<std::int64_t>(-1) : w.group_size("group_size");
        if (!in.r.ok()) return;
        if (!group) return w.issue("group_size", "is missing (required with strategy group)");
        set_format(in, WeightFormat::awq, group, said);
        if (w.boolean("symmetric").value_or(true))
            in.r.notes.push_back("approximate: symmetric int4 stores no zero points; the estimate's awq layout counts "
                                 "a packed 4-bit zero per group and output (0.5 B each)");
    } else if (*bits == 8 && type == "int") {
        set_format(in, WeightFormat::int8, std::nullopt, said);
        if (strategy != "channel")
            in.r.notes.push_back("approximate: int8 " + strategy + " scales are counted as one fp32 scale per output row");
    } else {
        return w.issue("num_bits", std::to_string(*bits) + "-bit " + describe_text(type) +
                                       " weights are not modelled (fp8 float, int4 group/channel and int8 are)");
    }
    note_kept_modules(in, "ignore", in.r.scenario.inference.weight_format);
}

}  // namespace

void import_hf_quantization(const json& quantization, ImportResult& r, const std::string& prefix) {
    if (!quantization.is_object()) {
        r.issues.push_back({prefix.substr(0, prefix.size() - 1), "must be an object {\"quant_method\": …} (got " +
                                                                     describe_json(quantization) + ")"});
        return;
    }
    QuantReader in{quantization, r, prefix};
    auto method = in.text("quant_method");
    if (!r.ok()) return;
    if (!method && (in.get("load_in_4bit") || in.get("load_in_8bit"))) method = "bitsandbytes";
    if (!method) return in.issue("quant_method", std::string("is missing (required: one of ") + supported_methods + ")");
    if (*method == "awq") return import_int4_groups(in, false);
    if (*method == "gptq") return import_int4_groups(in, true);
    if (*method == "fp8") return import_fp8(in);
    if (*method == "bitsandbytes") return import_bitsandbytes(in);
    if (*method == "compressed-tensors") return import_compressed_tensors(in);
    if (*method == "mxfp4") {
        set_format(in, WeightFormat::mxfp4, std::nullopt, "mxfp4");
        return note_kept_modules(in, "modules_to_not_convert", WeightFormat::mxfp4);
    }
    in.issue("quant_method", describe_text(detail::printable_key(*method)) +
                                 " is not a supported quantisation method (supported: " + supported_methods +
                                 "); set inference.weight_format by hand");
}


}  // namespace vramcalc::codec
