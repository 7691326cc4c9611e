"""Steps, attachments and milestones of one lawsuit instance, generated lazily.

The history (every step up to the epoch) is generated in one go from one seeded generator.
Steps after the epoch ("the world moves") are generated one by one from their index: step k
of a moving instance falls in the k-th slot of ``period_hours`` after the epoch, so counting
the steps visible at a moment is O(1) and never depends on what was asked before.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
import string
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from lawsuit_tui.sandbox.world import papers, texts
from lawsuit_tui.sandbox.world.papers import Filer, StepContext, br_date
from lawsuit_tui.sandbox.world.rand import hash_text, iso, rng, short_id

__all__ = [
    "History",
    "StepContext",
    "attachment_url",
    "generate_history",
    "moving_count",
    "moving_step",
    "moving_time",
    "parse_attachment_index",
    "visible_history",
]

MAX_MOVING_STEPS = 20_000
ATTACHMENT_SHARE = 0.35  # of steps whose kind carries a document


@dataclass(slots=True)
class History:
    times: list[float] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    # name -> (step index, payload without step_id/date); sentence, appeal, ...
    milestones: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    phases: list[tuple[int, str]] = field(default_factory=list)


def attachment_url(code: str, instance: int, attachment_id: str) -> str:
    """Root-relative path of the file route ({lawsuits_url}/lawsuits/{cnj}/{instance}/...)."""
    return f"/lawsuits/lawsuits/{code}/{instance}/attachments/{attachment_id}"


def parse_attachment_index(attachment_id: str) -> tuple[str, int] | None:
    """('h' or 'm', step index) from an attachment id, or None when malformed."""
    head, _, _rest = attachment_id.partition("-")
    if len(head) < 2 or head[0] not in "hm" or not head[1:].isdigit():
        return None
    return head[0], int(head[1:])


@functools.lru_cache(maxsize=512)
def _fields(template: str) -> tuple[str, ...]:
    return tuple(f for _lit, f, _spec, _conv in string.Formatter().parse(template) if f)


def _value(ctx: StepContext, r: random.Random, when: datetime, name: str) -> Any:
    if name == "party":
        both = ctx.actives + ctx.passives
        return r.choice(both) if both else "parte"
    if name == "judge":
        return ctx.inst.judge
    if name == "prot":
        return f"{when.year}.{r.randint(10000, 99999)}-{r.randint(0, 9)}"
    if name == "days":
        return r.choice((5, 10, 15, 15, 30))
    if name == "date":
        return br_date(when)
    if name == "future":
        return br_date(when + timedelta(days=r.randint(20, 90)))
    if name == "hour":
        return r.choice((9, 10, 13, 14, 15))
    if name == "n":
        return r.randint(100, 9999)
    if name == "year":
        return when.year
    if name == "body":
        return ctx.inst.body.upper()
    if name == "code":
        return ctx.code
    if name == "city":
        return ctx.rec.city
    found = papers.value(ctx, r, name)
    return "" if found is None else found


def _fill(
    ctx: StepContext, r: random.Random, when: datetime, template: str, who: Filer | None = None
) -> str:
    """Format a template drawing only the values it uses. A paper's party and lawyer are
    ``who``: the party that files and one of its own lawyers (D184)."""
    values: dict[str, Any] = {}
    for name in _fields(template):
        if name in values:
            continue
        if name in ("party", "adv", "oab") and who is not None:
            values["party"] = who.party
            adv, oab = who.lawyer or ("Defensoria Pública", "-")
            values["adv"], values["oab"] = adv, oab
        else:
            values[name] = _value(ctx, r, when, name)
    return template.format(**values)


def _files(template: str, att_type: str) -> bool:
    """Whether a step is a paper a party files (its party and lawyer go together)."""
    return att_type == "Petição" or "{adv}" in template or "Juntada de" in template


def _filer_side(template: str) -> str | None:
    """The side that files what ``template`` describes, when only one side does."""
    if "Contestação" in template or "Contrarrazões" in template:
        return papers.PASSIVE
    return None


def _step(
    ctx: StepContext,
    prefix: str,
    index: int,
    when: datetime,
    step_type: str,
    content: str,
    private: bool = False,
) -> dict[str, Any]:
    stamp = iso(when)
    return {
        "lawsuit_cnj": ctx.code,
        "lawsuit_instance": ctx.instance,
        "step_id": hash_text(f"{ctx.seed}:step:{ctx.code}:{ctx.instance}:{prefix}:{index}"),
        "content": content,
        "step_type": step_type,
        "attachment_url": None,
        "attachment_extension": None,
        "source_name": ctx.source_name,
        "private": private,
        "step_date": stamp,
        "created_at": stamp,
        "updated_at": stamp,
        "tags": {},
    }


def _attach(
    ctx: StepContext,
    r: random.Random,
    step: dict[str, Any],
    prefix: str,
    index: int,
    when: datetime,
    att_type: str,
    text: str,
) -> dict[str, Any]:
    ext = r.choices(("pdf", "html", "txt"), weights=(75, 15, 10))[0]
    digest = short_id(ctx.seed, "att", ctx.code, ctx.instance, prefix, index, length=12)
    att_id = f"{prefix}{index}-{digest}"
    private = r.random() < 0.08 or step["private"]
    corrupted = r.random() < 0.03
    step["attachment_url"] = attachment_url(ctx.code, ctx.instance, att_id)
    step["attachment_extension"] = ext
    return {
        "attachment_id": att_id,
        "attachment_type": att_type,
        "attachment_name": f"{att_type} - {br_date(when).replace('/', '-')}.{ext}",
        "step_id": step["step_id"],
        "content": None if private or corrupted else text,
        "extension": ext,
        "status": "done",
        "private": private,
        "corrupted": corrupted,
        "tags": {},
        "user_data": {},
        "attachment_date": iso(when),
        "_text": text,  # full text for the file route; stripped from views
    }


@functools.lru_cache(maxsize=64)
def _cum_weights(pool: tuple[tuple[str, str, str, int], ...]) -> list[int]:
    return list(itertools.accumulate(p[3] for p in pool))


def _pick(
    r: random.Random, pool: tuple[tuple[str, str, str, int], ...]
) -> tuple[str, str, str, int]:
    return r.choices(pool, cum_weights=_cum_weights(pool))[0]


def _paper_step(
    ctx: StepContext,
    r: random.Random,
    when: datetime,
    pool: tuple[tuple[str, str, str, int], ...],
) -> tuple[str, str, tuple[str, str] | None]:
    """An ordinary step drawn from ``pool``: (type, content, (attachment type, text) or None).
    A petition's step names the party and lawyer that sign the paper it carries."""
    step_type, template, att_type, _w = _pick(r, pool)
    who = papers.filer(ctx, r, _filer_side(template)) if _files(template, att_type) else None
    content = _fill(ctx, r, when, template, who)
    att = None
    if att_type and r.random() < ATTACHMENT_SHARE:
        text = content
        if att_type == "Petição":
            text = papers.petition(ctx, r, when, who or papers.filer(ctx, r))
        att = (att_type, text)
    return step_type, content, att


