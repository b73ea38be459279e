"""`linalg-canonicalizations` and the pattern families it runs (constants, linear ops,
elementwise ops)."""
