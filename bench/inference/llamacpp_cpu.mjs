// Measure llama.cpp's load-time buffers (weights, KV cache, compute, output) on CPU through
// node-llama-cpp, for the random-weight GGUF files write_gguf.py makes. Not part of CI.
// Usage: node llamacpp_cpu.mjs --llama-dir DIR --gguf-dir DIR --out FILE [--quick] [--no-speed]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {pathToFileURL} from "node:url";

const args = parseArgs(process.argv.slice(2));
const llamaDir = args["llama-dir"] ?? "/work/scratch/llama";
const ggufDir = args["gguf-dir"] ?? "/work/scratch/gguf";
const outFile = args.out ?? "llamacpp_cpu.json";
const nlc = await import(pathToFileURL(path.join(llamaDir, "node_modules/node-llama-cpp/dist/index.js")).href);
const nlcVersion = JSON.parse(fs.readFileSync(path.join(llamaDir, "node_modules/node-llama-cpp/package.json"))).version;
const manifest = JSON.parse(fs.readFileSync(path.join(ggufDir, "manifest.json")));

const MIB = 1024 * 1024;
// one thread: with 2 shared cores, ggml's spinning thread pool at 4 threads ran 30x slower
const DECODE_THREADS = Number(args.threads ?? 1);
// ggml bytes per element of the KV cache types (ggml-common.h: q8_0 34 B / 32, q4_0 18 B / 32)
const KV_TYPE_BYTES = {F16: 2, F32: 4, Q8_0: 34 / 32, Q4_0: 18 / 32};

function parseArgs(list) {
    const out = {};
    for (let i = 0; i < list.length; i++) {
        const key = list[i].replace(/^--/, "");
        if (i + 1 < list.length && !list[i + 1].startsWith("--")) out[key] = list[++i];
        else out[key] = true;
    }
    return out;
}

const logLines = [];
const llama = await nlc.getLlama({
    gpu: false, build: "never", logLevel: nlc.LlamaLogLevel.debug,
    logger: (level, message) => logLines.push({level, message: String(message)}),
});
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
async function capture(action) {
    await settle();
    const start = logLines.length;
    let result, error = null;
    try {
        result = await action();
    } catch (e) {
        error = String(e?.message ?? e);
    }
    await settle();
    return {result, error, lines: logLines.slice(start).map((l) => l.message)};
}

// A value printed as "%.2f MiB" (or %.4f) bounds the exact bytes to ± half a unit in the last place.
function mibValue(text) {
    const decimals = (text.split(".")[1] ?? "").length;
    const mib = Number(text);
    const half = 0.5 * 10 ** -decimals * MIB;
    return {mib, printed_decimals: decimals, bytes_min: Math.ceil(mib * MIB - half), bytes_max: Math.floor(mib * MIB + half)};
}

function matchAll(lines, regex) {
    return lines.map((l) => l.match(regex)).filter(Boolean);
}

function parseModelLines(lines) {
    return {
        model_buffers: matchAll(lines, /load_tensors:\s+(\S+) model buffer size =\s+([\d.]+) MiB/)
            .map((m) => ({buffer: m[1], ...mibValue(m[2])})),
        file_size_line: lines.find((l) => l.includes("file size")) ?? null,
        n_embd_k_gqa: Number(lines.find((l) => /print_info: n_embd_k_gqa/.test(l))?.split("=")[1]),
        n_embd_v_gqa: Number(lines.find((l) => /print_info: n_embd_v_gqa/.test(l))?.split("=")[1]),
        n_swa: Number(lines.find((l) => /print_info: n_swa /.test(l))?.split("=")[1]),
        model_params_line: lines.find((l) => l.includes("model params")) ?? null,
    };
}

function contextParam(lines, name) {
    const line = lines.find((l) => new RegExp(`llama_context: ${name}\\s+=`).test(l));
    return line ? line.split("=")[1].trim() : null;
}

