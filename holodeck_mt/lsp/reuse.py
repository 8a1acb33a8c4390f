"""The language server's last reading of each document, reused while nothing changed.

An editor sends the same text again (a document reopened, saved, or a change that
restores it): its diagnostics are those of the last validation when the document's
text is the same and so is everything else that validation read: the agent.yaml it was
validated through (as saved), and no other file (a document naming a
``test_cases_file`` reads that file from disk, so it is always validated again).
"""

from __future__ import annotations

from dataclasses import dataclass

from holodeck_mt.model import Diagnostic


@dataclass(frozen=True)
class Reading:
    text: str
    #: The agent.yaml's text it was validated through (None: validated on its own).
    agent_text: str | None
    diagnostics: list[Diagnostic] | None


class LastReadings:
    """One reading per document: the last."""

    def __init__(self) -> None:
        self._readings: dict[str, Reading] = {}

    def get(self, uri: str, text: str, agent_text: str | None) -> Reading | None:
        found = self._readings.get(uri)
        if found is None or found.text != text or found.agent_text != agent_text:
            return None
        return found

    def keep(
        self, uri: str, text: str, agent_text: str | None, diagnostics: list[Diagnostic] | None
    ) -> None:
        if agent_text is None and "test_cases_file" in text:
            self._readings.pop(uri, None)  # it reads another file: never reused
            return
        self._readings[uri] = Reading(text, agent_text, diagnostics)

    def forget(self, uri: str) -> None:
        self._readings.pop(uri, None)
