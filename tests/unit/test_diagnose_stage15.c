/* diagnose's stage from user code, helper diagstage15 (issue 12): an audit
 * of the training, evaluation and inference loops of research repositories
 * (GANs, diffusion trainers and samplers, NeRF, point clouds, optical flow
 * and depth, detection and segmentation, medical segmentation, RL, graph
 * nets, speech, time series, proteins, self-supervised vision,
 * recommendation), whose tracebacks end in the user's own functions rather
 * than in a framework the tool knows. Each row is a short synthetic paste:
 * the repository's own file paths, function names and code lines as its
 * source has them (owner/repo:path@commit beside each row), the torch frames
 * a real traceback shows below them, and PyTorch's OOM message, with the
 * stage docs/diagnose.md gives it. No row was read from a corpus log.
 * `build/tests/test_diagnose_stage15 --table` prints every row with the
 * stage diagnose gives; `--paste N` prints row N's paste. Rows after the
 * "set aside" marker were written after the classifier changes and scored
 * once (the unseen audit of /work/notes/diagstage15.md). */
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

/* The torch frames a real traceback shows under the user's call
 * (pytorch/pytorch: torch/nn/modules/module.py, torch/_tensor.py,
 * torch/autograd/, torch/optim/, torch/utils/data/dataloader.py,
 * torch/utils/_contextlib.py for a function decorated @torch.no_grad() or
 * @torch.inference_mode()). */
#define MOD " @@ torch/nn/modules/module.py | _call_impl | return forward_call(*args, **kwargs)"
#define BWD                                                                                                 \
    " @@ torch/_tensor.py | backward | torch.autograd.backward("                                            \
    " @@ torch/autograd/__init__.py | backward | _engine_run_backward("                                     \
    " @@ torch/autograd/graph.py | _engine_run_backward | return Variable._execution_engine.run_backward("
#define GRAD                                                                                                \
    " @@ torch/autograd/__init__.py | grad | result = _engine_run_backward("                                \
    " @@ torch/autograd/graph.py | _engine_run_backward | return Variable._execution_engine.run_backward("
#define ADAM                                                                                                \
    " @@ torch/optim/optimizer.py | wrapper | out = func(*args, **kwargs)"                                  \
    " @@ torch/optim/adam.py | step | adam("                                                                \
    " @@ torch/optim/adam.py | _multi_tensor_adam | exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs)"
#define ADAMW                                                                                               \
    " @@ torch/optim/optimizer.py | wrapper | out = func(*args, **kwargs)"                                  \
    " @@ torch/optim/adamw.py | step | has_complex = self._init_group("                                     \
    " @@ torch/optim/adamw.py | _init_group | state[\"exp_avg\"] = torch.zeros_like("
#define DL                                                                                                  \
    " @@ torch/utils/data/dataloader.py | __next__ | data = self._next_data()"                              \
    " @@ torch/utils/data/dataloader.py | _next_data | data = self._dataset_fetcher.fetch(index)"
#define CTX " @@ torch/utils/_contextlib.py | decorate_context | return func(*args, **kwargs)"

