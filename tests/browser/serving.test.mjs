// Issue 24 item 7 in the page: the Train | Serve switch, the serving verdict and its breakdown,
// the context × concurrency fit map (its own shader), speed tiles, the summary line, the link
// round trip and the embed, used as a person does (clicks, typing, pickers). Reference numbers
// come from the models' published configs; the rest is checked against the page's own estimate
// (the same evaluate() as the CLI and JS API: tests/js/cli-parity.test.mjs).
import { openPage, settle, test, clickItem, reveal, saveShot, assert, noProblems } from './lib.mjs';

const charts = (page) => page.evaluate(() => window.vramcalcTest.charts());
const summary = (page) => page.textContent('#summary');
const domText = (page, id) => page.evaluate((i) => {
  const el = document.querySelector(`[data-id="${i}"]`);
  return el ? (el.getAttribute('aria-label') || '') + ' ' + el.textContent + ' ' + (el.getAttribute('aria-description') || '') : null;
}, id);

async function typeField(page, path, text) {
  await clickItem(page, path);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text, { delay: 30 });
  await page.keyboard.press('Enter');
  await settle(page);
}

async function pick(page, picker, search) {
  await clickItem(page, picker);
  await page.keyboard.type(search, { delay: 30 });
  await page.keyboard.press('Enter');
  await settle(page);
}

// Chooses an option of a drop-down field by the text of the option (a native <select>).
async function choose(page, path, pattern) {
  await reveal(page, path);
  const options = await page.$$eval(`[data-id="${path}"] option`, (os) => os.map((o) => [o.value, o.textContent]));
  const hit = options.find(([, text]) => pattern.test(text));
  assert(hit, `${path}: no option like ${pattern} among ${options.map((o) => o[1]).join(', ')}`);
  await page.selectOption(`[data-id="${path}"]`, hit[0]);
  await settle(page);
}

// Llama-3.1-70B AWQ on 2 × RTX 4090 at 32k context, as a person sets it up.
async function llama70bAwqOn4090s(page) {
  await clickItem(page, 'workload:Serve');
  await pick(page, 'model_picker', 'llama 3.1 70b');
  await pick(page, 'gpu_picker', 'rtx 4090');
  await typeField(page, 'parallel.tensor', '2');
  await choose(page, 'inference.weight_format', /^awq/i);
  await typeField(page, 'inference.context_len', '32768');
}

