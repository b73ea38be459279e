// EXPECT: ok
func.func @f() -> tensor<4xf32> {
  %c = arith.constant dense_resource<blob1> : tensor<4xf32>
  return %c : tensor<4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x0400000001"
    }
  }
#-}