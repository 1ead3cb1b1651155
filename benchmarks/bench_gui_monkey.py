"""The GUI monkey, long: seeded random user actions on the whole window, and the longest stall per action kind.

For each seed, opens the main window (offscreen unless ``--show``) with its real
training process, does ``--actions`` random actions (see ``tests/gui_monkey.py``:
clicks, combo choices, typing garbage and expressions, extreme spin values,
drags and wheels on the plots and graphs, theme and presentation toggles,
resizes, dialogs) and closes it.  Prints any failure with the seed and the
action log (replay with the same ``--seeds`` and ``--actions``), then, per
action kind, how often it ran and the longest event-loop stall it caused
(a 5 ms probe timer's gaps, the action's own handlers included).

    python benchmarks/bench_gui_monkey.py [--seeds 1 2 3] [--actions 1000] [--show] [--log]
        [--size 1024x700] [--presentation] [--no-oracle] [--profile KIND ...]

After every action the oracle (``tests/gui_oracle.py``) checks that the numbers, marks and messages on screen
equal the state they show; its findings are counted and the first few listed with the action before them.

Figures are noisy on a shared 2-core machine; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3], help="one run per seed (default 1 2 3)")
    parser.add_argument("--actions", type=int, default=1000, help="actions per run (default 1000)")
    parser.add_argument("--show", action="store_true", help="use the real display instead of offscreen")
    parser.add_argument("--log", action="store_true", help="print every run's action log, not only on failure")
    parser.add_argument("--over", type=float, default=250.0, help="list every action that stalled longer (ms)")
    parser.add_argument("--size", default="1280x800", help="the window's size at the start (default 1280x800)")
    parser.add_argument("--presentation", action="store_true", help="start in presentation mode")
    parser.add_argument(
        "--area", choices=("window", "training"), default="window", help="the whole window, or the training area alone"
    )
    parser.add_argument(
        "--profile", nargs="*", default=[], help="action kinds run under cProfile; each over --over ms is printed"
    )
    parser.add_argument("--no-oracle", action="store_true", help="do not check the screen against the state")
    parser.add_argument(
        "--trace",
        default="",
        help="a file each action is written to as it starts and ends, with a Python traceback if the process crashes "
        "(and on SIGUSR1)",
    )
    parser.add_argument("--mismatches", type=int, default=8, help="oracle findings listed per run (default 8)")
    args = parser.parse_args()
    if not args.show:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    trace = open(args.trace, "w", encoding="utf-8", buffering=1) if args.trace else None  # (open to the end)
    if trace is not None:
        faulthandler.enable(trace)  # a segfault in Qt kills the process: its traceback lands after the last action
        faulthandler.register(signal.SIGUSR1, trace, all_threads=True)  # kill -USR1: where a stuck run is

    from gui_monkey import WINDOW_ACTIONS, Monkey, MonkeyFailure
    from gui_oracle import JUDGED, check_window
    from PySide6.QtCore import QSettings
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from gui.shell.app import create_app
    from gui.shell.main_window import MainWindow
    from gui.shell.settings import AppSettings

    create_app()
    worst: dict[str, tuple[float, int, int]] = {}
    failed = []
    found: dict[int, int] = {}
    width, height = (int(v) for v in args.size.lower().split("x"))
    for seed in args.seeds:
        with tempfile.TemporaryDirectory(prefix="gui-monkey-") as tmp:
            QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(Path(tmp) / "qsettings"))
            settings = AppSettings(QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat))
            window = MainWindow(settings)
            window.reporter.install()  # as the app does: exceptions in slots get the error dialog
            window.resize(width, height)
            window.show()
            if args.presentation:
                window.set_presentation(True)
            window.tabs.setCurrentWidget(window.training)
            started = time.perf_counter()
            target, window_actions = window, None
            if args.area == "training":  # its widgets only, with keys and waits (no menus, tabs or resizes)
                target = window.training
                window_actions = [a for a in WINDOW_ACTIONS if a[0] in ("wait", "key")]
            oracle = None if args.no_oracle else check_window
            monkey = Monkey(target, seed, Path(tmp) / "files", window_actions=window_actions, oracle=oracle)
            monkey.profile, monkey.profile_over = set(args.profile), args.over
            monkey.trace = trace
            if trace is not None:
                trace.write(f"seed {seed}\n")
            try:
                with monkey:
                    deadline = time.monotonic() + 60
                    while window.training.controller.last_snapshot is None and time.monotonic() < deadline:
                        QTest.qWait(20)
                    monkey.run(args.actions)
                    monkey.window = window  # closed as a user does: the whole window
                    monkey.finish()
            except MonkeyFailure as failure:
                failed.append(seed)
                print(failure, flush=True)
                window.close()
            finally:
                window.reporter.uninstall()
                window.deleteLater()
                QApplication.sendPostedEvents(None, 0)
            report = monkey.report
            seconds = time.perf_counter() - started
            print(f"\nseed {seed}: {report.actions} actions in {seconds:.0f} s, {len(report.failures)} failure(s)")
            print(report.stall_table())
            if report.warnings:
                print(f"Python warnings (recorded, not failed on): {len(report.warnings)}")
                for line in report.warnings:
                    print(f"  {line}")
            if report.known:
                print(f"known issues met (reported where they come from, not failed on): {len(report.known)}")
                for line in report.known:
                    print(f"  {line}")
            slow = [line for line in report.log if line.endswith(" ms]") and _ms(line) > args.over]
            if slow:
                print(
                    f"actions that stalled over {args.over:.0f} ms "
                    "(the GUI thread's own CPU time over the whole action, settling included):"
                )
                cpu = {stall.index: stall.cpu_ms for stalls in report.stalls.values() for stall in stalls}
                for line in slow:
                    index = int(line[1:].split(" ", 1)[0])
                    print(f"  {line}  (GUI thread ran {cpu.get(index, 0.0):.0f} ms)")
            for text in report.profiles:
                print(f"profile of {text}")
            found[seed] = len(report.mismatches)
            if not args.no_oracle:
                print(f"oracle: {len(report.mismatches)} disagreement(s) between the screen and the state")
                print("  checks made (the rest were in motion): " + ", ".join(f"{k} {v}" for k, v in JUDGED.items()))
                JUDGED.clear()
                for line in report.mismatches[: args.mismatches]:
                    print(f"  {line}")
            if args.log:
                print("\n".join(report.log))
            for kind, stall in report.worst().items():
                if kind not in worst or stall.ms > worst[kind][0]:
                    worst[kind] = (stall.ms, seed, stall.index)
            sys.stdout.flush()
    print(f"\nload average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    print(f"longest stall per action kind over seeds {args.seeds} ({args.actions} actions each):")
    for kind, (ms, seed, index) in sorted(worst.items(), key=lambda kv: -kv[1][0]):
        print(f"  {kind:<16} {ms:>6.0f} ms  (seed {seed}, action #{index})")
    print("failures: " + (f"seeds {failed}" if failed else "none"))
    if not args.no_oracle:
        print(f"oracle disagreements ({args.size}, presentation {'on' if args.presentation else 'off'}): {found}")
    return 1 if failed else 0


def _ms(line: str) -> float:
    return float(line.rsplit("[", 1)[1].split(" ms]")[0])


if __name__ == "__main__":
    sys.exit(main())
