#include "codec/numbers.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>

namespace vramcalc::codec {

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
