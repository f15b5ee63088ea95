"""The package's public face is truthful (issue 34 item 5): every name in ``bgtools.__all__``
resolves, ``from bgtools import *`` works, and the root exception the docs tell users to catch
is there."""

import subprocess
import sys

import pytest

import bgtools


@pytest.mark.parametrize("name", bgtools.__all__)
def test_every_public_name_resolves(name):
    value = getattr(bgtools, name)
    assert value is not None
    if name != "__version__" and hasattr(value, "__module__"):
        assert value.__module__.startswith("bgtools")


def test_star_import_in_a_fresh_interpreter():
    code = ("from bgtools import *\n"
            "import bgtools\n"
            "missing = [n for n in bgtools.__all__ if n not in globals()]\n"
            "assert not missing, missing\n"
            "print(len(bgtools.__all__))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert int(r.stdout) == len(bgtools.__all__)


def test_the_root_exception_is_public_and_catches_the_file_errors():
    assert "BgtoolsError" in bgtools.__all__ and "MatchFileError" in bgtools.__all__
    assert issubclass(bgtools.MatchFileError, bgtools.BgtoolsError)
    assert issubclass(bgtools.PositionError, bgtools.BgtoolsError)
    with pytest.raises(bgtools.BgtoolsError):
        bgtools.Position.from_id("not an id")


def test_an_unknown_name_is_still_an_attribute_error():
    with pytest.raises(AttributeError):
        bgtools.no_such_name  # noqa: B018
