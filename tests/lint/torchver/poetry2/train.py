# constructed: torch >= 2.1 required, so a bare zero_grad() already sets grads to None
for x, y in loader:
    optimizer.zero_grad()
    criterion(model(x), y).backward()
    optimizer.step()
