# source: constructed from issue 17, the fix
import torch


def evaluate(model, loader):
    model.eval()
    with torch.no_grad():
        return sum(model(x).sum().item() for x in loader)


def fit(model, loader, optimizer, epochs):
    for epoch in range(epochs):
        model.train()
        for x in loader:
            loss = model(x).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
        print(evaluate(model, loader))
