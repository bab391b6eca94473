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
