// vramcalc page glue (ES module, no inline script: runs under CSP script-src 'self' 'wasm-unsafe-eval').
// Fetches the font in parallel with the wasm, starts the app (numbers first, then the canvas),
// owns the on-demand frame loop (a frame is drawn only after input, resize or zoom), keeps the DOM
// layer (dom.js) in step with each frame, imports pasted / dropped / picked / fetched configs, sizes
// an embed to its content for the host page (vramcalc-embed.js), and exposes window.vramcalcTest.
import createVramcalcApp from './vramcalc-app.js';
import { createDomLayer } from './dom.js';

const canvas = document.getElementById('canvas');
const status = document.getElementById('status');
const uiRoot = document.getElementById('ui');
// The one font file (bold is drawn from it) is fetched once more if the first try fails: the
// page has no built-in font.
const fetchFont = (url) => fetch(url).then((r) => (r.ok ? r.arrayBuffer() : null)).catch(() => null);
const font = fetchFont('vramcalc-sans.ttf').then((bytes) => bytes || fetchFont('vramcalc-sans.ttf'));
const embedded = document.body.dataset.mode === 'embed' || /(^|[#&])embed=1(&|$)/.test(location.hash);
document.documentElement.classList.toggle('embedded', embedded);

let Module = null;
let dom = null;

function fail(message) {
  if (status) status.textContent = message;
  document.documentElement.classList.remove('ready');
}

// Resolves once the browser has produced the next frame (its main-thread work done).
const afterNextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
// Resolves once the browser reports the numbers of the DOM summary on screen (Element Timing;
// where that API is missing, after the next frame; in any case within a second). The canvas's
// start-up keeps the browser's GPU process busy, so it waits for this.
const summary = document.getElementById('summary');
if (summary) summary.setAttribute('elementtiming', 'vramcalc-numbers');
const numbersShown = () => new Promise((resolve) => {
  let observer = null;
  const done = () => {
    clearTimeout(timer);
    if (observer) observer.disconnect();
    resolve();
  };
  const timer = setTimeout(done, 1000);
  if (summary && window.PerformanceObserver && (PerformanceObserver.supportedEntryTypes || []).includes('element')) {
    observer = new PerformanceObserver((list) => {
      if (list.getEntries().some((e) => e.identifier === 'vramcalc-numbers')) done();
    });
    observer.observe({ type: 'element', buffered: true });
  } else {
    afterNextFrame().then(done);
  }
});
const idle = (fn) => (window.requestIdleCallback ? requestIdleCallback(fn, { timeout: 2000 }) : setTimeout(fn, 500));
let firstFrameDrawn;
const afterFirstFrame = new Promise((resolve) => { firstFrameDrawn = resolve; });

// ── Keys ──
// The canvas takes no keys (ImGui gets only the mouse): keys on the page's DOM controls go to the
// DOM layer (dom.js), the documented shortcuts work wherever focus is not in a text field, and
// default actions (typing, Tab moving focus) are the browser's. A key handled here goes no further.
const isTextTarget = (t) => t && (t.tagName === 'INPUT' && t.type !== 'checkbox' || t.tagName === 'TEXTAREA' ||
  t.tagName === 'SELECT' || t.isContentEditable);
// A picker's search field appears a frame or two after its shortcut ("/"): letters typed before
// it has focus are kept here and put into it when it takes focus, so none is lost.
let typeAhead = null;
function shortcut(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || isTextTarget(e.target) || !uiRoot) return false;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  for (const el of uiRoot.querySelectorAll('[aria-keyshortcuts]')) {
    if (el.getAttribute('aria-keyshortcuts').toLowerCase() !== key) continue;
    e.preventDefault();
    el.focus();
    if (el.getAttribute('aria-haspopup') === 'listbox') typeAhead = { text: '', until: performance.now() + 1000 };
    if (el.tagName === 'BUTTON') el.click();
    return true;
  }
  return false;
}
function keptForSearch(e) {
  if (!typeAhead || performance.now() > typeAhead.until) { typeAhead = null; return false; }
  if (e.key.length !== 1 || e.ctrlKey || e.metaKey || e.altKey || isTextTarget(e.target)) return false;
  typeAhead.text += e.key;
  e.preventDefault();
  return true;
}
document.addEventListener('focusin', (e) => {
  const t = e.target;
  if (!typeAhead || !t || t.getAttribute('role') !== 'combobox') return;
  const text = typeAhead.text;
  typeAhead = null;
  if (!text) return;
  t.value += text;
  t.dispatchEvent(new Event('input', { bubbles: true }));
});
window.addEventListener('keydown', (e) => {
  if (keptForSearch(e)) { e.stopImmediatePropagation(); return; }
  const onControl = uiRoot && uiRoot.contains(e.target) && e.target !== uiRoot;
  if (onControl) {
    if (dom) dom.onKeydown(e);
    if (!e.defaultPrevented) shortcut(e);
    e.stopImmediatePropagation();
    return;
  }
  const inOtherDom = e.target && e.target !== document.body && e.target !== canvas && e.target !== document.documentElement;
  if (inOtherDom) { e.stopImmediatePropagation(); return; }
  if (e.key === 'Tab' || shortcut(e)) { e.stopImmediatePropagation(); return; }
  // Ctrl+A on the canvas would select the whole document's text (the canvas itself has none).
  if ((e.ctrlKey || e.metaKey) && (e.key === 'a' || e.key === 'A')) e.preventDefault();
}, true);

start().catch((e) => {
  console.error(e);
  fail('The calculator could not start: ' + (e && e.message ? e.message : e));
});

async function start() {
  let frameQueued = false;
  const frameTimes = window.vramcalcFrameTimes = [];  // ms spent in each of the first frames (bench)
  let lastHeight = 0;
  const requestFrame = () => {
    if (frameQueued || !Module) return;
    frameQueued = true;
    requestAnimationFrame(() => {
      frameQueued = false;
      const t0 = performance.now();
      const more = Module._vramcalc_frame();
      if (dom) dom.update();
      if (frameTimes.length < 64) frameTimes.push(performance.now() - t0);
      if (window.vramcalcFirstFrameMs !== undefined) firstFrameDrawn();
      if (embedded) postHeight();
      if (more) requestFrame();
    });
  };
  // Embed: tell the host page how tall the content is (docs/embedding.md, the height protocol).
  const postHeight = () => {
    if (window.parent === window) return;
    const bar = document.querySelector('.summary-bar');
    const h = Math.ceil(Module._vramcalc_content_height() + (bar ? bar.getBoundingClientRect().height : 0));
    if (h > 0 && Math.abs(h - lastHeight) >= 1) {
      lastHeight = h;
      window.parent.postMessage({ type: 'vramcalc:height', height: h }, '*');
    }
  };
  // The text summary (aria-live): written at once the first time (main() writes the first numbers
  // while the module starts), then only when the results have settled, so a screen reader
  // announces each change once, not every step of it.
  const summaryEl = document.getElementById('summary');
  let summaryTimer = null;
  let summaryText = null;
  const setSummary = (text) => {
    summaryText = text;
    if (!summaryEl.textContent) { summaryEl.textContent = text; return; }
    clearTimeout(summaryTimer);
    summaryTimer = setTimeout(() => {
      summaryTimer = null;
      if (summaryEl.textContent !== summaryText) summaryEl.textContent = summaryText;
    }, 500);
  };
  // Start-up (src/app/main.cpp): the wasm's main() writes the verdict and headline numbers into
  // the DOM summary as soon as the module is instantiated; the browser shows them before anything
  // else runs; then the WebGL context, shaders and fonts (vramcalc_start_gl) and the first frame.
  // The factory's object is the module: what C++ calls on it (src/app/web.cpp) is given here.
  Module = await createVramcalcApp({
    vramcalcSummary: setSummary,
    canvas,
    vramcalcRequestFrame: () => requestFrame(),
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
  });
  performance.mark('vramcalc-ready');
  // The C++ side calls these on the module (src/app/web.cpp); the factory's object is the module.
  Module.vramcalcRequestFrame = requestFrame;
  await numbersShown();
  performance.mark('vramcalc-numbers-shown');
  Module.vramcalcFont = await font;
  if (!Module._vramcalc_start_gl()) {
    document.documentElement.classList.remove('ready');
    return;
  }
  // The ImGui shaders' compile status, asked once the page is idle (it would wait for drawing);
  // -1: the browser is still compiling (KHR_parallel_shader_compile), ask at the next idle time
  // (after 20 tries, e.g. a lost context that never reports done, the answer is waited for).
  let glChecks = 0;
  const checkGl = () => {
    const status = Module._vramcalc_check_gl(++glChecks >= 20 ? 1 : 0);
    if (status < 0) idle(checkGl);
    else if (!status) console.error('vramcalc: a shader failed to build (see the log above)');
    else window.vramcalcShadersCheckedMs = performance.now();
  };
  afterFirstFrame.then(() => idle(checkGl));

  const wake = () => { Module._vramcalc_wake(); };
  dom = createDomLayer({ root: uiRoot, canvas, module: Module, wake: requestFrame });

  const str = (ptr) => Module.UTF8ToString(ptr);
  const withStrings = (fn, ...values) => {
    const ptrs = values.map((v) => {
      const s = String(v);
      const n = Module.lengthBytesUTF8(s) + 1;
      const p = Module._malloc(n);
      Module.stringToUTF8(s, p, n);
      return p;
    });
    try { return fn(...ptrs); } finally { ptrs.forEach((p) => Module._free(p)); }
  };

  // ── Import: paste or drop a config anywhere, the Import button's file picker, a Hugging Face id ──
  // The configs are read by the JS API (vramcalc.mjs, the same codec as the CLI's --hf-config and
  // --deepspeed-config), loaded on the first import only; the app applies the fields it set.
  let imports = 0;  // in progress (reading a file, loading the API, fetching)
  let api = null;
  const loadApi = () => api || (api = import('./vramcalc.mjs').then((m) => m.default()));
  const importFailed = (source, message) => withStrings(Module._vramcalc_import_failed, source, message);
  const fieldText = (f, v) => {
    if (f.kind === 'boolean') return v ? '1' : '0';
    if (f.kind === 'integer' || f.kind === 'number') return String(v).replace('e+', 'e');
    return String(v).replace(/[\t\r\n]/g, ' ');
  };
  const fieldLines = (a, scenario) => a.fields().map((f) => {
    const [section, key] = f.path.split('.');
    const value = key === undefined ? scenario[section] : scenario[section][key];  // top-level: workload
    return `${f.path}\t${fieldText(f, value)}`;
  }).join('\n');
  // A .gguf file: only its header is read (8 MiB, once 64 MiB when the header is longer), by the
  // JS API's importGguf; the page then serves the model in the file's format with llama.cpp.
  const importGguf = async (file, source) => {
    imports++;
    try {
      const a = await loadApi();
      const base = a.decodeLink(str(Module._vramcalc_scenario_link())).scenario;
      let r = null;
      for (const size of [8 << 20, 64 << 20]) {
        const bytes = new Uint8Array(await file.slice(0, size).arrayBuffer());
        try {
          r = a.importGguf(bytes, base);
          break;
        } catch (e) {
          if (e.incomplete && size < file.size && size < 64 << 20) continue;
          importFailed(source, e.issues ? e.issues.map((i) => `${i.field}: ${i.message}`).join('\n') : String(e && e.message ? e.message : e));
          return;
        }
      }
      withStrings(Module._vramcalc_import, fieldLines(a, r.scenario), source, 'GGUF header',
        [`Model: ${r.scenario.model.name} (${r.family}).`, ...r.notes].join('\n'));
    } catch (e) {
      importFailed(source, `the file could not be read (${e && e.message ? e.message : e})`);
    } finally {
      imports--;
      wake();
    }
  };
  const importText = async (text, source) => {
    imports++;
    try {
      const a = await loadApi();
      // A DeepSpeed config has its own keys; anything else is read as a Hugging Face config.json.
      const deepspeed = /"(zero_optimization|train_micro_batch_size_per_gpu|train_batch_size|gradient_accumulation_steps)"/.test(text) &&
        !/"(model_type|architectures|hidden_size|n_embd)"/.test(text);
      const base = a.decodeLink(str(Module._vramcalc_scenario_link())).scenario;
      let r;
      try {
        r = deepspeed ? a.importDeepSpeedConfig(text, base) : a.importHfConfig(text, base);
      } catch (e) {
        importFailed(source, e.issues ? e.issues.map((i) => (i.field === 'config' ? i.message : `${i.field}: ${i.message}`)).join('\n')
          : String(e && e.message ? e.message : e));
        return;
      }
      const fields = fieldLines(a, r.scenario);
      const lines = [];
      if (!deepspeed) lines.push(`Model: ${r.scenario.model.name} (${r.family}).`);
      lines.push(...r.notes);
      // The importer's notes usually list the keys it did not map already: each key is said once.
      if (r.unmapped_keys.length && !r.notes.some((n) => n.includes(r.unmapped_keys[0]))) {
        lines.push(`Keys that set nothing here: ${r.unmapped_keys.slice(0, 12).join(', ')}${r.unmapped_keys.length > 12 ? ', …' : ''}.`);
      }
      withStrings(Module._vramcalc_import, fields, source, deepspeed ? 'DeepSpeed config' : 'Hugging Face config',
        lines.join('\n'));
    } catch (e) {
      importFailed(source, `the import could not run (${e && e.message ? e.message : e})`);
    } finally {
      imports--;
    }
  };
  const readFile = (file, how) => {
    if (!file) return;
    if (/\.gguf$/i.test(file.name)) { importGguf(file, `${file.name} (${how})`); return; }
    if (file.size > 1 << 20) { importFailed(file.name, 'the file is larger than 1 MiB; a config.json is a few KB'); return; }
    imports++;
    file.text().then((text) => importText(text, `${file.name} (${how})`),
      (e) => importFailed(file.name, `could not be read (${e && e.message ? e.message : e})`))
      .finally(() => { imports--; });
  };
  const picker = document.createElement('input');
  picker.type = 'file';
  picker.accept = '.json,application/json,.gguf';
  picker.hidden = true;
  picker.setAttribute('aria-hidden', 'true');
  picker.tabIndex = -1;
  document.body.appendChild(picker);
  picker.addEventListener('change', () => { readFile(picker.files[0], 'picked'); picker.value = ''; });
  Module.vramcalcOpenFile = () => picker.click();
  document.addEventListener('paste', (e) => {
    if (isTextTarget(e.target)) return;  // a paste into a field is the field's
    const text = e.clipboardData && e.clipboardData.getData('text/plain');
    if (text && /^\s*\{/.test(text)) {
      e.preventDefault();
      importText(text, 'pasted text');
    }
  });
  document.addEventListener('dragover', (e) => {
    if (e.dataTransfer && [...e.dataTransfer.types].some((t) => t === 'Files' || t === 'text/plain')) {
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    }
  }, true);
  document.addEventListener('drop', (e) => {
    if (!e.dataTransfer) return;
    e.preventDefault();
    e.stopPropagation();
    if (e.dataTransfer.files && e.dataTransfer.files.length) readFile(e.dataTransfer.files[0], 'dropped');
    else {
      const text = e.dataTransfer.getData('text/plain');
      if (text && /^\s*\{/.test(text)) importText(text, 'dropped text');
    }
  }, true);
  // The config.json of a Hugging Face model id, fetched by the reader's browser (public models
  // only: private and gated ones need a login this page does not have).
  Module.vramcalcFetchHf = async (id) => {
    withStrings(Module._vramcalc_import_busy, id);
    const url = `https://huggingface.co/${id.split('/').map(encodeURIComponent).join('/')}/resolve/main/config.json`;
    imports++;
    try {
      let response;
      try {
        response = await fetch(url, { credentials: 'omit', cache: 'no-store' });
      } catch (e) {
        importFailed(id, 'huggingface.co could not be reached (offline, or blocked by this site). Download ' +
          'config.json from the model page and drop it here instead.');
        return;
      }
      if (response.status === 401 || response.status === 403) {
        importFailed(id, 'the model is private or gated: Hugging Face wants a login for it. Download config.json ' +
          'from the model page (after accepting its terms) and drop it here instead.');
      } else if (response.status === 404) {
        importFailed(id, 'Hugging Face has no model with this id, or it has no config.json.');
      } else if (!response.ok) {
        importFailed(id, `Hugging Face answered HTTP ${response.status}; try again later, or drop the config.json here.`);
      } else {
        const text = await response.text();
        if (text.length > 1 << 20) importFailed(id, 'the config.json is larger than 1 MiB');
        else await importText(text, id);
      }
    } finally {
      imports--;
      wake();
    }
  };

  for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel']) {
    canvas.addEventListener(type, wake, true);
  }
  for (const type of ['mouseleave', 'mouseenter']) {
    canvas.addEventListener(type, wake, { capture: true, passive: true });
  }
  // While a picker's list is open, a click on it must not take focus from its search field.
  canvas.addEventListener('mousedown', (e) => { if (uiRoot.classList.contains('vc-popup-open')) e.preventDefault(); }, true);
  // The mouse, for ImGui (src/app/main.cpp): its position over the canvas in CSS pixels, its
  // buttons (a release anywhere counts: a drag may end outside the canvas) and the wheel.
  const pointerAt = (e) => {
    const r = canvas.getBoundingClientRect();
    Module._vramcalc_pointer_move(e.clientX - r.left, e.clientY - r.top);
  };
  canvas.addEventListener('mousemove', pointerAt);
  canvas.addEventListener('mousedown', (e) => { pointerAt(e); Module._vramcalc_pointer_button(e.button, 1); });
  window.addEventListener('mouseup', (e) => {
    if (e.target === canvas) pointerAt(e);
    Module._vramcalc_pointer_button(e.button, 0);
  });
  canvas.addEventListener('wheel', (e) => {
    Module._vramcalc_pointer_wheel(-e.deltaX / 100, -e.deltaY / 100);
    e.preventDefault();  // the panel scrolls, not the page (dom.js forwards this answer for its fields)
  }, { passive: false });
  // The wheel scrolls the panel under the pointer; where nothing there can scroll that way (an
  // embed that fits, the end of a list), the canvas never sees it, so the host page scrolls instead.
  window.addEventListener('wheel', (e) => {
    if (e.target !== canvas && !uiRoot.contains(e.target)) return;
    if (!Module._vramcalc_can_scroll(e.deltaY)) { e.stopImmediatePropagation(); return; }
    wake();
  }, { capture: true, passive: true });
  // Touch, stopped at the window and turned into what a person means: a tap is a click at the
  // finger, a one-finger drag scrolls the panel under it. A tap on a text field or a drop-down is
  // the browser's (the keyboard or the system picker opens); a drag that starts there still scrolls.
  let touch = null;
  const mouse = (type, t) => canvas.dispatchEvent(new MouseEvent(type, {
    clientX: t.clientX, clientY: t.clientY, screenX: t.screenX, screenY: t.screenY,
    button: 0, buttons: type === 'mouseup' ? 0 : 1, bubbles: true, cancelable: true }));
  const onTouch = (e) => {
    const onCanvas = e.target === canvas;
    const onField = !onCanvas && uiRoot.contains(e.target) && e.target !== uiRoot;
    if (!onCanvas && !onField) return;
    e.stopPropagation();
    const t = e.changedTouches[0];
    if (!t) return;
    if (e.type === 'touchstart') {
      if (onCanvas && !embedded) e.preventDefault();  // an embed lets the host page scroll under the finger
      touch = { id: t.identifier, x: t.clientX, y: t.clientY, lastY: t.clientY, scrolling: e.touches.length > 1, onCanvas };
      if (onCanvas) mouse('mousemove', t);
    } else if (touch && t.identifier === touch.id) {
      if (e.type === 'touchmove') {
        if (!touch.scrolling && Math.hypot(t.clientX - touch.x, t.clientY - touch.y) > 8) touch.scrolling = true;
        if (touch.scrolling) {
          const dy = t.clientY - touch.lastY;
          if (Module._vramcalc_can_scroll(-dy)) {
            e.preventDefault();
            Module._vramcalc_touch_scroll(dy);
          }
        }
        touch.lastY = t.clientY;
      } else {
        if (e.type === 'touchend' && !touch.scrolling && touch.onCanvas) {
          e.preventDefault();
          mouse('mousemove', t);
          mouse('mousedown', t);
          mouse('mouseup', t);
        } else if (touch.scrolling) {
          e.preventDefault();
        }
        touch = null;
      }
    }
    wake();
  };
  for (const type of ['touchstart', 'touchmove', 'touchend', 'touchcancel']) {
    window.addEventListener(type, onTouch, { capture: true, passive: false });
  }
  for (const type of ['keydown', 'keyup', 'focus', 'blur', 'resize']) {
    window.addEventListener(type, wake, true);
  }
  window.addEventListener('hashchange', () => Module._vramcalc_hash_changed());
  if (window.ResizeObserver) new ResizeObserver(wake).observe(canvas);
  // Browser zoom / moving to another screen changes devicePixelRatio, sometimes without a resize.
  const watchRatio = () => {
    const query = matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
    query.addEventListener('change', () => { wake(); watchRatio(); }, { once: true });
  };
  watchRatio();
  // Safety net for ratio changes that fire neither event (some emulators, some platforms): one
  // number compared per second; it draws nothing unless the ratio really changed.
  let lastRatio = window.devicePixelRatio;
  setInterval(() => {
    if (window.devicePixelRatio !== lastRatio) { lastRatio = window.devicePixelRatio; wake(); }
  }, 1000);
  document.addEventListener('visibilitychange', wake);
  for (const query of ['(prefers-color-scheme: light)', '(pointer: coarse)']) {
    matchMedia(query).addEventListener('change', () => Module._vramcalc_media_changed());
  }

  // The test hooks, all of them (C side: src/app/test_hooks.cpp): numbers and what was drawn come
  // from here as JSON, never from pixels. Only the test build of the app (dist-test/) has them.
  if (Module._vramcalc_test_frame_count) installTestHooks();
  requestFrame();

  function installTestHooks() {
    const json = (fn, ...args) => JSON.parse(str(withStrings(fn, ...args)));
    window.vramcalcTest = Object.freeze({
      scenarioJson: () => str(Module._vramcalc_test_scenario_json()),
      estimateJson: () => str(Module._vramcalc_test_estimate_json()),
      link: () => str(Module._vramcalc_test_link()),
      messages: () => json(Module._vramcalc_test_messages),
      notes: () => json(Module._vramcalc_test_notes),
      setField: (path, value) => str(withStrings(Module._vramcalc_test_set_field, path, value)),
      frameCount: () => Module._vramcalc_test_frame_count(),
      // A frame is scheduled, a typed value or the text summary waits for its pause, or an import runs.
      busy: () => frameQueued || summaryTimer !== null || dom.pending() || imports > 0,
      layout: () => json(Module._vramcalc_test_layout),
      glStateCached: () => Module._vramcalc_test_gl_state_cached() === 1,  // cache == WebGL (asks WebGL: waits)
      itemRect: (name) => json(Module._vramcalc_test_item_rect, name),
      charts: () => json(Module._vramcalc_test_charts),
      shaders: () => json(Module._vramcalc_test_shaders),
      explain: () => json(Module._vramcalc_test_explain),
      markdown: () => str(Module._vramcalc_test_markdown()),
      shortcuts: () => json(Module._vramcalc_test_shortcuts),
      controls: () => dom.ids(),
      contentHeight: () => Module._vramcalc_content_height(),
      setMapAxes: (x, y) => { const r = str(withStrings(Module._vramcalc_test_set_map_axes, x, y)); wake(); return r; },
      chartsBench: (runs) => json(Module._vramcalc_test_bench, runs || 10),
      plan: () => json(Module._vramcalc_test_plan),  // the Plan panel's layouts, chart points and timings
      servingPlan: () => json(Module._vramcalc_test_serving_plan),  // the Serve-mode Plan panel's rows and timing
      fonts: () => json(Module._vramcalc_test_fonts),  // body and bold font widths (bold is drawn from the body face)
    });
  }
}
