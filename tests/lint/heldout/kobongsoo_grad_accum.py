# source: kobongsoo/GPUTech:reference/gradient_accum_training_loop.py@dfec2f50ee3bb5291e30a3fc4a293dcf539d059e (trimmed excerpt)
accumulation_steps = 8

for batch_idx, (inputs, targets) in enumerate(data_loader):
    inputs = inputs.to(device)
    targets = targets.to(device)
    preds = model(inputs)
    loss  = criterion(preds, targets)
    loss = loss / accumulation_steps
    loss.backward()
    if ((batch_idx + 1) % accumulation_steps == 0) or (batch_idx + 1 == len(data_loader)):
        optimizer.step()
        optimizer.zero_grad()
