import sys
import unittest

import pytest


@pytest.mark.skip(reason="flaky")  # want "Skipped test"
def test_flaky():
    assert True


@pytest.mark.skip  # want "@pytest.mark.skip skips"
def test_old():
    assert True


class TestStore(unittest.TestCase):
    @unittest.skip("broken")  # want "Skipped test"
    def test_broken(self):
        self.assertTrue(True)

    # Near misses: none of these is reported.
    @unittest.skipIf(sys.platform == "win32", "posix only")
    def test_posix(self):
        self.assertTrue(True)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="needs 3.11")
def test_new():
    assert True


@pytest.mark.xfail(reason="known bug #12")
def test_known():
    assert True
