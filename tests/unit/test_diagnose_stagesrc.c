/* diagnose's stage by coverage, helper srcstage (issue 12): a second audit
 * of the paths that training, evaluation, generation, loading and saving
 * take through the libraries users run, after diagstage13's
 * (test_diagnose_stage13.c), aimed at what that audit left out: version
 * variants (transformers' decoding loops greedy_search/sample/beam_search
 * of 4.2x-4.38, _greedy_search of 4.39-4.44, _sample/_prefill_chunking/
 * _dola_decoding since), vLLM V1's worker and model runner, SGLang's model
 * runner and CUDA-graph runner, Lightning 1.x's training_loop.py and
 * evaluation_loop.py beside 2.x's loops, DeepSpeed's ZeRO-1/2/3 reduce and
 * step paths, diffusers' pipelines and loaders, torch.utils.data,
 * TRL (GRPO/DPO/PPO/SFT), PEFT, accelerate, mmengine, ultralytics,
 * detectron2, Keras 3's torch backend, verl and OpenRLHF's RLHF workers,
 * NeMo, unsloth, LLaMA-Factory, ms-swift, ComfyUI and the A1111 web UI.
 * Each row is a short synthetic paste: the library's file paths and
 * function names as its source names them (the repository and file
 * beside each row; the names were written from the helper's knowledge of
 * each library and read in the library's code, through the search tool,
 * only for the rows behind a stage.c change: vLLM's weight loaders and
 * KV-cache allocation, DeepSpeed's ZeRO state-dict line, whisper's
 * language detection; the code lines are representative, the line
 * numbers are not real) ending in PyTorch's OOM
 * message, with the stage a careful reader gives it. No row was read from
 * a corpus log. 149 rows; on main's stage.c (02a8cc80) 5 of them missed:
 * vLLM's weight_loader read as a data loader, V1's initialize_kv_cache
 * (its torch.int8 read as model math) and V0's capture_model header,
 * preprocess_logits_for_metrics read as data, transformers'
 * create_quantized_param unnamed. Rows whose stage is open to
 * doubt were left out (gradient clipping, Keras 3 JAX predict, a dataset's
 * torch.load inside the loader, DPO's reference pass in
 * get_train_dataloader, verl's validation rollouts), and so were rows whose
 * message is no PyTorch OOM. `--table` prints every row with diagnose's
 * stage; `--paste N` prints row N's paste. */
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

