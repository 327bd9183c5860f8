#include "codec/markdown.hpp"

#include <cstdio>

namespace vramcalc::codec {
namespace {

std::string printf_string(const char* format, auto... values) {
    char buffer[512];
    std::snprintf(buffer, sizeof buffer, format, values...);
    return buffer;
}

// Markdown table cells must not contain raw pipes or newlines.
std::string cell(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '|') out += "\\|";
        else if (c == '\n' || c == '\r') out += ' ';
        else out += c;
    }
    return out;
}

}  // namespace

std::string format_bytes(double bytes, ByteUnits units) {
    return units == ByteUnits::gib ? printf_string("%.2f GiB", bytes / bytes_per_gib)
                                   : printf_string("%.2f GB", bytes / 1e9);
}

std::string estimate_to_markdown(const Scenario& sc, const Estimate& e, ByteUnits units, std::string_view link) {
    const auto& m = e.memory_per_gpu_bytes;
    const auto& c = e.compute;
    auto bytes = [&](double b) { return format_bytes(b, units); };
    std::string out;
    out += printf_string("**%s** on %lld × %s — %s per GPU (%s)\n\n", cell(sc.model.name).c_str(),
                         (long long)sc.parallel.num_gpus, cell(sc.hardware.gpu).c_str(), bytes(m.total).c_str(),
                         e.fits ? "fits" : "does not fit");
    out += "| per GPU | memory |\n|---|---:|\n";
    out += "| weights | " + bytes(m.weights) + " |\n";
    out += "| gradients | " + bytes(m.gradients) + " |\n";
    out += "| optimizer states | " + bytes(m.optimizer) + " |\n";
    out += "| activations | " + bytes(m.activations) + " |\n";
    out += "| overhead | " + bytes(m.overhead) + " |\n";
    out += "| **total** | **" + bytes(m.total) + "** of " + bytes(e.capacity_bytes) + " |\n";
    if (e.host_bytes_per_gpu > 0) out += "| host (offloaded) | " + bytes(e.host_bytes_per_gpu) + " |\n";
    out += "\n| compute | value |\n|---|---:|\n";
    out += printf_string("| parameters | %.3f B (active %.3f B) |\n", e.parameters.total / 1e9, e.parameters.active / 1e9);
    out += printf_string("| training FLOPs | %.3e |\n", c.total_flops);
    out += printf_string("| time | %.3g days |\n", c.days);
    out += printf_string("| GPU-hours | %.0f |\n", c.gpu_hours);
    out += printf_string("| PetaFLOP-days | %.4g |\n", c.pflop_days);
    out += printf_string("| cost | $%.0f |\n", c.cost);
    if (e.warnings.count > 0) {
        out += "\n";
        for (int i = 0; i < e.warnings.count; ++i) out += std::string("- ⚠ ") + warning_message(e.warnings.items[i]) + "\n";
    }
    out += units == ByteUnits::gib ? "\nGiB = 2^30 bytes." : "\nGB = 10^9 bytes.";
    if (!link.empty()) out += " [Open this scenario in vramcalc](" + std::string(link) + ")";
    out += "\n";
    return out;
}

}  // namespace vramcalc::codec
