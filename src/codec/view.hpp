// View settings in a link: how the page shows a scenario, never what the scenario is.
//
// They share the fragment with the scenario's keys ("v=2&mp=gpt2&b=8&units=gb&theme=light") but
// are a separate table: every scenario decoder (decode_link, the JS API's decodeLink) skips them,
// so they never change what a link means, they need no link version of their own (a link of any
// version may carry them), and a new one is one row here. Their keys are words, so they can never
// collide with the short field keys of the field table (a test checks).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/estimate.hpp"

namespace vramcalc::codec {

enum class ViewUnits { gib, gb };
enum class ViewTheme { system, light, dark };  // system: follows prefers-color-scheme

struct ViewSettings {
    bool embed = false;  // the compact results-first view (embed=1)
    ViewUnits units = ViewUnits::gib;
    ViewTheme theme = ViewTheme::system;
    bool operator==(const ViewSettings&) const = default;
};

struct ViewKey {
    const char* key;      // "units"
    const char* label;    // "Memory units"
    std::span<const char* const> values;  // spellings, in enum order ("gib", "gb"); {"1"} for flags
    const char* help;
};
std::span<const ViewKey> view_keys();
bool is_view_key(std::string_view key);

// "units=gb&theme=light": only what differs from the defaults, in table order; "" for defaults.
// `embed` is not written here (the page puts it first: "embed=1&v=2&…").
std::string encode_view(const ViewSettings& view);

struct ViewDecodeResult {
    ViewSettings view;
    std::vector<ValidationIssue> issues;  // field = the view key ("theme"); the value is ignored
};
// Reads only the view keys of a fragment (with or without '#'); other keys are left to decode_link.
ViewDecodeResult decode_view(std::string_view fragment);

}  // namespace vramcalc::codec
