"""Passes: issuing, changes, queries; how they are shown, download links, holder pages,
installations."""
