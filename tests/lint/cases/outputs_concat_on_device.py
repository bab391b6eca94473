# source: constructed after dispink/xpt src/inference/inference.py: the
# predictions grow by torch.cat on the device, one copy more per batch
import torch


def predict_all(model, loader, device="cuda"):
    model.eval()
    preds = torch.empty((0, 1)).to(device)
    with torch.no_grad():
        for x in loader:
            out = model(x.to(device))
            preds = torch.cat((preds, out), 0)      # expect: outputs-on-gpu
    return preds


def predict_cpu(model, loader, device="cuda"):
    model.eval()
    preds = torch.empty((0, 1))
    with torch.no_grad():
        for x in loader:
            out = model(x.to(device)).cpu()
            preds = torch.cat([preds, out])         # made on the CPU: no finding
    return preds
