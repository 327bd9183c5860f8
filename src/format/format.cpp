#include "format/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "core/text.hpp"
#include "format/shortest.hpp"

namespace vramcalc {
namespace {

constexpr const char* minus = "\xE2\x88\x92";  // U+2212, the typographic minus sign

// "1234567.5" → "1,234,567.5"; a leading '-' becomes U+2212.
std::string group_digits(const std::string& number) {
    std::string sign, digits = number;
    if (!digits.empty() && digits[0] == '-') {
        sign = minus;
        digits.erase(0, 1);
    }
    std::size_t end = digits.find('.');
    if (end == std::string::npos) end = digits.size();
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && i < end && (end - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return sign + out;
}

std::string fixed(double value, int decimals) { return printf_string("%.*f", decimals, value); }

// 3 significant digits with the zeros kept (a column of them lines up): 69.0 · 6.66 · 124.
std::string three_digits(double value) {
    double a = std::fabs(value);
    return group_digits(fixed(value, a >= 100 ? 0 : a >= 10 ? 1 : 2));
}

bool is_whole(double v) { return std::fabs(v) < 9e15 && v == std::floor(v); }

}  // namespace

std::string printf_string(const char* format, ...) {
    va_list args;
    va_start(args, format);
    va_list again;
    va_copy(again, args);
    int n = std::vsnprintf(nullptr, 0, format, args);
    va_end(args);
    std::string out(n > 0 ? std::size_t(n) : 0, '\0');
    if (n > 0) std::vsnprintf(out.data(), out.size() + 1, format, again);
    va_end(again);
    return out;
}

const char* unit_name(ByteUnits units) { return units == ByteUnits::gib ? "GiB" : "GB"; }

const char* units_definition(ByteUnits units) {
    return units == ByteUnits::gib ? "GiB = 2^30 bytes" : "GB = 10^9 bytes";
}

double bytes_in_unit(double bytes, ByteUnits units) { return bytes / (units == ByteUnits::gib ? bytes_per_gib : 1e9); }

std::string format_sig(double value, int digits) {
    if (!std::isfinite(value)) return "—";
    if (value == 0) return "0";
    int magnitude = int(std::floor(std::log10(std::fabs(value))));
    int decimals = std::clamp(digits - 1 - magnitude, 0, 6);
    std::string s = fixed(value, decimals);
    if (s.find('.') != std::string::npos) {  // "12.50" → "12.5", "12.0" → "12"
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    return s == "-0" ? "0" : group_digits(s);
}

std::string format_grouped(double value) {
    if (!std::isfinite(value)) return "—";
    std::string s = fixed(value, 0);
    return s == "-0" ? "0" : group_digits(s);
}

std::string format_bytes(double bytes, ByteUnits units) {
    if (!std::isfinite(bytes)) return "—";
    const bool binary = units == ByteUnits::gib;
    const double k = binary ? 1024.0 : 1000.0;
    static const char* binary_names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    static const char* decimal_names[] = {"B", "KB", "MB", "GB", "TB", "PB"};
    double a = std::fabs(bytes);
    // GiB/GB for the usual range, so numbers compare at a glance.
    int index = 3;
    if (a < k * k * k * 0.5) index = a < k * k * 0.5 ? (a < k ? 0 : 1) : 2;
    else if (a >= k * k * k * k * 10) index = a >= k * k * k * k * k * 10 ? 5 : 4;
    if (a == 0) index = 3;  // "0 GiB", not "0 B"
    double v = bytes / std::pow(k, index);
    // Fixed decimals (never trimmed) so a column of sizes lines up: 640 · 63.0 · 9.35.
    double av = std::fabs(v);
    int decimals = index == 0 || av == 0 ? 0 : av >= 100 ? 0 : av >= 10 ? 1 : 2;
    return group_digits(fixed(v, decimals)) + " " + (binary ? binary_names[index] : decimal_names[index]);
}

std::string format_count(double value) {
    if (!std::isfinite(value)) return "—";
    double a = std::fabs(value);
    if (a >= 1e12) return three_digits(value / 1e12) + " T";
    if (a >= 1e9) return three_digits(value / 1e9) + " B";
    if (a >= 1e6) return three_digits(value / 1e6) + " M";
    if (a >= 1e4) return three_digits(value / 1e3) + " K";
    return is_whole(value) ? format_grouped(value) : format_sig(value, 3);
}

std::string format_sci(double value) {
    if (!std::isfinite(value)) return "—";
    if (std::fabs(value) < 1e5) return format_sig(value, 3);
    int exponent = int(std::floor(std::log10(std::fabs(value))));
    double mantissa = value / std::pow(10.0, exponent);
    if (std::fabs(mantissa) >= 9.995) {  // rounding carried into the next power
        mantissa /= 10;
        exponent += 1;
    }
    static const char* superscripts[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    std::string power;
    for (char c : std::to_string(exponent)) power += c == '-' ? "⁻" : superscripts[c - '0'];
    return group_digits(fixed(mantissa, 2)) + " × 10" + power;
}

std::string format_flop_rate(double rate) {
    if (!std::isfinite(rate)) return "—";
    double a = std::fabs(rate);
    if (a >= 1e18) return format_sig(rate / 1e18, 3) + " EFLOP/s";
    if (a >= 1e15) return format_sig(rate / 1e15, 3) + " PFLOP/s";
    if (a >= 1e12) return format_sig(rate / 1e12, 3) + " TFLOP/s";
    if (a >= 1e9) return format_sig(rate / 1e9, 3) + " GFLOP/s";
    return format_sig(rate, 3) + " FLOP/s";
}

std::string format_duration(double seconds) {
    if (!std::isfinite(seconds)) return "—";
    if (seconds < 60) return format_sig(seconds, 3) + " s";
    if (seconds < 3600) return format_sig(seconds / 60, 3) + " min";
    if (seconds < 86400 * 2) return format_sig(seconds / 3600, 3) + " hours";
    if (seconds < 86400 * 365.25 * 2) return format_sig(seconds / 86400, 3) + " days";
    return format_sig(seconds / (86400 * 365.25), 3) + " years";
}

std::string format_step_time(double seconds) {
    if (seconds >= 1) return format_sig(seconds, 3) + " s";
    return format_sig(seconds * 1000, 3) + " ms";
}

std::string format_tick(std::int64_t value) {
    if (value >= 1024 && value % 1024 == 0) return std::to_string(value / 1024) + "K";
    if (value >= 10000 && value % 1000 == 0) return std::to_string(value / 1000) + "k";
    return format_grouped(double(value));
}

std::string format_money(double value) {
    if (!std::isfinite(value)) return "—";
    double a = std::fabs(value);
    if (a >= 1e9) return "$" + format_sig(value / 1e9, 3) + " B";
    if (a >= 1e6) return "$" + format_sig(value / 1e6, 3) + " M";
    if (a >= 100) return "$" + format_grouped(value);
    return "$" + group_digits(fixed(value, 2));
}

std::string format_percent(double fraction) {
    if (!std::isfinite(fraction)) return "—";
    return format_sig(fraction * 100, 3) + " %";
}

// Thousands separators on whole numbers; otherwise the shortest text that reads back exactly.
std::string format_input_number(double value) {
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15) return format_grouped(value);
    return format_shortest(value);
}

std::string format_tokens(double tokens) { return format_grouped(std::floor(tokens)) + " tokens"; }

std::string format_sequences(double count) {
    if (count > 0 && count < 1 - 1e-9) return format_sig(count, 2) + " of a sequence";  // not "0": part of one fits
    const double whole = std::floor(count + 1e-9);
    return format_grouped(whole) + (whole == 1 ? " sequence" : " sequences");
}

std::string format_sequence_count(double count) {
    if (count > 0 && count < 1 - 1e-9) return format_sig(count, 2);  // "0.41", never a rounded "0"
    return format_grouped(std::floor(count + 1e-9));  // whole sequences at once: 5.85 is 5, never a rounded-up 6
}

std::string format_gpus(std::int64_t count) { return format_grouped(double(count)) + (count == 1 ? " GPU" : " GPUs"); }

std::string format_value(double v, Unit unit, ByteUnits units, bool unit_word) {
    auto word = [&](std::string number, const char* name) { return unit_word ? number + " " + name : number; };
    switch (unit) {
        case Unit::bytes: return format_bytes(v, units);
        case Unit::bytes_per_parameter: return format_sig(v, 3) + " B/param";
        case Unit::bytes_per_element: return word(format_sig(v, 4), "bytes");
        case Unit::parameters: return format_count(v);
        case Unit::flops: return word(format_sci(v), "FLOP");
        case Unit::flops_per_second: return format_flop_rate(v);
        case Unit::seconds: return format_duration(v);
        case Unit::days: return format_sig(v, 4) + " days";
        case Unit::gpu_hours: return word(format_grouped(v), "GPU-hours");
        case Unit::tflop_hours: return word(format_grouped(v), "TFLOP-hours");
        case Unit::pflop_days: return word(format_sig(v, 4), "PetaFLOP-days");
        case Unit::money: return format_money(v);
        case Unit::tokens: return word(format_count(v), "tokens");
        case Unit::tokens_per_second: return word(format_count(v), "tokens/s");
        case Unit::tflops_per_second: return word(format_sig(v, 3), "TFLOP/s");
        case Unit::sequences: return word(format_sequence_count(v), "sequences");
        case Unit::count: return is_whole(v) ? format_grouped(v) : format_sig(v, 4);
        case Unit::ratio: return format_percent(v);
        case Unit::flag: return v != 0 ? "yes" : "no";
        case Unit::text: return "";
    }
    return format_sig(v, 4);
}

std::string format_output(const OutputSpec& o, const Estimate& e, ByteUnits units, bool unit_word) {
    if (o.kind == ValueKind::text) return o.text ? o.text(e) : "";
    return format_value(o.value(e), o.unit, units, unit_word);
}

std::string format_note(std::string_view note, const Estimate& e, ByteUnits units) {
    std::string out;
    while (!note.empty()) {
        auto open = note.find('{');
        auto close = open == std::string_view::npos ? open : note.find('}', open);
        if (close == std::string_view::npos) break;
        out.append(note.substr(0, open));
        std::string_view path = note.substr(open + 1, close - open - 1);
        const OutputSpec* o = find_output(path);
        out += o ? format_output(*o, e, units, true) : std::string(note.substr(open, close - open + 1));
        note.remove_prefix(close + 1);
    }
    out.append(note);
    return out;
}

std::string output_note(const OutputSpec& o, const Estimate& e, ByteUnits units) {
    return o.note ? format_note(o.note(e), e, units) : std::string();
}

static std::string signed_percent(double fraction) {
    double percent = 100.0 * fraction;
    std::string digits = format_sig(std::fabs(percent), 2);
    if (digits == "0") return "0 %";
    return std::string(percent < 0 ? "\xE2\x88\x92" : "+") + digits + " %";  // U+2212 minus
}

std::string format_error_band(const ErrorBand& band, bool long_form) {
    if (!band.applies) return "";
    if (band.cases == 0) return long_form ? std::string(band.regime) : "no error band";
    std::string range = signed_percent(band.low) + " \xE2\x80\xA6 " + signed_percent(band.high);  // U+2026
    std::string runs = format_grouped(band.cases) + " held-out run" + (band.cases == 1 ? "" : "s");
    if (!long_form) return range + ", " + runs;
    return "Measured error on " + runs + " (" + band.regime + "): " + range + " (10th\xE2\x80\x93" "90th percentile)";
}

std::string format_explained(double v, std::string_view unit, ByteUnits units) {
    if (unit == "bytes") {
        std::string s = format_bytes(v, units);
        return std::fabs(v) >= 1024 ? s + "  (" + format_grouped(v) + " bytes)" : s;
    }
    if (unit == "parameters") return format_count(v) + (std::fabs(v) >= 1000 ? "  (" + format_grouped(v) + ")" : "");
    if (unit == "FLOPs" || unit == "FLOP") return format_sci(v) + " FLOP";
    if (unit == "FLOP/s") return format_sci(v) + " FLOP/s";
    if (unit == "s") return format_duration(v) + "  (" + format_grouped(v) + " s)";
    if (unit == "$") return format_money(v);
    if (unit == "bytes/param") return format_sig(v, 4) + " bytes/param";
    std::string number = is_whole(v) && std::fabs(v) < 1e15 ? format_grouped(v) : format_sig(v, 5);
    return unit.empty() ? number : number + " " + std::string(unit);
}

std::string pad(std::string_view text, std::size_t width, bool right_align) {
    std::size_t characters = 0;
    for (char c : text) characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    std::string fill(characters < width ? width - characters : 0, ' ');
    return right_align ? fill + std::string(text) : std::string(text) + fill;
}

std::string escape_markdown(std::string_view text) {
    std::string out;
    std::size_t characters = 0;
    for (std::size_t i = 0; i < text.size(); ++characters) {
        if (characters == max_text_length) {  // longer than any valid label: cut between characters
            out += "…";
            break;
        }
        std::size_t n = utf8_sequence_length(text, i);
        if (n == 0) {  // not UTF-8: the replacement character, so the output always is
            out += "\xEF\xBF\xBD";
            i += 1;
            continue;
        }
        char32_t c = utf8_code_point(text, i, n);
        if (is_control_or_format(c)) {
            // Line breaks and other controls would end the line or the table row; format
            // characters (bidi overrides, zero-width) would reorder or hide text: both go.
            bool control = c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029;
            if (control) out += ' ';
        } else if (c == '<') {
            out += "&lt;";
        } else if (c == '>') {
            out += "&gt;";
        } else if (c == '&') {
            out += "&amp;";
        } else if (c < 0x80 && std::string_view("\\`*_[]|~!#").find(char(c)) != std::string_view::npos) {
            out += '\\';
            out += char(c);
        } else {
            out.append(text.substr(i, n));
        }
        i += n;
    }
    return out;
}

}  // namespace vramcalc
