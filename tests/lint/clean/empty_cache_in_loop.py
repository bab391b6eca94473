# source: the guide /work/shared/seeds/001_c9075d18183199c4.txt, prevention 7 (catch and retry), and
# inha15/Camera_YOLOv5-HJ:E2E_Camera/scripts/clean_cache.py@e3e1c25641185909f445ca8464925b824ad14919 (trimmed excerpt)
import gc
import torch

for step, batch in enumerate(loader):
    try:
        out = model(**batch)
    except torch.cuda.OutOfMemoryError:
        torch.cuda.empty_cache()
        continue
    if step % 1000 == 0:
        torch.cuda.empty_cache()

for epoch in range(epochs):
    for batch in loader:
        model(batch).loss.backward()
    torch.cuda.empty_cache()

gc.collect()
torch.cuda.empty_cache()
torch.cuda.reset_peak_memory_stats()


# source: restated from the follow-up, huggingface/transformers#31546 (torch_empty_cache_steps):
# the cache emptied only every N steps, when the user asks for it.
class Trainer:
    def training_step(self, model, inputs):
        model.train()
        loss = self.compute_loss(model, inputs)
        del inputs
        if self.args.torch_empty_cache_steps is not None and self.state.global_step % self.args.torch_empty_cache_steps == 0:
            torch.cuda.empty_cache()
        self.accelerator.backward(loss)
        return loss.detach()


# an epoch loop around a loop that runs the model through its own method (model.decode): per
# epoch, not per step; and a tokenizer's decode() is no model call
for epoch in range(epochs):
    for src in loader:
        out = model.decode(src.to(device))
        out.sum().backward()
    torch.cuda.empty_cache()
for ids in batches:
    text = tokenizer.decode(ids)
    torch.cuda.empty_cache()