static const struct audit_row audit_rows[] = {
    /* ---- NeRF: yenchenlin/nerf-pytorch:run_nerf.py@63a5a630 ---- */
    {"nerf-pytorch", "forward", "guard: render -> batchify_rays -> render_rays -> run_network in the training step (render names no stage)", "yenchenlin/nerf-pytorch:run_nerf.py@63a5a630",
     "/w/nerf-pytorch/run_nerf.py | <module> | train()"
     " @@ /w/nerf-pytorch/run_nerf.py | train | rgb, disp, acc, extras = render(H, W, K, chunk=args.chunk, rays=batch_rays,"
     " @@ /w/nerf-pytorch/run_nerf.py | render | all_ret = batchify_rays(rays, chunk, **kwargs)"
     " @@ /w/nerf-pytorch/run_nerf.py | batchify_rays | ret = render_rays(rays_flat[i:i+chunk], **kwargs)"
     " @@ /w/nerf-pytorch/run_nerf.py | render_rays | raw = network_query_fn(pts, viewdirs, network_fn)"
     " @@ /w/nerf-pytorch/run_nerf.py | run_network | outputs_flat = batchify(fn, netchunk)(embedded)"
     " @@ /w/nerf-pytorch/run_nerf.py | ret | return torch.cat([fn(inputs[i:i+chunk]) for i in range(0, inputs.shape[0], chunk)], 0)", NULL},
    {"nerf-pytorch", "backward", "train: loss.backward()", "yenchenlin/nerf-pytorch:run_nerf.py@63a5a630",
     "/w/nerf-pytorch/run_nerf.py | train | loss.backward()" BWD, NULL},
    {"nerf-pytorch", "optimizer", "train: optimizer.step() (Adam)", "yenchenlin/nerf-pytorch:run_nerf.py@63a5a630",
     "/w/nerf-pytorch/run_nerf.py | train | optimizer.step()" ADAM, NULL},
    {"nerf-pytorch", "eval", "train: render_path over the test poses (i_test, render_kwargs_test)", "yenchenlin/nerf-pytorch:run_nerf.py@63a5a630",
     "/w/nerf-pytorch/run_nerf.py | train | render_path(torch.Tensor(poses[i_test]).to(device), hwf, K, args.chunk, render_kwargs_test, gt_imgs=images[i_test], savedir=testsavedir)"
     " @@ /w/nerf-pytorch/run_nerf.py | render_path | rgb, disp, acc, _ = render(H, W, K, chunk=chunk, c2w=c2w[:3,:4], **render_kwargs)"
     " @@ /w/nerf-pytorch/run_nerf.py | render | all_ret = batchify_rays(rays, chunk, **kwargs)"
     " @@ /w/nerf-pytorch/run_nerf.py | batchify_rays | all_ret = {k : torch.cat(all_ret[k], 0) for k in all_ret}",
     "the paste says test only in argument names (poses[i_test], render_kwargs_test, testsavedir); \"test\" is no name part (test.py runs inference) and the no_grad block around the call is not printed"},
    {"nerf-pytorch", "load", "create_nerf: NeRF(...).to(device)", "yenchenlin/nerf-pytorch:run_nerf.py@63a5a630",
     "/w/nerf-pytorch/run_nerf.py | train | render_kwargs_train, render_kwargs_test, start, grad_vars, optimizer = create_nerf(args)"
     " @@ /w/nerf-pytorch/run_nerf.py | create_nerf | input_ch_views=input_ch_views, use_viewdirs=args.use_viewdirs).to(device)"
     " @@ torch/nn/modules/module.py | to | return self._apply(convert)"
     " @@ torch/nn/modules/module.py | _apply | module._apply(fn)", NULL},
    {"nerf-pytorch", "checkpoint", "train: torch.save({... state_dict() ...})", "yenchenlin/nerf-pytorch:run_nerf.py@63a5a630",
     "/w/nerf-pytorch/run_nerf.py | train | torch.save({", NULL},
    /* ---- StyleGAN2-ADA: NVlabs/stylegan2-ada-pytorch@d72cc7d0 training/training_loop.py, training/loss.py, metrics/, generate.py ---- */
    {"stylegan2-ada", "forward", "accumulate_gradients -> run_G -> G_synthesis", "NVlabs/stylegan2-ada-pytorch:training/loss.py@d72cc7d0",
     "/w/stylegan2-ada-pytorch/training/training_loop.py | training_loop | loss.accumulate_gradients(phase=phase.name, real_img=real_img, real_c=real_c, gen_z=gen_z, gen_c=gen_c, sync=sync, gain=gain)"
     " @@ /w/stylegan2-ada-pytorch/training/loss.py | accumulate_gradients | gen_img, _gen_ws = self.run_G(gen_z, gen_c, sync=(sync and not do_Gpl)) # May get synced by Gpl."
     " @@ /w/stylegan2-ada-pytorch/training/loss.py | run_G | img = self.G_synthesis(ws)" MOD
     " @@ /w/stylegan2-ada-pytorch/training/networks.py | forward | img = block(x, img, cur_ws, **block_kwargs)",
     "the call name G_synthesis reads as synthesis (generate, as wavenet's synthesis.py): a GAN generator's synthesis network inside a training step; no mechanism tells it from a synthesis program without masking generation in every training step (TRL rollouts generate inside training_step)"},
    {"stylegan2-ada", "backward", "accumulate_gradients: loss_Gmain.mean().mul(gain).backward()", "NVlabs/stylegan2-ada-pytorch:training/loss.py@d72cc7d0",
     "/w/stylegan2-ada-pytorch/training/training_loop.py | training_loop | loss.accumulate_gradients(phase=phase.name, real_img=real_img, real_c=real_c, gen_z=gen_z, gen_c=gen_c, sync=sync, gain=gain)"
     " @@ /w/stylegan2-ada-pytorch/training/loss.py | accumulate_gradients | loss_Gmain.mean().mul(gain).backward()" BWD, NULL},
    {"stylegan2-ada", "optimizer", "training_loop: phase.opt.step()", "NVlabs/stylegan2-ada-pytorch:training/training_loop.py@d72cc7d0",
     "/w/stylegan2-ada-pytorch/training/training_loop.py | training_loop | phase.opt.step()" ADAM, NULL},
    {"stylegan2-ada", "eval", "calc_metric -> fid50k_full -> compute_feature_stats_for_generator", "NVlabs/stylegan2-ada-pytorch:metrics/metric_main.py@d72cc7d0",
     "/w/stylegan2-ada-pytorch/training/training_loop.py | training_loop | result_dict = metric_main.calc_metric(metric=metric, G=snapshot_data['G_ema'],"
     " @@ /w/stylegan2-ada-pytorch/metrics/metric_main.py | calc_metric | results = _metric_dict[metric](opts)"
     " @@ /w/stylegan2-ada-pytorch/metrics/metric_main.py | fid50k_full | fid = frechet_inception_distance.compute_fid(opts, max_real=None, num_gen=50000)"
     " @@ /w/stylegan2-ada-pytorch/metrics/frechet_inception_distance.py | compute_fid | mu_gen, sigma_gen = metric_utils.compute_feature_stats_for_generator("
     " @@ /w/stylegan2-ada-pytorch/metrics/metric_utils.py | compute_feature_stats_for_generator | features = detector(images, **detector_kwargs)", NULL},
    {"stylegan2-ada", "generate", "generate.py generate_images -> G(z, label, ...)", "NVlabs/stylegan2-ada-pytorch:generate.py@d72cc7d0",
     "/w/stylegan2-ada-pytorch/generate.py | generate_images | img = G(z, label, truncation_psi=truncation_psi, noise_mode=noise_mode)" MOD
     " @@ /w/stylegan2-ada-pytorch/training/networks.py | forward | img = block(x, img, cur_ws, **block_kwargs)", NULL},
    {"stylegan2-ada", "data", "training_loop: next(training_set_iterator)", "NVlabs/stylegan2-ada-pytorch:training/training_loop.py@d72cc7d0",
     "/w/stylegan2-ada-pytorch/training/training_loop.py | training_loop | phase_real_img, phase_real_c = next(training_set_iterator)" DL, NULL},
    /* ---- WGAN-GP: eriklindernoren/PyTorch-GAN:implementations/wgan_gp/wgan_gp.py@36d3c77e ---- */
    {"pytorch-gan", "backward", "compute_gradient_penalty: autograd.grad(create_graph=True)", "eriklindernoren/PyTorch-GAN:implementations/wgan_gp/wgan_gp.py@36d3c77e",
     "/w/PyTorch-GAN/implementations/wgan_gp/wgan_gp.py | <module> | gradient_penalty = compute_gradient_penalty(discriminator, real_imgs.data, fake_imgs.data)"
     " @@ /w/PyTorch-GAN/implementations/wgan_gp/wgan_gp.py | compute_gradient_penalty | gradients = autograd.grad(" GRAD, NULL},
    {"pytorch-gan", "forward", "fake_imgs = generator(z)", "eriklindernoren/PyTorch-GAN:implementations/wgan_gp/wgan_gp.py@36d3c77e",
     "/w/PyTorch-GAN/implementations/wgan_gp/wgan_gp.py | <module> | fake_imgs = generator(z)" MOD
     " @@ /w/PyTorch-GAN/implementations/wgan_gp/wgan_gp.py | forward | img = self.model(z)" MOD
     " @@ torch/nn/modules/container.py | forward | input = module(input)" MOD
     " @@ torch/nn/modules/linear.py | forward | return F.linear(input, self.weight, self.bias)", NULL},
    {"pytorch-gan", "backward", "d_loss.backward()", "eriklindernoren/PyTorch-GAN:implementations/wgan_gp/wgan_gp.py@36d3c77e",
     "/w/PyTorch-GAN/implementations/wgan_gp/wgan_gp.py | <module> | d_loss.backward()" BWD, NULL},
    {"pytorch-gan", "optimizer", "optimizer_G.step()", "eriklindernoren/PyTorch-GAN:implementations/wgan_gp/wgan_gp.py@36d3c77e",
     "/w/PyTorch-GAN/implementations/wgan_gp/wgan_gp.py | <module> | optimizer_G.step()" ADAM, NULL},
    /* ---- lucidrains/denoising-diffusion-pytorch:denoising_diffusion_pytorch/denoising_diffusion_pytorch.py@faed4db2 ---- */
    {"denoising-diffusion", "generate", "Trainer.train -> ema_model.sample -> p_sample_loop -> p_sample", "lucidrains/denoising-diffusion-pytorch:denoising_diffusion_pytorch/denoising_diffusion_pytorch.py@faed4db2",
     "/w/ddpm/train.py | <module> | trainer.train()"
     " @@ denoising_diffusion_pytorch/denoising_diffusion_pytorch.py | train | all_images_list = list(map(lambda n: self.ema.ema_model.sample(batch_size=n), batches))"
     " @@ denoising_diffusion_pytorch/denoising_diffusion_pytorch.py | <lambda> | all_images_list = list(map(lambda n: self.ema.ema_model.sample(batch_size=n), batches))" CTX
     " @@ denoising_diffusion_pytorch/denoising_diffusion_pytorch.py | sample | return sample_fn((batch_size, channels, h, w), return_all_timesteps = return_all_timesteps)" CTX
     " @@ denoising_diffusion_pytorch/denoising_diffusion_pytorch.py | p_sample_loop | img, x_start = self.p_sample(img, t, self_cond)" CTX
     " @@ denoising_diffusion_pytorch/denoising_diffusion_pytorch.py | p_sample | model_mean, _, model_log_variance, x_start = self.p_mean_variance(x = x, t = batched_times, x_self_cond = x_self_cond, clip_denoised = True)"
     " @@ denoising_diffusion_pytorch/denoising_diffusion_pytorch.py | p_mean_variance | preds = self.model_predictions(x, t, x_self_cond)"
     " @@ denoising_diffusion_pytorch/denoising_diffusion_pytorch.py | model_predictions | model_output = self.model(x, t, x_self_cond)" MOD, NULL},
    {"denoising-diffusion", "forward", "Trainer.train -> GaussianDiffusion.forward -> p_losses", "lucidrains/denoising-diffusion-pytorch:denoising_diffusion_pytorch/denoising_diffusion_pytorch.py@faed4db2",
     "denoising_diffusion_pytorch/denoising_diffusion_pytorch.py | train | loss = self.model(data)" MOD
     " @@ denoising_diffusion_pytorch/denoising_diffusion_pytorch.py | forward | return self.p_losses(img, t, *args, **kwargs)"
     " @@ denoising_diffusion_pytorch/denoising_diffusion_pytorch.py | p_losses | model_out = self.model(x, t, x_self_cond)" MOD, NULL},
    {"denoising-diffusion", "backward", "Trainer.train: self.accelerator.backward(loss)", "lucidrains/denoising-diffusion-pytorch:denoising_diffusion_pytorch/denoising_diffusion_pytorch.py@faed4db2",
     "denoising_diffusion_pytorch/denoising_diffusion_pytorch.py | train | self.accelerator.backward(loss)"
     " @@ accelerate/accelerator.py | backward | loss.backward(**kwargs)" BWD, NULL},
    {"denoising-diffusion", "checkpoint", "Trainer.save: torch.save(data, ...)", "lucidrains/denoising-diffusion-pytorch:denoising_diffusion_pytorch/denoising_diffusion_pytorch.py@faed4db2",
     "denoising_diffusion_pytorch/denoising_diffusion_pytorch.py | train | self.save(milestone)"
     " @@ denoising_diffusion_pytorch/denoising_diffusion_pytorch.py | save | torch.save(data, str(self.results_folder / f'model-{milestone}.pt'))", NULL},
    /* ---- openai/guided-diffusion@22e0df81: guided_diffusion/train_util.py, fp16_util.py, gaussian_diffusion.py, scripts/image_sample.py ---- */
    {"guided-diffusion", "forward", "run_step -> forward_backward -> training_losses (forward_backward names the whole step)", "openai/guided-diffusion:guided_diffusion/train_util.py@22e0df81",
     "/w/guided-diffusion/guided_diffusion/train_util.py | run_loop | self.run_step(batch, cond)"
     " @@ /w/guided-diffusion/guided_diffusion/train_util.py | run_step | self.forward_backward(batch, cond)"
     " @@ /w/guided-diffusion/guided_diffusion/train_util.py | forward_backward | losses = compute_losses()"
     " @@ /w/guided-diffusion/guided_diffusion/respace.py | training_losses | return super().training_losses(self._wrap_model(model), *args, **kwargs)"
     " @@ /w/guided-diffusion/guided_diffusion/gaussian_diffusion.py | training_losses | model_output = model(x_t, self._scale_timesteps(t), **model_kwargs)" MOD
     " @@ /w/guided-diffusion/guided_diffusion/unet.py | forward | h = module(h, emb)", NULL},
    {"guided-diffusion", "backward", "forward_backward -> MixedPrecisionTrainer.backward", "openai/guided-diffusion:guided_diffusion/fp16_util.py@22e0df81",
     "/w/guided-diffusion/guided_diffusion/train_util.py | run_step | self.forward_backward(batch, cond)"
     " @@ /w/guided-diffusion/guided_diffusion/train_util.py | forward_backward | self.mp_trainer.backward(loss)"
     " @@ /w/guided-diffusion/guided_diffusion/fp16_util.py | backward | loss.backward()" BWD, NULL},
    {"guided-diffusion", "optimizer", "run_step -> mp_trainer.optimize -> _optimize_normal -> opt.step()", "openai/guided-diffusion:guided_diffusion/fp16_util.py@22e0df81",
     "/w/guided-diffusion/guided_diffusion/train_util.py | run_step | took_step = self.mp_trainer.optimize(self.opt)"
     " @@ /w/guided-diffusion/guided_diffusion/fp16_util.py | optimize | return self._optimize_normal(opt)"
     " @@ /w/guided-diffusion/guided_diffusion/fp16_util.py | _optimize_normal | opt.step()" ADAMW, NULL},
    {"guided-diffusion", "generate", "image_sample.py -> p_sample_loop -> p_sample -> p_mean_variance", "openai/guided-diffusion:guided_diffusion/gaussian_diffusion.py@22e0df81",
     "/w/guided-diffusion/scripts/image_sample.py | main | sample = sample_fn("
     " @@ /w/guided-diffusion/guided_diffusion/gaussian_diffusion.py | p_sample_loop | for sample in self.p_sample_loop_progressive("
     " @@ /w/guided-diffusion/guided_diffusion/gaussian_diffusion.py | p_sample_loop_progressive | out = self.p_sample("
     " @@ /w/guided-diffusion/guided_diffusion/gaussian_diffusion.py | p_sample | out = self.p_mean_variance("
     " @@ /w/guided-diffusion/guided_diffusion/respace.py | p_mean_variance | return super().p_mean_variance(self._wrap_model(model), *args, **kwargs)"
     " @@ /w/guided-diffusion/guided_diffusion/gaussian_diffusion.py | p_mean_variance | model_output = model(x, self._scale_timesteps(t), **model_kwargs)" MOD, NULL},
    /* ---- CompVis/latent-diffusion@a506df57: scripts/txt2img.py, scripts/sample_diffusion.py, ldm/models/diffusion/ddpm.py ---- */
    {"latent-diffusion", "generate", "sample_diffusion.py run -> make_convolutional_sample -> convsample -> p_sample_loop", "CompVis/latent-diffusion:scripts/sample_diffusion.py@a506df57",
     "/w/latent-diffusion/scripts/sample_diffusion.py | run | logs = make_convolutional_sample(model, batch_size=batch_size," CTX
     " @@ /w/latent-diffusion/scripts/sample_diffusion.py | make_convolutional_sample | sample, progrow = convsample(model, shape," CTX
     " @@ /w/latent-diffusion/scripts/sample_diffusion.py | convsample | return model.p_sample_loop(None, shape," CTX
     " @@ /w/latent-diffusion/ldm/models/diffusion/ddpm.py | p_sample_loop | img = self.p_sample(img, cond, ts,", NULL},
    {"latent-diffusion", "load", "txt2img load_model_from_config: model.cuda()", "CompVis/latent-diffusion:scripts/txt2img.py@a506df57",
     "/w/latent-diffusion/scripts/txt2img.py | <module> | model = load_model_from_config(config, \"models/ldm/text2img-large/model.ckpt\")  # TODO: check path"
     " @@ /w/latent-diffusion/scripts/txt2img.py | load_model_from_config | model.cuda()"
     " @@ torch/nn/modules/module.py | cuda | return self._apply(lambda t: t.cuda(device))", NULL},
    /* ---- yanx27/Pointnet_Pointnet2_pytorch@eb64fe0b: train_classification.py, models/pointnet2_utils.py ---- */
    {"pointnet2", "forward", "guard: classifier -> sa1 -> sample_and_group -> square_distance (a point sampler is no generation)", "yanx27/Pointnet_Pointnet2_pytorch:models/pointnet2_utils.py@eb64fe0b",
     "/w/Pointnet_Pointnet2_pytorch/train_classification.py | main | pred, trans_feat = classifier(points)" MOD
     " @@ /w/Pointnet_Pointnet2_pytorch/models/pointnet2_cls_ssg.py | forward | l1_xyz, l1_points = self.sa1(xyz, norm)" MOD
     " @@ /w/Pointnet_Pointnet2_pytorch/models/pointnet2_utils.py | forward | new_xyz, new_points = sample_and_group(self.npoint, self.radius, self.nsample, xyz, points)"
     " @@ /w/Pointnet_Pointnet2_pytorch/models/pointnet2_utils.py | sample_and_group | idx = query_ball_point(radius, nsample, xyz, new_xyz)"
     " @@ /w/Pointnet_Pointnet2_pytorch/models/pointnet2_utils.py | query_ball_point | sqrdists = square_distance(new_xyz, xyz)"
     " @@ /w/Pointnet_Pointnet2_pytorch/models/pointnet2_utils.py | square_distance | dist = -2 * torch.matmul(src, dst.permute(0, 2, 1))", NULL},
    {"pointnet2", "eval", "main -> test(classifier.eval(), testDataLoader)", "yanx27/Pointnet_Pointnet2_pytorch:train_classification.py@eb64fe0b",
     "/w/Pointnet_Pointnet2_pytorch/train_classification.py | main | instance_acc, class_acc = test(classifier.eval(), testDataLoader, num_class=num_class)"
     " @@ /w/Pointnet_Pointnet2_pytorch/train_classification.py | test | pred, _ = classifier(points)" MOD
     " @@ /w/Pointnet_Pointnet2_pytorch/models/pointnet2_cls_ssg.py | forward | l1_xyz, l1_points = self.sa1(xyz, norm)", NULL},
    {"pointnet2", "data", "for ... in tqdm(enumerate(trainDataLoader, 0), ...)", "yanx27/Pointnet_Pointnet2_pytorch:train_classification.py@eb64fe0b",
     "/w/Pointnet_Pointnet2_pytorch/train_classification.py | main | for batch_id, (points, target) in tqdm(enumerate(trainDataLoader, 0), total=len(trainDataLoader), smoothing=0.9):"
     " @@ tqdm/std.py | __iter__ | for obj in iterable:" DL, NULL},
    /* ---- princeton-vl/RAFT@2888e15a: train.py, core/raft.py, core/corr.py, evaluate.py ---- */
    {"raft", "forward", "model -> RAFT.forward -> CorrBlock(...).__init__ -> corr (a constructor inside forward)", "princeton-vl/RAFT:core/corr.py@2888e15a",
     "/w/RAFT/train.py | train | flow_predictions = model(image1, image2, iters=args.iters)" MOD
     " @@ torch/nn/parallel/data_parallel.py | forward | return self.module(*inputs[0], **kwargs[0])" MOD
     " @@ /w/RAFT/core/raft.py | forward | corr_fn = CorrBlock(fmap1, fmap2, radius=self.args.corr_radius)"
     " @@ /w/RAFT/core/corr.py | __init__ | corr = CorrBlock.corr(fmap1, fmap2)"
     " @@ /w/RAFT/core/corr.py | corr | corr = torch.matmul(fmap1.transpose(1,2), fmap2)", NULL},
    {"raft", "backward", "scaler.scale(loss).backward()", "princeton-vl/RAFT:train.py@2888e15a",
     "/w/RAFT/train.py | train | scaler.scale(loss).backward()" BWD, NULL},
    {"raft", "optimizer", "scaler.step(optimizer) (AdamW)", "princeton-vl/RAFT:train.py@2888e15a",
     "/w/RAFT/train.py | train | scaler.step(optimizer)"
     " @@ torch/cuda/amp/grad_scaler.py | step | retval = self._maybe_opt_step(optimizer, optimizer_state, *args, **kwargs)"
     " @@ torch/cuda/amp/grad_scaler.py | _maybe_opt_step | retval = optimizer.step(*args, **kwargs)" ADAMW, NULL},
    {"raft", "eval", "train -> evaluate.validate_chairs", "princeton-vl/RAFT:evaluate.py@2888e15a",
     "/w/RAFT/train.py | train | results.update(evaluate.validate_chairs(model.module))" CTX
     " @@ /w/RAFT/evaluate.py | validate_chairs | _, flow_pr = model(image1, image2, iters=iters, test_mode=True)" MOD
     " @@ /w/RAFT/core/raft.py | forward | corr = corr_fn(coords1) # index correlation volume", NULL},
    /* ---- nianticlabs/monodepth2:trainer.py@b676244e ---- */
    {"monodepth2", "forward", "run_epoch -> process_batch -> models['encoder']", "nianticlabs/monodepth2:trainer.py@b676244e",
     "/w/monodepth2/trainer.py | run_epoch | outputs, losses = self.process_batch(inputs)"
     " @@ /w/monodepth2/trainer.py | process_batch | features = self.models[\"encoder\"](inputs[\"color_aug\", 0, 0])" MOD
     " @@ /w/monodepth2/networks/resnet_encoder.py | forward | self.features.append(self.encoder.layer1(self.encoder.maxpool(self.features[-1])))", NULL},
    {"monodepth2", "forward", "process_batch -> compute_losses -> compute_reprojection_loss -> ssim", "nianticlabs/monodepth2:trainer.py@b676244e",
     "/w/monodepth2/trainer.py | process_batch | losses = self.compute_losses(inputs, outputs)"
     " @@ /w/monodepth2/trainer.py | compute_losses | reprojection_losses.append(self.compute_reprojection_loss(pred, target))"
     " @@ /w/monodepth2/trainer.py | compute_reprojection_loss | ssim_loss = self.ssim(pred, target).mean(1, True)" MOD, NULL},
    {"monodepth2", "forward", "process_batch -> generate_images_pred -> F.grid_sample (view synthesis inside the loss)", "nianticlabs/monodepth2:trainer.py@b676244e",
     "/w/monodepth2/trainer.py | run_epoch | outputs, losses = self.process_batch(inputs)"
     " @@ /w/monodepth2/trainer.py | process_batch | self.generate_images_pred(inputs, outputs)"
     " @@ /w/monodepth2/trainer.py | generate_images_pred | outputs[(\"color\", frame_id, scale)] = F.grid_sample(",
     "generate_images names generation by verb and object; the frames above (run_epoch -> process_batch) name no training step"},
    {"monodepth2", "eval", "run_epoch -> val -> process_batch", "nianticlabs/monodepth2:trainer.py@b676244e",
     "/w/monodepth2/trainer.py | run_epoch | self.val()"
     " @@ /w/monodepth2/trainer.py | val | outputs, losses = self.process_batch(inputs)"
     " @@ /w/monodepth2/trainer.py | process_batch | features = self.models[\"encoder\"](inputs[\"color_aug\", 0, 0])" MOD, NULL},
    /* ---- facebookresearch/detr@29901c51: main.py, engine.py, models/detr.py, models/matcher.py, util/misc.py ---- */
    {"detr", "forward", "train_one_epoch -> criterion -> HungarianMatcher (cdist)", "facebookresearch/detr:models/matcher.py@29901c51",
     "/w/detr/engine.py | train_one_epoch | loss_dict = criterion(outputs, targets)" MOD
     " @@ /w/detr/models/detr.py | forward | indices = self.matcher(outputs_without_aux, targets)" MOD CTX
     " @@ /w/detr/models/matcher.py | forward | cost_bbox = torch.cdist(out_bbox, tgt_bbox, p=1)", NULL},
    {"detr", "eval", "main -> evaluate(model, criterion, postprocessors, ...)", "facebookresearch/detr:engine.py@29901c51",
     "/w/detr/main.py | main | test_stats, coco_evaluator = evaluate(" CTX
     " @@ /w/detr/engine.py | evaluate | outputs = model(samples)" MOD
     " @@ /w/detr/models/detr.py | forward | hs = self.transformer(self.input_proj(src), mask, self.query_embed.weight, pos[-1])[0]", NULL},
    {"detr", "data", "train_one_epoch: metric_logger.log_every(data_loader, ...)", "facebookresearch/detr:util/misc.py@29901c51",
     "/w/detr/engine.py | train_one_epoch | for samples, targets in metric_logger.log_every(data_loader, print_freq, header):"
     " @@ /w/detr/util/misc.py | log_every | for obj in iterable:" DL, NULL},
    {"detr", "data", "train_one_epoch: samples = samples.to(device)", "facebookresearch/detr:engine.py@29901c51",
     "/w/detr/main.py | main | train_stats = train_one_epoch("
     " @@ /w/detr/engine.py | train_one_epoch | samples = samples.to(device)"
     " @@ /w/detr/util/misc.py | to | cast_tensor = self.tensors.to(device)",
     "the innermost frame is the user's NestedTensor.to (\"cast_tensor = self.tensors.to(device)\"): the data move is the caller's line, and \"tensors\" is no data name (a loader's state dict is tensors too)"},
    /* ---- milesial/Pytorch-UNet@21d7850f: train.py, evaluate.py, predict.py, utils/dice_score.py ---- */
    {"pytorch-unet", "forward", "train_model: loss += dice_loss(...)", "milesial/Pytorch-UNet:utils/dice_score.py@21d7850f",
     "/w/Pytorch-UNet/train.py | train_model | loss += dice_loss("
     " @@ /w/Pytorch-UNet/utils/dice_score.py | dice_loss | return 1 - fn(input, target, reduce_batch_first=True)"
     " @@ /w/Pytorch-UNet/utils/dice_score.py | multiclass_dice_coeff | return dice_coeff(input.flatten(0, 1), target.flatten(0, 1), reduce_batch_first, epsilon)", NULL},
    {"pytorch-unet", "eval", "train_model -> evaluate(model, val_loader, ...)", "milesial/Pytorch-UNet:evaluate.py@21d7850f",
     "/w/Pytorch-UNet/train.py | train_model | val_score = evaluate(model, val_loader, device, amp)" CTX
     " @@ /w/Pytorch-UNet/evaluate.py | evaluate | mask_pred = net(image)" MOD
     " @@ /w/Pytorch-UNet/unet/unet_model.py | forward | x = self.up1(x5, x4)", NULL},
    {"pytorch-unet", "backward", "grad_scaler.scale(loss).backward()", "milesial/Pytorch-UNet:train.py@21d7850f",
     "/w/Pytorch-UNet/train.py | train_model | grad_scaler.scale(loss).backward()" BWD, NULL},
    {"pytorch-unet", "forward", "predict.py predict_img -> net(img)", "milesial/Pytorch-UNet:predict.py@21d7850f",
     "/w/Pytorch-UNet/predict.py | <module> | mask = predict_img(net=net,"
     " @@ /w/Pytorch-UNet/predict.py | predict_img | output = net(img).cpu()" MOD
     " @@ /w/Pytorch-UNet/unet/unet_model.py | forward | x = self.up1(x5, x4)", NULL},
    {"pytorch-unet", "data", "train_model: images = images.to(device=device, ...)", "milesial/Pytorch-UNet:train.py@21d7850f",
     "/w/Pytorch-UNet/train.py | <module> | train_model("
     " @@ /w/Pytorch-UNet/train.py | train_model | images = images.to(device=device, dtype=torch.float32, memory_format=torch.channels_last)", NULL},
    /* ---- VainF/DeepLabV3Plus-Pytorch:main.py@4e1087de ---- */
    {"deeplabv3plus", "eval", "main -> validate(opts, model, val_loader, ...)", "VainF/DeepLabV3Plus-Pytorch:main.py@4e1087de",
     "/w/DeepLabV3Plus-Pytorch/main.py | main | val_score, ret_samples = validate("
     " @@ /w/DeepLabV3Plus-Pytorch/main.py | validate | outputs = model(images)" MOD
     " @@ /w/DeepLabV3Plus-Pytorch/network/utils.py | forward | features = self.backbone(x)", NULL},
    {"deeplabv3plus", "checkpoint", "main -> save_ckpt -> torch.save", "VainF/DeepLabV3Plus-Pytorch:main.py@4e1087de",
     "/w/DeepLabV3Plus-Pytorch/main.py | main | save_ckpt('checkpoints/latest_%s_%s_os%d.pth' %"
     " @@ /w/DeepLabV3Plus-Pytorch/main.py | save_ckpt | torch.save({", NULL},
    {"deeplabv3plus", "load", "main: torch.load(opts.ckpt) then model.to", "VainF/DeepLabV3Plus-Pytorch:main.py@4e1087de",
     "/w/DeepLabV3Plus-Pytorch/main.py | main | model.load_state_dict(checkpoint[\"model_state\"])"
     " @@ torch/nn/modules/module.py | load_state_dict | load(self, state_dict)", NULL},
    /* ---- vwxyzjn/cleanrl:cleanrl/ppo_atari.py@fe8d8a03 ---- */
    {"cleanrl", "forward", "rollout: agent.get_action_and_value(next_obs) under no_grad", "vwxyzjn/cleanrl:cleanrl/ppo_atari.py@fe8d8a03",
     "/w/cleanrl/cleanrl/ppo_atari.py | <module> | action, logprob, _, value = agent.get_action_and_value(next_obs)"
     " @@ /w/cleanrl/cleanrl/ppo_atari.py | get_action_and_value | hidden = self.network(x / 255.0)" MOD
     " @@ torch/nn/modules/container.py | forward | input = module(input)" MOD
     " @@ torch/nn/modules/conv.py | forward | return self._conv_forward(input, self.weight, self.bias)", NULL},
    {"cleanrl", "backward", "PPO update: loss.backward()", "vwxyzjn/cleanrl:cleanrl/ppo_atari.py@fe8d8a03",
     "/w/cleanrl/cleanrl/ppo_atari.py | <module> | loss.backward()" BWD, NULL},
    /* ---- ikostrikov/pytorch-a2c-ppo-acktr-gail@41332b78: main.py, a2c_ppo_acktr/algo/ppo.py, model.py, storage.py, evaluation.py ---- */
    {"a2c-ppo", "forward", "rollout: actor_critic.act(...) -> base", "ikostrikov/pytorch-a2c-ppo-acktr-gail:a2c_ppo_acktr/model.py@41332b78",
     "/w/pytorch-a2c-ppo-acktr-gail/main.py | main | value, action, action_log_prob, recurrent_hidden_states = actor_critic.act("
     " @@ /w/pytorch-a2c-ppo-acktr-gail/a2c_ppo_acktr/model.py | act | value, actor_features, rnn_hxs = self.base(inputs, rnn_hxs, masks)" MOD
     " @@ /w/pytorch-a2c-ppo-acktr-gail/a2c_ppo_acktr/model.py | forward | x = self.main(inputs / 255.0)", NULL},
    {"a2c-ppo", "forward", "agent.update -> evaluate_actions (the PPO step's forward, no evaluation)", "ikostrikov/pytorch-a2c-ppo-acktr-gail:a2c_ppo_acktr/algo/ppo.py@41332b78",
     "/w/pytorch-a2c-ppo-acktr-gail/main.py | main | value_loss, action_loss, dist_entropy = agent.update(rollouts)"
     " @@ /w/pytorch-a2c-ppo-acktr-gail/a2c_ppo_acktr/algo/ppo.py | update | values, action_log_probs, dist_entropy, _ = self.actor_critic.evaluate_actions("
     " @@ /w/pytorch-a2c-ppo-acktr-gail/a2c_ppo_acktr/model.py | evaluate_actions | value, actor_features, rnn_hxs = self.base(inputs, rnn_hxs, masks)" MOD
     " @@ /w/pytorch-a2c-ppo-acktr-gail/a2c_ppo_acktr/model.py | forward | x = self.main(inputs / 255.0)", NULL},
    {"a2c-ppo", "backward", "ppo.update: (...).backward()", "ikostrikov/pytorch-a2c-ppo-acktr-gail:a2c_ppo_acktr/algo/ppo.py@41332b78",
     "/w/pytorch-a2c-ppo-acktr-gail/main.py | main | value_loss, action_loss, dist_entropy = agent.update(rollouts)"
     " @@ /w/pytorch-a2c-ppo-acktr-gail/a2c_ppo_acktr/algo/ppo.py | update | dist_entropy * self.entropy_coef).backward()" BWD, NULL},
    {"a2c-ppo", "eval", "main -> evaluation.evaluate -> actor_critic.act", "ikostrikov/pytorch-a2c-ppo-acktr-gail:evaluation.py@41332b78",
     "/w/pytorch-a2c-ppo-acktr-gail/main.py | main | evaluate(actor_critic, obs_rms, args.env_name, args.seed,"
     " @@ /w/pytorch-a2c-ppo-acktr-gail/evaluation.py | evaluate | _, action, _, eval_recurrent_hidden_states = actor_critic.act("
     " @@ /w/pytorch-a2c-ppo-acktr-gail/a2c_ppo_acktr/model.py | act | value, actor_features, rnn_hxs = self.base(inputs, rnn_hxs, masks)" MOD, NULL},
    {"a2c-ppo", "data", "ppo.update: for sample in data_generator -> feed_forward_generator (rollout minibatches)", "ikostrikov/pytorch-a2c-ppo-acktr-gail:a2c_ppo_acktr/storage.py@41332b78",
     "/w/pytorch-a2c-ppo-acktr-gail/a2c_ppo_acktr/algo/ppo.py | update | for sample in data_generator:"
     " @@ /w/pytorch-a2c-ppo-acktr-gail/a2c_ppo_acktr/storage.py | feed_forward_generator | obs_batch = self.obs[:-1].view(-1, *self.obs.size()[2:])[indices]",
     "feed_forward_generator reads as forward by its name part; the code line indexes the rollout storage with no data word"},
    /* ---- jik876/hifi-gan@4769534d: train.py, models.py, inference.py ---- */
    {"hifi-gan", "forward", "train: y_g_hat = generator(x) -> ups", "jik876/hifi-gan:train.py@4769534d",
     "/w/hifi-gan/train.py | train | y_g_hat = generator(x)" MOD
     " @@ /w/hifi-gan/models.py | forward | x = self.ups[i](x)" MOD
     " @@ torch/nn/modules/conv.py | forward | return F.conv_transpose1d(", NULL},
    {"hifi-gan", "backward", "train: loss_gen_all.backward()", "jik876/hifi-gan:train.py@4769534d",
     "/w/hifi-gan/train.py | train | loss_gen_all.backward()" BWD, NULL},
    {"hifi-gan", "data", "train: x.to(device, non_blocking=True)", "jik876/hifi-gan:train.py@4769534d",
     "/w/hifi-gan/train.py | main | train(0, a, h)"
     " @@ /w/hifi-gan/train.py | train | x = torch.autograd.Variable(x.to(device, non_blocking=True))", NULL},
    {"hifi-gan", "forward", "inference.py inference -> generator(x)", "jik876/hifi-gan:inference.py@4769534d",
     "/w/hifi-gan/inference.py | main | inference(a)"
     " @@ /w/hifi-gan/inference.py | inference | y_g_hat = generator(x)" MOD
     " @@ /w/hifi-gan/models.py | forward | x = self.ups[i](x)", NULL},
    /* ---- NVIDIA/tacotron2@185cd24e: train.py, model.py ---- */
    {"tacotron2", "eval", "train -> validate(model, criterion, valset, ...)", "NVIDIA/tacotron2:train.py@185cd24e",
     "/w/tacotron2/train.py | train | validate(model, criterion, valset, iteration,"
     " @@ /w/tacotron2/train.py | validate | y_pred = model(x)" MOD
     " @@ /w/tacotron2/model.py | forward | mel_outputs, gate_outputs, alignments = self.decoder(", NULL},
    {"tacotron2", "forward", "train -> Tacotron2.forward -> Decoder.forward -> decode (teacher-forced decoding in the training forward)", "NVIDIA/tacotron2:model.py@185cd24e",
     "/w/tacotron2/train.py | train | y_pred = model(x)" MOD
     " @@ /w/tacotron2/model.py | forward | mel_outputs, gate_outputs, alignments = self.decoder(" MOD
     " @@ /w/tacotron2/model.py | forward | mel_output, gate_output, attention_weights = self.decode("
     " @@ /w/tacotron2/model.py | decode | self.attention_hidden, self.attention_cell = self.attention_rnn(" MOD
     " @@ torch/nn/modules/rnn.py | forward | ret = _VF.lstm_cell(",
     "decode names generation (whisper, translators); here it is a step of Decoder.forward in training. Masking generation under any forward would also mask KV-cache cues inside a generating model's forward"},
    {"tacotron2", "checkpoint", "train -> save_checkpoint -> torch.save", "NVIDIA/tacotron2:train.py@185cd24e",
     "/w/tacotron2/train.py | train | save_checkpoint(model, optimizer, learning_rate, iteration,"
     " @@ /w/tacotron2/train.py | save_checkpoint | torch.save({'iteration': iteration,", NULL},
    {"tacotron2", "load", "train -> load_model -> Tacotron2(hparams).cuda()", "NVIDIA/tacotron2:train.py@185cd24e",
     "/w/tacotron2/train.py | train | model = load_model(hparams)"
     " @@ /w/tacotron2/train.py | load_model | model = Tacotron2(hparams).cuda()"
     " @@ torch/nn/modules/module.py | cuda | return self._apply(lambda t: t.cuda(device))", NULL},
    /* ---- thuml/Time-Series-Library@4e938a17: exp/exp_long_term_forecasting.py, run.py, models/Autoformer.py ---- */
    {"time-series-library", "eval", "train -> vali(vali_data, vali_loader, criterion)", "thuml/Time-Series-Library:exp/exp_long_term_forecasting.py@4e938a17",
     "/w/Time-Series-Library/exp/exp_long_term_forecasting.py | train | vali_loss = self.vali(vali_data, vali_loader, criterion)"
     " @@ /w/Time-Series-Library/exp/exp_long_term_forecasting.py | vali | outputs = self.model(batch_x, batch_x_mark, dec_inp, batch_y_mark)" MOD
     " @@ /w/Time-Series-Library/models/Autoformer.py | forward | dec_out = self.forecast(x_enc, x_mark_enc, x_dec, x_mark_dec)"
     " @@ /w/Time-Series-Library/models/Autoformer.py | forecast | enc_out, attns = self.encoder(enc_out, attn_mask=None)", NULL},
    {"time-series-library", "forward", "train -> self.model(batch_x, ...) -> forecast -> encoder", "thuml/Time-Series-Library:exp/exp_long_term_forecasting.py@4e938a17",
     "/w/Time-Series-Library/run.py | <module> | exp.train(setting)"
     " @@ /w/Time-Series-Library/exp/exp_long_term_forecasting.py | train | outputs = self.model(batch_x, batch_x_mark, dec_inp, batch_y_mark)" MOD
     " @@ /w/Time-Series-Library/models/Autoformer.py | forward | dec_out = self.forecast(x_enc, x_mark_enc, x_dec, x_mark_dec)"
     " @@ /w/Time-Series-Library/models/Autoformer.py | forecast | enc_out, attns = self.encoder(enc_out, attn_mask=None)", NULL},
    {"time-series-library", "optimizer", "train: model_optim.step()", "thuml/Time-Series-Library:exp/exp_long_term_forecasting.py@4e938a17",
     "/w/Time-Series-Library/exp/exp_long_term_forecasting.py | train | model_optim.step()" ADAM, NULL},
    {"time-series-library", "eval", "run.py exp.test(setting) -> test", "thuml/Time-Series-Library:run.py@4e938a17",
     "/w/Time-Series-Library/run.py | <module> | exp.test(setting)"
     " @@ /w/Time-Series-Library/exp/exp_long_term_forecasting.py | test | outputs = self.model(batch_x, batch_x_mark, dec_inp, batch_y_mark)" MOD
     " @@ /w/Time-Series-Library/models/Autoformer.py | forward | dec_out = self.forecast(x_enc, x_mark_enc, x_dec, x_mark_dec)", NULL},
    /* ---- facebookresearch/esm:scripts/extract.py@2b369911 ---- */
    {"esm", "forward", "extract.py run -> model(toks, repr_layers=...)", "facebookresearch/esm:scripts/extract.py@2b369911",
     "/w/esm/scripts/extract.py | run | out = model(toks, repr_layers=repr_layers, return_contacts=return_contacts)" MOD
     " @@ esm/model/esm2.py | forward | x, attn = layer(" MOD
     " @@ esm/modules.py | forward | x, attn = self.self_attn(", NULL},
    {"esm", "load", "extract.py run -> pretrained.load_model_and_alphabet", "facebookresearch/esm:scripts/extract.py@2b369911",
     "/w/esm/scripts/extract.py | run | model, alphabet = pretrained.load_model_and_alphabet(args.model_location)"
     " @@ esm/pretrained.py | load_model_and_alphabet | return load_model_and_alphabet_local(model_name)", NULL},
    {"esm", "data", "extract.py run: toks.to(device=\"cuda\", non_blocking=True)", "facebookresearch/esm:scripts/extract.py@2b369911",
     "/w/esm/scripts/extract.py | main | run(args)"
     " @@ /w/esm/scripts/extract.py | run | toks = toks.to(device=\"cuda\", non_blocking=True)", NULL},
    /* ---- karpathy/nanoGPT@3adf61e1: train.py, model.py, sample.py ---- */
    {"nanogpt", "eval", "estimate_loss (@torch.no_grad) -> model(X, Y)", "karpathy/nanoGPT:train.py@3adf61e1",
     "/w/nanoGPT/train.py | <module> | losses = estimate_loss()" CTX
     " @@ /w/nanoGPT/train.py | estimate_loss | logits, loss = model(X, Y)" MOD
     " @@ /w/nanoGPT/model.py | forward | x = block(x)" MOD
     " @@ /w/nanoGPT/model.py | forward | x = x + self.attn(self.ln_1(x))", NULL},
    {"nanogpt", "forward", "training step: logits, loss = model(X, Y)", "karpathy/nanoGPT:train.py@3adf61e1",
     "/w/nanoGPT/train.py | <module> | logits, loss = model(X, Y)" MOD
     " @@ /w/nanoGPT/model.py | forward | x = block(x)" MOD
     " @@ /w/nanoGPT/model.py | forward | x = x + self.attn(self.ln_1(x))", NULL},
    {"nanogpt", "data", "get_batch: pin_memory().to(device, non_blocking=True)", "karpathy/nanoGPT:train.py@3adf61e1",
     "/w/nanoGPT/train.py | <module> | X, Y = get_batch('train') # fetch the very first batch"
     " @@ /w/nanoGPT/train.py | get_batch | x, y = x.pin_memory().to(device, non_blocking=True), y.pin_memory().to(device, non_blocking=True)", NULL},
    {"nanogpt", "optimizer", "scaler.step(optimizer)", "karpathy/nanoGPT:train.py@3adf61e1",
     "/w/nanoGPT/train.py | <module> | scaler.step(optimizer)"
     " @@ torch/cuda/amp/grad_scaler.py | step | retval = self._maybe_opt_step(optimizer, optimizer_state, *args, **kwargs)"
     " @@ torch/cuda/amp/grad_scaler.py | _maybe_opt_step | retval = optimizer.step(*args, **kwargs)" ADAMW, NULL},
    {"nanogpt", "generate", "sample.py: model.generate(x, max_new_tokens, ...)", "karpathy/nanoGPT:sample.py@3adf61e1",
     "/w/nanoGPT/sample.py | <module> | y = model.generate(x, max_new_tokens, temperature=temperature, top_k=top_k)" CTX
     " @@ /w/nanoGPT/model.py | generate | logits, _ = self(idx_cond)" MOD, NULL},
    /* ---- facebookresearch/mae@efb2a806: engine_pretrain.py, util/misc.py, models_mae.py, main_pretrain.py ---- */
    {"mae", "backward", "loss_scaler(loss, optimizer, ...) -> NativeScalerWithGradNormCount.__call__", "facebookresearch/mae:util/misc.py@efb2a806",
     "/w/mae/engine_pretrain.py | train_one_epoch | loss_scaler(loss, optimizer, parameters=model.parameters(),"
     " @@ /w/mae/util/misc.py | __call__ | self._scaler.scale(loss).backward(create_graph=create_graph)" BWD, NULL},
    {"mae", "forward", "train_one_epoch -> model -> forward_encoder -> blk", "facebookresearch/mae:models_mae.py@efb2a806",
     "/w/mae/engine_pretrain.py | train_one_epoch | loss, _, _ = model(samples, mask_ratio=args.mask_ratio)" MOD
     " @@ /w/mae/models_mae.py | forward | latent, mask, ids_restore = self.forward_encoder(imgs, mask_ratio)"
     " @@ /w/mae/models_mae.py | forward_encoder | x = blk(x)" MOD, NULL},
    {"mae", "checkpoint", "main -> misc.save_model -> save_on_master -> torch.save", "facebookresearch/mae:util/misc.py@efb2a806",
     "/w/mae/main_pretrain.py | main | misc.save_model("
     " @@ /w/mae/util/misc.py | save_model | save_on_master(to_save, checkpoint_path)"
     " @@ /w/mae/util/misc.py | save_on_master | torch.save(*args, **kwargs)", NULL},
    /* ---- facebookresearch/dino:main_dino.py@7c446df5 ---- */
    {"dino", "forward", "train_one_epoch: dino_loss(student_output, teacher_output, epoch)", "facebookresearch/dino:main_dino.py@7c446df5",
     "/w/dino/main_dino.py | train_one_epoch | loss = dino_loss(student_output, teacher_output, epoch)" MOD
     " @@ /w/dino/main_dino.py | forward | loss = torch.sum(-q * F.log_softmax(student_out[v], dim=-1), dim=-1)", NULL},
    {"dino", "optimizer", "fp16_scaler.step(optimizer)", "facebookresearch/dino:main_dino.py@7c446df5",
     "/w/dino/main_dino.py | train_one_epoch | fp16_scaler.step(optimizer)"
     " @@ torch/cuda/amp/grad_scaler.py | step | retval = self._maybe_opt_step(optimizer, optimizer_state, *args, **kwargs)", NULL},
    {"dino", "data", "train_one_epoch: [im.cuda(non_blocking=True) for im in images]", "facebookresearch/dino:main_dino.py@7c446df5",
     "/w/dino/main_dino.py | train_dino | train_stats = train_one_epoch(student, teacher, teacher_without_ddp, dino_loss,"
     " @@ /w/dino/main_dino.py | train_one_epoch | images = [im.cuda(non_blocking=True) for im in images]"
     " @@ /w/dino/main_dino.py | <listcomp> | images = [im.cuda(non_blocking=True) for im in images]", NULL},
    /* ---- mlfoundations/open_clip@89fb801f: src/open_clip_train/train.py ---- */
    {"open_clip", "backward", "_train_step_eager -> backward(total_loss, scaler)", "mlfoundations/open_clip:src/open_clip_train/train.py@89fb801f",
     "open_clip_train/train.py | _train_step_eager | backward(total_loss, scaler)"
     " @@ open_clip_train/train.py | backward | scaler.scale(total_loss).backward()" BWD, NULL},
    {"open_clip", "eval", "evaluate -> task(batch)", "mlfoundations/open_clip:src/open_clip_train/train.py@89fb801f",
     "open_clip_train/main.py | main | evaluate(task, data, completed_epoch, args, tb_writer=writer, tokenizer=tokenizer)"
     " @@ open_clip_train/train.py | evaluate | model_out = task(batch)" MOD
     " @@ open_clip/model.py | forward | image_features = self.encode_image(image, normalize=True) if image is not None else None", NULL},
    {"open_clip", "eval", "zero_shot_eval -> build_zero_shot_classifier", "mlfoundations/open_clip:src/open_clip_train/zero_shot.py@89fb801f",
     "open_clip_train/train.py | zero_shot_eval_all | zero_shot_metrics.update(zero_shot_eval(task, data, epoch, args, tokenizer=tokenizer))"
     " @@ open_clip_train/zero_shot.py | zero_shot_eval | classifier = build_zero_shot_classifier("
     " @@ open_clip/zero_shot_classifier.py | build_zero_shot_classifier | class_embeddings = model.encode_text(texts, normalize=True)", NULL},
    /* ---- XPixelGroup/BasicSR@8d56e3a0: basicsr/train.py, models/sr_model.py, models/base_model.py, data/prefetch_dataloader.py ---- */
    {"basicsr", "forward", "train_pipeline -> optimize_parameters -> net_g(self.lq)", "XPixelGroup/BasicSR:basicsr/models/sr_model.py@8d56e3a0",
     "/w/BasicSR/basicsr/train.py | train_pipeline | model.optimize_parameters(current_iter)"
     " @@ /w/BasicSR/basicsr/models/sr_model.py | optimize_parameters | self.output = self.net_g(self.lq)" MOD
     " @@ /w/BasicSR/basicsr/archs/rrdbnet_arch.py | forward | body_feat = self.conv_body(self.body(feat))", NULL},
    {"basicsr", "forward", "optimize_parameters -> cri_perceptual -> vgg", "XPixelGroup/BasicSR:basicsr/models/sr_model.py@8d56e3a0",
     "/w/BasicSR/basicsr/models/sr_model.py | optimize_parameters | l_percep, l_style = self.cri_perceptual(self.output, self.gt)" MOD
     " @@ /w/BasicSR/basicsr/losses/basic_loss.py | forward | x_features = self.vgg(x)" MOD
     " @@ /w/BasicSR/basicsr/archs/vgg_arch.py | forward | x = layer(x)", NULL},
    {"basicsr", "backward", "optimize_parameters: l_total.backward()", "XPixelGroup/BasicSR:basicsr/models/sr_model.py@8d56e3a0",
     "/w/BasicSR/basicsr/train.py | train_pipeline | model.optimize_parameters(current_iter)"
     " @@ /w/BasicSR/basicsr/models/sr_model.py | optimize_parameters | l_total.backward()" BWD, NULL},
    {"basicsr", "eval", "validation -> nondist_validation -> test -> net_g_ema", "XPixelGroup/BasicSR:basicsr/models/base_model.py@8d56e3a0",
     "/w/BasicSR/basicsr/train.py | train_pipeline | model.validation(val_loader, current_iter, tb_logger, opt['val']['save_img'])"
     " @@ /w/BasicSR/basicsr/models/base_model.py | validation | self.nondist_validation(dataloader, current_iter, tb_logger, save_img)"
     " @@ /w/BasicSR/basicsr/models/sr_model.py | nondist_validation | self.test()"
     " @@ /w/BasicSR/basicsr/models/sr_model.py | test | self.output = self.net_g_ema(self.lq)" MOD, NULL},
    {"basicsr", "data", "feed_data: data['lq'].to(self.device)", "XPixelGroup/BasicSR:basicsr/models/sr_model.py@8d56e3a0",
     "/w/BasicSR/basicsr/train.py | train_pipeline | model.feed_data(train_data)"
     " @@ /w/BasicSR/basicsr/models/sr_model.py | feed_data | self.lq = data['lq'].to(self.device)", NULL},
    {"basicsr", "data", "CUDAPrefetcher.next -> preload", "XPixelGroup/BasicSR:basicsr/data/prefetch_dataloader.py@8d56e3a0",
     "/w/BasicSR/basicsr/train.py | train_pipeline | train_data = prefetcher.next()"
     " @@ /w/BasicSR/basicsr/data/prefetch_dataloader.py | next | self.preload()"
     " @@ /w/BasicSR/basicsr/data/prefetch_dataloader.py | preload | self.batch[k] = self.batch[k].to(device=self.device, non_blocking=True)", NULL},
    {"basicsr", "checkpoint", "model.save -> save_network -> torch.save", "XPixelGroup/BasicSR:basicsr/models/base_model.py@8d56e3a0",
     "/w/BasicSR/basicsr/train.py | train_pipeline | model.save(epoch, current_iter)"
     " @@ /w/BasicSR/basicsr/models/sr_model.py | save | self.save_network([self.net_g, self.net_g_ema], 'net_g', current_iter, param_key=['params', 'params_ema'])"
     " @@ /w/BasicSR/basicsr/models/base_model.py | save_network | torch.save(save_dict, save_path)", NULL},
    /* ---- pytorch/examples@77f55b91: dcgan/main.py, imagenet/main.py ---- */
    {"pytorch-examples-dcgan", "forward", "fake = netG(noise)", "pytorch/examples:dcgan/main.py@77f55b91",
     "/w/examples/dcgan/main.py | <module> | fake = netG(noise)" MOD
     " @@ /w/examples/dcgan/main.py | forward | output = self.main(input)" MOD
     " @@ torch/nn/modules/container.py | forward | input = module(input)" MOD
     " @@ torch/nn/modules/conv.py | forward | return F.conv_transpose2d(", NULL},
    {"pytorch-examples-dcgan", "optimizer", "optimizerD.step()", "pytorch/examples:dcgan/main.py@77f55b91",
     "/w/examples/dcgan/main.py | <module> | optimizerD.step()" ADAM, NULL},
    {"pytorch-examples-imagenet", "eval", "main_worker -> validate -> run_validate", "pytorch/examples:imagenet/main.py@77f55b91",
     "/w/examples/imagenet/main.py | main_worker | acc1 = validate(val_loader, model, criterion, args)"
     " @@ /w/examples/imagenet/main.py | validate | run_validate(val_loader)"
     " @@ /w/examples/imagenet/main.py | run_validate | output = model(images)" MOD
     " @@ torchvision/models/resnet.py | forward | return self._forward_impl(x)", NULL},
    {"pytorch-examples-imagenet", "data", "train: for i, (images, target) in enumerate(train_loader)", "pytorch/examples:imagenet/main.py@77f55b91",
     "/w/examples/imagenet/main.py | train | for i, (images, target) in enumerate(train_loader):" DL, NULL},
    /* ---- sthalles/SimCLR:simclr.py@1848fc93 ---- */
    {"simclr", "forward", "train -> info_nce_loss -> matmul", "sthalles/SimCLR:simclr.py@1848fc93",
     "/w/SimCLR/simclr.py | train | logits, labels = self.info_nce_loss(features)"
     " @@ /w/SimCLR/simclr.py | info_nce_loss | similarity_matrix = torch.matmul(features, features.T)", NULL},
    {"simclr", "optimizer", "train: scaler.step(self.optimizer)", "sthalles/SimCLR:simclr.py@1848fc93",
     "/w/SimCLR/simclr.py | train | scaler.step(self.optimizer)"
     " @@ torch/cuda/amp/grad_scaler.py | step | retval = self._maybe_opt_step(optimizer, optimizer_state, *args, **kwargs)" ADAM, NULL},
    /* ---- microsoft/Swin-Transformer@f82860bf: main.py, utils.py ---- */
    {"swin", "eval", "main -> validate(config, data_loader_val, model)", "microsoft/Swin-Transformer:main.py@f82860bf",
     "/w/Swin-Transformer/main.py | main | acc1, acc5, loss = validate(config, data_loader_val, model)" CTX
     " @@ /w/Swin-Transformer/main.py | validate | output = model(images)" MOD
     " @@ /w/Swin-Transformer/models/swin_transformer.py | forward | x = self.forward_features(x)", NULL},
    {"swin", "forward", "main -> throughput(data_loader_val, model, logger) (a timing pass, no evaluation)", "microsoft/Swin-Transformer:main.py@f82860bf",
     "/w/Swin-Transformer/main.py | main | throughput(data_loader_val, model, logger)" CTX
     " @@ /w/Swin-Transformer/main.py | throughput | model(images)" MOD
     " @@ /w/Swin-Transformer/models/swin_transformer.py | forward | x = self.forward_features(x)", NULL},
    {"swin", "backward", "train_one_epoch -> loss_scaler(...) -> NativeScalerWithGradNormCount", "microsoft/Swin-Transformer:utils.py@f82860bf",
     "/w/Swin-Transformer/main.py | train_one_epoch | grad_norm = loss_scaler(loss, optimizer, clip_grad=config.TRAIN.CLIP_GRAD,"
     " @@ /w/Swin-Transformer/utils.py | __call__ | self._scaler.scale(loss).backward(create_graph=create_graph)" BWD, NULL},
    /* ---- facebookresearch/segment-anything@dca509fe: scripts/amg.py, automatic_mask_generator.py, predictor.py ---- */
    {"segment-anything", "forward", "amg.py -> SamAutomaticMaskGenerator.generate -> set_image -> image_encoder (masks, not generation)", "facebookresearch/segment-anything:segment_anything/automatic_mask_generator.py@dca509fe",
     "/w/segment-anything/scripts/amg.py | main | masks = generator.generate(image)" CTX
     " @@ segment_anything/automatic_mask_generator.py | generate | mask_data = self._generate_masks(image)"
     " @@ segment_anything/automatic_mask_generator.py | _generate_masks | crop_data = self._process_crop(image, crop_box, layer_idx, orig_size)"
     " @@ segment_anything/automatic_mask_generator.py | _process_crop | self.predictor.set_image(cropped_im)" CTX
     " @@ segment_anything/predictor.py | set_image | self.set_torch_image(input_image_torch, image.shape[:2])" CTX
     " @@ segment_anything/predictor.py | set_torch_image | self.features = self.model.image_encoder(input_image)" MOD,
     "SAM's mask generator is called by generate(): `.generate(` and `, in generate` are generation cues everywhere else (HF, nanoGPT)"},
    /* ---- xinntao/Real-ESRGAN@a4abfb29: inference_realesrgan.py, realesrgan/utils.py ---- */
    {"real-esrgan", "forward", "inference_realesrgan.py -> upsampler.enhance -> tile_process -> model(input_tile)", "xinntao/Real-ESRGAN:realesrgan/utils.py@a4abfb29",
     "/w/Real-ESRGAN/inference_realesrgan.py | main | output, _ = upsampler.enhance(img, outscale=args.outscale)" CTX
     " @@ realesrgan/utils.py | enhance | self.tile_process()"
     " @@ realesrgan/utils.py | tile_process | output_tile = self.model(input_tile)" MOD
     " @@ basicsr/archs/rrdbnet_arch.py | forward | body_feat = self.conv_body(self.body(feat))", NULL},
    /* ---- HiLab-git/SSL4MIS@06df6047: code/train_mean_teacher_2D.py, code/val_2D.py ---- */
    {"ssl4mis", "forward", "guard: the EMA teacher's forward ema_model(ema_inputs) is a forward", "HiLab-git/SSL4MIS:code/train_mean_teacher_2D.py@06df6047",
     "/w/SSL4MIS/code/train_mean_teacher_2D.py | train | ema_output = ema_model(ema_inputs)" MOD
     " @@ /w/SSL4MIS/code/networks/unet.py | forward | feature = self.encoder(x)", NULL},
    {"ssl4mis", "optimizer", "update_ema_variables: ema_param.data.mul_(alpha).add_(...) after optimizer.step()", "HiLab-git/SSL4MIS:code/train_mean_teacher_2D.py@06df6047",
     "/w/SSL4MIS/code/train_mean_teacher_2D.py | train | update_ema_variables(model, ema_model, args.ema_decay, iter_num)"
     " @@ /w/SSL4MIS/code/train_mean_teacher_2D.py | update_ema_variables | ema_param.data.mul_(alpha).add_(1 - alpha, param.data)", NULL},
    {"ssl4mis", "eval", "train -> test_single_volume (val_2D.py)", "HiLab-git/SSL4MIS:code/val_2D.py@06df6047",
     "/w/SSL4MIS/code/train_mean_teacher_2D.py | train | metric_i = test_single_volume("
     " @@ /w/SSL4MIS/code/val_2D.py | test_single_volume | net(input), dim=1), dim=1).squeeze(0)" MOD
     " @@ /w/SSL4MIS/code/networks/unet.py | forward | feature = self.encoder(x)", NULL},
    {"ssl4mis", "data", "train: volume_batch.cuda(), label_batch.cuda()", "HiLab-git/SSL4MIS:code/train_mean_teacher_2D.py@06df6047",
     "/w/SSL4MIS/code/train_mean_teacher_2D.py | <module> | train(args, snapshot_path)"
     " @@ /w/SSL4MIS/code/train_mean_teacher_2D.py | train | volume_batch, label_batch = volume_batch.cuda(), label_batch.cuda()", NULL},
    /* ---- shenweichen/DeepCTR-Torch:deepctr_torch/models/basemodel.py@f6854257 ---- */
    {"deepctr-torch", "eval", "fit -> evaluate -> predict -> model(x)", "shenweichen/DeepCTR-Torch:deepctr_torch/models/basemodel.py@f6854257",
     "/w/run_classification_criteo.py | <module> | history = model.fit(train_model_input, train[target].values, batch_size=256, epochs=10, verbose=2, validation_split=0.2)"
     " @@ deepctr_torch/models/basemodel.py | fit | eval_result = self.evaluate(val_x, val_y, batch_size)"
     " @@ deepctr_torch/models/basemodel.py | evaluate | pred_ans = self.predict(x, batch_size)"
     " @@ deepctr_torch/models/basemodel.py | predict | y_pred = model(x).cpu().data.numpy()  # .squeeze()" MOD
     " @@ deepctr_torch/models/deepfm.py | forward | dnn_output = self.dnn(dnn_input)", NULL},
    {"deepctr-torch", "forward", "fit -> model(x)", "shenweichen/DeepCTR-Torch:deepctr_torch/models/basemodel.py@f6854257",
     "/w/run_classification_criteo.py | <module> | history = model.fit(train_model_input, train[target].values, batch_size=256, epochs=10, verbose=2, validation_split=0.2)"
     " @@ deepctr_torch/models/basemodel.py | fit | y_pred = model(x).squeeze()" MOD
     " @@ deepctr_torch/models/deepfm.py | forward | dnn_output = self.dnn(dnn_input)", NULL},
    {"deepctr-torch", "backward", "fit: total_loss.backward()", "shenweichen/DeepCTR-Torch:deepctr_torch/models/basemodel.py@f6854257",
     "deepctr_torch/models/basemodel.py | fit | total_loss.backward()" BWD, NULL},
    /* ---- pyg-team/pytorch_geometric@5c6461b2: examples/gcn.py, examples/reddit.py ---- */
    {"pyg-examples", "forward", "gcn.py train -> model -> conv1", "pyg-team/pytorch_geometric:examples/gcn.py@5c6461b2",
     "/w/pyg/examples/gcn.py | <module> | loss = train()"
     " @@ /w/pyg/examples/gcn.py | train | out = model(data.x, data.edge_index, data.edge_attr)" MOD
     " @@ /w/pyg/examples/gcn.py | forward | x = self.conv1(x, edge_index, edge_weight).relu()" MOD
     " @@ torch_geometric/nn/conv/gcn_conv.py | forward | out = self.propagate(edge_index, x=x, edge_weight=edge_weight)", NULL},
    {"pyg-examples", "eval", "reddit.py test() -> model.inference(x_all, subgraph_loader)", "pyg-team/pytorch_geometric:examples/reddit.py@5c6461b2",
     "/w/pyg/examples/reddit.py | <module> | train_acc, val_acc, test_acc = test()" CTX
     " @@ /w/pyg/examples/reddit.py | test | y_hat = model.inference(data.x, subgraph_loader).argmax(dim=-1)" CTX
     " @@ /w/pyg/examples/reddit.py | inference | x = conv(x, batch.edge_index.to(device))" MOD
     " @@ torch_geometric/nn/conv/sage_conv.py | forward | out = self.propagate(edge_index, x=x, size=size)", NULL},
    /* ---- openai/improved-diffusion@1bc7bbbd: improved_diffusion/gaussian_diffusion.py, train_util.py ---- */
    {"improved-diffusion", "generate", "image_sample.py -> ddim_sample_loop -> ddim_sample", "openai/improved-diffusion:improved_diffusion/gaussian_diffusion.py@1bc7bbbd",
     "/w/improved-diffusion/scripts/image_sample.py | main | sample = sample_fn("
     " @@ /w/improved-diffusion/improved_diffusion/gaussian_diffusion.py | ddim_sample_loop | for sample in self.ddim_sample_loop_progressive("
     " @@ /w/improved-diffusion/improved_diffusion/gaussian_diffusion.py | ddim_sample_loop_progressive | out = self.ddim_sample("
     " @@ /w/improved-diffusion/improved_diffusion/gaussian_diffusion.py | ddim_sample | out = self.p_mean_variance("
     " @@ /w/improved-diffusion/improved_diffusion/gaussian_diffusion.py | p_mean_variance | model_output = model(x, self._scale_timesteps(t), **model_kwargs)" MOD, NULL},
    /* ---- rosinality/stylegan2-pytorch:train.py@bef283a1 ---- */
    {"stylegan2-rosinality", "backward", "train -> d_r1_loss -> autograd.grad", "rosinality/stylegan2-pytorch:train.py@bef283a1",
     "/w/stylegan2-pytorch/train.py | train | r1_loss = d_r1_loss(real_pred, real_img)"
     " @@ /w/stylegan2-pytorch/train.py | d_r1_loss | grad_real, = autograd.grad(" GRAD, NULL},
    {"stylegan2-rosinality", "backward", "train -> g_path_regularize -> autograd.grad", "rosinality/stylegan2-pytorch:train.py@bef283a1",
     "/w/stylegan2-pytorch/train.py | train | path_loss, mean_path_length, path_lengths = g_path_regularize("
     " @@ /w/stylegan2-pytorch/train.py | g_path_regularize | grad, = autograd.grad(" GRAD, NULL},
    {"stylegan2-rosinality", "data", "train -> next(loader) -> sample_data", "rosinality/stylegan2-pytorch:train.py@bef283a1",
     "/w/stylegan2-pytorch/train.py | train | real_img = next(loader)"
     " @@ /w/stylegan2-pytorch/train.py | sample_data | for batch in loader:" DL, NULL},
    /* ---- late audit row (after the set-aside scoring): timm's ModelEma as DeiT and ConvNeXt
     * call it (facebookresearch/deit:engine.py@7e160fe4 "model_ema.update(model)"; the same
     * line in facebookresearch/ConvNeXt:engine.py@048efcea); ModelEma.update's copy as timm
     * writes it (timm/utils/model_ema.py, copied in many forks) ---- */
    {"deit", "optimizer", "train_one_epoch -> model_ema.update(model) -> ModelEma.update", "facebookresearch/deit:engine.py@7e160fe4",
     "/w/deit/engine.py | train_one_epoch | model_ema.update(model)"
     " @@ timm/utils/model_ema.py | update | ema_v.copy_(ema_v * self.decay + (1. - self.decay) * model_v)", NULL},
    /* ---- guards of the non_blocking rule: DeepSpeed ZeRO-3's own asynchronous copies
     * (microsoft/DeepSpeed:deepspeed/runtime/zero/stage3.py@38327e07) move gradients, no batch ---- */
    {"deepspeed-zero3", "backward", "guard: __reduce_and_partition_ipg_grads -> partition_grads: grad_buffer.to(..., non_blocking=True)", "microsoft/DeepSpeed:deepspeed/runtime/zero/stage3.py@38327e07",
     "/w/train.py | train | model_engine.backward(loss)"
     " @@ deepspeed/runtime/zero/stage3.py | __reduce_and_partition_ipg_grads | self.partition_grads(self.params_in_ipg_bucket, grad_partitions)"
     " @@ deepspeed/runtime/zero/stage3.py | partition_grads | cuda_grad_buffer = grad_buffer.to(grad_partition.device, non_blocking=True)", NULL},
    {"deepspeed-zero3", "optimizer", "guard: step -> _get_norm_groups -> get_grad_norm_direct: g.to(..., non_blocking=True)", "microsoft/DeepSpeed:deepspeed/runtime/zero/stage3.py@38327e07",
     "/w/train.py | train | model_engine.step()"
     " @@ deepspeed/runtime/engine.py | step | self._take_model_step(lr_kwargs)"
     " @@ deepspeed/runtime/zero/stage3.py | step | norm_groups = self._get_norm_groups()"
     " @@ deepspeed/runtime/zero/stage3.py | _get_norm_groups | norm_groups.append(self.get_grad_norm_direct(self.averaged_gradients[i], self.fp16_groups[i]))"
     " @@ deepspeed/runtime/zero/stage3.py | get_grad_norm_direct | grad_norms.append(g.to(get_accelerator().device_name(), non_blocking=True).double().norm(2))", NULL},
    /* ---- set aside: written after the classifier changes, scored once ---- */
    /* ---- jaywalnut310/vits:train.py, models.py@2e561ba5 ---- */
    {"vits", "data", "train_and_evaluate: x.cuda(rank, non_blocking=True)", "jaywalnut310/vits:train.py@2e561ba5",
     "/w/vits/train.py | run | train_and_evaluate(rank, epoch, hps, [net_g, net_d], [optim_g, optim_d], [scheduler_g, scheduler_d], scaler, [train_loader, eval_loader], logger, [writer, writer_eval])"
     " @@ /w/vits/train.py | train_and_evaluate | x, x_lengths = x.cuda(rank, non_blocking=True), x_lengths.cuda(rank, non_blocking=True)", NULL},
    {"vits", "forward", "train_and_evaluate: net_g(x, x_lengths, spec, spec_lengths) -> flow", "jaywalnut310/vits:models.py@2e561ba5",
     "/w/vits/train.py | train_and_evaluate | (z, z_p, m_p, logs_p, m_q, logs_q) = net_g(x, x_lengths, spec, spec_lengths)" MOD
     " @@ /w/vits/models.py | forward | z_p = self.flow(z, y_mask, g=g)" MOD, NULL},
    {"vits", "backward", "scaler.scale(loss_gen_all).backward()", "jaywalnut310/vits:train.py@2e561ba5",
     "/w/vits/train.py | train_and_evaluate | scaler.scale(loss_gen_all).backward()" BWD, NULL},
    {"vits", "eval", "train_and_evaluate -> evaluate -> generator.module.infer", "jaywalnut310/vits:train.py@2e561ba5",
     "/w/vits/train.py | train_and_evaluate | evaluate(hps, net_g, eval_loader, writer_eval)"
     " @@ /w/vits/train.py | evaluate | y_hat, attn, mask, *_ = generator.module.infer(x, x_lengths, max_len=1000)"
     " @@ /w/vits/models.py | infer | o = self.dec((z * y_mask)[:,:,:max_len], g=g)" MOD, NULL},
    /* ---- zhouhaoyi/Informer2020:exp/exp_informer.py@29f2a739 ---- */
    {"informer2020", "eval", "train -> vali -> _process_one_batch -> model", "zhouhaoyi/Informer2020:exp/exp_informer.py@29f2a739",
     "/w/Informer2020/exp/exp_informer.py | train | vali_loss = self.vali(vali_data, vali_loader, criterion)"
     " @@ /w/Informer2020/exp/exp_informer.py | vali | pred, true = self._process_one_batch("
     " @@ /w/Informer2020/exp/exp_informer.py | _process_one_batch | outputs = self.model(batch_x, batch_x_mark, dec_inp, batch_y_mark)" MOD, NULL},
    {"informer2020", "data", "train -> _process_one_batch: batch_x.float().to(self.device)", "zhouhaoyi/Informer2020:exp/exp_informer.py@29f2a739",
     "/w/Informer2020/exp/exp_informer.py | train | pred, true = self._process_one_batch("
     " @@ /w/Informer2020/exp/exp_informer.py | _process_one_batch | batch_x = batch_x.float().to(self.device)", NULL},
    {"informer2020", "optimizer", "train: model_optim.step()", "zhouhaoyi/Informer2020:exp/exp_informer.py@29f2a739",
     "/w/Informer2020/exp/exp_informer.py | train | model_optim.step()" ADAM, NULL},
    {"informer2020", "forward", "predict -> _process_one_batch -> model", "zhouhaoyi/Informer2020:exp/exp_informer.py@29f2a739",
     "/w/Informer2020/main_informer.py | <module> | exp.predict(setting, True)"
     " @@ /w/Informer2020/exp/exp_informer.py | predict | pred, true = self._process_one_batch("
     " @@ /w/Informer2020/exp/exp_informer.py | _process_one_batch | outputs = self.model(batch_x, batch_x_mark, dec_inp, batch_y_mark)" MOD, NULL},
    /* ---- tkipf/pygcn:pygcn/train.py@1600b5b7 ---- */
    {"pygcn", "load", "model.cuda()", "tkipf/pygcn:pygcn/train.py@1600b5b7",
     "/w/pygcn/pygcn/train.py | <module> | model.cuda()"
     " @@ torch/nn/modules/module.py | cuda | return self._apply(lambda t: t.cuda(device))", NULL},
    {"pygcn", "eval", "test() -> model(features, adj)", "tkipf/pygcn:pygcn/train.py@1600b5b7",
     "/w/pygcn/pygcn/train.py | <module> | test()"
     " @@ /w/pygcn/pygcn/train.py | test | output = model(features, adj)" MOD, NULL},
    {"pygcn", "data", "features = features.cuda()", "tkipf/pygcn:pygcn/train.py@1600b5b7",
     "/w/pygcn/pygcn/train.py | <module> | features = features.cuda()",
     "set-aside miss: the whole dataset moved at set-up under names the data-root table lacks (features, adj), no non_blocking copy"},
    {"pygcn", "backward", "train: loss_train.backward()", "tkipf/pygcn:pygcn/train.py@1600b5b7",
     "/w/pygcn/pygcn/train.py | <module> | train(epoch)"
     " @@ /w/pygcn/pygcn/train.py | train | loss_train.backward()" BWD, NULL},
    /* ---- facebookresearch/DiT@ed81ce22: train.py, sample.py, diffusion/gaussian_diffusion.py ---- */
    {"dit", "generate", "sample.py -> diffusion.p_sample_loop", "facebookresearch/DiT:diffusion/gaussian_diffusion.py@ed81ce22",
     "/w/DiT/sample.py | main | samples = diffusion.p_sample_loop("
     " @@ /w/DiT/diffusion/gaussian_diffusion.py | p_sample_loop | for sample in self.p_sample_loop_progressive("
     " @@ /w/DiT/diffusion/gaussian_diffusion.py | p_sample_loop_progressive | out = self.p_sample("
     " @@ /w/DiT/diffusion/gaussian_diffusion.py | p_sample | out = self.p_mean_variance("
     " @@ /w/DiT/diffusion/respace.py | p_mean_variance | return super().p_mean_variance(self._wrap_model(model), *args, **kwargs)"
     " @@ /w/DiT/diffusion/gaussian_diffusion.py | p_mean_variance | model_output = model(x, t, **model_kwargs)" MOD, NULL},
    {"dit", "generate", "sample.py: vae.decode(samples / 0.18215)", "facebookresearch/DiT:sample.py@ed81ce22",
     "/w/DiT/sample.py | main | samples = vae.decode(samples / 0.18215).sample"
     " @@ diffusers/models/autoencoders/autoencoder_kl.py | decode | decoded = self._decode(z).sample", NULL},
    {"dit", "optimizer", "main -> update_ema (@torch.no_grad)", "facebookresearch/DiT:train.py@ed81ce22",
     "/w/DiT/train.py | main | update_ema(ema, model.module)" CTX
     " @@ /w/DiT/train.py | update_ema | ema_params[name].mul_(decay).add_(param.data, alpha=1 - decay)", NULL},
    {"dit", "forward", "main -> diffusion.training_losses -> model", "facebookresearch/DiT:diffusion/gaussian_diffusion.py@ed81ce22",
     "/w/DiT/train.py | main | loss_dict = diffusion.training_losses(model, x, t, model_kwargs)"
     " @@ /w/DiT/diffusion/respace.py | training_losses | return super().training_losses(self._wrap_model(model), *args, **kwargs)"
     " @@ /w/DiT/diffusion/gaussian_diffusion.py | training_losses | model_output = model(x_t, t, **model_kwargs)" MOD, NULL},
    {"dit", "load", "main: AutoencoderKL.from_pretrained(...).to(device)", "facebookresearch/DiT:train.py@ed81ce22",
     "/w/DiT/train.py | main | vae = AutoencoderKL.from_pretrained(f\"stabilityai/sd-vae-ft-{args.vae}\").to(device)", NULL},
    /* ---- WongKinYiu/yolov7@a207844b: train.py, test.py, utils/torch_utils.py, utils/loss.py ---- */
    {"yolov7", "data", "train: imgs.to(device, non_blocking=True).float() / 255.0", "WongKinYiu/yolov7:train.py@a207844b",
     "/w/yolov7/train.py | <module> | train(hyp, opt, device, tb_writer)"
     " @@ /w/yolov7/train.py | train | imgs = imgs.to(device, non_blocking=True).float() / 255.0  # uint8 to float32, 0-255 to 0.0-1.0", NULL},
    {"yolov7", "forward", "train -> compute_loss_ota -> build_targets", "WongKinYiu/yolov7:utils/loss.py@a207844b",
     "/w/yolov7/train.py | train | loss, loss_items = compute_loss_ota(pred, targets.to(device), imgs)  # loss scaled by batch_size"
     " @@ /w/yolov7/utils/loss.py | __call__ | bs, as_, gjs, gis, targets, anchors = self.build_targets(p, targets, imgs)", NULL},
    {"yolov7", "optimizer", "train: ema.update(model) -> ModelEMA.update", "WongKinYiu/yolov7:utils/torch_utils.py@a207844b",
     "/w/yolov7/train.py | train | ema.update(model)"
     " @@ /w/yolov7/utils/torch_utils.py | update | v += (1. - d) * msd[k].detach()", NULL},
    {"yolov7", "eval", "train -> test.test -> model(img, augment=augment)", "WongKinYiu/yolov7:test.py@a207844b",
     "/w/yolov7/train.py | train | results, maps, times = test.test(data_dict,"
     " @@ /w/yolov7/test.py | test | out, train_out = model(img, augment=augment)  # inference and training outputs" MOD, NULL},
    {"yolov7", "checkpoint", "train: torch.save(ckpt, last)", "WongKinYiu/yolov7:train.py@a207844b",
     "/w/yolov7/train.py | train | torch.save(ckpt, last)", NULL},
    /* ---- Beckschen/TransUNet@02ef0010: train.py, trainer.py, test.py, utils.py ---- */
    {"transunet", "forward", "trainer_synapse -> model(image_batch) -> transformer", "Beckschen/TransUNet:trainer.py@02ef0010",
     "/w/TransUNet/train.py | <module> | trainer[dataset_name](args, net, snapshot_path)"
     " @@ /w/TransUNet/trainer.py | trainer_synapse | outputs = model(image_batch)" MOD
     " @@ /w/TransUNet/networks/vit_seg_modeling.py | forward | x, attn_weights, features = self.transformer(x)  # (B, n_patch, hidden)", NULL},
    {"transunet", "forward", "trainer_synapse: dice_loss(outputs, label_batch, softmax=True)", "Beckschen/TransUNet:trainer.py@02ef0010",
     "/w/TransUNet/trainer.py | trainer_synapse | loss_dice = dice_loss(outputs, label_batch, softmax=True)" MOD
     " @@ /w/TransUNet/utils.py | forward | inputs = torch.softmax(inputs, dim=1)", NULL},
    {"transunet", "eval", "test.py inference -> test_single_volume -> net(input)", "Beckschen/TransUNet:utils.py@02ef0010",
     "/w/TransUNet/test.py | <module> | inference(args, net, test_save_path)"
     " @@ /w/TransUNet/test.py | inference | metric_i = test_single_volume(image, label, model, classes=args.num_classes, patch_size=[args.img_size, args.img_size],"
     " @@ /w/TransUNet/utils.py | test_single_volume | outputs = net(input)" MOD,
     "set-aside miss: the evaluation is named by inference (forward) and test_single_volume (\"test\" is no name part); only metric_i says evaluation"},
    {"transunet", "data", "trainer_synapse: image_batch.cuda(), label_batch.cuda()", "Beckschen/TransUNet:trainer.py@02ef0010",
     "/w/TransUNet/train.py | <module> | trainer[dataset_name](args, net, snapshot_path)"
     " @@ /w/TransUNet/trainer.py | trainer_synapse | image_batch, label_batch = image_batch.cuda(), label_batch.cuda()", NULL},
    /* ---- openai/spinningup:spinup/algos/pytorch/ppo/ppo.py, core.py@038665d6 ---- */
    {"spinningup", "forward", "ppo update -> compute_loss_pi -> ac.pi -> _distribution", "openai/spinningup:spinup/algos/pytorch/ppo/ppo.py@038665d6",
     "/w/spinningup/spinup/algos/pytorch/ppo/ppo.py | ppo | update()"
     " @@ /w/spinningup/spinup/algos/pytorch/ppo/ppo.py | update | loss_pi, pi_info = compute_loss_pi(data)"
     " @@ /w/spinningup/spinup/algos/pytorch/ppo/ppo.py | compute_loss_pi | pi, logp = ac.pi(obs, act)" MOD
     " @@ /w/spinningup/spinup/algos/pytorch/ppo/core.py | forward | pi = self._distribution(obs)"
     " @@ /w/spinningup/spinup/algos/pytorch/ppo/core.py | _distribution | logits = self.logits_net(obs)" MOD, NULL},
    {"spinningup", "forward", "rollout: ac.step(obs) -> _distribution", "openai/spinningup:spinup/algos/pytorch/ppo/core.py@038665d6",
     "/w/spinningup/spinup/algos/pytorch/ppo/ppo.py | ppo | a, v, logp = ac.step(torch.as_tensor(o, dtype=torch.float32))"
     " @@ /w/spinningup/spinup/algos/pytorch/ppo/core.py | step | pi = self.pi._distribution(obs)"
     " @@ /w/spinningup/spinup/algos/pytorch/ppo/core.py | _distribution | logits = self.logits_net(obs)" MOD, NULL},
    {"spinningup", "backward", "update: loss_pi.backward()", "openai/spinningup:spinup/algos/pytorch/ppo/ppo.py@038665d6",
     "/w/spinningup/spinup/algos/pytorch/ppo/ppo.py | update | loss_pi.backward()" BWD, NULL},
    /* ---- sczhou/CodeFormer:inference_codeformer.py@b33cc7d6 ---- */
    {"codeformer", "forward", "inference_codeformer.py: net(cropped_face_t, w=w, adain=True)", "sczhou/CodeFormer:inference_codeformer.py@b33cc7d6",
     "/w/CodeFormer/inference_codeformer.py | <module> | output = net(cropped_face_t, w=w, adain=True)[0]" MOD
     " @@ torch/nn/modules/conv.py | forward | return self._conv_forward(input, self.weight, self.bias)", NULL},
    {"codeformer", "load", "inference_codeformer.py: ARCH_REGISTRY.get('CodeFormer')(...).to(device)", "sczhou/CodeFormer:inference_codeformer.py@b33cc7d6",
     "/w/CodeFormer/inference_codeformer.py | <module> | connect_list=['32', '64', '128', '256']).to(device)"
     " @@ torch/nn/modules/module.py | to | return self._apply(convert)"
     " @@ torch/nn/modules/module.py | _apply | module._apply(fn)", NULL},
    {"codeformer", "forward", "inference_codeformer.py: bg_upsampler.enhance -> process", "sczhou/CodeFormer:inference_codeformer.py@b33cc7d6",
     "/w/CodeFormer/inference_codeformer.py | <module> | bg_img = bg_upsampler.enhance(img, outscale=args.upscale)[0]" CTX
     " @@ /w/CodeFormer/basicsr/utils/realesrgan_utils.py | enhance | self.process()"
     " @@ /w/CodeFormer/basicsr/utils/realesrgan_utils.py | process | self.output = self.model(self.img)" MOD, NULL},
    /* ---- ashawkey/stable-dreamfusion@5550b918: nerf/utils.py, guidance/sd_utils.py ---- */
    {"stable-dreamfusion", "forward", "train_step -> guidance['SD'].train_step -> unet (score distillation in training)", "ashawkey/stable-dreamfusion:guidance/sd_utils.py@5550b918",
     "/w/stable-dreamfusion/nerf/utils.py | train_one_epoch | pred_rgbs, pred_depths, loss = self.train_step(data, save_guidance_path=save_guidance_path)"
     " @@ /w/stable-dreamfusion/nerf/utils.py | train_step | loss = loss + self.guidance['SD'].train_step(text_z, pred_rgb, as_latent=as_latent, guidance_scale=self.opt.guidance_scale, grad_scale=self.opt.lambda_guidance,"
     " @@ /w/stable-dreamfusion/guidance/sd_utils.py | train_step | noise_pred = self.unet(latent_model_input, tt, encoder_hidden_states=text_embeddings).sample" MOD,
     "set-aside miss: latent_model_input is a diffusion-sampling cue (generate); score distillation runs the UNet inside a training step"},
    {"stable-dreamfusion", "forward", "train_step -> model.render (staged=False)", "ashawkey/stable-dreamfusion:nerf/utils.py@5550b918",
     "/w/stable-dreamfusion/nerf/utils.py | train_one_epoch | pred_rgbs, pred_depths, loss = self.train_step(data, save_guidance_path=save_guidance_path)"
     " @@ /w/stable-dreamfusion/nerf/utils.py | train_step | outputs = self.model.render(rays_o, rays_d, mvp, H, W, staged=False, perturb=True, bg_color=bg_color, ambient_ratio=ambient_ratio, shading=shading, binarize=binarize)",
     "set-aside miss: a renderer called as self.model.render( is no module call and render names no stage, so nothing names the forward"},
    {"stable-dreamfusion", "eval", "evaluate_one_epoch -> eval_step -> model.render", "ashawkey/stable-dreamfusion:nerf/utils.py@5550b918",
     "/w/stable-dreamfusion/nerf/utils.py | evaluate_one_epoch | preds, preds_depth, loss = self.eval_step(data)"
     " @@ /w/stable-dreamfusion/nerf/utils.py | eval_step | outputs = self.model.render(rays_o, rays_d, mvp, H, W, staged=True, perturb=False, bg_color=None, light_d=light_d, ambient_ratio=ambient_ratio, shading=shading)", NULL},
    {"stable-dreamfusion", "backward", "train_one_epoch: self.scaler.scale(loss).backward()", "ashawkey/stable-dreamfusion:nerf/utils.py@5550b918",
     "/w/stable-dreamfusion/nerf/utils.py | train_one_epoch | self.scaler.scale(loss).backward()" BWD, NULL},
    {"stable-dreamfusion", "checkpoint", "save_checkpoint: torch.save(state, ...)", "ashawkey/stable-dreamfusion:nerf/utils.py@5550b918",
     "/w/stable-dreamfusion/nerf/utils.py | save_checkpoint | torch.save(state, os.path.join(self.ckpt_path, file_path))", NULL},
    /* ---- Kaixhin/Rainbow@1745b184: main.py, agent.py, test.py, memory.py ---- */
    {"rainbow", "forward", "dqn.learn -> online_net(states, log=True)", "Kaixhin/Rainbow:agent.py@1745b184",
     "/w/Rainbow/main.py | <module> | dqn.learn(mem)  # Train with n-step distributional double-Q learning"
     " @@ /w/Rainbow/agent.py | learn | log_ps = self.online_net(states, log=True)  # Log probabilities log p(s_t, \xc2\xb7; \xce\xb8online)" MOD, NULL},
    {"rainbow", "backward", "learn: (weights * loss).mean().backward()", "Kaixhin/Rainbow:agent.py@1745b184",
     "/w/Rainbow/agent.py | learn | (weights * loss).mean().backward()  # Backpropagate importance-weighted minibatch loss" BWD, NULL},
    {"rainbow", "eval", "main -> test -> dqn.evaluate_q", "Kaixhin/Rainbow:test.py@1745b184",
     "/w/Rainbow/main.py | <module> | avg_reward, avg_Q = test(args, T, dqn, val_mem, metrics, results_dir)  # Test"
     " @@ /w/Rainbow/test.py | test | T_Qs.append(dqn.evaluate_q(state))"
     " @@ /w/Rainbow/agent.py | evaluate_q | return (self.online_net(state.unsqueeze(0)) * self.support).sum(2).max(1)[0].item()" MOD, NULL},
    {"rainbow", "data", "learn -> mem.sample -> replay batch to the device", "Kaixhin/Rainbow:memory.py@1745b184",
     "/w/Rainbow/agent.py | learn | idxs, states, actions, returns, next_states, nonterminals, weights = mem.sample(self.batch_size)"
     " @@ /w/Rainbow/memory.py | sample | probs, idxs, tree_idxs, states, actions, returns, next_states, nonterminals = self._get_samples_from_segments(batch_size, p_total)  # Get batch of valid samples"
     " @@ /w/Rainbow/memory.py | _get_samples_from_segments | states = torch.tensor(all_states[:, :self.history], device=self.device, dtype=torch.float32).div_(255)",
     "set-aside miss: the replay memory builds the batch with torch.tensor(..., device=self.device), no move the data table reads"},
};

