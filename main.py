"""Autograd Playground: ``python main.py`` opens the app; ``python main.py train --help`` trains headless."""

import sys


def main(argv: list[str]) -> int:
    if argv and argv[0] == "train":
        from autograd_core.cli import main as train_main

        plot_writer = None
        if any(a == "--plot" or a.startswith("--plot=") for a in argv[1:]):
            from gui.boundary_png import write_boundary_png as plot_writer  # Qt only when a PNG is wanted

        return train_main(argv[1:], plot_writer=plot_writer)
    from gui.app import run

    return run(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
