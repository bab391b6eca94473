# source: satichandrala/pytorchbasics:saveandload-Models/loadingmodelsonCPUAndGPU.py@6868a6298d396749f8c9c03c324b12da7da0a43a (trimmed excerpt)
device = torch.device("cuda")
model.to(device)
torch.save(model.state_dict(), PATH)            # expect: save-gpu-tensors

model = Model(*args, **kwargs)
model.load_state_dict(torch.load(PATH))         # expect: load-without-map-location
model.to(device)


def save(model, optimizer, epoch, path):
    # constructed: the checkpoint dict built first, saved after
    ckpt = {"model": model.state_dict(), "optim": optimizer.state_dict(), "epoch": epoch}
    torch.save(ckpt, path)                      # expect: save-gpu-tensors
