/* diagnose's stage from what training libraries print, helper
 * diagphasetrain (issue 12): a phase-line coverage audit of LLM and general
 * training frameworks (transformers Trainer, accelerate, DeepSpeed,
 * Lightning, TRL, LLaMA-Factory, axolotl, ms-swift, unsloth, torchtune,
 * fairseq, Megatron-LM, NeMo). Each row is a short synthetic paste with no
 * useful traceback: the library's own log, banner or progress-bar lines as
 * its source prints them (format strings filled with plausible values;
 * owner/repo:path@commit beside each row), then PyTorch's OOM message, the
 * library's own failure line, or a title over a paste cut before its error.
 * The stage is the one a labeller following tests/corpus-heldout33/34's
 * conventions gives: the last lines name what ran ("the last lines are the
 * trainer's checkpoint writing: checkpoint"); a training progress bar or a
 * training banner alone names no stage (h31-79, h33-69: unknown); a phase
 * line far above later activity decides nothing. No row was read from a
 * corpus log. `build/tests/test_diagnose_phasetrain --table` prints every
 * row with diagnose's stage; `--paste N` prints row N's paste. Rows after
 * the "set aside" marker were written after the classifier changes and
 * scored once (/work/notes/diagphasetrain.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/scan.h"
#include "lib/stage.h"
#include "stage_fixture.h"
#include "stage_audit.h"

/* PyTorch's current OOM message (c10/cuda/CUDACachingAllocator.cpp) */
#define OOM                                                                                                 \
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB. GPU 0 has a total capacity of " \
    "79.15 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has 78.11 GiB memory in " \
    "use. Of the allocated memory 75.40 GiB is allocated by PyTorch, and 1.90 GiB is reserved by PyTorch but " \
    "unallocated.\n"
#define RANK_OOM "[rank0]: " OOM
/* a title over a paste the poster cut before its error (as heldout33's
 * "the OOM rests on the title" rows): the stage is the paste's last lines */
#define TITLE "CUDA out of memory on 8x A100 80GB\n"

