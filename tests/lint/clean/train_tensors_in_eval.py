# source: restated (our own code) from the fix in
# UCSD-E4E/acoustic-multiclass-training:classification/train.py@fb6a99a7f5ff6ad22e30343e6d5129ceb613fc65
# ("Free memory so gpu is freed before validation run": del mels/outputs/labels before valid()),
# and the fix ludwig-ai/ludwig#1674 describes (the step loop in its own function).
import torch


def train(model, data_loader, valid_loader, optimizer, cfg, epoch, best_valid_map):
    model.train()
    for i, (mels, labels) in enumerate(data_loader):
        optimizer.zero_grad(set_to_none=True)
        mels = mels.to(DEVICE)
        labels = labels.to(DEVICE)
        with torch.autocast(device_type=DEVICE, dtype=torch.float16):
            outputs = model(mels)
            loss = model.loss_fn(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i != 0 and i % cfg.valid_freq == 0:
            del mels
            del outputs
            del labels
            _, _, best_valid_map = valid(model, valid_loader, epoch + i / len(data_loader), best_valid_map)
            model.train()
    return best_valid_map


def train_epoch(model, train_loader, optimizer, criterion):
    for x, y in train_loader:
        x, y = x.cuda(), y.cuda()
        loss = criterion(model(x), y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()


def fit(model, train_loader, val_loader, optimizer, criterion, epochs):
    for epoch in range(epochs):
        model.train()
        train_epoch(model, train_loader, optimizer, criterion)
        metrics = evaluate(model, val_loader)
        if is_valid_checkpoint(model, val_loader):
            pass
