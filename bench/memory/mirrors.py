"""Plain-PyTorch mirrors of the Hugging Face Transformers eager modules whose ops create saved tensors.

Mirrored op by op from huggingface/transformers (read at commit 5dd4a63548857797727ae73eeb6a6e886ea02a3e,
v4.48 era, for llama/qwen2; the current gpt2 eager_attention_forward):
  models/llama/modeling_llama.py   LlamaRMSNorm, LlamaRotaryEmbedding, rotate_half, apply_rotary_pos_emb,
                                   LlamaMLP, repeat_kv, eager_attention_forward, LlamaAttention,
                                   LlamaDecoderLayer, LlamaModel (+ _prepare_4d_causal_attention_mask_...)
  models/qwen2/modeling_qwen2.py   same as Llama with q/k/v bias=True, o_proj bias=False
  models/mistral/modeling_mistral.py same saved-tensor structure as Llama (sliding window off)
  models/gpt2/modeling_gpt2.py     Conv1D (pytorch_utils.py), GPT2Attention + eager_attention_forward,
                                   GPT2MLP, GPT2Block, GPT2Model (wte + wpe, embd dropout), tied lm_head
  activations.py                   NewGELUActivation ("gelu_new", the Python expression), SiLU (nn.SiLU)
  loss/loss_utils.py               ForCausalLMLoss: logits.float(), pad labels, cross_entropy(ignore=-100)
  integrations/flash_attention.py  fp32 q/k/v cast to the autocast dtype before flash
  modeling_utils.py                gradient_checkpointing_enable: checkpoint(use_reentrant=True) by default
plus torchtune's CEWithChunkedOutputLoss (modules/loss/ce_chunked_output_loss.py) with the decoder's
chunked_output, and two fused linear+cross-entropy autograd Functions (see FusedLinearCrossEntropy).
No code is copied; the ops and their order are reproduced so that autograd saves the same tensors.
"""
from __future__ import annotations

import math
import weakref
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_map

IGNORE_INDEX = -100


@dataclass
class ModelShape:
    family: str  # llama | qwen2 | gpt2
    hidden: int
    heads: int
    kv_heads: int
    ffn: int
    vocab: int
    layers: int
    max_positions: int = 1024

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads


# --------------------------------------------------------------------------------------------------
# Saved-tensor attribution: a stack of module names, maintained by forward hooks and explicit scopes.
# --------------------------------------------------------------------------------------------------
class Scope:
    stack: list[str] = []

    def __init__(self, name: str):
        self.name = name

    def __enter__(self):
        Scope.stack.append(self.name)

    def __exit__(self, *exc):
        Scope.stack.pop()

    @staticmethod
    def current() -> str:
        return Scope.stack[-1] if Scope.stack else "<top>"


# Tensors kept alive outside autograd's SavedVariables (checkpoint args, SAC cache): the tracker
# in measure.py installs a callback here so they are counted as saved.
EXTERNAL_SAVE_CALLBACK = [None]


def note_external_save(tensor: torch.Tensor, what: str) -> None:
    cb = EXTERNAL_SAVE_CALLBACK[0]
    if cb is not None and isinstance(tensor, torch.Tensor):
        cb(tensor, what)


# --------------------------------------------------------------------------------------------------
# CPU vs CUDA kernel emulation switch. "cpu": plain torch 1.13 CPU behaviour. "cuda": (1) autocast
# follows CUDA's op lists for the ops these models use (pow/rsqrt/exp/log/layer_norm/... to fp32,
# softmax/log_softmax/cumsum/sum without dtype= computed and returned in fp32), (2) dropout saves a
# 1-byte bool mask like CUDA's fused native_dropout instead of CPU's full-width noise tensor.
# --------------------------------------------------------------------------------------------------
KERNEL_EMULATION = ["cpu"]

# PyTorch AMP docs, "CUDA Ops that can autocast to float32" (ops absent from the CPU list only).
CUDA_FP32_OPS = {"pow", "__pow__", "__rpow__", "rsqrt", "exp", "expm1", "log", "log1p", "log2", "log10",
                 "reciprocal", "__rdiv__", "__rtruediv__", "layer_norm", "group_norm", "logsumexp",
                 "softplus", "acos", "asin", "cosh", "sinh", "tan", "erfinv"}
CUDA_FP32_SET_OPT_DTYPE_OPS = {"softmax", "log_softmax", "cumsum", "cumprod", "sum", "prod"}


