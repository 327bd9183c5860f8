// libFuzzer target: the .gguf header reader and import (bytes in; bounded, never throws).
#include <cstddef>
#include <cstdint>

#include "codec/import_gguf.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace vramcalc;
    Scenario base;
    auto r = codec::import_gguf({data, size}, base);
    fuzz::check_issues(r.result.issues);
    for (const auto& note : r.result.notes) FUZZ_CHECK_CLEAN(note, "note");
    FUZZ_CHECK(r.header_bytes <= size, "header longer than the input");
    if (!r.result.ok()) return 0;
    FUZZ_CHECK(!r.incomplete, "accepted an incomplete header");
    FUZZ_CHECK(r.tensor_bytes >= 0 && r.parameters >= 0, "negative tensor totals");
    FUZZ_CHECK(r.result.scenario.workload == Workload::inference, "accepted without the serving workload");
    fuzz::check_accepted(r.result.scenario);
    return 0;
}
