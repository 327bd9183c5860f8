#include "codec/decoded.hpp"

#include <charconv>
#include <set>
#include <string>
#include <utility>

namespace vramcalc::codec {

void tidy_issues(std::vector<ValidationIssue>& issues, std::string_view field, std::size_t max) {
    std::set<std::pair<std::string, std::string>> seen;
    std::erase_if(issues, [&](const ValidationIssue& i) { return !seen.insert({i.field, i.message}).second; });
    if (issues.size() <= max || max == 0) return;
    std::size_t kept = max - 1;
    std::size_t more = issues.size() - kept;
    issues.resize(kept);
    issues.push_back({std::string(field), "… and " + std::to_string(more) + " more problems (only the first " +
                                              std::to_string(kept) + " are listed)"});
}

std::size_t problem_count(const std::vector<ValidationIssue>& issues) {
    if (issues.empty()) return 0;
    constexpr std::string_view prefix = "… and ", suffix = " more problems (";
    std::string_view last = issues.back().message;
    if (!last.starts_with(prefix)) return issues.size();
    last.remove_prefix(prefix.size());
    std::size_t more = 0;
    auto [end, ec] = std::from_chars(last.data(), last.data() + last.size(), more);
    if (ec != std::errc() || !std::string_view(end, std::size_t(last.data() + last.size() - end)).starts_with(suffix))
        return issues.size();
    return issues.size() - 1 + more;
}

}  // namespace vramcalc::codec
