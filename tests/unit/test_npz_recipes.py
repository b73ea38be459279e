"""The .npz recipes (heirpy.interp.npz_recipes): the examples' inputs drawn from seeds and
results taken from another .npz, checked against their recorded shape, dtype and sha256."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from heirpy.interp import npz_recipes
from heirpy.interp.npz_recipes import RecipeError, draw_input, drawn, load_arrays, save, taken_from
from heirpy.interp.reference import load_npz
from heirpy.tools.heirpy_run import main as run_main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def test_draws_are_numpys_frozen_legacy_stream() -> None:
    """RandomState's streams are frozen: seed 0 gives these values in every numpy since 1.16."""
    np.testing.assert_array_equal(draw_input(0, (2, 2)), np.float32([[1.7640524, 0.4001572], [0.978738, 2.2408931]]))
    assert draw_input(1, (3,), "float16").dtype == np.float16
    np.testing.assert_array_equal(draw_input(1, (3,), "float16"), draw_input(1, (3,)).astype(np.float64).astype(np.float16))


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.npz")), ids=lambda p: p.stem)
def test_examples_store_no_inputs(path: Path) -> None:
    """Every example's inputs are seeds, not arrays: random floats do not compress, and
    the repository must stay small enough to send to a GPU machine (examples/README.md)."""
    with np.load(path) as data:
        stored = set(data.files)
        recipes = json.loads(str(data["recipes"]))
    arrays = load_arrays(path)
    inputs = sorted(key for key in arrays if key.startswith("arg"))
    assert inputs and not stored & set(inputs)
    assert all(recipes[key]["draw"] == "standard_normal" and recipes[key]["seed"] == int(key[3:]) for key in inputs)


def test_results_taken_from_another_example_are_its_arrays() -> None:
    detect = load_arrays(EXAMPLES / "yolov5s_detect.npz")
    concat = load_arrays(EXAMPLES / "yolov5s_detect_concat.npz")
    head = load_arrays(EXAMPLES / "yolo_head_k1.npz")
    heads = [detect[f"result{i}"].reshape(1, -1, 85) for i in range(3)]
    np.testing.assert_array_equal(concat["result0"], np.concatenate(heads, 1))
    np.testing.assert_array_equal(head["result0"], detect["result0"])
    assert all(np.array_equal(concat[f"arg{i}"], detect[f"arg{i}"]) for i in range(3))


def _write(tmp_path: Path, name: str, stored: dict[str, np.ndarray], recipes: dict[str, Any]) -> Path:
    path = tmp_path / name
    np.savez(path, **stored, recipes=np.array(json.dumps(recipes)))
    return path


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    x = draw_input(3, (2, 4))
    parts = {"result0": np.arange(6, dtype=np.float32).reshape(1, 2, 3), "result1": np.ones((1, 1, 3), np.float32)}
    save(tmp_path / "a.npz", parts, {"arg0": drawn(3, x)})
    joined = np.concatenate([parts["result0"].reshape(1, -1, 3), parts["result1"].reshape(1, -1, 3)], 1)
    save(tmp_path / "b.npz", {}, {"result0": taken_from(tmp_path / "a.npz", ["result0", "result1"], joined, (1, -1, 3), 1)})
    a, b = load_arrays(tmp_path / "a.npz"), load_arrays(tmp_path / "b.npz")
    assert list(a) == ["arg0", "result0", "result1"] and list(b) == ["result0"]
    np.testing.assert_array_equal(a["arg0"], x)
    np.testing.assert_array_equal(b["result0"], joined)


def test_writers_refuse_arrays_the_recipe_would_not_make(tmp_path: Path) -> None:
    x = draw_input(3, (4,))
    with pytest.raises(RecipeError, match="not what seed 4 draws"):
        drawn(4, x)
    save(tmp_path / "a.npz", {"result0": x}, {})
    with pytest.raises(RecipeError, match="not result0 of a.npz"):
        taken_from(tmp_path / "a.npz", ["result0"], x + 1)
    with pytest.raises(RecipeError, match="both stored and made"):
        save(tmp_path / "c.npz", {"arg0": x}, {"arg0": drawn(3, x)})


def _recipe(seed: int = 3, shape: tuple[int, ...] = (4,)) -> dict[str, Any]:
    return drawn(seed, draw_input(seed, shape))


@pytest.mark.parametrize(
    ("recipes", "message"),
    [
        ({"arg0": {**_recipe(), "seed": 4}}, "arg0: the recipe makes an array whose sha256 is not the one recorded"),
        ({"arg0": {**_recipe(), "shape": [5]}}, "arg0: the recipe makes an array whose sha256 is not the one recorded"),
        ({"arg0": {**_recipe(), "dtype": "float16"}}, "arg0: the recipe makes an array whose sha256 is not the one recorded"),
        ({"arg0": {k: v for k, v in _recipe().items() if k != "sha256"}}, "arg0: a malformed recipe"),
        ({"arg0": {"draw": "uniform"}}, "arg0: a recipe neither drawn nor taken from another file"),
        ({"arg0": [1, 2]}, "arg0: a malformed recipe"),
        ({"result0": {"from": "gone.npz", "arrays": ["result0"]}}, "result0: its source 'gone.npz' is not there"),
        ({"result0": {"from": "../x.npz", "arrays": ["result0"]}}, "is not a file name in the same directory"),
        ({"result0": {"from": "x.npz", "arrays": ["result0"]}}, "takes arrays from itself"),
    ],
)
def test_a_recipe_that_does_not_hold_is_an_error(tmp_path: Path, recipes: dict[str, Any], message: str) -> None:
    path = _write(tmp_path, "x.npz", {}, recipes)
    with pytest.raises(RecipeError, match=message.replace("(", r"\(")):
        load_arrays(path)


def test_a_stored_array_is_not_also_a_recipe(tmp_path: Path) -> None:
    path = _write(tmp_path, "x.npz", {"arg0": np.zeros(4, np.float32)}, {"arg0": _recipe()})
    with pytest.raises(RecipeError, match="arg0 is both stored and made by a recipe"):
        load_arrays(path)


def test_a_broken_recipe_is_a_one_line_error_of_heirpy_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "x.npz", {}, {"arg0": {**_recipe(), "seed": 4}})
    assert run_main([str(EXAMPLES / "tiny_cnn.mlir"), "--inputs", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == (f"error: cannot read inputs '{path}': 'x.npz': arg0: "
                   "the recipe makes an array whose sha256 is not the one recorded")
    assert load_npz(EXAMPLES / "tiny_cnn.npz")["arg0"].shape == (1, 1, 8, 8)


def test_the_module_needs_only_numpy() -> None:
    """tools/export_examples.py loads it by path where neither heirpy nor xDSL is installed."""
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('npz_recipes', {str(Path(npz_recipes.__file__))!r})\n"
        "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('heirpy', 'xdsl')))\n"
    )
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_taken_from_joins_several_arrays_along_the_first_axis_by_default(tmp_path: Path) -> None:
    parts = {"result0": np.arange(6, dtype=np.float32).reshape(2, 3), "result1": np.ones((1, 3), np.float32)}
    save(tmp_path / "a.npz", parts, {})
    joined = np.concatenate([parts["result0"], parts["result1"]])
    recipe = taken_from(tmp_path / "a.npz", ["result0", "result1"], joined)
    assert recipe["axis"] == 0 and recipe["arrays"] == ["result0", "result1"]
    with pytest.raises(RecipeError, match=r"^the array is not result0\+result1 of a\.npz$"):
        taken_from(tmp_path / "a.npz", ["result0", "result1"], joined + 1)
