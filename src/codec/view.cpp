#include "codec/view.hpp"

#include <array>

#include "codec/percent.hpp"
#include "codec/text.hpp"

namespace vramcalc::codec {
namespace {

constexpr auto flag_values = std::to_array<const char*>({"1"});
constexpr auto unit_values = std::to_array<const char*>({"gib", "gb"});
constexpr auto theme_values = std::to_array<const char*>({"system", "light", "dark"});

constexpr auto table = std::to_array<ViewKey>({
    {"embed", "Embedded view", flag_values, "embed=1: the compact results-first view (docs/embedding.md)."},
    {"units", "Memory units", unit_values,
     "gib: 2^30 bytes, as nvidia-smi and PyTorch report (default); gb: 10^9 bytes, as datasheets say."},
    {"theme", "Colour theme", theme_values,
     "system: follows the reader's light/dark preference (default); light or dark: fixed."},
});

int value_index(const ViewKey& k, std::string_view value) {
    for (std::size_t i = 0; i < k.values.size(); ++i)
        if (value == k.values[i]) return int(i);
    return -1;
}

std::string value_list(const ViewKey& k) {
    std::string out;
    for (std::size_t i = 0; i < k.values.size(); ++i) out += (i ? ", " : "") + std::string(k.values[i]);
    return out;
}

}  // namespace

std::span<const ViewKey> view_keys() { return table; }

bool is_view_key(std::string_view key) {
    for (const auto& k : table)
        if (key == k.key) return true;
    return false;
}

std::string encode_view(const ViewSettings& view) {
    std::string out;
    auto add = [&](const char* key, const char* value) {
        if (!out.empty()) out += '&';
        out += key;
        out += '=';
        out += value;
    };
    if (view.units != ViewUnits::gib) add("units", unit_values[std::size_t(view.units)]);
    if (view.theme != ViewTheme::system) add("theme", theme_values[std::size_t(view.theme)]);
    return out;
}

ViewDecodeResult decode_view(std::string_view fragment) {
    ViewDecodeResult r;
    if (!fragment.empty() && fragment.front() == '#') fragment.remove_prefix(1);
    while (!fragment.empty()) {
        auto amp = fragment.find('&');
        std::string_view item = fragment.substr(0, amp);
        fragment = amp == std::string_view::npos ? std::string_view{} : fragment.substr(amp + 1);
        auto eq = item.find('=');
        std::string key, value;
        if (!percent_decode(item.substr(0, eq), key) || !is_view_key(key)) continue;
        if (eq == std::string_view::npos) continue;  // decode_link reports an item without a value
        if (!percent_decode(item.substr(eq + 1), value)) continue;  // and a malformed one
        for (const auto& k : table) {
            if (key != k.key) continue;
            int index = value_index(k, value);
            if (index < 0) {
                r.issues.push_back({k.key, "must be one of " + value_list(k) + " (got " + quoted_excerpt(value) +
                                               "); using the default"});
            } else if (key == "embed") {
                r.view.embed = true;
            } else if (key == "units") {
                r.view.units = ViewUnits(index);
            } else if (key == "theme") {
                r.view.theme = ViewTheme(index);
            }
        }
    }
    return r;
}

}  // namespace vramcalc::codec
