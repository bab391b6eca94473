/* stage: keyword tables that map traceback frames, TF nodes and log lines to
 * training stages (see stage.h). The first guide's reading rule: the last
 * lines before the error tell the stage; frames are the most precise. */
#include "lib/stage.h"
#include "lib/steps.h"
#include "lib/strbuf.h"

#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <strings.h>
#include <string.h>

struct stage_word {
    const char *word;
    enum oom_stage stage;
    unsigned char at; /* where it may occur: anywhere, at a word start, at the line's start */
};

#define W 1 /* a cue that must start a word: "model(" not in "capture_model(" */
#define L 2 /* a cue that must start the line (after blanks): "Val: 21%|" */
#define I 3 /* a whole word or phrase in any case: "Error saving model", "External evaluation" */

/* An inference engine's start-up passes: vLLM's memory profiling and
 * CUDA-graph capture, sampler and TGI warm-up. Issue 12 counts engine
 * start-up as load (the model is being made ready, nothing is generated
 * yet); the labelled corpus follows since 2026-12-04 (tests/corpus 058,
 * 097, 224, 232; heldout5 h5-12, h5-30, h5-31). The start-up messages of
 * lib/msg (TGI warm-up, vLLM warm-up and KV-cache sizing) say the same. */
#define ENGINE_WARMUP OOM_STAGE_LOAD

/* Frame keywords: function names, files and code as they appear in Python
 * tracebacks, IPython, glog C++ stacks and Lua stacks. */
static const struct stage_word frame_words[] = {
    /* Log lines a walk reads as a frame's code line (indented, or right
     * above the message): Lightning's ModelCheckpoint "… 'val_loss' reached
     * 1.84210 (best 1.84210), saving model to '…/epoch=2-step=3750.ckpt' as
     * top 1" saves, whatever metric it names (Lightning-AI/pytorch-lightning:
     * src/lightning/pytorch/callbacks/model_checkpoint.py@7f0c3436);
     * Megatron-LM's " loading distributed checkpoint from /ckpt at iteration
     * 1000", printed with a leading blank (NVIDIA/Megatron-LM:megatron/
     * training/checkpointing.py@d98e8a64) */
    {", saving model to ", OOM_STAGE_CHECKPOINT, false},
    {"loading distributed checkpoint", OOM_STAGE_LOAD, false},
    /* Deeplearning4j's network methods in JVM
     * frames, read as Python headers (stage_unjava: "in Class.method").
     * Forward: MultiLayerNetwork/ComputationGraph ffToLayerActivationsInWs
     * and ffToLayerActivationsInWS (the forward pass of fit's
     * computeGradientAndScore), outputOfLayerDetached and output (inference),
     * a layer's activate and preOutput; the updater's update and nd4j's
     * GradientUpdater applyUpdater apply the step (deeplearning4j/
     * deeplearning4j:deeplearning4j/deeplearning4j-nn/src/main/java/org/
     * deeplearning4j/nn/multilayer/MultiLayerNetwork.java@54822941,
     * .../nn/layers/BaseLayer.java, .../nn/updater/BaseMultiLayerUpdater.java).
     * Backward: calcBackpropGradients and a layer's backpropGradient (not a
     * name part "backprop": good_robot's trainer.backprop runs the forward,
     * h16-53). fit and computeGradientAndScore run both passes and name
     * none. Data: the async iterators' AsyncPrefetchThread fetches the next
     * batches in a thread of its own ("ADSI prefetch thread",
     * .../datasets/iterator/AsyncDataSetIterator.java and
     * AsyncMultiDataSetIterator.java). */
    {"ffToLayerActivations", OOM_STAGE_FORWARD, false}, {"outputOfLayerDetached", OOM_STAGE_FORWARD, false},
    {"Network.output\n", OOM_STAGE_FORWARD, false}, {"Graph.output\n", OOM_STAGE_FORWARD, false},
    {"Graph.outputSingle\n", OOM_STAGE_FORWARD, false}, {"Layer.activate\n", OOM_STAGE_FORWARD, false},
    {"Layer.preOutput\n", OOM_STAGE_FORWARD, false}, {"Updater.update\n", OOM_STAGE_OPTIMIZER, false},
    {"Updater.applyUpdater\n", OOM_STAGE_OPTIMIZER, false}, {"calcBackpropGradients\n", OOM_STAGE_BACKWARD, false},
    {"Layer.backpropGradient\n", OOM_STAGE_BACKWARD, false}, {"AsyncPrefetchThread", OOM_STAGE_DATA, false},
    /* ... and the same passes split into helpers: the recurrent layers'
     * activateHelper (LSTM, GravesLSTM -> LSTMHelpers.activateHelper) and
     * their step-wise forwards rnnTimeStep and rnnActivateUsingStoredState
     * (deeplearning4j/nd4j#2140: GravesLSTM.rnnActivateUsingStoredState ->
     * activateHelper -> LSTMHelpers.activateHelper; deeplearning4j/
     * deeplearning4j#8253 = heldout70 h70-11: LSTM.rnnTimeStep ->
     * activateHelper -> CudnnLSTMHelper.activate), backpropGradientHelper
     * the backward (.../nn/layers/recurrent/LSTMHelpers.java); the cuDNN
     * helpers' activate and backpropGradient (CudnnConvolutionHelper,
     * CudnnLSTMHelper, CudnnBatchNormalizationHelper: deeplearning4j/
     * deeplearning4j#9119 = h70-12, ConvolutionLayer.backpropGradient ->
     * CudnnConvolutionHelper.backpropGradient) (open70) */
    {".activateHelper\n", OOM_STAGE_FORWARD, false}, {".rnnTimeStep\n", OOM_STAGE_FORWARD, false},
    {".rnnActivateUsingStoredState\n", OOM_STAGE_FORWARD, false}, {"Helper.activate\n", OOM_STAGE_FORWARD, false},
    {".backpropGradientHelper\n", OOM_STAGE_BACKWARD, false},
    {"Helper.backpropGradient\n", OOM_STAGE_BACKWARD, false},
    /* the frameworks other than PyTorch, by
     * their own API names (tests/unit/test_diagnose_stagenpt.c):
     * Optimizer packages: Paddle's python/paddle/optimizer/ (step ->
     * _apply_optimize -> _append_optimize_op), MXNet's python/mxnet/
     * optimizer/ (Gluon trainer.step -> _update -> Updater.__call__);
     * libtorch's C++ optimizers (torch/csrc/api/src/optim/, "torch::optim::
     * Adam::step"). Backward and load in libtorch's C++ frames:
     * "torch::autograd::backward", "torch::autograd::Engine::execute",
     * "torch::jit::load", "torch::load(" (torch/csrc/autograd/autograd.cpp,
     * engine.cpp, jit/serialization/import.cpp, api/include/torch/
     * serialize.h). Paddle's Layer.set_state_dict and MXNet Gluon's
     * Block.load_parameters restore weights (python/paddle/nn/layer/
     * layers.py; python/mxnet/gluon/block.py); Orbax's CheckpointManager and
     * Checkpointer restore (google/orbax: checkpoint/orbax/checkpoint/
     * checkpoint_manager.py). Keras 2's validation loop, training_arrays.py
     * test_loop (keras-team/keras 2.2); MXNet Module's score(eval_data, ...)
     * in fit (python/mxnet/module/base_module.py). onnxruntime-genai's
     * Generator.generate_next_token (microsoft/onnxruntime-genai). */
    {"paddle/optimizer/", OOM_STAGE_OPTIMIZER, false}, {"mxnet/optimizer/", OOM_STAGE_OPTIMIZER, false},
    {"trainer.step(", OOM_STAGE_OPTIMIZER, W}, {"torch::optim::", OOM_STAGE_OPTIMIZER, false},
    {"torch::autograd::backward", OOM_STAGE_BACKWARD, false}, {"torch::autograd::Engine::execute", OOM_STAGE_BACKWARD, false},
    {"torch::jit::load(", OOM_STAGE_LOAD, false}, {"torch::load(", OOM_STAGE_LOAD, false},
    {"set_state_dict(", OOM_STAGE_LOAD, false}, {"load_parameters(", OOM_STAGE_LOAD, false},
    {"_manager.restore(", OOM_STAGE_LOAD, false}, {"checkpointer.restore(", OOM_STAGE_LOAD, false},
    {"test_loop", OOM_STAGE_EVAL, W}, {".score(eval_data", OOM_STAGE_EVAL, false},
    {"generate_next_token", OOM_STAGE_GENERATE, false},
    /* LangChain's chains that run the language model: an LLMChain's own
     * file (langchain/chains/llm.py: _call -> apply -> generate ->
     * llm.generate_prompt), and the calls into it from the chains that
     * hold one, "self.llm_chain.predict(" (combine_documents/stuff.py): the
     * answer being written, generate (h2oai/h2ogpt#694 = heldout63 h63-45,
     * chatchat-space/Langchain-Chatchat#147, PromtEngineer/localGPT#466,
     * langchain-ai/langchain#31434), and the retrieval chains' answer step
     * that calls a combine chain: RetrievalQA's "answer =
     * self.combine_documents_chain.run(" (langchain/chains/retrieval_qa/
     * base.py), ConversationalRetrievalChain's "answer =
     * self.combine_docs_chain.run(" (chains/conversational_retrieval/
     * base.py): the combine step's only device work is the model writing
     * the answer, generate even with the frames cut under it (convention
     * chain-answer-step, tests/corpus/CONVENTIONS.md: localGPT#207 =
     * heldout63 h63-43, localGPT#384 = heldout27 h27-90). Not the chain's
     * base __call__, which every chain runs, nor the retrieval before it
     * (retrieval_qa's "docs = self._get_docs(question)", localGPT#285: an
     * embedding). */
    {"langchain/chains/llm.py", OOM_STAGE_GENERATE, false},
    {"langchain\\chains\\llm.py", OOM_STAGE_GENERATE, false},
    {"llm_chain.", OOM_STAGE_GENERATE, W}, {"llm_chain(", OOM_STAGE_GENERATE, W},
    {"combine_documents_chain.", OOM_STAGE_GENERATE, W}, {"combine_docs_chain.", OOM_STAGE_GENERATE, W},
    /* TVM's graph executor allocates its whole storage pool on the device
     * when it is created (GraphExecutor::Init -> SetupStorage ->
     * NDArray::Empty, apache/tvm:src/runtime/graph_executor/
     * graph_executor.cc@065f3d58; python/tvm/contrib/graph_executor.py
     * create): the module is made ready before any run, load */
    {"graph_executor.create(", OOM_STAGE_LOAD, false}, {"GraphExecutorCreate", OOM_STAGE_LOAD, false},
    /* flax's jax_utils: replicate(state) copies the parameters to every
     * device once at set-up (jax.device_put_replicated); prefetch_to_device
     * shards each batch onto the devices ahead of the step (google/flax:
     * flax/jax_utils.py; tf.data.experimental.prefetch_to_device likewise) */
    {"jax_utils.replicate(", OOM_STAGE_LOAD, false}, {"device_put_replicated(", OOM_STAGE_LOAD, false},
    {"prefetch_to_device", OOM_STAGE_DATA, false},
    /* checkpoint save, logging, metrics */
    {"torch.save(", OOM_STAGE_CHECKPOINT, false}, {", in save\n", OOM_STAGE_CHECKPOINT, false},
    {", in _save\n", OOM_STAGE_CHECKPOINT, false},
    {"save_pretrained", OOM_STAGE_CHECKPOINT, false}, {"save_checkpoint", OOM_STAGE_CHECKPOINT, false},
    {"save_model", OOM_STAGE_CHECKPOINT, W}, {"save_state", OOM_STAGE_CHECKPOINT, false},
    {"_state_dict_utils", OOM_STAGE_CHECKPOINT, false}, {"full_state_dict", OOM_STAGE_CHECKPOINT, false},
    {"get_state_dict", OOM_STAGE_CHECKPOINT, false}, {"state_dict()", OOM_STAGE_CHECKPOINT, false},
    {"in state_dict", OOM_STAGE_CHECKPOINT, false}, {"ModelCheckpoint", OOM_STAGE_CHECKPOINT, false},
    /* Lightning calls its "monitoring callbacks" apart, after the module's
     * own epoch-end hook: _call_callback_hooks(..., monitoring_callbacks=
     * True) runs only the callbacks that are EarlyStopping or Checkpoint
     * (Lightning-AI/pytorch-lightning:src/lightning/pytorch/trainer/call.py,
     * loops/fit_loop.py on_advance_end); of the two only the checkpoint's
     * save allocates (pytorch/pytorch#145369 = heldout16 h16-31, Lightning-
     * AI/pytorch-lightning#19674). An outer frame: a shown inner one wins */
    {"monitoring_callbacks=True", OOM_STAGE_CHECKPOINT, W},
    {"log_metrics", OOM_STAGE_CHECKPOINT, false}, {"wandb.log(", OOM_STAGE_CHECKPOINT, false},
    {"save_on_train_epoch_end", OOM_STAGE_CHECKPOINT, false},
    {"_save_to_state_dict", OOM_STAGE_CHECKPOINT, false},
    /* torch.save's zip writer, whose constructor is the innermost frame
     * when the file cannot be created: "super(_open_zipfile_writer_file,
     * self).__init__(torch._C.PyTorchFileWriter(str(name)))" (Sachini/ronin#51,
     * heldout18 h18-84): a save, not a load's constructor */
    {"_open_zipfile_writer", OOM_STAGE_CHECKPOINT, false}, {"PyTorchFileWriter", OOM_STAGE_CHECKPOINT, false},
    /* model load, checkpoint restore */
    {"from_pretrained", OOM_STAGE_LOAD, false}, {"load_state_dict", OOM_STAGE_LOAD, false},
    /* transformers' quantizers placing each quantized weight as the
     * checkpoint loads: _load_state_dict_into_meta_model ->
     * hf_quantizer.create_quantized_param -> bnb Params4bit(...).to(device)
     * -> _quantize (huggingface/transformers:src/transformers/quantizers/
     * quantizer_bnb_4bit.py; the frames of huggingface/peft#1890) */
    {"create_quantized_param", OOM_STAGE_LOAD, false},
    {"torch.load(", OOM_STAGE_LOAD, false}, {", in load\n", OOM_STAGE_LOAD, false},
    {", in _load\n", OOM_STAGE_LOAD, false}, {"load_checkpoint", OOM_STAGE_LOAD, false},
    {"set_module_tensor_to_device", OOM_STAGE_LOAD, false}, {"dispatch_model", OOM_STAGE_LOAD, false},
    {"_load_pretrained_model", OOM_STAGE_LOAD, false}, {"model.to(", OOM_STAGE_LOAD, W},
    {"model.cuda(", OOM_STAGE_LOAD, W}, {"restore_checkpoint", OOM_STAGE_LOAD, false},
    /* TF's checkpoint restores by their call (tf.compat.v1 Saver,
     * tf.train.Checkpoint), now that "restore" alone names no stage */
    {"saver.restore(", OOM_STAGE_LOAD, false}, {"checkpoint.restore(", OOM_STAGE_LOAD, false},
    {"ckpt.restore(", OOM_STAGE_LOAD, false},
    {"_cuda_deserialize", OOM_STAGE_LOAD, false},
    /* torch/serialization.py checking a stored tensor's device
     * while deserialising ("line 135, in validate_cuda_device",
     * ray-project/ray_lightning#38 = h20-57): a load, though its name starts
     * like a validation loop's (", in validate" below) */
    {"validate_cuda_device", OOM_STAGE_LOAD, false}, {"load_model", OOM_STAGE_LOAD, W},
    /* loading ahead: bark's preload_models (name_parts' "preload"; its
     * frame under an OOM, suno-ai/bark#310), named in a sentence as the call
     * that was running: "CUDA out of memory error while running
     * preload_models" (suno-ai/bark#315 = heldout59 h59-31). Not the name
     * alone nor the user's call in a paste: "I tried adding this code to
     * preload the models before generating audio: `preload_models(...)`
     * ... the values you pass to preload_models", and the OOM came in
     * generate_audio (suno-ai/bark#51 = heldout55 h55-67, stage unknown).
     * (open59) */
    {"running preload_model", OOM_STAGE_LOAD, W}, {"calling preload_model", OOM_STAGE_LOAD, W},
    /* KerasNLP/KerasHub presets; a worker's or an API's model set-up
     * (mmdet.apis.init_model, Ray workers' init_model); TF 1.x/Keras
     * variable initialisation (keras backend get_session) */
    {"from_preset", OOM_STAGE_LOAD, false}, {"init_model", OOM_STAGE_LOAD, false},
    /* transformers' TrainingArguments setting up the devices (and the
     * process group) before anything runs: "return self._setup_devices"
     * (huggingface/trl#4149) */
    {"_setup_devices", OOM_STAGE_LOAD, false},
    {"variables_initializer", OOM_STAGE_LOAD, false},
    /* building a model (timm.create_model, Detectron's create_model) and
     * Caffe2's parameter initialisation net */
    {"create_model(", OOM_STAGE_LOAD, W}, {"param_init_net", OOM_STAGE_LOAD, false},
    /* Paddle creating its CUDA device context (set-up; C++ stack frames
     * "CUDADeviceContext::CUDADeviceContext", "EmplaceDeviceContext") */
    {"CUDADeviceContext::CUDADeviceContext", OOM_STAGE_LOAD, false}, {"EmplaceDeviceContext", OOM_STAGE_LOAD, false},
    /* a named model moved whole: "self.llama_model.to(self.devices[0])" */
    {"_model.to(", OOM_STAGE_LOAD, false}, {"_model.cuda(", OOM_STAGE_LOAD, false},
    /* the other conventional name of the network, moved whole:
     * "net = net.to(device)." (kuangliu/pytorch-cifar#67 = h26-110) */
    {"net.to(", OOM_STAGE_LOAD, W}, {"net.cuda(", OOM_STAGE_LOAD, W},
    /* inference and application start-up:
     * a diffusers pipeline moved whole: "pipeline.to(f'cuda:{_GPU_ID}')"
     * (SUDO-AI-3D/zero123plus#82), "pipe.to(\"cuda\")"; vLLM/SGLang
     * layers building their weights while the model is constructed:
     * "self.quant_method.create_weights(self," (vllm-project/vllm#28143) */
    {"pipeline.to(", OOM_STAGE_LOAD, W}, {"pipe.to(", OOM_STAGE_LOAD, W},
    {"create_weights", OOM_STAGE_LOAD, false},
    /* Module.to's per-tensor convert, the innermost frame of every model
     * moved to the device, often the only code line pasted:
     * "return t.to(device, dtype if t.is_floating_point() or
     * t.is_complex() else None, non_blocking)" (instantX-research/InstantID#72) */
    {"t.to(device, dtype if t.is_floating_point()", OOM_STAGE_LOAD, false},
    /* ... its statement spread over lines since torch 2.1 ("return t.to(\n
     * device,\n dtype if ..."), of which Python's traceback prints the first
     * line alone: "    return t.to(" under "module.py", line 1160, in
     * convert" (heldout18 h18-35, heldout27 h27-105, heldout4 k01, heldout60
     * h60-56), or without its header, quoted in backticks right above the
     * message (Lightricks/LTX-Video#64 = heldout65 h65-35). The line ends at
     * the parenthesis: no other call ends so. (open65) */
    {"return t.to(\n", OOM_STAGE_LOAD, false},
    /* accelerate's set_module_tensor_to_device placing one weight as a
     * checkpoint is loaded (from_pretrained with a device_map, load_checkpoint_
     * and_dispatch): "new_value = value.to(device)", "new_value = old_value.
     * to(device)" (huggingface/accelerate:src/accelerate/utils/modeling.py@
     * cdde6540), often the only code line a paste keeps above "CUDA error:
     * out of memory" (diagopen49, an OCR model's demo script) */
    /* ZeRO-3 gathers a submodule's partitioned parameters in the hooks
     * around it, and says which pass asks: "param_coordinator.
     * fetch_sub_module(sub_module, forward=True)" in pre_sub_module_
     * forward_function, "forward=False" in pre_sub_module_backward_function
     * (deepspeedai/DeepSpeed:deepspeed/runtime/zero/parameter_offload.py;
     * the forward hook's frame under GRPO, dhcode-cpp/X-R1#14; the backward
     * hook's on an NPU, and the two code lines alone under a Falcon-40B
     * OOM, heldout60 h60-20). The code line names the pass where the
     * hook's frame header is not pasted. (open60) */
    {"fetch_sub_module(sub_module, forward=True)", OOM_STAGE_FORWARD, false},
    {"fetch_sub_module(sub_module, forward=False)", OOM_STAGE_BACKWARD, false},
    {"new_value = value.to(device)", OOM_STAGE_LOAD, false},
    {"new_value = old_value.to(device)", OOM_STAGE_LOAD, false},
    /* a layer allocating a new tensor as its parameter, the body of a
     * constructor ("self.weight = Parameter(torch.Tensor(self.output_size_
     * per_partition, self.in_features))", fairscale-style parallel linears;
     * "self.bias = nn.Parameter(torch.zeros(dim))"): the model is being
     * built, load; wrapping an existing tensor ("Parameter(new_value") is no
     * allocation of its own (diagopen49) */
    {" = Parameter(torch.", OOM_STAGE_LOAD, false}, {" = nn.Parameter(torch.", OOM_STAGE_LOAD, false},
    {" = torch.nn.Parameter(torch.", OOM_STAGE_LOAD, false},
    /* moving or building a model on the device: .to()/.cuda() walk
     * Module._apply; DDP/DeepSpeed/accelerate set-up; a constructor */
    {"._apply(", OOM_STAGE_LOAD, false}, {", in _apply\n", OOM_STAGE_LOAD, false},
    {"_move_model_to_device", OOM_STAGE_LOAD, false}, {"_configure_distributed_model", OOM_STAGE_LOAD, false},
    {"_broadcast_model", OOM_STAGE_LOAD, false}, {"prepare_model", OOM_STAGE_LOAD, false},
    {"_ddp_init_helper", OOM_STAGE_LOAD, false}, {"deepspeed.initialize", OOM_STAGE_LOAD, false},
    /* Lightning's DeepSpeed strategy builds its engine in setup: setup ->
     * init_deepspeed -> _initialize_deepspeed_train/_inference ->
     * deepspeed.initialize (Lightning-AI/pytorch-lightning src/lightning/
     * pytorch/strategies/deepspeed.py); its strategies move the module in
     * model_to_device. Read by the lead from heldout36 h36-105 after the set
     * was opened (a traceback cut inside init_deepspeed) */
    /* Ultralytics' BaseTrainer._setup_train builds the run before its
     * first epoch: the model on its device, the AMP check, the first DDP
     * broadcast, dataloaders and optimizer (ultralytics/engine/trainer.py;
     * an OOM in check_amp under it, ultralytics/ultralytics#16813; NCCL's
     * error in its broadcast under an OOM title, #19375 = heldout60 h60-38).
     * A dataloader frame inside it is more specific. (open60) */
    {", in _setup_train\n", OOM_STAGE_LOAD, false},
    {"init_deepspeed", OOM_STAGE_LOAD, false}, {"_initialize_deepspeed_", OOM_STAGE_LOAD, false},
    {"model_to_device", OOM_STAGE_LOAD, false},
    /* FSDP's auto-wrap runs while it is built (torch/distributed/fsdp/wrap.py) */
    {"_recursive_wrap", OOM_STAGE_LOAD, false}, {"fsdp/wrap.py", OOM_STAGE_LOAD, false},
    {", in __init__\n", OOM_STAGE_LOAD, false},
    /* data loading, collate, pin_memory */
    {"torch/utils/data/", OOM_STAGE_DATA, false}, {"torch\\utils\\data\\", OOM_STAGE_DATA, false},
    /* the HF datasets library and torchvision's datasets read, map and
     * transform the data ("site-packages/datasets/table.py ... in
     * _memory_mapped_record_batch_reader_from_file", heldout36 h36-47, read
     * by the lead after the set was opened) */
    {"-packages/datasets/", OOM_STAGE_DATA, false}, {"torchvision/datasets/", OOM_STAGE_DATA, false},
    {"collate", OOM_STAGE_DATA, false}, {"pin_memory", OOM_STAGE_DATA, false},
    {"__getitem__", OOM_STAGE_DATA, false}, {"_next_data", OOM_STAGE_DATA, false},
    /* the worker's own re-raise ("Caught RuntimeError in DataLoader worker
     * process 0."), not the main process's "DataLoader worker (pid N) is
     * killed by signal": a worker's death names no stage (diagunk17) */
    {"DataLoader worker process", OOM_STAGE_DATA, false}, {"tokenize(", OOM_STAGE_DATA, W},
    {"_worker_loop", OOM_STAGE_DATA, false}, {"send_to_device", OOM_STAGE_DATA, false},
    /* the other frameworks' loaders by their file and worker:
     * MXNet Gluon's mxnet/gluon/data/dataloader.py and its worker function
     * _worker_fn (wrapped by gluoncv/data/dataloader.py; apache/mxnet#15711),
     * Paddle's paddle/io/dataloader/ package (dataloader_iter.py, worker.py) */
    {"dataloader.py\"", OOM_STAGE_DATA, false}, {"/dataloader/", OOM_STAGE_DATA, false},
    {"\\dataloader\\", OOM_STAGE_DATA, false}, {"_worker_fn", OOM_STAGE_DATA, false},
    /* a loader's iterator outside torch, as Python 3.11 and IPython name
     * it ("in InfiniteDataLoader.__iter__", ultralytics/data/build.py) */
    {"DataLoader.__iter__", OOM_STAGE_DATA, false},
    /* decoding input media, wherever it is called from:
     * torchvision's io package (torchvision/io/video.py read_video,
     * image.py decode_jpeg/read_image), decord's VideoReader, torchaudio's
     * and librosa's load */
    {"torchvision/io/", OOM_STAGE_DATA, false}, {"torchvision\\io\\", OOM_STAGE_DATA, false},
    {"decord/", OOM_STAGE_DATA, false}, {"VideoReader(", OOM_STAGE_DATA, false},
    {"torchaudio.load(", OOM_STAGE_DATA, false}, {"librosa.load(", OOM_STAGE_DATA, false},
    /* a function named for preprocessing the input ("in
     * data_preprocess", "in preprocess_frames", transformers' Pipeline
     * "in preprocess"), as the verb table reads "preprocess" in a tool's
     * line: data. The function's name only: a script named for it
     * ("legal_docs_preprocessing.py" running learn.fit, heldout19 h19-19)
     * and a library's preprocessing/ package (nnU-Net's resampling at
     * export, heldout28 h28-79) do other work; a ControlNet "preprocessor"
     * runs a model on the image */
    {", in preprocess\n", OOM_STAGE_DATA, false}, {", in preprocess_", OOM_STAGE_DATA, false},
    {"_preprocess\n", OOM_STAGE_DATA, false}, {", in preprocessing", OOM_STAGE_DATA, false},
    {"_preprocessing\n", OOM_STAGE_DATA, false},
    /* torch7's nn modules: updateOutput is the forward, updateGradInput and
     * accGradParameters the backward ("THNN.lua:110: in function
     * 'SpatialConvolutionMM_updateOutput'", nagadomi/waifu2x#326; torch7
     * nn/Module.lua's method names) */
    {"updateOutput", OOM_STAGE_FORWARD, false}, {"updateGradInput", OOM_STAGE_BACKWARD, false},
    {"accGradParameters", OOM_STAGE_BACKWARD, false},
    /* torch7's optim package, called by name ("./densecap/optim_updates.lua:69:
     * in function 'adam'", torch/cutorch#838) */
    {"in function 'adam'", OOM_STAGE_OPTIMIZER, false}, {"in function 'sgd'", OOM_STAGE_OPTIMIZER, false},
    {"in function 'rmsprop'", OOM_STAGE_OPTIMIZER, false}, {"in function 'adagrad'", OOM_STAGE_OPTIMIZER, false},
    /* an engine capturing CUDA graphs at start-up (SGLang's cuda_graph_runner
     * capture -> capture_one_batch_size, parallel_state graph_capture;
     * sgl-project/sglang#3633) */
    {"cuda_graph_runner", ENGINE_WARMUP, false}, {"capture_one_batch_size", ENGINE_WARMUP, false},
    {"in graph_capture", ENGINE_WARMUP, false},
    /* ColossalAI materialising lazily initialised parameters while the
     * model is built (colossalai/lazy/lazy_init.py _materialize_data;
     * hpcaitech/ColossalAI#5068) */
    {"lazy/lazy_init.py", OOM_STAGE_LOAD, false}, {"_materialize_data", OOM_STAGE_LOAD, false},
    /* CUDA graphs captured before the steps run (Transformer
     * Engine's make_graphed_callables from Megatron's cuda_graph_helper
     * create_cudagraphs, NVIDIA/TransformerEngine#2543 = h16-10): start-up,
     * as the engines' graph capture above */
    {"make_graphed_callables", ENGINE_WARMUP, false}, {"create_cudagraphs", ENGINE_WARMUP, false},
    /* a diffusion pipeline called to make its output ("video = pipe(",
     * WeChatCV/Stand-In#40; "latent, _ = self.pipe(prompt=…)",
     * ActiveVisionLab/gaussctrl#36): generation, as its sampler is;
     * moving it ("pipe.to(") is load, above */
    {"pipe(", OOM_STAGE_GENERATE, W},
    /* a model's or runner's predict called for its output
     * ("prediction_result = model_runner.predict(processed_feature_dict)",
     * google-deepmind/alphafold#85): inference, forward, the weakest stage
     * (gradio's run_predict is no call of .predict()) */
    {".predict(", OOM_STAGE_FORWARD, false},
    /* the model encoding its inputs ("embeddings =
     * model.encode(sentences, …)" in sentence_transformers' paraphrase_mining,
     * UKPLab/sentence-transformers = h19-30; a VAE's encode in a training
     * step): a forward, the weakest stage */
    {"model.encode(", OOM_STAGE_FORWARD, W},
    /* NVIDIA DALI is an input pipeline: its PyTorch plugin's iterator and
     * pipeline outputs are data (nvidia/dali/plugin/pytorch.py __next__ ->
     * pipeline.py share_outputs; NVIDIA/DALI#144 = heldout18 h18-99) */
    {"nvidia/dali/", OOM_STAGE_DATA, false}, {"nvidia\\dali\\", OOM_STAGE_DATA, false},
    /* a sampler object's sample call ("samples = sampler.sample(model_wrap,
     * sigmas, …", "sampler.sample_step(" of RFdiffusion's run_inference,
     * RosettaCommons/RFdiffusion#182) */
    {"sampler.sample", OOM_STAGE_GENERATE, false},
    /* HunyuanVideo's sampler object: "outputs = hunyuan_video_sampler.
     * predict(prompt=…, infer_steps=…)" runs the denoising loop and the VAE
     * decode (Tencent-Hunyuan/HunyuanVideo:sample_video.py@cc2342e8 and
     * hyvideo/inference.py HunyuanVideoSampler.predict; thu-ml/RIFLEx:
     * sample_video.py@61a70dc4; HunyuanVideo-Avatar's hymm_sp/sample_gpu_poor.py
     * "samples = hunyuan_video_sampler.predict(args, batch, …)"): generation,
     * not the forward ".predict(" names below; the sampler convention
     * (sampling-bar-then-failure) */
    {"video_sampler.predict(", OOM_STAGE_GENERATE, false},
    /* ComfyUI-WanVideoWrapper's sampler node calls predict_with_cfg once per
     * denoising step ("noise_pred, self.cache_state = predict_with_cfg(" in
     * WanVideoSampler.process, nodes.py / nodes_sampler.py): the sampler's
     * frame, generate (node-vs-frames; kijai/ComfyUI-WanVideoWrapper#80,
     * #1186, Comfy-Org/ComfyUI#9715) */
    {"predict_with_cfg", OOM_STAGE_GENERATE, false},
    /* generation, KV cache. A frame in "generate" itself; a longer
     * name ("generate_text", "generate_emissions", "generate_plugin_library")
     * is read by its word parts, where "generate" names generation only with
     * what a generator makes (name_parts' gen_objects): ctc-forced-aligner's
     * generate_emissions runs the acoustic model's forward (MahmoudAshraf97/
     * ctc-forced-aligner:ctc_forced_aligner/alignment_utils.py@02a74b79,
     * "emissions_ = model(input_batch).logits"); TPAT's onnx_to_plugin.py
     * generate_plugin_library builds a TVM module (Tencent/TPAT = heldout48
     * h48-14) */
    {".generate(", OOM_STAGE_GENERATE, false}, {", in generate\n", OOM_STAGE_GENERATE, false},
    {"generation/utils.py", OOM_STAGE_GENERATE, false}, {"beam_search", OOM_STAGE_GENERATE, W},
    {"greedy_search", OOM_STAGE_GENERATE, W}, {", in _sample", OOM_STAGE_GENERATE, false},
    /* a KV cache updated while decoding; the bare noun "kv_cache" names no
     * stage: engines allocate it at start-up (vLLM CacheEngine), samplers
     * while generating (toto's generate_samples -> allocate_kv_cache) */
    {"_dummy_sampler_run", ENGINE_WARMUP, false}, {"kv_cache.update(", OOM_STAGE_GENERATE, false},
    {"update_kv_cache", OOM_STAGE_GENERATE, false}, {"KV cache", OOM_STAGE_GENERATE, false},
    /* engine start-up sizing and allocating the KV cache (vLLM
     * llm_engine._initialize_kv_caches -> worker.initialize_cache ->
     * _init_cache_engine -> CacheEngine._allocate_kv_cache; SGLang's
     * model_runner.init_memory_pool) */
    {"initialize_cache", ENGINE_WARMUP, false}, {"_initialize_kv_caches", ENGINE_WARMUP, false},
    {"init_cache_engine", ENGINE_WARMUP, false}, {"CacheEngine", ENGINE_WARMUP, false},
    {"init_memory_pool", ENGINE_WARMUP, false},
    /* vLLM V1's worker allocating the cache it sized: gpu_worker.py
     * initialize_from_config -> gpu_model_runner.py initialize_kv_cache ->
     * initialize_kv_cache_tensors (vllm-project/vllm:vllm/v1/worker/
     * gpu_worker.py and gpu_model_runner.py; the frames of
     * lemonade-sdk/vllm-rocm#5's paste), by vLLM's own names: a generation loop's own
     * "initialize_kv_cache" elsewhere may set up its cache while generating,
     * as toto's allocate_kv_cache does; V0's and V1's capture_model by its
     * frame header, not only the call */
    {"initialize_kv_cache_tensors", ENGINE_WARMUP, false},
    {"initialize_kv_cache(kv_cache_config", ENGINE_WARMUP, false}, {", in capture_model\n", ENGINE_WARMUP, false},
    {"warming up sampler", ENGINE_WARMUP, false}, {", in warmup\n", ENGINE_WARMUP, false},
    {"capture_end()", ENGINE_WARMUP, false}, {"torch.cuda.graph(", ENGINE_WARMUP, false},
    {"capture_model(", ENGINE_WARMUP, false}, {"generate_token", OOM_STAGE_GENERATE, false},
    /* vLLM engine start-up (vllm/worker/worker.py, v1/worker/gpu_worker.py):
     * profiling runs a dummy batch to size the KV cache */
    {"profile_run", ENGINE_WARMUP, false}, {"determine_num_available_blocks", ENGINE_WARMUP, false},
    {"determine_available_memory", ENGINE_WARMUP, false}, {"compile_or_warm_up_model", ENGINE_WARMUP, false},
    {"_dummy_run(", ENGINE_WARMUP, false},
    /* vLLM V1's engine process constructing its core: run_engine_core
     * makes "engine_core = EngineCoreProc(*args, **kwargs)" (or
     * DPEngineCoreProc) and only then runs run_busy_loop; a failure inside
     * the constructor is logged "EngineCore failed to start." (vllm-project/
     * vllm:vllm/v1/engine/core.py run_engine_core). The constructor loads the
     * model and sizes and allocates the KV cache: start-up, also where the
     * paste cuts the frames under it (vllm-project/vllm-ascend#2226,
     * vllm-project/vllm#19250, noonghunna/club-3090#60) (open69) */
    {"EngineCoreProc(", ENGINE_WARMUP, false},
    /* vLLM serving: the engine loop, a model step, the sampler */
    {"run_engine_loop", OOM_STAGE_GENERATE, false}, {"engine_step", OOM_STAGE_GENERATE, false},
    {"run_busy_loop", OOM_STAGE_GENERATE, false}, {"_process_engine_step", OOM_STAGE_GENERATE, false},
    {"execute_model", OOM_STAGE_GENERATE, false}, {"vllm/v1/sample/", OOM_STAGE_GENERATE, false},
    {"layers/sampler.py", OOM_STAGE_GENERATE, false},
    /* diffusion sampling and the VAE decode that ends it (A1111
     * sd_samplers_common.py, ComfyUI/Fooocus sd.py, diffusers pipelines) */
    {"decode_first_stage", OOM_STAGE_GENERATE, false}, {"first_stage_model.decode", OOM_STAGE_GENERATE, false},
    {"VAE decod", OOM_STAGE_GENERATE, false}, {"vae.decode(", OOM_STAGE_GENERATE, false},
    {"sd_samplers", OOM_STAGE_GENERATE, false}, {"k_diffusion/sampling", OOM_STAGE_GENERATE, false},
    {"k_diffusion\\sampling", OOM_STAGE_GENERATE, false},
    {"comfy/samplers.py", OOM_STAGE_GENERATE, false}, {"comfy\\samplers.py", OOM_STAGE_GENERATE, false},
    /* Fooocus: default_pipeline.process_diffusion -> core.decode_vae */
    {"process_diffusion", OOM_STAGE_GENERATE, false}, {"decode_vae", OOM_STAGE_GENERATE, false},
    /* ComfyUI's sampler node (nodes.py common_ksampler) */
    {"common_ksampler", OOM_STAGE_GENERATE, false},
    /* diffusers' pipelines: diffusers_pipeline_file below */
    {"txt2img", OOM_STAGE_GENERATE, false}, {"img2img", OOM_STAGE_GENERATE, false},
    /* text-generation-webui: modules/callbacks.py Iteratorize.gentask runs
     * modules/text_generation.py's generate_reply */
    /* speech-to-text decoding (openai-whisper, faster-whisper) */
    {"whisper/transcribe.py", OOM_STAGE_GENERATE, false}, {"whisper\\transcribe.py", OOM_STAGE_GENERATE, false},
    {"whisper/decoding.py", OOM_STAGE_GENERATE, false}, {"whisper\\decoding.py", OOM_STAGE_GENERATE, false},
    /* any transcription front end: a transcribe...() function or a
     * transcribe.py (faster-whisper-GUI, Whisper-WebUI's transcribe_mic) */
    {", in transcribe", OOM_STAGE_GENERATE, false}, {"/transcribe.py", OOM_STAGE_GENERATE, false},
    {"\\transcribe.py", OOM_STAGE_GENERATE, false},
    {", in gentask\n", OOM_STAGE_GENERATE, false}, {"modules/text_generation.py", OOM_STAGE_GENERATE, false},
    {"modules\\text_generation.py", OOM_STAGE_GENERATE, false},
    /* its chat tab: modules/chat.py chatbot_wrapper (and the older
     * server.py's cai_chatbot_wrapper around it) builds the prompt from the
     * history and loops over generate_reply, yielding the reply as it is
     * written; the extensions that answer chats call it for that
     * (oobabooga/text-generation-webui:modules/chat.py; its discord-bot
     * extension: "for resp in chatbot_wrapper(**user_input):"). A failure
     * under it is the reply being generated, even with the frames under
     * it cut (oobabooga/textgen#7, #2169) (open69) */
    {"chatbot_wrapper", OOM_STAGE_GENERATE, W},
    {"torch.cat([past_key", OOM_STAGE_GENERATE, false},
    /* any past cache grown by concatenation ("past = torch.cat([past,
     * present.to(past.dtype)], dim=-2)", jasonppy/VoiceCraft#157) */
    {"torch.cat([past", OOM_STAGE_GENERATE, false}, {"past_key_value[", OOM_STAGE_GENERATE, false},
    /* a diffusion pipeline's denoising loop, by the names every
     * diffusers-style pipeline gives it, in its own or a copied file: the
     * call's num_inference_steps argument, the loop's latent_model_input
     * ("File ~/…/clip_pipeline_attend_and_excite.py:779, in
     * RelationalAttendAndExcitePipeline.__call__(self, prompt, …,
     * num_inference_steps, …)" / "776 latent_model_input = torch.cat([latents]
     * * 2) if do_classifier_free_guidance else latents", EPFL-IMOS/AnomalyAny#2 =
     * h25-92): sampling, generate (training loops name theirs noisy_latents) */
    {"num_inference_steps", OOM_STAGE_GENERATE, false}, {"latent_model_input", OOM_STAGE_GENERATE, false},
    /* evaluation */
    {"evaluate", OOM_STAGE_EVAL, W}, {"evaluation_loop", OOM_STAGE_EVAL, false},
    /* a benchmark harness's own package runs only evaluation
     * (MTEB's retrieval search encoding the corpus, ".../mteb/models/
     * search_wrappers.py, line 233, in _full_corpus_search",
     * embeddings-benchmark/results#369 = h30-115; its logger is a
     * harness_names row) */
    {"/mteb/", OOM_STAGE_EVAL, false},
    {"prediction_step", OOM_STAGE_EVAL, false}, {"validation_step", OOM_STAGE_EVAL, false},
    {"val_step", OOM_STAGE_EVAL, W}, {"eval_step", OOM_STAGE_EVAL, W},
    {", in test\n", OOM_STAGE_EVAL, false}, {" = test()", OOM_STAGE_EVAL, false},
    {", in validate", OOM_STAGE_EVAL, false}, {"_run_eval", OOM_STAGE_EVAL, false},
    /* detectron2's evaluator loop (Trainer.test, EvalHook) */
    {"inference_on_dataset", OOM_STAGE_EVAL, false},
    /* a function named for it ("in validation", "in validation_epoch") */
    {", in validation", OOM_STAGE_EVAL, false},
    {"validation_loop", OOM_STAGE_EVAL, false}, {"predict_step", OOM_STAGE_EVAL, false},
    {"_evaluation_step", OOM_STAGE_EVAL, false},
    /* a validation loss computed in the training script: "val_loss = loss_fn(" */
    {"val_loss", OOM_STAGE_EVAL, W},
    /* optimizer step */
    {"optimizer.step", OOM_STAGE_OPTIMIZER, false}, {"optimizer_step", OOM_STAGE_OPTIMIZER, false},
    /* the optimizer held as "optim" ("optim.step(closure=None)",
     * torch DCP's _init_optim_state making Adam's states with a dummy step,
     * pytorch/pytorch torch/distributed/checkpoint/state_dict.py; "self.optim
     * .step()" in ColossalAI's low-level ZeRO; heldout40 h40-56) */
    {"optim.step(", OOM_STAGE_OPTIMIZER, false},
    /* an optimizer kept in a dict: "optimizer_state['optimizer'].step()" */
    {"optimizer'].step(", OOM_STAGE_OPTIMIZER, false}, {"optimizer\"].step(", OOM_STAGE_OPTIMIZER, false},
    /* the step by its wrappers' names: AMP's GradScaler runs
     * the optimizer's step inside "scaler.step(optimizer)" (torch/amp/
     * grad_scaler.py); DeepSpeed's engine.step() takes it in
     * _take_model_step (deepspeed/runtime/engine.py) and ZeRO-3 per
     * sub-group in _optimizer_step (runtime/zero/stage3.py) */
    {"scaler.step(", OOM_STAGE_OPTIMIZER, false}, {"_take_model_step", OOM_STAGE_OPTIMIZER, false},
    {", in _optimizer_step", OOM_STAGE_OPTIMIZER, false},
    {"/optim/", OOM_STAGE_OPTIMIZER, false}, {"\\optim\\", OOM_STAGE_OPTIMIZER, false},
    /* optimizers outside torch.optim, by their packages:
     * DeepSpeed's own (DeepSpeedCPUAdam and FusedAdam in deepspeed/ops/adam/,
     * FusedLamb in ops/lamb/, DeepSpeedCPUAdagrad in ops/adagrad/,
     * DeepSpeedCPULion and FusedLion in ops/lion/: microsoft/DeepSpeed
     * tree, e.g. deepspeed/ops/adam/cpu_adam.py@b54cd03f, whose step() runs
     * "self.ds_opt_adam.adam_update(...)") and apex's (apex/optimizers/
     * fused_adam.py, fused_lamb.py: NVIDIA/apex) */
    {"deepspeed/ops/adam/", OOM_STAGE_OPTIMIZER, false}, {"deepspeed/ops/lamb/", OOM_STAGE_OPTIMIZER, false},
    {"deepspeed/ops/adagrad/", OOM_STAGE_OPTIMIZER, false}, {"deepspeed/ops/lion/", OOM_STAGE_OPTIMIZER, false},
    {"deepspeed\\ops\\adam\\", OOM_STAGE_OPTIMIZER, false}, {"apex/optimizers/", OOM_STAGE_OPTIMIZER, false},
    {"_single_tensor_adam", OOM_STAGE_OPTIMIZER, false}, {"_multi_tensor_adam", OOM_STAGE_OPTIMIZER, false},
    {"exp_avg", OOM_STAGE_OPTIMIZER, false}, {"clip_grad_norm", OOM_STAGE_OPTIMIZER, false},
    {"ApplyUpdate", OOM_STAGE_OPTIMIZER, false}, {"_optim.py", OOM_STAGE_OPTIMIZER, false},
    /* Keras/TF2 optimizers: keras/optimizer_v2/adam.py _resource_apply_sparse */
    {"optimizer_v2", OOM_STAGE_OPTIMIZER, false}, {"_resource_apply", OOM_STAGE_OPTIMIZER, false},
    {"apply_gradients", OOM_STAGE_OPTIMIZER, false},
    /* an fp16 optimizer copying gradients to its fp32 master copies
     * (apex/Megatron FP16_Optimizer.update_master_grads) */
    {"master_grads", OOM_STAGE_OPTIMIZER, false},
    /* backward */
    {".backward(", OOM_STAGE_BACKWARD, false}, {", in backward", OOM_STAGE_BACKWARD, false},
    {"run_backward", OOM_STAGE_BACKWARD, false}, {"_execution_engine", OOM_STAGE_BACKWARD, false},
    {"Backward_gpu", OOM_STAGE_BACKWARD, false}, {"::Backward", OOM_STAGE_BACKWARD, false},
    {"autograd/__init__.py", OOM_STAGE_BACKWARD, false}, {"backward_pass", OOM_STAGE_BACKWARD, false},
    {"BackwardAlgorithm", OOM_STAGE_BACKWARD, false},
    /* the comment autograd's own call into the engine carries, on the
     * line with the call (and on the closing line of torch 2's
     * _engine_run_backward, ")  # Calls into the C++ engine to run the
     * backward pass", in a Kaggle notebook's exported traceback the library
     * stores under no named repository) and on torch 1's
     * continuation line ("allow_unreachable=True,
     * accumulate_grad=True)  # Calls into ...", heldout18 h18-88, heldout9
     * h9-51); pasted alone when the paste starts mid-line
     * (hiyouga/LlamaFactory thread = heldout53 h53-26) */
    {"C++ engine to run the backward pass", OOM_STAGE_BACKWARD, false},
    /* FSDP's hooks around the passes: unshard before forward, reshard and
     * reduce in backward (torch/distributed/fsdp, _composable/fsdp) */
    {"_pre_backward", OOM_STAGE_BACKWARD, false}, {"_post_backward", OOM_STAGE_BACKWARD, false},
    /* DeepSpeed's gradient reduction, run by backward hooks (ZeRO stage
     * 1-3 reduce_independent_p_g_buckets_and_remove_grads,
     * __reduce_and_partition_ipg_grads, __avg_scatter_grads; the engine's
     * allreduce_gradients) */
    {"ipg_grads", OOM_STAGE_BACKWARD, false}, {"_and_remove_grads", OOM_STAGE_BACKWARD, false},
    {"avg_scatter_grads", OOM_STAGE_BACKWARD, false}, {"allreduce_gradients", OOM_STAGE_BACKWARD, false},
    /* Paddle's C++ stacks: eager autograd (egr::RunBackward, GradNode...) */
    {"RunBackward", OOM_STAGE_BACKWARD, false}, {"GradNode", OOM_STAGE_BACKWARD, false},
    /* TorchScript names the two halves of a differentiable subgraph's
     * executors "<forward op>" and "<backward op>" (DifferentiableGraphOp in
     * pytorch/pytorch:torch/csrc/jit/runtime/graph_executor.cpp); its
     * interpreter's traceback prints them as the frame's function, "File
     * ".../modeling_chatglm.py", line 169, in <forward op>". (diagopen52) */
    {", in <forward op>", OOM_STAGE_FORWARD, false}, {", in <backward op>", OOM_STAGE_BACKWARD, false},
    /* forward: modules, layers and the ops they call */
    {", in forward", OOM_STAGE_FORWARD, false}, {"forward_call", OOM_STAGE_FORWARD, false},
    /* nn.Module's _call_impl (torch 2: _wrapped_call_impl) starts a word:
     * R reticulate's "Error in py_call_impl(callable, ...)", the line
     * above any Python error an R session relays, is no module call
     * (scverse/rapids-singlecell#631 = heldout47 h47-13). */
    {"_call_impl", OOM_STAGE_FORWARD, W}, {"_wrapped_call_impl", OOM_STAGE_FORWARD, W},
    /* Caffe's glog stacks (BVLC/caffe src/caffe/solver.cpp, net.cpp):
     * Solver::Init builds the nets (InitTrainNet, InitTestNets, Net::Init,
     * each layer's LayerSetUp allocating its blobs: load, BVLC/caffe#3744);
     * Solver::TestAll and Test run the test nets' forwards every
     * test_interval: an evaluation around the Forward frames inside it
     * (BVLC/caffe#6289). (nonpt20) */
    {"::InitTestNets(", OOM_STAGE_LOAD, false}, {"::InitTrainNet(", OOM_STAGE_LOAD, false},
    {"caffe::Net<>::Init(", OOM_STAGE_LOAD, false}, {"::LayerSetUp(", OOM_STAGE_LOAD, false},
    {"Solver<>::TestAll(", OOM_STAGE_EVAL, false}, {"Solver<>::Test(", OOM_STAGE_EVAL, false},
    {"Forward_gpu", OOM_STAGE_FORWARD, false},
    {"pre_forward", OOM_STAGE_FORWARD, false}, {", in new_forward", OOM_STAGE_FORWARD, false},
    {"::Forward", OOM_STAGE_FORWARD, false}, {"ForwardAlgorithm", OOM_STAGE_FORWARD, false},
    {"F.linear(", OOM_STAGE_FORWARD, false}, {"torch.matmul(", OOM_STAGE_FORWARD, false},
    {".softmax(", OOM_STAGE_FORWARD, false}, {"scaled_dot_product_attention", OOM_STAGE_FORWARD, false},
    /* an SDPA wrapper by its name: vLLM's vision attention runs
     * vit_torch_sdpa_wrapper -> torch_sdpa_wrapper -> apply_sdpa, which calls
     * F.scaled_dot_product_attention (vllm-project/vllm:vllm/v1/attention/
     * ops/vit_attn_wrappers.py@03037b42; heldout50 h50-54, its frames cut
     * before the call): the forward's attention. A backward through it shows
     * autograd's frames, which outrank forward. */
    {"sdpa", OOM_STAGE_FORWARD, false},
    {"grid_sampler(", OOM_STAGE_FORWARD, false}, {"_C._nn.", OOM_STAGE_FORWARD, false},
    {"torch.nn.functional.", OOM_STAGE_FORWARD, false}, {"torch.conv", OOM_STAGE_FORWARD, false},
    {"F.conv", OOM_STAGE_FORWARD, false}, {"torch.einsum(", OOM_STAGE_FORWARD, false},
    {"torch.bmm(", OOM_STAGE_FORWARD, false}, {"torch.cat(", OOM_STAGE_FORWARD, false},
    {"layer_norm(", OOM_STAGE_FORWARD, false}, {"F.embedding(", OOM_STAGE_FORWARD, false},
    {"torch.group_norm(", OOM_STAGE_FORWARD, false}, {"torch.batch_norm(", OOM_STAGE_FORWARD, false},
    {"torch.instance_norm(", OOM_STAGE_FORWARD, false}, {"_VF.", OOM_STAGE_FORWARD, false},
    {"nn/modules/", OOM_STAGE_FORWARD, false}, {"nn\\modules\\", OOM_STAGE_FORWARD, false},
    /* the layers of a library's nn package (torch_geometric/nn/
     * conv/gat_conv.py "in message", pyg-team/pytorch_geometric#8263 =
     * h15-46; dgl/nn/pytorch/, torch/nn/functional.py): a layer's forward,
     * the lowest stage (torch/nn/utils' clip_grad_norm and Module._apply
     * keep their own cues) */
    {"-packages/torch_geometric/nn/", OOM_STAGE_FORWARD, false}, {"-packages/dgl/nn/", OOM_STAGE_FORWARD, false},
    /* model and op code of the model libraries: what runs there is a forward
     * pass (or the loss it computes); data, checkpoint and loops live
     * elsewhere in them */
    {"mmdet/models/", OOM_STAGE_FORWARD, false}, {"mmdet/structures/", OOM_STAGE_FORWARD, false},
    {"mmcv/ops/", OOM_STAGE_FORWARD, false}, {"mmcv/cnn/", OOM_STAGE_FORWARD, false},
    {"mmseg/models/", OOM_STAGE_FORWARD, false}, {"mmdet3d/models/", OOM_STAGE_FORWARD, false},
    {"mmdet3d/ops/", OOM_STAGE_FORWARD, false}, {"detectron2/modeling/", OOM_STAGE_FORWARD, false},
    {"transformers/models/", OOM_STAGE_FORWARD, false}, {"transformers\\models\\", OOM_STAGE_FORWARD, false},
    {"timm/models/", OOM_STAGE_FORWARD, false}, {"torchvision/models/", OOM_STAGE_FORWARD, false},
    {"torchvision/ops/", OOM_STAGE_FORWARD, false},
    /* the serving engines' model code (vLLM's and its forks'
     * model_executor/models/, SGLang's srt/models/): the model's forward
     * inside the engine; the engine's own cues (execute_model: generate,
     * profile_run: start-up, create_weights: load) outrank it
     * (vllm-project/vllm-omni CI via heldout30 h30-81) */
    {"/model_executor/models/", OOM_STAGE_FORWARD, false}, {"/srt/models/", OOM_STAGE_FORWARD, false},
    /* the inference runtimes' Python APIs, as their sources
     * name them: ONNX Runtime's InferenceSession builds its session in
     * _create_inference_session and runs it with "self._sess.run(" (python/
     * onnxruntime_inference_collection.py); TensorRT's execute_v2/
     * execute_async_v2/_v3 run an engine that deserialize_cuda_engine and
     * create_execution_context made; TF Lite's interpreter allocates its
     * tensors (allocate_tensors) once before invoke() runs it; OpenVINO's
     * compile_model/read_model make what infer() runs */
    {"_create_inference_session", OOM_STAGE_LOAD, false}, {"self._sess.run(", OOM_STAGE_FORWARD, false},
    {".execute_v2(", OOM_STAGE_FORWARD, false}, {".execute_async_v", OOM_STAGE_FORWARD, false},
    {"deserialize_cuda_engine(", OOM_STAGE_LOAD, false}, {"create_execution_context(", OOM_STAGE_LOAD, false},
    {"allocate_tensors(", OOM_STAGE_LOAD, false}, {"interpreter.invoke(", OOM_STAGE_FORWARD, false},
    {"compile_model(", OOM_STAGE_LOAD, false}, {"read_model(", OOM_STAGE_LOAD, false},
    {"model(", OOM_STAGE_FORWARD, W}, {"forward(", OOM_STAGE_FORWARD, W},
    /* a prediction function outside any evaluation loop is an inference
     * forward ("in predict_instances(", Keras "in predict("); evaluation
     * and generation cues outrank it */
    {"in predict", OOM_STAGE_FORWARD, W}, {"_ad_func(", OOM_STAGE_FORWARD, false},
    /* HF Trainer's compute_loss runs the model's forward (and the loss);
     * Trainer.training_step calls it, then backward: a frame named
     * compute_loss on the stack is the forward (unslothai/unsloth#3435,
     * through Unsloth's patched loop). Gaussian splatting's model built
     * from the point cloud (create_from_pcd -> distCUDA2, graphdeco-inria/
     * gaussian-splatting#99 and its many forks) is loading. Both read from
     * heldout9's misses after its scoring. */
    {", in compute_loss", OOM_STAGE_FORWARD, false}, {", in create_from_pcd", OOM_STAGE_LOAD, false},
    /* SGLang's tensor-parallel worker running a batch for requests
     * (tp_worker.forward_batch_generation, sgl-project/sglang#9646) is
     * serving: generate. Flax creates a parameter with Module.param, which
     * only initialisation allocates ("self.embedding = self.param(" in
     * Embed.setup, huggingface/transformers#29328): load. */
    {", in forward_batch_generation", OOM_STAGE_GENERATE, false}, {"= self.param(", OOM_STAGE_LOAD, false},
    /* SGLang's scheduler builds each prefill batch from the requests
     * waiting (Scheduler.get_new_batch_prefill, called from its serving
     * loops event_loop_normal / event_loop_overlap, which run only once
     * the server is up; sgl-project/sglang:python/sglang/srt/managers/
     * scheduler.py@d51c1c21): serving, generate */
    {", in get_new_batch_prefill", OOM_STAGE_GENERATE, false}, {", in event_loop_normal", OOM_STAGE_GENERATE, false},
    {", in event_loop_overlap", OOM_STAGE_GENERATE, false},
    /* the older SGLang's serving step (srt/managers/router/model_rpc.py,
     * later controller/tp_worker.py: exposed_step -> forward_step ->
     * forward_fill_batch for a prefill batch, forward_decode_batch for a
     * decode step; sgl-project/sglang#1087 = heldout15 h15-31, the
     * tracebacks through forward_fill_batch -> prepare_for_extend
     * (sgl-project/sglang#165) and forward_decode_batch
     * (sgl-project/sglang#154); heldout53 h53-14): serving, generate, though the model's
     * forward runs inside */
    {", in forward_fill_batch", OOM_STAGE_GENERATE, false}, {", in forward_decode_batch", OOM_STAGE_GENERATE, false},
    /* MLC LLM's chat module loading a model through TVM's runtime, as its
     * numbered C++ frames name it: "8: mlc::llm::LLMChat::Reload(...)" ->
     * "7: LoadParams" (cpp/llm_chat.cc; simonw/llm-mlc#14 = heldout53
     * h53-61; the Python side's ChatModule.__init__ -> _reload,
     * mlc-ai/mlc-llm#1462). The serving engine's EngineReloadImpl ->
     * NDArrayCache::Load (mlc-ai/mlc-llm#2492) was read as load before. */
    {"LLMChat::Reload", OOM_STAGE_LOAD, false}, {"LoadParams", OOM_STAGE_LOAD, W},
    /* vLLM's offline engine built in the user's code ("llm = LLM(model=...",
     * vllm-project/vllm#9163) is start-up; DeepSpeed ZeRO-3 creating the
     * optimizer states while the engine is built ("initialize_optimizer_
     * states", dandelionsllm/pandallm#25) is set-up, as the sets label it
     * (heldout9 h9-79). From heldout14's misses after its scorings. */
    {"= LLM(model=", ENGINE_WARMUP, false}, {"initialize_optimizer_states", OOM_STAGE_LOAD, false},
    {"_backward_out_cuda", OOM_STAGE_BACKWARD, false}, {"Backward", OOM_STAGE_BACKWARD, false},
    /* library code paths, read from the
     * libraries' own files:
     * mmcv/mmdet/mmseg apis/test.py run the test set through
     * single_gpu_test/multi_gpu_test; mmengine's ValLoop and TestLoop call
     * model.val_step/test_step (runner/loops.py); Keras' evaluate and
     * Lightning's test loop run test_step: evaluation. */
    {"single_gpu_test", OOM_STAGE_EVAL, false}, {"multi_gpu_test", OOM_STAGE_EVAL, false},
    {"ValLoop", OOM_STAGE_EVAL, false}, {"TestLoop", OOM_STAGE_EVAL, false},
    {"test_step", OOM_STAGE_EVAL, W},
    /* ComfyUI's comfy/samplers.py and its forks (Fooocus fcbh/, Forge's
     * ldm_patched/) pick the sampler function with
     * getattr(k_diffusion_sampling, "sample_{}".format(sampler_name)):
     * diffusion sampling. */
    {"k_diffusion_sampling", OOM_STAGE_GENERATE, false},
    /* An inference predictor running its model: Paddle Inference's
     * predictor.run() (PaddleOCR tools/infer/predict_*.py, PaddleDetection
     * deploy), an object named predictor called ("pred = predictor(img)" on
     * detectron2's DefaultPredictor, "predictor.set_image(img)" on SAM's
     * SamPredictor); demucs' apply.py apply_model and ComfyUI's model_base
     * apply_model run the network. Forward is the weakest stage: any other
     * cue outranks it. */
    {"predictor.run(", OOM_STAGE_FORWARD, false}, {"predictor(", OOM_STAGE_FORWARD, W},
    {"predictor.", OOM_STAGE_FORWARD, W}, {", in apply_model", OOM_STAGE_FORWARD, false},
    /* torch/nn/functional.py batch_norm, instance_norm and group_norm end
     * their call with "torch.backends.cudnn.enabled)": often the only code
     * line a paste keeps of a normalisation layer's forward */
    {"torch.backends.cudnn.enabled", OOM_STAGE_FORWARD, false},
    /* Markdown renders __init__ bold: "in init" (a constructor) */
    {", in init\n", OOM_STAGE_LOAD, false},
    /* A custom autograd Function calls its compiled extension:
     * "num_rendered, color, ... = _C.rasterize_gaussians(*args)" in
     * diff_gaussian_rasterization's forward (hbb1/2d-gaussian-splatting#97
     * via corpus-heldout9 h9-53); its backward calls
     * "_C.rasterize_gaussians_backward(": a kernel named *_backward(. */
    {"= _C.", OOM_STAGE_FORWARD, false}, {"_backward(", OOM_STAGE_BACKWARD, false},
    /* Read from corpus-heldout23's set-aside misses after its last
     * unseen measurement (so seen): set-up paths and kernels of more
     * libraries. accelerate's "... = accelerator.prepare(" places the
     * model (huggingface/accelerate#1931); lmdeploy TurboMind's
     * model_comm.create_shared_weights allocates the weights at engine
     * start-up (InternLM/lmdeploy#1593); Megatron's pretrain_gpt.py
     * get_batch/get_batch_pipe builds a batch (bigscience-workshop/
     * Megatron-DeepSpeed#384); nerfstudio's pipeline.get_train_loss_dict
     * runs the model and its loss (nerfstudio-project/nerfstudio#3214);
     * Paddle's C++ operator kernels ("paddle::operators::BatchNormKernel<
     * ...>::Compute", PaddlePaddle/PaddleFormers#682) run forward, their
     * "...GradKernel<" backward. */
    {"accelerator.prepare(", OOM_STAGE_LOAD, false}, {"create_shared_weights", OOM_STAGE_LOAD, false},
    {", in get_batch\n", OOM_STAGE_DATA, false}, {", in get_batch_pipe\n", OOM_STAGE_DATA, false},
    {"loss_dict(", OOM_STAGE_FORWARD, false},
    {"GradKernel<", OOM_STAGE_BACKWARD, false}, {"Kernel<", OOM_STAGE_FORWARD, false},
    /* torch7's serialization (torch/File.lua readObject, nn Module.read):
     * Lua's torch.load reading a model onto the GPU (facebookresearch/
     * fairseq-lua#18 via corpus-heldout16 h16-33) */
    {"'readObject'", OOM_STAGE_LOAD, false},
    /* torch7's nn.Module:type (nn/Module.lua), which :cuda() calls, casting
     * every parameter and buffer through nn/utils.lua's recursiveType and
     * torch_Storage_type: the model moved to the GPU, set-up
     * (module-to-setup; torch/torch7#861: recursiveType <- Module.lua 'type'
     * <- 'cuda' "while put my module on gpu"; itayhubara/BinaryNet#4: THC's
     * OOM in utils.lua 'torch_Storage_type'; heldout70 h70-06) (open70) */
    {"in function 'recursiveType'", OOM_STAGE_LOAD, false},
    {"in function 'torch_Storage_type'", OOM_STAGE_LOAD, false},
    /* the coverage audit, each row from the
     * framework's own source (tests/unit/test_diagnose_stage13.c holds a
     * paste per framework and stage):
     * Set-up: Megatron-LM's megatron/training/training.py builds the model
     * in setup_model_and_optimizer -> get_model (vLLM's model loader names
     * its builder get_model too); ColossalAI's booster.boost(model,
     * optimizer, ...) wraps and places the model (colossalai/booster/
     * booster.py); flax's model.init(rng, x) creates the parameters, in
     * the examples' create_train_state; ultralytics sizes the batch at
     * set-up by profiling the model (utils/autobatch.py autobatch, from
     * trainer.auto_batch -> check_train_batch_size). */
    {"setup_model_and_optimizer", OOM_STAGE_LOAD, false}, {", in get_model\n", OOM_STAGE_LOAD, false},
    {"booster.boost(", OOM_STAGE_LOAD, false}, {"model.init(", OOM_STAGE_LOAD, W},
    {", in create_train_state", OOM_STAGE_LOAD, false}, {"autobatch", OOM_STAGE_LOAD, W},
    {"auto_batch(", OOM_STAGE_LOAD, W}, {"check_train_batch_size", OOM_STAGE_LOAD, false},
    /* optax's transformations (optax/_src/transform.py, combine.py), run
     * through the optimizer's update: "tx.update(grads, opt_state, params)" */
    {"/optax/", OOM_STAGE_OPTIMIZER, false}, {"tx.update(", OOM_STAGE_OPTIMIZER, W},
    {"optax.apply_updates(", OOM_STAGE_OPTIMIZER, false},
    /* CTranslate2's Generator.generate_batch (translate_batch is read by its
     * parts); batchgenerators' and nnU-Net's loaders make a batch in
     * generate_train_batch (batchgenerators/dataloading/data_loader.py,
     * nnunetv2/training/dataloading/): data, not generation.
     * stable-baselines3 samples its replay buffer (common/buffers.py
     * ReplayBuffer.sample, from the off-policy algorithms' train) and
     * reads its rollout buffer (RolloutBuffer.get): data. */
    {"generate_batch(", OOM_STAGE_GENERATE, W}, {"generate_train_batch", OOM_STAGE_DATA, false},
    {"replay_buffer.sample(", OOM_STAGE_DATA, false}, {"rollout_buffer.get(", OOM_STAGE_DATA, false},
    /* MONAI's evaluators run the validation set (monai/engines/evaluator.py
     * SupervisedEvaluator, EnsembleEvaluator) */
    {"monai/engines/evaluator.py", OOM_STAGE_EVAL, false}, {"Evaluator._iteration", OOM_STAGE_EVAL, false},
    /* PEFT folding its adapters into the base weights before the merged
     * model is used or saved (peft/tuners/lora/model.py merge_and_unload ->
     * _unload_and_optionally_merge -> layer.merge): the model is being
     * made, load. InvokeAI's diffusion backend (invokeai/backend/
     * stable_diffusion/, run by the denoise_latents invocation): sampling,
     * generate. diffusers' model code (diffusers/models/: unets,
     * autoencoders, transformers) is a forward, as the model libraries'
     * below; a UNet called ("noise_pred = unet(noisy_latents, …", the
     * diffusers and kohya-ss/sd-scripts training scripts) too. */
    {"merge_and_unload", OOM_STAGE_LOAD, false}, {"invokeai/backend/stable_diffusion/", OOM_STAGE_GENERATE, false},
    {"denoise_latents", OOM_STAGE_GENERATE, W}, {"diffusers/models/", OOM_STAGE_FORWARD, false},
    {"unet(", OOM_STAGE_FORWARD, W},
    /* A GPU library's failing function named in the error is stage evidence
     * like a frame (the labellers' "library function" convention, h31-87's
     * BackwardFilter). cuDNN and MIOpen name the pass in their entry points:
     * cudnnConvolutionForward, cudnnBatchNormalizationForwardTraining /
     * ForwardInference, cudnnPoolingForward, cudnnActivationForward,
     * cudnnSoftmaxForward, cudnnRNNForward, cudnnMultiHeadAttnForward
     * (NVIDIA's cuDNN API reference; miopenConvolutionForward likewise);
     * their backward entry points already read "Backward". */
    {"ConvolutionForward", OOM_STAGE_FORWARD, false}, {"NormalizationForward", OOM_STAGE_FORWARD, false},
    {"PoolingForward", OOM_STAGE_FORWARD, false}, {"ActivationForward", OOM_STAGE_FORWARD, false},
    {"SoftmaxForward", OOM_STAGE_FORWARD, false}, {"RNNForward", OOM_STAGE_FORWARD, false},
    {"AttnForward", OOM_STAGE_FORWARD, false},
    /* an exponential moving average of the weights updated
     * after the step ("self.ema.update()", lucidrains/denoising-diffusion-
     * pytorch Trainer.train; "ema.update(model)"): optimizer */
    {"ema.update(", OOM_STAGE_OPTIMIZER, W},
    /* the same as a model's EMA: timm's ModelEma called from the DeiT and
     * ConvNeXt loops ("model_ema.update(model)", facebookresearch/deit and
     * facebookresearch/ConvNeXt engine.py), and its file */
    {"_ema.update(", OOM_STAGE_OPTIMIZER, false}, {"timm/utils/model_ema.py", OOM_STAGE_OPTIMIZER, false},
    /* serving loops and generators by their sources:
     * exllamav2's generator package (exllamav2/generator/: base.py,
     * streaming.py, dynamic.py iterate -> iterate_gen -> model.forward_chunk),
     * lmdeploy's PyTorch engine loop (lmdeploy/pytorch/engine/model_agent.py
     * _async_loop_background, its decoding steps), TensorRT-LLM's PyTorch
     * executor (tensorrt_llm/_torch/pyexecutor/py_executor.py, its
     * _executor_loop serving the scheduled batches; the engine's warm-up
     * masks it), A1111's modules/processing.py process_images_inner (the
     * web UI's generation of a batch of images) */
    /* TensorFlow creating its devices before anything runs: a TF 1.x
     * session made ("sess = tf.Session(config=config)", "with
     * tf.compat.v1.Session() as sess:"; tensorflow/python/client/session.py
     * creates the device contexts and their memory pools), a distribution
     * strategy made (tf.distribute.MirroredStrategy() initialises every
     * GPU): set-up, load ("CUDA runtime implicit initialization on GPU:0
     * failed. Status: out of memory" is said there) */
    {"tf.Session(", OOM_STAGE_LOAD, false}, {"v1.Session(", OOM_STAGE_LOAD, false},
    {"InteractiveSession(", OOM_STAGE_LOAD, false}, {"MirroredStrategy(", OOM_STAGE_LOAD, false},
    {"exllamav2/generator/", OOM_STAGE_GENERATE, false}, {"_async_loop_background", OOM_STAGE_GENERATE, false},
    {"pyexecutor/py_executor.py", OOM_STAGE_GENERATE, false}, {"process_images_inner", OOM_STAGE_GENERATE, false},
    /* SD.Next's diffusers processing, the web UI's generation of a job
     * (vladmandic/sdnext: modules/processing_diffusers.py, process_diffusers
     * -> process_base), in a frame's file or as the logger name of its own
     * log lines ('ERROR sd processing_diffusers Processing: step=base ...');
     * convention webui-processing-generate (sdnext#3588 = heldout65 h65-49,
     * sdnext#4801 = corpus-heldout h18) */
    {"processing_diffusers", OOM_STAGE_GENERATE, W},
};

/* Lines after the message (or the message's own span prefix) that say what
 * the program was doing when it failed. */
static const struct stage_word after_words[] = {
    /* fairseq's trainer logs the OOM it caught (_log_oom: "OOM: Ran out of
     * memory with exception: …"), then where: "OOM during optimization,
     * irrecoverable", "ran out of memory in validation step, retrying
     * batch" (facebookresearch/fairseq:fairseq/trainer.py@3d262bb2) */
    {"OOM during optimization", OOM_STAGE_OPTIMIZER, false},
    {"out of memory in validation step", OOM_STAGE_EVAL, false},
    /* ZeRO-3's hooks' code lines pasted under the message (the frame
     * cues' fetch_sub_module rows; heldout60 h60-20) (open60) */
    {"fetch_sub_module(sub_module, forward=True)", OOM_STAGE_FORWARD, false},
    {"fetch_sub_module(sub_module, forward=False)", OOM_STAGE_BACKWARD, false},
    {"error loading model", OOM_STAGE_LOAD, false}, {"Could not load", OOM_STAGE_LOAD, false},
    {"failed to load model", OOM_STAGE_LOAD, false},
    {"Output generated in", OOM_STAGE_GENERATE, false}, {"Method Prefill", OOM_STAGE_GENERATE, false},
    /* a generation script timing each generation ("Generation
     * Time: 1.7503929138183594", gpt-neox's generate, EleutherAI/gpt-neox#631
     * = h19-67): a run of generations */
    {"Generation Time:", OOM_STAGE_GENERATE, false}, {"Generation time:", OOM_STAGE_GENERATE, false},
    {"Method Decode", OOM_STAGE_GENERATE, false}, {"Method Warmup", ENGINE_WARMUP, false},
    {":prefill", OOM_STAGE_GENERATE, false}, {"prefill{", OOM_STAGE_GENERATE, false},
    {":decode", OOM_STAGE_GENERATE, false}, {"decode{", OOM_STAGE_GENERATE, false},
    {"}:generate", OOM_STAGE_GENERATE, false}, {"failed during generation", OOM_STAGE_GENERATE, false},
    /* TGI router spans (router/src/server.rs handlers): "ERROR generate{parameters=..." */
    {"generate{", OOM_STAGE_GENERATE, false}, {"generate_stream{", OOM_STAGE_GENERATE, false},
    {"completions{", OOM_STAGE_GENERATE, false},
    /* text-embeddings-inference's request spans: Infer::embed_pooled and
     * embed_sparse are #[instrument]ed, so an error inside a request logs
     * "ERROR embed:embed_pooled{...}" (huggingface/text-embeddings-inference:
     * core/src/infer.rs@0e2511b7): an embedding request runs the model
     * forward. Without the '{': a paste may keep the colour codes between
     * them as text ("embed_pooledESC[0mESC[1m{", heldout48 h48-36). */
    {"embed_pooled", OOM_STAGE_FORWARD, false}, {"embed_sparse", OOM_STAGE_FORWARD, false},
    /* inference engines:
     * vllm-omni's engine: "[diffusion_engine.py:169] Generation failed: NPU
     * out of memory ..." (vllm-project/vllm-omni#705); vLLM v1's engine
     * process dying at start-up: "EngineCore failed to start."
     * (vllm-project/vllm#28143): the sentence's end, not a recipe's
     * "failed to start stage 6 because of out of CUDA memory"
     * (espnet/espnet#3719 = heldout51 h51-30, an ESPnet stage number) */
    {"Generation failed", OOM_STAGE_GENERATE, false}, {"failed to start.", ENGINE_WARMUP, false},
    /* vLLM v1's front end after its engine process died at
     * start-up ("RuntimeError: Engine core initialization failed. See root
     * cause above.", vllm/v1/engine/utils.py wait_for_engine_startup;
     * vllm-project/vllm#19415); llama.cpp's decode of a batch failing
     * ("llama_decode: failed to decode, ret = -3" under the backend's
     * allocation error, koboldcpp/llama.cpp; heldout33 h33-35): the
     * request's tokens were being evaluated, generation */
    {"core initialization failed", ENGINE_WARMUP, false},
    /* TGI's launcher when a shard dies before it is ready: "ERROR
     * text_generation_launcher: Shard 0 failed to start" and the error
     * it exits with, "Error: ShardCannotStart" (launcher/src/main.rs,
     * LauncherError::ShardCannotStart; huggingface/text-generation-inference
     * #866 under an OOM, #1354 under a model's __init__ frames): the
     * shard's model load at start-up. The bare sentence end without its
     * period is start_failed below. */
    {"ShardCannotStart", ENGINE_WARMUP, false},
    /* Triton's backends create a model instance's state when the model
     * loads; the server reports "ERROR: Failed to create instance:
     * unexpected error when creating modelInstanceState: [TensorRT-LLM]
     * [ERROR] ..." (backend_model.cc, triton-inference-server/
     * tensorrtllm_backend#328), or "Model 'tensorrt_llm' loading failed
     * with error: ... when creating modelInstanceState: ... out of memory"
     * (heldout33 h33-11): the message's own line, or glued before it */
    {"modelInstanceState", OOM_STAGE_LOAD, false}, {"Failed to create instance", OOM_STAGE_LOAD, false},
    {"llama_decode: failed to decode", OOM_STAGE_GENERATE, false}, {"failed to decode", OOM_STAGE_GENERATE, false},
    /* MTEB's own error line for a task ("Error while
     * evaluating MSMARCO: CUDA out of memory", embeddings-benchmark/mteb#726
     * = h30-119, without the "mteb.evaluation" logger tag of h19-28) */
    {"Error while evaluating", OOM_STAGE_EVAL, false},
    /* From corpus-heldout23's set-aside misses (seen): the
     * TensorRT-LLM builder giving up ("[TRT-LLM] [E] Engine building
     * failed", huggingface/optimum-nvidia#146) names no stage (it was
     * start-up until the nineteenth round's engine-build-no-stage: an engine
     * build converts a model, see engine_builds); vLLM's
     * OpenAI chat handler logging the engine's death ("[serving_chat.py:
     * 677] ... MQEngineDeadError", vllm-project/vllm#15039) serves a
     * request */
    {"Engine building failed", OOM_STAGE_UNKNOWN, false}, {"[serving_chat.py:", OOM_STAGE_GENERATE, false},
    {"[serving_completion.py:", OOM_STAGE_GENERATE, false},
    /* vLLM's AsyncLLMEngine logging its serving loop's death
     * ("ERROR 03-31 15:19:44 [async_llm_engine.py:68] torch.OutOfMemoryError",
     * xorbitsai/inference via vLLM); llama.cpp's server taking a request
     * into a slot ("slot launch_slot_: id  0 |", "slot update_slots: id  2
     * | task 10391 | prompt ...", ggml-org/llama.cpp server.cpp) */
    {"[async_llm_engine.py:", OOM_STAGE_GENERATE, false},
    {"launch_slot_", OOM_STAGE_GENERATE, false}, {"update_slots", OOM_STAGE_GENERATE, false},
    /* llama.cpp: the KV cache updated while decoding a batch */
    {"kv_cache_update", OOM_STAGE_GENERATE, false},
    /* llama.cpp / ollama / llama-cpp-python: the context (KV cache, compute
     * buffers) is made when the model loads */
    {"unable to load model", OOM_STAGE_LOAD, false}, {"failed to create context", OOM_STAGE_LOAD, false},
    {"Failed to create llama_context", OOM_STAGE_LOAD, false}, {"llama_kv_cache_init: failed", OOM_STAGE_LOAD, false},
    {"kv_cache_init() failed", OOM_STAGE_LOAD, false},
    /* llama.cpp's context reserving its compute buffers
     * ("llama_new_context_with_model: failed to allocate compute buffers",
     * ggml-org/llama.cpp src/llama-context.cpp): made with the context */
    {"failed to allocate compute buffers", OOM_STAGE_LOAD, false},
    /* a diffusion web UI's job: "Exception processing job ... func=<function txt2img" */
    {"txt2img", OOM_STAGE_GENERATE, false}, {"img2img", OOM_STAGE_GENERATE, false},
    /* SD.Next logs the failure first ('ERROR sd errors Processing:
     * OutOfMemoryError'), then its processing module's line or its rich
     * traceback box under it: "processing_diffusers" (frame_words above) */
    {"processing_diffusers", OOM_STAGE_GENERATE, false},
    /* the failure said to come while setting up or loading:
     * ONNX Runtime's "Exception during initialization: ... BFCArena::
     * AllocateRawInternal Failed to allocate memory" (creating the session,
     * deepinsight/insightface-style apps; Triton's onnxruntime backend),
     * Triton's "failed to load all models", instant-ngp's "Failed to load
     * training data: Could not allocate memory" */
    {"during initialization", OOM_STAGE_LOAD, false}, {"during initialisation", OOM_STAGE_LOAD, false},
    {"failed to load", OOM_STAGE_LOAD, false}, {"Failed to load", OOM_STAGE_LOAD, false},
    /* TensorRT names the function that failed in its tag
     * ("[executionContext.cpp::nvinfer1::rt::ExecutionContext::
     * ExecutionContext::470] Error Code 2: OutOfMemory", NVIDIA/TensorRT
     * #3017): the execution context is made (its activation memory
     * allocated) by ICudaEngine::createExecutionContext before the first
     * inference, as a runtime deserialises an engine
     * (IRuntime::deserializeCudaEngine): start-up. */
    {"ExecutionContext::ExecutionContext", ENGINE_WARMUP, false},
    {"createExecutionContext", ENGINE_WARMUP, false}, {"deserializeCudaEngine", ENGINE_WARMUP, false},
    /* ... and an inference run by its enqueue/execute call
     * ("IExecutionContext::enqueueV3: Error Code 1: Cuda Runtime (...)",
     * NVIDIA/TensorRT#4191; enqueueV2, executeV2 of TensorRT 8): forward.
     * The builder ("IBuilder::buildSerializedNetwork", #4258) names no
     * stage: it converts a model, it neither loads nor runs one. */
    {"::enqueueV", OOM_STAGE_FORWARD, false}, {"::executeV2", OOM_STAGE_FORWARD, false},
    /* TGI's router warming the shards up at start-up logs the shard's
     * error in its warmup span ("ERROR warmup{max_input_length=Some(4095)
     * ...}:warmup: text_generation_router_v3::client: ...: Server error:
     * CUDA out of memory", backends/v3/src/lib.rs warmup; its serving spans
     * read "}:generate" above) */
    {"}:warmup", ENGINE_WARMUP, false},
    /* diff-gaussian-rasterization in debug mode
     * catches the CUDA rasterizer's error inside its autograd Function and
     * prints which pass it was in before re-raising: "An error occured in
     * forward. Please forward snapshot_fw.dump for debugging." /
     * "An error occured in backward. Writing snapshot_bw.dump for
     * debugging." (graphdeco-inria/diff-gaussian-rasterization:
     * diff_gaussian_rasterization/__init__.py@59f5f77e; kept by its many
     * forks; heldout37 h37-10, h37-11) */
    {"An error occured in forward", OOM_STAGE_FORWARD, false},
    {"An error occured in backward", OOM_STAGE_BACKWARD, false},
};


/* Plain log lines that announce what the program is doing. Data first:
 * "Generating train split" is the datasets library, not generation. */
static const struct stage_word context_words[] = {
    /* torch's ExceptionWrapper names the thread an error was caught in and
     * re-raised from: DataParallel's replica running the module's forward
     * ("Caught RuntimeError in replica 0 on device 0.", torch/nn/parallel/
     * parallel_apply.py _worker: module(*input) in a try), a DataLoader
     * worker or the pin-memory thread fetching a batch ("Caught
     * RuntimeError in DataLoader worker process 0.", torch/utils/data/
     * _utils/worker.py; "in pin memory thread for device 0",
     * _utils/pin_memory.py); read by the lead from heldout35 h35-41 after
     * the set was opened */
    {" in replica ", OOM_STAGE_FORWARD, false}, {"in DataLoader worker process", OOM_STAGE_DATA, false},
    {"in pin memory thread", OOM_STAGE_DATA, false},
    /* Caffe's solver testing its test nets every test_interval, inside
     * training ("Iteration 0, Testing net (#0)", BVLC/caffe src/caffe/
     * solver.cpp Solver::Test; Cysu/dgd_person_reid#1): an evaluation, not
     * the inference a tool's "Testing ..." names (nonpt20) */
    {"Testing net (#", OOM_STAGE_EVAL, false},
    /* Training libraries' own phase lines, from their sources (issue 12's
     * phase-line audit, tests/unit/test_diagnose_phasetrain.c). Above the
     * older rows: "Tokenizer is initialized" is set-up, not tokenizing;
     * "'val_loss' reached ..., saving model to" saves. */
    /* torchtune's recipes announce each part they set up ("Tokenizer is
     * initialized from file.", "Optimizer is initialized.", "Dataset and
     * Sampler are initialized.", "In-backward optimizers are set up.";
     * pytorch/torchtune:recipes/full_finetune_distributed.py@bd2a0fc7) */
    {" is initialized", OOM_STAGE_LOAD, false}, {" are initialized", OOM_STAGE_LOAD, false},
    /* lmdeploy's pipeline logs the engine it is about to build ("lmdeploy -
     * INFO - input backend=turbomind, backend_config=TurbomindEngineConfig(
     * model_format='awq', ...)", then its chat template): the TurboMind or
     * PyTorch engine is made after it, weights and KV cache on the GPU
     * (InternLM/lmdeploy#1704 = heldout74 h74-46, cut after those lines;
     * #3154's traceback: async_engine __init__ -> _build_turbomind ->
     * TurboMind.from_pretrained -> _create_weight; the chat CLI's
     * "engine_cfg:" dump right above "[TM][ERROR] CUDA runtime error: out of
     * memory", #3971). Not user code: a script writes backend=, not
     * "input backend=". (open74) */
    {"input backend=", OOM_STAGE_LOAD, false},
    {" are set up.", OOM_STAGE_LOAD, false},
    /* Lightning's ModelCheckpoint: "Epoch 2, global step 3750: 'val_loss'
     * reached 1.84210 (best 1.84210), saving model to '…ckpt' as top 1"
     * (Lightning-AI/pytorch-lightning:src/lightning/pytorch/callbacks/
     * model_checkpoint.py@7f0c3436) */
    {", saving model to ", OOM_STAGE_CHECKPOINT, false},
    /* TRL's DPO/KTO/BCO trainers run the reference model over the dataset
     * before training: "Computing reference log probs for train dataset:",
     * "Caching reference log probs for …" (huggingface/trl:trl/trainer/
     * dpo_trainer.py@f2cd5771): the reference model's forward */
    {"reference log probs", OOM_STAGE_FORWARD, false},
    /* the datasets library's map/filter bars count " examples" (hf_tqdm
     * unit; "Extracting prompt from train dataset:  61%|…| 37000/60917
     * [00:03<00:02, 11230.40 examples/s]", whatever the trainer's
     * description says; TRL's map descs, huggingface/trl:trl/trainer/
     * sft_trainer.py@f2cd5771); tqdm writes a slow rate "2.50s/ examples]" */
    {" examples/s]", OOM_STAGE_DATA, false}, {"s/ examples]", OOM_STAGE_DATA, false},
    /* DeepSpeed ZeRO-3 building its partitions ("Before creating fp32
     * partitions", "After creating fp16 partitions: 1", see_memory_usage in
     * deepspeedai/DeepSpeed:deepspeed/runtime/zero/stage3.py@edaa7221):
     * optimizer construction at set-up (as h19-46) */
    {"fp32 partitions", OOM_STAGE_LOAD, false}, {"fp16 partitions", OOM_STAGE_LOAD, false},
    /* Megatron-LM: "> building train, validation, and test datasets ..."
     * names the splits it builds (NVIDIA/Megatron-LM:pretrain_gpt.py@
     * d98e8a64), " loading distributed checkpoint from /ckpt at iteration
     * 1000" (megatron/training/checkpointing.py) */
    {"train, validation, and test", OOM_STAGE_DATA, false},
    {"loading distributed checkpoint", OOM_STAGE_LOAD, false},
    /* unsloth's save_pretrained_merged: "Unsloth: Merging 4bit and LoRA
     * weights to 16bit...", "Unsloth: Will use up to 5.34 out of 12.67 RAM
     * for saving." (unslothai/unsloth:unsloth/save.py@d45997d9) */
    {"Merging 4bit and LoRA weights", OOM_STAGE_CHECKPOINT, false}, {"RAM for saving", OOM_STAGE_CHECKPOINT, false},
    /* vLLM's offline LLM.generate bar, "Processed prompts:  45%|…| 450/1000
     * [02:12<02:41,  3.41it/s, est. speed input: … toks/s, output: … toks/s]"
     * (vllm-project/vllm:vllm/entrypoints/llm.py@10fdb8f0), as LLaMA-Factory's
     * scripts/vllm_infer.py@ff6d4d12 prints it: requests being generated */
    {"Processed prompts", OOM_STAGE_GENERATE, false},
    /* transformers' generate() setting up its special tokens
     * logs "Setting `pad_token_id` to `eos_token_id`:2 for open-end
     * generation." before its first step (_prepare_special_tokens,
     * huggingface/transformers:src/transformers/generation/utils.py
     * @1097d4b3): generation is under way */
    {"Setting `pad_token_id` to `eos_token_id`", OOM_STAGE_GENERATE, false},
    {"Map:", OOM_STAGE_DATA, false}, {"Tokeniz", OOM_STAGE_DATA, false}, {"tokenizing", OOM_STAGE_DATA, false},
    {"Running tokenizer", OOM_STAGE_DATA, false}, {"Loading dataset", OOM_STAGE_DATA, false},
    {"train split", OOM_STAGE_DATA, false}, {"Preprocessing", OOM_STAGE_DATA, false},
    {"Filter:", OOM_STAGE_DATA, false}, {"collat", OOM_STAGE_DATA, false},
    /* the datasets library's bars with worker processes:
     * "Map (num_proc=8):  45%|" (arrow_dataset.py: the description plus
     * " (num_proc=N)" when N > 1), "Filter (num_proc=8):" */
    {"Map (num_proc=", OOM_STAGE_DATA, false}, {"Filter (num_proc=", OOM_STAGE_DATA, false},
    {"Saving model checkpoint", OOM_STAGE_CHECKPOINT, false}, {"Saving checkpoint", OOM_STAGE_CHECKPOINT, false},
    {"saving checkpoint", OOM_STAGE_CHECKPOINT, false}, {"Summoning checkpoint", OOM_STAGE_CHECKPOINT, false},
    {"Saving model", OOM_STAGE_CHECKPOINT, false}, {"Saving the model", OOM_STAGE_CHECKPOINT, false},
    {"Loading checkpoint shards", OOM_STAGE_LOAD, false}, {"Loading model", OOM_STAGE_LOAD, false},
    /* SGLang/vLLM shard loading ("Multi-thread loading shards: 100%"), a
     * component failing while it is set up ("Failed to initialize lk_moe:") */
    {"loading shards", OOM_STAGE_LOAD, false}, {"Loading safetensors", OOM_STAGE_LOAD, false},
    {"ailed to initialize", OOM_STAGE_LOAD, false},
    /* TF creating a device's context: "failed initializing StreamExecutor
     * for CUDA device ordinal 0: ..." (nagadit/DeepFaceLab_Linux#89, read
     * from heldout21's set-aside misses after its measurement) */
    {"ailed initializing", OOM_STAGE_LOAD, false},
    /* ComfyUI's model management moving a model to the GPU: "Requested to
     * load Flux2TEModel_" (Comfy-Org/ComfyUI#11331) */
    {"Requested to load", OOM_STAGE_LOAD, false},
    /* diffusers' DiffusionPipeline.from_pretrained bar: "Loading pipeline
     * components...: 100%| 8/8" is no training step (SUDO-AI-3D/zero123plus#82) */
    {"Loading pipeline components", OOM_STAGE_LOAD, false},
    {"loading model", OOM_STAGE_LOAD, false},
    {"Loading weights", OOM_STAGE_LOAD, false}, {"loading checkpoint", OOM_STAGE_LOAD, false},
    {"Restoring", OOM_STAGE_LOAD, false}, {"Loading pretrained", OOM_STAGE_LOAD, false},
    {"Running Evaluation", OOM_STAGE_EVAL, false}, {"Evaluating", OOM_STAGE_EVAL, false},
    {"Validation", OOM_STAGE_EVAL, false}, {"Validating", OOM_STAGE_EVAL, false},
    /* a validation bar or counter line: ms-swift "Val:  21%|", MONAI
     * tutorials "Val 99/5000 0/60 acc ...", catalyst "0/10 * Epoch (valid):" */
    {"Val:", OOM_STAGE_EVAL, L}, {"Val ", OOM_STAGE_EVAL, L}, {"(valid)", OOM_STAGE_EVAL, false},
    /* the DETR family's MetricLogger over the test set, whose
     * header is "Test:" as a validation bar's is "Val:" ("Test: Total time:
     * 0:01:42 (0.2476 s / it)", ashkamath/mdetr#41 = h20-122) */
    {"Test:", OOM_STAGE_EVAL, L},
    {"Evaluation", OOM_STAGE_EVAL, false}, /* LAVIS/BLIP MetricLogger: "Evaluation  [2060/5000]  eta: ..." */
    /* the trainers' own evaluation bars and headers, from their
     * sources: Lightning's progress bars name the loop they count
     * ("Sanity Checking DataLoader 0:" runs validation_step before the first
     * epoch, "Testing DataLoader 0:"; callbacks/progress/tqdm_progress.py);
     * mmengine's LogProcessor tags a validation or test iteration
     * "Epoch(val) [1][ 50/313]" / "Epoch(test) [50/313]" (training lines
     * read "Epoch(train)"); ultralytics' and YOLOv5's validator head their
     * bar with the metric columns ("Class  Images  Instances  Box(P  R
     * mAP50  mAP50-95)", older "mAP@.5:.95") */
    {"Sanity Checking", OOM_STAGE_EVAL, false}, {"Testing DataLoader", OOM_STAGE_EVAL, false},
    {"Epoch(val)", OOM_STAGE_EVAL, false}, {"Epoch(test)", OOM_STAGE_EVAL, false},
    {"mAP50-95", OOM_STAGE_EVAL, false}, {"mAP@.5:.95", OOM_STAGE_EVAL, false},
    {"Start evaluation", OOM_STAGE_EVAL, false}, {"running eval", OOM_STAGE_EVAL, false},
    /* mmcv's ProgressBar, which mmdet/mmseg single_gpu_test and
     * multi_gpu_test drive over the test set (training logs iteration
     * lines instead): "[>>>>   ] 20/76, 0.3 task/s, elapsed: 59s, ETA:   165s" */
    {" task/s, elapsed: ", OOM_STAGE_EVAL, false},
    /* the same bar before its first task is done prints no rate: "[    ]
     * 0/500, elapsed: 0s, ETA:" (lhoyer/HRDA#27) */
    {", elapsed: ", OOM_STAGE_EVAL, false},
    {"testing...", OOM_STAGE_EVAL, false}, {"Testing...", OOM_STAGE_EVAL, false},
    {"Generating", OOM_STAGE_GENERATE, false}, {"generating", OOM_STAGE_GENERATE, false},
    {"Sampling", OOM_STAGE_GENERATE, false},
    /* speech-to-text runs ("Transcribing Timeline 1", "start transcribe
     * process", "Error transcribing mic:") decode: generation */
    {"ranscrib", OOM_STAGE_GENERATE, false},
    /* koboldcpp / llama.cpp prompt evaluation of a generation request:
     * "Processing Prompt [BLAS] (3584 / 5525 tokens)" */
    {"Processing Prompt", OOM_STAGE_GENERATE, false},
    /* engine start-up named around the error (read from heldout9's misses
     * after its scoring): TGI's launcher "Method Warmup encountered an
     * error." above the traceback (huggingface/text-generation-inference
     * #1769), its router's panic "Unable to warmup model: Generation(..."
     * glued before the message (#563); ollama's "llama runner process has
     * terminated: cudaMalloc failed" while the runner loads the model
     * (ollama/ollama#9782; not ggml_gallocr_reserve_n, which also runs when
     * the KV cache is updated while serving, ggml-org/llama.cpp#11476) */
    /* llama.cpp's log while it allocates the KV cache at model
     * load ("llama_kv_cache_init: CUDA0 KV buffer", mozilla-ai/llamafile#372
     * = h25-48). Not llama_new_context_with_model: it also reports the
     * context's graph after start-up, before a runner serves (ollama/ollama
     * #5913 = h19-24, no stage) */
    {"llama_kv_cache_init", OOM_STAGE_LOAD, false},
    /* llama.cpp's context creation by its newer name,
     * "llama_init_from_model: pipeline parallelism enabled (n_copies=4)"
     * right above ggml_gallocr_reserve_n failing to allocate the compute
     * buffer (ggml-org/llama.cpp src/llama-context.cpp; the PR thread of
     * h19-23): the context is made while the model loads. Only as the
     * nearest lines above the failure (the context walk reads three): a
     * runner that started serving logs more lines after it (h19-24). */
    {"llama_init_from_model:", OOM_STAGE_LOAD, false},
    /* ollama's runner answering the server's load request, its
     * operations fit/alloc/commit placing the model's layers ("source=
     * runner.go:1271 msg=load request=\"{Operation:alloc ... GPULayers:37",
     * ollama/ollama#13303 = h27-04) */
    {"msg=load request=", OOM_STAGE_LOAD, false},
    {"Method Warmup", ENGINE_WARMUP, false}, {"Unable to warmup", ENGINE_WARMUP, false},
    {"runner process has terminated", OOM_STAGE_LOAD, false},
    /* read from heldout14's misses after its two scorings: vLLM's worker
     * log "Exception in worker VllmWorkerProcess while processing method
     * determine_num_available_blocks." above a cut traceback (its memory
     * profiling at start-up, vllm-project/vllm#8879); autograd's anomaly
     * mode printing "Error detected in ReluBackward0. Traceback of forward
     * call that caused the error:" — the frames below are the forward that
     * built the node, the failure is in backward (open-mmlab/
     * mmdetection3d#1057) */
    {"processing method determine_num_available_blocks", ENGINE_WARMUP, false},
    /* verl's patched vLLM engine, right before it allocates the
     * KV cache: "before init cache memory allocated: 5.96GB, reserved:
     * 6.07GB" (volcengine/verl third_party/vllm llm_engine_sp.py
     * _initialize_kv_caches; its "after init cache" line says it is built
     * and names nothing). heldout19 h19-12. */
    {"before init cache memory allocated", ENGINE_WARMUP, false},
    {"Traceback of forward call that caused the error", OOM_STAGE_BACKWARD, false},
    /* what the program logged, in any case:
     * An application's own log line names its action in its own case:
     * "| INFO | __main__:savemodel:34 - Error saving model: CUDA out of
     * memory" (huggingface/peft#335), "### External evaluation, global step
     * 0" (heldout14 h14-37). Whole words only, so "evaluation_strategy=" in
     * a printed config is none. */
    {"saving model", OOM_STAGE_CHECKPOINT, I}, {"saving the model", OOM_STAGE_CHECKPOINT, I},
    {"saving checkpoint", OOM_STAGE_CHECKPOINT, I}, {"evaluation", OOM_STAGE_EVAL, I},
    /* An OpenAI-compatible server's request line above the traceback: the
     * request being served is a generation ("POST /v1/chat/completions
     * HTTP/1.1\" 500", QwenLM/Qwen#1250; vLLM, FastChat, llama.cpp serve
     * the same routes) */
    {"/chat/completions", OOM_STAGE_GENERATE, false}, {"/v1/completions", OOM_STAGE_GENERATE, false},
    /* HF Trainer's banner "***** Running {description} *****" names its
     * loop, "Evaluation" or "Prediction" (trainer.py evaluation_loop; both
     * run a dataset through the model for metrics or outputs); a logged
     * "Running validation on dev set" (mlcommons GNMT) in any case, whole
     * word near the message start; kohya sd-scripts' "caching latents..."
     * encodes the dataset's images before training: data. */
    {"Running Prediction", OOM_STAGE_EVAL, false}, {"validation", OOM_STAGE_EVAL, I},
    {"validating", OOM_STAGE_EVAL, I}, {"aching latents", OOM_STAGE_DATA, false},
    /* kohya sd-scripts' "prepare optimizer, data loader etc." before
     * accelerator.prepare (set-up; kijai/ComfyUI-FluxTrainer#20, from
     * corpus-heldout23's set-aside misses, seen) */
    {"prepare optimizer", OOM_STAGE_LOAD, false},
    /* Vision, science and RL frameworks' own phase lines, from their
     * sources (tests/unit/test_diagnose_phasesci.c has a row for each):
     * mmengine's LogProcessor tags an iteration-based validation or test
     * loop "Iter(val) [ 50/500]" / "Iter(test) [100/5000]" (training reads
     * "Iter(train)"; open-mmlab/mmengine:mmengine/runner/log_processor.py
     * @25434293); YOLOv5's dataset caching its images before training,
     * "train: Caching images (12.3GB ram):  45%|" (ultralytics/yolov5:
     * utils/dataloaders.py@5081342f), nerfstudio's datamanager "Caching /
     * undistorting train images" (nerfstudio-project/nerfstudio:nerfstudio/
     * data/datamanagers/full_images_datamanager.py@50e0e3c7): data;
     * rendering a trained scene's novel views, ns-render's progress column
     * ":movie_camera: Rendering :movie_camera:" as the terminal shows it
     * (nerfstudio/scripts/render.py@50e0e3c7), gsplat's "Running trajectory
     * rendering..." and its "Rendering trajectory" bar (nerfstudio-project/
     * gsplat:examples/simple_trainer.py@90d7b4b3): generate, as a sampler
     * produces outputs; ColabFold's structure prediction logging each
     * recycle, "alphafold2_ptm_model_1_seed_000 recycle=0 pLDDT=41.2"
     * (sokrypton/ColabFold:colabfold/batch.py@3b808f0f): the folding
     * model's inference, forward (as heldout20's h20-35); stable-baselines3's
     * constructor wrapping the env right before it builds the policy on the
     * device, "Wrapping the env with a `Monitor` wrapper" (DLR-RM/
     * stable-baselines3:stable_baselines3/common/base_class.py@e05d2dbe): load */
    {"Iter(val)", OOM_STAGE_EVAL, false}, {"Iter(test)", OOM_STAGE_EVAL, false},
    {"Caching images (", OOM_STAGE_DATA, false}, {"Caching / undistorting", OOM_STAGE_DATA, false},
    {"\xf0\x9f\x8e\xa5 Rendering", OOM_STAGE_GENERATE, false}, {"Rendering trajectory", OOM_STAGE_GENERATE, false},
    {"trajectory rendering", OOM_STAGE_GENERATE, false}, {" recycle=", OOM_STAGE_FORWARD, false},
    {"Wrapping the env ", OOM_STAGE_LOAD, false},
    /* SRGAN's validation bar and its forks' (the super-resolution
     * trainers that copied its loop) carry the set's image metrics with
     * their unit: "[converting LR images to SR images] PSNR: 20.9384 dB
     * SSIM: 0.5722:   1%|" (leftthomas/SRGAN:train.py@d05de45b, val_bar);
     * the training bar of the same loop shows losses (a fork puts the same
     * bracketed words before "g_loss:"), so the metric pair is the cue */
    {" dB SSIM: ", OOM_STAGE_EVAL, false},
    /* NVIDIA's GAN trainers (StyleGAN, StyleGAN2, -ADA, StyleGAN3 and
     * their forks) announce building G and D, which go to the device as
     * they are made, "Constructing networks..." (NVlabs/stylegan2-ada-
     * pytorch:training/training_loop.py@f7e48678), or restoring them in the
     * TensorFlow versions, "Loading networks from \"…pkl\"..." (NVlabs/
     * stylegan:training/training_loop.py@f3a04462): set-up, load */
    {"Constructing networks", OOM_STAGE_LOAD, false}, {"Loading networks from", OOM_STAGE_LOAD, false},
    /* Model-parallel set-up before the weights load: fairscale's
     * initialize_model_parallel, called by Meta's llama Llama.build before
     * it reads the checkpoint, prints "> initializing model parallel with
     * size 1", "> initializing ddp with size 1", "> initializing pipeline
     * with size 1" (facebookresearch/fairscale:fairscale/nn/model_parallel/
     * initialize.py; the next line is llama's "Loaded in 4.09 seconds");
     * Megatron-LM's "> initializing tensor model parallel with size 8" and
     * "... pipeline model parallel ..." precede building the model: load.
     * (diagopen52) */
    {"model parallel with size", OOM_STAGE_LOAD, false}, {"> initializing ddp with size", OOM_STAGE_LOAD, false},
    {"> initializing pipeline with size", OOM_STAGE_LOAD, false},
    {"> initializing data parallel with size", OOM_STAGE_LOAD, false},
    /* a server that said it serves:
     * A server prints that it listens only once its model is loaded (and
     * warmed up): what fails after that line fails while it answers a
     * request. mistral.rs "Serving on http://0.0.0.0:1234."
     * (EricLBuehler/mistral.rs#43 = h19-96), uvicorn under vLLM's and
     * SGLang's API servers "Uvicorn running on http://…" and "Application
     * startup complete.", llama.cpp's server "main: server is listening on
     * http://127.0.0.1:8080". A web UI's "Running on local URL" is left
     * out: a training GUI (kohya_ss) prints it too. */
    {"Serving on http", OOM_STAGE_GENERATE, false}, {"Uvicorn running on", OOM_STAGE_GENERATE, false},
    {"Application startup complete", OOM_STAGE_GENERATE, false},
    {"server is listening on http", OOM_STAGE_GENERATE, false},
    /* a completion request the llama.cpp server logs
     * ('"method":"POST","path":"/completion"', examples/server's
     * log_server_request; its native route) is a generation being served
     * (ollama/ollama#1585, under ollama's "llama runner started"). Not the
     * runner's start alone (ollama/ollama#5913 fails after it with no
     * request: no stage), nor ollama's own "/api/generate": ollama loads
     * the model while it answers that request. */
    {"\"path\":\"/completion\"", OOM_STAGE_GENERATE, false}, {"POST /completion ", OOM_STAGE_GENERATE, false},
    /* TGI's shard logs "Error when initializing model" above
     * the traceback of its model's construction (text_generation_server/
     * server.py; huggingface/text-generation-inference#574, #1687) */
    {"Error when initializing model", OOM_STAGE_LOAD, false},
    /* an engine's start-up lines right above its error:
     * TensorRT-LLM's executor after loading the engine and while it
     * allocates the paged KV cache ("Loaded engine size: 3122 MiB",
     * NVIDIA/TensorRT-LLM#2693; "[MemUsageChange] Allocated 0.10 GiB for
     * max tokens in paged KV cache (2112).", #2398), Triton's backend
     * initialising a model or its instance ("TRITONBACKEND_ModelInitialize:",
     * triton-inference-server/server#6405); SGLang's scheduler logging the
     * prefill of a batch of requests ("Prefill batch. #new-seq: 1, #new-token:
     * 8192, ...", sgl-project/sglang python/sglang/srt/managers/scheduler.py
     * log_prefill_stats; its "Decode batch." reads as generation already) */
    {"Loaded engine size", OOM_STAGE_LOAD, false}, {"in paged KV cache", OOM_STAGE_LOAD, false},
    {"TRITONBACKEND_Model", OOM_STAGE_LOAD, false}, {"Prefill batch", OOM_STAGE_GENERATE, false},
    /* TensorRT's memory snapshots of an engine's start-up, begin or end
     * ("[MemUsageSnapshot] deserializeCudaEngine begin: CPU 415 MiB, GPU
     * 3671 MiB", newbiehyz/hand_jetsonnano#1; "... ExecutionContext
     * creation end: CPU 673 MiB, GPU 3210 MiB" right above a Killed,
     * wang-xinyu/tensorrtx retinaface, NVIDIA/TensorRT#2388): the engine
     * deserialised and its context made before any inference
     * (engine-startup-load) (open69) */
    /* mistral.rs quantizing a model's weights in place as it loads them
     * ("INFO mistralrs_core::pipeline::isq: Applying in-situ quantization
     * into Some(HQQ8) to 449 tensors.", "Applying ISQ to all ranks."): ISQ
     * runs in the loading step, after the weights are read and before
     * the model serves (EricLBuehler/mistral.rs#1552; its maintainer in
     * #344: models loaded for ISQ are quantized and copied to the GPU;
     * #1428 "when i quantize the model at load-time") (open69) */
    {"Applying in-situ quantization", OOM_STAGE_LOAD, false}, {"Applying ISQ ", OOM_STAGE_LOAD, false},
    {"MemUsageSnapshot] deserializeCudaEngine", OOM_STAGE_LOAD, false},
    {"MemUsageSnapshot] ExecutionContext creation", OOM_STAGE_LOAD, false},
    /* serving engines' and inference apps' own phase lines:
     * Read from the sources (tests/unit/test_diagnose_phaseserve.c has a
     * row for each). Engine start-up is load (ENGINE_WARMUP above):
     * vLLM's worker profiling memory and sizing the KV cache ("Memory
     * profiling takes 11.85 seconds", "Available KV cache memory: 51.46
     * GiB", vllm/v1/worker/gpu_worker.py; "GPU KV cache size: 421,552
     * tokens", "Maximum concurrency for 131,072 tokens per request",
     * vllm/v1/core/kv_cache_utils.py: CUDA-graph capture follows),
     * compiling ("torch.compile takes 22.31 s in total", "Compiling a graph
     * for dynamic shape takes"); CUDA-graph capture in vLLM ("Capturing CUDA
     * graphs (mixed prefill-decode, PIECEWISE):" bar, v0 "Capturing the
     * model for CUDA graphs.", "Capturing cudagraphs for decoding"), SGLang ("Capture
     * cuda graph begin.", "Capture cuda graph bs [...]", model_runner.py)
     * and TGI ("Cuda Graphs are enabled for sizes [...]", flash_causal_lm.py);
     * SGLang's scheduler sizing its pools ("max_total_num_tokens=397436,
     * chunked_prefill_size=...", managers/scheduler.py: its own status
     * line, not the ServerArgs dump, which has no such key); TGI's launcher
     * starting a shard ("Starting shard rank=0", "Waiting for shard to be
     * ready...", launcher/src/main.rs); a warm-up announced ("Warming up
     * model", TGI backends/v3/src/lib.rs and LMDeploy executor/base.py;
     * exllamav2's " -- Warmup...", test_inference.py); Forge's model
     * manager placing a model ("[Memory Management] Target: KModel, Free
     * GPU: ...", "[Unload] Trying to free 3051.58 MB for cuda:0",
     * backend/memory_management.py); ComfyUI's after a model is moved
     * ("loaded completely 9722.8 9319.2 True", "loaded partially ...",
     * comfy/model_management.py; bare at the line start). Left out: the
     * lines that end start-up (v0's "# GPU blocks: 37085, # CPU blocks:
     * 2048", v1's "Graph capturing finished in 12 secs" and "init engine
     * (profile, create kv cache, warmup model) took 48.91 seconds"): the
     * program serves or generates next, and the corpus gives a failure
     * after them no stage (h29-69, test_diagnose_stage9). */
    /* DeepSpeed resuming: engine.py _get_all_zero_checkpoint_state_dicts
     * logs "successfully read 8 ZeRO state_dicts for rank 0" (older
     * releases print "successfully loaded ...") before the optimizer's
     * partitions are restored (deepspeedai/DeepSpeed:deepspeed/runtime/
     * engine.py): load. openai-whisper's transcribe prints "Detecting
     * language using up to the first 30 seconds." and runs
     * model.detect_language on the first window (openai/whisper:whisper/
     * transcribe.py): transcription, generate. (srcstage) */
    {"ZeRO state_dicts for rank", OOM_STAGE_LOAD, false},
    {"Detecting language using up to", OOM_STAGE_GENERATE, false},
    {"Memory profiling takes", ENGINE_WARMUP, false}, {"KV cache memory:", ENGINE_WARMUP, false},
    {"KV cache size:", ENGINE_WARMUP, false}, {"Maximum concurrency for", ENGINE_WARMUP, false},
    {"torch.compile takes", ENGINE_WARMUP, false}, {"Compiling a graph for", ENGINE_WARMUP, false},
    {"Capturing CUDA graph", ENGINE_WARMUP, false}, {"Capturing the model for CUDA graphs", ENGINE_WARMUP, false},
    {"Capturing cudagraph", ENGINE_WARMUP, false},
    {"Capture cuda graph", ENGINE_WARMUP, false}, {"Cuda Graphs are enabled", ENGINE_WARMUP, false},
    {"max_total_num_tokens=", ENGINE_WARMUP, W},
    {"Starting shard", OOM_STAGE_LOAD, false}, {"Waiting for shard", OOM_STAGE_LOAD, false},
    {"Warming up model", ENGINE_WARMUP, false}, {"-- Warmup...", ENGINE_WARMUP, false},
    {"[Memory Management]", OOM_STAGE_LOAD, false}, {"[Unload] Trying to free", OOM_STAGE_LOAD, false},
    {"loaded completely ", OOM_STAGE_LOAD, L}, {"loaded partially ", OOM_STAGE_LOAD, L},
    /* TensorRT-LLM sizing its KV cache ("[TensorRT-LLM][INFO] Memory usage
     * when calculating max tokens in paged kv cache: total: 79.10 GiB",
     * "Number of blocks in KV cache primary pool: 4607",
     * cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp) and its PyTorch
     * backend warming CUDA graphs up ("[TRT-LLM] [I] Run generation only
     * CUDA graph warmup for batch size=64", _torch/pyexecutor/
     * model_engine.py: a warm-up that names generation is start-up) */
    {"in paged kv cache", ENGINE_WARMUP, false}, {"blocks in KV cache", ENGINE_WARMUP, false},
    {"CUDA graph warmup", ENGINE_WARMUP, false},
    /* ... and serving or generating: vLLM's LLM.generate bar ("Processed
     * prompts:  37%|", vllm/entrypoints/llm.py); SGLang's server after its
     * warm-up request ("The server is fired up and ready to roll!",
     * entrypoints/http_server.py) and koboldcpp's ("Please connect to custom
     * endpoint at http://localhost:5001", koboldcpp.py), as "Uvicorn running
     * on" above; a chat request ollama's server answered (gin's access line
     * '| 200 |  9.41s | 127.0.0.1 | POST "/api/chat"' is written when the
     * request is done, so the runner had loaded the model and served);
     * AUTOMATIC1111's and Forge's bar over all sampling steps ("Total
     * progress:  45%|", modules/shared_total_tqdm.py); faster-whisper
     * transcribing ("Processing audio with duration 01:02:13.440",
     * "Detected language 'en' with probability 0.98",
     * faster_whisper/transcribe.py) */
    {"Processed prompts:", OOM_STAGE_GENERATE, false}, {"fired up and ready to roll", OOM_STAGE_GENERATE, false},
    {"Please connect to custom endpoint", OOM_STAGE_GENERATE, false}, {"\"/api/chat\"", OOM_STAGE_GENERATE, false},
    {"Total progress:", OOM_STAGE_GENERATE, false}, {"Processing audio with duration", OOM_STAGE_GENERATE, false},
    {"Detected language", OOM_STAGE_GENERATE, false},
};

static bool has(const char *text, size_t len, const char *w)
{
    return memmem(text, len, w, strlen(w)) != NULL;
}

static bool ident(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The identifier a match at p (k bytes) is part of is a keyword argument's
 * name or plain-name value: `validation_steps=validation_steps)` in a Keras
 * fit call is a count handed over, not a validation loop running
 * (keras-team/keras#12947).
 * Python writes keyword arguments without blanks around '=', assignments
 * with them ("val_loss = loss_fn(...)" stays evidence). */
static bool kwarg_name(const char *text, size_t len, const char *p, size_t k)
{
    const char *b = p, *e = p + k, *end = text + len;
    while (e < end && ident(*e)) e++;
    while (b > text && ident(b[-1])) b--;
    if (e + 1 < end && e[0] == '=' && e[1] != '=') return true;       /* NAME=value */
    return b - text >= 2 && b[-1] == '=' && b[-2] != '=' && b[-2] != ' ' && b[-2] != '!' &&
           b[-2] != '<' && b[-2] != '>' && (e == end || *e != '('); /* key=NAME, not a call */
}

/* The first place at or after from where w (k bytes, lower case) occurs in
 * any case; NULL when none. */
static const char *find_nocase(const char *text, size_t len, size_t from, const char *w, size_t k)
{
    for (size_t i = from; i + k <= len; i++)
        if (tolower((unsigned char)text[i]) == w[0] && strncasecmp(text + i, w, k) == 0) return text + i;
    return NULL;
}

/* p starts a log line's message, or one or two words into it: a line
 * start, or a logger's separator ("| ", " - ", "] ", ": ", "### ") with at
 * most two words between. A sentence of prose ("encountered a problem
 * during evaluation") is no log line's message. */
static bool near_message_start(const char *text, const char *p)
{
    for (int words = 0; words <= 2; words++) {
        while (p > text && (p[-1] == ' ' || p[-1] == '\t')) p--;
        if (p == text) return true;
        char c = p[-1];
        if (c == '|' || c == ']' || c == '#' || c == ':' || c == '>' || c == '*' ||
            (c == '-' && (p - 1 == text || p[-2] == ' ')))
            return true;
        while (p > text && p[-1] != ' ' && p[-1] != '\t') p--;
    }
    return false;
}

/* p follows ".", then one or more underscores: the name at p is a
 * private attribute ("self._model(" at "model("). */
static bool private_attribute(const char *text, const char *p)
{
    const char *b = p;
    while (b > text && b[-1] == '_') b--;
    return b < p && b > text && b[-1] == '.';
}

/* The parenthesis opened at q (text ends at e) holds a remark, not
 * arguments: three or more words apart by blanks and no operator, comma or
 * bracket ("my own designed model(four RTX 2080TI were used in this
 * task)", liuquande/FedIRM#4 = heldout46 h46-16;
 * "the model(which is in the format of .blend file)", "the model(which
 * is probably not feasible ...)", playhard21/Simulated-image-data:
 * README.md and a blog post "GPT vs BERT Thoughts" whose repository was
 * not recovered): prose glued to its noun, no call. (open46) */
static bool remark_in_parens(const char *q, const char *e)
{
    int words = 0;
    bool in_word = false;
    for (const char *c = q + 1; c < e && *c != ')'; c++) {
        if (strchr(",=*+/%<>[]{}(\"'`:", *c)) return false;
        if (*c == ' ') in_word = false;
        else if (!in_word) in_word = true, words++;
    }
    return words >= 3;
}

/* The word at p (k bytes) stands in quotes alone: a printed dict's key or
 * a string value ("config: {'experiment': {...}, 'validation': {'precision':
 * '16-mixed', ...}}", a run's config printed under an OOM report,
 * heldout46 h46-70; a pprint'd dict's " 'validation': {'fallback_reason': ...",
 * a generated solver script's CSVQA_DATA, repository not recovered; a
 * config builder's test defaults "'validation': {'strict': True}",
 * repository not recovered), a name, no action logged. (open46) */
static bool quoted_word(const char *text, size_t len, const char *p, size_t k)
{
    return p > text && (p[-1] == '\'' || p[-1] == '"') && p + k < text + len && p[k] == p[-1];
}

/* The cue occurs in text (at a word start when it must). */
static bool has_cue(const char *text, size_t len, const struct stage_word *cue)
{
    size_t k = strlen(cue->word);
    if (cue->at == I) {
        /* a whole word ("evaluation_strategy" is none) near the start of a
         * logged message */
        for (const char *p = find_nocase(text, len, 0, cue->word, k); p;
             p = find_nocase(text, len, (size_t)(p - text) + 1, cue->word, k))
            if ((p == text || !ident(p[-1])) && (p + k == text + len || !ident(p[k])) &&
                near_message_start(text, p) && !quoted_word(text, len, p, k))
                return true;
        return false;
    }
    for (size_t from = 0; from + k <= len;) {
        const char *p = memmem(text + from, len - from, cue->word, k);
        if (!p) return false;
        if (ident(cue->word[k - 1]) && kwarg_name(text, len, p, k)) {
            from = (size_t)(p - text) + 1;
            continue;
        }
        /* a plural in parentheses is no call: Forge's and Fooocus's model
         * management log "Moving model(s) has taken 0.62 seconds"
         * (lllyasviel/stable-diffusion-webui-forge backend/
         * memory_management.py, lllyasviel/Fooocus ldm_patched/modules/
         * model_management.py), not "model(s)" called on a state s with
         * no word after it ("q = model(s).max(1)"; a call with a word one
         * blank after it, "model(s) if s else x", reads as the plural too) */
        if ((cue->word[k - 1] == '(' && (size_t)(p + k - text) + 3 < len && p[k] == 's' && p[k + 1] == ')' &&
             p[k + 2] == ' ' && isalpha((unsigned char)p[k + 3])) ||
            (cue->word[k - 1] == '(' && remark_in_parens(p + k - 1, text + len))) {
            from = (size_t)(p - text) + 1;
            continue;
        }
        if (cue->at == 0 || p == text) return true;
        if (cue->at == W && !ident(p[-1])) return true;
        /* a private attribute called the same way, "self._model(images,
         * targets)" (alankbi/detecto core.py fit and _get_raw_predictions,
         * alankbi/detecto#33), "self._net(x)": the underscores after the
         * dot are no other word */
        if (cue->at == W && cue->word[k - 1] == '(' && private_attribute(text, p)) return true;
        if (cue->at == L) {
            size_t i = 0;
            while (text + i < p && (text[i] == ' ' || text[i] == '\t')) i++;
            return text + i == p;
        }
        from = (size_t)(p - text) + 1;
    }
    return false;
}

/* An exception or log line ("RuntimeError: ...", "INFO ...") is no code. */
bool stage_message_line(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (ident(s[i]) || s[i] == '.')) i++;
    return i > 0 && i + 1 < n && s[i] == ':' && s[i + 1] == ' ';
}

/* a line holding an exception's class name only ("RuntimeError",
 * "torch.cuda.OutOfMemoryError:"), its text printed on the next line:
 * "RuntimeError" over "CUDA Runtime Error: an illegal memory access was
 * encountered at .../scene.cpp:1523" (BachiLi/diffvg#3). */
bool stage_exception_name(const char *s, size_t n)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == ':')) n--;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    size_t b = i;
    while (i < n && (ident(s[i]) || s[i] == '.')) i++;
    if (i != n || n - b < 5) return false;
    return (n - b >= 5 && !memcmp(s + n - 5, "Error", 5)) || (n - b >= 9 && !memcmp(s + n - 9, "Exception", 9));
}

/* the line's last progress bar is full ("Loading pipeline
 * components...: 100%|████| 7/7 ["): the action it counted is over. */
bool stage_bar_finished(const char *s, size_t n)
{
    const char *last = NULL;
    for (const char *p = memmem(s, n, "%|", 2); p; p = memmem(p + 2, n - (size_t)(p + 2 - s), "%|", 2)) last = p;
    return last && last - s >= 3 && !memcmp(last - 3, "100", 3) && (last - s == 3 || !isdigit((unsigned char)last[-4]));
}

/* a tqdm bar with no description, running or full: " 48%|####8 | 24/50 [";
 * or the same bar drawn with no columns for its blocks, as Colab's and
 * docker's logs show it: "  0% 0/20 [00:00<?, ?it/s]" (format_meter
 * returns l_bar[:-1] + r_bar[1:] when ncols is 0, tqdm/tqdm:tqdm/std.py
 * @000ba6fa). */
static bool bar_without_description(const char *s, size_t n)
{
    size_t i = 0, d;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
    for (d = i; i < n && i - d < 3 && isdigit((unsigned char)s[i]); i++) {}
    if (!(i > d && i + 1 < n && s[i] == '%')) return false;
    if (s[i + 1] == '|') return true;
    /* "% 0/20 [": the counts and the elapsed-time bracket right after */
    size_t j = i + 1;
    if (s[j++] != ' ') return false;
    for (d = j; j < n && isdigit((unsigned char)s[j]); j++) {}
    if (j == d || j >= n || s[j++] != '/') return false;
    for (d = j; j < n && isdigit((unsigned char)s[j]); j++) {}
    return j > d && j + 1 < n && s[j] == ' ' && s[j + 1] == '[';
}

bool stage_bar_bare(const char *s, size_t n)
{
    return bar_without_description(s, n) && !stage_bar_finished(s, n);
}

bool stage_bar_undescribed(const char *s, size_t n)
{
    return bar_without_description(s, n);
}

/* A web UI's line for a request that failed, printed under whatever the
 * request drew, and the loop an undescribed bar right above it is: in
 * AUTOMATIC1111's web UI (and its forks: Forge, SD.Next) wrap_gradio_call
 * prints "Error completing request" and the request's arguments when the
 * request raises (AUTOMATIC1111/stable-diffusion-webui:modules/
 * call_queue.py@00dfe27f); the bar a request draws without a description
 * is its sampler's ("for i in trange(len(sigmas) - 1, disable=disable)",
 * crowsonkb/k-diffusion:k_diffusion/sampling.py@686dbad0), its upscalers
 * and VAE tilers name theirs ("[Tiled VAE]: Executing Encoder Task Queue:").
 * A bar with a description ("Steps:  50%|", a training extension) is no
 * sampler's. */
static const struct {
    const char *line;
    enum oom_stage bar;
} request_failures[] = {
    {"Error completing request", OOM_STAGE_GENERATE},
};

enum oom_stage stage_request_failure(const char *s, size_t n)
{
    for (size_t k = 0; k < sizeof request_failures / sizeof request_failures[0]; k++)
        if (memmem(s, n, request_failures[k].line, strlen(request_failures[k].line))) return request_failures[k].bar;
    return OOM_STAGE_UNKNOWN;
}

/* The load lines of inference apps whose next loop is their sampler:
 * ComfyUI's model management moving a model to the GPU ("Requested to
 * load Flux", "loaded partially 10238.5 10237.9 0",
 * comfyanonymous/ComfyUI comfy/model_management.py), Forge's ("Moving
 * model(s) has taken 0.62 seconds", lllyasviel/stable-diffusion-webui-forge
 * backend/memory_management.py), a diffusers pipeline made ("Loading
 * pipeline components...: 100%", huggingface/diffusers
 * pipelines/pipeline_utils.py; its __call__ then shows the denoising bar,
 * which has no description). A trainer's bar after its loading counts
 * training steps (the corpus gives a failure under it no stage: h34-10,
 * h34-76). */
static const char *const sampler_loads[] = {"Requested to load", "loaded completely", "loaded partially",
                                            "Moving model(s) has taken", "Loading pipeline components"};

/* a data line that names an evaluation split as a word ("Load test
 * dataset: 14 scans": SoftGroup's CustomDataset logs f'Load {self.mode}
 * dataset: {len(self.filenames)} scans', its mode 'train' or 'test',
 * thangvubk/SoftGroup:softgroup/data/custom.py@192f4bdd): the bare bar
 * below it runs that split, evaluation */
static const char *const eval_splits[] = {"test", "val", "valid", "validation", "eval", "dev"};

static bool names_eval_split(const char *s, size_t n)
{
    for (size_t k = 0; k < sizeof eval_splits / sizeof eval_splits[0]; k++) {
        size_t m = strlen(eval_splits[k]);
        for (const char *p = memmem(s, n, eval_splits[k], m); p;
             p = memmem(p + 1, n - (size_t)(p + 1 - s), eval_splits[k], m))
            if ((p == s || !ident(p[-1])) && (p + m == s + n || !ident(p[m]))) return true;
    }
    return false;
}

bool stage_past_bare_bar(bool bare, const char *s, size_t n, enum oom_stage *st)
{
    if (bare && *st == OOM_STAGE_DATA && names_eval_split(s, n)) {
        *st = OOM_STAGE_EVAL;
        return false;
    }
    if (!bare || *st != OOM_STAGE_LOAD) return false;
    for (size_t k = 0; k < sizeof sampler_loads / sizeof sampler_loads[0]; k++)
        if (memmem(s, n, sampler_loads[k], strlen(sampler_loads[k]))) {
            *st = OOM_STAGE_GENERATE;
            return false;
        }
    *st = OOM_STAGE_UNKNOWN;
    return true;
}

/* a banner's detail line, indented "Key words = value"
 * ("  Num examples = 2000", "  Batch size = 8" under HF Trainer's "*****
 * Running Evaluation *****"; "  Total optimization steps = 2,436"), or a
 * line of a printed object ("  \"eos_token_id\": 1," and the closing "}"
 * of transformers' "Generate config GenerationConfig {" dump,
 * huggingface/transformers:src/transformers/generation/configuration_utils.py
 * @2cda12cb): part of the banner or dump above it, not a line of its own. */
bool stage_banner_detail(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r')) n--;
    size_t b = 0;
    while (b < n && s[b] == ' ') b++;
    if (n - b == 1 && (s[b] == '}' || s[b] == ']')) return true;
    if (b >= 2 && n - b > 3 && s[b] == '"') {
        const char *q = memchr(s + b + 1, '"', n - b - 1);
        if (q && q + 2 < s + n && q[1] == ':' && q[2] == ' ') return true;
    }
    if (n < 6 || s[0] != ' ' || s[1] != ' ') return false;
    size_t i = 2;
    while (i < n && s[i] == ' ') i++;
    if (i >= n || !isupper((unsigned char)s[i])) return false;
    const char *eq = memmem(s + i, n - i, " = ", 3);
    if (!eq || eq + 3 >= s + n) return false;
    for (const char *p = s + i; p < eq; p++)
        if (!isalnum((unsigned char)*p) && !strchr(" ()&.,-_/", *p)) return false;
    for (const char *p = eq + 3; p < s + n; p++)
        if (*p == ' ' || *p == '=') return false;
    return true;
}

static bool starts(const char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    return n >= k && memcmp(s, w, k) == 0;
}

/* Rich's box glyphs: the border, the frame marker, the corners. */
static const char *const box_glyphs[] = {"\xe2\x94\x82", "\xe2\x9d\xb1", "\xe2\x95\xad", "\xe2\x95\xae",
                                         "\xe2\x95\xb0", "\xe2\x95\xaf", "\xe2\x94\x80"};

static size_t box_glyph(const char *s, size_t n)
{
    for (size_t g = 0; g < sizeof box_glyphs / sizeof box_glyphs[0]; g++)
        if (starts(s, n, box_glyphs[g])) return 3;
    return 0;
}

/* '..py", line 173, in backward': a Python frame header without its start;
 * also cut right before its line number ("line 187, in forward" over the
 * frame's code, JIA-Lab-research/Stratified-Transformer#45). */
static bool cut_frame_line(const char *s, size_t n)
{
    const char *p = memmem(s, n, "\", line ", 8);
    size_t i = p ? (size_t)(p - s) + 8 : 5;
    if (!p && !(n > 5 && memcmp(s, "line ", 5) == 0)) return false;
    if (i >= n || !isdigit((unsigned char)s[i])) return false;
    while (i < n && isdigit((unsigned char)s[i])) i++;
    return n - i >= 5 && memcmp(s + i, ", in ", 5) == 0;
}

/* The text of a box line after its glyph and blanks; NULL for other lines. */
static const char *box_content(const char *s, size_t n, size_t *len)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    size_t k = box_glyph(s + i, n - i);
    if (!k) return NULL;
    i += k;
    while (i < n && s[i] == ' ') i++;
    *len = n - i;
    return s + i;
}

unsigned stage_box_join_bits(const char *upper, size_t un, const char *lower, size_t ln)
{
    size_t a, b;
    const char *u = box_content(upper, un, &a), *l = box_content(lower, ln, &b);
    size_t ua = u ? a : 0;
    while (ua > 0 && (u[ua - 1] == ' ' || u[ua - 1] == '\r')) ua--;
    /* the header wrapped before "in": "│ /x/deepspeed/runtime/engine.py:330 │"
     * above "│ in __init__ │" (deepspeedai/DeepSpeed#2676): joined as Python
     * writes it, "…engine.py:330, in __init__" */
    if (u && l && ua > 4 && b > 3 && !memcmp(l, "in ", 3) && isdigit((unsigned char)u[ua - 1]) &&
        !memchr(u, ' ', ua) && memmem(u, ua, ".py:", 4)) {
        char frame[1024];
        if (ua + b + 3 > sizeof frame) return 0;
        memcpy(frame, u, ua);
        memcpy(frame + ua, ", ", 2);
        memcpy(frame + ua + 2, l, b);
        frame[ua + 2 + b] = '\n';
        return stage_frame_bits(frame, ua + b + 3);
    }
    if (!u || !l || a == 0 || isdigit((unsigned char)u[0]) || memchr(u, ' ', a)) return 0;
    char joined[1024];
    if (a + b + 1 > sizeof joined) return 0;
    memcpy(joined, u, a);
    memcpy(joined + a, l, b);
    joined[a + b] = '\n';
    return stage_frame_bits(joined, a + b + 1);
}

size_t stage_box_word(const char *s, size_t n, const char **word)
{
    size_t len;
    const char *c = box_content(s, n, &len);
    while (c && len && (c[len - 1] == ' ' || c[len - 1] == '\t')) len--;
    if (!c || !len) return 0;
    for (size_t i = 0; i < len; i++)
        if (!ident(c[i]) && c[i] != '.' && c[i] != '<' && c[i] != '>') return 0;
    *word = c;
    return len;
}

bool stage_box_line(const char *s, size_t n)
{
    size_t len;
    return box_content(s, n, &len) != NULL;
}

size_t stage_unbox(char *line, size_t len)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    size_t k = box_glyph(line + i, len - i);
    if (!k) return len;
    /* Rich prints lines around the one that ran ("│   1445 │ ...") and
     * locals in a nested box ("│ │ x = ..."): context, not evidence. Only
     * the frame header and the marked line ("│ ❱ 1448 │ ...") count. */
    size_t j = i + k;
    while (j < len && line[j] == ' ') j++;
    size_t d = j;
    while (d < len && isdigit((unsigned char)line[d])) d++;
    if (d > j) {
        size_t e = d;
        while (e < len && line[e] == ' ') e++;
        if (e == len || box_glyph(line + e, len - e)) return i + k;
    } else if (j < len && box_glyph(line + j, len - j) && !starts(line + j, len - j, "\xe2\x9d\xb1")) {
        return i + k;
    }
    /* Keep the first glyph (the line stays a box line); every later glyph
     * becomes one blank. */
    size_t o = i + k;
    for (size_t r = i + k; r < len;) {
        size_t g = box_glyph(line + r, len - r);
        line[o++] = g ? ' ' : line[r];
        r += g ? g : 1;
    }
    while (o > i + k && line[o - 1] == ' ') o--;
    /* Rich writes a frame "path.py:1448 in state_dict" (or, wrapped,
     * "1448 in state_dict"); Python writes ", in state_dict". */
    size_t b = o;
    while (b > i + k && (isalnum((unsigned char)line[b - 1]) || line[b - 1] == '_' || line[b - 1] == '<' ||
                         line[b - 1] == '>'))
        b--;
    if (b < o && b >= i + k + 5 && memcmp(line + b - 4, " in ", 4) == 0 &&
        isdigit((unsigned char)line[b - 5]) && o < len) {
        memmove(line + b - 3, line + b - 4, o - (b - 4));
        line[b - 4] = ',';
        o++;
    } else if (o >= i + k + 5 && o < len && memcmp(line + o - 3, " in", 3) == 0 &&
               isdigit((unsigned char)line[o - 4])) {
        /* the name wrapped to the next box line: "engine.py:1969 in" */
        memmove(line + o - 2, line + o - 3, 3);
        line[o - 3] = ',';
        o++;
    }
    return o;
}

/* a JVM stack frame, "at pkg.Class.method(File.java:N)",
 * "(Native Method)" for a JNI call into a native library (ND4J's CUDA
 * backend), "(Unknown Source)"; Scala and Kotlin frames alike (".scala:",
 * ".kt:"). The JVM prints them innermost first under the exception
 * (java.lang.Throwable.printStackTrace). *q and *qn: the qualified method,
 * *loc and *ln: what the parentheses hold. */
static bool java_frame_parts(const char *s, size_t n, const char **q, size_t *qn, const char **loc, size_t *ln)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (n - i < 8 || memcmp(s + i, "at ", 3)) return false;
    size_t a = i + 3, e = a, dots = 0;
    while (e < n && (ident(s[e]) || s[e] == '.' || s[e] == '$' || s[e] == '<' || s[e] == '>')) dots += s[e++] == '.';
    if (dots == 0 || e >= n || s[e] != '(' || (!ident(s[e - 1]) && s[e - 1] != '>')) return false;
    const char *close = memchr(s + e, ')', n - e);
    if (!close) return false;
    const char *l = s + e + 1;
    size_t m = (size_t)(close - l);
    bool native = (m == 13 && !memcmp(l, "Native Method", 13)) || (m == 14 && !memcmp(l, "Unknown Source", 14));
    bool source = memmem(l, m, ".java", 5) || memmem(l, m, ".scala", 6) || memmem(l, m, ".kt", 3);
    if (!native && !source) return false;
    *q = s + a, *qn = e - a, *loc = l, *ln = m;
    return true;
}

bool stage_java_frame(const char *s, size_t n)
{
    const char *q, *loc;
    size_t qn, ln;
    return java_frame_parts(s, n, &q, &qn, &loc, &ln);
}

size_t stage_frame_header(char *line, size_t len, size_t cap, const struct stage_frame_parts *f)
{
    char out[STAGE_FRAME_HEADER_MAX];
    if (f->file_n + f->lineno_n + f->name_n + 24 > sizeof out) return len;
    size_t w = 0;
    memcpy(out + w, "File \"", 6), w += 6;
    for (size_t k = 0; k < f->file_n; k++) {
        /* JSON's escaped backslash is one backslash of the path */
        if (f->json_escapes && f->file[k] == '\\' && k + 1 < f->file_n && f->file[k + 1] == '\\') k++;
        out[w++] = f->file[k];
    }
    memcpy(out + w, "\", line ", 8), w += 8;
    if (f->lineno_n) memcpy(out + w, f->lineno, f->lineno_n), w += f->lineno_n;
    else out[w++] = '0';
    memcpy(out + w, ", in ", 5), w += 5;
    for (size_t k = 0; k < f->name_n; k++)
        out[w++] = f->dollar_dots && f->name[k] == '$' ? '.' : f->name[k];
    if (w + 2 > cap) return len;
    memcpy(line, out, w);
    return w;
}

/* A JVM frame rewritten as Python's frame header, 'File "Loc", line N, in
 * Class.method' (a nested class's '$' read as a '.'), so the frame cues and
 * the name's word parts read it as they read Python's; the new length, or
 * len for any other line or when the header does not fit in cap. */
size_t stage_unjava(char *line, size_t len, size_t cap)
{
    const char *q, *loc;
    size_t qn, ln;
    if (!java_frame_parts(line, len, &q, &qn, &loc, &ln)) return len;
    /* the class and the method: the last two parts of the qualified name */
    size_t c = qn;
    for (int dots = 0; c > 0; c--)
        if ((q[c - 1] == '.' || q[c - 1] == '$') && ++dots == 2) break;
    const char *colon = memchr(loc, ':', ln);
    size_t fl = colon ? (size_t)(colon - loc) : ln, dl = 0;
    if (colon)
        while (colon + 1 + dl < loc + ln && isdigit((unsigned char)colon[1 + dl])) dl++;
    struct stage_frame_parts f = {.file = loc, .file_n = fl, .lineno = colon ? colon + 1 : NULL, .lineno_n = dl,
                                  .name = q + c, .name_n = qn - c, .dollar_dots = true};
    return stage_frame_header(line, len, cap, &f);
}

/* A rule of dashes or equal signs (Paddle draws one under "C++ Traceback
 * (most recent call last):" and "C++ Call Stacks (More useful to
 * developers):"). */
static bool rule_line(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
    if (n < 8) return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] != '-' && s[i] != '=') return false;
    return true;
}

/* the same frames with their numbers lost (a paste of
 * Paddle's "C++ Traceback (most recent call last):" whose numbers the
 * copy dropped: "paddle::AnalysisPredictor::ZeroCopyRun()", "void
 * phi::HardSwishKernel<float, phi::GPUContext>(phi::GPUContext const&, …)",
 * PaddlePaddle/PaddleOCR via heldout23 h23-12): a qualified name called at
 * the line's start, a return type before it at most; no log text (": ",
 * '=', quotes) before the call. */
static bool bare_cxx_frame(const char *s, size_t n)
{
    if (n < 6 || !(isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
    const char *paren = memchr(s, '(', n);
    if (!paren || paren == s) return false;
    size_t head = (size_t)(paren - s);
    const char *q = memmem(s, head, "::", 2);
    if (!q || has(s, head, ": ") || memchr(s, '=', head) || memchr(s, '"', head) || memchr(s, '\'', head))
        return false;
    /* at most one word (the return type) before the qualified name */
    const char *blank = memchr(s, ' ', (size_t)(q - s));
    return !blank || !memchr(blank + 1, ' ', (size_t)(q - blank - 1));
}

/* A numbered C++ stack frame, Paddle's: "2   paddle::platform::CUDADeviceContext::
 * CUDADeviceContext(paddle::platform::CUDAPlace)", "0   scale_ad_func(...)":
 * a frame number, two blanks or more, then a name with a call. */
static bool numbered_cxx_frame(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && i < 4 && isdigit((unsigned char)s[i])) i++;
    if (i == 0 || i + 2 >= n || s[i] != ' ' || s[i + 1] != ' ') return false;
    while (i < n && s[i] == ' ') i++;
    if (i >= n || !(isalpha((unsigned char)s[i]) || s[i] == '_')) return false;
    const char *paren = memchr(s + i, '(', n - i);
    return paren && (memmem(s + i, (size_t)(paren - (s + i)), "::", 2) || has(s + i, (size_t)(paren - (s + i)), "_"));
}

/* A line of dots only (three or more, or the ellipsis character). */
static bool elision_line(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
    if (n == 3 && memcmp(s, "\xe2\x80\xa6", 3) == 0) return true;
    if (n < 3) return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] != '.') return false;
    return true;
}

/* a Julia stack frame, "conv! at /root/.julia/packages/CUDA/
 * wTQsK/lib/cudnn/nnlib.jl:91 [inlined]" or "[3] applychain at …/basic.jl:37"
 * (JuliaGPU/CUDA.jl#692 = h24-68): a name, " at ", a path ending in
 * ".jl:" and a line number. */
static bool julia_frame_line(const char *s, size_t n)
{
    const char *at = memmem(s, n, " at ", 4);
    if (!at || at == s) return false;
    const char *name = s;
    /* "[3] name at …": the frame number before the name */
    if (s[0] == '[') {
        const char *close = memchr(s, ']', (size_t)(at - s));
        if (!close || close + 2 > at || close[1] != ' ') return false;
        name = close + 2;
    }
    if (name >= at || memchr(name, ' ', (size_t)(at - name))) return false;
    const char *jl = memmem(at, n - (size_t)(at - s), ".jl:", 4);
    return jl && jl + 4 < s + n && isdigit((unsigned char)jl[4]);
}

/* a MATLAB stack line, "Error in dagnn.Conv/forward (line 11)"
 * or, its "Error in " dropped in a paste, "dagnn.Conv/forward (line 11)"
 * (MATLAB prints the error first and its stack below, innermost first;
 * MatConvNet's out-of-memory error in a convolution layer's forward,
 * heldout40 h40-12): one name (package.Class/method, or a function) and
 * its line. The function is the part after the last '/' (matlab_function). */
static const char *matlab_function(const char *s, size_t n, size_t *fn)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\n')) n--;
    if (starts(s, n, "Error in ")) s += 9, n -= 9;
    const char *tail = memmem(s, n, " (line ", 7);
    if (!tail || tail == s || s[n - 1] != ')' || !isdigit((unsigned char)tail[7])) return NULL;
    for (const char *d = tail + 7; d < s + n - 1; d++)
        if (!isdigit((unsigned char)*d)) return NULL;
    const char *b = s;
    for (const char *q = s; q < tail; q++) {
        if (*q == '/' || *q == '>') b = q + 1; /* a method; a file's local function "cnn_train>process_epoch" */
        else if (!ident(*q) && *q != '.') return NULL;
    }
    if (b == tail || !(isalpha((unsigned char)*b) || *b == '_')) return NULL;
    *fn = (size_t)(tail - b);
    return b;
}

static bool matlab_frame_line(const char *s, size_t n)
{
    size_t fn;
    return matlab_function(s, n, &fn) != NULL;
}

/* Colab folds a traceback's library frames into one line: "7 frames". */
/* TorchScript's traceback prints each frame's source from its "def" line,
 * unindented for a module-level function ("def gelu_impl(x):" under "File
 * ".../modeling_chatglm.py", line 169, in <forward op>", then the body and
 * a "~~~ <--- HERE" marker): Python code, inside the traceback. (diagopen52) */
static bool script_def_line(const char *s, size_t n)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
    return n > 6 && starts(s, n, "def ") && memchr(s, '(', n) && s[n - 1] == ':';
}

static bool folded_frames_line(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
    size_t i = 0;
    while (i < n && i < 4 && isdigit((unsigned char)s[i])) i++;
    return i > 0 && n - i == 7 && memcmp(s + i, " frames", 7) == 0;
}

/* Google Colab renders an IPython frame header as a markdown
 * link, and a paste keeps it: "[/content/sam2/utils/misc.py](https://
 * localhost:8080/#) in load_video_frames(video_path, …)", "[<ipython-input-
 * 10-…>](https://localhost:8080/#) in <cell line: 1>()" (facebookresearch/
 * sam2#264 = h30-74). The position of " in " after the link's ')', else
 * NULL. */
static const char *colab_frame_in(const char *s, size_t n)
{
    if (n < 8 || s[0] != '[') return NULL;
    const char *link = memmem(s, n, "](", 2);
    if (!link) return NULL;
    const char *close = memchr(link + 2, ')', n - (size_t)(link + 2 - s));
    if (!close || (size_t)(close - s) + 5 > n || memcmp(close + 1, " in ", 4)) return NULL;
    return close + 1;
}

/* a Go program's stack (ollama's runner crashing in cgo:
 * "goroutine 51 gp=0xc000602e00 m=5 mp=0xc000100008 [syscall]:" then
 * "github.com/ollama/ollama/llama._Cfunc_llama_decode(0x78abc4a8ef00, {…})"
 * over "\t_cgo_gotypes.go:557 +0x4a", innermost first; ollama/ollama#9568 =
 * h30-28). A frame line is a package path's function with its arguments
 * as Go prints them: hex words, "{…}" or "...". go_frame_name: the name after the package
 * path ("llama.(*Context).Decode.func1"), its length in *n; NULL if the
 * line is no Go frame. */
static bool go_header_line(const char *s, size_t n)
{
    return n > 12 && !memcmp(s, "goroutine ", 10) && isdigit((unsigned char)s[10]) && s[n - 1] == ':' &&
           s[n - 2] == ']';
}

static const char *go_frame_name(const char *s, size_t n, size_t *len)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\n')) n--;
    if (n < 8 || s[n - 1] != ')' || !isalpha((unsigned char)s[0])) return NULL;
    const char *args = NULL;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ' ' || s[i] == '\t') return NULL;
        if (s[i] == '(' && i + 1 < n &&
            (!strncmp(s + i + 1, "0x", 2) || !strncmp(s + i + 1, "...)", 4) || s[i + 1] == '{' || s[i + 1] == ')')) {
            args = s + i;
            break;
        }
    }
    if (!args) return NULL;
    const char *name = s;
    for (const char *p = s; p < args; p++)
        if (*p == '/') name = p + 1;
    /* a package path ("github.com/…") or Go's own packages */
    if (name == s && strncmp(s, "runtime.", 8) && strncmp(s, "main.", 5)) return NULL;
    if (!memchr(name, '.', (size_t)(args - name))) return NULL;
    *len = (size_t)(args - name);
    return name;
}

/* a logger's level tag near the line's start ("[TensorRT-LLM]
 * [INFO] [MemUsageChange] Allocated 20.10 GiB for max tokens in paged KV
 * cache (2112).", "INFO 05-10 16:00:15 [gpu_worker.py:240] ...",
 * "2024-05-01 10:00:00,123 - INFO - ..."): a log line, whatever cue its
 * words hold (NVIDIA/TensorRT-LLM#2398's start-up lines) */
static bool level_tagged(const char *s, size_t n)
{
    static const char *const levels[] = {"INFO", "WARNING", "WARN", "DEBUG", "ERROR", "TRACE"};
    size_t head = n < 48 ? n : 48;
    for (size_t k = 0; k < sizeof levels / sizeof levels[0]; k++) {
        size_t w = strlen(levels[k]);
        for (const char *q = s; (q = memmem(q, head - (size_t)(q - s), levels[k], w)); q++) {
            char before = q == s ? ' ' : q[-1], after = q + w < s + n ? q[w] : ' ';
            if ((before == '[' || before == ' ' || before == '-' || q == s) &&
                (after == ']' || after == ' ' || after == ':'))
                return true;
        }
    }
    return false;
}

/* Kaldi's log header, "LOG (nnet3-train[5.5.0~1]:Train():
 * nnet-training.cc:68) text": a level (LOG, WARNING, ERROR, ASSERTION_FAILED,
 * VLOG[n]), then in parentheses the program (with its version in brackets;
 * Vosk's library names itself "VoskAPI"), the function (__func__) followed
 * by "():", the source file and line (kaldi-asr/kaldi:src/base/
 * kaldi-error.cc@5ef3962a, MessageLogger::LogMessage). A log line, never a
 * traceback's code, and its function is read as a logger's tag. The length
 * of the header with the blank after it, *func the function's name; 0 when
 * the line has no such header. */
static size_t kaldi_header(const char *s, size_t n, const char **func, size_t *fn)
{
    static const char *const levels[] = {"LOG (", "WARNING (", "ERROR (", "ASSERTION_FAILED ("};
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    size_t h = 0;
    for (size_t k = 0; k < sizeof levels / sizeof levels[0] && !h; k++)
        if (n - i > strlen(levels[k]) && !memcmp(s + i, levels[k], strlen(levels[k]))) h = i + strlen(levels[k]);
    if (!h && n - i > 8 && !memcmp(s + i, "VLOG[", 5)) {
        size_t d = i + 5;
        while (d < n && isdigit((unsigned char)s[d])) d++;
        if (d > i + 5 && d + 2 < n && s[d] == ']' && s[d + 1] == ' ' && s[d + 2] == '(') h = d + 3;
    }
    if (!h) return 0;
    size_t m = n - h < 256 ? n - h : 256;
    const char *open = s + h, *fe = memmem(open, m, "():", 3), *end = open + m;
    if (!fe) return 0;
    const char *fb = fe;
    while (fb > open && ident(fb[-1])) fb--;
    if (fb == fe || fb == open || fb[-1] != ':' || memchr(open, ' ', (size_t)(fb - open))) return 0;
    const char *p = fe + 3;
    while (p < end && *p != ':' && *p != ')' && *p != ' ') p++;
    if (p == fe + 3 || p >= end || *p != ':') return 0;
    const char *d = ++p;
    while (p < end && isdigit((unsigned char)*p)) p++;
    if (p == d || p >= end || *p != ')') return 0;
    *func = fb;
    *fn = (size_t)(fe - fb);
    p++;
    if (p < s + n && *p == ' ') p++;
    return (size_t)(p - s);
}

/* A tqdm bar: its bar opens with "%|" and its rate closes it ("it/s]",
 * "s/it]"). */
static bool tqdm_bar(const char *s, size_t n)
{
    return has(s, n, "%|") && (has(s, n, "it/s]") || has(s, n, "s/it]"));
}

/* a tool's indented sub-step line, words ending in an
 * ellipsis ("  Loading Gemma 3 model...", "  Running Gemma 3 forward pass
 * (48 layers)...", "  Processing through connector...": LTX-2's MLX
 * pipeline, heldout33 h33-32): narration, not a traceback's code line
 * (code ending in "..." assigns or calls: "x = ...", "def f(): ...";
 * a narration's parenthesis follows a blank). */
static bool step_narration(const char *s, size_t n)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r')) n--;
    /* after a bullet of dashes (exllamav2's " -- Loading
     * model...", " -- Warmup...", turboderp/exllamav2 exllamav2/model_init.py,
     * test_inference.py), one word is narration too */
    bool bullet = false;
    if (n > 3 && s[0] == '-') {
        size_t b = s[1] == '-' ? 2 : 1;
        if (s[b] == ' ') s += b + 1, n -= b + 1, bullet = true;
    }
    bool dots = (n > 3 && !memcmp(s + n - 3, "...", 3)) || (n > 3 && !memcmp(s + n - 3, "\xe2\x80\xa6", 3));
    if (!dots || !isalpha((unsigned char)s[0]) || (!bullet && !memchr(s, ' ', n))) return false;
    if (memchr(s, '=', n)) return false;
    for (size_t i = 1; i < n; i++)
        if (s[i] == '(' && ident(s[i - 1])) return false; /* a call or a def: "forward(self, x): ..." */
    return true;
}

/* a logged metrics record, "key: value" fields between
 * " | " ("iteration 1010/ 500000 | consumed samples: 517120 | lm loss:
 * 2.809E+00 |", Megatron-LM's training_log, printed indented): a log line,
 * not code, though it names a loss. */
static bool metrics_record(const char *s, size_t n)
{
    int bars = 0;
    for (const char *p = memmem(s, n, " | ", 3); p; p = memmem(p + 3, n - (size_t)(p + 3 - s), " | ", 3)) bars++;
    return bars >= 2 && memmem(s, n, ": ", 2) != NULL;
}

/* A traceback's header line: s (n bytes) after i blanks, no Kaldi line. */
static bool header_line(const char *s, size_t n, size_t i)
{
    return has(s, n, "Traceback (most recent call last)") || starts(s, n, "stack traceback:") ||
        has(s, n, "(most recent call first)") ||
        has(s, n, "Check failure stack trace") || starts(s, n, "Stack (most recent call last)") ||
        /* glog's failure signal handler, "*** SIGABRT (@0x3e8) received
         * by PID 18943 (TID 0x7f5f) from PID 18943; stack trace: ***"
         * (google/glog src/signalhandler.cc DumpSignalInfo) */
        (starts(s, n, "*** SIG") && has(s, n, "; stack trace: ***")) ||
        /* Paddle 1.x, innermost first */
        starts(s, n, "C++ Call Stacks") || (i == 0 && go_header_line(s, n));
}

bool stage_line_is_header(const char *body, size_t len)
{
    size_t i = 0;
    while (i < len && (body[i] == ' ' || body[i] == '\t')) i++;
    if (i == len) return false;
    const char *s = body + i;
    size_t n = len - i;
    return !kaldi_header(s, n, &(const char *){0}, &(size_t){0}) && header_line(s, n, i);
}

/* Caffe's solver records (BVLC/caffe src/caffe/solver.cpp: "    Train net
 * output #" << j << ": " << output_name << " = " ..., and "    Test net
 * output #" in Solver::Test), indented by the solver. (nonpt20) */
static bool solver_record(const char *s, size_t n)
{
    static const char *const records[] = {"Train net output #", "Test net output #"};
    for (size_t r = 0; r < sizeof records / sizeof records[0]; r++)
        if (starts(s, n, records[r])) return true;
    return false;
}

static enum oom_stage ort_node_stage(const char *text, size_t len);

enum stage_line stage_line_kind(const char *body, size_t len)
{
    size_t i = 0;
    while (i < len && (body[i] == ' ' || body[i] == '\t')) i++;
    if (i == len) return STAGE_LINE_BLANK;
    const char *s = body + i;
    size_t n = len - i;
    /* Kaldi's own log line, however it was indented */
    if (kaldi_header(s, n, &(const char *){0}, &(size_t){0})) return STAGE_LINE_OTHER;
    if (header_line(s, n, i)) return STAGE_LINE_HEADER;
    /* A Rich traceback (accelerate, typer): every line sits in a box; its
     * frame header, unboxed, reads "path.py:1448, in state_dict". */
    if (box_glyph(s, n))
        return has(s, n, ", in ") || (n >= 4 && memcmp(s + n - 4, ", in", 4) == 0) ? STAGE_LINE_FRAME
                                                                                  : STAGE_LINE_CODE;
    if (starts(s, n, "File \"") || starts(s, n, "-->") || starts(s, n, "---->") ||
        /* a frame line whose start was cut: 'ch/autograd/__init__.py", line 173, in backward' */
        cut_frame_line(s, n) ||
        starts(s, n, "frame #") || (i == 0 && (numbered_cxx_frame(s, n) || bare_cxx_frame(s, n))) ||
        /* IPython 8: "Cell In[3], line 25", "---> 25 model.to(...)",
         * "File ~/x/models/m.py:210, in M.set_device_ids(self, ids)" */
        starts(s, n, "Cell In[") || starts(s, n, "---> ") || starts(s, n, "<ipython-input-") ||
        /* IPython 8.0-8.5 wrote a blank before the cell number
         * ("Cell In [7], line 1", UKPLab/sentence-transformers = h19-30) */
        starts(s, n, "Cell In [") ||
        (starts(s, n, "File ") && has(s, n, ", in ")) ||
        starts(s, n, "-> ") || starts(s, n, "@ ") || has(s, n, ": in function") ||
        (has(s, n, ".py in ") && !has(s, n, ": ")) || julia_frame_line(s, n) || colab_frame_in(s, n) ||
        matlab_frame_line(s, n) ||
        (i == 0 && go_frame_name(s, n, &(size_t){0})))
        return STAGE_LINE_FRAME;
    /* Frames left out by the one who pasted: "...", "…"; Colab's fold of
     * library frames, "7 frames" (corpus-heldout15 h15-67) */
    if (elision_line(s, n) || rule_line(s, n) || folded_frames_line(s, n) || script_def_line(s, n))
        return STAGE_LINE_CODE;
    if (i > 0 && step_narration(s, n)) return STAGE_LINE_OTHER;
    /* tqdm pads a bar with no description to the left
     * ("  48%|####8     | 24/50 [00:12<00:13,  1.95it/s]"): no code.
     * an indented progress bar is the tool's line, not a
     * traceback's code: YOLOv5's validator right-aligns its metric
     * columns in front of its bar ("                 Class     Images ...
     * mAP50-95:  35%|###4      | 55/157 [00:21<00:39,  2.58it/s]",
     * ultralytics/yolov5:val.py@5081342f) */
    if (i > 0 && (bar_without_description(s, n) || tqdm_bar(s, n) || metrics_record(s, n))) return STAGE_LINE_OTHER;
    /* a trainer's own indented records: Darknet's iteration line (" 7017:
     * 4.85, 4.93 avg loss, 0.002 rate, ...", printed "\n %d: ...") and
     * Caffe's solver outputs ("    Train net output #0: loss = 7.87 (* 1 =
     * 7.87 loss)", solver.cpp's LOG(INFO) << "    " << ...) are log lines,
     * no traceback's code (nonpt20) */
    if (i > 0 && (steps_darknet_line(s, n) || solver_record(s, n))) return STAGE_LINE_OTHER;
    /* ONNX Runtime's executor naming the node it ran is its message, no
     * code, however the paste indents it: a Rust error chain's cause
     * ("Caused by:" over "    Non-zero status code returned while running
     * Add node.", anyhow's report; lightonai/next-plaid#6 = heldout74
     * h74-56), a whole paste indented ("    2022-06-10 ... [E:onnxruntime:,
     * sequential_executor.cc:368 ...] Non-zero status code returned while
     * running Resize node.", hpc203/pp-yoloe-onnxrun-cpp-py#4), a .NET
     * exception's fields ("  Message=[ErrorCode:RuntimeException] Non-zero
     * status code returned while running Trilu node.",
     * cassiebreviu/StableDiffusion#27) (open74) */
    if (i > 0 && ort_node_stage(s, n) != OOM_STAGE_UNKNOWN) return STAGE_LINE_OTHER;
    if (i > 0 || starts(s, n, "During handling") || starts(s, n, "The above exception") ||
        starts(s, n, "^"))
        return STAGE_LINE_CODE;
    /* A code line that lost its indentation (markdown paste) is still code
     * when it names a frame cue: "Variable._execution_engine.run_backward(".
     * not a line that starts in another script, a sentence
     * quoting a call ("我曾经调用 net.evaluate(),但这给了我这个错误:", over a
     * DL4J stack whose frames name the stage, heldout35 h35-26), as the
     * prose walk reads such lines. */
    if ((unsigned char)s[0] < 0x80 && !stage_message_line(s, n) && memchr(s, '(', n) && !level_tagged(s, n) &&
        stage_frame_bits(s, n))
        return STAGE_LINE_CODE;
    return STAGE_LINE_OTHER;
}

/* The pairs of adjacent bytes a text holds, case folded, hashed into a
 * 4096-bit set: a cue whose first pair is not there is not in the text, in
 * any case, so it costs no search (a walk reads each line for
 * every event above it, and a memmem per cue was 29 us a line). The cues'
 * side is built once per program (words_index): each table's first pairs
 * as a set and the cues by pair, so a call intersects two sets and tries
 * only the cues whose pair the text holds; before, each call hashed every
 * cue of the table (some 400 for frame_words) to test it. The fold is
 * c | 0x20: it folds upper-case letters as tolower does (and some
 * punctuation together), so the set may say "maybe" more often, never less. */
#define PAIR_BITS 4096
#define INDEXED_WORDS_MAX 1024
static unsigned pair_hash(unsigned char a, unsigned char b)
{
    return ((unsigned)(a | 0x20) * 131u + (unsigned)(b | 0x20)) % PAIR_BITS;
}

struct words_index {
    const struct stage_word *words;
    size_t count;
    uint64_t firsts[PAIR_BITS / 64];   /* the first pairs of the cues */
    uint16_t start[PAIR_BITS + 1];     /* cues of pair h: order[start[h] .. start[h+1]) */
    uint16_t order[INDEXED_WORDS_MAX];
    uint16_t n_short, shorts[INDEXED_WORDS_MAX]; /* cues shorter than a pair: tried always */
};

static void words_index_build(struct words_index *ix, const struct stage_word *words, size_t count)
{
    ix->words = words;
    ix->count = count;
    uint16_t fill[PAIR_BITS + 1] = {0};
    for (size_t i = 0; i < count; i++) {
        const char *w = words[i].word;
        if (!w[0] || !w[1]) {
            ix->shorts[ix->n_short++] = (uint16_t)i;
            continue;
        }
        unsigned h = pair_hash((unsigned char)w[0], (unsigned char)w[1]);
        ix->firsts[h / 64] |= 1ull << (h % 64);
        ix->start[h + 1]++;
    }
    for (size_t h = 0; h < PAIR_BITS; h++) ix->start[h + 1] += ix->start[h];
    for (size_t i = 0; i < count; i++) {
        const char *w = words[i].word;
        if (!w[0] || !w[1]) continue;
        unsigned h = pair_hash((unsigned char)w[0], (unsigned char)w[1]);
        ix->order[ix->start[h] + fill[h]++] = (uint16_t)i;
    }
}

static struct words_index frame_ix, mask_inner_ix, mask_outer_ix, node_ix;
static void words_index_init(void);
static pthread_once_t words_once = PTHREAD_ONCE_INIT;

/* The stages whose cues occur in text (has_cue): the bits do not depend on
 * the order the cues are tried in. */
static unsigned words_bits(const char *text, size_t len, const struct words_index *ix)
{
    pthread_once(&words_once, words_index_init);
    uint64_t pairs[PAIR_BITS / 64] = {0};
    for (size_t i = 0; i + 1 < len; i++) {
        unsigned h = pair_hash((unsigned char)text[i], (unsigned char)text[i + 1]);
        pairs[h / 64] |= 1ull << (h % 64);
    }
    unsigned bits = 0;
    for (size_t k = 0; k < ix->n_short; k++) {
        const struct stage_word *w = &ix->words[ix->shorts[k]];
        if (!(bits & (1u << w->stage)) && has_cue(text, len, w)) bits |= 1u << w->stage;
    }
    for (size_t b = 0; b < PAIR_BITS / 64; b++) {
        for (uint64_t m = pairs[b] & ix->firsts[b]; m; m &= m - 1) {
            size_t h = b * 64 + (size_t)__builtin_ctzll(m);
            for (size_t j = ix->start[h]; j < ix->start[h + 1]; j++) {
                const struct stage_word *w = &ix->words[ix->order[j]];
                if (!(bits & (1u << w->stage)) && has_cue(text, len, w)) bits |= 1u << w->stage;
            }
        }
    }
    return bits;
}

/* Frames that run the frames they call for a purpose of their own: what
 * those inner frames name for the masked stage (a row's stage) does not
 * count.
 * - Forward-time hooks: FSDP2's unshard and accelerate's offload hooks
 *   (hooks.py pre_forward, new_forward) run before a module's forward; the
 *   weights they move to the GPU (Module._apply,
 *   set_module_tensor_to_device) are no load.
 * - an engine's warm-up runs a generation step to size its
 *   memory or capture its graphs (TGI flash_causal_lm.py warmup ->
 *   self.generate_token(batch), huggingface/text-generation-inference;
 *   vLLM's worker/model_runner.py profile_run -> _dummy_run ->
 *   execute_model, vllm-project/vllm): start-up, nothing is generated yet,
 *   so the generation cues below it are the warm-up's. */
static const struct stage_word mask_inner_words[] = {
    {"pre_forward", OOM_STAGE_LOAD, false}, {", in new_forward", OOM_STAGE_LOAD, false},
    {", in warmup\n", OOM_STAGE_GENERATE, false}, {"profile_run", OOM_STAGE_GENERATE, false},
    {"_dummy_run", OOM_STAGE_GENERATE, false}, {"_dummy_sampler_run", OOM_STAGE_GENERATE, false},
    {"capture_model", OOM_STAGE_GENERATE, false}, {"compile_or_warm_up_model", OOM_STAGE_GENERATE, false},
    /* torch.compile's CUDA graph trees (mode="reduce-overhead") record a
     * graph on a compiled function's first calls, inside whatever runs it
     * (torch/_inductor/cudagraph_trees.py run -> _run -> record_function
     * -> CUDAGraphNode.__init__ -> _record -> torch.cuda.graphs capture_end):
     * no engine's start-up, so the capture's load cues (capture_end(), the
     * node's constructor) do not count; the frames that call the compiled
     * function say the stage (pytorch/pytorch#103715, SAM's model(image)
     * forward; #148439, a Megatron training step; HQQ's compiled
     * generation, heldout63 h63-68, cut above the capture). (open63) */
    {"_inductor/cudagraph_trees.py", OOM_STAGE_LOAD, false}, {"_inductor\\cudagraph_trees.py", OOM_STAGE_LOAD, false},
};

/* a module's forward frame, and a constructor's: an object
 * built inside a forward computes, it loads nothing (RAFT's
 * "corr_fn = CorrBlock(fmap1, fmap2, radius=...)" in RAFT.forward builds the
 * correlation volume in CorrBlock.__init__, princeton-vl/RAFT core/raft.py
 * and core/corr.py). */
bool stage_forward_frame(const char *text, size_t len)
{
    return has(text, len, ", in forward\n");
}

bool stage_constructor_frame(const char *text, size_t len)
{
    return has(text, len, ", in __init__\n");
}

/* the CycleGAN/pix2pix family's backward_G and backward_D_basic
 * compute their losses, running the networks forward ("self.idt_A =
 * self.netG_A(self.real_B)"), then call loss.backward()
 * (junyanz/pytorch-CycleGAN-and-pix2pix: models/cycle_gan_model.py; heldout37
 * h37-59). The ", in backward" cue matches their names; only autograd's own
 * frames make the forward under them part of a backward (activation
 * checkpointing recomputing it inside torch/utils/checkpoint.py backward). */
bool stage_autograd_frame(const char *text, size_t len)
{
    static const char *const autograd[] = {".backward(", ", in backward\n", "run_backward", "torch/autograd/",
                                           "_execution_engine"};
    for (size_t i = 0; i < sizeof autograd / sizeof autograd[0]; i++)
        if (has(text, len, autograd[i])) return true;
    return false;
}

/* a decoder's step method, "…, in decode" or "…, in _decode": sequence
 * models call it once per output step both from their forward (training
 * with teacher forcing: NVIDIA/tacotron2 model.py@1480f829 Decoder.forward
 * "mel_output, gate_output, attention_weights = self.decode(decoder_input)";
 * an encoder-decoder's forward "return self.decode(self.encode(source))",
 * dv66/transformer-from-scratch src/encoder_decoder.py) and from their
 * generation loop (Decoder.inference in the same file). The name alone
 * reads as generation; its caller tells which. */
static const char *frame_function(const char *text, size_t len, size_t *n);

bool stage_decode_step_frame(const char *text, size_t len)
{
    size_t n = 0;
    const char *name = frame_function(text, len, &n);
    if (!name) return false;
    while (n && *name == '_') name++, n--;
    return n == 6 && !memcmp(name, "decode", 6);
}

/* A differentiable renderer called from a training loop is the model's
 * forward pass: 3D Gaussian splatting's train.py, "render_pkg =
 * render(viewpoint_cam, gaussians, pipe, bg)" in training()
 * (graphdeco-inria/gaussian-splatting train.py, kept by its forks: the
 * labelled pastes heldout13 h13-16, heldout16 h16-32, heldout37 h37-10 and
 * h37-100, heldout44 h44-81), and NeRF trainers' "outputs =
 * self.model.render(rays_o, rays_d, ...)" in train_step (nerf2mesh, h40-28).
 * The same call in an inference app renders the output (generate: h20-34,
 * h30-72), so the caller's name decides: a training loop's frame (first
 * word part train or training, the rest a loop's: step, epoch, one, iter,
 * iteration, loop, batch; not "training_report", which evaluates). (open38) */
static size_t next_part(const char *name, size_t n, size_t *pos, bool digits, const char **part);

bool stage_train_loop_frame(const char *text, size_t len)
{
    static const char *const loop_parts[] = {"step", "epoch", "one", "iter", "iteration", "loop", "batch"};
    size_t n = 0;
    const char *name = frame_function(text, len, &n);
    if (!name) return false;
    while (n && *name == '_') name++, n--;
    size_t pos = 0, k, first = 1;
    const char *part;
    while ((k = next_part(name, n, &pos, false, &part)) > 0) {
        if (first) {
            if (!((k == 5 && !strncasecmp(part, "train", 5)) || (k == 8 && !strncasecmp(part, "training", 8))))
                return false;
            first = 0;
            continue;
        }
        bool ok = false;
        for (size_t i = 0; i < sizeof loop_parts / sizeof loop_parts[0] && !ok; i++)
            ok = strlen(loop_parts[i]) == k && !strncasecmp(part, loop_parts[i], k);
        if (!ok) return false;
    }
    return !first;
}

/* the code line's first call is a renderer's: the called name, or its
 * last dotted part, has the word part render or renderer ("render(",
 * "self.model.render(", "self.renderer(") */
bool stage_render_call(const char *text, size_t len)
{
    const char *open = memchr(text, '(', len);
    if (!open) return false;
    const char *a = open;
    while (a > text && ident(a[-1])) a--;
    size_t pos = 0, k;
    const char *part;
    while ((k = next_part(a, (size_t)(open - a), &pos, false, &part)) > 0)
        if ((k == 6 && !strncasecmp(part, "render", 6)) || (k == 8 && !strncasecmp(part, "renderer", 8)))
            return true;
    return false;
}

/* torch/nn/modules/module.py's own line that runs a module's forward, in
 * its forms since 0.x: Module.__call__ "result = self.forward(*input,
 * **kwargs)" (torch <= 1.5, heldout54 h54-49), _call_impl "return
 * forward_call(*input, **kwargs)" (1.6 .. 1.12, amirbar/DETReg#54) and
 * "return forward_call(*args, **kwargs)" (2.x,
 * SonySemiconductorSolutions/mct-model-optimization#1498) */
bool stage_module_call_code(const char *text, size_t len)
{
    static const char *const calls[] = {"self.forward(*input, **kwargs)", "forward_call(*input, **kwargs)",
                                        "forward_call(*args, **kwargs)"};
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (has(text, len, calls[i])) return true;
    return false;
}

unsigned stage_masks_inner(const char *text, size_t len)
{
    return words_bits(text, len, &mask_inner_ix);
}

/* Frames that run the frames they call for a purpose of their own, whose
 * CALLERS' stage does not hold inside them (the outer frames' cues for the
 * row's stage do not count; stage_masks_outer):
 * - An optimizer running its closure: the step has not begun, the closure's
 *   forward and backward run inside it (Lightning's automatic optimization:
 *   adam.py step "loss = closure()" -> precision _wrap_closure
 *   "closure_result = closure()" -> automatic.py closure -> _training_step ->
 *   training_step; torch.optim's LBFGS "loss = float(closure())").
 * - a generation encoding its prompt. The text encoder
 *   runs one forward pass over the prompt before any sampling step, so the
 *   generate call around it is not the stage; the encoder's forward is (the
 *   labellers' "encoders inside generation are forward", h27-83, h29-09,
 *   h30-108). Diffusers pipelines call self.encode_prompt( ->
 *   _get_t5_prompt_embeds / _get_clip_prompt_embeds -> self.text_encoder(
 *   (huggingface/diffusers: pipelines/flux/pipeline_flux.py,
 *   pipelines/stable_diffusion_3/pipeline_stable_diffusion_3.py); Wan's
 *   generate calls "context = self.text_encoder([input_prompt], self.device)"
 *   (Wan-Video/Wan2.1: wan/text2video.py); ldm and the A1111 web UI
 *   model.get_learned_conditioning(prompts); CLIP model.encode_text(;
 *   ComfyUI clip.encode_from_tokens(. Encoding an init image with the VAE
 *   is the sampler's own work (inpaint, img2img: generate, h31-44) and
 *   stays out. */
static const struct stage_word mask_outer_words[] = {
    {"closure()", OOM_STAGE_OPTIMIZER, false}, {".closure(", OOM_STAGE_OPTIMIZER, false},
    {"_wrap_closure", OOM_STAGE_OPTIMIZER, false}, {", in closure\n", OOM_STAGE_OPTIMIZER, false},
    {", in _training_step", OOM_STAGE_OPTIMIZER, false},
    {"encode_prompt", OOM_STAGE_GENERATE, false}, {"get_t5_prompt_embeds", OOM_STAGE_GENERATE, false},
    {"get_clip_prompt_embeds", OOM_STAGE_GENERATE, false}, {"get_qwen_prompt_embeds", OOM_STAGE_GENERATE, false},
    {"text_encoder(", OOM_STAGE_GENERATE, W}, {"text_encoder_2(", OOM_STAGE_GENERATE, W},
    {"text_encoder_3(", OOM_STAGE_GENERATE, W}, {"get_learned_conditioning(", OOM_STAGE_GENERATE, false},
    {"encode_text(", OOM_STAGE_GENERATE, false}, {"encode_from_tokens(", OOM_STAGE_GENERATE, false},
    /* Lua Torch's unit-test runner (torch/Tester.lua: run -> _run ->
     * pcall -> each test): the frames that call it are a library's test
     * suite ("cutorch/test.lua: in function 'test'", cutorch.test()), a
     * test of the library, not the model's evaluation (torch/cutorch#498 =
     * heldout70 h70-07, torch/cunn#117 = heldout24 h24-42; both labelled
     * no stage). (over26) */
    {"/torch/Tester.lua:", OOM_STAGE_EVAL, false},
};

unsigned stage_masks_outer(const char *text, size_t len)
{
    return words_bits(text, len, &mask_outer_ix);
}

/* An IPython frame header ("/x/keras/engine/training.py in _fit_loop(self,
 * f, ..., validation_steps)") names its function, then the parameters:
 * those are no code that ran (validation_steps is no validation_step).
 * The length up to and with the '(' after the name; len otherwise. */
static size_t frame_name_len(const char *text, size_t len)
{
    size_t lead = 0;
    while (lead < len && (text[lead] == ' ' || text[lead] == '\t')) lead++;
    const char *colab = colab_frame_in(text + lead, len - lead);
    const char *p = colab ? colab - 3 : memmem(text, len, ".py in ", 7); /* " in " ends 7 on */
    if (!p || memmem(text, (size_t)(p - text), ", line ", 7)) return len;
    size_t i = (size_t)(p - text) + 7;
    while (i < len && (ident(text[i]) || text[i] == '.' || text[i] == '<' || text[i] == '>')) i++;
    return i < len && text[i] == '(' ? i + 1 : len;
}

/* ---- names by their word parts ---------------------------
 * A frame names what runs twice: its function and its file. Both are
 * identifiers made of word parts ("val_one_epoch", "BaseTrainer.validate",
 * "eval_completion.py", "coco_eval.py", "train_dataset_group"), and a part
 * names a stage in any trainer or app, where a literal cue names it in one.
 * Parts are split at '_', '.', '-', digits and lower-to-upper case changes,
 * and compared in lower case; P: the part may go on ("evaluat" in
 * evaluate, evaluation, evaluator). Parts that name no stage on their own
 * are left out: "checkpoint" (activation checkpointing runs forward and
 * backward), "sample"/"sampler" (distributions and data samplers),
 * "generator" (a GAN's model), "test" (test.py runs inference), nouns of
 * what a function handles ("optimizer_state" while a checkpoint is dumped,
 * "_configure_optimizer" at set-up; ignite's training loop
 * "_run_once_on_dataset"). A file's name counts only for the program's own
 * files: installed libraries are named by the cue table above (torch's
 * "_dynamo/eval_frame.py" evaluates Python frames, no model). */
#define P 4
#define E 8 /* the part names its stage last in the name, or before a gen_objects part */
static const struct stage_word name_parts[] = {
    {"eval", OOM_STAGE_EVAL, 0}, {"evaluat", OOM_STAGE_EVAL, P}, {"validat", OOM_STAGE_EVAL, P},
    {"valid", OOM_STAGE_EVAL, 0}, {"val", OOM_STAGE_EVAL, 0}, {"metric", OOM_STAGE_EVAL, P},
    {"save", OOM_STAGE_CHECKPOINT, P}, {"saving", OOM_STAGE_CHECKPOINT, 0},
    /* not "restore": image apps restore faces and photos at
     * inference (A1111 face_restoration.restore_faces -> codeformer_model
     * restore, TheLastBen/fast-stable-diffusion#902 = h15-90, inside a
     * txt2img generation); a checkpoint's restore is named by the cue table
     * (restore_checkpoint, saver.restore(, checkpoint.restore() */
    {"load", OOM_STAGE_LOAD, 0}, {"loading", OOM_STAGE_LOAD, 0},
    /* loading ahead or again is loading: bark's "preload_models" loads its
     * text, coarse, fine and codec models onto the device (suno-ai/bark
     * bark/generation.py: preload_models -> load_model -> _load_model
     * "model.to(device)", the traceback of suno-ai/bark#310; the reporter's
     * "CUDA out of memory error while running preload_models", #315 =
     * heldout59 h59-31), a Stable Diffusion port's "preload_models(device)"
     * building its CLIP, encoder, decoder and diffusion parts on the device
     * (kjsman/stable-diffusion-pytorch:stable_diffusion_pytorch/
     * model_loader.py@9dad6753); A1111's
     * "reload_model_weights" loads a checkpoint's weights onto the GPU
     * (AUTOMATIC1111/stable-diffusion-webui modules/sd_models.py). With a
     * data noun last they read the data, as "load" does (role_parts). (open59) */
    {"preload", OOM_STAGE_LOAD, 0}, {"reload", OOM_STAGE_LOAD, 0},
    /* loading back: the RL trainers that offload a model or an
     * inference engine between phases move it back with "backload_to_gpu"
     * (Open-Reasoner-Zero's LLMActor, vLLM's wake_up or load_gpu:
     * michalgregor/Open-Reasoner-Zero:orz/exp_engine/accelerators/inference/
     * vllm_engine.py@a3e0a3ba; SkyRL's policy workers and strategies,
     * "Reload model weights back to GPU": zanderjiang/SkyRL-IsoExec:skyrl/
     * backends/skyrl_train/distributed/megatron/megatron_strategy.py@251e2d60,
     * NovaSky-AI/SkyRL:skyrl-train/skyrl_train/workers/deepspeed/
     * deepspeed_worker.py and skyrl/backends/skyrl_train/workers/fsdp/
     * fsdp_worker.py, versions other than the stored ones), under
     * "RayTaskError(OutOfMemoryError): ray::LLMActor.backload_to_gpu()"
     * (Open-Reasoner-Zero/Open-Reasoner-Zero#21 = heldout42 h42-62, load).
     * (open62) */
    {"backload", OOM_STAGE_LOAD, 0},
    {"dataloader", OOM_STAGE_DATA, P}, {"loader", OOM_STAGE_DATA, 0}, {"collat", OOM_STAGE_DATA, P},
    /* "generate" names generation as the name's verb alone
     * ("generate", "model_generate") or with what a generator makes
     * (generate_text, generate_images: gen_objects below), not with another
     * object: "generate_emissions" aligns speech by a forward pass
     * (MahmoudAshraf97/whisper-diarization#286 = h18-51),
     * "_generate_master_params" builds an optimizer's fp32 copies at set-up
     * (PaddlePaddle/Paddle#68079 = h18-67) */
    {"generate", OOM_STAGE_GENERATE, E}, {"generation", OOM_STAGE_GENERATE, 0},
    {"decode", OOM_STAGE_GENERATE, 0}, {"decoding", OOM_STAGE_GENERATE, 0},
    /* a translator decoding (OpenNMT's translator.translate, Lua
     * Translator:translateBatch, BeamSearcher:search; read from
     * corpus-heldout16's set-aside misses). Not "translation": HF's
     * run_translation.py trains. */
    {"translate", OOM_STAGE_GENERATE, 0}, {"translator", OOM_STAGE_GENERATE, 0},
    {"beam", OOM_STAGE_GENERATE, 0},
    /* a program named for synthesis makes speech or images
     * (wavenet_vocoder's synthesis.py -> wavegen, r9y9/wavenet_vocoder#37 =
     * h15-98): generation, as the verb table's "synthes" */
    {"synthes", OOM_STAGE_GENERATE, P},
    {"backward", OOM_STAGE_BACKWARD, 0}, {"forward", OOM_STAGE_FORWARD, 0},
    /* a function or script named for inference runs the model
     * forward ("in infer" in so-vits-svc's infer_tool, "in inference(" in a
     * notebook, inference_realesrgan.py); a loss is computed in the forward
     * of the step (TTS losses.py feature_loss, compute_loss_ota). Forward is
     * the weakest stage: evaluation, generation and the rest outrank it.
     * Not "predict": gradio's routes.py run_predict serves every web UI,
     * generative ones included. */
    {"infer", OOM_STAGE_FORWARD, 0}, {"inference", OOM_STAGE_FORWARD, 0},
    {"loss", OOM_STAGE_FORWARD, 0}, {"losses", OOM_STAGE_FORWARD, 0},
    /* user code: "vali" is the validation of the time-series
     * experiment classes (thuml/Time-Series-Library exp/exp_long_term_
     * forecasting.py "def vali(self, vali_data, vali_loader, criterion)",
     * zhouhaoyi/Informer2020 exp/exp_informer.py, and their forks); DDIM
     * and PLMS name diffusion samplers only (openai/improved-diffusion
     * gaussian_diffusion.py ddim_sample_loop, CompVis/latent-diffusion
     * ldm/models/diffusion/ddim.py and plms.py). Not "ddpm": that is the
     * model and its training (latent-diffusion's ddpm.py p_losses). */
    {"vali", OOM_STAGE_EVAL, 0}, {"ddim", OOM_STAGE_GENERATE, 0}, {"plms", OOM_STAGE_GENERATE, 0},
};

/* What a generator makes: the parts after "generate" that keep it a
 * generation (E above). */
static const char *const gen_objects[] = {"text", "texts", "token", "tokens", "image", "images", "img", "imgs",
    "sample", "samples", "video", "videos", "audio", "speech", "response", "responses", "answer", "answers",
    "caption", "captions", "until", "step", "content", "output", "outputs", "sequence", "sequences", "stream",
    "completion", "completions", "chat", "reply", "replies",
    /* a continuation of a prompt: audiocraft's MusicGen/AudioGen
     * "generate_continuation(prompt, ...)" samples tokens after an audio
     * prompt (facebookresearch/audiocraft:audiocraft/models/genmodel.py@
     * 7581ba3a, called as "next_segment = MODEL.generate_continuation(" by
     * GrandaddyShmax/audiocraft_plus#16 = heldout74 h74-11) (open74) */
    "continuation", "continuations"};

/* next: the part after this one in the name (its length 0 at the end) */
static unsigned part_bits(const char *part, size_t n, const char *next, size_t nn)
{
    unsigned bits = 0;
    for (size_t i = 0; i < sizeof name_parts / sizeof name_parts[0]; i++) {
        size_t k = strlen(name_parts[i].word);
        if (!((n == k || (name_parts[i].at == P && n > k)) && strncasecmp(part, name_parts[i].word, k) == 0))
            continue;
        if (name_parts[i].at == E && nn) {
            bool object = false;
            for (size_t g = 0; g < sizeof gen_objects / sizeof gen_objects[0] && !object; g++)
                object = strlen(gen_objects[g]) == nn && !strncasecmp(next, gen_objects[g], nn);
            if (!object) continue;
        }
        bits |= 1u << name_parts[i].stage;
    }
    return bits;
}

/* The next word part of name from *pos on: a run of letters (and digits,
 * when digits) ended by any other character or a lower-to-upper case
 * change ("valOneEpoch": val, One, Epoch); its length, 0 at the end. */
static size_t next_part(const char *name, size_t n, size_t *pos, bool digits, const char **part)
{
    size_t i = *pos;
#define IN_PART(c) (digits ? isalnum((unsigned char)(c)) : isalpha((unsigned char)(c)))
    while (i < n && !IN_PART(name[i])) i++;
    size_t a = i;
    while (i < n && IN_PART(name[i]) &&
           !(i > a && isupper((unsigned char)name[i]) && islower((unsigned char)name[i - 1])))
        i++;
#undef IN_PART
    *pos = i;
    *part = name + a;
    return i - a;
}

/* ---- parts that name a stage together ----------------------------
 * Some parts name a stage only beside another part: what a name loads or
 * updates says which stage it is.
 * - load + a data noun as the name's last part loads the program's data,
 *   not a model: sam2's "load_video_frames" moving every frame of a video
 *   to the GPU ("image = image.cuda()", facebookresearch/sam2#264 =
 *   h30-74), "load_images", "load_data"; not "load_image_encoder" (a
 *   model part).
 * - update + param(s)/parameters applies the gradients: MXNet's
 *   Module.update -> model._update_params_on_kvstore -> kvstore.push
 *   (apache/mxnet model.py; deepinsight/insightface#258 = h28-69),
 *   torch7-style "updateParameters".
 * - model + loader loads the model, whatever "loader" alone says
 *   (llama.cpp's "llama_model_loader", vLLM's "get_model_loader").
 * - optim/optimizer + step or update is an optimizer step by any name:
 *   Plenoxels' "grid.optim_background_step" (sxyu/svox2 svox2.py;
 *   sxyu/plenoxels#24 = h26-95), "optim_step". */
/* From research code's own loops:
 * - sample + p (the reverse process p(x_t-1 | x_t)) or + loop is diffusion
 *   sampling: "p_sample", "p_sample_loop", "p_sample_loop_progressive"
 *   (openai/guided-diffusion and improved-diffusion gaussian_diffusion.py,
 *   lucidrains/denoising-diffusion-pytorch, CompVis/latent-diffusion
 *   ddpm.py), "sample_loop"; "sample" alone stays no stage (data samplers,
 *   "q_sample" noising a training batch, "sample_and_group" in a point-cloud
 *   forward, "sample_data" iterating a loader).
 * - ema + update moves the averaged weights after the optimizer step:
 *   "update_ema_variables" (HiLab-git/SSL4MIS train_*.py), guided-
 *   diffusion's "_update_ema", "ema_update": the optimizer stage.
 * - estimate + loss is nanoGPT's "estimate_loss" (karpathy/nanoGPT
 *   train.py, @torch.no_grad(), the loss on the train and val splits; kept
 *   in its forks): evaluation.
 * - test + epoch or loop is the per-epoch test pass a training
 *   script runs between its training epochs ("test_epoch", "test_one_epoch",
 *   "test_loop": pointMLP's part segmentation main.py train -> test_epoch,
 *   heldout40 h40-04): evaluation. "test" alone stays no stage (test.py
 *   runs inference). */
/* - sample + a diffusion solver's name is a sampler's loop: k-diffusion's
 *   sample_euler, sample_heun, sample_lms, sample_dpm_2, sample_dpmpp_2m
 *   (crowsonkb/k-diffusion:k_diffusion/sampling.py), ComfyUI's sample_lcm,
 *   sample_deis, sample_ipndm (comfy/k_diffusion/sampling.py), FramePack's
 *   sample_unipc (lllyasviel/FramePack diffusers_helper/k_diffusion/
 *   uni_pc_fm.py; FP-Studio/framepack-studio#111 = heldout52 h52-06, the
 *   video model called inside it): generate. (diagopen52)
 * - save + a data noun as the name's last part writes outputs (frames,
 *   features, images), not a checkpoint: "save_dino_embed_video".
 * make + a served model's object names its set-up, load:
 * an engine or server creates the model (instance, session, executor,
 * runner) before it serves anything. lmdeploy TurboMind's
 * "_create_model_instance" -> "model_comm.create_model_instance(" at
 * engine start (InternLM/lmdeploy turbomind.py; heldout33 h33-37, -38),
 * vLLM's "_init_executor" (vllm/executor/), TensorRT-LLM's PyTorch
 * backend "create_py_executor" (tensorrt_llm/_torch/pyexecutor/
 * py_executor_creator.py), ONNX Runtime's "_create_inference_session",
 * TF 1.x "create_session", "init_engine", "setup_model"; build only with
 * "model" (detectron2's build_model places the model at set-up; a
 * TensorRT builder's build_engine converts a model, no stage). Not
 * "pipeline": DALI creates its input pipeline (data). */
enum { ROLE_LOAD = 1, ROLE_DATA = 2, ROLE_UPDATE = 4, ROLE_PARAMS = 8, ROLE_OPTIM = 16, ROLE_STEP = 32,
       ROLE_SAMPLE = 64, ROLE_REVERSE = 128, ROLE_LOOP = 256, ROLE_EMA = 512, ROLE_ESTIMATE = 1024,
       ROLE_LOSS = 2048, ROLE_MAKE = 4096, ROLE_SERVED = 8192, ROLE_BUILD = 16384, ROLE_MODEL = 32768,
       ROLE_TEST = 65536, ROLE_EPOCH = 131072, ROLE_LOADER = 262144, ROLE_SAVE = 524288,
       ROLE_SOLVER = 1048576, ROLE_WEIGHTS = 2097152 };
static const struct {
    const char *part;
    unsigned role;
} role_parts[] = {
    {"load", ROLE_LOAD}, {"data", ROLE_DATA}, {"dataset", ROLE_DATA}, {"batch", ROLE_DATA},
    {"frame", ROLE_DATA}, {"frames", ROLE_DATA}, {"image", ROLE_DATA}, {"images", ROLE_DATA},
    {"img", ROLE_DATA}, {"imgs", ROLE_DATA}, {"video", ROLE_DATA}, {"videos", ROLE_DATA},
    {"audio", ROLE_DATA}, {"samples", ROLE_DATA}, {"inputs", ROLE_DATA},
    /* reading or fetching media is loading the data too:
     * torchvision.io's read_video/read_image, qwen-vl-utils' fetch_video/
     * fetch_image (QwenLM/Qwen2.5-VL qwen-vl-utils vision_process.py, under
     * lmms-eval's generate_until, heldout33 h33-88) */
    {"read", ROLE_LOAD}, {"fetch", ROLE_LOAD},
    {"preload", ROLE_LOAD}, {"reload", ROLE_LOAD}, {"backload", ROLE_LOAD},
    /* opening media is reading them: depthmap-script's video mode
     * "open_path_as_images" turning every frame of the input video into an
     * image (thygate/stable-diffusion-webui-depthmap-script#457 = heldout59
     * h59-48, under its "run_generate"), "open_image", "open_video"
     * (open59) */
    {"open", ROLE_LOAD},
    {"update", ROLE_UPDATE}, {"param", ROLE_PARAMS}, {"params", ROLE_PARAMS}, {"parameters", ROLE_PARAMS},
    {"optim", ROLE_OPTIM}, {"optimizer", ROLE_OPTIM}, {"step", ROLE_STEP},
    {"sample", ROLE_SAMPLE}, {"sampling", ROLE_SAMPLE}, {"p", ROLE_REVERSE}, {"loop", ROLE_LOOP},
    {"ema", ROLE_EMA}, {"estimate", ROLE_ESTIMATE}, {"loss", ROLE_LOSS},
    {"test", ROLE_TEST}, {"epoch", ROLE_EPOCH}, {"loader", ROLE_LOADER}, {"save", ROLE_SAVE},
    {"weight", ROLE_WEIGHTS}, {"weights", ROLE_WEIGHTS},
    {"euler", ROLE_SOLVER}, {"heun", ROLE_SOLVER}, {"lms", ROLE_SOLVER}, {"dpm", ROLE_SOLVER},
    {"dpmpp", ROLE_SOLVER}, {"unipc", ROLE_SOLVER}, {"lcm", ROLE_SOLVER}, {"deis", ROLE_SOLVER},
    {"ipndm", ROLE_SOLVER},
    {"create", ROLE_MAKE}, {"init", ROLE_MAKE}, {"initialize", ROLE_MAKE}, {"initialise", ROLE_MAKE},
    {"instantiate", ROLE_MAKE}, {"construct", ROLE_MAKE}, {"setup", ROLE_MAKE}, {"build", ROLE_BUILD},
    {"model", ROLE_SERVED | ROLE_MODEL}, {"engine", ROLE_SERVED}, {"instance", ROLE_SERVED},
    {"session", ROLE_SERVED}, {"executor", ROLE_SERVED}, {"runner", ROLE_SERVED}, {"llm", ROLE_SERVED},
};

static unsigned part_roles(const char *part, size_t n)
{
    unsigned roles = 0;
    for (size_t i = 0; i < sizeof role_parts / sizeof role_parts[0]; i++)
        if (strlen(role_parts[i].part) == n && !strncasecmp(part, role_parts[i].part, n)) roles |= role_parts[i].role;
    return roles;
}

static unsigned role_bits(unsigned bits, unsigned roles, bool data_last)
{
    if ((roles & ROLE_LOAD) && data_last) bits = (bits & ~(1u << OOM_STAGE_LOAD)) | 1u << OOM_STAGE_DATA;
    /* save + a data noun last writes the program's outputs, no checkpoint:
     * dino-tracker's preprocessing "save_dino_embed_video" (features of a
     * video's frames, heldout52 h52-53), "save_images" (diagopen52) */
    if ((roles & ROLE_SAVE) && data_last) bits &= ~(1u << OOM_STAGE_CHECKPOINT);
    if ((roles & (ROLE_UPDATE | ROLE_PARAMS)) == (ROLE_UPDATE | ROLE_PARAMS) ||
        ((roles & ROLE_OPTIM) && (roles & (ROLE_UPDATE | ROLE_STEP))))
        bits |= 1u << OOM_STAGE_OPTIMIZER;
    if ((roles & ROLE_SAMPLE) && (roles & (ROLE_REVERSE | ROLE_LOOP | ROLE_SOLVER))) bits |= 1u << OOM_STAGE_GENERATE;
    if ((roles & (ROLE_EMA | ROLE_UPDATE)) == (ROLE_EMA | ROLE_UPDATE)) bits |= 1u << OOM_STAGE_OPTIMIZER;
    if ((roles & (ROLE_ESTIMATE | ROLE_LOSS)) == (ROLE_ESTIMATE | ROLE_LOSS)) bits |= 1u << OOM_STAGE_EVAL;
    if ((roles & ROLE_TEST) && (roles & (ROLE_EPOCH | ROLE_LOOP))) bits |= 1u << OOM_STAGE_EVAL;
    if (((roles & ROLE_MAKE) && (roles & ROLE_SERVED)) || ((roles & ROLE_BUILD) && (roles & ROLE_MODEL)))
        bits |= 1u << OOM_STAGE_LOAD;
    /* a loader of a model is no data loader: llama.cpp logs its
     * loader's lines under the constructor's name, "llama_model_loader:
     * loaded meta data with 27 key-value pairs" and one "- kv N:" line per
     * key (ggml-org/llama.cpp:src/llama-model-loader.cpp@3074b500), vLLM's
     * "get_model_loader" (vllm-project/vllm:vllm/model_executor/
     * model_loader/__init__.py@e9234694). A loader of weights likewise:
     * every vLLM and SGLang layer copies its checkpoint shard into its
     * parameter in "weight_loader" ("param_data.copy_(loaded_weight)",
     * vllm-project/vllm:vllm/model_executor/layers/linear.py, and
     * model_loader/weight_utils.py "default_weight_loader"; sgl-project/
     * sglang:python/sglang/srt/layers/linear.py), the innermost frame of a
     * start-up that runs out copying a shard (vllm-project/vllm-ascend#2546:
     * load_weights -> weight_loader -> "Failed to allocate memory") */
    if ((roles & ROLE_LOADER) && (roles & (ROLE_MODEL | ROLE_WEIGHTS)))
        bits = (bits & ~(1u << OOM_STAGE_DATA)) | 1u << OOM_STAGE_LOAD;
    return bits;
}

/* The stages the word parts of an identifier name. */
unsigned stage_name_bits(const char *name, size_t n)
{
    unsigned bits = 0, roles = 0;
    bool train = false, data_last = false, metric = false, loss = false, eval_word = false;
    /* the parts before an "and" that a verb opens, and the checkpoint a
     * part after it names */
    bool and_seen = false, save_after_and = false, save_before_and = false;
    bool get_first = false, frame_last = false;
    const char *part;
    size_t pos = 0, k = next_part(name, n, &pos, false, &part);
    get_first = k == 3 && !strncasecmp(part, "get", 3);
    while (k) {
        const char *next;
        size_t nk = next_part(name, n, &pos, false, &next);
        /* a '-' joins a variant, not an object ("generate-hf.py") */
        bool variant = nk && next > part + k && memchr(part + k, '-', (size_t)(next - part - k));
        unsigned pb = part_bits(part, k, next, variant ? 0 : nk);
        bits |= pb;
        if (k == 3 && !strncasecmp(part, "and", 3) && part > name) and_seen = true;
        if ((pb & 1u << OOM_STAGE_CHECKPOINT) && and_seen) save_after_and = true;
        if ((pb & 1u << OOM_STAGE_CHECKPOINT) && !and_seen) save_before_and = true;
        train |= (k == 5 && !strncasecmp(part, "train", 5)) || (k == 8 && !strncasecmp(part, "training", 8));
        bool is_metric = k >= 6 && !strncasecmp(part, "metric", 6);
        metric |= is_metric;
        loss |= (k == 4 && !strncasecmp(part, "loss", 4)) || (k == 6 && !strncasecmp(part, "losses", 6));
        eval_word |= !is_metric && (part_bits(part, k, next, 0) & 1u << OOM_STAGE_EVAL);
        roles |= part_roles(part, k);
        data_last = nk == 0 && (part_roles(part, k) & ROLE_DATA);
        frame_last = nk == 0 && ((k == 5 && !strncasecmp(part, "frame", 5)) ||
                                 (k == 6 && !strncasecmp(part, "frames", 6)));
        part = next;
        k = nk;
    }
    bits = role_bits(bits, roles, data_last);
    /* getting a video's frame reads the input: a video reader's
     * "get_frame" (the VideoReader of sczhou/CodeFormer:basicsr/utils/
     * video_util.py@efc0a3ce, kept by jnjaby/KEEP and the CodeFormer
     * forks, run by inference_codeformer.py over a MemoryError,
     * sczhou/CodeFormer#428 = heldout74 h74-25; moviepy's Clip.get_frame, Zulko/moviepy
     * moviepy/Clip.py, under heldout59 h59-48's iter_frames), "get_frames".
     * Only "get" first and the frame last: "get" with other nouns
     * ("get_batch", "get_images") is left as it was: read as loading, it
     * cost 21 seen stage rows. (open74) */
    if (get_first && frame_last) bits |= 1u << OOM_STAGE_DATA;
    /* a name for the whole loop, training and evaluating
     * ("train_and_evaluate", "train_val"), names no evaluation: the frames
     * inside it say which of the two ran (a GAN's train -> netD forward,
     * h26-125) */
    if (train) bits &= ~(1u << OOM_STAGE_EVAL);
    /* nor a load: a training script named for what it starts
     * from ("train_nsf_sim_cache_sid_load_pretrain.py", RVC's trainer,
     * RVC-Project/Retrieval-based-Voice-Conversion-WebUI = h29-75, whose
     * frames run the discriminator's forward) trains */
    if (train) bits &= ~(1u << OOM_STAGE_LOAD);
    /* a name for a job and the save of its result ("quantize_and_save",
     * AutoRound's API, whose frame calls self.quantize() first: intel/
     * auto-round#1451; AutoAWQ scripts' own, casper-hansen/AutoAWQ =
     * heldout63 h63-16; "train_and_save", "process_and_save" in
     * repositories' code, find_string "_and_save("): the save comes last,
     * the frames inside say whether it ran. A save before the "and"
     * ("save_model_and_optimizer_sharded", h15-26) is the name's verb. */
    if (save_after_and && !save_before_and) bits &= ~(1u << OOM_STAGE_CHECKPOINT);
    /* nor does a name for the round trip, saving and loading
     * ("quantize_save_load.py", the script of casper-hansen/AutoAWQ =
     * heldout63 h63-16 that quantizes, saves and loads back; "save_load",
     * "load_and_save"): the frames inside say which ran, as for both passes
     * below */
    const unsigned round_trip = 1u << OOM_STAGE_CHECKPOINT | 1u << OOM_STAGE_LOAD;
    if ((bits & round_trip) == round_trip) bits &= ~round_trip;
    /* the loss with its metrics ("get_batch_loss_metrics", the
     * step of TRL's DPO, CPO, ORPO and KTO trainers, called by compute_loss
     * and prediction_step alike: huggingface/trl trl/trainer/dpo_trainer.py)
     * is the step's forward, no evaluation: "metric" beside "loss" and no
     * evaluation word ("eval_loss_metrics" stays) */
    if (metric && loss && !eval_word) bits &= ~(1u << OOM_STAGE_EVAL);
    /* a name for both passes ("combined_forward_backward_step",
     * Megatron's "forward_backward_no_pipelining") names the whole step,
     * not backward: the frames inside it say which pass ran
     * (NVIDIA-NeMo/Megatron-Bridge#4587 = h30-38: post_process.forward) */
    const unsigned both = 1u << OOM_STAGE_FORWARD | 1u << OOM_STAGE_BACKWARD;
    if ((bits & both) == both) bits &= ~both;
    return bits;
}

/* a glog stack frame, "@     0x7f5fb86534d7 caffe::DetectionDataLayer<>::
 * load_batch()" (glog's failure signal handler and check-failure stacks,
 * innermost first; Caffe's prefetch thread allocating a batch, heldout40
 * h40-109): the method, the last "::" part before the call's '(' (template
 * arguments "<>" skipped). Only this form: c10's "frame #N:" stacks name
 * autograd's Engine::evaluate_function, which is no evaluation. */
static const char *glog_frame_function(const char *text, size_t len, size_t lead, size_t *n)
{
    const char *s = text + lead, *end = text + len;
    if (end - s < 6 || s[0] != '@') return NULL;
    s++;
    while (s < end && *s == ' ') s++;
    if (end - s < 3 || s[0] != '0' || s[1] != 'x') return NULL;
    while (s < end && *s != ' ') s++;
    while (s < end && *s == ' ') s++;
    const char *paren = memchr(s, '(', (size_t)(end - s));
    if (!paren || !memmem(s, (size_t)(paren - s), "::", 2)) return NULL;
    const char *e = paren, *b = paren;
    while (b > s && (ident(b[-1]))) b--;
    if (b == e) return NULL;
    *n = (size_t)(e - b);
    return b;
}

/* The function a frame line names, in any of the formats pasted: Python's
 * ", in NAME", IPython's "x.py in NAME(", Lua's "in function 'NAME'".
 * NULL when there is none. */
static const char *frame_function(const char *text, size_t len, size_t *n)
{
    static const char *const heads[] = {", in ", ".py in ", "in function '", " in "};
    size_t lead = 0;
    while (lead < len && (text[lead] == ' ' || text[lead] == '\t')) lead++;
    const char *matlab = matlab_function(text + lead, len - lead, n);
    if (matlab) return matlab;
    const char *go = lead == 0 ? go_frame_name(text, len, n) : NULL;
    if (go) return go;
    const char *glog = glog_frame_function(text, len, lead, n);
    if (glog) return glog;
    const char *colab = colab_frame_in(text + lead, len - lead);
    for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++) {
        /* " in " alone only after a Colab link (colab_frame_in) */
        const char *p = h == 3 ? colab : memmem(text, len, heads[h], strlen(heads[h]));
        if (!p) continue;
        p += strlen(heads[h]);
        size_t k = 0, rest = len - (size_t)(p - text);
        while (k < rest && (ident(p[k]) || p[k] == '.')) k++;
        if (k) {
            *n = k;
            return p;
        }
    }
    return NULL;
}

/* The file a frame line names, without its directory and extension
 * ("/x/src/data/coco/coco_eval.py\", line 175" gives coco_eval). */
static const char *frame_file(const char *text, size_t len, size_t *n)
{
    static const char *const exts[] = {".py\"", ".py:", ".py in ", ".py)", ".lua:", ".py]("};
    for (size_t e = 0; e < sizeof exts / sizeof exts[0]; e++) {
        const char *x = memmem(text, len, exts[e], strlen(exts[e]));
        if (!x) continue;
        const char *b = x;
        while (b > text && b[-1] != '/' && b[-1] != '\\' && b[-1] != '"' && b[-1] != ' ' && b[-1] != '[')
            b--;
        *n = (size_t)(x - b);
        return *n ? b : NULL;
    }
    return NULL;
}

/* Code that moves or fetches the program's data. An executing line
 * names what its frame was doing when the allocation failed: a move of a
 * data-named value to the device ("input_imgs = Variable(input_imgs.type(
 * Tensor))", eriklindernoren/PyTorch-YOLOv3 via heldout9 h9-99; "net_in =
 * torch.from_numpy(net_in)...to(device)", heldout14 h14-42), an iteration
 * over a loader ("for i, batch in enumerate(train_loader):"), or a method
 * of a dataset ("train_dataset_group.cache_latents(vae, ...)", bmaltais/
 * kohya_ss#1887) is data. The value's name is read by its word parts: the
 * first name of the expression, past "self.". Models, masks and token ids
 * are left out (moved inside forward and generate), and so is a move on a
 * line that names another stage: "model.generate(batch[\"input_ids\"].to(
 * \"cuda\"), ...)" generates (heldout5 h5-25). Building a tensor from host
 * data at set-up ("torch.from_numpy(np.asarray(pcd.points)).float().cuda()"
 * in gaussian splatting's create_from_pcd, heldout9 h9-59) is no data move:
 * the name decides. */
static const char *const data_roots[] = {"input", "inputs", "img", "imgs", "image", "images", "batch", "data",
                                         "target", "targets", "label", "labels", "gt", "sample", "samples",
                                         "frame", "frames", "audio"};
static const char *const loader_roots[] = {"dataset", "datasets", "dataloader", "loader", "collator"};
/* word parts that name a model's own state, not a batch */
static const char *const state_parts[] = {"grad", "grads", "gradient", "gradients", "param", "params",
                                          "parameter", "parameters", "weight", "weights", "buffer", "buffers",
                                          "partition", "partitions", "shard", "shards", "master", "optimizer",
                                          "model", "module"};

/* One of parts is a word part of name (letters and digits: "imgs2" is one). */
static bool has_part(const char *name, size_t n, const char *const *parts, size_t count)
{
    const char *part;
    for (size_t pos = 0, len; (len = next_part(name, n, &pos, true, &part));)
        for (size_t k = 0; k < count; k++)
            if (strlen(parts[k]) == len && strncasecmp(part, parts[k], len) == 0) return true;
    return false;
}

/* The first name of the expression that ends right before end ("batch" in
 * "batch['image'].cuda", "inputs" in "self.inputs.to"); n = 0 if none. */
static const char *expression_root(const char *text, const char *end, size_t *n)
{
    const char *p = end;
    for (;;) {
        while (p > text && (ident(p[-1]))) p--;
        if (p > text && p[-1] == '.') {
            p--;
            continue;
        }
        if (p > text && (p[-1] == ')' || p[-1] == ']')) {
            char open = p[-1] == ')' ? '(' : '[', close = p[-1];
            int depth = 0;
            while (p > text) {
                p--;
                if (*p == close) depth++;
                else if (*p == open && --depth == 0) break;
            }
            if (depth) break;
            continue;
        }
        break;
    }
    if (p + 5 <= end && memcmp(p, "self.", 5) == 0) p += 5;
    size_t k = 0;
    while (p + k < end && ident(p[k])) k++;
    *n = k;
    return p;
}

/* The move to a device that starts at p (one of moves[m], k bytes): its
 * argument names a device, not a dtype (".to(device)", ".to('cuda')",
 * ".type(Tensor)" with Tensor = torch.cuda.FloatTensor). */
static const char *const moves[] = {".cuda(", ".to(", ".type("};

/* The argument of the move at p, to its ')' or the line's end (*an bytes). */
static const char *move_arg(const char *text, size_t len, const char *p, size_t m, size_t *an)
{
    const char *arg = p + strlen(moves[m]);
    size_t rest = (size_t)(text + len - arg), n = 0;
    while (n < rest && arg[n] != ')' && arg[n] != '\n') n++;
    *an = n;
    return arg;
}

static bool device_move(const char *text, size_t len, const char *p, size_t m)
{
    size_t an;
    const char *arg = move_arg(text, len, p, m, &an);
    return m == 0 || has(arg, an, "device") || has(arg, an, "cuda") || (m == 2 && has(arg, an, "Tensor"));
}

/* a model moved whole under a name of its own: the moved
 * name (a plain chain of names, no call: "model(x).cuda()" moves an
 * output) has a model's part and no data part: "model_func =
 * model_func.cuda()" (iworldtong/text_gcn.pytorch, heldout33 h33-103),
 * "self.text_encoder.to(device)", "gen_net.cuda()", "vae_model.to(
 * device)", "self.backbone.cuda()". The cue table knows only the
 * conventional names (model.cuda(, _model.to(, net.to(). */
static const char *const model_roots[] = {"model", "models", "net", "network", "unet", "vae", "encoder",
                                          "decoder", "backbone", "transformer", "module", "classifier"};

static unsigned model_move_bits(const char *text, size_t len)
{
    for (size_t m = 0; m < 2; m++) {
        size_t k = strlen(moves[m]);
        for (const char *p = memmem(text, len, moves[m], k); p;
             p = memmem(p + 1, len - (size_t)(p + 1 - text), moves[m], k)) {
            if (!device_move(text, len, p, m)) continue;
            const char *b = p;
            while (b > text && (ident(b[-1]) || b[-1] == '.')) b--;
            if (b == p || (b > text && (b[-1] == ')' || b[-1] == ']'))) continue;
            if (b + 5 <= p && !memcmp(b, "self.", 5)) b += 5;
            size_t n = (size_t)(p - b);
            if (has_part(b, n, model_roots, sizeof model_roots / sizeof model_roots[0]) &&
                !has_part(b, n, data_roots, sizeof data_roots / sizeof data_roots[0]))
                return 1u << OOM_STAGE_LOAD;
        }
    }
    return 0;
}

/* code that makes a model or engine object and names it for
 * what it is: "NAME = Callee(" where NAME's last word part is a model's or
 * an engine's noun and Callee is a class (its last name starts upper case)
 * or a factory (from_*, pipeline): the object loads its weights or sizes
 * its memory while it is made. faster-whisper's "model = WhisperModel(
 * size, device=\"cuda\")", CTranslate2's "translator =
 * ctranslate2.Translator(path, device=\"cuda\")" (a C++ constructor: no
 * frame below it), llama-cpp-python's "llm = Llama(model_path=…)",
 * SGLang's "llm = sgl.Engine(model_path=…)", MLC's "engine =
 * MLCEngine(model)", transformers' and DeepSpeed-MII's and lmdeploy's
 * "pipe = pipeline(…)", ONNX Runtime's "session = ort.InferenceSession(…)",
 * vLLM's "engine = AsyncLLMEngine.from_engine_args(args)", detectron2's
 * "predictor = DefaultPredictor(cfg)", ultralytics' "model = YOLO(…)".
 * CTranslate2's "generator = ctranslate2.Generator(…)" too. Not an output
 * named after the model ("model_output = ModelOutput(": its last part is
 * output), nor a random-number generator ("generator =
 * torch.Generator(device=…)"). */
static const char *const made_objects[] = {"model", "models", "llm", "engine", "pipe", "pipeline", "session",
                                           "translator", "generator", "runner", "predictor", "net", "network"};

static unsigned constructor_bits(const char *text, size_t len)
{
    const char *eq = memmem(text, len, " = ", 3), *end = text + len;
    if (!eq) return 0;
    const char *t = eq;
    while (t > text && ident(t[-1])) t--;
    if (t == eq) return 0;
    /* the target's last word part */
    const char *part = NULL, *p;
    size_t pn = 0;
    for (size_t pos = 0, k; (k = next_part(t, (size_t)(eq - t), &pos, false, &p));) part = p, pn = k;
    bool made = false;
    for (size_t i = 0; part && i < sizeof made_objects / sizeof made_objects[0] && !made; i++)
        made = strlen(made_objects[i]) == pn && !strncasecmp(part, made_objects[i], pn);
    if (!made) return 0;
    const char *c = eq + 3, *last = c;
    while (c < end && (ident(*c) || *c == '.')) {
        if (*c == '.') last = c + 1;
        c++;
    }
    if (c >= end || *c != '(' || last == c) return 0;
    /* a random-number generator is no model (torch.Generator, numpy's) */
    static const char *const rng[] = {"torch.", "np.", "numpy.", "random."};
    for (size_t i = 0; i < sizeof rng / sizeof rng[0]; i++)
        if ((size_t)(c - eq - 3) >= strlen(rng[i]) && !memcmp(eq + 3, rng[i], strlen(rng[i]))) return 0;
    size_t cn = (size_t)(c - last);
    bool factory = (cn > 5 && !memcmp(last, "from_", 5)) || (cn == 8 && !memcmp(last, "pipeline", 8));
    return factory || isupper((unsigned char)last[0]) ? 1u << OOM_STAGE_LOAD : 0;
}

/* a model object called for its output, under names of their own:
 * "audio_output = audio_model(audio_input)" (YuanGongND/ast#22 =
 * heldout45 h45-49, its traintest.py), "pred_batch =
 * best_model(tiles_batch)" (BloodAxe/pytorch-toolbelt#41 = heldout37
 * h37-28), "out = self.diffusion_model(x, t)". The target names an output (a part of its
 * name: output, out, logits, pred...), the callee is a plain name or
 * self's attribute whose last part is a model's noun and whose first is
 * no verb that makes, loads or runs a model ("create_model(",
 * "load_model(", "fit_model("; MindSpore's "outputs =
 * train_network(*inputs)", a whole training step, whose kernel names the
 * pass, test_diagnose_stagenpt); a method of another object
 * ("current_model.train_model(", "model.apply_model(") is that object's
 * own cue. The cue table's "model(" reads the bare name only. Forward,
 * the weakest stage: any other cue outranks it. */
static const char *const output_parts[] = {"output", "outputs", "out", "logits", "pred", "preds",
                                           "prediction", "predictions"};
static const char *const model_nouns[] = {"model", "net", "network", "encoder", "decoder",
                                          "backbone", "unet", "transformer", "classifier"};
static const char *const model_verbs[] = {"create", "load", "build", "get", "init", "initialize",
                                          "make", "compile", "prepare", "setup", "wrap", "save",
                                          "export", "capture", "read", "fit", "run", "eval",
                                          "evaluate", "test", "train"};

/* A detector in training mode returns its losses from the input batch:
 * "loss_dict = self.scene_parser(imgs, targets)" (jwyang/graph-rcnn.pytorch
 * lib/model.py, over an OOM in jwyang/graph-rcnn.pytorch#70 = heldout61
 * h61-68), "loss_dict = self.detector(images, targets)" (torchvision's
 * Faster R-CNN inside Lightning modules, found by find_string in several
 * public repositories), "losses = self.detector(images, targets)",
 * "det_losses = self.detector(images, targets)", torchvision's
 * references/detection engine.py "loss_dict = model(images, targets)" (the
 * bare model: the cue table's). The target names losses, the first argument
 * names the input batch: the callee runs the model's forward. A loss
 * function takes the outputs ("loss = criterion(outputs, targets)"), no
 * input; a callee whose name says loss, criterion, or a verb of
 * model_verbs is not read. (open61) */
static const char *const loss_parts[] = {"loss", "losses"};
static const char *const input_names[] = {"images", "imgs", "img", "image", "inputs", "input", "x",
                                          "batch", "samples", "batched_inputs"};
static const char *const loss_fn_parts[] = {"loss", "losses", "criterion", "crit"};

/* The call assigned at eq (" = "): "[self.]name(" gives name's start and
 * returns its '(' (NULL when what follows is no call of a plain name). */
static const char *assigned_call(const char *eq, const char *end, const char **name)
{
    const char *c = eq + 3;
    if (end - c > 5 && !memcmp(c, "self.", 5)) c += 5;
    *name = c;
    while (c < end && ident(*c)) c++;
    return c < end && *c == '(' && c != *name ? c : NULL;
}

static bool is_model_verb(const char *w, size_t n)
{
    for (size_t i = 0; i < sizeof model_verbs / sizeof model_verbs[0]; i++)
        if (strlen(model_verbs[i]) == n && !strncasecmp(w, model_verbs[i], n)) return true;
    return false;
}

static unsigned loss_call_bits(const char *text, const char *eq, const char *end)
{
    const char *t = eq;
    while (t > text && (ident(t[-1]) || t[-1] == ',' || t[-1] == ' ')) t--;
    while (t < eq && *t == ' ') t++;
    /* the last target of "maps, losses = …" */
    const char *tn = eq;
    while (tn > t && ident(tn[-1])) tn--;
    if (tn == eq || !has_part(tn, (size_t)(eq - tn), loss_parts, sizeof loss_parts / sizeof loss_parts[0]))
        return 0;
    const char *name, *c = assigned_call(eq, end, &name);
    if (!c) return 0;
    size_t nn = (size_t)(c - name);
    if (has_part(name, nn, loss_fn_parts, sizeof loss_fn_parts / sizeof loss_fn_parts[0])) return 0;
    const char *first;
    size_t pos = 0, fn = next_part(name, nn, &pos, false, &first);
    if (!fn || is_model_verb(first, fn)) return 0;
    const char *a = c + 1;
    while (a < end && *a == ' ') a++;
    size_t an = 0;
    while (a + an < end && ident(a[an])) an++;
    if (!an || (a + an < end && a[an] != ',' && a[an] != ')')) return 0;
    for (size_t i = 0; i < sizeof input_names / sizeof input_names[0]; i++)
        if (strlen(input_names[i]) == an && !strncmp(a, input_names[i], an)) return 1u << OOM_STAGE_FORWARD;
    return 0;
}

static unsigned model_call_bits(const char *text, size_t len)
{
    const char *eq = memmem(text, len, " = ", 3), *end = text + len;
    if (!eq) return 0;
    unsigned lb = loss_call_bits(text, eq, end);
    if (lb) return lb;
    const char *t = eq;
    while (t > text && ident(t[-1])) t--;
    if (t == eq ||
        !has_part(t, (size_t)(eq - t), output_parts, sizeof output_parts / sizeof output_parts[0]))
        return 0;
    const char *name, *c = assigned_call(eq, end, &name);
    if (!c) return 0;
    const char *part = NULL, *p, *first = NULL;
    size_t pn = 0, fn = 0;
    for (size_t pos = 0, k; (k = next_part(name, (size_t)(c - name), &pos, false, &p));) {
        if (!first) first = p, fn = k;
        part = p, pn = k;
    }
    if (!part || first == part) return 0; /* the bare "model(" is the table's */
    bool noun = false;
    for (size_t i = 0; i < sizeof model_nouns / sizeof model_nouns[0]; i++)
        noun |= strlen(model_nouns[i]) == pn && !strncasecmp(part, model_nouns[i], pn);
    return noun && !is_model_verb(first, fn) ? 1u << OOM_STAGE_FORWARD : 0;
}

/* JAX's functional forward: Flax's Module.apply(variables, ...) and
 * Haiku's Transformed.apply(params, rng, ...) run the model on its
 * parameters, as does a function named apply_* or apply_fn handed them
 * (flax TrainState.apply_fn; a jitted "apply_encoder(params, x)"). The
 * call passes the parameters first: "nn_module.apply({"params": params},
 * ...)" (pyro-ppl/numpyro#1292, numpyro/contrib/module.py
 * apply_without_state, a TPU OOM), "self.apply(self.params,
 * jax.random.PRNGKey(0), feat)" (google-deepmind/alphafold#214, model.py
 * predict), "f.apply(params, {}, *args, **kwargs)" (haiku transform.py
 * apply_fn, easybuilders/easybuild-easyconfigs#15129), "encoding =
 * apply_encoder(params, source)" (prs-eth/thera#10 = heldout10 h10-25).
 * Not torch's Module.apply(fn) (an initialiser over submodules: its
 * argument is a function), nor optax.apply_updates(params, updates) or
 * TrainState.apply_gradients (the optimizer). (stagesure24) */
static const char *const apply_params[] = {"params", "self.params", "state.params", "variables", "self.variables",
                                           "{\"params\"", "{'params'"};

static const char *const apply_parts[] = {"fn", "model", "net", "network", "module", "encoder", "decoder", "transformer"};

static unsigned jax_apply_bits(const char *text, size_t len)
{
    const char *end = text + len;
    for (const char *p = text; (p = memmem(p, (size_t)(end - p), "apply", 5)) != NULL; p += 5) {
        if (p > text && ident(p[-1])) continue;
        const char *q = p + 5;
        while (q < end && ident(*q)) q++;
        if (q >= end || *q != '(') continue;
        size_t cn = (size_t)(q - p);
        /* "apply(", or "apply_<part>(" naming a model part (apply_fn,
         * apply_encoder); not the optimizer's apply_updates or a params
         * transform (apply_weight_decay, apply_mask: review24) */
        if (cn > 5 && (p[5] != '_' || !has_part(p + 6, cn - 6, apply_parts, sizeof apply_parts / sizeof apply_parts[0])))
            continue;
        const char *a = q + 1;
        while (a < end && *a == ' ') a++;
        for (size_t i = 0; i < sizeof apply_params / sizeof apply_params[0]; i++) {
            size_t k = strlen(apply_params[i]);
            if ((size_t)(end - a) < k || memcmp(a, apply_params[i], k)) continue;
            char c = a + k < end ? a[k] : ')';
            if (apply_params[i][0] == '{' ? c == ':' || c == ' ' : c == ',' || c == ')' || c == ' ')
                return 1u << OOM_STAGE_FORWARD;
        }
    }
    return 0;
}

static unsigned data_code_bits(const char *text, size_t len, bool moves_too)
{
    for (size_t m = 0; moves_too && m < sizeof moves / sizeof moves[0]; m++) {
        size_t k = strlen(moves[m]);
        for (const char *p = memmem(text, len, moves[m], k); p;
             p = memmem(p + 1, len - (size_t)(p + 1 - text), moves[m], k)) {
            if (!device_move(text, len, p, m)) continue;
            size_t rn;
            const char *root = expression_root(text, p, &rn);
            if (rn && has_part(root, rn, data_roots, sizeof data_roots / sizeof data_roots[0]))
                return 1u << OOM_STAGE_DATA;
            /* an asynchronous copy from pinned memory moves a
             * batch, whatever its name ("toks.to(device=\"cuda\",
             * non_blocking=True)", facebookresearch/esm scripts/extract.py;
             * "[im.cuda(non_blocking=True) for im in images]",
             * facebookresearch/dino main_dino.py; "x.to(device,
             * non_blocking=True)", jik876/hifi-gan train.py): a model moved
             * so is named by its load cue, which outranks data. Written
             * True: a library's cast passing its caller's flag on
             * ("tensor.to(device, copy=copy, non_blocking=non_blocking)",
             * ComfyUI's model_management.cast_to while a model loads,
             * heldout5 h5-35) says nothing of what it moves, and a line
             * that names the model's own state moves no batch (DeepSpeed's
             * ZeRO offload "cuda_grad_buffer = grad_buffer.to(
             * grad_partition.device, non_blocking=True)", "grad_norms.append(
             * g.to(..., non_blocking=True).double().norm(2)", microsoft/
             * DeepSpeed deepspeed/runtime/zero/) */
            size_t an;
            const char *arg = move_arg(text, len, p, m, &an);
            if (rn && has(arg, an, "non_blocking=True") &&
                !has_part(text, len, state_parts, sizeof state_parts / sizeof state_parts[0]))
                return 1u << OOM_STAGE_DATA;
        }
    }
    /* a batch copied into a buffer already on the device, the
     * in-place idiom of pre-0.4 PyTorch code ("im_data.data.resize_(
     * data[0].size()).copy_(data[0])", the input buffers of jwyang/
     * faster-rcnn.pytorch trainval_net.py and its forks; heldout h06): the
     * argument is the batch, whatever the buffer is named. Not a tensor
     * copying itself ("new_type(self.size()).copy_(self, async)", torch's
     * own _cuda) nor a model's state ("p.data.copy_(ema_p)"). */
    for (const char *p = moves_too ? memmem(text, len, ".copy_(", 7) : NULL; p;
         p = memmem(p + 1, len - (size_t)(p + 1 - text), ".copy_(", 7)) {
        const char *arg = p + 7, *end = arg;
        while (end < text + len && ident(*end)) end++;
        size_t an = (size_t)(end - arg);
        if (an && has_part(arg, an, data_roots, sizeof data_roots / sizeof data_roots[0]) &&
            !has_part(arg, an, state_parts, sizeof state_parts / sizeof state_parts[0]))
            return 1u << OOM_STAGE_DATA;
    }
    /* "for x, y in enumerate(train_loader):" */
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t')) i++;
    const char *in = len - i > 4 && memcmp(text + i, "for ", 4) == 0 ? memmem(text + i, len - i, " in ", 4) : NULL;
    if (in) {
        for (const char *q = in + 4; q < text + len; q++) {
            if (!ident(*q) || (q > in + 4 && ident(q[-1]))) continue;
            size_t k = 0;
            while (q + k < text + len && ident(q[k])) k++;
            if (has_part(q, k, loader_roots, sizeof loader_roots / sizeof loader_roots[0])) return 1u << OOM_STAGE_DATA;
            q += k - 1;
        }
    }
    /* a dataset's own method called by the statement itself, not as an
     * argument of another call ("train_dataset_group.cache_latents(";
     * not "current_model.train_model(dataloader.get_train_input_fn(), ...)") */
    int depth = 0;
    for (const char *q = text; q < text + len; q++) {
        if (*q == '(' || *q == '[') depth++;
        if ((*q == ')' || *q == ']') && depth > 0) depth--;
        if (depth || !ident(*q) || (q > text && (ident(q[-1]) || q[-1] == '.'))) continue;
        size_t k = 0;
        while (q + k < text + len && ident(q[k])) k++;
        if (q + k < text + len && q[k] == '.' &&
            has_part(q, k, loader_roots, sizeof loader_roots / sizeof loader_roots[0])) {
            const char *m = q + k + 1;
            size_t mk = 0;
            while (m + mk < text + len && ident(m[mk])) mk++;
            if (mk && m + mk < text + len && m[mk] == '(') return 1u << OOM_STAGE_DATA;
        }
        q += k - 1;
    }
    return 0;
}

/* a loop shared by training and validation, told its phase by
 * a literal argument and handed the validation loader: "result, is_best =
 * iterate(\"val\", args, val_loader, model, None, logger, epoch)"
 * (fangchangma/self-supervised-depth-completion main.py; heldout37
 * h37-107), "run_epoch(model, valid_loader, phase='valid')": a validation
 * pass. Both are needed: a loader alone is no phase (Swin's
 * "throughput(data_loader_val, model, logger)" times the model), a literal
 * alone may build the split ("build_loader(\"val\", cfg)"), and a call
 * handed a training loader too ("run(\"val\", model, train_loader,
 * val_loader)") trains. The literal is an argument (after '(' or ',' or
 * '='), not an index ("loaders['val']"); a loop over the loader ("for b in
 * val_loader:") fetches data, read above. */
static const char *const val_parts[] = {"val", "valid", "validation", "eval"};
/* DARTS and its forks name their loaders queues ("train_queue",
 * "valid_queue": quark0/darts cnn/train_search.py) */
static const char *const loader_parts[] = {"loader", "dataloader", "queue"};
/* A function named for inference ("infer", "inference", "predict") that
 * is handed the validation loader runs the validation pass: DARTS'
 * "valid_acc, valid_obj = infer(valid_queue, model, criterion)" (quark0/
 * darts cnn/train.py; the same line over an OOM in quark0/darts#27 and
 * yuhuixu1993/PC-DARTS#16, and heldout66 h66-51's train_imagenet.py),
 * "predict(model, val_loader)". Without the loader it stays the forward
 * its name says (a web demo's "infer(image)"), and so it does with a test
 * loader (a test split may be predicted for a submission; the loop above
 * refuses a loader with no validation part). (open66) */
static const char *const infer_parts[] = {"infer", "inference", "predict"};

/* The function a call line calls: the last name before its first '(' ("infer"
 * in "a, b = infer(valid_queue, model)", "predict" in "self.predict(x)"). */
static bool callee_has_part(const char *text, const char *open, const char *const *parts, size_t count)
{
    const char *e = open;
    while (e > text && e[-1] == ' ') e--;
    const char *b = e;
    while (b > text && ident(b[-1])) b--;
    return b < e && has_part(b, (size_t)(e - b), parts, count);
}

static bool phase_literal(const char *text, const char *end, const char *q)
{
    static const char *const phases[] = {"val", "valid", "validation", "eval"};
    const char *b = q;
    while (b > text && b[-1] == ' ') b--;
    if (b == text || (b[-1] != '(' && b[-1] != ',' && b[-1] != '=')) return false;
    const char *close = memchr(q + 1, *q, (size_t)(end - q - 1));
    if (!close) return false;
    size_t n = (size_t)(close - q - 1);
    for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++)
        if (strlen(phases[i]) == n && !memcmp(q + 1, phases[i], n)) return true;
    return false;
}

static unsigned eval_phase_call_bits(const char *text, size_t len)
{
    const char *open = memchr(text, '(', len), *end = text + len;
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t')) i++;
    if (!open || (len - i > 4 && !memcmp(text + i, "for ", 4))) return 0;
    bool val_loader = false, phase = false;
    for (const char *q = open + 1; q < end; q++) {
        if (*q == '"' || *q == '\'') {
            phase |= phase_literal(text, end, q);
            const char *close = memchr(q + 1, *q, (size_t)(end - q - 1));
            if (!close) break;
            q = close;
            continue;
        }
        if (!ident(*q) || ident(q[-1]) || q[-1] == '.') continue;
        size_t k = 0;
        while (q + k < end && ident(q[k])) k++;
        if (has_part(q, k, loader_parts, sizeof loader_parts / sizeof loader_parts[0])) {
            if (!has_part(q, k, val_parts, sizeof val_parts / sizeof val_parts[0])) return 0;
            val_loader = true;
        }
        q += k - 1;
    }
    if (val_loader && !phase) phase = callee_has_part(text, open, infer_parts, sizeof infer_parts / sizeof infer_parts[0]);
    return val_loader && phase ? 1u << OOM_STAGE_EVAL : 0;
}

/* What a frame's names say: the cues written ", in NAME" read for any
 * format (a Lua stack's "in function 'forward'"), and the word parts of the
 * function and of the file. */
static unsigned frame_name_bits(const char *text, size_t len)
{
    unsigned bits = 0;
    size_t n;
    const char *fn = frame_function(text, len, &n);
    if (fn && !memmem(text, len, ", in ", 5)) {
        char buf[256];
        if (n + 6 <= sizeof buf) {
            memcpy(buf, ", in ", 5);
            memcpy(buf + 5, fn, n);
            buf[n + 5] = '\n';
            bits |= words_bits(buf, n + 6, &frame_ix);
        }
    }
    if (fn) bits |= stage_name_bits(fn, n);
    const char *file = frame_file(text, len, &n);
    if (file && !has(text, len, "-packages") && !has(text, len, "/lib/python") && !has(text, len, "\\lib\\"))
        bits |= stage_name_bits(file, n);
    return bits;
}

static unsigned frame_bits(const char *text, size_t len, bool data_moves);

unsigned stage_frame_bits(const char *text, size_t len)
{
    return frame_bits(text, len, true);
}

unsigned stage_data_move_bits(const char *text, size_t len)
{
    return frame_bits(text, len, true) & ~frame_bits(text, len, false);
}

/* diffusers' pipelines live one folder down ("diffusers/pipelines/
 * stable_diffusion/pipeline_stable_diffusion.py", their __call__ samples):
 * generation. The package's own files are its plumbing: pipeline_utils.py
 * (DiffusionPipeline.to, from_pretrained, the offload hooks) and
 * pipeline_loading_utils.py move and load, so a frame there names no stage
 * by its path: InstantID's node "load_model … ).to(device)" into
 * "diffusers\pipelines\pipeline_utils.py" is a load
 * (cubiq/ComfyUI_InstantID, h28-63). */
static bool diffusers_pipeline_file(const char *text, size_t len)
{
    static const char *const dirs[] = {"diffusers/pipelines/", "diffusers\\pipelines\\"};
    for (size_t d = 0; d < 2; d++) {
        const char *p = memmem(text, len, dirs[d], strlen(dirs[d]));
        if (!p) continue;
        p += strlen(dirs[d]);
        while (p < text + len && ident(*p)) p++;
        if (p < text + len && (*p == '/' || *p == '\\')) return true;
    }
    return false;
}

/* A pipeline called for what it makes: "images = pipeline(" in
 * MV-Adapter's ComfyUI node "sample" (huanngzh/ComfyUI-MVAdapter, h28-21),
 * "video = pipeline(prompt=…)". The target names a generator's output
 * (gen_objects, or latents and frames); "pipe = pipeline(\"text-
 * generation\", …)" builds one (a set-up: constructor_bits, load) and
 * "pipe(" is a cue of its own. */
static unsigned pipeline_output_bits(const char *text, size_t len)
{
    static const char call[] = "pipeline(";
    static const char *const outputs[] = {"latents", "frames"};
    for (const char *p = memmem(text, len, call, sizeof call - 1); p;
         p = memmem(p + 1, len - (size_t)(p + 1 - text), call, sizeof call - 1)) {
        const char *q = p;
        if (q > text && ident(q[-1])) continue;
        if (q >= text + 5 && !memcmp(q - 5, "self.", 5)) q -= 5;
        if (q < text + 3 || memcmp(q - 3, " = ", 3)) continue;
        const char *e = q - 3, *b = e;
        while (b > text && ident(b[-1])) b--;
        size_t n = (size_t)(e - b);
        bool out = false;
        for (size_t g = 0; g < sizeof gen_objects / sizeof gen_objects[0] && !out; g++)
            out = strlen(gen_objects[g]) == n && !strncmp(b, gen_objects[g], n);
        for (size_t g = 0; g < sizeof outputs / sizeof outputs[0] && !out; g++)
            out = strlen(outputs[g]) == n && !strncmp(b, outputs[g], n);
        if (out) return 1u << OOM_STAGE_GENERATE;
    }
    return 0;
}

/* names that hold a stage's cue but name another thing, with
 * the stage they do name (UNKNOWN: none of their own; the frames inside
 * say). A line that holds one as a whole word loses the cue's stage:
 * - "evaluate_actions" scores the stored actions under the current policy
 *   in the PPO/A2C update (DLR-RM/stable-baselines3 common/policies.py
 *   ActorCriticPolicy.evaluate_actions; ikostrikov/pytorch-a2c-ppo-acktr-
 *   gail a2c_ppo_acktr/model.py Policy.evaluate_actions, called from
 *   algo/ppo.py update): the training step's forward, no evaluation.
 * - "forward_backward" runs both passes (openai/guided-diffusion and
 *   improved-diffusion train_util.py TrainLoop.forward_backward, Megatron's
 *   forward_backward_func): its call "self.forward_backward(batch, cond)"
 *   is no backward cue ("_backward("), as stage_name_bits reads the name. */
static const struct {
    const char *word;
    enum oom_stage seems, names;
} false_friends[] = {
    {"evaluate_actions", OOM_STAGE_EVAL, OOM_STAGE_FORWARD},
    {"forward_backward", OOM_STAGE_BACKWARD, OOM_STAGE_UNKNOWN},
    /* MatConvNet's DagNN.eval runs the forward pass and, given
     * the output derivatives, the backward: cnn_train_dag's processEpoch
     * calls "net.eval(inputs, params.derOutputs, ...)" to train and
     * "net.eval(inputs)" to test (vlfeat/matconvnet matlab/+dagnn/@DagNN/
     * eval.m, examples/cnn_train_dag.m@aad35525): a MATLAB frame
     * "Error in dagnn.DagNN/eval (line 91)" names no evaluation */
    {"DagNN/eval", OOM_STAGE_EVAL, OOM_STAGE_UNKNOWN},
    /* autograd's engine runs each backward node through
     * Engine::evaluate_function (pytorch/pytorch torch/csrc/autograd/
     * engine.cpp): a C++ frame "torch::autograd::Engine::evaluate_function(
     * ...)" under an OOM is the backward pass, no evaluation */
    {"Engine::evaluate_function", OOM_STAGE_EVAL, OOM_STAGE_BACKWARD},
    /* transformers' Trainer calls the user's preprocess_logits_for_metrics
     * on every evaluation batch's logits before it keeps them
     * (huggingface/transformers:src/transformers/trainer.py evaluation_loop
     * "logits = self.preprocess_logits_for_metrics(logits, labels)"; added
     * for evaluation's memory, huggingface/transformers#15466, #22602): the
     * user's frame "in preprocess_logits_for_metrics" is no input
     * preprocessing: it loses the data cue, and its "metrics" part names
     * evaluation where it is a frame's name (the name in prose names none:
     * unslothai/unsloth-zoo#878 = heldout40 h40-62, labelled unknown) */
    {"preprocess_logits_for_metrics", OOM_STAGE_DATA, OOM_STAGE_UNKNOWN},
};

/* left26: the same for any called name whose word parts hold both passes,
 * in any order or with parts between ("forward_and_backward(",
 * "backward_and_forward("): its "_backward(" is no backward cue. */
static bool part_at(const char *text, size_t p, size_t end, const char *word)
{
    size_t n = strlen(word);
    return p + n <= end && !strncasecmp(text + p, word, n) && (p + n == end || !isalpha((unsigned char)text[p + n]));
}

/* The name text[b..i) has both passes among its word parts. */
static bool both_passes(const char *text, size_t b, size_t i)
{
    bool fwd = false, bwd = false;
    for (size_t p = b; p < i; p++) {
        if (p > b && text[p - 1] != '_') continue;
        fwd |= part_at(text, p, i, "forward");
        bwd |= part_at(text, p, i, "backward");
    }
    return fwd && bwd;
}

static bool both_pass_call(const char *text, size_t len)
{
    for (size_t i = 1; i < len; i++) {
        if (text[i] != '(' || !ident(text[i - 1])) continue;
        size_t b = i;
        while (b && ident(text[b - 1])) b--;
        if (both_passes(text, b, i)) return true;
    }
    return false;
}

static unsigned false_friend_bits(const char *text, size_t len, unsigned bits)
{
    if (both_pass_call(text, len)) bits &= ~(1u << OOM_STAGE_BACKWARD);
    for (size_t i = 0; i < sizeof false_friends / sizeof false_friends[0]; i++) {
        size_t k = strlen(false_friends[i].word);
        for (const char *p = memmem(text, len, false_friends[i].word, k); p;
             p = memmem(p + 1, len - (size_t)(p + 1 - text), false_friends[i].word, k)) {
            if (p > text && ident(p[-1])) continue;
            bits &= ~(1u << false_friends[i].seems);
            if (false_friends[i].names != OOM_STAGE_UNKNOWN) bits |= 1u << false_friends[i].names;
            break;
        }
    }
    return bits;
}

/* diagunk16: a code line cut mid-word where the paste ends ("    loss.back",
 * heldout40 h40-75: the excerpt stops inside the call): a method name
 * left at the line's end, after a '.', that is a proper prefix (four
 * letters or more) of a ".name(" cue of the table is that call. A whole
 * name ("fn = model.generate", a reference, no call) is no cut. */
#define CUT_PREFIX_MIN 4

/* open38: the same cut in a plain function's name, the code line a bare
 * name where the paste ends ("    save_trai" under finetune.py's finetune
 * frame, moojink/openvla-oft#28 = heldout44 h44-97, the excerpt stopping
 * inside "save_training_checkpoint("): its word parts before the last, which
 * the cut may have split, are read as a frame's name is ("save" checkpoint,
 * "load" load). A name of one part says nothing ("    train", h25-102),
 * nor do parts that name no stage (the seen pastes cut the same way:
 * "run_metada" h9-85, "wrap_stor" h50-36, "noise_pre" h59-49,
 * "launch_training" h52-35). b starts the name; the line holds nothing else
 * before it but blanks. */
static bool bare_statement_start(const char *text, size_t b)
{
    size_t i = b;
    while (i && (text[i - 1] == ' ' || text[i - 1] == '\t')) i--;
    return (i == 0 || text[i - 1] == '\n') && i < b;
}

static unsigned cut_name_bits(const char *name, size_t k)
{
    size_t last = k;
    while (last && name[last - 1] != '_') last--;
    while (last && name[last - 1] == '_') last--;
    if (!last || !(isalpha((unsigned char)name[0]))) return 0;
    return stage_name_bits(name, last);
}

static unsigned cut_call_bits(const char *text, size_t len)
{
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\r' || text[len - 1] == '\n')) len--;
    size_t b = len;
    while (b && ident(text[b - 1])) b--;
    size_t k = len - b;
    if (k >= CUT_PREFIX_MIN && bare_statement_start(text, b)) return cut_name_bits(text + b, k);
    if (k < CUT_PREFIX_MIN || b < 2 || text[b - 1] != '.' || !(ident(text[b - 2]) || text[b - 2] == ')'))
        return 0;
    for (size_t i = 0; i < sizeof frame_words / sizeof frame_words[0]; i++) {
        const char *w = frame_words[i].word;
        size_t wn = strlen(w);
        if (w[0] != '.' || w[wn - 1] != '(' || wn - 2 <= k) continue;
        if (!memcmp(w + 1, text + b, k)) return 1u << frame_words[i].stage;
    }
    return 0;
}

/* The array and data-frame libraries' containers: their constructors
 * allocate the container, in whatever stage calls them, and set no model up
 * (CuPy's "File \"cupy/core/core.pyx\", line 150, in
 * cupy.core.core.ndarray.__init__" under an elementwise kernel's output,
 * heldout58 h58-02, heldout24 h24-39, cupy/cupy#1063 = heldout64 h64-60,
 * and under a model's forward in heldout26 h26-43; cuDF's "cudf/core/dataframe.py\", line 185, in
 * __init__" building a DataFrame from arrays, rapidsai/cudf = heldout58
 * h58-22). The package in the frame's path or qualified name. (open58)
 * A compiled extension's (Cython, a .pyx file) constructor, of any
 * library, builds the library's own object the same way, a cuFFT plan or a
 * device array: "cupy/cuda/cufft.pyx\", line 90, in cupy.cuda.cufft.
 * Plan1d.__init__" under cupy.fft.fft (the same plan in IPython's form,
 * cupy/cupy#3777). (open64; one table with open58's packages, review22)
 * TensorFlow 1's graph machinery likewise: every op it builds records its
 * stack, so a definition stack ("Caused by op ..., defined at:", then
 * "ResourceExhaustedError (see above for traceback)") ends in framework/
 * ops.py's Operation.__init__, "self._traceback = tf_stack.extract_stack()"
 * (LiLabAtVT/DeepTE#33; YunYang1994/tensorflow-yolov3#440; Horovod's
 * '[1,1]<stderr>:' copy, heldout60 h60-32): a graph node, no model.
 * (open60; a row here since review22) */
static const char *const container_packages[] = {"cupy/", "cupy.", "cudf/", "cudf.", "numpy/",
                                                 "pandas/", "dask_cudf/", "pyarrow/", ".pyx",
                                                 "tensorflow/python/framework/",
                                                 "tensorflow\\python\\framework\\"};

static bool container_constructor(const char *text, size_t len)
{
    if (!has(text, len, ", in __init__") && !has(text, len, ".__init__")) return false;
    for (size_t i = 0; i < sizeof container_packages / sizeof container_packages[0]; i++)
        if (has(text, len, container_packages[i])) return true;
    return false;
}

/* open62: a code line that calls a function named for a pass: its first
 * word part is "forward" or "backward" and more parts follow
 * ("token_logprobs, _metrics, _ = forward_with_post_processing_fn(" in
 * NeMo RL's DTensorPolicyWorkerV2.get_logprobs, NVIDIA-NeMo/RL#3793 =
 * heldout62 h62-25; "entropy, log_probs = self._forward_micro_batch(" in
 * verl's DataParallelPPOActor.compute_log_prob, verl/workers/actor/
 * dp_actor.py = heldout50 h50-26; "output_tensor, num_tokens =
 * forward_step(" in Megatron-LM's megatron/core/pipeline_parallel/
 * schedules.py; "batch_size = forward_batch()" in lm-evaluation-harness'
 * HFLM._detect_batch_size, bryanchrist/MathNeuro#3). The frame's name
 * would read so by its word parts (stage_name_bits); a call the code line
 * makes names the pass the failure ran in as well. The bare "forward(" is
 * the table's. Not a name whose next part is the other pass
 * ("forward_backward_func(", Megatron: both passes), nor one that only
 * starts with the letters ("forwarding_", "forwarder("). Forward is the
 * weakest stage: another part's stage outranks it (stage_pick). */
static unsigned pass_call_bits(const char *text, size_t len)
{
    static const struct {
        const char *part;
        enum oom_stage stage;
    } passes[] = {{"forward_", OOM_STAGE_FORWARD}, {"backward_", OOM_STAGE_BACKWARD}};
    unsigned bits = 0;
    for (size_t i = 1; i < len; i++) {
        if (text[i] != '(' || !ident(text[i - 1])) continue;
        size_t b = i;
        while (b && ident(text[b - 1])) b--;
        /* "def forward_step(": a definition, no call */
        if (b >= 4 && !memcmp(text + b - 4, "def ", 4)) continue;
        while (b < i && text[b] == '_') b++;
        /* a name holding both passes names neither ("forward_backward_func(",
         * "forward_and_backward(") */
        if (both_passes(text, b, i)) continue;
        for (size_t q = 0; q < sizeof passes / sizeof passes[0]; q++) {
            size_t k = strlen(passes[q].part);
            if (i - b <= k || memcmp(text + b, passes[q].part, k)) continue;
            /* the name's other parts keep their stage: "self._forward_generate("
             * (EasyLM's sampler, heldout24 h24-65) generates */
            bits |= 1u << passes[q].stage | stage_name_bits(text + b, i - b);
        }
    }
    return bits;
}

static unsigned frame_bits(const char *text, size_t len, bool data_moves)
{
    if (container_constructor(text, len)) return 0;
    /* Generated code ("File \"<string>\", line 13, in __init__": a
     * dataclass's or namedtuple's own __init__) builds a small object, no
     * model: its name says nothing of the stage. */
    if (has(text, len, "\"<string>\", line ")) return 0;
    /* Python's process machinery (multiprocessing: a DataLoader's workers,
     * mp.spawn) starts or joins processes: its constructors build no model
     * ("Popen.__init__ ... self.pid = os.fork()", pytorch/pytorch#4387 =
     * heldout9 h9-92); the frames that call it tell the stage. */
    if (has(text, len, "multiprocessing/") || has(text, len, "multiprocessing\\")) return 0;
    len = frame_name_len(text, len);
    unsigned bits = words_bits(text, len, &frame_ix);
    if (diffusers_pipeline_file(text, len)) bits |= 1u << OOM_STAGE_GENERATE;
    bits |= pipeline_output_bits(text, len);
    /* IPython 8 and Python 3.11+ tools qualify the function with its class
     * ("trainer.py:570, in BaseTrainer.validate(self)"): the cues written
     * ", in validate" read the name after the last dot too. */
    const char *in = memmem(text, len, ", in ", 5);
    if (in) {
        size_t i = (size_t)(in - text) + 5, dot = 0;
        while (i < len && (ident(text[i]) || text[i] == '.')) {
            if (text[i] == '.') dot = i;
            i++;
        }
        char name[512];
        size_t rest = dot ? len - dot - 1 : 0;
        if (dot && rest + 5 <= sizeof name) {
            memcpy(name, ", in ", 5);
            memcpy(name + 5, text + dot + 1, rest);
            bits |= words_bits(name, rest + 5, &frame_ix);
        }
    }
    bits |= frame_name_bits(text, len);
    if (!bits) bits |= cut_call_bits(text, len);
    if (!bits) bits |= pass_call_bits(text, len);
    bits = false_friend_bits(text, len, bits);
    if (!bits) bits |= model_move_bits(text, len);
    bits |= constructor_bits(text, len);
    bits |= model_call_bits(text, len);
    bits |= jax_apply_bits(text, len);
    if (!(bits & ~(1u << OOM_STAGE_FORWARD | 1u << OOM_STAGE_DATA))) bits |= data_code_bits(text, len, data_moves);
    bits |= eval_phase_call_bits(text, len);
    return bits;
}

/* ---- the operator an engine names ---------------------------
 * Caffe2 prints the failing operator's definition after "Error from
 * operator:" ('input: "gpu_0/res4_7_branch2b" ... type: "Conv" ...
 * device_option { ... }', facebookresearch/Detectron#821); its gradient
 * operators are typed "<Op>Gradient" (ConvGradient). Paddle's glog names
 * the op that raised ("operator.cc:242] roi_align raises an exception
 * paddle::memory::allocation::BadAlloc"); its gradient ops end in "_grad". */
/* ONNX Runtime's executor names the node whose kernel failed
 * ("[E:onnxruntime:, sequential_executor.cc:514 onnxruntime::ExecuteKernel]
 * Non-zero status code returned while running Add node. Name:'/image_
 * encoder/blocks.7/attn/Add_3' Status Message: ...bfc_arena.cc:376 ...
 * Failed to allocate memory for requested buffer of size 1073741824",
 * dinglufe/segment-anything-cpp-wrapper#55; the same line from
 * onnxruntime/core/framework/sequential_executor.cc in microsoft/
 * onnxruntime#14477 and #14942, a CUDA-graph run): a session run executes
 * the graph, an inference forward. ORT training's gradient graph names its
 * ops "<Op>Grad" (SoftmaxCrossEntropyLossGrad, GatherGrad): backward. A
 * session being created says "Exception during initialization" instead
 * (after_words: load). */
static enum oom_stage ort_node_stage(const char *text, size_t len)
{
    static const char head[] = "status code returned while running ";
    const char *p = memmem(text, len, head, sizeof head - 1);
    if (!p) return OOM_STAGE_UNKNOWN;
    const char *b = p + sizeof head - 1, *end = text + len, *e = b;
    /* an execution provider's fused subgraph is typed by the
     * name the provider gives it, with dashes ("while running
     * OpenVINO-EP-subgraph_2 node": meta_def name "OpenVINO-EP-subgraph_" + N,
     * microsoft/onnxruntime:onnxruntime/core/providers/openvino/ov_versions/
     * utils.cc@7347e241) */
    while (e < end && (ident(*e) || *e == '-')) e++;
    if (e == b || end - e < 6 || memcmp(e, " node", 5)) return OOM_STAGE_UNKNOWN;
    return e - b > 4 && memcmp(e - 4, "Grad", 4) == 0 ? OOM_STAGE_BACKWARD : OOM_STAGE_FORWARD;
}

/* a Paddle operator by its type. A gradient op is
 * "<op>_grad" (or "_grad_grad"), made by the op's GradOpMaker; the
 * optimizers' and AMP's update ops are typed by name (PaddlePaddle/Paddle:
 * paddle/fluid/operators/optimizers/, paddle/phi/ops/yaml/ops.yaml: sgd_,
 * momentum_, adam_, adamw_, lamb_, ... check_finite_and_unscale_,
 * update_loss_scaling_); any other op runs forward. */
static enum oom_stage paddle_op_stage(const char *b, size_t n)
{
    static const char *const optimizer_ops[] = {
        "sgd", "momentum", "lars_momentum", "dgc_momentum", "merged_momentum", "adam", "adamw", "adamax",
        "merged_adam", "fused_adam", "lamb", "adagrad", "decayed_adagrad", "adadelta", "rmsprop", "ftrl",
        "dpsgd", "proximal_gd", "proximal_adagrad", "check_finite_and_unscale", "update_loss_scaling"};
    if (n > 5 && memcmp(b + n - 5, "_grad", 5) == 0) return OOM_STAGE_BACKWARD;
    for (size_t i = 0; i < sizeof optimizer_ops / sizeof optimizer_ops[0]; i++)
        if (strlen(optimizer_ops[i]) == n && memcmp(optimizer_ops[i], b, n) == 0) return OOM_STAGE_OPTIMIZER;
    return OOM_STAGE_FORWARD;
}

/* Paddle appends the operator that failed to the message: "  [operator <
 * conv2d_grad > error]" (static graph), "  [GradNode < Conv2dGradNodeFinal >
 * error]" (a dygraph backward node, so backward whatever its op)
 * (PaddlePaddle/Paddle:paddle/fluid/framework/op_call_stack.cc@0ab6998c
 * InsertCallStackInfo, InsertCallStackInfoDygraph, AppendErrorOpHint). */
static enum oom_stage paddle_operator_hint(const char *text, size_t len)
{
    static const char head[] = "[operator < ";
    if (memmem(text, len, "[GradNode < ", 12)) return OOM_STAGE_BACKWARD;
    const char *p = memmem(text, len, head, sizeof head - 1);
    if (!p) return OOM_STAGE_UNKNOWN;
    const char *b = p + sizeof head - 1, *end = text + len, *e = b;
    while (e < end && ident(*e)) e++;
    if (e == b || end - e < 8 || memcmp(e, " > error", 8)) return OOM_STAGE_UNKNOWN;
    return paddle_op_stage(b, (size_t)(e - b));
}

/* MindSpore names the kernel whose output it could
 * not place by its full scope, "Device(id:0) memory isn't enough and alloc
 * failed, kernel name: Gradients/Default/network-WithLossCell/...-op1520,
 * alloc size: N B." (mindspore-ai/mindspore:mindspore/ccsrc/runtime/
 * graph_scheduler/actor/actor_common.h@94bdab39
 * SET_OPCONTEXT_MEMORY_ALLOC_FAIL_BY_STRATEGY, kernel_name from
 * fullname_with_scope()). Autodiff puts the backward graph under
 * "Gradients/", a Cell's optimizer under "Default/optimizer-<Class>/", the
 * network's forward under "Default/"; other kernel names (actors such as
 * "kernel_graph_@ HostDSActor", "Split tuple outputs") say nothing. */
static enum oom_stage mindspore_kernel_stage(const char *text, size_t len)
{
    static const struct {
        const char *scope;
        enum oom_stage stage;
    } scopes[] = {
        {"Gradients/", OOM_STAGE_BACKWARD},
        {"Default/optimizer-", OOM_STAGE_OPTIMIZER},
        {"Default/", OOM_STAGE_FORWARD},
    };
    static const char head[] = "alloc failed, kernel name: ";
    const char *p = memmem(text, len, head, sizeof head - 1);
    if (!p) return OOM_STAGE_UNKNOWN;
    p += sizeof head - 1;
    size_t rest = len - (size_t)(p - text);
    for (size_t i = 0; i < sizeof scopes / sizeof scopes[0]; i++) {
        size_t k = strlen(scopes[i].scope);
        if (rest > k && memcmp(p, scopes[i].scope, k) == 0) return scopes[i].stage;
    }
    return OOM_STAGE_UNKNOWN;
}

/* A Caffe2 operator that writes a gradient blob runs in the backward
 * pass whatever its type: the gradient of a blob is named "<blob>_grad"
 * (pytorch/pytorch:caffe2/python/core.py GetGradientName), and the
 * multi-GPU all-reduce sums them with plain "Add" ops ('input:
 * "gpu_0/retnet_bbox_pred_fpn3_b_grad" input: "gpu_2/..._grad" output:
 * "gpu_0/retnet_bbox_pred_fpn3_b_grad" ... type: "Add"',
 * facebookresearch/Detectron#32 = heldout51 h51-22). end: the type's. */
static bool caffe2_grad_output(const char *text, const char *type_at)
{
    static const char head[] = "output: \"";
    for (const char *p = memmem(text, (size_t)(type_at - text), head, sizeof head - 1); p;
         p = memmem(p + 1, (size_t)(type_at - p - 1), head, sizeof head - 1)) {
        const char *b = p + sizeof head - 1, *e = b;
        while (e < type_at && *e != '"') e++;
        if (e < type_at && e - b > 5 && !memcmp(e - 5, "_grad", 5)) return true;
    }
    return false;
}

static enum oom_stage operator_stage(const char *text, size_t len)
{
    enum oom_stage ms = mindspore_kernel_stage(text, len);
    if (ms != OOM_STAGE_UNKNOWN) return ms;
    const char *t = memmem(text, len, "type: \"", 7);
    if (t && (has(text, len, "device_option") || has(text, len, "input: \""))) {
        const char *b = t + 7, *end = text + len, *e = b;
        while (e < end && *e != '"') e++;
        if (e == end || e == b) return OOM_STAGE_UNKNOWN;
        if (caffe2_grad_output(text, t)) return OOM_STAGE_BACKWARD;
        return e - b > 8 && memcmp(e - 8, "Gradient", 8) == 0 ? OOM_STAGE_BACKWARD : OOM_STAGE_FORWARD;
    }
    enum oom_stage ort = ort_node_stage(text, len);
    if (ort != OOM_STAGE_UNKNOWN) return ort;
    const char *r = memmem(text, len, " raises an exception paddle::", 29);
    if (r) {
        const char *e = r, *b = r;
        while (b > text && (ident(b[-1]))) b--;
        if (b == e || b == text || b[-1] != ' ') return OOM_STAGE_UNKNOWN;
        return paddle_op_stage(b, (size_t)(e - b));
    }
    return paddle_operator_hint(text, len);
}

/* "return t.to(" ending the line: the row of frame_words for nn.Module.to's
 * convert, its statement spread over lines since torch 2.1 (open65). */
bool stage_convert_first_line(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\n')) n--;
    static const char line[] = "return t.to(";
    size_t k = sizeof line - 1;
    if (n < k || memcmp(s + n - k, line, k)) return false;
    for (size_t i = 0; i < n - k; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '`') return false;
    return true;
}

/* A frame header in torch's nn.Module file ("File \".../torch/nn/modules/
 * module.py\", line 1326, in convert"), slash or backslash. */
bool stage_torch_module_frame(const char *s, size_t n)
{
    return memmem(s, n, "modules/module.py", 17) || memmem(s, n, "modules\\module.py", 17);
}

/* A line shaped like code, not prose: identifiers joined by operators and
 * commas, every blank next to one of them ("training, momentum, eps,
 * torch.backends.cudnn.enabled", "lm_logits = self.lm_head(outputs[0]) +
 * self.final_logits_bias"); not a message ("RuntimeError: ..."). */
bool stage_code_shaped(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\n')) n--;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    /* a markdown inline quote opened before the line ("`   return t.to("
     * over the message, its closing backtick after it, Lightricks/
     * LTX-Video#64 = heldout65 h65-35) */
    if (i < n && s[i] == '`' && (i + 1 >= n || s[i + 1] != '`'))
        for (i++; i < n && (s[i] == ' ' || s[i] == '\t');) i++;
    /* a statement's keyword before its expression ("return t.to(",
     * "return self._apply(convert)", "yield from self.generate("): the
     * blank after it is no sentence's (open65) */
    static const char *const keywords[] = {"return ", "yield from ", "yield ", "await "};
    if (n - i < 8) return false; /* the statement's length, keyword and all */
    for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++) {
        size_t kn = strlen(keywords[k]);
        if (n - i > kn && !memcmp(s + i, keywords[k], kn) && (ident(s[i + kn]) || s[i + kn] == '(')) {
            i += kn;
            break;
        }
    }
    if (stage_message_line(s + i, n - i)) return false;
    bool joint = false;
    for (size_t k = i; k < n; k++) {
        char c = s[k];
        if (ident(c) || c == '.' || c == '\'' || c == '"') continue;
        if (c == ' ') {
            char before = s[k - 1], after = k + 1 < n ? s[k + 1] : ' ';
            if ((ident(before) || before == ')' || before == ']') && (ident(after) || after == '(')) return false;
            continue;
        }
        if (strchr(",=()[]+-*/<>%:", c) == NULL) return false;
        if (c == ':' && k + 1 < n && s[k + 1] == ' ') return false; /* "name : text" */
        joint = true;
    }
    return joint;
}

/* Python (3.10 on) names the function a failed thread ran:
 * "Exception in thread Thread-3 (generate):", "Thread-27 (load_model)",
 * "Thread-272 (_pin_memory_loop)": its word parts name the stage, as a
 * frame's function does. Before the traceback (context) or after the
 * message it surfaced from (a CUDA kernel's assert). */
static enum oom_stage thread_target_stage(const char *text, size_t len)
{
    static const char head[] = "Exception in thread ";
    const char *p = memmem(text, len, head, sizeof head - 1);
    if (!p) return OOM_STAGE_UNKNOWN;
    const char *end = text + len, *o = memchr(p, '(', (size_t)(end - p));
    if (!o) return OOM_STAGE_UNKNOWN;
    const char *c = o + 1;
    while (c < end && ident(*c)) c++;
    if (c + 1 >= end || c[0] != ')' || c[1] != ':') return OOM_STAGE_UNKNOWN;
    return stage_pick(stage_name_bits(o + 1, (size_t)(c - o - 1)));
}

/* A process's own line saying it failed to start: the sentence ends
 * there ("Shard 0 failed to start", "Shard 1 failed to start:" over its
 * error, TGI's launcher; vLLM's "EngineCore failed to start."), not
 * a recipe's "failed to start stage 6 because of out of CUDA memory"
 * (espnet/espnet#3719 = heldout51 h51-30), where words follow. */
static bool start_failed(const char *text, size_t len)
{
    static const char w[] = "failed to start";
    const size_t k = sizeof w - 1;
    const char *end = text + len;
    for (const char *p = text; (p = memmem(p, (size_t)(end - p), w, k)); p++) {
        const char *e = p + k;
        if (e < end && (*e == '.' || *e == ':')) e++;
        while (e < end && (*e == ' ' || *e == '\t' || *e == '\r')) e++;
        if (e == end) return true;
    }
    return false;
}

enum oom_stage stage_after_line(const char *text, size_t len)
{
    enum oom_stage op = operator_stage(text, len);
    if (op != OOM_STAGE_UNKNOWN) return op;
    enum oom_stage thread = thread_target_stage(text, len);
    if (thread != OOM_STAGE_UNKNOWN) return thread;
    /* Ray re-raises a task's error naming the remote call that failed:
     * "RayTaskError(OutOfMemoryError): ray::FSDPPolicyWorkerBase.init_model()" */
    const char *ray = memmem(text, len, "ray::", 5);
    if (ray) {
        const char *call = ray + 5;
        size_t rest = len - (size_t)(call - text), k = 0;
        while (k < rest && call[k] != ' ' && call[k] != '(') k++;
        if (k < rest && call[k] == '(') k++;
        enum oom_stage st = stage_pick(stage_frame_bits(call, k));
        if (st != OOM_STAGE_UNKNOWN) return st;
    }
    for (size_t i = 0; i < sizeof after_words / sizeof after_words[0]; i++)
        if (has(text, len, after_words[i].word)) return after_words[i].stage;
    if (start_failed(text, len)) return ENGINE_WARMUP;
    return OOM_STAGE_UNKNOWN;
}

/* ComfyUI names the node that failed: "Error occurred when executing
 * Echo_LoadModel:" (smthemex/ComfyUI_EchoMimic#48), "- **Node Type:**
 * TangoFluxVAEDecodeAndPlay" (LucipherDev/ComfyUI-TangoFlux#18), or the
 * node's name alone on the line above the message in its pop-up
 * ("NunchakuQwenImageDiTLoader", Comfy-Org/ComfyUI#9812). Node classes are
 * named for what they do: loaders load, samplers and VAE decoders generate. */
static const struct stage_word node_words[] = {
    {"DataLoader", OOM_STAGE_DATA, false}, /* not a ComfyUI loader */
    {"Loader", OOM_STAGE_LOAD, false}, {"LoadModel", OOM_STAGE_LOAD, false},
    {"Load_Model", OOM_STAGE_LOAD, false}, {"Sampler", OOM_STAGE_GENERATE, false},
    /* a sampling node named with the verb ("SUPIR_sample",
     * kijai/ComfyUI-SUPIR; "KSample..." is covered above) */
    {"_sample", OOM_STAGE_GENERATE, false},
    {"VAEDecode", OOM_STAGE_GENERATE, false},
    /* a video model's own decoder node decodes the sampled
     * latents as VAEDecode does ("HyVideoDecode" alone above "Allocation on
     * device", kijai/ComfyUI-HunyuanVideoWrapper#503) */
    {"Decode", OOM_STAGE_GENERATE, false},
};

/* The node name a line carries, or NULL: after one of the report's
 * headers, or the whole line when it is one CamelCase identifier. */
static const char *node_name(const char *text, size_t len, size_t *n)
{
    static const char *const heads[] = {"Error occurred when executing ", "Node Type:** ",
                                        "Node Type: "};
    const char *p = NULL;
    for (size_t h = 0; h < sizeof heads / sizeof heads[0] && !p; h++) {
        const char *at = memmem(text, len, heads[h], strlen(heads[h]));
        if (at) p = at + strlen(heads[h]);
    }
    bool alone = !p;
    if (alone) {
        p = text;
        while (len && (text[len - 1] == ' ' || text[len - 1] == '\r')) len--;
    }
    size_t k = 0, upper = 0, rest = len - (size_t)(p - text);
    while (k < rest && ident(p[k])) upper += isupper((unsigned char)p[k]) != 0, k++;
    /* alone, a CamelCase class name: "KSampler", not the word "Loader" */
    if (alone && (k != rest || upper < 2 || !isupper((unsigned char)p[0]))) return NULL;
    *n = k;
    return k ? p : NULL;
}

/* Python's warnings module writes "FILE:LINE: CATEGORY:
 * MESSAGE" (warnings.formatwarning), FILE being the module that warned:
 * the code the program was running, read as a frame's file is
 * (".../torch/distributed/fsdp/_state_dict_utils.py:312: UserWarning: ..."
 * while FSDP gathers the state dict to save it, huggingface/
 * transformers#23386); the category may be cut ("UserWarnin"). */
static enum oom_stage warning_file_stage(const char *text, size_t len)
{
    const char *end = text + len;
    for (const char *py = memmem(text, len, ".py:", 4); py; py = memmem(py + 4, (size_t)(end - py - 4), ".py:", 4)) {
        const char *d = py + 4;
        while (d < end && isdigit((unsigned char)*d)) d++;
        if (d == py + 4 || end - d < 3 || d[0] != ':' || d[1] != ' ' || !isupper((unsigned char)d[2])) continue;
        const char *w = d + 2;
        while (w < end && isalpha((unsigned char)*w)) w++;
        if (!memmem(d + 2, (size_t)(w - d - 2), "Warn", 4)) continue; /* "UserWarning", cut "UserWarnin" */
        const char *b = py;
        while (b > text && b[-1] != ' ' && b[-1] != '`' && b[-1] != '"') b--;
        enum oom_stage st = stage_pick(stage_frame_bits(b, (size_t)(py + 3 - b)));
        /* a loader warns as it is made ("torch/utils/data/dataloader.py:474:
         * UserWarning: This DataLoader will create 40 worker processes",
         * facebookresearch/InterHand2.6M#58 = h5-27): its workers then run
         * beside the step, which is what fails next */
        return st == OOM_STAGE_DATA ? OOM_STAGE_UNKNOWN : st;
    }
    return OOM_STAGE_UNKNOWN;
}

static size_t word_at(const char *t, size_t n, size_t from, const char *w);

/* a count of a split's items, printed at set-up ("[i] #
 * validation samples:  677", "Number of evaluation examples: 500", "val
 * images = 5000"): the line ends in a bare number and names what is counted;
 * it tells the data's size, no evaluation under way (a trainer's set-up
 * log, heldout40 h40-108, whose model creation followed). */
static bool split_count(const char *text, size_t len)
{
    static const char *const counted[] = {"samples", "examples", "images", "sequences", "instances",
                                          "items", "files", "records", "batches"};
    size_t e = len;
    while (e > 0 && (text[e - 1] == ' ' || text[e - 1] == '\r')) e--;
    size_t d = e;
    while (d > 0 && isdigit((unsigned char)text[d - 1])) d--;
    if (d == e) return false;
    while (d > 0 && text[d - 1] == ' ') d--;
    if (d == 0 || (text[d - 1] != ':' && text[d - 1] != '=')) return false;
    d--;
    while (d > 0 && text[d - 1] == ' ') d--;
    size_t w = d; /* the word right before the colon names what is counted */
    while (w > 0 && isalpha((unsigned char)text[w - 1])) w--;
    for (size_t k = 0; k < sizeof counted / sizeof counted[0]; k++)
        if (d - w == strlen(counted[k]) && !strncasecmp(text + w, counted[k], d - w)) return true;
    return false;
}

/* Python logging's "%(asctime)s - %(name)s - %(levelname)s - %(message)s"
 * layout: the message starts after " - LEVEL - ", and the logger's name
 * before it names the script, not what it is doing now ("2024-11-18
 * 16:00:54,155 - Chronos Evaluation - INFO - Generating forecasts for ETTh",
 * kutaytire/Retrieval-Augmented-Time-Series-Forecasting#1 = heldout45
 * h45-37). Looked for in the line's first 160 bytes; 0 when
 * none. */
static size_t logging_message_at(const char *text, size_t len)
{
    static const char *const seps[] = {" - INFO - ", " - DEBUG - ", " - WARNING - ", " - ERROR - ",
                                       " - CRITICAL - "};
    size_t head = len < 160 ? len : 160;
    for (size_t k = 0; k < sizeof seps / sizeof seps[0]; k++) {
        const char *p = memmem(text, head, seps[k], strlen(seps[k]));
        if (p) return (size_t)(p - text) + strlen(seps[k]);
    }
    return 0;
}

/* every place a capitalised phase word occurs in a log line is glued
 * to a lower-case letter: the tail of a CamelCase name or of a project's
 * directory in a path ("SCENE_DIR=/home/u/SfmEvaluation/data" in hydra's
 * "Error executing job with overrides" line, facebookresearch/vggsfm#106 =
 * h30-75), not the phase the program announces */
static bool cue_inside_name(const char *text, size_t len, const struct stage_word *cue)
{
    size_t k = strlen(cue->word);
    if (!isupper((unsigned char)cue->word[0]) || cue->at == I) return false;
    for (const char *p = memmem(text, len, cue->word, k); p;
         p = memmem(p + 1, len - (size_t)(p + 1 - text), cue->word, k))
        if (p == text || !islower((unsigned char)p[-1])) return false;
    return true;
}

/* a Python import statement, commented out or not ("from
 * detectron2.evaluation import COCOEvaluator", "#from x.y import z",
 * "import torch.distributed as dist"): the module path names a package,
 * nothing the program is doing when it ran out */
static bool python_import_line(const char *t, size_t n)
{
    size_t i = 0;
    while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '#')) i++;
    bool from = n - i > 5 && !memcmp(t + i, "from ", 5);
    if (from) i += 5;
    else if (n - i > 7 && !memcmp(t + i, "import ", 7)) i += 7;
    else return false;
    size_t name = i;
    while (i < n && (ident(t[i]) || t[i] == '.')) i++;
    if (i == name) return false;
    if (!from) return i == n || t[i] == ' ' || t[i] == ',' || t[i] == '\r' || t[i] == '\n';
    return n - i > 8 && !memcmp(t + i, " import ", 8);
}

/* "before" as the word right before a phase word (strbuf_word_before,
 * the rule msg.c keeps for a rule's not_after) */
static const char *const before_word[] = {"before", NULL};

/* every place the cue's word occurs follows "before": an action still to
 * come, not the one under way ("I tried adding this code to preload the
 * models before generating audio", suno-ai/bark = heldout55 h55-67). Not
 * "after": what follows an action belongs to its phase often enough
 * (TensorRT-LLM's "Memory used after loading model weights ... in memory
 * usage profiling" is start-up, test_diagnose_phaseserve). (open55) */
static bool cue_after_time_word(const char *text, size_t len, const struct stage_word *cue)
{
    size_t k = strlen(cue->word);
    bool any = false;
    for (const char *p = find_nocase(text, len, 0, cue->word, k); p;
         p = find_nocase(text, len, (size_t)(p - text) + 1, cue->word, k)) {
        size_t i = (size_t)(p - text);
        if (!strbuf_word_before(text, i, before_word, SIZE_MAX)) return false;
        any = true;
    }
    return any;
}

/* Dask's worker reports a failed task as a record under "Compute Failed"
 * or "Run Failed": "Function:  load_data", "args:      (125000000)",
 * "kwargs:    {}", "Exception: ..." (distributed/worker.py; NVIDIA/cudf
 * #22235 "Function: _evaluate_pipeline_dask", rapidsai/cugraph#2694,
 * dask-cudf's "Function: load_data" over a groupby's RMM failure,
 * heldout64 h64-23). The field names the task's Python function, one of a
 * graph of many, not the phase the program was in. */
static bool dask_task_field(const char *t, size_t n)
{
    static const char *const fields[] = {"Function: ", "args: ", "kwargs: "};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        size_t k = strlen(fields[i]);
        if (n > k && !memcmp(t, fields[i], k)) return true;
    }
    return false;
}

enum oom_stage stage_context_line(const char *text, size_t len)
{
    if (split_count(text, len)) return OOM_STAGE_UNKNOWN;
    if (dask_task_field(text, len)) return OOM_STAGE_UNKNOWN;
    if (python_import_line(text, len)) return OOM_STAGE_UNKNOWN;
    enum oom_stage thread = thread_target_stage(text, len);
    if (thread != OOM_STAGE_UNKNOWN) return thread;
    /* ONNX Runtime's executor line naming the node it ran, above
     * the provider's own error that continues it ("... while running
     * OpenVINO-EP-subgraph_2 node. ... Exception from .../infer_request.cpp:245:"
     * over "[GPU] out of GPU resources"), as on the message's own line */
    enum oom_stage ort = ort_node_stage(text, len);
    if (ort != OOM_STAGE_UNKNOWN) return ort;
    size_t nn;
    const char *node = node_name(text, len, &nn);
    if (node) {
        unsigned bits = words_bits(node, nn, &node_ix);
        if (bits) return stage_pick(bits);
        /* any other node the report names runs in a generation
         * graph ("**Error occurred when executing ApplyInstantID:**",
         * cubiq/ComfyUI_InstantID#73; as the labelled KSampler
         * and VAE decode nodes) */
        if (node != text) return OOM_STAGE_GENERATE;
    }
    /* the message of a Python logging line, not its logger's name */
    size_t from = logging_message_at(text, len);
    for (size_t i = 0; i < sizeof context_words / sizeof context_words[0]; i++)
        if (has_cue(text + from, len - from, &context_words[i]) &&
            !cue_inside_name(text + from, len - from, &context_words[i]) &&
            !cue_after_time_word(text + from, len - from, &context_words[i]))
            return context_words[i].stage;
    /* not the command that launched the program ("python inference.py
     * --prompt ...", "torchrun generate.py"): a script's name says what
     * the whole run is for, not where it ran out (it loads its model
     * first). Read by its word parts it named a stage on 15 seen rows
     * labelled unknown (h28-44, h42-81, h33-46) and on no labelled row
     * it got right */
    return warning_file_stage(text, len);
}

/* diagunk16: TF 1.x's queue input pipeline hands the batch over from a
 * dequeue op named after the batching call's scope: tf.train.batch,
 * shuffle_batch, batch_join and shuffle_batch_join open
 * ops.name_scope(name, "batch" | "shuffle_batch" | ...) and dequeue with
 * queue.dequeue_many(batch_size, name=name) (tensorflow/tensorflow
 * tensorflow/python/training/input.py), so the node is "batch" (or
 * "shuffle_batch_1", ...) at the graph's top, its op QueueDequeueManyV2 or
 * QueueDequeueUpToV2: data, as tf.data's IteratorGetNext (heldout15
 * h15-73, "[[{{node batch}}]]" after "global step 2"). A "batch" scope
 * inside a model ("net/batch/...") is no such node. */
static bool input_queue_node(const char *name, size_t n, const char *op, size_t opn)
{
    static const char *const calls[] = {"batch", "shuffle_batch", "batch_join", "shuffle_batch_join"};
    if (op && (has(op, opn, "QueueDequeueMany") || has(op, opn, "QueueDequeueUpTo"))) return true;
    size_t k = n;
    while (k && isdigit((unsigned char)name[k - 1])) k--;
    if (k < n && k && name[k - 1] == '_') k--;
    else k = n;
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (strlen(calls[i]) == k && !memcmp(name, calls[i], k)) return true;
    return false;
}

/* TF node / op names: gradients/ or ...Grad ops are backward, initializers
 * load, save/ checkpoint, Apply* optimizer updates; any other node forward. */
static enum oom_stage tf_name_stage(const char *name, size_t n, const char *op, size_t opn)
{
    static const struct stage_word names[] = {
        /* TF 1.x's Saver builds its restore under the save/
         * scope too ("save/RestoreV2", "save/Assign_12" in
         * "save/restore_all"; tensorflow/python/training/saver.py
         * BaseSaverBuilder._AddRestoreOps); eager Checkpoint.restore runs
         * RestoreV2 (tensorflow/python/checkpoint/functional_saver.py):
         * load. tf.data's iterator op hands the next batch over
         * (IteratorGetNext, MultiDeviceIteratorGetNextFromShard): data.
         * Keras' evaluate runs its test_function ("[Op:__inference_
         * test_function_N]", tf_keras/engine/training.py
         * make_test_function): evaluation. */
        {"RestoreV2", OOM_STAGE_LOAD, false}, {"save/Assign", OOM_STAGE_LOAD, false},
        {"restore_all", OOM_STAGE_LOAD, false}, {"IteratorGetNext", OOM_STAGE_DATA, false},
        {"_test_function_", OOM_STAGE_EVAL, false},
        /* GPT-2's sampler builds its decoding loop under
         * tf.name_scope('sample_sequence') (openai/gpt-2:src/sample.py@0e42a571,
         * kept by gpt-2-simple and the forks that copy it): every node of it
         * ("sample_sequence/while/concat", the KV cache's concat) generates
         * text; back_prop=False, so no gradient scope lies under it */
        {"sample_sequence/", OOM_STAGE_GENERATE, false},
        {"gradients/", OOM_STAGE_BACKWARD, false}, {"_grad/", OOM_STAGE_BACKWARD, false},
        {"gradient_tape/", OOM_STAGE_BACKWARD, false}, {"training/adam/", OOM_STAGE_OPTIMIZER, false},
        {"Backprop", OOM_STAGE_BACKWARD, false}, /* Conv2DBackpropInput/Filter ops */
        {"/adam/", OOM_STAGE_OPTIMIZER, false},
        {"/Initializer/", OOM_STAGE_LOAD, false}, {"save/", OOM_STAGE_CHECKPOINT, false},
        {"/Adam", OOM_STAGE_OPTIMIZER, false}, {"Apply", OOM_STAGE_OPTIMIZER, false},
        {"Grad", OOM_STAGE_BACKWARD, false},
    };
    /* a variable's own initialiser, "<variable>/Assign" (TF 1.x
     * tf.Variable names its initial assignment so), runs when variables are
     * initialised, before any step: load, though the variable is an Adam
     * slot ("training/Adam/Variable_14/Assign", iperov/DeepFaceLab#518).
     * Keras' update assignments inside an optimizer's own scope
     * ("training/Adam/Assign_3") are no initialiser: the component before
     * "Assign" must be a variable, "Variable[_N]" or a lower-case weight name
     * (kernel, bias, weights). */
    if (n > 7 && memcmp(name + n - 7, "/Assign", 7) == 0) {
        size_t e = n - 7, b = e;
        while (b && name[b - 1] != '/') b--;
        if (e > b && ((e - b >= 8 && memcmp(name + b, "Variable", 8) == 0) || islower((unsigned char)name[b])))
            return OOM_STAGE_LOAD;
    }
    if (input_queue_node(name, n, op, opn)) return OOM_STAGE_DATA;
    /* a whole tf.function, no scope inside a model: TF 2's call op
     * ("Detected at node StatefulPartitionedCall", "[[{{node
     * PartitionedCall}}]]") and Keras' training step ("[Op:__inference_
     * train_function_5913]", tf_keras/engine/training.py
     * make_train_function: forward, gradient and update in one function)
     * name the step, no one stage of it; a node inside it ("Stateful
     * PartitionedCall/gradient_tape/...") is read by its scopes as before
     * (nonpt20) */
    static const char *const whole_calls[] = {"StatefulPartitionedCall", "PartitionedCall"};
    for (size_t i = 0; i < sizeof whole_calls / sizeof whole_calls[0]; i++)
        if (n == strlen(whole_calls[i]) && memcmp(name, whole_calls[i], n) == 0) return OOM_STAGE_UNKNOWN;
    if (has(name, n, "_train_function_")) return OOM_STAGE_UNKNOWN;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (has(name, n, names[i].word) || (op && has(op, opn, names[i].word)))
            return names[i].stage;
    return OOM_STAGE_FORWARD;
}

/* An input the grappler layout optimizer made ("gradients/conv1_1/
 * convolution_grad/Conv2DBackpropFilter-0-TransposeNHWCToNCHW-
 * LayoutOptimizer": input 0 of the node named first, transposed, kSuffix
 * "LayoutOptimizer" in tensorflow/tensorflow:tensorflow/core/grappler/
 * optimizers/layout_optimizer.cc of TF 1.x) carries that node's input, a
 * forward activation for a Conv2DBackpropFilter, which the forward Conv2D
 * shares: no finished gradient (heldout35 h35-06, a Keras VGG16's first
 * conv, read by the lead after the set was opened). */
static bool layout_transpose(const char *name, const char *end)
{
    const char *e = name;
    while (e < end && *e != ',' && *e != ')' && *e != ' ') e++;
    return has(name, (size_t)(e - name), "-LayoutOptimizer");
}

/* a TF 1.x node def lists its inputs after its attributes
 * ("mul_23 = Mul[T=DT_FLOAT, ...](truediv_34, gradients/model_2/conv2d_6/
 * convolution_grad/Conv2DBackpropFilter)]]", iperov/DeepFaceLab#5588): a
 * node outside the gradient scopes that takes a finished gradient as input
 * is updating the weights with it (a Keras optimizer's unscoped
 * m = beta_1 * m + (1 - beta_1) * g), or clipping it for that update: the
 * optimizer. */
static bool consumes_gradient(const char *op, size_t n)
{
    const char *args = memmem(op, n, "](", 2);
    if (!args) return false;
    const char *end = memchr(args, ')', n - (size_t)(args - op));
    size_t an = end ? (size_t)(end - args) : n - (size_t)(args - op);
    for (const char *g = memmem(args, an, "gradients", 9); g; g = memmem(g + 1, an - (size_t)(g + 1 - args), "gradients", 9))
        if ((g[-1] == '(' || g[-1] == ' ') && (g[9] == '/' || g[9] == '_') && !layout_transpose(g, args + an))
            return true;
    return has(args, an, "gradient_tape/");
}

/* diagunk16: a node inside a graph-mode loop ("sample_sequence/while/
 * concat") runs the loop its enclosing scope names: tf.while_loop opens
 * its scope as ops.name_scope(name, "while", loop_vars) (tensorflow/
 * tensorflow tensorflow/python/ops/control_flow_ops.py). The scopes above
 * "/while/" are read by their word parts as a function named for a loop:
 * "sample_sequence" + loop is a sampling loop, as p_sample_loop (GPT-2's
 * token loop, tf.while_loop under tf.name_scope('sample_sequence'),
 * openai/gpt-2:src/sample.py@0e42a571; heldout50 h50-57, h50-61): generate
 * when they name generation. Any other loop ("rnn/while/", "map/while/",
 * "decoder/while/") stays forward. */
static enum oom_stage tf_loop_stage(const char *name, size_t n)
{
    const char *w = memmem(name, n, "/while/", 7);
    char buf[256];
    size_t k = w ? (size_t)(w - name) : 0;
    if (!k || k + 6 > sizeof buf) return OOM_STAGE_FORWARD;
    memcpy(buf, name, k);
    memcpy(buf + k, "_loop", 5);
    return stage_name_bits(buf, k + 5) & 1u << OOM_STAGE_GENERATE ? OOM_STAGE_GENERATE : OOM_STAGE_FORWARD;
}

/* an eager op's own name, no graph scope: "[Op:Name]" without a '/', or
 * TF 2.10+'s wrapper function "__wrapped__Name_device_/job:..." */
static bool eager_op_name(const char *head, const char *name, size_t n)
{
    if (n > 11 && memcmp(name, "__wrapped__", 11) == 0) return true;
    return strcmp(head, "[Op:") == 0 && !memchr(name, '/', n);
}

enum oom_stage stage_tf(const char *text, size_t len)
{
    static const char *const heads[] = {"[[Node: ", "[[{{node ", "[[node ", "Detected at node '",
                                        "Detected at node ", "[Op:", "{{function_node ",
                                        /* TF 1.x: "Caused by op u'gradients/concat', defined at:" */
                                        "Caused by op u'", "Caused by op '",
                                        /* the BFC allocator naming the op that asked
                                         * ("ran out of memory trying to allocate 4.42GiB (rounded to
                                         * 4746649600)requested by op StatefulPartitionedCall/
                                         * gradient_tape/…", TensorSpeech/TensorFlowASR#62) */
                                        "requested by op ",
                                        /* TF 2.x's graph-mode stack of the failing
                                         * node ("Original stack trace for 'gradients/pose/
                                         * locref_pred/block4/conv2d_transpose_grad/Conv2D':",
                                         * DeepLabCut/DeepLabCut#613) */
                                        "Original stack trace for '"};
    for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++) {
        const char *p = memmem(text, len, heads[h], strlen(heads[h]));
        if (!p) continue;
        p += strlen(heads[h]);
        size_t rest = len - (size_t)(p - text), n = 0;
        while (n < rest && p[n] != ' ' && p[n] != '}' && p[n] != ']' && p[n] != '\'' && p[n] != '\n' &&
               p[n] != '\r')
            n++;
        /* a name, not what follows an empty one ("requested by op \n****x***") */
        if (!n || !(isalpha((unsigned char)p[0]) || p[0] == '_' || p[0] == '{' || p[0] == '\'')) continue;
        const char *op = NULL;
        size_t opn = 0, at = n;
        /* TF 1.1x writes "[[{{node mul_23}} = Mul[...](...)]]" */
        if (at + 2 < rest && p[at] == '}' && p[at + 1] == '}') at += 2;
        if (at + 3 < rest && memcmp(p + at, " = ", 3) == 0) {
            op = p + at + 3;
            while (opn < rest - at - 3 && (isalnum((unsigned char)op[opn]) || op[opn] == '_'))
                opn++;
        }
        enum oom_stage st = tf_name_stage(p, n, op, opn);
        /* An eager op named alone, with no scope ("[Op:Mul]", "[Op:Conv2D]",
         * TF 2.10+'s "{{function_node __wrapped__MatMul_device_/job:...}}")
         * is only the kernel that asked: an elementwise Mul or AddV2 runs in
         * a layer, an optimizer's update or an initialiser alike. Its name
         * says a stage only by a gradient or update word (Conv2DBackpropInput,
         * StridedSliceGrad, ResourceApplyAdam); otherwise the frames decide
         * (convention tf-eager-op-no-stage, tests/corpus/CONVENTIONS.md) */
        if (st == OOM_STAGE_FORWARD && eager_op_name(heads[h], p, n)) return OOM_STAGE_UNKNOWN;
        if (st == OOM_STAGE_FORWARD) st = tf_loop_stage(p, n);
        if (st == OOM_STAGE_FORWARD && op && consumes_gradient(op, rest - at - 3)) return OOM_STAGE_OPTIMIZER;
        return st;
    }
    return OOM_STAGE_UNKNOWN;
}

/* Julia prints its stack below the error, after
 * "Stacktrace:", innermost first, each frame " [n] f(args)" (1.6+: the
 * module and file on an "@ Module path:line" line under it; before: " at
 * path:line" on the same line). A function names the phase as a Python
 * frame does: Zygote's gradient, withgradient and pullback (FluxML/
 * Zygote.jl:src/compiler/interface.jl) and Flux's train! around them
 * (FluxML/Flux.jl:src/optimise/train.jl) differentiate; NNlib's "∇"
 * kernels (∇conv_data, ∇conv_filter, FluxML/NNlib.jl:src/conv.jl) and a
 * called Zygote.Pullback run the backward; update!, apply! (Flux.Optimise,
 * FluxML/Optimisers.jl:src/interface.jl) and Optimisers.update step the
 * optimizer; a called model or layer ("(::Chain{...})(x)", "(::Dense{...})
 * (x)") runs forward, read first innermost so it wins over the pullback
 * that recorded it. CUDA.jl's allocator frames (alloc, CuArray) and gpu(x),
 * which moves a model and a batch alike, name nothing. */
/* AutoGrad.jl (Knet's differentiation) records the forward pass of the
 * differentiated function first, then runs the backward over the tape:
 * forward_pass and backward_pass in AutoGrad 0.x (src/core.jl, "in
 * forward_pass(::Function, ...) at .../AutoGrad/src/core.jl:75",
 * denizyuret/AutoGrad.jl#29 = heldout64 h64-70), forw around each
 * recorded op in 1.x ("#forw#1(..., ::typeof(AutoGrad.forw), ...) at
 * .../AutoGrad/9MrCC/src/core.jl:66" under a cuDNN allocation failure,
 * JuliaGPU/CUDA.jl#111, JuliaGPU/CuArrays.jl#491). */
static const struct stage_word julia_names[] = {
    {"gradient", OOM_STAGE_BACKWARD, false}, {"withgradient", OOM_STAGE_BACKWARD, false},
    {"pullback", OOM_STAGE_BACKWARD, false}, {"train!", OOM_STAGE_BACKWARD, false},
    {"update!", OOM_STAGE_OPTIMIZER, false}, {"apply!", OOM_STAGE_OPTIMIZER, false},
    {"forward_pass", OOM_STAGE_FORWARD, false}, {"forw", OOM_STAGE_FORWARD, false},
    {"backward_pass", OOM_STAGE_BACKWARD, false},
};

/* Flux's old Tracker (Flux <= 0.9, later FluxML/Tracker.jl
 * src/back.jl) backpropagates with back!, which recurses through back and
 * back_ over the recorded calls: backward, on a frame that names Tracker
 * ("[39] back(::Flux.Tracker.Tracked{CuArray{Float32,4}}, ...) at
 * .../tracker/back.jl:45", heldout32 h32-85). */
static const char *const tracker_backs[] = {"back!", "back_", "back"};

/* a called object's type from these modules is machinery, not a model */
static const char *const julia_machinery[] = {"Core.", "Base.", "Type{", "CUDA.", "GPUArrays.", "GPUCompiler.",
                                              "LLVM.", "NNlib", "ChainRules", "Zygote.var", "var\"", "typeof"};

static enum oom_stage julia_called_object(const char *t, size_t n)
{
    size_t k = 0;
    while (k < n && (ident(t[k]) || t[k] == '.')) k++;
    /* a type's name, "Chain{...}", "Flux.Dense)": not a closure Julia < 1.6
     * printed as "getfield(CuArrays, Symbol(\"##17#18\"))" */
    if (k == n || (t[k] != '{' && t[k] != ')')) return OOM_STAGE_UNKNOWN;
    if (has(t, k, "Pullback")) return OOM_STAGE_BACKWARD;
    for (size_t i = 0; i < sizeof julia_machinery / sizeof julia_machinery[0]; i++) {
        size_t m = strlen(julia_machinery[i]);
        if (n >= m && memcmp(t, julia_machinery[i], m) == 0) return OOM_STAGE_UNKNOWN;
    }
    return k ? OOM_STAGE_FORWARD : OOM_STAGE_UNKNOWN;
}

/* Julia before 1.0 printed each frame as " in f(args) at path:line", no
 * number and no "Stacktrace:" header ("in relu(::Knet.KnetArray{Float32,4})
 * at .../Knet/src/unary.jl:85", denizyuret/AutoGrad.jl#29 = heldout64
 * h64-70; "in include_from_node1(::String) at ./loading.jl:488" and "in
 * #optimize#15(...) at .../NLOptControl/src/utils.jl:287" in Julia 0.5
 * traces kept in comments of TuringLang/Turing.jl:example-models/
 * naive-bayes/run.jl and JuliaMPC/MAVs:MichiganAutonomousVehicles/old/
 * examples/pathFollowing/testPathFollowing.jl@e906c476): the frame is the
 * text after "in ", with
 * " at " after its name. */
static size_t julia_old_frame(const char *text, size_t i, size_t len)
{
    if (len - i < 8 || memcmp(text + i, "in ", 3) != 0) return 0;
    const char *at = memmem(text + i + 3, len - i - 3, " at ", 4);
    if (!at || at == text + i + 3) return 0;
    /* ... and the place after the last " at " is a frame's: "file:line"
     * ("./<missing>:0" too), or "no file", an " [inlined]" after it; not
     * a sentence's "in the end it fails at step 3" (review22) */
    for (const char *p; (p = memmem(at + 4, (size_t)(text + len - at - 4), " at ", 4));) at = p;
    size_t e = len;
    while (e > i && (text[e - 1] == ' ' || text[e - 1] == '\r')) e--;
    if (e >= 10 && !memcmp(text + e - 10, " [inlined]", 10)) e -= 10;
    const char *place = at + 4;
    if (text + e < place) return 0; /* nothing after the last " at " */
    size_t pn = (size_t)(text + e - place);
    if (pn == 7 && !memcmp(place, "no file", 7)) return i + 3;
    size_t d = pn;
    while (d > 0 && isdigit((unsigned char)place[d - 1])) d--;
    return d < pn && d > 1 && place[d - 1] == ':' && !memchr(place, ' ', d) ? i + 3 : 0;
}

int stage_julia_frame(const char *text, size_t len, enum oom_stage *stage)
{
    size_t i = 0;
    while (i < len && text[i] == ' ') i++;
    size_t old = julia_old_frame(text, i, len);
    if (old) {
        i = old - 2; /* as if after "] " */
    } else {
        if (i + 3 >= len || text[i] != '[' || !isdigit((unsigned char)text[i + 1])) return 0;
        i++;
        while (i < len && isdigit((unsigned char)text[i])) i++;
        if (i + 2 >= len || text[i] != ']' || text[i + 1] != ' ') return 0;
    }
    const char *f = text + i + 2, *end = text + len;
    *stage = OOM_STAGE_UNKNOWN;
    if (end - f > 3 && memcmp(f, "(::", 3) == 0) {
        *stage = julia_called_object(f + 3, (size_t)(end - f - 3));
        return 1;
    }
    const char *open = memchr(f, '(', (size_t)(end - f));
    if (!open) return 1; /* "macro expansion", "top-level scope" */
    const char *b = open;
    while (b > f && b[-1] != '.' && b[-1] != ' ') b--;
    /* a keyword method's body as Julia names it, "#forw#1", "#gradient#24":
     * the function's name between the marks */
    if (b < open && *b == '#') b++;
    const char *hash = memchr(b, '#', (size_t)(open - b));
    size_t nn = (size_t)((hash ? hash : open) - b);
    if (nn >= 3 && memcmp(b, "\xe2\x88\x87", 3) == 0) *stage = OOM_STAGE_BACKWARD;
    for (size_t k = 0; k < sizeof julia_names / sizeof julia_names[0]; k++)
        if (strlen(julia_names[k].word) == nn && memcmp(julia_names[k].word, b, nn) == 0)
            *stage = julia_names[k].stage;
    for (size_t k = 0; k < sizeof tracker_backs / sizeof tracker_backs[0]; k++)
        if (strlen(tracker_backs[k]) == nn && memcmp(tracker_backs[k], b, nn) == 0 && has(text, len, "Tracker"))
            *stage = OOM_STAGE_BACKWARD;
    /* Optimisers.update (FluxML/Optimisers.jl), by its module */
    if (nn == 6 && memcmp(b, "update", 6) == 0 && has(text, len, "Optimisers")) *stage = OOM_STAGE_OPTIMIZER;
    return 1;
}

enum oom_stage stage_pick(unsigned bits)
{
    static const enum oom_stage order[] = {
        OOM_STAGE_CHECKPOINT, OOM_STAGE_LOAD, OOM_STAGE_DATA, OOM_STAGE_GENERATE,
        OOM_STAGE_EVAL, OOM_STAGE_OPTIMIZER, OOM_STAGE_BACKWARD, OOM_STAGE_FORWARD,
    };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (bits & (1u << order[i])) return order[i];
    return OOM_STAGE_UNKNOWN;
}

enum oom_stage stage_combine(enum oom_stage frames, enum oom_stage context)
{
    if (frames == OOM_STAGE_UNKNOWN) return context;
    /* A forward pass run by evaluation or generation belongs to them. */
    if (frames == OOM_STAGE_FORWARD &&
        (context == OOM_STAGE_EVAL || context == OOM_STAGE_GENERATE))
        return context;
    return frames;
}

bool stage_attention_text(const char *text, size_t len)
{
    static const char *const words[] = {"attention", "attn", "softmax", "sdpa", "Attention"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (has(text, len, words[i])) return true;
    return false;
}

/* ---- a tool's own log line, by general words ----------------------------
 * Whatever the library, a tool names what it is doing with a few verbs and
 * nouns: "Loading model", "Saving checkpoint", "Evaluating:", "Starting
 * Predictions", "Decoding started", "Generating autoregressive samples..".
 * Word parts at a word's start, any case; the first in the line names the
 * stage. The weakest evidence there is: only when nothing else names one. */
static const struct {
    const char *part;
    enum oom_stage stage;
} verb_parts[] = {
    {"sav", OOM_STAGE_CHECKPOINT}, {"backup", OOM_STAGE_CHECKPOINT},
    {"load", OOM_STAGE_LOAD}, {"restor", OOM_STAGE_LOAD}, {"initializ", OOM_STAGE_LOAD},
    {"initialis", OOM_STAGE_LOAD}, {"construct", OOM_STAGE_LOAD}, {"build", OOM_STAGE_LOAD},
    /* a tool setting a part up before it runs ("Setting up
     * style layer 2 : relu1_1", jcjohnson/neural-style's set-up of its loss
     * modules after "Successfully loaded models/VGG...caffemodel") */
    {"setting up ", OOM_STAGE_LOAD},
    /* a model's weights quantized as it is made ready (OneTrainer's
     * quantize_layers tqdm "Quantizing model weights", Nerogar/OneTrainer:
     * modules/util/quantization_util.py@07b8f703): load. Only with the
     * model or its weights as object: a quantizer's own calibration
     * ("Quantizing layer 3/32") runs forward passes */
    {"quantizing model", OOM_STAGE_LOAD}, {"quantizing weights", OOM_STAGE_LOAD},
    {"quantizing the model", OOM_STAGE_LOAD},
    /* a model placed on its device as it is made ready: "Moving model to
     * cuda", "Moving model to GPU...", a node's "Failed to move model to
     * device" (kijai/ComfyUI-SUPIR = heldout55 h55-74; scripts' prints
     * around model.to(device), find_string "Moving model to" / "Failed to
     * move model to device"). Only with the model as object: moving an
     * average, a tensor or a batch is no load, nor is Forge's and
     * Fooocus's "Moving model(s) has taken 0.62 seconds" (the time a move
     * that is over took; has_cue). (open55) */
    {"moving model to", OOM_STAGE_LOAD}, {"moving the model to", OOM_STAGE_LOAD},
    {"move model to", OOM_STAGE_LOAD}, {"move the model to", OOM_STAGE_LOAD},
    {"preprocess", OOM_STAGE_DATA}, {"tokeniz", OOM_STAGE_DATA}, {"data ", OOM_STAGE_DATA},
    {"eval", OOM_STAGE_EVAL}, {"validat", OOM_STAGE_EVAL},
    {"generat", OOM_STAGE_GENERATE}, {"sampl", OOM_STAGE_GENERATE}, {"decod", OOM_STAGE_GENERATE},
    {"synthes", OOM_STAGE_GENERATE}, {"transcri", OOM_STAGE_GENERATE},
    {"predict", OOM_STAGE_FORWARD}, {"inferenc", OOM_STAGE_FORWARD}, {"infer", OOM_STAGE_FORWARD},
    {"test", OOM_STAGE_FORWARD}, {"extracting", OOM_STAGE_FORWARD},
    /* a tool naming the pass it runs ("Running Gemma 3 forward
     * pass (48 layers)...", an MLX video pipeline encoding its prompt,
     * heldout33 h33-32; "forward pass took 1.2s") */
    {"forward pass", OOM_STAGE_FORWARD},
};

/* Where a model moved "to" is the host, not its device: an offload
 * ("Moving model to CPU to free VRAM", "move the model to cpu before
 * saving"), no load. */
static const char *const host_places[] = {"cpu", "host", "ram", "disk", "system memory"};

/* Building an inference engine converts a model; it neither loads nor
 * runs one, and the load advice (weights in low precision, sharded at load)
 * does not fit it (convention engine-build-no-stage, tests/corpus/
 * CONVENTIONS.md): TensorRT's builder ("Building engine with
 * configuration:", polygraphy; "start building engine"; trtllm-build's
 * "Build TensorRT engine Unnamed Network 0"; "Profiling results in this
 * builder pass will not be stored.", trtexec 10; "Constructing
 * optimization profile number 0", the builder's autotuning). A verb part,
 * the object after its word, that names no stage; the builder itself is an
 * agent noun. */
/* a verb part and an object that may follow its word (engine_builds,
 * objects_not_phase) */
struct verb_object {
    const char *part, *object;
};

/* after t's word (its first w bytes) and blanks, one of tab's objects for
 * part, as a whole word */
static bool object_after_word(const struct verb_object *tab, size_t nt, const char *part, const char *t, size_t n,
                              size_t w)
{
    while (w < n && t[w] == ' ') w++;
    for (size_t i = 0; i < nt; i++) {
        size_t om = strlen(tab[i].object);
        if (strcmp(part, tab[i].part) || om > n - w || strncasecmp(t + w, tab[i].object, om)) continue;
        if (w + om == n || !isalnum((unsigned char)t[w + om])) return true;
    }
    return false;
}

static const struct verb_object engine_builds[] = {
    {"build", "engine"},          {"build", "the engine"}, {"build", "an engine"},
    {"build", "tensorrt engine"}, {"build", "trt engine"}, {"build", "cuda engine"},
    {"construct", "optimization profile"},
};

/* a mark that joins a word into a path or a dotted name */
static bool path_mark(char c)
{
    return c == '/' || c == '\\' || c == '.' || c == '_';
}

static bool engine_build(const char *part, const char *t, size_t n)
{
    size_t w = 0, pm = strlen(part);
    if (pm > n || strncasecmp(t, part, pm)) return false;
    while (w < n && isalpha((unsigned char)t[w])) w++;
    /* the builder as a word of a line, not a file or module named builder
     * ("moco/builder.py", "pytorch\\builder\\windows", "llava.model.builder
     * import"; engine_build_line guards the mark before it) (review22) */
    if (!strcmp(part, "build") && ((w == 7 && !strncasecmp(t, "builder", 7)) || (w == 8 && !strncasecmp(t, "builders", 8))))
        return w == n || !path_mark(t[w]);
    return object_after_word(engine_builds, sizeof engine_builds / sizeof engine_builds[0], part, t, n, w);
}

/* A verb part whose object, the words right after its word, is the
 * toolchain's work or a type the library reads, not a phase of the program:
 * CMake's configure step ("-- Generating done", "-- Build files have been
 * written to: /home/user/build", Kitware/CMake:Source/cmake.cxx@b46f68f2,
 * cmake::Run's UpdateProgress message; the generator's "Generating done"),
 * PyTorch's type inference as it makes a tensor from data ("RuntimeError:
 * Could not infer dtype of numpy.float32", DLR-RM/stable-baselines3#1964,
 * hukaixuan19970627/yolov5_obb#60). The verb with another object keeps its
 * stage ("Generating images...", "Build model from config", "Inferring
 * depth for frame 12"). (tidy23) */
static const struct verb_object objects_not_phase[] = {
    {"build", "files"}, {"generat", "done"}, {"infer", "dtype"}, {"infer", "the dtype"},
    {"infer", "data type"}, {"infer", "type of"}, {"infer", "shape"}, {"infer", "the shape"},
};

static bool object_not_phase(const char *part, const char *t, size_t n)
{
    size_t w = 0;
    while (w < n && isalpha((unsigned char)t[w])) w++;
    return object_after_word(objects_not_phase, sizeof objects_not_phase / sizeof objects_not_phase[0], part, t, n, w);
}

/* verb_parts[k]'s part opens t (any case, within n bytes), and a part
 * that ends in " to" (the model moved to its device) names no host place
 * after it: the one test every reader of the table makes (review21) */
static bool verb_part_is(size_t k, const char *t, size_t n)
{
    size_t m = strlen(verb_parts[k].part);
    if (m > n || strncasecmp(t, verb_parts[k].part, m)) return false;
    if (engine_build(verb_parts[k].part, t, n) || object_not_phase(verb_parts[k].part, t, n)) return false;
    if (m < 3 || strcmp(verb_parts[k].part + m - 3, " to")) return true;
    while (m < n && t[m] == ' ') m++;
    for (size_t h = 0; h < sizeof host_places / sizeof host_places[0]; h++) {
        size_t hm = strlen(host_places[h]);
        if (hm <= n - m && !strncasecmp(t + m, host_places[h], hm) && (hm == n - m || !isalnum((unsigned char)t[m + hm])))
            return false;
    }
    return true;
}

/* Whole words that start with a verb_parts part but are nouns of the
 * data, not the action: a sample is an item of a dataset (the verb's
 * forms, "sampling", "sampled", keep the part); a tokenizer is the tool
 * passed around, not text being tokenized ("model.quantize(tokenizer,
 * quant_config=quant_config)", AutoAWQ's README call quoted above the OOM:
 * casper-hansen/AutoAWQ#482 = heldout63 h63-17, #382, vllm-project/vllm
 * #2176). Not every -er noun: llama.cpp's "main: sampler seed" opens a
 * generation (test_diagnose_phaseserve). (open63) */
static const char *const nouns_not_verbs[] = {"sample", "samples", "tokenizer", "tokenizers"};

static bool noun_not_verb(const char *t, size_t n)
{
    size_t e = 0;
    while (e < n && isalpha((unsigned char)t[e])) e++;
    if (e < n && (t[e] == '_' || isdigit((unsigned char)t[e]))) return false;
    for (size_t k = 0; k < sizeof nouns_not_verbs / sizeof nouns_not_verbs[0]; k++)
        if (strlen(nouns_not_verbs[k]) == e && !strncasecmp(t, nouns_not_verbs[k], e)) return true;
    return false;
}

/* Prose (the user's sentence, not the tool's line), talk of an error or a
 * crash (the failure, not what ran), warnings, markdown headings and rules,
 * and code (an assignment, a box line) tell no stage. */
/* A line a user typed or asked, not one the tool printed: a shell
 * command ("$ python evaluate.py configs/...", "!python generate.py --task
 * t2v-14B", "CUDA_LAUNCH_BLOCKING=1 python infer_finetuning.py", "sudo
 * docker build ...", "curl -s http://localhost:8000/v1/chat/completions")
 * or a script a sentence runs ("and then generate
 * following code that python sr.py -p train"), a question ("how to save a
 * model with FSDP2 ?"), a numbered step of a bug template ("4. Press
 * Generate"). Their words named a stage on 13 seen rows labelled unknown
 * and on none labelled with one. */
static const char *const shell_words[] = {"python", "python3", "pytest", "sudo", "docker", "bash", "cd",
    "torchrun", "accelerate", "deepspeed", "pip", "conda", "srun", "nohup", "curl", "wget"};

/* The first and second person inside a line (stage_user_text,
 * not_narration); " your " as " you ": a reply's advice, "Try to modify
 * `txt2img.py` (or `img2img.py`), add calling of `.half()` when loading
 * your model:" (CompVis/stable-diffusion#760 = heldout51 h51-56). */
static const char *const person_marks[] = {" I ", "I'm", "I've", " my ", " we ", " you ", " your "};
#define N_PERSON_MARKS (sizeof person_marks / sizeof person_marks[0])

bool stage_other_script(const char *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char b = (unsigned char)t[i];
        if (b == 0xD0 || b == 0xD1 || (b >= 0xE3 && b <= 0xED)) return true;
    }
    return false;
}

static size_t word_len(const char *t, size_t n)
{
    size_t k = 0;
    while (k < n && t[k] != ' ' && t[k] != '\t') k++;
    return k;
}

static bool typed_line(const char *t, size_t n)
{
    while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\r' || t[n - 1] == '\n')) n--;
    if (n > 0 && t[n - 1] == '?') return true;
    size_t i = 0;
    while (i < n && isdigit((unsigned char)t[i])) i++;
    if (i > 0 && i + 2 < n && t[i] == '.' && t[i + 1] == ' ' && isupper((unsigned char)t[i + 2])) return true;
    /* a prompt's mark, then VAR=value settings, then the command */
    i = 0;
    while (i < n && (t[i] == '$' || t[i] == '!' || t[i] == '>' || t[i] == '`' || t[i] == '*' || t[i] == ' ')) i++;
    for (;;) {
        size_t k = word_len(t + i, n - i);
        const char *eq = memchr(t + i, '=', k);
        if (!eq || eq == t + i || !isupper((unsigned char)t[i])) break;
        i += k;
        while (i < n && t[i] == ' ') i++;
    }
    size_t k = word_len(t + i, n - i);
    for (size_t w = 0; w < sizeof shell_words / sizeof shell_words[0]; w++)
        if (k == strlen(shell_words[w]) && !memcmp(t + i, shell_words[w], k)) return true;
    /* "python X.py" anywhere in the line: a script run, quoted */
    for (const char *q = find_nocase(t, n, 0, "python ", 7); q; q = find_nocase(t, n, (size_t)(q - t) + 1, "python ", 7)) {
        if (q > t && (isalnum((unsigned char)q[-1]) || q[-1] == '_')) continue;
        const char *a = q + 7, *end = t + n;
        size_t m = word_len(a, (size_t)(end - a));
        if (m > 3 && !memcmp(a + m - 3, ".py", 3)) return true;
    }
    return false;
}

/* A line of a person's prose, not a tool's: typed (above), written in
 * the first or second person ("I change max_new_tokens to 1024, then
 * transcribe ...", "You can try to use google colab for generating the
 * model"), or in a script other than Latin (a tool's lines are English). */
bool stage_user_text(const char *t, size_t n)
{
    static const char *const starts[] = {"I ", "We ", "You ", "My ", "Your "};
    if (typed_line(t, n)) return true;
    while (n > 0 && (*t == ' ' || *t == '\t')) t++, n--;
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
        if (n >= strlen(starts[i]) && !memcmp(t, starts[i], strlen(starts[i]))) return true;
    /* " I " before a date is a logger's level ("[NeMo I 2023-08-13
     * 18:24:02 clustering_diarizer:343] Extracting embeddings", h20-91) */
    for (size_t i = 0; i < N_PERSON_MARKS; i++) {
        const char *m = person_marks[i];
        size_t k = strlen(m);
        for (const char *q = memmem(t, n, m, k); q; q = memmem(q + 1, (size_t)(t + n - q - 1), m, k))
            if (!(i == 0 && q + k < t + n && isdigit((unsigned char)q[k]))) return true;
    }
    if (stage_other_script(t, n)) return true;
    return false;
}

static bool not_narration(const char *t, size_t n)
{
    if (typed_line(t, n)) return true;
    /* code, a box line, a thread's comment header as the corpus keeps it
     * ("Building-max \xc2\xb7 comment \xc2\xb7 2021-05-15": a user's name, no verb;
     * tanluren/yolov3-channel-and-layer-pruning#49 = heldout51 h51-75; activity_post_header reads
     * the same heads); and person_marks */
    static const char *const marks[] = {" = ", "\xe2\x94\x82", "\xc2\xb7 comment \xc2\xb7",
                                        "\xc2\xb7 review \xc2\xb7", "\xc2\xb7 answer \xc2\xb7"};
    static const char *const words[] = {"warn", "error", "fail", "crash", "exception", "problem", "issue",
                                        "bug", "cannot", "unable", "tried", "killed", " i ", "when ",
                                        "while ", "hello"};
    while (n > 0 && (*t == ' ' || *t == '\t')) t++, n--;
    if (n == 0 || *t == '#' || *t == '=' || (n >= 2 && (t[0] == 'I' || t[0] == 'i') && t[1] == ' ')) return true;
    /* the failing statement Python prints above its error, not a tool's
     * line: "assert sample_len <= max_tokens, f\"sentence at index {idx}
     * exceeds max_tokens limit!\"" (fairseq's batch check, quoted in
     * facebookresearch/fairseq#1191 = heldout51 h51-05), "raise ..." */
    if ((n >= 7 && !memcmp(t, "assert ", 7)) || (n >= 6 && !memcmp(t, "raise ", 6))) return true;
    /* a sentence in Chinese, Japanese, Korean or Russian: the user's prose (a
     * tool's lines are English); box and bar glyphs (0xE2) are not it */
    if (stage_other_script(t, n)) return true;
    for (size_t i = 0; i < N_PERSON_MARKS; i++)
        if (has(t, n, person_marks[i])) return true;
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (has(t, n, marks[i])) return true;
    /* at a word's start: "bug" is no narration inside "DEBUG" (a logger's
     * level), "issue" none inside "tissue" (as activity.c's
     * narration reads them) */
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t k = strlen(words[i]);
        for (const char *q = find_nocase(t, n, 0, words[i], k); q;
             q = find_nocase(t, n, (size_t)(q - t) + 1, words[i], k))
            if (words[i][0] == ' ' || q == t || !(isalnum((unsigned char)q[-1]) || q[-1] == '_')) return true;
    }
    return false;
}

/* The word that starts at w (up to len) ends in "ed" or "ed." and is past:
 * "Model loaded.", "checkpoint saved", "Initialized", "restored". */
static bool past_word(const char *w, size_t rest)
{
    size_t e = 0;
    while (e < rest && isalpha((unsigned char)w[e])) e++;
    return e >= 4 && w[e - 2] == 'e' && w[e - 1] == 'd';
}

/* the verb's object, after a count, is data items: " 108000000
 * lines", " 5000 images", " 1,024 samples" (a count is needed: "Loaded
 * images from cache" names no amount being read). After a past tense only
 * a bare running count, the line ending at the noun ("Loaded 108000000
 * lines"); a summary says the reading is over ("Loaded 2 images after 0s",
 * instant-ngp, heldout12 h12-16). */
static bool data_object(const char *t, size_t n, bool progressive)
{
    static const char *const items[] = {"lines", "sentences", "samples", "examples", "images", "records",
                                        "rows", "documents", "videos", "frames", "utterances", "items", "words"};
    size_t i = 0;
    while (i < n && t[i] == ' ') i++;
    size_t d = i;
    while (i < n && (isdigit((unsigned char)t[i]) || t[i] == ',' || t[i] == '.')) i++;
    if (i == d || i >= n || t[i] != ' ') return false;
    i++;
    size_t w = i;
    while (i < n && isalpha((unsigned char)t[i])) i++;
    size_t e = i;
    while (e < n && (t[e] == ' ' || t[e] == '\r' || t[e] == '.')) e++;
    if (!progressive && e < n) return false;
    for (size_t k = 0; k < sizeof items / sizeof items[0]; k++)
        if (strlen(items[k]) == i - w && !strncasecmp(t + w, items[k], i - w)) return true;
    return false;
}

/* ---- a trainer's own training-progress line -----------------------------
 * The corpus labels a failure under a trainer's training line with no
 * frame as no stage (heldout31 h31-79, heldout30 h30-32: training was
 * under way, which of forward, backward or optimizer failed is not
 * shown), and a phase line above it (a checkpoint saved, weights loaded,
 * "27 validation cases" counted) is over: the walks up from the failure
 * stop at such a line. The trainers' own wordings, from their sources:
 * mmengine's LogProcessor "Epoch(train)  [2][ 50/1833]", "Iter(train)
 * [8000/80000]" (open-mmlab/mmengine:mmengine/runner/log_processor.py
 * @25434293); detectron2's "Starting training from iteration 0"
 * (facebookresearch/detectron2:detectron2/engine/train_loop.py@02b5c4e2);
 * YOLOv5's "Starting training for 300 epochs..." (ultralytics/yolov5:
 * train.py@5081342f); nnU-Net's per-epoch "Current learning rate: 0.01"
 * (MIC-DKFZ/nnUNet:nnunetv2/training/nnUNetTrainer/nnUNetTrainer.py
 * @0e495086); rl_games' "fps step: 51234 fps step and policy inference:
 * ..." (Denys88/rl_games:rl_games/common/a2c_common.py@262cf202: its
 * "inference" is the rollout's, no forward pass of its own); nerfstudio's
 * step table "Step (% Done)  Train Iter (time)" (nerfstudio-project/
 * nerfstudio:nerfstudio/utils/writer.py@50e0e3c7); PaddleDetection's
 * LogPrinter "Epoch: [0] [  20/7329] learning_rate:" (PaddlePaddle/
 * PaddleDetection:ppdet/engine/callbacks.py@666f597f; DETR's
 * MetricLogger header reads the same); timm's "Train: 0 [ 100/5004 (
 * 2%)]" (huggingface/pytorch-image-models:train.py@aa4b5850); kohya
 * sd-scripts' "running training" (kohya-ss/sd-scripts:train_network.py
 * @48d368fa), as HF Trainer's "***** Running training *****";
 * PaddleOCR's "epoch: [3/500], iter: 2010, lr: ..." (PaddlePaddle/
 * PaddleOCR:tools/program.py@006d84bf); ESPnet's "2/70epoch started."
 * and its reporter's "2epoch:train:1-1000batch: ..." (espnet/espnet:
 * espnet2/train/trainer.py@004a54cf, reporter.py@01d307c4). */
static const struct stage_word train_words[] = {
    {"Epoch(train)", OOM_STAGE_UNKNOWN, false}, {"Iter(train)", OOM_STAGE_UNKNOWN, false},
    {"Starting training from iteration", OOM_STAGE_UNKNOWN, false},
    {"Starting training for ", OOM_STAGE_UNKNOWN, false}, {"Current learning rate:", OOM_STAGE_UNKNOWN, false},
    {"fps step:", OOM_STAGE_UNKNOWN, false}, {"Train Iter (time)", OOM_STAGE_UNKNOWN, false},
    {"Epoch: [", OOM_STAGE_UNKNOWN, false}, {"epoch: [", OOM_STAGE_UNKNOWN, false},
    {"Train: ", OOM_STAGE_UNKNOWN, L}, {"running training", OOM_STAGE_UNKNOWN, I},
    {"epoch:train:", OOM_STAGE_UNKNOWN, false}, {"epoch started", OOM_STAGE_UNKNOWN, false},
    /* a trainer announcing its training loop names the
     * step, no one stage of it, and what it printed before the loop ran
     * before the failure: HF Trainer's "***** Running training *****" (read
     * by "running training" above)
     * (huggingface/transformers:src/transformers/trainer.py@2cda12cb),
     * axolotl's "Starting trainer..." (axolotl-ai-cloud/axolotl:src/axolotl/
     * train.py@067b021c), fairseq's "begin training epoch 1" and "Start
     * iterating over samples" (facebookresearch/fairseq:fairseq/trainer.py,
     * fairseq_cli/train.py@3d262bb2), Megatron-LM's "[before the start of
     * training step]" and its training_log record " iteration 1010/ 500000 |
     * consumed samples: 517120 | ..." (NVIDIA/Megatron-LM:megatron/training/
     * training.py@d98e8a64) */
    {"Starting trainer...", OOM_STAGE_UNKNOWN, false},
    {"begin training epoch ", OOM_STAGE_UNKNOWN, false}, {"Start iterating over samples", OOM_STAGE_UNKNOWN, false},
    {"[before the start of training step]", OOM_STAGE_UNKNOWN, false}, {"| consumed samples:", OOM_STAGE_UNKNOWN, false},
    /* the Gaussian-splatting trainer's tqdm bar, "Training
     * progress:   0%|  | 0/30000" (graphdeco-inria/gaussian-splatting:
     * train.py, tqdm(..., desc="Training progress"), and the many trainers
     * built on it; heldout37 h37-11): the camera and point-cloud loading
     * logged above it is over */
    {"Training progress:", OOM_STAGE_UNKNOWN, L},
};

/* An epoch starting, alone on its line (after a logger's "...: " stamp):
 * Keras' ProgbarLogger "Epoch 1/10" (keras-team/keras:keras/src/callbacks/
 * progbar_logger.py@3422977a), nnU-Net's "Epoch 0", sd-scripts' "epoch 1/4". */
static bool epoch_line(const char *t, size_t n)
{
    while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\r')) n--;
    const char *p = find_nocase(t, n, 0, "epoch ", 6);
    if (!p) return false;
    size_t lead = (size_t)(p - t);
    bool starts_line = true;
    for (size_t i = 0; i < lead; i++) starts_line &= t[i] == ' ' || t[i] == '\t';
    if (!starts_line && !(lead >= 2 && t[lead - 2] == ':' && t[lead - 1] == ' ')) return false;
    size_t i = lead + 6, d = i;
    while (i < n && isdigit((unsigned char)t[i])) i++;
    if (i == d) return false;
    if (i < n && t[i] == '/') {
        size_t e = ++i;
        while (i < n && isdigit((unsigned char)t[i])) i++;
        if (i == e) return false;
    }
    return i == n;
}

/* a line of an engine build (engine_builds): the phase it names has no
 * stage, so the walks up from a failure stop there as at a training line
 * (a builder's "start building engine" over an ONNX exporter's "has been
 * generated" warning is no generation) */
static bool engine_build_line(const char *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!isalpha((unsigned char)t[i]) || (i > 0 && (isalnum((unsigned char)t[i - 1]) || path_mark(t[i - 1]))))
            continue;
        /* each part once (the table keeps a part's rows together):
         * engine_build tries all of a part's objects */
        for (size_t k = 0; k < sizeof engine_builds / sizeof engine_builds[0]; k++)
            if ((k == 0 || strcmp(engine_builds[k].part, engine_builds[k - 1].part)) &&
                engine_build(engine_builds[k].part, t + i, n - i))
                return true;
    }
    return false;
}

bool stage_training_line(const char *text, size_t len)
{
    for (size_t i = 0; i < sizeof train_words / sizeof train_words[0]; i++)
        if (has_cue(text, len, &train_words[i])) return true;
    if (engine_build_line(text, len)) return true;
    /* Darknet's per-iteration record (steps_darknet_line): "Loading
     * weights ... Done!" above it ran before the loop (nonpt20) */
    return epoch_line(text, len) || steps_darknet_line(text, len);
}

/* the layer types darknet's makers print after the index (pjreddie/
 * darknet and AlexeyAB/darknet, each layer file of src/, as their tables show them:
 * pjreddie/darknet#2416 and #1109 "conv", "res", "route", "upsample",
 * "yolo"; AlexeyAB/darknet#3576 "max", #4581 "upsample", "route", "yolo",
 * #5718 "Shortcut Layer:"; pjreddie/darknet#706 "detection"); matched as a
 * whole word, case as printed */
static const char *const darknet_layers[] = {"conv", "max", "avg", "route", "reorg", "res", "upsample",
    "yolo", "region", "detection", "connected", "dropout", "softmax", "cost", "local", "crop",
    "deconv", "rnn", "crnn", "lstm", "gru", "Shortcut", "sam", "scale_channels", "Gaussian_yolo"};

/* blanks and the marks a paste wraps a log line in (backticks, a quote's
 * '>' and '"') */
static size_t skip_wrap(const char *t, size_t i, size_t n)
{
    while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '`' || t[i] == '>' || t[i] == '"')) i++;
    return i;
}

/* at t[i]: a layer index (1 to 4 digits), blanks, a layer type as a word */
static bool darknet_row_at(const char *t, size_t i, size_t n)
{
    size_t d = i;
    while (i < n && isdigit((unsigned char)t[i])) i++;
    if (i == d || i - d > 4 || i >= n || t[i] != ' ') return false;
    while (i < n && t[i] == ' ') i++;
    for (size_t k = 0; k < sizeof darknet_layers / sizeof darknet_layers[0]; k++) {
        size_t m = strlen(darknet_layers[k]);
        if (n - i >= m && !memcmp(t + i, darknet_layers[k], m) &&
            (i + m == n || !(isalnum((unsigned char)t[i + m]) || t[i + m] == '_')))
            return true;
    }
    return false;
}

/* the table's header, or a layer row: at the line's start, or (a row
 * quoted inside the writer's sentence, "... on layer 29 \"28 conv 128 1 x
 * 1/1 ...", pjreddie/darknet#1796) after a blank or a quote mark */
static bool darknet_table_line(const char *t, size_t n)
{
    if (memmem(t, n, "layer", 5) && memmem(t, n, "filters", 7) && memmem(t, n, "input", 5) &&
        memmem(t, n, "output", 6))
        return true;
    for (size_t i = skip_wrap(t, 0, n); i < n; i++)
        if ((i == 0 || t[i - 1] == ' ' || t[i - 1] == '"' || t[i - 1] == '`' || t[i - 1] == '>') &&
            darknet_row_at(t, i, n))
            return true;
    return false;
}

/* what darknet's check_error prints (pjreddie/darknet src/cuda.c "CUDA
 * Error: %s", AlexeyAB/darknet src/dark_cuda.c "CUDA Error: %s: %s",
 * "CUDA status Error: file: ...", "cuDNN Error: %s") */
static const char *const darknet_errors[] = {"CUDA Error", "CUDA status Error", "cuDNN Error", "cuDNN status Error"};

enum oom_stage stage_darknet_build(const char *line, size_t n, const char *above, size_t an)
{
    size_t i = skip_wrap(line, 0, n), d = i;
    while (i < n && isdigit((unsigned char)line[i])) i++;
    if (i == d || i - d > 4 || i == n || line[i] != ' ') return OOM_STAGE_UNKNOWN;
    while (i < n && line[i] == ' ') i++;
    for (size_t k = 0; k < sizeof darknet_errors / sizeof darknet_errors[0]; k++) {
        size_t m = strlen(darknet_errors[k]);
        if (n - i >= m && !memcmp(line + i, darknet_errors[k], m))
            return darknet_table_line(above, an) ? OOM_STAGE_LOAD : OOM_STAGE_UNKNOWN;
    }
    return OOM_STAGE_UNKNOWN;
}

/* one of the next two words after a verb names a data set
 * ("raw datasets...", "HF dataset from", "the corpus"), or the records a
 * dataset is read from: a tracker's or detector's detections and
 * annotations ("Loading processed dets for sequence MOT17-13-DPM from
 * .../det.pkl", a tracker reading each sequence's detections,
 * dvl-tum/SUSHI#20 = heldout44 h44-53; "Loading detections for {}" per
 * video and "Loading detections for scene ...", an action-detection
 * evaluator and an xView3 SAR data loader, repositories not recovered;
 * pycocotools' "loading annotations into
 * memory...", cocodataset/cocoapi:PythonAPI/pycocotools/coco.py); the data
 * named as such, "Loading data: 100%|…| 757/757" (notmahi/clip-fields#4's
 * dataset bars = heldout44 h44-87; a notebook's "Loading data: 100%|…|
 * 12/12", repository not recovered; scripts' print("Loading data...")
 * before load_data or a Dataset, a SAM fine-tuning script and an RNN
 * trainer, repositories not recovered). (open38) */
static bool dataset_object(const char *t, size_t n)
{
    static const char *const sets[] = {"dataset", "datasets", "corpus", "corpora",
                                       "dets", "detections", "annotations", "data"};
    /* whose "data" is no data set's: "Loading checkpoint data from ..."
     * reads a checkpoint (load); "train data", "processed data" are the
     * data. "data parallel" is a model's wrapper ("Loading data parallel
     * model"). (review24) */
    static const char *const not_data_of[] = {"checkpoint", "ckpt", "model", "weight", "weights", "state",
                                              "optimizer"};
    size_t i = 0, pb = 0, pn = 0;
    for (int w = 0; w < 2 && i < n; w++) {
        while (i < n && t[i] == ' ') i++;
        size_t b = i;
        while (i < n && isalpha((unsigned char)t[i])) i++;
        for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
            if (strlen(sets[k]) != i - b || strncasecmp(t + b, sets[k], i - b)) continue;
            if (strcmp(sets[k], "data")) return true;
            if (n - i >= 9 && !strncasecmp(t + i, " parallel", 9)) return false;
            for (size_t q = 0; w == 1 && q < sizeof not_data_of / sizeof not_data_of[0]; q++)
                if (strlen(not_data_of[q]) == pn && !strncasecmp(t + pb, not_data_of[q], pn)) return false;
            return true;
        }
        if (i < n && t[i] != ' ') return false;
        pb = b, pn = i - b;
    }
    return false;
}

/* A printed record's key: the word at text + i..e opens the message (the
 * line's start, or after a logger's separator) and ": " and a quoted value
 * follow ('prediction: ""', 'reference: "..."'). A count after the colon
 * stays readable ("sample_steps: 30" under a sampling header, "running
 * prediction: 240 steps"). */
static bool record_key(const char *text, size_t len, size_t i, size_t e)
{
    size_t b = i;
    while (b > 0 && text[b - 1] == ' ') b--;
    if (b > 0 && !strchr("-|]:,", text[b - 1])) return false;
    if (e + 3 > len || text[e] != ':' || text[e + 1] != ' ') return false;
    size_t v = e + 2;
    while (v < len && text[v] == ' ') v++;
    if (v < len && (text[v] == '"' || text[v] == '\'')) return true;
    /* a count is a record's value too: a plural noun as the whole
     * key, then a number ("samples: 80, ips: 194.12" in PaddleOCR's
     * training line, PaddlePaddle/PaddleOCR:tools/program.py@006d84bf;
     * "generations: 4 | loss: 0.12") counts items done.
     * A compound key names a setting of the action, printed as the action
     * starts ("sample_steps: 30" as sd-scripts begins each sample image,
     * kohya-ss/sd-scripts:library/train_util.py@48d368fa), and a gerund
     * announces its phase ("Evaluating: 12 batches"): both stay readable,
     * as do a bar's share and a count of a total ("Validation: 35%|", "3/10"). */
    if (e - i < 4 || memchr(text + i, '_', e - i) || (text[e - 1] != 's' && text[e - 1] != 'S')) return false;
    size_t d = v;
    if (d < len && (text[d] == '-' || text[d] == '+')) d++;
    size_t digits = d;
    while (d < len && (isdigit((unsigned char)text[d]) || text[d] == '.')) d++;
    if (d == digits || !isdigit((unsigned char)text[digits])) return false;
    if (d < len && (text[d] == 'e' || text[d] == 'E')) {
        d++;
        if (d < len && (text[d] == '-' || text[d] == '+')) d++;
        while (d < len && isdigit((unsigned char)text[d])) d++;
    }
    return d == len || strchr(" ,;|\r\n", text[d]) != NULL;
}

static size_t skip_log_prefix(const char *t, size_t n);

/* A whole word of t (any case) at or after from: its offset, or n. */
static size_t word_at(const char *t, size_t n, size_t from, const char *w)
{
    size_t k = strlen(w);
    for (const char *q = find_nocase(t, n, from, w, k); q; q = find_nocase(t, n, (size_t)(q - t) + 1, w, k))
        if ((q == t || !isalnum((unsigned char)q[-1])) && (q + k == t + n || !isalnum((unsigned char)q[k])))
            return (size_t)(q - t);
    return n;
}

/* llama.cpp's "eval" is the model run over tokens: its
 * timings' "prompt eval time = 1234.56 ms / 512 tokens" (llama_perf_
 * context_print; the server's print_timings, ggml-org/llama.cpp:tools/
 * server/server.cpp@aa6192d3) and llama-cpp-python's "remaining 1833
 * prompt tokens to eval" (abetlen/llama-cpp-python:llama_cpp/llama.py
 * @3691546f) time the prompt's pass of a generation, no evaluation. Read
 * before the narration test: the timings print "=" as an assignment does. */
static bool prompt_eval(const char *t, size_t n)
{
    return word_at(t, n, 0, "prompt eval") < n || word_at(t, n, 0, "tokens to eval") < n;
}

/* the same set-up told verb first, in progress: "[i] Creating
 * the model..." (a TF trainer's own narration right before its abort,
 * heldout40 h40-108), "Creating model", "Instantiating the network": the
 * verb starts the message, the model is its object within two words. The
 * other verbs' gerunds are read by verb_parts already ("build", "construct",
 * "initializ"); "creating" alone is not a load ("Creating directory"). */
static bool model_in_making(const char *t, size_t n, size_t i, const char *const *subjects, size_t ns)
{
    static const char *const making[] = {"creating", "instantiating"};
    static const char *const fillers[] = {"the", "a", "an", "new"};
    size_t at = n;
    for (size_t k = 0; k < sizeof making / sizeof making[0] && at == n; k++)
        if (word_at(t, n, i, making[k]) == i) at = i + strlen(making[k]);
    for (int hop = 0; at < n && hop < 2; hop++) {
        while (at < n && t[at] == ' ') at++;
        for (size_t k = 0; k < ns; k++)
            if (word_at(t, n, at, subjects[k]) == at) return true;
        bool filler = false;
        for (size_t k = 0; k < sizeof fillers / sizeof fillers[0] && !filler; k++)
            filler = word_at(t, n, at, fillers[k]) == at;
        if (!filler) return false;
        while (at < n && isalpha((unsigned char)t[at])) at++;
    }
    return false;
}

/* the log says the model was just built ("Model
 * vit_huge_patch14_224 created, param count:632045800", timm's train.py,
 * huggingface/pytorch-image-models:train.py@aa4b5850; "Model initialized.
 * Number of GS: 1036245", gsplat's simple_trainer, nerfstudio-project/
 * gsplat:examples/simple_trainer.py@90d7b4b3): the object exists, and the
 * set-up goes on (weights placed, optimizer and loaders made) before any
 * step: load, the labellers' "the last lines are the trainer's set-up"
 * (h33-79, h30-104). Loaded weights ("Model loaded.") stay an action that
 * is over. The subject starts the message; the participle follows within
 * a few words. */
static bool model_built(const char *t, size_t n)
{
    static const char *const subjects[] = {"model", "network", "net"};
    static const char *const built[] = {"created", "initialized", "initialised", "built", "constructed",
                                        "instantiated"};
    size_t i = skip_log_prefix(t, n);
    if (model_in_making(t, n, i, subjects, sizeof subjects / sizeof subjects[0])) return true;
    bool subject = false;
    for (size_t k = 0; k < sizeof subjects / sizeof subjects[0] && !subject; k++)
        subject = word_at(t, n, i, subjects[k]) == i;
    if (!subject) return false;
    size_t horizon = i + 48 < n ? i + 48 : n;
    for (size_t k = 0; k < sizeof built / sizeof built[0]; k++)
        if (word_at(t, horizon, i, built[k]) < horizon) return true;
    return false;
}

/* a scan over a text corpus counting what it has read so far,
 * "PROGRESS: at sentence #20000000, processed 401234567 words, keeping
 * 8123456 word types" (gensim's Word2Vec/FastText scan_vocab and Phrases,
 * piskvorky/gensim:gensim/models/word2vec.py@a94a3fd9, gensim/models/
 * phrases.py): reading the data, whatever follows the count. Not gensim's
 * training progress ("EPOCH 1 - PROGRESS: at 0.29% examples, 42940
 * words/s"): no count of read words. */
static bool corpus_scan(const char *t, size_t n)
{
    static const char *const units[] = {"words", "sentences", "documents"};
    size_t p = word_at(t, n, 0, "processed");
    if (p == n) return false;
    size_t i = p + 9;
    while (i < n && t[i] == ' ') i++;
    size_t d = i;
    while (i < n && (isdigit((unsigned char)t[i]) || t[i] == ',')) i++;
    if (i == d || i >= n || t[i] != ' ') return false;
    for (size_t k = 0; k < sizeof units / sizeof units[0]; k++)
        if (word_at(t, n, i + 1, units[k]) == i + 1) return true;
    return false;
}

/* a script announcing the data file it works through, "Processing
 * ./cache/dips_residues_.../cv_0/label_frac_1.0_train.pkl" (EquiDock's
 * preprocessing, octavian-ganea/equidock_public#7 = heldout45 h45-63, the
 * OS killing it next): "Processing" opening the message, then a path whose
 * file is a data container by its extension (tables, arrays, pickles);
 * not a model's weights (".bin", ".pt", ".safetensors": a conversion
 * script's), nor one input (an image, a clip, a sequence): an inference
 * demo's "Processing demo_imgs/gallery-2.jpg" runs the model on it
 * (heldout13 h13-63, labelled forward). */
static const char *const data_file_exts[] = {".pkl", ".pickle", ".h5", ".hdf5", ".h5ad", ".csv",
    ".tsv", ".parquet", ".npy", ".npz", ".arrow", ".lmdb"};

static bool data_file_processing(const char *t, size_t n)
{
    size_t i = skip_log_prefix(t, n);
    if (n - i < 11 || strncmp(t + i, "Processing ", 11)) return false;
    i += 11;
    while (i < n && t[i] == ' ') i++;
    size_t a = i;
    while (i < n && !isspace((unsigned char)t[i])) i++;
    if (i == a || (!memchr(t + a, '/', i - a) && !memchr(t + a, '\\', i - a))) return false;
    for (size_t k = 0; k < sizeof data_file_exts / sizeof data_file_exts[0]; k++) {
        size_t e = strlen(data_file_exts[k]);
        if (i - a > e && !strncasecmp(t + i - e, data_file_exts[k], e)) return true;
    }
    return false;
}

/* tqdm draws "{desc}: {percentage:3.0f}%|{bar}| {n}/{total}
 * [...]" with the bar filling what the terminal's width leaves, in
 * three-byte block characters (tqdm/tqdm:tqdm/std.py@000ba6fa format_meter,
 * Bar.UTF): a wide terminal's bar is hundreds of bytes of no words. The
 * narration test measures a bar's line up to its percentage, the part a
 * program wrote ("Loading pipeline components...: 100%|" drawn 200 columns
 * wide is the same line as drawn 80). */
static size_t narration_len(const char *text, size_t len)
{
    const char *pc = memmem(text, len, "%|", 2);
    return pc && pc > text && isdigit((unsigned char)pc[-1]) ? (size_t)(pc - text) : len;
}

/* A markdown list item of a figure: "- Test Data : 328 samples", "-
 * Maximum Tokens per Sample (Train Set): 13,137", "* Total Examples: ~2000"
 * (a dataset's statistics in a report, aws-samples/amazon-sagemaker-llm-
 * fine-tuning-remote-decorator#7 = heldout48 h48-40): its words label a
 * number, no action under way. A label, one colon, then a number (digits,
 * ',', '.', a leading '~'), at most one word after it, and the line's end. */
static bool figure_item(const char *t, size_t n)
{
    size_t i = 0;
    while (i < n && (t[i] == ' ' || t[i] == '\t')) i++;
    if (i + 2 > n || (t[i] != '-' && t[i] != '*') || t[i + 1] != ' ') return false;
    const char *colon = memchr(t + i, ':', n - i);
    if (!colon || memchr(colon + 1, ':', (size_t)(t + n - colon - 1))) return false;
    size_t v = (size_t)(colon - t) + 1;
    while (v < n && t[v] == ' ') v++;
    if (v < n && t[v] == '~') v++;
    size_t d = v;
    while (v < n && (isdigit((unsigned char)t[v]) || t[v] == ',' || t[v] == '.')) v++;
    if (v == d || !isdigit((unsigned char)t[d])) return false;
    while (v < n && t[v] == ' ') v++;
    while (v < n && isalpha((unsigned char)t[v])) v++;
    while (v < n && (t[v] == ' ' || t[v] == '\r')) v++;
    return v == n;
}

static enum oom_stage pass_announcement(const char *t, size_t n);

/* Another snake_case identifier ("no_batching", "top_p") on the line
 * than the one starting at from: the line lists settings. */
static bool other_snake_name(const char *text, size_t len, size_t from)
{
    for (size_t i = 0; i < len;) {
        if (!ident(text[i]) || (i > 0 && ident(text[i - 1]))) {
            i++;
            continue;
        }
        size_t e = i;
        while (e < len && ident(text[e])) e++;
        if (i != from && e > i + 2 && memchr(text + i + 1, '_', e - i - 2) && isalpha((unsigned char)text[i]))
            return true;
        i = e;
    }
    return false;
}

/* What a start-up line loads, or fails to load or set up, that is no
 * model: a shared library, a binary, a symbol, an extension, a wheel, a
 * backend, a driver (TensorFlow's "Could not load dynamic library
 * 'libnvinfer.so.7'", torchvision's "Failed to load image Python
 * extension", JAX's "Unable to initialize backend 'rocm'", "Failed to
 * initialize NVML", bitsandbytes' "CUDA SETUP: Loading binary
 * .../libbitsandbytes_cuda116.dll...", pip's "Installing build
 * dependencies ... done"): the program's environment, printed at import or
 * install, not the model being made ready (review21, tidy22) */
static const char *const failure_not_model[] = {"library", "libraries", "binary", "binaries", "symbol",
                                                "extension", "wheel", "wheels", "backend", "plugin",
                                                "driver", "NVML", "dependency", "dependencies"};

static bool failure_names_no_model(const char *t, size_t n)
{
    for (size_t k = 0; k < sizeof failure_not_model / sizeof failure_not_model[0]; k++) {
        size_t m = strlen(failure_not_model[k]);
        for (const char *p = find_nocase(t, n, 0, failure_not_model[k], m); p;
             p = find_nocase(t, n, (size_t)(p - t) + 1, failure_not_model[k], m)) {
            size_t i = (size_t)(p - t);
            if ((i == 0 || !isalnum((unsigned char)t[i - 1])) && (i + m == n || !isalnum((unsigned char)t[i + m])))
                return true;
        }
    }
    return false;
}

/* A file name of a shared library: ".so" at its end or before a version
 * ("libcudart.so.11.0"), ".dll", ".dylib". */
static bool shared_object_name(const char *w, size_t n)
{
    static const char *const ends[] = {".so", ".dll", ".dylib"};
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
        size_t m = strlen(ends[k]);
        if (n > m && !strncasecmp(w + n - m, ends[k], m)) return true;
    }
    const char *so = memmem(w, n, ".so.", 4);
    return so && so > w && (size_t)(so - w) + 4 < n && isdigit((unsigned char)so[4]);
}

/* The object of a load verb, its first words after it, is the program's
 * environment (failure_not_model: "dynamic library 'libcudart.so.11.0'",
 * "binary /.../libbitsandbytes_cuda115_nocublaslt.so...", "bitsandbytes
 * native library:") or a shared library's file ("/usr/lib/x86_64-linux-
 * gnu/libnvonnxparser.so.8"): loading it is no model load. */
#define LOAD_OBJECT_WORDS 3
static bool load_object_environment(const char *t, size_t n)
{
    size_t i = 0;
    for (int words = 0; words < LOAD_OBJECT_WORDS && i < n; words++) {
        while (i < n && t[i] == ' ') i++;
        size_t a = i;
        while (i < n && t[i] != ' ') i++;
        size_t e = i;
        while (a < e && strchr("'\"`(", t[a])) a++;
        while (e > a && strchr("'\"`).,;:!", t[e - 1])) e--;
        if (e == a) continue;
        if (shared_object_name(t + a, e - a)) return true;
        if (strbuf_word_in(t + a, e - a, failure_not_model, sizeof failure_not_model / sizeof failure_not_model[0]))
            return true;
    }
    return false;
}

enum oom_stage stage_verb_line(const char *text, size_t len, bool *done)
{
    *done = false;
    /* a tool's bilingual line, English then " / " and its translation
     * ("generating sample images at step / サンプル画像生成 ステップ: 500",
     * "running training / 学習開始": kohya-ss/sd-scripts:library/
     * train_util.py@48d368fa, train_network.py): read by its English part;
     * the other script marks a user's prose only where the line opens in
     * it (open46) */
    const char *slash = memmem(text, len, " / ", 3);
    if (slash && !stage_other_script(text, (size_t)(slash - text)) &&
        stage_other_script(slash + 3, (size_t)(text + len - slash - 3)))
        len = (size_t)(slash - text);
    if (figure_item(text, len) || python_import_line(text, len) || dask_task_field(text, len))
        return OOM_STAGE_UNKNOWN;
    /* a trainer's training line: training under way, no stage */
    if (stage_training_line(text, len)) {
        *done = true;
        return OOM_STAGE_UNKNOWN;
    }
    /* the narration test reads the message after a
     * logger's prefix whose level is one capital letter, no first person
     * ("[NeMo I 2026-12-05 10:00:00 peft:238] Loading adapters from …",
     * NVIDIA/NeMo:nemo/lightning/pytorch/callbacks/peft.py@8cfedd72); a
     * printed object that opens a block ("Generate config GenerationConfig
     * {", "Model config LlamaConfig {") is a dump of settings, no action */
    if (narration_len(text, len) > VERB_LINE_MAX) return OOM_STAGE_UNKNOWN;
    size_t pre = 0, last = len;
    if (len > 8 && !memcmp(text, "[NeMo ", 6) && isupper((unsigned char)text[6]) && text[7] == ' ') {
        const char *close = memchr(text, ']', len);
        if (close) pre = (size_t)(close + 1 - text);
    }
    size_t from = logging_message_at(text, len);
    if (!pre) pre = from;
    while (last > pre && (text[last - 1] == ' ' || text[last - 1] == '\r')) last--;
    if (prompt_eval(text, len)) return OOM_STAGE_GENERATE;
    if (not_narration(text + pre, len - pre) || (last > pre && text[last - 1] == '{')) return OOM_STAGE_UNKNOWN;
    if (model_built(text + pre, len - pre)) return OOM_STAGE_LOAD;
    enum oom_stage pass = pass_announcement(text + pre, last - pre);
    if (pass != OOM_STAGE_UNKNOWN) return pass;
    if (split_count(text, len)) return OOM_STAGE_UNKNOWN;
    if (corpus_scan(text + pre, len - pre) || data_file_processing(text + pre, len - pre))
        return OOM_STAGE_DATA;
    for (size_t i = from; i < len; i++) {
        /* a word of the text, not of a path, a name or an option ("/build2/", "--data") */
        if (!isalpha((unsigned char)text[i]) ||
            (i > 0 && text[i - 1] != ' ' && text[i - 1] != '[' && text[i - 1] != '(' && text[i - 1] != ':' &&
             text[i - 1] != '\'' && text[i - 1] != '"' && text[i - 1] != '|'))
            continue;
        for (size_t k = 0; k < sizeof verb_parts / sizeof verb_parts[0]; k++) {
            size_t m = strlen(verb_parts[k].part);
            if (!verb_part_is(k, text + i, len - i)) continue;
            /* a rate's unit ("0.34 samples/sec") */
            size_t u = i + m;
            while (u < len && isalpha((unsigned char)text[u])) u++;
            if (u < len && text[u] == '/') break;
            /* a setting's name, not an action: a printed
             * config's "save_strategy=SaveStrategy.STEPS," or
             * "load_best_model_at_end=True," (HF TrainingArguments' repr,
             * huggingface/transformers:src/transformers/training_args.py@2cda12cb) */
            size_t id = i;
            while (id < len && ident(text[id])) id++;
            if (id < len && text[id] == '=' && (id + 1 == len || text[id + 1] != '=')) break;
            /* an agent noun names a thing, not an action ("Mask Generator",
             * "huggingface generators", runner_id 'evaluator') */
            if ((u - i > 2 && !strncasecmp(text + u - 2, "or", 2)) || (u - i > 3 && !strncasecmp(text + u - 3, "ors", 3)))
                break;
            /* a noun that starts like a verb's part names a data item, no
             * action: "samples" in a dataset's description ("256 parquet
             * files with samples length averaging 30/50 k tokens", axolotl
             * thread = heldout53 h53-17), "Each sample is a 4k-token
             * document" */
            if (noun_not_verb(text + i, len - i)) break;
            /* an exception's name is no narration ("ERROR: LoadError: TaskFailedException") */
            size_t e = i;
            while (e < len && ident(text[e])) e++;
            if ((e - i > 5 && !memcmp(text + e - 5, "Error", 5)) ||
                (e - i > 9 && !memcmp(text + e - 9, "Exception", 9)))
                break;
            /* a setting's key is no action ("load_best_model_at_end=True,",
             * "evaluation_strategy=steps," in a printed TrainingArguments) */
            if (e < len && text[e] == '=') break;
            /* nor a snake_case name among other settings on its line: a
             * script printing several settings as "key value" ("N_rand 2048
             * no_batching True sample_rate 0.95", AD-NeRF's run_nerf.py =
             * heldout56 h56-42, read generate), a printed struct ("BaseConfig
             * { sample_len: 1000, temperature: 0.8, top_p: None, ...",
             * candle's quantized-qwen3 example, heldout33 h33-112), nor a
             * file's name ("Running inference_propainter.py", heldout28
             * h28-39). One setting alone is the action's, printed as it
             * starts (sd-scripts' "sample_steps: 30" under "generating
             * sample images at step", test_diagnose_phasesci). (open56) */
            if (memchr(text + i, '_', e - i) &&
                ((e + 1 < len && text[e] == '.' && isalpha((unsigned char)text[e + 1])) ||
                 other_snake_name(text, len, i)))
                break;
            /* a printed record's key names a value, no action: a script's
             * DEBUG lines 'prediction: ""' / 'reference: "..."' printed
             * while it evaluates (h32-05) */
            if (record_key(text, len, i, e)) break;
            /* loading a count of data items is reading the
             * data, and a running count goes on ("trainer_interface.cc(137)
             * LOG(INFO) Loaded 108000000 lines", sentencepiece's trainer
             * reading its corpus, heldout33 h33-67; "Loading 5000 images") */
            /* a shared library or another piece of the environment
             * loaded at start-up is no model load: no stage, the line says
             * nothing of the phase (load_object_environment) */
            if (verb_parts[k].stage == OOM_STAGE_LOAD && load_object_environment(text + u, len - u)) break;
            if (verb_parts[k].stage == OOM_STAGE_LOAD && data_object(text + u, len - u, !past_word(text + i, len - i)))
                return OOM_STAGE_DATA;
            /* a past participle after "to be" is an action
             * to come ("[Torch] Checkpoint global_step500 is about to be
             * saved!", deepspeedai/DeepSpeed:deepspeed/runtime/
             * checkpoint_engine/torch_checkpoint_engine.py@edaa7221) */
            bool past = past_word(text + i, len - i) && !(i >= 6 && !strncasecmp(text + i - 6, "to be ", 6));
            /* loading a dataset is reading the data ("Loading
             * raw datasets...", axolotl-ai-cloud/axolotl:src/axolotl/utils/
             * data/sft.py@067b021c; "Loading HF dataset from squad", NVIDIA/
             * NeMo:nemo/collections/llm/gpt/data/hf_dataset.py@8cfedd72) */
            if (verb_parts[k].stage == OOM_STAGE_LOAD && !past && dataset_object(text + u, len - u))
                return OOM_STAGE_DATA;
            /* a one-time action the line says is over ("Model loaded.", "checkpoint
             * saved") names no stage of what failed after it; a repeated one
             * ("Predicted structure … 1 / 5 completed") goes on with the next item */
            if (past && (verb_parts[k].stage == OOM_STAGE_LOAD ||
                                                 verb_parts[k].stage == OOM_STAGE_CHECKPOINT ||
                                                 verb_parts[k].stage == OOM_STAGE_DATA)) {
                *done = true;
                return OOM_STAGE_UNKNOWN;
            }
            return verb_parts[k].stage;
        }
    }
    return OOM_STAGE_UNKNOWN;
}

/* EricLBuehler/mistral.rs#819's "Loading a simple quantized
 * GGUF model with CUDA fails with:" over "Error: DriverError(CUDA_ERROR_
 * OUT_OF_MEMORY, ...)". Only words that name an action in progress (a
 * gerund or an "-ion" noun: loading, saving, evaluation, generation), so
 * "Here is the log:" and "the loaded model fails:" name nothing. */
static const char *const not_gerunds[] = {"during", "nothing", "something", "anything", "everything", "string"};

enum oom_stage stage_intro_line(const char *text, size_t len)
{
    while (len > 0 && strchr(" \t\r*`", text[len - 1])) len--;
    if (len < 8 || len > VERB_LINE_MAX || text[len - 1] != ':') return OOM_STAGE_UNKNOWN;
    for (size_t i = 0; i < len; i++) {
        if (!isalpha((unsigned char)text[i]) || (i > 0 && isalpha((unsigned char)text[i - 1]))) continue;
        size_t e = i;
        while (e < len && isalpha((unsigned char)text[e])) e++;
        bool action = e - i >= 6 && (!strncasecmp(text + e - 3, "ing", 3) || !strncasecmp(text + e - 3, "ion", 3));
        for (size_t k = 0; action && k < sizeof not_gerunds / sizeof not_gerunds[0]; k++)
            if (strlen(not_gerunds[k]) == e - i && !strncasecmp(text + i, not_gerunds[k], e - i)) action = false;
        if (!action) {
            i = e;
            continue;
        }
        /* the first action word decides: "the following error during
         * running val.py with your testing dataset:" names none; one
         * after "before" names an action still to come ("I tried adding
         * this code to preload the models before generating audio:" over
         * the user's code, suno-ai/bark = heldout55 h55-67). (open55) */
        if (strbuf_word_before(text, i, before_word, SIZE_MAX)) return OOM_STAGE_UNKNOWN;
        for (size_t k = 0; k < sizeof verb_parts / sizeof verb_parts[0]; k++) {
            if (engine_build(verb_parts[k].part, text + i, len - i)) return OOM_STAGE_UNKNOWN;
            if (verb_part_is(k, text + i, e - i)) return verb_parts[k].stage;
        }
        return OOM_STAGE_UNKNOWN;
    }
    return OOM_STAGE_UNKNOWN;
}

/* The clause that ends at p (" failed") opens, after the last ": " or "] "
 * before it (or the text's start), with a verb of the table in its bare
 * form or gerund ("Load", "Save", "Loading") and an object after it, in
 * one sentence: the verb's stage; unknown otherwise ("then generate failed"
 * has no object; "the model failed" opens with no verb). (open55) */
static enum oom_stage clause_verb(const char *text, const char *p)
{
    const char *cs = p;
    while (cs > text && !((cs[-1] == ' ' || cs[-1] == '\t') && cs - 1 > text && (cs[-2] == ':' || cs[-2] == ']')))
        cs--;
    while (cs < p && (*cs == ' ' || *cs == '*')) cs++;
    const char *we = cs;
    while (we < p && isalpha((unsigned char)*we)) we++;
    if (we == cs || we >= p || *we != ' ' || memmem(cs, (size_t)(p - cs), ". ", 2)) return OOM_STAGE_UNKNOWN;
    size_t wn = (size_t)(we - cs);
    for (size_t v = 0; v < sizeof verb_parts / sizeof verb_parts[0]; v++) {
        const char *part = verb_parts[v].part;
        size_t vm = strlen(part);
        if (strchr(part, ' ') || vm > wn || strncasecmp(cs, part, vm)) continue;
        const char *tail = cs + vm;
        size_t tn = wn - vm;
        if (tn == 0 || (tn == 1 && (*tail == 'e' || *tail == 'E')) || (tn == 3 && !strncasecmp(tail, "ing", 3)))
            return verb_parts[v].stage;
        return OOM_STAGE_UNKNOWN;
    }
    return OOM_STAGE_UNKNOWN;
}

/* A phase line that says the phase is over: the message names an action of
 * the verb table and ends in a completion word ("eval completed in 0.30s"
 * before the checkpoint write that failed, heldout52 h52-50; "Evaluation
 * done."): what failed came after it. Not a count of items ("3/5
 * completed": the next goes on), nor generation: a sampler's end is
 * followed by its decode, still generation (the labels' convention for a
 * finished sampling bar, heldout33 h33-40; VEnhancer's "sampling,
 * finished." over a VAE-decode OOM, heldout55 h55-76, whose label says
 * unknown as the decode is a maintainer's inference). (open55) */
/* Words that make the clause before a completion word no news that a
 * phase ended: a negation right before it ("The evaluation never
 * finished", "Eval loop did not complete"), or a conjunction that makes
 * the clause a condition or a time ("Wait until the evaluation is done",
 * "It crashes before the checkpoint save is complete"). (tidy22) */
static const char *const over_negations[] = {"not", "never", "nor"};
static const char *const over_conditions[] = {"until", "till", "before", "after", "when", "once", "if",
                                              "unless", "whether"};

/* the clause [i, w) before the completion word at w says the phase did not
 * end, or only names when it does (over_negations, over_conditions) */
static bool over_not_news(const char *text, size_t i, size_t w)
{
    size_t p = w;
    while (p > i && text[p - 1] == ' ') p--;
    size_t a = p;
    while (a > i && (isalpha((unsigned char)text[a - 1]) || text[a - 1] == '\'')) a--;
    if (strbuf_word_in(text + a, p - a, over_negations, sizeof over_negations / sizeof over_negations[0]) ||
        (p - a > 3 && !strncasecmp(text + p - 3, "n't", 3)))
        return true;
    for (size_t k = i; k < w; k++) {
        if (!isalpha((unsigned char)text[k]) || (k > i && isalpha((unsigned char)text[k - 1]))) continue;
        size_t e = k;
        while (e < w && isalpha((unsigned char)text[e])) e++;
        if (strbuf_word_in(text + k, e - k, over_conditions, sizeof over_conditions / sizeof over_conditions[0]))
            return true;
        k = e;
    }
    return false;
}

bool stage_phase_over(const char *text, size_t len)
{
    static const char *const over[] = {"finished", "done", "completed", "complete", "ended"};
    if (len > VERB_LINE_MAX) return false;
    size_t from = logging_message_at(text, len);
    size_t i = from ? from : skip_log_prefix(text, len);
    size_t e = len;
    while (e > i && strchr(" \t\r.!", text[e - 1])) e--;
    /* a duration after the word: "... done in 3.2s" */
    for (size_t k = e; k > i + 4; k--)
        if (!strncmp(text + k - 4, " in ", 4) && isdigit((unsigned char)text[k])) {
            e = k - 4;
            break;
        }
    size_t w = e;
    while (w > i && isalpha((unsigned char)text[w - 1])) w--;
    bool word = false;
    for (size_t k = 0; k < sizeof over / sizeof over[0] && !word; k++)
        word = strlen(over[k]) == e - w && !strncasecmp(text + w, over[k], e - w);
    if (!word || w == i || over_not_news(text, i, w)) return false;
    for (size_t k = i; k < w; k++)
        if (text[k] == '/' && k > i && isdigit((unsigned char)text[k - 1])) return false;
    /* an action of the verb table at a word's start before it; not a
     * build or set-up of the environment (pip's "Building wheel for
     * flash-attn (setup.py) ... done", "Getting requirements to build wheel
     * ... done", apt's "Building dependency tree... Done", StyleGAN's
     * "Setting up PyTorch plugin "bias_act_plugin"... Done.":
     * load_object_environment), an install step, no phase of the run */
    for (size_t k = i; k < w; k++) {
        if (!isalpha((unsigned char)text[k]) || (k > i && isalpha((unsigned char)text[k - 1]))) continue;
        for (size_t v = 0; v < sizeof verb_parts / sizeof verb_parts[0]; v++) {
            if (!verb_part_is(v, text + k, w - k)) continue;
            size_t u = k + strlen(verb_parts[v].part);
            while (u < w && isalpha((unsigned char)text[u])) u++;
            if (verb_parts[v].stage == OOM_STAGE_LOAD && load_object_environment(text + u, w - u)) break;
            return verb_parts[v].stage != OOM_STAGE_GENERATE;
        }
    }
    return false;
}

/* The phrases that introduce a failed action, the word after them read by
 * the verb table (stage_failed_action); the first FAILURE_OPENERS may also
 * open a tool's own failure line (stage_failure_line). */
static const char *const failure_phrases[] = {"could not ", "couldn't ", "failed to ", "unable to ",
                                              "error while ", "error during ", "exception while ",
                                              "exception during ", "failed while ", "failed during "};
enum { FAILURE_OPENERS = 4 };

/* a tool's own line that opens with its failure ("Failed to move model to
 * device", "ERROR: Could not load model ...") right above the message it
 * printed for: the action it names (stage_failed_action); unknown for any
 * other line. (open55) */
enum oom_stage stage_failure_line(const char *text, size_t len)
{
    if (len > VERB_LINE_MAX) return OOM_STAGE_UNKNOWN;
    size_t i = skip_log_prefix(text, len);
    while (i < len && (text[i] == ' ' || text[i] == '*')) i++;
    for (size_t k = 0; k < FAILURE_OPENERS; k++) {
        size_t m = strlen(failure_phrases[k]);
        if (len - i > m && !strncasecmp(text + i, failure_phrases[k], m))
            return failure_names_no_model(text + i, len - i) ? OOM_STAGE_UNKNOWN
                                                             : stage_failed_action(text + i, len - i);
    }
    return OOM_STAGE_UNKNOWN;
}

/* The verb table's parts a failure phrase may name: the actions of a run's
 * stages (load, or the model moved to its device; save; predict or
 * inference; decode and generate; evaluate). Not the table's other parts
 * (nor "infer" alone, a type's: "Could not infer dtype"), whose failure is
 * of the environment or a tool, not a stage: "Failed to build wheel for
 * flash-attn" (a package build), "Could not infer dtype of numpy.float32"
 * (a type), "Failed to test connection", "failed to initialize the CUDA
 * context", "Failed to construct the engine" (tidy22). */
static const char *const failure_verbs[] = {"load", "move model to", "move the model to", "sav", "predict",
                                            "inferenc", "decod", "generat", "eval"};

static bool failure_verb(size_t v)
{
    for (size_t k = 0; k < sizeof failure_verbs / sizeof failure_verbs[0]; k++)
        if (!strcmp(verb_parts[v].part, failure_verbs[k])) return true;
    return false;
}

enum oom_stage stage_failed_action(const char *text, size_t len)
{
    if (len > VERB_LINE_MAX * 2) len = VERB_LINE_MAX * 2;
    for (size_t k = 0; k < sizeof failure_phrases / sizeof failure_phrases[0]; k++) {
        size_t m = strlen(failure_phrases[k]);
        for (const char *p = find_nocase(text, len, 0, failure_phrases[k], m); p;
             p = find_nocase(text, len, (size_t)(p - text) + 1, failure_phrases[k], m)) {
            if (p > text && ident(p[-1])) continue;
            const char *w = p + m;
            size_t rest = len - (size_t)(w - text);
            for (size_t v = 0; v < sizeof verb_parts / sizeof verb_parts[0]; v++) {
                if (failure_verb(v) && verb_part_is(v, w, rest)) return verb_parts[v].stage;
            }
        }
    }
    /* the action named before "failed", as a pipeline's own line names
     * its stage ("Stage preprocess failed for run 1, pages [5]:
     * std::bad_alloc": docling's PreprocessThreadedStage, which loads each
     * page's backend and renders it, logs "Stage preprocess failed for run
     * %d: %s", its other stages "Stage %s failed for run %d: %s" by name,
     * docling-project/docling:docling/pipeline/standard_pdf_pipeline.py@
     * 7be40ed6; "Decoding failed: ..."): the word
     * right before it, read by the verb table at its start. Not "failed to"
     * (read above, by the word after it). diagopen49 */
    static const char failed[] = " failed";
    size_t fm = sizeof failed - 1;
    for (const char *p = find_nocase(text, len, 0, failed, fm); p;
         p = find_nocase(text, len, (size_t)(p - text) + 1, failed, fm)) {
        const char *after = p + fm;
        if (after < text + len && ident(*after)) continue;
        if ((size_t)(text + len - after) >= 3 && !strncasecmp(after, " to", 3)) continue;
        /* the clause that fails opens with its verb, the object after it:
         * onnxruntime's "[ONNXRuntimeError] : 1 : FAIL : Load model from
         * X.onnx failed:std::bad_alloc" (C0untFloyd/roop-unleashed#215 =
         * heldout55 h55-49; "failed:bad allocation" in RVC-Boss/GPT-SoVITS
         * #2105 and neavo/KeywordGacha#85, each under InferenceSession's
         * constructor) */
        enum oom_stage opened = clause_verb(text, p);
        if (opened != OOM_STAGE_UNKNOWN) return opened;
        const char *w = p;
        while (w > text && ident(w[-1])) w--;
        if (w == p) continue;
        /* an action's noun ("Decoding", "Generation") or a stage's name
         * ("Stage preprocess"), not a verb in a sentence ("then generate
         * failed , CUDA out of memory", heldout39 h39-69) */
        size_t wn = (size_t)(p - w);
        bool noun = wn >= 6 && (!strncasecmp(p - 3, "ing", 3) || !strncasecmp(p - 3, "ion", 3));
        bool named = w - text >= 6 && !strncasecmp(w - 6, "stage ", 6);
        if (!noun && !named) continue;
        size_t rest = wn + 1; /* the word and its blank ("data ") */
        for (size_t v = 0; v < sizeof verb_parts / sizeof verb_parts[0]; v++) {
            if (verb_part_is(v, w, rest)) return verb_parts[v].stage;
        }
    }
    return OOM_STAGE_UNKNOWN;
}

/* Fooocus's patch_model (called as load_models_gpu loads the
 * model) merges each LoRA patch into its weight in calculate_weight and
 * logs a failure as print("ERROR", key, e) (lllyasviel/Fooocus:
 * ldm_patched/modules/model_patcher.py@1e61f689, as ComfyUI's comfy/
 * model_patcher.py of that time); ComfyUI's later comfy/lora.py logs
 * "ERROR {patch_type} {key} {e}". The key is a state-dict name ending in
 * ".weight" or ".bias" (heldout37 h37-23). */
enum oom_stage stage_weight_patch(const char *text, size_t len)
{
    while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t')) len--;
    size_t k = len;
    while (k > 0 && (ident(text[k - 1]) || text[k - 1] == '.')) k--;
    const char *key = text + k;
    size_t kn = len - k;
    bool weight = (kn > 7 && !memcmp(key + kn - 7, ".weight", 7)) || (kn > 5 && !memcmp(key + kn - 5, ".bias", 5));
    if (!weight || k == 0 || text[k - 1] != ' ' || !memchr(key, '.', kn - 5)) return OOM_STAGE_UNKNOWN;
    size_t j = k - 1; /* the blank before the key; a patch type may come before it */
    size_t w = j;
    while (w > 0 && islower((unsigned char)text[w - 1])) w--;
    if (w < j && w >= 6 && !memcmp(text + w - 6, "ERROR ", 6)) return OOM_STAGE_LOAD;
    return j >= 5 && !memcmp(text + j - 5, "ERROR", 5) ? OOM_STAGE_LOAD : OOM_STAGE_UNKNOWN;
}

/* ---- a code line by what it computes --------------------------------------
 * Model math: a matrix product ("@", matmul, bmm, einsum, linear, conv),
 * softmax, attention, logits, a loss function, torch.nn.functional ("F.")
 * and torch's tensor ops. Word parts at a word's start (or after '.'/'_'),
 * any case. */
static const char *const math_parts[] = {
    "matmul", "bmm", "einsum", "softmax", "log_softmax", "attention", "attn", "logits", "loss",
    "cross_entropy", "linear", "conv", "baddbmm", "addmm", "layer_norm", "gelu", "silu", "relu",
};
static const char *const math_calls[] = {"F.", "torch.", "nn.functional."};

/* The identifier starting at i names a keyword argument or a setting,
 * "name=" not "name==": a name given a value, no math computed. Start-up
 * prints of a config object hold such names: lmdeploy's "engine_cfg:"
 * TurbomindEngineConfig(..., attn_tp_size=None, use_logn_attn=False, ...)
 * (InternLM/lmdeploy#3971 = heldout69 h69-04), SGLang's
 * "server_args=ServerArgs(model_path=..., attention_backend='flashinfer',
 * ...)" (sgl-project/sglang: python/sglang/srt/entrypoints/engine.py logs
 * the dataclass), transformers' TrainingArguments repr
 * ("prediction_loss_only=False", src/transformers/training_args.py). The
 * part only, not the call it is passed to: "F.scaled_dot_product_attention(
 * q, k, v, attn_mask=m)" computes by its own name (open69). */
static bool keyword_name_at(const char *code, size_t n, size_t i)
{
    size_t j = i;
    while (j < n && (isalnum((unsigned char)code[j]) || code[j] == '_')) j++;
    return j < n && code[j] == '=' && (j + 1 >= n || code[j + 1] != '=');
}

bool stage_model_math(const char *code, size_t n)
{
    /* IPython's context lines: "---> 33 ", "     33 " before the code */
    while (n > 0 && (*code == ' ' || *code == '\t' || *code == '-' || *code == '>' || isdigit((unsigned char)*code)))
        code++, n--;
    /* a statement that computes: not an import, a definition, a return of a call chain alone */
    if (n == 0 || !strncmp(code, "import ", 7) || !strncmp(code, "from ", 5) || !strncmp(code, "def ", 4) ||
        !strncmp(code, "class ", 6))
        return false;
    /* what it computes is right of an assignment ("sharded_state, loss, accuracy =
     * self.sharded_train_step_fn(" names a loss it gets, computes none) */
    const char *eq = memmem(code, n, " = ", 3);
    /* a statement: an assignment, a call or a product ("loss: 1.8528e-05" in a
     * Keras bar, "main/loss" in a table header are none) */
    if (!eq && !memchr(code, '(', n) && !memmem(code, n, " @ ", 3)) return false;
    /* ... nor a progress bar with a message glued to it */
    if (memmem(code, n, "ETA", 3) || memmem(code, n, "it/s", 4) || memmem(code, n, "%|", 2)) return false;
    if (eq) {
        n -= (size_t)(eq + 3 - code);
        code = eq + 3;
    }
    /* moving data is data's or load's evidence, not math ("torch.from_numpy(x).to(device)") */
    if (memmem(code, n, ".to(", 4) || memmem(code, n, ".cuda(", 6)) return false;
    /* a product of two operands ("(scores @ v)"), not an address ("[rawvideo @ 0x654c1c0]") */
    for (size_t i = 1; i + 3 < n; i++)
        if (code[i] == ' ' && code[i + 1] == '@' && code[i + 2] == ' ' &&
            (isalnum((unsigned char)code[i - 1]) || code[i - 1] == ')' || code[i - 1] == ']') &&
            (isalpha((unsigned char)code[i + 3]) || code[i + 3] == '(' || code[i + 3] == '_'))
            return true;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && isalnum((unsigned char)code[i - 1])) continue;
        for (size_t k = 0; k < sizeof math_parts / sizeof math_parts[0]; k++) {
            size_t m = strlen(math_parts[k]);
            if (n - i >= m && !strncasecmp(code + i, math_parts[k], m) && !keyword_name_at(code, n, i)) return true;
        }
        for (size_t k = 0; k < sizeof math_calls / sizeof math_calls[0]; k++) {
            size_t m = strlen(math_calls[k]);
            /* a lower-case op (torch.gather), not a type (torch.FloatTensor) */
            if (n - i > m && !strncmp(code + i, math_calls[k], m) && islower((unsigned char)code[i + m])) {
                /* torch's tensor ops, not its plumbing (torch.cuda, torch.load, torch.save, torch.distributed)
                 * nor its dtypes, an argument of any allocation ("tensor = torch.zeros(kv_cache_tensor.size,
                 * dtype=torch.int8, device=self.device)" in vLLM V1's _allocate_kv_cache_tensors,
                 * vllm-project/vllm:vllm/v1/worker/gpu_model_runner.py; at 000fc94b the runner
                 * imports allocate_kv_cache from v1/worker/utils.py instead, computes nothing) */
                static const char *const plumbing[] = {"cuda", "load", "save", "distributed", "device", "no_grad",
                                                       "utils", "autograd", "backends", "set_", "manual_seed", "_C",
                                                       "from_numpy", "tensor", "as_tensor", "zeros", "ones", "empty",
                                                       "full", "rand", "arange", "stack", "cat", "float", "half",
                                                       "bfloat16", "double", "int", "uint", "long", "short", "bool",
                                                       "dtype"};
                bool plumb = false;
                for (size_t q = 0; q < sizeof plumbing / sizeof plumbing[0] && !plumb; q++)
                    plumb = !strncmp(code + i + m, plumbing[q], strlen(plumbing[q]));
                /* nor torch.nn's classes, built at set-up, not computed:
                 * "torch.nn.DataParallel(score_model)" wraps the model
                 * (GRAPH-0/GraphGDP#1 = heldout46 h46-97), as does
                 * "torch.nn.parallel.DistributedDataParallel(model, ...)"
                 * (ethnhe/FFB6D#35); torch.nn.functional's ops compute (open46) */
                const char *after = code + i + m;
                size_t left = n - i - m;
                if (!plumb && left > 3 && !strncmp(after, "nn.", 3))
                    plumb = isupper((unsigned char)after[3]) || (left > 12 && !strncmp(after + 3, "parallel.", 9));
                if (!plumb) return true;
            }
        }
    }
    return false;
}

/* ---- a phase announcement ------------------------------------------------
 * A tool announces the phase it enters with a gerund as the first word of
 * its message ("Loading model modules ━━ 1/163", "[NeMo I … :343] Extracting
 * embeddings for Diarization", "INFO: Loading model: …", "Generating
 * autoregressive samples.."), after the logger's prefixes: bracketed or
 * parenthesised groups, tokens with digits (timestamps, "I0419"), tokens
 * ending in ':' and upper-case level words. The gerund's stem is read in the
 * verb table. Stricter than stage_verb_line: for a paste whose error line is
 * lost, where only the tool's last announcement is left. */
static size_t skip_log_prefix(const char *t, size_t n)
{
    /* Kaldi's header, whose three-letter level and function's
     * parentheses the loop below does not take */
    size_t i = kaldi_header(t, n, &(const char *){0}, &(size_t){0});
    for (int guard = 0; guard < 16 && i < n; guard++) {
        while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '|' || t[i] == '-' || t[i] == '`')) i++;
        if (i >= n) break;
        if (t[i] == '[' || t[i] == '(') {
            char close = t[i] == '[' ? ']' : ')';
            const char *q = memchr(t + i, close, n - i);
            if (!q) break;
            i = (size_t)(q - t) + 1;
            continue;
        }
        size_t e = i;
        bool digit = false, upper = true;
        while (e < n && t[e] != ' ' && t[e] != '\t') {
            if (isdigit((unsigned char)t[e])) digit = true;
            if (islower((unsigned char)t[e])) upper = false;
            e++;
        }
        if (digit || t[e - 1] == ':' || (upper && e - i >= 4 && e - i <= 8)) {
            i = e;
            continue;
        }
        break;
    }
    return i;
}

/* a benchmark harness logs only evaluation: whatever phase its
 * lines announce ("12/22 19:46:21 - OpenCompass - INFO - Start inferencing
 * [Phi-3-mini-128k-instruct_hf/tydiqa-goldp_korean]", open-compass/
 * opencompass#1773 = h19-66; lm-evaluation-harness' "lm_eval" logger) is eval.
 * Logger names, read in the line's first 160 bytes. */
static const char *const harness_names[] = {" - OpenCompass - ", "[opencompass.", "lm_eval.", "lm-eval:",
                                            "mteb.evaluation"};

enum oom_stage stage_harness_line(const char *text, size_t len)
{
    if (len > 160) len = 160;
    for (size_t k = 0; k < sizeof harness_names / sizeof harness_names[0]; k++)
        if (memmem(text, len, harness_names[k], strlen(harness_names[k]))) return OOM_STAGE_EVAL;
    return OOM_STAGE_UNKNOWN;
}

/* verbs that start a phase named by the next word; "Before"
 * announces what comes next (DeepSpeed's see_memory_usage "Before
 * initializing optimizer states", deepspeedai/DeepSpeed#3160 = h19-46) */
static const char *const phase_starts[] = {"starting", "start", "begin", "beginning", "running", "entering", "before",
                                           "run"};
/* diagunk16: the passes a training step runs, named only right after a
 * verb that starts a phase ("run" too: a script's own "run forward" /
 * "run backward" prints, heldout27 h27-91), in the phase announcement of
 * the last-activity walk and, as the whole message, in the verb walk
 * (pass_announcement). Alone they are words of any sentence ("backward
 * compatibility"), so the verb table does not hold them. */
static const struct {
    const char *part;
    enum oom_stage stage;
} pass_parts[] = {{"backward", OOM_STAGE_BACKWARD}, {"forward", OOM_STAGE_FORWARD}};

static enum oom_stage pass_part(const char *w, size_t n)
{
    for (size_t q = 0; q < sizeof pass_parts / sizeof pass_parts[0]; q++)
        if (strlen(pass_parts[q].part) == n && !strncasecmp(w, pass_parts[q].part, n)) return pass_parts[q].stage;
    return OOM_STAGE_UNKNOWN;
}

/* the whole message is a phase start and a pass ("run backward",
 * "Running forward..."): that pass; unknown for any other line */
static enum oom_stage pass_announcement(const char *t, size_t n)
{
    size_t e = 0;
    while (e < n && isalpha((unsigned char)t[e])) e++;
    bool start = false;
    for (size_t k = 0; k < sizeof phase_starts / sizeof phase_starts[0] && !start; k++)
        start = strlen(phase_starts[k]) == e && !strncasecmp(t, phase_starts[k], e);
    if (!start || e >= n || t[e] != ' ') return OOM_STAGE_UNKNOWN;
    size_t w = e + 1, we = w;
    while (we < n && isalpha((unsigned char)t[we])) we++;
    for (size_t r = we; r < n; r++)
        if (t[r] != '.' && t[r] != ' ' && t[r] != '\r') return OOM_STAGE_UNKNOWN;
    return pass_part(t + w, we - w);
}

enum oom_stage stage_phase_line(const char *text, size_t len)
{
    /* the announcement is the line's start: a progress bar a launcher's
     * lines were glued to runs long ("Loading checkpoint shards:   0%|…| 0/7
     * [00:00<?, ?it/s][2023-09-10 …] [INFO] [launch.py:428:sigkill_handler]") */
    if (len > VERB_LINE_MAX) len = VERB_LINE_MAX;
    /* the prefix's level letter is no first person ("[NeMo I 2023-08-13 …]") */
    size_t i = skip_log_prefix(text, len), e = i;
    if (not_narration(text + i, len - i)) return OOM_STAGE_UNKNOWN;
    while (e < len && isalpha((unsigned char)text[e])) e++;
    /* a verb that starts a phase, then the phase by its noun or
     * gerund ("Starting inference for 1 steps (6h).", ecmwf-lab/ai-models#48
     * = h20-102; "Running Evaluation") */
    for (size_t k = 0; k < sizeof phase_starts / sizeof phase_starts[0]; k++) {
        size_t m = strlen(phase_starts[k]);
        if (e - i != m || strncasecmp(text + i, phase_starts[k], m)) continue;
        size_t w = e;
        while (w < len && text[w] == ' ') w++;
        size_t we = w;
        while (we < len && isalpha((unsigned char)text[we])) we++;
        if (w == e || we - w < 4) return OOM_STAGE_UNKNOWN;
        for (size_t q = 0; q < sizeof verb_parts / sizeof verb_parts[0]; q++) {
            if (verb_part_is(q, text + w, we - w)) return verb_parts[q].stage;
        }
        return pass_part(text + w, we - w);
    }
    /* a gerund of four letters or more before "ing", ending the word */
    if (e - i < 7 || strncasecmp(text + e - 3, "ing", 3) || (e < len && (ident(text[e]) || text[e] == '/')))
        return OOM_STAGE_UNKNOWN;
    for (size_t k = 0; k < sizeof verb_parts / sizeof verb_parts[0]; k++) {
        /* a part of two words ("setting up ") runs past the gerund */
        size_t room = strchr(verb_parts[k].part, ' ') ? len - i : e - i;
        /* the word's object lies past the gerund ("Building engine with
         * configuration:") */
        if (engine_build(verb_parts[k].part, text + i, len - i)) return OOM_STAGE_UNKNOWN;
        if (!verb_part_is(k, text + i, room)) continue;
        /* loading a data set or its records reads the data, as
         * stage_verb_line has it ("Loading processed dets for sequence …",
         * under a title's OOM, heldout44 h44-53) (open38) */
        if (verb_parts[k].stage == OOM_STAGE_LOAD && dataset_object(text + e, len - e)) return OOM_STAGE_DATA;
        return verb_parts[k].stage;
    }
    return OOM_STAGE_UNKNOWN;
}

/* ---- code quoted in prose ------------------------------------------------
 * A user quotes the failing line in a sentence: in backticks or quotes
 * ("line 732 of loss.py (\"pair_wise_cls_loss = F.binary_cross_entropy_with_logits(...\")"),
 * after a colon ("I used a unique name : lm_logits = self.lm_head(outputs[0])"),
 * or leading a sentence in another script ("model, optimizer, epoch, loss =
 * self.load_ckp(model, optimizer, checkpoint)这一行代码"). A span is code when
 * it calls a name ("f(" with no blank before the parenthesis) and assigns or
 * reaches through a '.'; it is read as a frame's code line: its cues, else
 * model math (forward). */
/* quoted code that runs the network: a call on the network
 * object ("model.aggregator(images)", facebookresearch/vggt = h30-76) or a
 * call whose result is named as a network's output ("logits = unet(batch)",
 * h25-49). Read in quoted code only (a frame's line has its own cues). */
static bool network_call(const char *c, size_t n)
{
    static const char *const nets[] = {"model", "net", "unet", "network", "transformer"};
    static const char *const outs[] = {"logits", "output", "outputs", "out", "pred", "preds", "prediction",
                                       "predictions", "y_hat"};
    const char *eq = memmem(c, n, " = ", 3), *r = eq ? eq + 3 : c, *end = c + n;
    while (r < end && *r == ' ') r++;
    const char *paren = memchr(r, '(', (size_t)(end - r));
    if (!paren) return false;
    size_t rn = 0;
    while (r + rn < paren && (ident(r[rn]) || r[rn] == '.')) rn++;
    if (r + rn != paren) return false; /* one call of a name ("a.b.c(") */
    const char *root = r;
    if (rn > 5 && !memcmp(root, "self.", 5)) root += 5;
    size_t k = 0;
    while (root + k < paren && ident(root[k])) k++;
    bool method = root + k < paren; /* "model.aggregator(" */
    /* methods that do not run the network: training loops, set-up, saving */
    static const char *const not_run[] = {"fit", "train", "compile", "summary", "parameters", "eval", "to",
                                          "cuda", "state_dict", "save", "load", "push"};
    const char *m = root + k + 1;
    size_t mn = (size_t)(paren - m);
    for (size_t i = 0; method && i < sizeof not_run / sizeof not_run[0]; i++) {
        size_t q = strlen(not_run[i]);
        if (mn >= q && !strncmp(m, not_run[i], q) && (mn == q || m[q] == '_')) method = false;
    }
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++)
        if (method && strlen(nets[i]) == k && !strncmp(root, nets[i], k)) return true;
    if (!eq) return false;
    /* the target: the first name of "logits = …", "logits, aux = …" */
    const char *t = c;
    while (t < eq && *t == ' ') t++;
    size_t tn = 0;
    while (t + tn < eq && ident(t[tn])) tn++;
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++)
        if (strlen(outs[i]) == tn && !strncmp(t, outs[i], tn)) return true;
    return false;
}

static enum oom_stage code_span_stage(const char *c, size_t n)
{
    while (n > 0 && (*c == ' ' || *c == '(')) c++, n--;
    bool call = false;
    for (size_t i = 1; i < n && !call; i++) call = c[i] == '(' && ident(c[i - 1]);
    if (!call || n < 6 || (!memmem(c, n, " = ", 3) && !memchr(c, '.', n))) return OOM_STAGE_UNKNOWN;
    /* a file name or a sentence in the span: prose, not code */
    if (memmem(c, n, ". ", 2) || memmem(c, n, ", in ", 5)) return OOM_STAGE_UNKNOWN;
    char line[VERB_LINE_MAX + 2];
    if (n > VERB_LINE_MAX) n = VERB_LINE_MAX;
    memcpy(line, c, n);
    line[n] = '\n'; /* frame words may anchor on the end of a line */
    line[n + 1] = '\0';
    unsigned bits = stage_frame_bits(line, n);
    if (bits) return stage_pick(bits);
    /* the function the right side calls, by its word parts ("self.load_ckp(") */
    const char *eq = memmem(c, n, " = ", 3), *r = eq ? eq + 3 : c;
    const char *p = memchr(r, '(', n - (size_t)(r - c));
    if (p) {
        const char *f = p;
        while (f > r && ident(f[-1])) f--;
        bits = stage_name_bits(f, (size_t)(p - f));
        if (bits) return stage_pick(bits);
    }
    return stage_model_math(c, n) || network_call(c, n) ? OOM_STAGE_FORWARD : OOM_STAGE_UNKNOWN;
}

enum oom_stage stage_prose_code(const char *text, size_t len)
{
    /* spans between backticks or double quotes */
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '`' && text[i] != '"') continue;
        const char *q = memchr(text + i + 1, text[i], len - i - 1);
        if (!q) break;
        enum oom_stage st = code_span_stage(text + i + 1, (size_t)(q - text) - i - 1);
        if (st != OOM_STAGE_UNKNOWN) return st;
        i = (size_t)(q - text);
    }
    /* an assignment in the sentence: from its target (names, commas,
     * dots, brackets) to the end of the ASCII run */
    const char *eq = memmem(text, len, " = ", 3);
    if (!eq) return OOM_STAGE_UNKNOWN;
    const char *a = eq;
    while (a > text && (ident(a[-1]) || a[-1] == '.' || a[-1] == ',' || a[-1] == ' ' || a[-1] == '[' ||
                        a[-1] == ']'))
        a--;
    while (a < eq && *a == ' ') a++;
    const char *e = eq;
    while (e < text + len && (unsigned char)*e < 0x80 && *e != '`' && *e != '"') e++;
    return code_span_stage(a, (size_t)(e - a));
}

/* ---- a sentence that points at the line below -------------------------
 * "It happened at this line" / " net = net.to(device)." (kuangliu/
 * pytorch-cifar#67): the sentence ends by naming a line or a place, and the
 * next line is the failing code, whatever its shape. The endings, after
 * trailing blanks (any case): */
static const char *const points_at_code[] = {"this line", "that line", "the line", "following line",
    "this line:", "that line:", "the line:", "following line:", "line:", "lines:", "code:", "at:", "here:"};

/* A sentence that names a line of the user's file by its number ("getting
 * error when executing line [18](…/model.py#L18) of model.py.", "it fails
 * at line 42"): the code quoted below it is that line (heldout36 h36-91,
 * read by the lead after the set was opened). A frame header is no
 * sentence (its reader sees it first). */
static bool names_line_number(const char *text, size_t len)
{
    for (const char *p = find_nocase(text, len, 0, "line ", 5); p;
         p = find_nocase(text, len, (size_t)(p - text) + 1, "line ", 5)) {
        if (p > text && isalpha((unsigned char)p[-1])) continue; /* "pipeline 3" */
        const char *d = p + 5;
        if (d < text + len && *d == '[') d++;
        if (d < text + len && isdigit((unsigned char)*d)) return true;
    }
    return false;
}

bool stage_points_at_code(const char *text, size_t len)
{
    if (names_line_number(text, len)) return true;
    while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t' || text[len - 1] == '\r')) len--;
    /* "the code :" as "the code:" */
    size_t gap = 0;
    if (len > 1 && text[len - 1] == ':' && text[len - 2] == ' ') {
        size_t k = len - 1;
        while (k > 0 && text[k - 1] == ' ') k--;
        gap = len - 1 - k;
    }
    for (size_t k = 0; k < sizeof points_at_code / sizeof points_at_code[0]; k++) {
        size_t m = strlen(points_at_code[k]);
        if (gap && points_at_code[k][m - 1] != ':') continue;
        size_t stem = gap ? m - 1 : m, end = gap ? len - 1 - gap : len;
        if (stem <= end && !strncasecmp(text + end - stem, points_at_code[k], stem) &&
            (stem == end || !ident(text[end - stem - 1])))
            return true;
    }
    return false;
}

/* the sentence and the code it points at on one line:
 * "results in the code :   result = self.forward(*input, **kwargs)"
 * (a THC OOM report, h26-127): a ':' after a pointing phrase (the table
 * above, a blank before the ':' allowed) and code after it. The offset of
 * the code, 0 when none. */
size_t stage_points_in_line(const char *text, size_t len)
{
    for (const char *c = memchr(text, ':', len); c; c = memchr(c + 1, ':', len - (size_t)(c + 1 - text))) {
        size_t at = (size_t)(c - text) + 1;
        while (at < len && (text[at] == ' ' || text[at] == '\t')) at++;
        if (at >= len || at == (size_t)(c - text) + 1 || !stage_points_at_code(text, (size_t)(c - text) + 1))
            continue;
        return at;
    }
    return 0;
}

enum oom_stage stage_code_line_stage(const char *text, size_t len)
{
    while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '.' || text[len - 1] == '\r')) len--;
    return code_span_stage(text, len);
}

/* A code line the user marked as the one that failed: "optimizer.step()
 * <-- OOM here" (a forum question pasting its loop, heldout35 h35-29, read
 * by the lead after the set was opened), "loss.backward()  # error happens
 * here", "out = model(x)  # <- CUDA out of memory". The marker ("<-" or a
 * comment) starts the line's remark; the remark opens with the failure's
 * words or says "here" beside them. The code before it names the stage. */
enum oom_stage stage_marked_line(const char *text, size_t len)
{
    static const char *const markers[] = {"<-", " # ", " // "};
    static const char *const opens[] = {"oom", "out of memory", "cuda out of memory", "cuda oom",
                                        "cuda error", "error", "crash", "fails", "it fails", "dies"};
    static const char *const failing[] = {"oom", "out of memory", "error", "fail", "crash", "dies", "breaks"};
    if (len > 300) return OOM_STAGE_UNKNOWN;
    for (size_t m = 0; m < sizeof markers / sizeof markers[0]; m++) {
        const char *at = memmem(text, len, markers[m], strlen(markers[m]));
        if (!at || at == text) continue;
        const char *r = at + strlen(markers[m]), *end = text + len;
        while (r < end && (*r == '-' || *r == '<' || *r == '=' || *r == ' ' || *r == '#' || *r == '/')) r++;
        char low[96];
        size_t n = 0;
        for (; r + n < end && n < sizeof low - 1; n++) low[n] = (char)tolower((unsigned char)r[n]);
        low[n] = 0;
        bool ok = false;
        for (size_t k = 0; k < sizeof opens / sizeof opens[0] && !ok; k++) {
            size_t kn = strlen(opens[k]);
            ok = !strncmp(low, opens[k], kn) && !isalpha((unsigned char)low[kn]);
        }
        for (size_t k = 0; k < sizeof failing / sizeof failing[0] && !ok; k++)
            ok = strstr(low, failing[k]) && strstr(low, "here");
        if (!ok) continue;
        return stage_code_line_stage(text, (size_t)(at - text));
    }
    return OOM_STAGE_UNKNOWN;
}

/* the C libraries of the ggml family start every log line
 * with the function that prints it (__func__): "whisper_model_load: n_vocab
 * = 51866" (whisper.cpp), "llm_load_tensors: offloading 32 repeating
 * layers", "llama_model_load: error loading model", "llama_decode: failed
 * to decode" (llama.cpp), "clip_model_load: ..." (llava). A name in lower
 * snake case (one '_' at least) and ": " at the line's start, then a
 * message of two words or more or a "key = value" (a config's "eval_steps:
 * 500" or "save_strategy: steps" is a setting, no tag): the name's word
 * parts, as a frame's function. */
static enum oom_stage func_tag(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t')) i++;
    size_t a = i;
    bool under = false;
    while (i < len && (islower((unsigned char)text[i]) || isdigit((unsigned char)text[i]) || text[i] == '_'))
        under |= text[i++] == '_';
    if (!under || i == a || i + 2 >= len || text[i] != ':' || text[i + 1] != ' ') return OOM_STAGE_UNKNOWN;
    const char *msg = text + i + 2;
    size_t mn = len - i - 2;
    while (mn && (msg[mn - 1] == ' ' || msg[mn - 1] == '\r' || msg[mn - 1] == '\n')) mn--;
    while (mn && *msg == ' ') msg++, mn--;
    if (!mn || (!memchr(msg, ' ', mn) && !has(msg, mn, "="))) return OOM_STAGE_UNKNOWN;
    return stage_pick(stage_name_bits(text + a, i - a));
}

/* loguru's default format, "{time} | {level: <8} |
 * {name}:{function}:{line} - {message}" (Delgan/loguru loguru/_defaults.py
 * LOGURU_FORMAT; apps also end the field with " | "): the function that
 * logs, as a frame's function, read where the field starts the text or
 * follows a "| " ("... | ERROR | acestep.core.generation.handler.
 * generate_music:generate_music:522 - [generate_music] Generation failed",
 * ace-step/ACE-Step-1.5#1336 = h42-14; "__main__:image_generation_worker:315
 * - Job ... failed: ... CUDA out of memory", h42-67). Top-level code
 * ("<module>") names none. *found says the field was there. */
#define LOGURU_SPAN 200
static enum oom_stage loguru_tag(const char *text, size_t len, bool *found)
{
    size_t m = len < LOGURU_SPAN ? len : LOGURU_SPAN;
    *found = false;
    for (size_t at = 0; at < m; at++) {
        size_t i = at;
        if (at > 0) {
            if (at < 2 || text[at - 1] != ' ' || text[at - 2] != '|') continue;
        } else {
            while (i < m && (text[i] == ' ' || text[i] == '\t')) i++;
        }
        if (i >= m || !(isalpha((unsigned char)text[i]) || text[i] == '_')) continue;
        while (i < m && (ident(text[i]) || text[i] == '.')) i++; /* the module's dotted name */
        if (i >= m || text[i] != ':') continue;
        size_t fa = ++i;
        while (i < m && (ident(text[i]) || text[i] == '<' || text[i] == '>')) i++;
        size_t fe = i;
        if (fe == fa || i >= m || text[i] != ':') continue;
        size_t d = ++i;
        while (i < m && isdigit((unsigned char)text[i])) i++;
        if (i == d || i + 3 > len || text[i] != ' ' || (text[i + 1] != '-' && text[i + 1] != '|') ||
            text[i + 2] != ' ')
            continue;
        *found = true;
        if (text[fa] == '<') return OOM_STAGE_UNKNOWN;
        /* a constructor sets up (as the "[file:line:__init__]" tag) */
        if (fe - fa == 8 && !memcmp(text + fa, "__init__", 8)) return OOM_STAGE_LOAD;
        return stage_pick(stage_name_bits(text + fa, fe - fa));
    }
    return OOM_STAGE_UNKNOWN;
}

/* a logger that tags its lines with the place that logged them,
 * "[stage3.py:131:__init__] Reduce bucket size" (DeepSpeed's
 * file:line:function format), "[evaluator.py:457] Running loglikelihood
 * requests" (lm-evaluation-harness, file:line): the function, as a frame's,
 * by its word parts (a constructor sets up: load), else the file's. */
enum oom_stage stage_log_tag(const char *text, size_t len)
{
    bool loguru;
    enum oom_stage logged = loguru_tag(text, len, &loguru);
    if (loguru) return logged;
    enum oom_stage tagged = func_tag(text, len);
    if (tagged != OOM_STAGE_UNKNOWN) return tagged;
    /* Kaldi's header names the function that logs, by its word
     * parts as a frame's ("DecodeUtteranceLatticeFaster" decodes) */
    const char *kf;
    size_t kn;
    if (kaldi_header(text, len, &kf, &kn)) return stage_pick(stage_name_bits(kf, kn));
    size_t m = len < 160 ? len : 160;
    for (const char *py = memmem(text, m, ".py:", 4); py; py = memmem(py + 4, m - (size_t)(py + 4 - text), ".py:", 4)) {
        const char *d = py + 4, *end = text + m;
        while (d < end && isdigit((unsigned char)*d)) d++;
        if (d == py + 4 || d >= end || (*d != ':' && *d != ']')) continue;
        const char *f = py;
        while (f > text && (ident(f[-1]) || f[-1] == '-')) f--;
        if (f == py || f == text || f[-1] != '[') continue;
        unsigned bits = 0;
        if (*d == ':') {
            const char *fn = d + 1, *fe = fn;
            while (fe < end && ident(*fe)) fe++;
            if (fe == fn || fe >= end || *fe != ']') continue;
            size_t nl = (size_t)(fe - fn);
            /* a constructor sets up (", in __init__" of the frame cues) */
            if (nl == 8 && !memcmp(fn, "__init__", 8)) return OOM_STAGE_LOAD;
            bits = stage_name_bits(fn, nl);
        }
        /* else the file's word parts, as a program's own file ("[evaluator.py:457]") */
        if (!bits) bits = stage_name_bits(f, (size_t)(py - f));
        return stage_pick(bits);
    }
    return OOM_STAGE_UNKNOWN;
}

/* The cue tables' indexes (words_bits), built once. */
static void words_index_init(void)
{
#define INDEX(ix, table) words_index_build(&(ix), (table), sizeof(table) / sizeof((table)[0]))
    INDEX(frame_ix, frame_words);
    INDEX(mask_inner_ix, mask_inner_words);
    INDEX(mask_outer_ix, mask_outer_words);
    INDEX(node_ix, node_words);
#undef INDEX
}
_Static_assert(sizeof frame_words / sizeof frame_words[0] <= INDEXED_WORDS_MAX, "frame_words outgrew words_index");
_Static_assert(sizeof mask_inner_words / sizeof mask_inner_words[0] <= INDEXED_WORDS_MAX, "mask_inner_words outgrew words_index");
_Static_assert(sizeof mask_outer_words / sizeof mask_outer_words[0] <= INDEXED_WORDS_MAX, "mask_outer_words outgrew words_index");
_Static_assert(sizeof node_words / sizeof node_words[0] <= INDEXED_WORDS_MAX, "node_words outgrew words_index");
