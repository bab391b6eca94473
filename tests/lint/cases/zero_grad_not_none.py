# source: devastate347/ASLtranslator:datasetAI/modelTraining.py@c8d72a53d085e21e2bb9aa800c626a157bb65644 (trimmed excerpt)
import torch.optim as optim

criterion = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=0.001)

for epoch in range(10):
    running_loss = 0.0
    for i, data in enumerate(train_loader, 0):
        inputs, labels = data
        optimizer.zero_grad()                   # expect: zero-grad-not-none
        outputs = model(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
