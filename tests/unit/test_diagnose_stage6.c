/* diagnose's stage on logs nobody here wrote, helper diagstage6 (issue 12):
 * the last activity of a paste cut before its error, and the other
 * mechanisms of that round. Each case is real text from the public thread
 * named beside it (the corpus row in brackets); each assertion failed on
 * the code before its mechanism (main 704aea4). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/scan.h"
#include "lib/stage.h"
#include "stage_fixture.h"

/* A phase announcement: a gerund of the verb table first in the message,
 * after the logger's prefixes. */
static void test_phase_line(void **state)
{
    (void)state;
    /* turboderp-org/exllamav2#663 (h19-32): tabbyAPI's loading bar */
    const char *bar = "Loading model modules \xe2\x94\x81\xe2\x94\x81\xe2\x94\x81   1%   1/163 -:--:--";
    assert_int_equal(stage_phase_line(bar, strlen(bar)), OOM_STAGE_LOAD);
    /* MahmoudAshraf97/whisper-diarization#76 (h20-91): NeMo's level letter is no "I" of prose */
    const char *nemo = "[NeMo I 2023-08-13 18:24:02 clustering_diarizer:343] Extracting embeddings for Diarization";
    assert_int_equal(stage_phase_line(nemo, strlen(nemo)), OOM_STAGE_FORWARD);
    const char *info = "INFO:     Loading model: C:\\Users\\Joshua\\Downloads\\tabbyAPI\\models\\Llama-3.1";
    assert_int_equal(stage_phase_line(info, strlen(info)), OOM_STAGE_LOAD);
    /* the verb later in the line, or not a gerund: no announcement */
    const char *later = "[NeMo I 2023-08-13 18:24:02 collections:298] Filtered duration for loading collection is";
    assert_int_equal(stage_phase_line(later, strlen(later)), OOM_STAGE_UNKNOWN);
    const char *past = "[NeMo I 2023-08-13 18:17:56 collections:299] Dataset loaded with 6287 items";
    assert_int_equal(stage_phase_line(past, strlen(past)), OOM_STAGE_UNKNOWN);
    /* prose of the user (first person) */
    const char *prose = "Running out of memory when loading large model in dual GPU setup.";
    assert_int_equal(stage_phase_line(prose, strlen(prose)), OOM_STAGE_UNKNOWN);
}

/* The paste names the OOM in its title only and is cut before the error
 * line: the tool's last announcement at the end says what ran. */
static void test_last_activity_of_a_cut_paste(void **state)
{
    (void)state;
    /* turboderp-org/exllamav2#663 (h19-32, whole): the title, the issue
     * template, then tabbyAPI's log, cut in the traceback's first frame */
    assert_string_equal(
        stage_of(
                 "[BUG] Out of memory on dual 3090 setup\n"
                 "### OS\n"
                 "\n"
                 "Windows\n"
                 "\n"
                 "### GPU Library\n"
                 "\n"
                 "CUDA 12.x\n"
                 "\n"
                 "### Python version\n"
                 "\n"
                 "3.11\n"
                 "\n"
                 "### Pytorch version\n"
                 "\n"
                 "2.4.1+cu121\n"
                 "\n"
                 "### Describe the bug\n"
                 "\n"
                 "Running out of memory when loading large model in dual GPU setup. Tried auto split as well as manual split [20,24]\n"
                 "\n"
                 "### Reproduction steps\n"
                 "\n"
                 "Load model\n"
                 "\n"
                 "### Expected behavior\n"
                 "\n"
                 "Model should have been offloaded across both GPUs with enough memory\n"
                 "\n"
                 "### Logs\n"
                 "\n"
                 "```INFO:     127.0.0.1:65376 - \"POST /v1/model/load HTTP/1.1\" 200\n"
                 "INFO:     Unloading existing model.\n"
                 "INFO:     Model unloaded.\n"
                 "WARNING:  The given cache_size (4096) is less than 2 * max_seq_len and may be too small for requests using CFG.\n"
                 "WARNING:  Ignore this warning if you do not plan on using CFG.\n"
                 "INFO:     Attempting to load a prompt template if present.\n"
                 "INFO:     Using template \"from_tokenizer_config\" for chat completions.\n"
                 "INFO:     Loading draft model: C:\\Users\\Joshua\\Downloads\\tabbyAPI\\models\\Llama-3.1-Nemotron-70B-Instruct-HF-exl2-3.0\n"
                 "INFO:     Loading model: C:\\Users\\Joshua\\Downloads\\tabbyAPI\\models\\Llama-3.1-Nemotron-70B-Instruct-HF-exl2-3.0\n"
                 "INFO:     Loading with a manual GPU split (or a one GPU setup)\n"
                 "Loading draft modules \xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81"" 100% 163/163 0:00:00\n"
                 "Loading model modules \xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""\xe2\x94\x81""   1%   1/163 -:--:--\n"
                 "ERROR:    Traceback (most recent call last):\n"
                 "ERROR:      File \"C:\\Users\\Joshua\\\n"),
        "load");
    /* MahmoudAshraf97/whisper-diarization#76 (h20-91): the log ends mid-line */
    assert_string_equal(
        stage_of("NeMo OutOfMemoryError: CUDA out of memory.\n"
                 "Great updates to the Colab - however, with the free version using the T4, the NeMo MSDD "
                 "diarization model fails to cluster when I try both GPU fp16 and int8:\n\n"
                 "[NeMo I 2023-08-13 18:24:02 clustering_diarizer:389] Saved embedding files to "
                 "/content/temp_outputs/speaker_outputs/embeddings\n"
                 "[NeMo I 2023-08-13 18:24:02 clustering_diarizer:343] Extracting embeddings for Diarization\n"
                 "[NeMo I 2023-08-13 18:24:02 collections:298] Filtered duration for loading collection is"),
        "forward");
    /* neonbjb/tortoise-tts#439 (h20-111, whole): past a bar, another phase
     * and the memory table the paste ends in */
    assert_string_equal(
        stage_of(
                 "torch.cuda.OutOfMemoryError on older GPU\n"
                 "Hi, I'm trying to run a samplg generation using `do_tts.py` and I ran into memory issues on my 11GB GTX 1080 Ti (old, I know). \n"
                 "There seem to be enough memory to run the inference - wondering if the error might be caused by the lack of AMP support in my older GPU? Or would it be something else?\n"
                 "\n"
                 "```\n"
                 "tortoise-tts \xe2\x9e\x9c"" python tortoise/do_tts.py --text \"I'm going to speak this\" --voice random --preset fast               \n"
                 "Generating autoregressive samples..\n"
                 "100%|\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""| 12/12 [00:29<00:00,  2.48s/it]\n"
                 "Computing best candidates using CLVP\n"
                 "|===========================================================================|\n"
                 "|                  PyTorch CUDA memory summary, device ID 0                 |\n"
                 "|---------------------------------------------------------------------------|\n"
                 "|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |\n"
                 "|===========================================================================|\n"
                 "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n"
                 "|---------------------------------------------------------------------------|\n"
                 "| Allocated memory      |    972 MiB |   2160 MiB |   1358 GiB |   1358 GiB |\n"
                 "|       from large pool |    970 MiB |   2125 MiB |   1217 GiB |   1216 GiB |\n"
                 "|       from small pool |      2 MiB |\n"),
        "generate");
    /* liucongg/ChatGLM-Finetuning#102 (h19-47): the loading bar the launcher's
     * kill lines were glued to, in backticks, runs long */
    assert_string_equal(first_stage_of(
                         "\xe6\x89\xa7""\xe8\xa1\x8c"" train.py\xe8\xbf\x87""\xe7\xa8\x8b""\xe6\x8a\xa5""\xe9\x94\x99"" exits with return code = -9\n"
                         "\xe5\xa4\xa7""\xe4\xbd\xac""\xe5\xa5\xbd""\xef\xbc\x8c""\xe5\xbd\x93""\xe6\x88\x91""\xe4\xbd\xbf""\xe7\x94\xa8""\xe6\x89\xa7""\xe8\xa1\x8c""\xe5\xa4\x9a""\xe5\x8d\xa1""\xe8\xae\xad""\xe7\xbb\x83""\xe6\x97\xb6""\xef\xbc\x8c""\xe6\x89\xa7""\xe8\xa1\x8c""\xe6\x8c\x87""\xe4\xbb\xa4""\n"
                         "```\n"
                         "CUDA_VISIBLE_DEVICES=0,1,2,3 deepspeed --master_port 520 train.py \\\n"
                         "                --train_path data/spo_0.json \\\n"
                         "                --model_name_or_path ChatGLM-6B/ \\\n"
                         "                --per_device_train_batch_size 1 \\\n"
                         "                --max_len 1560 \\\n"
                         "                --max_src_len 1024 \\\n"
                         "                --learning_rate 1e-4 \\\n"
                         "                --weight_decay 0.1 \\\n"
                         "                --num_train_epochs 2 \\\n"
                         "                --gradient_accumulation_steps 4 \\\n"
                         "                --warmup_ratio 0.1 \\\n"
                         "                --mode glm \\\n"
                         "                --train_type freeze \\\n"
                         "                --freeze_module_name \"layers.27.,layers.26.,layers.25.,layers.24.\" \\\n"
                         "                --seed 1234 \\\n"
                         "                --ds_file ds_zero2_no_offload.json \\\n"
                         "                --gradient_checkpointing \\\n"
                         "                --show_loss_step 10 \\\n"
                         "                --output_dir ./output-glm\n"
                         "```\n"
                         "\xe6\x8a\xa5""\xe9\x94\x99""\n"
                         "`Loading checkpoint shards:   0%|                                                                                                                                                                                    | 0/7 [00:00<?, ?it/s][2023-09-10 11:45:59,207] [INFO] [launch.py:428:sigkill_handler] Killing subprocess 6293\n"
                         "[2023-09-10 11:45:59,501] [INFO] [launch.py:428:sigkill_handler] Killing subprocess 6294\n"
                         "[2023-09-10 11:45:59,754] [INFO] [launch.py:428:sigkill_handler] Killi\n", NULL),
                        "load");
    /* filaPro/oneformer3d#7 (h20-123): the metric code's warnings end the paste */
    assert_string_equal(first_stage_of(
                         "Killed while validating\n"
                         "12/26 14:04:12 - mmengine - INFO - 288  |       311     |       246     |       67      |1185    |       81      |       277     |       336     |       174     |       53      |100     |       38      |       99      |       42      |       25      |       25      |57      |       74      |       27      |       323     |       0\n"
                         "False Positive: \n"
                         "12/26 14:04:12 - mmengine - INFO - 20   |       1       |       137     |       8       |130     |       15      |       65      |       244     |       74      |       67      |65      |       26      |       46      |       9       |       5       |       11      |2       |       26      |       5       |       119     |       0\n"
                         "False Negative: \n"
                         "12/26 14:04:12 - mmengine - INFO - 17   |       1       |       126     |       14      |183     |       16      |       73      |       131     |       108     |       24      |122     |       14      |       28      |       25      |       32      |       3       |1       |       24      |       4       |       207     |       0\n"
                         "/home/vcl/anaconda3/envs/1former1/lib/python3.8/site-packages/mmdet3d/evaluation/functional/seg_eval.py:39: RuntimeWarning: invalid value encountered in divide\n"
                         "  return np.diag(hist) / (hist.sum(1) + hist.sum(0) - np.diag(hist))\n"
                         "/home/vcl/anaconda3/envs/1former1/lib/python3.8/site-packages/mmdet3d/evaluation/functional/seg_eval.py:67: RuntimeWarning\n", NULL),
                        "eval");
    /* chwilms/AttentionMask#5 (h20-114): the walk stays below the message;
     * pycocotools' "loading annotations" above Caffe's glog line is no
     * activity after it, the prose below names none */
    assert_string_equal(
        stage_of("GPU out of memory\n"
                 "loading annotations into memory...\n"
                 "Done (t=3.57s)\n"
                 "creating index...\n"
                 "index created!\n"
                 "Progress:  |--------------------------------------------------| 0.0% CompleteF0226 "
                 "17:52:22.489114  3020 syncedmem.cpp:56] Check failed: error == cudaSuccess (2 vs. 0)  out of "
                 "memory\n"
                 "*** Check failure stack trace: ***\n"
                 "Aborted (core dumped)\n\n"
                 "I am currently running the following: \n\n"
                 "- Ubuntu 18.04\n"
                 "- Open CV 3.2\n"),
        "unknown");
}

