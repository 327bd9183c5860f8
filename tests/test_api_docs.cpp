// The typings of the Estimate (src/bindings/vramcalc.d.ts) and the output table of docs/api.md are
// generated from the output table (src/core/outputs.cpp): this test fails when they drift and
// prints how to regenerate them. To rewrite both files in place:
//   VRAMCALC_UPDATE_DOCS=1 build-native/tests/vramcalc_tests '[#test_api_docs]'
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/outputs.hpp"

using namespace vramcalc;

namespace {

const std::string typings_path = std::string(VRAMCALC_SOURCE_DIR) + "/src/bindings/vramcalc.d.ts";
const std::string api_doc_path = std::string(VRAMCALC_SOURCE_DIR) + "/docs/api.md";

const char* unit_words(Unit unit) {
    switch (unit) {
        case Unit::bytes: return "bytes";
        case Unit::bytes_per_parameter: return "bytes per parameter";
        case Unit::bytes_per_element: return "bytes per element";
        case Unit::parameters: return "parameters";
        case Unit::flops: return "FLOPs";
        case Unit::flops_per_second: return "FLOP/s";
        case Unit::seconds: return "seconds";
        case Unit::days: return "days";
        case Unit::gpu_hours: return "GPU-hours";
        case Unit::tflop_hours: return "TFLOP-hours";
        case Unit::pflop_days: return "PetaFLOP-days";
        case Unit::money: return "currency of `price_per_gpu_hour`";
        case Unit::tokens: return "tokens";
        case Unit::tokens_per_second: return "tokens per second";
        case Unit::tflops_per_second: return "TFLOP/s";
        case Unit::sequences: return "sequences";
        case Unit::count: return "count";
        case Unit::ratio: return "fraction";
        case Unit::flag: return "true/false";
        case Unit::text: return "name";
    }
    return "";
}

const char* ts_type(ValueKind kind) {
    switch (kind) {
        case ValueKind::number:
        case ValueKind::integer: return "number";
        case ValueKind::flag: return "boolean";
        case ValueKind::text: return "string";
    }
    return "number";
}

const char* ts_type(CompositeKind kind) {
    switch (kind) {
        case CompositeKind::scenario: return "Scenario";
        case CompositeKind::warnings: return "Warning[]";
        case CompositeKind::notes:
        case CompositeKind::errors: return "Issue[]";
        case CompositeKind::explain: return "";  // the CLI's --explain only: not in the JS API
        case CompositeKind::memory_timeline: return "MemoryPhase[]";
    }
    return "";
}

std::string escape_comment(std::string text) {
    for (std::size_t at = text.find("*/"); at != std::string::npos; at = text.find("*/")) text.replace(at, 2, "*\\/");
    return text;
}

// A tree of the output paths, in table order.
struct Node {
    std::vector<std::string> order;
    std::map<std::string, Node> children;
    const OutputSpec* leaf = nullptr;
};

void write_node(std::ostringstream& out, const Node& node, const std::string& indent) {
    for (const auto& name : node.order) {
        const Node& child = node.children.at(name);
        if (child.leaf) {
            const OutputSpec& o = *child.leaf;
            out << indent << "/** " << escape_comment(o.help) << " (" << unit_words(o.unit) << ") */\n";
            out << indent << name << ": " << ts_type(o.kind) << ";\n";
        } else {
            out << indent << name << ": {\n";
            write_node(out, child, indent + "  ");
            out << indent << "};\n";
        }
    }
}

std::string generated_typings() {
    Node root;
    for (const auto& o : outputs()) {
        Node* node = &root;
        std::string_view path = o.path;
        while (true) {
            auto dot = path.find('.');
            std::string name(path.substr(0, dot));
            if (!node->children.count(name)) node->order.push_back(name);
            node = &node->children[name];
            if (dot == std::string_view::npos) break;
            path.remove_prefix(dot + 1);
        }
        node->leaf = &o;
    }
    std::ostringstream out;
    out << "/**\n * The estimate: the same object as the CLI's `--json`. All byte counts are in bytes (not GiB),\n"
           " * all FLOP counts in FLOPs; they are plain numbers (doubles, exact up to 2^53).\n */\n"
           "export interface Estimate {\n";
    for (const auto& c : composite_outputs()) {
        const char* type = ts_type(c.kind);
        if (!*type) continue;
        out << "  /** " << escape_comment(c.help) << " */\n  " << c.path << (c.always ? "" : "?") << ": " << type
            << ";\n";
    }
    write_node(out, root, "  ");
    out << "}\n";
    return out.str();
}

std::string markdown_cell(std::string text) {
    for (std::size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2)) text.replace(at, 1, "\\|");
    return text;
}

std::string generated_doc_table() {
    std::ostringstream out;
    out << "| key | unit | what |\n|---|---|---|\n";
    for (const auto& c : composite_outputs())
        out << "| `" << c.path << "` | list | " << markdown_cell(c.help) << " |\n";
    for (const auto& o : outputs())
        out << "| `" << o.path << "` | " << unit_words(o.unit) << " | " << markdown_cell(o.help) << " |\n";
    return out.str();
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Checks (or, with VRAMCALC_UPDATE_DOCS=1, rewrites) the text between two marker lines.
void check_region(const std::string& path, const std::string& begin, const std::string& end,
                  const std::string& expected) {
    std::string text = read_file(path);
    auto a = text.find(begin);
    auto b = text.find(end);
    INFO(path << " must contain the lines '" << begin << "' and '" << end << "'");
    REQUIRE(a != std::string::npos);
    REQUIRE(b != std::string::npos);
    a = text.find('\n', a) + 1;
    std::string current = text.substr(a, b - a);
    if (current != expected && std::getenv("VRAMCALC_UPDATE_DOCS")) {
        text.replace(a, b - a, expected);
        std::ofstream(path, std::ios::binary) << text;
        current = expected;
    }
    INFO("stale: regenerate with VRAMCALC_UPDATE_DOCS=1 build-native/tests/vramcalc_tests '[#test_api_docs]'\n"
         "expected:\n" << expected);
    CHECK(current == expected);
}

}  // namespace

TEST_CASE("the Estimate typings are generated from the output table") {
    check_region(typings_path, "// <generated:estimate>", "// </generated:estimate>", generated_typings());
}

TEST_CASE("docs/api.md's output table is generated from the output table") {
    check_region(api_doc_path, "<!-- outputs:begin", "<!-- outputs:end", generated_doc_table());
}
