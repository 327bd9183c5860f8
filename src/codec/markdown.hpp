// Results as a Markdown table (the UI's "copy as Markdown" and the CLI's --markdown).
#pragma once

#include <string>
#include <string_view>

#include "core/estimate.hpp"

namespace vramcalc::codec {

enum class ByteUnits { gib, gb };

// "12.40 GiB" / "13.31 GB".
std::string format_bytes(double bytes, ByteUnits units);
// `link` is the full URL of the scenario (or empty).
std::string estimate_to_markdown(const Scenario& scenario, const Estimate& estimate, ByteUnits units,
                                 std::string_view link);

}  // namespace vramcalc::codec
