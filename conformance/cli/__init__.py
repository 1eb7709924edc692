"""The ``holdem-cert`` command line: the entry point, one module per subcommand, argument types."""
