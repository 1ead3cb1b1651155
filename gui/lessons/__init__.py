"""Guided lessons beside the live app: the panel, the state its tasks are checked against, the actions."""