static const char oom_message[] =
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
    "23.65 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has 22.60 GiB memory in "
    "use. Of the allocated memory 21.50 GiB is allocated by PyTorch, and 0.60 GiB is reserved by PyTorch but "
    "unallocated.\n";
static const struct audit audit = {audit_rows, sizeof audit_rows / sizeof audit_rows[0], oom_message};

static void test_user_code_stages(void **state)
{
    (void)state;
    assert_int_equal(audit_misses(&audit, false), 0);
}

/* ---- issue 12 on unseen logs: the tool's own lines ------------------------
 * Mechanisms for the stage misses of the seen sets whose log carries the
 * evidence in a tool's own lines (docs/diagnose.md, "Stage misses on the
 * seen sets, by class"). Each paste is written here in the shape the tool
 * prints, its wording from the tool's source (cited beside the cue in
 * src/lib/stage.c); each assertion failed on main 9e07f268 unless it says
 * it guards. */

#define TORCH_OOM_LINE                                                                                        \
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of " \
    "15.70 GiB of which 512.00 MiB is free.\n"

/* AUTOMATIC1111's web UI: an issue titled with the OOM, the console cut
 * after the request failed: its sampler's bar (no description) right
 * above "*** Error completing request" and the arguments dump
 * (modules/call_queue.py wrap_gradio_call). */