def _milestone_plan(ctx: StepContext, r: random.Random, n: int) -> dict[int, str]:
    """Which step indices are milestones. Fillers take every other index."""
    inst = ctx.inst
    plan: dict[int, str] = {0: "distribution"}
    last = n - 1
    if n >= 3:
        plan[1] = "first_order"
    if inst.instance == 1 and n >= 5 and ctx.rec.kind not in ("precatory",):
        plan[2] = "citation"
    if ctx.rec.kind == "criminal" and n >= 6:
        plan[3] = "custody"
    tail: list[str] = []
    if inst.remitted:
        tail = ["appeal", "remittal"]
    elif inst.archived:
        tail = ["final", "archived"] if inst.has_sentence else ["archived"]
    if inst.has_sentence and n >= 6 + len(tail):
        lo, hi = max(4, int(n * 0.55)), max(4, min(last - len(tail) - 1, int(n * 0.85)))
        s = r.randint(lo, hi) if hi > lo else lo
        if s not in plan and s < last - len(tail):
            # A court of appeal or a superior court judges by acórdão, never by sentence.
            plan[s] = "judgement" if inst.instance > 1 or ctx.branch == "top" else "sentence"
            plan[s + 1] = "publication"
    for k, name in enumerate(reversed(tail)):
        idx = last - k
        if idx > 2:
            plan[idx] = name
    return plan


