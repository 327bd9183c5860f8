// Keyboard, screen readers and clipboard (docs/keyboard.md): from page load Tab reaches every field
// of the field table in reading order with a visible focus ring; Chromium's accessibility tree
// names every control and every field by its label; a paste lands in a field and a copy leaves it;
// the text summary is announced once per settled change, not per keystroke.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openPage, settle, test, assert, noProblems, distDir } from './lib.mjs';

let fieldTable = null;
// The field table, from the JS API (the same table the page is built from).
async function fields() {
  if (!fieldTable) {
    const { default: create } = await import(pathToFileURL(path.join(distDir(), 'vramcalc.mjs')).href);
    fieldTable = (await create()).fields();
  }
  return fieldTable;
}
// Fields shown as a picker or a switch rather than an input.
const CONTROL_OF = { 'training.framework': 'framework_picker', 'training.method': 'method:Full',
  'training.lora_targets': 'training.lora_targets#q', workload: 'workload:Train' };
const controlOf = (p) => CONTROL_OF[p] || p;
// Fine-tuning fields show only with their method (src/app/ui_inputs.cpp field_visible): the Tab
// test runs with QLoRA (which shows all but trainable_layers) and checks that one with Freeze.
const QLORA = 'v=3&mp=llama-3-8b&meth=qlora';
const FREEZE = 'v=3&mp=llama-3-8b&meth=freeze';
// Serving fields (inference.*) show only in Serve mode (src/core/fields.cpp field_used_by): the Tab
// test covers the training form, the accessibility-tree test also opens this serving link.
const SERVE = 'v=3&mp=llama-3-8b&wl=inference';
const trainingField = (f) => !f.path.startsWith('inference.');

const INTERACTIVE = new Set(['button', 'textbox', 'spinbutton', 'combobox', 'checkbox', 'option', 'listbox',
  'menulistpopup', 'PopUpButton', 'slider', 'link', 'switch', 'radio', 'tab']);

const focused = (page) => page.evaluate(() => {
  const el = document.activeElement;
  if (!el || !el.dataset || !el.dataset.id) return { id: el ? el.tagName : null };
  const s = getComputedStyle(el);
  return { id: el.dataset.id, outline: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth), role: el.dataset.role };
});

