// libFuzzer target: scenario_from_json_text (strict scenario JSON).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto r = vramcalc::codec::scenario_from_json_text(text);
    // Every issue has a message. (An empty key in the input gives an empty `field`: reported to the lead,
    // not asserted here.)
    for (const auto& issue : r.issues) FUZZ_CHECK(!issue.message.empty(), "issue without a message");
    (void)vramcalc::codec::issues_to_json(r.issues).dump();
    if (r.ok()) fuzz::check_accepted(r.scenario);
    // Without the rule check, a decoded scenario that happens to be valid must behave the same.
    auto loose = vramcalc::codec::scenario_from_json_text(text, {}, /*check_rules=*/false);
    if (loose.ok() && vramcalc::validate(loose.scenario).empty()) fuzz::check_accepted(loose.scenario);
    return 0;
}
