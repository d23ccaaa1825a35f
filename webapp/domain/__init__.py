"""Pure rules: stdlib only, no framework, no database."""
