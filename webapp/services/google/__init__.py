"""Google Wallet: class and object sync, save links, callbacks, pushes of pass updates."""
