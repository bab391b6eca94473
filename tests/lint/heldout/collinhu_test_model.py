# source: CollinHU/ImgTxtClf:image_process/test_model.py@674973763801d94bb12386b1a8b31ad218783b18 (trimmed excerpt)
import torch
import torch.nn as nn
from torchvision import models


def load_model(filename, model):
    checkpoint = torch.load(filename)
    epoch = checkpoint['epoch']
    best_prec1 = checkpoint['best_prec1']
    model.load_state_dict(checkpoint['state_dict'])
    return model

model_ft = models.resnet50(pretrained=True)
for param in model_ft.parameters():
    param.requires_grad = False
num_ftrs = model_ft.fc.in_features
model_ft.fc = nn.Linear(num_ftrs, 101)
model_ft = load_model('checkpoint.pth.tar', model_ft)
