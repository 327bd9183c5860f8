// The field table's groups: every field is in exactly one group of its own section, so a form
// built from field_groups() shows every field once.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "core/fields.hpp"

using namespace vramcalc;

TEST_CASE("every field is in exactly one group, of its own section") {
    std::map<std::string, int> seen;
    for (const auto& g : field_groups()) {
        std::string_view id = g.id;
        std::string section(id.substr(0, id.find('.')));
        for (const char* path : g.paths) {
            INFO(g.id << " lists " << path);
            const FieldSpec* f = find_field_by_path(path);
            REQUIRE(f != nullptr);
            // a field outside every section ("workload") is its own group
            CHECK((std::string_view(path).starts_with(section + ".") || section == path));
            ++seen[path];
        }
    }
    for (const auto& f : scenario_fields()) {
        INFO(f.path << " is in no group of field_groups() (src/core/fields.cpp), or in several");
        CHECK(seen[f.path] == 1);
        REQUIRE(group_of_field(f.path) != nullptr);
    }
}

TEST_CASE("groups have titles and the framework is a picker") {
    for (const auto& g : field_groups()) {
        INFO(g.id);
        CHECK(*g.title);
        CHECK(!g.paths.empty());
    }
    REQUIRE(group_of_field("training.framework"));
    CHECK(group_of_field("training.framework")->picker);
    CHECK_FALSE(group_of_field("model.layers")->picker);
}
