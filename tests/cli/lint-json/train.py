import torch


def train(model, loader, opt):
    total = 0
    for x in loader:
        loss = model(x).mean()
        loss.backward()
        opt.step()
        total += loss
    torch.save(model.state_dict(), "m.pt")  # on cuda
    return total.item()
