"""The training service: the engine a child process runs, its typed protocol, decision regions (no Qt)."""
