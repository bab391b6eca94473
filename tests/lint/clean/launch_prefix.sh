#!/bin/bash
# Real negative, restated: modelscope/ms-swift:examples/megatron/base_to_chat.sh@3602360a562313afbf2ef6065fdf61f271a2c5b9
# (and about a hundred more ms-swift example scripts): the allocator setting as a prefix of the
# launch command, continued over lines with other prefixes -- it reaches that command only, which is
# what it is for.
PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True' \
NPROC_PER_NODE=8 \
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 \
megatron sft \
    --model Qwen/Qwen2.5-14B \
    --micro_batch_size 1 \
    --global_batch_size 16
