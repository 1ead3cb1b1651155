"""A lesson's progress: which tasks are done, and by whom: the learner, or Show me (and a prediction revealed
wrong counts as shown: the app gave the answer away).

The two get distinct marks (``MARKS``), and a lesson counts as done only when every task was done by the
learner.  Progress is stored as a plain list of strings, one per task done: ``"2"`` (by the learner, which is
also how every older progress file wrote a task, so old files still load) or ``"3:shown"``.
"""

from __future__ import annotations

LEARNER = "learner"
SHOWN = "shown"
MARKS = {LEARNER: "✓", SHOWN: "◌"}  # the learner's tick; Show me's hollow mark
MARK_HELP = {LEARNER: "done by you", SHOWN: "done by Show me (or a prediction it revealed): not counted"}


class LessonProgress:
    """Task index → who did it, for one lesson of ``task_count`` tasks."""

    def __init__(self, task_count: int, marks: dict[int, str] | None = None):
        self.task_count = task_count
        self.marks: dict[int, str] = {}
        for index, by in (marks or {}).items():
            self.mark(index, by)

    def mark(self, index: int, by: str = LEARNER) -> bool:
        """Record task ``index`` done ``by`` the learner or Show me; True when that changed anything.

        The learner's own tick is never downgraded by a later Show me; a task Show me did becomes the
        learner's once the learner does it too (after Restart)."""
        if by not in MARKS:
            raise ValueError(f"a task is done by {LEARNER!r} or {SHOWN!r}, not {by!r}")
        if not 0 <= index < self.task_count or self.marks.get(index) == LEARNER or self.marks.get(index) == by:
            return False
        self.marks[index] = by
        return True

    def by(self, index: int) -> str | None:
        return self.marks.get(index)

    def mark_text(self, index: int) -> str:
        """'✓', '◌' or '' for a task not done."""
        by = self.marks.get(index)
        return MARKS[by] if by else ""

    def is_done(self, index: int) -> bool:
        return index in self.marks

    @property
    def learner_count(self) -> int:
        return sum(1 for by in self.marks.values() if by == LEARNER)

    @property
    def lesson_done(self) -> bool:
        """Every task done by the learner (Show me's marks do not count)."""
        return self.task_count > 0 and self.learner_count == self.task_count

    def clear(self) -> None:
        self.marks.clear()

    def to_stored(self) -> list[str]:
        return [str(i) if by == LEARNER else f"{i}:{by}" for i, by in sorted(self.marks.items())]

    @classmethod
    def from_stored(cls, value: object, task_count: int) -> LessonProgress:
        """What ``to_stored`` wrote, or an older file's list of task numbers; anything unreadable is skipped."""
        progress = cls(task_count)
        if isinstance(value, str | int):
            value = [value]
        if not isinstance(value, list | tuple):
            return progress
        for item in value:
            text, _, by = str(item).partition(":")
            try:
                progress.mark(int(text), by or LEARNER)
            except ValueError:
                continue
        return progress
