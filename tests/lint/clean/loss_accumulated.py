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


# source: restated from the fix of BatsResearch/labelmodels#4,
# labelmodels/label_model.py@03fe595e8c00c06a7f2ae53fa8df8390dd37fa64 lines 78-91 (`running_loss += loss.item()`);
# `loss += regularization` before backward() builds the one loss, it accumulates nothing across steps.
class LabelModel(nn.Module):
    def _do_estimate_label_model(self, batches, config):
        optimizer = torch.optim.SGD(self.parameters(), lr=config.step_size)
        for epoch in range(config.epochs):
            self.train()
            running_loss = 0.0
            for i_batch, inputs in enumerate(batches):
                optimizer.zero_grad(set_to_none=True)
                log_likelihood = self(*inputs)
                loss = -1 * torch.mean(log_likelihood)
                loss += self._get_regularization_loss()
                loss.backward()
                optimizer.step()
                running_loss += loss.item()
