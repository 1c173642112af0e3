"""Real servers for these tests (tests/servers.py): gunicorn with several gevent worker
processes on 127.0.0.1, with the product's own settings, as the README runs it in production.

`server` is one gunicorn shared by the tests of a module (a boot costs seconds of CPU): each
test makes its own games on it, and its `output` is what the server wrote during that test.
A test that needs settings of its own, or kills or restarts its server, starts its own
(`own_server`, or a `Server` made in the test with its settings)."""

from __future__ import annotations

import pytest

from ..servers import SHARED, Server


@pytest.fixture(scope="module")
def shared_server(module_database_url):
    running = Server(module_database_url, env=SHARED).start()
    yield running
    running.close()


@pytest.fixture
def server(shared_server):
    """The module's gunicorn, its output from this test on."""
    if shared_server.process.poll() is not None:
        said = shared_server.errors()
        pytest.fail(f"the module's server stopped during an earlier test:\n{said}")
    shared_server.begin_test()
    return shared_server


@pytest.fixture
def own_server(tmp_path, database_url):
    """A gunicorn of this test's own, on a database of its own."""
    running = Server(database_url(tmp_path)).start()
    yield running
    running.close()
