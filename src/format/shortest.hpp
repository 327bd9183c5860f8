// The shortest decimal text of a double that reads back as the same double: what links, JSON and
// CLI flags write (src/codec) and what a page field shows (format_input_number, format.hpp).
// Standard library only, so the codec links this part of src/format (vramcalc_format_shortest)
// without the rest, which uses the core.
#pragma once

#include <string>

namespace vramcalc {

// "2e12", "0.001", "4096", "1.56e13": round numbers with 6+ trailing zeros in exponent form.
std::string format_shortest(double value);

}  // namespace vramcalc
