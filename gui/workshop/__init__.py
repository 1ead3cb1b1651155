"""The op workshop area: the learner writes an op, the app checks its derivative, and a checked op is first-class."""
