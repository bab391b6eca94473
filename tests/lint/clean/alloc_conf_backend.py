# pytorch/pytorch#104801, the order that works there (restated): the allocator backend chosen
# before `import torch`; and pytorch/pytorch#92074's variable set before the first tensor reaches
# the GPU.
import os
os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "backend:cudaMallocAsync"
os.environ["PYTORCH_NO_CUDA_MEMORY_CACHING"] = "1"

import torch

x = torch.randn(1).cuda()
b = torch.rand((2, 2)).to("cuda")
