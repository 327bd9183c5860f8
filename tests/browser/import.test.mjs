// Import on the page (docs/keyboard.md, "Import"): a real Hugging Face config.json pasted anywhere
// or dropped as a file sets the model (published parameter counts: tests/data/hf/README.md), a
// DeepSpeed config sets ZeRO and offload, the Import button's file picker reads a file, and a
// Hugging Face model id is fetched client-side (the request is mocked: success, gated, offline).
import fs from 'node:fs';
import path from 'node:path';
import { openPage, settle, test, assert, noProblems, root, saveShot } from './lib.mjs';

const hf = (name) => fs.readFileSync(path.join(root, 'tests', 'data', 'hf', `${name}.json`), 'utf8');
const ds = (name) => fs.readFileSync(path.join(root, 'tests', 'fuzz', 'corpus', 'fuzz_import_deepspeed', `${name}.json`), 'utf8');

const report = (page) => page.evaluate(() => {
  const el = document.querySelector('[data-id="import_report"]');
  return el ? `${el.textContent} ${el.getAttribute('aria-description') || ''}` : '';
});
// Waits for the import report to say something other than `before` (and not "Fetching…").
async function imported(page, before = '') {
  await page.waitForFunction((b) => {
    const el = document.querySelector('[data-id="import_report"]');
    return el && !/^Fetching/.test(el.textContent) && el.textContent !== b;
  }, before, { timeout: 20000 });
  await settle(page);
}
const reportTitle = (page) => page.evaluate(() => {
  const el = document.querySelector('[data-id="import_report"]');
  return el ? el.textContent : '';
});

export const tests = [
  ['import: a real config.json pasted anywhere sets the model (Llama-3-8B: 8,030,261,248 parameters)', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#v=3&N=16&b=2');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
    await settle(page);
    const t = test(page);
    await page.evaluate((text) => navigator.clipboard.writeText(text), hf('llama3_8b'));
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await page.keyboard.press('Control+V');
    await imported(page);
    const est = await t.estimate();
    assert(est.parameters.total === 8030261248, `parameters after the paste: ${est.parameters.total}`);
    assert(est.scenario.model.hidden_size === 4096 && est.scenario.model.num_kv_heads === 8, 'architecture not imported');
    assert(est.scenario.parallel.num_gpus === 16 && est.scenario.training.micro_batch_size === 2, 'the rest of the scenario changed');
    const text = await report(page);
    assert(/^Imported a Hugging Face config/.test(text), `report: ${text}`);
    assert(/mp=llama-3-8b/.test(await t.link()), `the imported preset architecture is not linked as the preset: ${await t.link()}`);
    await saveShot(page, 'import-pasted');
    await noProblems(page, problems);
    await context.close();
  }],

  ['import: dropping a config.json file, then a DeepSpeed config, sets the model and then ZeRO and offload', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html');
    await settle(page);
    const t = test(page);
    const drop = (name, text) => page.evaluate(([n, s]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([s], n, { type: 'application/json' }));
      const canvas = document.getElementById('canvas');
      canvas.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      canvas.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, [name, text]);
    await drop('config.json', hf('mistral_7b'));
    await imported(page);
    let est = await t.estimate();
    assert(est.parameters.total === 7241732096, `Mistral-7B parameters after the drop: ${est.parameters.total}`);
    assert(/config\.json \(dropped\)/.test(await report(page)), `report: ${await report(page)}`);
    let title = await reportTitle(page);
    await drop('ds_config.json', ds('zero3_offload'));
    await imported(page, title);
    assert(/DeepSpeed/.test(await report(page)), `report: ${await report(page)}`);
    est = await t.estimate();
    assert(est.scenario.parallel.zero_stage === 3 && est.scenario.parallel.offload_optimizer === true, 'ZeRO-3 + offload not imported');
    assert(est.scenario.training.micro_batch_size === 4 && est.scenario.training.precision === 'mixed_bf16', 'batch/precision not imported');
    assert(est.parameters.total === 7241732096, 'the DeepSpeed config changed the model');
    // Not a config at all: said, nothing changed.
    const link = await t.link();
    title = await reportTitle(page);
    await drop('notes.json', '{"hello": "world"}');
    await imported(page, title);
    assert(/^Could not import/.test(await report(page)), `report: ${await report(page)}`);
    assert((await t.link()) === link, 'a file that is no config changed the scenario');
    await noProblems(page, problems);
    await context.close();
  }],

  ['import: the Import button opens a file picker whose file is read', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html');
    await settle(page);
    const chooser = page.waitForEvent('filechooser');
    await page.evaluate(() => document.querySelector('[data-id="import"]').click());
    const files = await chooser;
    await files.setFiles({ name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(hf('gpt2')) });
    await imported(page);
    const est = await test(page).estimate();
    assert(est.parameters.total === 124439808, `GPT-2 parameters after the picker: ${est.parameters.total}`);
    assert(est.scenario.training.seq_len === 1024, 'GPT-2\'s 1,024 learned positions did not lower the sequence');
    await noProblems(page, problems);
    await context.close();
  }],

  ['import: a Hugging Face model id is fetched in the browser (mocked); gated and offline are said clearly', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html');
    await settle(page);
    const t = test(page);
    const asked = [];
    let mode = 'ok';
    await context.route('https://huggingface.co/**', (route) => {
      asked.push(route.request().url());
      if (mode === 'ok') return route.fulfill({ status: 200, contentType: 'application/json', body: hf('qwen25_7b'), headers: { 'access-control-allow-origin': '*' } });
      if (mode === 'gated') return route.fulfill({ status: 401, body: 'unauthorized', headers: { 'access-control-allow-origin': '*' } });
      return route.abort('internetdisconnected');
    });
    const fetchId = async (id) => {
      const before = await reportTitle(page);
      await page.evaluate(() => document.querySelector('[data-id="model_picker"]').click());
      await page.waitForSelector('[data-id="model_picker:search"]', { timeout: 10000 });
      await page.focus('[data-id="model_picker:search"]');
      await page.keyboard.type(id, { delay: 20 });
      await page.waitForFunction(() => [...document.querySelectorAll('[role=option]')].some((o) => /^Fetch /.test(o.textContent)), null, { timeout: 10000 });
      await page.evaluate(() => [...document.querySelectorAll('[role=option]')].find((o) => /^Fetch /.test(o.textContent)).click());
      await imported(page, before);
    };
    await fetchId('Qwen/Qwen2.5-7B');
    assert(asked[0] === 'https://huggingface.co/Qwen/Qwen2.5-7B/resolve/main/config.json', `fetched ${asked[0]}`);
    const est = await t.estimate();
    assert(est.parameters.total === 7615616512, `Qwen2.5-7B parameters: ${est.parameters.total}`);
    mode = 'gated';
    await fetchId('meta-llama/Llama-3.1-8B');
    assert(/private or gated/.test(await report(page)), `gated: ${await report(page)}`);
    mode = 'offline';
    await fetchId('org/model');
    assert(/could not be reached/.test(await report(page)), `offline: ${await report(page)}`);
    assert((await t.estimate()).parameters.total === 7615616512, 'a failed fetch changed the model');
    // The failed fetches log a network error in the console; nothing else may.
    const other = problems.filter((p) => !/Failed to load resource|net::ERR_INTERNET_DISCONNECTED|401/.test(p));
    assert(other.length === 0, other.join(' | '));
    await context.close();
  }],
];
