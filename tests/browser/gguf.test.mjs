// A .gguf file dropped on the page (issue 24 item 7): only its header is read (web/main.js importGguf →
// the JS API's importGguf), the model, format and engine are set, and the file's exact tensor bytes
// are the weights (inference.weight_bytes_override). The file is written here, a GGUF v3 header of a
// tiny llama (ggml-common.h: Q4_0 stores 32 weights in 18 bytes, F32 4 bytes each), so the expected
// bytes are summed from this file's own tensor list, not read back from the code under test.
import { openPage, settle, test, assert, noProblems } from './lib.mjs';

const GGML_F32 = 0, GGML_Q4_0 = 2;
const h = 256, layers = 2, heads = 4, kvHeads = 2, ffn = 512, vocab = 1024, headDim = h / heads;
// [name, dims (ne0 first: the input features), ggml type]
const tensors = [
  ['token_embd.weight', [h, vocab], GGML_Q4_0],
  ['output_norm.weight', [h], GGML_F32],
  ['output.weight', [h, vocab], GGML_Q4_0],
];
for (let i = 0; i < layers; i++) {
  tensors.push(
    [`blk.${i}.attn_norm.weight`, [h], GGML_F32],
    [`blk.${i}.attn_q.weight`, [h, heads * headDim], GGML_Q4_0],
    [`blk.${i}.attn_k.weight`, [h, kvHeads * headDim], GGML_Q4_0],
    [`blk.${i}.attn_v.weight`, [h, kvHeads * headDim], GGML_Q4_0],
    [`blk.${i}.attn_output.weight`, [heads * headDim, h], GGML_Q4_0],
    [`blk.${i}.ffn_norm.weight`, [h], GGML_F32],
    [`blk.${i}.ffn_gate.weight`, [h, ffn], GGML_Q4_0],
    [`blk.${i}.ffn_up.weight`, [h, ffn], GGML_Q4_0],
    [`blk.${i}.ffn_down.weight`, [ffn, h], GGML_Q4_0],
  );
}
const elements = (dims) => dims.reduce((a, b) => a * b, 1);
const nbytes = ([, dims, type]) => (type === GGML_F32 ? 4 * elements(dims) : elements(dims) / 32 * 18);
const tensorBytes = tensors.reduce((sum, t) => sum + nbytes(t), 0);
const parameters = tensors.reduce((sum, [, dims]) => sum + elements(dims), 0);

// GGUF v3, little-endian: magic, version, tensor count, metadata count, metadata (key, type, value),
// tensor infos (name, n_dims, dims, type, offset); the data (not written) would follow, 32-aligned.
function ggufHeader() {
  const out = [];
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); out.push(b); };
  const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); out.push(b); };
  const f32 = (v) => { const b = Buffer.alloc(4); b.writeFloatLE(v); out.push(b); };
  const str = (s) => { u64(Buffer.byteLength(s)); out.push(Buffer.from(s)); };
  const kv = [
    ['general.architecture', 8, 'llama'], ['general.name', 8, 'tiny-drop-test'], ['general.file_type', 4, 2],  // MOSTLY_Q4_0
    ['llama.block_count', 4, layers], ['llama.embedding_length', 4, h], ['llama.feed_forward_length', 4, ffn],
    ['llama.attention.head_count', 4, heads], ['llama.attention.head_count_kv', 4, kvHeads],
    ['llama.context_length', 4, 4096], ['llama.vocab_size', 4, vocab], ['llama.attention.layer_norm_rms_epsilon', 6, 1e-5],
  ];
  out.push(Buffer.from('GGUF'));
  u32(3);
  u64(tensors.length);
  u64(kv.length);
  for (const [key, type, value] of kv) {
    str(key);
    u32(type);
    if (type === 8) str(value); else if (type === 6) f32(value); else u32(value);
  }
  let offset = 0;
  for (const t of tensors) {
    const [name, dims, type] = t;
    str(name);
    u32(dims.length);
    for (const d of dims) u64(d);
    u32(type);
    u64(offset);
    offset += Math.ceil(nbytes(t) / 32) * 32;
  }
  return Buffer.concat(out);
}