function parseContextLines(lines) {
    const kvCaches = matchAll(lines,
        /llama_kv_cache: size =\s+([\d.]+) MiB \(\s*(\d+) cells,\s+(\d+) layers,\s+(\d+)\/(\d+) seqs\), K \((\w+)\):\s+([\d.]+) MiB, V \((\w+)\):\s+([\d.]+) MiB/)
        .map((m) => ({total: mibValue(m[1]), cells: Number(m[2]), layers: Number(m[3]), seqs: Number(m[4]),
            streams: Number(m[5]), k_type: m[6], k: mibValue(m[7]), v_type: m[8], v: mibValue(m[9])}));
    const iswa = matchAll(lines, /creating\s+(non-SWA|SWA) KV cache, size = (\d+) cells/)
        .map((m) => ({cache: m[1], cells: Number(m[2])}));
    iswa.forEach((c, i) => { if (kvCaches[i]) kvCaches[i].cache = c.cache; });
    const last = (regex) => matchAll(lines, regex).map((m) => mibValue(m[1])).at(-1) ?? null;
    return {
        n_ctx: Number(contextParam(lines, "n_ctx")), n_ctx_seq: Number(contextParam(lines, "n_ctx_seq")),
        n_batch: Number(contextParam(lines, "n_batch")), n_ubatch: Number(contextParam(lines, "n_ubatch")),
        flash_attn: contextParam(lines, "flash_attn"), n_outputs_max: Number(contextParam(lines, "n_outputs_max")),
        output_buffer: last(/output buffer size =\s+([\d.]+) MiB/),
        kv_buffers: matchAll(lines, /llama_kv_cache:\s+(\S+) KV buffer size =\s+([\d.]+) MiB/)
            .map((m) => ({buffer: m[1], ...mibValue(m[2])})),
        kv_caches: kvCaches,
        compute_buffer: last(/sched_reserve:\s+\S+ compute buffer size =\s+([\d.]+) MiB/),
        graph_nodes: lines.find((l) => l.includes("graph nodes"))?.split("=")[1].trim() ?? null,
        graph_splits: Number(lines.find((l) => l.includes("graph splits"))?.split("=")[1]),
        warnings: lines.filter((l) => /warn|error|fail/i.test(l) && !/^\[?debug/.test(l)).slice(0, 8),
    };
}

// llama.cpp's own KV sizing, written out to compare with what it printed:
// cells · streams · layers · (n_embd_k_gqa · bytes(K) + n_embd_v_gqa · bytes(V)) per cache.
function kvFormulaCheck(parsed, model) {
    return parsed.kv_caches.map((c) => {
        const perCell = model.n_embd_k_gqa * KV_TYPE_BYTES[c.k_type.toUpperCase()] +
            model.n_embd_v_gqa * KV_TYPE_BYTES[c.v_type.toUpperCase()];
        const formula = c.cells * c.streams * c.layers * perCell;
        return {cache: c.cache ?? "all", cells: c.cells, streams: c.streams, layers: c.layers, formula_bytes: formula,
            printed_total_within_rounding: formula >= c.total.bytes_min - 1 && formula <= c.total.bytes_max + 1};
    });
}

// K/V cache type pairs; a quantized V cache needs flash attention (llama_init_from_model refuses it otherwise)
const KV_ALL = ["F16/F16", "Q8_0/F16", "Q4_0/F16", "Q8_0/Q8_0", "Q4_0/Q4_0", "F32/F32"];

// memory_breakdown is KV + compute, exact: with the KV formula it gives the compute buffer in bytes,
// checked against the 4-decimal debug line (± 52 bytes).
function computeFromBreakdown(total, parsed, model, compute4dp) {
    const kv = kvFormulaCheck(parsed, model).reduce((sum, c) => sum + c.formula_bytes, 0);
    const compute = total - kv;
    return {kv_bytes_formula_total: kv, compute_bytes_exact: compute,
        compute_consistent_with_4dp_line: compute4dp ? compute >= compute4dp.bytes_min && compute <= compute4dp.bytes_max : null};
}

function gridFor(stem) {
    const quick = Boolean(args.quick);
    if (stem === "llama-gqa-F16")
        return [...grid(quick ? [2048] : [512, 1000, 2048, 3000, 8192], [512, 2048], KV_ALL, [false, true]),
            ...grid([8192], [512], ["F16/F16"], [false, true], {sequences: [2, 4]})];
    if (stem === "gemma3-F16")
        return [...grid(quick ? [2048] : [512, 2048, 8192], [512, 2048], ["F16/F16", "Q8_0/Q8_0"], [false, true]),
            ...grid([8192], [512], ["F16/F16"], [false, true], {swaFullCache: [true]})];
    if (stem.startsWith("llama-gqa") || stem.endsWith("Q8_0") || stem.endsWith("Q4_0"))
        return grid([2048], [512], ["F16/F16"], [false, true]);
    return grid(quick ? [2048] : [512, 2048, 8192], [512, 2048], ["F16/F16", "Q8_0/Q8_0"], [false, true]);
}

function grid(contexts, batches, kvTypes, flash, extra = {}) {
    const out = [];
    for (const contextSize of contexts)
        for (const batchSize of batches)
            for (const kvType of kvTypes)
                for (const flashAttention of flash)
                    for (const sequences of extra.sequences ?? [1])
                        for (const swaFullCache of extra.swaFullCache ?? [false])
                            out.push({contextSize, batchSize, kvType, flashAttention, sequences, swaFullCache});
    return out;
}

async function measureContext(model, settings, modelInfo) {
    const [kType, vType] = settings.kvType.split("/");
    const created = await capture(() => model.createContext({
        contextSize: settings.contextSize, batchSize: settings.batchSize, sequences: settings.sequences,
        swaFullCache: settings.swaFullCache, flashAttention: settings.flashAttention, experimentalKvCacheKeyType: kType,
        experimentalKvCacheValueType: vType, ignoreMemorySafetyChecks: true, threads: 1,
        failedCreationRemedy: false,
    }));
    const run = {settings: {n_ctx_requested: settings.contextSize, n_batch_requested: settings.batchSize,
        n_ubatch_requested: settings.batchSize, kv_cache_type_k: kType, kv_cache_type_v: vType,
        flash_attention: settings.flashAttention, sequences: settings.sequences,
        swa_full_cache: settings.swaFullCache}};
    if (created.error) {
        return {...run, error: created.error, log_tail: created.lines.slice(-6)};
    }
    const context = created.result;
    const breakdown = context._ctx.getMemoryBreakdown();
    const parsed = parseContextLines(created.lines);
    const disposed = await capture(() => context.dispose());
    const exactCompute = matchAll(disposed.lines, /compute buffer size is\s+([\d.]+) MiB/).map((m) => mibValue(m[1]));
    return {...run, context_size_reported: context.contextSize, parsed,
        compute_buffer_at_dispose_4dp: exactCompute.at(-1) ?? null,
        memory_breakdown_exact: {host_context_plus_compute_bytes: breakdown.cpuRam, gpu_bytes: breakdown.gpuVram,
            note: "llama_context::memory_breakdown(): KV cache buffers + compute buffer, exact bytes; the output buffer is not in it"},
        kv_formula_check: kvFormulaCheck(parsed, modelInfo),
        ...computeFromBreakdown(breakdown.cpuRam, parsed, modelInfo, exactCompute.at(-1))};
}

async function measureDecode(model, vocabSize, promptTokens, genTokens) {
    const context = await model.createContext({contextSize: 2048, batchSize: 512, sequences: 1,
        flashAttention: false, performanceTracking: true, ignoreMemorySafetyChecks: true, threads: DECODE_THREADS});
    const sequence = context.getSequence();
    const prompt = Array.from({length: promptTokens}, (_, i) => 300 + (i * 7919) % (Math.min(vocabSize, 32000) - 300));
    const t0 = performance.now();
    let first = null, count = 0;
    for await (const token of sequence.evaluate(prompt, {temperature: 0})) {
        void token;
        if (first === null) first = performance.now();
        if (++count >= genTokens) break;
    }
    const t1 = performance.now();
    const perf = await capture(() => context.printTimings());
    const threads = context.currentThreads;
    await context.dispose();
    const perfLines = perf.lines.filter((l) => l.includes("llama_perf_context_print"));
    const evalLine = perfLines.find((l) => /\beval time/.test(l) && !/prompt/.test(l));
    const promptLine = perfLines.find((l) => /prompt eval time/.test(l));
    const tps = (line) => Number(line?.match(/([\d.]+) tokens per second/)?.[1] ?? NaN);
    return {prompt_tokens: promptTokens, generated_tokens: count, threads_requested: DECODE_THREADS, threads_used: threads,
        wall_prompt_plus_first_token_s: (first - t0) / 1000, wall_decode_rest_s: (t1 - first) / 1000,
        wall_decode_tokens_per_s: (count - 1) / ((t1 - first) / 1000),
        llama_perf_prompt_tokens_per_s: tps(promptLine), llama_perf_decode_tokens_per_s: tps(evalLine),
        llama_perf_lines: perfLines};
}

const results = {
    what: "llama.cpp load-time buffers measured through node-llama-cpp on CPU, random-weight GGUF files from bench/inference/write_gguf.py",
    node_llama_cpp_version: nlcVersion,
    llama_cpp: {...llama.llamaCppRelease, build_type: llama.buildType,
        note: "node-llama-cpp 3.21.1 reports llama.cpp release tag; its bundled source (llama/gitRelease.bundle) is one squashed commit"},
    system_info: llama.systemInfo, cpu_math_cores: llama.cpuMathCores, max_threads: llama.maxThreads,
    host: {cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model, total_mem_bytes: os.totalmem(),
        caveat: "2 cores shared with ~7 other workers: speeds are indicative only"},
    units: "MiB values are as llama.cpp prints them (%.2f, or %.4f in the debug line at dispose); bytes_min/bytes_max bound the exact bytes; memory_breakdown_exact is exact",
    generated_utc: new Date().toISOString(), models: [],
};

// One line per run keeps the file reviewable; still plain JSON.
function serialize(doc) {
    const {models, ...top} = doc;
    const topText = Object.entries(top).map(([key, value]) => ` ${JSON.stringify(key)}: ${JSON.stringify(value)}`);
    const modelText = models.map(({runs = [], ...rest}) => {
        const runText = runs.map((run) => "    " + JSON.stringify(run)).join(",\n");
        return `  {${JSON.stringify(rest).slice(1, -1)},\n   "runs": [\n${runText}\n   ]}`;
    });
    return `{\n${topText.join(",\n")},\n "models": [\n${modelText.join(",\n")}\n ]\n}\n`;
}

const stems = Object.keys(manifest).filter((s) => !args.only || String(args.only).split(",").includes(s));
for (const stem of stems) {
    const info = manifest[stem];
    const modelPath = path.join(ggufDir, stem + ".gguf");
    const loaded = await capture(() => llama.loadModel({modelPath, gpuLayers: 0}));
    const entry = {file: stem + ".gguf", model: info.model, weight_type: info.weight_type, spec: info.spec,
        file_bytes: info.file_bytes, tensor_data_bytes: info.tensor_bytes};
    if (loaded.error) {
        results.models.push({...entry, error: loaded.error, log_tail: loaded.lines.slice(-8)});
        console.log(stem, "load failed:", loaded.error);
        continue;
    }
    const model = loaded.result;
    Object.assign(entry, {model_size_bytes_exact: model.size, ...parseModelLines(loaded.lines), runs: []});
    for (const settings of gridFor(stem)) {
        const run = await measureContext(model, settings, entry);
        entry.runs.push(run);
        const kv = run.parsed?.kv_caches?.map((c) => `${c.cells}c ${c.total.mib}MiB`).join("+") ?? run.error;
        console.log(stem, JSON.stringify(settings), "->", kv, "compute", run.parsed?.compute_buffer?.mib);
    }
    if (!args["no-speed"]) {
        try {
            const repeats = [];
            for (let i = 0; i < 3; i++) repeats.push(await measureDecode(model, info.spec.n_vocab, 128, 65));
            const median = (key) => repeats.map((r) => r[key]).sort((x, y) => x - y)[1];
            entry.decode_speed = {median_of: 3, llama_perf_decode_tokens_per_s: median("llama_perf_decode_tokens_per_s"),
                llama_perf_prompt_tokens_per_s: median("llama_perf_prompt_tokens_per_s"), repeats};
        } catch (e) {
            entry.decode_speed = {error: String(e?.message ?? e)};
        }
        console.log(stem, "decode", entry.decode_speed.llama_perf_decode_tokens_per_s, "tok/s");
    }
    await model.dispose();
    results.models.push(entry);
    fs.writeFileSync(outFile, serialize(results));
}
fs.writeFileSync(outFile, serialize(results));
console.log("wrote", outFile);