export const tests = [
  ['serving: Serve, a model, a GPU and a context length give the serving verdict, breakdown, fit map and speed tiles', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html');
    await settle(page);
    const t = test(page);
    // Training-only controls are there before the switch, gone after it; serving ones the other way round.
    assert(await domText(page, 'training.micro_batch_size') !== null, 'training form shown in Train mode');
    assert(await domText(page, 'inference.context_len') === null, 'serving fields hidden in Train mode');
    await llama70bAwqOn4090s(page);
    const sc = await t.scenario();
    assert(sc.workload === 'inference', `workload after the switch: ${sc.workload}`);
    assert(sc.model.name === 'Llama-3.1-70B' && sc.hardware.gpu === 'RTX-4090', `${sc.model.name} on ${sc.hardware.gpu}`);
    assert(sc.parallel.tensor === 2 && sc.inference.weight_format === 'awq' && sc.inference.context_len === 32768,
      `t ${sc.parallel.tensor}, format ${sc.inference.weight_format}, c ${sc.inference.context_len}`);
    assert(await domText(page, 'training.micro_batch_size') === null, 'training fields hidden in Serve mode');
    assert(await domText(page, 'framework_picker') === null, 'the training framework picker is hidden in Serve mode');
    const e = await t.estimate();
    // Llama 3.1 70B config.json: 80 layers, 8 KV heads, head dim 128, bf16 cache; t = 2 keeps 4 heads per GPU:
    // 80 · 2 · 4 · 128 · 2 B = 163,840 B per token per GPU.
    assert(e.inference.kv_bytes_per_token === 163840, `KV per token per GPU: ${e.inference.kv_bytes_per_token}`);
    const m = e.memory_per_gpu_bytes;
    assert(m.kv_cache === 163840 * 32768, `KV cache of one 32k sequence: ${m.kv_cache}`);
    // The verdict and its breakdown say the estimate's numbers.
    const verdict = await domText(page, 'verdict');
    assert(verdict.includes(e.fits ? 'Fits' : 'not'), `verdict text vs fits=${e.fits}: ${verdict}`);
    const breakdown = await domText(page, 'breakdown');
    for (const part of ['Weights', 'KV cache', 'Activations', 'Overhead'])
      assert(breakdown.includes(part), `breakdown lacks ${part}: ${breakdown}`);
    const facts = await domText(page, 'serving_facts');
    assert(facts.includes(Math.floor(e.inference.kv_pool_tokens).toLocaleString('en-US')), `KV pool tokens not said: ${facts}`);
    assert((await domText(page, 'tm101')).includes('1.2'), 'the Transformer Math 101 baseline is shown');
    // Speed tiles.
    const tiles = await domText(page, 'tiles');
    for (const title of ['Time to first token', 'Decode throughput', 'Cost per million output tokens', 'Prefill', 'Inter-token'])
      assert(tiles.includes(title), `tile ${title} missing: ${tiles}`);
    // The fit map: drawn by its shader, and its cell at the user's point says the verdict.
    await reveal(page, 'serving_fitmap');
    await settle(page);
    const map = (await charts(page)).serving_map;
    assert(map.drawn && map.shader_draws > 0, `serving map drawn ${map.drawn}, shader draws ${map.shader_draws}`);
    const ix = map.contexts.indexOf(32768), iy = map.concurrencies.indexOf(1);
    assert(ix >= 0 && iy >= 0, 'the user\'s point is a cell of the map');
    const r = map.ratios[iy * map.contexts.length + ix];
    assert((r <= 1) === e.fits, `map cell ${r} vs fits ${e.fits}`);
    assert(map.ratios.some((x) => x > 1), 'the map shows where it does not fit');
    // The summary line says the serving verdict.
    const s = await summary(page);
    assert(/^Serving Llama-3\.1-70B on 2 × RTX-4090/.test(s) && s.includes(e.fits ? 'Fits' : ' not '), `summary: ${s}`);
    // Explain for a serving term: a click on a fact opens it.
    await clickItem(page, 'serving_fact:inference.kv_pool_tokens');
    const ex = await page.evaluate(() => window.vramcalcTest.explain());
    assert(ex.selected === 'inference.kv_pool_tokens' && ex.formula, `explain: ${JSON.stringify(ex).slice(0, 200)}`);
    await noProblems(page, problems);
    await context.close();
  }],

  ['serving: the link reopens the same scenario and numbers; a map click adopts its cell', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html');
    await settle(page);
    const t = test(page);
    await clickItem(page, 'workload:Serve');
    await pick(page, 'model_picker', 'qwen2.5 7b');
    await pick(page, 'gpu_picker', 'h100 sxm');
    await typeField(page, 'inference.context_len', '8192');
    await typeField(page, 'inference.concurrency', '32');
    const e = await t.estimate();
    // Qwen2.5-7B config.json: 28 layers, 4 KV heads, head dim 128 → 28 · 2 · 4 · 128 · 2 B = 57,344 B per token.
    assert(e.inference.kv_bytes_per_token === 57344, `Qwen2.5-7B KV per token ${e.inference.kv_bytes_per_token}`);
    assert(e.fits, '32 sequences of 8k fit one H100 with a 7B model');
    const map = (await charts(page)).serving_map;
    assert(map.ratios.some((x) => x > 1) && map.ratios.some((x) => x >= 0 && x <= 1), 'the map has both sides of the boundary');
    const hash = await page.evaluate(() => location.hash);
    assert(/(^#|&)wl=inference(&|$)/.test(hash) && /(^#|&)in=32(&|$)/.test(hash), `link lacks the serving fields: ${hash}`);
    const text = await summary(page);
    const second = await openPage(browser, server.url + 'index.html' + hash);
    await settle(second.page);
    const again = await test(second.page).estimate();
    assert(JSON.stringify(again) === JSON.stringify(e), 'the reopened link gives other numbers');
    assert((await summary(second.page)) === text, 'the reopened link gives another summary');
    await noProblems(second.page, second.problems);
    await second.context.close();
    // A click on a map cell uses its context and concurrency.
    const rect = await reveal(page, 'serving_fitmap');
    const ix = map.contexts.length - 1, iy = map.concurrencies.length - 1;  // top right: the longest, the most
    const x = rect.x + rect.w * (ix + 0.5) / map.contexts.length, y = rect.y + rect.h * (1 - (iy + 0.5) / map.concurrencies.length);
    await page.mouse.move(x - 2, y);
    await page.waitForTimeout(60);
    await page.mouse.move(x, y);
    await settle(page, 60);
    await page.mouse.down();
    await page.waitForTimeout(60);
    await page.mouse.up();
    await settle(page);
    const sc = await t.scenario();
    assert(sc.inference.context_len === map.contexts[ix] && sc.inference.concurrency === map.concurrencies[iy],
      `adopted ${sc.inference.context_len} × ${sc.inference.concurrency}`);
    const after = await t.estimate();
    assert(!after.fits && (await domText(page, 'verdict')).includes('not'), 'the far corner does not fit, and the verdict says so');
    await noProblems(page, problems);
    await context.close();
  }],

  ['serving: keyboard and screen reader reach the switch and the serving results', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html');
    await settle(page);
    await page.focus('[data-id="workload:Serve"]');
    await page.keyboard.press('Enter');
    await settle(page);
    assert((await test(page).scenario()).workload === 'inference', 'Enter on Serve switches the workload');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Accessibility.enable');
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const live = nodes.filter((n) => !n.ignored);
    const named = (role, re) => live.some((n) => n.role && n.role.value === role && re.test((n.name && n.name.value) || ''));
    assert(named('button', /^Serve$/) && named('button', /^Train$/), 'Train and Serve buttons are named');
    assert(named('table', /^Memory per GPU while serving/), 'the serving breakdown is a named table');
    assert(named('image', /^Serving fit map/), 'the serving fit map is a named image');
    assert(named('table', /^Headline results/), 'the headline tiles are a named table');
    for (const path of ['inference.engine', 'inference.weight_format', 'inference.context_len', 'inference.concurrency'])
      assert(await domText(page, path) !== null, `${path} has a control`);
    await noProblems(page, problems);
    await context.close();
  }],

  ['serving: the embed shows the serving verdict and tiles', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html');
    await settle(page);
    await clickItem(page, 'workload:Serve');
    const hash = await page.evaluate(() => location.hash);
    await context.close();
    const embed = await openPage(browser, server.url + 'embed.html' + hash, { width: 640, height: 520 });
    await settle(embed.page);
    const verdict = await domText(embed.page, 'verdict');
    assert(verdict && /Fits|not fit|not start/.test(verdict), `embed verdict: ${verdict}`);
    assert((await domText(embed.page, 'tiles')).includes('Time to first token'), 'embed has the serving tiles');
    assert(/^Serving /.test(await summary(embed.page)), 'embed summary is the serving one');
    await noProblems(embed.page, embed.problems);
    await embed.context.close();
    void problems;
  }],

  ['serving: screenshots at 1440×900 and 390×844 (DPR 3), both themes', async ({ browser, server }) => {
    const setups = {
      'llama70b-awq-2x4090-32k': llama70bAwqOn4090s,
      'qwen7b-h100-8k-x32': async (page) => {
        await clickItem(page, 'workload:Serve');
        await pick(page, 'model_picker', 'qwen2.5 7b');
        await pick(page, 'gpu_picker', 'h100 sxm');
        await typeField(page, 'inference.context_len', '8192');
        await typeField(page, 'inference.concurrency', '32');
      },
    };
    const hashes = {};
    {
      const { page, context } = await openPage(browser, server.url + 'index.html');
      await settle(page);
      for (const [name, setup] of Object.entries(setups)) {
        await page.goto(server.url + 'index.html#v=3');
        await page.reload();
        await page.waitForFunction(() => window.vramcalcTest && window.vramcalcFirstFrameMs !== undefined);
        await settle(page);
        await setup(page);
        hashes[name] = await page.evaluate(() => location.hash);
      }
      await context.close();
    }
    for (const [name, hash] of Object.entries(hashes))
      for (const theme of ['dark', 'light'])
        for (const [tag, opts] of [['1440', { width: 1440, height: 900 }], ['390', { width: 390, height: 844, deviceScaleFactor: 3, isMobile: true, hasTouch: true }]]) {
          const { page, context, problems } = await openPage(browser, server.url + 'index.html' + hash + '&theme=' + theme, { ...opts, colorScheme: theme });
          await settle(page);
          console.log('     ' + await saveShot(page, `serving-${name}-${tag}-${theme}`));
          if (tag === '1440') {
            await reveal(page, 'serving_fitmap');
            console.log('     ' + await saveShot(page, `serving-${name}-${tag}-${theme}-map`));
          }
          await noProblems(page, problems);
          await context.close();
        }
  }],
];