static const struct audit_row audit_rows[] = {
    /* ---- HF transformers Trainer: huggingface/transformers:src/transformers/trainer.py@2cda12cb ---- */
    {"hf-trainer", "eval", "evaluation_loop banner '***** Running Evaluation *****'", "huggingface/transformers:src/transformers/trainer.py@2cda12cb",
     "!{'loss': 1.2034, 'grad_norm': 0.81, 'learning_rate': 1.8e-05, 'epoch': 0.5}\n"
     " 50%|#####     | 500/1000 [21:03<21:03,  2.53s/it]***** Running Evaluation *****\n"
     "  Num examples = 2000\n  Batch size = 8\n"
     "  3%|3         | 8/250 [00:04<02:10,  1.85it/s]\n" OOM, NULL},
    {"hf-trainer", "checkpoint", "_save: 'Saving model checkpoint to ...'", "huggingface/transformers:src/transformers/trainer.py@2cda12cb",
     "!{'loss': 0.9431, 'grad_norm': 0.55, 'learning_rate': 1.2e-05, 'epoch': 1.0}\n"
     "Saving model checkpoint to output/checkpoint-1000\n"
     "Configuration saved in output/checkpoint-1000/config.json\n" OOM, NULL},
    {"hf-trainer", "unknown", "training banner, then the training bar: no stage (h31-79)", "huggingface/transformers:src/transformers/trainer.py@2cda12cb",
     "!***** Running training *****\n  Num examples = 52,002\n  Num Epochs = 3\n"
     "  Instantaneous batch size per device = 4\n"
     "  Total train batch size (w. parallel, distributed & accumulation) = 64\n"
     "  Gradient Accumulation steps = 16\n  Total optimization steps = 2,436\n"
     "  Number of trainable parameters = 6,738,415,616\n"
     "  0%|          | 0/2436 [00:00<?, ?it/s]\n" OOM, NULL},
    {"hf-trainer", "unknown", "a printed TrainingArguments (eval_strategy=, save_steps=) is no phase", "huggingface/transformers:src/transformers/training_args.py@2cda12cb",
     "!TrainingArguments(\n_n_gpu=1,\neval_steps=500,\neval_strategy=IntervalStrategy.STEPS,\n"
     "evaluation_strategy=steps,\nload_best_model_at_end=True,\nsave_steps=500,\nsave_strategy=SaveStrategy.STEPS,\n)\n"
     "  0%|          | 1/1500 [00:03<1:15:00,  3.00s/it]\n" OOM, NULL},
    {"hf-trainer", "load", "from_pretrained: 'Loading checkpoint shards' bar unfinished", "huggingface/transformers:src/transformers/modeling_utils.py@2cda12cb",
     "!loading weights file model.safetensors from cache at /root/.cache/huggingface/hub/models--meta-llama--Llama-2-70b-hf/snapshots/abc/model.safetensors.index.json\n"
     "Instantiating LlamaForCausalLM model under default dtype torch.bfloat16.\n"
     "Loading checkpoint shards:  47%|####6     | 7/15 [00:41<00:47,  5.92s/it]\n" OOM, NULL},
    {"hf-trainer", "eval", "a stage above, then the Prediction banner (do_predict)", "huggingface/transformers:src/transformers/trainer.py@2cda12cb",
     "!Saving model checkpoint to output\nTraining completed. Do not forget to share your model on huggingface.co/models =)\n"
     "***** Running Prediction *****\n  Num examples = 3000\n  Batch size = 16\n" OOM, NULL},
    {"seq2seq-trainer", "eval", "predict_with_generate: evaluation bar under the banner", "huggingface/transformers:src/transformers/trainer_seq2seq.py@2cda12cb",
     "!***** Running Evaluation *****\n  Num examples = 1000\n  Batch size = 32\n"
     "Generate config GenerationConfig {\n  \"decoder_start_token_id\": 0,\n  \"eos_token_id\": 1,\n  \"pad_token_id\": 0\n}\n\n"
     " 12%|#2        | 4/32 [00:31<03:40,  7.87s/it]\n" OOM, NULL},
    {"hf-trainer", "load", "'Loading best model from ... (score: ...)' at the end of training", "huggingface/transformers:src/transformers/trainer.py@2cda12cb",
     "!Training completed. Do not forget to share your model on huggingface.co/models =)\n\n"
     "Loading best model from output/checkpoint-1500 (score: 0.4213).\n" OOM, NULL},
    /* ---- datasets under the trainers: huggingface/trl:trl/trainer/sft_trainer.py, dpo_trainer.py@f2cd5771 (map desc), datasets' unit " examples" ---- */
    {"trl-sft", "data", "SFTTrainer map desc 'Tokenizing train dataset' with datasets' ' examples/s' rate", "huggingface/trl:trl/trainer/sft_trainer.py@f2cd5771",
     "!Adding EOS to train dataset: 100%|##########| 51760/51760 [00:02<00:00, 21843.11 examples/s]\n"
     "Tokenizing train dataset:  38%|###8      | 19712/51760 [00:09<00:14, 2203.41 examples/s]\n" OOM, NULL},
    {"trl-sft", "data", "'Packing train dataset' (num_proc)", "huggingface/trl:trl/trainer/sft_trainer.py@f2cd5771",
     "!Tokenizing train dataset (num_proc=8): 100%|##########| 51760/51760 [00:11<00:00, 4581.02 examples/s]\n"
     "Packing train dataset (num_proc=8):  12%|#2        | 6000/51760 [00:01<00:09, 4794.51 examples/s]\n" OOM, NULL},
    {"trl-dpo", "data", "DPOTrainer 'Extracting prompt from train dataset' bar", "huggingface/trl:trl/trainer/dpo_trainer.py@f2cd5771",
     "!Extracting prompt from train dataset:  61%|######    | 37000/60917 [00:03<00:02, 11230.40 examples/s]\n" OOM, NULL},
    {"trl-dpo", "forward", "precompute_ref_log_probs: 'Computing reference log probs for train dataset' (the reference model's forward over the data)", "huggingface/trl:trl/trainer/dpo_trainer.py@f2cd5771",
     "!Tokenizing train dataset: 100%|##########| 60917/60917 [00:38<00:00, 1590.52 examples/s]\n"
     "Computing reference log probs for train dataset:   4%|3         | 30/762 [00:21<08:42,  1.40it/s]\n" OOM, NULL},
    {"trl-sft", "unknown", "a finished map bar far above, then the training bar: no stage", "huggingface/trl:trl/trainer/sft_trainer.py@f2cd5771",
     "!Tokenizing train dataset: 100%|##########| 51760/51760 [00:09<00:00, 5601.02 examples/s]\n"
     "***** Running training *****\n  Num examples = 51,760\n  Num Epochs = 1\n"
     "  Total optimization steps = 3,235\n"
     "  0%|          | 2/3235 [00:09<4:12:00,  4.68s/it]\n" OOM, NULL},
    /* ---- accelerate: huggingface/accelerate:src/accelerate/accelerator.py, checkpointing.py@16cb6eb8 ---- */
    {"accelerate", "checkpoint", "save_state: 'Saving current state to ...', 'Saving FSDP model'", "huggingface/accelerate:src/accelerate/accelerator.py@16cb6eb8",
     "!12/05/2026 10:22:01 - INFO - accelerate.accelerator - Saving current state to output/checkpoint-2000\n"
     "12/05/2026 10:22:01 - INFO - accelerate.accelerator - Saving FSDP model\n" OOM, NULL},
    {"accelerate", "load", "load_state: 'Loading states from ...', 'Loading DeepSpeed Model and Optimizer'", "huggingface/accelerate:src/accelerate/accelerator.py@16cb6eb8",
     "!12/05/2026 10:22:01 - INFO - accelerate.accelerator - Loading states from output/checkpoint-2000\n"
     "12/05/2026 10:22:01 - INFO - accelerate.accelerator - Loading DeepSpeed Model and Optimizer\n" OOM, NULL},
    {"accelerate", "unknown", "'Model weights saved in ...' (a save that is over), then the training bar", "huggingface/accelerate:src/accelerate/checkpointing.py@16cb6eb8",
     "!12/05/2026 10:22:01 - INFO - accelerate.checkpointing - Model weights saved in output/step_500/model.safetensors\n"
     "12/05/2026 10:22:02 - INFO - accelerate.checkpointing - Optimizer state saved in output/step_500/optimizer.bin\n"
     "Steps:  10%|#         | 501/5000 [20:11<3:01:22,  2.42s/it, loss=0.112, lr=1e-05]\n" OOM, NULL},
    /* ---- DeepSpeed: deepspeedai/DeepSpeed:deepspeed/runtime/engine.py, zero/stage3.py, zero/stage_1_and_2.py@edaa7221 ---- */
    {"deepspeed", "load", "ZeRO-3 init: 'Creating bf16 ZeRO stage 3 optimizer', 'Reduce bucket size'", "deepspeedai/DeepSpeed:deepspeed/runtime/engine.py@edaa7221",
     "![2026-12-05 10:00:01,101] [INFO] [logging.py:107:log_dist] [Rank 0] DeepSpeed Basic Optimizer = FusedAdam\n"
     "[2026-12-05 10:00:01,101] [INFO] [logging.py:107:log_dist] [Rank 0] Creating torch.bfloat16 ZeRO stage 3 optimizer\n"
     "[2026-12-05 10:00:01,215] [INFO] [stage3.py:216:__init__] Reduce bucket size 500000000\n"
     "[2026-12-05 10:00:01,215] [INFO] [stage3.py:217:__init__] Prefetch bucket size 50000000\n" RANK_OOM, NULL},
    {"deepspeed", "load", "see_memory_usage 'After creating fp16 partitions: 1' (ZeRO-3 optimizer construction)", "deepspeedai/DeepSpeed:deepspeed/runtime/zero/stage3.py@edaa7221",
     "![2026-12-05 10:00:02,512] [INFO] [utils.py:781:see_memory_usage] Stage 3 initialize beginning\n"
     "[2026-12-05 10:00:02,512] [INFO] [utils.py:782:see_memory_usage] MA 12.6 GB         Max_MA 12.6 GB         CA 12.7 GB         Max_CA 13 GB \n"
     "[2026-12-05 10:00:05,901] [INFO] [utils.py:781:see_memory_usage] Before creating fp32 partitions\n"
     "[2026-12-05 10:00:05,902] [INFO] [utils.py:782:see_memory_usage] MA 12.6 GB         Max_MA 12.6 GB         CA 12.7 GB         Max_CA 13 GB \n" OOM, NULL},
    {"deepspeed", "checkpoint", "save_checkpoint: 'Saving model checkpoint: .../mp_rank_00_model_states.pt'", "deepspeedai/DeepSpeed:deepspeed/runtime/engine.py@edaa7221",
     "![2026-12-05 11:30:10,004] [INFO] [logging.py:107:log_dist] [Rank 0] [Torch] Checkpoint global_step500 is about to be saved!\n"
     "[2026-12-05 11:30:10,010] [INFO] [logging.py:107:log_dist] [Rank 0] Saving model checkpoint: output/global_step500/mp_rank_00_model_states.pt\n"
     "[2026-12-05 11:30:10,010] [INFO] [torch_checkpoint_engine.py:21:save] [Torch] Saving output/global_step500/mp_rank_00_model_states.pt...\n" OOM, NULL},
    {"deepspeed", "unknown", "engine step log 'step=10, skipped=0, lr=...' then the bar: training, no stage", "deepspeedai/DeepSpeed:deepspeed/runtime/engine.py@edaa7221",
     "![2026-12-05 10:05:00,000] [INFO] [logging.py:107:log_dist] [Rank 0] step=10, skipped=0, lr=[1.9e-05], mom=[(0.9, 0.95)]\n"
     "[2026-12-05 10:05:00,001] [INFO] [timer.py:264:stop] epoch=0/micro_step=40/global_step=10, RunningAvgSamplesPerSec=11.2, CurrSamplesPerSec=11.5, MemAllocated=40.1GB, MaxMemAllocated=71.9GB\n"
     "  1%|          | 11/1000 [02:01<3:01:00, 10.98s/it]\n" OOM, NULL},
    /* ---- Lightning: Lightning-AI/pytorch-lightning:src/lightning/pytorch/callbacks/progress/tqdm_progress.py, model_checkpoint.py, checkpoint_connector.py@7f0c3436 ---- */
    {"lightning", "eval", "'Validation DataLoader 0:' bar under the epoch bar", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/callbacks/progress/tqdm_progress.py@7f0c3436",
     "!Epoch 0:  100%|##########| 1250/1250 [10:01<00:00,  2.08it/s, v_num=3, train_loss=2.310]\n"
     "Validation DataLoader 0:  23%|##3       | 37/157 [00:09<00:31,  3.80it/s]\x1b[A\n" OOM, NULL},
    {"lightning", "eval", "'Sanity Checking DataLoader 0:' bar before the first epoch", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/callbacks/progress/tqdm_progress.py@7f0c3436",
     "!  | Name  | Type             | Params | Mode \n---------------------------------------------------\n0 | model | LlamaForCausalLM | 6.7 B  | train\n"
     "Sanity Checking DataLoader 0:   0%|          | 0/2 [00:00<?, ?it/s]\n" OOM, NULL},
    {"lightning", "forward", "'Predicting DataLoader 0:' (trainer.predict: inference over a dataloader; docs/diagnose.md: a predict outside an evaluation loop is forward)", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/callbacks/progress/tqdm_progress.py@7f0c3436",
     "!LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0]\n"
     "Predicting DataLoader 0:  41%|####1     | 52/126 [00:37<00:53,  1.39it/s]\n" OOM, NULL},
    {"lightning", "checkpoint", "ModelCheckpoint: '... reached ... saving model to ... as top 1'", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/callbacks/model_checkpoint.py@7f0c3436",
     "!Epoch 2, global step 3750: 'val_loss' reached 1.84210 (best 1.84210), saving model to '/w/ckpt/epoch=2-step=3750.ckpt' as top 1\n" OOM, NULL},
    {"lightning", "load", "'Restoring states from the checkpoint path at ...'", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/trainer/connectors/checkpoint_connector.py@7f0c3436",
     "!GPU available: True (cuda), used: True\nTPU available: False, using: 0 TPU cores\n"
     "Restoring states from the checkpoint path at /w/ckpt/last.ckpt\n" OOM, NULL},
    {"lightning", "unknown", "'Epoch 3:' training bar alone: no stage", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/callbacks/progress/tqdm_progress.py@7f0c3436",
     "!Epoch 3:  45%|####5     | 563/1250 [04:31<05:31,  2.07it/s, v_num=3, train_loss=1.920]\n" OOM, NULL},
    /* ---- LLaMA-Factory: hiyouga/LLaMA-Factory:src/llamafactory/data/loader.py, eval/evaluator.py@ff6d4d12 ---- */
    {"llama-factory", "data", "'Running tokenizer on dataset' bar", "hiyouga/LLaMA-Factory:src/llamafactory/data/loader.py@ff6d4d12",
     "![INFO|2026-12-05 10:00:00] llamafactory.data.loader:143 >> Loading dataset alpaca_en_demo.json...\n"
     "Converting format of dataset (num_proc=16): 100%|##########| 1000/1000 [00:00<00:00, 4210.11 examples/s]\n"
     "Running tokenizer on dataset (num_proc=16):  50%|#####     | 500/1000 [00:02<00:02, 201.51 examples/s]\n" OOM, NULL},
    {"llama-factory", "eval", "llamafactory-cli eval: 'Predicting batches' under 'Processing subjects'", "hiyouga/LLaMA-Factory:src/llamafactory/eval/evaluator.py@ff6d4d12",
     "!Processing subjects:   7%|7         | 4/57 [01:02<13:48, 15.63s/it]\n"
     "Predicting batches:  25%|##5       | 1/4 [00:05<00:15,  5.12s/it]\n" OOM,
     "doubtful: a benchmark's subject loop (MMLU/C-Eval) whose inner bar says 'Predicting': eval by what the tool is, forward by what the line says; no cue tells the evaluator's 'Processing subjects' from other tools' bars"},
    {"llama-factory", "load", "'Loading 4-bit BITSANDBYTES-quantized model.'", "hiyouga/LLaMA-Factory:src/llamafactory/model/model_utils/quantization.py@ff6d4d12",
     "![INFO|2026-12-05 10:00:05] llamafactory.model.model_utils.quantization:143 >> Loading 4-bit BITSANDBYTES-quantized model.\n" OOM, NULL},
    /* ---- axolotl: axolotl-ai-cloud/axolotl:src/axolotl/...@067b021c ---- */
    {"axolotl", "data", "'Tokenizing Prompts' bar (datasets.py)", "axolotl-ai-cloud/axolotl:src/axolotl/datasets.py@067b021c",
     "![2026-12-05 10:00:00,000] [INFO] [axolotl.utils.data.sft._load_raw_datasets:320] [PID:12] Loading raw datasets...\n"
     "Tokenizing Prompts (num_proc=8):  30%|###       | 15000/50000 [00:11<00:25, 1363.64 examples/s]\n" OOM, NULL},
    {"axolotl", "eval", "base trainer: 'Running evaluation step...'", "axolotl-ai-cloud/axolotl:src/axolotl/core/trainers/base.py@067b021c",
     "![2026-12-05 10:30:00,000] [INFO] [axolotl.core.trainers.base.evaluate:464] [PID:12] Running evaluation step...\n" OOM, NULL},
    {"axolotl", "unknown", "'Starting trainer...' then the training bar: no stage", "axolotl-ai-cloud/axolotl:src/axolotl/train.py@067b021c",
     "![2026-12-05 10:00:09,000] [INFO] [axolotl.train.train:226] [PID:12] Starting trainer...\n"
     "  0%|          | 0/1200 [00:00<?, ?it/s]\n" OOM, NULL},
    {"axolotl", "checkpoint", "merge_lora: 'Saving merged model to: ...'", "axolotl-ai-cloud/axolotl:src/axolotl/cli/merge_lora.py@067b021c",
     "![2026-12-05 12:00:00,000] [INFO] [axolotl.cli.merge_lora.do_merge_lora:44] [PID:12] Running merge of LoRA with base model...\n"
     "[2026-12-05 12:00:40,000] [INFO] [axolotl.cli.merge_lora.do_merge_lora:57] [PID:12] Saving merged model to: out/merged...\n" OOM, NULL},
    /* ---- ms-swift: modelscope/ms-swift:swift/megatron/callbacks/print.py, swift/megatron/init.py@3602360a ---- */
    {"ms-swift", "eval", "Megatron-SWIFT 'Evaluate: ' bar", "modelscope/ms-swift:swift/megatron/callbacks/print.py@3602360a",
     "!Train:  20%|##        | 200/1000 [10:00<40:00,  3.00s/it]\n"
     "Evaluate:  40%|####      | 40/100 [00:20<00:30,  2.00it/s]\n" OOM, NULL},
    {"ms-swift", "load", "Megatron-SWIFT 'Loading: ' bar (weights into the Megatron model)", "modelscope/ms-swift:swift/megatron/init.py@3602360a",
     "!Loading:  33%|###3      | 97/291 [00:31<01:02,  3.10it/s]\n" OOM, NULL},
    {"ms-swift", "unknown", "'Train: ' bar alone: no stage", "modelscope/ms-swift:swift/megatron/callbacks/print.py@3602360a",
     "!Train:  20%|##        | 200/1000 [10:00<40:00,  3.00s/it]\n" OOM, NULL},
    {"ms-swift", "checkpoint", "export merge_lora: 'Saving merged weights...'", "modelscope/ms-swift:swift/pipelines/export/merge_lora.py@3602360a",
     "![INFO:swift] Saving merged weights...\n" OOM, NULL},
    /* ---- unsloth: unslothai/unsloth:unsloth/save.py@d45997d9 ---- */
    {"unsloth", "checkpoint", "save_pretrained_merged: 'Unsloth: Merging 4bit and LoRA weights to 16bit...'", "unslothai/unsloth:unsloth/save.py@d45997d9",
     "!Unsloth: Merging 4bit and LoRA weights to 16bit...\nUnsloth: Will use up to 5.34 out of 12.67 RAM for saving.\n" OOM, NULL},
    /* ---- torchtune: pytorch/torchtune:recipes/full_finetune_distributed.py, torchtune/training/checkpointing/_checkpoint_client.py@bd2a0fc7 ---- */
    {"torchtune", "checkpoint", "'Saving checkpoint. This may take some time. Retrieving full model state dict...'", "pytorch/torchtune:torchtune/training/checkpointing/_checkpoint_client.py@bd2a0fc7",
     "!1|500|Loss: 0.8812: 100%|##########| 500/500 [41:01<00:00,  4.92s/it]\n"
     "INFO:torchtune.utils._logging:Saving checkpoint. This may take some time. Retrieving full model state dict...\n" OOM, NULL},
    {"torchtune", "load", "'Instantiating model and loading checkpoint took ...' is over, 'Memory stats after model init:' then set-up lines", "pytorch/torchtune:recipes/full_finetune_distributed.py@bd2a0fc7",
     "!INFO:torchtune.utils._logging:Instantiating model and loading checkpoint took 41.22 secs\n"
     "INFO:torchtune.utils._logging:Memory stats after model init:\n\tGPU peak memory allocation: 15.02 GiB\n"
     "INFO:torchtune.utils._logging:Tokenizer is initialized from file.\n"
     "INFO:torchtune.utils._logging:Optimizer is initialized.\n" OOM, NULL},
    {"torchtune", "unknown", "training bar 'EPOCH|STEP|Loss: ...' alone: no stage", "pytorch/torchtune:recipes/full_finetune_distributed.py@bd2a0fc7",
     "!1|12|Loss: 1.5131:   1%|1         | 12/1000 [00:31<42:00,  2.55s/it]\n" OOM, NULL},
    /* ---- fairseq: facebookresearch/fairseq:fairseq_cli/train.py, fairseq/trainer.py, fairseq/checkpoint_utils.py@3d262bb2 ---- */
    {"fairseq", "eval", "'begin validation on \"valid\" subset'", "facebookresearch/fairseq:fairseq_cli/train.py@3d262bb2",
     "!2026-12-05 10:00:00 | INFO | fairseq_cli.train | end of epoch 1 (average epoch stats below)\n"
     "2026-12-05 10:00:00 | INFO | fairseq_cli.train | begin validation on \"valid\" subset\n" OOM, NULL},
    {"fairseq", "checkpoint", "'Preparing to save checkpoint for epoch 1 @ 500 updates'", "facebookresearch/fairseq:fairseq/checkpoint_utils.py@3d262bb2",
     "!2026-12-05 10:00:00 | INFO | fairseq.checkpoint_utils | Preparing to save checkpoint for epoch 1 @ 500 updates\n" OOM, NULL},
    {"fairseq", "optimizer", "_log_oom then 'OOM during optimization, irrecoverable' (after the message)", "facebookresearch/fairseq:fairseq/trainer.py@3d262bb2",
     "!2026-12-05 10:00:00 | WARNING | fairseq.trainer | OOM: Ran out of memory with exception: CUDA out of memory. Tried to allocate 1.96 GiB (GPU 0; 79.15 GiB total capacity; 75.40 GiB already allocated; 1.02 GiB free; 77.30 GiB reserved in total by PyTorch)\n"
     "2026-12-05 10:00:00 | ERROR | fairseq.trainer | OOM during optimization, irrecoverable\n", NULL},
    {"fairseq", "eval", "'ran out of memory in validation step, retrying batch' (after the message)", "facebookresearch/fairseq:fairseq/trainer.py@3d262bb2",
     "!2026-12-05 10:00:00 | WARNING | fairseq.trainer | OOM: Ran out of memory with exception: CUDA out of memory. Tried to allocate 1.96 GiB (GPU 0; 79.15 GiB total capacity; 75.40 GiB already allocated; 1.02 GiB free; 77.30 GiB reserved in total by PyTorch)\n"
     "2026-12-05 10:00:00 | WARNING | fairseq.trainer | ran out of memory in validation step, retrying batch\n", NULL},
    {"fairseq", "unknown", "'begin training epoch 1' then 'Start iterating over samples': training, no stage", "facebookresearch/fairseq:fairseq_cli/train.py@3d262bb2",
     "!2026-12-05 10:00:00 | INFO | fairseq.trainer | begin training epoch 1\n"
     "2026-12-05 10:00:00 | INFO | fairseq_cli.train | Start iterating over samples\n" OOM, NULL},
    /* ---- Megatron-LM: NVIDIA/Megatron-LM:megatron/training/training.py, checkpointing.py, pretrain_gpt.py@d98e8a64 ---- */
    {"megatron-lm", "data", "'> building train, validation, and test datasets for GPT ...' (the word validation names the split)", "NVIDIA/Megatron-LM:pretrain_gpt.py@d98e8a64",
     "![after model, optimizer, and learning rate scheduler are built] datetime: 2026-12-05 10:00:00.000000 \n"
     "> building train, validation, and test datasets ...\n"
     "> building train, validation, and test datasets for GPT ...\n" OOM, NULL},
    {"megatron-lm", "checkpoint", "'saving checkpoint at iteration 1000 to ... in torch_dist format'", "NVIDIA/Megatron-LM:megatron/training/checkpointing.py@d98e8a64",
     "! [2026-12-05 12:00:00] iteration     1000/  500000 | consumed samples:       512000 | elapsed time per iteration (ms): 3012.1 | lm loss: 2.812E+00 |\n"
     "[2026-12-05 12:00:01.123456] saving checkpoint at iteration    1000 to /ckpt in torch_dist format\n" OOM, NULL},
    {"megatron-lm", "eval", "'Evaluating iter 5/100'", "NVIDIA/Megatron-LM:megatron/training/training.py@d98e8a64",
     "!Evaluating iter 1/100\nEvaluating iter 2/100\nEvaluating iter 3/100\n" OOM, NULL},
    {"megatron-lm", "load", "' loading distributed checkpoint from /ckpt at iteration 1000'", "NVIDIA/Megatron-LM:megatron/training/checkpointing.py@d98e8a64",
     "! loading distributed checkpoint from /ckpt at iteration 1000\n" OOM, NULL},
    {"megatron-lm", "unknown", "'[before the start of training step]' then 'training ...': no stage", "NVIDIA/Megatron-LM:megatron/training/training.py@d98e8a64",
     "![after dataloaders are built] datetime: 2026-12-05 10:00:40.000000 \ndone with setup ...\ntraining ...\n"
     "[before the start of training step] datetime: 2026-12-05 10:00:41.000000 \n" OOM, NULL},
    {"megatron-lm", "load", "a title over a paste cut after 'building GPT model ...' and the parameter count", "NVIDIA/Megatron-LM:megatron/post_training/model_builder.py@d98e8a64",
     "!" TITLE "building GPT model ...\n > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 6738415616\n", NULL},
    {"deepspeed", "load", "a title over a paste cut in ZeRO-3 set-up ('Before initializing optimizer states')", "deepspeedai/DeepSpeed:deepspeed/runtime/zero/stage3.py@edaa7221",
     "!" TITLE "[2026-12-05 10:00:05,901] [INFO] [utils.py:781:see_memory_usage] After creating fp32 partitions\n"
     "[2026-12-05 10:00:05,950] [INFO] [utils.py:781:see_memory_usage] Before initializing optimizer states\n"
     "[2026-12-05 10:00:05,951] [INFO] [utils.py:782:see_memory_usage] MA 12.6 GB         Max_MA 12.6 GB         CA 12.7 GB         Max_CA 13 GB \n", NULL},
    /* ---- NeMo: NVIDIA/NeMo:nemo/lightning/pytorch/strategies/megatron_strategy.py, nemo/lightning/pytorch/callbacks/peft.py@8cfedd72 ---- */
    {"nemo", "load", "'Restoring model weights from RestoreConfig(...)'", "NVIDIA/NeMo:nemo/lightning/pytorch/strategies/megatron_strategy.py@8cfedd72",
     "![NeMo I 2026-12-05 10:00:00 megatron_strategy:1196] Restoring model weights from RestoreConfig(path='/ckpt/llama3_8b', adapter_path=None, load_model_state=True, load_optim_state=False)\n" OOM, NULL},
    {"nemo", "load", "PEFT callback 'Loading adapters from ...'", "NVIDIA/NeMo:nemo/lightning/pytorch/callbacks/peft.py@8cfedd72",
     "![NeMo I 2026-12-05 10:00:00 peft:238] Loading adapters from /ckpt/lora/weights\n" OOM, NULL},
    /* ---- second round: written after the first fix, scored before the second ---- */
    {"llama-factory", "generate", "scripts/vllm_infer.py: vLLM's 'Processed prompts' bar (llm.generate, vllm-project/vllm:vllm/entrypoints/llm.py@10fdb8f0)", "hiyouga/LLaMA-Factory:scripts/vllm_infer.py@ff6d4d12",
     "!Adding requests: 100%|##########| 1000/1000 [00:01<00:00, 812.40it/s]\n"
     "Processed prompts:  45%|####5     | 450/1000 [02:12<02:41,  3.41it/s, est. speed input: 1234.56 toks/s, output: 567.89 toks/s]\n" OOM, NULL},
    {"hf-trainer", "load", "a finished 'Loading checkpoint shards' bar is the last line (from_pretrained moved the shards; h33-105)", "huggingface/transformers:src/transformers/modeling_utils.py@2cda12cb",
     "!Loading checkpoint shards: 100%|##########| 4/4 [00:12<00:00,  3.02s/it]\n" OOM, NULL},
    {"hf-trainer", "checkpoint", "_rotate_checkpoints: 'Deleting older checkpoint [...] due to args.save_total_limit' (while saving)", "huggingface/transformers:src/transformers/trainer.py@2cda12cb",
     "!Saving model checkpoint to output/checkpoint-1500\n"
     "Deleting older checkpoint [output/checkpoint-500] due to args.save_total_limit\n" OOM, NULL},
    {"datasets", "data", "builder: 'Generating train split' bar (examples unit)", "huggingface/datasets:src/datasets/builder.py@28b5e243",
     "!Generating train split: 340000 examples [00:21, 16102.11 examples/s]\n" OOM, NULL},
    {"axolotl", "data", "'Loading raw datasets...' alone (reading datasets is data, not loading a model)", "axolotl-ai-cloud/axolotl:src/axolotl/utils/data/sft.py@067b021c",
     "![2026-12-05 10:00:00,000] [INFO] [axolotl.utils.data.sft._load_raw_datasets:320] [PID:12] Loading raw datasets...\n" OOM, NULL},
    {"peft", "unknown", "print_trainable_parameters, then the training bar: no stage", "huggingface/peft:src/peft/peft_model.py@91685f52",
     "!trainable params: 4,194,304 || all params: 6,742,609,920 || trainable%: 0.0622\n"
     "  0%|          | 1/1000 [00:04<1:10:00,  4.20s/it]\n" OOM, NULL},
    {"deepspeed", "load", "load_checkpoint: 'loading 8 zero partition checkpoints for rank 0'", "deepspeedai/DeepSpeed:deepspeed/runtime/engine.py@edaa7221",
     "![2026-12-05 10:00:00,000] [INFO] [engine.py:4650:_load_zero_checkpoint] loading 8 zero partition checkpoints for rank 0\n" OOM, NULL},
    {"deepspeed", "checkpoint", "'[Torch] Checkpoint global_step500 is about to be saved!' alone", "deepspeedai/DeepSpeed:deepspeed/runtime/checkpoint_engine/torch_checkpoint_engine.py@edaa7221",
     "![2026-12-05 11:30:10,004] [INFO] [logging.py:107:log_dist] [Rank 0] [Torch] Checkpoint global_step500 is about to be saved!\n" OOM, NULL},
    {"megatron-lm", "unknown", "'successfully saved checkpoint' (over), then iteration lines: no stage", "NVIDIA/Megatron-LM:megatron/training/checkpointing.py@d98e8a64",
     "!  [2026-12-05 12:00:09.000000] successfully saved checkpoint from iteration    1000 to /ckpt [ t 1/1, p 1/1 ]\n"
     " [2026-12-05 12:00:40] iteration     1010/  500000 | consumed samples:       517120 | elapsed time per iteration (ms): 3010.2 | lm loss: 2.809E+00 |\n" OOM, NULL},
    {"lightning", "unknown", "'Restored all states from the checkpoint at ...' (over), then the epoch bar: no stage", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/trainer/connectors/checkpoint_connector.py@7f0c3436",
     "!Restored all states from the checkpoint at /w/ckpt/last.ckpt\n"
     "Epoch 3:   1%|1         | 12/1250 [00:06<10:31,  1.96it/s, v_num=4, train_loss=1.900]\n" OOM, NULL},
    {"lightning", "eval", "'Testing DataLoader 0:' bar (trainer.test)", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/callbacks/progress/tqdm_progress.py@7f0c3436",
     "!Testing DataLoader 0:  12%|#2        | 19/157 [00:05<00:38,  3.61it/s]\n" OOM, NULL},
    {"torchtune", "checkpoint", "'Saving checkpoint asynchronously. Retrieving full state dict...'", "pytorch/torchtune:torchtune/training/checkpointing/_checkpoint_client.py@bd2a0fc7",
     "!INFO:torchtune.utils._logging:Saving checkpoint asynchronously. Retrieving full state dict...\n" OOM, NULL},
    {"accelerate", "load", "load_state: 'Loading the state of AdamW from ...'", "huggingface/accelerate:src/accelerate/checkpointing.py@16cb6eb8",
     "!12/05/2026 10:22:01 - INFO - accelerate.checkpointing - Loading the state of AdamW from output/step_500/optimizer.bin\n" OOM, NULL},
    {"nemo", "data", "'Loading HF dataset from ...': reading a dataset is data", "NVIDIA/NeMo:nemo/collections/llm/gpt/data/hf_dataset.py@8cfedd72",
     "![NeMo I 2026-12-05 10:00:00 hf_dataset:273] Loading HF dataset from squad, this may take a moment.\n" OOM, NULL},
    {"ms-swift", "checkpoint", "'Saving model checkpoint to ...' (swift trainers' mixin)", "modelscope/ms-swift:swift/trainers/mixin.py@3602360a",
     "![INFO:swift] Saving model checkpoint to /w/output/v0-20261205/checkpoint-500\n" OOM, NULL},
    {"fairseq", "unknown", "'Saved checkpoint ... (writing took 3.1 seconds)' (over), then 'begin training epoch 2': no stage", "facebookresearch/fairseq:fairseq/checkpoint_utils.py@3d262bb2",
     "!2026-12-05 10:00:00 | INFO | fairseq.checkpoint_utils | Saved checkpoint checkpoints/checkpoint1.pt (epoch 1 @ 500 updates, score 5.2) (writing took 3.1 seconds)\n"
     "2026-12-05 10:00:01 | INFO | fairseq.trainer | begin training epoch 2\n" OOM, NULL},
    /* ---- set aside: written after the classifier changes, scored once ---- */
    /* ---- torchtitan: pytorch/torchtitan:torchtitan/trainer.py, torchtitan/components/checkpointer/dcp.py@b5bcd76c ---- */
    {"torchtitan", "checkpoint", "'Saving the checkpoint.' (dcp.py save)", "pytorch/torchtitan:torchtitan/components/checkpointer/dcp.py@b5bcd76c",
     "![rank0]:[titan] 2026-12-05 10:30:00,101 - root - INFO - step: 1000  loss:  2.3120  grad_norm:  0.4100  memory: 60.21GiB(76.10%)  tps: 3,101  tflops: 181.20  mfu: 18.32%\n"
     "[rank0]:[titan] 2026-12-05 10:30:00,102 - root - INFO - Saving the checkpoint.\n" RANK_OOM, NULL},
    {"torchtitan", "load", "'Loading the checkpoint from ./outputs/checkpoint/step-1000.'", "pytorch/torchtitan:torchtitan/components/checkpointer/dcp.py@b5bcd76c",
     "![rank0]:[titan] 2026-12-05 10:00:09,000 - root - INFO - Loading the checkpoint from ./outputs/checkpoint/step-1000.\n" RANK_OOM, NULL},
    {"torchtitan", "unknown", "'Training starts at step 1' then step lines: training, no stage", "pytorch/torchtitan:torchtitan/trainer.py@b5bcd76c",
     "![rank0]:[titan] 2026-12-05 10:00:10,000 - root - INFO - Trainer is initialized with 8192 tokens per DP rank, 65536 tokens per train step, gradient accumulation steps 1, maximum context length 8192, total steps 1000 (warmup 200)\n"
     "[rank0]:[titan] 2026-12-05 10:00:10,001 - root - INFO - Training starts at step 1\n"
     "[rank0]:[titan] 2026-12-05 10:00:20,000 - root - INFO - step:  1  loss: 12.2510  grad_norm: 10.1200  memory: 60.21GiB(76.10%)  tps: 1,234  tflops: 72.10  mfu: 7.29%\n" RANK_OOM,
     "set-aside miss: torchtitan's 'Training starts at step 1' is no training-start line the table knows, and the ' is initialized' cue reads 'Trainer is initialized with ...' above it as set-up (load) though the step lines after it show training"},
    {"torchtitan", "load", "'Building llama3 8B', 'Model llama3 8B size: ... total parameters' (the model is moved and initialised next)", "pytorch/torchtitan:torchtitan/trainer.py@b5bcd76c",
     "![rank0]:[titan] 2026-12-05 10:00:01,000 - root - INFO - Building llama3 8B\n"
     "[rank0]:[titan] 2026-12-05 10:00:02,000 - root - INFO - Model llama3 8B size: 8,030,261,248 total parameters\n" RANK_OOM, NULL},
    /* ---- litgpt: Lightning-AI/litgpt:litgpt/finetune/lora.py, litgpt/pretrain.py@26857050 ---- */
    {"litgpt", "eval", "'Validating ...'", "Lightning-AI/litgpt:litgpt/finetune/lora.py@26857050",
     "!Epoch 1 | iter 200 step 50 | loss train: 1.204, val: n/a | iter time: 312.11 ms (step)\n"
     "Validating ...\n" OOM, NULL},
    {"litgpt", "checkpoint", "'Saving checkpoint to ...'", "Lightning-AI/litgpt:litgpt/pretrain.py@26857050",
     "!Saving checkpoint to '/w/out/pretrain/step-00001000/lit_model.pth'\n" OOM, NULL},
    {"litgpt", "load", "'Time to instantiate model: ...', 'Total parameters: ...' (fabric.setup moves the model next)", "Lightning-AI/litgpt:litgpt/pretrain.py@26857050",
     "!Time to instantiate model: 0.12 seconds.\nTotal parameters: 6,738,415,616\n" OOM,
    
     "set-aside miss: 'Time to instantiate model: 0.12 seconds.' and 'Total parameters:' name no action a table or verb knows"},
    {"litgpt", "unknown", "training iteration lines alone: no stage", "Lightning-AI/litgpt:litgpt/finetune/lora.py@26857050",
     "!Epoch 1 | iter 10 step 2 | loss train: 1.890, val: n/a | iter time: 301.72 ms (step)\n"
     "Epoch 1 | iter 11 step 2 | loss train: 1.851, val: n/a | iter time: 298.02 ms\n" OOM, NULL},
    /* ---- OpenRLHF: OpenRLHF/OpenRLHF:openrlhf/trainer/sft_trainer.py, ppo_trainer.py, ppo_utils/experience_maker.py, ray/vllm_engine.py@3c3be623 ---- */
    {"openrlhf", "eval", "SFT 'Eval stage of steps 200' bar", "OpenRLHF/OpenRLHF:openrlhf/trainer/sft_trainer.py@3c3be623",
     "!Train step of epoch 0:  20%|##        | 200/1000 [10:00<40:00,  3.00s/it, gpt_loss=1.21, lr=9e-06]\n"
     "Eval stage of steps 200:  35%|###5      | 7/20 [00:05<00:09,  1.40it/s]\n" OOM, NULL},
    {"openrlhf", "unknown", "'Train step of epoch 0' bar alone: no stage", "OpenRLHF/OpenRLHF:openrlhf/trainer/sft_trainer.py@3c3be623",
     "!Train step of epoch 0:  20%|##        | 200/1000 [10:00<40:00,  3.00s/it, gpt_loss=1.21, lr=9e-06]\n" OOM, NULL},
    {"openrlhf", "eval", "PPO '\xe2\x8f\xb0 Evaluation start time: ...'", "OpenRLHF/OpenRLHF:openrlhf/trainer/ppo_trainer.py@3c3be623",
     "!\xe2\x8f\xb0 Evaluation start time: 2026-12-05 10:00:00\n" OOM, NULL},
    {"openrlhf", "forward", "'\xf0\x9f\x9a\x80 Starting experience making with 512 samples' (log probs and values of generated samples: forward)", "OpenRLHF/OpenRLHF:openrlhf/trainer/ppo_utils/experience_maker.py@3c3be623",
     "!\xf0\x9f\x9a\x80 Starting experience making with 512 samples\n" OOM,
     "set-aside miss: 'experience making' is no phase noun; 'samples' reads as sampling (generate)"},
    {"openrlhf", "load", "vLLM engine actor 'creating LLM with bundle_indices=...'", "OpenRLHF/OpenRLHF:openrlhf/trainer/ray/vllm_engine.py@3c3be623",
     "!(LLMRayActor pid=4211) creating LLM with bundle_indices=[0, 1]\n" OOM,
     "set-aside miss: 'creating LLM' names no verb of the table ('creat' is none)"},
    /* ---- verl: volcengine/verl:verl/trainer/ppo/ray_trainer.py@b178a3cd ---- */
    {"verl", "load", "'Load from checkpoint folder: ...'", "volcengine/verl:verl/trainer/ppo/ray_trainer.py@b178a3cd",
     "!(TaskRunner pid=1201) Load from checkpoint folder: /w/ckpt/global_step_100\n" OOM, NULL},
    {"verl", "checkpoint", "'Force saving checkpoint: ESI instance expiration approaching.'", "volcengine/verl:verl/trainer/ppo/ray_trainer.py@b178a3cd",
     "!(TaskRunner pid=1201) Force saving checkpoint: ESI instance expiration approaching.\n" OOM, NULL},
    {"verl", "unknown", "'Training Progress' bar alone: no stage", "volcengine/verl:verl/trainer/ppo/ray_trainer.py@b178a3cd",
     "!Training Progress:   3%|3         | 6/200 [10:11<5:29:00, 101.86s/it]\n" OOM, NULL},
    {"verl", "eval", "'validation generation end' (validation scores the generated responses next)", "volcengine/verl:verl/trainer/ppo/ray_trainer.py@b178a3cd",
     "!(TaskRunner pid=1201) validation generation end\n" OOM, NULL},
};

static const struct audit audit = {audit_rows, sizeof audit_rows / sizeof audit_rows[0], ""};

static void test_phase_lines(void **state)
{
    (void)state;
    assert_int_equal(audit_misses(&audit, false), 0);
}

int main(int argc, char **argv)
{
    int rc = audit_main(&audit, argc, argv);
    if (rc >= 0) return rc;
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_phase_lines)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