def generate_history(ctx: StepContext) -> History:
    inst = ctx.inst
    r = rng(ctx.seed, "history", ctx.code, inst.instance)
    n = max(1, inst.n_steps)
    start, end = inst.distribution.timestamp(), inst.end.timestamp()
    inner = sorted(r.uniform(start, end) for _ in range(max(0, n - 2)))
    times = [start, *inner, end][:n] if n > 1 else [start]
    plan = _milestone_plan(ctx, r, n)
    pool = papers.filler_pool(ctx)
    h = History(times=times)
    for i, ts in enumerate(times):
        when = datetime.fromtimestamp(ts, inst.distribution.tzinfo)
        what = plan.get(i)
        att: tuple[str, str] | None = None
        private = False
        if what is None:
            step_type, content, att = _paper_step(ctx, r, when, pool)
            private = r.random() < 0.015
            step = _step(ctx, "h", i, when, step_type, content, private)
        else:
            step_type, content, att = _milestone(ctx, r, what, when)
            step = _step(ctx, "h", i, when, step_type, content)
            _record_milestone(h, r, what, i, step, ctx)
            phase = _phase_opened(ctx, what)
            if phase is not None:
                h.phases.append((i, phase))
        if att is not None:
            h.attachments.append((i, _attach(ctx, r, step, "h", i, when, att[0], att[1])))
        h.steps.append(step)
    return h


def _phase_opened(ctx: StepContext, what: str) -> str | None:
    """The phase the milestone ``what`` opens, if it opens one."""
    if what == "distribution":
        if ctx.rec.kind in ("precatory", "execution", "fiscal"):
            what = "distribution_execution"
        elif ctx.inst.instance > 1:
            what = "distribution_appeal"
    return texts.MILESTONE_PHASES.get(what)


def _made(name: str, **fields: str) -> tuple[str, str, tuple[str, str] | None]:
    """The milestone ``name`` filled in: (step type, content, (attachment type, text) or None)."""
    milestone = texts.MILESTONES[name]
    attachment = None
    if milestone.attachment_type:
        attachment = (
            milestone.attachment_type.format(**fields),
            milestone.attachment_text.format(**fields),
        )
    return milestone.step_type, milestone.content.format(**fields), attachment


def _milestone(
    ctx: StepContext, r: random.Random, what: str, when: datetime
) -> tuple[str, str, tuple[str, str] | None]:
    inst = ctx.inst
    if what == "distribution":
        if inst.instance > 1:
            return _made("distribution_appeal", body=inst.body, judge=inst.judge)
        how = "prevenção" if ctx.rec.main else "sorteio"
        paper, text = papers.initial_paper(ctx, r, when)
        return _made("distribution", how=how, body=inst.body, paper=paper, petition=text)
    if what == "citation":
        kind = ctx.rec.kind
        if kind == "labour":
            return _made("citation_labour")
        if kind == "criminal":
            return _made("citation_criminal")
        if kind in ("fiscal", "execution"):
            return _made("citation_execution")
        return _made("citation")
    if what == "sentence":
        if ctx.rec.kind == "precatory":  # paid, not sentenced: the presidency says so
            return _made("paid")
        kind, verdict, text = papers.sentence(ctx, r, when)
        return _made("sentence", kind=kind, verdict=verdict, sentence=text)
    if what == "judgement":
        result = r.choice(texts.APPEAL_RESULTS)
        judgement = texts.JUDGEMENT_TEXT.format(
            body=inst.body, result_lower=result.lower(), judge=inst.judge
        )
        return _made("judgement", result=result, judgement=judgement)
    if what == "appeal":
        words, text = papers.appeal(ctx, r, when)
        return _made("appeal", appeal=words, petition=text)
    if what in ("publication", "final"):
        return _made(what, date=br_date(when))
    if what in ("first_order", "custody", "remittal"):
        return _made(what)
    return _made("archived")


