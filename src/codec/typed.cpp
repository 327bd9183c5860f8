#include "codec/typed.hpp"

#include <cmath>

#include "codec/numbers.hpp"
#include "format/shortest.hpp"

namespace vramcalc::codec {

std::string typed_number_text(std::string_view typed, bool context_length) {
    std::string s;
    for (std::size_t i = 0; i < typed.size(); ++i) {
        char c = typed[i];
        if (c == ',' || c == '_' || c == ' ' || c == '\t') continue;
        // U+2009 THIN SPACE (E2 80 89), U+202F NARROW NO-BREAK SPACE (E2 80 AF), U+00A0 (C2 A0).
        if (typed.substr(i, 3) == "\xE2\x80\x89" || typed.substr(i, 3) == "\xE2\x80\xAF") {
            i += 2;
            continue;
        }
        if (typed.substr(i, 2) == "\xC2\xA0") {
            ++i;
            continue;
        }
        s += c;
    }
    if (s.size() < 2) return s;
    double scale = 0;
    switch (s.back()) {
        case 'k': case 'K': scale = context_length ? 1024.0 : 1e3; break;
        case 'm': case 'M': scale = context_length ? 1048576.0 : 1e6; break;
        case 'b': case 'B': scale = 1e9; break;
        case 't': case 'T': scale = 1e12; break;
        default: return s;
    }
    double value = 0;
    if (!parse_double(std::string_view(s).substr(0, s.size() - 1), value)) return s;
    // Decimal scaling without binary noise: 1.1K is 1100, not 1100.0000000000002.
    double scaled = value * scale;
    double rounded = std::round(scaled * 1e6) / 1e6;
    return format_shortest(std::fabs(rounded - scaled) < 1e-6 * std::fabs(scaled) + 1e-9 ? rounded : scaled);
}

}  // namespace vramcalc::codec
