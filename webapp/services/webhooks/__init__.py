"""Webhooks: events, endpoints, deliveries and their HTTP client."""
