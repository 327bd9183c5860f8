#include "core/serving/serving_map.hpp"

#include <algorithm>
#include <cmath>

#include "core/estimate.hpp"
#include "core/model/architecture.hpp"
#include "core/serving/serving.hpp"

namespace vramcalc {

namespace {

// One cell: KV need over KV pool, pinned to the estimate's verdict at the boundary.
float cell_ratio(const InferenceEstimate& e) {
    double r = e.kv_pool_bytes > 0 ? e.memory.kv_cache / e.kv_pool_bytes : double(serving_ratio_cap);
    if (!std::isfinite(r)) r = serving_ratio_cap;
    r = std::clamp(r, 0.0, double(serving_ratio_cap));
    if (e.fits && r > 1.0) r = 1.0;               // fits by the engine's own rounding
    if (!e.fits && r <= 1.0) r = 1.0 + 1e-4;      // does not fit (e.g. vLLM's budget check)
    return float(r);
}

}  // namespace

void serving_fit_grid_into(const Scenario& base, std::span<const std::int64_t> contexts,
                           std::span<const std::int64_t> concurrencies, std::span<float> out) {
    Scenario s = base;
    s.workload = Workload::inference;
    const Layout layout = resolve_layout(s);
    const ParameterCounts params = count_model_parameters(s.model, layout);
    const std::size_t nx = contexts.size();
    for (std::size_t j = 0; j < concurrencies.size(); ++j)
        for (std::size_t i = 0; i < nx; ++i) {
            s.inference.context_len = contexts[i];
            s.inference.concurrency = concurrencies[j];
            float& cell = out[j * nx + i];
            cell = is_valid(s) ? cell_ratio(estimate_inference(s, layout, params)) : serving_invalid_cell;
        }
}

std::vector<std::int64_t> serving_axis_values(std::int64_t lo, std::int64_t hi, std::int64_t current, int count) {
    std::vector<std::int64_t> out;
    lo = std::max<std::int64_t>(1, lo);
    hi = std::max(hi, lo);
    const double a = std::log(double(lo)), b = std::log(double(hi));
    for (int k = 0; k < count; ++k) {
        double t = count == 1 ? 0.0 : double(k) / (count - 1);
        auto v = std::int64_t(std::llround(std::exp(a + (b - a) * t)));
        if (out.empty() || v > out.back()) out.push_back(v);
    }
    if (current >= lo && current <= hi && !std::binary_search(out.begin(), out.end(), current))
        out.insert(std::lower_bound(out.begin(), out.end(), current), current);
    return out;
}

std::vector<std::int64_t> serving_context_axis(const Scenario& s, int count) {
    const std::int64_t c = s.inference.context_len;
    std::int64_t hi = std::max<std::int64_t>(4 * c, 32768);
    if (s.model.position_embedding == PositionEmbedding::learned) hi = std::min(hi, s.model.max_position_embeddings);
    return serving_axis_values(std::min<std::int64_t>(256, c), std::max(hi, c), c, count);
}

std::vector<std::int64_t> serving_concurrency_axis(const Scenario& s, double max_concurrency, int count) {
    const std::int64_t n = s.inference.concurrency;
    const double want = std::max({4.0 * double(n), 2.0 * max_concurrency, 16.0});
    const std::int64_t hi = std::max<std::int64_t>(n, std::int64_t(std::min(4096.0, std::ceil(want))));
    return serving_axis_values(1, hi, n, count);
}

}  // namespace vramcalc
