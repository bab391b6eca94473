# source: constructed from the guide /work/shared/seeds/001_c9075d18183199c4.txt, step 4 (the fix), and the shape of
# real code that sums loss terms for one backward (a per-scale loss loop)
import torch


def train_epoch(model, loader, optimizer, criterion, device):
    model.train()
    total_loss = 0
    for x, y in loader:
        optimizer.zero_grad(set_to_none=True)
        loss = criterion(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
        history = float(loss)
    return total_loss / len(loader)


def compute_losses(self, outputs, scales):
    total_loss = 0
    for scale in scales:
        loss = self.reprojection(outputs, scale)
        total_loss += loss
    return total_loss


def accumulate(model, loader, optimizer, steps):
    acc = 0
    for i, batch in enumerate(loader):
        acc = acc + model(batch).loss / steps
        if (i + 1) % steps == 0:
            acc.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            acc = 0
