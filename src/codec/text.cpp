#include "codec/text.hpp"

#include <cmath>

#include <cstdio>

namespace vramcalc::codec {

namespace {

// printable() that also says how many bytes of `text` it consumed.
std::string printable_prefix(std::string_view text, std::size_t max_bytes, std::size_t& i) {
    std::string out;
    i = 0;
    for (; i < text.size();) {
        std::size_t n = utf8_sequence_length(text, i);
        std::string piece;
        if (n == 0) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02X", static_cast<unsigned char>(text[i]));
            piece = escaped;
            n = 1;
        } else if (char32_t c = utf8_code_point(text, i, n); is_control_or_format(c)) {
            char escaped[16];
            std::snprintf(escaped, sizeof escaped, c < 0x100 ? "\\x%02X" : "\\u%04X", static_cast<unsigned>(c));
            piece = escaped;
        } else if (c == '"' || c == '\\') {
            piece = {'\\', char(c)};
        } else {
            piece = text.substr(i, n);
        }
        if (out.size() + piece.size() > max_bytes) break;
        out += piece;
        i += n;
    }
    return out;
}

}  // namespace

std::string printable(std::string_view text, std::size_t max_bytes) {
    std::size_t consumed = 0;
    return printable_prefix(text, max_bytes, consumed);
}

std::string excerpt(std::string_view text, std::size_t max_bytes) {
    std::size_t consumed = 0;
    std::string shown = printable_prefix(text, max_bytes, consumed);
    return consumed < text.size() ? shown + "…" : shown;
}

std::string key_label(std::string_view key) { return key.empty() ? std::string("\"\"") : excerpt(key, 60); }

std::string quoted_excerpt(std::string_view text) {
    std::string out(1, '"');
    out += excerpt(text, 40);
    out += '"';
    return out;
}

std::string grouped_count(double n) {
    if (!(std::fabs(n) < 9e18)) {  // beyond int64 (or NaN): no grouping
        char text[32];
        std::snprintf(text, sizeof text, "%.6g", n);
        return text;
    }
    std::string digits = std::to_string(static_cast<long long>(std::llround(n))), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && digits[i - 1] != '-' && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

}  // namespace vramcalc::codec
