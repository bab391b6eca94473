# source: restated from the fix, tk-rusch/coRNN:adding/adding_task.py@b955795001e1dbb1b80522c63b0237d272cf1619
# lines 54-70: model.train() right after the evaluation, inside the loop.
import torch


def test_mse():
    model.eval()
    with torch.no_grad():
        out = model(data.to(device))
        return objective(out, label.to(device)).item()


def train():
    for i in range(args.max_steps):
        optimizer.zero_grad(set_to_none=True)
        loss = objective(model(data.to(device)), label.to(device))
        loss.backward()
        optimizer.step()
        if i % 100 == 0 and i != 0:
            mse_error = test_mse()
            model.train()
