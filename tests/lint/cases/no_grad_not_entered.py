# source: constructed (a bare torch.no_grad() call, the mistake the decorator form in
# s-froghyar/thesis-project-mgr:tpreporter/reporter_utils.py@53252abd24983cf86feda9199102bf841d8f514a avoids)
import torch

def get_all_preds(model, loader):
    torch.no_grad()                             # expect: no-grad-not-entered
    return [model(b) for b in loader]           # expect: eval-without-no-grad


# Real, restated (the statements that matter): kuprel/min-dalle:min_dalle/min_dalle_torch.py@9d6b6dcc92e8500c9f18bc131b14a81ecdd914e3
# called torch.no_grad() once at module level, meaning to turn gradients off for the whole
# text-to-image pipeline; PR kuprel/min-dalle#24 (commit a3a247e6ec26) replaced it with
# torch.set_grad_enabled(False), and the author answered "this significantly reduced the memory
# usage in torch".
torch.no_grad()                                 # expect: no-grad-not-entered


def encode_torch(text_tokens, config, params):
    encoder = DalleBartEncoderTorch(layer_count=config['encoder_layers'])
    encoder.load_state_dict(params.pop('encoder'), strict=False)
    return encoder(text_tokens)
