# source: constructed after facebookresearch/simsiam main_lincls.py (a linear
# probe trains with its frozen backbone in eval mode on purpose) and
# facebookresearch/swav eval_linear.py (the head goes back to train mode
# through the training function's own parameter name)
import torch


def train_probe(backbone, head, loader, optimizer):
    backbone.eval()         # frozen BatchNorm statistics: the probe protocol
    head.train()
    for x, y in loader:
        with torch.no_grad():
            feats = backbone(x)
        loss = torch.nn.functional.cross_entropy(head(feats), y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()


def validate(backbone, linear_classifier, loader):
    backbone.eval()
    linear_classifier.eval()
    with torch.no_grad():
        return sum((linear_classifier(backbone(x)).argmax(1) == y).sum().item() for x, y in loader)


def main(backbone, loader):
    linear_classifier = torch.nn.Linear(2048, 1000)
    optimizer = torch.optim.SGD(list(backbone.parameters()) + list(linear_classifier.parameters()), lr=0.1)
    for epoch in range(90):
        train_probe(backbone, linear_classifier, loader, optimizer)
        print(validate(backbone, linear_classifier, loader))
