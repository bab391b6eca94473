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


# source: restated (our own code, the statements that matter kept) from
# UCSD-E4E/acoustic-multiclass-training:pyha_analyzer/train.py@8beb4cbeeec8b7ebe96292e70e85deb2e4013896
# lines 100-125: the training loop keeps each step's sigmoid outputs, graph and all, on the GPU
# for a running mAP; their reviewer: "a pseudo-memory leak on gpu" (PR #147), fixed in e0e2971.
def train(model, data_loader, optimizer):
    log_pred = []
    for i, (mels, labels) in enumerate(data_loader):
        optimizer.zero_grad(set_to_none=True)
        loss, outputs = run_batch(model, mels, labels)
        loss.backward()
        optimizer.step()
        log_pred.append(F.sigmoid(outputs))     # expect: outputs-on-gpu
        log_loss += loss.item()
