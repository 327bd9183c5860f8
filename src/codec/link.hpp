// Scenario ⇄ link fragment ("v=3&mp=llama-3-8b&gpu=H100-SXM&b=4&z=3"), versioned.
//
// A link stores only what differs from the defaults and the named presets, so it means something
// only together with those tables. Link version N therefore decodes against the preset edition N
// (core/model/presets.hpp): version 1 against the frozen copy in core/model/presets_v1.cpp, version 2 against
// core/model/presets_v2.cpp (its defaults and framework profiles), the current version against today's
// tables. A missing `v` is version 1 when the link names any scenario key
// ("mp=gpt2&b=8"); a fragment with none (empty: the bare page, or view keys only) is today's
// defaults, the current version. Encoding always writes the current
// version. When a default, a preset or a framework profile changes after the current version was
// released: freeze today's tables as presets_v<N>.cpp, map version N to them in link_edition(),
// and bump link_version (tests/test_link_versions.cpp pins every version's meaning).
// Lenient: bad fields keep their defaults and are reported; the decoded scenario is always valid.
#pragma once

#include <string>
#include <string_view>

#include "codec/decoded.hpp"
#include "core/model/presets.hpp"

namespace vramcalc::codec {

inline constexpr int link_version = 3;  // what encode_link writes
inline constexpr std::size_t max_link_length = 8192;

// The defaults and presets a link version decodes against; nullptr for an unknown version.
const PresetEdition* link_edition(int version);

std::string encode_link(const Scenario& scenario);
// Accepts the fragment with or without a leading '#'. Fields that break a rule are reset to their
// defaults (and named in `issues`); a model preset lowers training.seq_len to the positions it has
// unless the link sets seq_len (named in `notes`).
DecodeResult decode_link(std::string_view fragment);

}  // namespace vramcalc::codec
