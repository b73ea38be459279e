"""Give an image argument a power-of-two number of channels, so that HEIR's first conv
costs one level, not two.

HEIR lays a function argument out row-major and replicates it over the slots with a
power-of-two period; when a conv reads it through a zero pad, HEIR remaps the data,
and unless the data fills its period (a power-of-two number of elements) the remap
masks the ciphertext, a level. CIFAR's 1x3x32x32 input (3072 elements) costs ResNet-20's
stem conv two levels, and nothing inside the function helps: a pad of the channels to 4
before the conv compiles at 13 levels for a depth of 2 (measured, 2026-12-05). With the
argument itself 1x4x32x32 and the filter given a zero input channel the conv costs one.

The function's signature changes: the caller passes the input with the channels added
at the end, and what it puts there does not matter (their weights are zero). A remark
names each such argument, as `flat-results` names a result returned flat.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import tensor as xt
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, Operation, SSAValue

from heirpy.ir.constants import dense_constant
from heirpy.ir.dialects import tensor
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp
from heirpy.ir.utils import int_values, static_shape
from heirpy.transforms.heir.heir_forms import is_power_of_two
from heirpy.transforms.linear.constant_folding import ConstantFolder


def next_power_of_two(n: int) -> int:
    return 1 << (n - 1).bit_length()


def widened_channels(shape: tuple[int, ...] | None) -> int | None:
    """The channel count that makes a 1xCxHxW argument a power-of-two number of elements,
    or None when it is one already, or when H*W is not (more channels cannot help)."""
    if shape is None or len(shape) != 4 or shape[0] != 1 or 0 in shape:
        return None
    channels, plane = shape[1], shape[2] * shape[3]
    if is_power_of_two(channels * plane) or not is_power_of_two(plane):
        return None
    return next_power_of_two(channels)


def conv_readers(arg: BlockArgument, reader: ConstantFolder) -> list[tuple[xt.PadOp | None, Conv2DNchwFchwOp]] | None:
    """(pad, conv) for each conv that reads `arg` (through a pad of H and W only, or
    directly, as its data, with a constant filter); None when anything else reads it."""
    found: list[tuple[xt.PadOp | None, Conv2DNchwFchwOp]] = []
    for use in arg.uses:
        user = use.operation
        if isinstance(user, Conv2DNchwFchwOp) and use.index == 0:
            found.append((None, user))
            continue
        if not isinstance(user, xt.PadOp) or use.index != 0:
            return None
        if any(int_values(user.static_low)[:2]) or any(int_values(user.static_high)[:2]):
            return None
        for pad_use in user.results[0].uses:
            conv = pad_use.operation
            if not isinstance(conv, Conv2DNchwFchwOp) or pad_use.index != 0:
                return None
            found.append((user, conv))
    if not found or any(reader.fold(conv.operands[1]) is None for _, conv in found):
        return None
    return found


def widen_input_channels(module: ModuleOp, ctx_reader: ConstantFolder, pass_name: str) -> list[str]:
    """Widen each image argument that only convs read (the module doc); returns a remark
    per function changed, naming the old and the new argument types."""
    remarks: list[str] = []
    for func in [f for f in module.walk() if isinstance(f, FuncOp) and f.body.blocks]:
        changed: list[str] = []
        block = func.body.blocks[0]
        for arg in list(block.args):
            old_type = arg.type
            channels = widened_channels(static_shape(old_type))
            readers = conv_readers(arg, ctx_reader) if channels is not None else None
            if channels is None or readers is None or not isinstance(old_type, TensorType):
                continue
            shape = list(old_type.get_shape())
            new_type = TensorType(old_type.get_element_type(), [1, channels, *shape[2:]])
            new_arg = block.insert_arg(new_type, arg.index)
            new_arg.name_hint = arg.name_hint
            _rewire(new_arg, readers, channels, ctx_reader)
            block.erase_arg(arg)
            changed.append(f"argument #{new_arg.index} {new_type} is the {old_type} input with "
                           f"{channels - shape[1]} channel(s) added at the end (their weights are zero)")
        if changed:
            func.update_function_type()
            remarks.append(f"remark: {pass_name}: @{func.sym_name.data} takes power-of-two inputs "
                           f"(pad-input-channels): " + "; ".join(changed)
                           + " (a 3-channel image costs HEIR's first conv a level more)")
    return remarks


def _rewire(
    arg: BlockArgument, readers: list[tuple[xt.PadOp | None, Conv2DNchwFchwOp]], channels: int,
    reader: ConstantFolder,
) -> None:
    """Point each pad and conv of `readers` at the widened `arg`, with zero filter channels."""
    pads: dict[xt.PadOp, SSAValue] = {}
    for pad, conv in readers:
        data: SSAValue = arg
        if pad is not None:
            if pad not in pads:
                padded = _widened_pad(pad, arg, channels)
                assert pad.parent is not None
                pad.parent.insert_op_before(padded, pad)
                pads[pad] = padded.results[0]
            data = pads[pad]
        weights = reader.fold(conv.operands[1])
        assert weights is not None  # conv_readers checked it
        wide = np.zeros((weights.shape[0], channels, *weights.shape[2:]), dtype=weights.dtype)
        wide[:, : weights.shape[1]] = weights
        filter_type = conv.operands[1].type
        assert isinstance(filter_type, TensorType)
        constant = dense_constant(wide, TensorType(filter_type.get_element_type(), list(wide.shape)))
        assert conv.parent is not None
        conv.parent.insert_op_before(constant, conv)
        old_filter = conv.operands[1]
        conv.operands = [data, constant.result, *conv.operands[2:]]
        if not old_filter.uses and isinstance(old_filter.owner, Operation) and not old_filter.owner.regions:
            old_filter.owner.detach()
            old_filter.owner.erase()
    for pad in pads:
        pad.detach()
        pad.erase()


def _widened_pad(pad: xt.PadOp, arg: SSAValue, channels: int) -> Operation:
    result_type = pad.results[0].type
    assert isinstance(result_type, TensorType)
    shape = list(result_type.get_shape())
    shape[1] = channels
    return tensor.PadOp(
        arg, [], [], pad.region.clone(), list(int_values(pad.static_low)), list(int_values(pad.static_high)),
        TensorType(result_type.get_element_type(), shape),
    )
