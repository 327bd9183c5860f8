// libFuzzer target: decode_link (URL fragment). Lenient decoder: the result must always be valid,
// every problem listed once in clean text, and the scenario must survive every face
// (fuzz_common.hpp: finite outputs, JSON and link round trips, escaped Markdown, clean report).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto r = vramcalc::codec::decode_link(text);
    fuzz::check_issues(r.issues);
    fuzz::check_notes(r.notes);
    // decode_link promises a valid scenario (a preset shorter than the default sequence included:
    // the sequence is lowered to its positions).
    fuzz::check_accepted(r.scenario);
    return 0;
}
