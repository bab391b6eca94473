# source: constructed: the counterparts of clean/eval_for_training.py that
# are still bugs. A baseline evaluation before the training loop leaves the
# model in eval mode for all of training; a function that puts back a
# different parameter in train mode does not put back the one evaluated.
import torch


def fit(model, loader):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model.eval()                                # expect: eval-never-train
    with torch.no_grad():
        print("baseline", sum(model(x).sum().item() for x in loader))
    for x in loader:
        loss = model(x).mean()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()


def step_all(encoder, decoder, loader, optimizer):
    decoder.train()
    for x in loader:
        loss = decoder(encoder(x)).mean()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()


def check(encoder, loader):
    encoder.eval()                              # expect: eval-never-train
    with torch.no_grad():
        return sum(encoder(x).sum().item() for x in loader)


def main(encoder, decoder, loader):
    optimizer = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()))
    for epoch in range(10):
        step_all(encoder, decoder, loader, optimizer)
        print(check(encoder, loader))
