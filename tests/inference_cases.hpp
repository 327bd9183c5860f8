// Measured inference cases (tests/data/inference/measured_cases.json) against the serving estimate:
// each case's `scenario` is decoded and estimated, and every quantity the case measured is paired
// with the output that means the same thing. Shared by tests/test_measured_inference.cpp (bands)
// and tests/serving_accuracy.cpp (the table in docs/accuracy.md).
#pragma once

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "codec/codec.hpp"

namespace vramcalc::inference_cases {

// One measured quantity of one case.
struct Comparison {
    std::string quantity;   // "weights", "kv_pool_tokens", "kv_pool_bytes", "max_concurrency", "kv_cache", "compute_buffer", "device_total", "decode_tps", "prefill_tps", "ttft" (seconds)
    double measured = 0;
    double predicted = 0;
    double error() const { return (predicted - measured) / measured; }
};

struct CaseResult {
    std::string id, engine, split, grade, source_url, kind;
    std::string not_expressible;    // reason, when the case cannot be stated as a scenario
    // quantities of an expressed case that the estimate cannot state (a backend it does not model, a
    // benchmark's prefix-cache hit), with the reason: `not_expressible_quantities` in the data file
    std::vector<std::pair<std::string, std::string>> quantities_not_expressible;
    std::string decode_problem;     // a decoding issue (a bug in the case's scenario)
    bool reported_does_not_fit = false;
    bool predicted_fits = false;
    std::vector<Comparison> comparisons;
};

inline nlohmann::json load_inference_cases() {
    std::ifstream in(std::string(VRAMCALC_SOURCE_DIR) + "/tests/data/inference/measured_cases.json");
    return nlohmann::json::parse(in);
}

inline constexpr double mib = 1024.0 * 1024.0;

// First of `keys` present in `m` as a number (vLLM, SGLang and llama.cpp name the same quantity differently).
inline bool first_number(const nlohmann::json& m, std::initializer_list<const char*> keys, double& out) {
    for (const char* k : keys) {
        if (auto it = m.find(k); it != m.end() && it->is_number()) {
            out = it->get<double>();
            return true;
        }
    }
    return false;
}

inline void add(CaseResult& r, const char* quantity, double measured, double predicted) {
    if (measured > 0) r.comparisons.push_back({quantity, measured, predicted});
}

// Memory as the engines print it: vLLM and SGLang GiB per GPU, llama.cpp MiB of the CUDA0 buffers.
inline void compare_memory(const nlohmann::json& c, const Estimate& e, CaseResult& r) {
    const auto& m = c.at("measured");
    const InferenceEstimate& inf = e.inference;
    double v = 0;
    if (first_number(m, {"weights_GiB", "weights_GB_as_printed"}, v)) add(r, "weights", v * bytes_per_gib, inf.memory.weights);
    else if (c.contains("derived") && c["derived"].contains("weights_GB"))
        add(r, "weights", c["derived"]["weights_GB"]["value"].get<double>() * bytes_per_gib, inf.memory.weights);
    if (first_number(m, {"kv_pool_tokens", "max_total_num_tokens"}, v)) add(r, "kv_pool_tokens", v, inf.kv_pool_tokens);
    else if (c.contains("derived") && c["derived"].contains("kv_pool_tokens"))
        add(r, "kv_pool_tokens", c["derived"]["kv_pool_tokens"]["value"].get<double>(), inf.kv_pool_tokens);
    if (first_number(m, {"available_kv_cache_GiB"}, v) && v > 0) add(r, "kv_pool_bytes", v * bytes_per_gib, inf.kv_pool_bytes);
    double k = 0, vv = 0;
    if (first_number(m, {"k_size_GB_as_printed"}, k) && first_number(m, {"v_size_GB_as_printed"}, vv))
        add(r, "kv_pool_bytes", (k + vv) * bytes_per_gib, inf.kv_pool_bytes);
    if (first_number(m, {"max_concurrency_x"}, v)) add(r, "max_concurrency", v, inf.max_concurrency);
    // llama.cpp: the CUDA0 buffers (model, KV, compute) and their sum
    double model = 0, kv = 0, compute = 0;
    const bool has_model = first_number(m, {"cuda0_model_buffer_MiB"}, model);
    const bool has_kv = first_number(m, {"cuda0_kv_buffer_MiB"}, kv);
    const bool has_compute = first_number(m, {"cuda0_compute_buffer_MiB"}, compute);
    if (has_model) add(r, "weights", model * mib, inf.memory.weights);
    if (has_kv) add(r, "kv_cache", kv * mib, inf.memory.kv_cache);
    if (has_compute) add(r, "compute_buffer", compute * mib, inf.memory.activations);
    if (has_model && has_kv && has_compute)
        add(r, "device_total", (model + kv + compute) * mib, inf.memory.weights + inf.memory.kv_cache + inf.memory.activations);
}

// The prompt length a prefill measurement processed: llama-bench ppN, llama-perplexity's chunk (each
// chunk starts from an empty cache), or the prompt llama.cpp evaluated; 0 when the case does not say.
inline double measured_prefill_prompt(const nlohmann::json& m, const char* key) {
    const std::string k = key;
    if (k == "prefill_tokens_per_second_pp512" || k == "prefill_tokens_per_second_pp512_vulkan") return 512;
    if (k == "prefill_tokens_per_second_pp4096") return 4096;
    double v = 0;
    if (first_number(m, {"prefill_chunk_tokens", "prefill_tokens"}, v)) return v;
    return 0;
}

inline bool quantity_expressible(const nlohmann::json& c, const char* quantity, CaseResult& r) {
    if (!c.contains("not_expressible_quantities") || !c["not_expressible_quantities"].contains(quantity)) return true;
    r.quantities_not_expressible.emplace_back(quantity, c["not_expressible_quantities"][quantity].get<std::string>());
    return false;
}

// Speed: decode at the scenario; prefill re-estimated at the prompt length the measurement processed
// (the scenario's prompt_tokens describe its decode run); the time to first token at the scenario's
// prompt_tokens (128, or 1024 where the key says so).
inline void compare_speed(const nlohmann::json& c, const Scenario& sc, const Estimate& e, CaseResult& r) {
    const auto& m = c.at("measured");
    double v = 0;
    if (first_number(m, {"decode_tokens_per_second", "decode_tokens_per_second_vulkan"}, v))
        add(r, "decode_tps", v, e.inference.speed.decode_tokens_per_second);
    else if (first_number(m, {"tpot_ms"}, v))
        add(r, "decode_tps", 1000.0 / v, e.inference.speed.decode_tokens_per_second);
    for (const char* key : {"prefill_tokens_per_second", "prefill_tokens_per_second_pp512", "prefill_tokens_per_second_pp4096",
                            "prefill_tokens_per_second_pp512_vulkan"}) {
        if (!first_number(m, {key}, v)) continue;
        if (quantity_expressible(c, "prefill_tps", r)) {
            Scenario at = sc;
            if (const double prompt = measured_prefill_prompt(m, key); prompt > 0) at.inference.prompt_tokens = std::int64_t(prompt);
            add(r, "prefill_tps", v, estimate(at).inference.speed.prefill_tokens_per_second);
        }
        break;
    }
    if (first_number(m, {"ttft_ms", "ttft_ms_1024_prompt"}, v) && quantity_expressible(c, "ttft", r))
        add(r, "ttft", v / 1000.0, e.inference.speed.time_to_first_token_seconds);
}

// Architecture fields of the model description that the JSON field table does not carry yet
// (MLA, sliding window, q/k norms: scenario.hpp has them, codec/fields.cpp not): set on the
// decoded model directly, then the scenario is validated as a whole.
inline void set_architecture_extras(const nlohmann::json& model, ModelConfig& m) {
    const std::pair<const char*, std::int64_t*> ints[] = {
        {"kv_lora_rank", &m.kv_lora_rank}, {"q_lora_rank", &m.q_lora_rank}, {"qk_rope_head_dim", &m.qk_rope_head_dim},
        {"qk_nope_head_dim", &m.qk_nope_head_dim}, {"v_head_dim", &m.v_head_dim}, {"sliding_window", &m.sliding_window},
        {"global_attention_interval", &m.global_attention_interval}};
    for (const auto& [key, field] : ints)
        if (model.contains(key)) *field = model.at(key).get<std::int64_t>();
    if (model.contains("qk_norm")) m.qk_norm = model.at("qk_norm").get<bool>();
}

inline bool decode_scenario(nlohmann::json json, Scenario& out, std::string& problem) {
    nlohmann::json extras = nlohmann::json::object();
    if (json.at("model").is_object())
        for (const char* key : {"kv_lora_rank", "q_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim",
                                "sliding_window", "global_attention_interval", "qk_norm"})
            if (json["model"].contains(key)) extras[key] = json["model"][key], json["model"].erase(key);
    auto decoded = codec::scenario_from_json(json, {}, false);
    out = decoded.scenario;
    set_architecture_extras(extras, out.model);
    for (const auto& issue : decoded.issues) problem += issue.field + ": " + issue.message + "; ";
    for (const auto& issue : validate(out)) problem += issue.field + ": " + issue.message + "; ";
    return problem.empty();
}

inline CaseResult evaluate_case(const nlohmann::json& c) {
    CaseResult r;
    r.id = c.at("id");
    r.engine = c.at("engine");
    r.split = c.at("split");
    r.grade = c.at("grade");
    r.kind = c.at("kind");
    r.source_url = c.at("source_url");
    r.reported_does_not_fit = r.kind == "does_not_fit";
    if (c.contains("not_expressible")) {
        r.not_expressible = c["not_expressible"];
        return r;
    }
    Scenario scenario;
    if (!decode_scenario(c.at("scenario"), scenario, r.decode_problem)) return r;
    const Estimate e = estimate(scenario);
    r.predicted_fits = e.inference.fits;
    compare_memory(c, e, r);
    compare_speed(c, scenario, e, r);
    return r;
}

inline std::vector<CaseResult> evaluate_all() {
    std::vector<CaseResult> out;
    for (const auto& c : load_inference_cases()) out.push_back(evaluate_case(c));
    return out;
}

}  // namespace vramcalc::inference_cases
