"""The server tests' fixtures live in server_helpers.py (a unique module name: tests/ has a conftest too)."""
from server_helpers import (api, catalog, database_url, live_server, make_api, settings,  # noqa: F401
                            sqlite_url)


def pytest_collection_modifyitems(config, items):
    import pytest

    quiet = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient` is deprecated")
    for item in items:
        if "tests/server/" in str(item.path).replace("\\", "/"):
            item.add_marker(quiet)
