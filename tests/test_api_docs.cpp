// The typings of the Estimate (src/bindings/vramcalc.d.ts), the JS API's estimate builder
// (src/bindings/vramcalc.mjs) and docs/api.md's output table are generated from the output and
// field tables by tools/api_docs.cpp: these tests fail when a file has drifted from them.
// Regenerate: cmake --build build-native --target vramcalc_gen_api && build-native/tools/vramcalc_gen_api --write
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "api_docs.hpp"

using namespace vramcalc;

namespace {

void check_region(const std::string& path) {
    const auto regions = api_docs::regions();
    const auto region = std::find_if(regions.begin(), regions.end(), [&](const auto& r) { return r.path == path; });
    REQUIRE(region != regions.end());
    const auto found = api_docs::read_region(VRAMCALC_SOURCE_DIR, *region);
    INFO(path << " must contain the lines '" << region->begin << "' and '" << region->end << "'");
    REQUIRE(found.found);
    INFO("stale: regenerate with build-native/tools/vramcalc_gen_api --write\nexpected:\n" << region->text);
    CHECK(found.current == region->text);
}

}  // namespace

TEST_CASE("the Estimate typings are generated from the output table") {
    check_region("src/bindings/vramcalc.d.ts");
}

TEST_CASE("the JS API's estimate builder is generated from the output and field tables") {
    check_region("src/bindings/vramcalc.mjs");
}

TEST_CASE("docs/api.md's output table is generated from the output table") {
    check_region("docs/api.md");
}
