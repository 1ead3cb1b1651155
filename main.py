"""Autograd Playground: ``python main.py`` opens the app; ``python main.py train --help`` trains headless."""

import sys

from gui.shell.launcher import main

if __name__ == "__main__":
    sys.exit(main())
