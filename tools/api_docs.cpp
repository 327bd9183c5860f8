// The typings of the Estimate (src/bindings/vramcalc.d.ts), the JS API's estimate builder
// (src/bindings/vramcalc.mjs) and the output table of docs/api.md, generated from the output table
// (src/core/outputs.cpp) and the field table (src/core/fields.cpp).
#include "api_docs.hpp"

#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "codec/scenario_json.hpp"
#include "core/fields.hpp"
#include "core/training/memory_model.hpp"
#include "core/outputs.hpp"

namespace vramcalc::api_docs {

namespace {

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
        case CompositeKind::fixes: return "Fix[]";
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

// The workloads (OutputWorkload bits) whose estimates hold a node. Keys of serving estimates only
// are optional; training's keys stay required (as they were before serving existed, so training
// code keeps compiling) and say in their comment that serving estimates leave them out.
unsigned node_workloads(const Node& node) {
    if (node.leaf) return node.leaf->workloads;
    unsigned bits = 0;
    for (const auto& [name, child] : node.children) bits |= node_workloads(child);
    return bits;
}

const char* workload_note(unsigned bits) {
    if (bits == for_training) return "; training estimates only, absent in serving estimates";
    if (bits == for_inference) return "; inference estimates only";
    return "";
}

void write_node(std::ostringstream& out, const Node& node, const std::string& indent) {
    for (const auto& name : node.order) {
        const Node& child = node.children.at(name);
        const unsigned bits = node_workloads(child);
        // Serving-only keys are optional; training's stay required (training code keeps compiling).
        const char* optional = (bits & for_training) ? "" : "?";
        if (child.leaf) {
            const OutputSpec& o = *child.leaf;
            out << indent << "/** " << escape_comment(o.help) << " (" << unit_words(o.unit) << workload_note(bits) << ") */\n";
            out << indent << name << optional << ": " << ts_type(o.kind) << ";\n";
        } else {
            if (bits != for_both) out << indent << "/** " << (workload_note(bits) + 2) << " */\n";
            out << indent << name << optional << ": {\n";
            write_node(out, child, indent + "  ");
            out << indent << "};\n";
        }
    }
}

}  // namespace

std::string typings() {
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

namespace {

// ── The JS API's estimate builder ──
// run_estimate (src/bindings/bindings.cpp) leaves every scalar output (output-table order),
// every field of the estimated scenario (field-table order) and the memory timeline (phases ×
// components) as doubles, and the text values (text outputs, then text fields) and the other
// composites in a text part that vramcalc.mjs reads into `t` (the text values) and `r` (the composites).
// buildEstimate turns them into the JSON estimate's object as one object literal per object (V8
// creates a literal's keys at once; adding computed keys one by one costs ~4× more per call, and
// `new Function` is not allowed under the page's Content-Security-Policy).

const char* kind_name(ValueKind kind) {  // as bindings.cpp's vramcalc_tables names them
    switch (kind) {
        case ValueKind::number: return "number";
        case ValueKind::integer: return "integer";
        case ValueKind::flag: return "flag";
        case ValueKind::text: return "text";
    }
    return "number";
}

const char* kind_name(FieldKind kind) {
    switch (kind) {
        case FieldKind::integer: return "integer";
        case FieldKind::number: return "number";
        case FieldKind::boolean: return "boolean";
        case FieldKind::choice: return "choice";
        case FieldKind::text: return "text";
    }
    return "number";
}

// A JS object literal: keys in JSON order (byte order, as nlohmann-json writes them).
struct JsObject {
    std::map<std::string, JsObject> children;
    std::string expression;  // a leaf's value
    bool lazy = false;       // a getter: r.<key>(this) gives the value, computed on first read
};

void place_js(JsObject& root, std::string_view path, std::string expression) {
    JsObject* node = &root;
    for (auto dot = path.find('.'); dot != std::string_view::npos; dot = path.find('.')) {
        node = &node->children[std::string(path.substr(0, dot))];
        path.remove_prefix(dot + 1);
    }
    node->children[std::string(path)].expression = std::move(expression);
}

void write_js(std::ostringstream& out, const JsObject& node, const std::string& indent) {
    if (!node.expression.empty()) {
        out << node.expression;
        return;
    }
    out << "{\n";
    for (const auto& [key, child] : node.children) {
        if (child.lazy) {  // an own enumerable accessor (as fast to build as a data property); assigning replaces the value
            out << indent << "  get " << key << "() { return r." << key << "(this); },\n";
            out << indent << "  set " << key << "(value) { r." << key << " = () => value; },\n";
            continue;
        }
        out << indent << "  " << key << ": ";
        write_js(out, child, indent + "  ");
        out << ",\n";
    }
    out << indent << "}";
}

// What the numbers must be: vramcalc.mjs checks it against the module's tables at start.
std::string estimate_layout() {
    const auto fields = scenario_fields();
    std::ostringstream layout;
    for (const auto& o : outputs()) layout << o.path << ':' << kind_name(o.kind) << ' ';
    layout << "| ";
    for (const auto& f : fields) {
        layout << f.path << ':' << kind_name(f.kind);
        for (std::size_t c = 0; c < f.choices.size(); ++c) layout << (c ? '/' : ':') << f.choices[c];
        layout << ' ';
    }
    layout << "|";
    for (StepPhase phase : all_step_phases) layout << ' ' << step_phase_id(phase);
    layout << " |";
    for (const auto& c : codec::memory_timeline_components()) layout << ' ' << c.key;
    layout << " |";
    std::set<std::string> always;  // as a JSON object lists them
    for (const auto& c : composite_outputs())
        if (c.always) always.insert(c.path);
    for (const auto& path : always) layout << ' ' << path;
    return layout.str();
}

}  // namespace

std::string estimate_builder() {
    const auto fields = scenario_fields();
    const auto components = codec::memory_timeline_components();

    const auto at = [](std::size_t index) { return "h[s + " + std::to_string(index) + "]"; };
    const auto number = [&](std::size_t index) { return "finite(" + at(index) + ")"; };
    // One object per workload: each holds the outputs of its workload (OutputSpec::workloads).
    JsObject root, serving_root;
    std::size_t texts = 0;  // text outputs, then text fields
    for (std::size_t i = 0; i < outputs().size(); ++i) {
        const OutputSpec& o = outputs()[i];
        std::string value = o.kind == ValueKind::text   ? "t[" + std::to_string(texts++) + "]"
                            : o.kind == ValueKind::flag ? at(i) + " !== 0"
                                                        : number(i);
        if (output_applies(o, Workload::training)) place_js(root, o.path, value);
        if (output_applies(o, Workload::inference)) place_js(serving_root, o.path, value);
    }
    const std::size_t field_base = outputs().size();
    JsObject scenario;
    std::ostringstream choices;
    std::size_t choice_lists = 0;
    for (std::size_t j = 0; j < fields.size(); ++j) {
        const FieldSpec& f = fields[j];
        std::string value;
        switch (f.kind) {
            case FieldKind::text: value = "t[" + std::to_string(texts++) + "]"; break;
            case FieldKind::boolean: value = at(field_base + j) + " !== 0"; break;
            case FieldKind::choice:
                choices << "  [";
                for (std::size_t c = 0; c < f.choices.size(); ++c) choices << (c ? ", " : "") << "'" << f.choices[c] << "'";
                choices << "],  // " << f.path << "\n";
                value = "CHOICES[" + std::to_string(choice_lists++) + "][" + at(field_base + j) + "]";
                break;
            default: value = number(field_base + j);
        }
        place_js(scenario, f.path, value);
    }
    std::ostringstream timeline;
    timeline << "[\n";
    const std::size_t timeline_base = field_base + fields.size();
    std::size_t p = 0;
    for (StepPhase phase : all_step_phases) {
        JsObject entry;
        entry.children["phase"].expression = std::string("'") + step_phase_id(phase) + "'";
        for (std::size_t c = 0; c < components.size(); ++c)
            entry.children[components[c].key].expression = number(timeline_base + p * components.size() + c);
        timeline << "      ";
        write_js(timeline, entry, "      ");
        timeline << ",\n";
        ++p;
    }
    timeline << "    ]";
    for (JsObject* r : {&root, &serving_root}) {
        for (const auto& c : composite_outputs()) {
            if (!c.always) continue;
            if (c.kind == CompositeKind::scenario) r->children[c.path] = scenario;
            else if (c.kind == CompositeKind::memory_timeline) r->children[c.path].expression = timeline.str();
            else if (c.kind == CompositeKind::fixes) r->children[c.path].lazy = true;  // bindings.cpp: crossing() "lazy"
            else r->children[c.path].expression = std::string("r.") + c.path;
        }
    }
    const std::size_t workload_at = field_base + std::size_t(find_field_by_path("workload") - fields.data());
    std::ostringstream out;
    out << "// Generated from the output and field tables by tools/gen_api_docs.cpp; do not edit.\n"
           "// The tables the numbers follow (vramcalc.mjs checks them against the module's at start):\n"
           "const ESTIMATE_LAYOUT = '" << estimate_layout() << "';\n"
           "// The choice fields' names, in field-table order.\n"
           "const CHOICES = [\n" << choices.str() << "];\n"
           "// The estimate object from the module's estimate numbers: h = the array holding them, s = where\n"
           "// the numbers start, t = the text values (text outputs, then text fields, in table order),\n"
           "// r = the composites that cross as text ({<path>: value}).\n"
           "function buildEstimate(h, s, t, r) {\n  if (" << at(workload_at) << " === 1) return buildServingEstimate(h, s, t, r);\n  return ";
    write_js(out, root, "  ");
    out << ";\n}\n"
           "// The same for a serving estimate (workload = inference): its outputs only.\n"
           "function buildServingEstimate(h, s, t, r) {\n  return ";
    write_js(out, serving_root, "  ");
    out << ";\n}\n";
    return out.str();
}

namespace {

std::string markdown_cell(std::string text) {
    for (std::size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2)) text.replace(at, 1, "\\|");
    return text;
}

std::optional<std::string> read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

std::string doc_table() {
    std::ostringstream out;
    out << "| key | unit | what |\n|---|---|---|\n";
    for (const auto& c : composite_outputs())
        out << "| `" << c.path << "` | list | " << markdown_cell(c.help) << " |\n";
    for (const auto& o : outputs())
        out << "| `" << o.path << "` | " << unit_words(o.unit) << " | " << markdown_cell(o.help) << " |\n";
    return out.str();
}

std::vector<Region> regions() {
    return {
        {"src/bindings/vramcalc.d.ts", "// <generated:estimate>", "// </generated:estimate>", typings()},
        {"src/bindings/vramcalc.mjs", "// <generated:estimate-builder>", "// </generated:estimate-builder>",
         estimate_builder()},
        {"docs/api.md", "<!-- outputs:begin", "<!-- outputs:end", doc_table()},
    };
}

RegionText read_region(const std::string& source_dir, const Region& region) {
    RegionText result;
    const auto text = read_text(source_dir + "/" + region.path);
    if (!text) return result;
    result.file = *text;
    auto a = text->find(region.begin);
    const auto b = text->find(region.end);
    if (a == std::string::npos || b == std::string::npos) return result;
    a = text->find('\n', a) + 1;
    if (a == 0 || a > b) return result;
    result.found = true;
    result.start = a;
    result.current = text->substr(a, b - a);
    return result;
}

bool write_region(const std::string& source_dir, const Region& region) {
    RegionText found = read_region(source_dir, region);
    if (!found.found) return false;
    if (found.current == region.text) return true;
    found.file.replace(found.start, found.current.size(), region.text);
    std::ofstream out(source_dir + "/" + region.path, std::ios::binary);
    out << found.file;
    return static_cast<bool>(out.flush());
}

}  // namespace vramcalc::api_docs
