#include "codec/decoded.hpp"

#include <string>

namespace vramcalc::codec {

void limit_issues(std::vector<ValidationIssue>& issues, std::string_view field, std::size_t max) {
    if (issues.size() <= max || max == 0) return;
    std::size_t kept = max - 1;
    std::size_t more = issues.size() - kept;
    issues.resize(kept);
    issues.push_back({std::string(field), "… and " + std::to_string(more) + " more problems (only the first " +
                                              std::to_string(kept) + " are listed)"});
}

}  // namespace vramcalc::codec