static void test_webui_request_under_sampler_bar(void **state)
{
    (void)state;
    const char *tty =
        "OOM on a 4K upscale with Tiled Diffusion\n"
        "\n"
        "[Tiled VAE]: input_size: torch.Size([1, 3, 1536, 2048]), tile_size: 960, padding: 32\n"
        "[Tiled VAE]: Executing Encoder Task Queue: 100%|\xe2\x96\x88\xe2\x96\x88| 640/640 [00:01<00:00, 701.12it/s]\n"
        "[Tiled VAE]: Done in 0.912s, max VRAM alloc 2210.400 MB\n"
        "  0%|          | 0/13 [00:00<?, ?it/s]\n"
        "*** Error completing request\n"
        "*** Arguments: ('task(q7m2c0x1z9ab)', 0, 'a lighthouse in fog', '', [], None, 30, 'Euler a') {}\n";
    assert_string_equal(shown_stage(tty), "generate");
    /* the same bar where it had no columns to draw blocks (a docker or
     * Colab log: tqdm's ncols 0 form), under a container's prefix */
    const char *narrow =
        "img2img runs out of VRAM on a 6GB card\n"
        "\n"
        "auto-1  | 2024-06-02 19:03:11,402 - ControlNet - INFO - ControlNet Hooked - Time = 4.21\n"
        "  0% 0/20 [00:00<?, ?it/s]\n"
        "auto-1  | *** Error completing request\n"
        "auto-1  | *** Arguments: ('task(k3v9d2w8e5rt)', 'a red bicycle', '', [], 20, 'DPM++ 2M Karras') {}\n";
    assert_string_equal(shown_stage(narrow), "generate");
    /* guard: a bar with a description is a training extension's
     * ("Steps:"), no sampler; the request names no loop then */
    const char *training =
        "CUDA out of memory when training\n"
        "\n"
        "Steps:  50%|\xe2\x96\x88\xe2\x96\x88     | 1/2 [01:17<01:17, 77.90s/it, loss=0.12]\n"
        "*** Error completing request\n"
        "*** Arguments: ('task(abc)', 'my-embedding', 0.005, 1) {}\n";
    assert_string_not_equal(shown_stage(training), "generate");
}

