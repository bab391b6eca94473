# source: lucaayscough/Gravity:Generator/loss.py@ad52c0dabd8f473d42969b892c173f52d91a9341 (trimmed excerpt)
class Trainer:
    def _train_discriminator_wgangp(self, real):
        noise = torch.randn((self.batch_size, self.z_dim)).to(self.device)
        fake = self.netG(noise)
        disc_real = self.netD(real)
        disc_fake = self.netD(fake)
        gp = gradient_penalty(self.netD, real, fake, device = self.device)
        self.loss_disc = -(torch.mean(disc_real) - torch.mean(disc_fake)) + 10 * gp
        self.netD.zero_grad()
        self.loss_disc.backward(retain_graph = True)
        self.opt_dis.step()

    def _train_discriminator(self, real, idx):
        self._set_grad_flag(self.netD, True)
        self._set_grad_flag(self.netG, False)
        self._fast_zero_grad(self.netD)
        noise = torch.randn((self.batch_size, self.z_dim)).to(self.device)
        fake = self.netG(noise)
        disc_real = self.netD(real)
        disc_fake = self.netD(fake)
        gp = gradient_penalty(self.netD, real, fake, device = self.device)
        self.loss_disc = -(torch.mean(disc_real) - torch.mean(disc_fake)) + 10 * gp
        self.loss_disc.backward(retain_graph = True)
        self.opt_dis.step()
