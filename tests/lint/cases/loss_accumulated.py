# source: constructed from the guide /work/shared/seeds/001_c9075d18183199c4.txt, step 4
# ("write loss.item(); total_loss += loss pins the whole graph in GPU memory")
import torch


def train_epoch(model, loader, optimizer, criterion, device):
    model.train()
    total_loss = 0
    for x, y in loader:
        optimizer.zero_grad(set_to_none=True)
        loss = criterion(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        total_loss += loss                      # expect: loss-accumulated
    return total_loss / len(loader)


def train_logged(model, loader, optimizer, device):
    history = {"loss": []}
    for batch in loader:
        out = model(**batch)
        out.loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        history["loss"].append(out.loss)        # expect: loss-accumulated
    return history


# source: restated (our own code) from BatsResearch/labelmodels#4: at
# labelmodels/label_model.py@3b5683bef7ee902dc205a8cd93572b05b88dbad5 line 90 `running_loss` summed the
# loss tensors ("holding on to the graph for each batch per epoch ... my GPU runs out of memory");
# the loop's shape is that of the fixed file (label_model.py@03fe595e8c00c06a7f2ae53fa8df8390dd37fa64).
class LabelModel(nn.Module):
    def _do_estimate_label_model(self, batches, config):
        optimizer = torch.optim.SGD(self.parameters(), lr=config.step_size)
        for epoch in range(config.epochs):
            self.train()
            running_loss = 0.0
            for i_batch, inputs in enumerate(batches):
                optimizer.zero_grad(set_to_none=True)
                log_likelihood = self(*inputs)
                loss = -1 * torch.mean(log_likelihood)
                loss += self._get_regularization_loss()
                loss.backward()
                optimizer.step()
                running_loss += loss                # expect: loss-accumulated
