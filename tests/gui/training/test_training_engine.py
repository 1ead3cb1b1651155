"""The training engine in-process, with a fake pipe and a fake clock: every command of the typed protocol,
data edits during a loss slice, settings changes, divergence and rollback, and the loss slice's next step.

No child process and no event loop: these tests drive ``Engine.run_once`` by hand and read the replies it sends.
"""

import dataclasses
import math

import numpy as np
import pytest

from autograd_core.learn.data import add_point, dataset_points, remove_point
from autograd_core.learn.inspection import loss_slice, next_step, parameter_index
from autograd_core.learn.training import Trainer, TrainingConfig
from autograd_core.live.protocol import (
    Export,
    Exported,
    Load,
    Pause,
    PickSlice,
    Play,
    Reset,
    SetData,
    SetDelay,
    Snapshot,
    Start,
    Step,
    Stop,
    UpdateSettings,
)
from autograd_core.live.service import PUBLISH_SHARE, SLICE_INTERVAL, Engine
from autograd_core.numbers import format_number
from autograd_core.session import parse_session, session_dict, trainer_from_session
from gui.plots.loss_slice_plot import caption
from gui.training.training_worker import LocalPipe

SMALL = {"samples": 60, "layers": [4], "batch_size": 16, "steps": 500, "schedule": "constant"}


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


class Harness:
    """An engine with a command pipe, a reply pipe and a clock the test owns."""

    def __init__(self, **config):
        self.clock = FakeClock()
        self.commands, self.replies = LocalPipe(), LocalPipe()
        self.engine = Engine(Start(config=TrainingConfig(**{**SMALL, **config}).to_dict()), self.replies, self.clock)
        self.seq = 0
        self.snapshots: list[Snapshot] = []
        self.exported: list[Exported] = []

    def send(self, command):
        self.seq += 1
        self.commands.send(dataclasses.replace(command, seq=self.seq))

    def run(self, times=1, advance=0.0):
        """``run_once`` ``times`` times, the clock moving ``advance`` seconds before each; collect replies."""
        for _ in range(times):
            self.clock.advance(advance)
            self.engine.run_once(self.commands)
            while self.replies.poll():
                reply = self.replies.recv()
                (self.snapshots if isinstance(reply, Snapshot) else self.exported).append(reply)
        return self.snapshots[-1] if self.snapshots else None

    def until(self, predicate, limit=2000, advance=0.06):
        for _ in range(limit):
            snap = self.run(advance=advance)
            if snap is not None and predicate(snap):
                return snap
        raise AssertionError("the engine never got there")

    @property
    def trainer(self):
        return self.engine.trainer


def flat(weights):
    return [v for W, b in weights for row, bias in zip(W.tolist(), b.tolist()) for v in (*row, bias)]


# ------------------------------------------------------------------ every command


def test_first_snapshot_has_the_history_step_zero_and_the_state_a_restart_needs():
    h = Harness()
    snap = h.run()
    assert snap.generation == 0 and snap.seq == 0 and snap.history == [] and not snap.running
    assert snap.start.step == 0 and snap.last == snap.start  # step 0: the metrics of the initial weights
    assert snap.start.train_loss == pytest.approx(h.trainer.evaluate().train_loss)
    assert flat(snap.weights) == h.trainer.model.state_dict()
    assert snap.dataset is not None and len(snap.dataset.y_train) == 44
    assert snap.state.step == 0 and snap.state.config == h.trainer.config.to_dict()
    assert snap.state.optimizer_state == h.trainer.optimizer.state_dict()
    assert h.run() is snap  # nothing changed, nothing due: no new snapshot


def test_step_does_exactly_one_update_and_the_snapshot_has_seen_the_command():
    h = Harness()
    h.run()
    reference = Trainer(TrainingConfig(**SMALL))
    h.send(Step(1))
    snap = h.run()
    assert snap.seq == 1 and not snap.running and h.trainer.step_count == 1
    assert [m.step for m in snap.metrics] == [1]
    reference.step()
    assert flat(snap.weights) == reference.model.state_dict()  # the same update a Trainer does
    h.send(Step(3))
    h.run(times=5)
    assert h.trainer.step_count == 4


