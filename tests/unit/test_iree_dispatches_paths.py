"""heirpy.analysis.iree_dispatches without IREE: the dispatch names it reads (a fake
iree-compile prints them), the flags each target passes, an unknown target, a
timeout, and iree-compile found beside the running Python."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from heirpy.analysis.iree_dispatches import TARGET_FLAGS, dispatch_kind, find_iree_compile, iree_dispatches
from heirpy.ir.diagnostics import HeirpyError


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("main_dispatch_1_elementwise_transpose_3x6400x85_f32", "elementwise_transpose"),
        ("main_dispatch_0_matmul_like_64x32_f16xf16xf32", "matmul_like"),
        ("main_dispatch_12_conv_1x8x4x4_bf16", "conv"),
        ("main_dispatch_3_slow_memcpy", "slow_memcpy"),
        ("main_dispatch_2_generic_7_i8", "generic"),
        ("main_dispatch_2_reduction_u8", "reduction"),
        ("main_dispatch_4_4x4_f32", "main_dispatch_4_4x4_f32"),  # no word before the shape
        ("not_a_dispatch", "not_a_dispatch"),
    ],
)
def test_dispatch_kinds_stop_at_the_first_shape_or_type(name: str, kind: str) -> None:
    assert dispatch_kind(name) == kind


def fake_compiler(tmp_path: Path, body: str) -> str:
    tool = tmp_path / "iree-compile"
    tool.write_text("#!/bin/sh\n" + body + "\n")
    tool.chmod(0o755)
    return str(tool)


def test_the_exports_are_read_in_order_with_each_targets_flags(tmp_path: Path) -> None:
    args = tmp_path / "args"
    tool = fake_compiler(tmp_path, f"""echo "$@" > {args}
cat > /dev/null
echo '  flow.executable.export public @main_dispatch_0_conv_2x2_f32 workgroups'
echo '  flow.executable.export private @hidden_dispatch_9_conv'
echo '  flow.executable.export   public   @main_dispatch_1_elementwise_4_f32'""")
    assert iree_dispatches("module {}", tool) == ["conv", "elementwise"]
    assert args.read_text().split() == [*TARGET_FLAGS["llvm-cpu"], "--compile-to=flow", "-", "-o", "-"]
    for target in ("cuda", "rocm"):
        iree_dispatches("module {}", tool, target=target)
        assert args.read_text().split()[: len(TARGET_FLAGS[target])] == list(TARGET_FLAGS[target])
    assert "--iree-cuda-target=sm_80" in TARGET_FLAGS["cuda"] and "--iree-rocm-target=gfx942" in TARGET_FLAGS["rocm"]


def test_an_unknown_target_and_a_timeout_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(HeirpyError) as err:
        iree_dispatches("module {}", "/bin/true", target="vulkan")
    assert str(err.value) == "error: unknown IREE target 'vulkan' (known: llvm-cpu, cuda, rocm)"
    with pytest.raises(HeirpyError) as err:
        iree_dispatches("module {}", fake_compiler(tmp_path, "sleep 5"), timeout=0.5)
    assert str(err.value) == "error: iree-compile timed out after 0.5 s"


def test_iree_compile_beside_the_python_when_not_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    beside = bin_dir / "iree-compile"
    beside.write_text("#!/bin/sh\n")
    beside.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setattr(sys, "executable", str(bin_dir / "python"))
    assert find_iree_compile() == str(beside)


def test_without_an_error_line_the_first_line_is_the_reason(tmp_path: Path) -> None:
    tool = fake_compiler(tmp_path, "echo 'warning: only' >&2; echo 'note: second' >&2; exit 1")
    with pytest.raises(HeirpyError) as err:
        iree_dispatches("module {}", tool)
    assert str(err.value) == "error: iree-compile failed: warning: only"
    single = fake_compiler(tmp_path, "echo 'killed' >&2; exit 1")
    with pytest.raises(HeirpyError) as err:
        iree_dispatches("module {}", single)
    assert str(err.value) == "error: iree-compile failed: killed"
    worded = fake_compiler(tmp_path, "echo 'note: a' >&2; echo ' x.mlir:1:2: error: b ' >&2; exit 1")
    with pytest.raises(HeirpyError) as err:
        iree_dispatches("module {}", worded)
    assert str(err.value) == "error: iree-compile failed: x.mlir:1:2: error: b"
