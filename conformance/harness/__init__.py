"""The reference harness: seats bots in workers around the reference tournament (runner), and checks a submission (roster, static lint)."""