class CudaAutocastOpLists(TorchFunctionMode):
    """Apply CUDA's autocast fp32 lists on top of CPU autocast (which only casts matmuls to bf16 and
    has no softmax/layer_norm/pow entries). Active only while CPU autocast is enabled."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        name = getattr(func, "__name__", "")
        if torch.is_autocast_cpu_enabled():
            low = (torch.bfloat16, torch.float16)
            if name in CUDA_FP32_OPS:
                args = tree_map(lambda t: t.float() if isinstance(t, torch.Tensor) and t.dtype in low else t, args)
                kwargs = tree_map(lambda t: t.float() if isinstance(t, torch.Tensor) and t.dtype in low else t, kwargs)
            elif name in CUDA_FP32_SET_OPT_DTYPE_OPS and kwargs.get("dtype") is None:
                first = args[0] if args else None
                if isinstance(first, torch.Tensor) and first.dtype in low:
                    kwargs["dtype"] = torch.float32
        return func(*args, **kwargs)


class _CudaLikeDropout(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, p):
        mask = torch.rand(x.shape) >= p  # CUDA native_dropout keeps a bool mask (1 byte/element)
        ctx.save_for_backward(mask)
        ctx.scale = 1.0 / (1.0 - p)
        return x * mask * ctx.scale

    @staticmethod
    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        return grad * mask * ctx.scale, None


class Dropout(nn.Dropout):
    def forward(self, input):
        if KERNEL_EMULATION[0] == "cuda" and self.training and 0 < self.p < 1:
            return _CudaLikeDropout.apply(input, self.p)
        return super().forward(input)


# --------------------------------------------------------------------------------------------------
# Activations (transformers/activations.py)
# --------------------------------------------------------------------------------------------------
class NewGELUActivation(nn.Module):
    """gelu_new: the tanh approximation written as Python ops (each op saves its own tensors)."""

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return 0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (input + 0.044715 * torch.pow(input, 3.0))))


# --------------------------------------------------------------------------------------------------
# Llama / Qwen2 / Mistral
# --------------------------------------------------------------------------------------------------
class LlamaRMSNorm(nn.Module):
    def __init__(self, hidden_size: int, eps: float = 1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states.to(input_dtype)


class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, head_dim: int, base: float = 10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.int64).float() / head_dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self.attention_scaling = 1.0

    @torch.no_grad()
    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        with torch.autocast(device_type="cpu", enabled=False):
            freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
            emb = torch.cat((freqs, freqs), dim=-1)
            cos = emb.cos()
            sin = emb.sin()
        cos = cos * self.attention_scaling
        sin = sin * self.attention_scaling
        return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin, unsqueeze_dim=1):
    cos = cos.unsqueeze(unsqueeze_dim)
    sin = sin.unsqueeze(unsqueeze_dim)
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed, k_embed


class LlamaMLP(nn.Module):
    def __init__(self, hidden: int, ffn: int):
        super().__init__()
        self.gate_proj = nn.Linear(hidden, ffn, bias=False)
        self.up_proj = nn.Linear(hidden, ffn, bias=False)
        self.down_proj = nn.Linear(ffn, hidden, bias=False)
        self.act_fn = nn.SiLU()

    def forward(self, x):
        return self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))


def repeat_kv(hidden_states: torch.Tensor, n_rep: int) -> torch.Tensor:
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)


def llama_eager_attention_forward(module, query, key, value, attention_mask, scaling, dropout=0.0):
    key_states = repeat_kv(key, module.num_key_value_groups)
    value_states = repeat_kv(value, module.num_key_value_groups)
    attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
    if attention_mask is not None:
        causal_mask = attention_mask[:, :, :, : key_states.shape[-2]]
        attn_weights = attn_weights + causal_mask
    attn_weights = F.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
    attn_weights = F.dropout(attn_weights, p=dropout, training=module.training)
    attn_output = torch.matmul(attn_weights, value_states)
    attn_output = attn_output.transpose(1, 2).contiguous()
    return attn_output, attn_weights


class LlamaAttention(nn.Module):
    def __init__(self, shape: ModelShape, attention: str, qkv_bias: bool):
        super().__init__()
        self.head_dim = shape.head_dim
        self.num_key_value_groups = shape.heads // shape.kv_heads
        self.scaling = self.head_dim ** -0.5
        self.attention_dropout = 0.0
        self.attention = attention
        self.q_proj = nn.Linear(shape.hidden, shape.heads * self.head_dim, bias=qkv_bias)
        self.k_proj = nn.Linear(shape.hidden, shape.kv_heads * self.head_dim, bias=qkv_bias)
        self.v_proj = nn.Linear(shape.hidden, shape.kv_heads * self.head_dim, bias=qkv_bias)
        self.o_proj = nn.Linear(shape.heads * self.head_dim, shape.hidden, bias=False)

    def forward(self, hidden_states, position_embeddings, attention_mask):
        input_shape = hidden_states.shape[:-1]
        hidden_shape = (*input_shape, -1, self.head_dim)
        query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        cos, sin = position_embeddings
        query_states, key_states = apply_rotary_pos_emb(query_states, key_states, cos, sin)
        dropout = 0.0 if not self.training else self.attention_dropout
        if self.attention == "flash":
            attn_output = flash_attention_forward(self, query_states, key_states, value_states, dropout, self.scaling)
        else:
            attn_output, _ = llama_eager_attention_forward(
                self, query_states, key_states, value_states, attention_mask, self.scaling, dropout)
        attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        return self.o_proj(attn_output)


class LlamaDecoderLayer(nn.Module):
    def __init__(self, shape: ModelShape, attention: str, qkv_bias: bool):
        super().__init__()
        self.self_attn = LlamaAttention(shape, attention, qkv_bias)
        self.mlp = LlamaMLP(shape.hidden, shape.ffn)
        self.input_layernorm = LlamaRMSNorm(shape.hidden)
        self.post_attention_layernorm = LlamaRMSNorm(shape.hidden)

    def forward(self, hidden_states, attention_mask, position_ids, cache_position, position_embeddings):
        residual = hidden_states
        hidden_states = self.input_layernorm(hidden_states)
        hidden_states = self.self_attn(hidden_states, position_embeddings, attention_mask)
        hidden_states = residual + hidden_states
        residual = hidden_states
        hidden_states = self.post_attention_layernorm(hidden_states)
        hidden_states = self.mlp(hidden_states)
        hidden_states = residual + hidden_states
        return (hidden_states,)


def llama_causal_mask(seq: int, batch: int, dtype, cache_position):
    """LlamaModel._update_causal_mask for eager with attention_mask=None (packed batches):
    _prepare_4d_causal_attention_mask_with_cache_position with target_length = seq + 1."""
    target_length = seq + 1
    min_dtype = torch.finfo(dtype).min
    causal_mask = torch.full((seq, target_length), fill_value=min_dtype, dtype=dtype)
    causal_mask = torch.triu(causal_mask, diagonal=1)
    causal_mask *= torch.arange(target_length) > cache_position.reshape(-1, 1)
    return causal_mask[None, None, :, :].expand(batch, 1, -1, -1)


class LlamaModel(nn.Module):
    def __init__(self, shape: ModelShape, attention: str, recompute: str):
        super().__init__()
        qkv_bias = shape.family == "qwen2"
        self.embed_tokens = nn.Embedding(shape.vocab, shape.hidden)
        self.layers = nn.ModuleList([LlamaDecoderLayer(shape, attention, qkv_bias) for _ in range(shape.layers)])
        self.norm = LlamaRMSNorm(shape.hidden)
        self.rotary_emb = LlamaRotaryEmbedding(shape.head_dim)
        self.attention = attention
        self.recompute = recompute

    def forward(self, input_ids):
        inputs_embeds = self.embed_tokens(input_ids)
        cache_position = torch.arange(0, inputs_embeds.shape[1])
        position_ids = cache_position.unsqueeze(0)
        # flash_attention_2 gets no mask (causal flag); eager builds the 4D additive mask
        causal_mask = None if self.attention == "flash" else llama_causal_mask(
            inputs_embeds.shape[1], inputs_embeds.shape[0], inputs_embeds.dtype, cache_position)
        hidden_states = inputs_embeds
        position_embeddings = self.rotary_emb(hidden_states, position_ids)
        for i, decoder_layer in enumerate(self.layers):
            with Scope(f"model.layers.{i}"):
                hidden_states = run_layer(self.recompute, decoder_layer, hidden_states, causal_mask,
                                          position_ids, cache_position, position_embeddings)[0]
        return self.norm(hidden_states)


# --------------------------------------------------------------------------------------------------
# GPT-2
# --------------------------------------------------------------------------------------------------
class Conv1D(nn.Module):
    def __init__(self, nf: int, nx: int):
        super().__init__()
        self.nf = nf
        self.weight = nn.Parameter(torch.empty(nx, nf))
        self.bias = nn.Parameter(torch.zeros(nf))
        nn.init.normal_(self.weight, std=0.02)

    def forward(self, x):
        size_out = x.size()[:-1] + (self.nf,)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        return x.view(size_out)


def gpt2_eager_attention_forward(module, query, key, value):
    attn_weights = torch.matmul(query, key.transpose(-1, -2))
    attn_weights = attn_weights / torch.full([], value.size(-1) ** 0.5, dtype=attn_weights.dtype, device=attn_weights.device)
    query_length, key_length = query.size(-2), key.size(-2)
    causal_mask = module.bias[:, :, key_length - query_length : key_length, :key_length]
    mask_value = torch.finfo(attn_weights.dtype).min
    mask_value = torch.full([], mask_value, dtype=attn_weights.dtype, device=attn_weights.device)
    attn_weights = torch.where(causal_mask, attn_weights.to(attn_weights.dtype), mask_value)
    attn_weights = F.softmax(attn_weights, dim=-1)
    attn_weights = attn_weights.type(value.dtype)
    attn_weights = module.attn_dropout(attn_weights)
    attn_output = torch.matmul(attn_weights, value)
    attn_output = attn_output.transpose(1, 2)
    return attn_output, attn_weights


class GPT2Attention(nn.Module):
    def __init__(self, shape: ModelShape, attention: str, dropout: float):
        super().__init__()
        n = shape.max_positions
        self.register_buffer("bias", torch.tril(torch.ones((n, n), dtype=torch.bool)).view(1, 1, n, n), persistent=False)
        self.embed_dim = shape.hidden
        self.num_heads = shape.heads
        self.head_dim = shape.head_dim
        self.split_size = shape.hidden
        self.num_key_value_groups = 1
        self.scaling = self.head_dim ** -0.5
        self.attention = attention
        self.c_attn = Conv1D(3 * shape.hidden, shape.hidden)
        self.c_proj = Conv1D(shape.hidden, shape.hidden)
        self.attn_dropout = Dropout(dropout)
        self.resid_dropout = Dropout(dropout)

    def forward(self, hidden_states):
        query_states, key_states, value_states = self.c_attn(hidden_states).split(self.split_size, dim=2)
        shape_kv = (*key_states.shape[:-1], -1, self.head_dim)
        key_states = key_states.view(shape_kv).transpose(1, 2)
        value_states = value_states.view(shape_kv).transpose(1, 2)
        shape_q = (*query_states.shape[:-1], -1, self.head_dim)
        query_states = query_states.view(shape_q).transpose(1, 2)
        if self.attention == "flash":
            dropout = self.attn_dropout.p if self.training else 0.0
            attn_output = flash_attention_forward(self, query_states, key_states, value_states, dropout, self.scaling)
        else:
            attn_output, _ = gpt2_eager_attention_forward(self, query_states, key_states, value_states)
        attn_output = attn_output.reshape(*attn_output.shape[:-2], -1).contiguous()
        attn_output = self.c_proj(attn_output)
        return self.resid_dropout(attn_output)


class GPT2MLP(nn.Module):
    def __init__(self, shape: ModelShape, dropout: float):
        super().__init__()
        self.c_fc = Conv1D(shape.ffn, shape.hidden)
        self.c_proj = Conv1D(shape.hidden, shape.ffn)
        self.act = NewGELUActivation()
        self.dropout = Dropout(dropout)

    def forward(self, hidden_states):
        hidden_states = self.c_fc(hidden_states)
        hidden_states = self.act(hidden_states)
        hidden_states = self.c_proj(hidden_states)
        return self.dropout(hidden_states)


class GPT2Block(nn.Module):
    def __init__(self, shape: ModelShape, attention: str, dropout: float):
        super().__init__()
        self.ln_1 = nn.LayerNorm(shape.hidden, eps=1e-5)
        self.attn = GPT2Attention(shape, attention, dropout)
        self.ln_2 = nn.LayerNorm(shape.hidden, eps=1e-5)
        self.mlp = GPT2MLP(shape, dropout)

    def forward(self, hidden_states):
        residual = hidden_states
        hidden_states = self.ln_1(hidden_states)
        attn_output = self.attn(hidden_states)
        hidden_states = attn_output + residual
        residual = hidden_states
        hidden_states = self.ln_2(hidden_states)
        feed_forward_hidden_states = self.mlp(hidden_states)
        hidden_states = residual + feed_forward_hidden_states
        return (hidden_states,)


class GPT2Model(nn.Module):
    def __init__(self, shape: ModelShape, attention: str, recompute: str, dropout: float = 0.1):
        super().__init__()
        self.wte = nn.Embedding(shape.vocab, shape.hidden)
        self.wpe = nn.Embedding(shape.max_positions, shape.hidden)
        self.drop = Dropout(dropout)
        self.h = nn.ModuleList([GPT2Block(shape, attention, dropout) for _ in range(shape.layers)])
        self.ln_f = nn.LayerNorm(shape.hidden, eps=1e-5)
        self.recompute = recompute

    def forward(self, input_ids):
        position_ids = torch.arange(0, input_ids.shape[-1], dtype=torch.long).unsqueeze(0)
        inputs_embeds = self.wte(input_ids)
        position_embeds = self.wpe(position_ids)
        hidden_states = inputs_embeds + position_embeds.to(inputs_embeds.device)
        hidden_states = self.drop(hidden_states)
        for i, block in enumerate(self.h):
            with Scope(f"transformer.h.{i}"):
                hidden_states = run_layer(self.recompute, block, hidden_states)[0]
        return self.ln_f(hidden_states)


# --------------------------------------------------------------------------------------------------
# Causal LM wrapper: body + lm_head + loss variants
# --------------------------------------------------------------------------------------------------
class CausalLM(nn.Module):
    def __init__(self, shape: ModelShape, attention: str, recompute: str, loss: str, loss_chunks: int,
                 fused_impl: str = "recompute"):
        super().__init__()
        self.shape = shape
        if shape.family == "gpt2":
            self.transformer = GPT2Model(shape, attention, recompute)
            self.lm_head = nn.Linear(shape.hidden, shape.vocab, bias=False)
            self.lm_head.weight = self.transformer.wte.weight  # tie_word_embeddings=True
        else:
            self.model = LlamaModel(shape, attention, recompute)
            self.lm_head = nn.Linear(shape.hidden, shape.vocab, bias=False)  # tie_word_embeddings=False
        self.loss = loss
        self.loss_chunks = loss_chunks
        self.fused_impl = fused_impl

    def body(self):
        return self.transformer if self.shape.family == "gpt2" else self.model

    def forward(self, input_ids):
        """Returns what the loss phase consumes: logits (standard), a list of logit chunks (chunked),
        or the final hidden states (fused: the LM head is inside the loss)."""
        hidden_states = self.body()(input_ids)
        with Scope("lm_head"):
            if self.loss == "standard":
                return self.lm_head(hidden_states)
            if self.loss == "chunked":  # torchtune TransformerDecoder.chunked_output
                return [self.lm_head(chunk) for chunk in hidden_states.chunk(self.loss_chunks, dim=1)]
            return hidden_states

    def compute_loss(self, outputs, labels, num_items_in_batch):
        with Scope("loss"):
            if self.loss == "standard":
                return for_causal_lm_loss(outputs, labels, self.shape.vocab, num_items_in_batch)
            if self.loss == "chunked":
                shifted = torch.hstack((labels[..., 1:], torch.full_like(labels[..., :1], IGNORE_INDEX)))
                return ce_with_chunked_output_loss(outputs, shifted, self.loss_chunks) * (
                    (shifted != IGNORE_INDEX).sum() / num_items_in_batch)
            shifted = torch.hstack((labels[..., 1:], torch.full_like(labels[..., :1], IGNORE_INDEX)))
            hidden = outputs.reshape(-1, outputs.shape[-1])
            fn = FusedLinearCrossEntropyRecompute if self.fused_impl == "recompute" else FusedLinearCrossEntropyLiger
            chunk = fused_chunk_rows(hidden.shape[0], self.shape.hidden, self.shape.vocab)
            return fn.apply(hidden, self.lm_head.weight, shifted.reshape(-1), chunk, num_items_in_batch)


def for_causal_lm_loss(logits, labels, vocab_size, num_items_in_batch):
    """transformers.loss.loss_utils.ForCausalLMLoss + fixed_cross_entropy (reduction='sum' / items,
    as the Trainer passes num_items_in_batch)."""
    logits = logits.float()
    labels = F.pad(labels, (0, 1), value=IGNORE_INDEX)
    shift_labels = labels[..., 1:].contiguous()
    logits = logits.view(-1, vocab_size)
    shift_labels = shift_labels.view(-1)
    loss = F.cross_entropy(logits, shift_labels, ignore_index=IGNORE_INDEX, reduction="sum")
    return loss / num_items_in_batch


def ce_with_chunked_output_loss(logits_chunks, labels, num_output_chunks):
    """torchtune.modules.loss.CEWithChunkedOutputLoss.forward (mean over non-ignored tokens)."""
    total_elements = (labels != IGNORE_INDEX).sum()
    labels = [target_chunk.reshape(-1) for target_chunk in labels.chunk(num_output_chunks, dim=1)]
    logits = [logit_chunk.reshape(-1, logit_chunk.size(-1)) for logit_chunk in logits_chunks]
    total_loss = 0.0
    for logits_chunk, labels_chunk in zip(logits, labels):
        total_loss += F.cross_entropy(logits_chunk.float(), labels_chunk, ignore_index=IGNORE_INDEX, reduction="sum")
    return total_loss / total_elements


def fused_chunk_rows(rows: int, hidden: int, vocab: int) -> int:
    """Liger FusedLinearCrossEntropy chunking: inc_factor = ceil(V/H), chunk = next_pow2(ceil(BT/inc))."""
    inc_factor = -(-vocab // hidden)
    target = -(-rows // inc_factor)
    return 1 << (target - 1).bit_length()


def _lm_head_logits(h_chunk, weight):
    # Inside a custom Function autocast still applies to the matmul (Liger/CCE run under the caller's
    # autocast state): bf16 logits under amp_bf16.
    return h_chunk @ weight.t()


class FusedLinearCrossEntropyRecompute(torch.autograd.Function):
    """Fused LM head + CE that saves hidden states, the head weight and per-row fp32 logsumexp only;
    backward recomputes each chunk's logits (Cut Cross-Entropy style)."""

    @staticmethod
    def forward(ctx, hidden, weight, targets, chunk, num_items):
        lse = torch.empty(hidden.shape[0], dtype=torch.float32)
        loss = torch.zeros((), dtype=torch.float32)
        for start in range(0, hidden.shape[0], chunk):
            end = min(start + chunk, hidden.shape[0])
            logits = _lm_head_logits(hidden[start:end], weight).float()
            lse[start:end] = torch.logsumexp(logits, dim=-1)
            t = targets[start:end]
            valid = t != IGNORE_INDEX
            picked = logits.gather(1, t.clamp(min=0).unsqueeze(1)).squeeze(1)
            loss += ((lse[start:end] - picked) * valid).sum()
            del logits
        ctx.save_for_backward(hidden, weight, targets, lse)
        ctx.chunk = chunk
        ctx.num_items = num_items
        ctx.autocast = (torch.is_autocast_cpu_enabled(), torch.get_autocast_cpu_dtype())
        return loss / num_items

    @staticmethod
    def backward(ctx, grad_output):
        hidden, weight, targets, lse = ctx.saved_tensors
        grad_hidden = torch.empty_like(hidden)
        grad_weight = torch.zeros(weight.shape, dtype=torch.float32)
        scale = grad_output.float() / ctx.num_items
        with torch.autocast("cpu", enabled=ctx.autocast[0], dtype=ctx.autocast[1]):
            for start in range(0, hidden.shape[0], ctx.chunk):
                end = min(start + ctx.chunk, hidden.shape[0])
                h = hidden[start:end]
                logits = _lm_head_logits(h, weight).float()
                grad_logits = torch.exp(logits - lse[start:end, None])
                del logits
                t = targets[start:end]
                valid = (t != IGNORE_INDEX)
                grad_logits[torch.arange(end - start), t.clamp(min=0)] -= 1.0
                grad_logits *= (valid.float() * scale)[:, None]
                g = grad_logits.to(h.dtype if not ctx.autocast[0] else ctx.autocast[1])
                del grad_logits
                grad_hidden[start:end] = g @ weight.to(g.dtype)
                grad_weight += (g.t() @ h.to(g.dtype)).float()
                del g
        return grad_hidden, grad_weight.to(weight.dtype), None, None, None


