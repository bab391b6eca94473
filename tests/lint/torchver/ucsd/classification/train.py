# source: restated from UCSD-E4E/acoustic-multiclass-training:classification/train.py@541d9df6f5068876b928d6426b501a97eddf6c44
# line 79: a bare optimizer.zero_grad() in a project whose environment.yml pins torch 2.0
# (set_to_none=True is already the default there): not reported.
for i, (mels, labels) in enumerate(data_loader):
    optimizer.zero_grad()
    loss = model.loss_fn(model(mels.to(DEVICE)), labels.to(DEVICE))
    loss.backward()
    optimizer.step()
