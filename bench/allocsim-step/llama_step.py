#!/usr/bin/python3
# estmech19's experiment for class G (the sharded reserved gap): one training
# step of HF Llama (transformers 4.31's LlamaForCausalLM: eager attention,
# softmax(dtype=float32).to(bf16), RMSNorm in fp32, logits.float() and the
# shifted fp32 copy for the loss) in pure bf16, every decoder layer under a
# non-reentrant checkpoint_wrapper (llama-recipes' FSDP activation
# checkpointing), PEFT 0.4 LoRA on q_proj and v_proj of a frozen base
# (`result += lora_B(lora_A(dropout(x))) * scaling`, in place),
# use_cache=True, written as the default stream's sequence of tensor
# allocations and frees in program order and fed to oomlab's model of the
# caching allocator (src/lib/allocsim.c). FSDP's gathered flat parameters are
# allocated under FSDP1's all-gather stream (torch/distributed/fsdp/
# fully_sharded_data_parallel.py _unshard: `with torch.cuda.stream(
# self._streams["all_gather"]): handle.unshard()`, torch 1.13 / 2.0) and the
# allocator keeps per-stream pools, so they are not in this sequence; nor
# are the parameter shards (allocated once at wrapping). Three steps run, so
# the previous step's `outputs` (fp32 logits and the presents) is alive
# through the next forward when the loop keeps it (`--keep`).
#
# Build the library, then run from the repository root:
#   cc -O2 -shared -fPIC -Isrc bench/allocsim-step/allocsim_wrap.c \
#      src/lib/allocsim.c -o build/liballocsim.so
#   python3 bench/allocsim-step/llama_step.py [--keep] [--batch 4] [--seq 2048]
# Prints the default stream's peak allocated, peak reserved and their gap.
import argparse, ctypes, os

ap = argparse.ArgumentParser()
ap.add_argument('--keep', action='store_true', help='the loop holds `outputs` into the next forward')
ap.add_argument('--batch', type=int, default=4)
ap.add_argument('--seq', type=int, default=2048)
ap.add_argument('--layers', type=int, default=32)
ap.add_argument('--hidden', type=int, default=4096)
ap.add_argument('--heads', type=int, default=32)
ap.add_argument('--ffn', type=int, default=11008)
ap.add_argument('--vocab', type=int, default=32000)
ap.add_argument('--full', action='store_true',
                help='full-parameter FSDP1 training: weight gradients, the flat gradient, AdamW states and the foreach step')
ap.add_argument('--gpus', type=int, default=4)
ap.add_argument('--lib', default=os.path.join('build', 'liballocsim.so'))
o = ap.parse_args()

lib = ctypes.CDLL(o.lib)
lib.sim_new.restype = ctypes.c_void_p
lib.sim_alloc.argtypes = [ctypes.c_void_p, ctypes.c_longlong]
lib.sim_free.argtypes = [ctypes.c_void_p, ctypes.c_int]
lib.sim_get.argtypes = [ctypes.c_void_p, ctypes.c_int]
lib.sim_get.restype = ctypes.c_longlong
sim = lib.sim_new()

T = o.batch * o.seq
E, E32 = T * o.hidden * 2, T * o.hidden * 4          # a bf16 / fp32 residual tensor
SC = o.batch * o.heads * o.seq * o.seq * 2            # bf16 scores
F = T * o.ffn * 2                                     # bf16 MLP tensor
ROW = T * 4                                           # fp32 per-token scalar
where, peak = [''], [0, '']


def A(n):
    h = lib.sim_alloc(sim, int(n))
    a = lib.sim_get(sim, 1)
    if a > peak[0]:
        peak[0], peak[1] = a, where[0]
    return h


def free(*hs):
    for h in hs:
        lib.sim_free(sim, h)


def rmsnorm(save):
    """x.to(fp32), pow(2).mean, x * rsqrt(var + eps), .to(bf16), weight *"""
    x32 = A(E32); sq = A(E32); var = A(ROW); free(sq)
    ve = A(ROW); rs = A(ROW); free(ve); y32 = A(E32)
    if not save:
        free(x32, var, rs)
    else:
        free(var)
    y = A(E); free(y32); out = A(E); free(y)
    return out, ([x32, rs] if save else [])   # mul saves the fp32 input and rsqrt


