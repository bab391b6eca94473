#!/bin/bash
# source: MapleZiyer/grpo2:run_train.sh@7273201b29c0ff06a0b29187e026d4714501214e (trimmed excerpt)

export CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7

export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True

torchrun \
    --nproc_per_node=8 \
    --master_port=29500 \
    train.py
