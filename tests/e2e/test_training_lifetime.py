"""The training process never dies for good and never outlives its window, with the real child process:
killed by hand it comes back from the last good state and says so in one line; killed again and again it gives
up and Reset starts afresh; the app starts it as it opens (a bare window or area only when the training tab is
seen); none survives the window, the widget or even this process being killed, not even while it starts."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QSettings, Qt
from training_gui_helpers import PROCESS_WAIT_MS, child_pids, engine_and_worker, lonely_point, set_spin

from autograd_core.learn.training import Trainer, TrainingConfig
from autograd_core.live.process import ENDS_WITHIN
from autograd_core.live.protocol import Start
from autograd_core.live.service import Snapshot
from autograd_core.session import save_session
from gui.shell.main_window import MainWindow
from gui.shell.settings import AppSettings
from gui.training.training_controller import TrainingController
from gui.training.training_workspace import TrainingWorkspace

TIMEOUT = PROCESS_WAIT_MS  # (the product's figures: see training_gui_helpers)
# The app's window shows 1.5 s after ``python main.py`` on an idle machine, 4 s at load 6 (bench_startup.py).
APP_START_WAIT = 60.0
LEFT = Qt.MouseButton.LeftButton
REPO = Path(__file__).resolve().parents[2]


def step_of(ws):
    m = ws.controller.last_metrics
    return -1 if m is None else m.step


def gone(pid: int) -> bool:
    """True when process ``pid`` has exited (a zombie nobody reaped counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def button_and_status_agree(ws):
    running = ws.training_panel.play_button.text() == "Pause"
    return running == ws.controller.running == ("steps/s" in ws.training_panel.status.text())


def small_and_slow(qtbot, ws):
    """A small network at 20 steps a second: slow enough to kill the process mid-run."""
    panel = ws.network_panel
    while len(panel.remove_buttons) > 1:
        qtbot.mouseClick(panel.remove_buttons[-1], LEFT)
    set_spin(qtbot, panel.layer_spins[0], 6)
    set_spin(qtbot, ws.training_panel.steps, 100_000)
    ws.training_panel.speed.setCurrentText("20 steps/s")
    qtbot.waitUntil(lambda: ws.controller.settled and ws.controller.last_snapshot.sizes == (2, 6, 1), timeout=TIMEOUT)


def test_a_killed_training_process_comes_back_from_the_last_good_state(qtbot, process_ws):
    ws = process_ws
    small_and_slow(qtbot, ws)
    qtbot.mouseClick(ws.training_panel.play_button, LEFT)
    qtbot.waitUntil(lambda: step_of(ws) >= 10, timeout=TIMEOUT)
    worker = ws.controller.worker
    old_pid = worker.pid
    history = ws.controller.history.column("train_loss").copy()
    reached = step_of(ws)
    os.kill(old_pid, signal.SIGKILL)

    qtbot.waitUntil(lambda: "restarted" in ws.training_panel.banner_text.text(), timeout=TIMEOUT)
    text = ws.training_panel.banner_text.text()
    assert "\n" not in text and "nothing was lost" in text and "killed by signal 9" in text
    assert worker.pid != old_pid and gone(old_pid)
    # Training goes on by itself, from where it was: the steps keep counting and the curves keep every old point.
    qtbot.waitUntil(lambda: step_of(ws) >= reached + 10, timeout=TIMEOUT)
    assert ws.controller.running and button_and_status_agree(ws)
    now = ws.controller.history.column("train_loss")
    np.testing.assert_array_equal(now[: len(history)], history)
    steps = ws.controller.history.column("step")
    np.testing.assert_array_equal(steps, np.arange(len(steps)))  # no gap, no repeat
    # and the trainer in the new process is the one that kept training (its history is the whole run)
    qtbot.mouseClick(ws.training_panel.play_button, LEFT)
    qtbot.waitUntil(lambda: ws.controller.settled, timeout=TIMEOUT)
    assert button_and_status_agree(ws) and not ws.controller.running
    trainer = ws.controller.export_trainer()
    assert len(trainer.history) == trainer.step_count == step_of(ws)


def test_a_process_that_keeps_dying_gives_up_and_reset_starts_afresh(qtbot, process_ws):
    ws = process_ws
    worker = ws.controller.worker
    set_spin(qtbot, ws.training_panel.lr, 0.02)
    qtbot.waitUntil(lambda: ws.controller.settled, timeout=TIMEOUT)
    pid = worker.pid
    os.kill(pid, signal.SIGKILL)  # after its first snapshot: restarted with the commands it had not seen
    for _ in range(2):  # then killed before its first snapshot, twice: once more without them, then no more
        qtbot.waitUntil(lambda: worker.pid != pid, timeout=TIMEOUT)
        pid = worker.pid
        os.kill(pid, signal.SIGKILL)
    qtbot.waitUntil(lambda: worker.gave_up, timeout=TIMEOUT)
    text = ws.training_panel.banner_text.text()
    assert "press Reset" in text and ws.training_panel.banner.isVisible()
    assert not ws.controller.running and button_and_status_agree(ws)

    qtbot.mouseClick(ws.training_panel.reset_button, LEFT)
    assert ws.controller.worker is not worker and not ws.training_panel.banner.isVisible()
    qtbot.waitUntil(lambda: ws.controller.settled, timeout=TIMEOUT)
    assert ws.controller.config.lr == 0.02 and ws.controller.last_snapshot.state.config["lr"] == 0.02
    qtbot.mouseClick(ws.training_panel.step_button, LEFT)
    qtbot.waitUntil(lambda: step_of(ws) == 1, timeout=TIMEOUT)
    assert gone(pid)


def test_painting_and_erasing_with_a_loss_slice_open_keeps_the_process(qtbot, process_ws):
    ws = process_ws
    qtbot.mouseClick(ws.training_panel.step_button, LEFT)
    qtbot.waitUntil(lambda: step_of(ws) == 1 and ws.controller.settled, timeout=TIMEOUT)
    ws.flush()
    diagram = ws.diagram
    edge = next(e for e in diagram.edges if e.layer == 1 and e.row == 2 and e.col == 0)
    qtbot.mouseClick(diagram.view.viewport(), LEFT, pos=diagram.view.mapFromScene(lonely_point(edge, diagram.edges)))
    qtbot.waitUntil(lambda: ws.controller.last_slice is not None, timeout=TIMEOUT)
    pid, before = ws.controller.worker.pid, ws.controller.last_slice
    boundary = ws.boundary
    qtbot.mouseClick(boundary.mode_buttons["paint1"], LEFT)
    qtbot.mouseClick(boundary.plot.viewport(), LEFT, pos=boundary.to_view(0.0, 1.6))
    qtbot.mouseClick(boundary.mode_buttons["erase"], LEFT)
    target = ws.controller.dataset.X_train[5]
    qtbot.mouseClick(boundary.plot.viewport(), LEFT, pos=boundary.to_view(*target))
    n = len(ws.controller.dataset.y_train)
    qtbot.waitUntil(lambda: ws.controller.settled and ws.controller.last_slice is not None, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: ws.controller.last_slice.loss != before.loss, timeout=TIMEOUT)
    assert ws.controller.worker.pid == pid and not gone(pid)  # the same process: it never died
    assert ws.controller.last_snapshot.error is None and "restarted" not in ws.training_panel.banner_text.text()
    assert len(ws.controller.export_trainer().data.y_train) == n


# ------------------------------------------------------------------ lifetimes


@pytest.fixture
def settings(tmp_path):
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qsettings"))
    return AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))


