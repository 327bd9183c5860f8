// Web bench: (1) gzip size of the whole page — everything index.html loads (html, css, js glue,
// app js + wasm, fonts, favicon) — and (2) time to first frame in headless Chromium on localhost
// (navigation start → the first settled ImGui frame, window.vramcalcFirstFrameMs), median of runs.
// Usage: node bench/web/bench.mjs [runs]   Targets: ≤ 300 KB gzip, ≤ 500 ms first frame.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, launch, distDir } from '../../tests/browser/lib.mjs';

const runs = Number(process.argv[2] || 7);
const dist = distDir();
const pageFiles = ['index.html', 'style.css', 'main.js', 'vramcalc-app.js', 'vramcalc-app.wasm',
  'vramcalc-sans.ttf', 'vramcalc-sans-bold.ttf', 'favicon.svg'];
let raw = 0, gz = 0;
const rows = [];
for (const f of pageFiles) {
  const data = fs.readFileSync(path.join(dist, f));
  const g = zlib.gzipSync(data, { level: 9 }).length;
  raw += data.length; gz += g;
  rows.push(`  ${f.padEnd(24)} ${String(data.length).padStart(8)} B  gzip ${String(g).padStart(7)} B`);
}
console.log('page files (what index.html loads):\n' + rows.join('\n'));
console.log(`page size: ${(raw / 1024).toFixed(1)} KB raw, ${(gz / 1024).toFixed(1)} KB gzip -9 (target ≤ 300 KB)`);

const server = await serve(dist);
const browser = await launch();
const times = [];
const breakdown = [];
try {
  // One uncounted load first: it starts the browser's GPU process (software GL here), which a
  // visitor's browser already has running.
  for (let i = -1; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(server.url + 'index.html');
    await page.waitForFunction(() => window.vramcalcFirstFrameMs !== undefined, null, { timeout: 30000 });
    const t = await page.evaluate(() => window.vramcalcFirstFrameMs);
    const marks = await page.evaluate(() => Object.fromEntries(
      performance.getEntriesByType('mark').map((m) => [m.name.replace('vramcalc-', ''), Math.round(m.startTime)])));
    if (i >= 0) { times.push(t); breakdown.push({ ...marks, 'first-frame': Math.round(t) }); }
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
const sorted = [...times].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)];
console.log(`first frame: median ${median.toFixed(0)} ms over ${runs} loads (min ${sorted[0].toFixed(0)}, max ${sorted[sorted.length - 1].toFixed(0)}) (target ≤ 500 ms)`);
const mid = breakdown[times.indexOf(median)] || breakdown[0];
console.log('start-up marks of the median load (ms since navigation):', JSON.stringify(mid));
console.log(`BENCH web_gzip_kb=${(gz / 1024).toFixed(1)} first_frame_ms=${median.toFixed(0)}`);
