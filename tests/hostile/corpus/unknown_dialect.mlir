// EXPECT: error
func.func @f() {
  %0 = foo.bar() : () -> i32
  return
}