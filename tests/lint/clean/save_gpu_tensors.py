# source: satichandrala/pytorchbasics:saveandload-Models/loadingmodelsonCPUAndGPU.py@6868a6298d396749f8c9c03c324b12da7da0a43a (trimmed excerpt, the map_location lines),
# the save side constructed from the guide's fix ("move tensors to CPU before torch.save")
device = torch.device("cuda")
model.to(device)
torch.save({k: v.cpu() for k, v in model.state_dict().items()}, PATH)

device = torch.device('cpu')
model = Model(*args, **kwargs)
model.load_state_dict(torch.load(PATH, map_location=device))
model.load_state_dict(torch.load(PATH, "cpu"))
state = torch.load(PATH, **load_kwargs)
hub = torch.hub.load("pytorch/vision", "resnet18")