class FusedLinearCrossEntropyLiger(torch.autograd.Function):
    """Liger-Kernel's LigerFusedLinearCrossEntropyFunction strategy: gradients are computed chunk by
    chunk inside forward and saved (grad_input like hidden, grad_weight like weight); backward only
    scales them by grad_output."""

    @staticmethod
    def forward(ctx, hidden, weight, targets, chunk, num_items):
        grad_input = torch.zeros_like(hidden)
        grad_weight = torch.zeros_like(weight)
        loss = torch.zeros((), dtype=torch.float32)
        compute_dtype = torch.get_autocast_cpu_dtype() if torch.is_autocast_cpu_enabled() else hidden.dtype
        for start in range(0, hidden.shape[0], chunk):
            end = min(start + chunk, hidden.shape[0])
            h = hidden[start:end]
            logits = _lm_head_logits(h, weight).float()
            lse = torch.logsumexp(logits, dim=-1)
            t = targets[start:end]
            valid = t != IGNORE_INDEX
            picked = logits.gather(1, t.clamp(min=0).unsqueeze(1)).squeeze(1)
            loss += ((lse - picked) * valid).sum()
            grad_logits = torch.exp(logits.sub_(lse[:, None]))
            grad_logits[torch.arange(end - start), t.clamp(min=0)] -= 1.0
            grad_logits *= (valid.float() / num_items)[:, None]
            g = grad_logits.to(compute_dtype)
            del grad_logits, logits
            grad_input[start:end] = g @ weight.to(compute_dtype)
            grad_weight += g.t() @ h.to(compute_dtype)
        ctx.save_for_backward(grad_input, grad_weight)
        return loss / num_items

    @staticmethod
    def backward(ctx, grad_output):
        grad_input, grad_weight = ctx.saved_tensors
        return grad_input * grad_output, grad_weight * grad_output, None, None, None


