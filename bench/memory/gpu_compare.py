#!/usr/bin/env python3
"""Compares vramcalc with the H200 measurements of bench/memory/gpu_measure.py.

Maps each measured case to the vramcalc scenario that states the same settings (framework hf:
eager kernels and the standard fp32-upcast loss of transformers' ForCausalLMLoss; 1 GPU; the
measured CUDA context), runs the CLI and prints, per case, peak allocated, peak reserved and the
device total against the measurement, plus the step time against the predicted throughput model.
With --cases it prints the grade-A entries for tests/data/memory/measured_cases.json instead, with
--step-cases tests/data/throughput/h200_hf_steps.json.

Usage: python3 bench/memory/gpu_compare.py RESULTS.json [path/to/vramcalc] [--cases | --step-cases]
"""
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GIB = 2 ** 30
PRESET = {'llama-3.2-1b': 'llama-3.2-1b', 'llama-3.2-3b': 'llama-3.2-3b', 'llama-3.1-8b': 'llama-3.1-8b',
          'qwen2.5-1.5b': 'qwen2.5-1.5b', 'qwen2.5-7b': 'qwen2.5-7b', 'gpt2-medium': 'gpt2-medium'}
LORA_TARGETS = {('q_proj', 'k_proj', 'v_proj', 'o_proj'): 'attention',
                ('q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'): 'all_linear'}


def scenario_for(result, header):
    case = {'method': 'full', 'precision': 'bf16', 'gc': False, 'attn': 'sdpa', 'opt': 'foreach', **result['case']}
    training = {
        'framework': 'hf', 'method': case['method'], 'precision': case['precision'] if case['method'] == 'full' else 'bf16',
        'micro_batch_size': case['b'], 'seq_len': case['s'], 'grad_accum_steps': 1, 'global_batch_size': 0,
        'recompute': 'full' if case['gc'] else 'none', 'flash_attention': case['attn'] != 'eager',
        'optimizer': 'adamw', 'optimizer_impl': case['opt'], 'kernels': 'eager', 'loss': 'standard',
        # GPT-2's config has dropout 0.1 (embeddings, attention, residual); the Llama/Qwen configs 0.
        'dropout': case['model'] == 'gpt2-medium',
    }
    if case['method'] == 'lora':
        training.update(lora_rank=case['rank'], lora_targets=LORA_TARGETS[tuple(case['targets'])],
                        lora_dropout=case['dropout'], adapter_dtype='fp32')
    hardware = {'gpu': 'H200', 'cuda_context_gib': header['used_by_context_bytes'] / GIB,
                'throughput_model': 'predicted'}
    return {'model': {'preset': PRESET[case['model']]}, 'training': training, 'hardware': hardware,
            'parallel': {'num_gpus': 1}}


def estimate(cli, scenario):
    run = subprocess.run([cli, '--config', '-', '--json'], input=json.dumps(scenario), capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f'vramcalc rejected {scenario}: {run.stderr}')
    return json.loads(run.stdout)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    data = json.load(open(args[0]))
    cli = args[1] if len(args) > 1 else os.path.join(ROOT, 'build-native', 'src', 'cli', 'vramcalc')
    header = data['header']
    rows, cases = [], []
    for r in data['results']:
        if 'error' in r or 'skipped' in r:
            continue
        sc = scenario_for(r, header)
        out = estimate(cli, sc)
        m = out['memory_per_gpu_bytes']
        rows.append((r['case']['id'], r['peak_allocated'], m['peak_allocated'], r['peak_reserved'], m['peak_reserved'],
                     r['device_used_at_end'], m['total'], m['peak_phase'], r['params_total'], out['parameters']['total'],
                     r['step_seconds_median'], out['performance']['step_seconds']))
        cases.append((r, sc, out))
    if '--cases' in sys.argv:
        print(json.dumps([case_entry(r, sc, header) for r, sc, _ in cases], indent=1, ensure_ascii=False))
        return
    if '--step-cases' in sys.argv:
        print(json.dumps({'about': 'Step times of Hugging Face training steps measured on one H200 by '
                                   'bench/memory/gpu_measure.py (median of steps 2-4), with the scenario that states '
                                   'the same settings (bench/memory/gpu_compare.py). Not used to fit any constant.',
                          'source': 'bench/memory/gpu_results_h200_2026-11-30.json', 'header': header,
                          'cases': [{'id': 'h200-hf-' + r['case']['id'], 'scenario': sc,
                                     'measured_step_seconds': r['step_seconds_median']} for r, sc, _ in cases]},
                         indent=1))
        return
    print('| case | allocated GiB (measured → predicted) | error | reserved GiB | error | device GiB | error | '
          'peak phase | step s (measured → predicted) | error |')
    print('|---|---:|---:|---:|---:|---:|---:|---|---:|---:|')
    errors = {'allocated': [], 'reserved': [], 'device': [], 'step time': []}
    for cid, ma, pa, mr, pr, md, pd, phase, n_meas, n_pred, tm, tp in rows:
        ea, er, ed, et = (pa - ma) / ma, (pr - mr) / mr, (pd - md) / md, (tp - tm) / tm
        for k, e in zip(errors, (ea, er, ed, et)):
            errors[k].append(e)
        flag = '' if n_meas == n_pred else f' (parameters {n_meas:,} measured, {n_pred:,} predicted)'
        print(f'| {cid}{flag} | {ma / GIB:.2f} → {pa / GIB:.2f} | {100 * ea:+.1f} % | {mr / GIB:.2f} → {pr / GIB:.2f} | '
              f'{100 * er:+.1f} % | {md / GIB:.2f} → {pd / GIB:.2f} | {100 * ed:+.1f} % | {phase} | '
              f'{tm:.3f} → {tp:.3f} | {100 * et:+.0f} % |')
    print()
    for k, v in errors.items():
        a = [abs(x) for x in v]
        print(f'{k}: median |error| {100 * statistics.median(a):.1f} %, max {100 * max(a):.1f} %, '
              f'mean signed {100 * statistics.mean(v):+.1f} %')


def case_entry(r, sc, header):
    c = r['case']
    return {
        'id': 'h200-hf-' + c['id'],
        'grade': 'A',
        'source': {
            'title': f"vramcalc's own measurement: bench/memory/gpu_measure.py on one {header['gpu']}, {header['date']}",
            'url': '../bench/memory/gpu_results_h200_2026-11-30.json',
            'quote': f"torch {header['torch']}, transformers {header['transformers']}, peft {header['peft']}; "
                     f"torch.cuda.max_memory_allocated over {len(r['steps'])} steps: {r['peak_allocated']} bytes; "
                     f"max_memory_reserved: {r['peak_reserved']} bytes",
        },
        'settings_from': 'the harness itself (every setting is in the case definition of gpu_measure.py)',
        'notes': 'Random weights from the published architecture, random tokens, plain loop: forward with labels, '
                 'backward, AdamW step, zero_grad(set_to_none=True). Not used to fit any constant.',
        'scenario': sc,
        'measured': {'kind': 'allocated', 'bytes': r['peak_allocated']},
        'measured_secondary': {'kind': 'reserved', 'bytes': r['peak_reserved']},
    }


if __name__ == '__main__':
    main()
