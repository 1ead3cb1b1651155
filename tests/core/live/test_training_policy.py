"""The training policy without Qt: what a setting change restarts, the memory guard, presets, the task, and the
undo history of data edits, driven through a sink that records what the controller would do."""

from __future__ import annotations

import functools
import operator

import numpy as np
import pytest

from autograd_core.learn.run_cost import RunLimits
from autograd_core.learn.training import TrainingConfig
from autograd_core.live.neuron_maps import NeuronMaps
from autograd_core.live.protocol import ImportData, Reset, SetData, UpdateSettings
from autograd_core.live.training_policy import NO_POINTS, TrainingPart, TrainingPolicy, parameter_count


class Sink:
    """Records the commands, announcements and sentences; pauses and resets are counted."""

    def __init__(self, trained: bool = False):
        self.closed = False
        self.commands: list = []
        self.announced: list[TrainingPart] = []
        self.values: list[dict] = []
        self.said: list[str] = []
        self.pauses = self.resets = 0
        self._trained = trained

    def send(self, command) -> None:
        self.commands.append(command)

    def announce(self, *parts: TrainingPart, **values) -> None:
        self.announced.append(functools.reduce(operator.or_, parts))
        self.values.append(values)

    def say(self, text: str) -> None:
        self.said.append(text)

    def pause(self) -> None:
        self.pauses += 1

    def reset(self) -> None:
        self.resets += 1

    def trained(self) -> bool:
        return self._trained


def policy_with_data(**config) -> tuple[TrainingPolicy, Sink]:
    sink = Sink()
    policy = TrainingPolicy(sink, TrainingConfig(samples=40, layers=[4], **config))
    policy.dataset = policy.config.make_data()  # as the first snapshot brings it
    return policy, sink


def test_an_optimizer_setting_is_followed_by_the_run_and_a_new_network_starts_a_new_one():
    policy, sink = policy_with_data()
    assert policy.update_settings(lr=0.01)
    assert sink.commands == [UpdateSettings({"lr": 0.01})]  # between two steps, the same weights
    assert not policy.restarts(["lr", "optimizer"]) and policy.restarts(["layers"])
    assert policy.update_settings(layers=[8, 8])
    (reset,) = sink.commands[1:]
    assert isinstance(reset, Reset) and reset.config["layers"] == [8, 8] and reset.config["lr"] == 0.01
    assert policy.config.layers == [8, 8]
    assert policy.update_settings(layers=[8, 8]) and len(sink.commands) == 2  # no change: nothing sent


def test_a_refused_value_changes_nothing_and_says_why():
    policy, sink = policy_with_data()
    assert not policy.update_settings(lr=-1.0)
    assert sink.commands == [] and sink.said[-1].startswith("Setting refused:")
    assert policy.config.lr == TrainingConfig().lr


def test_the_memory_guard_refuses_and_the_panels_show_the_settings_in_force():
    policy, sink = policy_with_data()
    policy.limits = RunLimits(ask_bytes=1, refuse_bytes=2)
    assert not policy.update_settings(samples=5000)
    assert sink.commands == [] and sink.said[-1].startswith("Setting not applied:") and "Samples" in sink.said[-1]
    assert sink.announced[-1] == TrainingPart.CONFIG and sink.values[-1]["config"].samples == 40


def test_a_preset_that_differs_in_live_settings_only_starts_its_run_again():
    sink = Sink(trained=True)
    policy = TrainingPolicy(sink, TrainingConfig())
    preset = policy.config
    assert policy.use_named_preset("article")
    assert policy.preset == "article"
    article = policy.config
    sink.commands.clear()
    policy.update_settings(lr=article.lr * 10)  # the learner tries another learning rate …
    assert isinstance(sink.commands[-1], UpdateSettings)
    assert policy.use_named_preset("article")  # … and takes the article's run again: from its start
    assert sink.resets == 1 and policy.config.lr == article.lr and preset != article


