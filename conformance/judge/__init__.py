"""Judging engines: drivers that run an engine, the step judge, trajectories, fuzzing and the certification."""
