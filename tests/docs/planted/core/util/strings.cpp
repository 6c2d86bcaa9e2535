// Planted for docs_cited_paths_catches_dangling: a folder with code and no README.md.
int planted_strings() { return 0; }
