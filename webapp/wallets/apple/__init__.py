"""Apple Wallet: certificates, pass.json, the signed .pkpass bundle, APNs."""
