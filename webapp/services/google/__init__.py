"""Google Wallet: class and object sync, save links, callbacks, update delivery."""
