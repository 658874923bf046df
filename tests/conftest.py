"""Every test's `provlog` commands keep their stored models in one temporary folder (docs/store.md),
not beside the worlds in the repository (and the stores' secret not in the user's cache); a command
run twice on a world reads its store the second time."""
import pytest


@pytest.fixture(autouse=True, scope="session")
def _store_folder(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("PROVLOG_STORE", str(tmp_path_factory.mktemp("stores")))
    mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))  # the stores' secret (logic/store/)
    yield
    mp.undo()
