// Numbers as text in links and CLI flags: shortest round-trip printing (src/format) and strict parsing.
#pragma once

#include <string>
#include <string_view>

namespace vramcalc::codec {

// Numbers are written by src/format's round-trip printer, format_shortest (format/shortest.hpp):
// the one part of src/format the codec links.

// Strict decimal numbers, as JSON writes them: -?DIGITS[.DIGITS][(e|E)[+|-]DIGITS], at most 64
// characters. No whitespace, no '+' sign, no hex, no "inf"/"nan", no "1." or ".5".
enum class NumberText {
    ok,
    not_a_number,  // the text is not of that form
    out_of_range,  // of that form, but beyond a double: overflows to infinity, or a non-zero
                   // value that underflows below the smallest normal double (~2.2e-308)
};
NumberText read_number(std::string_view text, double& out);
// read_number(...) == NumberText::ok.
bool parse_double(std::string_view text, double& out);

inline constexpr double max_exact_integer = 9007199254740992.0;  // 2^53

}  // namespace vramcalc::codec
