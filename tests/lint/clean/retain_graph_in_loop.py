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


# grey-eye/talking-heads:run.py@8df860ac040fa209edfdefb1a1d9d4013aa50d28, after PR #7 (restated):
# no retained graph; D's second pass runs on G's output taken off the graph.
for batch_num, (i, video) in enumerate(dataset):
    x_hat = G(y_t, e_hat)
    r_x_hat, D_act_hat = D(x_hat, y_t, i)
    r_x, D_act = D(x_t, y_t, i)
    optimizer_E_G.zero_grad(set_to_none=True)
    optimizer_D.zero_grad(set_to_none=True)
    loss = criterion_E_G(x_t, x_hat, r_x_hat, e_hat) + criterion_D(r_x, r_x_hat)
    loss.backward()
    optimizer_E_G.step()
    optimizer_D.step()
    x_hat = G(y_t, e_hat).detach()
    r_x_hat, D_act_hat = D(x_hat, y_t, i)
    optimizer_D.zero_grad(set_to_none=True)
    loss_D = criterion_D(r_x, r_x_hat)
    loss_D.backward()
    optimizer_D.step()


# pytorch/pytorch#40005's loop with the rule's fix (constructed; the maintainers there pointed to
# #4661 and autograd.grad()): sum the per-layer losses and call backward once.
total = 0
for i, k in enumerate(encoder_layers):
    total = total + kl(F.log_softmax(s_outputs[3][i + 1], dim=2), F.softmax(t_outputs[3][k + 1], dim=2))
total.backward()
