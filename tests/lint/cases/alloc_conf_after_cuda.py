# source: constructed from the guide /work/shared/seeds/001_c9075d18183199c4.txt, step 2 ("set it before Python starts; changing it in-process has no effect")
import os
import torch

model = build().cuda()
os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"   # expect: alloc-conf-after-cuda


def main():
    x = torch.zeros(1, device="cuda")
    os.environ.setdefault("PYTORCH_CUDA_ALLOC_CONF", "max_split_size_mb:128")   # expect: alloc-conf-after-cuda
