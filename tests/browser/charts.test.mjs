// Issue 5 in the page: the fit map (our own shaders: they compile and link, and the colours change
// across the capacity boundary), sweep charts and map cells adopt their values on click, the
// largest micro-batch that fits is the boundary, the explain panel and Copy as Markdown.
// Numbers come from the test hooks (window.vramcalcTest), never from pixels;
// pixels are only read to check what the shader drew.
import { openPage, settle, test, reveal, clickItem, assert, noProblems } from './lib.mjs';
import { decodePng } from './png.mjs';

const charts = (page) => ({
  state: () => page.evaluate(() => window.vramcalcTest.charts()),
  shaders: () => page.evaluate(() => window.vramcalcTest.shaders()),
  explain: () => page.evaluate(() => window.vramcalcTest.explain()),
  setMapAxes: (x, y) => page.evaluate(([a, b]) => window.vramcalcTest.setMapAxes(a, b), [x, y]),
});

async function click(page, x, y) {
  await page.mouse.move(x - 1, y);
  await page.waitForTimeout(60);
  await page.mouse.move(x, y);  // a frame that sees the hover
  await settle(page, 60);
  await page.waitForTimeout(60);
  await page.mouse.down();
  await page.waitForTimeout(60);
  await page.mouse.up();
  await settle(page, 60);
}

// Mean colour of a (2r+1)² block around CSS point (x, y) of a screenshot taken at `ratio`.
function pixel(img, x, y, ratio, r = 1) {
  const cx = Math.round(x * ratio), cy = Math.round(y * ratio);
  let sum = [0, 0, 0], n = 0;
  for (let dy = -r; dy <= r; dy++) {
    for (let dx = -r; dx <= r; dx++) {
      const i = ((cy + dy) * img.width + (cx + dx)) * 4;
      sum = [sum[0] + img.data[i], sum[1] + img.data[i + 1], sum[2] + img.data[i + 2]];
      n++;
    }
  }
  return sum.map((v) => Math.round(v / n));
}

// A cell whose whole 5×5 neighbourhood is on the same side of the boundary (so the contour
// line and interpolation cannot touch its centre). `pick(ratio)` selects the side.
function interiorCell(map, pick) {
  const nx = map.xs.length, ny = map.ys.length;
  const at = (x, y) => map.ratios[y * nx + x];
  for (let y = 2; y < ny - 2; y++) {
    for (let x = 2; x < nx - 2; x++) {
      let ok = true;
      for (let dy = -2; dy <= 2 && ok; dy++) for (let dx = -2; dx <= 2 && ok; dx++) ok = pick(at(x + dx, y + dy));
      if (ok) return { x, y };
    }
  }
  return null;
}

const cellCentre = (map, c) => ({
  x: map.rect[0] + (c.x + 0.5) / map.xs.length * map.rect[2],
  y: map.rect[1] + map.rect[3] - (c.y + 0.5) / map.ys.length * map.rect[3],
});

async function openMap(browser, url, opts) {
  const opened = await openPage(browser, url, opts);
  await settle(opened.page);
  await reveal(opened.page, 'fitmap');
  await settle(opened.page);
  return opened;
}

