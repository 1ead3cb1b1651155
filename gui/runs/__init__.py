"""Runs kept and compared (issue 25): the keeper of the history, its table, side-by-side pictures, exports."""