def test_play_trains_and_publishes_at_a_bounded_rate_pause_stops():
    h = Harness()
    h.run()
    h.send(Play())
    h.run()
    assert h.engine.running
    before = len(h.snapshots)
    h.run(times=40, advance=0.01)  # 40 steps in 0.4 s of fake time: snapshots every min_interval (0.05 s)
    published = len(h.snapshots) - before
    assert h.trainer.step_count == 41 and 6 <= published <= 9, published
    steps = [m.step for s in h.snapshots for m in s.metrics]
    assert steps == list(range(1, len(steps) + 1))  # every step's metrics reach the GUI exactly once
    h.send(Pause())
    snap = h.run(advance=0.01)
    assert not snap.running and snap.seq == h.seq
    done = h.trainer.step_count
    h.run(times=10, advance=1.0)
    assert h.trainer.step_count == done


def test_a_costly_snapshot_comes_less_often_while_training_runs_and_at_once_on_pause():
    h = Harness()
    h.run()
    send = h.replies.send

    def slow_send(message):  # every snapshot takes 0.03 s to make and send: 0.03 / PUBLISH_SHARE apart
        h.clock.advance(0.03)
        send(message)

    h.replies.send = slow_send
    h.send(Play())
    h.run()
    assert h.engine.publish_interval() == pytest.approx(0.03 / PUBLISH_SHARE)
    before = len(h.snapshots)
    h.run(times=100, advance=0.01)  # 100 steps, 1 s of steps and 0.03 s per snapshot: about 3, not 20
    published = len(h.snapshots) - before
    assert 2 <= published <= 4, published
    steps = [m.step for s in h.snapshots for m in s.metrics]
    assert steps == list(range(1, len(steps) + 1))  # still every step's metrics, exactly once
    h.send(Pause())
    snap = h.run(advance=0.01)
    assert not snap.running and snap.seq == h.seq and snap.state.step == h.trainer.step_count


def test_set_delay_spaces_the_steps():
    h = Harness()
    h.send(SetDelay(0.2))
    h.send(Play())
    h.run()
    assert h.engine.delay == 0.2
    for _ in range(20):  # one second of fake time in 50 ms ticks
        h.run(advance=0.05)
    assert 4 <= h.trainer.step_count <= 6
    assert h.engine.wait_time() <= 0.2 + 1e-9
    assert h.snapshots[-1].delay == 0.2


def test_update_settings_keep_weights_and_refused_ones_say_why():
    h = Harness()
    h.send(Step(2))
    h.run(times=3)
    weights = h.trainer.model.state_dict()
    h.send(UpdateSettings({"lr": 0.01, "l2": 0.0}))
    snap = h.run()
    assert h.trainer.config.lr == 0.01 and h.trainer.model.state_dict() == weights and snap.error is None
    assert snap.state.config["lr"] == 0.01  # the config goes with the snapshot after it changed…
    h.send(Step(1))
    snap = h.run()
    assert snap.metrics[-1].lr == 0.01 and snap.state.config is None  # …and not again while it stays the same
    h.send(UpdateSettings({"layers": [8]}))  # not a live setting: refused with a message, nothing ends
    snap = h.run()
    assert "cannot change during training" in snap.error and h.trainer.config.layers == [4]
    h.send(Step(1))
    snap = h.run()
    assert snap.error is None and h.trainer.step_count == 4


def test_reset_and_reset_with_a_new_config_start_a_new_generation():
    h = Harness()
    h.send(Step(3))
    h.run(times=4)
    h.send(Reset())
    snap = h.run()
    assert snap.generation == 1 and snap.history == [] and h.trainer.step_count == 0
    assert flat(snap.weights) == Trainer(TrainingConfig(**SMALL)).model.state_dict()
    new = TrainingConfig(**{**SMALL, "layers": [3, 2], "dataset": "xor"})
    h.send(Reset(new.to_dict()))
    snap = h.run()
    assert snap.generation == 2 and snap.sizes == (2, 3, 2, 1) and snap.dataset.name == "xor"
    h.send(Reset({"layers": "many"}))
    snap = h.run()
    assert "layers must be a list" in snap.error and snap.sizes == (2, 3, 2, 1)


