// The page's side of the browser: everything the app asks of JavaScript goes through these
// functions (EM_JS in web.cpp), so the rest of src/app stays plain C++ + ImGui.
#pragma once

#include <string>
#include <vector>

namespace vramcalc::app::web {

struct CanvasMetrics {
    double css_width = 0, css_height = 0;  // layout size of the canvas (CSS pixels)
    double pixel_ratio = 1;                // window.devicePixelRatio
};
CanvasMetrics canvas_metrics();
void set_canvas_backing_size(int width, int height);  // canvas.width/height in device pixels

bool is_embed_mode();             // embed.html (body[data-mode=embed]) or #embed=1
std::string location_hash();      // without the leading '#'
void replace_hash(const std::string& fragment);  // history.replaceState, no navigation
void copy_to_clipboard(const std::string& text);
std::string page_url_with_hash(const std::string& fragment, bool full_calculator);  // absolute URL
void open_in_new_tab(const std::string& url);
void set_summary(const std::string& text);       // the aria-live DOM mirror of the key results (announced once settled)
void set_page_theme(bool light);                 // <html data-theme>, theme-color: the CSS follows the canvas
bool prefers_light();                            // prefers-color-scheme: light
bool coarse_pointer();                           // (pointer: coarse): a touch screen
void open_file_picker();                         // the Import button's <input type=file>
void fetch_hf_config(const std::string& model_id);  // GET huggingface.co/<id>/resolve/main/config.json → import
void set_status_note(const std::string& text);   // the visible DOM status line (under the canvas)
void request_frame();             // schedule one animation frame (the loop is on demand)
void mark_first_frame();
void mark(const char* name);     // performance.mark (start-up breakdown in the bench)
std::vector<unsigned char> font_bytes();  // the font fetched by main.js (empty if missing)

}  // namespace vramcalc::app::web
