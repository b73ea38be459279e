"""Import torchvision (and timm, ultralytics, which import it) against the CPU torch wheel.

torchvision 0.28's C++ extension does not load against torch 2.13's CPU wheel, so the
`torchvision::` operators (nms, roi_align, ...) are never defined; torchvision's import then
fails while it registers fake (meta) kernels and autograd formulas for them
(`RuntimeError: operator torchvision::nms does not exist`). The zoo only needs the model
code, which never calls those ops: `import_torchvision()` makes `torch.library.register_fake`
and `register_autograd` skip `torchvision::` names for the duration of the import, and
restores them afterwards.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any


def _skipping(original: Callable[..., Any]) -> Callable[..., Any]:
    def patched(op: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(op, str) and op.startswith("torchvision::"):
            # a decorator that leaves the function as it is (register_fake's use), or nothing
            return lambda fn=None, *a, **k: fn
        return original(op, *args, **kwargs)

    return patched


@contextlib.contextmanager
def _torchvision_registrations_skipped() -> Iterator[None]:
    import torch.library

    saved = {name: getattr(torch.library, name) for name in ("register_fake", "register_autograd")}
    try:
        for name, original in saved.items():
            setattr(torch.library, name, _skipping(original))
        yield
    finally:
        for name, original in saved.items():
            setattr(torch.library, name, original)


def import_torchvision() -> Any:
    """torchvision, imported once with its `torchvision::` registrations skipped."""
    if "torchvision" in sys.modules:
        return sys.modules["torchvision"]
    with _torchvision_registrations_skipped():
        import torchvision

    return torchvision


class _InertModule:
    """Stands in for `cv2` (OpenCV), which ultralytics imports at load time for image I/O the
    zoo never does: every attribute is a callable that does nothing, so
    `cv2.setNumThreads(0)` and attribute lookups at import succeed."""

    __name__ = "cv2"
    __spec__ = None
    __version__ = "0.0.0-zoo-stub"

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _Inert()


class _Inert:
    def __call__(self, *args: Any, **kwargs: Any) -> _Inert:
        return self

    def __getattr__(self, name: str) -> _Inert:
        if name.startswith("__"):
            raise AttributeError(name)
        return self

    def __int__(self) -> int:
        return 0


def import_ultralytics_tasks() -> Any:
    """`ultralytics.nn.tasks`, with torchvision imported through the shim and, when OpenCV
    is not installed, an inert `cv2` in its place (the model code never uses it)."""
    import_torchvision()
    try:
        import cv2  # noqa: F401
    except ImportError:
        sys.modules["cv2"] = _InertModule()  # type: ignore[assignment]
    import ultralytics.nn.tasks as tasks

    return tasks
