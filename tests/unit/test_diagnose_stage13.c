/* diagnose's stage by coverage, helper diagstage13 (issue 12): an audit of
 * the stages that the training and inference frameworks an OOM paste comes
 * from mark in their own code. Each row is a short synthetic paste whose
 * frames are the framework's file paths and function names (as its source
 * names them; the repository and file beside each row) ending in PyTorch's
 * OOM message, with the stage docs/diagnose.md gives it. No row was read
 * from a corpus log. `build/tests/test_diagnose_stage13 --table` prints
 * every row with the stage diagnose gives (the audit table of
 * /work/notes/diagstage13.md); `--paste N` prints row N's paste. */
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
    /* ---- HF transformers Trainer / Seq2SeqTrainer (huggingface/transformers:src/transformers/trainer.py) ---- */
    {"hf-trainer", "backward", "training_step -> accelerator.backward", "huggingface/transformers:src/transformers/trainer.py",
     "/w/train.py | <module> | trainer.train()"
     " @@ transformers/trainer.py | train | return inner_training_loop("
     " @@ transformers/trainer.py | _inner_training_loop | tr_loss_step = self.training_step(model, inputs, num_items_in_batch)"
     " @@ transformers/trainer.py | training_step | self.accelerator.backward(loss, **kwargs)"
     " @@ accelerate/accelerator.py | backward | loss.backward(**kwargs)"
     " @@ torch/_tensor.py | backward | torch.autograd.backward("
     " @@ torch/autograd/__init__.py | backward | _engine_run_backward("
     " @@ torch/autograd/graph.py | _engine_run_backward | return Variable._execution_engine.run_backward(", NULL},
    {"hf-trainer", "forward", "compute_loss -> model(**inputs)", "huggingface/transformers:src/transformers/trainer.py",
     "transformers/trainer.py | _inner_training_loop | tr_loss_step = self.training_step(model, inputs, num_items_in_batch)"
     " @@ transformers/trainer.py | training_step | loss = self.compute_loss(model, inputs, num_items_in_batch=num_items_in_batch)"
     " @@ transformers/trainer.py | compute_loss | outputs = model(**inputs)"
     " @@ torch/nn/modules/module.py | _wrapped_call_impl | return self._call_impl(*args, **kwargs)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states[:, slice_indices, :])", NULL},
    {"hf-trainer", "optimizer", "_inner_training_loop -> optimizer.step -> adamw _init_group", "huggingface/transformers:src/transformers/trainer.py",
     "transformers/trainer.py | _inner_training_loop | self.optimizer.step()"
     " @@ accelerate/optimizer.py | step | self.optimizer.step(closure)"
     " @@ torch/optim/lr_scheduler.py | wrapper | return wrapped(*args, **kwargs)"
     " @@ torch/optim/optimizer.py | wrapper | out = func(*args, **kwargs)"
     " @@ torch/optim/adamw.py | step | has_complex = self._init_group("
     " @@ torch/optim/adamw.py | _init_group | state[\"exp_avg\"] = torch.zeros_like(", NULL},
    {"hf-trainer", "eval", "_maybe_log_save_evaluate -> evaluation_loop -> prediction_step", "huggingface/transformers:src/transformers/trainer.py",
     "transformers/trainer.py | _inner_training_loop | self._maybe_log_save_evaluate("
     " @@ transformers/trainer.py | _maybe_log_save_evaluate | metrics = self._evaluate(trial, ignore_keys_for_eval)"
     " @@ transformers/trainer.py | _evaluate | metrics = self.evaluate(ignore_keys=ignore_keys_for_eval)"
     " @@ transformers/trainer.py | evaluate | output = eval_loop("
     " @@ transformers/trainer.py | evaluation_loop | losses, logits, labels = self.prediction_step(model, inputs, prediction_loss_only, ignore_keys=ignore_keys)"
     " @@ transformers/trainer.py | prediction_step | outputs = model(**inputs)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states[:, slice_indices, :])", NULL},
    {"hf-trainer", "eval", "evaluation_loop -> gather_for_metrics", "huggingface/transformers:src/transformers/trainer.py",
     "transformers/trainer.py | evaluate | output = eval_loop("
     " @@ transformers/trainer.py | evaluation_loop | logits = self.gather_function((logits))"
     " @@ accelerate/accelerator.py | gather_for_metrics | data = self.gather(input_data)"
     " @@ accelerate/utils/operations.py | _gpu_gather_one | return torch.cat(output_tensors, dim=0)", NULL},
    {"hf-trainer", "checkpoint", "_save_checkpoint -> save_model", "huggingface/transformers:src/transformers/trainer.py",
     "transformers/trainer.py | _maybe_log_save_evaluate | self._save_checkpoint(model, trial)"
     " @@ transformers/trainer.py | _save_checkpoint | self.save_model(output_dir, _internal_call=True)"
     " @@ transformers/trainer.py | save_model | state_dict = self.accelerator.get_state_dict(self.model)"
     " @@ accelerate/accelerator.py | get_state_dict | state_dict = model.state_dict()", NULL},
    {"hf-trainer", "data", "epoch_iterator -> accelerate DataLoaderShard send_to_device", "huggingface/accelerate:src/accelerate/data_loader.py",
     "transformers/trainer.py | _inner_training_loop | batch_samples, num_items_in_batch = self.get_batch_samples(epoch_iterator, num_batches, args.device)"
     " @@ transformers/trainer.py | get_batch_samples | batch_samples.append(next(epoch_iterator))"
     " @@ accelerate/data_loader.py | __iter__ | current_batch = send_to_device(current_batch, self.device, non_blocking=self._non_blocking)"
     " @@ accelerate/utils/operations.py | send_to_device | return tensor.to(device, non_blocking=non_blocking)", NULL},
    {"hf-trainer", "load", "from_pretrained -> _load_pretrained_model", "huggingface/transformers:src/transformers/modeling_utils.py",
     "/w/train.py | <module> | model = AutoModelForCausalLM.from_pretrained(args.model, torch_dtype=torch.bfloat16, device_map=\"cuda\")"
     " @@ transformers/models/auto/auto_factory.py | from_pretrained | return model_class.from_pretrained("
     " @@ transformers/modeling_utils.py | from_pretrained | ) = cls._load_pretrained_model("
     " @@ transformers/modeling_utils.py | _load_pretrained_model | _error_msgs, disk_offload_index, cpu_offload_index = load_shard_file(args)"
     " @@ transformers/modeling_utils.py | _load_state_dict_into_meta_model | param = param[...].to(param_device)", NULL},
    {"hf-seq2seq", "generate", "Seq2SeqTrainer.prediction_step -> model.generate", "huggingface/transformers:src/transformers/trainer_seq2seq.py",
     "transformers/trainer.py | evaluation_loop | losses, logits, labels = self.prediction_step(model, inputs, prediction_loss_only, ignore_keys=ignore_keys)"
     " @@ transformers/trainer_seq2seq.py | prediction_step | generated_tokens = self.model.generate(**generation_inputs, **gen_kwargs)"
     " @@ torch/utils/_contextlib.py | decorate_context | return func(*args, **kwargs)"
     " @@ transformers/generation/utils.py | generate | result = self._beam_search("
     " @@ transformers/generation/utils.py | _beam_search | model_outputs = self(**model_inputs, return_dict=True)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/t5/modeling_t5.py | forward | scores = torch.matmul(", NULL},
    /* ---- accelerate (huggingface/accelerate:src/accelerate/accelerator.py) ---- */
    {"accelerate", "load", "accelerator.prepare -> prepare_model", "huggingface/accelerate:src/accelerate/accelerator.py",
     "/w/train.py | main | model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)"
     " @@ accelerate/accelerator.py | prepare | result = tuple("
     " @@ accelerate/accelerator.py | _prepare_one | return self.prepare_model(obj, device_placement=device_placement)"
     " @@ accelerate/accelerator.py | prepare_model | model = model.to(self.device)"
     " @@ torch/nn/modules/module.py | _apply | param_applied = fn(param)", NULL},
    {"accelerate", "checkpoint", "accelerator.save_state", "huggingface/accelerate:src/accelerate/accelerator.py",
     "/w/train.py | main | accelerator.save_state(save_path)"
     " @@ accelerate/accelerator.py | save_state | optimizers = [self.get_state_dict_from_offload(opt) for opt in self._optimizers]"
     " @@ accelerate/checkpointing.py | save_accelerator_state | save(state, output_optimizer_file, save_on_each_node=save_on_each_node, safe_serialization=False)", NULL},
    /* ---- PEFT (huggingface/peft:src/peft/mapping_func.py, tuners/tuners_utils.py) ---- */
    {"peft", "load", "get_peft_model -> inject_adapter", "huggingface/peft:src/peft/tuners/tuners_utils.py",
     "/w/train.py | main | model = get_peft_model(model, lora_config)"
     " @@ peft/mapping_func.py | get_peft_model | return MODEL_TYPE_TO_PEFT_MODEL_MAPPING[peft_config.task_type]("
     " @@ peft/peft_model.py | __init__ | self.base_model = cls(model, {adapter_name: peft_config}, adapter_name)"
     " @@ peft/tuners/tuners_utils.py | inject_adapter | self._create_and_replace(peft_config, adapter_name, target, target_name, parent, current_key=key)"
     " @@ peft/tuners/lora/layer.py | update_layer | self.reset_lora_parameters(adapter_name, init_lora_weights)", NULL},
    {"peft", "load", "prepare_model_for_kbit_training casts params", "huggingface/peft:src/peft/utils/other.py",
     "/w/train.py | main | model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=True)"
     " @@ peft/utils/other.py | prepare_model_for_kbit_training | param.data = param.data.to(torch.float32)", NULL},
    /* ---- TRL (huggingface/trl:trl/trainer/) ---- */
    {"trl-grpo", "generate", "_generate_and_score_completions -> unwrapped_model.generate", "huggingface/trl:trl/trainer/grpo_trainer.py",
     "transformers/trainer.py | training_step | inputs = self._prepare_inputs(inputs)"
     " @@ trl/extras/profiling.py | wrapper | return func(self, *args, **kwargs)"
     " @@ trl/trainer/grpo_trainer.py | _prepare_inputs | generation_batch = self._generate_and_score_completions(generation_batch)"
     " @@ trl/trainer/grpo_trainer.py | _generate_and_score_completions | prompt_completion_ids = unwrapped_model.generate("
     " @@ transformers/generation/utils.py | _sample | outputs = self(**model_inputs, return_dict=True)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/qwen2/modeling_qwen2.py | forward | logits = self.lm_head(hidden_states[:, slice_indices, :])", NULL},
    {"trl-grpo", "forward", "compute_loss -> _get_per_token_logps", "huggingface/trl:trl/trainer/grpo_trainer.py",
     "transformers/trainer.py | training_step | loss = self.compute_loss(model, inputs, num_items_in_batch=num_items_in_batch)"
     " @@ trl/trainer/grpo_trainer.py | compute_loss | return self._compute_loss(model, inputs)"
     " @@ trl/trainer/grpo_trainer.py | _compute_loss | per_token_logps, entropies = self._get_per_token_logps_and_entropies("
     " @@ trl/trainer/grpo_trainer.py | _get_per_token_logps_and_entropies | logits = model(**model_inputs).logits"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/qwen2/modeling_qwen2.py | forward | logits = self.lm_head(hidden_states[:, slice_indices, :])", NULL},
    {"trl-grpo", "generate", "vLLM colocate: self.llm.generate", "huggingface/trl:trl/trainer/grpo_trainer.py",
     "trl/trainer/grpo_trainer.py | _generate_and_score_completions | all_outputs = self.llm.generate(all_prompts_text, sampling_params=sampling_params, use_tqdm=False)"
     " @@ vllm/entrypoints/llm.py | generate | outputs = self._run_engine(use_tqdm=use_tqdm)"
     " @@ vllm/entrypoints/llm.py | _run_engine | step_outputs = self.llm_engine.step()"
     " @@ vllm/v1/engine/llm_engine.py | step | outputs = self.engine_core.get_output()", NULL},
    {"trl-ppo", "generate", "PPOTrainer.train -> batch_generation", "huggingface/trl:trl/trainer/ppo_trainer.py",
     "trl/trainer/ppo_trainer.py | train | query_responses, logitss = batch_generation("
     " @@ trl/trainer/utils.py | batch_generation | query_response, logits = generate("
     " @@ trl/trainer/utils.py | generate | output = lm_backbone.generate("
     " @@ transformers/generation/utils.py | _sample | outputs = self(**model_inputs, return_dict=True)", NULL},
    {"trl-ppo", "forward", "PPOTrainer.train -> forward(model, ...)", "huggingface/trl:trl/trainer/ppo_trainer.py",
     "trl/trainer/ppo_trainer.py | train | output, vpred_temp = forward(model, mb_query_responses, processing_class.pad_token_id)"
     " @@ trl/trainer/ppo_trainer.py | forward | return model("
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/gpt2/modeling_gpt2.py | forward | attn_weights = torch.matmul(query, key.transpose(-1, -2))", NULL},
    {"trl-dpo", "forward", "compute_loss -> concatenated_forward", "huggingface/trl:trl/trainer/dpo_trainer.py",
     "trl/trainer/dpo_trainer.py | compute_loss | loss, metrics = self.get_batch_loss_metrics(model, inputs, train_eval=\"train\")"
     " @@ trl/trainer/dpo_trainer.py | get_batch_loss_metrics | model_output = self.concatenated_forward(model, batch)"
     " @@ trl/trainer/dpo_trainer.py | concatenated_forward | outputs = model(input_ids, **model_kwargs)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ transformers/models/llama/modeling_llama.py | forward | logits = self.lm_head(hidden_states[:, slice_indices, :])", NULL},
    {"trl-dpo", "forward", "precompute_ref_log_probs in get_train_dataloader", "huggingface/trl:trl/trainer/dpo_trainer.py",
     "transformers/trainer.py | _inner_training_loop | train_dataloader = self.get_train_dataloader()"
     " @@ trl/trainer/dpo_trainer.py | get_train_dataloader | ref_chosen_logp, ref_rejected_logp = self.compute_ref_log_probs(padded_batch)"
     " @@ trl/trainer/dpo_trainer.py | compute_ref_log_probs | ref_model_output = self.concatenated_forward(self.model, batch, is_ref_model=True)"
     " @@ trl/trainer/dpo_trainer.py | concatenated_forward | outputs = model(input_ids, **model_kwargs)",
     "the reference model's forward runs inside get_train_dataloader, a data frame by its name; "
     "the innermost-specific rule gives data"},
    /* ---- DeepSpeed (deepspeedai/DeepSpeed:deepspeed/runtime/engine.py, zero/) ---- */
    {"deepspeed", "backward", "engine.backward -> zero optimizer backward", "deepspeedai/DeepSpeed:deepspeed/runtime/engine.py",
     "/w/train.py | train | model_engine.backward(loss)"
     " @@ deepspeed/utils/nvtx.py | wrapped_fn | ret_val = func(*args, **kwargs)"
     " @@ deepspeed/runtime/engine.py | backward | self.optimizer.backward(loss, retain_graph=retain_graph)"
     " @@ deepspeed/runtime/zero/stage_1_and_2.py | backward | self.loss_scaler.backward(loss.float(), retain_graph=retain_graph)"
     " @@ deepspeed/runtime/fp16/loss_scaler.py | backward | scaled_loss.backward(retain_graph=retain_graph)", NULL},
    {"deepspeed", "optimizer", "engine.step -> _take_model_step -> zero step", "deepspeedai/DeepSpeed:deepspeed/runtime/engine.py",
     "/w/train.py | train | model_engine.step()"
     " @@ deepspeed/runtime/engine.py | step | self._take_model_step(lr_kwargs)"
     " @@ deepspeed/runtime/engine.py | _take_model_step | self.optimizer.step()"
     " @@ deepspeed/runtime/zero/stage_1_and_2.py | step | self.single_partition_of_fp32_groups[i].grad = single_grad_partition", NULL},
    {"deepspeed", "optimizer", "zero stage3 step -> _optimizer_step", "deepspeedai/DeepSpeed:deepspeed/runtime/zero/stage3.py",
     "deepspeed/runtime/zero/stage3.py | step | self._optimizer_step(sub_group_id)"
     " @@ deepspeed/runtime/zero/stage3.py | _optimizer_step | self.optimizer.step()"
     " @@ torch/optim/optimizer.py | wrapper | out = func(*args, **kwargs)", NULL},
    {"deepspeed", "forward", "engine.forward -> zero3 pre-forward fetch", "deepspeedai/DeepSpeed:deepspeed/runtime/zero/parameter_offload.py",
     "/w/train.py | train | loss = model_engine(batch)"
     " @@ deepspeed/runtime/engine.py | forward | loss = self.module(*inputs, **kwargs)"
     " @@ torch/nn/modules/module.py | _call_impl | result = forward_call(*args, **kwargs)"
     " @@ deepspeed/runtime/zero/parameter_offload.py | _pre_forward_module_hook | self.pre_sub_module_forward_function(module)"
     " @@ deepspeed/runtime/zero/partitioned_param_coordinator.py | fetch_sub_module | self.__all_gather_params(params_to_fetch, forward)", NULL},
    {"deepspeed", "backward", "zero3 pre-backward fetch", "deepspeedai/DeepSpeed:deepspeed/runtime/zero/parameter_offload.py",
     "torch/autograd/function.py | apply | return user_fn(self, *args)"
     " @@ deepspeed/runtime/zero/parameter_offload.py | backward | ctx.pre_backward_function(ctx.module)"
     " @@ deepspeed/runtime/zero/parameter_offload.py | _run_before_backward_function | self.pre_sub_module_backward_function(sub_module)"
     " @@ deepspeed/runtime/zero/partitioned_param_coordinator.py | fetch_sub_module | self.__all_gather_params(params_to_fetch, forward)", NULL},
    {"deepspeed", "load", "deepspeed.initialize -> engine __init__", "deepspeedai/DeepSpeed:deepspeed/__init__.py",
     "/w/train.py | main | model_engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=params)"
     " @@ deepspeed/__init__.py | initialize | engine = DeepSpeedEngine(args=args,"
     " @@ deepspeed/runtime/engine.py | __init__ | self._configure_optimizer(optimizer, model_parameters)"
     " @@ deepspeed/runtime/engine.py | _configure_optimizer | self.optimizer = self._configure_zero_optimizer(basic_optimizer)"
     " @@ deepspeed/runtime/zero/stage_1_and_2.py | __init__ | self.single_partition_of_fp32_groups.append(self.parallel_partitioned_bit16_groups[i][partition_id].to(", NULL},
    {"deepspeed", "load", "zero.Init partitions params in constructors", "deepspeedai/DeepSpeed:deepspeed/runtime/zero/partition_parameters.py",
     "transformers/modeling_utils.py | from_pretrained | model = cls(config, *model_args, **model_kwargs)"
     " @@ deepspeed/runtime/zero/partition_parameters.py | wrapper | self._post_init_method(module)"
     " @@ deepspeed/runtime/zero/partition_parameters.py | _post_init_method | param.partition()"
     " @@ deepspeed/runtime/zero/partition_parameters.py | _partition_param | partitioned_tensor = torch.empty(", NULL},
    {"deepspeed", "checkpoint", "engine.save_checkpoint", "deepspeedai/DeepSpeed:deepspeed/runtime/engine.py",
     "/w/train.py | train | model_engine.save_checkpoint(args.output_dir, tag)"
     " @@ deepspeed/runtime/engine.py | save_checkpoint | self._save_zero_checkpoint(save_dir, tag)"
     " @@ deepspeed/runtime/engine.py | _save_zero_checkpoint | zero_sd = dict(optimizer_state_dict=self.optimizer.state_dict(), ds_config=self.config, ds_version=version)", NULL},
    {"deepspeed", "load", "engine.load_checkpoint", "deepspeedai/DeepSpeed:deepspeed/runtime/engine.py",
     "/w/train.py | main | _, client_sd = model_engine.load_checkpoint(args.load_dir, ckpt_id)"
     " @@ deepspeed/runtime/engine.py | load_checkpoint | load_path, client_states = self._load_checkpoint(load_dir,"
     " @@ deepspeed/runtime/engine.py | _load_checkpoint | checkpoint = self.checkpoint_engine.load(ckpt_path, map_location=torch.device('cpu'))", NULL},
    /* ---- PyTorch Lightning / Fabric (Lightning-AI/pytorch-lightning:src/lightning/) ---- */
    {"lightning", "forward", "optimizer.step(closure) -> training_step -> self(x)", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/loops/optimization/automatic.py",
     "lightning/pytorch/loops/optimization/automatic.py | _optimizer_step | call._call_lightning_module_hook("
     " @@ lightning/pytorch/core/module.py | optimizer_step | optimizer.step(closure=optimizer_closure)"
     " @@ lightning/pytorch/plugins/precision/precision.py | optimizer_step | return optimizer.step(closure=closure, **kwargs)"
     " @@ torch/optim/optimizer.py | wrapper | out = func(*args, **kwargs)"
     " @@ torch/optim/adam.py | step | loss = closure()"
     " @@ lightning/pytorch/loops/optimization/automatic.py | closure | step_output = self._step_fn()"
     " @@ lightning/pytorch/loops/optimization/automatic.py | _training_step | training_step_output = call._call_strategy_hook(trainer, \"training_step\", *kwargs.values())"
     " @@ lightning/pytorch/strategies/strategy.py | training_step | return self.lightning_module.training_step(*args, **kwargs)"
     " @@ /w/model.py | training_step | logits = self(x)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ /w/model.py | forward | return self.net(x)", NULL},
    {"lightning", "backward", "closure -> _backward_fn -> precision.backward", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/loops/optimization/automatic.py",
     "torch/optim/adam.py | step | loss = closure()"
     " @@ lightning/pytorch/loops/optimization/automatic.py | closure | self._backward_fn(step_output.closure_loss)"
     " @@ lightning/pytorch/loops/optimization/automatic.py | backward_fn | call._call_strategy_hook(self.trainer, \"backward\", loss, optimizer)"
     " @@ lightning/pytorch/strategies/strategy.py | backward | self.precision_plugin.backward(closure_loss, self.lightning_module, optimizer, *args, **kwargs)"
     " @@ lightning/pytorch/plugins/precision/precision.py | backward | model.backward(tensor, *args, **kwargs)"
     " @@ lightning/pytorch/core/module.py | backward | loss.backward(*args, **kwargs)", NULL},
    {"lightning", "eval", "val_loop -> _evaluation_step -> validation_step", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/loops/evaluation_loop.py",
     "lightning/pytorch/loops/training_epoch_loop.py | advance | self.val_loop.run()"
     " @@ lightning/pytorch/loops/utilities.py | _decorator | return loop_run(self, *args, **kwargs)"
     " @@ lightning/pytorch/loops/evaluation_loop.py | run | self._evaluation_step(batch, batch_idx, dataloader_idx, dataloader_iter)"
     " @@ lightning/pytorch/loops/evaluation_loop.py | _evaluation_step | output = call._call_strategy_hook(trainer, hook_name, *step_args)"
     " @@ lightning/pytorch/strategies/strategy.py | validation_step | return self.lightning_module.validation_step(*args, **kwargs)"
     " @@ /w/model.py | validation_step | logits = self(x)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)", NULL},
    {"lightning", "eval", "sanity check", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/trainer/trainer.py",
     "lightning/pytorch/trainer/trainer.py | _run_stage | self._run_sanity_check()"
     " @@ lightning/pytorch/trainer/trainer.py | _run_sanity_check | val_loop.run()"
     " @@ lightning/pytorch/loops/utilities.py | _decorator | return loop_run(self, *args, **kwargs)"
     " @@ lightning/pytorch/loops/evaluation_loop.py | run | self._evaluation_step(batch, batch_idx, dataloader_idx, dataloader_iter)"
     " @@ lightning/pytorch/loops/evaluation_loop.py | _evaluation_step | output = call._call_strategy_hook(trainer, hook_name, *step_args)"
     " @@ /w/model.py | validation_step | out = self.model(batch)", NULL},
    {"lightning", "checkpoint", "ModelCheckpoint -> trainer.save_checkpoint", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/callbacks/model_checkpoint.py",
     "lightning/pytorch/callbacks/model_checkpoint.py | on_train_epoch_end | self._save_topk_checkpoint(trainer, monitor_candidates)"
     " @@ lightning/pytorch/callbacks/model_checkpoint.py | _save_monitor_checkpoint | self._update_best_and_save(current, trainer, monitor_candidates)"
     " @@ lightning/pytorch/trainer/trainer.py | save_checkpoint | checkpoint = self._checkpoint_connector.dump_checkpoint(weights_only)"
     " @@ lightning/pytorch/trainer/connectors/checkpoint_connector.py | dump_checkpoint | optimizer_state = trainer.strategy.optimizer_state(optimizer)", NULL},
    {"lightning", "load", "strategy.setup -> model_to_device", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/strategies/single_device.py",
     "lightning/pytorch/trainer/trainer.py | _run | self.strategy.setup(self)"
     " @@ lightning/pytorch/strategies/strategy.py | setup | self.model_to_device()"
     " @@ lightning/pytorch/strategies/single_device.py | model_to_device | self.model.to(self.root_device)"
     " @@ lightning/fabric/utilities/device_dtype_mixin.py | to | return super().to(*args, **kwargs)"
     " @@ torch/nn/modules/module.py | to | return self._apply(convert)", NULL},
    {"lightning", "eval", "trainer.predict -> predict_step", "Lightning-AI/pytorch-lightning:src/lightning/pytorch/loops/prediction_loop.py",
     "lightning/pytorch/loops/prediction_loop.py | run | self._predict_step(batch, batch_idx, dataloader_idx, dataloader_iter)"
     " @@ lightning/pytorch/loops/prediction_loop.py | _predict_step | predictions = call._call_strategy_hook(trainer, \"predict_step\", *step_args)"
     " @@ lightning/pytorch/strategies/strategy.py | predict_step | return self.lightning_module.predict_step(*args, **kwargs)"
     " @@ /w/model.py | predict_step | return self(batch)", NULL},
    {"fabric", "backward", "fabric.backward", "Lightning-AI/pytorch-lightning:src/lightning/fabric/fabric.py",
     "/w/train.py | train | fabric.backward(loss)"
     " @@ lightning/fabric/fabric.py | backward | self._strategy.backward(tensor, module, *args, **kwargs)"
     " @@ lightning/fabric/strategies/strategy.py | backward | self.precision.backward(tensor, module, *args, **kwargs)"
     " @@ lightning/fabric/plugins/precision/precision.py | backward | tensor.backward(*args, **kwargs)", NULL},
    {"fabric", "load", "fabric.setup -> _move_model_to_device", "Lightning-AI/pytorch-lightning:src/lightning/fabric/fabric.py",
     "/w/train.py | main | model, optimizer = fabric.setup(model, optimizer)"
     " @@ lightning/fabric/fabric.py | setup | module = self._move_model_to_device(model=module, optimizers=list(optimizers))"
     " @@ lightning/fabric/fabric.py | _move_model_to_device | model = self.to_device(model)", NULL},
    /* ---- torch FSDP / DDP / compile (pytorch/pytorch:torch/distributed/fsdp/, torch/nn/parallel/distributed.py, torch/_inductor/) ---- */
    {"fsdp", "load", "FSDP.__init__ -> _init_param_handle_from_module", "pytorch/pytorch:torch/distributed/fsdp/_init_utils.py",
     "/w/train.py | main | model = FSDP(model, auto_wrap_policy=policy, device_id=torch.cuda.current_device())"
     " @@ torch/distributed/fsdp/fully_sharded_data_parallel.py | __init__ | _init_param_handle_from_module("
     " @@ torch/distributed/fsdp/_init_utils.py | _init_param_handle_from_module | _move_module_to_device("
     " @@ torch/distributed/fsdp/_init_utils.py | _move_module_to_device | _move_states_to_device(params_to_move, bufs_to_move, device_from_device_id)", NULL},
    {"fsdp", "forward", "FSDP.forward -> _pre_forward_unshard", "pytorch/pytorch:torch/distributed/fsdp/_runtime_utils.py",
     "torch/distributed/fsdp/fully_sharded_data_parallel.py | forward | args, kwargs = _pre_forward("
     " @@ torch/distributed/fsdp/_runtime_utils.py | _pre_forward | unshard_fn(state, handle)"
     " @@ torch/distributed/fsdp/_runtime_utils.py | _pre_forward_unshard | _unshard(state, handle, state._unshard_stream, state._pre_unshard_stream)"
     " @@ torch/distributed/fsdp/_flat_param.py | unshard | unsharded_flat_param = self._alloc_padded_unsharded_flat_param()", NULL},
    {"fsdp", "backward", "FSDP _post_backward_hook -> reduce", "pytorch/pytorch:torch/distributed/fsdp/_runtime_utils.py",
     "torch/autograd/graph.py | _engine_run_backward | return Variable._execution_engine.run_backward("
     " @@ torch/distributed/fsdp/_runtime_utils.py | _post_backward_hook | _reduce_grad(state, handle)"
     " @@ torch/distributed/fsdp/_runtime_utils.py | _reduce_grad | new_sharded_grad = torch.empty_like(unsharded_grad)", NULL},
    {"fsdp", "checkpoint", "dcp.save", "pytorch/pytorch:torch/distributed/checkpoint/state_dict_saver.py",
     "/w/train.py | save | dcp.save(state_dict, checkpoint_id=path)"
     " @@ torch/distributed/checkpoint/state_dict_saver.py | save | return _save_state_dict("
     " @@ torch/distributed/checkpoint/state_dict_saver.py | _save_state_dict | central_plan: SavePlan = distW.reduce_scatter(\"plan\", local_step, global_step)", NULL},
    {"fsdp", "load", "dcp.load", "pytorch/pytorch:torch/distributed/checkpoint/state_dict_loader.py",
     "/w/train.py | resume | dcp.load(state_dict, checkpoint_id=path)"
     " @@ torch/distributed/checkpoint/state_dict_loader.py | load | _load_state_dict("
     " @@ torch/distributed/checkpoint/state_dict_loader.py | _load_state_dict | central_plan: LoadPlan = distW.reduce_scatter(\"plan\", local_step, global_step)", NULL},
    {"ddp", "load", "DDP.__init__ -> _sync_module_states", "pytorch/pytorch:torch/nn/parallel/distributed.py",
     "/w/train.py | main | model = DDP(model, device_ids=[local_rank])"
     " @@ torch/nn/parallel/distributed.py | __init__ | _sync_module_states("
     " @@ torch/distributed/utils.py | _sync_module_states | _sync_params_and_buffers(process_group, module_states, broadcast_bucket_size, src)", NULL},
    {"ddp", "forward", "DDP.forward -> _run_ddp_forward", "pytorch/pytorch:torch/nn/parallel/distributed.py",
     "torch/nn/parallel/distributed.py | forward | output = self._run_ddp_forward(*inputs, **kwargs)"
     " @@ torch/nn/parallel/distributed.py | _run_ddp_forward | return self.module(*inputs, **kwargs)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)", NULL},
    {"torch.compile", "backward", "aot_autograd CompiledFunction.backward", "pytorch/pytorch:torch/_functorch/_aot_autograd/runtime_wrappers.py",
     "torch/_tensor.py | backward | torch.autograd.backward("
     " @@ torch/autograd/function.py | apply | return user_fn(self, *args)"
     " @@ torch/_functorch/_aot_autograd/runtime_wrappers.py | backward | all_args = CompiledFunction._backward_prologue(ctx, *flat_args)"
     " @@ torch/_inductor/output_code.py | __call__ | return self.current_callable(inputs)", NULL},
    {"torch.compile", "forward", "dynamo eval_frame _fn -> compiled forward", "pytorch/pytorch:torch/_dynamo/eval_frame.py",
     "/w/train.py | train | out = compiled_model(x)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torch/_dynamo/eval_frame.py | _fn | return fn(*args, **kwargs)"
     " @@ torch/_functorch/_aot_autograd/runtime_wrappers.py | runtime_wrapper | all_outs = call_func_at_runtime_with_args("
     " @@ torch/_inductor/output_code.py | __call__ | return self.current_callable(inputs)", NULL},
    /* ---- torchtune / torchtitan / litgpt ---- */
    {"torchtune", "forward", "recipe train -> _loss_step -> self._model", "pytorch/torchtune:recipes/full_finetune_single_device.py",
     "/w/torchtune/recipes/full_finetune_single_device.py | train | current_loss = self._loss_step(batch) * current_num_tokens"
     " @@ /w/torchtune/recipes/full_finetune_single_device.py | _loss_step | outputs = self._model(**batch)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ torchtune/modules/transformer.py | forward | h = layer(h, mask=mask, input_pos=input_pos)", NULL},
    {"torchtune", "backward", "recipe train -> current_loss.backward", "pytorch/torchtune:recipes/full_finetune_single_device.py",
     "/w/torchtune/recipes/full_finetune_single_device.py | train | current_loss.backward()"
     " @@ torch/_tensor.py | backward | torch.autograd.backward(", NULL},
    {"torchtune", "load", "setup -> _setup_model", "pytorch/torchtune:recipes/full_finetune_single_device.py",
     "/w/torchtune/recipes/full_finetune_single_device.py | setup | self._model = self._setup_model("
     " @@ /w/torchtune/recipes/full_finetune_single_device.py | _setup_model | model.load_state_dict(model_state_dict)", NULL},
    {"torchtune", "checkpoint", "save_checkpoint", "pytorch/torchtune:recipes/full_finetune_single_device.py",
     "/w/torchtune/recipes/full_finetune_single_device.py | train | self.save_checkpoint(epoch=curr_epoch)"
     " @@ torchtune/training/checkpointing/_checkpoint_client.py | save_checkpoint | self._save_checkpoint_sync(", NULL},
    {"torchtune", "generate", "generate recipe -> generate_next_token", "pytorch/torchtune:torchtune/generation/_generation.py",
     "/w/torchtune/recipes/generate.py | generate | generated_tokens, _ = generation.generate("
     " @@ torchtune/generation/_generation.py | generate | tokens, generated_logits = generate_next_token("
     " @@ torchtune/generation/_generation.py | generate_next_token | logits = model(x, input_pos=input_pos, mask=mask)", NULL},
    {"torchtitan", "forward", "train_step -> forward_backward_step -> model", "pytorch/torchtitan:torchtitan/train.py",
     "/w/torchtitan/torchtitan/train.py | train_step | loss = self.forward_backward_step(input_dict, labels)"
     " @@ /w/torchtitan/torchtitan/train.py | forward_backward_step | pred = model_parts[0](inputs)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ /w/torchtitan/torchtitan/models/llama3/model/model.py | forward | h = layer(h, self.freqs_cis)", NULL},
    {"torchtitan", "backward", "forward_backward_step -> loss.backward", "pytorch/torchtitan:torchtitan/train.py",
     "/w/torchtitan/torchtitan/train.py | train_step | loss = self.forward_backward_step(input_dict, labels)"
     " @@ /w/torchtitan/torchtitan/train.py | forward_backward_step | loss.backward()"
     " @@ torch/_tensor.py | backward | torch.autograd.backward(", NULL},
    {"torchtitan", "optimizer", "train_step -> optimizers.step", "pytorch/torchtitan:torchtitan/components/optimizer.py",
     "/w/torchtitan/torchtitan/train.py | train_step | self.optimizers.step()"
     " @@ /w/torchtitan/torchtitan/components/optimizer.py | step | optimizer.step(*args, **kwargs)"
     " @@ torch/optim/optimizer.py | wrapper | out = func(*args, **kwargs)", NULL},
    {"torchtitan", "forward", "pipeline schedule step -> forward_one_chunk", "pytorch/pytorch:torch/distributed/pipelining/schedules.py",
     "/w/torchtitan/torchtitan/train.py | forward_backward_step | self.pp_schedule.step(inputs, target=targets, losses=losses, input_batch=inputs)"
     " @@ torch/distributed/pipelining/schedules.py | step | self._step_microbatches(args_split, kwargs_split, targets_split, losses)"
     " @@ torch/distributed/pipelining/schedules.py | _step_microbatches | output = self._stage.forward_one_chunk(i, arg_mbs[i], kwarg_mbs[i])"
     " @@ torch/distributed/pipelining/stage.py | forward_one_chunk | output = self.forward_maybe_with_nosync(*composite_args, **composite_kwargs)", NULL},
    {"torchtitan", "backward", "pipeline schedule step -> backward_one_chunk", "pytorch/pytorch:torch/distributed/pipelining/schedules.py",
     "/w/torchtitan/torchtitan/train.py | forward_backward_step | self.pp_schedule.step(inputs, target=targets, losses=losses, input_batch=inputs)"
     " @@ torch/distributed/pipelining/schedules.py | _step_microbatches | self._stage.backward_one_chunk(i, loss=loss, last_backward=i == self._n_microbatches - 1)"
     " @@ torch/distributed/pipelining/stage.py | backward_one_chunk | grads_input, _ = self.backward_maybe_with_nosync(", NULL},
    {"torchtitan", "checkpoint", "checkpointer.save -> dcp", "pytorch/torchtitan:torchtitan/components/checkpoint.py",
     "/w/torchtitan/torchtitan/train.py | train | self.checkpointer.save(self.step, last_step=(self.step == job_config.training.steps))"
     " @@ /w/torchtitan/torchtitan/components/checkpoint.py | save | self.dcp_save(states, checkpoint_id=checkpoint_id, async_mode=self.async_mode)", NULL},
    {"litgpt", "forward", "fit -> model(input_ids)", "Lightning-AI/litgpt:litgpt/finetune/lora.py",
     "litgpt/finetune/lora.py | fit | logits = model(input_ids, lm_head_chunk_size=128)"
     " @@ lightning/fabric/wrappers.py | forward | output = self._forward_module(*args, **kwargs)"
     " @@ litgpt/lora.py | forward | x = block(x, cos, sin, mask, input_pos)", NULL},
    {"litgpt", "eval", "fit -> validate", "Lightning-AI/litgpt:litgpt/finetune/lora.py",
     "litgpt/finetune/lora.py | fit | val_loss = validate(fabric, model, val_dataloader, eval)"
     " @@ torch/utils/_contextlib.py | decorate_context | return func(*args, **kwargs)"
     " @@ litgpt/finetune/lora.py | validate | logits = model(input_ids)", NULL},
    {"litgpt", "generate", "fit -> generate_example", "Lightning-AI/litgpt:litgpt/finetune/lora.py",
     "litgpt/finetune/lora.py | fit | generate_example(fabric, model, tokenizer, eval, data)"
     " @@ litgpt/finetune/lora.py | generate_example | output = generate("
     " @@ litgpt/generate/base.py | generate | token = next_token(model, input_pos, token.view(1, -1), temperature=temperature, top_k=top_k, top_p=top_p)"
     " @@ litgpt/generate/base.py | next_token | logits = model(x, input_pos)", NULL},
    {"litgpt", "load", "fabric.load_raw", "Lightning-AI/litgpt:litgpt/finetune/lora.py",
     "litgpt/finetune/lora.py | main | load_checkpoint(fabric, model, checkpoint_path, strict=False)"
     " @@ litgpt/utils.py | load_checkpoint | model.load_state_dict(state_dict, strict=strict)", NULL},
    /* ---- Megatron-LM / NeMo (NVIDIA/Megatron-LM:megatron/training/training.py, megatron/core/pipeline_parallel/schedules.py) ---- */
    {"megatron", "forward", "train_step -> forward_backward_func -> forward_step", "NVIDIA/Megatron-LM:megatron/core/pipeline_parallel/schedules.py",
     "megatron/training/training.py | train_step | losses_reduced = forward_backward_func("
     " @@ megatron/core/pipeline_parallel/schedules.py | forward_backward_no_pipelining | output_tensor, num_tokens = forward_step("
     " @@ megatron/core/pipeline_parallel/schedules.py | forward_step | output_tensor, loss_func = forward_step_func(data_iterator, model)"
     " @@ /w/Megatron-LM/pretrain_gpt.py | forward_step | output_tensor = model(tokens, position_ids, attention_mask, labels=labels)"
     " @@ megatron/core/models/gpt/gpt_model.py | forward | hidden_states = self.decoder(", NULL},
    {"megatron", "backward", "schedules backward_step -> custom_backward", "NVIDIA/Megatron-LM:megatron/core/pipeline_parallel/schedules.py",
     "megatron/training/training.py | train_step | losses_reduced = forward_backward_func("
     " @@ megatron/core/pipeline_parallel/schedules.py | forward_backward_no_pipelining | backward_step(input_tensor, output_tensor, output_tensor_grad, model_type, config)"
     " @@ megatron/core/pipeline_parallel/schedules.py | backward_step | custom_backward(output_tensor[0], output_tensor_grad[0])"
     " @@ megatron/core/pipeline_parallel/schedules.py | custom_backward | Variable._execution_engine.run_backward(", NULL},
    {"megatron", "optimizer", "train_step -> optimizer.step (megatron/core/optimizer)", "NVIDIA/Megatron-LM:megatron/core/optimizer/optimizer.py",
     "megatron/training/training.py | train_step | update_successful, grad_norm, num_zeros_in_grad = optimizer.step()"
     " @@ torch/utils/_contextlib.py | decorate_context | return func(*args, **kwargs)"
     " @@ megatron/core/optimizer/optimizer.py | step | success = self.step_with_ready_grads()"
     " @@ megatron/core/optimizer/distrib_optimizer.py | step_with_ready_grads | update_successful = super().step_with_ready_grads()", NULL},
    {"megatron", "eval", "evaluate_and_print_results -> evaluate", "NVIDIA/Megatron-LM:megatron/training/training.py",
     "megatron/training/training.py | train | evaluate_and_print_results(prefix, forward_step_func,"
     " @@ megatron/training/training.py | evaluate_and_print_results | total_loss_dict, collected_non_loss_data, timelimit = evaluate("
     " @@ megatron/training/training.py | evaluate | loss_dicts = forward_backward_func("
     " @@ megatron/core/pipeline_parallel/schedules.py | forward_backward_no_pipelining | output_tensor, num_tokens = forward_step(", NULL},
    {"megatron", "checkpoint", "save_checkpoint_and_time", "NVIDIA/Megatron-LM:megatron/training/checkpointing.py",
     "megatron/training/training.py | train | save_checkpoint_and_time(iteration, model, optimizer,"
     " @@ megatron/training/training.py | save_checkpoint_and_time | save_checkpoint(iteration, model, optimizer, opt_param_scheduler,"
     " @@ megatron/training/checkpointing.py | save_checkpoint | state_dict = generate_state_dict(", NULL},
    {"megatron", "load", "setup_model_and_optimizer -> get_model", "NVIDIA/Megatron-LM:megatron/training/training.py",
     "megatron/training/training.py | pretrain | model, optimizer, opt_param_scheduler = setup_model_and_optimizer("
     " @@ megatron/training/training.py | setup_model_and_optimizer | model = get_model(model_provider_func, model_type)"
     " @@ megatron/training/training.py | get_model | model_module.cuda(torch.cuda.current_device())", NULL},
    {"nemo-asr", "generate", "ASRModel.transcribe", "NVIDIA/NeMo:nemo/collections/asr/parts/mixins/transcription.py",
     "/w/infer.py | <module> | hyps = asr_model.transcribe([\"a.wav\"], batch_size=16)"
     " @@ nemo/collections/asr/models/ctc_models.py | transcribe | return super().transcribe("
     " @@ nemo/collections/asr/parts/mixins/transcription.py | transcribe_generator | model_outputs = self._transcribe_forward(test_batch, transcribe_cfg)"
     " @@ nemo/collections/asr/models/ctc_models.py | _transcribe_forward | logits = self.forward(input_signal=batch[0], input_signal_length=batch[1])", NULL},
    /* ---- ColossalAI (hpcaitech/ColossalAI:colossalai/booster/booster.py) ---- */
    {"colossalai", "backward", "booster.backward -> LowLevelZeroOptimizer.backward", "hpcaitech/ColossalAI:colossalai/booster/booster.py",
     "/w/train.py | train | booster.backward(loss, optimizer)"
     " @@ colossalai/booster/booster.py | backward | optimizer.backward(loss)"
     " @@ colossalai/zero/low_level/low_level_optim.py | backward | loss.backward(retain_graph=retain_graph)", NULL},
    {"colossalai", "load", "booster.boost -> plugin.configure", "hpcaitech/ColossalAI:colossalai/booster/booster.py",
     "/w/train.py | main | model, optimizer, criterion, _, lr_scheduler = booster.boost(model, optimizer, criterion=criterion, lr_scheduler=lr_scheduler)"
     " @@ colossalai/booster/booster.py | boost | model, optimizer, criterion, dataloader, lr_scheduler = self.plugin.configure("
     " @@ colossalai/booster/plugin/hybrid_parallel_plugin.py | configure | model = HybridParallelModule(", NULL},
    {"colossalai", "optimizer", "LowLevelZeroOptimizer.step", "hpcaitech/ColossalAI:colossalai/zero/low_level/low_level_optim.py",
     "/w/train.py | train | optimizer.step()"
     " @@ colossalai/zero/low_level/low_level_optim.py | step | self.optim.step()"
     " @@ torch/optim/optimizer.py | wrapper | out = func(*args, **kwargs)", NULL},
    {"colossalai", "checkpoint", "booster.save_model", "hpcaitech/ColossalAI:colossalai/booster/booster.py",
     "/w/train.py | main | booster.save_model(model, args.save_dir, shard=True)"
     " @@ colossalai/booster/booster.py | save_model | self.checkpoint_io.save_model(", NULL},
    /* ---- composer (mosaicml/composer:composer/trainer/trainer.py) ---- */
    {"composer", "forward", "_train_microbatch -> state.model(batch)", "mosaicml/composer:composer/trainer/trainer.py",
     "composer/trainer/trainer.py | _train_batch | total_loss_dict = self._train_microbatches(microbatches, total_loss_dict)"
     " @@ composer/trainer/trainer.py | _train_microbatches | microbatch_loss_dict = self._train_microbatch(use_grad_scaling, current_batch_size, is_final_microbatch)"
     " @@ composer/trainer/trainer.py | _train_microbatch | self.state.outputs = self.state.model(self.state.batch)"
     " @@ composer/models/huggingface.py | forward | output = self.model(**batch)", NULL},
    {"composer", "backward", "_train_microbatch -> microbatch_loss.backward", "mosaicml/composer:composer/trainer/trainer.py",
     "composer/trainer/trainer.py | _train_microbatch | microbatch_loss.backward(create_graph=self._backwards_create_graph)"
     " @@ torch/_tensor.py | backward | torch.autograd.backward(", NULL},
    {"composer", "eval", "_eval_loop", "mosaicml/composer:composer/trainer/trainer.py",
     "composer/trainer/trainer.py | _run_evaluators | self._eval_loop("
     " @@ composer/trainer/trainer.py | _eval_loop | self.state.outputs = self._original_model.eval_forward(self.state.batch)"
     " @@ composer/models/huggingface.py | eval_forward | outputs = self.forward(batch)", NULL},
    {"composer", "checkpoint", "CheckpointSaver -> save_checkpoint", "mosaicml/composer:composer/callbacks/checkpoint_saver.py",
     "composer/callbacks/checkpoint_saver.py | epoch_checkpoint | self._save_checkpoint("
     " @@ composer/callbacks/checkpoint_saver.py | _save_checkpoint | saved_path = checkpoint.save_checkpoint("
     " @@ composer/utils/checkpoint.py | save_checkpoint | state_dict = {", NULL},
    /* ---- fairseq (facebookresearch/fairseq:fairseq/trainer.py, fairseq_cli/) ---- */
    {"fairseq", "forward", "trainer.train_step -> task.train_step -> criterion", "facebookresearch/fairseq:fairseq/tasks/fairseq_task.py",
     "fairseq_cli/train.py | train | log_output = trainer.train_step(samples)"
     " @@ fairseq/trainer.py | train_step | loss, sample_size_i, logging_output = self.task.train_step("
     " @@ fairseq/tasks/fairseq_task.py | train_step | loss, sample_size, logging_output = criterion(model, sample)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ fairseq/criterions/label_smoothed_cross_entropy.py | forward | net_output = model(**sample[\"net_input\"])", NULL},
    {"fairseq", "backward", "task.train_step -> optimizer.backward (fairseq/optim)", "facebookresearch/fairseq:fairseq/optim/fp16_optimizer.py",
     "fairseq/trainer.py | train_step | loss, sample_size_i, logging_output = self.task.train_step("
     " @@ fairseq/tasks/fairseq_task.py | train_step | optimizer.backward(loss)"
     " @@ fairseq/optim/fp16_optimizer.py | backward | loss.backward()"
     " @@ torch/_tensor.py | backward | torch.autograd.backward(", NULL},
    {"fairseq", "backward", "fairseq/optim backward, paste cut at the optimizer's frame", "facebookresearch/fairseq:fairseq/optim/fp16_optimizer.py",
     "fairseq/tasks/fairseq_task.py | train_step | optimizer.backward(loss)"
     " @@ fairseq/optim/fp16_optimizer.py | backward | loss.backward()", NULL},
    {"fairseq", "optimizer", "trainer.train_step -> task.optimizer_step", "facebookresearch/fairseq:fairseq/trainer.py",
     "fairseq/trainer.py | train_step | self.task.optimizer_step("
     " @@ fairseq/tasks/fairseq_task.py | optimizer_step | optimizer.step()"
     " @@ fairseq/optim/fp16_optimizer.py | step | self.fp32_optimizer.step(closure, groups=groups)", NULL},
    {"fairseq", "eval", "validate_and_save -> trainer.valid_step", "facebookresearch/fairseq:fairseq_cli/train.py",
     "fairseq_cli/train.py | validate_and_save | valid_losses = validate(cfg, trainer, task, epoch_itr, valid_subsets)"
     " @@ fairseq_cli/train.py | validate | trainer.valid_step(sample)"
     " @@ fairseq/trainer.py | valid_step | _loss, sample_size, logging_output = self.task.valid_step(", NULL},
    {"fairseq", "generate", "fairseq-generate -> task.inference_step -> SequenceGenerator", "facebookresearch/fairseq:fairseq/sequence_generator.py",
     "fairseq_cli/generate.py | _main | hypos = task.inference_step("
     " @@ fairseq/tasks/fairseq_task.py | inference_step | return generator.generate("
     " @@ fairseq/sequence_generator.py | generate | return self._generate(sample, **kwargs)"
     " @@ fairseq/sequence_generator.py | _generate | lprobs, avg_attn_scores = self.model.forward_decoder(", NULL},
    {"fairseq", "checkpoint", "checkpoint_utils.save_checkpoint", "facebookresearch/fairseq:fairseq/checkpoint_utils.py",
     "fairseq_cli/train.py | validate_and_save | checkpoint_utils.save_checkpoint("
     " @@ fairseq/checkpoint_utils.py | save_checkpoint | trainer.save_checkpoint(checkpoints[0], extra_state)", NULL},
    /* ---- mmengine / mmcv / mmdet (open-mmlab/mmengine:mmengine/runner/loops.py, model/base_model/base_model.py) ---- */
    {"mmengine", "forward", "IterBasedTrainLoop.run_iter -> train_step -> _run_forward", "open-mmlab/mmengine:mmengine/model/base_model/base_model.py",
     "mmengine/runner/loops.py | run_iter | outputs = self.runner.model.train_step("
     " @@ mmengine/model/base_model/base_model.py | train_step | losses = self._run_forward(data, mode='loss')  # type: ignore"
     " @@ mmengine/model/base_model/base_model.py | _run_forward | results = self(**data, mode=mode)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ mmdet/models/detectors/base.py | forward | return self.loss(inputs, data_samples)", NULL},
    {"mmengine", "backward", "optim_wrapper.update_params -> backward", "open-mmlab/mmengine:mmengine/optim/optimizer/optimizer_wrapper.py",
     "mmengine/model/base_model/base_model.py | train_step | optim_wrapper.update_params(parsed_losses)"
     " @@ mmengine/optim/optimizer/optimizer_wrapper.py | update_params | self.backward(loss)"
     " @@ mmengine/optim/optimizer/amp_optimizer_wrapper.py | backward | self.loss_scaler.scale(loss).backward(**kwargs)"
     " @@ torch/_tensor.py | backward | torch.autograd.backward(", NULL},
    {"mmengine", "backward", "optim_wrapper backward, paste cut at mmengine's frame", "open-mmlab/mmengine:mmengine/optim/optimizer/optimizer_wrapper.py",
     "mmengine/model/base_model/base_model.py | train_step | optim_wrapper.update_params(parsed_losses)"
     " @@ mmengine/optim/optimizer/optimizer_wrapper.py | update_params | self.backward(loss)"
     " @@ mmengine/optim/optimizer/optimizer_wrapper.py | backward | loss.backward(**kwargs)", NULL},
    {"mmengine", "optimizer", "optim_wrapper.update_params -> step", "open-mmlab/mmengine:mmengine/optim/optimizer/optimizer_wrapper.py",
     "mmengine/optim/optimizer/optimizer_wrapper.py | update_params | self.step(**step_kwargs)"
     " @@ mmengine/optim/optimizer/optimizer_wrapper.py | step | self.optimizer.step(**kwargs)"
     " @@ torch/optim/optimizer.py | wrapper | out = func(*args, **kwargs)", NULL},
    {"mmengine", "eval", "ValLoop.run_iter -> val_step", "open-mmlab/mmengine:mmengine/runner/loops.py",
     "mmengine/runner/loops.py | run | self.run_iter(idx, data_batch)"
     " @@ mmengine/runner/loops.py | run_iter | outputs = self.runner.model.val_step(data_batch)"
     " @@ mmengine/model/base_model/base_model.py | val_step | return self._run_forward(data, mode='predict')  # type: ignore"
     " @@ mmengine/model/base_model/base_model.py | _run_forward | results = self(**data, mode=mode)", NULL},
    {"mmengine", "checkpoint", "CheckpointHook -> runner.save_checkpoint", "open-mmlab/mmengine:mmengine/runner/runner.py",
     "mmengine/hooks/checkpoint_hook.py | after_train_epoch | self._save_checkpoint(runner)"
     " @@ mmengine/hooks/checkpoint_hook.py | _save_checkpoint | runner.save_checkpoint("
     " @@ mmengine/runner/runner.py | save_checkpoint | checkpoint['optimizer'] = self.optim_wrapper.state_dict()", NULL},
    {"mmcv", "backward", "OptimizerHook.after_train_iter", "open-mmlab/mmcv:mmcv/runner/hooks/optimizer.py",
     "mmcv/runner/epoch_based_runner.py | train | self.call_hook('after_train_iter')"
     " @@ mmcv/runner/base_runner.py | call_hook | getattr(hook, fn_name)(self)"
     " @@ mmcv/runner/hooks/optimizer.py | after_train_iter | runner.outputs['loss'].backward()", NULL},
    {"mmcv", "eval", "EvalHook -> single_gpu_test", "open-mmlab/mmcv:mmcv/runner/hooks/evaluation.py",
     "mmcv/runner/hooks/evaluation.py | after_train_epoch | self._do_evaluate(runner)"
     " @@ mmdet/core/evaluation/eval_hooks.py | _do_evaluate | results = single_gpu_test(runner.model, self.dataloader, show=False)"
     " @@ mmdet/apis/test.py | single_gpu_test | result = model(return_loss=False, rescale=True, **data)", NULL},
    /* ---- detectron2 (facebookresearch/detectron2:detectron2/engine/train_loop.py, hooks.py) ---- */
    {"detectron2", "forward", "SimpleTrainer.run_step -> self.model(data)", "facebookresearch/detectron2:detectron2/engine/train_loop.py",
     "detectron2/engine/train_loop.py | train | self.run_step()"
     " @@ detectron2/engine/train_loop.py | run_step | loss_dict = self.model(data)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ detectron2/modeling/meta_arch/rcnn.py | forward | features = self.backbone(images.tensor)", NULL},
    {"detectron2", "backward", "AMPTrainer.run_step -> grad_scaler.scale(losses).backward", "facebookresearch/detectron2:detectron2/engine/train_loop.py",
     "detectron2/engine/train_loop.py | run_step | self.grad_scaler.scale(losses).backward()"
     " @@ torch/_tensor.py | backward | torch.autograd.backward(", NULL},
    {"detectron2", "optimizer", "AMPTrainer.run_step -> grad_scaler.step", "facebookresearch/detectron2:detectron2/engine/train_loop.py",
     "detectron2/engine/train_loop.py | run_step | self.grad_scaler.step(self.optimizer)"
     " @@ torch/amp/grad_scaler.py | step | retval = self._maybe_opt_step(optimizer, optimizer_state, *args, **kwargs)"
     " @@ torch/amp/grad_scaler.py | _maybe_opt_step | retval = optimizer.step(*args, **kwargs)", NULL},
    {"detectron2", "eval", "EvalHook -> inference_on_dataset", "facebookresearch/detectron2:detectron2/evaluation/evaluator.py",
     "detectron2/engine/hooks.py | after_step | self._do_eval()"
     " @@ detectron2/engine/hooks.py | _do_eval | results = self._func()"
     " @@ detectron2/engine/defaults.py | test | results_i = inference_on_dataset(model, data_loader, evaluator)"
     " @@ detectron2/evaluation/evaluator.py | inference_on_dataset | outputs = model(inputs)", NULL},
    {"detectron2", "checkpoint", "PeriodicCheckpointer -> fvcore Checkpointer.save", "facebookresearch/fvcore:fvcore/common/checkpoint.py",
     "detectron2/engine/hooks.py | after_step | self.step(self.trainer.iter)"
     " @@ fvcore/common/checkpoint.py | step | self.checkpointer.save("
     " @@ fvcore/common/checkpoint.py | save | data[\"model\"] = self.model.state_dict()", NULL},
    {"detectron2", "data", "run_step -> next(self._data_loader_iter)", "facebookresearch/detectron2:detectron2/data/common.py",
     "detectron2/engine/train_loop.py | run_step | data = next(self._data_loader_iter)"
     " @@ detectron2/data/common.py | __iter__ | for d in self.dataset:"
     " @@ detectron2/data/dataset_mapper.py | __call__ | dataset_dict[\"image\"] = torch.as_tensor(np.ascontiguousarray(image.transpose(2, 0, 1)))", NULL},
    /* ---- ultralytics (ultralytics/ultralytics:ultralytics/engine/trainer.py, validator.py, predictor.py) ---- */
    {"ultralytics", "forward", "_do_train -> self.model(batch) -> tasks.loss", "ultralytics/ultralytics:ultralytics/engine/trainer.py",
     "ultralytics/engine/trainer.py | _do_train | self.loss, self.loss_items = self.model(batch)"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ ultralytics/nn/tasks.py | forward | return self.loss(x, *args, **kwargs)"
     " @@ ultralytics/nn/tasks.py | loss | preds = self.forward(batch[\"img\"]) if preds is None else preds"
     " @@ ultralytics/nn/tasks.py | _predict_once | x = m(x)  # run", NULL},
    {"ultralytics", "backward", "_do_train -> scaler.scale(loss).backward", "ultralytics/ultralytics:ultralytics/engine/trainer.py",
     "ultralytics/engine/trainer.py | _do_train | self.scaler.scale(self.loss).backward()"
     " @@ torch/_tensor.py | backward | torch.autograd.backward(", NULL},
    {"ultralytics", "optimizer", "_do_train -> optimizer_step", "ultralytics/ultralytics:ultralytics/engine/trainer.py",
     "ultralytics/engine/trainer.py | _do_train | self.optimizer_step()"
     " @@ ultralytics/engine/trainer.py | optimizer_step | self.scaler.step(self.optimizer)", NULL},
    {"ultralytics", "eval", "validate -> BaseValidator.__call__", "ultralytics/ultralytics:ultralytics/engine/validator.py",
     "ultralytics/engine/trainer.py | _do_train | self.metrics, self.fitness = self.validate()"
     " @@ ultralytics/engine/trainer.py | validate | metrics = self.validator(self)"
     " @@ torch/utils/_contextlib.py | decorate_context | return func(*args, **kwargs)"
     " @@ ultralytics/engine/validator.py | __call__ | preds = model(batch[\"img\"], augment=augment)"
     " @@ ultralytics/nn/tasks.py | _predict_once | x = m(x)  # run", NULL},
    {"ultralytics", "forward", "predictor.stream_inference -> inference", "ultralytics/ultralytics:ultralytics/engine/predictor.py",
     "ultralytics/engine/model.py | predict | return self.predictor.predict_cli(source=source) if is_cli else self.predictor(source=source, stream=stream)"
     " @@ ultralytics/engine/predictor.py | stream_inference | preds = self.inference(im, *args, **kwargs)"
     " @@ ultralytics/engine/predictor.py | inference | return self.model(im, augment=self.args.augment, visualize=visualize, embed=self.args.embed, *args, **kwargs)", NULL},
    {"ultralytics", "checkpoint", "save_model", "ultralytics/ultralytics:ultralytics/engine/trainer.py",
     "ultralytics/engine/trainer.py | _do_train | self.save_model()"
     " @@ ultralytics/engine/trainer.py | save_model | \"ema\": deepcopy(self.ema.ema).half(),", NULL},
    {"ultralytics", "load", "AutoBatch profiling at set-up", "ultralytics/ultralytics:ultralytics/utils/autobatch.py",
     "ultralytics/engine/trainer.py | _setup_train | self.args.batch = self.batch_size = self.auto_batch()"
     " @@ ultralytics/engine/trainer.py | auto_batch | return check_train_batch_size("
     " @@ ultralytics/utils/autobatch.py | autobatch | results = profile_ops(img, model, n=1, device=device, max_num_obj=max_num_obj)"
     " @@ ultralytics/utils/torch_utils.py | profile_ops | y = m(x)", NULL},
    /* ---- timm train.py (huggingface/pytorch-image-models:train.py, timm/utils/cuda.py) ---- */
    {"timm", "forward", "train_one_epoch -> _forward -> model(input)", "huggingface/pytorch-image-models:train.py",
     "/w/pytorch-image-models/train.py | train_one_epoch | loss = _forward()"
     " @@ /w/pytorch-image-models/train.py | _forward | output = model(input)"
     " @@ timm/models/vision_transformer.py | forward | x = self.forward_features(x)", NULL},
    {"timm", "backward", "NativeScaler.__call__ -> scale(loss).backward", "huggingface/pytorch-image-models:timm/utils/cuda.py",
     "/w/pytorch-image-models/train.py | train_one_epoch | _backward(loss)"
     " @@ /w/pytorch-image-models/train.py | _backward | loss_scaler("
     " @@ timm/utils/cuda.py | __call__ | self._scaler.scale(loss).backward(create_graph=create_graph)", NULL},
    {"timm", "optimizer", "NativeScaler.__call__ -> scaler.step", "huggingface/pytorch-image-models:timm/utils/cuda.py",
     "/w/pytorch-image-models/train.py | _backward | loss_scaler("
     " @@ timm/utils/cuda.py | __call__ | self._scaler.step(optimizer)", NULL},
    {"timm", "eval", "main -> validate", "huggingface/pytorch-image-models:train.py",
     "/w/pytorch-image-models/train.py | main | eval_metrics = validate("
     " @@ /w/pytorch-image-models/train.py | validate | output = model(input)", NULL},
    {"timm", "data", "PrefetchLoader.__iter__", "huggingface/pytorch-image-models:timm/data/loader.py",
     "/w/pytorch-image-models/train.py | train_one_epoch | for batch_idx, (input, target) in enumerate(loader):"
     " @@ timm/data/loader.py | __iter__ | next_input = next_input.to(device=self.device, non_blocking=True)", NULL},
    /* ---- Keras / TensorFlow (keras-team/keras:keras/src/backend/tensorflow/trainer.py) ---- */
    {"keras", "forward", "model.predict -> predict_function", "keras-team/keras:keras/src/backend/tensorflow/trainer.py",
     "!Traceback (most recent call last):\n"
     "  File \"/w/infer.py\", line 12, in <module>\n    preds = model.predict(x, batch_size=256)\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/keras/src/utils/traceback_utils.py\", line 122, in error_handler\n    raise e.with_traceback(filtered_tb) from None\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/tensorflow/python/eager/execute.py\", line 53, in quick_execute\n    tensors = pywrap_tfe.TFE_Py_Execute(ctx._handle, device_name, op_name,\n"
     "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Graph execution error:\n\n"
     "OOM when allocating tensor with shape[256,64,224,224] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
     "\t [[{{node model/conv2d/Relu}}]]\n [Op:__inference_predict_function_2161]\n", NULL},
    {"keras", "eval", "model.evaluate -> test_function", "keras-team/keras:keras/src/backend/tensorflow/trainer.py",
     "!Traceback (most recent call last):\n"
     "  File \"/w/train.py\", line 40, in <module>\n    model.evaluate(test_ds)\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/keras/src/utils/traceback_utils.py\", line 122, in error_handler\n    raise e.with_traceback(filtered_tb) from None\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/tensorflow/python/eager/execute.py\", line 53, in quick_execute\n    tensors = pywrap_tfe.TFE_Py_Execute(ctx._handle, device_name, op_name,\n"
     "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Graph execution error:\n\n"
     "OOM when allocating tensor with shape[256,64,224,224] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
     "\t [[{{node sequential/conv2d/Relu}}]]\n [Op:__inference_test_function_3161]\n", NULL},
    {"keras", "backward", "model.fit -> train_function, gradient_tape node", "keras-team/keras:keras/src/backend/tensorflow/trainer.py",
     "!Traceback (most recent call last):\n"
     "  File \"/w/train.py\", line 38, in <module>\n    model.fit(train_ds, epochs=10)\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/keras/src/utils/traceback_utils.py\", line 122, in error_handler\n    raise e.with_traceback(filtered_tb) from None\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/tensorflow/python/eager/execute.py\", line 53, in quick_execute\n    tensors = pywrap_tfe.TFE_Py_Execute(ctx._handle, device_name, op_name,\n"
     "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Graph execution error:\n\n"
     "OOM when allocating tensor with shape[64,64,224,224] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
     "\t [[{{node gradient_tape/sequential/conv2d/Conv2D/Conv2DBackpropInput}}]]\n [Op:__inference_train_function_1161]\n", NULL},
    /* ---- JAX / flax / optax ---- */
    {"jax", "eval", "eval_step under jit", "google/flax:examples/imagenet/train.py",
     "!Traceback (most recent call last):\n"
     "  File \"/w/train.py\", line 210, in <module>\n    metrics = p_eval_step(state, batch)\n"
     "jax._src.traceback_util.UnfilteredStackTrace: jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.\n", NULL},
    {"jax", "load", "create_train_state -> model.init", "google/flax:examples/imagenet/train.py",
     "!Traceback (most recent call last):\n"
     "  File \"/w/train.py\", line 150, in create_train_state\n    params = model.init(rng, jnp.ones(input_shape))['params']\n"
     "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.\n", NULL},
    {"jax", "optimizer", "optax tx.update outside jit", "google-deepmind/optax:optax/_src/transform.py",
     "!Traceback (most recent call last):\n"
     "  File \"/w/train.py\", line 90, in train\n    updates, opt_state = tx.update(grads, opt_state, params)\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/optax/_src/combine.py\", line 73, in update_fn\n    updates, new_s = fn(updates, s, params, **extra_args)\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/optax/_src/transform.py\", line 287, in update_fn\n    mu = otu.tree_update_moment(updates, state.mu, b1, 1)\n"
     "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.\n", NULL},
    {"jax", "checkpoint", "orbax CheckpointManager.save", "google/orbax:checkpoint/orbax/checkpoint/checkpoint_manager.py",
     "!Traceback (most recent call last):\n"
     "  File \"/w/train.py\", line 300, in train\n    checkpoint_manager.save(step, args=ocp.args.StandardSave(state))\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/orbax/checkpoint/checkpoint_manager.py\", line 1250, in save\n    self._checkpointer.save(save_directory, args=args)\n"
     "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.\n", NULL},
    /* ---- diffusers (huggingface/diffusers:src/diffusers/pipelines/, examples/) ---- */
    {"diffusers", "generate", "pipeline __call__ -> unet", "huggingface/diffusers:src/diffusers/pipelines/stable_diffusion_xl/pipeline_stable_diffusion_xl.py",
     "/w/app.py | <module> | image = pipe(prompt).images[0]"
     " @@ torch/utils/_contextlib.py | decorate_context | return func(*args, **kwargs)"
     " @@ diffusers/pipelines/stable_diffusion_xl/pipeline_stable_diffusion_xl.py | __call__ | noise_pred = self.unet("
     " @@ diffusers/models/unets/unet_2d_condition.py | forward | sample = upsample_block(", NULL},
    {"diffusers", "generate", "pipeline __call__ -> vae.decode", "huggingface/diffusers:src/diffusers/models/autoencoders/autoencoder_kl.py",
     "diffusers/pipelines/flux/pipeline_flux.py | __call__ | image = self.vae.decode(latents, return_dict=False)[0]"
     " @@ diffusers/utils/accelerate_utils.py | wrapper | return method(self, *args, **kwargs)"
     " @@ diffusers/models/autoencoders/autoencoder_kl.py | decode | decoded = self._decode(z).sample"
     " @@ diffusers/models/autoencoders/vae.py | forward | sample = up_block(sample, latent_embeds)", NULL},
    {"diffusers", "forward", "train_text_to_image -> unet(noisy_latents)", "huggingface/diffusers:examples/text_to_image/train_text_to_image.py",
     "/w/diffusers/examples/text_to_image/train_text_to_image.py | main | model_pred = unet(noisy_latents, timesteps, encoder_hidden_states, return_dict=False)[0]"
     " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
     " @@ accelerate/utils/operations.py | forward | return model_forward(*args, **kwargs)"
     " @@ diffusers/models/unets/unet_2d_condition.py | forward | sample, res_samples = downsample_block(", NULL},
    {"diffusers", "load", "pipe.enable_model_cpu_offload / DiffusionPipeline.from_pretrained", "huggingface/diffusers:src/diffusers/pipelines/pipeline_utils.py",
     "/w/app.py | <module> | pipe = DiffusionPipeline.from_pretrained(\"stabilityai/stable-diffusion-xl-base-1.0\", torch_dtype=torch.float16).to(\"cuda\")"
     " @@ diffusers/pipelines/pipeline_utils.py | to | module.to(device, dtype)", NULL},
    /* ---- ComfyUI / A1111 ---- */
    {"comfyui", "generate", "KSampler node -> common_ksampler", "comfyanonymous/ComfyUI:nodes.py",
     "/w/ComfyUI/execution.py | execute | output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb)"
     " @@ /w/ComfyUI/execution.py | _map_node_over_list | process_inputs(input_dict, i)"
     " @@ /w/ComfyUI/nodes.py | sample | return common_ksampler(model, seed, steps, cfg, sampler_name, scheduler, positive, negative, latent_image, denoise=denoise)"
     " @@ /w/ComfyUI/comfy/samplers.py | sample | output = executor.execute(noise, latent_image, sampler, sigmas, denoise_mask, callback, disable_pbar, seed)", NULL},
    {"comfyui", "generate", "VAEDecode node -> comfy/sd.py decode", "comfyanonymous/ComfyUI:comfy/sd.py",
     "/w/ComfyUI/execution.py | _map_node_over_list | process_inputs(input_dict, i)"
     " @@ /w/ComfyUI/nodes.py | decode | images = vae.decode(samples[\"samples\"])"
     " @@ /w/ComfyUI/comfy/sd.py | decode | out = self.process_output(self.first_stage_model.decode(samples).to(self.output_device).float())", NULL},
    {"comfyui", "load", "load_models_gpu -> model_patcher load", "comfyanonymous/ComfyUI:comfy/model_management.py",
     "/w/ComfyUI/comfy/sample.py | sample | samples = sampler.sample(noise, positive, negative, cfg=cfg, latent_image=latent_image, start_step=start_step, last_step=last_step, force_full_denoise=force_full_denoise, denoise_mask=noise_mask, sigmas=sigmas, callback=callback, disable_pbar=disable_pbar, seed=seed)"
     " @@ /w/ComfyUI/comfy/sampler_helpers.py | prepare_sampling | comfy.model_management.load_models_gpu([model] + models, memory_required=memory_required, minimum_memory_required=minimum_memory_required)"
     " @@ /w/ComfyUI/comfy/model_management.py | load_models_gpu | loaded_model.model_load(lowvram_model_memory, force_patch_weights=force_patch_weights)"
     " @@ /w/ComfyUI/comfy/model_management.py | model_load | self.model.patch_model(device_to=patch_model_to, lowvram_model_memory=lowvram_model_memory, load_weights=load_weights, force_patch_weights=force_patch_weights)"
     " @@ /w/ComfyUI/comfy/model_patcher.py | load | x[2].to(device_to)", NULL},
    {"a1111", "generate", "txt2img -> process_images -> sample", "AUTOMATIC1111/stable-diffusion-webui:modules/processing.py",
     "/w/stable-diffusion-webui/modules/call_queue.py | f | res = list(func(*args, **kwargs))"
     " @@ /w/stable-diffusion-webui/modules/processing.py | process_images_inner | samples_ddim = p.sample(conditioning=p.c, unconditional_conditioning=p.uc, seeds=p.seeds, subseeds=p.subseeds, subseed_strength=p.subseed_strength, prompts=p.prompts)"
     " @@ /w/stable-diffusion-webui/modules/processing.py | sample | samples = self.sampler.sample(self, x, conditioning, unconditional_conditioning, image_conditioning=self.txt2img_image_conditioning(x))", NULL},
    {"a1111", "load", "sd_models.load_model", "AUTOMATIC1111/stable-diffusion-webui:modules/sd_models.py",
     "/w/stable-diffusion-webui/modules/sd_models.py | reload_model_weights | load_model(checkpoint_info, already_loaded_state_dict=state_dict)"
     " @@ /w/stable-diffusion-webui/modules/sd_models.py | load_model | sd_model.to(shared.device)", NULL},
    /* ---- vLLM / SGLang / TGI / llama.cpp ---- */
    {"vllm", "generate", "LLM.generate -> _run_engine -> step -> execute_model", "vllm-project/vllm:vllm/entrypoints/llm.py",
     "/w/infer.py | <module> | outputs = llm.generate(prompts, sampling_params)"
     " @@ vllm/entrypoints/llm.py | generate | outputs = self._run_engine(use_tqdm=use_tqdm)"
     " @@ vllm/entrypoints/llm.py | _run_engine | step_outputs = self.llm_engine.step()"
     " @@ vllm/engine/llm_engine.py | step | outputs = self.model_executor.execute_model(", NULL},
    {"vllm", "load", "LLM() -> from_engine_args -> model loader", "vllm-project/vllm:vllm/model_executor/model_loader/",
     "/w/infer.py | <module> | llm = LLM(model=\"meta-llama/Llama-3-70B\", tensor_parallel_size=1)"
     " @@ vllm/entrypoints/llm.py | __init__ | self.llm_engine = LLMEngine.from_engine_args("
     " @@ vllm/worker/model_runner.py | load_model | self.model = get_model(vllm_config=self.vllm_config)"
     " @@ vllm/model_executor/model_loader/default_loader.py | load_weights | loaded_weights = model.load_weights(", NULL},
    {"vllm", "load", "v1 core _initialize_kv_caches -> profile_run", "vllm-project/vllm:vllm/v1/worker/gpu_model_runner.py",
     "vllm/v1/engine/core.py | __init__ | num_gpu_blocks, num_cpu_blocks, kv_cache_config = self._initialize_kv_caches(vllm_config)"
     " @@ vllm/v1/worker/gpu_worker.py | determine_available_memory | self.model_runner.profile_run()"
     " @@ vllm/v1/worker/gpu_model_runner.py | profile_run | hidden_states, last_hidden_states = self._dummy_run(self.max_num_tokens, is_profile=True)", NULL},
    {"vllm", "load", "V0 profile_run -> execute_model (warm-up masks the serving cue)", "vllm-project/vllm:vllm/worker/model_runner.py",
     "vllm/engine/llm_engine.py | _initialize_kv_caches | self.model_executor.determine_num_available_blocks())"
     " @@ vllm/worker/worker.py | determine_num_available_blocks | self.model_runner.profile_run()"
     " @@ vllm/worker/model_runner.py | profile_run | self._dummy_run(max_num_batched_tokens, max_num_seqs)"
     " @@ vllm/worker/model_runner.py | _dummy_run | self.execute_model(model_input, kv_caches, intermediate_tensors)"
     " @@ vllm/worker/model_runner.py | execute_model | hidden_or_intermediate_states = model_executable("
     " @@ vllm/model_executor/models/llama.py | forward | hidden_states, residual = layer(positions, hidden_states, residual)", NULL},
    {"vllm", "generate", "serving step -> execute_model (guard: no warm-up above)", "vllm-project/vllm:vllm/worker/model_runner.py",
     "vllm/engine/llm_engine.py | step | outputs = self.model_executor.execute_model("
     " @@ vllm/worker/model_runner.py | execute_model | hidden_or_intermediate_states = model_executable("
     " @@ vllm/model_executor/models/llama.py | forward | hidden_states, residual = layer(positions, hidden_states, residual)", NULL},
    {"sglang", "generate", "scheduler run_batch -> forward_batch_generation", "sgl-project/sglang:python/sglang/srt/managers/scheduler.py",
     "sglang/srt/managers/scheduler.py | event_loop_normal | result = self.run_batch(batch)"
     " @@ sglang/srt/managers/scheduler.py | run_batch | ) = self.tp_worker.forward_batch_generation(model_worker_batch)"
     " @@ sglang/srt/managers/tp_worker.py | forward_batch_generation | logits_output, can_run_cuda_graph = self.model_runner.forward(", NULL},
    {"sglang", "load", "ModelRunner init_cuda_graphs", "sgl-project/sglang:python/sglang/srt/model_executor/model_runner.py",
     "sglang/srt/model_executor/model_runner.py | initialize | self.init_cuda_graphs()"
     " @@ sglang/srt/model_executor/model_runner.py | init_cuda_graphs | self.cuda_graph_runner = CudaGraphRunner(self)"
     " @@ sglang/srt/model_executor/cuda_graph_runner.py | capture | ) = self.capture_one_batch_size(bs, forward)", NULL},
    {"tgi", "load", "server Warmup -> model.warmup", "huggingface/text-generation-inference:server/text_generation_server/server.py",
     "text_generation_server/server.py | Warmup | max_supported_total_tokens, max_input_tokens, max_total_tokens = self.model.warmup("
     " @@ text_generation_server/models/flash_causal_lm.py | warmup | _, _batch, _ = self.generate_token(batch)", NULL},
    {"tgi", "load", "warmup -> generate_token -> forward (deeper stack)", "huggingface/text-generation-inference:server/text_generation_server/models/flash_causal_lm.py",
     "text_generation_server/server.py | Warmup | max_supported_total_tokens, max_input_tokens, max_total_tokens = self.model.warmup("
     " @@ text_generation_server/models/flash_causal_lm.py | warmup | _, _batch, _ = self.generate_token(batch)"
     " @@ text_generation_server/models/flash_causal_lm.py | generate_token | out, speculative_logits = self.forward(batch, adapter_data)"
     " @@ text_generation_server/models/flash_causal_lm.py | forward | logits, speculative_logits = self.model.forward(", NULL},
    {"tgi", "generate", "server Prefill -> generate_token", "huggingface/text-generation-inference:server/text_generation_server/server.py",
     "text_generation_server/server.py | Prefill | generations, next_batch, timings = self.model.generate_token(batch)"
     " @@ text_generation_server/models/flash_causal_lm.py | generate_token | out, speculative_logits = self.forward(batch, adapter_data)", NULL},
    {"llama.cpp", "load", "llama_model_load: unable to allocate backend buffer", "ggml-org/llama.cpp:src/llama-model.cpp",
     "!llm_load_tensors: ggml ctx size =    0.27 MiB\n"
     "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 38970.00 MiB on device 0: cudaMalloc failed: out of memory\n"
     "llama_model_load: error loading model: unable to allocate backend buffer\n"
     "llama_load_model_from_file: failed to load model\n", NULL},
    {"llama.cpp", "load", "llama_new_context: compute buffer", "ggml-org/llama.cpp:src/llama-context.cpp",
     "!llama_kv_cache_init:      CUDA0 KV buffer size =  8192.00 MiB\n"
     "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4600.00 MiB on device 0: cudaMalloc failed: out of memory\n"
     "ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 4823449600\n"
     "llama_new_context_with_model: failed to allocate compute buffers\n", NULL},
    {"llama-cpp-python", "generate", "Llama.__call__ -> create_completion -> eval -> decode", "abetlen/llama-cpp-python:llama_cpp/llama.py",
     "llama_cpp/llama.py | __call__ | return self.create_completion("
     " @@ llama_cpp/llama.py | create_completion | completion: Completion = next(completion_or_chunks)  # type: ignore"
     " @@ llama_cpp/llama.py | _create_completion | for token in self.generate("
     " @@ llama_cpp/llama.py | generate | self.eval(tokens)"
     " @@ llama_cpp/llama.py | eval | self._ctx.decode(self._batch)", NULL},
    /* ---- whisper / faster-whisper / CTranslate2 / ESPnet ---- */
    {"faster-whisper", "load", "WhisperModel.__init__ -> ctranslate2.models.Whisper", "SYSTRAN/faster-whisper:faster_whisper/transcribe.py",
     "!Traceback (most recent call last):\n"
     "  File \"/w/app.py\", line 5, in <module>\n    model = WhisperModel(\"large-v3\", device=\"cuda\", compute_type=\"float16\")\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/faster_whisper/transcribe.py\", line 634, in __init__\n    self.model = ctranslate2.models.Whisper(\n"
     "RuntimeError: CUDA failed with error out of memory\n", NULL},
    {"faster-whisper", "generate", "generate_segments -> encode", "SYSTRAN/faster-whisper:faster_whisper/transcribe.py",
     "!Traceback (most recent call last):\n"
     "  File \"/w/app.py\", line 9, in <module>\n    for segment in segments:\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/faster_whisper/transcribe.py\", line 1176, in generate_segments\n    encoder_output = self.encode(segment)\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/faster_whisper/transcribe.py\", line 1409, in encode\n    return self.model.encode(features, to_cpu=to_cpu)\n"
     "RuntimeError: CUDA failed with error out of memory\n", NULL},
    {"ctranslate2", "generate", "Translator.translate_batch", "OpenNMT/CTranslate2:python/ctranslate2/",
     "!Traceback (most recent call last):\n"
     "  File \"/w/translate.py\", line 20, in <module>\n    results = translator.translate_batch(batch, beam_size=4, max_batch_size=64)\n"
     "RuntimeError: CUDA failed with error out of memory\n", NULL},
    {"ctranslate2", "generate", "Generator.generate_batch", "OpenNMT/CTranslate2:python/ctranslate2/",
     "!Traceback (most recent call last):\n"
     "  File \"/w/gen.py\", line 20, in <module>\n    results = generator.generate_batch([tokens], max_length=256, sampling_topk=10)\n"
     "RuntimeError: CUDA failed with error out of memory\n", NULL},
    {"whisper", "generate", "model.transcribe -> decode", "openai/whisper:whisper/transcribe.py",
     "/w/app.py | <module> | result = model.transcribe(\"audio.mp3\")"
     " @@ whisper/transcribe.py | transcribe | result: DecodingResult = decode_with_fallback(mel_segment)"
     " @@ whisper/decoding.py | run | tokens, sum_logprobs, no_speech_probs = self._main_loop(audio_features, tokens)", NULL},
    {"espnet", "eval", "Trainer.validate_one_epoch", "espnet/espnet:espnet2/train/trainer.py",
     "espnet2/train/trainer.py | run | all_steps_are_invalid = cls.validate_one_epoch("
     " @@ espnet2/train/trainer.py | validate_one_epoch | retval = model(**batch)", NULL},
    {"espnet", "generate", "Speech2Text -> beam search", "espnet/espnet:espnet/nets/beam_search.py",
     "espnet2/bin/asr_inference.py | __call__ | results = self._decode_single_sample(enc[0])"
     " @@ espnet2/bin/asr_inference.py | _decode_single_sample | nbest_hyps = self.beam_search(x=enc, maxlenratio=self.maxlenratio, minlenratio=self.minlenratio)"
     " @@ espnet/nets/beam_search.py | forward | best = self.search(running_hyps, x, pre_x=pre_x)", NULL},
    /* ---- sentence-transformers ---- */
    {"sentence-transformers", "forward", "SentenceTransformer.encode -> forward", "UKPLab/sentence-transformers:sentence_transformers/SentenceTransformer.py",
     "/w/embed.py | <module> | emb = model.encode(docs, batch_size=256)"
     " @@ sentence_transformers/SentenceTransformer.py | encode | out_features = self.forward(features, **kwargs)"
     " @@ sentence_transformers/models/Transformer.py | forward | output_states = self.auto_model(**trans_features, **kwargs, return_dict=False)", NULL},
    {"sentence-transformers", "eval", "fit -> evaluator -> encode", "UKPLab/sentence-transformers:sentence_transformers/evaluation/",
     "sentence_transformers/trainer.py | evaluate | return super().evaluate(eval_dataset=eval_dataset, ignore_keys=ignore_keys, metric_key_prefix=metric_key_prefix)"
     " @@ sentence_transformers/evaluation/EmbeddingSimilarityEvaluator.py | __call__ | embeddings1 = self.embed_inputs(model, self.sentences1)"
     " @@ sentence_transformers/SentenceTransformer.py | encode | out_features = self.forward(features, **kwargs)", NULL},
    /* ---- PyG / DGL ---- */
    {"pyg", "data", "NeighborLoader -> sampler", "pyg-team/pytorch_geometric:torch_geometric/loader/neighbor_loader.py",
     "/w/train.py | train | for batch in train_loader:"
     " @@ torch_geometric/loader/base.py | __next__ | return self.transform_fn(next(self.iterator))"
     " @@ torch_geometric/loader/node_loader.py | filter_fn | data = filter_data(self.data, out.node, out.row, out.col, out.edge,", NULL},
    {"dgl", "data", "DataLoader -> sample_blocks", "dmlc/dgl:python/dgl/dataloading/dataloader.py",
     "/w/train.py | train | for input_nodes, output_nodes, blocks in dataloader:"
     " @@ dgl/dataloading/dataloader.py | __next__ | batch = recursive_apply("
     " @@ dgl/dataloading/neighbor_sampler.py | sample_blocks | frontier = g.sample_neighbors(", NULL},
    /* ---- stable-baselines3 ---- */
    {"sb3", "forward", "PPO.train -> policy.evaluate_actions", "DLR-RM/stable-baselines3:stable_baselines3/ppo/ppo.py",
     "stable_baselines3/common/on_policy_algorithm.py | learn | self.train()"
     " @@ stable_baselines3/ppo/ppo.py | train | values, log_prob, entropy = self.policy.evaluate_actions(rollout_data.observations, actions)"
     " @@ stable_baselines3/common/policies.py | evaluate_actions | features = self.extract_features(obs)",
     /* a gap here until diagstage15's false_friends table (src/lib/stage.c):
      * "evaluate_actions" names the PPO step's forward; evaluate_policy
      * below stays evaluation */
     NULL},
    {"sb3", "forward", "collect_rollouts -> policy(obs)", "DLR-RM/stable-baselines3:stable_baselines3/common/on_policy_algorithm.py",
     "stable_baselines3/common/on_policy_algorithm.py | learn | continue_training = self.collect_rollouts(self.env, callback, self.rollout_buffer, n_rollout_steps=self.n_steps)"
     " @@ stable_baselines3/common/on_policy_algorithm.py | collect_rollouts | actions, values, log_probs = self.policy(obs_tensor)"
     " @@ stable_baselines3/common/policies.py | forward | features = self.extract_features(obs)", NULL},
    {"sb3", "eval", "evaluate_policy", "DLR-RM/stable-baselines3:stable_baselines3/common/evaluation.py",
     "/w/train.py | <module> | mean_reward, std_reward = evaluate_policy(model, env, n_eval_episodes=10)"
     " @@ stable_baselines3/common/evaluation.py | evaluate_policy | actions, states = model.predict("
     " @@ stable_baselines3/common/policies.py | predict | actions = self._predict(obs_tensor, deterministic=deterministic)", NULL},
    {"sb3", "data", "SAC.train -> replay_buffer.sample", "DLR-RM/stable-baselines3:stable_baselines3/common/buffers.py",
     "stable_baselines3/sac/sac.py | train | replay_data = self.replay_buffer.sample(batch_size, env=self._vec_normalize_env)"
     " @@ stable_baselines3/common/buffers.py | sample | return self._get_samples(batch_inds, env=env)"
     " @@ stable_baselines3/common/buffers.py | _get_samples | return ReplayBufferSamples(*tuple(map(self.to_torch, data)))", NULL},
    /* ---- nnUNet / MONAI ---- */
    {"nnunet", "forward", "run_training -> train_step -> self.network(data)", "MIC-DKFZ/nnUNet:nnunetv2/training/nnUNetTrainer/nnUNetTrainer.py",
     "nnunetv2/training/nnUNetTrainer/nnUNetTrainer.py | run_training | train_outputs.append(self.train_step(next(self.dataloader_train)))"
     " @@ nnunetv2/training/nnUNetTrainer/nnUNetTrainer.py | train_step | output = self.network(data)"
     " @@ dynamic_network_architectures/architectures/unet.py | forward | skips = self.encoder(x)", NULL},
    {"nnunet", "eval", "run_training -> validation_step", "MIC-DKFZ/nnUNet:nnunetv2/training/nnUNetTrainer/nnUNetTrainer.py",
     "nnunetv2/training/nnUNetTrainer/nnUNetTrainer.py | run_training | val_outputs.append(self.validation_step(next(self.dataloader_val)))"
     " @@ nnunetv2/training/nnUNetTrainer/nnUNetTrainer.py | validation_step | output = self.network(data)", NULL},
    {"nnunet", "eval", "perform_actual_validation -> predict_sliding_window", "MIC-DKFZ/nnUNet:nnunetv2/training/nnUNetTrainer/nnUNetTrainer.py",
     "nnunetv2/training/nnUNetTrainer/nnUNetTrainer.py | perform_actual_validation | prediction = predictor.predict_sliding_window_return_logits(data)"
     " @@ nnunetv2/inference/predict_from_raw_data.py | predict_sliding_window_return_logits | predicted_logits = self._internal_predict_sliding_window_return_logits(data, slicers, self.perform_everything_on_device)", NULL},
    {"nnunet", "data", "batchgenerators generate_train_batch", "MIC-DKFZ/nnUNet:nnunetv2/training/dataloading/data_loader.py",
     "batchgenerators/dataloading/nondet_multi_threaded_augmenter.py | producer | item = next(data_loader)"
     " @@ batchgenerators/dataloading/data_loader.py | __next__ | return self.generate_train_batch()"
     " @@ nnunetv2/training/dataloading/data_loader.py | generate_train_batch | data_all = torch.from_numpy(data_all).to(self.device)", NULL},
    {"nnunet", "forward", "predict_from_files -> sliding window", "MIC-DKFZ/nnUNet:nnunetv2/inference/predict_from_raw_data.py",
     "nnunetv2/inference/predict_from_raw_data.py | predict_from_data_iterator | prediction = self.predict_logits_from_preprocessed_data(data).cpu()"
     " @@ nnunetv2/inference/predict_from_raw_data.py | predict_logits_from_preprocessed_data | prediction = self.predict_sliding_window_return_logits(data).to('cpu')"
     " @@ nnunetv2/inference/predict_from_raw_data.py | _internal_maybe_mirror_and_predict | prediction = self.network(x)", NULL},
    {"monai", "eval", "SupervisedEvaluator._iteration", "Project-MONAI/MONAI:monai/engines/evaluator.py",
     "monai/engines/evaluator.py | run | super().run()"
     " @@ monai/engines/workflow.py | run | super().run(data=self.data_loader, max_epochs=self.state.max_epochs)"
     " @@ monai/engines/evaluator.py | _iteration | engine.state.output[Keys.PRED] = engine.inferer(inputs, engine.network, *args, **kwargs)"
     " @@ monai/inferers/utils.py | sliding_window_inference | seg_prob_out = predictor(win_data, *args, **kwargs)", NULL},
    {"monai", "forward", "sliding_window_inference in a script", "Project-MONAI/MONAI:monai/inferers/utils.py",
     "/w/infer.py | main | outputs = sliding_window_inference(inputs, roi_size, 4, model)"
     " @@ monai/inferers/utils.py | sliding_window_inference | seg_prob_out = predictor(win_data, *args, **kwargs)", NULL},
    /* ---- second batch: trainers built on the ones above, optimizers' own packages, pipelines ---- */
    {"hf-trainer", "load", "train(resume_from_checkpoint) -> _load_from_checkpoint", "huggingface/transformers:src/transformers/trainer.py",
     "transformers/trainer.py | train | self._load_from_checkpoint(resume_from_checkpoint)"
     " @@ transformers/trainer.py | _load_from_checkpoint | state_dict = torch.load(weights_file, map_location=\"cpu\", weights_only=True)"
     " @@ torch/serialization.py | load | return _load(", NULL},
    {"hf-trainer", "optimizer", "optimizer step in bitsandbytes' 8-bit AdamW", "bitsandbytes-foundation/bitsandbytes:bitsandbytes/optim/optimizer.py",
     "transformers/trainer.py | _inner_training_loop | self.optimizer.step()"
     " @@ accelerate/optimizer.py | step | self.optimizer.step(closure)"
     " @@ bitsandbytes/optim/optimizer.py | step | self.init_state(group, p, gindex, pindex)"
     " @@ bitsandbytes/optim/optimizer.py | init_state | state[\"state1\"] = self.get_state_buffer(p, dtype=torch.uint8)", NULL},
    {"apex", "optimizer", "apex FusedAdam.step", "NVIDIA/apex:apex/optimizers/fused_adam.py",
     "/w/train.py | train | optimizer.step()"
     " @@ apex/optimizers/fused_adam.py | step | state['exp_avg'] = torch.zeros_like(p.data)", NULL},
    {"deepspeed", "optimizer", "DeepSpeed FusedAdam / cpu_adam step", "deepspeedai/DeepSpeed:deepspeed/ops/adam/fused_adam.py",
     "deepspeed/runtime/zero/stage_1_and_2.py | step | self._optimizer_step(i)"
     " @@ deepspeed/runtime/zero/stage_1_and_2.py | _optimizer_step | self.optimizer.step()"
     " @@ deepspeed/ops/adam/fused_adam.py | step | state['exp_avg'] = torch.zeros_like(p.data)", NULL},
    {"deepspeed", "load", "deepspeed.init_inference", "deepspeedai/DeepSpeed:deepspeed/inference/engine.py",
     "/w/infer.py | <module> | model = deepspeed.init_inference(model, tensor_parallel={\"tp_size\": 2}, dtype=torch.float16)"
     " @@ deepspeed/__init__.py | init_inference | engine = InferenceEngine(model, config=ds_inference_config)"
     " @@ deepspeed/inference/engine.py | __init__ | self.module.to(device)", NULL},
    {"accelerate", "load", "load_checkpoint_and_dispatch", "huggingface/accelerate:src/accelerate/big_modeling.py",
     "/w/infer.py | <module> | model = load_checkpoint_and_dispatch(model, checkpoint=ckpt, device_map=\"auto\")"
     " @@ accelerate/big_modeling.py | load_checkpoint_and_dispatch | load_checkpoint_in_model("
     " @@ accelerate/utils/modeling.py | load_checkpoint_in_model | set_module_tensor_to_device(", NULL},
    {"hf-pipeline", "generate", "pipeline('text-generation') -> _forward -> generate", "huggingface/transformers:src/transformers/pipelines/text_generation.py",
     "/w/app.py | <module> | out = pipe(prompt, max_new_tokens=256)"
     " @@ transformers/pipelines/text_generation.py | __call__ | return super().__call__(text_inputs, **kwargs)"
     " @@ transformers/pipelines/base.py | forward | model_outputs = self._forward(model_inputs, **forward_params)"
     " @@ transformers/pipelines/text_generation.py | _forward | output = self.model.generate(input_ids=input_ids, attention_mask=attention_mask, **generate_kwargs)", NULL},
    {"hf-pipeline", "forward", "pipeline('image-classification') -> _forward", "huggingface/transformers:src/transformers/pipelines/base.py",
     "/w/app.py | <module> | preds = classifier(images, batch_size=64)"
     " @@ transformers/pipelines/base.py | run_single | model_outputs = self.forward(model_inputs, **forward_params)"
     " @@ transformers/pipelines/base.py | forward | model_outputs = self._forward(model_inputs, **forward_params)"
     " @@ transformers/pipelines/image_classification.py | _forward | model_outputs = self.model(**model_inputs)", NULL},
    {"peft", "load", "PeftModel.from_pretrained -> load_adapter", "huggingface/peft:src/peft/peft_model.py",
     "/w/infer.py | <module> | model = PeftModel.from_pretrained(base, adapter_dir)"
     " @@ peft/peft_model.py | from_pretrained | load_result = model.load_adapter("
     " @@ peft/utils/save_and_load.py | load_peft_weights | adapters_weights = safe_load_file(filename, device=device)", NULL},
    {"peft", "load", "merge_and_unload", "huggingface/peft:src/peft/tuners/tuners_utils.py",
     "/w/merge.py | <module> | model = model.merge_and_unload()"
     " @@ peft/tuners/lora/model.py | merge_and_unload | return self._unload_and_optionally_merge("
     " @@ peft/tuners/lora/layer.py | merge | delta_weight = self.get_delta_weight(active_adapter)", NULL},
    {"unsloth", "forward", "unsloth's patched compute_loss", "unslothai/unsloth:unsloth/models/_utils.py",
     "/w/train.py | <module> | trainer.train()"
     " @@ unsloth_compiled_cache/UnslothSFTTrainer.py | compute_loss | outputs = super().compute_loss("
     " @@ unsloth/models/_utils.py | _unsloth_pre_compute_loss | outputs = self._old_compute_loss(model, inputs, *args, **kwargs)"
     " @@ transformers/trainer.py | compute_loss | outputs = model(**inputs)", NULL},
    {"kohya-sd-scripts", "forward", "train_network.py -> unet call", "kohya-ss/sd-scripts:train_network.py",
     "/w/sd-scripts/train_network.py | train | noise_pred = self.call_unet("
     " @@ /w/sd-scripts/train_network.py | call_unet | noise_pred = unet(noisy_latents, timesteps, text_conds).sample", NULL},
    {"kohya-sd-scripts", "generate", "sample_images during training", "kohya-ss/sd-scripts:library/train_util.py",
     "/w/sd-scripts/train_network.py | train | self.sample_images(accelerator, args, None, global_step, accelerator.device, vae, tokenizer, text_encoder, unet)"
     " @@ /w/sd-scripts/library/train_util.py | sample_images_common | sample_image_inference("
     " @@ /w/sd-scripts/library/train_util.py | sample_image_inference | image = pipeline(prompt=prompt, height=height, width=width, num_inference_steps=sample_steps)", NULL},
    {"torch.compile", "forward", "inductor autotune (max-autotune) during the first forward", "pytorch/pytorch:torch/_inductor/select_algorithm.py",
     "/w/train.py | train | out = model(x)"
     " @@ torch/_dynamo/eval_frame.py | _fn | return fn(*args, **kwargs)"
     " @@ torch/_inductor/compile_fx.py | compile_fx_inner | compiled_graph = fx_codegen_and_compile(gm, example_inputs, **graph_kwargs)"
     " @@ torch/_inductor/select_algorithm.py | autotune | timings = self.benchmark(choices)", NULL},
    {"keras2", "optimizer", "TF2 Keras apply_gradients", "keras-team/tf-keras:tf_keras/optimizers/optimizer.py",
     "!Traceback (most recent call last):\n"
     "  File \"/w/train.py\", line 50, in train_step\n    optimizer.apply_gradients(zip(grads, model.trainable_variables))\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/keras/optimizers/optimizer.py\", line 1174, in apply_gradients\n    return super().apply_gradients(grads_and_vars, name=name)\n"
     "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[4096,4096] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc [Op:AddV2]\n", NULL},
    {"keras2", "backward", "GradientTape.gradient", "tensorflow/tensorflow:tensorflow/python/eager/backprop.py",
     "!Traceback (most recent call last):\n"
     "  File \"/w/train.py\", line 48, in train_step\n    grads = tape.gradient(loss, model.trainable_variables)\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/tensorflow/python/eager/backprop.py\", line 1066, in gradient\n    flat_grad = imperative_grad.imperative_grad(\n"
     "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[64,256,56,56] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc [Op:Conv2DBackpropFilter]\n", NULL},
    {"invokeai", "generate", "denoise_latents invocation", "invoke-ai/InvokeAI:invokeai/app/invocations/denoise_latents.py",
     "invokeai/app/services/session_processor/session_processor_default.py | _process | outputs = self._invocation.invoke_internal("
     " @@ invokeai/app/invocations/denoise_latents.py | invoke | result_latents = pipeline.latents_from_embeddings("
     " @@ invokeai/backend/stable_diffusion/diffusers_pipeline.py | latents_from_embeddings | step_output = self.step(", NULL},
    {"fooocus", "generate", "process_diffusion -> ksampler", "lllyasviel/Fooocus:modules/default_pipeline.py",
     "/w/Fooocus/modules/async_worker.py | handler | imgs = pipeline.process_diffusion("
     " @@ /w/Fooocus/modules/default_pipeline.py | process_diffusion | sampled_latent = core.ksampler(", NULL},
    {"axolotl", "forward", "axolotl trainer compute_loss", "axolotl-ai-cloud/axolotl:src/axolotl/core/trainers/base.py",
     "transformers/trainer.py | training_step | loss = self.compute_loss(model, inputs, num_items_in_batch=num_items_in_batch)"
     " @@ axolotl/core/trainers/base.py | compute_loss | return super().compute_loss("
     " @@ transformers/trainer.py | compute_loss | outputs = model(**inputs)", NULL},
    {"llamafactory", "generate", "CustomSeq2SeqTrainer.prediction_step (predict_with_generate)", "hiyouga/LLaMA-Factory:src/llamafactory/train/sft/trainer.py",
     "llamafactory/train/sft/trainer.py | prediction_step | loss, generated_tokens, _ = super().prediction_step("
     " @@ transformers/trainer_seq2seq.py | prediction_step | generated_tokens = self.model.generate(**generation_inputs, **gen_kwargs)", NULL},
    /* ---- diagstage14: engines making their model, a model moved under its own name ---- */
    {"lmdeploy", "load", "TurboMind _create_model_instance at engine start", "InternLM/lmdeploy:lmdeploy/turbomind/turbomind.py",
     "/usr/lib/python3.10/threading.py | run | self._target(*self._args, **self._kwargs)"
     " @@ lmdeploy/turbomind/turbomind.py | _create_model_instance | model_inst = self.tm_model.model_comm.create_model_instance(", NULL},
    {"vllm", "load", "executor start-up: _init_executor -> init_device (paste cut below ExecutorBase.__init__)", "vllm-project/vllm:vllm/executor/uniproc_executor.py",
     "vllm/executor/uniproc_executor.py | _init_executor | self.driver_worker.init_device()"
     " @@ vllm/worker/worker.py | init_device | torch.cuda.set_device(self.device)", NULL},
    {"tensorrt-llm", "load", "PyTorch backend create_py_executor (KV cache managers)", "NVIDIA/TensorRT-LLM:tensorrt_llm/_torch/pyexecutor/py_executor_creator.py",
     "tensorrt_llm/executor/worker.py | _create_engine | return create_py_executor("
     " @@ tensorrt_llm/_torch/pyexecutor/py_executor_creator.py | create_py_executor | kv_cache_creator.build_managers(resources)"
     " @@ tensorrt_llm/_torch/pyexecutor/_util.py | build_managers | kv_cache_manager = self._create_kv_cache_manager(self._model_engine)", NULL},
    {"detectron2", "load", "DefaultTrainer.build_model", "facebookresearch/detectron2:detectron2/engine/defaults.py",
     "/w/tools/train_net.py | main | trainer = Trainer(cfg)"
     " @@ detectron2/engine/defaults.py | build_model | model = build_model(cfg)", NULL},
    {"custom", "load", "a model moved under its own name (text_encoder.to(device))", "this audit",
     "/w/infer.py | <module> | pipe = setup(args)"
     " @@ /w/infer.py | setup | text_encoder = text_encoder.to(device)", NULL},
    {"ctranslate2", "load", "translator = ctranslate2.Translator(path, device='cuda') (C++ constructor, no frame below)", "OpenNMT/CTranslate2:python/cpp/translator.cc",
     "/w/translate.py | <module> | translator = ctranslate2.Translator(model_dir, device=\"cuda\", compute_type=\"float16\")", NULL},
    {"faster-whisper", "load", "model = WhisperModel(size, device='cuda')", "SYSTRAN/faster-whisper:faster_whisper/transcribe.py",
     "/w/asr.py | <module> | model = WhisperModel(\"large-v3\", device=\"cuda\", compute_type=\"float16\")", NULL},
    {"llama-cpp-python", "load", "llm = Llama(model_path=..., n_gpu_layers=-1)", "abetlen/llama-cpp-python:llama_cpp/llama.py",
     "/w/chat.py | <module> | llm = Llama(model_path=\"./model.gguf\", n_gpu_layers=-1, n_ctx=32768)", NULL},
    {"sglang", "load", "offline engine llm = sgl.Engine(model_path=...)", "sgl-project/sglang:python/sglang/srt/entrypoints/engine.py",
     "/w/offline.py | main | llm = sgl.Engine(model_path=\"meta-llama/Llama-3.1-8B-Instruct\")", NULL},
    {"mlc-llm", "load", "engine = MLCEngine(model)", "mlc-ai/mlc-llm:python/mlc_llm/serve/engine.py",
     "/w/run.py | <module> | engine = MLCEngine(model)", NULL},
    {"deepspeed-mii", "load", "pipe = mii.pipeline(model_name)", "deepspeedai/DeepSpeed-MII:mii/api.py",
     "/w/serve.py | <module> | pipe = mii.pipeline(\"mistralai/Mistral-7B-v0.1\")", NULL},
    {"onnxruntime", "load", "session = ort.InferenceSession(path, providers=[CUDA])", "microsoft/onnxruntime:onnxruntime/python/onnxruntime_inference_collection.py",
     "/w/infer.py | <module> | session = ort.InferenceSession(\"model.onnx\", providers=[\"CUDAExecutionProvider\"])", NULL},
    {"exllamav2", "generate", "dynamic generator iterate -> model.forward_chunk", "turboderp/exllamav2:exllamav2/generator/dynamic.py",
     "exllamav2/generator/dynamic.py | iterate | results = self.iterate_gen(results)"
     " @@ exllamav2/generator/dynamic.py | iterate_gen | logits = self.model.forward_chunk("
     " @@ exllamav2/model.py | forward_chunk | x = module.forward(x, cache = cache)", NULL},
    {"lmdeploy", "generate", "PyTorch engine _async_loop_background -> model forward", "InternLM/lmdeploy:lmdeploy/pytorch/engine/model_agent.py",
     "lmdeploy/pytorch/engine/model_agent.py | _async_loop_background | await self._async_step_background("
     " @@ lmdeploy/pytorch/engine/model_agent.py | _async_model_forward | output = await self.async_forward("
     " @@ lmdeploy/pytorch/models/llama.py | forward | hidden_states = self.model(", NULL},
    {"tensorrt-llm", "generate", "PyExecutor _executor_loop -> model_engine.forward", "NVIDIA/TensorRT-LLM:tensorrt_llm/_torch/pyexecutor/py_executor.py",
     "tensorrt_llm/_torch/pyexecutor/py_executor.py | _executor_loop | batch_outputs = self._forward_step(scheduled_batch)"
     " @@ tensorrt_llm/_torch/pyexecutor/model_engine.py | forward | outputs = self._forward_step(inputs, gather_ids, gather_context_logits)", NULL},
    {"a1111", "generate", "processing.process_images_inner -> p.sample", "AUTOMATIC1111/stable-diffusion-webui:modules/processing.py",
     "/w/stable-diffusion-webui/modules/processing.py | process_images_inner | samples_ddim = p.sample(conditioning=p.c, unconditional_conditioning=p.uc, seeds=p.seeds)", NULL},
    {"tf1", "load", "sess = tf.Session(config=config) creating the devices", "tensorflow/tensorflow:tensorflow/python/client/session.py",
     "!Traceback (most recent call last):\n"
     "  File \"/w/train.py\", line 61, in <module>\n    sess = tf.Session(config=config)\n"
     "tensorflow.python.framework.errors_impl.InternalError: CUDA runtime implicit initialization on GPU:0 failed. Status: out of memory\n", NULL},
    {"tf-distribute", "load", "tf.distribute.MirroredStrategy() initialising the GPUs", "tensorflow/tensorflow:tensorflow/python/distribute/mirrored_strategy.py",
     "!Traceback (most recent call last):\n"
     "  File \"/w/train.py\", line 20, in main\n    strategy = tf.distribute.MirroredStrategy()\n"
     "tensorflow.python.framework.errors_impl.InternalError: CUDA runtime implicit initialization on GPU:0 failed. Status: out of memory\n", NULL},
    /* torch's ExceptionWrapper line above the re-raised message, no inner
     * frames pasted (the lead, from heldout35 h35-41 after it was opened) */
    {"torch-dataparallel", "forward", "'Caught RuntimeError in replica 0 on device 0.' above the message", "pytorch/pytorch:torch/nn/parallel/parallel_apply.py",
     "!RuntimeError: Caught RuntimeError in replica 0 on device 0.\n\n"
     "RuntimeError: CUDA out of memory. Tried to allocate 4.01 GiB (GPU 0; 11.91 GiB total capacity; 4.89 GiB already allocated; 2.38 GiB free; 4.02 GiB cached)\n", NULL},
    {"torch-dataloader", "data", "'Caught RuntimeError in DataLoader worker process 3.' above the message", "pytorch/pytorch:torch/utils/data/_utils/worker.py",
     "!Traceback (most recent call last):\n"
     "  File \"/w/train.py\", line 88, in <module>\n    main(cfg)\n"
     "RuntimeError: Caught RuntimeError in DataLoader worker process 3.\n"
     "RuntimeError: CUDA error: out of memory\n", NULL},
    {"torch-pin-memory", "data", "'Caught RuntimeError in pin memory thread for device 0.' above the message", "pytorch/pytorch:torch/utils/data/_utils/pin_memory.py",
     "!Traceback (most recent call last):\n"
     "  File \"/w/train.py\", line 88, in <module>\n    main(cfg)\n"
     "RuntimeError: Caught RuntimeError in pin memory thread for device 0.\n"
     "RuntimeError: CUDA error: out of memory\n", NULL},
    /* ---- guards of the mechanisms above (pass on main too) ---- */
    {"hf-trainer", "eval", "guard: compute_metrics stays evaluation ('metric' without 'loss')", "huggingface/transformers:src/transformers/trainer.py",
     "transformers/trainer.py | evaluate | output = eval_loop("
     " @@ transformers/trainer.py | evaluation_loop | metrics = self.compute_metrics("
     " @@ /w/train.py | compute_metrics | logits = torch.cat(all_logits).float()", NULL},
    {"custom", "eval", "guard: eval_loss_metrics stays evaluation (an evaluation word beside 'loss' and 'metric')", "this audit",
     "/w/train.py | main | stats = eval_loss_metrics(model, val_loader)"
     " @@ /w/train.py | eval_loss_metrics | out = model(x)", NULL},
};

static const char oom_message[] =
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
    "79.15 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has 78.12 GiB memory in "
    "use. Of the allocated memory 76.50 GiB is allocated by PyTorch, and 1.10 GiB is reserved by PyTorch but "
    "unallocated.\n";

static const struct audit audit = {audit_rows, sizeof audit_rows / sizeof audit_rows[0], oom_message};

static void test_framework_stages(void **state)
{
    (void)state;
    assert_int_equal(audit_misses(&audit, false), 0);
}

int main(int argc, char **argv)
{
    int rc = audit_main(&audit, argc, argv);
    if (rc >= 0) return rc;
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_framework_stages)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
