// Text as the decoders see it: UTF-8 validity and user text made safe to quote in messages.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace vramcalc::codec {

// Length of the well-formed UTF-8 sequence at text[i] (RFC 3629: no overlongs, surrogates or
// code points above U+10FFFF), or 0.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);
bool valid_utf8(std::string_view text);

// At most `max_bytes` of `text` as valid UTF-8 for messages: control characters, '"' and bytes
// that are not UTF-8 become '?', and no character is cut in half.
std::string printable(std::string_view text, std::size_t max_bytes);
// printable() plus "…" when the text was cut.
std::string excerpt(std::string_view text, std::size_t max_bytes);
// "\"abc\"": a short quoted excerpt (40 bytes) for messages.
std::string quoted_excerpt(std::string_view text);

// The longest text a field takes (model name, GPU label).
inline constexpr std::size_t max_text_length = 200;

}  // namespace vramcalc::codec
