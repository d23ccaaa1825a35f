"""Credentials: Apple certificates, Google issuers, demo identities; which one signs; admin."""
