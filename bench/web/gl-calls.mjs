// Which WebGL calls block the page's main thread during start-up: every WebGL2 method is wrapped
// (before the page's scripts run) and timed; the calls that took longest over the first frames
// are listed, summed by method and argument. A synchronous query (getParameter, getShaderParameter,
// getError, readPixels…) waits for the GPU process to finish all queued work, so the first one
// after shader compiles or texture uploads pays for them.
// Usage: node bench/web/gl-calls.mjs [loads] [url path]   (VRAMCALC_SHIPPED_DIST: the page, default build-web/dist)
import { serve, launch, shippedDistDir } from '../../tests/browser/lib.mjs';

const loads = Number(process.argv[2] || 3);
const pagePath = process.argv[3] || 'index.html';

function instrument() {
  const calls = (window.__glCalls = []);
  const proto = WebGL2RenderingContext.prototype;
  const names = {};
  for (const key of Object.getOwnPropertyNames(proto)) {
    const d = Object.getOwnPropertyDescriptor(proto, key);
    if (d && typeof d.value === 'number') names[d.value] = names[d.value] || key;
  }
  for (const key of Object.getOwnPropertyNames(proto)) {
    const d = Object.getOwnPropertyDescriptor(proto, key);
    if (!d || typeof d.value !== 'function' || key === 'constructor') continue;
    const original = d.value;
    proto[key] = function (...args) {
      const t0 = performance.now();
      const result = original.apply(this, args);
      const ms = performance.now() - t0;
      if (calls.length < 20000) {
        const arg = typeof args[0] === 'number' && names[args[0]] ? names[args[0]] : '';
        calls.push([key + (arg ? '(' + arg + ')' : ''), t0, ms]);
      }
      return result;
    };
  }
}

const server = await serve(shippedDistDir());
const browser = await launch();
const totals = new Map();
try {
  for (let i = -1; i < loads; i++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(instrument);
    await page.goto(server.url + pagePath);
    await page.waitForFunction(() => window.vramcalcFirstFrameMs !== undefined, null, { timeout: 60000 });
    await page.waitForTimeout(300);
    const calls = await page.evaluate(() => window.__glCalls);
    if (i >= 0) {
      for (const [name, , ms] of calls) {
        const t = totals.get(name) || { ms: 0, n: 0, max: 0 };
        t.ms += ms; t.n += 1; t.max = Math.max(t.max, ms);
        totals.set(name, t);
      }
      const first = await page.evaluate(() => window.vramcalcFirstFrameMs);
      const blocked = calls.filter(([, t0]) => t0 < first).reduce((s, [, , ms]) => s + ms, 0);
      console.log(`load ${i + 1}: first frame ${first.toFixed(0)} ms; WebGL calls before it ${calls.filter(([, t0]) => t0 < first).length}, ` +
        `blocking ${blocked.toFixed(0)} ms in all`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
console.log('slowest WebGL calls (mean ms per load, calls per load, longest single call):');
for (const [name, t] of [...totals].sort((a, b) => b[1].ms - a[1].ms).slice(0, 20)) {
  console.log(`  ${(t.ms / loads).toFixed(1).padStart(7)} ms  ${String(Math.round(t.n / loads)).padStart(5)}×  max ${t.max.toFixed(1).padStart(6)} ms  ${name}`);
}