def test_a_session_opened_before_the_tab_was_seen_starts_no_process_until_it_is(qtbot, settings, tmp_path):
    trainer = Trainer(TrainingConfig(samples=40, layers=[3], steps=50))
    for _ in range(4):
        trainer.step()
    path = tmp_path / "early.agp.json"
    save_session(path, trainer)
    before = child_pids()
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.tabs.setCurrentWidget(window.expression)
    window.show()
    assert window.open_session(str(path))
    controller = window.training.controller
    assert controller.worker is None and child_pids() == before  # nothing started for an unseen tab
    assert controller.export_trainer().step_count == 4  # saving now still saves the opened session

    window.tabs.setCurrentWidget(window.training)  # first seen: the process starts, with the session
    qtbot.waitUntil(lambda: controller.settled and step_of(window.training) == 4, timeout=TIMEOUT)
    pid = controller.worker.pid
    assert pid in child_pids() and controller.last_snapshot.sizes == (2, 3, 1)
    window.close()
    qtbot.waitUntil(lambda: gone(pid), timeout=10_000)
    assert child_pids() == before


def test_a_window_closed_before_the_tab_was_seen_leaves_nothing(qtbot, settings):
    before = child_pids()
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    window.tabs.setCurrentWidget(window.expression)
    window.training.controller.update_settings(lr=0.01)
    window.close()
    assert window.training.controller.worker is None and child_pids() == before


