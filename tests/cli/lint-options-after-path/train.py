import torch
loss_sum = 0
for x in data:
    loss = model(x)
    loss_sum += loss
