// What the scenario decoders (JSON, link) return.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "core/estimate.hpp"

namespace vramcalc::codec {

struct DecodeResult {
    Scenario scenario;
    std::vector<ValidationIssue> issues;  // decoding problems first, then validation rules
    std::vector<Note> notes;              // values changed besides what the input names (not problems)
    bool ok() const { return issues.empty(); }
};

// No input makes a decoder list more problems than this (a 1 MiB file of unknown keys would list
// 100,000): the rest are counted in one last issue.
inline constexpr std::size_t max_reported_issues = 100;
// What every decoder does last: drops a problem listed before (same field and message: a link
// with the same malformed item twice), then keeps the first max - 1 and replaces the rest with one
// issue for `field`: "… and 99,901 more problems (only the first 99 are listed)".
void tidy_issues(std::vector<ValidationIssue>& issues, std::string_view field, std::size_t max = max_reported_issues);
// How many problems a tidied list stands for: those listed, plus those its last issue counts
// ("… and 801 more problems" after 99: 900), so that every face says the same number.
std::size_t problem_count(const std::vector<ValidationIssue>& issues);

}  // namespace vramcalc::codec
