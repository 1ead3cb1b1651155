"""Screenshot tour: every tab and major state in every theme, mode and window size, as PNGs plus an index page.

    python tools/screenshot_tour.py --out /tmp/tour            # everything (states × 12 modes)
    python tools/screenshot_tour.py --out /tmp/tour --quick    # the representative states only
    python tools/screenshot_tour.py --only 'train-moons*' --modes 'dark-*-1024x700'
    python tools/screenshot_tour.py --list                     # state and mode names
    QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1600x1000x24" python tools/screenshot_tour.py --default-size \
        --only 'lesson-*' --modes '*-1360x820'                 # on a real X server, at the app's own size

Runs offscreen by default (no display needed); on a real X server with QT_QPA_PLATFORM=xcb. Training runs in this
process, a fixed number of steps per state, so the pictures are the same on every run. The layout checks of
``tools/layout_checks.py`` run on every picture too, and ``tools/text_sizes.py`` compares each presentation-mode
picture's text sizes with the normal-mode one of the same theme and size; their findings are listed in the index
page and in ``findings.txt``.
"""

from __future__ import annotations

import argparse
import fnmatch
import html
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="tour", help="folder for the PNGs and index.html (default: ./tour)")
    parser.add_argument("--quick", action="store_true", help="only the representative states")
    parser.add_argument("--only", default="*", help="states whose name matches this pattern (fnmatch, comma list)")
    parser.add_argument("--modes", default="*", help="modes whose name matches, e.g. 'dark-presentation-*'")
    parser.add_argument("--list", action="store_true", help="list states and modes and exit")
    parser.add_argument("--no-checks", action="store_true", help="skip the layout checks")
    parser.add_argument(
        "--default-size",
        action="store_true",
        help="also the app's own default window size (1360×820), e.g. under xvfb-run with QT_QPA_PLATFORM=xcb",
    )
    args = parser.parse_args(argv)

    from tools.tour_states import MODES, build_states, default_size_modes

    states = build_states()
    if args.quick:
        states = [s for s in states if s.representative]
    states = [s for s in states if any(fnmatch.fnmatch(s.name, p) for p in args.only.split(","))]
    every = MODES + (default_size_modes() if args.default_size else ())
    modes = [m for m in every if any(fnmatch.fnmatch(m.name, p) for p in args.modes.split(","))]
    if args.list:
        for s in states:
            print(f"state {s.name:32} {s.tab:11} {s.description}")
        for m in modes:
            print(f"mode  {m.name}")
        return 0

    from PySide6.QtWidgets import QApplication

    from tools.layout_checks import check_dialog, check_window
    from tools.text_sizes import compare, measure
    from tools.tour_states import Mode, Tour

    app = QApplication.instance() or QApplication(sys.argv)
    app.setApplicationName("autograd-playground-tour")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    settings_dir = tempfile.mkdtemp(prefix="tour-settings-")
    tour = Tour(settings_dir)
    rows: list[tuple[str, str, str, list[str]]] = []
    findings_total = 0
    started = time.monotonic()
    for state in states:
        sizes: dict = {}  # mode → every text's size on screen (tools/text_sizes.py), to compare the two modes
        for mode in modes:
            # a mode first (fonts, size), then the state: the views lay themselves out as a user would see them
            tour.apply_mode(mode)
            state.setup(tour)
            tour.apply_mode(mode)
            name = f"{state.name}__{mode.name}.png"
            if tour.dialog is not None:  # the state opened a dialog: picture it, check it and the window
                tour.dialog.grab().save(str(out / name))
            else:
                tour.window.grab().save(str(out / name))
            problems = [] if args.no_checks else [str(p) for p in check_window(tour.window, mode)]
            if tour.dialog is not None and not args.no_checks:
                problems += [str(p) for p in check_dialog(tour.dialog)]
            if not args.no_checks:
                sizes[mode] = measure(tour.window, (tour.dialog,) if tour.dialog is not None else ())
                normal = sizes.get(Mode(mode.theme, not mode.presentation, mode.size))
                if normal is not None:  # both modes seen: presentation's text is large enough
                    small, big = (normal, sizes[mode]) if mode.presentation else (sizes[mode], normal)
                    problems += [str(p) for p in compare(small, big)]
            findings_total += len(problems)
            rows.append((state.name, mode.name, name, problems))
            print(f"{name}  {len(problems)} finding(s)", flush=True)
    tour.close()
    write_index(out, rows)
    with open(out / "findings.txt", "w", encoding="utf-8") as f:
        for state, mode, _name, problems in rows:
            for p in problems:
                f.write(f"{state} {mode}: {p}\n")
    print(f"{len(rows)} screenshots, {findings_total} layout findings in {time.monotonic() - started:.0f} s: {out}")
    return 0


def write_index(out: Path, rows) -> None:
    parts = [
        "<!doctype html><meta charset='utf-8'><title>Autograd Playground screenshot tour</title>",
        "<style>body{font-family:sans-serif} img{width:480px;border:1px solid #888} figure{display:inline-block;"
        "margin:6px;vertical-align:top;width:480px} figcaption{font-size:12px} .bad{color:#b00}</style>",
        "<h1>Screenshot tour</h1>",
    ]
    current = None
    for state, mode, name, problems in rows:
        if state != current:
            parts.append(f"<h2 id='{html.escape(state)}'>{html.escape(state)}</h2>")
            current = state
        notes = "".join(f"<div class='bad'>{html.escape(p)}</div>" for p in problems[:8])
        more = f"<div class='bad'>… {len(problems) - 8} more</div>" if len(problems) > 8 else ""
        parts.append(
            f"<figure><a href='{html.escape(name)}'><img src='{html.escape(name)}' loading='lazy'></a>"
            f"<figcaption>{html.escape(mode)}{notes}{more}</figcaption></figure>"
        )
    (out / "index.html").write_text("\n".join(parts), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
