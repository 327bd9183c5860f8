#include "map_frame.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "plot.hpp"
#include "widgets.hpp"

namespace vramcalc::app {

void draw_map_y_title(const std::string& title) {
    small_text(ImGui::GetWindowDrawList(), ImGui::GetCursorScreenPos(), palette().text_dim, title);
    ImGui::Dummy(ImVec2(0, small_size("X").y + 2));
}

MapFrame draw_map_image(float left, float w, float h, int nx, int ny, bool smooth_x, bool smooth_y, fitmap::Kind kind) {
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    MapFrame f{ImGui::GetCursorScreenPos(), {}, {}, w, h, nx, ny, false};
    // Whole framebuffer pixels, so the rendered texture maps 1:1 onto the screen.
    const float ratio = std::max(1.0f, ImGui::GetIO().DisplayFramebufferScale.x);
    f.min = ImVec2(std::round((f.origin.x + left) * ratio) / ratio, std::round(f.origin.y * ratio) / ratio);
    f.max = ImVec2(f.min.x + std::round(w * ratio) / ratio, f.min.y + std::round(h * ratio) / ratio);
    f.visible = ImGui::IsRectVisible(f.min, f.max);
    if (f.visible && nx > 0 && ny > 0) {
        unsigned tex = fitmap::texture(int(std::lround(w * ratio)), int(std::lround(h * ratio)), smooth_x, smooth_y, ratio, kind);
        if (tex)
            dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(tex)), f.min, f.max, ImVec2(0, 1), ImVec2(1, 0));
        else if (!fitmap::pending(kind))
            small_text(dl, ImVec2(f.min.x + 12, f.min.y + 12), pal.bad, "The fit map's shader did not build in this browser.");
    }
    dl->AddRect(ImVec2(f.min.x - 1, f.min.y - 1), ImVec2(f.max.x + 1, f.max.y + 1), pal.card_border, 0, 0, 1.0f);
    return f;
}

void draw_map_x_tick(const MapFrame& f, float x, const std::string& label) {
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
    dl->AddLine(ImVec2(x, f.max.y + 1), ImVec2(x, f.max.y + 4), with_alpha(pal.ink, 70), 1);
    dl->AddText(ImVec2(std::clamp(x - ts.x * 0.5f, f.min.x - 4, f.max.x - ts.x + 4), f.max.y + 5), pal.text_faint, label.c_str());
}

void draw_map_y_tick(const MapFrame& f, float y, const std::string& label) {
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
    dl->AddLine(ImVec2(f.min.x - 4, y), ImVec2(f.min.x - 1, y), with_alpha(pal.ink, 70), 1);
    dl->AddText(ImVec2(f.min.x - 6 - ts.x, std::clamp(y - ts.y * 0.5f, f.min.y - 2, f.max.y - ts.y + 2)), pal.text_faint,
                label.c_str());
}

void draw_map_x_title(const MapFrame& f, const std::string& title) {
    const ImVec2 ts = ImGui::CalcTextSize(title.c_str());
    ImGui::GetWindowDrawList()->AddText(ImVec2(f.min.x + (f.w - ts.x) * 0.5f, f.max.y + 5 + ImGui::GetFontSize() + 2),
                                        palette().text_dim, title.c_str());
}

void draw_map_point(ImVec2 at) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddCircle(at, 7.0f, IM_COL32(10, 14, 24, 220), 20, 4.0f);
    dl->AddCircle(at, 7.0f, IM_COL32(255, 255, 255, 255), 20, 2.0f);
}

void hovered_cell(const MapFrame& f, float min_size, int& ix, int& iy) {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    ix = std::clamp(int((mp.x - f.min.x) / f.w * f.nx), 0, f.nx - 1);
    iy = std::clamp(int((f.max.y - mp.y) / f.h * f.ny), 0, f.ny - 1);
    float x0 = f.min.x + float(ix) / f.nx * f.w, x1 = f.min.x + float(ix + 1) / f.nx * f.w;
    float y1 = f.max.y - float(iy) / f.ny * f.h, y0 = f.max.y - float(iy + 1) / f.ny * f.h;
    if (x1 - x0 < min_size) {
        x0 = (x0 + x1) * 0.5f - min_size * 0.5f;
        x1 = x0 + min_size;
    }
    if (y1 - y0 < min_size) {
        y0 = (y0 + y1) * 0.5f - min_size * 0.5f;
        y1 = y0 + min_size;
    }
    ImGui::GetWindowDrawList()->AddRect(ImVec2(x0, y0), ImVec2(x1, y1), IM_COL32(255, 255, 255, 230), 0, 0, 1.5f);
}

void draw_map_footer(const MapFrame& f, float width, void (*legend)(float width), const char* timing) {
    ImGui::PushFont(fonts().small);
    const float fh = ImGui::GetFontSize();
    ImGui::PopFont();
    ImGui::SetCursorScreenPos(ImVec2(f.origin.x, f.max.y + 2 * fh + 14));
    ImGui::Dummy(ImVec2(width, 0));
    legend(width);
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, palette().text_faint);
    ImGui::TextWrapped("%s", timing);
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

}  // namespace vramcalc::app
