// The full page: renders, edits by mouse and keyboard change the results, the URL follows,
// reopening restores, presets, idle, HiDPI, no CSP violations.
import { openPage, settle, test, reveal, clickItem, assert, noProblems } from './lib.mjs';
import { decodePng, colourStats } from './png.mjs';

const ACCENT = 0x6ea8fe, GOOD = 0x3dd68c, BAD = 0xff6b6b;

export const tests = [
  ['page renders an ImGui frame (screenshot not blank, theme colours present)', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html');
    await settle(page);
    const t = test(page);
    const layout = await t.layout();
    assert(layout.shaders === true, 'our shaders failed to build');
    const img = decodePng(await page.screenshot());
    const stats = colourStats(img, { accent: ACCENT, good: GOOD });
    assert(stats.distinct > 150, `screenshot looks blank: ${stats.distinct} distinct colours`);
    assert(stats.counts.accent > 400, `no accent-coloured widgets drawn (${stats.counts.accent} px)`);
    assert(stats.counts.good > 100, `no "fits" verdict drawn (${stats.counts.good} px)`);
    // The default scenario fits, and the DOM summary mirrors the verdict as text.
    const est = await t.estimate();
    assert(est.fits === true && est.errors.length === 0, 'default scenario should fit without errors');
    const summary = await page.textContent('#summary');
    assert(/fits/.test(summary) && /per GPU/.test(summary), `DOM summary missing: "${summary}"`);
    assert((await page.getAttribute('#summary', 'aria-live')) === 'polite', 'summary is not an aria-live region');
    await noProblems(page, problems);
    await context.close();
  }],

  ['mouse: the + button of micro-batch changes the results and the URL; reopening restores them', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html');
    await settle(page);
    const t = test(page);
    const before = await t.estimate();
    assert((await t.scenario()).training.micro_batch_size === 1, 'default micro-batch should be 1');
    await clickItem(page, 'training.micro_batch_size#plus');
    const sc = await t.scenario();
    assert(sc.training.micro_batch_size === 2, `micro-batch after + is ${sc.training.micro_batch_size}`);
    const after = await t.estimate();
    assert(after.memory_per_gpu_bytes.activations > before.memory_per_gpu_bytes.activations * 1.5,
      'activations did not grow with the micro-batch');
    assert(after.memory_per_gpu_bytes.weights === before.memory_per_gpu_bytes.weights, 'weights should not change');
    const hash = await page.evaluate(() => location.hash);
    assert(/(^#|&)b=2(&|$)/.test(hash), `URL fragment does not record b=2: ${hash}`);
    assert(hash === '#' + (await t.link()), 'URL fragment differs from the encoded scenario');
    // Reopen the URL in a fresh page: same scenario, same numbers.
    const url = page.url();
    const reopened = await openPage(browser, url);
    await settle(reopened.page);
    const t2 = test(reopened.page);
    assert(JSON.stringify(await t2.scenario()) === JSON.stringify(sc), 'reopened scenario differs');
    assert(JSON.stringify(await t2.estimate()) === JSON.stringify(after), 'reopened estimate differs');
    await noProblems(page, problems);
    await noProblems(reopened.page, reopened.problems);
    await reopened.context.close();
    await context.close();
  }],

  ['the Method picker switches to LoRA and QLoRA: LoRA fields appear, trainable and the link follow', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#v=3&mp=llama-3-8b');
    await settle(page);
    const t = test(page);
    assert(!(await t.rect('training.lora_rank')), 'LoRA fields must be hidden in full training');
    const full = await t.estimate();
    await clickItem(page, 'method:LoRA');
    let sc = await t.scenario();
    assert(sc.training.method === 'lora', `method after the click: ${sc.training.method}`);
    assert(await t.rect('training.lora_rank'), 'the LoRA rank field did not appear');
    let e = await t.estimate();
    // Llama-3-8B, r 8 on q and v (PEFT's default): 32 · 8 · ((4096 + 4096) + (4096 + 1024)).
    assert(e.parameters.trainable === 32 * 8 * (8192 + 5120), `trainable: ${e.parameters.trainable}`);
    assert(e.memory_per_gpu_bytes.total < full.memory_per_gpu_bytes.total, 'LoRA should need less than full training');
    // Ticking the o checkbox adds the out-projection's adapters; the link records the list.
    await clickItem(page, 'training.lora_targets#o');
    sc = await t.scenario();
    assert(sc.training.lora_targets === 'q,v,o', `targets after ticking o: ${sc.training.lora_targets}`);
    e = await t.estimate();
    assert(e.parameters.trainable === 32 * 8 * (8192 + 5120 + 8192), `trainable with o: ${e.parameters.trainable}`);
    let hash = await page.evaluate(() => location.hash);
    assert(/(^#|&)meth=lora(&|$)/.test(hash) && /(^#|&)tgt=q(,|%2C)v(,|%2C)o(&|$)/.test(hash), `URL fragment: ${hash}`);
    // QLoRA: the base-format field appears, the weights shrink to about a quarter.
    await clickItem(page, 'method:QLoRA');
    assert((await t.scenario()).training.method === 'qlora', 'method after clicking QLoRA');
    assert(await t.rect('training.base_weight_format'), 'the QLoRA base format field did not appear');
    const q = await t.estimate();
    assert(q.model_states_bytes.frozen_weights < 0.4 * e.model_states_bytes.frozen_weights, 'NF4 base not smaller');
    hash = await page.evaluate(() => location.hash);
    assert(hash === '#' + (await t.link()), 'URL fragment differs from the encoded scenario');
    await noProblems(page, problems);
    await context.close();
  }],

  ['keyboard: typing a layer count changes parameters exactly by the added layers', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html');
    await settle(page);
    const t = test(page);
    const before = await t.estimate();
    await clickItem(page, 'model.layers');
    await page.keyboard.press('Control+A');
    await settle(page, 50);
    await page.keyboard.type('48', { delay: 40 });
    await page.keyboard.press('Enter');
    await settle(page);
    const sc = await t.scenario();
    assert(sc.model.layers === 48, `layers after typing: ${sc.model.layers}`);
    const after = await t.estimate();
    const added = after.parameters.total - before.parameters.total;
    assert(Math.abs(added - 16 * before.parameters.per_layer) < 1, `16 more layers should add 16 × per-layer parameters, got ${added}`);
    const hash = await page.evaluate(() => location.hash);
    assert(/(^#|&)L=48(&|$)/.test(hash), `URL fragment does not record L=48: ${hash}`);
    // Keyboard navigation: Tab moves ImGui's focus and draws frames (nav is on).
    const frames = await t.frames();
    await page.keyboard.press('Tab');
    await settle(page, 60);
    assert((await t.frames()) > frames, 'Tab drew no frame');
    await noProblems(page, problems);
    await context.close();
  }],

  ['invalid input is flagged in place with the validation message, never a crash', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html');
    await settle(page);
    const t = test(page);
    await clickItem(page, 'model.layers');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('0', { delay: 40 });
    await settle(page);
    const est = await t.estimate();
    assert(est.errors && est.errors.some((e) => e.field === 'model.layers'), 'no error for model.layers = 0');
    const img = decodePng(await page.screenshot());
    assert(colourStats(img, { bad: BAD }).counts.bad > 150, 'the error is not drawn in red');
    const summary = await page.textContent('#summary');
    assert(/cannot estimate/.test(summary) && /model\.layers/.test(summary), `summary: ${summary}`);
    await page.keyboard.press('Backspace');
    await page.keyboard.type('32', { delay: 40 });
    await settle(page);
    assert((await t.estimate()).errors.length === 0, 'fixing the value did not clear the error');
    await noProblems(page, problems);
    await context.close();
  }],

  ['preset pickers: search and Enter fill the fields, which stay editable', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html');
    await settle(page);
    const t = test(page);
    await clickItem(page, 'model_picker');
    await page.keyboard.type('llama 3 8b', { delay: 30 });
    await page.keyboard.press('Enter');
    await settle(page);
    await clickItem(page, 'gpu_picker');
    await page.keyboard.type('h100', { delay: 30 });
    await page.keyboard.press('Enter');
    await settle(page);
    const sc = await t.scenario();
    assert(sc.model.name === 'Llama-3-8B', `model after picking: ${sc.model.name}`);
    assert(sc.hardware.gpu === 'H100-SXM', `GPU after picking: ${sc.hardware.gpu}`);
    const est = await t.estimate();
    assert(est.parameters.total === 8030261248, `Llama-3-8B parameters: ${est.parameters.total}`);  // Meta model card
    const hash = await page.evaluate(() => location.hash);
    assert(/mp=llama-3-8b/.test(hash) && /gpu=H100-SXM/.test(hash), `link does not name the presets: ${hash}`);
    await clickItem(page, 'parallel.num_gpus#plus');  // still editable: 8 → 16 GPUs
    assert((await t.scenario()).parallel.num_gpus === 16, 'GPU count not editable after the preset');
    assert(/(^#|&)N=16(&|$)/.test(await page.evaluate(() => location.hash)), 'link lacks the edit on top of the presets');
    await noProblems(page, problems);
    await context.close();
  }],

  ['copy link puts the current URL on the clipboard', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#v=1&b=4');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
    await settle(page);
    await clickItem(page, 'copy_link');
    const text = await page.evaluate(() => navigator.clipboard.readText());
    assert(text === page.url() && /b=4/.test(text), `clipboard: ${text} vs ${page.url()}`);
    await noProblems(page, problems);
    await context.close();
  }],

  ['idle: no frames are drawn while nothing happens, a button released outside the canvas included', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html');
    const t = test(page);
    await settle(page);
    const a = await t.frames();
    await page.waitForTimeout(1500);
    const b = await t.frames();
    assert(a === b, `frames drawn while idle: ${b - a}`);
    await page.mouse.move(700, 300);
    await settle(page, 80);
    assert((await t.frames()) > b, 'input did not wake the page');
    // A press on the canvas released outside it (a drag that ends under the canvas) is a release:
    // a held button would keep frames coming.
    const canvasBox = await page.locator('#canvas').boundingBox();
    await page.mouse.move(700, 40);
    await page.mouse.down();
    await page.mouse.move(700, canvasBox.y + canvasBox.height + 10, { steps: 4 });
    await page.mouse.up();
    await settle(page, 80);
    const c = await t.frames();
    await page.waitForTimeout(1500);
    assert((await t.frames()) === c, 'frames keep coming after a release outside the canvas');
    await noProblems(page, problems);
    await context.close();
  }],

  ['device pixel ratio 2: the backing store is twice the CSS size; resizes are followed', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html',
      { width: 1200, height: 800, deviceScaleFactor: 2 });
    await settle(page);
    const t = test(page);
    let l = await t.layout();
    assert(l.ratio === 2, `ratio ${l.ratio}`);
    assert(Math.abs(l.backing[0] - 2 * l.css[0]) <= 1 && Math.abs(l.backing[1] - 2 * l.css[1]) <= 1,
      `backing ${l.backing} vs css ${l.css}`);
    const size = await page.evaluate(() => { const c = document.getElementById('canvas'); return [c.width, c.height]; });
    assert(size[0] === l.backing[0] && size[1] === l.backing[1], `canvas element ${size} vs ${l.backing}`);
    await page.setViewportSize({ width: 700, height: 600 });
    await settle(page);
    l = await t.layout();
    assert(Math.abs(l.css[0] - 700) < 1 && Math.abs(l.backing[0] - 1400) <= 1, `after resize: css ${l.css}, backing ${l.backing}`);
    await noProblems(page, problems);
    await context.close();
  }],
];

