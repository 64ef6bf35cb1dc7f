"""The web tests' fixtures live in web_helpers.py (a unique module name: tests/ has a conftest too)."""
from web_helpers import browser, page, served  # noqa: F401
