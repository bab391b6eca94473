# Real, restated: pytorch/pytorch#104801, the failing order ptrblck quotes there: the allocator
# backend set after `import torch` ("Allocator backend parsed at runtime != allocator backend
# parsed at load time"). backend: is read when torch is imported, so for it the import is too late.
import torch

import os
os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "backend:cudaMallocAsync"   # expect: alloc-conf-after-cuda

x = torch.randn(1).cuda()
print(x)
