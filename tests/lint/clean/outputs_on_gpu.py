# source: constructed from the guide /work/shared/seeds/001_c9075d18183199c4.txt, the fix
import torch


@torch.no_grad()
def predict(model, loader, device):
    preds = []
    for x in loader:
        logits = model(x.to(device))
        preds.append(logits.cpu())
        preds.extend(logits.argmax(1).tolist())
    return torch.cat(preds)


# source: restated from the fix, UCSD-E4E/acoustic-multiclass-training:pyha_analyzer/train.py@e0e2971a9bb64922f93cbbaf8199a0ad7cee121a
# line 125: the step's outputs copied to the CPU and off the graph before they are kept.
def train(model, data_loader, optimizer):
    log_pred = []
    for i, (mels, labels) in enumerate(data_loader):
        optimizer.zero_grad(set_to_none=True)
        loss, outputs = run_batch(model, mels, labels)
        loss.backward()
        optimizer.step()
        log_pred.append(torch.clone(F.sigmoid(outputs).cpu()).detach())
        log_loss += loss.item()
