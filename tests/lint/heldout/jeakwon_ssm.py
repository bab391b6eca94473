# source: jeakwon/lpconv:ssm.py@5399b46b0c729b8ee07a3b4a71c4a325a7235e71 (trimmed excerpt)
import torch
import models

def load_checkpoint(path_to_checkpoint):
    checkpoint = torch.load(path_to_checkpoint, map_location='cpu')
    args = checkpoint['args']
    model = getattr(models, args.model)(num_classes=args.nb_classes)
    model.load_state_dict(checkpoint['model'])
    return model
