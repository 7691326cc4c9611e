"""The lawsuit as a tree: parties and lawyers, steps, attachments, related lawsuits, history.

Big groups (steps, attachments) are filled only when expanded, a few hundred nodes at a time
with a yield to the event loop between chunks, so a lawsuit with 10,000 steps opens at once and
the app keeps answering keys while the nodes arrive. Each node keeps what it shows on
``node.data``; the screen acts on it (open, view, download).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Tree
from textual.widgets.tree import TreeNode, UnknownNodeID
from textual.worker import Worker, WorkerState

from lawsuit_tui.domain.enums import Side
from lawsuit_tui.domain.formatting import format_date, format_document, format_int
from lawsuit_tui.domain.lawsuit import Attachment, Lawsuit, Party, RelatedLawsuit, Step
from lawsuit_tui.i18n import _, untranslate
from lawsuit_tui.ui.host import host_of
from lawsuit_tui.ui.keys import words_of_key
from lawsuit_tui.ui.widgets.lawsuit_summaries import party_name

PAGE = 200
"""Most nodes a group shows before a "more" node (Tree re-measures every visible line)."""
CHUNK = 100
"""Nodes added between two yields to the event loop."""


@dataclass(frozen=True, slots=True)
class Group:
    """A node whose children are built when it is first expanded."""

    kind: str
    """"steps", "year" or "attachments"."""
    key: str = ""
    """The year of a "year" group."""


@dataclass(frozen=True, slots=True)
class MoreItem:
    """The "show more" node at the end of a page: the whole list and where the rest starts."""

    items: Sequence[Any]
    start: int


@dataclass(frozen=True, slots=True)
class StepItem:
    step: Step
    new: bool


@dataclass(frozen=True, slots=True)
class AttachmentItem:
    attachment: Attachment
    new: bool


@dataclass(frozen=True, slots=True)
class RelatedItem:
    related: RelatedLawsuit
    main: bool = False


@dataclass(frozen=True, slots=True)
class PartyItem:
    """A party: its CPF or CNPJ opens its dossier (D190)."""

    party: Party

    @property
    def document(self) -> str | None:
        """The party's CPF or CNPJ, bare (None for none, or a masked one)."""
        documents = [self.party.main_document, *(d.document for d in self.party.documents or [])]
        for document in documents:
            bare = "".join(ch for ch in document or "" if ch.isalnum())
            if len(bare) in (11, 14) and "*" not in (document or ""):
                return bare
        return None


NodeData = Group | MoreItem | StepItem | AttachmentItem | RelatedItem | PartyItem | None


@dataclass
class _Index:
    """Steps newest first, and attachments by step, computed once per lawsuit."""

    steps: list[Step] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    by_step: dict[str, list[Attachment]] = field(default_factory=dict)
    searchable: list[str] = field(default_factory=list)
    """Each step's type, text and date, case-folded once: a filter is one ``in`` per step."""


def _index(lawsuit: Lawsuit) -> _Index:
    steps = sorted(
        lawsuit.steps or [],
        key=lambda step: (step.step_date or step.created_at or "", step.step_id or ""),
        reverse=True,
    )
    attachments = list(lawsuit.attachments or [])
    by_step: defaultdict[str, list[Attachment]] = defaultdict(list)
    for attachment in attachments:
        if attachment.step_id:
            by_step[attachment.step_id].append(attachment)
    searchable = [
        "\n".join(
            (
                (step.step_type or "").casefold(),
                (step.content or "").casefold(),
                format_date(step.step_date),
            )
        )
        for step in steps
    ]
    return _Index(steps, attachments, dict(by_step), searchable)


def _year(step: Step) -> str:
    return format_date(step.step_date or step.created_at)[-4:]


def _first_line(text: str | None, limit: int = 160) -> str:
    if not text:
        return ""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def step_label(step: Step, new: bool, attachments: int = 0) -> Text:
    label = Text()
    if new:
        label.append(_("NEW") + " ", "bold reverse")
    label.append(format_date(step.step_date) or "--/--/----", "bold")
    if step.step_type:
        label.append(f"  {step.step_type}", "italic")
    if attachments:
        label.append(
            f"  ▪{attachments}",
            "dim",
        )
    content = _first_line(step.content)
    if content:
        label.append(f"  {content}")
    return label


