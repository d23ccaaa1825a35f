"""Apple Wallet: pkpass files, the web service's registrations, update pushes."""
