"""The reference engine (public API assembled once all modules land)."""
