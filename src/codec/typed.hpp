// What a person types into a number field, made into the strict number text the codec reads:
// thousands separators (",", "_", spaces, thin spaces) are dropped and a K, M, B or T suffix
// (thousand, million, billion, trillion: "300B" tokens, "1.5K" sequences) multiplies. Everything
// else is left for set_field_from_text to judge, so its messages name the field's rule.
#pragma once

#include <string>
#include <string_view>

namespace vramcalc::codec {

// "300,000" → "300000", "1.5K" → "1500", "300 B" → "300000000000", "abc" → "abc".
std::string typed_number_text(std::string_view typed);

}  // namespace vramcalc::codec
