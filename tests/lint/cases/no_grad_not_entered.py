# source: constructed (a bare torch.no_grad() call, the mistake the decorator form in
# s-froghyar/thesis-project-mgr:tpreporter/reporter_utils.py@53252abd24983cf86feda9199102bf841d8f514a avoids)
import torch

def get_all_preds(model, loader):
    torch.no_grad()                             # expect: no-grad-not-entered
    return [model(b) for b in loader]           # expect: eval-without-no-grad
