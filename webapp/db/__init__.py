"""The database's one write path (`transaction`) and SQLite's set-up (`sqlite`)."""
