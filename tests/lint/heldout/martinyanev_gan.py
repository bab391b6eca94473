# source: martinyanev94/generative-ai-projects:Lesson_10_Challenges_Of_Implementing_Generative_Models/part_0_gan_training.py@5c9736642319171ebc4d7b029be2246c94a61fd5 (trimmed excerpt)
d_losses = []
g_losses = []

for epoch in range(num_epochs):
    for i, (images, _) in enumerate(dataloader):
        real_labels = torch.ones(batch_size, 1)
        fake_labels = torch.zeros(batch_size, 1)
        optimizer_D.zero_grad()
        outputs = discriminator(images)
        d_loss_real = criterion(outputs, real_labels)
        z = torch.randn(batch_size, 100)
        fake_images = generator(z)
        outputs = discriminator(fake_images.detach())
        d_loss_fake = criterion(outputs, fake_labels)
        d_loss = d_loss_real + d_loss_fake
        d_loss.backward()
        optimizer_D.step()
        optimizer_G.zero_grad()
        outputs = discriminator(fake_images)
        g_loss = criterion(outputs, real_labels)
        g_loss.backward()
        optimizer_G.step()
        d_losses.append(d_loss.item())
        g_losses.append(g_loss.item())
