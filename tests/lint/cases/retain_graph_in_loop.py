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


# Real, restated (the statements that matter): grey-eye/talking-heads:run.py@a7106139a5f756d81e43d6bec0aa8e1fc1c50019,
# meta_train's batch loop before PR grey-eye/talking-heads#7 ("avoid using retain_graph=True to save
# memory", commit 8df860ac040f: plain backward(), and D's second pass on G's output .detach()-ed).
for batch_num, (i, video) in enumerate(dataset):
    x_hat = G(y_t, e_hat)
    r_x_hat, D_act_hat = D(x_hat, y_t, i)
    r_x, D_act = D(x_t, y_t, i)
    optimizer_E_G.zero_grad(set_to_none=True)
    optimizer_D.zero_grad(set_to_none=True)
    loss = criterion_E_G(x_t, x_hat, r_x_hat, e_hat) + criterion_D(r_x, r_x_hat)
    loss.backward(retain_graph=True)            # expect: retain-graph-in-loop
    optimizer_E_G.step()
    optimizer_D.step()
    r_x_hat, D_act_hat = D(G(y_t, e_hat), y_t, i)
    optimizer_D.zero_grad(set_to_none=True)
    loss_D = criterion_D(r_x, r_x_hat)
    loss_D.backward()
    optimizer_D.step()


# pytorch/pytorch#40005 ("retain_graph = True out of memory issue"): one KL loss per distilled
# encoder layer, each backward-ed with retain_graph=True inside the layer loop (restated).
for i, k in enumerate(encoder_layers):
    output = kl(F.log_softmax(s_outputs[3][i + 1], dim=2), F.softmax(t_outputs[3][k + 1], dim=2))
    output.backward(retain_graph=True)           # expect: retain-graph-in-loop
