#!/usr/bin/env python3
"""Peak GPU memory and step time of Hugging Face training steps, measured on a CUDA GPU.

Each case builds its model from the published architecture (random weights, nothing downloaded),
trains a few optimizer steps on random tokens with a plain PyTorch loop (what the HF Trainer does
per step: forward with labels, backward, optimizer step, zero_grad(set_to_none=True)) and records
PyTorch's peak allocated and reserved bytes, the memory the device reports in use (CUDA context
included), the live bytes after the forward pass, parameter counts and the median step time.
Not part of CI (needs a GPU); the results it wrote are committed as bench/memory/gpu_results_*.json
and compared with vramcalc in tests/data/memory/measured_cases.json and docs/accuracy.md.

Usage: python3 bench/memory/gpu_measure.py --out results.json [--deadline SECONDS] [--only ID ...]
"""
import argparse
import gc
import json
import statistics
import sys
import time
import traceback

import torch

# Published architectures (Hugging Face config.json of each model).
MODELS = {
    'llama-3.2-1b': ('llama', dict(vocab_size=128256, hidden_size=2048, intermediate_size=8192, num_hidden_layers=16,
                                   num_attention_heads=32, num_key_value_heads=8, head_dim=64,
                                   max_position_embeddings=131072, rms_norm_eps=1e-5, rope_theta=500000.0,
                                   tie_word_embeddings=True)),
    'llama-3.2-3b': ('llama', dict(vocab_size=128256, hidden_size=3072, intermediate_size=8192, num_hidden_layers=28,
                                   num_attention_heads=24, num_key_value_heads=8, head_dim=128,
                                   max_position_embeddings=131072, rms_norm_eps=1e-5, rope_theta=500000.0,
                                   tie_word_embeddings=True)),
    'llama-3.1-8b': ('llama', dict(vocab_size=128256, hidden_size=4096, intermediate_size=14336, num_hidden_layers=32,
                                   num_attention_heads=32, num_key_value_heads=8, head_dim=128,
                                   max_position_embeddings=131072, rms_norm_eps=1e-5, rope_theta=500000.0,
                                   tie_word_embeddings=False)),
    'qwen2.5-1.5b': ('qwen2', dict(vocab_size=151936, hidden_size=1536, intermediate_size=8960, num_hidden_layers=28,
                                   num_attention_heads=12, num_key_value_heads=2, max_position_embeddings=131072,
                                   rms_norm_eps=1e-6, rope_theta=1000000.0, tie_word_embeddings=True)),
    'qwen2.5-7b': ('qwen2', dict(vocab_size=152064, hidden_size=3584, intermediate_size=18944, num_hidden_layers=28,
                                 num_attention_heads=28, num_key_value_heads=4, max_position_embeddings=131072,
                                 rms_norm_eps=1e-6, rope_theta=1000000.0, tie_word_embeddings=False)),
    'gpt2-medium': ('gpt2', dict(vocab_size=50257, n_positions=1024, n_embd=1024, n_layer=24, n_head=16)),
}

