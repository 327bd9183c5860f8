// The script of api-example.html (a separate file: the page's CSP allows no inline script).
// A minimal page built on the public JS API only: presets fill the selects, every edit calls
// api.estimate(), the URL fragment follows api.encodeLink(), and a shared link is read back with
// api.decodeLink(). Text is written with textContent only, so names from links stay inert.
import createVramcalc from './vramcalc.mjs';

const $ = (id) => document.getElementById(id);
const GiB = 2 ** 30;
const fmtGiB = (bytes) => (bytes / GiB).toLocaleString('en', { maximumFractionDigits: 2, minimumFractionDigits: 2 });
const fmt = (x, digits = 3) => x.toLocaleString('en', { maximumSignificantDigits: digits });

function option(value, text) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  return o;
}

function row(label, bytes) {
  const tr = document.createElement('tr');
  const name = document.createElement('td');
  const value = document.createElement('td');
  name.textContent = label;
  value.textContent = fmtGiB(bytes);
  value.className = 'num';
  tr.append(name, value);
  return tr;
}

const api = await createVramcalc();
const modelPresets = api.modelPresets();
const gpuPresets = api.gpuPresets();
const recompute = api.fields().find((f) => f.path === 'training.recompute');

for (const p of modelPresets) $('model').append(option(p.id, p.name));
for (const g of gpuPresets) $('gpu').append(option(g.id, `${g.id} (${g.memory_gib} GiB)`));
for (const c of recompute.choices) $('recompute').append(option(c, c));

// The state is a whole Scenario; the form edits parts of it.
let scenario = api.defaultScenario();
if (location.hash.length > 1) {
  const decoded = api.decodeLink(location.hash);
  scenario = decoded.scenario;
  if (decoded.issues.length > 0) {
    $('issues').textContent = `The link had problems (defaults used for these): ${decoded.issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`;
  }
}

function showScenario() {
  const preset = modelPresets.find((p) => JSON.stringify(p.model) === JSON.stringify(scenario.model));
  if (!preset && !$('model').querySelector('option[value=""]')) $('model').prepend(option('', `${scenario.model.name} (custom)`));
  $('model').value = preset ? preset.id : '';
  if (!gpuPresets.some((g) => g.id === scenario.hardware.gpu)) $('gpu').prepend(option(scenario.hardware.gpu, `${scenario.hardware.gpu} (custom)`));
  $('gpu').value = scenario.hardware.gpu;
  $('num_gpus').value = scenario.parallel.num_gpus;
  $('zero_stage').value = String(scenario.parallel.zero_stage);
  $('micro_batch_size').value = scenario.training.micro_batch_size;
  $('seq_len').value = scenario.training.seq_len;
  $('recompute').value = scenario.training.recompute;
  $('flash_attention').value = String(scenario.training.flash_attention);
}

function readForm(changed) {
  const next = structuredClone(scenario);
  if (changed === 'model') {
    const preset = modelPresets.find((p) => p.id === $('model').value);
    if (preset) next.model = structuredClone(preset.model);
  }
  if (changed === 'gpu') {
    const gpu = gpuPresets.find((g) => g.id === $('gpu').value);
    if (gpu) {
      Object.assign(next.hardware, { gpu: gpu.id, memory_gib: gpu.memory_gib, peak_tflops: gpu.peak_tflops,
        achieved_tflops: gpu.achieved_tflops, price_per_gpu_hour: gpu.price_per_gpu_hour, mfu: 0 });
    }
  }
  // Numbers from <input type=number>: an empty or partial entry is NaN, which estimate() reports.
  next.parallel.num_gpus = $('num_gpus').valueAsNumber;
  next.parallel.zero_stage = Number($('zero_stage').value);
  next.training.micro_batch_size = $('micro_batch_size').valueAsNumber;
  next.training.seq_len = $('seq_len').valueAsNumber;
  next.training.recompute = $('recompute').value;
  next.training.flash_attention = $('flash_attention').value === 'true';
  return next;
}

function render(candidate) {
  let e;
  try {
    e = api.estimate(candidate);
  } catch (error) {
    // error.issues = [{field, message}]: show them and keep the last valid numbers.
    $('issues').textContent = (error.issues || [{ field: 'error', message: error.message }])
      .map((i) => `${i.field}: ${i.message}`).join('\n');
    document.body.dataset.state = 'invalid';
    return;
  }
  scenario = e.scenario;
  if (document.body.dataset.state) $('issues').textContent = '';
  const m = e.memory_per_gpu_bytes;
  const body = $('memory').tBodies[0];
  body.replaceChildren(
    row('Weights', m.weights), row('Gradients', m.gradients), row('Optimizer states', m.optimizer),
    row('Activations', m.activations), row('Reserved', m.overhead), row('Total', m.total),
    row(`Capacity (${scenario.hardware.gpu})`, e.capacity_bytes));
  $('verdict').className = e.fits ? 'fits' : 'nofit';
  $('verdict').textContent = `${fmt(e.parameters.total / 1e9)}B parameters — ${e.fits ? 'fits' : 'does not fit'}: ` +
    `${fmtGiB(m.total)} of ${fmtGiB(e.capacity_bytes)} GiB per GPU (headroom ${fmtGiB(e.headroom_bytes)} GiB).`;
  $('compute').textContent = `Training on ${fmt(scenario.training.tokens / 1e9)}B tokens: ${fmt(e.compute.total_flops)} FLOPs, ` +
    `${fmt(e.compute.days)} days on ${scenario.parallel.num_gpus} GPUs, ${fmt(e.compute.gpu_hours)} GPU-hours, ` +
    `≈ $${fmt(e.compute.cost)}.`;
  $('warnings').replaceChildren(...e.warnings.map((w) => {
    const li = document.createElement('li');
    li.textContent = w.message;
    return li;
  }));
  const link = api.encodeLink(scenario);
  $('link').textContent = `#${link}`;
  history.replaceState(null, '', `#${link}`);
  $('json').textContent = JSON.stringify(e, null, 2);
  document.body.dataset.state = 'ready';
  document.body.dataset.totalBytes = String(m.total);
  document.body.dataset.parameters = String(e.parameters.total);
}

showScenario();
render(scenario);
$('inputs').addEventListener('input', (event) => render(readForm(event.target.id)));
