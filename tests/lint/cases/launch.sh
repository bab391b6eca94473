#!/bin/bash
# source: constructed from the guide (prevention 6: fix the allocator setting in the launch script)
# and FlagAI-Open/FlagAI:examples/BMTrain/example/run.sh@c8f8493fd8d84111c4b97993b8e1294913f71a8a (its launch line)
PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True   # expect: alloc-conf-not-exported
export NCCL_P2P_DISABLE=1
torchrun --nnodes=1 --nproc_per_node=4 train.py
export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:512   # expect: alloc-conf-after-launch
