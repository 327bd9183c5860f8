// The headline tiles: the outputs marked show_tile, as many a row as the layout gives, equal heights.
#include <algorithm>
#include <string>
#include <vector>

#include "app.hpp"
#include "core/outputs.hpp"
#include "dom.hpp"
#include "imgui.h"
#include "widgets.hpp"

namespace vramcalc::app {

namespace {

struct Tile {
    const char* title;
    std::string value, note;
    std::string tip;
    const char* path;
};

// The headline outputs; a predicted one shows its measured error band.
std::vector<Tile> headline_tiles(const App& app) {
    const Estimate& e = app.evaluation.estimate;
    std::vector<Tile> tiles;
    for (const auto& o : outputs())
        if ((o.show & show_tile) && output_applies(o, e.workload)) {
            const ErrorBand band = output_error_band(o.path, e);
            std::string note = output_note(o, e, app.units), range = format_error_band(band);
            if (band.cases > 0) note = range + (note.empty() ? "" : " \xC2\xB7 " + note);
            std::string tip = band.applies ? std::string(o.help) + "\n\n" + format_error_band(band, true) : o.help;
            tiles.push_back({o.label, format_output(o, e, app.units), note, tip, o.path});
        }
    // The time is for the tokens set under Training (a fine-tune's few, a pre-training's many): say how many.
    for (Tile& t : tiles)
        if (std::string_view(t.path) == "compute.seconds")
            t.note = "for " + format_count(app.scenario.training.tokens) + " tokens, " + t.note;
    return tiles;
}

// Equal tile heights: every tile reserves the tallest note (wrapped at the tile's width). Wraps
// the notes; returns that height.
float wrap_tile_notes(std::vector<Tile>& tiles, int columns) {
    const float card_pad = 18;  // begin_card's cell padding
    const float col_w = (ImGui::GetContentRegionAvail().x - 10.0f * (columns - 1)) / columns;
    const float inner_w = std::max(20.0f, col_w - 2 * card_pad);
    ImGui::PushFont(fonts().small);
    float note_h = 0;
    for (Tile& t : tiles) {
        t.note = wrap_at_spaces(t.note, inner_w);
        note_h = std::max(note_h, ImGui::CalcTextSize(t.note.c_str()).y);
    }
    ImGui::PopFont();
    return note_h;
}

// One tile's card, `width` wide: title, value, note (`note_h` tall), tooltip.
void draw_tile(const Tile& tile, float width, float note_h) {
    const Palette& pal = palette();
    begin_card("tile", width);
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
    ImGui::TextUnformatted(tile.title);
    ImGui::PopStyleColor();
    ImGui::PopFont();
    // Headline value: title size unless it would not fit the tile (same line height either way).
    ImGui::PushFont(fonts().title);
    const float value_h = ImGui::GetTextLineHeight();
    bool fits_title = ImGui::CalcTextSize(tile.value.c_str()).x <= ImGui::GetContentRegionAvail().x;
    ImGui::PopFont();
    const float value_y = ImGui::GetCursorPosY();
    ImGui::PushFont(fits_title ? fonts().title : fonts().bold);
    if (!fits_title) ImGui::SetCursorPosY(value_y + (value_h - ImGui::GetTextLineHeight()) * 0.5f);
    ImGui::TextUnformatted(tile.value.c_str());
    ImGui::PopFont();
    record_item(std::string("tile:") + tile.path);
    ImGui::SetCursorPosY(value_y + value_h + ImGui::GetStyle().ItemSpacing.y);
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
    const float note_y = ImGui::GetCursorPosY();
    ImGui::TextUnformatted(tile.note.c_str());
    ImGui::SetCursorPosY(note_y);
    ImGui::Dummy(ImVec2(0, note_h));
    ImGui::PopStyleColor();
    ImGui::PopFont();
    end_card();
    help_tooltip(tile.title, tile.tip.c_str());
}

}  // namespace

void draw_tiles(App& app, int columns) {
    std::vector<Tile> tiles = headline_tiles(app);
    const int count = int(tiles.size());
    dom::Control table{"tiles", dom::Role::table, "Headline results"};
    const float note_h = wrap_tile_notes(tiles, columns);
    const ImVec2 start = ImGui::GetCursorScreenPos();
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(0, 0));
    if (ImGui::BeginTable("tiles", columns, ImGuiTableFlags_NoSavedSettings | ImGuiTableFlags_SizingStretchSame)) {
        for (int i = 0; i < count; ++i) {
            if (i % columns == 0) ImGui::TableNextRow();
            ImGui::TableNextColumn();
            float w = ImGui::GetContentRegionAvail().x - ((i % columns) != columns - 1 ? 10.0f : 0.0f);
            ImGui::PushID(i);
            draw_tile(tiles[i], w, note_h);
            std::string note = tiles[i].note;
            std::replace(note.begin(), note.end(), '\n', ' ');
            table.rows.push_back({tiles[i].title, tiles[i].value, note});
            if (i / columns < (count - 1) / columns) ImGui::Dummy(ImVec2(0, 2));  // gap between rows of tiles
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    ImGui::PopStyleVar();
    dom::add_at(std::move(table), start, ImVec2(start.x + ImGui::GetContentRegionAvail().x, ImGui::GetCursorScreenPos().y));
    ImGui::Dummy(ImVec2(0, 2));
}

}  // namespace vramcalc::app
