"""The HTTP API, one router per area."""