def attachment_label(attachment: Attachment, new: bool) -> Text:
    label = Text()
    if new:
        label.append(_("NEW") + " ", "bold reverse")
    name = attachment.attachment_name or attachment.attachment_id or "?"
    if attachment.extension and not name.lower().endswith("." + attachment.extension.lower()):
        name = f"{name}.{attachment.extension}"
    label.append("▪ " + name, "bold")
    details = [
        format_date(attachment.attachment_date),
        attachment.attachment_type or "",
        # "done" is every attachment's normal state: only a status worth a look is shown
        "" if str(attachment.status or "done") == "done" else str(attachment.status),
    ]
    if attachment.private:
        details.append(_("private"))
    if attachment.corrupted:
        details.append(_("corrupted"))
    shown = "  ·  ".join(part for part in details if part)
    if shown:
        label.append(f"  {shown}", "dim")
    return label


def party_label(party: Party) -> Text:
    # The role first, as a lawyer lists parties ("ADMINISTRADOR JUDICIAL: name"): the end of
    # a long line is what a narrow terminal cuts, and the document is the least read.
    label = Text()
    if party.person_type:
        label.append(f"{party.person_type}: ", "italic dim")
    label.append(party_name(party), "bold")
    if party.main_document:
        label.append(f"  {format_document(party.main_document)}", "dim")
    return label


def related_label(item: RelatedItem) -> Text:
    related = item.related
    label = Text()
    if item.main:
        label.append(_("Main lawsuit") + ": ", "italic")
    label.append(related.code or "?", "bold")
    if related.instance:
        label.append(f"  {related.instance}º")
    name = related.name or (related.classification.name if related.classification else None)
    if name:
        label.append(f"  {name}", "dim")
    return label


def _item_key(item: object) -> str:
    if isinstance(item, Step):
        return f"step:{item.step_id or ''}"
    if isinstance(item, Attachment):
        return f"attachment:{item.attachment_id or ''}"
    return ""


def _node_key(node: TreeNode[NodeData]) -> str:
    """What a line is, the same in two versions of a lawsuit: a group by kind (a year by its
    year), a step or an attachment by id, a related lawsuit by number, another line by its
    title under its parent's key ("" for a "more" line and the root)."""
    data = node.data
    if isinstance(data, Group):
        return f"group:{data.kind}:{data.key}"
    if isinstance(data, StepItem):
        return _item_key(data.step)
    if isinstance(data, AttachmentItem):
        return f"{_node_key(node.parent) if node.parent else ''}/{_item_key(data.attachment)}"
    if isinstance(data, RelatedItem):
        return f"related:{data.related.code}:{data.related.instance}:{data.main}"
    if isinstance(data, MoreItem) or node.parent is None:
        return ""
    label = node.label.plain if isinstance(node.label, Text) else str(node.label)
    parent = _node_key(node.parent)
    return f"{parent}/{untranslate(label.split(' (')[0])}"  # the same in either language