/* Code a sentence quotes next to a message nothing leads to: its cues, the
 * function it calls by word parts, else model math (forward). */
static void test_code_quoted_in_prose(void **state)
{
    (void)state;
    /* huggingface/autotrain-advanced#376 (h15-24): after a colon, the line above */
    assert_string_equal(stage_of(
                         "How to a Autotrain Seq2Seq ?\n"
                         "I used a unique name : lm_logits = self.lm_head(outputs[0]) + self.final_logits_bias\n"
                         "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.48 GiB. GPU 0 has a total capacty of 21.99 GiB of which 6.47 GiB is free. Process 43024 has 15.51 GiB memory in use. Of the allocated memory 13.89 GiB is allocated by PyTorch, and 1.31 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF , is it because I use a free GPU ?\n"),
                        "forward");
    /* WongKinYiu/yolov7#1354 (h20-104): in quotes in a paragraph two lines above */
    assert_string_equal(stage_of(
                         "Issues that may lead to CUDA out of memory after several epochs\n"
                         "Hello,\n"
                         "\n"
                         "I am looking for input on factors that may lead to an out of memory error after several epochs of training. This, to me, is unusual as it suggests there isn't an issue with the batch size (the most likely culprit) and is instead triggered by a some other conditions. I seem to be having experiencing the issue between 15 and 50 epochs of operation and my error log indicates the issue is with the Loss computation, specifically line 732 of loss.py (\"pair_wise_cls_loss = F.binary_cross_entropy_with_logits(...\") called by the compute_loss_ota command (error below).\n"
                         "\n"
                         "RuntimeError: CUDA out of memory. Tried to allocate 334.00 MiB (GPU 0; 11.78 GiB total capacity; 9.41 GiB already allocated; 152.06 MiB free; 10.45 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF\n"),
                        "forward");
    /* taishan1994/pytorch_bert_multi_classification#2 (h19-58): leading a
     * Chinese sentence below the title; the called name says load */
    assert_string_equal(stage_of(
                         "\xe6\xb5\x8b""\xe8\xaf\x95""\xe6\x97\xb6""\xe5\x80\x99""\xe5\x87\xba""\xe7\x8e\xb0""cuda out of memory\n"
                         "\xe6\xa8\xa1""\xe5\x9e\x8b""\xe8\xae\xad""\xe7\xbb\x83""\xe7\xbb\x93""\xe6\x9d\x9f""\xe5\x90\x8e""\xef\xbc\x8c""\xe8\xbf\x9b""\xe8\xa1\x8c""\xe6\xb5\x8b""\xe8\xaf\x95""\xe6\x97\xb6""\xe5\x80\x99""\xe6\x8a\xa5""\xe4\xba\x86""cuda out of memory\n"
                         "model, optimizer, epoch, loss = self.load_ckp(model, optimizer, checkpoint)\xe8\xbf\x99""\xe4\xb8\x80""\xe8\xa1\x8c""\xe4\xbb\xa3""\xe7\xa0\x81""\n"
                         "\n"
                         "\xe9\x82\xa3""\xe6\x98\xaf""\xe5\x9b\xa0""\xe4\xb8\xba""GPU\xe6\x98\xbe""\xe5\xad\x98""\xe4\xb8\x8d""\xe5\xa4\x9f""\xef\xbc\x8c""\xe8\xb0\x83""\xe5\xb0\x8f""\xe6\xb5\x8b""\xe8\xaf\x95""\xe6\x97\xb6""\xe7\x9a\x84""batch_size\n"),
                        "load");
    const char *quoted = "line 732 of loss.py (\"pair_wise_cls_loss = F.binary_cross_entropy_with_logits(...\")";
    assert_int_equal(stage_prose_code(quoted, strlen(quoted)), OOM_STAGE_FORWARD);
    /* a command in backticks, an error quoted: no code */
    const char *cmd = "I run `python train.py --batch 8` and get \"CUDA out of memory (GPU 0)\"";
    assert_int_equal(stage_prose_code(cmd, strlen(cmd)), OOM_STAGE_UNKNOWN);
}

