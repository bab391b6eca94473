# source: constructed from the guide /work/shared/seeds/001_c9075d18183199c4.txt, step 2 ("set it before Python starts; changing it in-process has no effect")
import os
import torch

model = build().cuda()
os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"   # expect: alloc-conf-after-cuda


def main():
    x = torch.zeros(1, device="cuda")
    os.environ.setdefault("PYTORCH_CUDA_ALLOC_CONF", "max_split_size_mb:128")   # expect: alloc-conf-after-cuda


# Real, restated (the statements that matter): pytorch/pytorch#92074 ("PYTORCH_NO_CUDA_MEMORY_CACHING=1
# doesn't work"): the variable set with os.environ after a tensor went to the GPU; the allocator had
# read it once already (a static in forceUncachedAllocator, as the thread found).
a = torch.rand((2, 2))
b = a.to("cuda")
os.environ["PYTORCH_NO_CUDA_MEMORY_CACHING"] = "1"   # expect: alloc-conf-after-cuda
d = torch.rand((2, 2)).to("cuda")
