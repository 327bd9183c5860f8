// Web bench: vramcalc's page side by side with a public calculator page, in one headless Chromium
// (software GL), cold loads interleaved (a fresh browser context each: empty cache).
//
//  - first visible numbers: navigation start → the presentation of the first frame that paints
//    the text of the element showing the page's result numbers, as the browser reports it (Element
//    Timing API: renderTime of the element's first text paint; a script that runs before the
//    page's own marks the element). vramcalc: the text summary (#summary; its canvas draws later).
//    vram-calculator: the "Total VRAM usage is N" line. The same probe for both; medians. Also
//    first-contentful-paint of both.
//  - page size: every response the page loads during a cold load, each body gzip -9'd, summed.
//  - vramcalc only: its canvas's first frame and start-up marks (performance.mark) of the median load.
//
// The comparison page is vram-calculator (Next.js static export; numbers rendered into its HTML at
// build time), built by bench/web/build-vram-calculator.sh into build-bench/vram-calculator/out.
// Usage: node bench/web/bench.mjs [loads, default 9]
//   env VRAMCALC_SHIPPED_DIST (default build-web/dist: the shipped page), VRAM_CALCULATOR_OUT (default
//   build-bench/vram-calculator/out; when missing, only vramcalc is measured and it says so),
//   VRAMCALC_BEFORE_DIST (optional: another build of vramcalc, e.g. an older commit, measured in the
//   same run as "vramcalc-before"; its numbers may first appear on the canvas, so for both vramcalc
//   builds first numbers = the earlier of the summary's first paint and the canvas's first frame)
// Targets: vramcalc ≤ 0.9 × vram-calculator's time to first numbers, page ≤ 250 KB gzip.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, launch, shippedDistDir, root } from '../../tests/browser/lib.mjs';

const loads = Number(process.argv[2] || 9);
const otherDir = process.env.VRAM_CALCULATOR_OUT || path.join(root, 'build-bench', 'vram-calculator', 'out');
const beforeDir = process.env.VRAMCALC_BEFORE_DIST;
const isVramcalc = (kind) => kind.startsWith('vramcalc') && kind !== 'vram-calculator';

// A plain static server (the comparison page runs inline scripts: no CSP header for it).
function serveStatic(dir) {
  const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css',
    '.woff2': 'font/woff2', '.woff': 'font/woff', '.ico': 'image/x-icon', '.svg': 'image/svg+xml', '.txt': 'text/plain' };
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = path.normalize(path.join(dir, urlPath.endsWith('/') ? urlPath + 'index.html' : urlPath));
    if (!file.startsWith(dir)) { res.writeHead(403); res.end(); return; }
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-store' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) })));
}

// Runs in the page before its scripts: marks the element that shows the numbers for the browser's
// Element Timing API (elementtiming attribute, set as soon as the element exists) and records the
// render time the browser reports for its first text paint (when that frame was presented).
function probeNumbers(kind) {
  const target = kind.startsWith('vramcalc-') || kind === 'vramcalc'
    ? () => document.getElementById('summary')
    : () => document.evaluate("//*[starts-with(normalize-space(text()), 'Total VRAM usage is')]", document, null,
      XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
  const tagger = new MutationObserver(() => {
    const el = target();
    if (!el) return;
    if (!el.hasAttribute('elementtiming')) el.setAttribute('elementtiming', 'bench-numbers');
    tagger.disconnect();
  });
  tagger.observe(document, { subtree: true, childList: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (window.__firstNumbersMs === undefined && e.element && e.element === target() && /\d/.test(e.element.textContent)) {
        window.__firstNumbersMs = e.renderTime || e.loadTime;
      }
    }
  }).observe({ type: 'element', buffered: true });
}

const gz = (buffer) => zlib.gzipSync(buffer, { level: 9 }).length;

