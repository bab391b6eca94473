# source: Lightning-AI/pytorch-lightning:examples/pytorch/domain_templates/imagenet.py@7f0c3436cd3f6ad3753125672024fc415cbcb414 (trimmed excerpt)
# eval_step runs only from validation_step and test_step, which Lightning
# runs without gradients: it is not evaluation with gradients on.
import lightning as L
import torch.nn.functional as F


class ImageNetLightningModel(L.LightningModule):
    def training_step(self, batch, batch_idx):
        images, target = batch
        output = self.model(images)
        loss_train = F.cross_entropy(output, target)
        self.log("train_loss", loss_train)
        return loss_train

    def eval_step(self, batch, batch_idx, prefix: str):
        images, target = batch
        output = self.model(images)
        loss_val = F.cross_entropy(output, target)
        self.log(f"{prefix}_loss", loss_val)
        return loss_val

    def validation_step(self, batch, batch_idx):
        return self.eval_step(batch, batch_idx, "val")

    def test_step(self, batch, batch_idx):
        return self.eval_step(batch, batch_idx, "test")