def test_deleting_the_training_area_ends_its_process_and_nothing_fires_into_it(qtbot):
    controller = TrainingController()  # made without a parent: the area adopts it
    ws = TrainingWorkspace(controller)
    assert controller.parent() is ws
    ws.show()
    qtbot.waitUntil(lambda: controller.last_snapshot is not None, timeout=TIMEOUT)
    controller.play()
    qtbot.waitUntil(lambda: step_of(ws) >= 1, timeout=TIMEOUT)
    worker, pid = controller.worker, controller.worker.pid
    ws.deleteLater()
    qtbot.waitUntil(lambda: gone(pid), timeout=10_000)
    assert not worker._reader.is_alive()
    with pytest.raises(RuntimeError):  # the controller went with its widget
        controller.objectName()
    qtbot.wait(200)  # no late snapshot reaches a deleted widget (an exception here would fail the test)


@pytest.mark.parametrize("when", ["while it starts", "after its first snapshot"])
def test_the_training_process_ends_when_the_app_is_killed(when):
    """Killed with SIGKILL (no atexit, no aboutToQuit, no Stop), the app takes its training process with it within
    the process's ``ENDS_WITHIN``, even while that process is still starting (it then reads no pipe yet)."""
    wait_first = when == "after its first snapshot"
    script = (
        "import sys, time\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        "from PySide6.QtCore import QCoreApplication\n"
        "app = QCoreApplication([])\n"
        "from autograd_core.live.protocol import Start\n"
        "from gui.training.training_worker import ProcessWorker\n"
        "worker = ProcessWorker(Start(config={}))\n"
        "print(worker.pid, flush=True)\n"
        f"while {wait_first} and worker.take_snapshot() is None:\n"
        "    time.sleep(0.01)\n"
        "print('ready', flush=True)\n"
        "time.sleep(120)\n"
    )
    app = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        pid = int(app.stdout.readline())
        assert app.stdout.readline().strip() == "ready" and not gone(pid)
        app.send_signal(signal.SIGKILL)
        app.wait(10)
        assert ended_within(pid, ENDS_WITHIN)
    finally:
        app.kill()
        app.wait(10)
        app.stdout.close()


def training_children(pid: int) -> list[int]:
    """The training processes (``child_main``) whose parent is ``pid``."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                command = f.read()
        except OSError:
            continue
        if parent == pid and b"child_main" in command:
            found.append(int(entry))
    return found


def ended_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    return gone(pid)


@pytest.mark.slow
def test_the_app_starts_its_training_process_as_it_opens_and_takes_it_along_when_killed(tmp_path):
    """``python main.py`` (a first start: Start here opens on the Expression tab) starts the training process at
    once, so Network training's first picture is ready when it is first opened; killed, the app takes it along."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path), "HOME": str(tmp_path)}
    app = subprocess.Popen([sys.executable, "main.py"], cwd=REPO, env=env, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + APP_START_WAIT
        while not training_children(app.pid) and app.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        children = training_children(app.pid)
        assert len(children) == 1, "the app did not start its training process"
        app.send_signal(signal.SIGKILL)
        app.wait(10)
        assert ended_within(children[0], ENDS_WITHIN)
    finally:
        app.kill()
        app.wait(10)


# ------------------------------------------------------------------ the last good state


def test_restart_state_continues_exactly_where_the_snapshot_was(qapp):
    """A restart from the newest snapshot (weights, optimizer state, batch position, history, data) takes the
    very step the old process would have taken next."""
    from autograd_core.live.protocol import Pause, Play, Step
    from autograd_core.live.service import Engine
    from gui.training.training_worker import LocalPipe

    start = Start(config=TrainingConfig(samples=60, layers=[5], optimizer="adam", batch_size=8).to_dict())
    engine, worker, run = engine_and_worker(start)

    run(Step(7))
    for _ in range(7):
        run()
    run(Play())  # handled, then one step, then a snapshot
    seen = worker.sent
    worker.sent += 1
    worker._log.append(Pause(seq=worker.sent))  # sent after the newest snapshot: a restart sends it again
    restart = worker.restart_state(replay=True)
    assert restart.session.step == 8 and len(restart.session.history) == 8 and restart.seq == seen
    assert restart.running and worker._logged() == [Pause(seq=seen + 1)]
    twin = Engine(restart, LocalPipe())
    engine.trainer.step()
    twin.trainer.step()
    assert twin.trainer.model.state_dict() == engine.trainer.model.state_dict()
    assert twin.trainer.history == engine.trainer.history
    dropped = worker.restart_state(replay=False)
    assert dropped.seq == worker.sent
    assert isinstance(worker.take_snapshot(), Snapshot)
