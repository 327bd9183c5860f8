// What the scenario decoders (JSON, link) return.
#pragma once

#include <vector>

#include "core/estimate.hpp"

namespace vramcalc::codec {

struct DecodeResult {
    Scenario scenario;
    std::vector<ValidationIssue> issues;  // decoding problems first, then validation rules
    std::vector<Note> notes;              // values changed besides what the input names (not problems)
    bool ok() const { return issues.empty(); }
};

}  // namespace vramcalc::codec
