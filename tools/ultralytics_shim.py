"""Import ultralytics in an environment that has neither torchvision's C++ ops nor OpenCV.

torchvision 0.28's compiled ops do not load against the CPU torch wheel, so `import
torchvision` fails while registering fake kernels (`torch.library.register_fake`) for
`torchvision::nms` and its siblings, ops that were never defined. ultralytics imports
torchvision (for NMS, which an export of the network does not run) and OpenCV (`cv2`,
for images, which it does not read either). `install()` makes `register_fake` skip
`torchvision::` names whose op does not exist and puts an inert `cv2` module in
`sys.modules` when the real one is missing; nothing else changes. Call it before the
first `import ultralytics`.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from typing import Any

import torch
import torch.library


class _InertCv2(types.ModuleType):
    """A `cv2` stand-in: constants are 0, functions do nothing (none is called on export)."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return 0 if name.isupper() else (lambda *args, **kwargs: None)


def _op_exists(qualname: str) -> bool:
    namespace, _, name = qualname.partition("::")
    return hasattr(getattr(torch.ops, namespace), name.split(".")[0])


def install() -> None:
    original = torch.library.register_fake
    if getattr(original, "_skips_missing_torchvision_ops", False):
        return

    def register_fake(op: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(op, str) and op.startswith("torchvision::") and not _op_exists(op):
            if args and callable(args[0]):  # register_fake(name, fn): fn stays unregistered
                return args[0]
            return lambda fn: fn  # @register_fake(name): the decorator leaves fn as it is
        return original(op, *args, **kwargs)

    register_fake._skips_missing_torchvision_ops = True  # type: ignore[attr-defined]
    torch.library.register_fake = register_fake
    if importlib.util.find_spec("cv2") is None:
        sys.modules.setdefault("cv2", _InertCv2("cv2"))
