// What a person types into a number field, made into the strict number text the codec reads:
// thousands separators (",", "_", spaces, thin spaces) are dropped and a K, M, B or T suffix
// (thousand, million, billion, trillion: "300B" tokens, "1.5K" sequences) multiplies. Everything
// else is left for set_field_from_text to judge, so its messages name the field's rule. For
// context lengths K and M are binary (2^10, 2^20): sequence lengths are powers of two, and "32K"
// means 32,768 tokens (Llama 3.1's 128K context is 131,072 positions).
#pragma once

#include <string>
#include <string_view>

namespace vramcalc::codec {

// "300,000" → "300000", "1.5K" → "1500", "300 B" → "300000000000", "abc" → "abc"; with
// `context_length`, "32K" → "32768".
std::string typed_number_text(std::string_view typed, bool context_length = false);

}  // namespace vramcalc::codec
