// EXPECT: error
}}}}}