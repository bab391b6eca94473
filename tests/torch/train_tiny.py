# A tiny real training loop for the hook's tests (CPU torch; the CUDA
# counters are scripted by OOMLAB_TORCH_FAKE_CUDA). Prints what it does so
# tests can compare its output with and without the hook.
#   train_tiny.py [--steps N] [--batch B] [--optimizers K] [--oom] [--no-torch] [--accum N]
import argparse
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--steps", type=int, default=3)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--optimizers", type=int, default=1)
ap.add_argument("--accum", type=int, default=1)
ap.add_argument("--oom", action="store_true")
ap.add_argument("--no-torch", action="store_true")
ap.add_argument("--two-models", action="store_true")
a = ap.parse_args()
if a.no_torch:
    print("no torch here", "torch" in sys.modules)
    sys.exit(0)
import torch

torch.manual_seed(0)
models = [torch.nn.Linear(8, 4) for _ in range(a.optimizers)]
opts = [torch.optim.AdamW(m.parameters(), lr=1e-3) if i == 0 else torch.optim.SGD(m.parameters(), lr=0.1)
        for i, m in enumerate(models)]
if a.two_models:  # a second instance of the same class: its step is wrapped once
    extra = torch.optim.AdamW(torch.nn.Linear(2, 2).parameters())
for step in range(1, a.steps + 1):
    for micro in range(a.accum):
        for m in models:
            loss = m(torch.randn(a.batch, 8)).pow(2).mean()
            loss.backward()
    for o in opts:
        o.step()
        o.zero_grad()
    print("step=%d loss=%.4f" % (step, loss.item()), flush=True)
    print("to stderr", step, file=sys.stderr, flush=True)
if a.oom:
    raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity)")
