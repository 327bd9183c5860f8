// libFuzzer target: import_hf_config (Hugging Face config.json).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "codec/import_hf.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace vramcalc;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    Scenario base;
    auto r = codec::import_hf_config(text, base);
    fuzz::check_issues(r.issues);
    for (const auto& note : r.notes) FUZZ_CHECK_CLEAN(note, "note");
    for (const auto& key : r.unmapped_keys) FUZZ_CHECK_CLEAN(key, "unmapped key");
    // Everything listed to the user must serialise as JSON text (valid UTF-8).
    nlohmann::json listed = {{"unmapped", r.unmapped_keys}, {"ignored", r.ignored_keys}, {"notes", r.notes},
                             {"issues", codec::issues_to_json(r.issues)}, {"family", r.family}};
    (void)listed.dump();
    if (!r.ok()) return 0;
    FUZZ_CHECK(!r.family.empty(), "accepted without a family");
    // Only the model (and, for learned positions, seq_len) changes; the default base stays valid.
    FUZZ_CHECK(r.scenario.parallel.num_gpus == base.parallel.num_gpus && r.scenario.hardware.gpu == base.hardware.gpu,
               "import changed non-model fields");
    FUZZ_CHECK(r.scenario.model.params_override == 0, "import kept a parameter override");
    fuzz::check_accepted(r.scenario);
    return 0;
}
