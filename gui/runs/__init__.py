"""Runs kept and compared: the keeper of the history, its table, side-by-side pictures, exports."""
