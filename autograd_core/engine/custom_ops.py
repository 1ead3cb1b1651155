"""Ops a learner defined in the op workshop: a registry beside the op table, that can be undone and observed.

The op table (``ops.OPS``) is fixed at import; an op the learner wrote and checked
(``autograd_core.language.workshop``) is an ``Op`` like the table's, kept here instead.
Everything that looks an op up by name consults both through ``find_op``: the
expression language, the network builder's activations, ``Tensor`` and ``Dual``
methods (installed on ``register``, removed on ``unregister``).  A GUI panel
observes the registry with ``subscribe`` rather than polling it.
"""

from __future__ import annotations

from collections.abc import Callable

from autograd_core.engine import forward
from autograd_core.engine.forward import Dual
from autograd_core.engine.ops import LANGUAGE_OPS, OPS, Op
from autograd_core.engine.tensor import Tensor, _constant, result


class CustomOps:
    """The learner's ops by name, in the order they were defined."""

    def __init__(self):
        self._ops: dict[str, Op] = {}
        self._sources: dict[str, object] = {}
        self._listeners: list[Callable[[], None]] = []

    def __contains__(self, name: object) -> bool:
        return name in self._ops

    def __len__(self) -> int:
        return len(self._ops)

    def get(self, name: str) -> Op | None:
        return self._ops.get(name)

    def names(self) -> tuple[str, ...]:
        return tuple(self._ops)

    def source(self, name: str) -> object:
        """What the op was made from (the workshop's definition), as given to ``register``."""
        return self._sources.get(name)

    def activations(self) -> tuple[str, ...]:
        """The one-input ops: each can be a network's activation."""
        return tuple(name for name, op in self._ops.items() if op.activation)

    def is_reserved(self, name: str) -> bool:
        """A name an op of the learner's cannot take: the table's, or an attribute of Tensor or Dual."""
        if name in OPS or name in LANGUAGE_OPS:
            return True
        if name in self._ops:  # redefining one's own op is fine
            return False
        return hasattr(Tensor, name) or hasattr(Dual, name)

    def register(self, op: Op, source: object = None) -> None:
        """Make ``op`` usable by name everywhere; an op of the same name defined before is replaced.

        ``source`` is kept beside it (the workshop keeps the learner's definition there)."""
        if self.is_reserved(op.name):
            raise ValueError(f"the name {op.name!r} is taken by the engine")
        if op.name in self._ops:
            self._uninstall(op.name)
        self._ops[op.name] = op
        self._sources[op.name] = source
        op.apply = _tensor_method(op)
        setattr(Tensor, op.name, op.apply)
        method = forward._unary(op) if op.arity == 1 else forward._binary(op)[0]
        setattr(Dual, op.name, method)
        self._changed()

    def unregister(self, name: str) -> None:
        """Undo ``register``: the name is free again (graphs already built keep their nodes)."""
        if name not in self._ops:
            raise KeyError(f"no op of yours is named {name!r}")
        self._uninstall(name)
        del self._ops[name]
        del self._sources[name]
        self._changed()

    def clear(self) -> None:
        for name in list(self._ops):
            self._uninstall(name)
        self._ops.clear()
        self._sources.clear()
        self._changed()

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` after every change; returns the function that stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _uninstall(self, name: str) -> None:
        for cls in (Tensor, Dual):
            if name in cls.__dict__:
                delattr(cls, name)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()


def _tensor_method(op: Op) -> Callable:
    rule = op.rule
    if op.arity == 1:

        def method(self):
            value, local = rule(self.data)
            return result(op, (self,), value, (local,))

    else:

        def method(self, other):
            if other.__class__ is not Tensor:
                other = _constant(other)
            value, da, db = rule(self.data, other.data)
            return result(op, (self, other), value, (da, db))

    method.__name__ = method.__qualname__ = op.name
    method.__doc__ = op.help
    return method


CUSTOM_OPS = CustomOps()


def find_op(name: str) -> Op | None:
    """The op the language calls ``name``: the table's, else the learner's, else None."""
    return LANGUAGE_OPS.get(name) or CUSTOM_OPS.get(name)
