#!/usr/bin/python3
"""Write PyTorch memory snapshots for oomlab's tests, with Python's pickle,
in the structure PyTorch's own code gives them (no torch, no GPU needed):

  _cuda_memorySnapshot, 2.1 to main (read in the XPU twin of the function,
  torch/csrc/xpu/Module.cpp on main, whose fields are CUDA's): {"segments": [{device, address, total_size, allocated_size,
  active_size, requested_size, stream, segment_type, segment_pool_id,
  is_expandable, frames, blocks: [{address, size, requested_size, state,
  frames}]}], "device_traces": [[{action, addr | device_free, size, stream,
  time_us, frames, compile_context, user_metadata}]], "allocator_settings":
  {...}}; frames are [{filename, line, name}], innermost first, one list
  object per traceback (so pickle memoizes and re-uses it, as with real
  dumps).
  2.0 (pytorch/pytorch:torch/csrc/cuda/Module.cpp@003ce815e64e643033c2db2b68c8edadc33825b2,
  THCPModule_memorySnapshot): blocks carry
  "history": [{addr, real_size, frames}] instead of address/frames; trace
  entries have no time_us; no allocator_settings.
  pytorch/pytorch:torch/cuda/memory.py@00b65a04a2d30e498eedcb1e3476abd547f428f1
  _dump_snapshot: pickle.dump(_snapshot(), f); the TypedDicts in _snapshot's
  docstring. Legacy reading: torch/cuda/_memory_viz.py@0044eb6704e63eec2a52110f4b1a44331e3d4342
  (_block_extra_legacy: history[0].frames).

  gen_snapshot.py fixtures DIR     the small committed fixtures and hostile files
  gen_snapshot.py big PATH MB      a snapshot of about MB megabytes, streamed
"""
import gzip
import io
import os
import pickle
import random
import struct
import sys

MiB = 1 << 20
GiB = 1 << 30


def F(filename, line, name):
    return {"filename": filename, "line": line, "name": name}


TORCH = "/usr/lib/python3/dist-packages/torch"
STACKS = {
    "weights": [F(TORCH + "/nn/modules/module.py", 1143, "convert"),
                F(TORCH + "/nn/modules/module.py", 797, "_apply"),
                F("/work/train.py", 41, "main"), F("/work/train.py", 120, "<module>")],
    "adam": [F(TORCH + "/optim/adamw.py", 142, "_init_group"),
             F(TORCH + "/optim/optimizer.py", 373, "wrapper"),
             F("/work/train.py", 81, "train_step"), F("/work/train.py", 101, "main"),
             F("/work/train.py", 120, "<module>")],
    "forward": [F(TORCH + "/nn/functional.py", 2210, "linear"),
                F("/work/model.py", 33, "forward"),
                F(TORCH + "/nn/modules/module.py", 1501, "_call_impl"),
                F("/work/train.py", 72, "train_step"), F("/work/train.py", 101, "main")],
    "leak": [F("/work/train.py", 57, "train_step"), F("/work/train.py", 101, "main"),
             F("/work/train.py", 120, "<module>")],
    "backward": [F("/usr/src/pytorch/torch/csrc/autograd/engine.cpp", 1081, "evaluate_function"),
                 F(TORCH + "/autograd/__init__.py", 200, "backward"),
                 F(TORCH + "/_tensor.py", 487, "backward"),
                 F("/work/train.py", 80, "train_step"), F("/work/train.py", 101, "main")],
}


def block(addr, size, state, frames, requested=None, legacy=False):
    requested = size if requested is None else requested
    if legacy:  # 2.0: the history of the block's allocations
        b = {"size": size, "requested_size": requested, "state": state}
        if state != "inactive":
            b["history"] = [{"addr": addr, "real_size": requested, "frames": frames}]
        return b
    return {"address": addr, "size": size, "requested_size": requested, "state": state,
            "frames": frames if state != "inactive" else []}


