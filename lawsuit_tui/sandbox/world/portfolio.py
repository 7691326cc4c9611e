"""A collection portfolio of 10,000 lawsuits that moves at a realistic rate (D177).

A bank's (or a big creditor's) lawsuits against its debtors in the state courts: executions,
monitory actions, repossessions, ordinary collections, small claims. They exist in the world
like any lawsuit (a CNJ lookup, request or tracking finds them) but move on their own
schedule, day by day after the epoch, as a real portfolio does:

- most are quiet (a propensity drawn per lawsuit: 70% quiet, 25% ordinary, 5% busy);
- on a working day about 60 of the 10,000 move (each with 1 to 3 steps, in court hours),
  a handful on a weekend; a few percent move in a week;
- from 20 December to 20 January (the forensic recess, CPC art. 220) little moves, and the two
  weeks after it carry the backlog (two and a half times a working day);
- the steps are the ones a collection lawyer reads every morning (petitions, conclusions,
  publications, SISBAJUD and RENAJUD results, citations, sentences, appeals, res judicata,
  archiving).

Everything is drawn from the seed (the day's movers from ``(seed, day)``, each lawsuit from
``(seed, index)``), so it does not depend on what was asked before, and nothing is stored:
the world is derived, never saved. The codes are made the first time the portfolio is
needed (about a tenth of a second); each lawsuit's record when it is first asked for.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from lawsuit_tui.domain.courts import Court, all_courts
from lawsuit_tui.sandbox.world import names
from lawsuit_tui.sandbox.world.lawsuits import (
    InstanceRec,
    LawsuitRec,
    PartyRef,
    judge_title,
    origin_for,
)
from lawsuit_tui.sandbox.world.people import Population
from lawsuit_tui.sandbox.world.rand import rng

__all__ = ["PORTFOLIO_SIZE", "Portfolio", "PortfolioTrack", "movers_expected"]

PORTFOLIO_SIZE = 10_000
WORKING_DAY_MOVERS = 60.0
"""Events of a working day across the portfolio (0.6%); a few percent move in a week."""
_COURTS = (
    ("TJSP", 45.0),
    ("TJRJ", 10.0),
    ("TJMG", 10.0),
    ("TJPR", 6.0),
    ("TJRS", 6.0),
    ("TJBA", 4.0),
    ("TJSC", 4.0),
    ("TJGO", 3.0),
    ("TJPE", 3.0),
    ("TJDFT", 3.0),
    ("TJCE", 2.0),
    ("TJES", 2.0),
    ("TJMT", 2.0),
)
_CLASSES = ((159, 40), (40, 15), (81, 15), (7, 15), (436, 10), (93, 5))
"""(class code, weight): execution, monitory, repossession, ordinary, small claims, eviction."""
_STEPS_PER_EVENT = ((1, 70), (2, 22), (3, 8))
_PROPENSITY = ((0.2, 70), (1.0, 25), (6.0, 5))
"""(weight of being picked on a day, share of the portfolio): quiet, ordinary, busy."""
_BRASILIA = timedelta(hours=-3)  # court hours are Brasília's (no daylight saving since 2019)


def movers_expected(day: date) -> float:
    """How many events the portfolio has on ``day``: weekdays, the recess and its end."""
    weekday = day.weekday()
    factor = 1.0 if weekday < 5 else (0.08 if weekday == 5 else 0.04)
    recess = (day.month == 12 and day.day >= 20) or (day.month == 1 and day.day <= 20)
    after_recess = day.month == 1 or (day.month == 2 and day.day <= 3)  # 21/01 to 03/02
    if recess:
        factor *= 0.15
    elif after_recess:
        factor *= 2.5  # the backlog of the recess
    return WORKING_DAY_MOVERS * factor


def _poisson(r: random.Random, mean: float) -> int:
    """A Poisson draw (Knuth's, by halves for large means)."""
    if mean > 30:
        return max(0, round(r.gauss(mean, math.sqrt(mean))))
    limit, count, product = math.exp(-mean), 0, r.random()
    while product > limit:
        count += 1
        product *= r.random()
    return count


def _cnj(sequence: int, year: int, segment: int, court: int, origin: str) -> str:
    """``make_cnj`` without its checks (the fields here are made right): 10,000 at once."""
    digits = f"{sequence:07d}{year:04d}{segment}{court:02d}{origin}"
    check = 98 - int(digits + "00") % 97
    return f"{digits[:7]}-{check:02d}.{digits[7:11]}.{digits[11]}.{digits[12:14]}.{digits[14:]}"


@dataclass(frozen=True, slots=True)
class _Identity:
    court: Court
    state: str
    city_idx: int
    klass: tuple[int, str, str, str]
    distribution: datetime
    origin: str
    body: str


class Portfolio:
    """The portfolio's lawsuits (by index and by code) and their daily movements."""

    def __init__(
        self,
        seed: int,
        epoch: datetime,
        pop: Population,
        taken: Callable[[str], bool],
        size: int = PORTFOLIO_SIZE,
    ) -> None:
        self.seed = seed
        self.epoch = epoch
        self.size = size
        self._pop = pop
        self._taken = taken
        courts = {c.acronym: c for c in all_courts()}
        chosen = [(courts[a], w) for a, w in _COURTS if a in courts]
        self._court_list = [c for c, _w in chosen]
        self._court_weights = list(itertools.accumulate(w for _c, w in chosen))
        state_classes = {row[0]: row for row in names.CLASSES["state"]}
        classes = [(state_classes[c], w) for c, w in _CLASSES if c in state_classes]
        self._class_list = [c for c, _w in classes]
        self._class_weights = list(itertools.accumulate(w for _c, w in classes))
        self._seed_base = rng(seed, "portfolio").getrandbits(60) << 16
        self._codes: list[str] | None = None
        self._identities: list[_Identity] = []
        self._by_code: dict[str, int] = {}
        self._records: dict[int, LawsuitRec] = {}
        self._propensity: list[float] | None = None
        self._cumulative: list[float] = []
        self._days: OrderedDict[int, dict[int, int]] = OrderedDict()

    # ------------------------------------------------------------------ identities

    def _identity(self, r: random.Random) -> _Identity:
        court = r.choices(self._court_list, cum_weights=self._court_weights)[0]
        state = court.state or "SP"
        cities = names.CITIES[state]
        city_idx = r.randrange(len(cities)) if r.random() < 0.5 else 0
        klass = r.choices(self._class_list, cum_weights=self._class_weights)[0]
        age = 180 + (r.random() ** 1.5) * 6 * 365
        distribution = self.epoch - timedelta(days=age, seconds=r.randint(0, 86_399))
        origin, body = origin_for(court, state, city_idx, r, klass[2], klass[0])
        return _Identity(court, state, city_idx, klass, distribution, origin, body)

    def codes(self) -> list[str]:
        """The portfolio's CNJ numbers, index order. Made once (about 0.2 s), in one pass of
        one generator; each lawsuit's other details come from its own (``_build``)."""
        if self._codes is None:
            r = random.Random(self._seed_base)
            made: list[str] = []
            identities: list[_Identity] = []
            seen: set[str] = set()
            for _index in range(self.size):
                ident = self._identity(r)
                sequence = r.randint(1, 9_999_999)
                year, segment, court = (
                    ident.distribution.year,
                    ident.court.segment,
                    ident.court.code,
                )
                while True:
                    code = _cnj(sequence, year, segment, court, ident.origin)
                    if code not in seen and not self._taken(code):
                        break
                    sequence = sequence % 9_999_999 + 1
                seen.add(code)
                made.append(code)
                identities.append(ident)
            self._identities = identities
            self._codes = made
            self._by_code = {code: index for index, code in enumerate(made)}
        return self._codes

    def index_of(self, code: str) -> int | None:
        self.codes()
        return self._by_code.get(code)

    def record(self, code: str) -> LawsuitRec | None:
        """The index record of a portfolio lawsuit (None: not one of them)."""
        index = self.index_of(code)
        if index is None:
            return None
        found = self._records.get(index)
        if found is None:
            found = self._records[index] = self._build(index, code)
        return found

    def _build(self, index: int, code: str) -> LawsuitRec:
        ident = self._identities[index]
        r = random.Random(self._seed_base + 1 + index)
        origin, body = ident.origin, ident.body
        pop = self._pop
        creditor = pop.bank if r.random() < 0.7 else r.choice(pop.big_companies[1:])
        debtor = r.choice(pop.persons) if r.random() < 0.8 else r.choice(pop.companies)
        lawyers = pop.lawyers_by_state[ident.state]
        code_, class_name, area, kind = ident.klass
        if code_ == 436:
            kind = "jec"
        active, passive = (
            ("EXEQUENTE", "EXECUTADO")
            if code_ == 159
            else names.ROLES.get(kind, names.ROLES["civil"])
        )

        def lawyer() -> tuple[str, ...]:
            return (lawyers[1 + r.randrange(len(lawyers) - 1)],)

        # the debtor has a lawyer in most cases (not always: many are in default)
        parties = [
            PartyRef("Active", active, creditor, lawyer()),
            PartyRef("Passive", passive, debtor, lawyer() if r.random() < 0.6 else ()),
        ]
        end = self.epoch - timedelta(days=r.uniform(2, 60))
        end = max(end, ident.distribution + timedelta(days=5))
        age_years = (self.epoch - ident.distribution).days / 365
        n_steps = max(6, int(8 + age_years * r.uniform(6, 16)))
        stored = self.epoch - timedelta(hours=r.uniform(1, 24 * 20))
        instance = InstanceRec(
            1,
            (code_, class_name),
            body,
            judge_title(ident.court, 1),
            ident.distribution,
            end,
            n_steps,
            r.random() < min(0.6, age_years * 0.15),
            False,
            False,
            0.0,
            max(min(stored, end), ident.distribution + timedelta(hours=6)),
        )
        instance.schedule = PortfolioTrack(self, index)
        rec = LawsuitRec(
            code,
            ident.court,
            origin,
            ident.state,
            names.CITIES[ident.state][ident.city_idx][0],
            area,
            kind,
            tuple(r.sample(names.SUBJECTS[area], 1)),
            round(min(2e6, r.lognormvariate(9.6, 1.1)), 2),
            parties,
            [instance],
            0,
            False,
            tribunal_number=ident.court.segment * 100 + ident.court.code,
        )
        return rec

    # ------------------------------------------------------------------ movement

    def propensity(self, index: int) -> float:
        """How likely the lawsuit is to be among a day's movers (quiet 0.2 .. busy 6)."""
        if self._propensity is None:
            shares = list(itertools.accumulate(share for _w, share in _PROPENSITY))
            values = [w for w, _share in _PROPENSITY]
            found = []
            for i in range(self.size):
                roll = rng(self.seed, "portfolio-propensity", i).random() * shares[-1]
                found.append(values[bisect.bisect_right(shares, roll)])
            self._propensity = found
            self._cumulative = list(itertools.accumulate(found))
        return self._propensity[index]

    def day_of(self, moment: datetime) -> int:
        """Days after the epoch's day (Brasília's calendar) of ``moment``."""
        return ((moment + _BRASILIA).date() - (self.epoch + _BRASILIA).date()).days

    def _date(self, day: int) -> date:
        return (self.epoch + _BRASILIA).date() + timedelta(days=day)

    def movers(self, day: int) -> dict[int, int]:
        """The lawsuits that move on ``day`` (after the epoch's), with how many steps each."""
        if day < 0:
            return {}
        found = self._days.get(day)
        if found is not None:
            self._days.move_to_end(day)
            return found
        self.propensity(0)
        r = rng(self.seed, "portfolio-day", day)
        count = _poisson(r, movers_expected(self._date(day)))
        picked = r.choices(range(self.size), cum_weights=self._cumulative, k=count)
        steps_weights = list(itertools.accumulate(w for _n, w in _STEPS_PER_EVENT))
        found = {}
        for index in picked:
            steps = r.choices([n for n, _w in _STEPS_PER_EVENT], cum_weights=steps_weights)[0]
            found[index] = min(5, found.get(index, 0) + steps)
        self._days[day] = found
        if len(self._days) > 800:
            self._days.popitem(last=False)
        return found

    def times(self, index: int, until: datetime) -> list[datetime]:
        """When the lawsuit's steps after the epoch fall, up to ``until``, in order."""
        found: list[datetime] = []
        for day in range(0, self.day_of(until) + 1):
            count = self.movers(day).get(index, 0)
            if not count:
                continue
            r = rng(self.seed, "portfolio-times", index, day)
            opening = datetime.combine(self._date(day), datetime.min.time(), self.epoch.tzinfo)
            start = opening - _BRASILIA + timedelta(hours=9)  # 9h in Brasília
            moments = sorted(
                start + timedelta(seconds=r.randint(0, 10 * 3600)) for _ in range(count)
            )
            found.extend(m for m in moments if self.epoch < m <= until)
        return found


class PortfolioTrack:
    """The schedule of one portfolio lawsuit's steps after the epoch (steps.py asks it
    instead of the periodic slots of the world's other moving lawsuits)."""

    __slots__ = ("index", "portfolio")

    def __init__(self, portfolio: Portfolio, index: int) -> None:
        self.portfolio = portfolio
        self.index = index

    def count(self, at: datetime) -> int:
        """How many of its steps after the epoch are dated at or before ``at``."""
        if at <= self.portfolio.epoch:
            return 0
        return len(self.portfolio.times(self.index, at))

    def time(self, k: int) -> datetime:
        """When its step ``k`` (0: the first after the epoch) falls (asked only of a step
        that :meth:`count` said exists: the days are read forward until it is found)."""
        portfolio = self.portfolio
        seen = 0
        for day in range(0, 36_500):
            count = portfolio.movers(day).get(self.index, 0)
            if seen + count > k:
                end = portfolio.epoch + timedelta(days=day + 2)
                return portfolio.times(self.index, end)[k]
            seen += count
        raise IndexError(k)