# --------------------------------------------------------------------------------------------------
# FlashAttention-2 emulation: saves exactly q, k, v, out and the fp32 logsumexp (b, a, s).
# --------------------------------------------------------------------------------------------------
FLASH_BLOCK = 64


def _flash_scores(q_blk, k, scale, q_start, causal=True):
    # q_blk (b, kv, g, blk, d) fp32, k (b, kv, 1, s, d) fp32 -> (b, kv, g, blk, s)
    scores = torch.matmul(q_blk, k.transpose(-1, -2)) * scale
    if causal:
        blk, s = q_blk.shape[-2], k.shape[-2]
        rows = torch.arange(q_start, q_start + blk)[:, None]
        cols = torch.arange(s)[None, :]
        scores = scores.masked_fill(cols > rows, float("-inf"))
    return scores


def _dropout_keep(seed, block_index, shape, p):
    gen = torch.Generator().manual_seed(int(seed) * 100003 + block_index)
    return (torch.rand(shape, generator=gen) >= p).float() / (1.0 - p)


class FlashAttentionFunction(torch.autograd.Function):
    """q: (b, s, a, d), k/v: (b, s, kv, d) -> out (b, s, a, d). Computes blockwise over queries without
    keeping any s x s matrix; backward recomputes the probabilities from q, k and the logsumexp."""

    @staticmethod
    def forward(ctx, q, k, v, scale, dropout_p, seed):
        replay = SAC_STATE.take_flash()
        if replay is not None:
            out, lse = replay
        else:
            out, lse = FlashAttentionFunction._forward(q, k, v, scale, dropout_p, seed)
            SAC_STATE.offer_flash(out, lse)
        ctx.save_for_backward(q, k, v, out, lse)
        ctx.scale, ctx.dropout_p, ctx.seed = scale, dropout_p, seed
        return out

    @staticmethod
    def _forward(q, k, v, scale, dropout_p, seed):
        b, s, a, d = q.shape
        kvh = k.shape[2]
        g = a // kvh
        out = torch.empty_like(q)
        lse = torch.empty((b, a, s), dtype=torch.float32)
        with torch.autocast("cpu", enabled=False):
            kf = k.permute(0, 2, 1, 3).float()[:, :, None]  # (b, kv, 1, s, d)
            vf = v.permute(0, 2, 1, 3).float()[:, :, None]
            qf = q.permute(0, 2, 1, 3).reshape(b, kvh, g, s, d)
            for bi, start in enumerate(range(0, s, FLASH_BLOCK)):
                end = min(start + FLASH_BLOCK, s)
                scores = _flash_scores(qf[:, :, :, start:end].float(), kf, scale, start)
                m = torch.logsumexp(scores, dim=-1)  # (b, kv, g, blk)
                p = torch.exp(scores - m[..., None])
                if dropout_p > 0:
                    p = p * _dropout_keep(seed, bi, p.shape, dropout_p)
                o = torch.matmul(p, vf)  # (b, kv, g, blk, d)
                out[:, start:end] = o.reshape(b, a, end - start, d).permute(0, 2, 1, 3).to(q.dtype)
                lse[:, :, start:end] = m.reshape(b, a, end - start)
        return out, lse

    @staticmethod
    def backward(ctx, dout):
        q, k, v, out, lse = ctx.saved_tensors
        b, s, a, d = q.shape
        kvh = k.shape[2]
        g = a // kvh
        scale = ctx.scale
        with torch.autocast("cpu", enabled=False):
            kf = k.permute(0, 2, 1, 3).float()[:, :, None]
            vf = v.permute(0, 2, 1, 3).float()[:, :, None]
            qf = q.permute(0, 2, 1, 3).reshape(b, kvh, g, s, d)
            dof = dout.permute(0, 2, 1, 3).reshape(b, kvh, g, s, d)
            of = out.permute(0, 2, 1, 3).reshape(b, kvh, g, s, d)
            lsef = lse.reshape(b, kvh, g, s)
            dq = torch.empty_like(q)
            dk = torch.zeros((b, kvh, s, d), dtype=torch.float32)
            dv = torch.zeros((b, kvh, s, d), dtype=torch.float32)
            for bi, start in enumerate(range(0, s, FLASH_BLOCK)):
                end = min(start + FLASH_BLOCK, s)
                qb = qf[:, :, :, start:end].float()
                dob = dof[:, :, :, start:end].float()
                p = torch.exp(_flash_scores(qb, kf, scale, start) - lsef[:, :, :, start:end, None])
                if ctx.dropout_p > 0:
                    keep = _dropout_keep(ctx.seed, bi, p.shape, ctx.dropout_p)
                    pd = p * keep
                else:
                    keep, pd = None, p
                dv += torch.matmul(pd.transpose(-1, -2), dob).sum(dim=2)
                dp = torch.matmul(dob, vf.transpose(-1, -2))
                if keep is not None:
                    dp = dp * keep
                delta = (dob * of[:, :, :, start:end].float()).sum(-1, keepdim=True)
                ds = p * (dp - delta) * scale
                dq[:, start:end] = torch.matmul(ds, kf).reshape(b, a, end - start, d).permute(0, 2, 1, 3).to(q.dtype)
                dk += torch.matmul(ds.transpose(-1, -2), qb).sum(dim=2)
        return (dq, dk.permute(0, 2, 1, 3).to(k.dtype), dv.permute(0, 2, 1, 3).to(v.dtype), None, None, None)


