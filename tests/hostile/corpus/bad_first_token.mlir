// EXPECT: error
~ bad first character