def lora_add(save):
    """result += lora_B(lora_A(dropout(x))) * scaling, in place"""
    if o.full:
        return []
    mask = A(E // 2); d = A(E); a = A(T * 8 * 2); b = A(E); bs = A(E); free(b, bs)
    if save:
        return [mask, d, a]
    free(mask, d, a)
    return []


def rope():
    """(x * cos) + (rotate_half(x) * sin); rotate_half = cat(-x2, x1)"""
    xc = A(E); neg = A(E // 2); cat = A(E); free(neg); xs = A(E); free(cat)
    out = A(E); free(xc, xs)
    return out


def block_forward(save):
    """Returns (output, presents, saved groups in the order backward frees them)."""
    g = {}
    n1, g['norm1'] = rmsnorm(save)
    q = A(E); la_q = lora_add(save)
    k = A(E)
    v = A(E); la_v = lora_add(save)
    qe = rope(); free(q)
    ke = rope(); free(k)
    presents = [ke, v]
    s0 = A(SC)
    s1 = A(SC); free(s0)                      # / sqrt(head_dim)
    s2 = A(SC); free(s1)                      # + attention_mask
    p32 = A(2 * SC); free(s2)                 # softmax(dtype=float32): saves its output
    p = A(SC)                                 # .to(bf16)
    if not save:
        free(p32)
    att = A(E)
    if not save:
        free(p, qe)
    acat = A(E); free(att)                    # transpose(1, 2).contiguous()
    out_o = A(E)
    h1 = A(E); free(out_o)
    n2, g['norm2'] = rmsnorm(save)
    gate = A(F); act = A(F)
    if not save:
        free(gate)
    up = A(F); m = A(F)
    if not save:
        free(act, up)
    down = A(E)
    if not save:
        free(m)
    out = A(E); free(down)
    if save:
        g.update(m=[m], au=[act, up], gate=[gate], n2=[n2], h1=[h1], acat=[acat], pv=[p, v], p32=[p32],
                 qk=[qe, ke], lin1=[n1] + la_q + la_v)
    else:
        free(n2, h1, acat, n1)
    return out, presents, g


def wgrad(numel):
    return [(A(numel * 2), numel * 2)] if o.full else []


def block_backward(g):
    """The recomputed block's backward; saved groups freed as their nodes run."""
    def rel(*names):
        for nm in names:
            free(*g.pop(nm, []))
    W = []
    gm = A(F); W += wgrad(o.hidden * o.ffn); rel('m')
    ga = A(F); gu = A(F); rel('au'); free(gm)
    gg = A(F); rel('gate'); free(ga)
    gnu = A(E); W += wgrad(o.hidden * o.ffn); free(gu); gng = A(E); W += wgrad(o.hidden * o.ffn); free(gg)
    gn = A(E); free(gnu, gng); rel('n2')
    t1 = A(E32); t2 = A(E32); t3 = A(E32); gh = A(E); free(t1, t2, t3, gn); rel('norm2', 'h1')
    gac = A(E); W += wgrad(o.hidden * o.hidden); rel('acat'); gat = A(E); free(gac)
    gp = A(SC); gv = A(E); rel('pv'); free(gat)
    gp32 = A(2 * SC); free(gp); gs = A(SC); rel('p32'); free(gp32)
    gsd = A(SC); free(gs)
    gq = A(E); gk = A(E); rel('qk'); free(gsd)
    gq2 = rope(); free(gq); gk2 = rope(); free(gk)
    gx1 = A(E); gx2 = A(E); free(gq2, gk2); gx3 = A(E); free(gv)
    W += wgrad(o.hidden * o.hidden) + wgrad(o.hidden * o.hidden) + wgrad(o.hidden * o.hidden)
    gl = A(E); free(gx1, gx2, gx3); rel('lin1')
    t1 = A(E32); t2 = A(E32); t3 = A(E32); gn1 = A(E); free(t1, t2, t3, gl); rel('norm1')
    gx = A(E); free(gn1, gh)
    for rest in list(g):
        rel(rest)
    if o.full:
        # the views' gradients meet in the unsharded flat parameter's gradient
        # (split backward's cat); FSDP1's post-backward hook sets
        # flat_param.grad = None after handing it to the post-backward stream
        # (record_stream), and the reduce-scatter output lives in that
        # stream's pool: counted outside this sequence
        flat = A(sum(x[1] for x in W)); free(*[x[0] for x in W]); free(flat)
    return gx


held = []
for step in range(3):
    where[0] = f'step {step} forward'
    x = A(E)                                           # embedding output
    mask = A(o.batch * o.seq * o.seq * 2)              # 4-D causal mask
    inputs, presents = [x], []
    for i in range(o.layers):
        x, pr, _ = block_forward(False)
        inputs.append(x)
        presents += pr
    where[0] = f'step {step} head'
    fn, fsaved = rmsnorm(True)
    lg = A(T * o.vocab * 2); lf = A(T * o.vocab * 4); free(lg)   # logits.float()
    sh = A(T * o.vocab * 4); ls = A(T * o.vocab * 4)             # shifted copy, log_softmax
    free(sh, mask)                                               # forward returns
    free(*held)                                                  # the old `outputs` rebound
    held = [lf] + presents
    if not o.keep:
        free(*held)
        held = []
    where[0] = f'step {step} backward'
    gls = A(T * o.vocab * 4); free(ls); gsh = A(T * o.vocab * 4); free(gls)
    glf = A(T * o.vocab * 4); free(gsh); gl = A(T * o.vocab * 2); free(glf)
    gfn = A(E); free(gl); free(*fsaved); g = A(E); free(gfn, fn)
    for i in reversed(range(o.layers)):
        where[0] = f'step {step} block {i} recompute/backward'
        out, pr, saved = block_forward(True)
        free(out)
        gx = block_backward(saved)
        free(g, inputs[i + 1])
        g = gx
    free(g, inputs[0])
    if o.full:
        where[0] = f'step {step} optimizer'
        # torch.optim.AdamW (foreach) on the bf16 flat shards: exp_avg and
        # exp_avg_sq made at the first step, _foreach_sqrt(exp_avg_sqs) a
        # working copy; the shards' gradients are in the post-backward pool
        shards = [(o.hidden * o.hidden * 4 + o.hidden * o.ffn * 3) * 2 // o.gpus] * o.layers
        shards.append((2 * o.vocab * o.hidden + o.hidden) * 2 // o.gpus)
        if step == 0:
            states = [A(b) for b in shards for _ in (0, 1)]
        work = [A(b) for b in shards]
        free(*work)

GiB = 2 ** 30
pr, pa = lib.sim_get(sim, 2), lib.sim_get(sim, 3)
print(f"default stream: peak allocated {pa / GiB:.2f} GiB ({peak[1]}), peak reserved {pr / GiB:.2f} GiB, "
      f"reserved - allocated {(pr - pa) / GiB:.2f} GiB" + ("  [allocsim failed]" if lib.sim_get(sim, 4) else ""))
