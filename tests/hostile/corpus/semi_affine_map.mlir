// EXPECT: ok
// Semi-affine maps are valid MLIR (xDSL's affine code raised NotImplementedError on them).
func.func @f(%i: index, %n: index) -> index attributes {m = affine_map<(d0, d1)[s0, s1] -> (d0 * (s0 * 2), (d1 + s1) * s0, d0 mod s1, s0 * s1 ceildiv s0)>} {
  %0 = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%i)[%n]
  return %0 : index
}
