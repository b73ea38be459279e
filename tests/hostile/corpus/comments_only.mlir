// EXPECT: ok