/* The function a failed thread ran, as Python 3.10+ names it; a past cache
 * grown by concatenation. */
static void test_thread_target_and_past_concat(void **state)
{
    (void)state;
    /* haotian-liu/LLaVA#1568 (h19-82): a kernel assert, then the generation thread's traceback */
    assert_string_equal(first_stage_of(
                         "\"Assertion `srcIndex < srcSelectDimSize` failed\" in Docker on some systems\n"
                         "In case this error log is more helpful (run with CUDA_LAUNCH_BLOCKING = 1)\n"
                         "```\n"
                         "` [...]\n"
                         "llava_worker-1      | ../aten/src/ATen/native/cuda/Indexing.cu:1289: indexSelectLargeIndex: block: [431,0,0], thread: [91,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n"
                         "llava_worker-1      | ../aten/src/ATen/native/cuda/Indexing.cu:1289: indexSelectLargeIndex: block: [431,0,0], thread: [92,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n"
                         "llava_worker-1      | ../aten/src/ATen/native/cuda/Indexing.cu:1289: indexSelectLargeIndex: block: [431,0,0], thread: [93,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n"
                         "llava_worker-1      | ../aten/src/ATen/native/cuda/Indexing.cu:1289: indexSelectLargeIndex: block: [431,0,0], thread: [94,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n"
                         "llava_worker-1      | ../aten/src/ATen/native/cuda/Indexing.cu:1289: indexSelectLargeIndex: block: [431,0,0], thread: [95,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n"
                         "llava_worker-1      | 2024-06-19 13:11:02 | ERROR | stderr | Exception in thread Thread-3 (generate):\n"
                         "llava_worker-1      | 2024-06-19 13:11:02 | ERROR | stderr | Traceback (most recent call last):\n"
                         "llava_worker-1      | 2024-06-19 13:11:02 | ERROR | stderr |   File \"/usr/lib/python3.10/threading.py\", line 1016, in _bootstrap_inner\n"
                         "llava_worker-1      | 2024-06-19 13:11:02 | ERRO\n", NULL),
                        "generate");
    /* jasonppy/VoiceCraft#157 (h20-52): the key/value cache grown while decoding */
    assert_string_equal(stage_of(
                         "How to troubleshoot CUDA memory issues\n"
                         "I've been trying to get this to work on WSL via local install, Docker, as well as the VoiceCraft_API fork. In all cases, I get stuck at:\n"
                         "```\n"
                         "    concated_audio, gen_audio = inference_one_sample(model, Namespace(**config), phn2num, text_tokenizer, audio_tokenizer, audio_fn, target_transcript, device, decode_config, prompt_end_frame)\n"
                         "  File \"/opt/conda/envs/voicecraft/lib/python3.9/site-packages/torch/utils/_contextlib.py\", line 115, in decorate_context\n"
                         "    return func(*args, **kwargs)\n"
                         "  File \"/home/adam/work/inference_tts_scale.py\", line 76, in inference_one_sample\n"
                         "    concat_frames, gen_frames = model.inference_tts_batch(\n"
                         "  File \"/home/adam/work/models/voicecraft.py\", line 1358, in inference_tts_batch\n"
                         "    past = torch.cat([past, present.to(past.dtype)], dim=-2) if past.ndim > 3 else present.to(past.dtype)\n"
                         "RuntimeError: CUDA error: out of memory\n"
                         "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n"
                         "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n"
                         "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"
                         "```\n"),
                        "generate");
}

/* A logger's file:line:function tag is a frame: DeepSpeed's ZeRO optimizer
 * being built ("[stage3.py:131:__init__]") at the end of a cut paste. */
static void test_logger_place_tag(void **state)
{
    (void)state;
    const char *tag = "[2024-10-28 17:59:22,067] [INFO] [stage3.py:130:__init__] Reduce bucket size 200000000";
    assert_int_equal(stage_log_tag(tag, strlen(tag)), OOM_STAGE_LOAD);
    const char *dist = "[2024-10-28 17:59:21,929] [INFO] [logging.py:96:log_dist] [Rank 0] Creating torch.float16 ZeRO";
    assert_int_equal(stage_log_tag(dist, strlen(dist)), OOM_STAGE_UNKNOWN);
    const char *file = "2024-10-30:14:04:49,740 INFO     [evaluator.py:457] Running loglikelihood requests";
    assert_int_equal(stage_log_tag(file, strlen(file)), OOM_STAGE_EVAL);
    /* deepspeedai/DeepSpeed#6679 (h19-39, whole) */
    assert_string_equal(stage_of(
                         "gpu out of memory for lora model when using zero 3\n"
                         "```text\n"
                         "[2024-10-28 17:59:21,789] [INFO] [logging.py:96:log_dist] [Rank 0] Using DeepSpeed Optimizer param name adam as basic optimizer\n"
                         "[2024-10-28 17:59:21,790] [INFO] [logging.py:96:log_dist] [Rank 0] Removing param_group that has no 'params' in the basic Optimizer\n"
                         "[2024-10-28 17:59:21,928] [INFO] [logging.py:96:log_dist] [Rank 0] DeepSpeed Basic Optimizer = DeepSpeedCPUAdam\n"
                         "[2024-10-28 17:59:21,928] [INFO] [utils.py:56:is_zero_supported_optimizer] Checking ZeRO support for optimizer=DeepSpeedCPUAdam type=<class 'deepspeed.ops.adam.cpu_adam.DeepSpeedCPUAdam'>\n"
                         "[2024-10-28 17:59:21,929] [INFO] [logging.py:96:log_dist] [Rank 0] Creating fp16 ZeRO stage 3 optimizer, MiCS is enabled False, Hierarchical params gather False\n"
                         "[2024-10-28 17:59:21,929] [INFO] [logging.py:96:log_dist] [Rank 0] Creating torch.float16 ZeRO stage 3 optimizer\n"
                         "[2024-10-28 17:59:22,053] [INFO] [utils.py:800:see_memory_usage] Stage 3 initialize beginning\n"
                         "[2024-10-28 17:59:22,056] [INFO] [utils.py:801:see_memory_usage] MA 0.0 GB         Max_MA 0.0 GB         CA 0.0 GB         Max_CA 0 GB \n"
                         "[2024-10-28 17:59:22,057] [INFO] [utils.py:808:see_memory_usage] CPU Virtual Memory:  used = 22.38 GB, percent = 8.9%\n"
                         "[2024-10-28 17:59:22,067] [INFO] [stage3.py:130:__init__] Reduce bucket size 200000000\n"
                         "[2024-10-28 17:59:22,068] [INFO] [stage3.py:131:__init__] Prefetch bucket size 50,00\n"),
                        "load");
    /* OpenRLHF/OpenRLHF#841 (h19-48, whole): a host kill, the look-alike's stage */
    assert_string_equal(first_stage_of(
                         "Sigkill, process exits with return code -9\n"
                         "```\n"
                         "    \"train_micro_batch_size_per_gpu\": 2, \n"
                         "    \"train_batch_size\": 32\n"
                         "}\n"
                         "[2025-03-07 23:55:15,357] [INFO] [logging.py:128:log_dist] [Rank 0] DeepSpeed info: version=0.16.3, git-hash=unknown, git-branch=unknown\n"
                         "[2025-03-07 23:55:15,357] [INFO] [comm.py:677:init_distributed] Distributed backend already initialized\n"
                         "[2025-03-07 23:55:15,357] [INFO] [config.py:733:__init__] Config mesh_device None world_size = 1\n"
                         "[2025-03-07 23:55:16,871] [INFO] [logging.py:128:log_dist] [Rank 0] DeepSpeed Flops Profiler Enabled: False\n"
                         "[2025-03-07 23:55:16,874] [INFO] [logging.py:128:log_dist] [Rank 0] Using client Optimizer as basic optimizer\n"
                         "[2025-03-07 23:55:16,874] [INFO] [logging.py:128:log_dist] [Rank 0] Removing param_group that has no 'params' in the basic Optimizer\n"
                         "[2025-03-07 23:55:16,883] [INFO] [logging.py:128:log_dist] [Rank 0] DeepSpeed Basic Optimizer = DeepSpeedCPUAdam\n"
                         "[2025-03-07 23:55:16,883] [INFO] [utils.py:59:is_zero_supported_optimizer] Checking ZeRO support for optimizer=DeepSpeedCPUAdam type=<class 'deepspeed.ops.adam.cpu_adam.DeepSpeedCPUAdam'>\n"
                         "[2025-03-07 23:55:16,883] [INFO] [logging.py:128:log_dist] [Rank 0] Creating torch.bfloat16 ZeRO stage 2 optimizer\n"
                         "[2025-03-07 23:55:16,883] [INFO] [stage_1_and_2.py:149:__init__] Reduce bucket size 500000000\n"
                         "[2025-03-07 23:55:16,883] [INFO] [stage_1_and_2.py:150:__init__] Allgather bucket size 500000000\n"
                         "[2\n", NULL),
                        "load");
    /* bryanchrist/MathNeuro#3 (h18-63): lm-evaluation-harness' tag above
     * the notebook's traceback outranks "Building contexts" further up */
    assert_string_equal(stage_of(
                         "CUDA Memory Errors\n"
                         "I am trying to work with the MathNeuro.py, using the suggested parameters (for an 8b LLaMA 3.1 model) with 144Gb vRAM (3x A40) but I keep running into CUDA errors. I just want to make sure that I am not doing something wrong before I try a more powerful system.\n"
                         "\n"
                         "I have been unsuccessful for a few hours now. No matter what I try, it always throws an error at the 'Running loglikelihood requests' line.\n"
                         "\n"
                         "100%|\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""| 165/165 [00:00<00:00, 519.83it/s]\n"
                         "2024-10-30:14:04:49,179 INFO     [task.py:423] Building contexts for mmlu_formal_logic on rank 0...\n"
                         "100%|\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""| 126/126 [00:00<00:00, 545.16it/s]\n"
                         "2024-10-30:14:04:49,422 INFO     [task.py:423] Building contexts for race on rank 0...\n"
                         "100%|\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""| 1045/1045 [00:00<00:00, 3655.71it/s]\n"
                         "2024-10-30:14:04:49,740 INFO     [evaluator.py:457] Running loglikelihood requests\n"
                         "Running loglikelihood requests:   0%|          | 0/60348 [00:00<?, ?it/s]\n"
                         "\n"
                         "Passed argument batch_size = auto:4.0. Detecting largest batch size\n"
                         "\n"
                         "---------------------------------------------------------------------------\n"
                         "RuntimeError                              Traceback (most recent call last)\n"
                         "File /workspace/MathNeuro/MathNeuro.py:185\n"
                         "    182 with open(results_path, \"w\") as outfile: \n"
                         "    183     json.dump(results['results'], outfile)\n"
                         "--> 185 results = lm_eval.simple_eva\n"),
                        "eval");
    /* pytorch/pytorch#47497 (heldout5 h5-26): the DataLoader set-up in a code
     * block below the quoted message is the user's script, no failing line */
    assert_string_equal(stage_of(
                         "This case return: `RuntimeError: CUDA out of memory. Tried to allocate 90.00 MiB (GPU 0; 24.00 GiB total capacity; 13.09 GiB already allocated; 5.75 GiB free; 13.28 GiB reserved in total by PyTorch)`\n"
                         "\n"
                         "```\n"
                         "train_dataloader = DataLoader(dataset = train_dataset, \n"
                         "                                  batch_size = 16, \\\n"
                         "                                  shuffle = True,\n"
                         "                                  num_workers= 8)\n"
                         "```\n"),
                        "unknown");
}

