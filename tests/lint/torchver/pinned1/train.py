# constructed: the same loop in a project that requires torch 1.13
for x, y in loader:
    optimizer.zero_grad()                   # expect: zero-grad-not-none
    criterion(model(x), y).backward()
    optimizer.step()
