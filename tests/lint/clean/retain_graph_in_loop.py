# source: hughplay/memo:code/snippet/pytorch.py@9cd8cd89977d7d21d4ff530031f8eeef9674cab1 (trimmed excerpt),
# and a Jacobian loop whose graph is built once, before the loop (constructed)
import torch

y = model(x)
model.zero_grad(set_to_none=True)
out_1 = f(y)
out_1.backward(retain_graph=True)
opt_1.step()

out = net(inp)
for i in range(out.shape[0]):
    row = torch.autograd.grad(out[i], inp, retain_graph=True)
