# source: restated (our own code, the statements that matter kept) from
# UCSD-E4E/acoustic-multiclass-training:classification/train.py@541d9df6f5068876b928d6426b501a97eddf6c44
# lines 75-154: validation every valid_freq steps inside the step loop while mels, labels and
# outputs of the step are still bound; their PR #85 ("tensors for training were still within
# scope during validation", CUDA out of memory) added `del mels, outputs, labels` before valid().
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
            _, _, best_valid_map = valid(model, valid_loader, epoch + i / len(data_loader), best_valid_map)   # expect: train-tensors-in-eval
            model.train()
    return best_valid_map


def fit(model, train_loader, val_loader, optimizer, criterion, epochs):
    # constructed: the shape ludwig-ai/ludwig#1674 describes (evaluation after the step loop,
    # in the same function, holding the last step's references)
    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.cuda(), y.cuda()
            logits = model(x)
            loss = criterion(logits, y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        metrics = self.evaluate(model, val_loader)   # expect: train-tensors-in-eval