class LawsuitTree(Tree[NodeData]):
    """The tree of one lawsuit; ``show(lawsuit, new_step_ids, new_attachment_ids)`` fills it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_node", _("Expand"), id="lawsuit.toggle", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__("lawsuit", id=id)
        self.show_root = False
        self.auto_expand = False
        self.guide_depth = 3
        self._lawsuit: Lawsuit | None = None
        self._index = _Index()
        self._new_steps: set[str] = set()
        self._new_attachments: set[str] = set()
        self._filter = ""
        self._steps_node: TreeNode[NodeData] | None = None
        self._restore_expanded: set[str] = set()
        self._restore_cursor = ""
        self._filtered: list[Step] | None = None
        """The steps the filter keeps, computed once per filter."""
        self._generation = 0
        self.filling = False
        """True while a group is still receiving its chunks (tests wait on it)."""

    # --- building ------------------------------------------------------------------------

    def show(
        self,
        lawsuit: Lawsuit,
        new_step_ids: Iterable[str] = (),
        new_attachment_ids: Iterable[str] = (),
    ) -> None:
        """Fill the tree with ``lawsuit``; a new version of the one on show keeps the reader's
        place: what was expanded opens again (lazy groups as they fill) and the cursor goes
        back to the line it was on (a step past the first page brings its page)."""
        expanded = {_node_key(node) for node in self._walk() if node.is_expanded}
        cursor = self.cursor_node
        # A place not yet restored (a version arrived while the last one was filling) stays
        # the place to go back to.
        self._restore_expanded = (expanded | self._restore_expanded) - {""}
        if not self._restore_cursor:
            self._restore_cursor = _node_key(cursor) if cursor is not None else ""
        self._generation += 1
        self._lawsuit = lawsuit
        self._index = _index(lawsuit)
        self._filtered = None
        self._new_steps = set(new_step_ids)
        self._new_attachments = set(new_attachment_ids)
        self.clear()
        root = self.root
        self._add_parties(root, lawsuit.parties or [])
        steps_count = len(self._index.steps)
        new_count = sum(1 for step in self._index.steps if step.step_id in self._new_steps)
        steps_title = Text(_("Steps") + f" ({format_int(steps_count)})", style="bold")
        if new_count:
            steps_title.append("  " + _("{n} new").format(n=format_int(new_count)), "reverse")
        self._steps_node = root.add(steps_title, data=Group("steps"), allow_expand=steps_count > 0)
        attachments = len(self._index.attachments)
        root.add(
            Text(_("Attachments") + f" ({format_int(attachments)})", style="bold"),
            data=Group("attachments"),
            allow_expand=attachments > 0,
        )
        self._add_related(root, lawsuit)
        self._add_history(root, lawsuit)
        self.move_cursor_to_line(0)
        self._restore(root)

    # --- keeping the reader's place ------------------------------------------------------

    def _walk(self, top: TreeNode[NodeData] | None = None) -> Iterable[TreeNode[NodeData]]:
        """Every node under ``top`` (the root by default), in no particular order."""
        pending = list((top or self.root).children)
        while pending:
            node = pending.pop()
            yield node
            pending.extend(node.children)

    def _put_cursor(self, node: TreeNode[NodeData], key: str) -> None:
        # The place counts as restored only once the cursor is there: a newer version may
        # have rebuilt the tree meanwhile, and must restore it in turn.
        if self._restore_cursor != key:
            return
        try:
            self.get_node_by_id(node.id)
        except UnknownNodeID:
            return
        self._restore_cursor = ""
        self.move_cursor(node)

    def _restore(self, parent: TreeNode[NodeData]) -> None:
        """Open again what was open under ``parent`` and put the cursor back when its line is
        there (lazy groups call this as their children arrive)."""
        pending = list(parent.children)
        while pending:
            node = pending.pop(0)
            key = _node_key(node)
            if key and key == self._restore_cursor:
                self.call_after_refresh(self._put_cursor, node, key)
            if key in self._restore_expanded and node.allow_expand and not node.is_expanded:
                self._restore_expanded.discard(key)
                node.expand()
            pending.extend(node.children)

    def _add_parties(self, root: TreeNode[NodeData], parties: Sequence[Party]) -> None:
        node = root.add(
            Text(_("Parties") + f" ({format_int(len(parties))})", style="bold"),
            allow_expand=bool(parties),
        )
        sides: dict[str, list[Party]] = defaultdict(list)
        for party in parties:
            sides[str(party.side) if party.side else ""].append(party)
        titles = {
            Side.ACTIVE.value: _("Active side"),
            Side.PASSIVE.value: _("Passive side"),
            # A reorganisation's administrator and creditors (D184)
            Side.INTERESTED.value: _("Interested third parties"),
        }
        for side in sorted(sides, key=lambda s: (s not in titles, s != Side.ACTIVE.value, s)):
            members = sides[side]
            title = titles.get(side) or (side or _("Other parties"))
            side_node = node.add(Text(f"{title} ({len(members)})", style="italic"), expand=True)
            for party in members:
                party_node = side_node.add(
                    party_label(party), data=PartyItem(party), allow_expand=False
                )
                extra_docs = [
                    d
                    for d in party.documents or []
                    if d.document and d.document != party.main_document
                ]
                for document in extra_docs:
                    party_node.allow_expand = True
                    party_node.add_leaf(
                        Text(
                            format_document(document.document, str(document.document_type or ""))
                            + (f"  {document.document_type}" if document.document_type else ""),
                            style="dim",
                        )
                    )
                for lawyer in party.lawyers or []:
                    party_node.allow_expand = True
                    lawyer_label = Text("⚖ " + (lawyer.name or "?"))
                    oabs = [
                        format_document(d.document, "oab")
                        for d in lawyer.documents or []
                        if d.document and str(d.document_type or "").lower() == "oab"
                    ]
                    if not oabs and lawyer.main_document:
                        oabs = [format_document(lawyer.main_document)]
                    if oabs:
                        lawyer_label.append("  " + ", ".join(oabs), "dim")
                    party_node.add_leaf(lawyer_label)

    def _add_related(self, root: TreeNode[NodeData], lawsuit: Lawsuit) -> None:
        related = list(lawsuit.related_lawsuits or [])
        if not related and lawsuit.main_lawsuit is None:
            return
        node = root.add(
            Text(
                _("Related lawsuits") + f" ({len(related) + bool(lawsuit.main_lawsuit)})",
                style="bold",
            )
        )
        if lawsuit.main_lawsuit is not None and lawsuit.main_lawsuit.code:
            item = RelatedItem(lawsuit.main_lawsuit, main=True)
            node.add_leaf(related_label(item), data=item)
        for entry in related:
            item = RelatedItem(entry)
            node.add_leaf(related_label(item), data=item)

    def _add_history(self, root: TreeNode[NodeData], lawsuit: Lawsuit) -> None:
        rows: list[Text] = []

        def row(title: str, when: object, what: str | None) -> None:
            text = Text(format_date(when) or "--/--/----", style="bold")  # type: ignore[arg-type]
            text.append(f"  {title}", "italic")
            if what:
                text.append(f"  {what}")
            rows.append(text)

        if lawsuit.distribution is not None:
            row(
                _("Distribution"),
                lawsuit.distribution.distribution_date,
                lawsuit.distribution.distribution_type,
            )
        if lawsuit.sentence is not None:
            # "Sentence" reads as criminal in English; the civil word is judgment (sentença).
            row(_("Judgment"), lawsuit.sentence.sentence_date, lawsuit.sentence.sentence_type)
        if lawsuit.appeal is not None:
            row(_("Appeal"), lawsuit.appeal.appeal_date, None)
        if lawsuit.appeal_judgement is not None:
            row(
                _("Appeal judgement"),
                lawsuit.appeal_judgement.appeal_judgement_date,
                lawsuit.appeal_judgement.appeal_judgement_type,
            )
        if lawsuit.custody is not None:
            row(_("Custody"), lawsuit.custody.custody_date, lawsuit.custody.custody_type)
        for phase in lawsuit.phase_history or []:
            row(_("Phase"), phase.phase_date, phase.name)
        if not rows:
            return
        node = root.add(Text(_("History") + f" ({len(rows)})", style="bold"))
        for text in rows:
            node.add_leaf(text)

    # --- lazy groups ---------------------------------------------------------------------

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[NodeData]) -> None:
        node = event.node
        if isinstance(node.data, Group) and not node.children:
            event.stop()
            self.run_worker(
                self._fill(node, self._generation),
                group=f"tree.fill.{node.id}",
                exit_on_error=False,
            )

    def on_tree_node_selected(self, event: Tree.NodeSelected[NodeData]) -> None:
        node = event.node
        if isinstance(node.data, MoreItem):
            event.stop()
            more = node.data
            parent = node.parent
            node.remove()
            if parent is not None:
                self.run_worker(
                    self._add_page(parent, more.items, more.start, self._generation),
                    group=f"tree.more.{parent.id}",
                    exit_on_error=False,
                )

    def _step_items(self) -> list[Step]:
        steps = self._index.steps
        if not self._filter:
            return steps
        if self._filtered is None:
            needle = self._filter.casefold()
            self._filtered = [
                step
                for step, text in zip(steps, self._index.searchable, strict=True)
                if needle in text
            ]
        return self._filtered

    async def _fill(self, node: TreeNode[NodeData], generation: int) -> None:
        group = node.data
        assert isinstance(group, Group)
        if generation != self._generation:
            return  # refilled (new version, new filter) before this fill began
        self.filling = True
        try:
            if group.kind == "steps":
                steps = self._step_items()
                if len(steps) > PAGE and not self._filter:
                    self._add_years(node, steps)
                else:
                    await self._add_page(node, steps, 0, generation)
            elif group.kind == "year":
                steps = [s for s in self._step_items() if _year(s) == group.key]
                await self._add_page(node, steps, 0, generation)
            elif group.kind == "attachments":
                await self._add_page(node, self._index.attachments, 0, generation)
        finally:
            self.filling = False

    def _add_years(self, node: TreeNode[NodeData], steps: Sequence[Step]) -> None:
        """Long histories are grouped by year (newest first); each year fills on expand."""
        counts: dict[str, int] = {}
        news: dict[str, int] = defaultdict(int)
        for step in steps:
            year = _year(step)
            counts[year] = counts.get(year, 0) + 1
            if (step.step_id or "") in self._new_steps:
                news[year] += 1
        for year, count in counts.items():
            label = Text(f"{year or '?'} ({format_int(count)})", style="bold")
            if news[year]:
                label.append("  " + _("{n} new").format(n=format_int(news[year])), "reverse")
            node.add(label, data=Group("year", year))
        self._restore(node)

    async def _add_page(
        self,
        node: TreeNode[NodeData],
        items: Sequence[Any],
        start: int,
        generation: int,
    ) -> None:
        """Add ``items[start:start + PAGE]`` in chunks, then a "more" node for the rest.

        Tree measures every visible line whenever it changes, so a group never shows more
        than a page at a time unless the user asks for more.
        """
        if generation != self._generation:
            return
        if not items:
            node.add_leaf(Text(_("nothing matches"), style="dim italic"))
            return
        stop = start + PAGE
        wanted = self._restore_cursor
        if "step:" in wanted or "attachment:" in wanted:
            # The line the cursor was on lies further down: bring the pages up to it.
            found = next(
                (
                    n
                    for n in range(start, len(items))
                    if wanted.endswith(_item_key(items[n])) and _item_key(items[n])
                ),
                None,
            )
            if found is not None and found >= stop:
                stop = found + 1
        page = items[start:stop]
        for offset in range(0, len(page), CHUNK):
            if generation != self._generation:
                return  # refilled (new version, new filter) meanwhile
            for item in page[offset : offset + CHUNK]:
                if isinstance(item, Step):
                    self._add_step(node, item)
                else:
                    self._add_attachment(node, item)
            await asyncio.sleep(0)
        rest = len(items) - start - len(page)
        if rest > 0:
            label = Text(
                "… "
                + _("{n} more of {total}: {key} shows them").format(
                    n=format_int(min(rest, PAGE)),
                    total=format_int(len(items)),
                    key=words_of_key(self.app, "enter"),
                ),
                style="italic",
            )
            node.add_leaf(label, data=MoreItem(items, start + len(page)))
        self._restore(node)

    def _add_step(self, node: TreeNode[NodeData], step: Step) -> None:
        attachments = self._index.by_step.get(step.step_id or "", [])
        item = StepItem(step, (step.step_id or "") in self._new_steps)
        label = step_label(step, item.new, len(attachments))
        if attachments:
            child = node.add(label, data=item)
            for attachment in attachments:
                self._add_attachment(child, attachment)
        else:
            node.add_leaf(label, data=item)

    def _add_attachment(self, node: TreeNode[NodeData], attachment: Attachment) -> None:
        new = (attachment.attachment_id or "") in self._new_attachments
        node.add_leaf(attachment_label(attachment, new), data=AttachmentItem(attachment, new))

    # --- showing given steps ------------------------------------------------------------

    async def reveal_steps(self, step_ids: Iterable[str]) -> bool:
        """Expand Steps (and the year group of the newest of ``step_ids``) and put the cursor
        on that step: where an inbox movement's new steps are. False if none is here."""
        wanted = set(step_ids)
        target = next((s for s in self._index.steps if (s.step_id or "") in wanted), None)
        node = self._steps_node
        if target is None or node is None:
            return False
        generation = self._generation
        for group in (node, None):
            if group is None:  # long histories: the target's year under Steps
                group = next(
                    (
                        child
                        for child in node.children
                        if isinstance(child.data, Group)
                        and child.data.kind == "year"
                        and child.data.key == _year(target)
                    ),
                    None,
                )
                if group is None:
                    break
            if not group.children:
                await self._fill(group, generation)  # before expanding: filled once
            group.expand()
        if generation != self._generation:
            return False
        for found in self._walk(node):
            data = found.data
            if isinstance(data, StepItem) and data.step.step_id == target.step_id:
                # The tree places the nodes just added on its next refresh: only then has
                # the step a line to move to.
                self.call_after_refresh(self._go_to, found)
                return True
        return False

    def _go_to(self, node: TreeNode[NodeData]) -> None:
        self.move_cursor(node)
        self.scroll_to_node(node, animate=False)

    # --- filtering -----------------------------------------------------------------------

    @property
    def step_filter(self) -> str:
        return self._filter

    def filter_steps(self, text: str) -> None:
        """Show only the steps whose content, type or date contains ``text``."""
        self._filter = text.strip()
        self._filtered = None
        self._restore_expanded.clear()  # a new filter is a new place
        self._restore_cursor = ""
        self._generation += 1
        node = self._steps_node
        if node is None:
            return
        count = len(self._step_items())
        title = Text(_("Steps") + f" ({format_int(count)})", style="bold")
        if self._filter:
            title.append("  " + _("filtered by “{text}”").format(text=self._filter), "italic")
        node.set_label(title)
        node.remove_children()
        node.allow_expand = True
        if node.is_expanded:
            self.run_worker(
                self._fill(node, self._generation),
                group="tree.filter",
                exclusive=True,
                exit_on_error=False,
            )
        else:
            node.expand()
        self.move_cursor(node)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            host_of(self.app).report_error(event.worker.error)

    def cursor_data(self) -> NodeData:
        node = self.cursor_node
        return None if node is None else node.data
