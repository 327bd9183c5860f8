#include "format/markdown.hpp"

#include "core/training/finetune.hpp"

namespace vramcalc {
namespace {

// Markdown table cells hold no raw pipes or line breaks; everything else of user text is escaped too.
std::string cell(std::string_view text) { return escape_markdown(text); }

// "12.4 GiB" plus, for memory terms, their share of the per-GPU total.
std::string row_note(const OutputSpec& o, const Estimate& e, ByteUnits units) {
    std::string note = output_note(o, e, units);
    double total = e.memory_per_gpu_bytes.total;
    if ((o.show & show_share) && total > 0)
        note += (note.empty() ? "" : " · ") + format_percent(o.value(e) / total);
    return note;
}

void table(std::string& out, const char* title, const char* value_title, const Estimate& e, ByteUnits units,
           bool memory_section) {
    out += std::string("| ") + title + " | " + value_title + " | |\n|---|---:|---|\n";
    for (const auto& o : outputs()) {
        if (!(o.show & show_markdown) || (o.section == OutputSection::memory) != memory_section) continue;
        if (!output_applies(o, e.workload)) continue;
        if ((o.show & hide_when_zero) && o.value(e) == 0) continue;
        std::string label = cell(memory_section ? o.short_label : o.label);
        std::string value = cell(format_output(o, e, units));
        if (o.show & emphasise) label = "**" + label + "**", value = "**" + value + "**";
        std::string note = cell(row_note(o, e, units));
        out += "| " + label + " | " + value + (note.empty() ? " | |\n" : " | " + note + " |\n");
    }
}

std::string url_for_markdown(std::string_view url) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : url) {
        if (c <= 0x20 || c >= 0x7F || c == '<' || c == '>' || c == '\\') {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += char(c);
        }
    }
    return out;
}

}  // namespace

std::string estimate_to_markdown(const Scenario& sc, const Estimate& e, ByteUnits units, std::string_view link) {
    std::string out = "**" + cell(sc.model.name) + "** on " + format_grouped(double(sc.parallel.num_gpus)) + " × " +
                      cell(sc.hardware.gpu) + " — " + format_bytes(e.memory_per_gpu_bytes.total, units) +
                      " per GPU (" + (e.fits ? "fits" : "does not fit") + ")" +
                      (sc.training.method != TrainingMethod::full ? ", " + cell(describe_method(sc.training)) : "") +
                      "\n\n";
    table(out, "per GPU", "memory", e, units, true);
    out += "\n";
    table(out, "compute", "value", e, units, false);
    if (e.warnings.count > 0) {
        out += "\n";
        for (int i = 0; i < e.warnings.count; ++i) out += "- ⚠ " + cell(warning_message(e.warnings.items[i])) + "\n";
    }
    out += std::string("\n") + units_definition(units) + ".";
    // Angle brackets: the URL may hold parentheses. What could end the destination or the line
    // (<, >, spaces, controls) and anything not ASCII is percent-encoded; the codec's links have none.
    if (!link.empty()) out += " [Open this scenario in vramcalc](<" + url_for_markdown(link) + ">)";
    out += "\n";
    return out;
}

}  // namespace vramcalc