def segment(device, addr, blocks, seg_type="large", pool=(0, 0), legacy=False):
    total = sum(b["size"] for b in blocks)
    alloc = sum(b["size"] for b in blocks if b["state"] == "active_allocated")
    active = sum(b["size"] for b in blocks if b["state"] != "inactive")
    req = sum(b["requested_size"] for b in blocks if b["state"] == "active_allocated")
    s = {"device": device, "address": addr, "total_size": total, "allocated_size": alloc,
         "active_size": active, "requested_size": req, "stream": 0, "segment_type": seg_type,
         "segment_pool_id": pool}
    if not legacy:
        s["is_expandable"] = False
        s["frames"] = blocks[0].get("frames", []) if blocks else []
    s["blocks"] = blocks
    return s


def training_run(legacy=False, steps=30, leak=True, oom=True, device=0, seed=1):
    """A card filling up: weights, AdamW states, activations in fragmented
    20 MiB segments, a leak of small tensors (`total_loss += loss`), and
    an OOM in backward at the end."""
    rnd = random.Random(seed)
    st = STACKS
    segs, trace = [], []
    addr = 0x7F0000000000
    t = 1_700_000_000_000_000

    def ev(action, a, size, frames):
        nonlocal t
        t += rnd.randint(10, 500)
        e = {"action": action, ("device_free" if action == "oom" else "addr"): a, "size": size,
             "stream": 0}
        if not legacy:
            e["time_us"] = t
        e["frames"] = frames
        if not legacy:
            e["compile_context"] = "N/A"
            e["user_metadata"] = ""
        return e

    for name, size in (("weights", 13824 * MiB), ("adam", 13824 * MiB), ("adam", 13824 * MiB)):
        segs.append(segment(device, addr, [block(addr, size, "active_allocated", st[name],
                                                 legacy=legacy)], legacy=legacy))
        addr += size
    # activations: 20 MiB segments, 12 MiB live, 8 MiB cached free (fragmented)
    for i in range(120):
        a = addr
        blocks = [block(a, 12 * MiB, "active_allocated", st["forward"], 12 * MiB - 512,
                        legacy=legacy),
                  block(a + 12 * MiB, 8 * MiB, "inactive", [], legacy=legacy)]
        segs.append(segment(device, a, blocks, legacy=legacy))
        addr += 20 * MiB
    # the leak: one 512-byte block per step in the small pool (2 MiB segments)
    small = addr
    addr += 2 * MiB
    leak_blocks, live_leaks = [], []
    for step in range(steps):
        trace.append(ev("segment_alloc", addr, 20 * MiB, st["forward"]))
        trace.append(ev("alloc", addr, 20 * MiB, st["forward"]))
        if leak:
            la = small + 512 * step
            trace.append(ev("alloc", la, 512, st["leak"]))
            live_leaks.append(la)
        trace.append(ev("free_requested", addr, 20 * MiB, st["forward"]))
        trace.append(ev("free_completed", addr, 20 * MiB, st["forward"]))
    for la in live_leaks:
        leak_blocks.append(block(la, 512, "active_allocated", st["leak"], legacy=legacy))
    rest = 2 * MiB - 512 * len(live_leaks)
    leak_blocks.append(block(small + 512 * len(live_leaks), rest, "inactive", [], legacy=legacy))
    segs.append(segment(device, small, leak_blocks, seg_type="small", legacy=legacy))
    if oom:
        trace.append(ev("oom", 1126 * MiB, 2 * GiB, st["backward"]))
    return segs, trace


def snapshot(legacy=False, **kw):
    segs, trace = training_run(legacy=legacy, **kw)
    d = {"segments": segs, "device_traces": [trace]}
    if not legacy:
        d["allocator_settings"] = {
            "PYTORCH_CUDA_ALLOC_CONF": "", "max_split_size": -1,
            "garbage_collection_threshold": 0.0, "expandable_segments": False,
            "pinned_num_register_threads": 1, "release_lock_on_malloc": False,
            "pinned_use_host_register": False, "roundup_power2_divisions": [0] * 64}
    return d


