"""What the sample-graph view shows: one data point forwarded through a network, its loss, backward.

The numbers come from ``autograd_core.learn.inspection.sample_graph`` (a copy of the
model, so training is never disturbed); showing, backward and stepping are
``GraphState``'s.  This class only remembers *which* point, label, loss and
model are shown, so the same point can be re-shown when new weights arrive.

One rule for its gradients: they are always *this point's* d(loss)/d(node)
from one backward pass.  The graph opens with them; Backward recomputes them
from zero (it never accumulates here, unlike the expression playground, whose
lesson is exactly that accumulation), Zero grad clears them, stepping walks
the same pass.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QObject, Signal

from autograd_core.language.naming import class_name
from autograd_core.learn.inspection import sample_graph
from autograd_core.learn.losses import LOSSES
from autograd_core.numbers import format_number

from ..graph_view.graph_state import GraphState

NO_NETWORK = (
    "No network yet: open the Network training tab (its network appears there), then click a data point "
    "(Inspect mode) or enter x and y here."
)


class SampleState(GraphState):
    """A GraphState whose root is one sample's loss through an MLP."""

    sample_changed = Signal()  # a point (or new weights) is shown: the header follows

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.mode = "done"  # a sample's graph is shown with its gradients, as the issue asks
        self.sample = None  # autograd_core.learn.inspection.SampleGraph
        self.point: tuple[float, float] | None = None
        self.label = 1
        self.class_names: list[str] | None = None  # the data's names for its classes (iris: setosa …)
        self.loss_name = "bce"
        self.fused = True  # the graph training differentiates (model(x) is fused); the long form on request
        self._structure = None
        self.last_error = ""  # why the last show_sample refused ("" when it worked)

    def show_sample(self, model, point: tuple[float, float], label: int, loss: str = "bce") -> bool:
        """Forward ``point`` through a copy of ``model`` and show its loss graph; False (and a message) on bad input."""
        if model is None:
            return self._fail(NO_NETWORK)
        try:
            x, y = float(point[0]), float(point[1])
        except (TypeError, ValueError, IndexError):
            return self._fail("The point needs two numbers, x and y.")
        if not (math.isfinite(x) and math.isfinite(y)):
            return self._fail("x and y must be finite numbers.")
        classes = max(2, int(getattr(model, "nouts", [1])[-1]))  # one output: two classes; K outputs: K
        if isinstance(label, bool) or label not in range(classes):
            names = ", ".join(class_name(k, self.class_names) for k in range(classes))
            return self._fail(f"The class must be one of the network's {classes} ({names}), not {label!r}.")
        label = int(label)
        if loss not in LOSSES:
            return self._fail(f"Unknown loss {loss!r}; the sample graph knows {', '.join(LOSSES)}.")
        if getattr(model, "nin", 2) != 2:
            return self._fail(f"The network takes {model.nin} inputs; a data point has two (x, y).")
        sample = sample_graph(model, (x, y), label, loss, fused=self.fused)
        sample.loss.zero_grad()  # sample_graph ran backward(); GraphState.show_root redoes it for the current mode
        # The graph's shape depends on the network, the loss, the label (the loss's formula) and fusing.
        structure = (model.nin, tuple(model.nouts), model.activation, model.output_activation, loss, label, self.fused)
        changed = structure != self._structure
        self._structure = structure
        self.sample, self.point, self.label, self.loss_name = sample, (x, y), label, loss
        self.last_error = ""
        self.show_root(sample.loss, structure_changed=changed)
        self.sample_changed.emit()
        return True

    def backward(self) -> None:
        """One backward pass from zero: pressing it again shows the same gradients, never their sum."""
        if self.root is None:
            return
        again = self.mode == "done"
        if again:
            self.root.zero_grad()
            self.mode = "none"  # so GraphState.backward runs one fresh pass, not an accumulating one
        super().backward()
        if again:
            self.message.emit(
                "Backward again: the same gradients. The sample graph recomputes d(loss)/d(node) from zero "
                "on every pass; it never accumulates."
            )

    def _fail(self, text: str) -> bool:
        self.last_error = text
        self.message.emit(text)
        return False

    def update_model(self, model, loss: str | None = None) -> bool:
        """Re-show the same point with new weights (training moved on)."""
        if self.point is None:
            return False
        return self.show_sample(model, self.point, self.label, loss or self.loss_name)

    def set_fused(self, fused: bool) -> None:
        """Σwx+b as one node per neuron (fewer nodes) or one * and + per input (the long form)."""
        self.fused = bool(fused)
        if self.sample is not None:
            self.show_sample(self.sample.model, self.point, self.label, self.loss_name)

    # ------------------------------------------------------------ what to show

    @property
    def score(self) -> float | None:
        return self.sample.score.data if self.sample is not None else None

    @property
    def loss_value(self) -> float | None:
        return self.sample.loss.data if self.sample is not None else None

    def summary(self) -> str:
        """One line: the point, its class, what the network says and the loss."""
        if self.sample is None:
            return "No point shown yet."
        x, y = self.point
        score = self.sample.score.data
        if self.sample.scores:  # K classes: the largest score wins; softmax gives the label's probability
            values = [t.data for t in self.sample.scores]
            predicted = max(range(len(values)), key=values.__getitem__)
            verdict = "right" if predicted == self.label else "wrong"
            name, guess = class_name(self.label, self.class_names), class_name(predicted, self.class_names)
            return (
                f"Point ({format_number(x)}, {format_number(y)}), {name}: scores "
                f"{', '.join(format_number(v) for v in values)}, P({name}) = "
                f"{format_number(self.sample.probability)} → predicted {guess} ({verdict}), "
                f"cross-entropy loss {format_number(self.sample.loss.data)}"
            )
        predicted = 1 if score > 0 else 0
        verdict = "right" if predicted == self.label else "wrong"
        # σ(score) is a probability only for a network trained with cross-entropy; hinge and MSE scores are not.
        one = class_name(1, self.class_names)
        probability = f", P({one}) = {format_number(self.sample.probability)}" if self.loss_name == "bce" else ""
        name, guess = class_name(self.label, self.class_names), class_name(predicted, self.class_names)
        return (
            f"Point ({format_number(x)}, {format_number(y)}), {name}: score {format_number(score)}"
            f"{probability} → predicted {guess} ({verdict}), "
            f"{self.loss_name} loss {format_number(self.sample.loss.data)}"
        )

    def parameter_grads(self) -> dict[str, float | None]:
        """Parameter name (``L1.n0.w1``) → the gradient shown now (None: not reached while stepping)."""
        if self.sample is None:
            return {}
        return {name: self.displayed_grad(p) for name, p in self.sample.model.named_parameters()}