export const tests = [
  ['keyboard: Tab from page load reaches every field in reading order with a visible focus ring; Shift+Tab goes back', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#' + QLORA, { width: 1100, height: 760 });
    await settle(page);
    const order = await page.evaluate(() => [...document.querySelectorAll('#ui [data-id]')]
      .filter((e) => e.tabIndex >= 0 && !e.closest('.vc-listbox')).map((e) => e.dataset.id));
    const all = (await fields()).filter((f) => f.path !== 'training.trainable_layers' && trainingField(f));  // Freeze only (next test)
    for (const f of all) assert(order.includes(controlOf(f.path)), `${f.path} (${f.label}) is not reachable by Tab`);
    // Reading order: the fields come top to bottom (left to right within a row) as drawn.
    const t = test(page);
    let prev = null;
    for (const id of order.filter((id) => all.some((f) => controlOf(f.path) === id))) {
      const r = await t.rect(id);
      assert(r, `${id} has no drawn rectangle`);
      if (prev) assert(r.y > prev.r.y + 1 || (Math.abs(r.y - prev.r.y) <= 1 && r.x > prev.r.x), `${id} comes after ${prev.id} in Tab order but is drawn before it`);
      prev = { id, r };
    }
    assert((await focused(page)).id === 'BODY', 'something has focus before any key');
    const seen = [];
    for (let i = 0; i < order.length; i++) {
      await page.keyboard.press('Tab');
      const f = await focused(page);
      seen.push(f.id);
      assert(f.outline !== 'none' && f.outlineWidth >= 2, `no visible focus ring on ${f.id} (${f.outline} ${f.outlineWidth}px)`);
    }
    assert(JSON.stringify(seen) === JSON.stringify(order),
      `Tab visited ${seen.length} controls, not the ${order.length} in reading order; first difference at ` +
      `${seen.findIndex((id, i) => id !== order[i])}: ${seen.find((id, i) => id !== order[i])}`);
    await page.keyboard.press('Shift+Tab');
    assert((await focused(page)).id === order[order.length - 2], 'Shift+Tab did not go back one control');
    // A focused control scrolled out of view is brought into view (the last ones sit far below),
    // in the frames that follow the key.
    await settle(page);
    const r = await t.rect(order[order.length - 2]);
    assert(r && r.visible, `the focused ${order[order.length - 2]} is not in view: ${JSON.stringify(r)}`);
    await noProblems(page, problems);
    await context.close();
  }],

  ['accessibility tree (CDP): every control has a role and a name, every field is named by its label, results are named', async ({ browser, server }) => {
    const covered = new Set();
    for (const link of [QLORA, FREEZE, SERVE]) {
      const { page, context, problems } = await openPage(browser, server.url + 'index.html#' + link, { width: 1100, height: 760 });
      await settle(page);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Accessibility.enable');
      const { nodes } = await cdp.send('Accessibility.getFullAXTree');
      const live = nodes.filter((n) => !n.ignored);
      const role = (n) => (n.role && n.role.value) || '';
      const name = (n) => ((n.name && n.name.value) || '').trim();
      const controls = live.filter((n) => INTERACTIVE.has(role(n)));
      const unnamed = controls.filter((n) => !name(n));
      assert(controls.length >= 100, `only ${controls.length} controls in the accessibility tree`);
      assert(unnamed.length === 0, `controls without a name: ${unnamed.map((n) => role(n) + '#' + n.backendDOMNodeId).join(', ')}`);
      const byName = new Map();  // name -> the roles of the controls with that name
      for (const n of controls) byName.set(name(n), (byName.get(name(n)) || new Set()).add(role(n)));
      const all = await fields();
      const names = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#ui [data-id]')]
        .map((e) => [e.dataset.id, e.getAttribute('aria-label') || e.textContent])));
      const shown = all.filter((f) => names[controlOf(f.path)] !== undefined);
      for (const f of shown) {
        covered.add(f.path);
        const id = controlOf(f.path);
        const label = names[id];
        if (id !== f.path) { assert(byName.has(label), `${f.path}: no control named "${label}"`); continue; }
        assert(label && label.startsWith(f.label), `${f.path}: its control is named "${label}", not by its label "${f.label}"`);
        assert(byName.has(label), `${f.path}: no control named "${label}" in the accessibility tree`);
      }
      // Fields have the roles of what they are.
      const kinds = Object.fromEntries(all.map((f) => [f.path, f.kind]));
      for (const f of shown.filter((f) => controlOf(f.path) === f.path)) {
        const r = byName.get(names[controlOf(f.path)]);
        const list = [...r].join('/');
        if (f.kind === 'boolean') assert(r.has('checkbox'), `${f.path} is a ${list}, not a checkbox`);
        // Numbers are spin buttons; a number with a few values (ZeRO stage) is a drop-down.
        if (f.kind === 'integer' || f.kind === 'number') assert(r.has('spinbutton') || r.has('combobox'), `${f.path} is a ${list}, not a spinbutton`);
      }
      assert(Object.keys(kinds).length === all.length, 'field table without kinds');
      if (link === SERVE) {  // the serving results (tests/browser/serving.test.mjs checks them in full)
        assert(live.some((n) => role(n) === 'table' && /^Memory per GPU while serving/.test(name(n))), 'no serving breakdown table');
        await noProblems(page, problems);
        await context.close();
        continue;
      }
      // Results: the verdict text, the named tables (peak breakdown, headline tiles, details), the charts as images.
      const tables = live.filter((n) => role(n) === 'table');
      const images = live.filter((n) => role(n) === 'image' || role(n) === 'img');
      assert(tables.length >= 4 && tables.every((n) => name(n)), `tables: ${tables.map(name).join(' | ')}`);
      assert(tables.some((n) => /^Headline results/.test(name(n))), 'no headline results table');
      assert(tables.some((n) => /^Memory per GPU at the peak/.test(name(n))), 'no peak breakdown table');
      assert(images.length >= 3 && images.every((n) => name(n)), `images: ${images.map(name).join(' | ')}`);
      assert(images.some((n) => /^Memory over one training step, peak in the/.test(name(n))), `no memory timeline image: ${images.map(name).join(' | ')}`);
      const headline = await page.evaluate(() => document.querySelector('[data-id="tiles"]').textContent);
      assert(/TFLOP-hours/.test(headline), `TFLOP-hours is not among the headline results: ${headline}`);
      await noProblems(page, problems);
      await context.close();
    }
    const missing = (await fields()).filter((f) => !covered.has(f.path)).map((f) => f.path);
    assert(missing.length === 0, `fields without a named control: ${missing.join(', ')}`);
  }],

  ['clipboard: a paste lands in a field and applies on Enter; a copy takes the field\'s text', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html', { width: 1100, height: 760 });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
    await settle(page);
    const t = test(page);
    await page.focus('[data-id="model.hidden_size"]');
    await settle(page);
    await page.evaluate(() => navigator.clipboard.writeText('5,120'));
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+V');
    assert((await page.inputValue('[data-id="model.hidden_size"]')) === '5,120', 'the paste did not land in the field');
    await page.keyboard.press('Enter');
    await settle(page);
    assert((await t.scenario()).model.hidden_size === 5120, 'the pasted hidden size was not applied');
    // Copy: select the layer count and copy it.
    await page.focus('[data-id="model.layers"]');
    await settle(page);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+C');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert(copied === String((await t.scenario()).model.layers), `copied "${copied}"`);
    await noProblems(page, problems);
    await context.close();
  }],

  ['typing keeps the last valid results (editing state) and the summary is announced once per settled change', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html', { width: 1100, height: 760 });
    await settle(page);
    const t = test(page);
    const before = await t.estimate();
    await page.evaluate(() => {
      window.__announced = [];
      new MutationObserver(() => window.__announced.push(document.getElementById('summary').textContent))
        .observe(document.getElementById('summary'), { childList: true, characterData: true, subtree: true });
    });
    const field = '[data-id="model.layers"]';
    // The moment the field shows its editing state, the scenario and results are read in the page
    // (the typed value applies itself after a 0.7 s pause, which a loaded machine can reach first).
    await page.evaluate((sel) => {
      const el = document.querySelector(sel);
      window.__editing = null;
      new MutationObserver(() => {
        if (el.dataset.editing === 'true' && !window.__editing) {
          window.__editing = [JSON.parse(window.vramcalcTest.scenarioJson()).model.layers,
            JSON.parse(window.vramcalcTest.estimateJson()).parameters.total];
        }
      }).observe(el, { attributes: true, attributeFilter: ['data-editing'] });
    }, field);
    await page.focus(field);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('4', { delay: 0 });
    // Mid-typing ("4" of "48"): the field is in its editing state; the results are still the old ones.
    await page.waitForFunction(() => window.__editing, null, { timeout: 10000 });
    const mid = await page.evaluate(() => window.__editing);
    assert(mid[0] === before.scenario.model.layers, 'the value was applied while typing');
    assert(mid[1] === before.parameters.total, 'results changed before the value was applied');
    // Escape drops the draft (on a loaded machine the pause may have applied it first, so this is
    // only the way back to a clean field, not a check of Escape).
    await page.keyboard.press('Escape');
    await settle(page);
    // Typing "48" at a person's pace (keys closer than the 0.7 s pause), then stopping: one change, one announcement.
    await page.evaluate(() => { window.__announced = []; });
    await page.keyboard.press('Control+A');
    await page.keyboard.type('48', { delay: 150 });
    await page.waitForTimeout(1500);  // the pause applies the value
    await settle(page);
    assert((await t.scenario()).model.layers === 48, 'the typed value was not applied after a pause');
    const announced = await page.evaluate(() => window.__announced);
    assert(announced.length === 1, `the summary changed ${announced.length} times for one edit: ${JSON.stringify(announced)}`);
    assert(/fits|does not fit/.test(announced[0]), `announced: ${announced[0]}`);
    // An invalid value keeps the last valid results on screen, says why, and is not announced as results.
    await page.focus(field);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('0');
    await page.keyboard.press('Enter');
    await settle(page);
    const invalid = await page.getAttribute(field, 'aria-invalid');
    assert(invalid === 'true', 'an invalid layer count is not marked aria-invalid');
    const desc = await page.getAttribute(field, 'aria-description');
    assert(/layers/i.test(desc || '') || /must/.test(desc || ''), `the field does not say why: ${desc}`);
    assert(await t.rect('verdict'), 'the last valid verdict is not kept while a field is invalid');
    await noProblems(page, problems);
    await context.close();
  }],
];
