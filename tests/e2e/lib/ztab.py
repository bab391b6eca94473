# ztab.py FPATHDIR LINE...: a real interactive zsh (-f, in a pty) with
# FPATHDIR first in $fpath and compinit run as a user's .zshrc would (a
# fresh dump in the cwd); for each LINE, type it, press TAB twice, and
# print what the terminal got (escapes and all), then a line "----".
import os, pty, select, sys, time
fdir, lines = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.environ["PS1"] = "%% "
    os.execvp("zsh", ["zsh", "-f", "-i"])
def drain(t):
    out, end = b"", time.time() + t
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try: out += os.read(fd, 65536)
            except OSError: break
    return out
def send(s): os.write(fd, s.encode())
send("fpath=(%s $fpath); autoload -Uz compinit; rm -f $PWD/.ztab-dump*; compinit -u -d $PWD/.ztab-dump\n" % fdir)
drain(1.5)
for l in lines:
    send(l + "\t")
    out = drain(1.0)
    send("\t")
    out += drain(1.5)
    send("\x15")  # kill the line
    drain(0.3)
    sys.stdout.write(out.decode("utf-8", "replace") + "\n----\n")
send("exit\n"); drain(0.5)
