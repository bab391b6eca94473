# oomlab's PyTorch hook: per-step allocator figures and OOM evidence for
# `oomlab run --torch`, without touching the training script. Loaded by the
# sitecustomize beside it; stdlib + torch only; does nothing until (and
# unless) the program imports torch, and never writes to stdout/stderr.
#
# Contract with oomlab (all paths come from the environment `run` sets):
#   OOMLAB_TORCH         "steps" or "snapshot"
#   OOMLAB_TORCH_STEPS   CSV to append to (oomlab writes the header first):
#                        step,time,rank,local_rank,device,optimizer,
#                        allocated,reserved,peak_allocated,peak_reserved
#   OOMLAB_TORCH_OOM_DIR where memory_summary()/snapshot files go on an OOM
#   OOMLAB_TORCH_ERRORS  where the hook's own errors go (never raised)
#   OOMLAB_TORCH_MAX_ENTRIES  memory-history entries kept (snapshot mode)
#   OOMLAB_TORCH_FAKE_CUDA    tests only: a JSON file of scripted figures
#                        that stands in for torch.cuda's counters (no GPU)
import functools
import json
import os
import sys
import time
import traceback

_env = os.environ
_state = {"torch": None, "fd": None, "counts": {}, "ids": {}, "ooms": 0,
          "broken": set(), "history": False}
