# source: huggingface/accelerate:src/accelerate/test_utils/scripts/test_sync.py@16cb6eb80dd9aa8b4df1a63ef57863e455d53b83 (trimmed excerpt)
# test_noop_sync is named like evaluation but trains: step_model, a function
# of this file, runs the model and backward().
import torch.nn.functional as F


def step_model(model, input, target, accelerator, do_backward=True):
    model.train()
    output = model(input)
    loss = F.mse_loss(output, target.to(output.device))
    if not do_backward:
        loss /= accelerator.gradient_accumulation_steps
        loss.backward()
    else:
        accelerator.backward(loss)


def test_noop_sync(accelerator):
    model, ddp_model, dataloader = get_training_setup(accelerator)
    ddp_input, ddp_target = next(iter(dataloader)).values()
    for iteration in range(3):
        input, target = accelerator.gather((ddp_input, ddp_target))
        input, target = input.to(accelerator.device), target.to(accelerator.device)
        step_model(model, input, target, accelerator)
        if iteration % 2 == 0:
            with accelerator.no_sync(ddp_model):
                step_model(ddp_model, ddp_input, ddp_target, accelerator)
        else:
            step_model(ddp_model, ddp_input, ddp_target, accelerator)
