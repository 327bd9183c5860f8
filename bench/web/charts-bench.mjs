// Web bench of issue 5's charts: time to compute the fit-map grid (b = 1..128 × s = 128..16384, as
// BM_FitGrid) and all sweep charts (b, s, N × 4 ZeRO stages + largest b and s) in the browser's
// wasm, median of runs, via window.vramcalcTest.chartsBench. Native figures: bench/bench_estimate.cpp
// (BM_FitGrid, BM_AllSweeps). Usage: node bench/web/charts-bench.mjs [runs]
import { serve, launch, openPage, settle } from '../../tests/browser/lib.mjs';

const runs = Number(process.argv[2] || 20);
const scenarios = [
  ['GPT-3 6.7B on 8 × A100-80GB (defaults)', '#v=1'],
  ['Llama-2-70B, 64 GPUs, t=8, p=4, sequence parallel, selective recompute (as BM_FitGrid)',
    '#v=1&mp=llama-2-70b&N=64&t=8&p=4&sp=1&rc=selective&B=512'],
];
const server = await serve();
const browser = await launch();
try {
  for (const [name, hash] of scenarios) {
    const { page, context } = await openPage(browser, server.url + 'index.html' + hash);
    await settle(page);
    const r = await page.evaluate((n) => window.vramcalcTest.chartsBench(n), runs);
    const side = Math.round(Math.sqrt(r.cells));
    console.log(`${name}: fit-map grid ${side}² cells ${r.grid_ms.toFixed(2)} ms, ` +
      `sweeps + largest b/s ${r.sweeps_ms.toFixed(2)} ms (median of ${r.runs})`);
    console.log(`BENCH web_fit_grid_ms=${r.grid_ms.toFixed(2)} web_fit_grid_cells=${r.cells} web_sweeps_ms=${r.sweeps_ms.toFixed(2)}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