const report = (page) => page.evaluate(() => {
  const el = document.querySelector('[data-id="import_report"]');
  return el ? `${el.textContent} ${el.getAttribute('aria-description') || ''}` : '';
});
const domText = (page, id) => page.evaluate((i) => {
  const el = document.querySelector(`[data-id="${i}"]`);
  return el ? (el.getAttribute('aria-label') || '') + ' ' + el.textContent + ' ' + (el.getAttribute('aria-description') || '') : null;
}, id);

export const tests = [
  ['import: a .gguf file dropped on the page sets the model, llama.cpp and the file\'s exact weight bytes', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html#v=3&gpu=RTX-4090');
    await settle(page);
    const t = test(page);
    const bytes = ggufHeader();
    await page.evaluate((data) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], 'tiny-drop-test.Q4_0.gguf', { type: 'application/octet-stream' }));
      const canvas = document.getElementById('canvas');
      canvas.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      canvas.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, [...bytes]);
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-id="import_report"]');
      return el && /GGUF|gguf/.test(el.textContent + (el.getAttribute('aria-description') || ''));
    }, null, { timeout: 20000 });
    await settle(page);
    const said = await report(page);
    assert(/tiny-drop-test\.Q4_0\.gguf \(dropped\)/.test(said), `report: ${said}`);
    assert(/GGUF header/.test(said), `report does not name the GGUF header: ${said}`);

    // The imported model: the header's metadata.
    const est = await t.estimate();
    const sc = est.scenario;
    assert(sc.workload === 'inference' && sc.inference.engine === 'llamacpp', `workload ${sc.workload}, engine ${sc.inference.engine}`);
    assert(sc.inference.weight_format === 'gguf-q4_0', `format ${sc.inference.weight_format}`);
    const m = sc.model;
    assert(m.name === 'tiny-drop-test (GGUF)', `model name ${m.name}`);
    assert(m.layers === layers && m.hidden_size === h && m.num_heads === heads && m.num_kv_heads === kvHeads &&
      m.ffn_hidden_size === ffn && m.vocab_size === vocab && !m.tied_embeddings,
      `architecture ${JSON.stringify(m).slice(0, 300)}`);
    assert(est.parameters.total === parameters, `parameters ${est.parameters.total}, the tensors hold ${parameters}`);
    // The weights are the header's tensor sizes, summed: not the Q4_0 recipe's (which writes output.weight in Q8_0).
    assert(sc.inference.weight_bytes_override === tensorBytes, `weight_bytes_override ${sc.inference.weight_bytes_override} vs ${tensorBytes}`);
    assert(est.inference.weights_total_bytes === tensorBytes, `checkpoint ${est.inference.weights_total_bytes} vs ${tensorBytes}`);
    assert(/weight_bytes_override/.test(said), `the report does not say the file's bytes are used: ${said}`);
    // Shown: the weights row of the breakdown says the per-GPU weights (llama.cpp keeps token_embd on the host).
    const w = est.memory_per_gpu_bytes.weights;
    assert(w > 0 && w < tensorBytes, `weights per GPU ${w} of ${tensorBytes}`);
    const breakdown = await domText(page, 'breakdown');
    assert(breakdown && /Weights/.test(breakdown), `breakdown: ${breakdown}`);
    const shown = /Weights\s*([\d.,]+)\s*(B|KiB|MiB|GiB|kB|MB|GB)/.exec(breakdown);
    assert(shown, `no weights value in the breakdown: ${breakdown}`);
    const unit = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, kB: 1e3, MB: 1e6, GB: 1e9 }[shown[2]];
    const value = Number(shown[1].replace(/,/g, '')) * unit;
    assert(Math.abs(value - w) <= 0.01 * w, `the breakdown shows ${shown[1]} ${shown[2]} for ${w} bytes of weights`);
    // The link carries the file's bytes, and reopening it gives the same weights.
    const link = await t.link();
    assert(new RegExp(`(^|&)iwb=${tensorBytes}(&|$)`).test(link), `link lacks iwb=${tensorBytes}: ${link}`);
    await noProblems(page, problems);
    await context.close();
  }],
];
