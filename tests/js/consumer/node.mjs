// Node: the installed package, imported by its name.
import createVramcalc from 'vramcalc';

const api = await createVramcalc();
const scenario = JSON.parse(process.argv[2]);
const e = api.estimate(scenario);
console.log(JSON.stringify({ version: api.version, total: e.memory_per_gpu_bytes.total, fits: e.fits,
  parameters: e.parameters.total, link: api.encodeLink(e.scenario) }));
