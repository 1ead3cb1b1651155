"""Guided lessons beside the live app (issue 23): the panel, the state its tasks are checked against, the actions."""