_MAX_OOM_DUMPS = 3
_RANK_VARS = ("RANK", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK")
_LOCAL_VARS = ("LOCAL_RANK", "SLURM_LOCALID", "OMPI_COMM_WORLD_LOCAL_RANK",
               "MPI_LOCALRANKID")


def _first_env(names):
    for n in names:
        v = _env.get(n)
        if v is not None and v.strip().isdigit():
            return v.strip()
    return ""


def _error(where):
    """Record the hook's own failure in its file and switch that part off."""
    _state["broken"].add(where)
    path = _env.get("OOMLAB_TORCH_ERRORS")
    if not path:
        return
    try:
        with open(path, "a") as f:
            f.write("oomlab torch hook: %s failed in pid %d:\n" % (where, os.getpid()))
            f.write(traceback.format_exc())
    except Exception:
        pass


class _Cuda:
    """torch.cuda's counters; one method per figure the hook reads."""

    def __init__(self, torch):
        self.c = torch.cuda

    def ready(self):
        return self.c.is_available() and self.c.is_initialized()

    def devices(self):
        cur = self.c.current_device()
        out = [d for d in range(self.c.device_count())
               if d == cur or self.c.memory_reserved(d) > 0]
        return out

    def figures(self, d):
        return (self.c.memory_allocated(d), self.c.memory_reserved(d),
                self.c.max_memory_allocated(d), self.c.max_memory_reserved(d))

    def reset(self, d):
        self.c.reset_peak_memory_stats(d)

    def summary(self, d):
        return self.c.memory_summary(d)


class _FakeCuda:
    """Scripted figures for tests without a GPU (OOMLAB_TORCH_FAKE_CUDA):
    {"devices": [0], "steps": [[alloc, reserved, peak_alloc, peak_reserved],
    ...], "summary": "text"}; one entry per recorded step, the last repeats."""

    def __init__(self, path):
        with open(path) as f:
            self.spec = json.load(f)
        self.i = 0

    def ready(self):
        return True

    def devices(self):
        return list(self.spec.get("devices", [0]))

    def figures(self, d):
        steps = self.spec["steps"]
        return tuple(steps[min(self.i, len(steps) - 1)])

    def reset(self, d):
        if d == self.devices()[-1]:
            self.i += 1

    def summary(self, d):
        return self.spec.get("summary", "scripted memory summary (no GPU)\n")


def _cuda():
    fake = _env.get("OOMLAB_TORCH_FAKE_CUDA")
    if fake:
        if "fake" not in _state:
            _state["fake"] = _FakeCuda(fake)
        return _state["fake"]
    return _Cuda(_state["torch"])


def _steps_fd():
    if _state["fd"] is None:
        path = _env.get("OOMLAB_TORCH_STEPS")
        if not path:
            return -1
        _state["fd"] = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
    return _state["fd"]


def _record_step(optimizer):
    """After an optimizer step: one row per device, then reset the peaks so
    the next row's peaks cover the next step only. One write per row on an
    O_APPEND descriptor, so ranks sharing the file never interleave."""
    if "steps" in _state["broken"]:
        return
    try:
        cuda = _cuda()
        if not cuda.ready():
            return
        fd = _steps_fd()
        if fd < 0:
            return
        key = id(optimizer)
        ids = _state["ids"]
        if key not in ids:
            ids[key] = len(ids)
        n = _state["counts"].get(key, 0) + 1
        _state["counts"][key] = n
        rank, local = _first_env(_RANK_VARS), _first_env(_LOCAL_VARS)
        now = time.time()
        for d in cuda.devices():
            a, r, pa, pr = cuda.figures(d)
            row = "%d,%.6f,%s,%s,%d,%d,%d,%d,%d,%d\n" % (
                n, now, rank, local, d, ids[key], a, r, pa, pr)
            os.write(fd, row.encode())
            cuda.reset(d)
    except Exception:
        _error("steps")


def _is_cuda_oom(exc):
    torch = _state["torch"]
    oom_type = getattr(getattr(torch, "cuda", None), "OutOfMemoryError", None)
    if oom_type is not None and isinstance(exc, oom_type):
        return True
    return isinstance(exc, RuntimeError) and "CUDA out of memory" in str(exc)


def _dump_oom(reason):
    """memory_summary() of every device and, in snapshot mode, the snapshot
    pickle, into OOMLAB_TORCH_OOM_DIR; at most a few per process."""
    if "oom" in _state["broken"] or _state["ooms"] >= _MAX_OOM_DUMPS:
        return
    out = _env.get("OOMLAB_TORCH_OOM_DIR")
    if not out:
        return
    try:
        _state["ooms"] += 1
        os.makedirs(out, exist_ok=True)
        rank = _first_env(_RANK_VARS) or "0"
        stem = os.path.join(out, "rank%s-pid%d-%d" % (rank, os.getpid(), _state["ooms"]))
        cuda = _cuda()
        with open(stem + ".summary.txt", "w") as f:
            f.write("oomlab torch hook: %s\n" % reason)
            for d in cuda.devices():
                f.write(cuda.summary(d))
        if _state["history"]:
            _dump_snapshot(stem + ".pickle")
    except Exception:
        _error("oom")


def _dump_snapshot(path):
    mem = _state["torch"].cuda.memory
    if hasattr(mem, "_dump_snapshot"):
        mem._dump_snapshot(path)
        return
    import pickle
    with open(path, "wb") as f:
        pickle.dump(mem._snapshot(), f)


def _start_history():
    """Snapshot mode: record allocation history (bounded) once CUDA is up;
    the keyword differs by torch version."""
    if _state["history"] or _env.get("OOMLAB_TORCH") != "snapshot":
        return
    try:
        if _env.get("OOMLAB_TORCH_FAKE_CUDA"):
            return
        mem = _state["torch"].cuda.memory
        entries = int(_env.get("OOMLAB_TORCH_MAX_ENTRIES", "100000"))
        for call in (lambda: mem._record_memory_history("all", max_entries=entries),
                     lambda: mem._record_memory_history(True, trace_alloc_max_entries=entries),
                     lambda: mem._record_memory_history(True)):
            try:
                call()
                _state["history"] = True
                return
            except TypeError:
                continue
    except Exception:
        _error("history")


def _wrap_lazy_init(torch):
    """torch initialises CUDA lazily through torch.cuda._lazy_init (C++
    looks the attribute up at call time); start the history right after."""
    real = torch.cuda._lazy_init

    @functools.wraps(real)
    def lazy_init(*a, **kw):
        r = real(*a, **kw)
        _start_history()
        _attach_observer(torch)
        return r

    torch.cuda._lazy_init = lazy_init
    if torch.cuda.is_initialized():
        _start_history()
        _attach_observer(torch)


def _attach_observer(torch):
    """torch >= 2.1 calls an observer inside the allocator at every OOM,
    even one the program catches; older torch: the exception hook only."""
    if _state.get("observer"):
        return
    attach = getattr(torch._C, "_cuda_attach_out_of_memory_observer", None)
    if attach is None:
        return
    try:
        attach(lambda device, alloc, device_alloc, device_free: _dump_oom(
            "allocator OOM on device %d: requested %d bytes, %d allocated, %d free"
            % (device, alloc, device_alloc, device_free)))
        _state["observer"] = True
    except Exception:
        _error("observer")


def _wrap_excepthook():
    prev = sys.excepthook

    def hook(etype, value, tb):
        if not _state.get("observer") and _is_cuda_oom(value):
            _dump_oom("uncaught %s" % etype.__name__)
        prev(etype, value, tb)

    sys.excepthook = hook


def _hook_optimizers(torch):
    """torch >= 2.0: the global step post-hook; older: wrap each optimizer
    class's step once, at its first instance (functools.wraps carries the
    marker through torch 1.13's own profile wrapper, so no double count)."""
    import importlib
    optim = importlib.import_module("torch.optim.optimizer")
    glob = getattr(optim, "register_optimizer_step_post_hook", None)
    if glob is not None:
        glob(lambda opt, args, kwargs: _record_step(opt))
        return
    Optimizer = optim.Optimizer
    real_init = Optimizer.__init__

    @functools.wraps(real_init)
    def init(self, *a, **kw):
        real_init(self, *a, **kw)
        cls = type(self)
        step = cls.step
        if getattr(step, "_oomlab_step", False):
            return

        @functools.wraps(step)
        def wrapped(opt, *sa, **skw):
            r = step(opt, *sa, **skw)
            _record_step(opt)
            return r

        wrapped._oomlab_step = True
        cls.step = wrapped

    Optimizer.__init__ = init


def on_torch(torch):
    """Called once, right after `import torch` finished."""
    _state["torch"] = torch
    for part, fn in (("optimizer", _hook_optimizers), ("cuda-init", _wrap_lazy_init)):
        try:
            fn(torch)
        except Exception:
            _error(part)
    _wrap_excepthook()


class _Loader:
    """Runs the real loader of torch, then on_torch."""

    def __init__(self, real):
        self.real = real

    def __getattr__(self, name):
        return getattr(self.real, name)

    def create_module(self, spec):
        return self.real.create_module(spec)

    def exec_module(self, module):
        self.real.exec_module(module)
        try:
            on_torch(module)
        except Exception:
            _error("install")


class _Watcher:
    """A meta-path finder that only waits for `torch`; costs nothing else."""

    def find_spec(self, name, path=None, target=None):
        if name != "torch":
            return None
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass
        import importlib.util
        spec = importlib.util.find_spec("torch")
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader)
        return spec


def install():
    if _env.get("OOMLAB_TORCH") not in ("steps", "snapshot"):
        return
    if "torch" in sys.modules:
        on_torch(sys.modules["torch"])
    else:
        sys.meta_path.insert(0, _Watcher())
