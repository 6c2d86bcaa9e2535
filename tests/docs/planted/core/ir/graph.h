#pragma once
// Planted for the test docs_cited_paths_catches_dangling.
// The graph lives in core/ir/graph.h (this file, which exists).
// See core/nowhere/missing.h, which does not exist: the check must report this line.
// The notes beside the repository are not in it: ../../../notes/design.md.
