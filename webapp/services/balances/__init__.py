"""Balances: loyalty points and gift card money, moved by balance transactions (issue 32)."""
