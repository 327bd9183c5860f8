#include "codec/field_text.hpp"

#include <cmath>

#include "codec/numbers.hpp"
#include "format/shortest.hpp"
#include "codec/text.hpp"

namespace vramcalc::codec {

std::string choice_list(const FieldSpec& f) {
    std::string out;
    for (std::size_t i = 0; i < f.choices.size(); ++i) out += (i ? ", " : "") + std::string(f.choices[i]);
    return out;
}

int choice_index(const FieldSpec& f, std::string_view name) {
    for (std::size_t i = 0; i < f.choices.size(); ++i)
        if (name == f.choices[i]) return int(i);
    return -1;
}

std::string check_numeric(const FieldSpec& f, double v) {
    if (!std::isfinite(v)) return "must be a finite number";
    if (f.kind == FieldKind::integer) {
        if (std::fabs(v) > max_exact_integer) return "is out of range (must be an integer below 2^53)";
        if (v != std::floor(v)) return "must be an integer (got " + format_shortest(v) + ")";
    }
    if (f.kind == FieldKind::number && std::fabs(v) > 1e300) return "is out of range (got " + format_shortest(v) + "; at most 1e300)";
    return "";
}

std::string set_field_number(Scenario& sc, const FieldSpec& f, double value) {
    switch (f.kind) {
        case FieldKind::text: return "must be a string";
        case FieldKind::boolean: f.set(sc, value != 0.0 ? 1.0 : 0.0); return "";
        case FieldKind::choice:
            if (!(value >= 0 && value < double(f.choices.size()) && value == std::floor(value)))
                return "must be one of " + choice_list(f) + " (got " + format_shortest(value) + ")";
            f.set(sc, value);
            return "";
        case FieldKind::integer:
        case FieldKind::number: {
            std::string problem = check_numeric(f, value);
            if (!problem.empty()) return problem;
            f.set(sc, value);
            return "";
        }
    }
    return "has an unsupported kind";
}

std::string set_field_text(Scenario& sc, const FieldSpec& f, std::string_view text) {
    if (f.kind != FieldKind::text) return "must not be a string";
    if (std::string problem = text_field_problem(text); !problem.empty()) return problem;
    f.set_text(sc, std::string(text));
    return "";
}

std::string set_field_from_text(Scenario& sc, const FieldSpec& f, std::string_view text) {
    switch (f.kind) {
        case FieldKind::text: return set_field_text(sc, f, text);
        case FieldKind::boolean:
            if (text == "1" || text == "true") return set_field_number(sc, f, 1.0);
            if (text == "0" || text == "false") return set_field_number(sc, f, 0.0);
            return "must be 1/0 or true/false (got " + quoted_excerpt(text) + ")";
        case FieldKind::choice: {
            int index = choice_index(f, text);
            if (index < 0) return "must be one of " + choice_list(f) + " (got " + quoted_excerpt(text) + ")";
            return set_field_number(sc, f, double(index));
        }
        case FieldKind::integer:
        case FieldKind::number: {
            double value = 0;
            switch (read_number(text, value)) {
                case NumberText::ok: break;
                case NumberText::not_a_number:
                    return std::string("must be ") + (f.kind == FieldKind::integer ? "an integer" : "a number") +
                           " written in decimal digits (got " + quoted_excerpt(text) + ")";
                case NumberText::out_of_range: return "is out of range (got " + quoted_excerpt(text) + ")";
            }
            return set_field_number(sc, f, value);
        }
    }
    return "has an unsupported kind";
}

}  // namespace vramcalc::codec
