#include "codec/text.hpp"

#include <algorithm>

namespace vramcalc::codec {

std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    unsigned char c = byte(i);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c == 0xE0) n = 3, lo = 0xA0;
    else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) n = 3;
    else if (c == 0xED) n = 3, hi = 0x9F;
    else if (c == 0xF0) n = 4, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3) n = 4;
    else if (c == 0xF4) n = 4, hi = 0x8F;
    else return 0;
    if (i + n > text.size() || byte(i + 1) < lo || byte(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return n;
}

bool valid_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        std::size_t n = utf8_sequence_length(text, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::string printable(std::string_view text, std::size_t max_bytes) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        std::size_t n = utf8_sequence_length(text, i);
        if (out.size() + std::max<std::size_t>(n, 1) > max_bytes) break;
        auto c = static_cast<unsigned char>(text[i]);
        if (n == 0 || (n == 1 && (c < 0x20 || c == '"' || c == 0x7f))) {
            out += '?';
            i += std::max<std::size_t>(n, 1);
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

std::string excerpt(std::string_view text, std::size_t max_bytes) {
    return printable(text, max_bytes) + (text.size() > max_bytes ? "…" : "");
}

std::string quoted_excerpt(std::string_view text) { return "\"" + excerpt(text, 40) + "\""; }

}  // namespace vramcalc::codec
