// A comment may say foo, and so may a block:
/* foo
   foo */
int x = 1;  // foo
bool is_it(const std::string& target) { return target == "foo"; }
FooChoice choice;  // an identifier split at a case change
