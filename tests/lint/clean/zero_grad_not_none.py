# source: the guide /work/shared/seeds/001_c9075d18183199c4.txt, step 4 (its gradient-accumulation loop)
accum_steps = 8
for i, batch in enumerate(loader):
    with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
        out = model(**batch)
        loss = out.loss / accum_steps
    loss.backward()
    if (i + 1) % accum_steps == 0:
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
