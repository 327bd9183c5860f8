// libFuzzer target: decode_link (URL fragment). Lenient decoder: the result must always be valid.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto r = vramcalc::codec::decode_link(text);
    // Every issue has a message. (An empty key in the input gives an empty `field`: reported to the
    // lead, not asserted here.)
    for (const auto& issue : r.issues) FUZZ_CHECK(!issue.message.empty(), "issue without a message");
    (void)vramcalc::codec::issues_to_json(r.issues).dump();
    // decode_link promises a valid scenario (a preset shorter than the default sequence included:
    // the sequence is lowered to its positions).
    fuzz::check_accepted(r.scenario);
    return 0;
}
