#include "text.hpp"

#include <cstdio>

namespace vramcalc {
namespace {

struct Range {
    char32_t first, last;
};

// Cc, Zl, Zp and Cf (Unicode 15.1, DerivedGeneralCategory.txt), sorted.
constexpr Range hidden_ranges[] = {
    {0x0000, 0x001F},   {0x007F, 0x009F},   {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},
    {0x06DD, 0x06DD},   {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x180E, 0x180E},
    {0x200B, 0x200F},   {0x2028, 0x202E},   {0x2060, 0x2064},   {0x2066, 0x206F},   {0xFEFF, 0xFEFF},
    {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3},
    {0x1D173, 0x1D17A}, {0xE0001, 0xE0001}, {0xE0020, 0xE007F},
};

}  // namespace

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

char32_t utf8_code_point(std::string_view text, std::size_t i, std::size_t length) {
    auto c = static_cast<unsigned char>(text[i]);
    if (length <= 1) return c;
    char32_t value = c & (0x7F >> length);
    for (std::size_t k = 1; k < length; ++k) value = (value << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    return value;
}

std::size_t utf8_length(std::string_view text) {
    std::size_t characters = 0;
    for (char c : text) characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return characters;
}

bool is_control_or_format(char32_t c) {
    for (const auto& r : hidden_ranges) {
        if (c < r.first) return false;
        if (c <= r.last) return true;
    }
    return false;
}

bool text_field_ok(std::string_view text) {
    std::size_t characters = 0;
    for (std::size_t i = 0; i < text.size(); ++characters) {
        std::size_t n = utf8_sequence_length(text, i);
        if (n == 0 || characters == max_text_length || is_control_or_format(utf8_code_point(text, i, n))) return false;
        i += n;
    }
    return true;
}

std::string text_field_problem(std::string_view text) {
    std::size_t character = 0;
    for (std::size_t i = 0; i < text.size(); ++character) {
        std::size_t n = utf8_sequence_length(text, i);
        if (n == 0) {
            char shown[8];
            std::snprintf(shown, sizeof shown, "0x%02X", static_cast<unsigned char>(text[i]));
            return "must be valid UTF-8 text (byte " + std::string(shown) + " at byte " + std::to_string(i + 1) +
                   " is not UTF-8)";
        }
        i += n;
    }
    if (character > max_text_length)
        return "must be at most " + std::to_string(max_text_length) + " characters (got " + std::to_string(character) + ")";
    character = 0;
    for (std::size_t i = 0; i < text.size(); ++character) {
        std::size_t n = utf8_sequence_length(text, i);
        char32_t c = utf8_code_point(text, i, n);
        if (is_control_or_format(c)) {
            char shown[16];
            std::snprintf(shown, sizeof shown, "U+%04X", static_cast<unsigned>(c));
            return "must not contain control or invisible formatting characters (" + std::string(shown) +
                   " at character " + std::to_string(character + 1) + ")";
        }
        i += n;
    }
    return "";
}

std::string visible_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        std::size_t n = utf8_sequence_length(text, i);
        if (n == 0 || is_control_or_format(utf8_code_point(text, i, n))) out += "\xEF\xBF\xBD";
        else out.append(text.substr(i, n));
        i += n == 0 ? 1 : n;
    }
    return out;
}

}  // namespace vramcalc