export const tests = [
  ['fit map shader compiles and links in headless Chromium and draws the map', async ({ browser, server }) => {
    const { page, context, problems } = await openMap(browser, server.url + 'index.html');
    const c = charts(page);
    const sh = await c.shaders();
    assert(sh.ok === true && sh.tried === true, `fit-map shader failed: ${sh.error}`);
    assert(sh.error === '', `shader log not empty: ${sh.error}`);
    const st = await c.state();
    assert(st.map.drawn === true, 'the fit map was not drawn');
    assert(st.map.shader_draws > 0, 'the fit-map shader never ran');
    assert((await test(page).layout()).shaders === true, 'the page shaders failed');
    await noProblems(page, problems);
    await context.close();
  }],

  ['fit map: colours differ across the capacity boundary, a contour marks it, invalid cells are grey (DPR 1 and 2)', async ({ browser, server }) => {
    for (const ratio of [1, 2]) {
      // GPT-3 6.7B on A100-80GB (the defaults): micro-batch × sequence crosses 80 GiB inside the map.
      const { page, context, problems } = await openMap(browser, server.url + 'index.html#v=1',
        { width: 1400, height: 900, deviceScaleFactor: ratio });
      const c = charts(page);
      let st = await c.state();
      const map = st.map;
      assert(map.x_axis === 'micro_batch_size' && map.y_axis === 'seq_len', `default axes ${map.x_axis} × ${map.y_axis}`);
      assert(map.ratios.length === map.xs.length * map.ys.length, 'grid size');
      assert(map.ratios.some((r) => r > 1) && map.ratios.some((r) => r >= 0 && r < 1), 'the boundary does not cross the map');
      const fits = interiorCell(map, (r) => r >= 0 && r < 0.8);
      const over = interiorCell(map, (r) => r > 1.1);
      assert(fits && over, 'no interior cells on both sides');
      const img = decodePng(await page.screenshot());
      const a = cellCentre(map, fits), b = cellCentre(map, over);
      const pa = pixel(img, a.x, a.y, ratio), pb = pixel(img, b.x, b.y, ratio);
      const diff = Math.abs(pa[0] - pb[0]) + Math.abs(pa[1] - pb[1]) + Math.abs(pa[2] - pb[2]);
      assert(diff > 120, `DPR ${ratio}: fits ${pa} vs does-not-fit ${pb} differ by only ${diff}`);
      assert(pb[0] > pb[1] + 60 && pb[0] > pb[2] + 40, `DPR ${ratio}: does-not-fit cell is not red: ${pb}`);
      assert(!(pa[0] > pa[1] + 60), `DPR ${ratio}: fitting cell looks red: ${pa}`);
      // The contour: along the row of the over cell, scanning left from it, a near-white pixel
      // appears before the fitting side.
      let found = false;
      const row = b.y;
      for (let x = b.x; x >= map.rect[0] + 1 && !found; x -= 0.5) {
        const p = pixel(img, x, row, ratio, 0);
        if (p[0] > 200 && p[1] > 200 && p[2] > 200) found = true;
        if (p[1] > p[0] + 20) break;  // reached the green (fitting) side without a line
      }
      assert(found, `DPR ${ratio}: no contour line between the does-not-fit and the fitting side`);
      // Invalid cells: tensor × pipeline on 8 GPUs has layouts that do not divide the GPUs.
      assert((await c.setMapAxes('tensor', 'pipeline')) === '', 'setMapAxes failed');
      await settle(page);
      await reveal(page, 'fitmap');
      st = await c.state();
      const m2 = st.map;
      assert(m2.x_axis === 'tensor' && m2.ys.length > 1, `axes after the change: ${m2.x_axis} × ${m2.y_axis}`);
      const invalid = interiorCell({ ...m2, xs: m2.xs, ys: m2.ys }, (r) => r === -1)
        || (() => { const i = m2.ratios.findIndex((r) => r === -1); return i < 0 ? null : { x: i % m2.xs.length, y: Math.floor(i / m2.xs.length) }; })();
      assert(invalid, 'no invalid cell in tensor × pipeline on 8 GPUs');
      const img2 = decodePng(await page.screenshot());
      const pc = cellCentre(m2, invalid);
      const pi = pixel(img2, pc.x, pc.y, ratio, 0);
      assert(Math.abs(pi[0] - pi[1]) < 24 && Math.abs(pi[1] - pi[2]) < 30 && pi[0] < 110,
        `DPR ${ratio}: invalid cell is not grey: ${pi}`);
      await noProblems(page, problems);
      await context.close();
    }
  }],

  ['clicking a fit-map cell adopts both values; the URL follows', async ({ browser, server }) => {
    const { page, context, problems } = await openMap(browser, server.url + 'index.html#v=1');
    const c = charts(page);
    const map = (await c.state()).map;
    // The centre of a fitting cell whose neighbours fit too: the cell under the mouse (the hook
    // reports it; mouse positions arrive in whole pixels) is this one or a neighbour.
    const target = interiorCell(map, (r) => r >= 0 && r < 0.9);
    assert(target, 'no fitting cell');
    const p = cellCentre(map, target);
    await page.mouse.move(p.x - 1, p.y);
    await page.waitForTimeout(60);
    await page.mouse.move(p.x, p.y);
    await settle(page, 60);
    const [hx, hy] = (await c.state()).map.hover;
    assert(Math.abs(hx - target.x) <= 1 && Math.abs(hy - target.y) <= 1, `hovered cell ${hx},${hy} vs ${target.x},${target.y}`);
    const cell = { x: hx, y: hy };
    await page.mouse.down();
    await page.waitForTimeout(60);
    await page.mouse.up();
    await settle(page, 60);
    const sc = await test(page).scenario();
    assert(sc.training.micro_batch_size === map.xs[cell.x] && sc.training.seq_len === map.ys[cell.y],
      `after the click: b=${sc.training.micro_batch_size} s=${sc.training.seq_len}, cell b=${map.xs[cell.x]} s=${map.ys[cell.y]}`);
    const hash = await page.evaluate(() => location.hash);
    assert(new RegExp(`(^#|&)b=${map.xs[cell.x]}(&|$)`).test(hash) && new RegExp(`(^#|&)s=${map.ys[cell.y]}(&|$)`).test(hash),
      `URL does not follow: ${hash}`);
    assert((await test(page).estimate()).fits === true, 'a fitting cell was adopted but the scenario does not fit');
    await noProblems(page, problems);
    await context.close();
  }],

  ['clicking a sweep point adopts its value and its ZeRO stage', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#v=1');
    await settle(page);
    await reveal(page, 'sweep:micro_batch_size');
    await settle(page);
    const st = await charts(page).state();
    const sweep = st.sweeps.find((s) => s.axis === 'micro_batch_size');
    assert(sweep, 'no micro-batch sweep drawn');
    // A visible point of another ZeRO stage than the current (1) at b > 1, at least 16 px away
    // from the other stages' points in its column (so the click cannot pick another line).
    let pick = null;
    for (const z of [3, 2, 0]) {
      for (let k = 0; k < sweep.values.length && !pick; k++) {
        const p = sweep.points[z][k];
        if (!p[2] || sweep.values[k] === 1) continue;
        if ([0, 1, 2, 3].every((o) => o === z || !sweep.points[o][k][2] || Math.abs(sweep.points[o][k][1] - p[1]) > 16)) {
          pick = { z, k, p };
        }
      }
      if (pick) break;
    }
    assert(pick, 'no well-separated sweep point to click');
    const value = sweep.values[pick.k];
    await click(page, pick.p[0], pick.p[1]);
    const sc = await test(page).scenario();
    assert(sc.training.micro_batch_size === value && sc.parallel.zero_stage === pick.z,
      `after the click: b=${sc.training.micro_batch_size}, ZeRO-${sc.parallel.zero_stage}; clicked b=${value}, ZeRO-${pick.z}`);
    const hash = await page.evaluate(() => location.hash);
    assert(new RegExp(`(^#|&)b=${value}(&|$)`).test(hash) && new RegExp(`(^#|&)z=${pick.z}(&|$)`).test(hash),
      `URL does not follow: ${hash}`);
    // The sweeps were recomputed for the new scenario: the current point moved.
    const after = (await charts(page).state()).sweeps.find((s) => s.axis === 'seq_len');
    assert(after.values.length > 3, 'sequence sweep missing after the change');
    await noProblems(page, problems);
    await context.close();
  }],

  ['largest micro-batch that fits is the boundary: it fits, one more does not', async ({ browser, server }) => {
    // GPT-2 small on A100-40GB, s = 1024: many micro-batches fit. Gradient accumulation instead of
    // a global batch, so every b is a valid layout.
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#v=1&mp=gpt2&gpu=A100-40GB&s=1024&B=0&ga=1');
    await settle(page);
    const t = test(page);
    const st = await charts(page).state();
    const b = st.largest_micro_batch;
    assert(b > 1, `largest micro-batch ${b}`);
    assert(st.longest_sequence === 1024, `GPT-2 has 1024 positions; longest sequence ${st.longest_sequence}`);
    assert((await t.rect('largest_b')).visible, 'the largest micro-batch is not shown beside the verdict');
    const set = (v) => page.evaluate((x) => window.vramcalcTest.setField('training.micro_batch_size', String(x)), v);
    assert((await set(b)) === '', 'setField failed');
    await settle(page);
    let est = await t.estimate();
    assert(est.errors.length === 0 && est.fits === true, `b = ${b} should fit: ${JSON.stringify(est.errors)}`);
    await set(b + 1);
    await settle(page);
    est = await t.estimate();
    assert(est.errors.length === 0 && est.fits === false, `b = ${b + 1} should not fit: ${JSON.stringify(est.errors)}`);
    await noProblems(page, problems);
    await context.close();
  }],

  ['explain panel: clicking a result row shows its formula and this scenario\'s values', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#v=1');
    await settle(page);
    const c = charts(page);
    await clickItem(page, 'row:memory_per_gpu_bytes.weights');
    let ex = await c.explain();
    assert(ex.selected === 'memory_per_gpu_bytes.weights', `selected ${ex.selected}`);
    await clickItem(page, 'row:memory_per_gpu_bytes.activations');
    await reveal(page, 'explain_term');
    ex = await c.explain();
    assert(ex.drawn && ex.id === 'memory_per_gpu_bytes.activations', `explain shows ${ex.id}`);
    assert(/activations = per_layer/.test(ex.formula), `activations formula: ${ex.formula}`);
    assert(/Korthikanti/.test(ex.source), `source: ${ex.source}`);
    const est = await test(page).estimate();
    const gib = (est.memory_per_gpu_bytes.activations / 2 ** 30).toFixed(1);
    assert(ex.value.startsWith(gib + ' GiB'), `value ${ex.value} vs ${gib} GiB`);
    const symbols = ex.inputs.map((i) => i.symbol);
    assert(symbols.includes('per_layer') && symbols.includes('embedding'), `inputs: ${symbols}`);
    await noProblems(page, problems);
    await context.close();
  }],

  ['Copy as Markdown puts the results table with the scenario link on the clipboard', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#v=1&b=2');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
    await settle(page);
    await clickItem(page, 'copy_markdown');
    const text = await page.evaluate(() => navigator.clipboard.readText());
    assert(/\| per GPU \| memory \|/.test(text) && /\|---\|---:\|/.test(text), `not a Markdown table: ${text.slice(0, 200)}`);
    const url = page.url();
    assert(/b=2/.test(url) && text.includes(`(<${url}>)`), `link ${url} missing from: ${text}`);
    const est = await test(page).estimate();
    const total = (est.memory_per_gpu_bytes.total / 2 ** 30).toPrecision(3) + ' GiB';  // 3 significant digits
    assert(text.includes(`**${total}**`), `total ${total} missing from the table`);
    await noProblems(page, problems);
    await context.close();
  }],
];
