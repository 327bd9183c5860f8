// Hostile input on the page (issue 10): every input of the issue the page reaches. The C++ faces
// are in tests/test_hostile_input.cpp, the JS API in tests/js/hostile.test.mjs.
import { openPage, settle, test, assert, noProblems } from './lib.mjs';

const noDuplicates = (messages) => new Set(messages.map((m) => m.field + '\n' + m.message)).size === messages.length;

// Every number of the estimate is finite (JSON has no Infinity/NaN: a null would be one).
function finiteEverywhere(value, where = 'estimate') {
  if (value === null) throw new Error(`${where} is null (a non-finite number)`);
  if (typeof value === 'number') assert(Number.isFinite(value), `${where} = ${value}`);
  if (typeof value === 'object') for (const [k, v] of Object.entries(value)) finiteEverywhere(v, `${where}.${k}`);
}

async function openLink(browser, server, fragment) {
  const opened = await openPage(browser, server.url + 'index.html#' + fragment);
  let dialogs = 0;
  opened.page.on('dialog', (d) => { dialogs++; d.dismiss(); });
  await settle(opened.page);
  const t = test(opened.page);
  return { ...opened, t, dialogs: () => dialogs };
}

export const tests = [
  ['issue 10.2: vanishing rates and an overflowing batch are named, the estimate stays finite', async ({ browser, server }) => {
    for (const [fragment, field] of [['v=1&ach=1e-300', 'hardware.achieved_tflops'], ['v=1&ach=0&mfu=1e-320', 'hardware.mfu'],
      ['v=1&B=0&ga=100000000&b=1000&N=100000000', 'training.grad_accum_steps']]) {
      const { page, context, problems, t } = await openLink(browser, server, fragment);
      const messages = await t.messages();
      assert(messages.some((m) => m.field === field || m.message.includes(field)), `${fragment}: no message names ${field}: ${JSON.stringify(messages)}`);
      assert(noDuplicates(messages), `${fragment}: a message repeats`);
      const estimate = await t.estimate();
      assert(estimate.errors.length === 0, `${fragment}: the opened scenario is not valid`);
      finiteEverywhere(estimate);
      assert(estimate.layout.global_batch_size > 0 && estimate.layout.global_batch_size <= 1e9, 'global batch out of range');
      assert(!/inf|NaN/.test(await page.evaluate(() => document.getElementById('summary').textContent)), 'summary shows inf/NaN');
      await noProblems(page, problems);
      await context.close();
    }
  }],

  ['issue 10.3: #v=1&mp=gpt2 opens valid; h=4096&a=30 resets only the heads, said once', async ({ browser, server }) => {
    const gpt2 = await openLink(browser, server, 'v=1&mp=gpt2');
    assert((await gpt2.t.messages()).length === 0, 'gpt2 link shows a problem');
    assert((await gpt2.t.estimate()).errors.length === 0, 'gpt2 link cannot estimate');
    assert((await gpt2.t.scenario()).training.seq_len === 1024, 'the sequence was not fitted to GPT-2');
    await gpt2.context.close();

    const { page, context, problems, t } = await openLink(browser, server, 'v=1&h=4096&a=30&L=40&b=2');
    const messages = await t.messages();
    assert(messages.length === 1, `expected one message, got ${JSON.stringify(messages)}`);
    assert(messages[0].field === 'model.hidden_size' && messages[0].message.includes('reset model.num_heads to the default (32)'),
      JSON.stringify(messages));
    const sc = await t.scenario();
    assert(sc.model.hidden_size === 4096 && sc.model.num_heads === 32 && sc.model.layers === 40 &&
      sc.training.micro_batch_size === 2, `the other fields were not kept: ${JSON.stringify(sc.model)}`);
    await noProblems(page, problems);
    await context.close();
  }],

  ['issue 10.4: the Markdown injection link copies inert Markdown', async ({ browser, server }) => {
    const { page, context, problems, t, dialogs } = await openLink(browser, server,
      'v=1&name=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&gpu=%5Bclick%5D(javascript%3Aalert(1))');
    const md = await page.evaluate(() => window.vramcalcTest.markdown());
    assert(md.startsWith('**&lt;img src=x onerror=alert(1)&gt;** on 8 × \\[click\\](javascript:alert(1)) — '), md.slice(0, 200));
    assert(!md.includes('<img') && !/(^|[^\\])\]\(javascript:/.test(md), 'raw markup in the Markdown');
    assert(dialogs() === 0, 'a dialog opened');
    assert((await t.messages()).length === 0, 'the labels are legal text: no message expected');
    await noProblems(page, problems);
    await context.close();
  }],

  ['issue 10.5: control and bidi characters are rejected in links and page edits; the summary stays clean', async ({ browser, server }) => {
    for (const [fragment, field] of [['v=1&gpu=%1B%5B2J', 'hardware.gpu'], ['v=1&name=%E2%80%AE123', 'model.name'],
      ['v=1&name=a%00b', 'model.name']]) {
      const { page, context, problems, t } = await openLink(browser, server, fragment);
      const messages = await t.messages();
      assert(messages.some((m) => m.field === field && m.message.includes('control or invisible')), `${fragment}: ${JSON.stringify(messages)}`);
      const summary = await page.evaluate(() => document.getElementById('summary').textContent);
      assert(!/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(summary), `${fragment}: control character in the summary`);
      await noProblems(page, problems);
      await context.close();
    }
    const { page, context, problems, t } = await openLink(browser, server, 'v=3');
    for (const [path, value] of [['model.name', 'x\u202Eevil'], ['hardware.gpu', '\u001b[2J'], ['model.name', 'a\u2066b'],
      ['hardware.gpu', 'z'.repeat(201)]]) {
      const problem = await page.evaluate(([p, v]) => window.vramcalcTest.setField(p, v), [path, value]);
      assert(problem !== '', `${path} accepted ${JSON.stringify(value)}`);
    }
    assert((await t.estimate()).errors.length === 0, 'a rejected edit changed the scenario');
    await noProblems(page, problems);
    await context.close();
  }],

  ['issue 10.6: repeated link keys and loose numbers are named, each once', async ({ browser, server }) => {
    for (const [fragment, field] of [['v=1&L=8&L=16', 'model.layers'], ['v=1&L=0x10', 'model.layers'], ['v=1&L=%20%205', 'model.layers'],
      ['v=1&P=1e-300', 'model.params_override'], ['v=1&h=%-1', 'link']]) {
      const { page, context, problems, t } = await openLink(browser, server, fragment);
      const messages = await t.messages();
      assert(messages.some((m) => m.field === field), `${fragment}: ${JSON.stringify(messages)}`);
      assert(noDuplicates(messages), `${fragment}: a message repeats`);
      assert((await t.estimate()).errors.length === 0, `${fragment}: not opened valid`);
      await noProblems(page, problems);
      await context.close();
    }
  }],

  ['issue 21.1: the bare page is today\'s defaults: the numbers of #v=3, and its links carry no ctx=0&alloc=0', async ({ browser, server }) => {
    const bare = await openPage(browser, server.url + 'index.html');
    await settle(bare.page);
    const linked = await openLink(browser, server, 'v=3');
    const tb = test(bare.page);
    const [plain, two] = [await tb.scenario(), await linked.t.scenario()];
    assert(JSON.stringify(plain) === JSON.stringify(two), `bare page ${JSON.stringify(plain.hardware)} vs #v=3 ${JSON.stringify(two.hardware)}`);
    // scenario.hpp's defaults (the v2 pins of tests/test_link_versions.cpp): 0.5 GiB context, 5 % reserve.
    assert(plain.hardware.cuda_context_gib === 0.5 && plain.hardware.allocator_overhead === 0.05, JSON.stringify(plain.hardware));
    assert((await tb.estimate()).memory_per_gpu_bytes.total === (await linked.t.estimate()).memory_per_gpu_bytes.total,
      'the bare page and #v=3 differ in memory');
    // What a reader hears is the same too: the verdict and the summary.
    const heard = (page) => page.evaluate(() => [document.querySelector('[data-id="verdict"]').textContent,
      document.getElementById('summary').textContent]);
    const [v1, v2] = [await heard(bare.page), await heard(linked.page)];
    assert(v1[0] === v2[0] && v1[1] === v2[1], `bare: ${v1.join(' | ')}; #v=3: ${v2.join(' | ')}`);
    assert((await tb.messages()).length === 0, 'the bare page shows a problem');
    // An edit on the bare page writes a link of the edit alone.
    await bare.page.focus('[data-id="training.micro_batch_size"]');
    await bare.page.keyboard.press('Control+A');
    await bare.page.keyboard.type('2');
    await bare.page.keyboard.press('Enter');
    await settle(bare.page);
    const hash = await bare.page.evaluate(() => location.hash);
    assert(hash === '#v=3&b=2', `the bare page's link after an edit: ${hash}`);
    await noProblems(bare.page, bare.problems);
    await noProblems(linked.page, linked.problems);
    await bare.context.close();
    await linked.context.close();
  }],

  ['issue 22.5: a new link while a checkbox has focus rebuilds the controls, with no error', async ({ browser, server }) => {
    const { page, context, problems, t } = await openLink(browser, server, 'v=3&meth=lora');
    const loraControls = () => page.evaluate(() => document.querySelectorAll('#ui [data-id^="training.lora"]').length);
    assert((await loraControls()) > 0, 'no LoRA controls for a LoRA link');
    await page.focus('[data-id="training.flash_attention"]');
    await settle(page);
    await page.evaluate(() => { location.hash = '#v=3'; });
    await settle(page);
    assert((await t.scenario()).training.method === 'full', 'the new link was not opened');
    assert((await loraControls()) === 0, 'LoRA controls stay in the DOM while the method is Full');
    // The checkbox kept its focus and still works from the keyboard.
    assert(await page.evaluate(() => document.activeElement && document.activeElement.dataset.id === 'training.flash_attention'),
      'the focused checkbox lost its focus');
    await page.keyboard.press('Space');
    await settle(page);
    assert((await t.scenario()).training.flash_attention === true, 'Space on the focused checkbox did nothing');
    // And back: a text field with focus keeps its caret when its place changes.
    await page.focus('[data-id="model.layers"]');
    await page.evaluate(() => { const el = document.activeElement; el.setSelectionRange(1, 1); location.hash = '#v=3&meth=lora'; });
    await settle(page);
    assert((await loraControls()) > 0, 'the LoRA controls did not come back');
    const caret = await page.evaluate(() => [document.activeElement.dataset.id, document.activeElement.selectionStart]);
    assert(caret[0] === 'model.layers' && caret[1] === 1, `focus/caret after the move: ${caret}`);
    await noProblems(page, problems);
    await context.close();
  }],

  ['issue 22.8: a link of 900 unknown keys is 900 problems on the page, as in the API; "no layout fits" is read out', async ({ browser, server }) => {
    const keys = Array.from({ length: 900 }, (_, i) => `k${i}=1`).join('&');
    const { page, context, problems } = await openLink(browser, server, `v=3&${keys}`);
    const alert = await page.evaluate(() => document.querySelector('[data-id="link_banner"]').textContent);
    assert(alert.startsWith('This link had 900 problems'), alert.slice(0, 120));
    assert(alert.includes('… and 892 more'), `the banner's count of the rest: ${alert.slice(-80)}`);
    await noProblems(page, problems);
    await context.close();
    // 405 B parameters on one 24 GB GPU: no layout of one GPU fits; the page says so in words.
    const none = await openLink(browser, server, 'v=3&mp=llama-3.1-405b&gpu=RTX-4090&N=1');
    const plan = await none.page.evaluate(() => window.vramcalcTest.plan());
    assert(plan.plans.length === 0, `plans for 405 B on one RTX 4090: ${plan.plans.length}`);
    const text = await none.page.evaluate(() => {
      const el = document.querySelector('[data-id="plan:none"]');
      return el ? el.textContent : '';
    });
    assert(text.startsWith('No layout fits in memory'), `no "No layout fits" in the DOM layer: "${text}"`);
    await noProblems(none.page, none.problems);
    await none.context.close();
  }],
];
