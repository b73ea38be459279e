"""linalg-fuse-ops forwards every option to its groups: each option spelled in a
pipeline reaches `populate_linalg_fuse_ops_patterns` (and the cost rule) as given,
the defaults are the documented ones, and a bad option is the cost rule's one-line
error naming `linalg-fuse-ops`."""

from __future__ import annotations

from typing import Any

import pytest

from heirpy.analysis.slots import DEFAULT_SLOT_COUNT
from heirpy.api import parse, run_pipeline
from heirpy.ir.diagnostics import HeirpyError
from heirpy.transforms import linalg_fuse_ops
from heirpy.transforms.linear.fusion_cost import (
    DEFAULT_MAX_DIAGONAL_GROWTH,
    DEFAULT_MAX_WEIGHT_GROWTH,
    DEFAULT_ORION_SLOTS,
    DEFAULT_POLICY,
    CostRule,
)

TEXT = "func.func @f(%a: f32) -> f32 {\n  return %a : f32\n}\n"


def captured(spec: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    def populate(ctx: object, **kwargs: Any) -> list[object]:
        # The pass asks for its groups in turns (the linear-chain group alone, within the
        # weight budget): a group is on when any turn turns it on.
        for key, value in kwargs.items():
            if key not in seen or value is True:
                seen[key] = value
        return []

    monkeypatch.setattr(linalg_fuse_ops, "populate_linalg_fuse_ops_patterns", populate)
    run_pipeline(parse(TEXT), spec)
    return seen


def test_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = captured("linalg-fuse-ops", monkeypatch)
    rule = seen.pop("rule")
    assert seen == {
        "linear_ops": True, "conv_pool": True, "linear_chains": True, "pointwise": True,
        "slot_budget": DEFAULT_SLOT_COUNT, "bias_into_init": False, "pass_name": "linalg-fuse-ops",
        "iree_reductions": False, "contraction_form": "auto",
    }
    assert rule == CostRule(DEFAULT_POLICY, DEFAULT_MAX_WEIGHT_GROWTH, 0.0, DEFAULT_MAX_DIAGONAL_GROWTH,
                                    DEFAULT_ORION_SLOTS, 0.0)


def test_every_option_reaches_its_group(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = captured(
        "linalg-fuse-ops{linear-ops=false conv-pool=false linear-chains=false pointwise=false slot-budget=0 "
        "policy=diagonals max-weight-growth=3 max-mac-growth=2 max-diagonal-growth=5 orion-slots=4096 "
        "max-constant-growth=6 bias-into-init=true iree-reductions=true contraction-form=generic}",
        monkeypatch,
    )
    assert {k: seen[k] for k in ("linear_ops", "conv_pool", "linear_chains", "pointwise")} == dict.fromkeys(
        ("linear_ops", "conv_pool", "linear_chains", "pointwise"), False)
    assert seen["slot_budget"] is None  # 0: no limit
    assert seen["bias_into_init"] is True and seen["iree_reductions"] is True
    assert seen["contraction_form"] == "generic"
    assert seen["rule"] == CostRule("diagonals", 3, 2, 5, 4096, 6)
    assert captured("linalg-fuse-ops{slot-budget=64}", monkeypatch)["slot_budget"] == 64


def test_a_bad_option_names_the_umbrella() -> None:
    with pytest.raises(HeirpyError) as err:
        run_pipeline(parse(TEXT), "linalg-fuse-ops{max-mac-growth=0.5}")
    assert str(err.value) == "error: linalg-fuse-ops{max-mac-growth=0.5}: expected 0 (off) or a number >= 1"


def test_the_groups_get_the_umbrellas_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, tuple[object, ...], dict[str, object]]] = []

    def recorder(name: str):  # noqa: ANN202
        def populate(*args: object, **kwargs: object) -> list[object]:
            calls.append((name, args, kwargs))
            return [name]

        return populate

    for group in ("linear_ops", "conv_pool", "linear_chains", "pointwise"):
        attr = f"populate_linalg_fuse_{group}_patterns"
        monkeypatch.setattr(linalg_fuse_ops, attr, recorder(group))
    ctx, rule = object(), CostRule("balanced", 2.0)
    sets = linalg_fuse_ops.populate_linalg_fuse_ops_patterns(
        ctx, slot_budget=77, rule=rule, bias_into_init=True, pass_name="p", iree_reductions=True,
        contraction_form="matmul")
    assert sets == ["linear_ops", "conv_pool", "linear_chains", "pointwise"]
    assert calls == [
        ("linear_ops", (ctx, True, rule), {}),
        ("conv_pool", (rule,), {}),
        ("linear_chains", (ctx, 77, rule, "p"), {"contraction_form": "matmul"}),
        ("pointwise", (), {"iree_reductions": True}),
    ]
