"""Autograd Playground: ``python main.py`` opens the app; ``python main.py train --help`` trains headless."""

import sys


def main(argv: list[str]) -> int:
    if argv and argv[0] == "train":
        from autograd_core.cli import main as train_main

        return train_main(argv[1:])
    from gui.app import run

    return run(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
