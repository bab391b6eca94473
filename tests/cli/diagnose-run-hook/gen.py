#!/usr/bin/python3
"""Writes this case's torch hook files (run by hand; the outputs are
committed): logs/h1_oom/rank1-pid4242-1.summary.txt is real PyTorch (Debian's
python3-torch, CPU; the version is printed) torch.cuda.memory_summary() text: its own
formatter, fed allocator statistics by a stand-in for memory_stats() (no
GPU here; the figures are scripted, the format is torch's). The pickle is
a snapshot in PyTorch's structure from tests/snapshot/gen_snapshot.py with
the OOM's request set to 512 MiB: larger than the largest free cached block
(8 MiB) but smaller than all the cached free memory (about 962 MiB) —
fragmentation made concrete."""
import os, pickle, sys
import torch
import torch.cuda.memory as mem

here = os.path.dirname(os.path.abspath(__file__))
GiB, MiB = 1 << 30, 1 << 20
def stat(cur, peak, alloc, freed):
    return {"current": cur, "peak": peak, "allocated": alloc, "freed": freed}
figures = {  # bytes, current/peak/allocated/freed per stat, as the allocator reports them
    "allocated_bytes": stat(int(41.91 * GiB), int(42.40 * GiB), 900 * GiB, 858 * GiB),
    "reserved_bytes": stat(int(42.85 * GiB), int(42.85 * GiB), 60 * GiB, int(17.15 * GiB)),
    "active_bytes": stat(int(41.91 * GiB), int(42.40 * GiB), 900 * GiB, 858 * GiB),
    "inactive_split_bytes": stat(int(0.94 * GiB), int(1.20 * GiB), 300 * GiB, 299 * GiB),
    "allocation": stat(274, 280, 90000, 89726),
    "active": stat(274, 280, 90000, 89726),
    "segment": stat(124, 124, 160, 36),
    "inactive_split": stat(120, 130, 40000, 39880),
}
def fake_stats(device=None):
    out = {"num_alloc_retries": 3, "num_ooms": 1, "oversize_allocations.current": 0,
           "oversize_allocations.peak": 0, "oversize_allocations.allocated": 0,
           "oversize_allocations.freed": 0, "oversize_segments.current": 0,
           "oversize_segments.peak": 0, "oversize_segments.allocated": 0,
           "oversize_segments.freed": 0}
    for name, s in figures.items():
        for pool in ("all", "large_pool", "small_pool"):
            share = {"all": 1.0, "large_pool": 0.999, "small_pool": 0.001}[pool]
            for k, v in s.items():
                out["%s.%s.%s" % (name, pool, k)] = int(v * share)
    return out
mem.memory_stats = fake_stats
text = torch.cuda.memory_summary(device=1)
with open(os.path.join(here, "logs/h1_oom/rank1-pid4242-1.summary.txt"), "w") as f:
    f.write("oomlab torch hook: uncaught OutOfMemoryError\n")
    f.write(text)

sys.path.insert(0, os.path.join(here, "../../snapshot"))
import gen_snapshot
snap = gen_snapshot.snapshot(device=1)
snap["device_traces"] = [[]] + snap["device_traces"]  # the trace list is indexed by device
for trace in snap["device_traces"]:
    for e in trace:
        if e["action"] == "oom":
            e["size"] = 512 * MiB
            e["device_free"] = 300 * MiB
gen_snapshot.dump(os.path.join(here, "logs/h1_oom/rank1-pid4242-1.pickle"), snap)
print(torch.__version__)
