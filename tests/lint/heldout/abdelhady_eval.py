# source: AbdelhadySayed/COVAID19-Image-Classification-Pytorch:eval.py@c0ff577303c4b62674cd9b418602d608bfe4c619 (trimmed excerpt)
import torch
import torchvision
import torch.optim as optim


def test(model, test_loader, criterion):

    device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
    model = model.to(device)
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            data = data.to(device)
            target = target.to(device)
            output = model(data)
            test_loss += criterion(output, target).item()  # sum up batch loss
            pred = output.max(1, keepdim=True)[1]
            correct += pred.eq(target.view_as(pred)).sum().item()
    test_acc = 100.0 * correct / len(test_loader.dataset)
    test_loss /= len(test_loader.dataset)

    return test_loss, test_acc
