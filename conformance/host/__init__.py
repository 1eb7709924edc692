"""The worker processes that run untrusted JavaScript, their line protocol and JS values: knows no poker."""
