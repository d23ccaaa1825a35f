"""Background work: a queue (RQ when REDIS_URL is set, in-process otherwise) and its tasks."""
