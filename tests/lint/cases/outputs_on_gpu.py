# source: constructed from the guide /work/shared/seeds/001_c9075d18183199c4.txt ("validation peaks"; outputs kept across the loop)
import torch


@torch.no_grad()
def predict(model, loader, device):
    preds = []
    for x in loader:
        logits = model(x.to(device))
        preds.append(logits)                    # expect: outputs-on-gpu
    return torch.cat(preds)


def embed(encoder, loader, device):
    feats = []
    with torch.no_grad():
        for x in loader:
            h = encoder(x.to(device))
            feats.append(h.detach())            # expect: outputs-on-gpu
    return feats
