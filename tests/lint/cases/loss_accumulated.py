# source: constructed from the guide /work/shared/seeds/001_c9075d18183199c4.txt, step 4
# ("write loss.item(); total_loss += loss pins the whole graph in GPU memory")
import torch


def train_epoch(model, loader, optimizer, criterion, device):
    model.train()
    total_loss = 0
    for x, y in loader:
        optimizer.zero_grad(set_to_none=True)
        loss = criterion(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        total_loss += loss                      # expect: loss-accumulated
    return total_loss / len(loader)


def train_logged(model, loader, optimizer, device):
    history = {"loss": []}
    for batch in loader:
        out = model(**batch)
        out.loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        history["loss"].append(out.loss)        # expect: loss-accumulated
    return history
