"""Golden vectors: the generators (one per family), vector files, fresh vectors, clauses, schemas and game specs."""