async function load(browser, kind, url) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const responses = [];
  page.on('response', (r) => responses.push(r));
  await page.addInitScript(probeNumbers, kind);
  await page.goto(url);
  await page.waitForFunction(() => window.__firstNumbersMs !== undefined, null, { timeout: 60000 });
  const out = await page.evaluate(() => ({ first: window.__firstNumbersMs,
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime }));
  if (isVramcalc(kind)) {
    await page.waitForFunction(() => window.vramcalcFirstFrameMs !== undefined, null, { timeout: 60000 });
    out.canvas = await page.evaluate(() => window.vramcalcFirstFrameMs);
    out.first = Math.min(out.first, out.canvas);
    out.marks = await page.evaluate(() => Object.fromEntries(
      performance.getEntriesByType('mark').map((m) => [m.name.replace('vramcalc-', ''), Math.round(m.startTime)])));
  } else {
    await page.waitForLoadState('networkidle');
  }
  const files = [];
  for (const r of responses) {
    try {
      const body = await r.body();
      files.push({ url: r.url().replace(/^https?:\/\/[^/]+\//, ''), raw: body.length, gzip: gz(body) });
    } catch { /* redirects and aborted requests have no body */ }
  }
  out.files = files;
  await context.close();
  return out;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => `min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)}`;

const pages = [['vramcalc', await serve(shippedDistDir())]];
if (beforeDir) pages.push(['vramcalc-before', await serve(path.resolve(beforeDir))]);
if (fs.existsSync(path.join(otherDir, 'index.html'))) pages.push(['vram-calculator', await serveStatic(path.resolve(otherDir))]);
else console.log(`vram-calculator not built (${otherDir}): run bench/web/build-vram-calculator.sh; measuring vramcalc alone`);

const browser = await launch();
const results = Object.fromEntries(pages.map(([kind]) => [kind, []]));
try {
  // One uncounted load of each first: it starts the browser's GPU process, which a visitor's
  // browser already has running.
  for (let i = -1; i < loads; i++) {
    for (const [kind, server] of pages) {
      const r = await load(browser, kind, server.url + 'index.html');
      if (i >= 0) results[kind].push(r);
    }
  }
} finally {
  await browser.close();
  for (const [, server] of pages) await server.close();
}

const summary = {};
for (const [kind] of pages) {
  const runs = results[kind];
  const firsts = runs.map((r) => r.first);
  const files = runs[0].files;
  const kb = files.reduce((s, f) => s + f.gzip, 0) / 1024;
  summary[kind] = { first: median(firsts), kb };
  const fcps = runs.map((r) => r.fcp);
  console.log(`\n${kind}: first visible numbers median ${median(firsts).toFixed(0)} ms over ${loads} cold loads (${range(firsts)})`);
  console.log(`  first contentful paint median ${median(fcps).toFixed(0)} ms (${range(fcps)})`);
  if (isVramcalc(kind)) {
    const canvas = runs.map((r) => r.canvas);
    console.log(`  canvas first frame median ${median(canvas).toFixed(0)} ms (${range(canvas)})`);
    const mid = runs.find((r) => r.first === median(firsts));
    console.log('  start-up marks of the median load (ms since navigation):', JSON.stringify({ ...mid.marks, 'first-numbers': Math.round(mid.first), 'canvas-frame': Math.round(mid.canvas) }));
  }
  console.log(`  page: ${files.length} files, ${(files.reduce((s, f) => s + f.raw, 0) / 1024).toFixed(1)} KB raw, ${kb.toFixed(1)} KB gzip -9`);
  for (const f of files) console.log(`    ${f.url.slice(0, 60).padEnd(60)} ${String(f.raw).padStart(8)} B  gzip ${String(f.gzip).padStart(7)} B`);
}
const v = summary.vramcalc;
const before = summary['vramcalc-before'];
if (before) {
  console.log(`\nvramcalc before → now: first numbers ${before.first.toFixed(0)} → ${v.first.toFixed(0)} ms, ` +
    `page ${before.kb.toFixed(1)} → ${v.kb.toFixed(1)} KB gzip`);
}
const o = summary['vram-calculator'];
if (o) {
  console.log(`\nvramcalc / vram-calculator first numbers: ${(v.first / o.first).toFixed(2)}× (target ≤ 0.90×); ` +
    `page ${v.kb.toFixed(1)} KB vs ${o.kb.toFixed(1)} KB gzip (target ≤ 250 KB)`);
}
console.log(`BENCH web_gzip_kb=${v.kb.toFixed(1)} first_numbers_ms=${v.first.toFixed(0)}` +
  (o ? ` other_first_numbers_ms=${o.first.toFixed(0)} other_gzip_kb=${o.kb.toFixed(1)} ratio=${(v.first / o.first).toFixed(2)}` : '') +
  (before ? ` before_first_numbers_ms=${before.first.toFixed(0)} before_gzip_kb=${before.kb.toFixed(1)}` : ''));
