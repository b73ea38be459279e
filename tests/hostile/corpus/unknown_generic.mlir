// EXPECT: error
"foo.bar"() : () -> ()