/* The failure said to come while setting up or loading. */
static void test_failed_while_setting_up(void **state)
{
    (void)state;
    /* C0untFloyd/roop-unleashed#659 (h20-106): ONNX Runtime creating its session */
    assert_string_equal(stage_of(
                         "RuntimeException: [ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION\n"
                         "Running picture swap and got error alert as follow:\n"
                         "\n"
                         "RuntimeException: [ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Exception during initialization: D:\\a\\_work\\1\\s\\onnxruntime\\core\\providers\\cuda\\cuda_call.cc:121 onnxruntime::CudaCall D:\\a\\_work\\1\\s\\onnxruntime\\core\\providers\\cuda\\cuda_call.cc:114 onnxruntime::CudaCall CUBLAS failure 3: CUBLAS_STATUS_ALLOC_FAILED ; GPU=0 ;\n"
                         "\n"
                         "OS Win10 CPU 3.4GHz with 16G RAM, with Nvidia GTC 760 on Intel syetem\n"
                         "\n"
                         "Roop unleased 3.6.6\n"
                         "\n"
                         "Do I need to upgrade to 32G RAM? and higher tier GPU?\n"
                         "\n"
                         "Thanks for help!!\n"),
                        "load");
    /* iperov/DeepFaceLive#73 (h20-108) */
    assert_string_equal(stage_of(
                         "[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Exception during initialization: D:\\a\\_work\\1\\s\\onnxruntime\\core\\framework\\bfc_arena.cc:342 onnxruntime::BFCArena::AllocateRawInternal Failed to allocate m\n"
                         "Any time I try to run the face swapper it shows this \n"
                         " [ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Exception during initialization: D:\\a\\_work\\1\\s\\onnxruntime\\core\\framework\\bfc_arena.cc:342 onnxruntime::BFCArena::AllocateRawInternal Failed to allocate memory for requested buffer of size 150994944\n"
                         "\n"
                         "Can anyone help?\n"),
                        "load");
    /* NVlabs/instant-ngp#1316 (h15-10) */
    assert_string_equal(stage_of(
                         "Error with \xe2\x80\x9c""Failed to load training data: Could not allocate memory\xe2\x80\x9d""\n"
                         "We are using RTX 4080 and we always face the same error \xe2\x80\x9c""Failed to load training data: Could not allocate memory: D:/a/instant-ngp/instant-ngp/dependencies/tiny-cuda-nn/include\\tiny-cuda-nn/\xe2\x80\x9c"".\n"
                         "\n"
                         "The training data was prepared by \xe2\x80\x9c""Record 3d\xe2\x80\x9d"". \n"),
                        "load");
}

/* A serving engine's phase: vLLM's AsyncLLMEngine loop, llama.cpp's server
 * taking a request into a slot (after the message, or the paste's tail). */