def test_painted_data_trains_on_without_a_reset_and_a_new_network_keeps_the_points():
    h = Harness()
    h.send(Step(2))
    h.run(times=3)
    edited = add_point(h.trainer.data, 0.5, 0.5, 1)
    h.send(SetData(edited.to_dict(), dataset_points(edited)))
    snap = h.run()
    assert snap.generation == 0 and h.trainer.step_count == 2
    assert len(snap.dataset.y_train) == len(edited.y_train) and snap.state.config["points"] is not None
    config = dataclasses.replace(h.trainer.config, layers=[5])
    h.send(Reset(config.to_dict()))
    snap = h.run()
    assert snap.sizes == (2, 5, 1) and snap.dataset is None  # the same data: not sent again
    np.testing.assert_array_equal(h.trainer.data.X_train, edited.X_train)  # same points, same split
    np.testing.assert_array_equal(h.trainer.data.X_test, edited.X_test)


def test_load_export_stop_and_an_unknown_command():
    h = Harness()
    h.send(Step(4))
    h.run(times=5)
    h.send(Export(request=7))
    h.run()
    (reply,) = h.exported
    assert reply.request == 7
    copy = trainer_from_session(parse_session(reply.document))
    assert copy.model.state_dict() == h.trainer.model.state_dict() and copy.step_count == 4
    saved = parse_session(session_dict(h.trainer))
    h.send(Reset())
    h.send(Play())
    h.send(Load(saved))
    snap = h.run()
    assert not snap.running and snap.generation == 2 and len(snap.history) == 4
    assert snap.start is not None and snap.start.step == 0  # the session kept step 0: the curve starts there
    assert h.trainer.model.state_dict() == copy.model.state_dict()
    h.commands.send("step")  # an old-style string: refused by name, the engine goes on
    snap = h.run()
    assert "unknown command" in snap.error
    h.send(Stop())
    h.run()
    assert h.engine.stop


class ClosedPipe:
    """The GUI's end is gone: the pipe reads as ready, and reading gives EOF."""

    def poll(self, timeout=0.0):
        return True

    def recv(self):
        raise EOFError


def test_the_gui_going_away_ends_the_loop():
    h = Harness()
    h.engine.loop(ClosedPipe())  # returns instead of spinning or raising
    assert h.engine.stop


# ------------------------------------------------------------------ loss slice


def test_painting_and_erasing_during_a_loss_slice_never_crashes_and_recomputes_the_slice():
    # The slice's state must not compare Dataset objects: their generated __eq__ compares numpy arrays, which
    # raises ("operands could not be broadcast together") once a painted point changes the number of rows.
    h = Harness()
    h.send(Step(1))
    h.send(PickSlice((0, 1, 0)))
    first = h.run(times=2).loss_slice
    assert first is not None and first.name == "L1.n2.w1"
    for edit in (lambda d: add_point(d, 0.25, -0.25, 0), lambda d: remove_point(d, "train", 0)):
        edited = edit(h.trainer.data)
        h.send(SetData(edited.to_dict(), dataset_points(edited)))
        snap = h.until(lambda s: s.loss_slice is not None)
        expected = loss_slice(
            h.trainer.model,
            edited.X_train,
            edited.y_train,
            parameter_index(h.trainer.model, 0, 1, 0),
            "bce",
            l2=h.trainer.config.l2,
            step=next_step(h.trainer),
        )
        assert snap.loss_slice.loss == pytest.approx(expected.loss, rel=1e-12)
        assert snap.loss_slice.next_weight == expected.next_weight and snap.error is None


def test_slice_follows_settings_and_steps_at_a_bounded_rate():
    h = Harness()
    h.send(PickSlice((1, 0, None)))
    sl = h.run().loss_slice
    assert sl.name == "L2.n1.b" and sl.lr == 0.05
    h.send(UpdateSettings({"lr": 0.02}))
    assert h.run(advance=SLICE_INTERVAL).loss_slice.lr == 0.02  # a new setting: a new slice
    h.send(Play())
    slices = 0
    for _ in range(50):  # 0.5 s of fake training
        slices += h.run(advance=0.01).loss_slice is not None
    assert slices <= 2  # at most one per SLICE_INTERVAL while training
    h.send(PickSlice(None))
    assert h.run(advance=1.0).loss_slice is None and h.engine.slice_spec is None
    h.send(PickSlice((7, 0, 0)))  # a weight the network no longer has: dropped, no error
    snap = h.run(advance=1.0)
    assert snap.loss_slice is None and snap.error is None


