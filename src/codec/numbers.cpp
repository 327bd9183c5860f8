#include "codec/numbers.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace vramcalc::codec {

std::string format_number(double value) {
    if (!std::isfinite(value)) return "0";
    char buffer[40];
    if (value == std::floor(value) && std::fabs(value) < 1e15) {
        std::snprintf(buffer, sizeof buffer, "%.0f", value);
        std::string integer = buffer;
        // Round numbers read better as 2e12 than 2000000000000.
        std::size_t zeros = integer.size() - integer.find_last_not_of('0') - 1;
        if (zeros < 6) return integer;
    }
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
        if (std::strtod(buffer, nullptr) == value) break;
    }
    std::string out = buffer;  // drop the exponent's '+' and leading zeros: 1e+09 -> 1e9
    if (auto e = out.find("e+"); e != std::string::npos) out.erase(e + 1, 1);
    if (auto e = out.find('e'); e != std::string::npos) {
        std::size_t digits = e + 1 + (out[e + 1] == '-' ? 1 : 0);
        while (digits + 1 < out.size() && out[digits] == '0') out.erase(digits, 1);
    }
    return out;
}

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Whether the whole text is -?D+(.D+)?([eE][+-]?D+)?; `nonzero` says whether the mantissa has a
// digit other than 0.
bool strict_number_form(std::string_view t, bool& nonzero) {
    std::size_t i = 0;
    nonzero = false;
    auto digits = [&] {
        std::size_t start = i;
        while (i < t.size() && is_digit(t[i])) nonzero = nonzero || t[i] != '0', ++i;
        return i > start;
    };
    if (i < t.size() && t[i] == '-') ++i;
    if (!digits()) return false;
    if (i < t.size() && t[i] == '.') {
        ++i;
        if (!digits()) return false;
    }
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
        bool mantissa_nonzero = nonzero;
        if (!digits()) return false;
        nonzero = mantissa_nonzero;
    }
    return i == t.size();
}

}  // namespace

NumberText read_number(std::string_view text, double& out) {
    bool nonzero = false;
    if (text.empty() || text.size() > 64 || !strict_number_form(text, nonzero)) return NumberText::not_a_number;
    std::string copy(text);
    out = std::strtod(copy.c_str(), nullptr);  // vramcalc never leaves the "C" locale: '.' is the decimal point
    if (!std::isfinite(out)) return NumberText::out_of_range;
    if (nonzero && !(std::fabs(out) >= std::numeric_limits<double>::min())) return NumberText::out_of_range;
    return NumberText::ok;
}

bool parse_double(std::string_view text, double& out) { return read_number(text, out) == NumberText::ok; }

}  // namespace vramcalc::codec
