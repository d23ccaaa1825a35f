"""Format adapters: bytes in, bytes out. No framework, no database."""
