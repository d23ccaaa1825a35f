"""WSGI entry point: `gunicorn wsgi:app`, `flask --app wsgi ...`."""

from webapp import create_app

app = create_app()
