/* simtrain: a simulated trainer for tests and demos. It models GPU memory
 * as base + per-token activations x batch x seq (+ growth per step, + an eval
 * spike, + optimizer states at the first step), "allocates" it on the fake
 * GPU ($OOMLAB_FAKE_NVML_DIR/procs/<pid>, lines "GPU_INDEX BYTES") whose size
 * it reads from $OOMLAB_FAKE_NVML_DIR/gpus (lines "INDEX TOTAL BASE_USED
 * UTIL NAME..."), prints realistic logs (the guide's step lines or HF
 * Trainer dicts) and, once the model exceeds the card, a real current-form
 * PyTorch OOM traceback with stage-revealing frames, then exits 1.
 * It can also crash, hang, exit with a code, die like a host OOM kill, or
 * flood 1 GB of output. `simtrain --help` lists the options. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "lib/runcfg.h"

#define GIB 1073741824.0
#define MIB 1048576.0

struct sim {
    long batch, seq, steps, log_every, sleep_ms, eval_every, gpu;
    double base_gb, per_token_kb, growth_mb, eval_spike_gb, optim_gb, card_gb, context_mb;
    double loss_start, loss_decay;
    const char *loss_mode, *format;
    long crash_at, hang_at, host_oom_at, exit_code;
    long long flood;
    bool flood_mix, ignore_term;
    /* derived */
    double card, base_used;
};

static char procs_path[4096];
static char procs_tmp[4200];

static void release_gpu(void)
{
    if (procs_path[0]) unlink(procs_path);
}