tests.push(
  ['pinned links open with the published numbers; editing the address bar reloads the scenario', async ({ browser, server }) => {
    // GPT-2 small: 124,439,808 parameters (Radford et al. 2019, Hugging Face checkpoint).
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#v=1&mp=gpt2&gpu=A100-40GB&b=8&s=1024');
    await settle(page);
    const t = test(page);
    let est = await t.estimate();
    assert(est.parameters.total === 124439808, `GPT-2 parameters ${est.parameters.total}`);
    assert(est.capacity_bytes === 40 * 2 ** 30, `A100-40GB capacity ${est.capacity_bytes}`);
    const sc = await t.scenario();
    assert(sc.training.micro_batch_size === 8 && sc.training.seq_len === 1024, 'b/s not restored');
    await page.evaluate(() => { location.hash = '#v=1&mp=pythia-6.9b'; });
    await settle(page);
    est = await t.estimate();
    // Pythia-6.9B: 6,857,302,016 parameters (Biderman et al. 2023, Table 1).
    assert(est.parameters.total === 6857302016, `after editing the address bar: ${est.parameters.total}`);
    await noProblems(page, problems);
    await context.close();
  }],

  ['units toggle: GB instead of GiB, said on screen and in the text summary', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html');
    await settle(page);
    assert(/GiB/.test(await page.textContent('#summary')), 'GiB is not the default');
    await clickItem(page, 'units:GB');
    const summary = await page.textContent('#summary');
    assert(/ GB/.test(summary) && !/GiB/.test(summary), `summary after the toggle: ${summary}`);
    // 80 GiB = 85.9 GB (10^9 bytes).
    assert(/85\.9 GB per GPU/.test(summary), `capacity in GB: ${summary}`);
    await noProblems(page, problems);
    await context.close();
  }],

  ['phone: a touch tap edits a value; browser zoom (pixel ratio change) is followed', async ({ browser, server }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(server.url + 'index.html');
    await page.waitForFunction(() => window.vramcalcTest && window.vramcalcFirstFrameMs !== undefined);
    await settle(page);
    const t = test(page);
    const r = await reveal(page, 'parallel.num_gpus#plus');
    await page.touchscreen.tap(r.x + r.w / 2, r.y + r.h / 2);
    await settle(page);
    assert((await t.scenario()).parallel.num_gpus === 16, 'a tap on + did not double the GPUs');
    // A one-finger drag scrolls the page under the finger (and clicks nothing).
    const cdp = await context.newCDPSession(page);
    const before = await t.rect('parallel.num_gpus');
    const touchAt = (type, y) => cdp.send('Input.dispatchTouchEvent',
      { type, touchPoints: type === 'touchEnd' ? [] : [{ x: 60, y }] });
    await touchAt('touchStart', 600);
    for (let y = 580; y >= 300; y -= 20) { await touchAt('touchMove', y); await page.waitForTimeout(16); }
    await touchAt('touchEnd', 300);
    await settle(page);
    const after = await t.rect('parallel.num_gpus');
    assert(before.y - after.y > 200, `a 300 px drag scrolled ${before.y - after.y} px`);
    assert((await t.scenario()).parallel.num_gpus === 16, 'the drag changed a value');
    // Zoom: the device pixel ratio changes without a resize.
    await cdp.send('Emulation.setDeviceMetricsOverride', { width: 390, height: 844, deviceScaleFactor: 3, mobile: true });
    await page.waitForTimeout(1300);  // the page notices within a second even without a media-query event
    await settle(page);
    const l = await t.layout();
    assert(l.ratio === 3 && Math.abs(l.backing[0] - 3 * l.css[0]) <= 1, `after the ratio change: ${JSON.stringify(l)}`);
    assert(problems.length === 0, problems.join(' | '));
    await context.close();
  }],
);
