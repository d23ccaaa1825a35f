"""Use cases: the only writer. One module per resource; each function owns its transaction."""