static void on_signal(int sig)
{
    static const char kbd[] = "Traceback (most recent call last):\n"
                              "  File \"/home/user/project/train.py\", line 131, in <module>\n"
                              "    main()\nKeyboardInterrupt\n";
    if (sig == SIGINT) {
        ssize_t n = write(2, kbd, sizeof kbd - 1);
        (void)n;
    }
    release_gpu();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void write_alloc(const struct sim *s, double bytes)
{
    if (!procs_path[0]) return;
    FILE *f = fopen(procs_tmp, "w");
    if (!f) return;
    fprintf(f, "%ld %.0f\n", s->gpu, bytes);
    if (fclose(f) == 0) rename(procs_tmp, procs_path);
}

static void read_card(struct sim *s)
{
    const char *dir = getenv("OOMLAB_FAKE_NVML_DIR");
    s->card = 24.0 * GIB;
    s->base_used = 0;
    if (dir && *dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/gpus", dir);
        FILE *f = fopen(path, "r");
        char line[512];
        while (f && fgets(line, sizeof line, f)) {
            long idx;
            double total, used;
            if (sscanf(line, "%ld %lf %lf", &idx, &total, &used) == 3 && idx == s->gpu) {
                s->card = total;
                s->base_used = used;
            }
        }
        if (f) fclose(f);
        snprintf(procs_path, sizeof procs_path, "%s/procs/%ld", dir, (long)getpid());
        snprintf(procs_tmp, sizeof procs_tmp, "%s.tmp", procs_path);
    }
    if (s->card_gb > 0) s->card = s->card_gb * GIB;
}

/* PyTorch's format_size: bytes, KiB, MiB, GiB with two decimals. */
static const char *fmt_size(double b, char *buf, size_t size)
{
    if (b < 1024) snprintf(buf, size, "%.0f bytes", b);
    else if (b < MIB) snprintf(buf, size, "%.2f KiB", b / 1024);
    else if (b < GIB) snprintf(buf, size, "%.2f MiB", b / MIB);
    else snprintf(buf, size, "%.2f GiB", b / GIB);
    return buf;
}

static const char *const frames_forward[] = {
    "  File \"/home/user/project/train.py\", line 104, in train_step\n"
    "    outputs = model(input_ids=batch[\"input_ids\"], labels=batch[\"labels\"])\n",
    "  File \"/usr/local/lib/python3.11/site-packages/torch/nn/modules/module.py\", line 1736, in _wrapped_call_impl\n"
    "    return self._call_impl(*args, **kwargs)\n",
    "  File \"/usr/local/lib/python3.11/site-packages/torch/nn/modules/module.py\", line 1747, in _call_impl\n"
    "    return forward_call(*args, **kwargs)\n",
    "  File \"/usr/local/lib/python3.11/site-packages/transformers/models/llama/modeling_llama.py\", line 1190, in forward\n"
    "    outputs = self.model(\n",
    "  File \"/usr/local/lib/python3.11/site-packages/transformers/models/llama/modeling_llama.py\", line 336, in forward\n"
    "    attn_weights = torch.matmul(query_states, key_states.transpose(2, 3)) / math.sqrt(self.head_dim)\n",
    NULL};
static const char *const frames_backward[] = {
    "  File \"/home/user/project/train.py\", line 109, in train_step\n"
    "    loss.backward()\n",
    "  File \"/usr/local/lib/python3.11/site-packages/torch/_tensor.py\", line 581, in backward\n"
    "    torch.autograd.backward(\n",
    "  File \"/usr/local/lib/python3.11/site-packages/torch/autograd/__init__.py\", line 347, in backward\n"
    "    _engine_run_backward(\n",
    "  File \"/usr/local/lib/python3.11/site-packages/torch/autograd/graph.py\", line 825, in _engine_run_backward\n"
    "    return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass\n",
    NULL};
static const char *const frames_optimizer[] = {
    "  File \"/home/user/project/train.py\", line 112, in train_step\n"
    "    optimizer.step()\n",
    "  File \"/usr/local/lib/python3.11/site-packages/torch/optim/optimizer.py\", line 487, in wrapper\n"
    "    out = func(*args, **kwargs)\n",
    "  File \"/usr/local/lib/python3.11/site-packages/torch/optim/adamw.py\", line 209, in step\n"
    "    has_complex = self._init_group(\n",
    "  File \"/usr/local/lib/python3.11/site-packages/torch/optim/adamw.py\", line 152, in _init_group\n"
    "    state[\"exp_avg\"] = torch.zeros_like(\n",
    NULL};
static const char *const frames_eval[] = {
    "  File \"/home/user/project/train.py\", line 124, in main\n"
    "    metrics = evaluate(model, eval_loader)\n",
    "  File \"/home/user/project/train.py\", line 71, in evaluate\n"
    "    logits = model(input_ids=batch[\"input_ids\"]).logits\n",
    "  File \"/usr/local/lib/python3.11/site-packages/torch/nn/modules/module.py\", line 1747, in _call_impl\n"
    "    return forward_call(*args, **kwargs)\n",
    NULL};

static void oom(struct sim *s, const char *const *frames, double in_use, double requested)
{
    char req[32], cap[32], fr[32], use[32], al[32], un[32];
    double free_b = s->card - s->base_used - in_use;
    if (free_b < 0) free_b = 0;
    double allocated = (in_use - s->context_mb * MIB) * 0.96;
    double unalloc = in_use - s->context_mb * MIB - allocated;
    write_alloc(s, in_use);
    fflush(stdout);
    fprintf(stderr, "Traceback (most recent call last):\n"
                    "  File \"/home/user/project/train.py\", line 131, in <module>\n    main()\n");
    if (frames != frames_eval)
        fprintf(stderr, "  File \"/home/user/project/train.py\", line 120, in main\n"
                        "    loss = train_step(model, batch, optimizer)\n");
    for (size_t i = 0; frames[i]; i++) fputs(frames[i], stderr);
    fprintf(stderr,
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate %s. GPU %ld has a total "
            "capacity of %s of which %s is free. Including non-PyTorch memory, this process has "
            "%s memory in use. Of the allocated memory %s is allocated by PyTorch, and %s is "
            "reserved by PyTorch but unallocated. If reserved but unallocated memory is large try "
            "setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See "
            "documentation for Memory Management  "
            "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n",
            fmt_size(requested, req, sizeof req), s->gpu, fmt_size(s->card, cap, sizeof cap),
            fmt_size(free_b, fr, sizeof fr), fmt_size(in_use, use, sizeof use),
            fmt_size(allocated, al, sizeof al), fmt_size(unalloc, un, sizeof un));
    fflush(stderr);
    release_gpu();
    exit(1);
}

static double loss_at(const struct sim *s, long step)
{
    const char *m = s->loss_mode;
    if (!strcmp(m, "nan") && step > s->steps / 2) return NAN;
    if (!strcmp(m, "flat")) return s->loss_start + 0.001 * (double)(step % 3);
    if (!strcmp(m, "rising")) return s->loss_start + s->loss_decay * (double)step;
    return s->loss_start * exp(-s->loss_decay * (double)step) + 0.05 * sin((double)step);
}

static void log_step(const struct sim *s, long step, double loss, double alloc, double reserved)
{
    if (!strcmp(s->format, "hf")) {
        printf("{'loss': %.4f, 'grad_norm': %.4f, 'learning_rate': %.1e, 'epoch': %.2f}\n", loss,
               1.0 + 0.1 * (double)(step % 7), 5e-05 * (1.0 - (double)step / (double)(s->steps + 1)),
               (double)step / (double)s->steps);
    } else if (!strcmp(s->format, "plain")) {
        printf("step %ld | loss %.4f\n", step, loss);
    } else {
        printf("step=%ld loss=%.4f peak_alloc=%.2fGB peak_reserved=%.2fGB\n", step, loss, alloc / GIB,
               reserved / GIB);
    }
    fflush(stdout);
}

static void crash(const struct sim *s, long step)
{
    fprintf(stderr, "Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f3a5c1ff740 "
                    "(most recent call first):\n  File \"/home/user/project/train.py\", line 104 in "
                    "train_step\n  File \"/home/user/project/train.py\", line 120 in main\n");
    fflush(stderr);
    release_gpu();
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
    (void)s;
    (void)step;
}

static void host_oom(void)
{
    fputs("Killed\n", stderr);
    fflush(stderr);
    release_gpu();
    raise(SIGKILL);
}

static void nap(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (ms > 0 && nanosleep(&ts, &ts) < 0 && errno == EINTR) {
    }
}

/* One step: forward, backward, optimizer (+ eval); OOM where the model
 * first exceeds the card. */
static void step(struct sim *s, long n)
{
    double act = s->per_token_kb * 1024.0 * (double)s->batch * (double)s->seq;
    double base = s->base_gb * GIB + s->growth_mb * MIB * (double)(n - 1);
    double room = s->card - s->base_used - s->context_mb * MIB;
    double ctx = s->context_mb * MIB;
    double fwd = base + 0.6 * act, bwd = base + act;
    double opt = base + 0.1 * act + (n == 1 ? s->optim_gb * GIB : 0);
    if (n > 1) base += s->optim_gb * GIB, fwd += s->optim_gb * GIB, bwd += s->optim_gb * GIB;
    if (fwd * 1.05 > room) oom(s, frames_forward, fmin(fwd * 0.8, room * 0.985) + ctx, act * 0.25);
    write_alloc(s, fwd * 1.05 + ctx);
    if (bwd * 1.05 > room) oom(s, frames_backward, fmin(bwd * 0.85, room * 0.985) + ctx, act * 0.3);
    if (opt * 1.05 > room) oom(s, frames_optimizer, fmin(opt, room * 0.985) + ctx, s->optim_gb * GIB / 2);
    write_alloc(s, bwd * 1.05 + ctx);
    if (s->eval_every > 0 && n % s->eval_every == 0) {
        double ev = base + s->eval_spike_gb * GIB;
        if (ev * 1.05 > room) oom(s, frames_eval, fmin(ev * 0.9, room * 0.985) + ctx, s->eval_spike_gb * GIB / 2);
        if (ev > bwd) bwd = ev;
    }
    if (n % s->log_every == 0 || n == s->steps) log_step(s, n, loss_at(s, n), bwd, bwd * 1.05);
}

static void flood(const struct sim *s)
{
    static char buf[1 << 20];
    size_t len = 0;
    for (long i = 0; len + 64 <= sizeof buf; i++) {
        int n = snprintf(buf + len, sizeof buf - len, "flood %08ld the quick brown fox jumps over the lazy dog....\n", i);
        if (n < 0) break;
        len += (size_t)n;
    }
    for (long long sent = 0, chunk = 0; sent < s->flood; chunk++) {
        size_t n = (size_t)(s->flood - sent < (long long)len ? s->flood - sent : (long long)len);
        int fd = s->flood_mix && (chunk & 1) ? 2 : 1;
        for (size_t off = 0; off < n;) {
            ssize_t w = write(fd, buf + off, n - off);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) exit(3);
            off += (size_t)w;
        }
        sent += (long long)n;
    }
}

