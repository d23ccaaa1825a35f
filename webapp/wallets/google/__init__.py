"""Google Wallet: service accounts, classes and objects, the save JWT, REST, callbacks."""
