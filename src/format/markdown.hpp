// The results as Markdown: the page's "Copy as Markdown" and the CLI's --markdown. Rows are the
// outputs marked show_markdown in the output table; user text (names, labels) is escaped.
#pragma once

#include <string>
#include <string_view>

#include "format/format.hpp"

namespace vramcalc {

// `link` is the full URL of the scenario (or empty).
std::string estimate_to_markdown(const Scenario& scenario, const Estimate& estimate, ByteUnits units,
                                 std::string_view link);

}  // namespace vramcalc
