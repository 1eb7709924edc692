"""holdem-conformance: certify Hold'em engines and bots against bot-contract v1."""
