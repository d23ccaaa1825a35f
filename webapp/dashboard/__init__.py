"""The staff dashboard (HTMX, Flask-Login) over the same services as the API."""
