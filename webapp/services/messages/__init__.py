"""Messages to pass holders (issue 33): `composing` records a message (now or at `sendAt`)
and cancels a scheduled one; `sending` hands it to its audience a chunk at a time (the job
task `send_message`, and the sweep's source `due`); `reading` gets and lists messages with
their counts per wallet."""

from webapp.services.messages.composing import Compose, audience_size, cancel, create
from webapp.services.messages.reading import get, list_
from webapp.services.messages.sending import CHUNK_SIZE, due, run

__all__ = ["CHUNK_SIZE", "Compose", "audience_size", "cancel", "create", "due", "get", "list_",
           "run"]
