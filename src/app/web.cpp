#include "web.hpp"

#include <cstdlib>
#include <emscripten.h>

namespace vramcalc::app::web {
namespace {

// Returns a malloc'd UTF-8 copy of a JS string (caller frees).
EM_JS(char*, js_location_hash, (), {
    const h = (location.hash || "").replace(/^#/, "");
    const n = lengthBytesUTF8(h) + 1;
    const p = _malloc(n);
    stringToUTF8(h, p, n);
    return p;
});

EM_JS(void, js_canvas_metrics, (double* out), {
    const c = Module['canvas'];
    const r = c.getBoundingClientRect();
    HEAPF64[out >> 3] = r.width;
    HEAPF64[(out >> 3) + 1] = r.height;
    HEAPF64[(out >> 3) + 2] = window.devicePixelRatio || 1;
});

EM_JS(void, js_set_canvas_size, (int w, int h), {
    const c = Module['canvas'];
    if (c.width !== w) c.width = w;
    if (c.height !== h) c.height = h;
});

EM_JS(int, js_is_embed, (), {
    if (document.body && document.body.dataset.mode === 'embed') return 1;
    return /(^|[#&])embed=1(&|$)/.test(location.hash) ? 1 : 0;
});

EM_JS(void, js_replace_hash, (const char* fragment), {
    const f = UTF8ToString(fragment);
    try { history.replaceState(history.state, "", "#" + f); } catch (e) { }
});

EM_JS(void, js_copy, (const char* text), {
    const t = UTF8ToString(text);
    const fallback = () => {
        const area = document.createElement('textarea');
        area.value = t;
        area.setAttribute("readonly", "");
        area.className = 'offscreen';
        document.body.appendChild(area);
        area.select();
        try { document.execCommand('copy'); } catch (e) { }
        area.remove();
    };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(t).catch(fallback);
    else fallback();
});

EM_JS(char*, js_page_url, (const char* fragment, int full), {
    const f = UTF8ToString(fragment);
    let url;
    if (full) {
        url = new URL('./', location.href);  // index.html of the same folder
    } else {
        url = new URL(location.href);
    }
    url.hash = f;
    const s = url.toString();
    const n = lengthBytesUTF8(s) + 1;
    const p = _malloc(n);
    stringToUTF8(s, p, n);
    return p;
});

EM_JS(void, js_open, (const char* url), {
    window.open(UTF8ToString(url), '_blank', 'noopener');
});

EM_JS(void, js_set_text, (const char* id, const char* text), {
    const el = document.getElementById(UTF8ToString(id));
    if (el) el.textContent = UTF8ToString(text);
});

EM_JS(void, js_set_page_theme, (int light), {
    const root = document.documentElement;
    const theme = light ? 'light' : 'dark';
    if (root.dataset.theme !== theme) root.dataset.theme = theme;
    const meta = document.querySelector('meta[name="theme-color"]');
    if (meta) meta.setAttribute('content', light ? '#f4f6fa' : '#0d1220');
});

EM_JS(int, js_media, (const char* query), {
    return window.matchMedia && window.matchMedia(UTF8ToString(query)).matches ? 1 : 0;
});

EM_JS(void, js_page_call, (const char* name, const char* arg), {
    const fn = Module[UTF8ToString(name)];
    if (fn) fn(UTF8ToString(arg));
});

EM_JS(void, js_request_frame, (), {
    if (Module['vramcalcRequestFrame']) Module['vramcalcRequestFrame']();
});

EM_JS(void, js_mark_first_frame, (), {
    if (window.vramcalcFirstFrameMs === undefined) {
        window.vramcalcFirstFrameMs = performance.now();
        document.documentElement.classList.add('ready');
    }
});

EM_JS(void, js_mark, (const char* name), { performance.mark(UTF8ToString(name)); });

EM_JS(int, js_font_length, (), {
    const f = Module['vramcalcFont'];
    return f ? f.byteLength : 0;
});

EM_JS(void, js_font_copy, (unsigned char* dst), {
    HEAPU8.set(new Uint8Array(Module['vramcalcFont']), dst);
});

std::string take(char* p) {
    std::string s = p ? p : "";
    std::free(p);
    return s;
}

}  // namespace

CanvasMetrics canvas_metrics() {
    double v[3] = {0, 0, 1};
    js_canvas_metrics(v);
    return {v[0], v[1], v[2] > 0 ? v[2] : 1};
}
void set_canvas_backing_size(int width, int height) { js_set_canvas_size(width, height); }
bool is_embed_mode() { return js_is_embed() != 0; }
std::string location_hash() { return take(js_location_hash()); }
void replace_hash(const std::string& fragment) { js_replace_hash(fragment.c_str()); }
void copy_to_clipboard(const std::string& text) { js_copy(text.c_str()); }
std::string page_url_with_hash(const std::string& fragment, bool full) {
    return take(js_page_url(fragment.c_str(), full ? 1 : 0));
}
void open_in_new_tab(const std::string& url) { js_open(url.c_str()); }
void set_summary(const std::string& text) { js_page_call("vramcalcSummary", text.c_str()); }
void set_page_theme(bool light) { js_set_page_theme(light ? 1 : 0); }
bool prefers_light() { return js_media("(prefers-color-scheme: light)") != 0; }
bool coarse_pointer() { return js_media("(pointer: coarse)") != 0; }
void open_file_picker() { js_page_call("vramcalcOpenFile", ""); }
void fetch_hf_config(const std::string& model_id) { js_page_call("vramcalcFetchHf", model_id.c_str()); }

void set_status_note(const std::string& text) { js_set_text("status", text.c_str()); }
void request_frame() { js_request_frame(); }
void mark_first_frame() { js_mark_first_frame(); }
void mark(const char* name) { js_mark(name); }
std::vector<unsigned char> font_bytes() {
    int n = js_font_length();
    std::vector<unsigned char> out(n > 0 ? std::size_t(n) : 0);
    if (n > 0) js_font_copy(out.data());
    return out;
}

}  // namespace vramcalc::app::web
