# constructed: the project's setup.py requires torch >= 2.0, so a bare zero_grad() already sets grads to None
for x, y in loader:
    optimizer.zero_grad()
    criterion(model(x), y).backward()
    optimizer.step()
