#include "core/serving/planner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/fields.hpp"
#include "core/model/architecture.hpp"
#include "core/model/presets.hpp"
#include "core/serving/engines.hpp"
#include "core/serving/serving.hpp"
#include "core/serving/weight_formats.hpp"

namespace vramcalc {
namespace {

using F = WeightFormat;

// Tensor-parallel degrees tried inside one node (vLLM distributed serving: tensor parallel within
// a node, pipeline parallel across nodes; powers of two divide the head counts of every preset).
constexpr std::int64_t tensor_degrees[] = {1, 2, 4, 8};

// Engines that span machines: vLLM, SGLang and TensorRT-LLM run pipeline stages on other nodes;
// llama.cpp's layer split and HF device_map="auto" stay in one machine.
bool spans_nodes(Engine engine) { return engine == Engine::vllm || engine == Engine::sglang || engine == Engine::trtllm; }

// The widest t of one node: the largest power of two ≤ min(8, gpus_per_node).
std::int64_t node_tensor(std::int64_t gpus_per_node) {
    std::int64_t t = 1;
    while (t * 2 <= std::min<std::int64_t>(8, gpus_per_node)) t *= 2;
    return t;
}

bool amd(GpuFamily f) { return f == GpuFamily::cdna2 || f == GpuFamily::cdna3; }
bool fp8_format(WeightFormat f) { return f == F::fp8 || f == F::fp8_channel || f == F::fp8_block; }

// checkpoint bytes · 8 / parameters: the bits one parameter costs, as llama.cpp's loader prints
// "file size = … (… BPW)" (llama-model-loader.cpp: size · 8 / n_elements).
double checkpoint_bits_per_weight(const Scenario& sc) {
    const Layout layout = resolve_layout(sc);
    const ParameterCounts params = count_model_parameters(sc.model, layout);
    if (params.total <= 0) return 0;
    return serving::weight_bytes(sc, layout, params.total).total * 8.0 / params.total;
}

// Ranking: cheaper per million output tokens first; within 0.1 % fewer GPUs, then more bits per
// weight (better quality at the same price), then faster decode.
bool cheaper(const ServingPlan& a, const ServingPlan& b) {
    const double ca = a.cost_per_million_output_tokens, cb = b.cost_per_million_output_tokens;
    if (std::fabs(ca - cb) > 1e-3 * std::min(ca, cb)) return ca < cb;
    if (a.gpus != b.gpus) return a.gpus < b.gpus;
    if (a.bits_per_weight != b.bits_per_weight) return a.bits_per_weight > b.bits_per_weight;
    return a.decode_tokens_per_second > b.decode_tokens_per_second;
}

struct Search {
    const ServingPlanOptions& options;
    ServingPlanResult& result;
    Scenario sc;
    std::int64_t base_concurrency = 1;
    bool aggregate_met = false, sequence_met = false;  // some fitting candidate met each target