static void test_serving_engine_phase(void **state)
{
    (void)state;
    /* langgenius/dify-official-plugins#599 (h16-30) */
    assert_string_equal(stage_of(
                         "ERROR 03-31 15:19:44 [async_llm_engine.py:68] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 318.00 MiB. GPU 0 has a total capacity of 23.53 GiB of which 315.44 MiB is free. Including non-PyTorch memory, this process has 23.20 GiB memory in use. Of the allocated memory 21.29 GiB is allocated by PyTorch, with 46.00 MiB allocated in private pools (e.g., CUDA Graphs), and 231.26 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n"
                         "Exception in callback _log_task_completion(error_callback=<bound method...7ff3c4bcc5e0>>)(<Task finishe...-variables)')>) at /home/anaconda3/envs/xinference14/lib/python3.10/site-packages/vllm/engine/async_llm_engine.py:48\n"
                         "handle: <Handle _log_task_completion(error_callback=<bound method...7ff3c4bcc5e0>>)(<Task finishe...-variables)')>) at /home/anaconda3/envs/xinference14/lib/python3.10/site-packages/vllm/engine/async_llm_engine.py:48>\n"
                         "Traceback (most recent call last):\n"
                         "  File \"/home/anaconda3/envs/xinference14/lib/python3.10/site-packages/vllm/engine/async\n"),
                        "generate");
    /* TheTom/llama-cpp-turboquant#72 (h19-22): the slot line ends the cut paste */
    assert_string_equal(stage_of(
                         "Eval bug: llma-server crashed (core dumped)\n"
                         "`llama-server` should reject to serve rather than crash if `CUDA error: out of memory`\n"
                         "\n"
                         "### Name and Version\n"
                         "\n"
                         "swei@gz-a40 ~/llama-cpp % ~/llama-cpp-turboquant/build/bin/llama-server --version\n"
                         "ggml_cuda_init: found 1 CUDA devices (Total VRAM: 45490 MiB):\n"
                         "  Device 0: NVIDIA A40, compute capability 8.6, VMM: yes, VRAM: 45490 MiB\n"
                         "version: 8659 (e43970099)\n"
                         "built with GNU 13.3.0 for Linux x86_64\n"
                         "\n"
                         "### Relevant log output\n"
                         "\n"
                         "```text\n"
                         "slot update_slots: id  2 | task 10391 | promp\n"),
                        "generate");
    /* ggml-org/llama.cpp#13085 (h19-73): title and sentence tell one failure; the tail is theirs */
    assert_string_equal(stage_of(
                         "Eval bug: llama-server stays in unresponsive state- CUDA error: out of memory -\n"
                         "### Name and Version\n"
                         "\n"
                         "llama-server --version\n"
                         "ggml_cuda_init: GGML_CUDA_FORCE_MMQ:    yes\n"
                         "ggml_cuda_init: GGML_CUDA_FORCE_CUBLAS: no\n"
                         "ggml_cuda_init: found 3 CUDA devices:\n"
                         "  Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes\n"
                         "  Device 1: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes\n"
                         "  Device 2: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes\n"
                         "version: 5172 (eb1776b1)\n"
                         "built with cc (Ubuntu 13.3.0-6ubuntu2~24.04) 13.3.0 for x86_64-linux-gnu\n"
                         "\n"
                         "### Problem description & steps to reproduce\n"
                         "\n"
                         "Running the following command:\n"
                         "`/models/llama.cpp/llama-server -m /models/Mistral-Small-3.1-24B-Instruct-2503-Q8_0.gguf \\\n"
                         "-md /models/Mistral-Small-3.1-DRAFT-0.5B.Q8_0.gguf \\\n"
                         "-fa -sm row --no-mmap \\\n"
                         "-ngl 99 -ngld 99 --port 9009 -c 65536 \\\n"
                         "--draft-max 16 --draft-min 5 --draft-p-min 0.5 \\\n"
                         "--device CUDA2,CUDA1 --device-draft CUDA1 --tensor-split 0,1,1 \\\n"
                         "--slots --metrics --numa distribute -t 40 --no-warmup`\n"
                         "\n"
                         "The models load fine. When the first request is received, a CUDA out of memory error occurs:\n"
                         "`srv  params_from_: Chat format: Content-only\n"
                         "slot launch_slot_: id  0 |\n"),
                        "generate");
    /* NVlabs/instant-ngp#1231 (heldout12 h12-16): the load the tail shows is
     * over ("Loaded 2 images"): what failed after it is not shown */
    assert_string_equal(stage_of(
                         "Failed with CUDA_ERROR_OUT_OF_MEMORY\n"
                         "\n"
                         "Anything I try to run seems to cause the Error: \n"
                         "\" Uncaught exception: C:\\ngp\\instant-ngp\\dependencies\\tiny-cuda-nn\\include\\tiny-cuda-nn/gpu_memory.h:592 cuMemSetAccess(m_base_address + m_size, n_bytes_to_allocate, &access_desc, 1) failed with error CUDA_ERROR_OUT_OF_MEMORY\"\n"
                         "\n"
                         "I have a NVIDIA GeForce MX250 GPU with 8GB RAM. I have tried to run the data/nerf/fox with only 2 images and I still get the error.\n"
                         "\n"
                         "13:25:54 SUCCESS  Initialized CUDA. Active GPU is #0: NVIDIA GeForce MX250 [61]\n"
                         "13:25:54 INFO     Loading NeRF dataset from\n"
                         "13:25:54 INFO       data\\nerf\\fox\\transforms.json\n"
                         "13:25:54 SUCCESS  Loaded 2 images after 0s\n"),
                        "unknown");
}

/* Frames of libraries outside torch: torch7's nn and optim, an engine's
 * CUDA-graph capture at start-up, ColossalAI's lazy initialisation. */
