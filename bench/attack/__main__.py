"""`python -m bench.attack`: the attack run (see the package's docstring, or --help)."""

import sys

from bench.attack.run import main

sys.exit(main(sys.argv[1:]))
