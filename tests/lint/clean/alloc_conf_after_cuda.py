# source: Hieu1607/RAG_best_practices:set_memory_config.py@7f0f82ada47eb604e7abc355140537c00503060a (trimmed excerpt)
import os

os.environ['PYTORCH_CUDA_ALLOC_CONF'] = 'expandable_segments:True'

print("PyTorch CUDA memory configuration set:")
print(f"  PYTORCH_CUDA_ALLOC_CONF={os.environ['PYTORCH_CUDA_ALLOC_CONF']}")

import torch
if torch.cuda.is_available():
    n = torch.cuda.device_count()
conf = os.environ["PYTORCH_CUDA_ALLOC_CONF"]