static void test_library_frames(void **state)
{
    (void)state;
    /* nagadomi/waifu2x#326 (h24-25): a module's updateOutput is its forward */
    assert_string_equal(stage_of(
                         "I have no idea how to fix this\n"
                         "\n"
                         "Trying to run `th waifu2x.lua`\n"
                         "THCudaCheck FAIL file=/home/jhurd/torch/extra/cutorch/lib/THC/generic/THCStorage.cu line=66 error=2 : out of memory\n"
                         "/home/jhurd/torch/install/bin/luajit: /home/jhurd/torch/install/share/lua/5.1/nn/Container.lua:67: \n"
                         "In 2 module of nn.Sequential:\n"
                         "In 1 module of nn.ConcatTable:\n"
                         "In 5 module of nn.Sequential:\n"
                         "/home/jhurd/torch/install/share/lua/5.1/nn/THNN.lua:110: cuda runtime error (2) : out of memory at /home/jhurd/torch/extra/cutorch/lib/THC/generic/THCStorage.cu:66\n"
                         "stack traceback:\n"
                         "\t[C]: in function 'v'\n"
                         "\t/home/jhurd/torch/install/share/lua/5.1/nn/THNN.lua:110: in function 'SpatialConvolutionMM_updateOutput'\n"
                         "\t.../torch/install/share/lua/5.1/nn/SpatialConvolutionMM.lua:63: in function <.../torch/install/share/lua/5.1/nn/SpatialConvolutionMM.lua:53>\n"
                         "\t[C]: in function 'xpcall'\n"
                         "\t/home/jhurd/torch/install/share/lua/5.1/nn/Container.lua:63: in function 'rethrowErrors'\n"
                         "\t/home/jhurd/torch/install/share/lua/5.1/nn/Sequential.lua:44: in function </home/jhurd/torch/install/share/lua/5.1/nn/Sequential.lua:41>\n"
                         "\t[C]: in function 'xpcall'\n"
                         "\t/home/jhurd/torch/install/share/lua/5.1/nn/Container.lua:63: in function 'rethrowErrors'\n"
                         "\t/home/jhurd/torch/install/share/lua/5.1/nn/ConcatTable.lua:11: in function </home/jhurd/torch/install/share/lua/5.1/nn/ConcatTable.lua:9>\n"
                         "\t[C]: in function 'xpcall'\n"
                         "\t/home/jhurd/torch/install/share/lua/5.1/nn/Container.lua:6\n"),
                        "forward");
    /* torch/cutorch#838 (h24-14): optim's adam */
    assert_string_equal(stage_of(
                         "out of memory\n"
                         "\n"
                         "THCudaCheck FAIL file=/tmp/luarocks_cutorch-scm-1-5292/cutorch/lib/THC/generic/THCStorage.cu line=66 error=2 : out of memory\n"
                         "/home/alhabib/torch/install/bin/lua: ./densecap/optim_updates.lua:69: cuda runtime error (2) : out of memory at /tmp/luarocks_cutorch-scm-1-5292/cutorch/lib/THC/generic/THCStorage.cu:66\n"
                         "stack traceback:\n"
                         "\t[C]: in function 'new'\n"
                         "\t./densecap/optim_updates.lua:69: in function 'adam'\n"
                         "\ttrain.lua:123: in main chunk\n"
                         "\t[C]: in function 'dofile'\n"
                         "\t...abib/torch/install/lib/luarocks/rocks/trepl/scm-1/bin/th:150: in main chunk\n"
                         "\t[C]: in ?\n"
                         "I'm using Ubuntu 16.04 , Nvidia GTX 745, any idea how to solve, even when i tried to use CPU it gives me the same error....Thaks\n"),
                        "optimizer");
    /* sgl-project/sglang#3633 (h19-42): a forward run while capturing CUDA graphs is start-up */
    assert_string_equal(stage_of(
                         "[Bug] fused_moe OOM when run deepseek-r1 with --speculative-algo NEXTN\n"
                         "I also occury this error using 8*H20 after merge [#3692](https://github.com/sgl-project/sglang/pull/3692) \n"
                         "\n"
                         "```\n"
                         "[2025-02-21 10:35:12 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
                         "  File \"/opt/app/python3.10/lib/python3.10/site-packages/sglang/srt/distributed/device_communicators/custom_all_reduce.py\", line 313, in capture\n"
                         "    yield\n"
                         "  File \"/opt/app/python3.10/lib/python3.10/site-packages/sglang/srt/distributed/parallel_state.py\", line 352, in graph_capture\n"
                         "    yield graph_capture_context\n"
                         "  File \"/opt/app/python3.10/lib/python3.10/site-packages/sglang/srt/distributed/parallel_state.py\", line 944, in graph_capture\n"
                         "    yield context\n"
                         "  File \"/opt/app/python3.10/lib/python3.10/site-packages/sglang/srt/model_executor/cuda_graph_runner.py\", line 304, in capture\n"
                         "    ) = self.capture_one_batch_size(bs, forward)\n"
                         "  File \"/opt/app/python3.10/lib/python3.10/site-packages/sglang/srt/model_executor/cuda_graph_runner.py\", line 397, in capture_one_batch_size\n"
                         "    out = run_once()\n"
                         "  File \"/opt/app/python3.10/lib/python3.10/site-packages/sglang/srt/model_executor/cuda_graph_runner.py\", line 380, in run_once\n"
                         "    logits_output = forward(input_ids, forward_batch.positions, forward_batch)\n"
                         "  File \"/opt/app/python3.10/lib/python3.10/site-packages/torch/utils/_contextlib.py\", line\n"),
                        "load");
    /* NVIDIA/DALI#144 (h18-99): interleaved processes iterating DALI's pipeline */
    assert_string_equal(stage_of(
                         "RuntimeError: Critical error in pipeline\xef\xbc\x88""Data loading:-TensorFlow TFRecord\xef\xbc\x89""\n"
                         "i meet this problem:\n"
                         "\n"
                         "> File \"/opt/conda/lib/python3.6/site-packages/nvidia/dali/plugin/pytorch.py\", line 150, in __next__\n"
                         "    return self.__next__()\n"
                         "    return self.__next__()\n"
                         "  File \"/opt/conda/lib/python3.6/site-packages/nvidia/dali/plugin/pytorch.py\", line 150, in __next__\n"
                         "  File \"/opt/conda/lib/python3.6/site-packages/nvidia/dali/plugin/pytorch.py\", line 150, in __next__\n"
                         "    return self.__next__()\n"
                         "  File \"/opt/conda/lib/python3.6/site-packages/nvidia/dali/plugin/pytorch.py\", line 150, in __next__\n"
                         "    outputs.append(p.share_outputs())\n"
                         "  File \"/opt/conda/lib/python3.6/site-packages/nvidia/dali/pipeline.py\", line 402, in share_outputs\n"
                         "    outputs.append(p.share_outputs())\n"
                         "  File \"/opt/conda/lib/python3.6/site-packages/nvidia/dali/pipeline.py\", line 402, in share_outputs\n"
                         "    outputs.append(p.share_outputs())\n"
                         "    outputs.append(p.share_outputs())\n"
                         "  File \"/opt/conda/lib/python3.6/site-packages/nvidia/dali/pipeline.py\", line 402, in share_outputs\n"
                         "  File \"/opt/conda/lib/python3.6/site-packages/nvidia/dali/pipeline.py\", line 402, in share_outputs\n"
                         "    return self._pipe.ShareOutputs()\n"
                         "    return self._pipe.ShareOutputs()\n"
                         "RuntimeError: Critical error in pipeline: CUDA allocation failed\n"
                         "Current pipeline object is no longer valid.\n"
                         "    return self._pipe.ShareOutputs()\n"
                         "    return self._pipe.ShareOutputs()\n"
                         "RuntimeError: Criti\n"),
                        "data");
    /* RosettaCommons/RFdiffusion#182 (h18-78): a sampler's denoising step */
    assert_string_equal(stage_of(
                         "about cuda out of memery issue\n"
                         "/dssg/home/acct-clswg/clswg/.conda/envs/SE3/lib/python3.9/site-packages/dgl/backend/pytorch/tensor.py:449: UserWarning: TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only storage class. This should only matter to you if you are using storages directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()\n"
                         "  assert input.numel() == input.storage().size(), (\n"
                         "Error executing job with overrides: ['inference.output_prefix=example_outputs/design_ppi', 'inference.input_pdb=input.pdb', 'contigmap.contigs=[A414-588/0 20-60]', 'inference.num_designs=10000', 'denoiser.noise_scale_ca=0.5', 'denoiser.noise_scale_frame=0.5']\n"
                         "Traceback (most recent call last):\n"
                         "  File \"/dssg/home/acct-clswg/clswg/apps/RFdiffusion/scripts/run_inference.py\", line 94, in main\n"
                         "    px0, x_t, seq_t, plddt = sampler.sample_step(\n"
                         "  File \"/dssg/home/acct-clswg/clswg/apps/RFdiffusion/rfdiffusion/inference/model_runners.py\", line 664, in sample_step\n"
                         "    msa_prev, pair_prev, px0, state_prev, alpha, logits, plddt = self.model(msa_masked,\n"
                         "  File \"/dssg/home/acct-clswg/clswg/.conda/envs/SE3/lib/python3.9/site-packages/torch/nn/modules/module.py\", line 1501, in _call_impl\n"
                         "    return forward_call(*args, **kwargs)\n"
                         "  File \"/dssg/home/acct-cl\n"),
                        "generate");
    /* hpcaitech/ColossalAI#5068 (h19-99) */
    assert_string_equal(stage_of(
                         "[BUG]: Using HybridParallelPlugin/Gemini to train 70B llama-v2 on 32 A100 gpus get OOM error\n"
                         "### \xf0\x9f\x90\x9b"" Describe the bug\n"
                         "\n"
                         "```\n"
                         "python benchmark.py \\\n"
                         "    -c 70b -g -b 2 \\\n"
                         "    --max_length 1024 -p 3d -x --tp 4 --pp 1 --zero 1 \n"
                         "\n"
                         "```\n"
                         "I tried `tp 8 pp 2 ` ,zero 0/1, and plugin gemini, they all get a report of OOM .\n"
                         "\n"
                         "Error shown as below:\n"
                         "\n"
                         "dp_size=8, args.batch_size=2, args.num_steps=5, max_length=1024\n"
                         "Model params: 64.24 B\n"
                         "\n"
                         "  File \"/mnt/lustre/share_data//miniconda3/envs/llama2-env/lib/python3.10/site-packages/colossalai-0.3.4-py3.10-linux-x86_64.egg/colossalai/lazy/lazy_init.py\", line 240, in _materialize_data\n"
                         "    target = self._materialize_data()\n"
                         "  File \"/mnt/lustre/share_data//miniconda3/envs/llama2-env/lib/python3.10/site-packages/colossalai-0.3.4-py3.10-linux-x86_64.egg/colossalai/lazy/lazy_init.py\", line 240, in _materialize_data\n"
                         "    init_val = func(\n"
                         "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 448.00 MiB (GPU 4; 79.32 GiB total capacity; 77.24 GiB already allocated; 443.56 MiB free; 77.32 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF\n"
                         "\n"
                         "How can I train llama v2 70B ?\n"),
                        "load");
}

/* TF's BFC allocator names the op that asked for the memory. */
static void test_bfc_requested_by_op(void **state)
{
    (void)state;
    /* TensorSpeech/TensorFlowASR#62 (h20-18): a gradient-tape op is backward */
    assert_string_equal(stage_of(
                         "OOM when training with train_conformer or train_subword_conformer\n"
                         "Hi, I'm trying to train conformer for the Lithuanian language. \n"
                         "\n"
                         "I'm training on `NVIDIA Tesla P100`  and I keep getting OOM after some time.\n"
                         "Using all default values from `examples/conformer/config.yml`.\n"
                         "\n"
                         "Using a custom audio dataset with wav audio files up to 10 seconds. At first tried with up to 30, then up to 15.\n"
                         "\n"
                         "What could I do differently?\n"
                         "\n"
                         "```\n"
                         "[Train] [Epoch 1/20] |\xe2\x96\x8f""                   | 1316/181580 [23:54<42:25:21,  1.18batch/s, transducer_loss=110.57875]\n"
                         "[Train] [Epoch 1/20] |\xe2\x96\x8f""                   | 1316/181580 [23:54<42:25:21,  1.18batch/s, transducer_loss=110.32569]2020-12-05 14:53:17.261450: W tensorflow/core/common_runtime/bfc_allocator.cc:431] Allocator (GPU_0_bfc) ran out of memory trying to allocate 4.42GiB (rounded to 4746649600)requested by op StatefulPartitionedCall/gradient_tape/conformer/conformer_joint/conformer_joint_vocab/Tensordot/MatMul/MatMul\n"
                         "Current allocation summary follows.\n"
                         "2020-12-05 14:53:17.263848: W tensorflow/core/common_runtime/bfc_allocator.cc:439] *****************************************************************************************__*****____\n"
                         "2020-12-05 14:53:17.263895: W tensorflow/core/framework/op_kernel.cc:1767] OP_REQUIRES failed at matmul_op.cc:481 : Resource exhausted: OOM when allocating tensor with s\n"),
                        "backward");
    /* google-research/l2p#20 (heldout6 h6-50): JAX's BFC line names no op */
    const char *empty = "Allocator (GPU_0_bfc) ran out of memory trying to allocate 9.00MiB (rounded to "
                        "9437184)requested by op \n****x***";
    assert_int_equal(stage_tf(empty, strlen(empty)), OOM_STAGE_UNKNOWN);
}

