// User text quoted in messages, made safe: whatever a user typed (a link value, a JSON key, a
// command-line argument) can reach a terminal, a JSON document or the page only through these.
// UTF-8 validity and the text-field rule live in core/text.hpp.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/text.hpp"

namespace vramcalc::codec {

// At most `max_bytes` of `text`, as valid UTF-8 that shows every character it stands for:
// bytes that are not UTF-8 become \xFF, control and invisible formatting characters (core/text.hpp)
// become \x1B or \u202E, '"' and '\' are escaped with a backslash. Never cuts a character or an
// escape in half.
std::string printable(std::string_view text, std::size_t max_bytes);
// printable() plus "…" when the text was cut.
std::string excerpt(std::string_view text, std::size_t max_bytes);
// A key of the input (a link key, a JSON key) as an issue's `field`: excerpt(key, 60), and "\"\""
// for the empty key, so a field is never empty.
std::string key_label(std::string_view key);
// "\"abc\"": a short quoted excerpt (40 bytes) for messages.
std::string quoted_excerpt(std::string_view text);
// 4,300,079,472: a count (rounded to an integer) with thousands separators, for import notes.
std::string grouped_count(double n);

}  // namespace vramcalc::codec
