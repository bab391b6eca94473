/* diagnose's stage from frameworks other than PyTorch, helper diagstagenpt
 * (issue 12): an audit of what a user's OOM paste shows at each phase in
 * TensorFlow 1.x sessions and Keras 2.x, TensorFlow 2.x/Keras 3 fit,
 * JAX/Flax/Optax/Orbax/T5X/MaxText, PaddlePaddle (dygraph, static and
 * hapi), MXNet (Gluon and Module), ONNX Runtime, TensorRT and C++
 * runtimes (libtorch, the TF C++ API), and, set aside and written after the
 * classifier changes, MindSpore, OpenVINO and Julia's Flux. Each row is a
 * short synthetic paste in the framework's own file, function, node and op
 * names (owner/repo:path beside each row) above the OOM message that
 * framework prints, with the stage docs/diagnose.md and
 * tests/corpus/CONVENTIONS.md give it. No row was read from a corpus log.
 * `build/tests/test_diagnose_stagenpt --table` prints every row with the
 * stage diagnose gives; `--paste N` prints row N's paste. The set-aside
 * MindSpore, OpenVINO and Julia rows, printed gaps on 9b38a29e, are asserted
 * since diagleft2's mechanisms (all but Flux's gpu(x)). */
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

#define TB "!Traceback (most recent call last):\n"
#define FR(file, line, fn, code) "  File \"" file "\", line " #line ", in " fn "\n    " code "\n"
#define SP "/usr/local/lib/python3.10/dist-packages/"

/* TensorFlow's BFC allocator refusing a tensor (tensorflow/tensorflow:
 * tensorflow/core/common_runtime/bfc_allocator.cc, the executor appending
 * the node: TF 1.x "[[Node: NAME = OP[...](inputs)]]", later
 * "[[{{node NAME}}]]"), then the Keras function in "[Op:...]" */
#define TF_OOM "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[64,256,56,56] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
#define TF_NODE(node) TF_OOM "\t [[{{node " node "}}]]\nHint: If you want to see a list of allocated tensors when OOM happens, add report_tensor_allocations_upon_oom to RunOptions for current allocation info.\n"
#define TF_FN(node, fn) TF_OOM "\t [[{{node " node "}}]]\nHint: If you want to see a list of allocated tensors when OOM happens, add report_tensor_allocations_upon_oom to RunOptions for current allocation info.\n [Op:" fn "]\n"
#define TF_EAGER(op) "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[64,256,56,56] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc [Op:" op "]\n"
/* TF 1.x session.run's frames (tensorflow/tensorflow:tensorflow/python/
 * client/session.py run -> _run -> _do_run -> _do_call) */
#define SESS                                                                                       \
    FR(SP "tensorflow/python/client/session.py", 929, "run", "run_metadata_ptr)")                  \
    FR(SP "tensorflow/python/client/session.py", 1152, "_run", "feed_dict_tensor, options, run_metadata)") \
    FR(SP "tensorflow/python/client/session.py", 1328, "_do_run", "run_metadata)")                \
    FR(SP "tensorflow/python/client/session.py", 1348, "_do_call", "raise type(e)(node_def, op, message)")
/* XLA's allocator through JAX (jax-ml/jax: jaxlib's XlaRuntimeError;
 * openxla/xla: the PjRt BFC allocator's message) */
#define JAX_OOM "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.\n"
/* Paddle's CUDA allocator (PaddlePaddle/Paddle:paddle/fluid/memory/
 * allocation/cuda_allocator.cc); the static executor appends the operator
 * that failed, "[operator < conv2d_grad > error]", a dygraph backward node
 * "[GradNode < X > error]" (paddle/fluid/framework/op_call_stack.cc@0ab6998c) */
#define PD_OOM "MemoryError: \n\n--------------------------------------\nC++ Traceback (most recent call last):\n--------------------------------------\n0   paddle::memory::allocation::CUDAAllocator::AllocateImpl(unsigned long)\n\n----------------------\nError Message Summary:\n----------------------\nResourceExhaustedError: \n\nOut of memory error on GPU 0. Cannot allocate 1.000000GB memory on GPU 0, 14.500000GB memory has been allocated and available memory is only 500.000000MB.\n\nPlease check whether there is any other process using GPU 0.\n1. If yes, please stop them, or start PaddlePaddle on another GPU.\n2. If no, please decrease the batch size of your model. \n (at /paddle/paddle/fluid/memory/allocation/cuda_allocator.cc:86)\n"
#define PD_OP(op) PD_OOM "  [operator < " op " > error]\n"
/* MXNet's pooled storage manager (apache/mxnet:src/storage/
 * pooled_storage_manager.h) */
#define MX_OOM "mxnet.base.MXNetError: [10:21:31] src/storage/./pooled_storage_manager.h:157: cudaMalloc failed: out of memory\nStack trace:\n  [bt] (0) /usr/local/lib/python3.8/dist-packages/mxnet/libmxnet.so(+0x4a357b) [0x7f2e7b8a357b]\n"
/* ONNX Runtime's arena (microsoft/onnxruntime:onnxruntime/core/framework/
 * bfc_arena.cc), raised through the Python binding */
#define ORT_ARENA "/onnxruntime_src/onnxruntime/core/framework/bfc_arena.cc:376 void* onnxruntime::BFCArena::AllocateRawInternal(size_t, bool, onnxruntime::Stream*, bool, onnxruntime::WaitNotificationFn) Failed to allocate memory for requested buffer of size 2147483648\n"
#define ORT_RUN(node, name) "onnxruntime.capi.onnxruntime_pybind11_state.RuntimeException: [ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Non-zero status code returned while running " node " node. Name:'" name "' Status Message: " ORT_ARENA
/* TensorRT's logger (NVIDIA/TensorRT: the Python samples' trt.Logger) */
#define TRT_OOM "[12/06/2026-10:21:31] [TRT] [E] 2: [resizingAllocator.cpp::allocate::74] Error Code 2: OutOfMemory (Requested size was 16654532608 bytes.)\n"
/* libtorch's C++ exception (pytorch/pytorch:c10/cuda/
 * CUDACachingAllocator.cpp) as a C++ program's terminate prints it */
#define LT_OOM "terminate called after throwing an instance of 'c10::OutOfMemoryError'\n  what():  CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.02 GiB is free. Of the allocated memory 20.50 GiB is allocated by PyTorch, and 1.10 GiB is reserved by PyTorch but unallocated.\nException raised from malloc at ../c10/cuda/CUDACachingAllocator.cpp:1146 (most recent call first):\nframe #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 (0x7f3c0a2b1617 in /opt/libtorch/lib/libc10.so)\n"

