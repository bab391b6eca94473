# source: constructed (the guide's step-4 loop with its zero_grad line dropped), the guide /work/shared/seeds/001_c9075d18183199c4.txt
for i, batch in enumerate(loader):   # expect: missing-zero-grad
    out = model(**batch)
    loss = out.loss
    loss.backward()
    optimizer.step()
    scheduler.step()
