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


# source: restated (our own code) from PixArt-alpha/PixArt-alpha:scripts/inference.py@cac2fd3b4544cf7620d8fbbf8b19d97ffcb85892
# (visualize(), a miss of held-out set 5): one batch of prompts per iteration, the model run
# through a sampler and the VAE's decode(), the cache emptied after every batch; the loops
# inside (preparing each prompt, saving each image) run no model and make it no epoch loop.
@torch.inference_mode()
def visualize(items, bs):
    for chunk in get_chunks(items, bs):
        prompts = []
        for prompt in chunk:
            prompts.append(prompt.strip())
        z = torch.randn(len(prompts), 4, 64, 64, device=device)
        latents = sampler.sample(z, prompts)
        samples = vae.decode(latents / 0.18215).sample
        torch.cuda.empty_cache()                    # expect: empty-cache-in-loop
        for i, sample in enumerate(samples):
            save_image(sample, f"{i}.png")


# the same loop with the model called directly: the image-saving loop inside is not a step loop
@torch.no_grad()
def sample_all(model, batches):
    for x in batches:
        images = model(x.to(device))
        torch.cuda.empty_cache()                    # expect: empty-cache-in-loop
        for i, image in enumerate(images):
            save_image(image, f"{i}.png")


# an encoder-decoder run through its own methods (hkproj/pytorch-transformer's model.encode /
# model.decode, a VAE's decode): a call of the model all the same
def translate_all(model, batches):
    for src, mask in batches:
        memory = model.encode(src, mask)
        torch.cuda.empty_cache()                    # expect: empty-cache-in-loop
