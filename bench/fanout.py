"""Fan-out benchmark (not a test): the hub's cost per committed move, in process.

    .venv/bin/python bench/fanout.py [--players 4] [--spectators 50] [--deals 20]

A real room (app/rooms/state.py) plays random deals; after every event the hub
diffs and encodes the views (``prepare``) and sends them to every connection
(``flush``), whose sinks only count bytes.  Reports microseconds per event and
per connection, and how many distinct message strings one patch became: the
public operations are encoded once, and all spectators get the very same string.
Also times a snapshot for a reconnecting connection.
"""

from __future__ import annotations

import argparse
import random
import time

from app.engine.rules import RuleSet
from app.realtime.hub import Hub
from app.rooms.domain.event_codec import stored_event
from app.rooms.domain.events import DEAL, MATCH, PLAY, SEAT, RoomEvent
from app.rooms.domain.state import RoomOptions, RoomState


class CountingSink:
    def __init__(self) -> None:
        self.bytes = 0
        self.messages = 0
        self.last: str | None = None

    def send_text(self, text: str) -> None:
        self.bytes += len(text)
        self.messages += 1
        self.last = text

    def close(self, code: int) -> None:
        pass


def run(players: int, spectators: int, deals: int, seed: int) -> None:
    rng = random.Random(seed)
    st = RoomState("b" * 32, "BENCH1", players, RuleSet.from_dict({}), RoomOptions())
    hub = Hub()
    sinks: list[tuple[int | None, CountingSink]] = [(s, CountingSink()) for s in range(players)]
    sinks += [(None, CountingSink()) for _ in range(spectators)]

    def step(ev: RoomEvent) -> float:
        started = time.perf_counter()
        st.apply(ev)
        hub.flush(
            hub.prepare(st.seq, st.public_view, st.private_view), st.public_view, st.private_view
        )
        return time.perf_counter() - started

    for i in range(players):
        step(stored_event(st.seq + 1, SEAT, seat=i, data={"name": f"Spieler Ø{i}"}))
    step(stored_event(st.seq + 1, MATCH, data={"match_no": 1, "first_dealer": 0}))
    for seat, sink in sinks:
        hub.attach(seat, sink, st.public_view, st.private_view, st.seq, None)
    spent, events, distinct = 0.0, 0, 0
    for deal_no in range(1, deals + 1):
        if st.deal is None or st.deal.is_over:
            spent += step(
                stored_event(
                    st.seq + 1, DEAL, data={"seed": f"s{deal_no}", "deal_no": st.deal_no + 1}
                )
            )
            events += 1
        while st.deal is not None and not st.deal.is_over:
            m = rng.choice(st.deal.legal_moves())
            spent += step(
                stored_event(st.seq + 1, PLAY, seat=st.deal.to_move, card=m.card, take=m.take)
            )
            events += 1
            distinct += len({id(sink.last) for _, sink in sinks})
        if st.match is not None and st.status == "finished":
            break
    connections = len(sinks)
    print(
        f"{events} events, {connections} connections: "
        f"{spent / events * 1e6:.0f} us per event, "
        f"{spent / events / connections * 1e6:.2f} us per connection-message; "
        f"{distinct / events:.1f} distinct message objects per move"
    )
    started = time.perf_counter()
    n = 2000
    for _ in range(n):
        late = CountingSink()
        hub.attach(None, late, st.public_view, st.private_view, st.seq, None)
        hub.detach(None, late)
    print(f"snapshot for a new connection: {(time.perf_counter() - started) / n * 1e6:.0f} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--spectators", type=int, default=50)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    run(args.players, args.spectators, args.deals, args.seed)


if __name__ == "__main__":
    main()
