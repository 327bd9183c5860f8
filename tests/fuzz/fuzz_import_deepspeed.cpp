// libFuzzer target: import_deepspeed_config (DeepSpeed ds_config.json).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "codec/import_deepspeed.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace vramcalc;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    Scenario base;
    auto r = codec::import_deepspeed_config(text, base);
    fuzz::check_issues(r.issues);
    for (const auto& note : r.notes) FUZZ_CHECK_CLEAN(note, "note");
    for (const auto& key : r.unmapped_keys) FUZZ_CHECK_CLEAN(key, "unmapped key");
    nlohmann::json listed = {{"unmapped", r.unmapped_keys}, {"notes", r.notes}, {"issues", codec::issues_to_json(r.issues)}};
    (void)listed.dump();
    // The model and hardware are never touched.
    std::string field;
    for (const auto& f : scenario_fields()) {
        std::string_view path = f.path;
        if ((path.starts_with("model.") || path.starts_with("hardware.")) && !field_equal(f, r.scenario, base))
            fuzz::fail("DeepSpeed import changed", f.path);
    }
    if (r.ok() && validate(r.scenario).empty()) fuzz::check_accepted(r.scenario);
    return 0;
}
