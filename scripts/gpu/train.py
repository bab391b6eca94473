#!/usr/bin/env python3
"""A small, real PyTorch training loop for scripts/gpu-check.

GPT-style decoder (or a Llama-shaped one with --arch llama) trained on random
tokens. Prints the guide's per-step line
    step=N loss=X peak_alloc=X.XXGB peak_reserved=Y.YYGB
(GB = GiB, reset after each print), so oomlab's log engine has real numbers.
--mem-fraction emulates a smaller card with set_per_process_memory_fraction.
--report FILE writes the allocator's own figures (JSON) at exit or at the OOM,
for gpu-check to compare against what oomlab read from the log.
"""
import argparse, json, math, sys, time

import torch
import torch.nn as nn
import torch.nn.functional as F


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--arch", default="gpt2", choices=["gpt2", "llama"])
    p.add_argument("--layers", type=int, default=12)
    p.add_argument("--hidden", type=int, default=768)
    p.add_argument("--heads", type=int, default=12)
    p.add_argument("--kv-heads", type=int, default=0)
    p.add_argument("--ffn", type=int, default=0)
    p.add_argument("--vocab", type=int, default=50257)
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--seq", type=int, default=512)
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--precision", default="fp32", choices=["fp32", "bf16", "bf16-mixed", "fp16-mixed"])
    p.add_argument("--optimizer", default="adamw", choices=["adamw", "sgd", "none"])
    p.add_argument("--grad-ckpt", action="store_true")
    p.add_argument("--attention", default="sdpa", choices=["eager", "sdpa"])
    p.add_argument("--mem-fraction", type=float, default=0.0)
    p.add_argument("--eval-every", type=int, default=0)
    p.add_argument("--lora-r", type=int, default=0, help="freeze the model, train LoRA adapters (dropout 0.05)")
    p.add_argument("--lora-targets", default="q,v", help="comma list of q,k,v,o,gate,up,down, or all")
    p.add_argument("--head-chunk", type=int, default=0,
                   help="litgpt-style loss: lm_head in chunks of N tokens, CE on the 16-bit chunks")
    p.add_argument("--report", default="")
    return p.parse_args()