static const char usage[] =
    "usage: simtrain [--batch N] [--seq N] [--steps N] [--config FILE] [--log-every N]\n"
    "  [--sleep-ms N] [--base-gb X] [--per-token-kb X] [--growth-mb X] [--optim-gb X]\n"
    "  [--eval-every N] [--eval-spike-gb X] [--card-gb X] [--gpu N] [--context-mb X]\n"
    "  [--format guide|hf|plain] [--loss falling|flat|rising|nan] [--loss-start X]\n"
    "  [--loss-decay X] [--crash-at N] [--hang-at N] [--host-oom-at N] [--exit-code N]\n"
    "  [--flood BYTES] [--flood-mix] [--ignore-term]\n";

static void apply_config(struct sim *s, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "simtrain: cannot read %s\n", path);
        exit(2);
    }
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    struct runcfg cfg;
    struct oomlab_err err = {{0}};
    runcfg_init(&cfg);
    if (runcfg_parse(&cfg, text, n, path, &err) < 0) {
        fprintf(stderr, "simtrain: %s\n", err.msg);
        exit(2);
    }
    if (cfg.device_batch_size > 0) s->batch = cfg.device_batch_size;
    if (cfg.max_seq_len > 0) s->seq = cfg.max_seq_len;
    runcfg_release(&cfg);
}

