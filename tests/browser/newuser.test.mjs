// What a new user hits (issue 21, items 2–6), tested as a user acts: type, press, read the DOM
// layer (what the accessibility tree is built from) and the text summary.
import { openPage, settle, test, assert, noProblems } from './lib.mjs';

// The case: QLoRA r 16 on attention, Llama-3.1-8B, one RTX 4090, ZeRO-3, no recomputation.
const QLORA_4090 = 'v=3&mp=llama-3.1-8b&gpu=RTX-4090&N=1&z=3&meth=qlora&rank=16&tgt=attention&rc=none';
const GIB = 2 ** 30;

const summaryOf = (page) => page.evaluate(() => document.getElementById('summary').textContent);

// Types `text` into a field as a person does (select all, type, Enter) and lets the page settle.
async function typeInto(page, path, text, key = 'Enter') {
  const field = `[data-id="${path}"]`;
  await page.focus(field);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text, { delay: 30 });
  if (key) await page.keyboard.press(key);
  await settle(page);
  return field;
}

// Whether the text of `el` up to the end of `needle` is drawn inside the element's visible box
// (the summary bar cuts its text: one line with an ellipsis in the embed, two lines on a phone).
function visibleUpTo(page, selector, needle) {
  return page.evaluate(([sel, n]) => {
    const el = document.querySelector(sel);
    const text = el.firstChild;
    const at = el.textContent.indexOf(n);
    if (!text || at < 0) return { found: false };
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + n.length);
    const r = range.getBoundingClientRect(), box = el.getBoundingClientRect();
    return { found: true, inside: r.right <= box.right + 0.5 && r.bottom <= box.bottom + 0.5, r: [r.right, r.bottom], box: [box.right, box.bottom] };
  }, [selector, needle]);
}

