"""The service: games, players and mail in the database, in four wings.

- :mod:`pbem.service.core`: the tables, the database session, errors,
  links, the task queue, a game's stored state; imports no wing.
- :mod:`pbem.service.post`: notices and their delivery (the outbox); never
  imports :mod:`pbem.service.play`.
- :mod:`pbem.service.accounts`: players, sign-in, bounces.
- :mod:`pbem.service.play`: games, turns, orders, resolution, held orders,
  deadlines, replays.

At the top: the Celery app and its tasks (:mod:`pbem.service.celery_app`,
:mod:`pbem.service.tasks`, :mod:`pbem.service.embedded`) and the intake of
inbound mail (:mod:`pbem.service.inbound`). docs/architecture.md draws the
layout and its rules.
"""
