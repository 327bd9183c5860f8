#include "cli/report.hpp"

#include <cmath>
#include <cstdio>

#include "core/fields.hpp"

namespace vramcalc::cli {
namespace {

std::string printf_string(const char* format, auto... values) {
    char buffer[256];
    std::snprintf(buffer, sizeof buffer, format, values...);
    return buffer;
}

const char* choice_name(std::span<const char* const> names, auto value) { return names[static_cast<int>(value)]; }

}  // namespace

std::string format_count(double value) {
    std::string digits = printf_string("%.0f", std::fabs(value));
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return (value < 0 ? "-" : "") + out;
}

std::string format_scaled(double value) {
    double magnitude = std::fabs(value);
    if (magnitude >= 1e15) return printf_string("%.3g", value);
    if (magnitude >= 1e12) return printf_string("%.3g T", value / 1e12);
    if (magnitude >= 1e9) return printf_string("%.3g B", value / 1e9);
    if (magnitude >= 1e6) return printf_string("%.3g M", value / 1e6);
    return printf_string("%.3g", value);
}

std::string format_report(const Scenario& sc, const Estimate& e, Units units) {
    const auto& m = e.memory_per_gpu_bytes;
    const auto& c = e.compute;
    const auto& r = e.resolved;
    auto bytes = [&](double b) { return codec::format_bytes(b, units); };
    std::string out;
    out += printf_string("%s on %lld x %s (%s each)\n", sc.model.name.c_str(), (long long)sc.parallel.num_gpus,
                         sc.hardware.gpu.c_str(), bytes(e.capacity_bytes).c_str());
    out += printf_string("  %s, %s, recompute %s, ZeRO-%d, t=%lld p=%lld DP=%lld, s=%lld b=%lld, grad accum %lld\n",
                         choice_name(precision_names(), sc.training.precision),
                         choice_name(optimizer_names(), sc.training.optimizer),
                         choice_name(recompute_names(), sc.training.recompute), sc.parallel.zero_stage,
                         (long long)sc.parallel.tensor, (long long)sc.parallel.pipeline, (long long)r.data_parallel,
                         (long long)sc.training.seq_len, (long long)sc.training.micro_batch_size,
                         (long long)r.grad_accum_steps);
    out += printf_string("  units: %s\n\n", units == Units::gib ? "GiB = 2^30 bytes" : "GB = 10^9 bytes");

    out += "Parameters\n";
    out += printf_string("  total      %s (%s)%s\n", format_count(e.parameters.total).c_str(),
                         format_scaled(e.parameters.total).c_str(), e.parameters.overridden ? "  [override]" : "");
    if (e.parameters.active != e.parameters.total)
        out += printf_string("  active     %s (%s) per token\n", format_count(e.parameters.active).c_str(),
                             format_scaled(e.parameters.active).c_str());
    out += printf_string("  per GPU    %s (model states before ZeRO)\n\n", format_scaled(e.params_per_gpu).c_str());

    out += "Memory per GPU\n";
    const auto& bpp = e.bytes_per_parameter;
    out += printf_string("  weights      %12s  (%g B/param%s)\n", bytes(m.weights).c_str(), bpp.weights,
                         m.zero3_live_params > 0 ? (", incl. ZeRO-3 live " + bytes(m.zero3_live_params)).c_str() : "");
    out += printf_string("  gradients    %12s  (%g B/param)\n", bytes(m.gradients).c_str(), bpp.gradients);
    out += printf_string("  optimizer    %12s  (%g B/param%s)\n", bytes(m.optimizer).c_str(), bpp.optimizer,
                         sc.parallel.offload_optimizer ? ", offloaded to host" : "");
    out += printf_string("  activations  %12s  (%.4g·sbh + %.4g·as²b bytes per layer, %g layers, %g in flight)\n",
                         bytes(m.activations).c_str(), e.activations.sbh_coefficient,
                         e.activations.as2b_coefficient, e.activations.layers_on_gpu,
                         e.activations.in_flight_microbatches);
    out += printf_string("  overhead     %12s\n", bytes(m.overhead).c_str());
    out += printf_string("  total        %12s  of %s: %s (headroom %s)\n", bytes(m.total).c_str(),
                         bytes(e.capacity_bytes).c_str(), e.fits ? "FITS" : "DOES NOT FIT",
                         bytes(e.headroom_bytes).c_str());
    if (e.host_bytes_per_gpu > 0)
        out += printf_string("  host memory  %12s per GPU, %s in total (offloaded optimizer)\n",
                             bytes(e.host_bytes_per_gpu).c_str(), bytes(e.host_bytes_total).c_str());

    out += "\nCompute\n";
    out += printf_string("  FLOPs/token    %.4g\n", c.flops_per_token);
    out += printf_string("  model FLOPs    %.4g  (6·P·D)\n", c.model_flops);
    if (c.recompute_flops > 0) out += printf_string("  recompute      %.4g\n", c.recompute_flops);
    out += printf_string("  total FLOPs    %.4g\n", c.total_flops);
    out += printf_string("  time           %.4g days (%.4g s) on %.4g PFLOP/s achieved\n", c.days, c.seconds,
                         c.cluster_flops_per_second / 1e15);
    out += printf_string("  GPU-hours      %.4g\n", c.gpu_hours);
    out += printf_string("  TFLOP-hours    %.4g\n", c.tflop_hours);
    out += printf_string("  PFLOP-days     %.4g\n", c.pflop_days);
    out += printf_string("  cost           %.4g (at %g per GPU-hour)\n", c.cost, sc.hardware.price_per_gpu_hour);
    out += printf_string("  Chinchilla D   %.4g tokens (20·P)\n", c.chinchilla_tokens);

    if (e.warnings.count > 0) {
        out += "\nWarnings\n";
        for (int i = 0; i < e.warnings.count; ++i)
            out += printf_string("  - [%s] %s\n", warning_id(e.warnings.items[i]), warning_message(e.warnings.items[i]));
    }
    return out;
}

std::string format_explain(const std::vector<ExplainTerm>& terms) {
    std::string out = "\nHow each number is computed\n";
    for (const auto& t : terms) {
        std::string value = t.value == std::floor(t.value) && std::fabs(t.value) < 1e18 ? format_count(t.value)
                                                                                          : printf_string("%.6g", t.value);
        out += printf_string("\n%s = %s %s\n  %s\n", t.label, value.c_str(), t.unit, t.formula);
        for (const auto& i : t.inputs)
            out += printf_string("    %-28s = %.10g %s\n", i.symbol, i.value, i.unit);
        out += printf_string("  source: %s\n", t.source);
    }
    return out;
}

}  // namespace vramcalc::cli