export const tests = [
  ['issue 21.2: text that is no number is invalid input: banner, dimmed results, message, summary, link kept', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#v=3', { width: 1440, height: 900 });
    await settle(page);
    const t = test(page);
    const hash = await page.evaluate(() => location.hash);
    assert(/\bfits\b/.test(await summaryOf(page)), 'the default scenario should fit');
    for (const [path, text, rule] of [['model.layers', 'abc', /must be an integer written in decimal digits/],
      ['model.layers', '32.5', /must be an integer \(got 32\.5\)/], ['model.layers', '1e30', /out of range/],
      ['training.tokens', '12abc', /must be a number written in decimal digits/]]) {
      const field = await typeInto(page, path, text);
      const where = `${path} = "${text}"`;
      assert((await page.getAttribute(field, 'aria-invalid')) === 'true', `${where}: not aria-invalid`);
      const description = await page.getAttribute(field, 'aria-description');
      assert(rule.test(description || ''), `${where}: the field does not name the rule: ${description}`);
      const est = await t.estimate();
      assert(est.errors.some((e) => e.field === path && rule.test(e.message)), `${where}: no error: ${JSON.stringify(est.errors)}`);
      const summary = await summaryOf(page);
      assert(/cannot estimate/.test(summary) && summary.includes(path) && !/\bfits\b/.test(summary), `${where}: summary: ${summary}`);
      assert(await t.rect('stale_banner'), `${where}: no "last valid result" banner`);
      assert(!(await t.rect('editing_hint')), `${where}: "Editing…" still shows after Enter`);
      assert(await t.rect('verdict'), `${where}: the last valid verdict is not kept (dimmed)`);
      assert((await page.evaluate(() => location.hash)) === hash, `${where}: the link changed`);
      // Escape puts the applied value back: valid again, the summary says "fits".
      await page.focus(field);
      await page.keyboard.press('Escape');
      await settle(page);
      assert((await t.estimate()).errors.length === 0, `${where}: Escape did not clear the error`);
      assert(/\bfits\b/.test(await summaryOf(page)), `${where}: summary after Escape: ${await summaryOf(page)}`);
      assert(!(await t.rect('stale_banner')), `${where}: the banner stays after Escape`);
    }
    await noProblems(page, problems);
    await context.close();
  }],

  ['issue 21.3: "does not fit" offers the single changes that fit, each applied with one press', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#' + QLORA_4090, { width: 1440, height: 900 });
    await settle(page);
    const t = test(page);
    assert(!(await t.estimate()).fits, 'the issue case should not fit');
    assert(/does not fit/.test(await summaryOf(page)), 'summary');
    const title = await page.textContent('[data-id="fixes_title"]');
    assert(/Fits with one change/.test(title), `fixes title: ${title}`);
    const fixes = await page.$$eval('[data-id^="fix:"]', (els) => els.map((e) => ({ id: e.dataset.id, name: e.textContent,
      description: e.getAttribute('aria-description') || '', tag: e.tagName })));
    assert(fixes.length >= 1 && fixes.length <= 4, `fixes: ${JSON.stringify(fixes)}`);
    assert(fixes.every((f) => f.tag === 'BUTTON'), 'every fix is a button');
    const recompute = fixes.find((f) => f.id === 'fix:recompute');
    assert(recompute && /recomputation/.test(recompute.name), `no recomputation fix: ${JSON.stringify(fixes)}`);
    const promised = Number(/Gives ([\d.]+) GiB per GPU/.exec(recompute.description)[1]);
    // The verdict's card is in view and so is the fix: a person sees it without scrolling.
    const rect = await t.rect('fix:recompute');
    assert(rect && rect.visible && rect.y < 900, `the fix is not in view: ${JSON.stringify(rect)}`);
    assert(await page.$('[data-id="fixes:plan"]'), 'no pointer to the Plan panel');
    await page.focus('[data-id="fix:recompute"]');
    await page.keyboard.press('Enter');
    await settle(page);
    const after = await t.estimate();
    const sc = await t.scenario();
    assert(after.errors.length === 0 && after.fits, 'the fix did not make it fit');
    assert(sc.training.recompute !== 'none', `recompute: ${sc.training.recompute}`);
    assert(Math.abs(after.memory_per_gpu_bytes.total / GIB - promised) < 0.06, `promised ${promised} GiB, got ${after.memory_per_gpu_bytes.total / GIB}`);
    assert(/\bfits\b/.test(await summaryOf(page)), `summary after the fix: ${await summaryOf(page)}`);
    assert(/(^#|&)rc=/.test(await page.evaluate(() => location.hash)), 'the link does not record the recomputation');
    assert(!(await page.$('[data-id="fix:recompute"]')), 'the fixes stay after it fits');
    await noProblems(page, problems);
    await context.close();
  }],

  ['issue 21.3: the Plan pointer scrolls to the Plan panel', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#' + QLORA_4090, { width: 1440, height: 900 });
    await settle(page);
    const t = test(page);
    const before = await t.rect('plan:use:0');
    assert(!before || !before.visible, 'the plan is already in view: nothing to test');
    await page.focus('[data-id="fixes:plan"]');
    await page.keyboard.press('Enter');
    await settle(page);
    const plan = await t.rect('plan:use:0');
    assert(plan && plan.visible, `the Plan panel is not in view: ${JSON.stringify(plan)}`);
    await noProblems(page, problems);
    await context.close();
  }],

  ['issue 21.4: the embed says method, sequence and recomputation; its footer shows the method', async ({ browser, server }) => {
    const link = QLORA_4090.replace('rc=none', 'rc=full');
    const { page, context, problems } = await openPage(browser, server.url + 'embed.html#' + link, { width: 640, height: 420 });
    await settle(page);
    const heading = (await page.textContent('[data-id="embed_title"]')).replace(/\s+/g, ' ');
    assert(heading === 'Llama-3.1-8B · QLoRA r16 · s 2,048 · full recompute · 1 × RTX-4090', `embed title: ${heading}`);
    const shown = await visibleUpTo(page, '#summary', 'QLoRA r16');
    assert(shown.found && shown.inside, `the footer summary is cut before "QLoRA": ${JSON.stringify(shown)}`);
    await noProblems(page, problems);
    await context.close();
  }],

  ['issue 21.5: on a phone the summary bar shows the verdict, and the verdict stays in view while editing', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#' + QLORA_4090.replace('rc=none', 'rc=full'),
      { width: 390, height: 844, deviceScaleFactor: 3, hasTouch: true, isMobile: true });
    await settle(page);
    const t = test(page);
    const shown = await visibleUpTo(page, '#summary', 'fits');
    assert(shown.found && shown.inside, `the summary bar is cut before "fits": ${JSON.stringify(shown)}`);
    // A field far below the verdict: the sticky verdict bar is in view while it is edited.
    await typeInto(page, 'training.tokens', '2B', null);
    const bar = await t.rect('sticky_verdict');
    assert(bar && bar.visible, `no verdict in view while editing: ${JSON.stringify(bar)}`);
    await page.keyboard.press('Enter');
    await settle(page);
    assert((await t.scenario()).training.tokens === 2e9, 'the typed tokens were not applied');
    await noProblems(page, problems);
    await context.close();
  }],

  ['issue 21.6: "32K" is 32,768 tokens; two ↑ presses are two steps; the first letter after "/" is kept', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#v=3&mp=llama-3.1-8b', { width: 1440, height: 900 });
    await settle(page);
    const t = test(page);
    await typeInto(page, 'training.seq_len', '32K');
    assert((await t.scenario()).training.seq_len === 32768, `seq_len after "32K": ${(await t.scenario()).training.seq_len}`);
    assert(/32K means 32,768/.test(await page.getAttribute('[data-id="training.seq_len"]', 'aria-description')), 'the help does not say K = 1,024');
    // Two ↑ 80 ms apart on the layer count (steps of one): two steps.
    const layers = (await t.scenario()).model.layers;
    await page.focus('[data-id="model.layers"]');
    await page.keyboard.press('ArrowUp');
    await page.waitForTimeout(80);
    await page.keyboard.press('ArrowUp');
    await settle(page);
    assert((await t.scenario()).model.layers === layers + 2, `layers ${layers} → ${(await t.scenario()).model.layers} after two ↑`);
    // "/" then typing at once: every letter reaches the search.
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await settle(page);
    await page.keyboard.press('/');
    await page.keyboard.type('qwen', { delay: 10 });
    await settle(page);
    const search = await page.$eval('[data-id="model_picker:search"]', (el) => el.value);
    assert(search === 'qwen', `search field holds "${search}"`);
    assert(!(await t.rect('editing_hint')), 'typing in the preset search shows "Editing…"');
    await page.keyboard.press('Escape');
    await settle(page);
    await noProblems(page, problems);
    await context.close();
  }],

  ['issue 21.6: a sequence beyond the RoPE model\'s positions is a warning; the time tile says its tokens', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#v=3&mp=llama-2-7b&s=8192', { width: 1440, height: 900 });
    await settle(page);
    const t = test(page);
    const est = await t.estimate();
    assert(est.warnings.some((w) => w.id === 'sequence_beyond_positions'), `warnings: ${JSON.stringify(est.warnings)}`);
    const tiles = await page.$eval('[data-id="tiles"]', (el) => el.textContent);
    assert(/for 300 B tokens/.test(tiles), `the time tile does not say its tokens: ${tiles}`);
    await noProblems(page, problems);
    await context.close();
  }],
];
