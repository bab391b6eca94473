# source: kitsamho/MNIST_deep_learning:test_model.py@95c3e124d019175891c99aba163a0a921c4b0129 (trimmed excerpt)
import torch


def test(model, test_loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            data = data.view(data.shape[0], -1)
            output = model(data)
            pred = output.argmax(dim=1, keepdim=True)
        print(f'Test set: Accuracy: {correct}/{len(test_loader.dataset)} = {100*(correct/len(test_loader.dataset))}%)')
