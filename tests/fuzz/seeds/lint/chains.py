opt = Adam(net.parameters())
)).train()
for x in d:
    net.eval().cpu()
    torch.save(net.state_dict(), p)
    net.to(dev).train()
    f(x)).to("cpu").eval()
    reset_grad()
    net(x).backward()
    opt.step()
def reset_grad():
    opt.zero_grad()
net.eval()