/* A diffusion pipeline called for its output generates; a model's or
 * runner's .predict() runs inference (forward). */
static void test_pipeline_call_and_predict(void **state)
{
    (void)state;
    /* WeChatCV/Stand-In#40 (h18-46): the denoiser's forward runs inside pipe() */
    assert_string_equal(stage_of(
                         "Is 4090 video memory not enough for face swapping?\n"
                         "Traceback (most recent call last):\n"
                         "  File \"/root/lanyun-tmp/Stand-In/infer_face_swap.py\", line 104, in <module>\n"
                         "    video = pipe(\n"
                         "            ^^^^^\n"
                         "  File \"/root/miniconda/envs/Stand-In/lib/python3.11/site-packages/torch/utils/_contextlib.py\", line 116, in decorate_context\n"
                         "    return func(*args, **kwargs)\n"
                         "           ^^^^^^^^^^^^^^^^^^^^^\n"
                         "  File \"/root/lanyun-tmp/Stand-In/pipelines/wan_video_face_swap.py\", line 598, in __call__\n"
                         "    noise_pred_posi = self.model_fn(\n"
                         "                      ^^^^^^^^^^^^^^\n"
                         "  File \"/root/lanyun-tmp/Stand-In/pipelines/wan_video_face_swap.py\", line 1762, in model_fn_wan_video\n"
                         "    x, x_ip = block(x, context, t_mod, freqs, x_\n"),
                        "generate");
    /* ActiveVisionLab/gaussctrl#36 (h20-34) */
    assert_string_equal(stage_of(
                         "OOM error during ns-train\n"
                         "Traceback (most recent call last):\n"
                         "  File \"/home/forrealnew/miniconda3/envs/gaussctrl/bin/ns-train\", line 8, in <module>\n"
                         "    sys.exit(entrypoint())\n"
                         "  File \"/home/forrealnew/miniconda3/envs/gaussctrl/lib/python3.8/site-packages/nerfstudio/scripts/train.py\", line 262, in entrypoint\n"
                         "    main(\n"
                         "  File \"/home/forrealnew/miniconda3/envs/gaussctrl/lib/python3.8/site-packages/nerfstudio/scripts/train.py\", line 247, in main\n"
                         "    launch(\n"
                         "  File \"/home/forrealnew/miniconda3/envs/gaussctrl/lib/python3.8/site-packages/nerfstudio/scripts/train.py\", line 189, in launch\n"
                         "    main_func(local_rank=0, world_size=world_size, config=config)\n"
                         "  File \"/home/forrealnew/miniconda3/envs/gaussctrl/lib/python3.8/site-packages/nerfstudio/scripts/train.py\", line 99, in train_loop\n"
                         "    trainer.setup()\n"
                         "  File \"/home/forrealnew/repos/gpu-server-dev/scan-processor/gaussctrl/gaussctrl/gc_trainer.py\", line 76, in setup\n"
                         "    self.pipeline.render_reverse()\n"
                         "  File \"/home/forrealnew/repos/gpu-server-dev/scan-processor/gaussctrl/gaussctrl/gc_pipeline.py\", line 142, in render_reverse\n"
                         "    latent, _ = self.pipe(prompt=self.positive_reverse_prompt, #  placeholder here, since cfg=0\n"
                         "  File \"/home/forrealnew/miniconda3/envs/gaussctrl/lib/python3.8/site-packages/torch/utils/_contextlib.py\", line 116, in decorate_context\n"
                         "    return func(*args, **kwargs)\n"
                         "  File \"/home/forrealnew/miniconda3/envs/gaussctrl/lib/python3.\n"),
                        "generate");
    /* google-deepmind/alphafold#85 (h20-38) */
    assert_string_equal(stage_of(
                         "out of memory w/ colab notebook\n"
                         "Hi, I'm running a 1.7k sequence with the colab notebook version, I'm using a colab pro account. Alphafold crashes every time after the genetic database search is done. I've also tried several truncated sequences (~1.4k aa), same thing happened. \n"
                         "What is the maximal sequence length that Colab notebook version can handle?\n"
                         "\n"
                         "![image](https://user-images.githubusercontent.com/23733541/127745033-7fe7d118-6a8e-4896-be15-de2a5593f098.png)\n"
                         "\n"
                         "---------------------------------------------------------------------------\n"
                         "UnfilteredStackTrace                      Traceback (most recent call last)\n"
                         "<ipython-input-5-ae0b49d61c11> in <module>()\n"
                         "     41                                                            random_seed=0)\n"
                         "---> 42     prediction_result = model_runner.predict(processed_feature_dict)\n"
                         "     43 \n"
                         "\n"
                         "11 frames\n"
                         "UnfilteredStackTrace: RuntimeError: Resource exhausted: Out of memory while trying to allocate 13816236064 bytes.\n"
                         "\n"
                         "The stack trace below excludes JAX-internal frames.\n"
                         "The preceding is the original exception that occurred, unmodified.\n"
                         "\n"
                         "--------------------\n"
                         "\n"
                         "The above exception was the direct cause of the following exception:\n"
                         "\n"
                         "RuntimeError                              Traceback (most recent call last)\n"
                         "/usr/local/lib/python3.7/dist-packages/jax/interpreters/xla.py in _execute_compiled(compiled, avals, handlers, kept_var_idx, *arg\n"),
                        "forward");
}

/* Python 3.11's caret line under the innermost code line is no code: the
 * code line above it is read for model math. */
static void test_caret_line_is_no_code(void **state)
{
    (void)state;
    /* meta-pytorch/torchtune#2830 (h19-01): the loss step, cut before the error */
    assert_string_equal(stage_of(
                         "OOM handling and recovery\n"
                         "We just hit OOM, revealing that by default torchtune does not use torch.compile and that it does not use fused linear cross entropy yet...\n"
                         "\n"
                         "```\n"
                         "File \"/mnt/fs/venv_torchtune/lib/python3.12/site-packages/recipes/full_finetune_distributed.py\", line 919, in train                \n"
                         "[rank6]:     current_loss = self._loss_step(batch) * current_num_tokens                                                                       \n"
                         "[rank6]:                    ^^^^^^^^^^^^^^^^^^^^^^                                                                                            \n"
                         "[rank6]:   File \"/mnt/fs/venv_torchtune/lib/python3.12/site-packages/recipes/full_finetune_distribu\n"),
                        "forward");
}

/* A Rich frame header wrapped before "in": the path and line number on one
 * box line, "in __init__" on the next; the paste has no header above. */
