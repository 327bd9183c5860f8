#include "format/shortest.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace vramcalc {

std::string format_shortest(double value) {
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

}  // namespace vramcalc