def flash_attention_forward(module, query, key, value, dropout, scaling):
    """transformers flash_attention_forward: (b, h, s, d) -> (b, s, h, d) views; fp32 inputs (AMP
    with fp32 RoPE outputs) are cast to the autocast dtype, as FA2 only runs in fp16/bf16. K/V keep
    their kv heads (FA2 handles GQA without repeat_kv)."""
    query = query.transpose(1, 2)
    key = key.transpose(1, 2)
    value = value.transpose(1, 2)
    if query.dtype == torch.float32 and torch.is_autocast_cpu_enabled():
        target = torch.get_autocast_cpu_dtype()
        query, key, value = query.to(target), key.to(target), value.to(target)
    seed = int(torch.randint(0, 2 ** 30, (1,)).item()) if dropout > 0 else 0
    return FlashAttentionFunction.apply(query, key, value, scaling, dropout, seed)


# --------------------------------------------------------------------------------------------------
# Recompute variants
# --------------------------------------------------------------------------------------------------
# Called with (layer name, layer input, layer output) so measure.py can hook the backward boundaries.
LAYER_BOUNDARY_CALLBACK = [None]


def run_layer(recompute: str, layer: nn.Module, *args):
    out = _run_layer(recompute, layer, *args)
    if LAYER_BOUNDARY_CALLBACK[0] is not None:
        LAYER_BOUNDARY_CALLBACK[0](Scope.current(), args[0], out[0])
    return out


