"""What the court's answer to "fresh data" brought, for the lawsuit screen's banner."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lawsuit_tui.i18n import _
from lawsuit_tui.ui.widgets.lawsuit_summaries import news_words

if TYPE_CHECKING:
    from lawsuit_tui.services.request_responses import Change


@dataclass
class FreshAnswer:
    """The responses of one fresh request, as they arrive: errors, copies, what they added."""

    errors: list[str] = field(default_factory=list)
    definitive: bool = False
    """The court's own copy arrived (not only the service's stored one)."""
    new_steps: set[str] = field(default_factory=set)
    new_attachments: set[str] = field(default_factory=set)
    new_parties: set[str] = field(default_factory=set)

    def add(self, provisional: bool, change: Change | None) -> None:
        self.definitive = self.definitive or not provisional
        if change is not None and not change.first_version and not change.ignored:
            self.new_steps.update(change.new_step_ids)
            self.new_attachments.update(change.new_attachment_ids)
            self.new_parties.update(change.new_party_names)

    def text(self, checked_at: str) -> str:
        """One line: what changed, that nothing did, or that the court did not answer."""
        news = news_words(len(self.new_steps), len(self.new_attachments), len(self.new_parties))
        if news:
            return _("The court's copy (checked {when}) brought {news}.").format(
                when=checked_at, news=news
            )
        if self.errors and not self.definitive:
            return _("The court did not answer (checked {when}): this is the stored copy.").format(
                when=checked_at
            )
        if self.definitive:
            return _("The court's copy (checked {when}) changed nothing.").format(when=checked_at)
        return _("The court has nothing newer than this copy (checked {when}).").format(
            when=checked_at
        )
