"""Loading a module for the evaluator, with the `dense_resource` blobs it references.

The blobs live in the store of the context a module was parsed with (see
`heirpy.ir.context`); `LoadedModule` keeps a snapshot of them next to the module
(`heirpy.ir.constants.module_resources`), handle -> data bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from heirpy.ir.constants import Resources, module_resources
from heirpy.ir.context import parse_module
from heirpy.ir.diagnostics import HeirpyError

__all__ = ["LoadedModule", "Resources", "load_file", "load_module", "module_resources"]


@dataclass(frozen=True)
class LoadedModule:
    """A parsed module together with the resource blobs it was parsed with."""

    module: ModuleOp
    resources: Resources = field(default_factory=dict)


def load_module(text: str, filename: str = "<string>") -> LoadedModule:
    """Parse (and verify) `text` with a fresh heirpy context; keep its blobs with it."""
    module = parse_module(text, filename)
    return LoadedModule(module, module_resources(module))


def load_file(path: str | Path) -> LoadedModule:
    """`load_module` on a file; a missing or unreadable file is a one-line error."""
    try:
        text = Path(path).read_text()
    except OSError as err:
        raise HeirpyError(f"error: cannot read '{path}': {err.strerror or err}") from err
    except UnicodeDecodeError as err:
        raise HeirpyError(f"{path}: error: input is not valid UTF-8 (byte {err.start})") from err
    return load_module(text, str(path))