    bool targets_set() const { return options.min_tokens_per_second > 0 || options.min_sequence_tokens_per_second > 0; }
    void keep(const Estimate& e, double bits);
    bool consider(std::int64_t t, std::int64_t p, double bits);
    std::int64_t operating_concurrency(const Estimate& at_base);
};

// Serving estimate at concurrency n with the candidate's layout (resolve_layout and the parameter
// count do not depend on n): what estimate() would fill in `inference`.
InferenceEstimate at_concurrency(Scenario& sc, const Estimate& e, std::int64_t n) {
    sc.inference.concurrency = n;
    return estimate_inference(sc, e.layout, e.parameters);
}

// Largest n in [lo, hi] with ok(n), ok monotone (true up to some n) and ok(lo) true.
template <class Ok>
std::int64_t largest_ok(std::int64_t lo, std::int64_t hi, Ok ok) {
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (ok(mid)) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

// The concurrency a candidate serves at: the scenario's; with an aggregate target, the smallest
// n ≥ it whose decode reaches the target (aggregate tokens/s = n / step grows with n: the step
// is a fixed part plus the bytes each sequence adds; Pope et al. 2022, arXiv:2211.05102 §2) and
// that fits — at most the engine's sequence cap (vLLM max_num_seqs = 256). 0: none reaches it.
std::int64_t Search::operating_concurrency(const Estimate& at_base) {
    const double target = options.min_tokens_per_second;
    const std::int64_t n0 = base_concurrency;
    if (target <= 0 || at_base.inference.speed.decode_tokens_per_second >= target) return n0;
    const double cap = std::max(double(n0), std::min(std::floor(at_base.inference.max_concurrency), serving::vllm_max_num_seqs));
    const std::int64_t top = largest_ok(n0, std::int64_t(cap), [&](std::int64_t n) { return at_concurrency(sc, at_base, n).fits; });
    const double best = at_concurrency(sc, at_base, top).speed.decode_tokens_per_second;
    result.best_tokens_per_second = std::max(result.best_tokens_per_second, best);
    if (best < target) return 0;
    // smallest n reaching the target = one more than the largest n below it
    const std::int64_t below = largest_ok(n0, top, [&](std::int64_t n) {
        return n == n0 || at_concurrency(sc, at_base, n).speed.decode_tokens_per_second < target;
    });
    return below + 1;
}

void Search::keep(const Estimate& e, double bits) {
    ServingPlan plan;
    plan.scenario = sc;
    plan.estimate = e;
    plan.bits_per_weight = bits;
    plan.gpus = double(sc.parallel.tensor * sc.parallel.pipeline);
    plan.nodes = std::ceil(plan.gpus / double(sc.hardware.gpus_per_node));
    plan.decode_tokens_per_second = e.inference.speed.decode_tokens_per_second;
    const double itl = e.inference.speed.inter_token_latency_seconds;
    plan.sequence_tokens_per_second = itl > 0 ? 1.0 / itl : 0.0;
    plan.cost_per_million_output_tokens = e.inference.speed.cost_per_million_output_tokens;
    auto& plans = result.plans;
    const std::size_t most = std::size_t(std::max(1, options.max_results));
    if (plans.size() >= most && !cheaper(plan, plans.back())) return;
    auto at = std::find_if(plans.begin(), plans.end(), [&](const ServingPlan& p) { return cheaper(plan, p); });
    plans.insert(at, std::move(plan));
    if (plans.size() > most) plans.pop_back();
}

// One candidate (GPU, format and engine already set): true when it fits.
bool Search::consider(std::int64_t t, std::int64_t p, double bits) {
    if (t * p > options.max_gpus) return false;
    sc.parallel.tensor = t;
    sc.parallel.pipeline = p;
    sc.inference.concurrency = base_concurrency;
    if (!is_valid(sc)) return false;  // t does not split this model's heads or widths
    const Estimate at_base = estimate(sc);
    ++result.searched;
    if (!at_base.fits) return false;
    ++result.fitting;
    const std::int64_t n = operating_concurrency(at_base);
    if (n == 0) return true;
    aggregate_met = true;
    sc.inference.concurrency = n;
    const Estimate e = n == base_concurrency ? at_base : estimate(sc);
    const double itl = e.inference.speed.inter_token_latency_seconds;
    const double per_sequence = itl > 0 ? 1.0 / itl : 0.0;
    result.best_sequence_tokens_per_second = std::max(result.best_sequence_tokens_per_second, per_sequence);
    result.best_tokens_per_second = std::max(result.best_tokens_per_second, e.inference.speed.decode_tokens_per_second);
    if (per_sequence < options.min_sequence_tokens_per_second) return true;
    sequence_met = true;
    ++result.meeting;
    keep(e, bits);
    return true;
}

// Every t of one node; pipeline across nodes (p = 2, 4, …) only when no t of one node fits.
void search_gpu(Search& s, double bits) {
    const Engine engine = s.sc.inference.engine;
    bool fits = false;
    for (std::int64_t t : tensor_degrees)
        if (t <= s.sc.hardware.gpus_per_node) fits = s.consider(t, 1, bits) || fits;
    if (fits || !spans_nodes(engine)) return;
    const std::int64_t t = node_tensor(s.sc.hardware.gpus_per_node);
    for (std::int64_t p = 2; t * p <= s.options.max_gpus && p <= s.sc.model.layers; p *= 2)
        if (s.consider(t, p, bits)) return;
}

bool gpu_chosen(const ServingPlanOptions& o, const GpuPreset& g) {
    if (o.gpus.empty()) return true;
    return std::any_of(o.gpus.begin(), o.gpus.end(), [&](const std::string& id) { return find_gpu_preset(id) == &g; });
}

std::string formats_text(const std::vector<WeightFormat>& formats) {
    std::string out;
    for (WeightFormat f : formats) out += (out.empty() ? "" : ", ") + std::string(weight_format_names()[std::size_t(f)]);
    return out;
}

// At most `bytes` bytes of `text`, not cutting a UTF-8 sequence.
std::string utf8_prefix(const std::string& text, std::size_t bytes) {
    if (text.size() <= bytes) return text;
    while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) --bytes;
    return text.substr(0, bytes) + "\xE2\x80\xA6";
}

std::string number_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

// Why nothing was kept: no candidate fits, or none that fits meets the target.
std::string shortfall_message(const ServingPlanResult& r, const Scenario& base, const ServingPlanOptions& o, bool aggregate_met) {
    const std::string need = std::to_string(base.inference.concurrency) + " sequence" + (base.inference.concurrency == 1 ? "" : "s") +
                             " of " + std::to_string(base.inference.context_len) + " tokens";
    std::string floor = number_text(o.min_bits_per_weight) + " bits per weight";
    if (!r.below_min_bits.empty()) floor += " (left out: " + formats_text(r.below_min_bits) + ")";
    if (r.shortfall == ServingPlanShortfall::nothing_fits)
        return "No GPU preset fits " + need + " with up to " + std::to_string(o.max_gpus) + (o.max_gpus == 1 ? " GPU" : " GPUs") +
               " in a format of at least " + floor +
               ": lower inference.context_len or inference.concurrency, allow more GPUs (options.max_gpus) or a lower "
               "options.min_bits_per_weight.";
    if (!aggregate_met)
        return std::to_string(r.fitting) + " configurations fit " + need + " but none reaches " + number_text(o.min_tokens_per_second) +
               " decode tokens/s (options.min_tokens_per_second) with at most " +
               std::to_string(std::int64_t(serving::vllm_max_num_seqs)) + " sequences; the fastest reaches " +
               number_text(r.best_tokens_per_second) + ". Lower the target or run several replicas.";
    return std::to_string(r.fitting) + " configurations fit " + need + " but none gives each sequence " +
           number_text(o.min_sequence_tokens_per_second) + " tokens/s (options.min_sequence_tokens_per_second); the fastest gives " +
           number_text(r.best_sequence_tokens_per_second) + ". Lower the target, the concurrency or the context.";
}

}  // namespace

std::vector<WeightFormat> serving_plan_formats(Engine engine) {
    switch (engine) {
        // bitsandbytes nf4 is left to HF: vLLM and SGLang load it but have no fast kernel for it (the speed
        // model, which reads bytes, would rank it as fast as AWQ's Marlin kernels).
        case Engine::vllm: return {F::bf16, F::fp8, F::int8, F::awq, F::gptq, F::mxfp4};
        case Engine::sglang: return {F::bf16, F::fp8, F::int8, F::awq, F::gptq, F::mxfp4};
        case Engine::trtllm: return {F::bf16, F::fp8, F::int8, F::awq, F::gptq, F::mxfp4};
        case Engine::llamacpp:
            return {F::bf16, F::gguf_q8_0, F::gguf_q6_k, F::gguf_q5_k_m, F::gguf_q4_k_m, F::gguf_q4_k_s,
                    F::gguf_iq4_xs, F::gguf_q4_0, F::gguf_q3_k_m, F::gguf_q2_k};
        case Engine::hf: return {F::bf16, F::int8, F::awq, F::gptq, F::nf4};
    }
    return {F::bf16};
}

// vLLM's quantization hardware table (docs.vllm.ai, features/quantization/supported_hardware, v0.9):
// AWQ, INT8 W8A8 and FP8 not on Volta; on AMD GPUs neither AWQ, GPTQ, INT8 nor bitsandbytes, FP8 on
// MI300 (CDNA3) only; FP8 runs weight-only (Marlin W8A16) from Ampere on. MXFP4 (gpt-oss) needs
// Ampere or newer, or MI300. TensorRT-LLM is NVIDIA-only; llama.cpp runs GGUF on CUDA and ROCm.
bool format_runs_on(Engine engine, WeightFormat f, GpuFamily family) {
    if (engine == Engine::llamacpp) return true;
    if (engine == Engine::trtllm && amd(family)) return false;
    if (family == GpuFamily::volta) return f != F::awq && f != F::int8 && !fp8_format(f) && f != F::mxfp4;
    if (amd(family)) {
        if (f == F::awq || f == F::gptq || f == F::int8 || f == F::nf4) return false;
        return family == GpuFamily::cdna3 || (!fp8_format(f) && f != F::mxfp4);
    }
    return true;
}

std::vector<ValidationIssue> serving_plan_issues(const Scenario& base, const ServingPlanOptions& o) {
    std::vector<ValidationIssue> issues;
    auto rate = [&](const char* key, double v) {
        if (!(v >= 0) || !(v <= serving_plan_max_tokens_per_second))
            issues.push_back({std::string("options.") + key, "must be a number of tokens per second from 0 (none) to 1e9 (got " +
                                                                 number_text(v) + ")"});
    };
    rate("min_tokens_per_second", o.min_tokens_per_second);
    rate("min_sequence_tokens_per_second", o.min_sequence_tokens_per_second);
    if (!(o.min_bits_per_weight >= 0) || !(o.min_bits_per_weight <= 32))
        issues.push_back({"options.min_bits_per_weight", "must be a number from 0 to 32 (got " + number_text(o.min_bits_per_weight) + ")"});
    if (o.max_gpus < 1 || o.max_gpus > serving_plan_max_gpus)
        issues.push_back({"options.max_gpus", "must be an integer from 1 to 4096 (got " + std::to_string(o.max_gpus) + ")"});
    if (o.max_results < 1 || o.max_results > 1000)
        issues.push_back({"options.max_results", "must be an integer from 1 to 1000 (got " + std::to_string(o.max_results) + ")"});
    for (const auto& id : o.gpus)
        if (!find_gpu_preset(id)) issues.push_back({"options.gpus", "unknown GPU preset \"" + utf8_prefix(id, 40) + "\" (see --list-presets)"});
    // The scenario's own rules, on the layout the search starts from (t = p = 1).
    Scenario probe = base;
    probe.workload = Workload::inference;
    probe.parallel.tensor = probe.parallel.pipeline = 1;
    std::vector<ValidationIssue> rules = validate(probe);
    issues.insert(issues.end(), rules.begin(), rules.end());
    return issues;
}

ServingPlanResult serving_plan(const Scenario& base, const ServingPlanOptions& options) {
    ServingPlanResult result;
    Search s{options, result, base};
    s.sc.workload = Workload::inference;
    s.base_concurrency = base.inference.concurrency;
    result.plans.reserve(std::size_t(std::max(1, options.max_results)) + 1);
    for (const auto& profile : serving::engine_profiles()) {
        if (!options.all_engines && profile.id != base.inference.engine) continue;
        s.sc.inference.engine = profile.id;
        for (WeightFormat format : serving_plan_formats(profile.id)) {
            s.sc.inference.weight_format = format;
            s.sc.parallel.tensor = s.sc.parallel.pipeline = 1;
            if (!is_valid(s.sc)) continue;  // the format does not apply (mxfp4 without experts, a cache type)
            const double bits = checkpoint_bits_per_weight(s.sc);
            if (bits < options.min_bits_per_weight) {
                if (std::find(result.below_min_bits.begin(), result.below_min_bits.end(), format) == result.below_min_bits.end())
                    result.below_min_bits.push_back(format);
                continue;
            }
            for (const auto& gpu : gpu_presets()) {
                if (!gpu_chosen(options, gpu) || !format_runs_on(profile.id, format, gpu.family)) continue;
                apply_gpu_preset(s.sc.hardware, gpu);
                search_gpu(s, bits);
            }
        }
    }
    if (result.plans.empty()) {
        result.shortfall = result.fitting == 0 ? ServingPlanShortfall::nothing_fits : ServingPlanShortfall::target_unreached;
        result.message = shortfall_message(result, base, options, s.aggregate_met);
    }
    return result;
}

}  // namespace vramcalc
