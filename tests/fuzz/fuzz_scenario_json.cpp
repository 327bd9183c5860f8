// libFuzzer target: scenario_from_json_text (strict scenario JSON).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto r = vramcalc::codec::scenario_from_json_text(text);
    fuzz::check_issues(r.issues);
    fuzz::check_notes(r.notes);
    if (r.ok()) fuzz::check_accepted(r.scenario);
    // Without the rule check, a decoded scenario that happens to be valid must behave the same.
    auto loose = vramcalc::codec::scenario_from_json_text(text, {}, /*check_rules=*/false);
    fuzz::check_issues(loose.issues);
    if (loose.ok() && vramcalc::validate(loose.scenario).empty()) fuzz::check_accepted(loose.scenario);
    return 0;
}
