# source: DandelionWow/competition_4_algonauts:dev/test.py@b80c3ce4c851a4f5788e15da888522c5e65a87bb (trimmed excerpt)
import torch

def test(model, data_loader, device):
    model.eval()
    outputs = None
    for inputs in data_loader:
        inputs = inputs.float().to(device)
        outputs_ = model(inputs)                # expect: eval-without-no-grad
        outputs = outputs_ if outputs is None else torch.cat([outputs, outputs_])
    return outputs


def report(net, batches):
    # constructed: a region after .eval() in an ordinary function
    net.eval()
    scores = [net(b).sum().item() for b in batches]   # expect: eval-without-no-grad
    net.train()
    return scores
