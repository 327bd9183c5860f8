// Publicly reported inference runs (tests/data/inference/measured_cases.json: engine startup logs,
// llama.cpp load logs, single-stream decode speeds, each with its source and settings) against the
// serving estimate, per case and as medians, fitted and held-out cases apart (docs/accuracy.md
// "Serving"). And llama.cpp's own buffers from 330 real CPU runs
// (tests/data/inference/llamacpp_cpu_3.21.1.json, bench/inference/README.md).
#include <algorithm>
#include <cmath>
#include <map>

#include <catch2/catch.hpp>

#include "core/model/presets.hpp"
#include "core/serving/engines.hpp"
#include "core/serving/kv_cache.hpp"
#include "inference_cases.hpp"

using namespace vramcalc;
using namespace vramcalc::inference_cases;

namespace {

// Issue 24's targets per case: weights within 2 %, the KV pool (tokens, bytes, sequences) within
// 5 %; llama.cpp's KV buffer is exact arithmetic (0.5 % covers the printed MiB); its compute buffer
// and the device total of its buffers within 5 %; one decode speed within 30 % (the median ≤ 15 %).
// Grade C cases infer one setting (docs: tests/data/inference/README.md) and get twice the band.
double band(const std::string& quantity, const std::string& grade) {
    double b = quantity == "weights" ? 0.02 : quantity == "kv_cache" ? 0.005 : quantity == "decode_tps" ? 0.30 : 0.05;
    return grade == "C" ? 2 * b : b;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

const nlohmann::json* find_case(const nlohmann::json& all, const std::string& id) {
    for (const auto& c : all)
        if (c.at("id") == id) return &c;
    return nullptr;
}

}  // namespace

TEST_CASE("measured inference cases: every reported quantity within its band") {
    const auto all = load_inference_cases();
    int expressed = 0, listed = 0;
    for (const auto& r : evaluate_all()) {
        INFO(r.id);
        if (!r.not_expressible.empty()) {
            INFO("not expressible: " << r.not_expressible);
            CHECK(r.not_expressible.size() > 20);  // a reason, not a placeholder
            ++listed;
            continue;
        }
        INFO(r.decode_problem);
        REQUIRE(r.decode_problem.empty());
        ++expressed;
        const auto& gaps = find_case(all, r.id)->value("known_gaps", nlohmann::json::object());
        if (r.reported_does_not_fit) {
            if (gaps.contains("verdict")) {
                INFO("known gap, verdict missed: " << gaps.at("verdict").at("reason").get<std::string>());
                CHECK(r.predicted_fits);  // still missed; when it is called, drop the gap
            } else {
                CHECK_FALSE(r.predicted_fits);
            }
        }
        for (const auto& c : r.comparisons) {
            if (c.quantity == "prefill_tps" || c.quantity == "ttft") continue;  // reported in docs/accuracy.md; issue 24 sets no target
            INFO(c.quantity << ": measured " << c.measured << ", predicted " << c.predicted << ", error " << 100 * c.error() << " %");
            if (gaps.contains(c.quantity)) {
                // a documented gap: it must stay where the case says, so a change that moves it is noticed
                const auto& gap = gaps.at(c.quantity);
                INFO("known gap: " << gap.at("reason").get<std::string>());
                CHECK(c.error() >= gap.at("error_range").at(0).get<double>());
                CHECK(c.error() <= gap.at("error_range").at(1).get<double>());
            } else {
                CHECK(std::fabs(c.error()) <= band(c.quantity, r.grade));
            }
        }
    }
    CHECK(expressed >= 30);
    CHECK(expressed + listed == int(all.size()));
}

TEST_CASE("measured inference cases: medians of fitted and held-out cases apart") {
    std::map<std::string, std::map<std::string, std::vector<double>>> errors;  // split → quantity → |error|
    for (const auto& r : evaluate_all())
        for (const auto& c : r.comparisons) errors[r.split][c.quantity].push_back(std::fabs(c.error()));
    // issue 24: weights 2 %, KV pool tokens 5 %, device total 5 %, decode 15 %
    const std::map<std::string, double> target = {
        {"weights", 0.02}, {"kv_pool_tokens", 0.05}, {"device_total", 0.05}, {"decode_tps", 0.15}};
    // Targets not met yet, with the median as it stands (a change that moves it must update this).
    // Every target is met since the decode step model (docs/serving.md §4) and vLLM V0's profile peak on
    // pre-Ampere GPUs: none is listed; a quantity that falls short again gets its entry and reason here.
    const std::map<std::pair<std::string, std::string>, std::pair<double, double>> shortfall = {};
    for (const char* split : {"fit", "holdout"}) {
        for (const auto& [quantity, limit] : target) {
            INFO(split << " " << quantity);
            REQUIRE(errors[split][quantity].size() >= 2);
            const double m = median(errors[split][quantity]);
            INFO("median |error| " << 100 * m << " %");
            if (auto it = shortfall.find({split, quantity}); it != shortfall.end()) {
                CHECK(m > limit);
                CHECK(m >= it->second.first);
                CHECK(m <= it->second.second);
            } else {
                CHECK(m <= limit);
            }
        }
    }
}

TEST_CASE("prefill and time to first token: fit and held-out medians as docs/accuracy.md reports them") {
    // No target in issue 24; pinned so that a change that moves them updates docs/accuracy.md
    // (docs/serving.md §4 "Prefill": llama.cpp's MMQ / dequantize + cuBLAS paths, weight streaming,
    // the vLLM request path). Before h4: prefill 220.7 % (fit) / 247.9 % (held out), TTFT 37.3 % fit.
    std::map<std::string, std::map<std::string, std::vector<double>>> errors;  // split → quantity → |error|
    int listed = 0;
    for (const auto& r : evaluate_all()) {
        for (const auto& c : r.comparisons) errors[r.split][c.quantity].push_back(std::fabs(c.error()));
        for (const auto& [quantity, why] : r.quantities_not_expressible) {
            INFO(r.id << " " << quantity);
            CHECK((quantity == "prefill_tps" || quantity == "ttft"));
            CHECK(why.size() > 40);  // a reason, not a placeholder
            ++listed;
        }
    }
    CHECK(listed == 5);  // 3 Vulkan / ROCm prefill runs, 2 prefix-cache-hit TTFTs
    const auto median_of = [&](const char* split, const char* quantity) {
        INFO(split << " " << quantity);
        REQUIRE(errors[split][quantity].size() >= 1);
        return median(errors[split][quantity]);
    };
    CHECK(errors["fit"]["prefill_tps"].size() == 5);
    CHECK(errors["holdout"]["prefill_tps"].size() == 6);
    CHECK(median_of("fit", "prefill_tps") <= 0.05);
    CHECK(median_of("holdout", "prefill_tps") <= 0.08);
    CHECK(median_of("fit", "ttft") <= 0.08);
    CHECK(median_of("holdout", "ttft") <= 0.40);  // one case: DeepSeek-R1 AWQ TP 8, -33 %
}

TEST_CASE("vLLM V0's profile peak: the sampler's top-k/top-p pass at 39 B per logit (T4 logs, PR 10511)") {
    // "PyTorch activation peak memory takes 0.90GiB" (vLLM 0.8.2 V0, T4, Llama-3.2-3B, 2048 tokens, max_num_seqs 192)
    // "PyTorch activation peak memory takes 1.40GiB" (vLLM 0.6.6.post1 V0, T4, Qwen2.5-3B, 4096 tokens, 256 sequences)
    // vLLM PR 10511: "PyTorch activation peak memory takes 1.26GiB" (V0 0.6.5, Llama-3-8B, 8192 tokens, 256 sequences)
    const auto peak = [](const char* preset, double tokens, double rows) {
        Scenario s;
        apply_model_preset(s, preset);
        s.hardware.gpu = "T4";
        return serving::vllm_v0_profile_bytes(s, resolve_layout(s), tokens, rows) / bytes_per_gib;
    };
    CHECK(peak("llama-3.2-3b", 2048, 192) == Approx(0.90).epsilon(0.02));
    CHECK(peak("qwen2.5-3b", 4096, 256) == Approx(1.40).epsilon(0.03));
    CHECK(peak("llama-3-8b", 8192, 256) == Approx(1.26).epsilon(0.02));
    Scenario t4;
    t4.hardware.gpu = "T4";
    CHECK(serving::vllm_runs_v0(t4.hardware));  // compute capability 7.5: V1 refuses it (vLLM 0.8.2 log)
    t4.hardware.gpu = "A100-80GB";
    CHECK_FALSE(serving::vllm_runs_v0(t4.hardware));
}

TEST_CASE("llama.cpp b4823 on a V100 (no flash attention then): the profile's formula without it") {
    // ggml-org/ci pythia-2.8b runs: CUDA0 compute buffer 162.00 MiB at n_ubatch 512, n_ctx 2048, flash_attn = 0
    Scenario s;
    apply_model_preset(s, "pythia-2.8b");
    const Layout layout = resolve_layout(s);
    const double bytes = serving::llamacpp_compute_bytes(s.model, layout, 512, 2048, false, true);
    CHECK(bytes / mib == Approx(162.0).epsilon(0.05));
}

TEST_CASE("llama.cpp's split-stream KV of gpt-oss-120b (ollama#16480): 2 streams of full and SWA cells") {
    // non-SWA 9216.00 MiB: 131072 cells x 2 streams x 18 layers; SWA 90.00 MiB: 1280 cells x 2 streams x 18 layers
    serving::KvShape k;
    k.full_layers = 18;
    k.window_layers = 18;
    k.window = 128;
    k.bytes_per_token_layer = 2.0 * 8 * 64 * 2;  // K and V, 8 KV heads of 64, f16
    CHECK(serving::llamacpp_kv_bytes(k, 131072, 2, 1024) == (9216.0 + 90.0) * mib);
}

namespace {

nlohmann::json load_llamacpp_cpu() {
    std::ifstream in(std::string(VRAMCALC_SOURCE_DIR) + "/tests/data/inference/llamacpp_cpu_3.21.1.json");
    return nlohmann::json::parse(in);
}

// The written GGUF's architecture (bench/inference/write_gguf.py spec) as a scenario's model.
nlohmann::json model_of(const nlohmann::json& spec) {
    nlohmann::json m = {{"name", spec.at("arch")}, {"layers", spec.at("n_layer")}, {"hidden_size", spec.at("n_embd")},
                        {"num_heads", spec.at("n_head")}, {"num_kv_heads", spec.at("n_head_kv")},
                        {"ffn_hidden_size", spec.at("n_ff")}, {"vocab_size", spec.at("n_vocab")}, {"mlp", "swiglu"},
                        {"norm", "rmsnorm"}, {"bias", false}, {"position_embedding", "rope"},
                        {"max_position_embeddings", 131072}, {"tied_embeddings", spec.value("tied_embeddings", false)}};
    if (spec.contains("head_dim")) m["head_dim"] = spec["head_dim"];
    if (spec.contains("n_expert")) m["num_experts"] = spec["n_expert"], m["experts_per_token"] = spec["n_expert_used"];
    if (spec.contains("sliding_window"))
        m["sliding_window"] = spec["sliding_window"], m["global_attention_interval"] = spec["swa_pattern"];
    return m;
}

// K and V of one type the estimate takes (kv_cache_dtype); mixed K/V types are not a setting.
const char* kv_dtype(const std::string& k, const std::string& v) {
    if (k != v) return nullptr;
    if (k == "F16") return "fp16";
    if (k == "Q8_0") return "q8_0";
    if (k == "Q4_0") return "q4_0";
    return nullptr;  // F32 only with fp32 weights (auto)
}

}  // namespace

TEST_CASE("llama.cpp CPU runs: KV bytes exact, compute and output buffers as measured") {
    const auto doc = load_llamacpp_cpu();
    int kv_checked = 0, kv_not_expressible = 0, compute_checked = 0;
    std::vector<double> compute_errors;
    for (const auto& model : doc.at("models")) {
        const auto& spec = model.at("spec");
        for (const auto& run : model.at("runs")) {
            if (!run.contains("parsed")) continue;  // refused by llama.cpp (quantized V without flash attention)
            const auto& st = run.at("settings");
            const auto& parsed = run.at("parsed");
            INFO(model.at("file").get<std::string>() << " n_ctx " << st.at("n_ctx_requested") << " seq " << st.at("sequences")
                                                      << " ub " << parsed.at("n_ubatch") << " K/V " << st.at("kv_cache_type_k")
                                                      << "/" << st.at("kv_cache_type_v") << " FA " << parsed.at("flash_attn"));
            const double sequences = st.at("sequences");
            const double ubatch = parsed.at("n_ubatch");
            nlohmann::json sc = {{"workload", "inference"}, {"model", model_of(spec)}, {"hardware", {{"gpu", "H100-SXM"}}},
                                 {"inference", {{"engine", "llamacpp"}, {"weight_format", "fp16"},
                                                {"context_len", parsed.at("n_ctx_seq")}, {"concurrency", sequences},
                                                {"max_batched_tokens", ubatch}}}};
            Scenario s;
            std::string problem;
            const bool decoded = decode_scenario(sc, s, problem);
            INFO(problem);
            REQUIRE(decoded);
            const Layout layout = resolve_layout(s);
            // compute buffer: the profile's function at the run's flash-attention setting and cell count
            double cells = 0;
            for (const auto& c : parsed.at("kv_caches")) cells = std::max(cells, c.at("cells").get<double>());
            const bool flash = parsed.at("flash_attn") == "enabled";
            const double compute = serving::llamacpp_compute_bytes(s.model, layout, ubatch, cells, flash, true);
            const double measured = run.at("compute_bytes_exact");
            INFO("compute buffer: measured " << measured << ", predicted " << compute);
            CHECK(std::fabs(compute - measured) / measured <= 0.17);  // largest error h6 found: 16.2 % (bench/inference/README.md)
            compute_errors.push_back(std::fabs(compute - measured) / measured);
            ++compute_checked;
            // output buffer: 4·V·n_seq within the printed MiB's rounding interval
            const double output = serving::llamacpp_output_bytes(s.model, sequences);
            CHECK(output >= parsed.at("output_buffer").at("bytes_min").get<double>());
            CHECK(output <= parsed.at("output_buffer").at("bytes_max").get<double>());
            // KV bytes: the whole estimate, exact
            const char* dtype = kv_dtype(st.at("kv_cache_type_k"), st.at("kv_cache_type_v"));
            if (!dtype || st.at("swa_full_cache").get<bool>()) {
                ++kv_not_expressible;  // mixed K/V types, F32 cache of F16 weights, --swa-full: not settings of the estimate
                continue;
            }
            sc["inference"]["kv_cache_dtype"] = dtype;
            REQUIRE(decode_scenario(sc, s, problem));
            const Estimate e = estimate(s);
            CHECK(e.inference.memory.kv_cache == run.at("kv_bytes_formula_total").get<double>());
            ++kv_checked;
        }
    }
    CHECK(compute_checked == 262);
    CHECK(kv_checked >= 150);
    CHECK(kv_checked + kv_not_expressible == compute_checked);
    CHECK(median(compute_errors) <= 0.001);  // h6: median 0.00 % (FA on) / 0.01 % (off)
}
