// vramcalc page glue (ES module, no inline script: runs under CSP script-src 'self' 'wasm-unsafe-eval').
// Fetches the fonts in parallel with the wasm, starts the app, owns the on-demand frame loop
// (a frame is drawn only after input, resize or zoom), and exposes window.vramcalcTest.
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
      if (more) requestFrame();
    });
  };
  const appReady = createVramcalcApp({
    canvas,
    vramcalcRequestFrame: () => requestFrame(),
    vramcalcTouch: false,
    preRun: [(m) => {
      m.addRunDependency('vramcalc-fonts');
      fonts.then((buffers) => {
        m.vramcalcFonts = buffers;
        m.removeRunDependency('vramcalc-fonts');
      });
    }],
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
  });
  // While the wasm downloads and compiles (off the main thread), create the WebGL2 context with
  // the attributes the app wants; GLFW then reuses it. The first context of a page can take a
  // few hundred milliseconds (software GL especially), so this hides it behind the download.
  // Size the backing store first (CSS size × devicePixelRatio, as the app will) so the drawing
  // buffer is allocated once, together with the context.
  const rect = canvas.getBoundingClientRect();
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, Math.round(rect.width * ratio));
  canvas.height = Math.max(1, Math.round(rect.height * ratio));
  const gl = canvas.getContext('webgl2', { alpha: false, depth: false, stencil: false, antialias: false,
    premultipliedAlpha: true, preserveDrawingBuffer: false });
  if (!gl) {
    fail('This page needs WebGL 2, which this browser or device does not provide.');
    return;
  }
  // A first synchronous call makes the browser finish creating the context now, overlapping
  // the download/compile of the wasm instead of following it.
  gl.getParameter(gl.MAX_TEXTURE_SIZE);
  performance.mark('vramcalc-context');
  Module = await appReady;
  performance.mark('vramcalc-ready');
  // The C++ side calls Module.vramcalcRequestFrame; the factory's object is the module.
  Module.vramcalcRequestFrame = requestFrame;

  const wake = () => { Module._vramcalc_wake(); };
  const pointerKind = (e) => { Module.vramcalcTouch = e.pointerType === 'touch'; };
  for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel']) {
    canvas.addEventListener(type, (e) => { pointerKind(e); wake(); }, true);
  }
  for (const type of ['wheel', 'touchstart', 'touchmove', 'touchend', 'mouseleave', 'mouseenter']) {
    canvas.addEventListener(type, wake, { capture: true, passive: true });
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
  // Test hook: numbers come from here, never from pixels.
  window.vramcalcTest = Object.freeze({
    scenarioJson: () => str(Module._vramcalc_test_scenario_json()),
    estimateJson: () => str(Module._vramcalc_test_estimate_json()),
    link: () => str(Module._vramcalc_test_link()),
    messages: () => JSON.parse(str(Module._vramcalc_test_messages())),
    setField: (path, value) => str(withStrings(Module._vramcalc_test_set_field, path, value)),
    frameCount: () => Module._vramcalc_test_frame_count(),
    layout: () => JSON.parse(str(Module._vramcalc_test_layout())),
    itemRect: (name) => JSON.parse(str(withStrings(Module._vramcalc_test_item_rect, name))),
  });
  requestFrame();
}