/* tqdm's bar with no columns for blocks is still an undescribed bar; a
 * described one and prose with a percent sign are none (guards). */
static void test_bar_without_columns(void **state)
{
    (void)state;
    const char *narrow = "  0% 0/20 [00:00<?, ?it/s]";
    assert_true(stage_bar_undescribed(narrow, strlen(narrow)));
    assert_true(stage_bar_bare(narrow, strlen(narrow)));
    const char *done = "100% 20/20 [00:09<00:00,  2.05it/s]";
    assert_true(stage_bar_undescribed(done, strlen(done)));
    const char *prose = " 50% of 16 GB [really]";
    assert_false(stage_bar_undescribed(prose, strlen(prose)));
    const char *described = "Sampling:  0% 0/20 [00:00<?, ?it/s]";
    assert_false(stage_bar_undescribed(described, strlen(described)));
}

/* llama.cpp's model loader logs under its constructor's name: a loader of
 * a model is a load, not a data loader (its one-a-key metadata dump names
 * "tokenizer." keys too). */
static void test_model_loader_is_load(void **state)
{
    (void)state;
    const char *ggml =
        "Vulkan: unable to allocate memory for a 72B model split over two GPUs\n"
        "\n"
        "PS C:\\llama> .\\server.exe -m ..\\models\\qwen2-72b.Q4_K_M.gguf -ngl 99\n"
        "llama_model_loader: loaded meta data with 30 key-value pairs and 963 tensors from ..\\models\\qwen2-72b.Q4_K_M.gguf (version GGUF V3 (latest))\n"
        "llama_model_loader: Dumping metadata keys/values. Note: KV overrides do not apply in this output.\n"
        "llama_model_loader: - kv   0:                       general.architecture str              = qwen2\n"
        "llama_model_loader: - kv   1:                          qwen2.block_count u32              = 80\n"
        "llama_model_loader: - kv   2:                       tokenizer.ggml.model str              = gpt2\n";
    assert_string_equal(shown_stage(ggml), "load");
    const char *name = "llama_model_loader";
    unsigned bits = stage_name_bits(name, strlen(name));
    assert_true(bits & (1u << OOM_STAGE_LOAD));
    assert_false(bits & (1u << OOM_STAGE_DATA));
    /* guards: a data loader stays data */
    const char *train = "train_loader";
    assert_true(stage_name_bits(train, strlen(train)) & (1u << OOM_STAGE_DATA));
    const char *dl = "DataLoader";
    assert_true(stage_name_bits(dl, strlen(dl)) & (1u << OOM_STAGE_DATA));
}

