# source: constructed after microsoft/LoRA examples/NLG/src/gpt2_ft.py: the
# backward, step and zero_grad live in a helper handed the loss and the
# optimizer, and evaluation runs while the step's logits are referenced
import torch
from trainutil import optimizer_step


def evaluate(model, loader):
    model.eval()
    with torch.no_grad():
        return sum(model(x)[1].item() for x in loader)


def train_validate(model, optimizer, loader, valid_loader, device):
    model.train()
    for step, (x, y) in enumerate(loader):
        logits, loss = model(x.to(device), labels=y.to(device))
        optimizer_step(loss / 4, optimizer, model)
        if step % 1000 == 0:
            print(evaluate(model, valid_loader))    # expect: train-tensors-in-eval
            model.train()
