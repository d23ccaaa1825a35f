"""Templates: their revisions, revision history, image assets and previews."""
