# source: huggingface/accelerate:src/accelerate/test_utils/scripts/test_sync.py@16cb6eb80dd9aa8b4df1a63ef57863e455d53b83 (trimmed excerpt)
# Several forwards first, then one backward per kept loss: the list holds
# the graphs on purpose.
import torch.nn.functional as F


def test_distributed_sync_multiple_fwd(accelerator, ddp_model, dataloader):
    losses = []
    num_iterations = 3
    for iteration in range(num_iterations):
        ddp_input, ddp_target = next(iter(dataloader)).values()
        with accelerator.no_sync(ddp_model):
            ddp_output = ddp_model(ddp_input)
            loss = F.mse_loss(ddp_output, ddp_target.to(ddp_output.device))
            losses.append(loss)

    for iteration in range(num_iterations):
        loss = losses[iteration]
        if iteration < num_iterations - 1:
            accelerator.backward(loss)
        else:
            with accelerator.trigger_sync_in_backward(ddp_model):
                accelerator.backward(loss)
