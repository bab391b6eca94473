# source: constructed from the retain_graph pattern in hughplay/memo:code/snippet/pytorch.py@9cd8cd89977d7d21d4ff530031f8eeef9674cab1, moved into a loop
import torch

for step in range(steps):
    y = model(x)
    out_1 = f(y)
    out_1.backward(retain_graph=True)           # expect: retain-graph-in-loop
    opt_1.step()
    model.zero_grad(set_to_none=True)
    criterion(g(y), t).backward(retain_graph=True)  # expect: retain-graph-in-loop
    opt_2.step()
