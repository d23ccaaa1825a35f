"""The outbox: work recorded with a change, pass update delivery, the sweep."""
