"""benchmarks/harness.py's `layout_names`: one IR timed under several code layouts.

iree-compile writes the source file's path into each llvm-cpu executable library's
`.rodata`, which precedes `.text`: a longer path moves every dispatch's code, and with it the
alignment of its loops (ConvNeXt-atto's same IR ran up to 13% apart under four file names,
docs/iree.md). The benchmarks time a variant under names of different lengths and average.
Checked here: the names, and with the real iree-compile (a missing tool fails the test,
it never skips) that the path moves `.text` and leaves its size.
"""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))  # benchmarks/: scripts, not a package

from harness import layout_names  # noqa: E402
from heirpy.analysis.iree_dispatches import COMPILE_FLAGS, find_iree_compile  # noqa: E402

SOURCE = """
func.func @main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
"""


def text_section(vmfb: bytes) -> tuple[int, bytes]:
    """Address and bytes of `.text` in the module's (one) embedded ELF library."""
    start = vmfb.find(b"\x7fELF")
    shoff, = struct.unpack_from("<Q", vmfb, start + 0x28)
    entsize, count, names_index = struct.unpack_from("<HHH", vmfb, start + 0x3A)
    sections = [struct.unpack_from("<IIQQQQ", vmfb, start + shoff + i * entsize) for i in range(count)]
    names_offset = sections[names_index][4]
    for name, _, _, address, offset, size in sections:
        label = vmfb[start + names_offset + name:].split(b"\0", 1)[0]
        if label == b".text":
            return address, vmfb[start + offset:start + offset + size]
    raise AssertionError("no .text section")


def test_names_grow_by_sixteen_characters_and_link_to_the_source(tmp_path: Path) -> None:
    source = tmp_path / "model.mlir"
    source.write_text(SOURCE)
    work = tmp_path / "work"
    work.mkdir()
    names = layout_names(source, work, "raw", 3)
    assert [len(n.name) for n in names] == [8, 24, 40]
    assert all(n.read_text() == SOURCE for n in names)
    assert layout_names(source, work, "raw", 3) == names  # a second call replaces its links


def test_the_first_name_of_a_source_in_work_is_the_source(tmp_path: Path) -> None:
    source = tmp_path / "heirpy.mlir"
    source.write_text(SOURCE)
    names = layout_names(source, tmp_path, "heirpy", 2)
    assert names[0] == source and not source.is_symlink() and names[1].is_symlink()


def test_a_longer_path_moves_the_code_and_only_moves_it(tmp_path: Path) -> None:
    source = tmp_path / "m.mlir"
    source.write_text(SOURCE)
    found = []
    for name in layout_names(source, tmp_path, "m", 2):
        out = name.with_suffix(".vmfb")
        subprocess.run([find_iree_compile(), *COMPILE_FLAGS, str(name), "-o", str(out)], check=True,
                       capture_output=True)
        found.append(text_section(out.read_bytes()))
    (first_address, first_code), (second_address, second_code) = found
    # 16 bytes here, 32 for ConvNeXt-atto's library: whole steps of `.text`'s 16-byte alignment
    assert second_address > first_address and (second_address - first_address) % 16 == 0
    assert len(first_code) == len(second_code)  # the same instructions, placed elsewhere
