#!/bin/bash
# source: FlagAI-Open/FlagAI:examples/BMTrain/example/run.sh@c8f8493fd8d84111c4b97993b8e1294913f71a8a (trimmed excerpt, the allocator line added before it as the guide says)
export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
export NCCL_P2P_DISABLE=1
export CUDA_LAUNCH_BLOCKING=1
torchrun --nnodes=1 --nproc_per_node=4 --rdzv_id=1 --rdzv_backend=c10d --rdzv_endpoint=localhost train.py
PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:512 OMP_NUM_THREADS=1 torchrun --standalone train.py > log
echo "set PYTORCH_CUDA_ALLOC_CONF=x later"
