"""The front door: ``autograd-playground`` (or ``python main.py``) opens the app; ``… train`` trains headless.

Everything that can go wrong before a window exists is answered here, in one
line and before Qt is imported: ``--help``, ``--version``, an unknown argument,
and a missing display (Qt would print a page of plugin messages and abort the
interpreter, exit code 134).
"""

from __future__ import annotations

import argparse
import os
import sys

NO_DISPLAY_EXIT = 1


def program_name(argv0: str | None = None) -> str:
    """How the user started us, to repeat in messages: ``main.py`` or ``autograd-playground``."""
    return os.path.basename(argv0 or sys.argv[0] or "") or "autograd-playground"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def build_parser(prog: str) -> argparse.ArgumentParser:
    from autograd_core import __version__
    from autograd_core.cli import runnable

    command = runnable(prog)
    parser = _Parser(
        prog=prog,
        usage=f"{prog} [-h] [--version]\n       {prog} train [options]",
        description="Autograd Playground: a desktop app that shows how neural networks learn, on a scalar\n"
        "autograd engine written from scratch.  Without arguments it opens the app.",
        epilog=(
            "commands:\n"
            f"  train        train an MLP from the command line, no display needed ({command} train --help)\n\n"
            "The app needs a display.  Without one, draw offscreen (QT_QPA_PLATFORM=offscreen) or run it under\n"
            f"Xvfb: xvfb-run -a {command}"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"autograd-playground {__version__}")
    return parser


def missing_display(env: os._Environ | dict | None = None, platform: str | None = None) -> str | None:
    """Why Qt would find no display to open a window on ("DISPLAY is not set"), or None if it should find one.

    Only the X11 and Wayland platforms need one; any other ``QT_QPA_PLATFORM``
    (offscreen, vnc, eglfs…) is Qt's business, as are macOS and Windows.
    """
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if not (platform.startswith("linux") or "bsd" in platform):
        return None
    wanted = [name.split(":")[0].strip() for name in env.get("QT_QPA_PLATFORM", "").split(";") if name.strip()]
    for name in wanted or ["xcb", "wayland"]:  # unset: Qt picks X11, or Wayland in a Wayland session
        if name == "xcb" and env.get("DISPLAY"):
            return None
        if name.startswith("wayland") and env.get("WAYLAND_DISPLAY"):
            return None
        if name != "xcb" and not name.startswith("wayland"):
            return None
    if wanted and all(name.startswith("wayland") for name in wanted):
        return "WAYLAND_DISPLAY is not set"
    return "DISPLAY is not set"


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``main.py`` and of the installed ``autograd-playground`` command; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    prog = program_name()
    try:
        if argv and argv[0] == "train":
            return _train(argv[1:], prog)
        if argv:  # (none: nothing to parse, and the parser's imports would delay the window)
            build_parser(prog).parse_args(argv)  # --help, --version and mistakes exit here, Qt untouched
        problem = missing_display()
        if problem:
            from autograd_core.cli import runnable

            command = runnable(prog)
            sys.stderr.write(
                f"{prog}: error: no display to open the window on ({problem}); run it on a desktop, under Xvfb "
                f"(xvfb-run -a {command}) or offscreen (QT_QPA_PLATFORM=offscreen {command}); "
                f"'{command} train' needs no display\n"
            )
            return NO_DISPLAY_EXIT
        _import_the_library_first()
        from .app import run

        return run([])
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130


def _import_the_library_first() -> None:
    """Import the Qt-free library the window's first frame needs before Qt: Qt's binding reads the source of every
    module imported after it (to learn whether the module uses its ``__feature__`` switches), about half a
    millisecond each, and the graph library alone brings ~290 modules (0.1–0.2 s of the window's start).  What
    only the areas built after the first frame use (the training service, the optimizer lab) comes with them."""
    import autograd_core.drawing.grouping  # (networkx)
    import autograd_core.export
    import autograd_core.language.symbolic
    import autograd_core.lessons  # noqa: F401


def _train(argv: list[str], prog: str) -> int:
    from autograd_core.cli import main as train_main

    plot_writer = None
    if any(a == "--plot" or a.startswith("--plot=") for a in argv):
        from ..plots.boundary_png import write_boundary_png as plot_writer  # Qt only when a PNG is wanted

    return train_main(argv, plot_writer=plot_writer, prog=f"{prog} train")
