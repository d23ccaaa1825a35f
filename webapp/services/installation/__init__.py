"""What every node of the installation must share, checked when a node starts."""
