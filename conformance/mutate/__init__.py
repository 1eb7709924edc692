"""Mutation testing of a JavaScript engine with StrykerJS (``holdem-cert mutate``, issue #37): how much
of the engine's behaviour the certification pins. ``stryker`` installs and runs StrykerJS,
``session`` is the certification's side of its test runner, ``score`` reads its report."""
