// "Explain": for any result, the formula that produced it, the user's values substituted, the
// value and the source (all from src/core/explain.hpp), and "Copy as Markdown" (the results table
// with the scenario's link, from src/format/markdown.hpp). draw_explain is declared in panels.hpp.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace vramcalc::app {

struct App;

void explain_select(const char* id);  // opens the panel on this term (a result row was clicked)
bool explain_is_selected(const char* id);
std::string markdown_for(const App& app);  // what "Copy as Markdown" puts on the clipboard

// What the panel showed in the last frame, for the test hooks (test_hooks.cpp).
struct ExplainView {
    const std::string& selected;
    bool drawn;
    const std::string &id, &label, &formula, &source, &value;
    const std::vector<std::array<std::string, 3>>& inputs;  // symbol, value as shown, unit
    const std::string& last_copied;                         // the last "Copy as Markdown" text
};
ExplainView explain_view();

}  // namespace vramcalc::app
