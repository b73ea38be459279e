"""Which values are secret, by HEIR's rule: those computed from a function argument
marked `{secret.secret}`.

HEIR's front ends mark the encrypted inputs of a function with the argument attribute
`secret.secret`; everything else (constants, arguments without the mark, and what is
computed from them alone) is plaintext the server may use freely. A pass that would
turn a plaintext operation into one on secret data (scaling a secret weight, adding a
secret bias to an init) must ask first:

    func.func @f(%x: tensor<2x3xf32>, %w: tensor<3xf32>, %s: tensor<2xf32> {secret.secret})
    // %x, %w and anything computed from them alone: plaintext; %s and its users: secret

A function with no marked argument has no secret value (HEIR's reading too). This is
not heirpy's depth model, which counts every argument as a ciphertext unless told
otherwise (`heirpy.analysis.depth`): the depth model answers "how deep", this module
answers "may a pass fold it", and HEIR's passes answer the second by the mark.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import DictionaryAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, Operation, SSAValue

SECRET_ATTR = "secret.secret"


def enclosing_func(op: Operation) -> FuncOp | None:
    """The `func.func` `op` is nested in, if any."""
    parent: Operation | None = op
    while parent is not None and not isinstance(parent, FuncOp):
        parent = parent.parent_op()
    return parent


def marked_secret_args(func: FuncOp) -> set[BlockArgument]:
    """The arguments of `func` carrying the `secret.secret` attribute."""
    if func.arg_attrs is None or not func.body.blocks:
        return set()
    args = func.body.block.args
    return {
        arg
        for arg, attrs in zip(args, func.arg_attrs.data, strict=False)
        if isinstance(attrs, DictionaryAttr) and SECRET_ATTR in attrs.data
    }


def _owner_op(value: SSAValue) -> Operation | None:
    """The op that defines `value`, or whose block has `value` as an argument."""
    if isinstance(value, BlockArgument):
        return value.block.parent_op()
    owner = value.owner
    return owner if isinstance(owner, Operation) else None


def is_secret(value: SSAValue) -> bool:
    """Is `value` computed (through operands, or values an op's regions read from
    outside) from an argument marked `secret.secret`?

    A block argument that is not a function argument (a loop's iteration value, a
    region's argument) counts as secret when its function has any secret argument at
    all: heirpy does not trace values through control flow."""
    anchor = _owner_op(value)
    func = None if anchor is None else enclosing_func(anchor)
    if func is None:
        return False
    secrets = marked_secret_args(func)
    if not secrets:
        return False
    entry_args = set(func.body.block.args)
    return any(arg in secrets or arg not in entry_args for arg in argument_sources([value]))


def argument_sources(values: Iterable[SSAValue]) -> set[BlockArgument]:
    """The block arguments `values` are computed from (through operands, and values an
    op's regions read from outside): the inputs a linear op's data path starts at.

    HEIR's rule makes every unmarked argument plaintext, yet an unmarked function still
    has an input that flows through the network (heirpy's depth model counts every
    argument as a ciphertext): a value computed from the same arguments as a linear
    op's activation (a residual `conv(x) + x`) is data, not a parameter to fold."""
    found: set[BlockArgument] = set()
    seen: set[SSAValue] = set()
    pending = list(values)
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        if isinstance(current, BlockArgument):
            found.add(current)
            continue
        owner = current.owner
        assert isinstance(owner, Operation)
        pending.extend(owner.operands)
        for nested in owner.walk():
            if nested is not owner:
                pending.extend(v for v in nested.operands if not _defined_inside(v, owner))
    return found


def _defined_inside(value: SSAValue, op: Operation) -> bool:
    """Is `value` defined within `op`'s regions?"""
    holder = _owner_op(value) if isinstance(value, BlockArgument) else value.owner
    while isinstance(holder, Operation):
        if holder is op:
            return True
        holder = holder.parent_op()
    return False