static void test_rich_header_wrapped_before_in(void **state)
{
    (void)state;
    /* deepspeedai/DeepSpeed#2676 (h9-80): DeepSpeedEngine.__init__ configuring the optimizer */
    assert_string_equal(stage_of(
                         "[BUG] OOM error during setup, but the OS GPU memory monitor does not show an OOM condition\n"
                         "\n"
                         "```\n"
                         "\xe2\x94\x82""   126 \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""    model=model,                                              \xe2\x94\x82""\n"
                         "\xe2\x94\x82""   127 \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""    optimizer=optimizer,                                      \xe2\x94\x82""\n"
                         "\xe2\x94\x82""   128 \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""    model_parameters=model_parameters,                        \xe2\x94\x82""\n"
                         "\xe2\x94\x82""                                                                                                  \xe2\x94\x82""\n"
                         "\xe2\x94\x82"" /home/*****/anaconda3/envs/sd-gpu/lib/python3.10/site-packages/deepspeed/runtime/engine.py:330  \xe2\x94\x82""\n"
                         "\xe2\x94\x82"" in __init__                                                                                      \xe2\x94\x82""\n"
                         "\xe2\x94\x82""                                                                                                  \xe2\x94\x82""\n"
                         "\xe2\x94\x82""    327 \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   model_parameters = self.module.parameters()                                   \xe2\x94\x82""\n"
                         "\xe2\x94\x82""    328 \xe2\x94\x82""   \xe2\x94\x82""                                                                                     \xe2\x94\x82""\n"
                         "\xe2\x94\x82""    329 \xe2\x94\x82""   \xe2\x94\x82""   if has_optimizer:                                                                 \xe2\x94\x82""\n"
                         "\xe2\x94\x82"" \xe2\x9d\xb1""  330 \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   self._configure_optimizer(optimizer, model_parameters)                        \xe2\x94\x82""\n"
                         "\xe2\x94\x82""    331 \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   self._configure_lr_scheduler(lr_scheduler)                                    \xe2\x94\x82""\n"
                         "\xe2\x94\x82""    332 \xe2\x94\x82""   \xe2\x94\x82""   \xe2\x94\x82""   self._report_progress(0)\n"),
                        "load");
}

/* ComfyUI's report names the node that failed: a node no table knows runs
 * in a generation graph. */
static void test_comfyui_node_generates(void **state)
{
    (void)state;
    /* cubiq/ComfyUI_InstantID#73 (h18-72) */
    assert_string_equal(stage_of(
                         "torch.cuda.OutOfMemoryError on InstantID\n"
                         "**Error occurred when executing ApplyInstantID:**\n"
                         "\n"
                         "Allocation on device 0 would exceed allowed memory. (out of memory)\n"
                         "Currently allocated : 830.23 MiB\n"
                         "Requested : 1024.00 KiB\n"
                         "Device limit : 79.15 GiB\n"
                         "Free (according to CUDA): 25.75 MiB\n"
                         "PyTorch limit (set by user-supplied memory fraction)\n"
                         ": 17179869184.00 GiB\n"
                         "\n"
                         "File \"/home/christina/ComfyUI/execution.py\", line 152, in recursive_execute\n"
                         "output_data, output_ui = get_output_data(obj, input_data_all)\n"
                         "File \"/home/christina/ComfyUI/execution.py\", line 82, in get_output_data\n"
                         "return_values = map_node_over_list(obj, input_data_all, obj.FUNCTION, allow_interrupt=True)\n"
                         "File \"/home/christina/ComfyUI/execution.py\", line 75, in map_node_over_list\n"
                         "results.append(getattr(obj, func)(**slice_dict(input_data_all, i)))\n"
                         "File \"/home/christina/ComfyUI/custom_nodes/ComfyUI_InstantID/InstantID.py\", line 472, in apply_instantid\n"
                         "image_prompt_embeds, uncond_image_prom\n"),
                        "generate");
}

/* An exception's text continued over lines ending in ':' leads back to the
 * frames above it. */
static void test_multi_line_exception_text(void **state)
{
    (void)state;
    /* NVIDIA/DALI#2836 (h18-100) */
    assert_string_equal(stage_of(
                         "RuntimeError encountered\n"
                         "I am trying to read data in tfrecord format. However, RuntimeError encountered. \n"
                         "\n"
                         "PyTorch Version\xef\xbc\x9a""1.6.0 with cuda 10.1\n"
                         "DALI Version\xef\xbc\x9a""0.30.0 with cuda 10.0\n"
                         "\n"
                         "Codes were tested with another dataset two months ago. When I used a new dataset, problem happens.\n"
                         "\n"
                         "Any one knows the possible cause of the error below\xef\xbc\x9f""\n"
                         "\n"
                         "Traceback (most recent call last):\n"
                         "  File \"main_tfrecord.py\", line 568, in <module>\n"
                         "    main()\n"
                         "  File \"main_tfrecord.py\", line 182, in main\n"
                         "    train( model, criterion, optimizer, epoch,save_path)\n"
                         "  File \"main_tfrecord.py\", line 252, in train\n"
                         "    **for (i, in_var) in enumerate(train_loader):**\n"
                         "  File \"/usr/local/lib/python3.6/dist-packages/nvidia/dali/plugin/pytorch.py\", line 181, in __next__\n"
                         "    outputs = self._get_outputs()\n"
                         "  File \"/usr/local/lib/python3.6/dist-packages/nvidia/dali/plugin/base_iterator.py\", line 246, in _get_outputs\n"
                         "    outputs.append(p.share_outputs())\n"
                         "  File \"/usr/local/lib/python3.6/dist-packages/nvidia/dali/pipeline.py\", line 682, in share_outputs\n"
                         "    return self._pipe.ShareOutputs()\n"
                         "RuntimeError: Critical error in pipeline:\n"
                         "Error when executing Mixed operator ImageDecoder encountered:\n"
                         "CUDA allocation failed\n"
                         "Current pipeline object is no longer valid.\n"),
                        "data");
}

/* A loading bar the kill message was glued to names the stage over the
 * tokenizer warning on the line above. */
static void test_glued_bar_over_line_above(void **state)
{
    (void)state;
    /* hiyouga/LlamaFactory#865 (h19-38) */
    assert_string_equal(first_stage_of(
                         "\xe9\x83\xa8""\xe7\xbd\xb2""\xe6\xa8\xa1""\xe5\x9e\x8b""/ Loading checkpoint shards oom\n"
                         "version:  v0.1.8\n"
                         "\n"
                         "\xe8\xaf\xb7""\xe6\x95\x99""\xe9\x83\xa8""\xe7\xbd\xb2""\xe6\xa8\xa1""\xe5\x9e\x8b""\xe9\x9c\x80""\xe8\xa6\x81""\xe5\xa4\x9a""\xe5\xb0\x91""\xe5\x86\x85""\xe5\xad\x98""\xe5\x91\xa2""\xef\xbc\x9f""\xe6\x9c\xba""\xe5\x99\xa8""\xe4\xb8\x8a"" 40g \xe5\x85\xa8""\xe9\x83\xa8""\xe8\xa2\xab""\xe5\x90\x83""\xe5\xae\x8c""\xef\xbc\x8c""checkpoints \xe8\xbf\x98""\xe6\x98\xaf""\xe7\x88\x86""\xe4\xba\x86""\n"
                         "\n"
                         "```\n"
                         "agrs =  {'model_name_or_path': '/models/lab/Ziya-13b-v1',\n"
                         " 'finetuning_type': 'lora',\n"
                         " 'checkpoint_dir': '/models/outputs/',\n"
                         " 'template': 'default'}\n"
                         "```\n"
                         "\n"
                         "```\n"
                         "In [10]: model = ChatModel(args)\n"
                         "You are using the legacy behaviour of the <class 'transformers.models.llama.tokenization_llama.LlamaTokenizer'>. This means that tokens that come after special tokens will not be properly handled. We recommend you to read the related pull request available at https://github.com/huggingface/transformers/pull/24565\n"
                         "Loading checkpoint shards:  68%|\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x88""\xe2\x96\x8d""                                               | 19/28 [00:48<00:23,  2.59s/it]Killed\n"
                         "```\n", NULL),
                        "load");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phase_line),
        cmocka_unit_test(test_last_activity_of_a_cut_paste),
        cmocka_unit_test(test_code_quoted_in_prose),
        cmocka_unit_test(test_thread_target_and_past_concat),
        cmocka_unit_test(test_logger_place_tag),
        cmocka_unit_test(test_failed_while_setting_up),
        cmocka_unit_test(test_serving_engine_phase),
        cmocka_unit_test(test_library_frames),
        cmocka_unit_test(test_bfc_requested_by_op),
        cmocka_unit_test(test_pipeline_call_and_predict),
        cmocka_unit_test(test_caret_line_is_no_code),
        cmocka_unit_test(test_rich_header_wrapped_before_in),
        cmocka_unit_test(test_comfyui_node_generates),
        cmocka_unit_test(test_multi_line_exception_text),
        cmocka_unit_test(test_glued_bar_over_line_above),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
