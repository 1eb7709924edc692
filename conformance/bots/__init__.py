"""Bot certification: the battery of decision states, timing, decision kinds, full tables and play-style profiles."""
