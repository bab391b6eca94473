# The real fixes of the two real bugs in tests/lint/cases/missing_zero_grad.py, restated:
# wenet-e2e/wekws:kws/utils/executor.py@141d40704f33bd87805b3010548390592aab58c2 (zero_grad above
# backward) and yastrebksv/TennisCourtDetector:base_trainer.py@e5cd4f1ce26b15361700d3d89e068cbf0e82749e
# (zero_grad after the step); set_to_none=True added so that zero-grad-not-none stays quiet too.
def train_epoch(model, optimizer, data_loader, device, clip):
    model.train()
    for batch_idx, (feats, target) in enumerate(data_loader):
        feats, target = feats.to(device), target.to(device)
        logits = model(feats)
        loss = criterion(logits, target)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        grad_norm = clip_grad_norm_(model.parameters(), clip)
        if torch.isfinite(grad_norm):
            optimizer.step()


def train(model, train_loader, optimizer, criterion, device, max_iters=1000):
    model.train()
    losses = []
    for iter_id, batch in enumerate(train_loader):
        out = model(batch[0].float().to(device))
        loss = criterion(F.sigmoid(out), batch[1].float().to(device))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        losses.append(loss.item())
        if iter_id > max_iters:
            break
    return losses
