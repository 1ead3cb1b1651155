"""The app's look: its themes' colors, presentation mode, and how Qt is told about them."""
