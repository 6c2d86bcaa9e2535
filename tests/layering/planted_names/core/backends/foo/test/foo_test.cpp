// tests may name it
const char* t = "foo";
