"""The service's core: tables (:mod:`~pbem.service.core.models`), the
database session (:mod:`~pbem.service.core.db`), errors, links, the task
queue, rate counts, a game's stored engine state and orders written in a
player's language. Imports no other wing of the service."""