def test_painting_undo_and_redo_bring_the_data_and_settings_back():
    policy, sink = policy_with_data()
    before = policy.dataset
    policy.add_point(0.5, 0.25, 1)
    painted = policy.dataset
    assert len(painted.y_train) == len(before.y_train) + 1 and painted.X_train[-1].tolist() == [0.5, 0.25]
    assert isinstance(sink.commands[-1], SetData) and policy.config.points is not None
    assert TrainingPart.UNDO in sink.announced and policy.can_undo() and not policy.can_redo()
    policy.undo()
    assert policy.dataset is before and policy.config.points is None  # generated data: from its settings again
    assert isinstance(sink.commands[-1], Reset) and policy.can_redo()
    policy.redo()
    assert policy.dataset is painted and policy.config.points is not None and not policy.can_redo()


def test_clearing_the_plane_waits_for_a_point_and_says_so():
    policy, sink = policy_with_data()
    policy.clear_points()
    assert len(policy.dataset.y_train) == 0 and sink.pauses == 1
    assert sink.commands[-1] == SetData(policy.dataset.to_dict(), [])
    assert sink.said[-1].startswith(NO_POINTS) and policy.no_points_refusal() == sink.said[-1]
    policy.undo()
    assert len(policy.dataset.y_train) == 30 and policy.no_points_refusal() is None


def test_an_import_trains_a_new_network_on_exactly_those_points_and_is_undoable():
    policy, sink = policy_with_data()
    data = TrainingConfig(dataset="blobs", classes=3, samples=30).make_data()
    assert policy.import_dataset(data)
    command = sink.commands[-1]
    assert isinstance(command, ImportData) and command.config["classes"] == 3 and policy.dataset is data
    policy.undo()
    assert policy.config.classes == 2 and isinstance(sink.commands[-1], Reset)


def test_the_task_switch_trains_a_regression_and_back():
    policy, sink = policy_with_data()
    assert policy.set_task("regression") and policy.task == "regression"
    assert sink.announced[-1] == TrainingPart.REGRESSION | TrainingPart.TASK and isinstance(sink.commands[-1], Reset)
    assert policy.restart_start()[1] is None  # a regression's data come from its target
    assert policy.set_task("classification") and policy.regression is None
    assert sink.commands[-1] == Reset(policy.config.to_dict())
    with pytest.raises(ValueError):
        policy.set_task("clustering")


def test_nothing_changes_once_closed():
    policy, sink = policy_with_data()
    sink.closed = True
    assert not policy.update_settings(lr=0.5)
    policy.add_point(0.0, 0.0, 0)
    assert sink.commands == [] and not policy.can_undo()


def test_parameter_count_by_hand():
    assert parameter_count([16, 16]) == 3 * 16 + 17 * 16 + 17  # 337, as lesson 7 counts them
    assert parameter_count([], inputs=2, outputs=3) == 9


def test_neuron_maps_reuse_one_model_and_find_a_dead_unit():
    from types import SimpleNamespace

    # the fields of a Snapshot the maps read; unit 0 outputs relu(x1), unit 1 only its bias −5: 0 on every point
    hidden = (np.array([[1.0, 0.0], [0.0, 0.0]]), np.array([0.0, -5.0]))
    Snap = SimpleNamespace(sizes=(2, 2, 1), activation="relu", activations=(), features=(), regression=None)
    Snap.weights = [hidden, (np.array([[1.0, 1.0]]), np.zeros(1))]
    Snap.grid = SimpleNamespace(extent=(-1.0, 1.0, -2.0, 2.0))
    Data = SimpleNamespace(X_train=np.array([[0.5, 0.0], [-0.5, 1.0]]), y_train=np.array([0, 1]))

    maps = NeuronMaps(resolution=3)
    frame = maps.frame(Snap, Data)
    assert frame.dead == [(1, 1)] and frame.extent == (-1.0, 1.0, -2.0, 2.0)
    (layer,) = frame.maps
    assert layer.shape == (2, 3, 3) and layer[0, 0].tolist() == [0.0, 0.0, 1.0]  # relu(x1) at x1 = −1, 0, 1
    assert maps.model_for(Snap) is maps.model_for(Snap)  # one model per architecture, its weights loaded


def test_a_snapshot_cannot_be_changed_under_a_view():
    import dataclasses

    from autograd_core.live.protocol import Snapshot, TrainerState

    snap = Snapshot(generation=1, state=TrainerState(None, None, 0, 0, None))
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.dataset = "edited"
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.state.config = {}
    edited = dataclasses.replace(snap, dataset="edited")  # an edit is a new snapshot; the old one is as it was
    assert edited.dataset == "edited" and snap.dataset is None
