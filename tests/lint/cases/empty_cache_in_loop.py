# source: constructed from the guide /work/shared/seeds/001_c9075d18183199c4.txt, step 2 ("call it while investigating, never in the hot loop")
for step, batch in enumerate(loader):
    loss = model(**batch).loss
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    torch.cuda.empty_cache()                    # expect: empty-cache-in-loop
