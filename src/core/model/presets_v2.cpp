// The defaults and profiles of link version 2, frozen: a v=2 link decodes against these forever
// (codec/link.cpp), whatever later editions change. Never edit the values below.
// Version 3 changed one default: parallel.zero3_live_params 0 → 1e9 (DeepSpeed's
// stage3_max_live_parameters), in the defaults and in the Generic and Hugging Face Trainer
// framework profiles (frameworks.cpp, framework_profiles_v2). The model and GPU preset tables did
// not change in version 3, so version 2 reads today's; tests/test_link_versions.cpp pins every v2
// default, preset and profile whole, so whoever changes one of them next freezes v2's copy here.
#include "presets.hpp"

namespace vramcalc {
namespace {

// Today's defaults with what version 3 changed set back; every field is pinned by the test
// "v2: every default is pinned".
Scenario defaults_v2() {
    Scenario s;
    s.parallel.zero3_live_params = 0;  // v2: ZeRO-3 live parameters not counted
    return s;
}

}  // namespace

const PresetEdition& presets_v2() {
    const PresetEdition& today = current_presets();
    static const PresetEdition edition{2, defaults_v2, today.models, today.gpus, true, framework_profiles_v2()};
    return edition;
}

}  // namespace vramcalc
