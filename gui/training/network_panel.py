"""The network builder: hidden layers, neurons and activation per layer, initialization, seed.

Each hidden layer has its own activation; the "Activation" box above sets
every layer at once (and shows "mixed" when they differ).

Every change goes to the controller as new settings (a new network means new
weights from the seed); the panel redraws itself from the controller's "config"
announcements so an opened session shows its own network.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from autograd_core.engine.custom_ops import CUSTOM_OPS
from autograd_core.learn.nn import ACTIVATION_HELP, INITIALIZATIONS, activation_names
from autograd_core.live.training_policy import TrainingPart

from ..shell.number_box import WholeNumberBox
from ..workshop.ops_signal import custom_ops_signal
from .features_editor import FeaturesEditor
from .training_controller import TrainingController, parameter_count

MAX_HIDDEN_LAYERS = 6  # the library allows 8; six already trains slowly on a scalar engine
MAX_NEURONS = 32
INIT_HELP = {
    "uniform": "weights drawn from U(−1, 1), as micrograd",
    "he": "He: normal with variance 2/fan-in, suited to ReLU",
    "xavier": "Xavier/Glorot: uniform scaled by fan-in and fan-out, suited to tanh/sigmoid",
}


def fill_activations(box: QComboBox, keep: str | None = None) -> None:
    """The activations a network can take now (the table's, then the learner's one-input ops), ``keep`` chosen.

    An op of the learner's that a network still uses stays listed after it was removed, so the box never shows
    another activation than the one training."""
    names = list(activation_names())
    if keep and keep not in names:
        names.append(keep)
    box.blockSignals(True)
    box.clear()
    for name in names:
        op = CUSTOM_OPS.get(name)
        help_text = ACTIVATION_HELP.get(name) or (f"your op {name}, from the Op workshop" if op else name)
        box.addItem(name, name)
        box.setItemData(box.count() - 1, help_text, Qt.ItemDataRole.ToolTipRole)
    box.setCurrentIndex(max(0, box.findData(keep)))
    box.blockSignals(False)


class NetworkPanel(QGroupBox):
    """Builder controls; the parameter count updates as you type."""

    def __init__(self, controller: TrainingController, parent=None):
        super().__init__("Network", parent)
        self.controller = controller
        self._updating = False
        self.layer_spins: list[WholeNumberBox] = []
        self.layer_activations: list[QComboBox] = []
        self.remove_buttons: list[QToolButton] = []

        self.layers_box = QVBoxLayout()
        self.layers_box.setSpacing(2)
        self.add_button = QPushButton("+ Add hidden layer")
        self.add_button.setToolTip(
            f"Add a hidden layer (at most {MAX_HIDDEN_LAYERS}); it starts as wide as the last one"
        )
        self.add_button.clicked.connect(self.add_layer)

        self.activation = QComboBox()
        fill_activations(self.activation)
        self.activation.setToolTip(
            "Activation of every hidden layer (each layer's own box below sets it alone; the output is a linear score)"
        )
        self.init = QComboBox()
        for name in INITIALIZATIONS:
            self.init.addItem(name, name)
            self.init.setItemData(self.init.count() - 1, INIT_HELP[name], Qt.ItemDataRole.ToolTipRole)
        self.init.setToolTip("How the initial weights are drawn (biases start at 0)")
        self.seed = WholeNumberBox(0, 2**31 - 1)
        self.seed.setToolTip("Seed of the initial weights: the same seed gives the same starting network")
        self.param_count = QLabel()
        self.param_count.setToolTip("Number of weights and biases the optimizer adjusts")

        form = QFormLayout()
        form.addRow("Activation", self.activation)
        form.addRow("Initialization", self.init)
        form.addRow("Weight seed", self.seed)
        layout = QVBoxLayout(self)
        layout.addLayout(self.layers_box)
        layout.addWidget(self.add_button)
        layout.addLayout(form)
        self.features = FeaturesEditor(controller)
        layout.addWidget(self.features)
        self.features.applied.connect(self._show_count)
        layout.addWidget(self.param_count)

        self.activation.currentIndexChanged.connect(self._all_layers_activation)
        self.init.currentIndexChanged.connect(self._send)
        self.seed.valueChanged.connect(self._send)
        controller.changed.connect(self._training_changed)
        custom_ops_signal().changed.connect(self._ops_changed)
        self.show_config(controller.config)

    # ----------------------------------------------------------- widgets ↔ config

    def layers(self) -> list[int]:
        return [spin.value() for spin in self.layer_spins]

    def show_config(self, config) -> None:
        """Show ``config``'s network without sending it back."""
        self._updating = True
        try:
            self._rebuild_rows(list(config.layers), config.hidden_activations)
            first = config.hidden_activations[0] if config.layers else config.activation
            if self.activation.findData(first) < 0:
                fill_activations(self.activation, first)
            self.activation.setCurrentIndex(max(0, self.activation.findData(first)))
            self.init.setCurrentIndex(max(0, self.init.findData(config.init)))
            self.seed.setValue(int(config.seed))
        finally:
            self._updating = False
        self._show_count()

    def activations(self) -> list[str]:
        return [box.currentData() for box in self.layer_activations]

    def _all_layers_activation(self) -> None:
        """The top box sets every hidden layer's activation."""
        name = self.activation.currentData()
        if self._updating:
            return
        self._updating = True
        for box in self.layer_activations:
            box.setCurrentIndex(max(0, box.findData(name)))
        self._updating = False
        self._send()

    def _rebuild_rows(self, layers: list[int], activations: list[str] | None = None) -> None:
        if activations is None:
            activations = self.activations()
        default = activations[-1] if activations else (self.activation.currentData() or "relu")
        activations = [*activations[: len(layers)], *[default] * max(0, len(layers) - len(activations))]
        while self.layers_box.count():
            row = self.layers_box.takeAt(0)
            if row.widget() is not None:
                row.widget().deleteLater()
        self.layer_spins, self.remove_buttons, self.layer_activations = [], [], []
        for i, width in enumerate(layers):
            row = QWidget()
            h = QHBoxLayout(row)
            h.setContentsMargins(0, 0, 0, 0)
            label = QLabel(f"Hidden layer {i + 1}")
            spin = WholeNumberBox(1, MAX_NEURONS)
            spin.setValue(int(width))
            spin.setSuffix(" neurons")
            spin.setToolTip(f"Neurons in hidden layer {i + 1} (1–{MAX_NEURONS})")
            spin.valueChanged.connect(self._send)
            act = QComboBox()
            fill_activations(act, activations[i])
            act.setCurrentIndex(max(0, act.findData(activations[i])))
            act.setToolTip(f"Activation of hidden layer {i + 1}")
            act.currentIndexChanged.connect(self._send)
            remove = QToolButton()
            remove.setText("−")
            remove.setToolTip(f"Remove hidden layer {i + 1}")
            remove.clicked.connect(lambda _=False, index=i: self.remove_layer(index))
            h.addWidget(label)
            h.addWidget(spin, 1)
            h.addWidget(act)
            h.addWidget(remove)
            self.layers_box.addWidget(row)
            self.layer_spins.append(spin)
            self.layer_activations.append(act)
            self.remove_buttons.append(remove)
        if not layers:
            note = QLabel("No hidden layer: a linear model (logistic regression).")
            note.setObjectName("hintLabel")
            note.setWordWrap(True)
            self.layers_box.addWidget(note)
        self.add_button.setEnabled(len(layers) < MAX_HIDDEN_LAYERS)

    def add_layer(self) -> None:
        layers = self.layers()
        if len(layers) >= MAX_HIDDEN_LAYERS:
            return
        layers.append(layers[-1] if layers else 4)
        activations = self.activations()
        self._updating = True
        self._rebuild_rows(layers, [*activations, activations[-1] if activations else self.activation.currentData()])
        self._updating = False
        self._send()

    def remove_layer(self, index: int) -> None:
        layers = self.layers()
        if 0 <= index < len(layers):
            del layers[index]
            activations = self.activations()
            del activations[index]
            self._updating = True
            self._rebuild_rows(layers, activations)
            self._updating = False
            self._send()

    def _ops_changed(self) -> None:
        """An op of the learner's was defined or removed: every activation box lists the ones there are now."""
        self._updating = True
        try:
            for box in [self.activation, *self.layer_activations]:
                fill_activations(box, box.currentData())
        finally:
            self._updating = False

    def _training_changed(self, change) -> None:
        if TrainingPart.TASK in change:
            self._show_count()  # regression has one input and one output
        if TrainingPart.CONFIG in change:
            self.show_config(change.config)

    def _show_count(self) -> None:
        regression = self.controller.task == "regression"  # one input x, one output
        config = self.controller.config
        outputs, inputs = (1, 1) if regression else (config.outputs, 2 + len(config.features or []))
        n = parameter_count(self.layers(), inputs=inputs, outputs=outputs)
        sizes = " → ".join(str(s) for s in [inputs, *self.layers(), outputs])
        self.param_count.setText(f"<b>{n}</b> parameters &nbsp; ({sizes})")

    def _send(self) -> None:
        self._show_count()
        if self._updating:
            return
        activations = self.activations()
        mixed = len(set(activations)) > 1
        self.controller.update_settings(
            layers=self.layers(),
            activation=activations[0] if activations else self.activation.currentData(),
            activations=activations if mixed else None,
            init=self.init.currentData(),
            seed=self.seed.value(),
        )
