# source: KohakuBlueleaf/HakuIR:hakuir/env.py@d194569bd088d915cb62fa7dee7fe2c953247791 (trimmed excerpt)
import os
os.environ['PYTORCH_CUDA_ALLOC_CONF'] = 'max_split_size_mb:32'
os.environ["TORCH_CUDNN_V8_API_ENABLED"] = "1"


import torch
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
