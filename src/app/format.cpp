#include "format.hpp"

#include <cmath>
#include <cstdio>

namespace vramcalc::app {

const char* unit_name(ByteUnits units) { return units == ByteUnits::gib ? "GiB" : "GB"; }

double bytes_in_unit(double bytes, ByteUnits units) {
    return bytes / (units == ByteUnits::gib ? 1073741824.0 : 1e9);
}

std::string format_sig(double value, int digits) {
    if (!std::isfinite(value)) return "—";
    char buf[48];
    double a = std::fabs(value);
    if (a == 0) return "0";
    int magnitude = int(std::floor(std::log10(a)));
    int decimals = digits - 1 - magnitude;
    if (decimals < 0) decimals = 0;
    if (decimals > 6) decimals = 6;
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    // Trim trailing zeros after the decimal point ("12.0" stays "12").
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (!s.empty() && s.back() == '0') s.pop_back();
        if (!s.empty() && s.back() == '.') s.pop_back();
    }
    return s;
}

std::string format_bytes(double bytes, ByteUnits units) {
    const bool binary = units == ByteUnits::gib;
    const double k = binary ? 1024.0 : 1000.0;
    static const char* bin_names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    static const char* dec_names[] = {"B", "KB", "MB", "GB", "TB", "PB"};
    if (!std::isfinite(bytes)) return "—";
    double a = std::fabs(bytes);
    // Stay in GiB/GB for the usual range so numbers compare at a glance.
    int index = 3;
    if (a < k * k * k * 0.5) index = a < k * k * 0.5 ? (a < k ? 0 : 1) : 2;
    else if (a >= k * k * k * k * 10) index = a >= k * k * k * k * k * 10 ? 5 : 4;
    double v = bytes / std::pow(k, index);
    // Fixed decimals (never trimmed) so a column of sizes lines up: 640 · 63.0 · 9.35 · 0.53.
    double av = std::fabs(v);
    int decimals = av == 0 ? 0 : av >= 100 ? 0 : av >= 10 ? 1 : 2;
    if (index == 0) decimals = 0;
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    if (av == 0) index = 3;  // "0 GiB", not "0 B"
    return std::string(buf) + " " + (binary ? bin_names[index] : dec_names[index]);
}

std::string format_count(double value) {
    if (!std::isfinite(value)) return "—";
    double a = std::fabs(value);
    auto fixed3 = [](double v, const char* suffix) {  // 3 significant digits, zeros kept: 69.0 B
        double av = std::fabs(v);
        int decimals = av >= 100 ? 0 : av >= 10 ? 1 : 2;
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.*f %s", decimals, v, suffix);
        return std::string(buf);
    };
    if (a >= 1e12) return fixed3(value / 1e12, "T");
    if (a >= 1e9) return fixed3(value / 1e9, "B");
    if (a >= 1e6) return fixed3(value / 1e6, "M");
    if (a >= 1e4) return fixed3(value / 1e3, "K");
    return format_grouped(value);
}

std::string format_grouped(double value) {
    if (!std::isfinite(value)) return "—";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", std::fabs(value));
    std::string digits = buf, out;
    int n = int(digits.size());
    for (int i = 0; i < n; ++i) {
        out += digits[i];
        if ((n - 1 - i) % 3 == 0 && i != n - 1) out += ',';
    }
    return (value < 0 && out != "0" ? "−" : "") + out;
}

std::string format_sci(double value) {
    if (!std::isfinite(value)) return "—";
    if (value == 0) return "0";
    if (std::fabs(value) < 1e5) return format_sig(value, 3);
    int exponent = int(std::floor(std::log10(std::fabs(value))));
    double mantissa = value / std::pow(10.0, exponent);
    if (std::fabs(mantissa) >= 9.995) {  // rounding carried into the next power
        mantissa /= 10;
        exponent += 1;
    }
    static const char* superscripts[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    std::string exp_text;
    for (char c : std::to_string(exponent)) exp_text += c == '-' ? "⁻" : superscripts[c - '0'];
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", mantissa);
    return std::string(buf) + " × 10" + exp_text;
}

std::string format_duration(double seconds) {
    if (!std::isfinite(seconds)) return "—";
    if (seconds < 60) return format_sig(seconds, 3) + " s";
    if (seconds < 3600) return format_sig(seconds / 60, 3) + " min";
    if (seconds < 86400 * 2) return format_sig(seconds / 3600, 3) + " hours";
    if (seconds < 86400 * 365.25 * 2) return format_sig(seconds / 86400, 3) + " days";
    return format_sig(seconds / (86400 * 365.25), 3) + " years";
}

std::string format_money(double value) {
    if (!std::isfinite(value)) return "—";
    double a = std::fabs(value);
    if (a >= 1e9) return "$" + format_sig(value / 1e9, 3) + " B";
    if (a >= 1e6) return "$" + format_sig(value / 1e6, 3) + " M";
    if (a >= 100) return "$" + format_grouped(value);
    char buf[32];
    std::snprintf(buf, sizeof buf, "$%.2f", value);
    return buf;
}

std::string format_percent(double fraction) {
    if (!std::isfinite(fraction)) return "—";
    return format_sig(fraction * 100, 3) + " %";
}

}  // namespace vramcalc::app