/* NVIDIA's GAN trainers announce building their networks, which go to the
 * device as they are made: a failure right under that line is set-up,
 * whatever launcher frames (click's) the traceback below shows. */
static void test_gan_trainer_builds_networks(void **state)
{
    (void)state;
    const char *ada =
        "Constructing networks...\n"
        "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCCachingAllocator.cpp line=66 error=2 : out of memory\n"
        "Traceback (most recent call last):\n"
        "  File \"/w/stylegan2-ada-pytorch/train.py\", line 538, in <module>\n"
        "    main() # pylint: disable=no-value-for-parameter\n"
        "  File \"/env/lib/python3.9/site-packages/click/core.py\", line 1137, in __call__\n"
        "    return self.main(*args, **kwargs)\n";
    assert_string_equal(shown_stage(ada), "load");
    const char *tf =
        "Loading networks from \"results/00012-sgan-ffhq-1gpu/network-snapshot-008040.pkl\"...\n"
        "2019-03-01 10:11:12.123456: W tensorflow/core/common_runtime/bfc_allocator.cc:267] Allocator "
        "(GPU_0_bfc) ran out of memory trying to allocate 64.00MiB.  Current allocation summary follows.\n"
        "Traceback (most recent call last):\n"
        "  File \"train.py\", line 191, in <module>\n"
        "    main()\n"
        "  File \"train.py\", line 186, in main\n"
        "    dnnlib.submit_run(**kwargs)\n"
        "  File \"/w/stylegan/dnnlib/submission/submit.py\", line 290, in submit_run\n"
        "    run_wrapper(submit_config)\n";
    assert_string_equal(shown_stage(tf), "load");
}

