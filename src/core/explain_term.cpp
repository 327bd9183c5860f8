#include "core/explain_term.hpp"

#include "core/outputs.hpp"

namespace vramcalc {

ExplainTerm explain_term(const Estimate& e, const char* id, const char* formula, const char* source,
                         std::vector<ExplainValue> inputs) {
    const OutputSpec* o = find_output(id);  // every id is an output (tests/test_outputs.cpp)
    if (!o) return {id, id, formula, source, 0.0, "", std::move(inputs)};
    return {o->path, o->label, formula, source, o->value(e), unit_symbol(o->unit), std::move(inputs)};
}

}  // namespace vramcalc
