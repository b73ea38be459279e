"""`dense_resource` blobs: the bytes behind each handle a module references.

Each context heirpy makes has its own blob store (see `heirpy.context`), and
`heirpy.api.context_of` finds the context a module was parsed with, so a module's
blobs are looked up there; `LoadedModule` keeps a snapshot next to the module.

A blob as printed is hex whose first 4 bytes are the blob's alignment (a little-endian
u32), not data; `Resources` maps a handle to the data bytes after that header.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import DenseResourceAttr, ModuleOp

from heirpy.api import context_of, parse
from heirpy.context import blob_store
from heirpy.diagnostics import HeirpyError

Resources = Mapping[str, bytes]
_ALIGNMENT_HEADER_BYTES = 4


@dataclass(frozen=True)
class LoadedModule:
    """A parsed module together with the resource blobs it was parsed with."""

    module: ModuleOp
    resources: Resources = field(default_factory=dict)


def resource_handles(module: ModuleOp) -> set[str]:
    """The handles of every `dense_resource` attribute an op of `module` holds."""
    handles: set[str] = set()
    for op in module.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            if isinstance(attr, DenseResourceAttr):
                handles.add(attr.resource_handle.data)
    return handles


def decode_blob(handle: str, text: str) -> bytes:
    """The data bytes of a printed blob `"0x<alignment u32><data>"`."""
    if not text.startswith("0x"):
        raise HeirpyError(f"error: dense_resource<{handle}> has no blob")
    try:
        raw = bytes.fromhex(text[2:])
    except ValueError as err:
        raise HeirpyError(f"error: dense_resource<{handle}> blob is not hex: {err}") from err
    if len(raw) < _ALIGNMENT_HEADER_BYTES:
        raise HeirpyError(f"error: dense_resource<{handle}> blob is shorter than its header")
    return raw[_ALIGNMENT_HEADER_BYTES:]


def module_resources(module: ModuleOp, ctx: Context | None = None) -> dict[str, bytes]:
    """Snapshot the blobs `module` references from `ctx`'s store (by default the
    context `module` was parsed with). Handles without a blob are left out; reading
    them is an evaluation error naming the constant."""
    interface = blob_store(context_of(module) if ctx is None else ctx)
    blobs: dict[str, bytes] = {}
    for handle in resource_handles(module):
        text = interface.lookup(handle)
        if text:
            blobs[handle] = decode_blob(handle, text)
    return blobs


def load_module(text: str, filename: str = "<string>") -> LoadedModule:
    """Parse (and verify) `text` with a fresh heirpy context; keep its blobs with it."""
    module = parse(text, filename)
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
