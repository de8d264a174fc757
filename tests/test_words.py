"""Every way a game or match can end has words of its own on every surface."""

from __future__ import annotations

import pytest

from referee._words import _REASONS, reason_words
from referee.game import Termination


@pytest.mark.parametrize("termination", list(Termination))
def test_every_termination_is_worded(termination: Termination) -> None:
    # The fallback (the code with spaces) is for codes a newer record may bring;
    # the library's own endings are all in the table.
    assert termination.value in _REASONS
    assert reason_words(termination.value) == _REASONS[termination.value]
