# source: constructed: a function of this file handed the loss and the
# optimizer that only logs them is no training step (the loop trains
# nowhere, so nothing of a step is held during evaluation)
import torch


def log_step(loss, optimizer):
    print(loss.item(), optimizer.param_groups[0]["lr"])


def evaluate(model, loader):
    model.eval()
    with torch.no_grad():
        return sum(model(x).sum().item() for x in loader)


def probe(model, optimizer, loader, device):
    with torch.no_grad():
        for step, x in enumerate(loader):
            out = model(x.to(device))
            loss = out.mean()
            log_step(loss, optimizer)
            if step % 100 == 0:
                print(evaluate(model, loader))
