"""The ground floor: facts about IR that every other layer builds on.

- `dialects/`: heirpy's `linalg` (xDSL's plus the ops front ends emit) and `tensor_ext`;
- `utils`: small IR helpers (i64 attributes, iterator types, affine-map predicates,
  static shapes, reassociations);
- `constants`: the one reader of compile-time constants (IR <-> numpy), with the
  `dense_resource` blobs passed explicitly;
- `context`: the context factory (`make_context`), each context's blob store, and
  `parse_module`;
- `diagnostics`: `HeirpyError` and one-line `file:line:col: error: ...` messages.

Nothing here imports from `interp`, `analysis`, `transforms`, `api` or `tools`.
"""
