# kuprel/min-dalle:min_dalle/min_dalle_torch.py@a3a247e6ec2629c73cf96ad22d3cd3c3ccaae5ef, the fix of
# PR kuprel/min-dalle#24 (restated): gradients turned off for the module with
# torch.set_grad_enabled(False), which, unlike a bare torch.no_grad() call, takes effect.
import torch
torch.set_grad_enabled(False)


def encode_torch(text_tokens, config, params):
    encoder = DalleBartEncoderTorch(layer_count=config['encoder_layers'])
    encoder.load_state_dict(params.pop('encoder'), strict=False)
    return encoder(text_tokens)


def get_all_preds(model, loader):
    with torch.no_grad():
        return [model(b) for b in loader]
