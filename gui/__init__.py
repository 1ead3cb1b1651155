"""The PySide6 app: a view over autograd_core (which never imports this package)."""
