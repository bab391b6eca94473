# source: constructed (the guide's step-4 loop with its zero_grad line dropped), the guide /work/shared/seeds/001_c9075d18183199c4.txt
for i, batch in enumerate(loader):   # expect: missing-zero-grad
    out = model(**batch)
    loss = out.loss
    loss.backward()
    optimizer.step()
    scheduler.step()


# Real bugs, restated (the statements that matter, not the files):
# wenet-e2e/wekws:kws/utils/executor.py@41a3432198f600bbbb049de91f6766e7f63df06f, Executor.train
# before its fix (issue wenet-e2e/wekws#72, PR #73, commit 141d40704f33: zero_grad() added above
# loss.backward()); the step is taken only when the clipped gradient norm is finite.
def train_epoch(model, optimizer, data_loader, device, clip):
    model.train()
    for batch_idx, (feats, target) in enumerate(data_loader):   # expect: missing-zero-grad
        feats, target = feats.to(device), target.to(device)
        logits = model(feats)
        loss = criterion(logits, target)
        loss.backward()
        grad_norm = clip_grad_norm_(model.parameters(), clip)
        if torch.isfinite(grad_norm):
            optimizer.step()


# yastrebksv/TennisCourtDetector:base_trainer.py@582d2be1b93c81bb0800f48678d9d3fc749dbabd, train()
# before its fix (issue yastrebksv/TennisCourtDetector#7, commit e5cd4f1ce26b: zero_grad() added
# after optimizer.step()).
def train(model, train_loader, optimizer, criterion, device, max_iters=1000):
    model.train()
    losses = []
    for iter_id, batch in enumerate(train_loader):   # expect: missing-zero-grad
        out = model(batch[0].float().to(device))
        loss = criterion(F.sigmoid(out), batch[1].float().to(device))
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        if iter_id > max_iters:
            break
    return losses
