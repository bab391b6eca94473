# source: ak4off/da6401_assignment2:partA/evaluate.py@895bd798a7584437dd05c25c6743126aac28dc58 (trimmed excerpt)
# and s-froghyar/thesis-project-mgr:tpreporter/reporter_utils.py@53252abd24983cf86feda9199102bf841d8f514a (trimmed excerpt)
import torch


def evaluate(model, loader, criterion, device):
    model.eval()
    running_loss, correct, total = 0, 0, 0
    with torch.no_grad():
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            outputs = model(images)
            loss = criterion(outputs, labels)
            running_loss += loss.item() * images.size(0)
            correct += (outputs.argmax(1) == labels).sum().item()
            total += labels.size(0)
    return running_loss / total, correct / total


@torch.no_grad()
def get_all_preds(model, loader):
    all_preds = torch.tensor([])
    for batch in loader:
        images, labels = batch
        preds = model(images)
        all_preds = torch.cat((all_preds, preds), dim=0)
    return all_preds


class LitModel:
    def validation_step(self, batch, batch_idx):
        # Lightning runs this hook under no_grad itself
        return self.model(batch)


def load_model(path):
    model = build_model()
    model.eval()
    return model