static const struct audit_row audit_rows[] = {
    {"hf", "generate", "hf gen 4.30 greedy_search", "huggingface/transformers:src/transformers/generation/utils.py",
     "/app/run.py | <module> | main()"
     " @@ /app/run.py | main | out = run(model, batch)"
     " @@ transformers/generation/utils.py | generate | return self.greedy_search("
     " @@ transformers/generation/utils.py | greedy_search | outputs = self("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "generate", "hf gen 4.30 sample", "huggingface/transformers:src/transformers/generation/utils.py",
     "/app/run.py | <module> | main()"
     " @@ /app/run.py | main | out = run(model, batch)"
     " @@ transformers/generation/utils.py | generate | return self.sample("
     " @@ transformers/generation/utils.py | sample | outputs = self("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "generate", "hf gen 4.30 beam_search", "huggingface/transformers:src/transformers/generation/utils.py",
     "/app/run.py | <module> | main()"
     " @@ /app/run.py | main | out = run(model, batch)"
     " @@ transformers/generation/utils.py | generate | return self.beam_search("
     " @@ transformers/generation/utils.py | beam_search | outputs = self("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "generate", "hf gen 4.40 _greedy_search only", "huggingface/transformers:src/transformers/generation/utils.py",
     "transformers/generation/utils.py | _greedy_search | outputs = self("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "generate", "hf gen 4.40 _beam_search only", "huggingface/transformers:src/transformers/generation/utils.py",
     "transformers/generation/utils.py | _beam_search | outputs = self("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "generate", "hf gen 4.30 beam_search only", "huggingface/transformers:src/transformers/generation/utils.py",
     "transformers/generation/utils.py | beam_search | outputs = self("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "generate", "hf gen 4.30 greedy_search only", "huggingface/transformers:src/transformers/generation/utils.py",
     "transformers/generation/utils.py | greedy_search | outputs = self("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "generate", "hf gen 4.30 sample only", "huggingface/transformers:src/transformers/generation/utils.py",
     "transformers/generation/utils.py | sample | outputs = self("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "generate", "hf gen 4.30 beam_sample only", "huggingface/transformers:src/transformers/generation/utils.py",
     "transformers/generation/utils.py | beam_sample | outputs = self("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "generate", "hf gen 4.30 contrastive_search only", "huggingface/transformers:src/transformers/generation/utils.py",
     "transformers/generation/utils.py | contrastive_search | outputs = self("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "generate", "hf gen 4.30 assisted_decoding only", "huggingface/transformers:src/transformers/generation/utils.py",
     "transformers/generation/utils.py | assisted_decoding | outputs = self("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "generate", "hf gen 4.45 _sample only", "huggingface/transformers:src/transformers/generation/utils.py",
     "transformers/generation/utils.py | _sample | outputs = self(**model_inputs, return_dict=True)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "generate", "hf gen 4.50 _sample model_forward", "huggingface/transformers:src/transformers/generation/utils.py",
     "transformers/generation/utils.py | _sample | outputs = model_forward(**model_inputs, return_dict=True)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "generate", "hf gen _prefill chunk", "huggingface/transformers:src/transformers/generation/utils.py",
     "transformers/generation/utils.py | _prefill_chunking | outputs = self(**model_inputs, return_dict=True)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "generate", "hf gen _dola_decoding", "huggingface/transformers:src/transformers/generation/utils.py",
     "transformers/generation/utils.py | _dola_decoding | outputs = self("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "generate", "hf gen 4.4x _sample with logits float", "huggingface/transformers:src/transformers/generation/utils.py",
     "transformers/generation/utils.py | _sample | next_token_logits = outputs.logits[:, -1, :].clone().float()", NULL},
    {"hf", "generate", "hf gen topk warper", "huggingface/transformers:src/transformers/generation/logits_process.py",
     "transformers/generation/utils.py | _sample | next_token_scores = logits_processor(input_ids, next_token_logits)"
     " @@ transformers/generation/logits_process.py | __call__ | scores = processor(input_ids, scores)"
     " @@ transformers/generation/logits_process.py | __call__ | scores_processed = scores.masked_fill(indices_to_remove, self.filter_value)", NULL},
    {"hf", "generate", "hf gen cache update", "huggingface/transformers:src/transformers/cache_utils.py",
     "transformers/generation/utils.py | _sample | outputs = self(**model_inputs, return_dict=True)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | key_states, value_states = past_key_value.update(key_states, value_states, self.layer_idx, cache_kwargs)"
     " @@ transformers/cache_utils.py | update | self.key_cache[layer_idx] = torch.cat([self.key_cache[layer_idx], key_states], dim=-2)", NULL},
    {"hf", "eval", "hf evaluation_loop only", "huggingface/transformers:src/transformers/trainer.py",
     "transformers/trainer.py | evaluation_loop | losses, logits, labels = self.prediction_step(model, inputs, prediction_loss_only, ignore_keys=ignore_keys)"
     " @@ transformers/trainer.py | prediction_step | loss, outputs = self.compute_loss(model, inputs, return_outputs=True)"
     " @@ transformers/trainer.py | compute_loss | outputs = model(**inputs)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "eval", "hf eval nested_concat", "huggingface/transformers:src/transformers/trainer_pt_utils.py",
     "transformers/trainer.py | evaluation_loop | all_preds.add(logits)"
     " @@ transformers/trainer_pt_utils.py | add | self.tensors = nested_concat(self.tensors, tensors, padding_index=self.padding_index)"
     " @@ transformers/trainer_pt_utils.py | nested_concat | return torch_pad_and_concatenate(tensors, new_tensors, padding_index=padding_index)"
     " @@ transformers/trainer_pt_utils.py | torch_pad_and_concatenate | return torch.cat((tensor1, tensor2), dim=0)", NULL},
    {"hf", "eval", "hf eval preprocess_logits", "huggingface/transformers:src/transformers/trainer.py",
     "transformers/trainer.py | evaluation_loop | logits = self.preprocess_logits_for_metrics(logits, labels)"
     " @@ /app/train.py | preprocess_logits_for_metrics | return logits.argmax(dim=-1)", NULL},
    {"hf", "eval", "hf old prediction_loop", "huggingface/transformers:src/transformers/trainer.py",
     "transformers/trainer.py | prediction_loop | loss, logits, labels = self.prediction_step(model, inputs, prediction_loss_only, ignore_keys=ignore_keys)"
     " @@ transformers/trainer.py | prediction_step | outputs = model(**inputs)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "forward", "hf _inner_training_loop -> training_step -> compute_loss", "huggingface/transformers:src/transformers/trainer.py",
     "transformers/trainer.py | train | return inner_training_loop("
     " @@ transformers/trainer.py | _inner_training_loop | tr_loss_step = self.training_step(model, inputs)"
     " @@ transformers/trainer.py | training_step | loss = self.compute_loss(model, inputs)"
     " @@ transformers/trainer.py | compute_loss | outputs = model(**inputs)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "optimizer", "hf _inner_training_loop optimizer.step", "huggingface/accelerate:src/accelerate/optimizer.py",
     "transformers/trainer.py | _inner_training_loop | self.optimizer.step()"
     " @@ accelerate/optimizer.py | step | self.optimizer.step(closure)"
     " @@ torch/optim/lr_scheduler.py | wrapper | return func.__get__(opt, opt.__class__)(*args, **kwargs)"
     " @@ torch/optim/optimizer.py | wrapper | out = func(*args, **kwargs)"
     " @@ torch/optim/adamw.py | step | has_complex = self._init_group("
     " @@ torch/optim/adamw.py | _init_group | state[\"exp_avg_sq\"] = torch.zeros_like(", NULL},
    {"hf", "checkpoint", "hf _save_checkpoint", "huggingface/transformers:src/transformers/trainer.py",
     "transformers/trainer.py | _maybe_log_save_evaluate | self._save_checkpoint(model, trial, metrics=metrics)"
     " @@ transformers/trainer.py | _save_checkpoint | self._save_optimizer_and_scheduler(output_dir)"
     " @@ transformers/trainer.py | _save_optimizer_and_scheduler | torch.save(self.optimizer.state_dict(), os.path.join(output_dir, OPTIMIZER_NAME))", NULL},
    {"hf", "checkpoint", "hf _save_checkpoint deepspeed consolidated", "deepspeedai/DeepSpeed:deepspeed/runtime/engine.py",
     "transformers/trainer.py | _save_checkpoint | self.save_model(output_dir, _internal_call=True)"
     " @@ transformers/trainer.py | save_model | state_dict = self.accelerator.get_state_dict(self.deepspeed)"
     " @@ accelerate/accelerator.py | get_state_dict | state_dict = model._zero3_consolidated_16bit_state_dict()"
     " @@ deepspeed/runtime/engine.py | _zero3_consolidated_16bit_state_dict | get_layer_state_dict(self.module, prefix=\"\")", NULL},
    {"hf", "load", "hf from_pretrained _load_state_dict_into_meta_model", "huggingface/transformers:src/transformers/modeling_utils.py",
     "transformers/modeling_utils.py | _load_pretrained_model | new_error_msgs, offload_index, state_dict_index = _load_state_dict_into_meta_model("
     " @@ transformers/modeling_utils.py | _load_state_dict_into_meta_model | set_module_quantized_tensor_to_device(", NULL},
    {"hf", "load", "hf 4.5x load_shard_file", "huggingface/transformers:src/transformers/modeling_utils.py",
     "transformers/modeling_utils.py | load_shard_file | disk_offload_index, cpu_offload_index = _load_state_dict_into_meta_model("
     " @@ transformers/modeling_utils.py | _load_state_dict_into_meta_model | param = param[...].to(param_casting_dtype)", NULL},
    {"hf", "load", "hf caching_allocator_warmup", "huggingface/transformers:src/transformers/modeling_utils.py",
     "transformers/modeling_utils.py | _load_pretrained_model | caching_allocator_warmup(model_to_load, expanded_device_map, hf_quantizer)"
     " @@ transformers/modeling_utils.py | caching_allocator_warmup | _ = torch.empty(byte_count // factor, dtype=torch.float16, device=device, requires_grad=False)", NULL},
    {"hf", "load", "hf quantizer bnb create_quantized_param", "huggingface/transformers:src/transformers/quantizers/quantizer_bnb_4bit.py",
     "transformers/quantizers/quantizer_bnb_4bit.py | create_quantized_param | new_value = bnb.nn.Params4bit(new_value, requires_grad=False, **kwargs).to(target_device)"
     " @@ bitsandbytes/nn/modules.py | to | return self._quantize(device)"
     " @@ bitsandbytes/nn/modules.py | _quantize | w_4bit, quant_state = bnb.functional.quantize_4bit(", NULL},
    {"vllm", "load", "vllm v1 determine_available_memory", "vllm-project/vllm:vllm/v1/worker/gpu_model_runner.py",
     "vllm/v1/worker/gpu_worker.py | determine_available_memory | self.model_runner.profile_run()"
     " @@ vllm/v1/worker/gpu_model_runner.py | profile_run | hidden_states = self._dummy_run(self.max_num_tokens)"
     " @@ vllm/v1/worker/gpu_model_runner.py | _dummy_run | outputs = model("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"vllm", "load", "vllm v1 _dummy_sampler_run only", "vllm-project/vllm:vllm/v1/sample/sampler.py",
     "vllm/v1/worker/gpu_model_runner.py | _dummy_sampler_run | sampler_output = self.sampler(logits=logits,"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ vllm/v1/sample/sampler.py | forward | logits = self.apply_temperature(logits, sampling_metadata.temperature)", NULL},
    {"vllm", "load", "vllm v1 compile_or_warm_up", "vllm-project/vllm:vllm/v1/worker/gpu_model_runner.py",
     "vllm/v1/worker/gpu_worker.py | compile_or_warm_up_model | self.model_runner.capture_model()"
     " @@ vllm/v1/worker/gpu_model_runner.py | capture_model | self._dummy_run(num_tokens, skip_attn=skip_attn)", NULL},
    {"vllm", "load", "vllm v1 initialize_kv_cache_tensors", "vllm-project/vllm:vllm/v1/worker/gpu_model_runner.py",
     "vllm/v1/worker/gpu_model_runner.py | initialize_kv_cache | kv_caches = self.initialize_kv_cache_tensors(kv_cache_config)"
     " @@ vllm/v1/worker/gpu_model_runner.py | _allocate_kv_cache_tensors | tensor = torch.zeros(kv_cache_tensor.size, dtype=torch.int8, device=self.device)", NULL},
    {"vllm", "generate", "vllm v1 execute_model serving", "vllm-project/vllm:vllm/v1/worker/gpu_model_runner.py",
     "vllm/v1/engine/core.py | run_busy_loop | self._process_engine_step()"
     " @@ vllm/v1/engine/core.py | step | model_output = self.execute_model(scheduler_output)"
     " @@ vllm/v1/worker/gpu_model_runner.py | execute_model | model_output = self.model("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"vllm", "load", "vllm v0 worker load_model", "vllm-project/vllm:vllm/model_executor/layers/linear.py",
     "vllm/worker/worker.py | load_model | self.model_runner.load_model()"
     " @@ vllm/worker/model_runner.py | load_model | self.model = get_model(vllm_config=self.vllm_config)"
     " @@ vllm/model_executor/model_loader/loader.py | load_model | model = _initialize_model(vllm_config=vllm_config)"
     " @@ vllm/model_executor/layers/linear.py | __init__ | self.quant_method.create_weights(", NULL},
    {"vllm", "load", "vllm v0 cache engine", "vllm-project/vllm:vllm/worker/cache_engine.py",
     "vllm/worker/worker.py | _init_cache_engine | self.cache_engine = ["
     " @@ vllm/worker/cache_engine.py | __init__ | self.gpu_cache = self._allocate_kv_cache("
     " @@ vllm/worker/cache_engine.py | _allocate_kv_cache | torch.zeros(kv_cache_shape,", NULL},
    {"vllm", "load", "vllm v0 capture", "vllm-project/vllm:vllm/worker/model_runner.py",
     "vllm/worker/model_runner.py | capture_model | graph_runner.capture(**capture_inputs)"
     " @@ vllm/worker/model_runner.py | capture | self.model("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"vllm", "load", "vllm load_weights", "vllm-project/vllm:vllm/model_executor/layers/linear.py",
     "vllm/model_executor/model_loader/default_loader.py | load_weights | loaded_weights = model.load_weights("
     " @@ vllm/model_executor/models/llama.py | load_weights | weight_loader(param, loaded_weight)"
     " @@ vllm/model_executor/layers/linear.py | weight_loader | param_data.copy_(loaded_weight)", NULL},
    {"sglang", "load", "sglang init_memory_pool", "sgl-project/sglang:python/sglang/srt/mem_cache/memory_pool.py",
     "sglang/srt/model_executor/model_runner.py | __init__ | self.initialize(min_per_gpu_memory)"
     " @@ sglang/srt/model_executor/model_runner.py | initialize | self.init_memory_pool("
     " @@ sglang/srt/model_executor/model_runner.py | init_memory_pool | self.token_to_kv_pool = MHATokenToKVPool("
     " @@ sglang/srt/mem_cache/memory_pool.py | _create_buffers | torch.zeros(", NULL},
    {"sglang", "load", "sglang cuda graph capture", "sgl-project/sglang:python/sglang/srt/model_executor/cuda_graph_runner.py",
     "sglang/srt/model_executor/cuda_graph_runner.py | capture | ) = self.capture_one_batch_size(bs, forward)"
     " @@ sglang/srt/model_executor/cuda_graph_runner.py | capture_one_batch_size | run_once()"
     " @@ sglang/srt/model_executor/cuda_graph_runner.py | run_once | logits_output_or_pp_proxy_tensors = forward("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"sglang", "generate", "sglang forward_decode serving", "sgl-project/sglang:python/sglang/srt/model_executor/model_runner.py",
     "sglang/srt/managers/scheduler.py | event_loop_normal | result = self.run_batch(batch)"
     " @@ sglang/srt/managers/scheduler.py | run_batch | ) = self.tp_worker.forward_batch_generation(model_worker_batch)"
     " @@ sglang/srt/managers/tp_worker.py | forward_batch_generation | logits_output, can_run_cuda_graph = self.model_runner.forward("
     " @@ sglang/srt/model_executor/model_runner.py | forward | output = self._forward_raw("
     " @@ sglang/srt/model_executor/model_runner.py | _forward_raw | ret = self.forward_extend("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"sglang", "load", "sglang load_model", "sgl-project/sglang:python/sglang/srt/model_loader/loader.py",
     "sglang/srt/model_executor/model_runner.py | load_model | self.model = get_model("
     " @@ sglang/srt/model_loader/loader.py | load_model | model = _initialize_model(", NULL},
    {"keras3", "forward", "keras3 torch backend train_step", "keras-team/keras:keras/src/utils/traceback_utils.py",
     "keras/src/backend/torch/trainer.py | fit | logs = self.train_function(data)"
     " @@ keras/src/backend/torch/trainer.py | one_step_on_data | return self.train_step(data)"
     " @@ keras/src/backend/torch/trainer.py | train_step | y_pred = self(x)"
     " @@ keras/src/utils/traceback_utils.py | error_handler | raise e.with_traceback(filtered_tb) from None"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"keras3", "backward", "keras3 torch backend backward", "keras-team/keras:keras/src/backend/torch/trainer.py",
     "keras/src/backend/torch/trainer.py | fit | logs = self.train_function(data)"
     " @@ keras/src/backend/torch/trainer.py | one_step_on_data | return self.train_step(data)"
     " @@ keras/src/backend/torch/trainer.py | train_step | loss.backward()"
     " @@ torch/_tensor.py | backward | torch.autograd.backward(", NULL},
    {"pl1.x", "forward", "pl1.x run_training_batch", "Lightning-AI/pytorch-lightning:pytorch_lightning/plugins/training_type/training_type_plugin.py",
     "pytorch_lightning/trainer/training_loop.py | run_training_batch | self.optimizer_step(optimizer, opt_idx, batch_idx, train_step_and_backward_closure)"
     " @@ pytorch_lightning/trainer/training_loop.py | optimizer_step | model_ref.optimizer_step("
     " @@ pytorch_lightning/core/lightning.py | optimizer_step | optimizer.step(closure=optimizer_closure)"
     " @@ torch/optim/adam.py | step | loss = closure()"
     " @@ pytorch_lightning/trainer/training_loop.py | train_step_and_backward_closure | result = self.training_step_and_backward("
     " @@ pytorch_lightning/trainer/training_loop.py | training_step_and_backward | result = self.training_step(split_batch, batch_idx, opt_idx, hiddens)"
     " @@ pytorch_lightning/trainer/training_loop.py | training_step | training_step_output = self.trainer.accelerator.training_step(args)"
     " @@ pytorch_lightning/accelerators/accelerator.py | training_step | return self.training_type_plugin.training_step(*args)"
     " @@ pytorch_lightning/plugins/training_type/training_type_plugin.py | training_step | return self.lightning_module.training_step(*args, **kwargs)"
     " @@ /app/model.py | training_step | out = self(x)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"pl1.x", "backward", "pl1.x backward in closure", "Lightning-AI/pytorch-lightning:pytorch_lightning/core/lightning.py",
     "pytorch_lightning/trainer/training_loop.py | training_step_and_backward | self.backward(result, optimizer, opt_idx)"
     " @@ pytorch_lightning/trainer/training_loop.py | backward | result.closure_loss = self.trainer.accelerator.backward("
     " @@ pytorch_lightning/plugins/precision/native_amp.py | backward | closure_loss = super().backward(model, closure_loss, optimizer, opt_idx, should_accumulate, *args, **kwargs)"
     " @@ pytorch_lightning/core/lightning.py | backward | loss.backward(*args, **kwargs)"
     " @@ torch/_tensor.py | backward | torch.autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)", NULL},
    {"pl1.x", "eval", "pl1.x run_evaluation", "Lightning-AI/pytorch-lightning:pytorch_lightning/accelerators/accelerator.py",
     "pytorch_lightning/trainer/trainer.py | run_evaluation | output = self.evaluation_loop.evaluation_step(batch, batch_idx, dataloader_idx)"
     " @@ pytorch_lightning/trainer/evaluation_loop.py | evaluation_step | output = self.trainer.accelerator.validation_step(args)"
     " @@ pytorch_lightning/accelerators/accelerator.py | validation_step | return self.training_type_plugin.validation_step(*args)"
     " @@ /app/model.py | validation_step | out = self(x)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"pl1.x", "eval", "pl1.x run_sanity_check", "Lightning-AI/pytorch-lightning:pytorch_lightning/trainer/trainer.py",
     "pytorch_lightning/trainer/trainer.py | run_sanity_check | self.run_evaluation()"
     " @@ pytorch_lightning/trainer/trainer.py | run_evaluation | output = self.evaluation_loop.evaluation_step(batch, batch_idx, dataloader_idx)"
     " @@ /app/model.py | validation_step | out = self(x)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"pl2", "eval", "pl2 _run_sanity_check evaluation_loop", "Lightning-AI/pytorch-lightning:pytorch_lightning/strategies/strategy.py",
     "pytorch_lightning/trainer/trainer.py | _run_sanity_check | val_loop.run()"
     " @@ pytorch_lightning/loops/utilities.py | _decorator | return loop_run(self, *args, **kwargs)"
     " @@ pytorch_lightning/loops/evaluation_loop.py | run | self._evaluation_step(batch, batch_idx, dataloader_idx, dataloader_iter)"
     " @@ pytorch_lightning/loops/evaluation_loop.py | _evaluation_step | output = call._call_strategy_hook(trainer, hook_name, *step_args)"
     " @@ pytorch_lightning/trainer/call.py | _call_strategy_hook | output = fn(*args, **kwargs)"
     " @@ pytorch_lightning/strategies/strategy.py | validation_step | return self.lightning_module.validation_step(*args, **kwargs)"
     " @@ /app/model.py | validation_step | out = self(x)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"pl2", "optimizer", "pl2 optimizer_step adam", "Lightning-AI/pytorch-lightning:pytorch_lightning/plugins/precision/precision.py",
     "pytorch_lightning/loops/optimization/automatic.py | _optimizer_step | call._call_lightning_module_hook("
     " @@ pytorch_lightning/trainer/call.py | _call_lightning_module_hook | output = fn(*args, **kwargs)"
     " @@ pytorch_lightning/core/module.py | optimizer_step | optimizer.step(closure=optimizer_closure)"
     " @@ pytorch_lightning/core/optimizer.py | step | step_output = self._strategy.optimizer_step(self._optimizer, closure, **kwargs)"
     " @@ pytorch_lightning/strategies/strategy.py | optimizer_step | return self.precision_plugin.optimizer_step(optimizer, model=model, closure=closure, **kwargs)"
     " @@ pytorch_lightning/plugins/precision/precision.py | optimizer_step | return optimizer.step(closure=closure, **kwargs)"
     " @@ torch/optim/optimizer.py | wrapper | out = func(*args, **kwargs)"
     " @@ torch/optim/adam.py | step | has_complex = self._init_group("
     " @@ torch/optim/adam.py | _init_group | state['exp_avg'] = torch.zeros_like(", NULL},
    {"pl2", "eval", "pl2 predict_loop", "Lightning-AI/pytorch-lightning:pytorch_lightning/strategies/strategy.py",
     "pytorch_lightning/loops/prediction_loop.py | run | self._predict_step(batch, batch_idx, dataloader_idx, dataloader_iter)"
     " @@ pytorch_lightning/loops/prediction_loop.py | _predict_step | predictions = call._call_strategy_hook(trainer, \"predict_step\", *step_args)"
     " @@ pytorch_lightning/trainer/call.py | _call_strategy_hook | output = fn(*args, **kwargs)"
     " @@ pytorch_lightning/strategies/strategy.py | predict_step | return self.lightning_module.predict_step(*args, **kwargs)"
     " @@ /app/model.py | predict_step | return self(batch)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"ds", "backward", "ds stage_1_and_2 reduce_ipg_grads", "deepspeedai/DeepSpeed:deepspeed/runtime/zero/stage_1_and_2.py",
     "deepspeed/runtime/zero/stage_1_and_2.py | reduce_independent_p_g_buckets_and_remove_grads | self.reduce_ipg_grads()"
     " @@ deepspeed/runtime/zero/stage_1_and_2.py | reduce_ipg_grads | self.average_tensor(self.ipg_buffer[self.ipg_index])"
     " @@ deepspeed/runtime/zero/stage_1_and_2.py | average_tensor | tensor.div_(dist.get_world_size(group=self.dp_process_group))", NULL},
    {"ds", "optimizer", "ds stage_1_and_2 step", "deepspeedai/DeepSpeed:deepspeed/ops/adam/fused_adam.py",
     "deepspeed/runtime/zero/stage_1_and_2.py | step | self._optimizer_step(i)"
     " @@ deepspeed/runtime/zero/stage_1_and_2.py | _optimizer_step | self.optimizer.step()"
     " @@ deepspeed/ops/adam/fused_adam.py | step | state['exp_avg'] = torch.zeros_like(p.data)", NULL},
    {"ds", "backward", "ds stage3 partition grads", "deepspeedai/DeepSpeed:deepspeed/runtime/zero/stage3.py",
     "deepspeed/runtime/zero/stage3.py | reduce_partition_and_remove_grads | self.reduce_ready_partitions_and_remove_grads(param)"
     " @@ deepspeed/runtime/zero/stage3.py | reduce_ready_partitions_and_remove_grads | self.reduce_independent_p_g_buckets_and_remove_grads(param)"
     " @@ deepspeed/runtime/zero/stage3.py | reduce_independent_p_g_buckets_and_remove_grads | self.__reduce_and_partition_ipg_grads()"
     " @@ deepspeed/runtime/zero/stage3.py | __reduce_and_partition_ipg_grads | grad_partitions = self.__avg_scatter_grads(self.params_in_ipg_bucket)", NULL},
    {"ds", "load", "ds stage3 init create fp16 partitions", "deepspeedai/DeepSpeed:deepspeed/runtime/zero/stage3.py",
     "deepspeed/runtime/zero/stage3.py | __init__ | self._create_fp16_partitions_with_defragmentation(self.trainable_param_groups)"
     " @@ deepspeed/runtime/zero/stage3.py | _create_fp16_partitions_with_defragmentation | self._create_fp16_sub_groups(param_group[\"params\"]))"
     " @@ deepspeed/runtime/zero/stage3.py | _create_param_groups_fp16_flat_cpu_memory | torch.empty(flat_buffer_size, dtype=self.dtype)", NULL},
    {"ds", "load", "ds stage_1_and_2 init", "deepspeedai/DeepSpeed:deepspeed/runtime/zero/stage_1_and_2.py",
     "deepspeed/runtime/engine.py | _configure_zero_optimizer | optimizer = DeepSpeedZeroOptimizer("
     " @@ deepspeed/runtime/zero/stage_1_and_2.py | __init__ | self.single_partition_of_fp32_groups.append(self.parallel_partitioned_bit16_groups[i][partition_id].to(", NULL},
    {"ds", "load", "ds load_checkpoint", "deepspeedai/DeepSpeed:deepspeed/runtime/checkpoint_engine/torch_checkpoint_engine.py",
     "deepspeed/runtime/engine.py | load_checkpoint | load_path, client_states = self._load_checkpoint(load_dir,"
     " @@ deepspeed/runtime/engine.py | _load_checkpoint | checkpoint = self.checkpoint_engine.load(load_path, map_location=torch.device('cpu'))"
     " @@ deepspeed/runtime/checkpoint_engine/torch_checkpoint_engine.py | load | partition = torch.load(path, map_location=map_location)", NULL},
    {"ds", "load", "ds _load_zero_checkpoint", "deepspeedai/DeepSpeed:deepspeed/runtime/zero/stage_1_and_2.py",
     "deepspeed/runtime/engine.py | _load_zero_checkpoint | self.optimizer.load_state_dict("
     " @@ deepspeed/runtime/zero/stage_1_and_2.py | _load_legacy_checkpoint | self._restore_from_bit16_weights()", NULL},
    {"diffusers", "generate", "diffusers sd __call__ -> unet", "huggingface/diffusers:src/diffusers/pipelines/stable_diffusion/pipeline_stable_diffusion.py",
     "/app/app.py | <module> | image = pipe(prompt).images[0]"
     " @@ torch/utils/_contextlib.py | decorate_context | return func(*args, **kwargs)"
     " @@ diffusers/pipelines/stable_diffusion/pipeline_stable_diffusion.py | __call__ | noise_pred = self.unet("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ diffusers/models/unets/unet_2d_condition.py | forward | sample = upsample_block(", NULL},
    {"diffusers", "generate", "diffusers __call__ only in pipeline file", "huggingface/diffusers:src/diffusers/pipelines/flux/pipeline_flux.py",
     "diffusers/pipelines/flux/pipeline_flux.py | __call__ | noise_pred = self.transformer("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ diffusers/models/transformers/transformer_flux.py | forward | encoder_hidden_states, hidden_states = block(", NULL},
    {"diffusers", "generate", "diffusers vae decode tiled", "huggingface/diffusers:src/diffusers/utils/accelerate_utils.py",
     "diffusers/pipelines/stable_diffusion_xl/pipeline_stable_diffusion_xl.py | __call__ | image = self.vae.decode(latents, return_dict=False)[0]"
     " @@ diffusers/utils/accelerate_utils.py | wrapper | return method(self, *args, **kwargs)"
     " @@ diffusers/models/autoencoders/autoencoder_kl.py | decode | decoded = self._decode(z).sample"
     " @@ diffusers/models/autoencoders/autoencoder_kl.py | _decode | dec = self.decoder(z)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ diffusers/models/autoencoders/vae.py | forward | sample = up_block(sample, latent_embeds)", NULL},
    {"diffusers", "generate", "diffusers prepare_latents video", "huggingface/diffusers:src/diffusers/utils/torch_utils.py",
     "diffusers/pipelines/wan/pipeline_wan.py | __call__ | latents = self.prepare_latents("
     " @@ diffusers/pipelines/wan/pipeline_wan.py | prepare_latents | latents = randn_tensor(shape, generator=generator, device=device, dtype=dtype)"
     " @@ diffusers/utils/torch_utils.py | randn_tensor | latents = torch.randn(shape, generator=generator, device=rand_device, dtype=dtype, layout=layout).to(device)", NULL},
    {"diffusers", "load", "diffusers pipe.to", "huggingface/diffusers:src/diffusers/pipelines/pipeline_utils.py",
     "/app/app.py | <module> | pipe = pipe.to(\"cuda\")"
     " @@ diffusers/pipelines/pipeline_utils.py | to | module.to(device, dtype)"
     " @@ torch/nn/modules/module.py | to | return self._apply(convert)"
     " @@ torch/nn/modules/module.py | _apply | module._apply(fn)"
     " @@ torch/nn/modules/module.py | convert | return t.to(", NULL},
    {"diffusers", "load", "diffusers from_pretrained load_sub_model", "huggingface/diffusers:src/diffusers/pipelines/pipeline_loading_utils.py",
     "diffusers/pipelines/pipeline_utils.py | from_pretrained | loaded_sub_model = load_sub_model("
     " @@ diffusers/pipelines/pipeline_loading_utils.py | load_sub_model | loaded_sub_model = load_method(os.path.join(cached_folder, name), **loading_kwargs)"
     " @@ diffusers/models/modeling_utils.py | from_pretrained | accelerate.load_checkpoint_and_dispatch(", NULL},
    {"diffusers", "backward", "diffusers train text_to_image backward", "huggingface/accelerate:src/accelerate/accelerator.py",
     "/app/train_text_to_image.py | main | accelerator.backward(loss)"
     " @@ accelerate/accelerator.py | backward | loss.backward(**kwargs)"
     " @@ torch/_tensor.py | backward | torch.autograd.backward("
     " @@ torch/autograd/__init__.py | backward | _engine_run_backward("
     " @@ torch/autograd/graph.py | _engine_run_backward | return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass", NULL},
    {"dataloader", "data", "dataloader pin memory main thread", "pytorch/pytorch:torch/utils/data/_utils/pin_memory.py",
     "/app/train.py | train | for batch in loader:"
     " @@ torch/utils/data/dataloader.py | __next__ | data = self._next_data()"
     " @@ torch/utils/data/dataloader.py | _next_data | data = _utils.pin_memory.pin_memory(data, self._pin_memory_device)"
     " @@ torch/utils/data/_utils/pin_memory.py | pin_memory | return data.pin_memory(device)", NULL},
    {"dataloader", "data", "dataloader default_collate", "pytorch/pytorch:torch/utils/data/_utils/collate.py",
     "torch/utils/data/_utils/fetch.py | fetch | return self.collate_fn(data)"
     " @@ torch/utils/data/_utils/collate.py | default_collate | return collate(batch, collate_fn_map=default_collate_fn_map)"
     " @@ torch/utils/data/_utils/collate.py | collate | return collate_fn_map[elem_type](batch, collate_fn_map=collate_fn_map)"
     " @@ torch/utils/data/_utils/collate.py | collate_tensor_fn | return torch.stack(batch, 0, out=out)", NULL},
    {"hf", "data", "hf data collator", "huggingface/transformers:src/transformers/data/data_collator.py",
     "accelerate/data_loader.py | __iter__ | current_batch = next(dataloader_iter)"
     " @@ torch/utils/data/dataloader.py | __next__ | data = self._next_data()"
     " @@ transformers/data/data_collator.py | __call__ | return self.torch_call(features)"
     " @@ transformers/data/data_collator.py | torch_call | batch[\"labels\"] = batch[\"input_ids\"].clone()", NULL},
    {"trl", "forward", "trl grpo _generate_and_score -> _get_per_token_logps ref", "huggingface/trl:trl/trainer/grpo_trainer.py",
     "trl/trainer/grpo_trainer.py | _prepare_inputs | generation_batch = self._generate_and_score_completions(generation_batch)"
     " @@ trl/trainer/grpo_trainer.py | _generate_and_score_completions | ref_per_token_logps = self._get_per_token_logps("
     " @@ trl/trainer/grpo_trainer.py | _get_per_token_logps | logits = model(input_ids=input_ids, attention_mask=attention_mask, logits_to_keep=logits_to_keep + 1).logits"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"trl", "generate", "trl grpo generate with unwrap", "huggingface/transformers:src/transformers/generation/utils.py",
     "trl/trainer/grpo_trainer.py | _generate_and_score_completions | prompt_completion_ids = unwrapped_model.generate("
     " @@ torch/utils/_contextlib.py | decorate_context | return func(*args, **kwargs)"
     " @@ transformers/generation/utils.py | generate | result = self._sample(", NULL},
    {"trl", "forward", "trl grpo selective_log_softmax", "huggingface/trl:trl/trainer/utils.py",
     "trl/trainer/grpo_trainer.py | _get_per_token_logps | logps = selective_log_softmax(logits, input_ids_batch)"
     " @@ trl/trainer/utils.py | selective_log_softmax | logsumexp_values = torch.stack([torch.logsumexp(lg, dim=-1) for lg in logits])", NULL},
    {"trl", "forward", "trl dpo concatenated_forward", "huggingface/trl:trl/trainer/dpo_trainer.py",
     "trl/trainer/dpo_trainer.py | get_batch_loss_metrics | model_output = self.concatenated_forward(model, batch)"
     " @@ trl/trainer/dpo_trainer.py | concatenated_forward | outputs = model(input_ids, **model_kwargs)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"trl", "forward", "trl sft compute_loss entropy", "huggingface/trl:trl/trainer/utils.py",
     "trl/trainer/sft_trainer.py | compute_loss | entropy = torch.sum(per_token_entropy * attention_mask) / attention_mask.sum()"
     " @@ trl/trainer/utils.py | entropy_from_logits | logps = F.log_softmax(logits, dim=-1)", NULL},
    {"trl", "generate", "trl ppo generate batch", "huggingface/trl:trl/trainer/utils.py",
     "trl/trainer/ppo_trainer.py | train | query_responses, logitss = batch_generation("
     " @@ trl/trainer/utils.py | batch_generation | query_response, logits = generate("
     " @@ trl/trainer/utils.py | generate | output = lm_backbone.generate(", NULL},
    {"peft", "load", "peft get_peft_model", "huggingface/peft:src/peft/tuners/lora/layer.py",
     "/app/train.py | main | model = get_peft_model(model, lora_config)"
     " @@ peft/mapping.py | get_peft_model | return MODEL_TYPE_TO_PEFT_MODEL_MAPPING[peft_config.task_type]("
     " @@ peft/peft_model.py | __init__ | super().__init__(model, peft_config, adapter_name, **kwargs)"
     " @@ peft/tuners/lora/layer.py | update_layer | self.lora_A[adapter_name] = nn.Linear(self.in_features, r, bias=False)", NULL},
    {"peft", "load", "peft prepare_model_for_kbit_training", "huggingface/peft:src/peft/utils/other.py",
     "peft/utils/other.py | prepare_model_for_kbit_training | param.data = param.data.to(torch.float32)", NULL},
    {"accelerate", "load", "accelerate prepare ddp", "huggingface/accelerate:src/accelerate/accelerator.py",
     "accelerate/accelerator.py | prepare | result = tuple("
     " @@ accelerate/accelerator.py | <genexpr> | self._prepare_one(obj, first_pass=True, device_placement=d) for obj, d in zip(args, device_placement)"
     " @@ accelerate/accelerator.py | _prepare_one | return self.prepare_model(obj, device_placement=device_placement)"
     " @@ accelerate/accelerator.py | prepare_model | model = torch.nn.parallel.DistributedDataParallel(", NULL},
    {"accelerate", "eval", "accelerate gather_for_metrics in eval", "huggingface/accelerate:src/accelerate/accelerator.py",
     "/app/train.py | evaluate | predictions, references = accelerator.gather_for_metrics((predictions, batch[\"labels\"]))"
     " @@ accelerate/accelerator.py | gather_for_metrics | data = self.gather(input_data)", NULL},
    {"mmengine", "eval", "mmengine val loop", "open-mmlab/mmengine:mmengine/model/base_model/base_model.py",
     "mmengine/runner/loops.py | run | self.run_iter(idx, data_batch)"
     " @@ torch/utils/_contextlib.py | decorate_context | return func(*args, **kwargs)"
     " @@ mmengine/runner/loops.py | run_iter | outputs = self.runner.model.val_step(data_batch)"
     " @@ mmengine/model/base_model/base_model.py | val_step | return self._run_forward(data, mode='predict')  # type: ignore"
     " @@ mmengine/model/base_model/base_model.py | _run_forward | results = self(**data, mode=mode)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"mmengine", "eval", "mmengine test loop", "open-mmlab/mmengine:mmengine/model/base_model/base_model.py",
     "mmengine/runner/runner.py | test | metrics = self.test_loop.run()  # type: ignore"
     " @@ mmengine/runner/loops.py | run | self.run_iter(idx, data_batch)"
     " @@ mmengine/runner/loops.py | run_iter | outputs = self.runner.model.test_step(data_batch)"
     " @@ mmengine/model/base_model/base_model.py | test_step | return self._run_forward(data, mode='predict')  # type: ignore"
     " @@ mmengine/model/base_model/base_model.py | _run_forward | results = self(**data, mode=mode)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"mmengine", "data", "mmengine data_preprocessor", "open-mmlab/mmengine:mmengine/model/base_model/data_preprocessor.py",
     "mmengine/model/base_model/base_model.py | train_step | data = self.data_preprocessor(data, True)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ mmdet/models/data_preprocessors/data_preprocessor.py | forward | data = super().forward(data=data, training=training)"
     " @@ mmengine/model/base_model/data_preprocessor.py | forward | data = self.cast_data(data)  # type: ignore"
     " @@ mmengine/model/base_model/data_preprocessor.py | cast_data | return data.to(self.device, non_blocking=self._non_blocking)", NULL},
    {"ultralytics", "eval", "ultralytics val during train", "ultralytics/ultralytics:ultralytics/engine/validator.py",
     "ultralytics/engine/trainer.py | _do_train | self.metrics, self.fitness = self.validate()"
     " @@ ultralytics/engine/trainer.py | validate | metrics = self.validator(self)"
     " @@ torch/utils/_contextlib.py | decorate_context | return func(*args, **kwargs)"
     " @@ ultralytics/engine/validator.py | __call__ | preds = model(batch[\"img\"], augment=augment)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"ultralytics", "forward", "ultralytics predict", "ultralytics/ultralytics:ultralytics/engine/predictor.py",
     "ultralytics/engine/model.py | predict | return self.predictor.predict_cli(source=source) if is_cli else self.predictor(source=source, stream=stream)"
     " @@ ultralytics/engine/predictor.py | __call__ | return list(self.stream_inference(source, model, *args, **kwargs))  # merge list of Result into one"
     " @@ ultralytics/engine/predictor.py | stream_inference | preds = self.inference(im, *args, **kwargs)"
     " @@ ultralytics/engine/predictor.py | inference | return self.model(im, augment=self.args.augment, visualize=visualize, embed=self.args.embed, *args, **kwargs)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"detectron2", "eval", "detectron2 do_test", "facebookresearch/detectron2:detectron2/evaluation/evaluator.py",
     "/app/train_net.py | do_test | results_i = inference_on_dataset(model, data_loader, evaluator)"
     " @@ detectron2/evaluation/evaluator.py | inference_on_dataset | outputs = model(inputs)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"hf", "load", "hf _load_best_model", "huggingface/transformers:src/transformers/trainer.py",
     "transformers/trainer.py | _load_best_model | load_result = model.load_state_dict(state_dict, False)", NULL},
    {"hf", "load", "hf _load_optimizer_and_scheduler", "huggingface/transformers:src/transformers/trainer.py",
     "transformers/trainer.py | _load_optimizer_and_scheduler | self.optimizer.load_state_dict(", NULL},
    {"hf", "load", "hf _load_optimizer_and_scheduler torch.load", "huggingface/transformers:src/transformers/trainer.py",
     "transformers/trainer.py | _load_optimizer_and_scheduler | torch.load(os.path.join(checkpoint, OPTIMIZER_NAME), map_location=map_location)", NULL},
    {"accelerate", "load", "accelerate load_state", "huggingface/accelerate:src/accelerate/checkpointing.py",
     "accelerate/accelerator.py | load_state | override_attributes = load_accelerator_state("
     " @@ accelerate/checkpointing.py | load_accelerator_state | optimizer_state = torch.load(input_optimizer_file, map_location=map_location)", NULL},
    {"pl", "load", "pl restore", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/strategies/strategy.py",
     "lightning/pytorch/trainer/trainer.py | _run | self._checkpoint_connector.restore_training_state()"
     " @@ lightning/pytorch/trainer/connectors/checkpoint_connector.py | restore_training_state | self.restore_optimizers_and_schedulers()"
     " @@ lightning/pytorch/trainer/connectors/checkpoint_connector.py | restore_optimizers_and_schedulers | self.strategy.load_optimizer_state_dict(self._loaded_checkpoint)"
     " @@ lightning/pytorch/strategies/strategy.py | load_optimizer_state_dict | optimizer.load_state_dict(opt_state)", NULL},
    {"pl", "checkpoint", "pl _save_topk_checkpoint", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/strategies/strategy.py",
     "lightning/pytorch/callbacks/model_checkpoint.py | on_validation_end | self._save_topk_checkpoint(trainer, monitor_candidates)"
     " @@ lightning/pytorch/callbacks/model_checkpoint.py | _save_topk_checkpoint | self._save_monitor_checkpoint(trainer, monitor_candidates)"
     " @@ lightning/pytorch/callbacks/model_checkpoint.py | _save_monitor_checkpoint | self._update_best_and_save(current, trainer, monitor_candidates)"
     " @@ lightning/pytorch/callbacks/model_checkpoint.py | _update_best_and_save | self._save_checkpoint(trainer, filepath)"
     " @@ lightning/pytorch/callbacks/model_checkpoint.py | _save_checkpoint | trainer.save_checkpoint(filepath, self.save_weights_only)"
     " @@ lightning/pytorch/trainer/trainer.py | save_checkpoint | checkpoint = self._checkpoint_connector.dump_checkpoint(weights_only)"
     " @@ lightning/pytorch/trainer/connectors/checkpoint_connector.py | dump_checkpoint | optimizer_state = trainer.strategy.optimizer_state(optimizer)"
     " @@ lightning/pytorch/strategies/strategy.py | optimizer_state | return optimizer.state_dict()", NULL},
    {"pl", "checkpoint", "pl dump_checkpoint only", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/strategies/strategy.py",
     "lightning/pytorch/trainer/connectors/checkpoint_connector.py | dump_checkpoint | optimizer_state = trainer.strategy.optimizer_state(optimizer)"
     " @@ lightning/pytorch/strategies/strategy.py | optimizer_state | return optimizer.state_dict()", NULL},
    {"hf", "generate", "hf generate zero3 gather", "deepspeedai/DeepSpeed:deepspeed/runtime/zero/partitioned_param_coordinator.py",
     "transformers/generation/utils.py | _sample | outputs = self(**model_inputs, return_dict=True)"
     " @@ torch/nn/modules/module.py | _call_impl | args_result = hook(self, args)"
     " @@ deepspeed/runtime/zero/parameter_offload.py | _pre_forward_module_hook | self.pre_sub_module_forward_function(module)"
     " @@ deepspeed/runtime/zero/partitioned_param_coordinator.py | fetch_sub_module | self.__all_gather_params(params_to_fetch, forward)", NULL},
    {"peft", "load", "peft set_peft_model_state_dict", "huggingface/peft:src/peft/utils/save_and_load.py",
     "peft/peft_model.py | load_adapter | load_result = set_peft_model_state_dict("
     " @@ peft/utils/save_and_load.py | set_peft_model_state_dict | load_result = model.load_state_dict(peft_model_state_dict, strict=False)", NULL},
    {"peft", "checkpoint", "peft save_pretrained", "huggingface/peft:src/peft/utils/save_and_load.py",
     "peft/peft_model.py | save_pretrained | output_state_dict = get_peft_model_state_dict("
     " @@ peft/utils/save_and_load.py | get_peft_model_state_dict | state_dict = model.state_dict()", NULL},
    {"torch", "checkpoint", "torch dcp save", "pytorch/pytorch:torch/distributed/checkpoint/state_dict_saver.py",
     "torch/distributed/checkpoint/state_dict_saver.py | save | return _save_state_dict("
     " @@ torch/distributed/checkpoint/state_dict_saver.py | _save_state_dict | central_plan: SavePlan = distW.reduce_scatter(\"plan\", local_step, global_step)", NULL},
    {"ds", "checkpoint", "ds save_16bit_model", "deepspeedai/DeepSpeed:deepspeed/runtime/engine.py",
     "deepspeed/runtime/engine.py | save_16bit_model | state_dict = self._zero3_consolidated_16bit_state_dict()", NULL},
    {"hf", "load", "hf trainer _load_rng_state", "huggingface/transformers:src/transformers/trainer.py",
     "transformers/trainer.py | _load_rng_state | checkpoint_rng_state = torch.load(rng_file, weights_only=False)", NULL},
    {"keras", "load", "keras load_weights", "keras-team/keras:keras/src/saving/saving_api.py",
     "keras/src/models/model.py | load_weights | saving_api.load_weights("
     " @@ keras/src/saving/saving_api.py | load_weights | saving_lib.load_weights_only(", NULL},
    {"keras", "checkpoint", "keras ModelCheckpoint", "keras-team/keras:keras/src/callbacks/model_checkpoint.py",
     "keras/src/callbacks/model_checkpoint.py | on_epoch_end | self._save_model(epoch=epoch, batch=None, logs=logs)"
     " @@ keras/src/callbacks/model_checkpoint.py | _save_model | self.model.save_weights(filepath, overwrite=True)", NULL},
    {"diffusers", "load", "diffusers load_lora_weights", "huggingface/diffusers:src/diffusers/loaders/lora_pipeline.py",
     "diffusers/loaders/lora_pipeline.py | load_lora_weights | self.load_lora_into_unet("
     " @@ diffusers/loaders/lora_pipeline.py | load_lora_into_unet | unet.load_lora_adapter(", NULL},
    {"ultralytics", "load", "ultralytics trainer setup", "ultralytics/ultralytics:ultralytics/engine/trainer.py",
     "ultralytics/engine/trainer.py | _setup_train | self.model = self.model.to(self.device)", NULL},
    {"mmengine", "load", "mmengine load_checkpoint", "open-mmlab/mmengine:mmengine/runner/checkpoint.py",
     "mmengine/runner/runner.py | load_or_resume | self.load_checkpoint(self._load_from)"
     " @@ mmengine/runner/checkpoint.py | _load_checkpoint | checkpoint = CheckpointLoader.load_checkpoint(filename, map_location, logger)", NULL},
    {"sentence-transformers", "forward", "sentence-transformers encode", "UKPLab/sentence-transformers:sentence_transformers/SentenceTransformer.py",
     "sentence_transformers/SentenceTransformer.py | encode | out_features = self.forward(features, **kwargs)", NULL},
    {"hf", "forward", "hf pipeline __call__ run_single", "huggingface/transformers:src/transformers/pipelines/token_classification.py",
     "transformers/pipelines/base.py | run_single | model_outputs = self.forward(model_inputs, **forward_params)"
     " @@ transformers/pipelines/base.py | forward | model_outputs = self._forward(model_inputs, **forward_params)"
     " @@ transformers/pipelines/token_classification.py | _forward | output = self.model(**model_inputs)", NULL},
    {"whisper", "generate", "whisper pipeline generate", "huggingface/transformers:src/transformers/pipelines/automatic_speech_recognition.py",
     "transformers/pipelines/automatic_speech_recognition.py | _forward | tokens = self.model.generate("
     " @@ transformers/models/whisper/generation_whisper.py | generate | seek_outputs, should_skip = self.generate_with_fallback(", NULL},
    {"verl", "generate", "verl generate_sequences", "volcengine/verl:verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py",
     "verl/single_controller/base/decorator.py | inner | return func(*args, **kwargs)"
     " @@ verl/workers/fsdp_workers.py | generate_sequences | output = self.rollout.generate_sequences(prompts=prompts)"
     " @@ verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py | generate_sequences | outputs = self.inference_engine.generate(", NULL},
    {"verl", "generate", "verl hf rollout", "volcengine/verl:verl/workers/rollout/hf_rollout.py",
     "verl/workers/rollout/hf_rollout.py | _generate_minibatch | output = self.module.generate(", NULL},
    {"verl", "forward", "verl compute_log_prob", "volcengine/verl:verl/workers/actor/dp_actor.py",
     "verl/workers/fsdp_workers.py | compute_log_prob | output, entropys = self.actor.compute_log_prob(data=data, calculate_entropy=True)"
     " @@ verl/workers/actor/dp_actor.py | compute_log_prob | entropy, log_probs = self._forward_micro_batch("
     " @@ verl/workers/actor/dp_actor.py | _forward_micro_batch | output = self.actor_module("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"verl", "forward", "verl compute_ref_log_prob", "volcengine/verl:verl/utils/torch_functional.py",
     "verl/workers/fsdp_workers.py | compute_ref_log_prob | output, _ = self.ref_policy.compute_log_prob(data=data, calculate_entropy=False)"
     " @@ verl/workers/actor/dp_actor.py | compute_log_prob | entropy, log_probs = self._forward_micro_batch("
     " @@ verl/utils/torch_functional.py | logprobs_from_logits | output = logprobs_from_logits_flash_attn(logits, labels)", NULL},
    {"verl", "forward", "verl update_actor forward", "volcengine/verl:verl/workers/actor/dp_actor.py",
     "verl/workers/fsdp_workers.py | update_actor | metrics = self.actor.update_policy(data=data)"
     " @@ verl/workers/actor/dp_actor.py | update_policy | entropy, log_prob = self._forward_micro_batch("
     " @@ verl/workers/actor/dp_actor.py | _forward_micro_batch | output = self.actor_module("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"verl", "backward", "verl update_actor backward", "volcengine/verl:verl/workers/actor/dp_actor.py",
     "verl/workers/fsdp_workers.py | update_actor | metrics = self.actor.update_policy(data=data)"
     " @@ verl/workers/actor/dp_actor.py | update_policy | loss.backward()"
     " @@ torch/_tensor.py | backward | torch.autograd.backward(", NULL},
    {"verl", "optimizer", "verl _optimizer_step", "volcengine/verl:verl/workers/actor/dp_actor.py",
     "verl/workers/actor/dp_actor.py | update_policy | grad_norm = self._optimizer_step()"
     " @@ verl/workers/actor/dp_actor.py | _optimizer_step | self.actor_optimizer.step()"
     " @@ torch/optim/optimizer.py | wrapper | out = func(*args, **kwargs)"
     " @@ torch/optim/adamw.py | step | has_complex = self._init_group(", NULL},
    {"verl", "load", "verl init_model", "volcengine/verl:verl/workers/fsdp_workers.py",
     "verl/workers/fsdp_workers.py | init_model | ) = self._build_model_optimizer("
     " @@ verl/workers/fsdp_workers.py | _build_model_optimizer | actor_module_fsdp = FSDP(", NULL},
    {"verl", "forward", "verl critic compute_values", "volcengine/verl:verl/workers/critic/dp_critic.py",
     "verl/workers/fsdp_workers.py | compute_values | values = self.critic.compute_values(data=data)"
     " @@ verl/workers/critic/dp_critic.py | compute_values | values = self._forward_micro_batch(micro_batch)"
     " @@ verl/workers/critic/dp_critic.py | _forward_micro_batch | output = self.critic_module("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"openrlhf", "generate", "openrlhf make_experience generate", "OpenRLHF/OpenRLHF:openrlhf/trainer/ppo_utils/experience_maker.py",
     "openrlhf/trainer/ppo_trainer.py | fit | experience_list = self.experience_maker.make_experience_list(rand_prompts, **self.generate_kwargs)"
     " @@ openrlhf/trainer/ppo_utils/experience_maker.py | make_experience_list | samples_list = self.generate_samples(all_prompts, **generate_kwargs)"
     " @@ openrlhf/trainer/ppo_utils/experience_maker.py | generate_samples | sequences, attention_mask, action_mask = self.actor.generate(**inputs, **generate_kwargs)", NULL},
    {"openrlhf", "forward", "openrlhf make_experience forward", "OpenRLHF/OpenRLHF:openrlhf/trainer/ppo_utils/experience_maker.py",
     "openrlhf/trainer/ppo_utils/experience_maker.py | make_experience | action_log_probs = self.actor(sequences, num_actions, attention_mask)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ openrlhf/models/actor.py | forward | output = self.model(sequences, attention_mask=attention_mask, position_ids=position_ids)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"openrlhf", "backward", "openrlhf training_step_actor backward", "deepspeedai/DeepSpeed:deepspeed/runtime/engine.py",
     "openrlhf/trainer/ppo_trainer.py | training_step_actor | self.strategy.backward(loss, self.actor, self.actor_optim)"
     " @@ openrlhf/utils/deepspeed/deepspeed.py | backward | model.backward(loss)"
     " @@ deepspeed/utils/nvtx.py | wrapped_fn | ret_val = func(*args, **kwargs)"
     " @@ deepspeed/runtime/engine.py | backward | self.optimizer.backward(loss, retain_graph=retain_graph)", NULL},
    {"openrlhf", "optimizer", "openrlhf optimizer_step", "deepspeedai/DeepSpeed:deepspeed/runtime/engine.py",
     "openrlhf/trainer/ppo_trainer.py | training_step_actor | self.strategy.optimizer_step(self.actor_optim, self.actor, self.actor_scheduler, name=\"actor\")"
     " @@ openrlhf/utils/deepspeed/deepspeed.py | optimizer_step | model.step()"
     " @@ deepspeed/runtime/engine.py | step | self._take_model_step(lr_kwargs)", NULL},
    {"nemo", "forward", "nemo training_step", "pytorch/pytorch:torch/nn/modules/linear.py",
     "nemo/collections/asr/models/ctc_models.py | training_step | log_probs, encoded_len, predictions = self.forward("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"nemo", "eval", "nemo validation_step", "pytorch/pytorch:torch/nn/modules/linear.py",
     "nemo/collections/asr/models/ctc_models.py | validation_pass | log_probs, encoded_len, predictions = self.forward("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"unsloth", "forward", "unsloth fast CE loss", "unslothai/unsloth:unsloth/kernels/cross_entropy_loss.py",
     "unsloth/models/llama.py | _CausalLM_fast_forward | loss = fast_cross_entropy_loss("
     " @@ unsloth/kernels/cross_entropy_loss.py | fast_cross_entropy_loss | loss = Fast_CrossEntropyLoss.apply(", NULL},
    {"llamafactory", "forward", "llamafactory workflow train", "huggingface/transformers:src/transformers/trainer.py",
     "llamafactory/train/sft/workflow.py | run_sft | train_result = trainer.train(resume_from_checkpoint=training_args.resume_from_checkpoint)"
     " @@ transformers/trainer.py | _inner_training_loop | tr_loss_step = self.training_step(model, inputs, num_items_in_batch)"
     " @@ transformers/trainer.py | training_step | loss = self.compute_loss(model, inputs, num_items_in_batch=num_items_in_batch)"
     " @@ transformers/trainer.py | compute_loss | outputs = model(**inputs)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"swift", "generate", "swift infer", "modelscope/ms-swift:swift/llm/infer/infer_engine/pt_engine.py",
     "swift/llm/infer/infer_engine/pt_engine.py | _infer_full | output = dict(self.model.generate(**inputs, **generate_kwargs))", NULL},
    {"scaler.step", "optimizer", "scaler.step", "pytorch/pytorch:torch/amp/grad_scaler.py",
     "/w/train.py | train | scaler.step(optimizer)"
     " @@ torch/amp/grad_scaler.py | step | retval = self._maybe_opt_step(optimizer, optimizer_state, *args, **kwargs)", NULL},
    {"scaler.scale(loss).backward", "backward", "scaler.scale(loss).backward", "pytorch/pytorch:torch/_tensor.py",
     "/w/train.py | train | scaler.scale(loss).backward()"
     " @@ torch/_tensor.py | backward | torch.autograd.backward(", NULL},
    {"ema", "optimizer", "ema update", "huggingface/pytorch-image-models:timm/utils/model_ema.py",
     "/w/train.py | train | ema.update(model)"
     " @@ timm/utils/model_ema.py | update | self._update(model, update_fn=lambda e, m: self.decay * e + (1. - self.decay) * m)", NULL},
    {"lr_scheduler.step", "optimizer", "lr_scheduler.step", "pytorch/pytorch:torch/optim/lr_scheduler.py",
     "/w/train.py | train | lr_scheduler.step()"
     " @@ torch/optim/lr_scheduler.py | step | values = self.get_lr()", NULL},
    {"dist.all_reduce", "unknown", "dist.all_reduce loss", "pytorch/pytorch:torch/distributed/distributed_c10d.py",
     "/w/train.py | train | dist.all_reduce(loss_tensor)"
     " @@ torch/distributed/c10d_logger.py | wrapper | return func(*args, **kwargs)"
     " @@ torch/distributed/distributed_c10d.py | all_reduce | work = group.allreduce([tensor], opts)", NULL},
    {"torch.cuda.synchronize", "unknown", "torch.cuda.synchronize", "pytorch/pytorch:torch/cuda/__init__.py",
     "/w/train.py | train | torch.cuda.synchronize()"
     " @@ torch/cuda/__init__.py | synchronize | return torch._C._cuda_synchronize()", NULL},
    {"batch", "data", "batch to device", "user code (guard)",
     "/w/train.py | train | images = images.to(device, non_blocking=True)", NULL},
    {"model(images)", "forward", "model(images)", "pytorch/pytorch:torch/nn/modules/module.py",
     "/w/train.py | train | outputs = model(images)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torchvision/models/resnet.py | forward | return self._forward_impl(x)", NULL},
    {"criterion", "forward", "criterion", "pytorch/pytorch:torch/nn/modules/loss.py",
     "/w/train.py | train | loss = criterion(outputs, targets)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/nn/modules/loss.py | forward | return F.cross_entropy(input, target, weight=self.weight,", NULL},
    {"checkpoint", "backward", "checkpoint recompute", "pytorch/pytorch:torch/nn/modules/module.py",
     "/w/train.py | train | loss.backward()"
     " @@ torch/_tensor.py | backward | torch.autograd.backward("
     " @@ torch/autograd/__init__.py | backward | _engine_run_backward("
     " @@ torch/autograd/graph.py | _engine_run_backward | return Variable._execution_engine.run_backward("
     " @@ torch/utils/checkpoint.py | unpack_hook | frame.recompute_fn(*args)"
     " @@ torch/utils/checkpoint.py | recompute_fn | fn(*args, **kwargs)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ /w/model.py | forward | x = self.attn(x)", NULL},
    {"torch.compile", "forward", "torch.compile first call", "pytorch/pytorch:torch/_inductor/compile_fx.py",
     "/w/train.py | train | out = compiled_model(x)"
     " @@ torch/_dynamo/eval_frame.py | _fn | return fn(*args, **kwargs)"
     " @@ torch/_inductor/compile_fx.py | compile_fx_inner | compiled_graph = fx_codegen_and_compile(", NULL},
    {"torch.no_grad", "eval", "torch.no_grad eval loop user", "pytorch/pytorch:torch/nn/modules/module.py",
     "/w/train.py | evaluate | outputs = model(images)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)", NULL},
    {"test()", "eval", "test() user", "user code (guard)",
     "/w/train.py | main | acc = test(model, test_loader)"
     " @@ /w/train.py | test | output = model(data)", NULL},
    {"valid_epoch", "eval", "valid_epoch", "user code (guard)",
     "/w/train.py | valid_epoch | output = model(data)", NULL},
    {"run_epoch", "eval", "run_epoch val literal", "user code (guard)",
     "/w/train.py | main | val_loss = run_epoch(model, val_loader, train=False)"
     " @@ /w/train.py | run_epoch | output = model(data)", NULL},
    {"inference.py", "forward", "inference.py predict", "user code (guard)",
     "/w/inference.py | <module> | preds = predict(model, x)"
     " @@ /w/inference.py | predict | return model(x)", NULL},
    {"sample()", "generate", "sample() in user generate script", "user code (guard)",
     "/w/sample.py | <module> | y = model.generate(x, max_new_tokens, temperature=temperature, top_k=top_k)"
     " @@ /w/model.py | generate | logits, _ = self(idx_cond)", NULL},
    {"comfy", "generate", "comfy VAEDecode", "user code (guard)",
     "/w/ComfyUI/execution.py | execute | output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb)"
     " @@ /w/ComfyUI/execution.py | get_output_data | return_values = _map_node_over_list(obj, input_data_all, obj.FUNCTION, allow_interrupt=True, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb)"
     " @@ /w/ComfyUI/execution.py | _map_node_over_list | process_inputs(input_dict, i)"
     " @@ /w/ComfyUI/execution.py | process_inputs | results.append(getattr(obj, func)(**inputs))"
     " @@ /w/ComfyUI/nodes.py | decode | images = vae.decode(samples[\"samples\"])"
     " @@ /w/ComfyUI/comfy/sd.py | decode | pixel_samples[x:x+batch_number] = self.process_output(self.first_stage_model.decode(samples).to(self.output_device).float())", NULL},
    {"comfy", "forward", "comfy CLIPTextEncode", "user code (guard)",
     "/w/ComfyUI/execution.py | execute | output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb)"
     " @@ /w/ComfyUI/execution.py | get_output_data | return_values = _map_node_over_list(obj, input_data_all, obj.FUNCTION, allow_interrupt=True, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb)"
     " @@ /w/ComfyUI/execution.py | _map_node_over_list | process_inputs(input_dict, i)"
     " @@ /w/ComfyUI/execution.py | process_inputs | results.append(getattr(obj, func)(**inputs))"
     " @@ /w/ComfyUI/nodes.py | encode | return (clip.encode_from_tokens_scheduled(tokens), )"
     " @@ /w/ComfyUI/comfy/sd.py | encode_from_tokens_scheduled | pooled_dict = self.encode_from_tokens(tokens, return_pooled=return_pooled, return_dict=True)"
     " @@ /w/ComfyUI/comfy/sd.py | encode_from_tokens | o = self.cond_stage_model.encode_token_weights(tokens)", NULL},
    {"comfy", "load", "comfy CheckpointLoader", "user code (guard)",
     "/w/ComfyUI/execution.py | execute | output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb)"
     " @@ /w/ComfyUI/execution.py | get_output_data | return_values = _map_node_over_list(obj, input_data_all, obj.FUNCTION, allow_interrupt=True, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb)"
     " @@ /w/ComfyUI/execution.py | _map_node_over_list | process_inputs(input_dict, i)"
     " @@ /w/ComfyUI/execution.py | process_inputs | results.append(getattr(obj, func)(**inputs))"
     " @@ /w/ComfyUI/nodes.py | load_checkpoint | out = comfy.sd.load_checkpoint_guess_config(ckpt_path, output_vae=True, output_clip=True, embedding_directory=folder_paths.get_folder_paths(\"embeddings\"))", NULL},
    {"comfy", "load", "comfy LoraLoader", "user code (guard)",
     "/w/ComfyUI/execution.py | execute | output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb)"
     " @@ /w/ComfyUI/execution.py | get_output_data | return_values = _map_node_over_list(obj, input_data_all, obj.FUNCTION, allow_interrupt=True, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb)"
     " @@ /w/ComfyUI/execution.py | _map_node_over_list | process_inputs(input_dict, i)"
     " @@ /w/ComfyUI/execution.py | process_inputs | results.append(getattr(obj, func)(**inputs))"
     " @@ /w/ComfyUI/nodes.py | load_lora | model_lora, clip_lora = comfy.sd.load_lora_for_models(model, clip, lora, strength_model, strength_clip)", NULL},
    {"comfy", "load", "comfy KSampler with load_models_gpu", "user code (guard)",
     "/w/ComfyUI/execution.py | execute | output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb)"
     " @@ /w/ComfyUI/execution.py | get_output_data | return_values = _map_node_over_list(obj, input_data_all, obj.FUNCTION, allow_interrupt=True, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb)"
     " @@ /w/ComfyUI/execution.py | _map_node_over_list | process_inputs(input_dict, i)"
     " @@ /w/ComfyUI/execution.py | process_inputs | results.append(getattr(obj, func)(**inputs))"
     " @@ /w/ComfyUI/nodes.py | sample | return common_ksampler(model, seed, steps, cfg, sampler_name, scheduler, positive, negative, latent_image, denoise=denoise)"
     " @@ /w/ComfyUI/nodes.py | common_ksampler | samples = comfy.sample.sample(model, noise, steps, cfg, sampler_name, scheduler, positive, negative, latent_image,"
     " @@ /w/ComfyUI/comfy/sample.py | sample | samples = sampler.sample(noise, positive, negative, cfg=cfg, latent_image=latent_image, start_step=start_step, last_step=last_step, force_full_denoise=force_full_denoise, denoise_mask=noise_mask, sigmas=sigmas, callback=callback, disable_pbar=disable_pbar, seed=seed)"
     " @@ /w/ComfyUI/comfy/samplers.py | outer_sample | self.inner_model, self.conds, self.loaded_models = comfy.sampler_helpers.prepare_sampling(self.model_patcher, noise.shape, self.conds, self.model_options)"
     " @@ /w/ComfyUI/comfy/sampler_helpers.py | prepare_sampling | comfy.model_management.load_models_gpu([model] + models, memory_required=memory_required, minimum_memory_required=minimum_memory_required)"
     " @@ /w/ComfyUI/comfy/model_management.py | load_models_gpu | loaded_model.model_load(lowvram_model_memory, force_patch_weights=force_patch_weights)", NULL},
    {"a1111", "generate", "a1111 txt2img", "user code (guard)",
     "/w/webui/modules/call_queue.py | f | res = list(func(*args, **kwargs))"
     " @@ /w/webui/modules/txt2img.py | txt2img | processed = processing.process_images(p)"
     " @@ /w/webui/modules/processing.py | process_images | res = process_images_inner(p)"
     " @@ /w/webui/modules/processing.py | process_images_inner | samples_ddim = p.sample(conditioning=p.c, unconditional_conditioning=p.uc, seeds=p.seeds, subseeds=p.subseeds, subseed_strength=p.subseed_strength, prompts=p.prompts)", NULL},
    {"a1111", "generate", "a1111 hires upscale", "user code (guard)",
     "/w/webui/modules/processing.py | sample_hr_pass | samples = self.sampler.sample_img2img(self, samples, noise, self.hr_c, self.hr_uc, steps=self.hr_second_pass_steps or self.steps, image_conditioning=image_conditioning)", NULL},
    {"gradio", "unknown", "gradio process_api only", "gradio-app/gradio:gradio/blocks.py",
     "gradio/routes.py | run_predict | output = await app.get_blocks().process_api("
     " @@ gradio/blocks.py | process_api | result = await self.call_function(", NULL},
};

static const char oom_message[] =
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
    "79.15 GiB of which 1.02 GiB is free.\n";

static const struct audit audit = {audit_rows, sizeof audit_rows / sizeof audit_rows[0], oom_message};

static void test_library_paths(void **state)
{
    (void)state;
    assert_int_equal(audit_misses(&audit, false), 0);
}

int main(int argc, char **argv)
{
    int rc = audit_main(&audit, argc, argv);
    if (rc >= 0) return rc;
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_library_paths)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