# id, model, precision (bf16: pure bf16 weights and AdamW states; amp_bf16: fp32 weights under
# torch.autocast(bf16); fp32), method (full | lora), micro-batch, sequence, gradient checkpointing,
# attention implementation, AdamW implementation, LoRA rank/targets/dropout. Most informative first.
LLAMA_ATTN = ['q_proj', 'k_proj', 'v_proj', 'o_proj']
LLAMA_ALL = LLAMA_ATTN + ['gate_proj', 'up_proj', 'down_proj']
CASES = [
    dict(id='llama32-1b-bf16-b8-s2048-foreach', model='llama-3.2-1b', precision='bf16', b=8, s=2048),
    dict(id='llama31-8b-lora16-attn-d05-b4-s4096-gc', model='llama-3.1-8b', method='lora', b=4, s=4096, gc=True,
         rank=16, targets=LLAMA_ATTN, dropout=0.05),
    dict(id='llama32-3b-bf16-b4-s4096-gc-foreach', model='llama-3.2-3b', precision='bf16', b=4, s=4096, gc=True),
    dict(id='llama31-8b-bf16-b1-s4096-gc-fused', model='llama-3.1-8b', precision='bf16', b=1, s=4096, gc=True,
         opt='fused'),
    dict(id='llama32-1b-amp-b4-s2048-fused', model='llama-3.2-1b', precision='amp_bf16', b=4, s=2048, opt='fused'),
    dict(id='llama31-8b-lora16-attn-d05-b2-s4096', model='llama-3.1-8b', method='lora', b=2, s=4096,
         rank=16, targets=LLAMA_ATTN, dropout=0.05),
    dict(id='qwen25-7b-lora16-attn-d05-b4-s4096-gc', model='qwen2.5-7b', method='lora', b=4, s=4096, gc=True,
         rank=16, targets=LLAMA_ATTN, dropout=0.05),
    dict(id='llama32-3b-bf16-b2-s4096-fused', model='llama-3.2-3b', precision='bf16', b=2, s=4096, opt='fused'),
    dict(id='llama31-8b-lora64-all-d0-b4-s2048', model='llama-3.1-8b', method='lora', b=4, s=2048,
         rank=64, targets=LLAMA_ALL, dropout=0.0),
    dict(id='gpt2m-fp32-eager-b8-s1024-foreach', model='gpt2-medium', precision='fp32', b=8, s=1024, attn='eager'),
    dict(id='llama32-1b-bf16-eager-b4-s2048-fused', model='llama-3.2-1b', precision='bf16', b=4, s=2048,
         attn='eager', opt='fused'),
    dict(id='qwen25-15b-bf16-b8-s2048-fused', model='qwen2.5-1.5b', precision='bf16', b=8, s=2048, opt='fused'),
    dict(id='llama32-1b-bf16-b8-s2048-gc-fused', model='llama-3.2-1b', precision='bf16', b=8, s=2048, gc=True,
         opt='fused'),
    dict(id='llama32-3b-amp-b2-s2048-gc-fused', model='llama-3.2-3b', precision='amp_bf16', b=2, s=2048, gc=True,
         opt='fused'),
]
DEFAULTS = dict(method='full', precision='bf16', gc=False, attn='sdpa', opt='foreach', steps=4)


def build_model(case):
    import transformers
    family, arch = MODELS[case['model']]
    config_class = {'llama': transformers.LlamaConfig, 'qwen2': transformers.Qwen2Config,
                    'gpt2': transformers.GPT2Config}[family]
    model_class = {'llama': transformers.LlamaForCausalLM, 'qwen2': transformers.Qwen2ForCausalLM,
                   'gpt2': transformers.GPT2LMHeadModel}[family]
    config = config_class(**arch, attn_implementation=case['attn'])
    config.use_cache = False
    weight_dtype = torch.float32 if case['precision'] in ('fp32', 'amp_bf16') else torch.bfloat16
    previous = torch.get_default_dtype()
    torch.set_default_dtype(weight_dtype)
    try:
        with torch.device('cuda'):
            model = model_class(config)
    finally:
        torch.set_default_dtype(previous)
    model.to(dtype=weight_dtype)
    if getattr(model.config, '_attn_implementation', None) != case['attn'] and hasattr(model, 'set_attn_implementation'):
        model.set_attn_implementation(case['attn'])
    if case['gc']:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={'use_reentrant': False})
    total = sum(p.numel() for p in model.parameters())
    if case['method'] == 'lora':
        import peft
        lora = peft.LoraConfig(r=case['rank'], lora_alpha=2 * case['rank'], lora_dropout=case['dropout'],
                               target_modules=case['targets'], task_type='CAUSAL_LM')
        model = peft.get_peft_model(model, lora)
    model.train()
    return model, config, total


