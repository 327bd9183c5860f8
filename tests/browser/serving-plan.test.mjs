// Issue 24 item 8 in the page: the Serve-mode Plan panel lists the cheapest configurations that
// fit (the same as the core's serving_plan / `vramcalc --workload inference --plan`), "Use" adopts
// one by mouse and by keyboard (scenario, link and verdict follow), the quality floor is a control
// and screen readers read the rows. Numbers come from the test hooks, never from pixels.
import { openPage, settle, test, reveal, clickItem, assert, noProblems } from './lib.mjs';

const plan = (page) => page.evaluate(() => window.vramcalcTest.servingPlan());
// Llama-3.1-70B at 8k × 1 on one H100 in bf16: 141 GB of weights do not fit (docs/serving.md §7).
const LLAMA_70B = '#v=2&mp=llama-3.1-70b&gpu=H100-SXM&wl=inference';
const domText = (page, id) => page.evaluate((i) => {
  const el = document.querySelector(`[data-id="${i}"]`);
  return el ? (el.getAttribute('aria-label') || '') + ' ' + el.textContent : null;
}, id);

export const tests = [
  ['serving plan: the panel lists fitting configurations, cheapest first, and "Use" adopts one', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html' + LLAMA_70B);
    await settle(page);
    const t = test(page);
    assert(!(await t.estimate()).fits, 'one H100 in bf16 does not fit');
    const state = await plan(page);
    assert(state.plans.length === 8, `8 rows shown (got ${state.plans.length})`);
    for (let i = 1; i < state.plans.length; i++)
      assert(state.plans[i].cost_per_million_output_tokens >= state.plans[i - 1].cost_per_million_output_tokens * 0.999, 'cheapest first');
    for (const p of state.plans) assert(p.bits_per_weight >= 4, `the 4-bit floor holds (${p.weight_format} ${p.bits_per_weight})`);
    console.log(`     serving plan search in wasm: ${state.plan_ms} ms (${state.searched} candidates)`);
    const table = await domText(page, 'serving_plan:table');
    assert(table && /per million output tokens/.test(table) && /bits per weight/.test(table), `the table is read out: ${table}`);
    await clickItem(page, 'serving_plan:use:1');
    assert((await t.link()) === state.plans[1].link, 'the link is row 2\'s');
    const after = await t.estimate();
    assert(after.fits, 'the adopted configuration fits');
    // By keyboard: focus row 1's Use and press Enter.
    await reveal(page, 'serving_plan:use:0');
    await page.focus('[data-id="serving_plan:use:0"]');
    await page.keyboard.press('Enter');
    await settle(page);
    assert((await t.link()) === state.plans[0].link, 'Enter on a focused Use adopts row 1');
    await noProblems(page, problems);
    await context.close();
  }],
  ['serving plan: the quality floor is a control; "16-bit" leaves only bf16 rows', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html' + LLAMA_70B);
    await settle(page);
    await clickItem(page, 'serving_plan_floor:16-bit');
    const state = await plan(page);
    assert(state.plans.length > 0, 'some bf16 configuration fits');
    // 141 GB of bf16 weights: one GPU only where it has more (H200 141 GB, B200 180 GB, MI300X 192 GB)
    for (const p of state.plans) {
      assert(p.weight_format === 'bf16', `bf16 only (${JSON.stringify(p)})`);
      assert(p.tensor * p.pipeline >= 2 || ['H200', 'B200', 'MI300X'].includes(p.gpu), `one ${p.gpu} cannot hold 141 GB`);
    }
    await noProblems(page, problems);
    await context.close();
  }],
];
