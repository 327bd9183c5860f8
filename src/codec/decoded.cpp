#include "codec/decoded.hpp"

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

}  // namespace vramcalc::codec
