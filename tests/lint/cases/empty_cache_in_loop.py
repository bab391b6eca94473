# source: constructed from the guide /work/shared/seeds/001_c9075d18183199c4.txt, step 2 ("call it while investigating, never in the hot loop")
for step, batch in enumerate(loader):
    loss = model(**batch).loss
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    torch.cuda.empty_cache()                    # expect: empty-cache-in-loop


# source: restated (our own code) from huggingface/transformers#31372 ("cuda.empty_cache in trainer.py
# slow down training"): Trainer.training_step, run once per optimizer step, called
# torch.cuda.empty_cache() unconditionally (added in transformers#28769, removed in #31530).
class Trainer:
    def training_step(self, model, inputs):
        model.train()
        loss = self.compute_loss(model, inputs)
        del inputs
        torch.cuda.empty_cache()                    # expect: empty-cache-in-loop
        self.accelerator.backward(loss)
        return loss.detach()