@pytest.mark.parametrize(("optimizer", "batch_size"), [("sgd", 0), ("sgd", 16), ("momentum", 16), ("adam", 16)])
def test_slice_shows_the_optimizers_real_next_step(optimizer, batch_size):
    h = Harness(optimizer=optimizer, batch_size=batch_size, lr=0.1)
    h.send(Step(3))  # momentum and Adam have state by now
    h.send(PickSlice((0, 2, 1)))
    sl = h.run(times=4).loss_slice or h.until(lambda s: s.loss_slice is not None).loss_slice
    assert sl.optimizer == optimizer and sl.batch == (batch_size or 44) and sl.train_size == 44
    index = parameter_index(h.trainer.model, 0, 2, 1)
    h.send(Step(1))
    h.run()
    assert h.trainer.model.state_dict()[index] == sl.next_weight  # exactly where the step went
    text = caption(sl)
    assert format_number(sl.next_weight) in text
    if optimizer == "sgd" and batch_size == 0:  # full-batch SGD: the textbook rule holds, and the caption shows it
        assert sl.next_weight == pytest.approx(sl.weight - sl.lr * sl.gradient, rel=1e-12)
        assert "SGD's next step is w − lr × slope" in text
    else:  # anything else is named, with the batch it uses: never the SGD rule
        name = {"sgd": "SGD", "momentum": "Momentum", "adam": "Adam"}[optimizer]
        assert f"{name}'s next step (lr 0.1, next batch of 16 of 44 points)" in text and "w − lr" not in text


def test_next_step_leaves_the_trainer_untouched_and_reports_the_end():
    trainer = Trainer(TrainingConfig(**{**SMALL, "steps": 2}))
    trainer.step()
    state = session_dict(trainer)
    step = next_step(trainer)
    assert step.weights is not None and step.problem is None
    assert session_dict(trainer) == state  # weights, optimizer state, batch position, history: all as they were
    trainer.step()
    done = next_step(trainer)
    assert done.weights is None and "steps are done" in done.problem


# ------------------------------------------------------------------ divergence


def test_divergence_rolls_back_keeps_the_history_and_training_goes_on_after_a_smaller_rate():
    h = Harness(optimizer="sgd", loss="mse", lr=0.05)
    h.send(Step(5))
    h.run(times=6)
    good = h.trainer.model.state_dict()
    h.send(UpdateSettings({"lr": 100.0}))
    h.send(Play())
    snap = h.until(lambda s: s.stopped_reason is not None)
    assert not snap.running and snap.finished and "Training stopped at step 6" in snap.stopped_reason
    assert flat(snap.weights) == good == h.trainer.model.state_dict()  # rolled back to the last good step
    assert snap.diverged.step == 6 and not (abs(snap.diverged.train_loss) < 1e3)  # where it went, for the curve
    assert [m.step for m in h.trainer.history] == [1, 2, 3, 4, 5]  # the curves up to the divergence stay
    h.send(Play())
    snap = h.run(advance=0.1)
    assert snap.stopped_reason is not None and h.trainer.step_count == 5  # still stopped on it: Play says why
    h.send(UpdateSettings({"lr": 0.01}))
    h.send(Step(1))
    snap = h.run()
    assert snap.stopped_reason is None and snap.diverged is None and h.trainer.step_count == 6
    assert math.isfinite(snap.metrics[-1].train_loss)


def test_adam_at_learning_rate_100_stops_on_the_first_step_with_the_start_still_shown():
    h = Harness(lr=100.0)
    h.send(Play())
    snap = h.until(lambda s: s.stopped_reason is not None)
    assert "exploded" in snap.stopped_reason and h.trainer.step_count == 0
    assert snap.diverged.step == 1 and snap.diverged.train_loss > 100 * h.snapshots[0].start.train_loss
    assert h.snapshots[0].start.step == 0  # the curve has its starting point; the mark shows where step 1 went
