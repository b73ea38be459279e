"""HEIR's secretness rule as heirpy reads it (`heirpy.analysis.secretness`): values
computed from an argument marked `secret.secret` are secret, nothing else is; and the
arguments a value is computed from, through operands and region captures."""

from __future__ import annotations

from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue

from heirpy.analysis.secretness import argument_sources, is_secret
from heirpy.api import parse

MARKED = """
func.func @f(%p: tensor<2xf32>, %s: tensor<2xf32> {secret.secret}, %c: f32) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %pp = arith.mulf %p, %p : tensor<2xf32>
  %ps = arith.addf %pp, %s : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p : tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.mulf %in, %c : f32
    linalg.yield %v : f32
  } -> tensor<2xf32>
  return %pp, %ps, %g : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
"""


def _func(text: str) -> FuncOp:
    func = next(iter(parse(text).ops))
    assert isinstance(func, FuncOp)
    return func


def _value(func: FuncOp, name: str) -> SSAValue:
    for arg in func.body.block.args:
        if arg.name_hint == name:
            return arg
    for op in func.body.block.ops:
        for result in op.results:
            if result.name_hint == name:
                return result
    raise AssertionError(name)


def test_marked_arguments_and_their_users_are_secret() -> None:
    func = _func(MARKED)
    assert is_secret(_value(func, "s"))
    assert is_secret(_value(func, "ps"))  # computed from %s
    assert not is_secret(_value(func, "p"))
    assert not is_secret(_value(func, "pp"))  # from unmarked %p only
    assert not is_secret(_value(func, "g"))


def test_without_marks_nothing_is_secret() -> None:
    func = _func(MARKED.replace(" {secret.secret}", ""))
    assert not any(is_secret(_value(func, n)) for n in ("s", "ps", "pp"))


def test_argument_sources_follow_operands_and_captures() -> None:
    func = _func(MARKED)
    p, s, c = (_value(func, n) for n in ("p", "s", "c"))
    assert argument_sources([_value(func, "ps")]) == {p, s}
    assert argument_sources([_value(func, "g")]) == {p, c}  # %c is read inside the body
    assert argument_sources([_value(func, "e")]) == set()


def test_argument_sources_go_on_past_a_value_reached_twice() -> None:
    """%sp's operands are visited last first: %pp's two reads of %p reach %p twice before
    %s, which must still be found."""
    func = _func("""
func.func @f(%p: tensor<2xf32>, %s: tensor<2xf32>) -> tensor<2xf32> {
  %pp = arith.mulf %p, %p : tensor<2xf32>
  %sp = arith.addf %s, %pp : tensor<2xf32>
  return %sp : tensor<2xf32>
}
""")
    assert argument_sources([_value(func, "sp")]) == {_value(func, "p"), _value(func, "s")}


def test_a_value_outside_any_function_is_not_secret() -> None:
    """Nothing outside a function can read a secret argument: the result of a detached
    op (a pass builds ops before inserting them) is plaintext, while the same op inside
    a function with a secret argument, reading it, is secret."""
    func = _func(MARKED)
    ps = _value(func, "ps")
    assert is_secret(ps)
    owner = ps.owner
    assert isinstance(owner, Operation)
    assert not is_secret(owner.clone().results[0])
