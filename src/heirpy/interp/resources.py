"""`dense_resource` blobs, and parsing a module so that its blobs stay its own.

xDSL 0.74 keeps resource blobs in the `OpAsmDialectInterface` of the *builtin dialect
object*, which every context shares. Parsing a second module whose resources have the
same names (the same model twice, or a model and its rewrite) renames the handles to
`name_0` and leaves their blobs empty, and any later parse overwrites the blobs an
earlier module reads. So the evaluator never reads that storage lazily: `load_module`
parses with an empty storage and keeps a snapshot of the blobs (`LoadedModule`), and
`module_resources` snapshots the current storage for modules parsed elsewhere.

A blob as printed is hex whose first 4 bytes are the blob's alignment (a little-endian
u32), not data; `Resources` maps a handle to the data bytes after that header.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from xdsl.context import Context
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import Builtin, DenseResourceAttr, ModuleOp

from heirpy.api import parse
from heirpy.context import make_context
from heirpy.diagnostics import HeirpyError

Resources = Mapping[str, bytes]
_ALIGNMENT_HEADER_BYTES = 4


@dataclass(frozen=True)
class LoadedModule:
    """A parsed module together with the resource blobs it was parsed with."""

    module: ModuleOp
    resources: Resources = field(default_factory=dict)


def _blob_interface(ctx: Context | None) -> OpAsmDialectInterface:
    dialect = Builtin if ctx is None else ctx.get_dialect("builtin")
    interface = dialect.get_interface(OpAsmDialectInterface)
    assert interface is not None, "xDSL's builtin dialect always has OpAsmDialectInterface"
    return interface


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
    """Snapshot the blobs `module` references from `ctx`'s builtin storage (or xDSL's
    shared one). Handles without a blob are left out; reading them is an evaluation
    error naming the constant."""
    interface = _blob_interface(ctx)
    blobs: dict[str, bytes] = {}
    for handle in resource_handles(module):
        text = interface.lookup(handle)
        if text:
            blobs[handle] = decode_blob(handle, text)
    return blobs


def load_module(text: str, filename: str = "<string>") -> LoadedModule:
    """Parse (and verify) `text` with heirpy's context; keep its blobs with it.

    The shared blob storage is swapped for an empty one while parsing, so handle names
    are not renamed by an earlier parse; afterwards, blobs of handles the shared storage
    does not know yet are added to it, so printing the module still shows them.
    """
    ctx = make_context()
    interface = _blob_interface(ctx)
    shared = interface._blob_storage  # noqa: SLF001 - see the module docstring
    interface._blob_storage = {}  # noqa: SLF001
    try:
        module = parse(text, filename, ctx=ctx)
        own = interface._blob_storage  # noqa: SLF001
    finally:
        interface._blob_storage = shared  # noqa: SLF001
    for handle, blob in own.items():
        if not shared.get(handle):
            shared[handle] = blob
    resources = {
        handle: decode_blob(handle, own[handle])
        for handle in resource_handles(module)
        if own.get(handle)
    }
    return LoadedModule(module, resources)


def load_file(path: str | Path) -> LoadedModule:
    """`load_module` on a file; a missing or unreadable file is a one-line error."""
    try:
        text = Path(path).read_text()
    except OSError as err:
        raise HeirpyError(f"error: cannot read '{path}': {err.strerror or err}") from err
    except UnicodeDecodeError as err:
        raise HeirpyError(f"{path}: error: input is not valid UTF-8 (byte {err.start})") from err
    return load_module(text, str(path))