static void parse(struct sim *s, int argc, char **argv)
{
    static const struct option opts[] = {
        {"batch", 1, 0, 'b'}, {"seq", 1, 0, 's'}, {"steps", 1, 0, 'n'}, {"log-every", 1, 0, 'l'},
        {"sleep-ms", 1, 0, 'w'}, {"base-gb", 1, 0, 'B'}, {"per-token-kb", 1, 0, 'k'},
        {"growth-mb", 1, 0, 'g'}, {"optim-gb", 1, 0, 'o'}, {"eval-every", 1, 0, 'e'},
        {"eval-spike-gb", 1, 0, 'E'}, {"card-gb", 1, 0, 'C'}, {"gpu", 1, 0, 'G'},
        {"context-mb", 1, 0, 'x'}, {"format", 1, 0, 'f'}, {"loss", 1, 0, 'L'},
        {"loss-start", 1, 0, 'S'}, {"loss-decay", 1, 0, 'D'}, {"crash-at", 1, 0, 'c'},
        {"hang-at", 1, 0, 'H'}, {"host-oom-at", 1, 0, 'K'}, {"exit-code", 1, 0, 'X'},
        {"flood", 1, 0, 'F'}, {"flood-mix", 0, 0, 'M'}, {"ignore-term", 0, 0, 'I'},
        {"config", 1, 0, 'y'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'b': s->batch = strtol(optarg, NULL, 10); break;
        case 's': s->seq = strtol(optarg, NULL, 10); break;
        case 'n': s->steps = strtol(optarg, NULL, 10); break;
        case 'l': s->log_every = strtol(optarg, NULL, 10); break;
        case 'w': s->sleep_ms = strtol(optarg, NULL, 10); break;
        case 'B': s->base_gb = strtod(optarg, NULL); break;
        case 'k': s->per_token_kb = strtod(optarg, NULL); break;
        case 'g': s->growth_mb = strtod(optarg, NULL); break;
        case 'o': s->optim_gb = strtod(optarg, NULL); break;
        case 'e': s->eval_every = strtol(optarg, NULL, 10); break;
        case 'E': s->eval_spike_gb = strtod(optarg, NULL); break;
        case 'C': s->card_gb = strtod(optarg, NULL); break;
        case 'G': s->gpu = strtol(optarg, NULL, 10); break;
        case 'x': s->context_mb = strtod(optarg, NULL); break;
        case 'f': s->format = optarg; break;
        case 'L': s->loss_mode = optarg; break;
        case 'S': s->loss_start = strtod(optarg, NULL); break;
        case 'D': s->loss_decay = strtod(optarg, NULL); break;
        case 'c': s->crash_at = strtol(optarg, NULL, 10); break;
        case 'H': s->hang_at = strtol(optarg, NULL, 10); break;
        case 'K': s->host_oom_at = strtol(optarg, NULL, 10); break;
        case 'X': s->exit_code = strtol(optarg, NULL, 10); break;
        case 'F': s->flood = strtoll(optarg, NULL, 10); break;
        case 'M': s->flood_mix = true; break;
        case 'I': s->ignore_term = true; break;
        case 'y': apply_config(s, optarg); break;
        case 'h': fputs(usage, stdout); exit(0);
        default: fputs(usage, stderr); exit(2);
        }
    }
    if (s->batch < 1 || s->seq < 1 || s->steps < 0 || s->log_every < 1) {
        fputs("simtrain: batch, seq and log-every must be positive\n", stderr);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    struct sim s = {.batch = 8, .seq = 1024, .steps = 20, .log_every = 1, .sleep_ms = 10,
                    .base_gb = 2.0, .per_token_kb = 256, .context_mb = 300, .loss_start = 2.5,
                    .loss_decay = 0.05, .loss_mode = "falling", .format = "guide"};
    parse(&s, argc, argv);
    if (s.flood > 0) {
        flood(&s);
        return (int)s.exit_code;
    }
    read_card(&s);
    signal(SIGINT, on_signal);
    signal(SIGTERM, s.ignore_term ? SIG_IGN : on_signal);
    signal(SIGHUP, on_signal);
    printf("simtrain: batch=%ld seq=%ld steps=%ld card=%.2fGiB\n", s.batch, s.seq, s.steps, s.card / GIB);
    fflush(stdout);
    write_alloc(&s, s.base_gb * GIB + s.context_mb * MIB);
    for (long n = 1; n <= s.steps; n++) {
        if (n == s.crash_at) crash(&s, n);
        if (n == s.host_oom_at) host_oom();
        if (n == s.hang_at) {
            printf("step=%ld waiting on a collective...\n", n);
            fflush(stdout);
            for (;;) pause();
        }
        step(&s, n);
        nap(s.sleep_ms);
    }
    printf("simtrain: done\n");
    fflush(stdout);
    release_gpu();
    return (int)s.exit_code;
}
