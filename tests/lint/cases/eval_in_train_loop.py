# source: restated (our own code, the statements that matter kept) from
# tk-rusch/coRNN:adding/adding_task.py@ba26cee3a74c46ba4ed3a2dc73249efe39f80827 lines 44-70
# (tk-rusch/coRNN#1: "you forget to turn training back on after doing a test"): model.train()
# once before the step loop, test() -- which calls model.eval() -- every 100 steps inside it.
import torch


def test_mse():
    model.eval()
    with torch.no_grad():
        out = model(data.to(device))
        return objective(out, label.to(device)).item()


def train():
    model.train()
    for i in range(args.max_steps):
        optimizer.zero_grad(set_to_none=True)
        loss = objective(model(data.to(device)), label.to(device))
        loss.backward()
        optimizer.step()
        if i % 100 == 0 and i != 0:
            mse_error = test_mse()                      # expect: eval-never-train