/* Precedence: a frame named "generate" plus something a generator does
 * not make is no generation; the model's forward below it is the stage
 * (ctc-forced-aligner's generate_emissions, under whisper-diarization's
 * diarize.py). Guards: "generate" alone, "generate_text" and
 * "generate_completion" stay. */
static void test_generate_named_helper_is_not_generation(void **state)
{
    (void)state;
    const char *align =
        "Traceback (most recent call last):\n"
        "  File \"C:\\w\\whisper-diarization\\diarize.py\", line 201, in <module>\n"
        "    emissions, stride = generate_emissions(\n"
        "  File \"C:\\env\\Lib\\site-packages\\ctc_forced_aligner\\alignment_utils.py\", line 150, in generate_emissions\n"
        "    emissions_ = model(input_batch).logits\n"
        "  File \"C:\\env\\Lib\\site-packages\\torch\\nn\\modules\\module.py\", line 1562, in _call_impl\n"
        "    return forward_call(*args, **kwargs)\n" TORCH_OOM_LINE;
    assert_string_equal(shown_stage(align), "forward");
    const char *gen =
        "Traceback (most recent call last):\n"
        "  File \"/w/chat.py\", line 40, in <module>\n"
        "    reply = generate_text(prompt)\n"
        "  File \"/w/chat.py\", line 21, in generate_text\n"
        "    ids = tok(prompt)\n" TORCH_OOM_LINE;
    assert_string_equal(shown_stage(gen), "generate");
    const char *completion =
        "Traceback (most recent call last):\n"
        "  File \"/w/server.py\", line 88, in handle\n"
        "    text = generate_completion(req)\n"
        "  File \"/w/server.py\", line 40, in generate_completion\n"
        "    ids = tok(req.prompt)\n" TORCH_OOM_LINE;
    assert_string_equal(shown_stage(completion), "generate");
    const char *plain =
        "Traceback (most recent call last):\n"
        "  File \"/w/run.py\", line 40, in <module>\n"
        "    out = pipe.run(prompt)\n"
        "  File \"/w/pipe.py\", line 21, in generate\n"
        "    ids = tok(prompt)\n" TORCH_OOM_LINE;
    assert_string_equal(shown_stage(plain), "generate");
}