def dump(path, obj, protocol=pickle.DEFAULT_PROTOCOL):
    with open(path, "wb") as f:
        pickle.dump(obj, f, protocol=protocol)


class Evil:  # pickled with REDUCE: never loaded by the tests
    def __reduce__(self):
        return (os.system, ("echo pwned",))


def hostile(out):
    good = pickle.dumps(snapshot(steps=3), protocol=4)
    files = {
        "truncated.pickle": good[: len(good) // 2],
        "reduce.pickle": pickle.dumps({"segments": [Evil()]}, protocol=4),
        "global.pickle": pickle.dumps({"segments": [], "x": io.BytesIO}, protocol=2),
        "deep.pickle": pickle.dumps(nested(200), protocol=4),
        # BINUNICODE8 claiming 2^40 bytes: refused before any allocation
        "huge-length.pickle": b"\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00}\x94\x8d"
                              + struct.pack("<Q", 1 << 40) + b"abc",
        "unknown-opcode.pickle": b"\x80\x04}\x94\xff.",
        "memo-unset.pickle": b"\x80\x04}\x94h\x07.",
        "not-a-snapshot.pickle": pickle.dumps([1, 2, 3], protocol=4),
        "protocol0.pickle": pickle.dumps({"segments": []}, protocol=0),
        "empty.pickle": b"",
        # sizes whose sums pass 2^63: each total held at the int64 end
        "past-int64.pickle": pickle.dumps(past_int64(), protocol=4),
    }
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    torch_saved(out)


def past_int64():
    """Three segments of 2^62 bytes, each one inactive block of that size,
    and a trace that allocates 2^62 three times: no figure fits an int64."""
    big = 1 << 62
    segs = [{"device": 0, "address": i << 20, "total_size": big, "allocated_size": big,
             "active_size": big, "requested_size": big, "stream": 0, "segment_type": "large",
             "segment_pool_id": (0, 0),
             "blocks": [{"address": i << 20, "size": big, "requested_size": big,
                         "state": "inactive", "frames": []}]} for i in range(3)]
    trace = [{"action": "alloc", "addr": i << 20, "size": big, "stream": 0, "time_us": i,
              "frames": []} for i in range(3)]
    return {"segments": segs, "device_traces": [trace]}


def torch_saved(out):
    """A snapshot written with torch.save instead of _dump_snapshot: a zip
    archive, and with _use_new_zipfile_serialization=False the legacy stream
    that opens with torch's magic number (torch/serialization.py). Written by
    real torch where it is installed (/usr/bin/python3: python3-torch)."""
    try:
        import torch
    except ImportError:
        return
    small = {"segments": [], "device_traces": [[]]}
    torch.save(small, os.path.join(out, "torch-save.pt"))
    torch.save(small, os.path.join(out, "torch-save-legacy.pt"), _use_new_zipfile_serialization=False)


def nested(depth):
    x = []
    for _ in range(depth):
        x = [x]
    return x


def fixtures(out):
    os.makedirs(out, exist_ok=True)
    dump(os.path.join(out, "oom.pickle"), snapshot())
    with gzip.open(os.path.join(out, "oom.pickle.gz"), "wb") as f:
        pickle.dump(snapshot(), f, protocol=4)
    dump(os.path.join(out, "history-2.0.pickle"), snapshot(legacy=True), protocol=2)
    dump(os.path.join(out, "before.pickle"), snapshot(steps=10, oom=False))
    dump(os.path.join(out, "after.pickle"), snapshot(steps=40, oom=False))
    dump(os.path.join(out, "segment-list.pickle"), training_run(oom=False)[0], protocol=3)
    dump(os.path.join(out, "two-devices.pickle"), two_devices())
    dump(os.path.join(out, "cpp-frames.pickle"), cpp_frames())
    hostile(out)


def cpp_frames():
    """A snapshot recorded with context="all", stacks="all": C++ frames
    interleaved with the Python ones, as a real 2.x dump has them
    (JasperSolt/EoR_NN:snapshot.pickle@6686e9f4bc5edcc86209915a0d5fe694b836b8b7):
    file "??" (no symbol file), "" (none known) or a bare "X.cpp", line 0."""
    def cpp(name, file=""):
        return F(file, 0, name)
    head = [cpp("torch::unwind::unwind()", "??"),
            cpp("torch::CapturedTraceback::gather(bool, bool, bool)", "??"),
            cpp("c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(int,"
                " unsigned long, CUstream_st*)", "CUDACachingAllocator.cpp"),
            cpp("c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::malloc(void**,"
                " int, unsigned long, CUstream_st*)"),
            cpp("at::empty_strided(c10::ArrayRef<long>, c10::ArrayRef<long>, c10::TensorOptions)"),
            cpp("at::native::_to_copy(at::Tensor const&)", "??"),
            cpp("torch::autograd::THPVariable_to(_object*, _object*, _object*)",
                "python_variable_methods.cpp")]
    tail = [cpp("_PyEval_EvalFrameDefault", "??"),
            F("/work/train.py", 120, "<module>"),
            cpp("Py_BytesMain", "??"), cpp("__libc_start_main_alias_2"), cpp("_start", "??")]
    frames = head + [F("/work/train.py", 41, "main")] + tail
    # cuBLAS's workspace: C++ frames only, the allocator's own innermost
    workspace = head[:4] + [cpp("at::cuda::getNewWorkspace()"),
                            cpp("void at::cuda::blas::gemm<float>(char, char, long, long, long)")] + tail[2:]
    blocks = [block(0x7F0000000000, 20 * MiB, "active_allocated", frames),
              block(0x7F0000000000 + 20 * MiB, 2 * MiB, "inactive", []),
              block(0x7F0000000000 + 22 * MiB, 8 * MiB, "active_allocated", workspace)]
    trace = [{"action": "alloc", "addr": 0x7F0000000000, "size": 20 * MiB, "stream": 0,
              "time_us": 1_700_000_000_000_000, "frames": frames}]
    return {"segments": [segment(0, 0x7F0000000000, blocks)], "device_traces": [trace]}


def two_devices():
    s0, t0 = training_run(device=0, steps=5, oom=False)
    s1, t1 = training_run(device=1, steps=12, seed=2)
    return {"segments": s0 + s1, "device_traces": [t0, t1], "allocator_settings": {}}


def big(path, megabytes):
    """Stream a snapshot of about `megabytes` MB without holding it: the
    outer dict and lists written as the opcodes pickle.dump would give them
    (APPENDS every 1000 items), each segment and trace entry as its own
    memo-free chunk (protocol 3, fast mode: no FRAME, no memo)."""
    target = megabytes * 1_000_000
    segs, trace = training_run(steps=50)
    with open(path, "wb") as f:
        f.write(b"\x80\x04}(")                           # PROTO 4, EMPTY_DICT, MARK
        f.write(b"\x8c\x08segments](")                   # key, EMPTY_LIST, MARK
        for sg in segs:
            f.write(body(sg))
        f.write(b"e\x8c\x0ddevice_traces]](")            # APPENDS; key, [ [ MARK
        i = 0
        while f.tell() < target:
            e = dict(trace[i % len(trace)])
            if "addr" in e:
                e["addr"] += (i // len(trace)) * 64 * MiB
            f.write(body(e))
            i += 1
            if i % 1000 == 0:
                f.write(b"e(")                            # APPENDS, MARK
        f.write(b"ea")                                    # APPENDS; the list into the outer
        f.write(b"\x8c\x12allocator_settings}u.")       # {}, SETITEMS, STOP
    return i


def body(obj):
    """The opcodes of obj alone, without PROTO and STOP."""
    buf = io.BytesIO()
    p = pickle.Pickler(buf, protocol=3)
    p.fast = True
    p.dump(obj)
    return buf.getvalue()[2:-1]


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "fixtures":
        fixtures(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "big":
        big(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(__doc__)
