"""Sign-up pages (issue 33): links (`links.py`) and sign-ups (`signup.py`)."""
