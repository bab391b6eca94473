# oomlab's sitecustomize (`oomlab run --torch`): installs the PyTorch hook
# (oomlab_torchhook, beside this file), then runs the sitecustomize the
# user already had, as if this one were not there. Errors of the hook go to
# its own file; errors of the user's sitecustomize behave as without oomlab.
import os as _os
import sys as _sys

_here = _os.path.dirname(_os.path.abspath(__file__))

try:
    _sys.path.insert(0, _here)
    import oomlab_torchhook as _hook
    _hook.install()
except Exception:
    try:
        import traceback as _tb
        _p = _os.environ.get("OOMLAB_TORCH_ERRORS")
        if _p:
            with open(_p, "a") as _f:
                _f.write("oomlab torch hook: install failed:\n" + _tb.format_exc())
    except Exception:
        pass
finally:
    if _sys.path and _sys.path[0] == _here:
        del _sys.path[0]


def _chain():
    """Find the next sitecustomize on sys.path (ours excluded) and execute it
    as the module `sitecustomize`."""
    import importlib.machinery
    import importlib.util
    path = [p for p in _sys.path if _os.path.abspath(p or ".") != _here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    mod = importlib.util.module_from_spec(spec)
    _sys.modules["sitecustomize"] = mod
    spec.loader.exec_module(mod)


_chain()
