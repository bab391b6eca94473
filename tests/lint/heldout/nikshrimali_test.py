# source: nikshrimali/TSAI_EVA:Assignment-6/test/test.py@107a6f02139e56899a98e7aa402640bcd469a939 (trimmed excerpt)
import torch

test_losses = []
test_acc = []

def test(model, device, test_dataloader):
    model.eval()
    test_loss = 0
    correct = 0

    with torch.no_grad():

        for data, target in test_dataloader:
            data, target = data.to(device), target.to(device)
            output = model(data)
            pred = output.argmax(dim=1, keepdim=True)
            test_loss += F.nll_loss(output, target, reduction='sum').item()
            correct += pred.eq(target.view_as(pred)).sum().item()
    test_loss /= len(test_dataloader.dataset)
    test_losses.append(test_loss)

    print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.2f}%)\n'.format(
        test_loss, correct, len(test_dataloader.dataset),
        100. * correct / len(test_dataloader.dataset)))

    test_acc.append(100. * correct / len(test_dataloader.dataset))
