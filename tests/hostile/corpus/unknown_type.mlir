// EXPECT: error
func.func @f(%a: !foo.bar) -> !foo.bar {
  return %a : !foo.bar
}