/* SGLang's scheduler building a prefill batch inside its serving loop:
 * the server answers requests, generate (frames as scheduler.py names
 * them, paths elided as a report pastes them). */
static void test_sglang_scheduler_serving_is_generate(void **state)
{
    (void)state;
    const char *sched =
        "[2026-02-11 14:20:05 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        "  File \".../sglang/srt/managers/scheduler.py\", line 1688, in event_loop_overlap\n"
        "    batch = self.get_next_batch_to_run()\n"
        "  File \".../sglang/srt/managers/scheduler.py\", line 2861, in get_next_batch_to_run\n"
        "    new_batch = self.get_new_batch_prefill()\n"
        "  File \".../sglang/srt/managers/schedule_batch.py\", line 1830, in prepare_for_extend\n"
        "    out_cache_loc, req_pool_indices_tensor, _ = alloc_for_extend(self)\n" TORCH_OOM_LINE;
    assert_string_equal(shown_stage(sched), "generate");
}

/* SRGAN's validation bar carries the set's metrics with their unit; the
 * message glued to its end fails in the validation pass, whatever module
 * forward the frames below show (leftthomas/SRGAN train.py val_bar). */
static void test_metric_bar_is_eval(void **state)
{
    (void)state;
    const char *srgan =
        "[converting LR images to SR images] PSNR: 22.1093 dB SSIM: 0.6120:   2%| | 3/150"
        "THCudaCheck FAIL file=/pytorch/torch/lib/THC/generic/THCStorage.cu line=58 error=2 : out of memory\n"
        "Traceback (most recent call last):\n"
        "  File \"train.py\", line 119, in <module>\n"
        "    sr = netG(lr)\n"
        "  File \"/env/lib/python2.7/site-packages/torch/nn/modules/module.py\", line 206, in __call__\n"
        "    result = self.forward(*input, **kwargs)\n"
        "  File \"/w/SRGAN/model.py\", line 37, in forward\n"
        "    block8 = self.block8(block1 + block7)\n"
        "RuntimeError: cuda runtime error (2) : out of memory at /pytorch/torch/lib/THC/generic/THCStorage.cu:58\n";
    assert_string_equal(shown_stage(srgan), "eval");
    /* guard: the training bar of the same loop shows losses */
    const char *train = "[converting LR images to SR images] Loss_D: 0.9812 Loss_G: 0.0467:   3%| | 6/200";
    assert_int_equal(stage_context_line(train, strlen(train)), OOM_STAGE_UNKNOWN);
}

/* A phase word inside a name is no phase: a project's directory in a
 * config echo, a class imported in pasted code. Guards: the words that
 * start a word still name their phase. */
static void test_phase_word_inside_name(void **state)
{
    (void)state;
    const char *hydra = "Error executing job with overrides: ['camera_type=PINHOLE', "
                        "'SCENE_DIR=/home/u/PoseEvaluation/scenes/kitchen']";
    assert_int_equal(stage_context_line(hydra, strlen(hydra)), OOM_STAGE_UNKNOWN);
    const char *import = "from transformers import AutoTokenizer, AutoModelForCausalLM";
    assert_int_equal(stage_context_line(import, strlen(import)), OOM_STAGE_UNKNOWN);
    const char *lavis = "Evaluation  [2060/5000]  eta: 0:10:11  time: 0.2473  data: 0.0002";
    assert_int_equal(stage_context_line(lavis, strlen(lavis)), OOM_STAGE_EVAL);
    const char *banner = "***** Running Evaluation *****";
    assert_int_equal(stage_context_line(banner, strlen(banner)), OOM_STAGE_EVAL);
    const char *tok = "Running tokenizer on dataset:  45%|####5     | 4500/10000";
    assert_int_equal(stage_context_line(tok, strlen(tok)), OOM_STAGE_DATA);
    const char *vggsfm =
        "OOM in the sparse reconstruction step\n"
        "\n"
        "Error executing job with overrides: ['camera_type=PINHOLE', 'SCENE_DIR=/home/u/PoseEvaluation/scenes/kitchen']\n"
        "Traceback (most recent call last):\n"
        "  File \"/home/u/PoseEvaluation/vggsfm/demo.py\", line 81, in demo_fn\n"
        "    predictions = vggsfm_runner.run(\n"
        "  File \"/home/u/PoseEvaluation/vggsfm/vggsfm/runners/runner.py\", line 402, in sparse_reconstruct\n"
        "    pred_track, pred_vis, pred_score = predict_tracks(\n"
        "  File \"/home/u/PoseEvaluation/vggsfm/vggsfm/models/track_predictor.py\", line 80, in forward\n"
        "    fmaps = self.process_images_to_fmaps(images)\n";
    assert_string_not_equal(shown_stage(vggsfm), "eval");
}

/* A dataset loaded for its test split, then a bar with no description
 * running over it: the test loop, eval (SoftGroup's log; its custom CUDA
 * op prints the failure). Guard: the train split's bar names nothing. */
static void test_eval_split_above_bare_bar(void **state)
{
    (void)state;
    const char *test =
        "out of memory when the test set runs\n"
        "INFO - 2023-03-21 08:14:02,117 - custom - Load test dataset: 25 scans\n"
        "  0%|          | 0/25 [00:00<?, ?it/s]\n"
        "CUDA kernel failed : out of memory\n";
    assert_string_equal(shown_stage(test), "eval");
    const char *train =
        "training runs out of memory\n"
        "INFO - 2023-03-21 08:14:02,117 - custom - Load train dataset: 1201 scans\n"
        "  0%|          | 0/600 [00:00<?, ?it/s]\n"
        "CUDA kernel failed : out of memory\n";
    assert_string_not_equal(shown_stage(train), "eval");
}

int main(int argc, char **argv)
{
    int rc = audit_main(&audit, argc, argv);
    if (rc >= 0) return rc;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_user_code_stages),
        cmocka_unit_test(test_webui_request_under_sampler_bar),
        cmocka_unit_test(test_bar_without_columns),
        cmocka_unit_test(test_model_loader_is_load),
        cmocka_unit_test(test_gan_trainer_builds_networks),
        cmocka_unit_test(test_generate_named_helper_is_not_generation),
        cmocka_unit_test(test_sglang_scheduler_serving_is_generate),
        cmocka_unit_test(test_metric_bar_is_eval),
        cmocka_unit_test(test_phase_word_inside_name),
        cmocka_unit_test(test_eval_split_above_bare_bar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