def _run_layer(recompute: str, layer: nn.Module, *args):
    if recompute == "none":
        return layer(*args)
    if recompute == "full":
        # HF: self._gradient_checkpointing_func(decoder_layer.__call__, ...) with
        # functools.partial(torch.utils.checkpoint.checkpoint, use_reentrant=True).
        # Non-tensor args (the (cos, sin) tuple) stay referenced by ctx.inputs.
        for a in args:
            if isinstance(a, tuple):
                for t in a:
                    note_external_save(t, "checkpoint ctx.inputs (non-tensor arg)")
        return torch.utils.checkpoint.checkpoint(layer.__call__, *args, use_reentrant=True)
    if recompute == "ops":
        return selective_checkpoint(layer.__call__, *args)
    raise ValueError(f"recompute: unknown value {recompute!r}")


SAC_SAVE_OPS = {torch.ops.aten.mm.default, torch.ops.aten.addmm.default}


class _SACState:
    """Selective activation checkpointing cache (the torch>=2.4 create_selective_checkpoint_contexts
    mechanism, rebuilt for torch 1.13): while recording, outputs of the saved ops (and of the flash
    attention Function) are kept; while replaying (recompute in backward), those ops return the kept
    outputs instead of running again."""

    def __init__(self):
        self.mode = None  # None | "record" | "replay"
        self.ops: list = []
        self.flash: list = []
        self.op_i = 0
        self.flash_i = 0

    def offer_flash(self, out, lse):
        if self.mode == "record":
            self.flash.append((out.detach(), lse.detach()))
            note_external_save(out, "SAC cache: flash attention output")
            note_external_save(lse, "SAC cache: flash attention logsumexp")

    def take_flash(self):
        if self.mode == "replay":
            item = self.flash[self.flash_i]
            self.flash_i += 1
            return item[0].detach(), item[1].detach()
        return None


