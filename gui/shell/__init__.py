"""The window around the areas: start-up, main window, menus, themes, settings, shared widgets."""
