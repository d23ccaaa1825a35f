"""Use cases: the only writer. A package per subject; each function owns its transaction."""
