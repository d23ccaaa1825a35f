"""Check-in: redeeming passes at the door, by pass ID or by scanned barcode (issue 18)."""
