// libFuzzer target: decode_link (URL fragment). Lenient decoder: the result must always be valid.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.hpp"

namespace {

// Known contract gap, reported to the lead (not fixed here): decode_link repairs a bad field by
// resetting it to the link's base (defaults + named presets). For a learned-position preset shorter
// than the default seq_len (mp=gpt2: 1024 < 2048) that base itself breaks the seq_len rule, so
// "mp=gpt2" decodes to an invalid scenario. Everything else must be valid.
bool known_seq_len_gap(const vramcalc::Scenario& sc, const std::vector<vramcalc::ValidationIssue>& problems) {
    if (sc.model.position_embedding != vramcalc::PositionEmbedding::learned) return false;
    if (vramcalc::Scenario{}.training.seq_len <= sc.model.max_position_embeddings) return false;
    for (const auto& p : problems)
        if (p.field != "training.seq_len") return false;
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto r = vramcalc::codec::decode_link(text);
    // Every issue has a message. (An empty key in the input gives an empty `field`: reported to the
    // lead, not asserted here.)
    for (const auto& issue : r.issues) FUZZ_CHECK(!issue.message.empty(), "issue without a message");
    (void)vramcalc::codec::issues_to_json(r.issues).dump();
    auto problems = vramcalc::validate(r.scenario);
    if (!problems.empty()) {
        FUZZ_CHECK(known_seq_len_gap(r.scenario, problems), "decode_link returned an invalid scenario: " +
                                                                fuzz::issues_text(problems));
        return 0;
    }
    fuzz::check_accepted(r.scenario);  // decode_link promises a valid scenario
    return 0;
}
