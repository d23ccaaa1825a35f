"""The one write path (`transaction`), Idempotency-Key records, pagination, SQLite set-up."""
