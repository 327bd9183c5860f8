// Numbers as text in links and CLI flags: shortest round-trip printing and strict parsing.
#pragma once

#include <string>
#include <string_view>

namespace vramcalc::codec {

// Shortest decimal text that reads back as the same double ("2e12", "0.001", "4096").
std::string format_number(double value);
// The whole text as one number (at most 64 characters); false otherwise.
bool parse_double(std::string_view text, double& out);

inline constexpr double max_exact_integer = 9007199254740992.0;  // 2^53

}  // namespace vramcalc::codec
