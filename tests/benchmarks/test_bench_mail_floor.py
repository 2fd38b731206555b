"""The service bench's mail timing and the framework floor's figures
(issue 24): the arithmetic, never how fast anything is."""
from __future__ import annotations

from pbem_dev.bench.floor import FloorResult, ratio_line
from pbem_dev.bench.service import MailReports, NotificationWatch, ServiceBenchResult, Sink


def test_a_notice_sent_at_once_times_its_orders_to_its_mail():
    w, sink = NotificationWatch(), Sink(0.0, 1e9)
    lo = sink.lo
    w.seen("5:turn:turn:5:11:1", lo + 2.0, row_id=40, due=True)
    w.seen("5:turn:turn:5:11:2", lo + 2.0, row_id=41, due=False)   # a live player's: waits its grace
    assert w.due_for(5, 11) and not w.due_for(5, 12) and not w.due_for(6, 11)
    w.expect_mail(5, 11, sink, [lo + 1.0, lo + 1.5])
    w.mail(41, lo + 2.5)                                          # not a notice sent at once: not timed
    assert sink.mail_latencies == [] and w.not_mailed() == 2
    w.mail(40, lo + 3.0)
    assert [round(ms) for ms in sink.mail_latencies] == [2000, 1500] and w.not_mailed() == 0


def test_a_mail_that_came_first_times_the_orders_at_once():
    w, sink = NotificationWatch(), Sink(0.0, 1e9)
    lo = sink.lo
    w.mail(7, lo + 1.5)                                           # before its row was read
    w.seen("3:over:over:3:0", lo + 1.6, row_id=7, due=True)
    assert w.due_for(3, None)
    w.expect_mail(3, None, sink, [lo + 1.0])
    assert [round(ms) for ms in sink.mail_latencies] == [500]


def test_the_sinks_report_names_the_outbox_row_by_its_envelope_sender():
    w, sink = NotificationWatch(), Sink(0.0, 1e9)
    w.seen("5:turn:turn:5:11:1", 2.0, row_id=40, due=True)
    w.expect_mail(5, 11, sink, [sink.lo + 1.0])
    reports = MailReports(w)
    reports.datagram_received(b"100.0 play+bounce-39-abc@bench.example.org", None)   # another row
    assert not sink.mail_latencies
    reports.datagram_received(b"100.0 play+bounce-40-abc@bench.example.org", None)
    assert len(sink.mail_latencies) == 1


def test_the_mail_line_counts_a_mail_that_never_came_as_endless():
    r = ServiceBenchResult(games=1, seats=2, stored_games=0, seconds=1.0, orders=2, latencies_ms=[1.0, 2.0],
                           mail_latencies_ms=[300.0, 400.0, 500.0], mail_missed=0)
    assert r.mail_line() == ("mail: 3 orders answered by a notice sent at once, p50 400 ms, p99 500 ms "
                             "order-to-mail, 0 never mailed (superseded: the seat moved first)")
    r.mail_missed = 1
    assert "p99 inf ms" in r.mail_line() and "1 never mailed" in r.mail_line()


def test_the_floor_ratio_is_pbems_server_cpu_per_order_over_the_floors_per_request():
    floor = FloorResult(requests=200, refused=0, seconds=10.0, latencies_ms=[2.0] * 200,
                        cpu={"web": 0.4, "postgres": 0.1})
    assert floor.cpu_ms_per_request() == {"web": 2.0, "postgres": 0.5, "server": 2.5}
    assert ratio_line(5.0, floor) == ("floor ratio: pbem 5.00 ms server CPU per order / floor 2.50 ms "
                                      "per request = 2.00x")
    assert floor.line().startswith("floor: 20 requests/s")
    assert "server CPU ms per request 2.50 (web 2.00, postgres 0.50)" in floor.line()
