// vramcalc page glue (ES module, no inline script: runs under CSP script-src 'self' 'wasm-unsafe-eval').
// Fetches the fonts in parallel with the wasm, starts the app (numbers first, then the canvas),
// owns the on-demand frame loop (a frame is drawn only after input, resize or zoom), and exposes
// window.vramcalcTest.
import createVramcalcApp from './vramcalc-app.js';

const canvas = document.getElementById('canvas');
const status = document.getElementById('status');
const fontFiles = ['vramcalc-sans.ttf', 'vramcalc-sans-bold.ttf'];
const fonts = Promise.all(fontFiles.map((url) =>
  fetch(url).then((r) => (r.ok ? r.arrayBuffer() : null)).catch(() => null)));

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

start().catch((e) => {
  console.error(e);
  fail('The calculator could not start: ' + (e && e.message ? e.message : e));
});

async function start() {
  let frameQueued = false;
  const frameTimes = window.vramcalcFrameTimes = [];  // ms spent in each of the first frames (bench)
  let Module = null;
  const requestFrame = () => {
    if (frameQueued || !Module) return;
    frameQueued = true;
    requestAnimationFrame(() => {
      frameQueued = false;
      const t0 = performance.now();
      const more = Module._vramcalc_frame();
      if (frameTimes.length < 64) frameTimes.push(performance.now() - t0);
      if (window.vramcalcFirstFrameMs !== undefined) firstFrameDrawn();
      if (more) requestFrame();
    });
  };
  // Start-up (src/app/main.cpp): the wasm's main() writes the verdict and headline numbers into
  // the DOM summary as soon as the module is instantiated; the browser shows them before anything
  // else runs; then the WebGL context, shaders and fonts (vramcalc_start_gl) and the first frame.
  Module = await createVramcalcApp({
    canvas,
    vramcalcRequestFrame: () => requestFrame(),
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
  });
  performance.mark('vramcalc-ready');
  // The C++ side calls Module.vramcalcRequestFrame; the factory's object is the module.
  Module.vramcalcRequestFrame = requestFrame;
  await numbersShown();
  performance.mark('vramcalc-numbers-shown');
  Module.vramcalcFonts = await fonts;
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
  for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel']) {
    canvas.addEventListener(type, wake, true);
  }
  for (const type of ['wheel', 'mouseleave', 'mouseenter']) {
    canvas.addEventListener(type, wake, { capture: true, passive: true });
  }
  // Touch. Emscripten 3.1.6's GLFW reads no positions from touch events, so they are kept from it
  // (stopped at the window, before they reach the canvas) and turned into what a person means:
  // a tap is a click at the finger, a one-finger drag scrolls the panel under it.
  let touch = null;
  const mouse = (type, t) => canvas.dispatchEvent(new MouseEvent(type, {
    clientX: t.clientX, clientY: t.clientY, screenX: t.screenX, screenY: t.screenY,
    button: 0, buttons: type === 'mouseup' ? 0 : 1, bubbles: true, cancelable: true }));
  const onTouch = (e) => {
    if (e.target !== canvas) return;
    e.stopPropagation();
    e.preventDefault();
    const t = e.changedTouches[0];
    if (!t) return;
    if (e.type === 'touchstart') {
      touch = { id: t.identifier, x: t.clientX, y: t.clientY, lastY: t.clientY, scrolling: e.touches.length > 1 };
      mouse('mousemove', t);
    } else if (touch && t.identifier === touch.id) {
      if (e.type === 'touchmove') {
        if (!touch.scrolling && Math.hypot(t.clientX - touch.x, t.clientY - touch.y) > 8) touch.scrolling = true;
        if (touch.scrolling) Module._vramcalc_touch_scroll(t.clientY - touch.lastY);
        touch.lastY = t.clientY;
      } else {
        if (e.type === 'touchend' && !touch.scrolling) {
          mouse('mousemove', t);
          mouse('mousedown', t);
          mouse('mouseup', t);
        }
        touch = null;
      }
    }
    wake();
  };
  for (const type of ['touchstart', 'touchmove', 'touchend', 'touchcancel']) {
    window.addEventListener(type, onTouch, { capture: true, passive: false });
  }
  // Keys ImGui uses that the browser would also act on (Ctrl+A selects the whole document).
  window.addEventListener('keydown', (e) => {
    const inDom = e.target && e.target !== document.body && e.target !== canvas && e.target !== document.documentElement;
    if (!inDom && (e.ctrlKey || e.metaKey) && (e.key === 'a' || e.key === 'A')) e.preventDefault();
  }, true);
  for (const type of ['keydown', 'keyup', 'keypress', 'focus', 'blur', 'resize']) {
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
  // The test hooks, all of them (C side: src/app/test_hooks.cpp): numbers and what was drawn come
  // from here as JSON, never from pixels.
  const json = (fn, ...args) => JSON.parse(str(withStrings(fn, ...args)));
  window.vramcalcTest = Object.freeze({
    scenarioJson: () => str(Module._vramcalc_test_scenario_json()),
    estimateJson: () => str(Module._vramcalc_test_estimate_json()),
    link: () => str(Module._vramcalc_test_link()),
    messages: () => json(Module._vramcalc_test_messages),
    notes: () => json(Module._vramcalc_test_notes),
    setField: (path, value) => str(withStrings(Module._vramcalc_test_set_field, path, value)),
    frameCount: () => Module._vramcalc_test_frame_count(),
    busy: () => frameQueued,  // a frame is scheduled (the page has not settled yet)
    layout: () => json(Module._vramcalc_test_layout),
    glStateCached: () => Module._vramcalc_test_gl_state_cached() === 1,  // cache == WebGL (asks WebGL: waits)
    itemRect: (name) => json(Module._vramcalc_test_item_rect, name),
    charts: () => json(Module._vramcalc_test_charts),
    shaders: () => json(Module._vramcalc_test_shaders),
    explain: () => json(Module._vramcalc_test_explain),
    markdown: () => str(Module._vramcalc_test_markdown()),
    setMapAxes: (x, y) => { const r = str(withStrings(Module._vramcalc_test_set_map_axes, x, y)); wake(); return r; },
    chartsBench: (runs) => json(Module._vramcalc_test_bench, runs || 10),
    plan: () => json(Module._vramcalc_test_plan),  // the Plan panel's layouts, chart points and timings
  });
  requestFrame();
}