def run_case(case):
    case = {**DEFAULTS, **case}
    torch.manual_seed(0)
    model, config, params_total = build_model(case)
    trainable = [p for p in model.parameters() if p.requires_grad]
    fused = case['opt'] == 'fused'
    optimizer = torch.optim.AdamW(trainable, lr=1e-5, fused=True if fused else None, foreach=None if fused else True)
    vocab = config.vocab_size
    tokens = torch.randint(0, vocab, (case['b'], case['s']), device='cuda')
    autocast = case['precision'] == 'amp_bf16'
    gc.collect()
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    before_training = torch.cuda.memory_allocated()
    steps = []
    for _ in range(case['steps']):
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        start = time.perf_counter()
        live_before = torch.cuda.memory_allocated()
        with torch.autocast('cuda', dtype=torch.bfloat16, enabled=autocast):
            loss = model(input_ids=tokens, labels=tokens, use_cache=False).loss
        live_after_forward = torch.cuda.memory_allocated()
        loss.backward()
        live_after_backward = torch.cuda.memory_allocated()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        del loss
        torch.cuda.synchronize()
        steps.append(dict(seconds=time.perf_counter() - start, peak_allocated=torch.cuda.max_memory_allocated(),
                          peak_reserved=torch.cuda.max_memory_reserved(), live_before=live_before,
                          live_after_forward=live_after_forward, live_after_backward=live_after_backward))
    free, device_total = torch.cuda.mem_get_info()
    result = dict(case=case, attn_implementation=getattr(config, '_attn_implementation', None),
                  params_total=params_total, params_trainable=sum(p.numel() for p in trainable),
                  allocated_before_training=before_training,
                  peak_allocated=max(s['peak_allocated'] for s in steps),
                  peak_reserved=max(s['peak_reserved'] for s in steps),
                  device_used_at_end=device_total - free, reserved_at_end=torch.cuda.memory_reserved(),
                  step_seconds_median=statistics.median(s['seconds'] for s in steps[1:]),
                  tokens_per_step=case['b'] * case['s'], steps=steps)
    del model, optimizer, trainable, tokens
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--out', required=True)
    parser.add_argument('--deadline', type=float, default=1e9, help='start no case after this many seconds')
    parser.add_argument('--only', nargs='*')
    args = parser.parse_args()
    started = time.time()
    import transformers
    try:
        import peft
        peft_version = peft.__version__
    except ImportError:
        peft_version = None
    torch.cuda.init()
    torch.zeros(1, device='cuda')
    free, total = torch.cuda.mem_get_info()
    header = dict(gpu=torch.cuda.get_device_name(), device_total_bytes=total, used_by_context_bytes=total - free,
                  torch=torch.__version__, cuda=torch.version.cuda, transformers=transformers.__version__,
                  peft=peft_version, date=time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()))
    print(json.dumps(header), flush=True)
    results = []
    for case in CASES:
        if args.only and case['id'] not in args.only:
            continue
        if time.time() - started > args.deadline:
            results.append(dict(case=case, skipped='deadline'))
            continue
        t0 = time.time()
        try:
            r = run_case(case)
            print(f"{case['id']}: peak allocated {r['peak_allocated'] / 2**30:.2f} GiB, reserved "
                  f"{r['peak_reserved'] / 2**30:.2f} GiB, device {r['device_used_at_end'] / 2**30:.2f} GiB, "
                  f"step {r['step_seconds_median']:.3f} s, params {r['params_total']:,} "
                  f"(trainable {r['params_trainable']:,}), attn {r['attn_implementation']} "
                  f"[{time.time() - t0:.0f} s]", flush=True)
        except Exception as e:  # an OOM or an API difference: record it, go on with the next case
            r = dict(case=case, error=f'{type(e).__name__}: {e}', traceback=traceback.format_exc())
            print(f"{case['id']}: FAILED {r['error']}\n{r['traceback']}", flush=True)
        results.append(r)
        gc.collect()
        torch.cuda.empty_cache()
        with open(args.out, 'w') as f:
            json.dump(dict(header=header, results=results), f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
