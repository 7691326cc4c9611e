"""The one subscribe/unsubscribe contract of the client, the services and the store."""

from __future__ import annotations

import threading
from collections.abc import Callable

from lawsuit_tui.domain.listeners import Listeners


def test_listeners_are_told_in_order_until_they_unsubscribe() -> None:
    told: list[str] = []
    listeners: Listeners[Callable[[str], None]] = Listeners()
    listeners.add(lambda what: told.append(f"a:{what}"))
    unsubscribe_b = listeners.add(lambda what: told.append(f"b:{what}"))
    for listener in listeners:
        listener("one")
    unsubscribe_b()
    for listener in listeners:
        listener("two")
    assert told == ["a:one", "b:one", "a:two"]
    assert len(listeners) == 1


def test_unsubscribing_twice_removes_one_registration_only() -> None:
    told: list[int] = []
    listeners: Listeners[Callable[[], None]] = Listeners()

    def listener() -> None:
        told.append(1)

    first = listeners.add(listener)
    listeners.add(listener)
    first()
    first()
    for each in listeners:
        each()
    assert told == [1]


def test_a_listener_may_unsubscribe_while_being_told() -> None:
    told: list[str] = []
    listeners: Listeners[Callable[[], None]] = Listeners()
    unsubscribe_first: Callable[[], None] = lambda: None  # noqa: E731 (set just below)

    def first() -> None:
        told.append("first")
        unsubscribe_first()

    unsubscribe_first = listeners.add(first)
    listeners.add(lambda: told.append("second"))
    for listener in listeners:
        listener()
    for listener in listeners:
        listener()
    assert told == ["first", "second", "second"]


def test_threads_subscribing_at_once_all_stay_registered() -> None:
    listeners: Listeners[int] = Listeners()
    start = threading.Barrier(8)

    def subscribe_many(offset: int) -> None:
        start.wait()
        for n in range(200):
            listeners.add(offset * 1000 + n)

    threads = [threading.Thread(target=subscribe_many, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(listeners) == sorted(i * 1000 + n for i in range(8) for n in range(200))
