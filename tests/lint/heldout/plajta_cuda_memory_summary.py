# source: Plajta/Dronogeddon:src/neural/cuda_memory_summary.py@efa2eac97c230a3e43fe9877b96a879e96dd94ec (trimmed excerpt)
import torch
import gc

DEVICE = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
print(DEVICE)

print(torch.cuda.memory_summary(device=None, abbreviated=False))

torch.cuda.empty_cache()
gc.collect()