SAC_STATE = _SACState()


class _SACDispatchMode(TorchDispatchMode):
    def __init__(self, state: _SACState):
        super().__init__()
        self.state = state

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        st = self.state
        if func is torch.ops.aten.detach.default and not isinstance(args[0], torch.Tensor):
            # a wrapped Python scalar (e.g. "* scaling") reaches the mode as a float in torch 1.13
            return torch.tensor(args[0])
        if func in SAC_SAVE_OPS:
            if st.mode == "replay":
                out = st.ops[st.op_i]
                st.op_i += 1
                return tree_map(lambda t: t.detach() if isinstance(t, torch.Tensor) else t, out)
            out = func(*args, **kwargs)
            if st.mode == "record":
                st.ops.append(tree_map(lambda t: t.detach() if isinstance(t, torch.Tensor) else t, out))
                note_external_save(out, f"SAC cache: {func}")
            return out
        return func(*args, **kwargs)


def selective_checkpoint(function, *args):
    """Non-reentrant checkpoint (torch 1.13 _checkpoint_without_reentrant: saved tensors replaced by
    holders, whole-function recompute at the first unpack) + an op-level save policy: outputs of
    aten.mm/addmm (the linear layers) and of flash attention are kept, everything else is recomputed.
    This is PyTorch SAC with policy "save matmul outputs" (torchtitan's op-level selective AC also
    saves SDPA outputs, and only every second mm)."""
    state = _SACState()
    cpu_autocast = dict(enabled=torch.is_autocast_cpu_enabled(), dtype=torch.get_autocast_cpu_dtype())
    fwd_rng = torch.get_rng_state()
    for a in args:
        if isinstance(a, torch.Tensor):
            note_external_save(a, "checkpoint input (closure)")
        elif isinstance(a, tuple):
            for t in a:
                note_external_save(t, "checkpoint input (closure)")

    class Holder:
        pass

    storage: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
    weak_holders: list = []

    def pack(x):
        h = Holder()
        weak_holders.append(weakref.ref(h))
        return h

    def unpack(h):
        if len(storage) == 0:
            counter = [0]

            def inner_pack(inner):
                counter[0] += 1
                holder = weak_holders[counter[0] - 1]()
                if holder is not None:
                    storage[holder] = inner.detach()

            def inner_unpack(_):
                raise RuntimeError("selective_checkpoint: unexpected unpack during recompute")

            state.mode, state.op_i, state.flash_i = "replay", 0, 0
            global SAC_STATE
            previous, SAC_STATE = SAC_STATE, state
            with torch.random.fork_rng(devices=[]):
                torch.set_rng_state(fwd_rng)
                with torch.enable_grad(), torch.autocast("cpu", **cpu_autocast), \
                        torch.autograd.graph.saved_tensors_hooks(inner_pack, inner_unpack), _SACDispatchMode(state):
                    function(*args)
            SAC_STATE = previous
            state.mode = None
        return storage[h]

    global SAC_STATE
    previous, SAC_STATE = SAC_STATE, state
    state.mode = "record"
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack), _SACDispatchMode(state):
        output = function(*args)
    state.mode = None
    SAC_STATE = previous
    return output