class Block(nn.Module):
    def __init__(self, a):
        super().__init__()
        h, self.nh = a.hidden, a.heads
        self.nkv = a.kv_heads or a.heads
        self.hd = h // a.heads
        self.attention = a.attention
        ffn = a.ffn or 4 * h
        self.llama = a.arch == "llama"
        norm = (lambda: nn.RMSNorm(h)) if self.llama else (lambda: nn.LayerNorm(h))
        self.ln1, self.ln2 = norm(), norm()
        self.q = nn.Linear(h, h, bias=not self.llama)
        self.k = nn.Linear(h, self.nkv * self.hd, bias=not self.llama)
        self.v = nn.Linear(h, self.nkv * self.hd, bias=not self.llama)
        self.o = nn.Linear(h, h, bias=not self.llama)
        if self.llama:
            self.gate = nn.Linear(h, ffn, bias=False)
            self.up = nn.Linear(h, ffn, bias=False)
            self.down = nn.Linear(ffn, h, bias=False)
        else:
            self.up = nn.Linear(h, ffn)
            self.down = nn.Linear(ffn, h)

    def attn(self, x):
        b, s, h = x.shape
        q = self.q(x).view(b, s, self.nh, self.hd).transpose(1, 2)
        k = self.k(x).view(b, s, self.nkv, self.hd).transpose(1, 2)
        v = self.v(x).view(b, s, self.nkv, self.hd).transpose(1, 2)
        if self.nkv != self.nh:
            k = k.repeat_interleave(self.nh // self.nkv, 1)
            v = v.repeat_interleave(self.nh // self.nkv, 1)
        if self.attention == "sdpa":
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            att = (q @ k.transpose(-2, -1)) / math.sqrt(self.hd)
            mask = torch.ones(s, s, device=x.device, dtype=torch.bool).triu(1)
            att = att.masked_fill(mask, float("-inf")).softmax(-1)
            y = att @ v
        return self.o(y.transpose(1, 2).reshape(b, s, h))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        hdn = self.ln2(x)
        if self.llama:
            return x + self.down(F.silu(self.gate(hdn)) * self.up(hdn))
        return x + self.down(F.gelu(self.up(hdn)))


class LoRA(nn.Module):
    """A frozen linear plus a trainable low-rank adapter, as PEFT's LoRA."""

    def __init__(self, base, r):
        super().__init__()
        self.base = base
        self.drop = nn.Dropout(0.05)
        self.A = nn.Linear(base.in_features, r, bias=False)
        self.B = nn.Linear(r, base.out_features, bias=False)
        nn.init.zeros_(self.B.weight)

    def forward(self, x):
        return self.base(x) + self.B(self.A(self.drop(x))) * 2.0


def add_lora(model, r, targets):
    for p in model.parameters():
        p.requires_grad_(False)
    names = {"q", "k", "v", "o", "gate", "up", "down"} if targets == "all" else set(targets.split(","))
    for blk in model.blocks:
        for n in names:
            if isinstance(getattr(blk, n, None), nn.Linear):
                setattr(blk, n, LoRA(getattr(blk, n), r))


class Model(nn.Module):
    def __init__(self, a):
        super().__init__()
        self.a = a
        self.emb = nn.Embedding(a.vocab, a.hidden)
        self.pos = nn.Embedding(a.seq, a.hidden) if a.arch == "gpt2" else None
        self.blocks = nn.ModuleList(Block(a) for _ in range(a.layers))
        self.ln = nn.RMSNorm(a.hidden) if a.arch == "llama" else nn.LayerNorm(a.hidden)
        self.head = nn.Linear(a.hidden, a.vocab, bias=False)
        if a.arch == "gpt2":
            self.head.weight = self.emb.weight  # tied, as GPT-2

    def forward(self, idx):
        return self.head(self.features(idx))

    def features(self, idx):
        x = self.emb(idx)
        if self.pos is not None:
            x = x + self.pos(torch.arange(idx.shape[1], device=idx.device))
        for blk in self.blocks:
            if self.a.grad_ckpt and self.training:
                x = torch.utils.checkpoint.checkpoint(blk, x, use_reentrant=False)
            else:
                x = blk(x)
        return self.ln(x)


def report(path, extra):
    if not path:
        return
    free, total = torch.cuda.mem_get_info()
    d = dict(extra, max_allocated=torch.cuda.max_memory_allocated(),
             max_reserved=torch.cuda.max_memory_reserved(),
             allocated=torch.cuda.memory_allocated(), reserved=torch.cuda.memory_reserved(),
             device_free=free, device_total=total)
    with open(path, "w") as f:
        json.dump(d, f)


def main():
    a = parse()
    dev = "cuda"
    if a.mem_fraction > 0:
        torch.cuda.set_per_process_memory_fraction(a.mem_fraction)
    wdtype = torch.bfloat16 if a.precision == "bf16" else torch.float32
    print(f"loading model arch={a.arch} layers={a.layers} hidden={a.hidden} batch={a.batch} seq={a.seq}", flush=True)
    model = Model(a)
    if a.lora_r:
        add_lora(model, a.lora_r, a.lora_targets)
    model = model.to(dev, dtype=wdtype)
    nparams = sum(p.numel() for p in model.parameters())
    trainable = [p for p in model.parameters() if p.requires_grad]
    print(f"params={nparams}", flush=True)
    opt = None
    if a.optimizer == "adamw":
        opt = torch.optim.AdamW(trainable, lr=1e-4, fused=True)
    elif a.optimizer == "sgd":
        opt = torch.optim.SGD(trainable, lr=1e-3)
    ac = {"bf16-mixed": torch.bfloat16, "fp16-mixed": torch.float16}.get(a.precision)
    torch.cuda.reset_peak_memory_stats()
    top = {"alloc": 0, "res": 0}
    for step in range(1, a.steps + 1):
        idx = torch.randint(0, a.vocab, (a.batch, a.seq), device=dev)
        with torch.autocast("cuda", dtype=ac, enabled=ac is not None):
            if a.head_chunk:  # litgpt: chunks kept in a list through backward
                feats = model.features(idx)
                logits = [model.head(c) for c in feats.split(a.head_chunk, dim=1)]
                loss = torch.cat([F.cross_entropy(c.reshape(-1, a.vocab), t.reshape(-1), reduction="none")
                                  for c, t in zip(logits, idx.split(a.head_chunk, dim=1))]).mean()
            else:
                logits = model(idx)
                loss = F.cross_entropy(logits.float().view(-1, a.vocab), idx.view(-1))
        loss.backward()
        if opt is not None:
            opt.step()
            opt.zero_grad(set_to_none=True)
        else:
            model.zero_grad(set_to_none=True)
        alloc = torch.cuda.max_memory_allocated() / 1024 ** 3
        res = torch.cuda.max_memory_reserved() / 1024 ** 3
        print(f"step={step} loss={loss.item():.4f} peak_alloc={alloc:.2f}GB peak_reserved={res:.2f}GB", flush=True)
        top["alloc"] = max(top["alloc"], torch.cuda.max_memory_allocated())
        top["res"] = max(top["res"], torch.cuda.max_memory_reserved())
        torch.cuda.reset_peak_memory_stats()  # the guide: reset after each print
        if a.eval_every and step % a.eval_every == 0:
            print(f"running evaluation at step {step}", flush=True)
            model.eval()
            with torch.no_grad():
                model(torch.randint(0, a.vocab, (a.batch * 4, a.seq), device=dev))
            model.train()
    report(a.report, {"nparams": nparams, "outcome": "ok",
                      "peak_allocated_all": top["alloc"], "peak_reserved_all": top["res"]})


if __name__ == "__main__":
    try:
        main()
    except torch.OutOfMemoryError as e:
        a = parse()
        report(a.report, {"outcome": "oom", "message": str(e)})
        raise
