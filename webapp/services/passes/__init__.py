"""Passes: their lifecycle, how they are shown, download links, holder pages, installations."""