def _record_milestone(
    h: History, r: random.Random, what: str, i: int, step: dict[str, Any], ctx: StepContext
) -> None:
    date = step["step_date"]
    sid = step["step_id"]
    if what == "distribution":
        how = "prevenção" if ctx.rec.main else "sorteio"
        h.milestones["distribution"] = (
            i,
            {"distribution_type": how, "distribution_date": date, "step_id": sid},
        )
    elif what == "sentence" and ctx.rec.kind != "precatory":
        h.milestones["sentence"] = (
            i,
            {
                "sentence_type": step["content"].split(" - ")[1].split(":")[0],
                "sentence_date": date,
                "step_id": sid,
            },
        )
    elif what == "judgement":
        result = step["content"].split(" - ")[1].split(".")[0]
        h.milestones["appeal_judgement"] = (
            i,
            {"appeal_judgement_type": result, "appeal_judgement_date": date, "step_id": sid},
        )
    elif what == "appeal":
        h.milestones["appeal"] = (i, {"appeal_date": date, "step_id": sid})
    elif what == "custody":
        h.milestones["custody"] = (
            i,
            {"custody_type": "Prisão preventiva", "custody_date": date, "step_id": sid},
        )


# ---------------------------------------------------------------------- after the epoch


def _slot_jitter(ctx: StepContext, k: int) -> random.Random:
    return rng(ctx.seed, "moving", ctx.code, ctx.instance, k)


def moving_time(ctx: StepContext, k: int) -> datetime:
    schedule = ctx.inst.schedule
    if schedule is not None:  # a portfolio lawsuit: its own days (portfolio.py)
        return schedule.time(k)  # type: ignore[no-any-return]
    r = _slot_jitter(ctx, k)
    hours = ctx.inst.period_hours * (k + r.uniform(0.05, 0.95))
    return ctx.epoch + timedelta(hours=hours)


def moving_count(ctx: StepContext, at: datetime) -> int:
    """How many steps after the epoch are dated at or before ``at``."""
    schedule = ctx.inst.schedule
    if schedule is not None:
        return min(MAX_MOVING_STEPS, schedule.count(at))  # type: ignore[no-any-return]
    period = ctx.inst.period_hours
    if period <= 0 or at <= ctx.epoch:
        return 0
    hours = (at - ctx.epoch).total_seconds() / 3600
    q = math.floor(hours / period)
    if q >= MAX_MOVING_STEPS:
        return MAX_MOVING_STEPS
    return q + (1 if moving_time(ctx, q) <= at else 0)


def moving_step(ctx: StepContext, k: int) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Step k after the epoch and its attachment, if any."""
    when = moving_time(ctx, k)
    r = _slot_jitter(ctx, k)
    r.random()  # the jitter draw
    pool = texts.PORTFOLIO if ctx.inst.schedule is not None else texts.MOVING
    step_type, content, paper = _paper_step(ctx, r, when, pool)
    index = ctx.inst.n_steps + k
    step = _step(ctx, "m", index, when, step_type, content)
    att = None
    if paper is not None:
        att = _attach(ctx, r, step, "m", index, when, paper[0], paper[1])
    return step, att


def visible_history(h: History, at: datetime) -> int:
    return bisect.bisect_right(h.times, at.timestamp())
