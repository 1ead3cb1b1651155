"""The GUI has the command line's memory guard: a setting (or a session) whose training step would need more
memory than the limits is refused with one sentence naming the setting, or asked about, and nothing changes."""

import pytest
from PySide6.QtWidgets import QMessageBox
from training_gui_helpers import set_spin

from autograd_core.learn.run_cost import RunLimits, estimate_run_cost
from autograd_core.learn.training import Trainer, TrainingConfig
from autograd_core.session import SessionError, load_session, save_session

# Limits under which the default run (2-16-16-1, 200 samples) is fine and 2-32-32-1 on 2,000 samples is not.
DEFAULT_PEAK = estimate_run_cost(TrainingConfig(steps=1000)).peak_bytes
BIG = dict(samples=2000, batch_size=0, layers=[32, 32])
BIG_PEAK = estimate_run_cost(TrainingConfig(steps=1000, **BIG)).peak_bytes


def test_limits_chosen_between_the_two_runs():
    assert DEFAULT_PEAK < BIG_PEAK / 2


def test_a_spin_box_beyond_the_limit_is_refused_with_the_setting_named(qtbot, ws):
    ws.controller.limits = RunLimits(ask_bytes=BIG_PEAK // 2, refuse_bytes=BIG_PEAK // 2)
    before = ws.controller.config
    set_spin(qtbot, ws.training_panel.samples, 2000)
    set_spin(qtbot, ws.network_panel.layer_spins[0], 32)  # 2000 samples with a 32-wide first layer
    set_spin(qtbot, ws.network_panel.layer_spins[1], 32)
    text = ws.training_panel.banner_text.text()
    assert ws.training_panel.banner.isVisible()
    assert text.startswith("Setting not applied: this run needs about")
    assert "the hidden layers" in text and "Batch size" in text
    # The refused change is not in force, and the panel shows what is.
    assert ws.controller.config.layers != [32, 32]
    assert ws.network_panel.layers() == ws.controller.config.layers
    assert ws.controller.config.samples in (before.samples, 2000)


def test_above_the_ask_threshold_the_user_decides(qtbot, ws, monkeypatch):
    ws.controller.limits = RunLimits(ask_bytes=(DEFAULT_PEAK + BIG_PEAK) // 2, refuse_bytes=10 * BIG_PEAK)
    asked = []

    def answer(choice):
        def question(parent, title, text, *args):
            asked.append(text)
            return choice

        return question

    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.No))
    assert not ws.controller.update_settings(**BIG)
    assert len(asked) == 1 and "memory" in asked[0] and "Apply it anyway?" in asked[0]
    assert ws.controller.config.layers == TrainingConfig().layers
    assert "you chose not to run it" in ws.training_panel.banner_text.text()

    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Yes))
    assert ws.controller.update_settings(**BIG)
    assert ws.controller.config.layers == [32, 32] and ws.controller.config.samples == 2000
    big_network_running = lambda: ws.controller.settled and ws.controller.last_snapshot.sizes == (2, 32, 32, 1)  # noqa: E731
    qtbot.waitUntil(big_network_running, timeout=30_000)


def test_a_session_beyond_the_limit_is_not_opened_and_nothing_changes(qtbot, ws, tmp_path):
    path = tmp_path / "big.json"
    save_session(path, trainer=Trainer(TrainingConfig(**BIG)))
    ws.controller.limits = RunLimits(ask_bytes=BIG_PEAK // 2, refuse_bytes=BIG_PEAK // 2)
    before = ws.controller.config
    with pytest.raises(SessionError, match="memory"):
        ws.restore_session(load_session(path))
    assert ws.controller.config == before

    ws.controller.limits = RunLimits()
    ws.restore_session(load_session(path))
    assert ws.controller.config.layers == [32, 32]
