// Links: embed mode, hostile and broken links (defaults + a visible message naming the fields).
import { openPage, settle, test, clickItem, assert, noProblems } from './lib.mjs';
import { decodePng, colourStats } from './png.mjs';

async function hostile(browser, server, fragment, expectFields) {
  const { page, context, problems } = await openPage(browser, server.url + 'index.html#' + fragment);
  let dialogs = 0;
  page.on('dialog', (d) => { dialogs++; d.dismiss(); });
  await settle(page);
  const t = test(page);
  const messages = await t.messages();
  assert(messages.length > 0, 'no message for a broken link');
  for (const f of expectFields) {
    assert(messages.some((m) => m.field === f), `no message names ${f}: ${JSON.stringify(messages)}`);
  }
  assert((await t.layout()).banner === true, 'the message banner is not shown');
  const est = await t.estimate();
  assert(est.errors.length === 0 && est.fits !== undefined, 'the repaired scenario should be valid');
  // The page still works: a click changes a value.
  const b = (await t.scenario()).training.micro_batch_size;
  await clickItem(page, 'training.micro_batch_size#plus');
  assert((await t.scenario()).training.micro_batch_size === b + 1, 'page does not respond after a hostile link');
  assert(dialogs === 0, 'the link executed script (a dialog opened)');
  await noProblems(page, problems);
  await context.close();
  return messages;
}

export const tests = [
  ['embed.html renders the compact results-first view with a link to the full calculator', async ({ browser, server }) => {
    const fragment = 'v=1&mp=llama-3-8b&gpu=H100-SXM&z=3&b=2';
    const { page, context, problems } = await openPage(browser, server.url + 'embed.html#' + fragment,
      { width: 640, height: 480 });
    await settle(page);
    const t = test(page);
    assert((await t.layout()).embed === true, 'embed mode not detected');
    const sc = await t.scenario();
    assert(sc.model.name === 'Llama-3-8B' && sc.parallel.zero_stage === 3 && sc.training.micro_batch_size === 2,
      'embed did not load the scenario');
    assert(await t.rect('open_full'), 'no "open the full calculator" link');
    assert(!(await t.rect('model.layers')), 'embed mode should not show the input form');
    const img = decodePng(await page.screenshot());
    assert(colourStats(img).distinct > 100, 'embed screenshot looks blank');
    // The open link points at the full page with the same scenario.
    const popupPromise = context.waitForEvent('page');
    await clickItem(page, 'open_full');
    const popup = await popupPromise;
    await popup.waitForFunction(() => window.vramcalcTest && window.vramcalcFirstFrameMs !== undefined);
    const full = JSON.parse(await popup.evaluate(() => window.vramcalcTest.scenarioJson()));
    const layout = await popup.evaluate(() => window.vramcalcTest.layout());
    assert(layout.embed === false, 'the opened page is still in embed mode');
    assert(JSON.stringify(full) === JSON.stringify(sc), 'the full calculator opened a different scenario');
    await noProblems(page, problems);
    await context.close();
  }],

  ['#embed=1 on index.html is embed mode too, and an iframe embedding works under the CSP', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#embed=1&v=1&N=16',
      { width: 600, height: 420 });
    await settle(page);
    const t = test(page);
    assert((await t.layout()).embed === true, '#embed=1 not detected');
    assert((await t.scenario()).parallel.num_gpus === 16, 'N=16 not applied');
    await noProblems(page, problems);
    await context.close();
    // The documented iframe snippet (docs/embedding.md) on a same-origin host page with the CSP.
    const hostUrl = server.url + 'iframe-host.html';
    const ctx = await browser.newContext({ viewport: { width: 900, height: 700 } });
    const host = await ctx.newPage();
    const hostProblems = [];
    host.on('console', (m) => { if (m.type() === 'error') hostProblems.push(m.text()); });
    await host.goto(hostUrl);
    const frame = await (await host.waitForSelector('iframe')).contentFrame();
    await frame.waitForFunction(() => window.vramcalcTest && window.vramcalcFirstFrameMs !== undefined, null, { timeout: 30000 });
    const framed = JSON.parse(await frame.evaluate(() => window.vramcalcTest.scenarioJson()));
    assert(framed.parallel.num_gpus === 32, 'the iframe did not load its scenario');
    assert((await frame.evaluate(() => window.vramcalcTest.layout())).embed === true, 'iframe not in embed mode');
    assert(hostProblems.length === 0, `errors in the iframe host: ${hostProblems.join(' | ')}`);
    await ctx.close();
  }],

  ['hostile link: unknown keys, wrong types, out-of-range values, markup — defaults + message', async ({ browser, server }) => {
    const fragment = 'v=7&h=abc&L=-5&b=1e999&zz=%3Cscript%3Ealert(1)%3C%2Fscript%3E&fa=maybe&prec=fp64&name=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E';
    const messages = await hostile(browser, server, fragment,
      ['model.hidden_size', 'training.micro_batch_size', 'training.flash_attention', 'training.precision']);
    assert(messages.some((m) => /layers/.test(m.field)), 'L=-5 not reported');
  }],

  ['a v1 GPT-2 link opens valid: the sequence is lowered to its 1,024 positions, and a note says so', async ({ browser, server }) => {
    // GPT-2 has 1,024 learned positions (Radford et al. 2019); v1 links meant the default 2,048 tokens.
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#v=1&mp=gpt2');
    await settle(page);
    const t = test(page);
    const est = await t.estimate();
    assert(est.errors.length === 0 && est.scenario.training.seq_len === 1024, `not estimated at 1,024 tokens: ${JSON.stringify(est.errors)}`);
    assert(est.parameters.total === 124439808, `GPT-2 parameters ${est.parameters.total}`);
    const notes = await t.notes();
    assert(notes.length === 1 && notes[0].field === 'training.seq_len', `notes: ${JSON.stringify(notes)}`);
    assert((await t.messages()).length === 0 && (await t.layout()).banner === false, 'no problem banner for a note');
    assert(await t.rect('dismiss_notes'), 'the note is not shown');
    await clickItem(page, 'dismiss_notes');
    assert((await t.notes()).length === 0, 'the note is not dismissed');
    // Re-encoded as a current link that keeps v1's meaning: v1 had no activation, CUDA-context or
    // allocator terms and counted no ZeRO-3 live parameters, so those v1 values travel with it
    // (v2's GPT-2 preset says gelu_new).
    assert(/^v=3&mp=gpt2&act=auto&live=0&ctx=0&alloc=0$/.test(await t.link()), `re-encoded as ${await t.link()}`);
    await noProblems(page, problems);
    await context.close();
  }],

  ['broken link: truncated percent-escape and a very long fragment', async ({ browser, server }) => {
    await hostile(browser, server, 'v=1&h=40%E&L=%', []);
    await hostile(browser, server, 'v=1&' + 'x'.repeat(9000), ['link']);
  }],
];
