"""Accounts: organizations, staff users and their memberships, API keys."""