static const struct audit_row audit_rows[] = {
    /* ---- TensorFlow 1.x sessions (tensorflow/tensorflow:tensorflow/python/
     * training/optimizer.py names an update "<opt>/update_<var>/Apply*";
     * training/saver.py builds "save/SaveV2", "save/RestoreV2" and the
     * restore's "save/Assign_N" under "save/restore_all"; tf.data's
     * iterator is the "IteratorGetNext" op) ---- */
    {"tf1", "backward", "sess.run(train_op): node gradients/..._grad/Conv2DBackpropInput", "tensorflow/tensorflow:tensorflow/python/ops/gradients_impl.py",
     TB FR("/w/train.py", 88, "<module>", "_, l = sess.run([train_op, loss], feed_dict={x: xb, y: yb})") SESS
     "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[32,128,112,112] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
     "\t [[Node: gradients/conv2/Conv2D_grad/Conv2DBackpropInput = Conv2DBackpropInput[T=DT_FLOAT, data_format=\"NHWC\", padding=\"SAME\", strides=[1, 1, 1, 1], use_cudnn_on_gpu=true, _device=\"/job:localhost/replica:0/task:0/device:GPU:0\"](gradients/conv2/Conv2D_grad/ShapeN, conv2/kernel/read, gradients/conv2/Relu_grad/ReluGrad)]]\n", NULL},
    {"tf1", "optimizer", "sess.run(train_op): node Adam/update_conv2/kernel/ResourceApplyAdam", "tensorflow/tensorflow:tensorflow/python/training/optimizer.py",
     TB FR("/w/train.py", 88, "<module>", "_, l = sess.run([train_op, loss], feed_dict={x: xb, y: yb})") SESS
     TF_NODE("Adam/update_conv2/kernel/ResourceApplyAdam"), NULL},
    {"tf1", "forward", "sess.run(logits): node conv2/Conv2D", "tensorflow/tensorflow:tensorflow/python/client/session.py",
     TB FR("/w/infer.py", 40, "<module>", "probs = sess.run(probabilities, feed_dict={x: batch})") SESS TF_NODE("conv2/Conv2D"), NULL},
    {"tf1", "load", "sess.run(tf.global_variables_initializer()): node .../Initializer/random_uniform", "tensorflow/tensorflow:tensorflow/python/ops/variables.py",
     TB FR("/w/train.py", 70, "<module>", "sess.run(tf.global_variables_initializer())") SESS
     TF_NODE("dense_1/kernel/Initializer/random_uniform/RandomUniform"), NULL},
    {"tf1", "checkpoint", "saver.save(sess, path): node save/SaveV2", "tensorflow/tensorflow:tensorflow/python/training/saver.py@30507195",
     TB FR("/w/train.py", 95, "<module>", "saver.save(sess, os.path.join(ckpt_dir, 'model.ckpt'), global_step=step)")
     FR(SP "tensorflow/python/training/saver.py", 1175, "save", "{self.saver_def.filename_tensor_name: checkpoint_file})") SESS
     TF_NODE("save/SaveV2"), NULL},
    {"tf1", "load", "saver.restore(sess, ckpt): node save/RestoreV2", "tensorflow/tensorflow:tensorflow/python/training/saver.py@30507195",
     TB FR("/w/eval.py", 30, "<module>", "saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))")
     FR(SP "tensorflow/python/training/saver.py", 1290, "restore", "{self.saver_def.filename_tensor_name: save_path})") SESS
     TF_NODE("save/RestoreV2"), NULL},
    {"tf1", "load", "saver.restore: node save/Assign_12 (no frames pasted)", "tensorflow/tensorflow:tensorflow/python/training/saver.py@30507195",
     "!" TF_OOM "\t [[Node: save/Assign_12 = Assign[T=DT_FLOAT, _class=[\"loc:@conv5/kernel\"], use_locking=true, validate_shape=true, _device=\"/job:localhost/replica:0/task:0/device:GPU:0\"](conv5/kernel, save/RestoreV2:12)]]\n", NULL},
    {"tf1", "data", "tf.data iterator: node IteratorGetNext", "tensorflow/tensorflow:tensorflow/python/data/ops/iterator_ops.py",
     TB FR("/w/train.py", 88, "<module>", "_, l = sess.run([train_op, loss])") SESS TF_NODE("IteratorGetNext"), NULL},
    {"tf1-estimator", "eval", "Estimator.evaluate -> _evaluate_run -> MonitoredSession.run", "tensorflow/estimator:tensorflow_estimator/python/estimator/estimator.py",
     TB FR("/w/main.py", 120, "main", "eval_results = classifier.evaluate(input_fn=eval_input_fn)")
     FR(SP "tensorflow_estimator/python/estimator/estimator.py", 480, "evaluate", "name=name)")
     FR(SP "tensorflow_estimator/python/estimator/estimator.py", 522, "_actual_eval", "return _evaluate()")
     FR(SP "tensorflow_estimator/python/estimator/estimator.py", 1537, "_evaluate_run", "config=self._session_config)")
     TF_NODE("resnet_model/conv2d_12/Conv2D"), NULL},
    {"tf1-estimator", "forward", "Estimator.predict", "tensorflow/estimator:tensorflow_estimator/python/estimator/estimator.py",
     TB FR("/w/main.py", 140, "main", "for pred in classifier.predict(input_fn=predict_input_fn):")
     FR(SP "tensorflow_estimator/python/estimator/estimator.py", 640, "predict", "preds_evaluated = mon_sess.run(predictions)")
     TF_NODE("resnet_model/conv2d_12/Conv2D"), NULL},
    /* ---- Keras 2.x on TF 1.x (keras-team/keras 2.2: keras/engine/
     * training_arrays.py fit_loop/test_loop/predict_loop, training.py
     * train_on_batch/test_on_batch; keras/callbacks.py ModelCheckpoint) ---- */
    {"keras2-tf1", "eval", "fit -> fit_loop -> test_loop (validation)", "keras-team/keras:keras/engine/training_arrays.py",
     TB FR("/w/train.py", 60, "<module>", "model.fit(x_train, y_train, batch_size=64, epochs=20, validation_data=(x_val, y_val))")
     FR(SP "keras/engine/training.py", 1039, "fit", "validation_steps=validation_steps)")
     FR(SP "keras/engine/training_arrays.py", 217, "fit_loop", "verbose=0)")
     FR(SP "keras/engine/training_arrays.py", 392, "test_loop", "batch_outs = f(ins_batch)")
     FR(SP "keras/backend/tensorflow_backend.py", 2715, "__call__", "return self._call(inputs)")
     FR(SP "keras/backend/tensorflow_backend.py", 2675, "_call", "fetched = self._callable_fn(*array_vals)")
     TF_NODE("conv2d_3/convolution"), NULL},
    {"keras2-tf1", "forward", "predict -> predict_loop", "keras-team/keras:keras/engine/training_arrays.py",
     TB FR("/w/infer.py", 30, "<module>", "preds = model.predict(x_test, batch_size=128)")
     FR(SP "keras/engine/training.py", 1169, "predict", "steps=steps)")
     FR(SP "keras/engine/training_arrays.py", 294, "predict_loop", "batch_outs = f(ins_batch)")
     FR(SP "keras/backend/tensorflow_backend.py", 2715, "__call__", "return self._call(inputs)")
     TF_NODE("conv2d_3/convolution"), NULL},
    {"keras2-tf1", "optimizer", "fit_generator -> train_on_batch: node training/Adam/mul_3", "keras-team/keras:keras/optimizers.py",
     TB FR("/w/train.py", 60, "<module>", "model.fit_generator(train_gen, steps_per_epoch=500, epochs=20)")
     FR(SP "keras/engine/training_generator.py", 217, "fit_generator", "class_weight=class_weight)")
     FR(SP "keras/engine/training.py", 1217, "train_on_batch", "outputs = self.train_function(ins)")
     FR(SP "keras/backend/tensorflow_backend.py", 2715, "__call__", "return self._call(inputs)")
     TF_NODE("training/Adam/mul_3"), NULL},
    {"keras2-tf1", "eval", "evaluate_generator -> test_on_batch", "keras-team/keras:keras/engine/training_generator.py",
     TB FR("/w/train.py", 80, "<module>", "scores = model.evaluate_generator(val_gen, steps=100)")
     FR(SP "keras/engine/training_generator.py", 346, "evaluate_generator", "outs = model.test_on_batch(x, y, sample_weight=sample_weight)")
     FR(SP "keras/engine/training.py", 1256, "test_on_batch", "outputs = self.test_function(ins)")
     TF_NODE("conv2d_3/convolution"), NULL},
    {"keras2-tf1", "checkpoint", "ModelCheckpoint.on_epoch_end -> model.save", "keras-team/keras:keras/callbacks.py",
     TB FR("/w/train.py", 60, "<module>", "model.fit(x_train, y_train, epochs=20, callbacks=[checkpoint])")
     FR(SP "keras/engine/training_arrays.py", 251, "fit_loop", "callbacks.on_epoch_end(epoch, epoch_logs)")
     FR(SP "keras/callbacks.py", 79, "on_epoch_end", "callback.on_epoch_end(epoch, logs)")
     FR(SP "keras/callbacks.py", 446, "on_epoch_end", "self.model.save(filepath, overwrite=True)")
     FR(SP "keras/engine/saving.py", 157, "save_model", "weight_values = K.batch_get_value(symbolic_weights)")
     TF_NODE("conv2d_3/kernel/read"), NULL},
    /* ---- TensorFlow 2.x / Keras (keras-team/tf-keras:tf_keras/engine/
     * training.py fit -> train_function (make_train_function), evaluate ->
     * test_function, predict -> predict_function, whose tf.function names
     * give "__inference_<name>_<N>"; TF 2.0/2.1's training_v2.py ran every
     * mode through "distributed_function"; keras-team/keras:keras/src/
     * backend/tensorflow/trainer.py one_step_on_iterator/one_step_on_data) ---- */
    {"tf2-keras", "forward", "fit -> train_function, a forward node", "keras-team/tf-keras:tf_keras/engine/training.py@f458edc6",
     TB FR("/w/train.py", 38, "<module>", "model.fit(train_ds, epochs=10)")
     FR(SP "keras/utils/traceback_utils.py", 70, "error_handler", "raise e.with_traceback(filtered_tb) from None")
     FR(SP "tensorflow/python/eager/execute.py", 54, "quick_execute", "tensors = pywrap_tfe.TFE_Py_Execute(ctx._handle, device_name, op_name,")
     "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Graph execution error:\n\n"
     TF_FN("model/conv2d_5/Conv2D", "__inference_train_function_9876"), NULL},
    {"tf2-keras", "optimizer", "fit -> train_function, optimizer_v2 node Adam/Adam/update_4/ResourceApplyAdam", "keras-team/tf-keras:tf_keras/optimizers/legacy/optimizer_v2.py",
     TB FR("/w/train.py", 38, "<module>", "model.fit(train_ds, epochs=10)")
     FR(SP "tensorflow/python/eager/execute.py", 54, "quick_execute", "tensors = pywrap_tfe.TFE_Py_Execute(ctx._handle, device_name, op_name,")
     TF_FN("Adam/Adam/update_4/ResourceApplyAdam", "__inference_train_function_9876"), NULL},
    {"tf2-keras", "eval", "[Op:__inference_test_function_N] with a forward node, no frames", "keras-team/tf-keras:tf_keras/engine/training.py@f458edc6",
     "!" TF_FN("sequential/conv2d/Relu", "__inference_test_function_3161"), NULL},
    {"tf2-keras", "forward", "[Op:__inference_predict_function_N], no frames", "keras-team/tf-keras:tf_keras/engine/training.py@f458edc6",
     "!" TF_FN("model/dense/MatMul", "__inference_predict_function_2161"), NULL},
    {"tf2.1-keras", "eval", "evaluate -> training_v2 run_one_epoch -> distributed_function", "tensorflow/tensorflow:tensorflow/python/keras/engine/training_v2.py@v2.1.0",
     TB FR("/w/train.py", 52, "<module>", "model.evaluate(x_test, y_test, batch_size=64)")
     FR(SP "tensorflow_core/python/keras/engine/training.py", 930, "evaluate", "use_multiprocessing=use_multiprocessing)")
     FR(SP "tensorflow_core/python/keras/engine/training_v2.py", 490, "evaluate", "use_multiprocessing=use_multiprocessing, **kwargs)")
     FR(SP "tensorflow_core/python/keras/engine/training_v2.py", 127, "run_one_epoch", "batch_outs = execution_function(iterator)")
     FR(SP "tensorflow_core/python/keras/engine/training_v2_utils.py", 86, "execution_function", "distributed_function(input_fn))")
     TF_OOM "\t [[node sequential/conv2d/Conv2D (defined at /w/train.py:52) ]]\nHint: If you want to see a list of allocated tensors when OOM happens, add report_tensor_allocations_upon_oom to RunOptions for current allocation info.\n [Op:__inference_distributed_function_4521]\n", NULL},
    {"tf2.1-keras", "forward", "fit -> training_v2 run_one_epoch -> distributed_function, forward node", "tensorflow/tensorflow:tensorflow/python/keras/engine/training_v2.py@v2.1.0",
     TB FR("/w/train.py", 50, "<module>", "model.fit(x_train, y_train, batch_size=64, epochs=5)")
     FR(SP "tensorflow_core/python/keras/engine/training.py", 819, "fit", "use_multiprocessing=use_multiprocessing)")
     FR(SP "tensorflow_core/python/keras/engine/training_v2.py", 342, "fit", "total_epochs=epochs)")
     FR(SP "tensorflow_core/python/keras/engine/training_v2.py", 128, "run_one_epoch", "batch_outs = execution_function(iterator)")
     TF_OOM "\t [[node sequential/dense/MatMul (defined at /w/train.py:50) ]]\n [Op:__inference_distributed_function_4521]\n", NULL},
    {"keras3-tf", "eval", "evaluate -> one_step_on_iterator -> test_step ('Detected at node' stack)", "keras-team/keras:keras/src/backend/tensorflow/trainer.py",
     TB FR("/w/train.py", 40, "<module>", "model.evaluate(test_ds)")
     FR(SP "keras/src/utils/traceback_utils.py", 122, "error_handler", "raise e.with_traceback(filtered_tb) from None")
     FR(SP "tensorflow/python/eager/execute.py", 53, "quick_execute", "tensors = pywrap_tfe.TFE_Py_Execute(ctx._handle, device_name, op_name,")
     "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Graph execution error:\n\nDetected at node StatefulPartitionedCall defined at (most recent call last):\n"
     "  File \"/w/train.py\", line 40, in <module>\n\n  File \"" SP "keras/src/backend/tensorflow/trainer.py\", line 429, in evaluate\n\n"
     "  File \"" SP "keras/src/backend/tensorflow/trainer.py\", line 165, in one_step_on_iterator\n\n"
     "  File \"" SP "keras/src/backend/tensorflow/trainer.py\", line 154, in one_step_on_data\n\n"
     "  File \"" SP "keras/src/backend/tensorflow/trainer.py\", line 84, in test_step\n\n"
     TF_FN("StatefulPartitionedCall", "__inference_one_step_on_iterator_6071"), NULL},
    {"tf2-keras", "checkpoint", "ModelCheckpoint.on_epoch_end -> _save_model -> save_weights", "keras-team/tf-keras:tf_keras/callbacks.py",
     TB FR("/w/train.py", 38, "<module>", "model.fit(train_ds, epochs=10, callbacks=[ckpt_cb])")
     FR(SP "keras/callbacks.py", 1408, "on_epoch_end", "self._save_model(epoch=epoch, batch=None, logs=logs)")
     FR(SP "keras/callbacks.py", 1480, "_save_model", "self.model.save_weights(")
     TF_EAGER("ReadVariableOp"), NULL},
    {"tf2", "load", "tf.train.Checkpoint(...).restore(path)", "tensorflow/tensorflow:tensorflow/python/checkpoint/checkpoint.py",
     TB FR("/w/train.py", 30, "<module>", "status = ckpt.restore(manager.latest_checkpoint)")
     FR(SP "tensorflow/python/checkpoint/checkpoint.py", 2606, "restore", "status = self.read(save_path, options=options)")
     TF_EAGER("RestoreV2"), NULL},
    {"tf2", "data", "iterating a tf.data dataset: iterator_get_next", "tensorflow/tensorflow:tensorflow/python/data/ops/iterator_ops.py",
     TB FR("/w/train.py", 60, "train", "for x, y in train_ds:")
     FR(SP "tensorflow/python/data/ops/iterator_ops.py", 809, "__next__", "return self._next_internal()")
     FR(SP "tensorflow/python/data/ops/iterator_ops.py", 772, "_next_internal", "ret = gen_dataset_ops.iterator_get_next(")
     TF_EAGER("IteratorGetNext"), NULL},
    {"tf2", "backward", "custom @tf.function train_step: gradient_tape node", "tensorflow/tensorflow:tensorflow/python/eager/backprop.py",
     TB FR("/w/train.py", 70, "train", "loss = train_step(x, y)")
     TF_FN("gradient_tape/model/conv2d/Conv2D/Conv2DBackpropFilter", "__inference_train_step_1234"), NULL},
    /* ---- JAX / Flax / Optax / Orbax / T5X / MaxText ---- */
    {"jax", "backward", "jax.grad outside jit: value_and_grad_f -> vjp -> ad.backward_pass", "jax-ml/jax:jax/_src/interpreters/ad.py@319ab989 (backward_pass under transform_name_stack('transpose'))",
     TB FR("/w/train.py", 90, "train", "grads = jax.grad(loss_fn)(params, batch)")
     FR(SP "jax/_src/api.py", 740, "value_and_grad_f", "g = vjp_py(lax_internal._one(ans))")
     FR(SP "jax/_src/tree_util.py", 477, "__call__", "return self.fun(*args, **kw)")
     FR(SP "jax/_src/interpreters/ad.py", 160, "unbound_vjp", "arg_cts = backward_pass(jaxpr, True, consts, dummy_args, cts)")
     JAX_OOM, NULL},
    {"flax", "optimizer", "TrainState.apply_gradients -> optax update", "google/flax:flax/training/train_state.py",
     TB FR("/w/train.py", 95, "train", "state = state.apply_gradients(grads=grads)")
     FR(SP "flax/training/train_state.py", 100, "apply_gradients", "updates, new_opt_state = self.tx.update(")
     FR(SP "optax/_src/combine.py", 73, "update_fn", "updates, new_s = fn(updates, s, params, **extra_args)")
     JAX_OOM, NULL},
    {"flax", "forward", "model.apply for inference", "google/flax:flax/linen/module.py",
     TB FR("/w/predict.py", 40, "main", "logits = model.apply({'params': params}, images, train=False)")
     FR(SP "flax/linen/module.py", 2215, "apply", "return apply(")
     FR(SP "flax/core/scope.py", 1084, "wrapper", "y = fn(root, *args, **kwargs)")
     JAX_OOM, "flax's Module.apply has no stage name of its own (torch's Module.apply(fn) initialises weights) and flax/linen/ frames run under model.init as well: no cue that holds for both"},
    {"jax", "load", "jax.device_put(params, sharding) at set-up", "jax-ml/jax:jax/_src/api.py",
     TB FR("/w/train.py", 60, "main", "params = jax.device_put(params, replicated_sharding)")
     FR(SP "jax/_src/api.py", 2300, "device_put", "return tree_map(_device_put, x, device)")
     JAX_OOM, "jax.device_put moves whatever it is given: only the argument's name (params, batch) tells a set-up move from a batch's"},
    {"jax", "data", "jax.device_put(batch, sharding) in the loop", "jax-ml/jax:jax/_src/api.py",
     TB FR("/w/train.py", 85, "train", "batch = jax.device_put(batch, data_sharding)")
     FR(SP "jax/_src/api.py", 2300, "device_put", "return tree_map(_device_put, x, device)")
     JAX_OOM, "jax.device_put moves whatever it is given: only the argument's name (params, batch) tells a set-up move from a batch's"},
    {"flax", "load", "flax.jax_utils.replicate(state) -> device_put_replicated", "google/flax:flax/jax_utils.py (replicate -> device_put_replicated in the 2022-23 releases; @160b7529 device_put_sharded, @00bd0764 device_put of a stack)",
     TB FR("/w/train.py", 150, "train_and_evaluate", "state = jax_utils.replicate(state)")
     FR(SP "flax/jax_utils.py", 54, "replicate", "return jax.device_put_replicated(tree, devices)")
     JAX_OOM, NULL},
    {"flax", "data", "flax.jax_utils.prefetch_to_device(iter, 2) -> device_put_sharded", "google/flax:flax/jax_utils.py (replicate -> device_put_replicated in the 2022-23 releases; @160b7529 device_put_sharded, @00bd0764 device_put of a stack)",
     TB FR("/w/train.py", 170, "train_and_evaluate", "batch = next(train_iter)")
     FR(SP "flax/jax_utils.py", 130, "prefetch_to_device", "enqueue(size)  # Fill up the buffer.")
     FR(SP "flax/jax_utils.py", 127, "_prefetch", "return jax.device_put_sharded(list(xs), devices)")
     JAX_OOM, NULL},
    {"flax", "checkpoint", "flax.training.checkpoints.save_checkpoint", "google/flax:flax/training/checkpoints.py",
     TB FR("/w/train.py", 120, "train", "checkpoints.save_checkpoint(ckpt_dir=workdir, target=state, step=step)")
     FR(SP "flax/training/checkpoints.py", 700, "save_checkpoint", "target = jax.device_get(target)")
     JAX_OOM, NULL},
    {"orbax", "load", "CheckpointManager.restore", "google/orbax:checkpoint/orbax/checkpoint/checkpoint_manager.py",
     TB FR("/w/train.py", 70, "main", "state = checkpoint_manager.restore(step, args=ocp.args.StandardRestore(abstract_state))")
     FR(SP "orbax/checkpoint/checkpoint_manager.py", 1400, "restore", "restored = self._checkpointer.restore(restore_directory, args=args)")
     JAX_OOM, NULL},
    {"t5x", "eval", "train -> _run_inference_eval -> evaluator.evaluate", "google-research/t5x:t5x/train.py",
     TB FR(SP "t5x/train.py", 620, "train", "_run_inference_eval()")
     FR(SP "t5x/train.py", 560, "_run_inference_eval", "all_metrics, _ = evaluator.evaluate(")
     JAX_OOM, NULL},
    {"t5x", "generate", "infer -> predict_batch_with_aux -> decoding.temperature_sample", "google-research/t5x:t5x/decoding.py",
     TB FR(SP "t5x/infer.py", 480, "infer", "inferences, all_aux_values = infer_fn(infer_batch, rng=rng)")
     FR(SP "t5x/models.py", 1150, "predict_batch_with_aux", "decodes, scores = self._decode_fn(")
     FR(SP "t5x/decoding.py", 300, "temperature_sample", "return _temperature_sample_single_trial(")
     JAX_OOM, NULL},
    {"maxtext", "generate", "decode.py main -> engine.generate", "AI-Hypercomputer/maxtext:MaxText/decode.py",
     TB FR("/w/maxtext/MaxText/decode.py", 120, "main", "decode_state, sampled_tokens = engine.generate(params, decode_state, rng=rng_generate)")
     JAX_OOM, NULL},
    {"maxtext", "unknown", "guard: train_loop -> p_train_step (a whole jitted step names no stage)", "AI-Hypercomputer/maxtext:MaxText/train.py",
     TB FR("/w/maxtext/MaxText/train.py", 880, "train_loop", "state, metrics = p_train_step(state, example_batch, nextrng)")
     FR(SP "jax/_src/traceback_util.py", 180, "reraise_with_filtered_traceback", "return fun(*args, **kwargs)")
     JAX_OOM, NULL},
    /* ---- PaddlePaddle (PaddlePaddle/Paddle: python/paddle/base/dygraph/
     * tensor_patch_methods.py backward, python/paddle/optimizer/optimizer.py
     * step -> _apply_optimize, python/paddle/hapi/model.py fit/evaluate/
     * predict -> train_batch/eval_batch/predict_batch, base/executor.py
     * Executor.run; framework/io.py paddle.load, nn/layer/layers.py
     * set_state_dict) ---- */
    {"paddle", "backward", "dygraph loss.backward()", "PaddlePaddle/Paddle:python/paddle/base/dygraph/tensor_patch_methods.py",
     TB FR("/w/train.py", 80, "train", "loss.backward()")
     FR(SP "paddle/base/dygraph/tensor_patch_methods.py", 342, "backward", "core.eager.run_backward([self], grad_tensor, retain_graph)")
     PD_OOM, NULL},
    {"paddle", "optimizer", "dygraph opt.step() -> _apply_optimize -> adamw_", "PaddlePaddle/Paddle:python/paddle/optimizer/optimizer.py",
     TB FR("/w/train.py", 81, "train", "opt.step()")
     FR(SP "paddle/optimizer/optimizer.py", 1660, "step", "self._apply_optimize(")
     FR(SP "paddle/optimizer/optimizer.py", 1270, "_apply_optimize", "optimize_ops = self._create_optimization_pass(")
     FR(SP "paddle/optimizer/adamw.py", 560, "_append_optimize_op", "_, _, _, _, _, _ = _C_ops.adamw_(")
     PD_OOM, NULL},
    {"paddle", "backward", "static Executor.run: [operator < conv2d_grad > error]", "PaddlePaddle/Paddle:python/paddle/base/executor.py; hint from paddle/fluid/framework/op_call_stack.cc@0ab6998c",
     TB FR("/w/train.py", 90, "main", "loss_v, = exe.run(main_prog, feed={'x': xb, 'y': yb}, fetch_list=[loss])")
     FR(SP "paddle/base/executor.py", 1746, "run", "return self._run_impl(")
     FR(SP "paddle/base/executor.py", 1952, "_run_impl", "ret = new_exe.run(")
     PD_OP("conv2d_grad"), NULL},
    {"paddle", "optimizer", "static Executor.run: [operator < adam > error]", "PaddlePaddle/Paddle:python/paddle/base/executor.py; hint from paddle/fluid/framework/op_call_stack.cc@0ab6998c",
     TB FR("/w/train.py", 90, "main", "loss_v, = exe.run(main_prog, feed={'x': xb, 'y': yb}, fetch_list=[loss])")
     FR(SP "paddle/base/executor.py", 1746, "run", "return self._run_impl(")
     PD_OP("adam"), NULL},
    {"paddle", "forward", "static Executor.run: [operator < conv2d > error]", "PaddlePaddle/Paddle:python/paddle/base/executor.py; hint from paddle/fluid/framework/op_call_stack.cc@0ab6998c",
     TB FR("/w/infer.py", 50, "main", "out, = exe.run(infer_prog, feed={'x': xb}, fetch_list=fetch_targets)")
     FR(SP "paddle/base/executor.py", 1746, "run", "return self._run_impl(")
     PD_OP("conv2d"), NULL},
    {"paddle", "backward", "dygraph backward node hint [GradNode < Conv2dGradNodeFinal > error], no frames (written with its cue)", "PaddlePaddle/Paddle:paddle/fluid/framework/op_call_stack.cc@0ab6998c",
     "!" PD_OOM "  [GradNode < Conv2dGradNodeFinal > error]\n", NULL},
    {"paddle-hapi", "eval", "paddle.Model.fit -> evaluate -> eval_batch", "PaddlePaddle/Paddle:python/paddle/hapi/model.py",
     TB FR("/w/train.py", 60, "<module>", "model.fit(train_ds, eval_ds, epochs=10, batch_size=64)")
     FR(SP "paddle/hapi/model.py", 1890, "fit", "eval_logs = self._run_one_epoch(eval_loader, cbks, 'eval')")
     FR(SP "paddle/hapi/model.py", 2280, "_run_one_epoch", "outs = getattr(self, mode + '_batch')(*_inputs)")
     FR(SP "paddle/hapi/model.py", 1140, "eval_batch", "loss = self._adapter.eval_batch(inputs, labels)")
     FR(SP "paddle/hapi/model.py", 830, "eval_batch", "outputs = self.model.network.forward(*[paddle.to_tensor(x) for x in inputs])")
     PD_OOM, NULL},
    {"paddle-hapi", "forward", "paddle.Model.predict -> predict_batch", "PaddlePaddle/Paddle:python/paddle/hapi/model.py",
     TB FR("/w/infer.py", 30, "<module>", "result = model.predict(test_ds, batch_size=64)")
     FR(SP "paddle/hapi/model.py", 2150, "predict", "logs, outputs = self._run_one_epoch(test_loader, cbks, 'predict')")
     FR(SP "paddle/hapi/model.py", 2280, "_run_one_epoch", "outs = getattr(self, mode + '_batch')(*_inputs)")
     FR(SP "paddle/hapi/model.py", 1180, "predict_batch", "loss = self._adapter.predict_batch(inputs)")
     PD_OOM, NULL},
    {"paddle", "load", "model.set_state_dict(paddle.load(path))", "PaddlePaddle/Paddle:python/paddle/nn/layer/layers.py",
     TB FR("/w/infer.py", 20, "<module>", "model.set_state_dict(state_dict)")
     FR(SP "paddle/nn/layer/layers.py", 2050, "set_state_dict", "_set_var(var, state)")
     PD_OOM, NULL},
    {"paddle", "checkpoint", "paddle.save(model.state_dict(), path)", "PaddlePaddle/Paddle:python/paddle/framework/io.py",
     TB FR("/w/train.py", 100, "train", "paddle.save(model.state_dict(), 'ckpt/model.pdparams')")
     PD_OOM, NULL},
    {"paddle", "unknown", "guard: the summary alone, no Python frames above it, names no stage", "PaddlePaddle/Paddle:paddle/fluid/platform/enforce.h",
     "!" PD_OOM, NULL},
    {"paddle-inference", "forward", "Paddle Inference predictor.run()", "PaddlePaddle/PaddleOCR:tools/infer/predict_det.py",
     TB FR("/w/PaddleOCR/tools/infer/predict_det.py", 250, "__call__", "self.predictor.run()")
     PD_OOM, NULL},
    /* ---- MXNet (apache/mxnet: python/mxnet/ndarray/ndarray.py backward,
     * gluon/trainer.py step -> _update -> optimizer/updater.py,
     * optimizer/optimizer.py; module/base_module.py fit -> forward_backward,
     * update, score; gluon/block.py load_parameters/save_parameters) ---- */
    {"mxnet-gluon", "backward", "loss.backward() under autograd.record", "apache/mxnet:python/mxnet/ndarray/ndarray.py",
     TB FR("/w/train.py", 70, "train", "loss.backward()")
     FR(SP "mxnet/ndarray/ndarray.py", 2216, "backward", "ctypes.c_void_p(0)))")
     FR(SP "mxnet/base.py", 253, "check_call", "raise MXNetError(py_str(_LIB.MXGetLastError()))")
     MX_OOM, NULL},
    {"mxnet-gluon", "optimizer", "trainer.step -> _update -> updater -> optimizer.update_multi_precision", "apache/mxnet:python/mxnet/gluon/trainer.py@8a3e1d11",
     TB FR("/w/train.py", 71, "train", "trainer.step(batch_size)")
     FR(SP "mxnet/gluon/trainer.py", 334, "step", "self._update(ignore_stale_grad)")
     FR(SP "mxnet/gluon/trainer.py", 416, "_update", "updater(i, w, g)")
     FR(SP "mxnet/optimizer/optimizer.py", 1566, "__call__", "self.optimizer.update_multi_precision(i, weight, grad, self.states[i])")
     FR(SP "mxnet/base.py", 253, "check_call", "raise MXNetError(py_str(_LIB.MXGetLastError()))")
     MX_OOM, NULL},
    {"mxnet-module", "backward", "Module.fit -> forward_backward -> backward", "apache/mxnet:python/mxnet/module/base_module.py",
     TB FR("/w/train.py", 90, "main", "mod.fit(train_iter, eval_data=val_iter, optimizer='sgd', num_epoch=10)")
     FR(SP "mxnet/module/base_module.py", 520, "fit", "self.forward_backward(data_batch)")
     FR(SP "mxnet/module/base_module.py", 192, "forward_backward", "self.backward()")
     FR(SP "mxnet/module/module.py", 655, "backward", "self._exec_group.backward(out_grads=out_grads)")
     FR(SP "mxnet/module/executor_group.py", 600, "backward", "exec_.backward(out_grads=out_grads_slice)")
     MX_OOM, NULL},
    {"mxnet-module", "eval", "Module.fit -> score(eval_data) (validation)", "apache/mxnet:python/mxnet/module/base_module.py",
     TB FR("/w/train.py", 90, "main", "mod.fit(train_iter, eval_data=val_iter, optimizer='sgd', num_epoch=10)")
     FR(SP "mxnet/module/base_module.py", 560, "fit", "res = self.score(eval_data, validation_metric,")
     FR(SP "mxnet/module/base_module.py", 250, "score", "self.forward(eval_batch, is_train=False)")
     FR(SP "mxnet/module/module.py", 625, "forward", "self._exec_group.forward(data_batch, is_train)")
     MX_OOM, NULL},
    {"mxnet-gluon", "forward", "net(data) -> HybridBlock.forward", "apache/mxnet:python/mxnet/gluon/block.py",
     TB FR("/w/infer.py", 30, "<module>", "out = net(data)")
     FR(SP "mxnet/gluon/block.py", 548, "__call__", "out = self.forward(*args)")
     FR(SP "mxnet/gluon/block.py", 925, "forward", "return self.hybrid_forward(ndarray, x, *args, **params)")
     MX_OOM, NULL},
    {"mxnet-gluon", "load", "net.load_parameters(path, ctx=mx.gpu())", "apache/mxnet:python/mxnet/gluon/block.py",
     TB FR("/w/infer.py", 20, "<module>", "net.load_parameters('resnet50.params', ctx=mx.gpu(0))")
     FR(SP "mxnet/gluon/block.py", 420, "load_parameters", "params[name]._load_init(loaded[name], ctx, cast_dtype=cast_dtype, dtype_source=dtype_source)")
     MX_OOM, NULL},
    {"mxnet-gluon", "checkpoint", "net.save_parameters(path)", "apache/mxnet:python/mxnet/gluon/block.py",
     TB FR("/w/train.py", 100, "train", "net.save_parameters('ckpt/epoch%d.params' % epoch)")
     FR(SP "mxnet/gluon/block.py", 360, "save_parameters", "ndarray.save(filename, arg_dict)")
     MX_OOM, NULL},
    {"mxnet", "unknown", "guard: the engine's error surfaces at a sync point (nd.waitall)", "apache/mxnet:python/mxnet/ndarray/ndarray.py",
     TB FR("/w/train.py", 75, "train", "mx.nd.waitall()")
     FR(SP "mxnet/ndarray/ndarray.py", 211, "waitall", "check_call(_LIB.MXNDArrayWaitAll())")
     MX_OOM, NULL},
    /* ---- ONNX Runtime (microsoft/onnxruntime: onnxruntime/python/
     * onnxruntime_inference_collection.py InferenceSession.__init__ ->
     * _create_inference_session -> initialize_session, run ->
     * self._sess.run, run_with_iobinding; onnxruntime-genai's
     * Generator.generate_next_token) ---- */
    {"onnxruntime", "load", "InferenceSession(...) -> _create_inference_session", "microsoft/onnxruntime:onnxruntime/python/onnxruntime_inference_collection.py",
     TB FR("/w/app.py", 20, "<module>", "sess = ort.InferenceSession('model.onnx', providers=['CUDAExecutionProvider'])")
     FR(SP "onnxruntime/capi/onnxruntime_inference_collection.py", 419, "__init__", "self._create_inference_session(providers, provider_options, disabled_optimizers)")
     FR(SP "onnxruntime/capi/onnxruntime_inference_collection.py", 483, "_create_inference_session", "sess.initialize_session(providers, provider_options, disabled_optimizers)")
     "onnxruntime.capi.onnxruntime_pybind11_state.RuntimeException: [ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Exception during initialization: " ORT_ARENA, NULL},
    {"onnxruntime", "forward", "sess.run -> self._sess.run: a Conv node", "microsoft/onnxruntime:onnxruntime/python/onnxruntime_inference_collection.py",
     TB FR("/w/app.py", 40, "infer", "outputs = sess.run(None, {'input': x})")
     FR(SP "onnxruntime/capi/onnxruntime_inference_collection.py", 220, "run", "return self._sess.run(output_names, input_feed, run_options)")
     ORT_RUN("Conv", "/backbone/conv1/Conv"), NULL},
    {"onnxruntime", "forward", "run_with_iobinding", "microsoft/onnxruntime:onnxruntime/python/onnxruntime_inference_collection.py",
     TB FR("/w/app.py", 44, "infer", "sess.run_with_iobinding(io_binding)")
     FR(SP "onnxruntime/capi/onnxruntime_inference_collection.py", 331, "run_with_iobinding", "self._sess.run_with_iobinding(iobinding._iobinding, run_options)")
     "RuntimeError: Error in execution: " ORT_ARENA, NULL},
    {"optimum-ort", "generate", "ORTModelForCausalLM.generate", "huggingface/optimum:optimum/onnxruntime/modeling_decoder.py",
     TB FR("/w/chat.py", 30, "<module>", "out = model.generate(**inputs, max_new_tokens=256)")
     FR(SP "transformers/generation/utils.py", 2215, "generate", "result = self._sample(")
     FR(SP "optimum/onnxruntime/modeling_decoder.py", 700, "forward", "self.model.run_with_iobinding(io_binding)")
     "RuntimeError: Error in execution: " ORT_ARENA, NULL},
    {"onnxruntime-genai", "generate", "generator.generate_next_token()", "microsoft/onnxruntime-genai:examples/python/model-qa.py",
     TB FR("/w/model-qa.py", 90, "main", "generator.generate_next_token()")
     "RuntimeError: " ORT_ARENA, NULL},
    /* ---- TensorRT (NVIDIA/TensorRT: samples/python/common_runtime.py;
     * the Python API's Builder.build_serialized_network,
     * Runtime.deserialize_cuda_engine, ICudaEngine.create_execution_context,
     * IExecutionContext.execute_v2/execute_async_v3) ---- */
    {"tensorrt", "forward", "context.execute_async_v3", "NVIDIA/TensorRT:samples/python/common_runtime.py",
     TB FR("/w/infer_trt.py", 60, "infer", "context.execute_async_v3(stream_handle=stream.handle)")
     TRT_OOM, NULL},
    {"tensorrt", "load", "runtime.deserialize_cuda_engine", "NVIDIA/TensorRT:samples/python/common_runtime.py",
     TB FR("/w/infer_trt.py", 30, "load_engine", "engine = runtime.deserialize_cuda_engine(f.read())")
     TRT_OOM, NULL},
    {"tensorrt", "load", "engine.create_execution_context", "NVIDIA/TensorRT:samples/python/common_runtime.py",
     TB FR("/w/infer_trt.py", 33, "load_engine", "context = engine.create_execution_context()")
     "[12/06/2026-10:21:31] [TRT] [E] 2: [executionContext.cpp::ExecutionContext::470] Error Code 2: OutOfMemory (no further information)\n", NULL},
    {"tensorrt", "unknown", "guard: builder.build_serialized_network (an offline conversion, as the sets label it: h20-29, h20-30)", "NVIDIA/TensorRT:samples/python/common.py",
     TB FR("/w/build_trt.py", 50, "build_engine", "serialized = builder.build_serialized_network(network, config)")
     "[12/06/2026-10:21:31] [TRT] [E] 1: [defaultAllocator.cpp::allocate::20] Error Code 1: Cuda Runtime (out of memory)\n"
     "[12/06/2026-10:21:31] [TRT] [W] Requested amount of GPU memory (4294967296 bytes) could not be allocated. There may not be enough free memory for allocation to succeed.\n", NULL},
    /* ---- C++ runtimes: libtorch (pytorch/pytorch: torch/csrc/api/
     * include/torch/nn/modules/conv.h Conv2dImpl::forward, torch/csrc/
     * autograd/autograd.cpp torch::autograd::backward, torch/csrc/api/src/
     * optim/adam.cpp Adam::step, torch/csrc/jit/serialization/import.cpp
     * torch::jit::load) and the TF C++ API (tensorflow/core/public/
     * session.h Session::Run) ---- */
    {"libtorch", "forward", "C++ frames: Conv2dImpl::forward", "pytorch/pytorch:torch/csrc/api/src/nn/modules/conv.cpp",
     "!" LT_OOM
     "frame #1: <unknown function> + 0x2e0b9 (0x7f3c0a30e0b9 in /opt/libtorch/lib/libc10_cuda.so)\n"
     "frame #7: at::native::cudnn_convolution(at::Tensor const&, at::Tensor const&, c10::ArrayRef<long>, c10::ArrayRef<long>, c10::ArrayRef<long>, long, bool, bool, bool) + 0x96 (0x7f3bd1c2a0e6 in /opt/libtorch/lib/libtorch_cuda.so)\n"
     "frame #12: torch::nn::Conv2dImpl::forward(at::Tensor const&) + 0x3c (0x7f3bf1a2b44c in /opt/libtorch/lib/libtorch_cpu.so)\n"
     "frame #13: Net::forward(at::Tensor) + 0x5d (0x55d0c0a1b2cd in ./train)\n"
     "frame #14: main + 0x2a3 (0x55d0c0a18a33 in ./train)\n", NULL},
    {"libtorch", "backward", "C++ frames: torch::autograd::backward", "pytorch/pytorch:torch/csrc/autograd/autograd.cpp",
     "!" LT_OOM
     "frame #9: torch::autograd::Engine::execute(std::vector<torch::autograd::Edge, std::allocator<torch::autograd::Edge> > const&, std::vector<at::Tensor, std::allocator<at::Tensor> > const&, bool, bool, bool, std::vector<torch::autograd::Edge, std::allocator<torch::autograd::Edge> > const&) + 0x4e1 (0x7f3bf1d5e0c1 in /opt/libtorch/lib/libtorch_cpu.so)\n"
     "frame #10: torch::autograd::backward(std::vector<at::Tensor, std::allocator<at::Tensor> > const&, std::vector<at::Tensor, std::allocator<at::Tensor> > const&, std::optional<bool>, bool, std::vector<at::Tensor, std::allocator<at::Tensor> > const&) + 0x5c (0x7f3bf1d4a2ac in /opt/libtorch/lib/libtorch_cpu.so)\n"
     "frame #11: at::Tensor::backward(at::Tensor const&, std::optional<bool>, bool, std::optional<c10::ArrayRef<at::Tensor> >) const + 0x48 (0x55d0c0a1c118 in ./train)\n"
     "frame #12: main + 0x3b1 (0x55d0c0a18b41 in ./train)\n", NULL},
    {"libtorch", "optimizer", "C++ frames: torch::optim::Adam::step", "pytorch/pytorch:torch/csrc/api/src/optim/adam.cpp",
     "!" LT_OOM
     "frame #8: at::_ops::zeros_like::call(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, std::optional<c10::MemoryFormat>) + 0x1b4 (0x7f3bf0e7a3c4 in /opt/libtorch/lib/libtorch_cpu.so)\n"
     "frame #9: torch::optim::Adam::step(std::function<at::Tensor ()>) + 0x8a1 (0x7f3bf1f0b2e1 in /opt/libtorch/lib/libtorch_cpu.so)\n"
     "frame #10: main + 0x3d2 (0x55d0c0a18b62 in ./train)\n", NULL},
    {"libtorch", "load", "C++ frames: torch::jit::load", "pytorch/pytorch:torch/csrc/jit/serialization/import.cpp",
     "!" LT_OOM
     "frame #14: torch::jit::import_ir_module(std::shared_ptr<torch::jit::CompilationUnit>, std::string const&, std::optional<c10::Device>, bool) + 0x1f3 (0x7f3bf2a3c5e3 in /opt/libtorch/lib/libtorch_cpu.so)\n"
     "frame #15: torch::jit::load(std::string const&, std::optional<c10::Device>, bool) + 0xc5 (0x7f3bf2a3d6b5 in /opt/libtorch/lib/libtorch_cpu.so)\n"
     "frame #16: main + 0x61 (0x55d0c0a187f1 in ./infer)\n", NULL},
    {"tf-cpp", "backward", "Session::Run status: node gradients/...", "tensorflow/tensorflow:tensorflow/core/public/session.h",
     "!2026-12-06 10:21:31.123456: W tensorflow/core/framework/op_kernel.cc:1651] OP_REQUIRES failed at conv_grad_input_ops.cc:1011 : Resource exhausted: OOM when allocating tensor with shape[32,128,112,112] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
     "Run failed: Resource exhausted: OOM when allocating tensor with shape[32,128,112,112] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
     "\t [[{{node gradients/conv2/Conv2D_grad/Conv2DBackpropInput}}]]\n", NULL},
    /* ---- set aside: written after the classifier changes above, scored
     * once (the unseen audit of /work/notes/diagstagenpt.md) ---- */
    /* MindSpore (mindspore-ai/mindspore: mindspore/train/model.py Model.train
     * -> _train -> _train_dataset_sink_process, eval, predict;
     * train/serialization.py load_param_into_net, save_checkpoint;
     * train/callback/_checkpoint.py ModelCheckpoint; graph kernels are named
     * by scope: "Default/network-WithLossCell/...", the backward graph's
     * "Gradients/Default/...", the optimizer's "Default/optimizer-Momentum/..."
     * (ccsrc/frontend/optimizer/ad/); the actors' message "Device(id:0) memory
     * isn't enough and alloc failed, kernel name: ..., alloc size: NB."
     * (ccsrc/runtime/graph_scheduler/actor/memory_manager_actor.cc)) */
    {"mindspore", "backward", "Model.train, kernel Gradients/Default/.../Conv2DBackpropInput-op", "mindspore-ai/mindspore:mindspore/python/mindspore/train/model.py",
     TB FR("/w/train.py", 80, "<module>", "model.train(config.epoch_size, dataset, callbacks=cb, dataset_sink_mode=True)")
     FR(SP "mindspore/train/model.py", 1082, "train", "initial_epoch=initial_epoch)")
     FR(SP "mindspore/train/model.py", 115, "wrapper", "func(self, *args, **kwargs)")
     FR(SP "mindspore/train/model.py", 636, "_train", "self._train_dataset_sink_process(epoch, train_dataset, list_callback,")
     FR(SP "mindspore/train/model.py", 721, "_train_dataset_sink_process", "outputs = train_network(*inputs)")
     FR(SP "mindspore/nn/cell.py", 680, "__call__", "out = self.compile_and_run(*args, **kwargs)")
     "RuntimeError: Device(id:0) memory isn't enough and alloc failed, kernel name: Gradients/Default/network-WithLossCell/_backbone-ResNet/layer2-SequentialCell/0-ResidualBlock/conv2-Conv2d/gradConv2D/Conv2DBackpropInput-op1520, alloc size: 1073741824B.\n", NULL},
    {"mindspore", "optimizer", "Model.train, kernel Default/optimizer-Momentum/ApplyMomentum-op", "mindspore-ai/mindspore:mindspore/python/mindspore/nn/optim/momentum.py",
     TB FR("/w/train.py", 80, "<module>", "model.train(config.epoch_size, dataset, callbacks=cb, dataset_sink_mode=True)")
     FR(SP "mindspore/train/model.py", 721, "_train_dataset_sink_process", "outputs = train_network(*inputs)")
     "RuntimeError: Device(id:0) memory isn't enough and alloc failed, kernel name: Default/optimizer-Momentum/ApplyMomentum-op2051, alloc size: 536870912B.\n", NULL},
    {"mindspore", "eval", "Model.eval -> _eval_dataset_sink_process", "mindspore-ai/mindspore:mindspore/python/mindspore/train/model.py",
     TB FR("/w/eval.py", 50, "<module>", "res = model.eval(eval_dataset)")
     FR(SP "mindspore/train/model.py", 1390, "eval", "return self._eval_dataset_sink_process(valid_dataset, list_callback, cb_params, add_eval_loss)")
     FR(SP "mindspore/train/model.py", 1280, "_eval_dataset_sink_process", "outputs = eval_network(*inputs)")
     "RuntimeError: Device(id:0) memory isn't enough and alloc failed, kernel name: Default/network-WithEvalCell/_network-ResNet/layer2-SequentialCell/0-ResidualBlock/conv2-Conv2d/Conv2D-op320, alloc size: 1073741824B.\n", NULL},
    {"mindspore", "forward", "Model.predict", "mindspore-ai/mindspore:mindspore/python/mindspore/train/model.py",
     TB FR("/w/infer.py", 30, "<module>", "output = model.predict(Tensor(img))")
     FR(SP "mindspore/train/model.py", 1560, "predict", "result = self._predict_network(*predict_data)")
     "RuntimeError: Device(id:0) memory isn't enough and alloc failed, kernel name: Default/ResNet/layer2-SequentialCell/0-ResidualBlock/conv2-Conv2d/Conv2D-op320, alloc size: 1073741824B.\n", NULL},
    {"mindspore", "load", "load_param_into_net", "mindspore-ai/mindspore:mindspore/python/mindspore/train/serialization.py",
     TB FR("/w/infer.py", 20, "<module>", "load_param_into_net(net, param_dict)")
     FR(SP "mindspore/train/serialization.py", 1650, "load_param_into_net", "new_param.set_data(param_dict[param_name])")
     "RuntimeError: Out of Memory!!! Request memory size: 33100113920B, Memory Statistic:\nDevice HBM memory size: 32768M\nMindSpore Used memory size: 30684M\n", NULL},
    {"mindspore", "checkpoint", "ModelCheckpoint.step_end -> _save_ckpt -> save_checkpoint", "mindspore-ai/mindspore:mindspore/python/mindspore/train/callback/_checkpoint.py",
     TB FR(SP "mindspore/train/callback/_checkpoint.py", 520, "step_end", "self._save_ckpt(cb_params)")
     FR(SP "mindspore/train/callback/_checkpoint.py", 590, "_save_ckpt", "save_checkpoint(network, cur_file, self._config.integrated_save, self._config.async_save,")
     "RuntimeError: Out of Memory!!! Request memory size: 33100113920B, Memory Statistic:\nDevice HBM memory size: 32768M\nMindSpore Used memory size: 30684M\n", NULL},
    /* OpenVINO (openvinotoolkit/openvino: src/bindings/python/src/openvino/
     * runtime/ie_api.py Core.compile_model, CompiledModel.__call__,
     * InferRequest.infer; the GPU plugin's check in src/plugins/intel_gpu/
     * src/runtime/ocl/ocl_engine.cpp; openvinotoolkit/openvino.genai
     * LLMPipeline.generate; huggingface/optimum-intel OVModelForCausalLM) */
    {"openvino", "load", "core.compile_model(model, 'GPU')", "openvinotoolkit/openvino:src/bindings/python/src/openvino/runtime/ie_api.py",
     TB FR("/w/app.py", 20, "<module>", "compiled = core.compile_model(model, \"GPU\")")
     FR(SP "openvino/runtime/ie_api.py", 543, "compile_model", "super().compile_model(model, device_name, {} if config is None else config),")
     "RuntimeError: Exception from src/inference/src/cpp/core.cpp:107:\nException from src/inference/src/dev/plugin.cpp:53:\nCheck 'false' failed at src/plugins/intel_gpu/src/runtime/ocl/ocl_engine.cpp:161:\n[GPU] Exceeded max size of memory object allocation: requested 4294967296 bytes, but max alloc size supported by device is 3927572480 bytes.Please try to reduce batch size or use lower precision.\n", NULL},
    {"openvino", "forward", "compiled_model(inputs) -> InferRequest.infer", "openvinotoolkit/openvino:src/bindings/python/src/openvino/runtime/ie_api.py",
     TB FR("/w/app.py", 40, "infer", "result = compiled([image])[output_layer]")
     FR(SP "openvino/runtime/ie_api.py", 388, "__call__", "return self._infer_request.infer(")
     FR(SP "openvino/runtime/ie_api.py", 132, "infer", "return OVDict(super().infer(_data_dispatch(")
     "RuntimeError: Exception from src/inference/src/cpp/infer_request.cpp:223:\nCheck 'false' failed at src/plugins/intel_gpu/src/runtime/ocl/ocl_engine.cpp:161:\n[GPU] Exceeded max size of memory allocation: Required 2147483648 bytes, already occupied : 6442450944 bytes, but available memory size is 8589934592 bytes\n", NULL},
    {"openvino-genai", "generate", "LLMPipeline.generate", "openvinotoolkit/openvino.genai:samples/python/text_generation/chat_sample.py",
     TB FR("/w/chat.py", 30, "main", "pipe.generate(prompt, config, streamer)")
     "RuntimeError: Exception from src/inference/src/cpp/infer_request.cpp:223:\nCheck 'false' failed at src/plugins/intel_gpu/src/runtime/ocl/ocl_engine.cpp:161:\n[GPU] Exceeded max size of memory allocation: Required 2147483648 bytes, already occupied : 6442450944 bytes, but available memory size is 8589934592 bytes\n", NULL},
    {"optimum-intel", "load", "OVModelForCausalLM.from_pretrained(..., device='GPU') compiling", "huggingface/optimum-intel:optimum/intel/openvino/modeling_base.py",
     TB FR("/w/app.py", 12, "<module>", "model = OVModelForCausalLM.from_pretrained(model_id, device=\"GPU\")")
     FR(SP "optimum/intel/openvino/modeling_base.py", 400, "compile", "self.request = self._compile_model(self.model, self._device, ov_config, self.model_save_dir)")
     FR(SP "optimum/intel/openvino/modeling_base.py", 380, "_compile_model", "compiled_model = core.compile_model(model, device.upper() if device is not None else device, config=ov_config)")
     "RuntimeError: Exception from src/inference/src/cpp/core.cpp:107:\nException from src/inference/src/dev/plugin.cpp:53:\nCheck 'false' failed at src/plugins/intel_gpu/src/runtime/ocl/ocl_engine.cpp:161:\n[GPU] Exceeded max size of memory object allocation: requested 4294967296 bytes, but max alloc size supported by device is 3927572480 bytes.Please try to reduce batch size or use lower precision.\n", NULL},
    /* Julia's Flux with CUDA.jl (FluxML/Flux.jl: src/optimise/train.jl
     * train!, update!, src/optimise/optimisers.jl apply!, src/functor.jl gpu;
     * FluxML/Zygote.jl: src/compiler/interface.jl gradient, withgradient,
     * pullback; JuliaGPU/CUDA.jl's "Out of GPU memory trying to allocate"
     * (src/pool.jl)); Julia 1.6+ prints frames innermost first, "[n] f(args)"
     * over "@ Module path:line" */
#define JL_OOM "ERROR: LoadError: Out of GPU memory trying to allocate 1.500 GiB\nEffective GPU memory usage: 99.50% (7.770 GiB/7.800 GiB)\nMemory pool usage: 6.500 GiB (7.188 GiB reserved)\nStacktrace:\n"
    {"flux", "backward", "train! -> gradient -> Zygote pullback", "FluxML/Zygote.jl:src/compiler/interface.jl",
     "!" JL_OOM
     "  [1] throw_api_error(res::CUDA.cudaError_enum)\n    @ CUDA ~/.julia/packages/CUDA/35NC6/lib/cudadrv/libcuda.jl:27\n"
     "  [9] ∇conv_data(dy::CuArray{Float32, 4, CUDA.Mem.DeviceBuffer}, w::CuArray{Float32, 4, CUDA.Mem.DeviceBuffer}, cdims::DenseConvDims{2, 2, 2, 4, 2})\n    @ NNlibCUDA ~/.julia/packages/NNlibCUDA/gzTJY/src/cudnn/conv.jl:86\n"
     " [12] (::Zygote.Pullback{Tuple{typeof(loss), CuArray{Float32, 4, CUDA.Mem.DeviceBuffer}, CuArray{Float32, 2, CUDA.Mem.DeviceBuffer}}, Any})(Δ::Float32)\n    @ Zygote ~/.julia/packages/Zygote/SmJK6/src/compiler/interface2.jl:0\n"
     " [13] (::Zygote.var\"#60#61\"{Zygote.Params{Zygote.Buffer{Any, Vector{Any}}}, Zygote.Pullback{Tuple{Flux.Optimise.var\"#37#40\"{typeof(loss), Tuple{CuArray{Float32, 4, CUDA.Mem.DeviceBuffer}, CuArray{Float32, 2, CUDA.Mem.DeviceBuffer}}}}, Any}, Zygote.Context})(Δ::Float32)\n    @ Zygote ~/.julia/packages/Zygote/SmJK6/src/compiler/interface.jl:45\n"
     " [14] gradient(f::Function, args::Zygote.Params{Zygote.Buffer{Any, Vector{Any}}})\n    @ Zygote ~/.julia/packages/Zygote/SmJK6/src/compiler/interface.jl:97\n"
     " [15] macro expansion\n    @ ~/.julia/packages/Flux/KkC79/src/optimise/train.jl:109 [inlined]\n"
     " [16] train!(loss::Function, ps::Zygote.Params{Zygote.Buffer{Any, Vector{Any}}}, data::Vector{Tuple{CuArray{Float32, 4, CUDA.Mem.DeviceBuffer}, CuArray{Float32, 2, CUDA.Mem.DeviceBuffer}}}, opt::Adam; cb::Flux.Optimise.var\"#40#46\")\n    @ Flux.Optimise ~/.julia/packages/Flux/KkC79/src/optimise/train.jl:107\n"
     " [17] top-level scope\n    @ /w/train.jl:60\n", NULL},
    {"flux", "optimizer", "train! -> update! -> apply!(::Adam)", "FluxML/Flux.jl:src/optimise/optimisers.jl",
     "!" JL_OOM
     "  [1] throw_api_error(res::CUDA.cudaError_enum)\n    @ CUDA ~/.julia/packages/CUDA/35NC6/lib/cudadrv/libcuda.jl:27\n"
     "  [8] apply!(o::Adam, x::CuArray{Float32, 4, CUDA.Mem.DeviceBuffer}, Δ::CuArray{Float32, 4, CUDA.Mem.DeviceBuffer})\n    @ Flux.Optimise ~/.julia/packages/Flux/KkC79/src/optimise/optimisers.jl:180\n"
     "  [9] update!(opt::Adam, x::CuArray{Float32, 4, CUDA.Mem.DeviceBuffer}, x̄::CuArray{Float32, 4, CUDA.Mem.DeviceBuffer})\n    @ Flux.Optimise ~/.julia/packages/Flux/KkC79/src/optimise/train.jl:18\n"
     " [10] update!(opt::Adam, xs::Zygote.Params{Zygote.Buffer{Any, Vector{Any}}}, gs::Zygote.Grads)\n    @ Flux.Optimise ~/.julia/packages/Flux/KkC79/src/optimise/train.jl:24\n"
     " [11] train!(loss::Function, ps::Zygote.Params{Zygote.Buffer{Any, Vector{Any}}}, data::Vector{Tuple{CuArray{Float32, 4, CUDA.Mem.DeviceBuffer}, CuArray{Float32, 2, CUDA.Mem.DeviceBuffer}}}, opt::Adam)\n    @ Flux.Optimise ~/.julia/packages/Flux/KkC79/src/optimise/train.jl:110\n"
     " [12] top-level scope\n    @ /w/train.jl:60\n", NULL},
    {"flux", "forward", "inference: (::Chain)(x) -> (::Conv)(x)", "FluxML/Flux.jl:src/layers/basic.jl",
     "!" JL_OOM
     "  [1] throw_api_error(res::CUDA.cudaError_enum)\n    @ CUDA ~/.julia/packages/CUDA/35NC6/lib/cudadrv/libcuda.jl:27\n"
     "  [7] (::Conv{2, 4, typeof(relu), CuArray{Float32, 4, CUDA.Mem.DeviceBuffer}, CuArray{Float32, 1, CUDA.Mem.DeviceBuffer}})(x::CuArray{Float32, 4, CUDA.Mem.DeviceBuffer})\n    @ Flux ~/.julia/packages/Flux/KkC79/src/layers/conv.jl:200\n"
     "  [8] applychain(fs::Tuple{Conv{2, 4, typeof(relu)}, typeof(flatten), Dense{typeof(identity)}}, x::CuArray{Float32, 4, CUDA.Mem.DeviceBuffer})\n    @ Flux ~/.julia/packages/Flux/KkC79/src/layers/basic.jl:51\n"
     "  [9] (::Chain{Tuple{Conv{2, 4, typeof(relu)}, typeof(flatten), Dense{typeof(identity)}}})(x::CuArray{Float32, 4, CUDA.Mem.DeviceBuffer})\n    @ Flux ~/.julia/packages/Flux/KkC79/src/layers/basic.jl:53\n"
     " [10] top-level scope\n    @ /w/predict.jl:30\n", NULL},
    {"flux", "load", "gpu(model) moving the parameters", "FluxML/Flux.jl:src/functor.jl",
     "!" JL_OOM
     "  [1] throw_api_error(res::CUDA.cudaError_enum)\n    @ CUDA ~/.julia/packages/CUDA/35NC6/lib/cudadrv/libcuda.jl:27\n"
     "  [6] adapt_storage(::Flux.FluxCUDAAdaptor, x::Array{Float32, 4})\n    @ Flux ~/.julia/packages/Flux/KkC79/src/functor.jl:220\n"
     " [11] fmap(f::Flux.var\"#141#142\", x::Chain{Tuple{Conv{2, 4, typeof(relu)}, typeof(flatten), Dense{typeof(identity)}}}; exclude::typeof(Flux._isbitsarray))\n    @ Functors ~/.julia/packages/Functors/rlD70/src/functor.jl:49\n"
     " [12] gpu(x::Chain{Tuple{Conv{2, 4, typeof(relu)}, typeof(flatten), Dense{typeof(identity)}}})\n    @ Flux ~/.julia/packages/Flux/KkC79/src/functor.jl:243\n"
     " [13] top-level scope\n    @ /w/train.jl:20\n", "set aside, missed when scored once: Julia 1.6+'s stack below the message is not read; Flux's gpu(x) names no stage"},
    {"flux", "forward", "withgradient -> pullback -> the model's forward", "FluxML/Zygote.jl:src/compiler/interface.jl",
     "!" JL_OOM
     "  [1] throw_api_error(res::CUDA.cudaError_enum)\n    @ CUDA ~/.julia/packages/CUDA/35NC6/lib/cudadrv/libcuda.jl:27\n"
     "  [7] (::Dense{typeof(identity), CuArray{Float32, 2, CUDA.Mem.DeviceBuffer}, CuArray{Float32, 1, CUDA.Mem.DeviceBuffer}})(x::CuArray{Float32, 2, CUDA.Mem.DeviceBuffer})\n    @ Flux ~/.julia/packages/Flux/KkC79/src/layers/basic.jl:172\n"
     "  [8] _pullback(ctx::Zygote.Context{false}, f::Chain{Tuple{Dense{typeof(relu)}, Dense{typeof(identity)}}}, args::CuArray{Float32, 2, CUDA.Mem.DeviceBuffer})\n    @ Zygote ~/.julia/packages/Zygote/SmJK6/src/compiler/interface2.jl:0\n"
     "  [9] pullback(f::Function, cx::Zygote.Context{false}, args::Chain{Tuple{Dense{typeof(relu)}, Dense{typeof(identity)}}})\n    @ Zygote ~/.julia/packages/Zygote/SmJK6/src/compiler/interface.jl:44\n"
     " [10] withgradient(f::Function, args::Chain{Tuple{Dense{typeof(relu)}, Dense{typeof(identity)}}})\n    @ Zygote ~/.julia/packages/Zygote/SmJK6/src/compiler/interface.jl:162\n"
     " [11] top-level scope\n    @ /w/train.jl:70\n", NULL},
};

static const struct audit audit = {audit_rows, sizeof audit_rows / sizeof audit_rows[0], ""};

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
