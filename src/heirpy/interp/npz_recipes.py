"""Arrays an .npz describes instead of storing: inputs drawn from a seed, results that are
another .npz's arrays (the format of examples/*.npz; examples/README.md).

Random float32 data does not compress, and the YOLO examples' inputs were 17 MB of
them. An .npz may therefore hold, beside its stored arrays, one more entry `recipes`: a
0-d string array holding a JSON object that maps an array's name (`arg0`, `result1`, ...)
to how it is made:

    {"draw": "standard_normal", "seed": 0, ...}
        `draw_input(seed, shape, dtype)`: numpy's legacy `RandomState(seed).standard_normal`
        (its streams are frozen: the same values in every numpy since 1.16), rounded to dtype.
    {"from": "yolov5s_detect.npz", "arrays": ["result0", ...], "reshape": [1, -1, 85], "axis": 1, ...}
        the named arrays of another .npz in the same directory, each reshaped when `reshape`
        is given, concatenated along `axis` when there are several.

Every recipe also records the array's `shape`, `dtype` and the `sha256` of its bytes (C
order, little-endian), and `load_arrays` checks all three, so an array that would come out
different (another numpy drawing otherwise, an edited source file) is an error, never a
silently different reference.

This module imports only numpy and the standard library: tools/export_examples.py, which
writes the recipes in an environment without heirpy, loads it by its path.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

RECIPES_KEY = "recipes"
_DTYPES = {"float32": np.float32, "float16": np.float16, "float64": np.float64}


class RecipeError(ValueError):
    """An .npz whose recipes cannot be followed, or whose result does not match its record."""


def draw_input(seed: int, shape: Sequence[int], dtype: str = "float32") -> np.ndarray:
    """The input an example draws from `seed`: standard normal values, rounded to `dtype`."""
    return np.random.RandomState(seed).standard_normal(tuple(shape)).astype(_DTYPES[dtype])


def digest(array: np.ndarray) -> str:
    """sha256 of the array's elements in C order, little-endian (independent of the host)."""
    little = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<"))
    return hashlib.sha256(little.tobytes()).hexdigest()


def _record(array: np.ndarray) -> dict[str, Any]:
    return {"shape": list(array.shape), "dtype": array.dtype.name, "sha256": digest(array)}


def drawn(seed: int, array: np.ndarray) -> dict[str, Any]:
    """The recipe of `array`, which must be `draw_input(seed, ...)` of its shape and dtype."""
    if not np.array_equal(draw_input(seed, array.shape, array.dtype.name), array):
        raise RecipeError(f"the array is not what seed {seed} draws")
    return {"draw": "standard_normal", "seed": seed, **_record(array)}


def taken_from(
    source: Path, arrays: Sequence[str], array: np.ndarray, reshape: Sequence[int] | None = None, axis: int = 0
) -> dict[str, Any]:
    """The recipe of `array`, which must equal what `source`'s `arrays` make (bit for bit)."""
    recipe: dict[str, Any] = {"from": source.name, "arrays": list(arrays), "axis": axis}
    if reshape is not None:
        recipe["reshape"] = list(reshape)
    made = _take(source.parent, recipe, set())
    if made.shape != array.shape or made.dtype != array.dtype or not np.array_equal(made, array, equal_nan=True):
        raise RecipeError(f"the array is not {'+'.join(arrays)} of {source.name}")
    return {**recipe, **_record(array)}


def save(path: Path, stored: Mapping[str, np.ndarray], recipes: Mapping[str, Mapping[str, Any]]) -> None:
    """Write `stored` compressed and `recipes` as the `recipes` entry (none when empty)."""
    clash = sorted(set(stored) & set(recipes))
    if clash or RECIPES_KEY in stored:
        raise RecipeError(f"arrays both stored and made by a recipe: {clash or [RECIPES_KEY]}")
    arrays = dict(stored)
    if recipes:
        arrays[RECIPES_KEY] = np.array(json.dumps(recipes, sort_keys=True))
    np.savez_compressed(path, allow_pickle=False, **arrays)


def load_arrays(path: Path) -> dict[str, np.ndarray]:
    """Every array of the .npz at `path`, stored or made by its recipes, by name."""
    return _load(Path(path), set())


def _load(path: Path, visiting: set[Path]) -> dict[str, np.ndarray]:
    resolved = path.resolve()
    if resolved in visiting:
        raise RecipeError(f"'{path.name}' takes arrays from itself through its recipes")
    with np.load(path) as data:  # allow_pickle stays False: a recipe is a string, not an object
        arrays = {key: data[key] for key in data.files}
    text = arrays.pop(RECIPES_KEY, None)
    if text is None:
        return arrays
    try:
        recipes = json.loads(str(text))
    except json.JSONDecodeError as err:
        raise RecipeError(f"'{path.name}': its recipes are not JSON ({err})") from err
    if not isinstance(recipes, dict):
        raise RecipeError(f"'{path.name}': its recipes are not a JSON object")
    for name, recipe in recipes.items():
        if name in arrays:
            raise RecipeError(f"'{path.name}': {name} is both stored and made by a recipe")
        arrays[name] = _follow(path, name, recipe, visiting | {resolved})
    return dict(sorted(arrays.items()))


def _follow(path: Path, name: str, recipe: Any, visiting: set[Path]) -> np.ndarray:
    where = f"'{path.name}': {name}"
    try:
        if recipe.get("draw") == "standard_normal":
            array = draw_input(int(recipe["seed"]), recipe["shape"], recipe["dtype"])
        elif "from" in recipe:
            array = _take(path.parent, recipe, visiting)
        else:
            raise RecipeError(f"{where}: a recipe neither drawn nor taken from another file: {recipe}")
        expected = (list(recipe["shape"]), recipe["dtype"], recipe["sha256"])
    except RecipeError as err:
        raise RecipeError(f"{where}: {err}") from err
    except (AttributeError, KeyError, TypeError, ValueError) as err:  # ValueError: a reshape or concat that fails
        raise RecipeError(f"{where}: a malformed recipe {recipe!r} ({err!r})") from err
    made = (list(array.shape), array.dtype.name, digest(array))
    if made != expected:
        field = ("shape", "dtype", "sha256")[[a == b for a, b in zip(made, expected)].index(False)]
        raise RecipeError(f"{where}: the recipe makes an array whose {field} is not the one recorded")
    return array


def _take(directory: Path, recipe: Mapping[str, Any], visiting: set[Path]) -> np.ndarray:
    source = directory / str(recipe["from"])
    if Path(str(recipe["from"])).name != recipe["from"]:
        raise RecipeError(f"the source {recipe['from']!r} is not a file name in the same directory")
    if not source.exists():
        raise RecipeError(f"its source '{recipe['from']}' is not there")
    arrays = _load(source, visiting)
    missing = [key for key in recipe["arrays"] if key not in arrays]
    if missing or not recipe["arrays"]:
        raise RecipeError(f"'{recipe['from']}' has no {', '.join(missing) or 'arrays named'}")
    parts = [arrays[key] for key in recipe["arrays"]]
    if "reshape" in recipe:
        parts = [part.reshape(recipe["reshape"]) for part in parts]
    return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=int(recipe["axis"]))
